"""The C-expression helpers of the one C emitter: templates (``templates/``)
hold every line of C text, and this module builds the expressions and
statements they insert (one statement per scheme step, limb products,
binary64 tail operations, number literals, the checker's MPFR reference).
No other module writes C."""

from __future__ import annotations

from decimal import ROUND_CEILING, Context, Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Optional, Sequence

from . import expr
from .floattail import Op, hex_double
from .errors import GenError
from .quantize import Quantized, operand_shift
from .quantize.limbs import LIMB_BITS, Limb, TruncPlan
from .scheme import Node

# A limb product's operand: (word, its width, the right shift applied before
# the product[, (u, g): read T's limbs from u, see var_source]).
Operand = tuple

if TYPE_CHECKING:
    from .kernel import Kernel
    from .quantize.head import HeadPlan

Step = dict[str, str]   # one C statement: {"name", "type", "expr", "comment"}


def round_up(value: Fraction, digits: int = 6) -> str:
    """A decimal string >= value (with a relative margin of 2^-40, so that
    the double a C compiler makes of it is still >= value)."""
    margin = value * (1 + Fraction(1, 1 << 40))
    decimal = Decimal(margin.numerator) / Decimal(margin.denominator)
    rounded = Context(prec=digits, rounding=ROUND_CEILING).plus(decimal)
    text = format(rounded, "f") if abs(rounded) >= Decimal("1e-4") else format(rounded, "e")
    return text if any(c in text for c in ".e") else text + ".0"


def mulhi_name(multiplier: str, word_bits: int) -> str:
    """The fxp.h multiply-high of a strategy (the `multiplier` key)."""
    if multiplier == "umaal":
        # UMULL, UMULL, UMAAL, UMAAL for 64-bit words; one UMULL for 32-bit ones.
        return "fxp_mulhi64_umaal" if word_bits == 64 else "fxp_mulhi32_limb32"
    suffix = {"umull": "_limb32", "mul16": "_mul16"}.get(multiplier, "")
    return f"fxp_mulhi{word_bits}{suffix}"


def _operand(nodes: Sequence[Node], names: list[str], a: int, r: int, into_wide: bool, narrow: bool) -> str:
    """Operand a of a sum, shifted by r (right if r > 0) and widened or cast
    to the sum's word."""
    text = names[a]
    if narrow and nodes[a].kind == "const":
        text = f"(uint32_t){text}"
    elif nodes[a].narrow and not narrow and not into_wide and r < 0:
        text = f"(uint64_t){text}"
    if into_wide and not nodes[a].wide:
        if r > 0:
            return f"fxp_wide_of({text} >> {r})"
        text = f"fxp_wide_of({text})"
        return f"fxp_wide_shl({text}, {-r})" if r < 0 else text
    if nodes[a].wide:
        return f"fxp_wide_shr({text}, {r})" if r > 0 else (f"fxp_wide_shl({text}, {-r})" if r < 0 else text)
    return f"({text} >> {r})" if r > 0 else (f"({text} << {-r})" if r < 0 else text)


def _sum(qz: Quantized, names: list[str], n: int) -> str:
    """The expression of sum node n: the positive term first."""
    nodes = qz.scheme.nodes
    node, terms = nodes[n], qz.terms[n]
    assert terms is not None
    parts = sorted(((sign, _operand(nodes, names, a, r, node.wide, node.narrow))
                    for a, (sign, r) in zip(node.args, terms)), key=lambda p: -p[0])
    if node.wide:
        fn = "fxp_wide_add" if parts[1][0] > 0 else "fxp_wide_sub"
        text = f"{fn}({parts[0][1]}, {parts[1][1]})"
        bias = qz.root_bias if n == qz.root else 0
        if bias:
            # The root bias (Quantized.root_bias): a two-word constant; the
            # sum wraps modulo 2^128 exactly, its true value lies in [0, 2^128).
            mag = abs(bias)
            text = (f"fxp_wide_{'add' if bias > 0 else 'sub'}({text}, "
                    f"fxp_wide_make(UINT64_C(0x{mag >> 64:016x}), UINT64_C(0x{mag & ((1 << 64) - 1):016x})))")
        return text
    assert not (n == qz.root and qz.root_bias), "a root bias needs a two-word root"
    return parts[0][1] + "".join(f" {'+' if sg > 0 else '-'} {t}" for sg, t in parts[1:])


