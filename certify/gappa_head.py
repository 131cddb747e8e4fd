"""Gappa scripts that re-prove the binary64 part of a form = "head" kernel.

The head form (gen/quantize/head.py, gen/proof/head.py) evaluates the
powers from ``first_tail`` up in IEEE-754 binary64 (multiplications and
fused multiply-adds, each rounded once to nearest), adds the rounding
constant M = 1.5 2^(52 - f) plus the centring bias, and, in the Falcon
adaptors and _expm_p63, first computes the correction input
e = RN(ccs rx + RN(M - RN(rc t3(x)))) that carries the conversion
remainders.  The generator's proof encloses, per entry (eval, expm, fpr)
and per piece z in [zlo, zhi] of the input, the error of the part's result
(computed minus the same operations done exactly) and the range of the
computed result; the sidecar's "head"/"binary64" section lists those
claims.  This module writes one Gappa script in which

    t_<e>   is the result as the C code computes it: every operation rounded
            with Gappa's float<ieee_64, ne> (an FMA is rnd(a * b + c): one
            rounding), and
    T_<e>   its exact counterpart (the same operations, no rounding),

each entry with its own inputs, exactly as the C code forms them:

    eval    v = RN(Z) 2^-63 with z = 2 Z + b (the conversion of z >> 1),
            exact x = Z 2^-63 + b 2^-64; c = 2^63; e = M + bias;
    expm    as eval, and c = RN(C) for C = w >> 1 in [0, 2^63 - 1]; with
            remainders, e is the correction with ccs = c, rx = 0 and
            rc = (w mod 2) / 2 in [0, 1/2];
    fpr     x the double (exact), v = max(x, 2^-11) (its own range),
            ccs in [2^-64, 1], c = ccs 2^63 (exact), rx and rc in [0, 1];

and asks Gappa to prove, for every piece, t - T inside the generator's
error interval and t inside its range (both moved by the bias, which the
C code adds through the constant: the generator proves the form with M
alone, and the shift by a multiple of the last place is itself re-proven
here).  Gappa shares no code with gen/proof/ and models the rounding
itself, so a proof that dropped a rounding (an FMA's, say) or mis-sized a
range fails here.  What the script does not cover (said in
docs/error-model.md): that no operand is subnormal (the generator's proof,
and the run-time test of the MXCSR flags), and the integer part (exact
integer interval arithmetic in gen/proof/head.py, the checker, the model).

Usage: python3 -m certify.gappa_head generated/<name>/<name>.json [-o out.g]
"""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Any, Optional, Sequence

from certify.gappa_script import PRECISION, SidecarError, sidecar_cli

ENTRIES = ("eval", "expm", "fpr")
TAIL_X_MIN = Fraction(1, 1 << 11)
C_FLUSH = Fraction(1, 1 << 64)


def dyadic(q: Fraction, up: bool) -> str:
    """q in Gappa's m b e notation, exactly when q is dyadic, else rounded
    outward (down or ``up``) at 200 bits."""
    if q == 0:
        return "0"
    den = q.denominator
    if den & (den - 1) == 0:
        return f"{q.numerator}b-{den.bit_length() - 1}" if den > 1 else str(q.numerator)
    scaled = q * (1 << 200)
    m = scaled.numerator // scaled.denominator + (1 if up else 0)
    return f"{m}b-200"


def interval(lo: Fraction, hi: Fraction) -> str:
    """[lo, hi] in Gappa's notation, rounded outward where not dyadic."""
    return f"[{dyadic(lo, False)}, {dyadic(hi, True)}]"


def goal(hyps: Sequence[tuple[str, Fraction, Fraction]], computed: str, exact: str,
         error: tuple[Fraction, Fraction], value: tuple[Fraction, Fraction]) -> str:
    """One claim of a binary64 part, as the head, fold and twin scripts
    state it: with each variable of ``hyps`` in its interval, the computed
    result minus the exact one lies in ``error`` and the computed result
    in ``value``."""
    given = " /\\ ".join(f"{name} in {interval(lo, hi)}" for name, lo, hi in hyps)
    return (f"({given} ->\n    {computed} - {exact} in {interval(*error)} /\\ "
            f"{computed} in {interval(*value)})")


