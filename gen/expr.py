"""Safe parsing and evaluation of the function a kernel approximates.

A config names its function as an expression in ``x`` such as ``exp(-x)``.
It is parsed with :mod:`ast` into a small tree of allowed operations, never
evaluated with ``eval``.  The same tree is evaluated three ways:

* with :mod:`mpmath` at any precision (Remez, quantization);
* with ``mpmath.iv`` intervals (rigorous bounds, see :mod:`gen.proof.approximation`);
* as C code calling MPFR (the checker's reference, :func:`gen.cemit.to_mpfr_c`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, Callable, Union

import mpmath

from .errors import GenError

# Functions an expression may call, with their MPFR names.
FUNCTIONS: dict[str, str] = {
    "exp": "mpfr_exp",
    "expm1": "mpfr_expm1",
    "log": "mpfr_log",
    "log1p": "mpfr_log1p",
    "sqrt": "mpfr_sqrt",
    "sin": "mpfr_sin",
    "cos": "mpfr_cos",
}

# Named constants, with the MPFR call that sets them.
CONSTANTS: dict[str, str] = {
    "pi": "mpfr_const_pi",
    "ln2": "mpfr_const_log2",
}


@dataclass(frozen=True)
class Num:
    """A literal, kept as its source text so that no binary rounding sneaks in."""

    text: str


@dataclass(frozen=True)
class Var:
    """The variable ``x``."""


@dataclass(frozen=True)
class Const:
    name: str


@dataclass(frozen=True)
class Neg:
    arg: "Node"


@dataclass(frozen=True)
class BinOp:
    op: str  # one of + - * /
    left: "Node"
    right: "Node"


@dataclass(frozen=True)
class Pow:
    """``base ** n`` with a non-negative integer exponent."""

    base: "Node"
    exponent: int


@dataclass(frozen=True)
class Call:
    func: str
    arg: "Node"


Node = Union[Num, Var, Const, Neg, BinOp, Pow, Call]

_BINOPS: dict[type, str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


def parse(text: str, key: str = "function", variable: bool = True) -> Node:
    """Parse ``text``; raise :class:`GenError` naming ``key`` if it is not allowed.

    With ``variable=False`` the expression must be a constant (domain ends).
    """
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise GenError(f"{key}: cannot parse {text!r}: {exc.msg}") from None
    return _convert(tree.body, text, key, variable)


def _convert(node: ast.AST, text: str, key: str, variable: bool) -> Node:
    def bad(what: str) -> GenError:
        return GenError(f"{key}: {what} in {text!r}")

    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            raise bad(f"unsupported literal {node.value!r}")
        segment = ast.get_source_segment(text.strip(), node)
        return Num(segment if segment is not None else repr(node.value))
    if isinstance(node, ast.Name):
        if node.id == "x":
            if not variable:
                raise bad("'x' is not allowed here")
            return Var()
        if node.id in CONSTANTS:
            return Const(node.id)
        raise bad(f"unknown name {node.id!r}")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _convert(node.operand, text, key, variable)
        return Neg(inner) if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        return BinOp(_BINOPS[type(node.op)],
                     _convert(node.left, text, key, variable),
                     _convert(node.right, text, key, variable))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        exponent = node.right
        if not (isinstance(exponent, ast.Constant) and isinstance(exponent.value, int)
                and not isinstance(exponent.value, bool) and 0 <= exponent.value <= 64):
            raise bad("'**' needs an integer exponent from 0 to 64")
        return Pow(_convert(node.left, text, key, variable), exponent.value)
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            raise bad("unknown function (allowed: " + ", ".join(sorted(FUNCTIONS)) + ")")
        if len(node.args) != 1 or node.keywords:
            raise bad(f"{node.func.id}() takes exactly one argument")
        return Call(node.func.id, _convert(node.args[0], text, key, variable))
    raise bad(f"unsupported syntax {type(node).__name__}")


def evaluate(node: Node, x: Any, ctx: Any) -> Any:
    """Evaluate ``node`` at ``x`` in the mpmath context ``ctx`` (``mp`` or ``iv``)."""
    if isinstance(node, Num):
        return ctx.mpf(node.text)
    if isinstance(node, Var):
        return x
    if isinstance(node, Const):
        return getattr(ctx, node.name)
    if isinstance(node, Neg):
        return -evaluate(node.arg, x, ctx)
    if isinstance(node, BinOp):
        a, b = evaluate(node.left, x, ctx), evaluate(node.right, x, ctx)
        ops: dict[str, Callable[[Any, Any], Any]] = {
            "+": lambda p, q: p + q, "-": lambda p, q: p - q,
            "*": lambda p, q: p * q, "/": lambda p, q: p / q}
        return ops[node.op](a, b)
    if isinstance(node, Pow):
        return evaluate(node.base, x, ctx) ** node.exponent
    if isinstance(node, Call):
        return getattr(ctx, node.func)(evaluate(node.arg, x, ctx))
    raise TypeError(node)


def is_finite_real(node: Node) -> bool:
    """Whether a constant expression has a finite real value (log(0),
    sqrt(-1), 1/0 and overflows have none), evaluated at 30 digits."""
    with mpmath.workdps(30):
        try:
            value = +evaluate(node, None, mpmath.mp)   # "+" turns a constant such as ln2 into a number
        except (ValueError, ZeroDivisionError, OverflowError, ArithmeticError):
            return False
    return isinstance(value, mpmath.mpf) and bool(mpmath.isfinite(value))