def _limb_mul(qz: Quantized, names: list[str], n: int, out: list[Step], emitted: set[str],
              var_source: Optional[tuple[str, int]] = None) -> str:
    """The statements (appended to ``out``) and the result of limb product n;
    a constant operand is first read into a word of its own.  With
    ``var_source`` = (u, g) the limbs of the variable T are read from u
    (T = (u & mask) << g, see :func:`c_limb_shifted`)."""
    nodes, W = qz.scheme.nodes, qz.word_bits
    word_t = f"uint{W}_t"
    operands: list[Operand] = []
    for x in nodes[n].args:
        word = names[x] if nodes[x].kind != "const" else f"k{nodes[x].power}"
        if nodes[x].kind == "const" and word not in emitted:
            emitted.add(word)
            out.append({"name": word, "type": "uint32_t" if nodes[x].narrow else word_t,
                        "expr": f"{'(uint32_t)' if nodes[x].narrow else ''}{names[x]}",
                        "comment": f"K_{nodes[x].power}"})
        source = var_source if nodes[x].kind == "var" else None
        operands.append((word, 32 if nodes[x].narrow else W, operand_shift(qz.scheme, n, x, W), source))
    pre, text = limb_product(qz.plans[n] if qz.plans else None, operands, f"mul{n}",
                             32 if nodes[n].narrow else W, emitted)
    out.extend(pre)
    return text


def _fused_step(k: Kernel, out: list[Step], names: list[str], n: int) -> Optional[str]:
    """multiplier = "umaal": a sum node K_j - mul (no shifts, 64-bit words),
    whose product is used by this sum only, becomes one
    fxp_submulhi64_umaal(K_j, a, b) call (its product's statement, the last
    one emitted, is dropped); None when the pattern does not apply."""
    qz = k.qz
    nodes = qz.scheme.nodes
    node, terms = nodes[n], qz.terms[n]
    if k.cfg.multiplier != "umaal" or k.cfg.word_bits != 64 or node.wide or node.narrow or terms is None:
        return None
    if len(node.args) != 2 or any(r != 0 for _, r in terms):
        return None
    (c, (sc, _)), (m, (sm, _)) = sorted(zip(node.args, terms), key=lambda t: -t[1][0])
    if (sc, sm) != (1, -1) or nodes[c].kind != "const" or nodes[m].kind != "mul" or nodes[m].wide:
        return None
    if sum(m in other.args for other in nodes if other.kind not in ("var", "const", "ftail")) != 1:
        return None
    if not out or out[-1]["name"] != names[m]:
        return None
    out.pop()
    a, b = (names[x] for x in nodes[m].args)
    return f"fxp_submulhi64_umaal({names[c]}, {a}, {b})"


def _column_step(k: Kernel, out: list[Step], names: list[str], n: int) -> Optional[str]:
    """A 64-bit sum node a -/+ m, where m is a limb product used by this sum
    only, becomes a chain of column macros (c_column) on a: a 64-bit
    product's combine statement (the last one emitted) is dropped and its
    accumulators enter the chain one by one; a 32-bit product enters as one
    column.  The same value modulo 2^64 as the sum written in C; None when
    the pattern does not apply."""
    qz = k.qz
    nodes = qz.scheme.nodes
    node, terms = nodes[n], qz.terms[n]
    if not qz.plans or k.cfg.word_bits != 64 or node.wide or node.narrow or terms is None or len(node.args) != 2:
        return None
    (a, (sa, ra)), (m, (sm, rm)) = sorted(zip(node.args, terms), key=lambda t: (nodes[t[0]].kind == "mul", -t[1][0]))
    if sa != 1 or ra != 0 or nodes[m].kind != "mul" or nodes[m].wide or nodes[a].narrow:
        return None
    if sum(m in other.args for other in nodes if other.kind not in ("var", "const", "ftail")) != 1:
        return None
    op = "sub" if sm < 0 else "add"
    if nodes[m].narrow:
        return c_column(op, names[a], names[m], -rm) if -32 < -rm < 64 else None
    plan = qz.plans[m]
    if plan is None or rm != 0 or not out or out[-1]["name"] != names[m]:
        return None
    out.pop()
    accs = [f"{names[m]}_c{g}" for g in range(len(plan.groups))]
    return c_column_chain(names[a], op, column_shifts(plan, accs))