def _fraction(text: Any, where: str) -> Fraction:
    try:
        return Fraction(str(text))
    except (ValueError, ZeroDivisionError):
        raise SidecarError(f"{where}: {text!r} is not an exact rational") from None


def _const(q: Fraction) -> str:
    """A binary64 constant in Gappa's notation (exact); refuses other values."""
    num, den = q.numerator, q.denominator
    odd = abs(num) >> ((abs(num) & -abs(num)).bit_length() - 1) if num else 0
    if den & (den - 1) or odd >= 1 << 53:
        raise SidecarError(f"constant {q} is not a binary64 value")
    text = dyadic(q, False)
    return f"({text})" if q < 0 else text


def program_lines(ops: Sequence[dict[str, Any]], coeffs: Sequence[Fraction], prefix: str,
                  inputs: dict[str, tuple[str, str]]) -> tuple[list[str], str, str]:
    """Gappa definitions of one binary64 program: for operation n,
    ``<prefix>r<n>`` (rounded, as the C code) and ``<prefix>x<n>`` (exact).
    ``inputs`` maps "v", "c", "in0", "in1"... to (rounded, exact) names.
    Returns the lines and the last operation's two names."""
    names: list[tuple[str, str]] = []
    lines: list[str] = []
    for n, op in enumerate(ops):
        kind, args = op.get("kind"), [int(a) for a in op.get("args", [])]
        if kind in ("v", "c"):
            names.append(inputs[kind])
        elif kind == "in":
            names.append(inputs[f"in{int(op['index'])}"])
        elif kind == "coef":
            value = _const(coeffs[int(op["index"])])
            names.append((value, value))
        elif kind in ("mul", "add", "sub", "fma"):
            a, b = names[args[0]], names[args[1]]
            r, x = f"{prefix}r{n}", f"{prefix}x{n}"
            if kind == "fma":
                c = names[args[2]]
                rounded, exact = f"{a[0]} * {b[0]} + {c[0]}", f"{a[1]} * {b[1]} + {c[1]}"
            else:
                sym = {"mul": "*", "add": "+", "sub": "-"}[kind]
                rounded, exact = f"{a[0]} {sym} {b[0]}", f"{a[1]} {sym} {b[1]}"
            lines.append(f"{r} = rnd({rounded});   # {op.get('label', '')}")
            lines.append(f"{x} = {exact};")
            names.append((r, x))
        else:
            raise SidecarError(f"unknown binary64 operation {kind!r}")
    return lines, names[-1][0], names[-1][1]


def _entry(cert: dict[str, Any], entry: str, constant: Fraction,
           bias: Fraction) -> tuple[list[str], list[str], list[str], list[str]]:
    """(definitions, hypotheses, per-piece goals, rewriting hints) of one entry."""
    p = entry[:2]
    tail = [_fraction(c, "tail coefficient") for c in cert["tail_coefficients"]]
    corr_consts = [constant] + [_fraction(c, "correction constant") for c in cert["correction_constants"]]
    lines: list[str] = []
    hyps: list[str] = []
    hints: list[str] = []
    if entry == "fpr":
        x = (f"{p}_x", f"{p}_x")
        v = (f"{p}_v", f"{p}_v")
        c = (f"{p}_c", f"{p}_c")
        lines.append(f"{p}_c = {p}_ccs * 1b63;")
        hyps += [f"{p}_ccs in [{dyadic(C_FLUSH, False)}, 1]", f"{p}_rx in [0, 1]", f"{p}_rc in [0, 1]"]
        corr_inputs = {"v": x, "c": (f"{p}_ccs", f"{p}_ccs"), "in0": (f"{p}_rx", f"{p}_rx"),
                       "in1": (f"{p}_rc", f"{p}_rc")}
    else:
        lines.append(f"{p}_r = rnd({p}_Z);")
        lines.append(f"{p}_v = {p}_r * 1b-63;   # RN(z >> 1) 2^-63")
        lines.append(f"{p}_X = {p}_Z * 1b-63 + {p}_b * 1b-64;   # x = z / 2^64")
        hints.append(f"{p}_v - {p}_X -> ({p}_r - {p}_Z) * 1b-63 - {p}_b * 1b-64;")
        x = v = (f"{p}_v", f"{p}_X")
        hyps.append(f"{p}_b in [0, 1]")
        if entry == "eval":
            c = ("1b63", "1b63")
        else:
            lines.append(f"{p}_c = rnd({p}_C);   # (double) C")
            c = (f"{p}_c", f"{p}_C")
            hyps += [f"{p}_C in [0, {(1 << 63) - 1}]", f"{p}_rc in [0, 1b-1]"]
        corr_inputs = {"v": x, "c": c, "in0": ("0", "0"), "in1": (f"{p}_rc", f"{p}_rc")}
    if cert["remainders"] and entry != "eval":
        corr, e_r, e_x = program_lines(cert["correction_program"], corr_consts, f"{p}c", corr_inputs)
        lines += corr
        e = (e_r, e_x)
    else:
        e = (_const(constant), _const(constant))
    body, t_r, t_x = program_lines(cert["tail_program"], tail, f"{p}t", {"v": v, "c": c, "in0": e})
    lines += body
    goals = []
    for row in cert["claims"].get(entry, []):
        zlo, zhi = int(row[0]), int(row[1])
        elo, ehi, clo, chi = (_fraction(q, f"{entry} claim") for q in row[2:6])
        if entry == "fpr":
            xlo, xhi = Fraction(zlo, 1 << 64), Fraction(zhi + 2, 1 << 64)
            piece = [(f"{p}_x", xlo, xhi), (f"{p}_v", max(xlo, TAIL_X_MIN), max(xhi, TAIL_X_MIN))]
        else:
            piece = [(f"{p}_Z", Fraction(zlo >> 1), Fraction(zhi >> 1))]
        goals.append(goal(piece, t_r, t_x, (elo, ehi), (clo + bias, chi + bias)))
    if not goals:
        raise SidecarError(f"no claims for entry {entry}")
    return lines, hyps, goals, hints


