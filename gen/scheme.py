"""Evaluation schemes as small expression graphs of fixed-point operations.

A scheme says which products and sums evaluate p(v) = sum_j a_j v^j; the
quantizer (:mod:`gen.quantize`) then gives every node a scale and a sign and
proves ranges and errors node by node, so Horner and Estrin share one proof.

Nodes, in an order where every node follows its operands:

* ``var``: T, the offset word; v = T / 2^W.
* ``const j``: the table word K_j (coefficient of v^j).
* ``mul a b``: mulhi(U_a, U_b) = floor(U_a U_b / 2^W); a *wide* product
  keeps all 2W bits (exact).
* ``add a b``: U_a and U_b aligned by constant shifts, then added or
  subtracted; a ``const`` operand is stored at the sum's scale when it fits
  a word.  A *wide* sum is computed on 2W bits.
* ``ftail v K_k .. K_d``: the powers k..d evaluated in binary64 and
  truncated to a word (:mod:`gen.floattail`); its constants are stored as
  53-bit significands.

``wide`` schemes keep the chain that carries the constant coefficient a_0
(the root of Horner, or its last ``wide`` steps; the a_0 "spine" of Estrin)
in 2W bits: its first product is exact, later ones keep 2W bits of three,
and its sums do not truncate, so the only truncation errors left are those
of the small high-order terms.  That is what a faithful 64-bit
kernel needs, since the result itself uses every bit of a word.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Optional

from .errors import GenError


@dataclass(frozen=True)
class Node:
    kind: str                      # "var", "const", "mul", "add", "ftail"
    args: tuple[int, ...] = ()     # operand node indices
    power: Optional[int] = None    # for "const": j
    label: str = ""                # for comments in the generated C
    wide: bool = False             # a 2W-bit value: exact product, or a sum of two words
    narrow: bool = False           # a 32-bit value in a 64-bit kernel (multiplier = "truncated")


class Scheme:
    """A DAG of nodes; the last node is the polynomial's value."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.nodes: list[Node] = []
        self._var: Optional[int] = None
        # multiplier = "truncated": the absolute error each truncated product
        # may lose (gen/quantize/limbs.py); None for full products.
        self.truncation_budget: Optional[Fraction] = None
        # Optionally one budget per product, in node order (Horner: the top
        # step first); None: every product gets truncation_budget.
        self.product_budgets: Optional[tuple[Fraction, ...]] = None

    def budget_for(self, n: int) -> Optional[Fraction]:
        """The truncation budget of product node n."""
        if self.product_budgets is None:
            return self.truncation_budget
        k = sum(1 for node in self.nodes[:n] if node.kind == "mul")
        return self.product_budgets[k]

    def _add(self, node: Node) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def var(self) -> int:
        if self._var is None:
            self._var = self._add(Node("var", label="v"))
        return self._var

    def const(self, j: int) -> int:
        return self._add(Node("const", power=j, label=f"a{j}"))

    def mul(self, a: int, b: int, label: str, wide: bool = False) -> int:
        return self._add(Node("mul", (a, b), label=label, wide=wide))

    def add(self, a: int, b: int, label: str, wide: bool = False) -> int:
        return self._add(Node("add", (a, b), label=label, wide=wide))

    def ftail(self, first: int, degree: int) -> int:
        consts = tuple(self.const(j) for j in range(first, degree + 1))
        return self._add(Node("ftail", (self.var(),) + consts, label="tail"))

    @property
    def tail(self) -> Optional[int]:
        return next((n for n, node in enumerate(self.nodes) if node.kind == "ftail"), None)

    @property
    def root(self) -> int:
        return len(self.nodes) - 1

    def consumers(self) -> dict[int, list[int]]:
        users: dict[int, list[int]] = {i: [] for i in range(len(self.nodes))}
        for i, node in enumerate(self.nodes):
            for a in node.args:
                users[a].append(i)
        return users


def horner(degree: int, wide: int = 0) -> Scheme:
    """y_d = a_d; y_j = a_j + v y_{j+1}: d products in a chain.  The last
    ``wide`` steps (products and sums, j < wide) are on 2W bits: the first
    of them multiplies two words exactly, the next ones multiply a 2W-bit
    y_{j+1} by v and keep the top 2W bits of the 3W-bit product (one floor,
    a fraction of a unit at scale 2^-(s + W))."""
    s = Scheme("horner")
    v = s.var()
    y = s.const(degree)
    for j in range(degree - 1, -1, -1):
        two_words = j < wide
        y = s.add(s.const(j), s.mul(y, v, f"v*y{j + 1}", wide=two_words), f"y{j}", wide=two_words)
    return s


def drops_word(nodes: list[Node], node: Node) -> bool:
    """Whether product ``node`` keeps floor(a b / 2^W): a one-word product
    (multiply-high), or a 2W-bit one whose operand is itself 2W bits wide;
    only a wide product of two words is exact."""
    return not node.wide or any(nodes[a].wide for a in node.args)


def estrin(degree: int, wide: int = 0) -> Scheme:
    """Estrin's scheme: pairs a_2i + a_2i+1 v, then pairs of pairs with v^2,
    v^4, ...: about log2(d) products deep instead of d.  With ``wide`` the
    spine (every sum that contains a_0, and the products feeding it) is
    kept on 2W bits."""
    s = Scheme("estrin")
    v = s.var()
    terms: list[int] = []
    for i in range(0, degree + 1, 2):
        spine = wide and i == 0
        if i + 1 <= degree:
            terms.append(s.add(s.const(i), s.mul(s.const(i + 1), v, f"a{i + 1}*v", wide=spine),
                               f"p{i}_{i + 1}", wide=spine))
        else:
            terms.append(s.const(i))
    power, width = v, 1
    while len(terms) > 1:
        power = s.mul(power, power, f"v^{2 * width}")
        width *= 2
        merged = []
        for k in range(0, len(terms), 2):
            if k + 1 < len(terms):
                spine = wide and k == 0
                merged.append(s.add(terms[k], s.mul(terms[k + 1], power, f"v^{width}*q", wide=spine),
                                    f"q{width}_{k // 2}", wide=spine))
            else:
                merged.append(terms[k])
        terms = merged
    return s


def narrowed(s: Scheme, narrow: set[int], budget: Optional[Fraction]) -> Scheme:
    """A copy of s whose nodes in ``narrow`` hold 32-bit words, with a
    truncation budget (multiplier = "truncated")."""
    out = Scheme(s.name)
    out.nodes = [replace(nd, narrow=n in narrow) for n, nd in enumerate(s.nodes)]
    out._var = s._var
    out.truncation_budget = budget
    out.product_budgets = s.product_budgets
    return out


SCHEMES = {"horner": horner, "estrin": estrin}


def build(name: str, degree: int, wide: int = 0, float_tail: Optional[int] = None) -> Scheme:
    """The scheme for p of the given degree; with ``float_tail = k`` the
    powers k..degree are one binary64 ``ftail`` node, added to the integer
    scheme of degree k - 1 by a last (wide) sum."""
    if name not in SCHEMES:
        raise GenError(f"evaluation: {name!r} is not one of {', '.join(sorted(SCHEMES))}")
    if float_tail is None:
        return SCHEMES[name](degree, wide)
    s = SCHEMES[name](float_tail - 1, wide)
    integer_root = s.root
    s.add(integer_root, s.ftail(float_tail, degree), "y", wide=wide)
    return s