def _table_read(k: Kernel, j: Optional[int]) -> str:
    """The C expression of K_j from the row pointer k: k[j], or with
    table_layout = "mixed" (uint32_t words, a 64-bit K_j low word first)
    k[o] for a 32-bit K_j and the two words joined for a 64-bit one."""
    assert j is not None
    if k.cfg.table_layout != "mixed":
        return f"k[{j}]"
    bits = k.coefficient_bits
    offset = sum(bits[:j]) // 32
    if bits[j] == 32:
        return f"k[{offset}]"
    return f"(((uint64_t)k[{offset + 1}] << 32) | k[{offset}])"


def steps(k: Kernel, digits: int) -> tuple[list[Step], str]:
    """One C statement per product or sum of the scheme, with its proven range."""
    qz = k.qz
    nodes = qz.scheme.nodes
    W = k.cfg.word_bits
    names: list[str] = []
    out: list[Step] = []
    emitted: set[str] = set()
    leaves = {"var": "T", "ftail": "tail"}   # the tail word is a parameter of _join (kernel.h.j2)
    for n, node in enumerate(nodes):
        if node.kind in leaves or node.kind == "const":
            names.append(leaves[node.kind] if node.kind in leaves else _table_read(k, node.power))
            continue
        if node.kind == "mul" and (node.narrow or (qz.plans and qz.plans[n] is not None)):
            name, text = f"mul{n}", _limb_mul(qz, names, n, out, emitted, var_source(k))
        elif node.kind == "mul":
            name = f"mul{n}"
            a, b = (names[x] for x in node.args)
            if node.wide and nodes[node.args[0]].wide:
                text = f"fxp_wide_mulhi({a}, {b})"
            elif node.wide and nodes[node.args[1]].wide:
                text = f"fxp_wide_mulhi({b}, {a})"
            elif node.wide:
                text = f"fxp_wide_mul({a}, {b})"
            else:
                text = f"{mulhi_name(k.cfg.multiplier, W)}({a}, {b})"
        else:
            name, text = node.label.replace("^", ""), _sum(qz, names, n)
            fused = _fused_step(k, out, names, n)
            if fused is None:
                fused = _column_step(k, out, names, n)
            if fused is not None:
                text = fused
        lo = min(r[n][0] for r in qz.ranges)
        hi = max(r[n][1] for r in qz.ranges)
        sign = "-" if qz.signs[n] < 0 else "+"
        width = 2 * digits if node.wide else digits
        comment = f"{node.label}: {sign}U 2^-{qz.scales[n]}, U in [0x{lo:0{width}x}, 0x{hi:0{width}x}]"
        names.append(name)
        out.append({"name": name, "expr": text, "comment": comment,
                    "type": "fxp_wide" if node.wide else ("uint32_t" if node.narrow else f"uint{W}_t")})
    return out, names[-1]


def var_source(k: Kernel) -> Optional[tuple[str, int]]:
    """(u, g) when the variable T of a 64-bit pow2 kernel is (u & mask) << g
    with g > 0 (templates/kernel.h.j2): each limb of T is then a few bits of
    u, read from u directly so that no 64-bit shift of T is needed and a
    limb that would straddle T's two halves may not straddle u's; None
    otherwise (T's limbs are read from T)."""
    seg = k.seg
    if k.cfg.word_bits != 64 or seg.kind != "pow2" or seg.count == 1 or not seg.pre_shift:
        return None
    return "u", seg.pre_shift