def render_script(sidecar: dict[str, Any], source: str = "", entries: Sequence[str] = ENTRIES,
                  pieces: Optional[slice] = None) -> str:
    """The Gappa script of a head-form kernel's binary64 part: every entry
    and piece, or the ``entries`` and the ``pieces`` (a slice of each
    entry's claims) asked for (a runner proves a few pieces per Gappa run:
    one proposition holding them all takes Gappa far longer)."""
    try:
        head = sidecar["head"]
        cert = dict(head["binary64"])
        bias = _fraction(head["bias"], "bias")
        constant = _fraction(cert["magic"], "magic") + bias
        name = sidecar["name"]
        if pieces is not None:
            cert["claims"] = {e: rows[pieces] for e, rows in cert["claims"].items()}
    except (KeyError, TypeError) as exc:
        raise SidecarError(f"sidecar: missing field {exc}") from None
    out = [f"# {name}.gappa -- DO NOT EDIT.  Rendered by certify/gappa_head.py from {source or 'its sidecar'}.",
           "# Check with:  gappa <this file>   (exit status 0 = every property proven;",
           "# `make certify` proves the same claims a few pieces per run, faster)",
           "#",
           "# The binary64 part of a form = \"head\" kernel, for each entry point (eval,",
           "# expm, fpr) and each piece of the input the generator's proof used: the",
           "# result as computed (every operation rounded to nearest binary64, an FMA",
           "# once) minus the same operations done exactly lies in the generator's",
           "# error interval, and the computed result in its range (moved by the",
           f"# centring bias {bias}, which the C code adds through the constant).",
           "# See certify/gappa_head.py for the inputs of each entry.",
           f"#@-Eprecision={PRECISION}",
           "@rnd = float<ieee_64, ne>;", ""]
    hyps: list[str] = []
    goals: list[str] = []
    hints: list[str] = []
    for entry in entries:
        lines, h, g, r = _entry(cert, entry, constant, bias)
        out += [f"# entry {entry}", *lines, ""]
        hyps += h
        goals += g
        hints += r
    out.append("{ " + " /\\\n  ".join(hyps) + "\n  ->\n  " + " /\\\n  ".join(goals) + " }")
    out += ["", "# Hints: the converted input differs from the exact one by the rounding", "# of z >> 1 and the dropped bit.",
            *hints]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    return sidecar_cli(argv, "gappa_head", __doc__.splitlines()[0], render_script)


if __name__ == "__main__":
    sys.exit(main())
