"""Fixed-point quantization of per-segment polynomials, with an overflow proof.

The emitted evaluation is a sign-magnitude Horner scheme on unsigned words
(the shape of FACCT's ``y = C - hi(z, y)``, generalised).  For a polynomial
p(v) = sum a_j v^j, Horner's intermediates are y_d = a_d and
y_j = a_j + v * y_{j+1}.  Each y_j keeps one sign sigma_j on every segment
(checked), so the kernel stores U_j = sigma_j * y_j * 2^{s_j} >= 0 in a W-bit
word and computes

    U_d = K_d
    U_j = K_j (+ or -) shift(mulhi(U_{j+1}, T), r_j),   j = d-1 .. 0

where T = t << g (v = T / 2^W), mulhi(a, b) = floor(a b / 2^W), the sign is
sigma_j * sigma_{j+1}, r_j = s_{j+1} - s_j (a right shift when positive, a
left shift when negative), and K_j = round(sigma_j a_j 2^{s_j}) is stored
modulo 2^W (it may be "negative": the wrap-around of unsigned arithmetic is
exact because the true U_j lies in [0, 2^W)).  The output at scale S is
(U_0 + 2^{q-1}) >> q with q = s_0 - S (round to nearest), or U_0 if q = 0.

The scales s_j are the same on every segment (they are baked into the code
as shift counts) and each is the largest for which *exact integer interval
arithmetic* over every segment proves 0 <= U_j < 2^W, i.e. no step can
overflow for any input.  That proof is recorded and re-checked exhaustively
on small words by the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Sequence

from .errors import GenError
from .segments import Segmentation

PIECES = 16  # subintervals of each segment's t-range in the interval proof


@dataclass(frozen=True)
class Quantized:
    word_bits: int
    scale_bits: int            # S
    scales: tuple[int, ...]    # s_0 .. s_d
    signs: tuple[int, ...]     # sigma_0 .. sigma_d
    ints: tuple[tuple[int, ...], ...]  # k[i][j] (signed Python ints), segment i
    ranges: tuple[tuple[tuple[int, int], ...], ...]  # [i][j] proven range of U_j

    @property
    def degree(self) -> int:
        return len(self.scales) - 1

    @property
    def shifts(self) -> tuple[int, ...]:
        """r_j = s_{j+1} - s_j for j = 0 .. d-1."""
        return tuple(self.scales[j + 1] - self.scales[j] for j in range(self.degree))

    @property
    def ops(self) -> tuple[str, ...]:
        """'+' or '-' for step j = 0 .. d-1."""
        return tuple("+" if self.signs[j] == self.signs[j + 1] else "-" for j in range(self.degree))

    @property
    def final_shift(self) -> int:
        return self.scales[0] - self.scale_bits

    def table_word(self, i: int, j: int) -> int:
        """K_j of segment i as stored: k modulo 2^W."""
        return self.ints[i][j] % (1 << self.word_bits)

    def coefficients(self, i: int) -> tuple[Fraction, ...]:
        """The exact rational coefficients (in v) of segment i's quantized polynomial."""
        return tuple(Fraction(self.signs[j] * k, 1 << self.scales[j]) if self.scales[j] >= 0
                     else Fraction(self.signs[j] * k * (1 << -self.scales[j]))
                     for j, k in enumerate(self.ints[i]))


def _shift(value: int, r: int) -> int:
    return value >> r if r >= 0 else value << -r