def limb_product(plan: Optional[TruncPlan], operands: Sequence[Operand], name: str,
                 out_bits: int, emitted: set[str]) -> tuple[list[Step], str]:
    """C statements of a narrow and/or truncated product (gen/quantize/limbs.py):
    operands are (word, its width, right shift applied before the product,
    and optionally the (u, g) its limbs are read from, see :func:`var_source`);
    limbs already extracted (``emitted``) are reused."""
    if plan is None:   # a full 32-bit product of narrow operands
        (a, _, ra, _), (b, _, rb, _) = (tuple(op) + (None,) * (4 - len(op)) for op in operands)
        args = [f"(uint32_t)({x} >> {r})" if r else x for x, r in ((a, ra), (b, rb))]
        return [], f"fxp_mulhi32({args[0]}, {args[1]})"
    out: list[Step] = []
    limb_names: list[list[str]] = []
    used = [{p[k] for g in plan.groups for p in g} for k in (0, 1)]
    for operand, side, use in zip(operands, (plan.a, plan.b), used):
        word, width, shift = operand[:3]
        source = operand[3] if len(operand) > 3 else None
        row = []
        for index, limb in enumerate(side):
            pos = limb.pos + shift
            lname = f"{word}_l{pos}" + (f"_{limb.bits}" if limb.bits != LIMB_BITS else "")
            row.append(lname)
            if index in use and lname not in emitted:
                emitted.add(lname)
                out.append({"name": lname, "type": "uint32_t",
                            "expr": c_limb(word, width, limb, shift) if source is None
                            else c_limb_shifted(source, limb, shift),
                            "comment": f"bits {pos}..{pos + limb.bits - 1} of {word}"})
        limb_names.append(row)
    accs = []
    for g, group in enumerate(plan.groups):
        acc = f"{name}_c{g}"
        accs.append(acc)
        text = " + ".join(f"{limb_names[0][i]} * {limb_names[1][j]}" for i, j in group)
        out.append({"name": acc, "type": "uint32_t", "expr": text,
                    "comment": f"partial products at 2^{plan.position(g)}, < 2^32 (proven)"})
    return out, c_combine(plan, accs, out_bits)


def c_limb(name: str, word_bits: int, limb: Limb, extra_shift: int = 0) -> str:
    """C expression of a limb of the word ``name`` (uint32_t result);
    extra_shift: the operand is name >> extra_shift (a narrowed 64-bit word)."""
    pos = limb.pos + extra_shift
    mask = "" if pos + limb.bits >= word_bits else f" & 0x{(1 << limb.bits) - 1:x}u"
    if word_bits == 64:
        base = f"(uint32_t)({name} >> {pos})" if pos else f"(uint32_t){name}"
    else:
        base = f"({name} >> {pos})" if pos else name
    return f"{base}{mask}" if mask else base


def c_limb_shifted(source: tuple[str, int], limb: Limb, extra_shift: int = 0) -> str:
    """The limb of T = (u & mask) << g at T's bit p = limb.pos + extra_shift,
    read from u = source[0] (g = source[1]): T's bits p .. p + b - 1 are u's
    bits p - g .. p - g + b - 1, all under the mask (p + b <= 64), and T's
    bits below g are 0, so for p < g the limb is u's low bits shifted left by
    g - p.  The mask is always applied: u's bits above the mask (the index)
    must not enter."""
    name, g = source
    pos = limb.pos + extra_shift - g
    mask = f"0x{(1 << limb.bits) - 1:x}u"
    if pos >= 0:
        return f"(uint32_t)({name} >> {pos}) & {mask}" if pos else f"(uint32_t){name} & {mask}"
    return f"((uint32_t){name} << {-pos}) & {mask}"


def column_shifts(p: TruncPlan, acc_names: Sequence[str]) -> list[tuple[str, int]]:
    """Each accumulator of plan p with the left shift (right when negative)
    that puts it at the product's scale."""
    return [(name, p.position(g) - p.drop) for g, name in enumerate(acc_names)]


def c_column(op: str, y: str, c: str, r: int) -> str:
    """y - c 2^r or y + c 2^r (op "sub" or "add") on 64-bit words, c a 32-bit
    accumulator, as the fxp.h column macro for that shift (a Thumb-2
    SUBS/SBC or ADDS/ADC pair with a shifted operand, C elsewhere)."""
    assert op in ("sub", "add") and -32 < r < 64, (op, r)
    if r == 0:
        return f"fxp_{op}64({y}, {c})"
    if r < 0:
        return f"fxp_{op}64_shr({y}, {c}, {-r})"
    return f"fxp_{op}64_shl{'_hi' if r >= 32 else ''}({y}, {c}, {r})"


def c_column_chain(base: str, op: str, columns: Sequence[tuple[str, int]]) -> str:
    """base followed by one column macro per (accumulator, shift): the same
    value modulo 2^64 as base -/+ the sum of the shifted accumulators."""
    text = base
    for name, r in columns:
        text = c_column(op, text, name, r)
    return text


def c_combine(p: TruncPlan, acc_names: list[str], out_bits: int) -> str:
    """The sum of the shifted accumulators, in the result's word type
    (64-bit: the first term in C, the others added by column macros)."""
    columns = column_shifts(p, acc_names)
    if out_bits == 64:
        # The leading terms in C while the low word of their sum is a single
        # shifted accumulator (a term at 2^32 or above has a zero low word):
        # gcc writes those without a carry.
        lead = 2 if len(columns) > 1 and columns[0][1] >= 32 else 1
        base = " + ".join(f"((uint64_t){name} << {r})" if r > 0 else
                          (f"(uint64_t)({name} >> {-r})" if r < 0 else f"(uint64_t){name}")
                          for name, r in columns[:lead])
        return c_column_chain(f"({base})" if lead > 1 else base, "add", columns[lead:])
    parts = [f"({name} << {r})" if r > 0 else (f"({name} >> {-r})" if r < 0 else name) for name, r in columns]
    return " + ".join(parts)


def c_double(value: Fraction) -> str:
    """A C and C++ literal for a binary64 value: the shortest decimal that
    reads back as exactly that double under correct rounding (what gcc and
    clang do; C++ before 17 has no hexadecimal floating literals)."""
    hex_double(value)   # refuses a value that is not a binary64 value
    text = repr(float(value))
    if Fraction(float(text)) != value:
        raise GenError(f"float_tail: {text} does not read back as {value}")
    return text


class Syntax:
    """How one operation of the straight-line programs (:func:`tail_lines`,
    :func:`head_middle`) is written in C.  This one writes scalar C; the
    batch forms (gen/render/batch.py) subclass it to write the same
    operation, in the same order, on SIMD registers, so that the scalar and
    the SIMD code are two renderings of one operation list."""

    def fma(self, macro: str, a: str, b: str, c: str) -> str:
        return f"{macro}({a}, {b}, {c})"

    def binop(self, kind: str, a: str, b: str) -> str:
        return f" {dict(mul='*', add='+', sub='-')[kind]} ".join((a, b))

    def rounded(self, function: str, text: str) -> str:
        return f"{function}({text})"

    def double(self, literal: str) -> str:
        return literal

    def word(self, value: int) -> str:
        return f"UINT64_C(0x{value:016x})"

    def mulhi(self, a: str, b: str) -> str:
        return f"fxp_mulhi64({a}, {b})"

    def words(self, kind: str, a: str, b: str) -> str:
        return f"{a} {'+' if kind == 'add' else '-'} {b}"


SCALAR = Syntax()


def tail_lines(ops: Sequence[Op], coeffs: Sequence[Fraction], inputs: Sequence[str] = (),
               prefix: str = "f", fma: str = "FXP_FMA", v: str = "v", c: str = "c",
               rounded: str | None = None, syntax: Syntax = SCALAR) -> list[tuple[str, str, str]]:
    """(name, expression, comment) per operation after the inputs, one
    binary64 operation per statement (an "fma" one call of ``fma``, a fused
    multiply-add: one rounding); ``inputs`` names the extra inputs.

    With ``rounded`` (the name of a C function that returns its argument
    through an optimisation barrier), every product that an addition or a
    subtraction reads is passed through it, so that no compiler contracts
    the two into one FMA (gcc does across statements by default with FMA
    enabled): the proof counts the product's own rounding."""
    names: list[str] = []
    out = []
    summed = {a for op in ops if op.kind in ("add", "sub") for a in op.args}
    for n, op in enumerate(ops):
        if op.kind == "v":
            names.append(v)
        elif op.kind == "c":
            names.append(c)
        elif op.kind == "in":
            names.append(inputs[op.index])
        elif op.kind == "coef":
            names.append(syntax.double(c_double(coeffs[op.index])))
        else:
            name = f"{prefix}{n}"
            args = [names[a] for a in op.args]
            if op.kind == "fma":
                text = syntax.fma(fma, args[0], args[1], args[2])
            else:
                text = syntax.binop(op.kind, args[0], args[1])
                if rounded and op.kind == "mul" and n in summed:
                    text = syntax.rounded(rounded, text)
            out.append((name, text, op.label))
            names.append(name)
    return out