def _pieces(t_max: int) -> list[tuple[int, int]]:
    n = min(PIECES, t_max + 1)
    cuts = [t_max * k // n for k in range(n + 1)]
    return [(cuts[k] if k == 0 else cuts[k] + 1, cuts[k + 1]) for k in range(n)] if n > 1 else [(0, t_max)]


def _step_ranges(prev: list[tuple[int, int]], pieces: list[tuple[int, int]], g: int, W: int,
                 r: int, k: int, op: str) -> list[tuple[int, int]]:
    """Exact interval of U_j on each piece, given the intervals of U_{j+1}.

    Both factors of the product are non-negative, so floor(U T / 2^W) is
    monotone in each and the interval ends come from the interval ends.
    """
    out = []
    for (u_lo, u_hi), (t_lo, t_hi) in zip(prev, pieces):
        p_lo = _shift((u_lo * (t_lo << g)) >> W, r)
        p_hi = _shift((u_hi * (t_hi << g)) >> W, r)
        out.append((k + p_lo, k + p_hi) if op == "+" else (k - p_hi, k - p_lo))
    return out


def _fits(ranges: list[tuple[int, int]], W: int) -> bool:
    return all(0 <= lo and hi < (1 << W) for lo, hi in ranges)


def _round_half_even_free(value: Fraction) -> int:
    """Round to nearest, ties away from zero (deterministic, documented)."""
    sign = -1 if value < 0 else 1
    mag = abs(value)
    return sign * int(mag + Fraction(1, 2))


def quantize(seg: Segmentation, coeffs: Sequence[Sequence[Fraction]], scale_bits: int,
             forced_scales: Optional[Sequence[int]] = None,
             forced_ints: Optional[Sequence[Sequence[int]]] = None) -> Quantized:
    """Quantize real coefficients (one row per segment, powers of v) to words.

    With ``forced_scales`` the scales are checked, not chosen; with
    ``forced_ints`` (third-party coefficients, already integers at those
    scales) the integers are used as given.
    """
    W = seg.word_bits
    d = len(coeffs[0]) - 1
    signs = []
    for j in range(d + 1):
        column = [row[j] for row in coeffs]
        positive = [c > 0 for c in column if c != 0]
        if positive and all(positive) != any(positive):
            raise GenError(f"coefficients: x^{j} changes sign between segments; "
                           "only sign-stable Horner schemes are supported")
        signs.append(1 if not positive or positive[0] else -1)

    pieces = [_pieces(s.t_max) for s in seg.segments]
    scales: list[int] = [0] * (d + 1)
    ints: list[list[int]] = [[0] * (d + 1) for _ in seg.segments]
    ranges: list[list[tuple[int, int]]] = [[(0, 0)] * (d + 1) for _ in seg.segments]
    current: list[list[tuple[int, int]]] = []

    def candidate(j: int, s: int) -> Optional[tuple[list[int], list[list[tuple[int, int]]]]]:
        """Integers and per-piece ranges of step j at scale s, or None on overflow."""
        if forced_ints is not None:
            ks = [forced_ints[i][j] * signs[j] for i in range(len(seg.segments))]
        else:
            ks = [_round_half_even_free(signs[j] * coeffs[i][j] * (Fraction(2) ** s))
                  for i in range(len(seg.segments))]
        if j == d:
            new = [[(k, k)] * len(pieces[i]) for i, k in enumerate(ks)]
        else:
            r = scales[j + 1] - s
            if not -(W - 1) <= r <= W - 1:
                return None
            op = "+" if signs[j] == signs[j + 1] else "-"
            new = [_step_ranges(current[i], pieces[i], seg.pre_shift, W, r, ks[i], op)
                   for i in range(len(seg.segments))]
        # Step 0 also feeds the final rounding, which adds 2^(q-1).
        slack = (1 << (s - scale_bits - 1)) if j == 0 and s > scale_bits else 0
        if all(_fits([(lo, hi + slack) for lo, hi in rs], W) for rs in new):
            return ks, new
        return None

    for j in range(d, -1, -1):
        if forced_scales is not None:
            chosen = candidate(j, forced_scales[j])
            if chosen is None:
                raise GenError(f"coefficient_scales: scale {forced_scales[j]} of x^{j} overflows "
                               f"a {W}-bit word (or its shift exceeds {W - 1} bits)")
            s = forced_scales[j]
        else:
            biggest = max(max(abs(row[j]) for row in coeffs), Fraction(1, 1 << (4 * W)))
            s = W - biggest.numerator.bit_length() + biggest.denominator.bit_length() + 1
            if j < d:
                s = min(s, scales[j + 1] + W - 1)
            chosen = None
            for _ in range(4 * W):
                chosen = candidate(j, s)
                if chosen is not None:
                    break
                s -= 1
            if chosen is None:
                raise GenError(f"quantize: no scale for x^{j} keeps every Horner step within {W} bits")
        scales[j] = s
        ks, current = chosen
        for i in range(len(seg.segments)):
            ints[i][j] = ks[i]
            ranges[i][j] = (min(lo for lo, _ in current[i]), max(hi for _, hi in current[i]))

    if scales[0] < scale_bits:
        raise GenError(f"scale_bits: {scale_bits} needs the result at scale 2^{scale_bits}, but the "
                       f"{W}-bit word holds it only at 2^{scales[0]}")
    q = scales[0] - scale_bits
    if q > 0 and any(rs[0][1] + (1 << (q - 1)) >= (1 << W) for rs in ranges):
        raise GenError("quantize: the final rounding would overflow the word")
    return Quantized(W, scale_bits, tuple(scales), tuple(signs),
                     tuple(tuple(r) for r in ints), tuple(tuple(r) for r in ranges))


def evaluate_core(qz: Quantized, seg: Segmentation, z: int, check: bool = False) -> int:
    """U_0 for input z, exactly as the emitted C computes it (W-bit wrap-around).

    With ``check`` the true (unwrapped) value of every step is asserted to
    lie in [0, 2^W) -- the property the interval proof claims.
    """
    W = qz.word_bits
    mask = (1 << W) - 1
    i = seg.index_of(z)
    T = (seg.offset_of(z) << seg.pre_shift) & mask
    u = qz.table_word(i, qz.degree)
    for j in range(qz.degree - 1, -1, -1):
        p = _shift((u * T) >> W, qz.shifts[j])
        true = (qz.ints[i][j] + p) if qz.ops[j] == "+" else (qz.ints[i][j] - p)
        if check and not (0 <= true <= mask and p <= mask):
            raise AssertionError(f"overflow at z={z}, step {j}: {true}")
        u = true & mask
    return u


def evaluate(qz: Quantized, seg: Segmentation, z: int) -> int:
    """The kernel's ``_eval(z)``: U_0 rounded to scale S."""
    u = evaluate_core(qz, seg, z)
    q = qz.final_shift
    return (u + (1 << (q - 1))) >> q if q > 0 else u