def to_mpfr_c(node: expr.Node, function_name: str) -> str:
    """C source of ``static void <function_name>(mpfr_ptr y, mpfr_srcptr x)``.

    Every intermediate is an MPFR variable with y's precision plus 64 guard
    bits, so the final rounding to y's precision dominates the error.
    """
    lines: list[str] = []
    temps: list[str] = []

    def fresh() -> str:
        name = f"t{len(temps)}"
        temps.append(name)
        return name

    def emit(n: expr.Node) -> str:
        if isinstance(n, expr.Var):
            return "x"
        out = fresh()
        if isinstance(n, expr.Num):
            lines.append(f'mpfr_set_str({out}, "{n.text}", 10, MPFR_RNDN);')
        elif isinstance(n, expr.Const):
            lines.append(f"{expr.CONSTANTS[n.name]}({out}, MPFR_RNDN);")
        elif isinstance(n, expr.Neg):
            lines.append(f"mpfr_neg({out}, {emit(n.arg)}, MPFR_RNDN);")
        elif isinstance(n, expr.BinOp):
            fn = {"+": "mpfr_add", "-": "mpfr_sub", "*": "mpfr_mul", "/": "mpfr_div"}[n.op]
            a, b = emit(n.left), emit(n.right)
            lines.append(f"{fn}({out}, {a}, {b}, MPFR_RNDN);")
        elif isinstance(n, expr.Pow):
            lines.append(f"mpfr_pow_ui({out}, {emit(n.base)}, {n.exponent}u, MPFR_RNDN);")
        elif isinstance(n, expr.Call):
            lines.append(f"{expr.FUNCTIONS[n.func]}({out}, {emit(n.arg)}, MPFR_RNDN);")
        return out

    result = emit(node)
    body = [f"static void {function_name}(mpfr_ptr y, mpfr_srcptr x)", "{",
            "    mpfr_prec_t prec = mpfr_get_prec(y) + 64;"]
    body += [f"    mpfr_t {t}; mpfr_init2({t}, prec);" for t in temps]
    body += ["    " + line for line in lines]
    body.append(f"    mpfr_set(y, {result}, MPFR_RNDN);")
    body += [f"    mpfr_clear({t});" for t in temps]
    body.append("}")
    return "\n".join(body) + "\n"



def _signed_sum(a: str, sa: int, b: str, sb: int, sign: int, syntax: Syntax = SCALAR) -> str:
    """The word of sign * (sa * a + sb * b), a and b words (magnitudes)."""
    terms = sorted(((sign * sa, a), (sign * sb, b)), key=lambda t: -t[0])
    if terms[0][0] < 0:
        raise GenError("form head: internal error, a middle word would be negative")
    return syntax.words("add" if terms[1][0] > 0 else "sub", terms[0][1], terms[1][1])


def head_middle(plan: "HeadPlan", syntax: Syntax = SCALAR) -> list[tuple[str, str, str]]:
    """(name, expression, comment) of the middle of form "head": the pairs
    n_2i + n_2i+1 x, then Horner's scheme in x^2 (zh); every word at scale
    2^s, so no alignment shift is needed; the last line is m."""
    words = [syntax.word(w) for w in plan.mid_words]
    sg = plan.mid_signs
    lines = []
    pairs = []
    mult = "zh" if plan.step == 2 else "z"
    for p, i in enumerate(range(0, len(words), plan.step)):
        if plan.step == 2 and i + 1 < len(words):
            text = _signed_sum(words[i], sg[i], syntax.mulhi("z", words[i + 1]), sg[i + 1], plan.pair_signs[p],
                               syntax)
        else:
            text = words[i]
        lines.append((f"p{p}", text, f"|n{i} + n{i + 1} x| 2^{plan.mid_scale}" if plan.step == 2 and i + 1 < len(words)
                      else f"|n{i}| 2^{plan.mid_scale}"))
        pairs.append(f"p{p}")
    acc = pairs[-1]
    for p in range(len(pairs) - 2, -1, -1):
        text = _signed_sum(pairs[p], plan.pair_signs[p], syntax.mulhi(mult, acc), plan.acc_signs[p + 1],
                           plan.acc_signs[p], syntax)
        lines.append((f"h{p}", text, f"accumulator {p} (Horner in {'x^2' if plan.step == 2 else 'x'}), "
                                     f"2^{plan.mid_scale}"))
        acc = f"h{p}"
    if len(pairs) == 1:
        lines.append(("h0", acc, f"mid(x) 2^{plan.mid_scale}"))
    return lines
