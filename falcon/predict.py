"""Expected BerExp decision changes from an error figure (docs/falcon.md
has the derivation).

Notation: E = fpr_expm_p63(r, ccs), an integer ~= ccs exp(-r) 2^63, and
z = floor((2E - 1) / 2^s).  BerExp accepts iff R < z for R, the random
64-bit number its bytes spell, uniform in [0, 2^64).  Two approximations
E1, E2 therefore decide differently with probability exactly
|z1 - z2| / 2^64, and

    |z1 - z2| <= 2 |E1 - E2| / 2^s + [s > 0]

(for s = 0 it is exactly 2 |E1 - E2|; a floor adds at most one).  Averaged
over r, the floor's rounding has mean zero, so a typical figure is
2 |E1 - E2| E[2^-s] / 2^64; the bound adds P(s > 0) / 2^64.  With errors
e1, e2 (units of 2^-63) against the exact value, |E1 - E2| <= e1 + e2.
"""
from __future__ import annotations

from typing import Sequence

TWO64 = 2.0 ** 64


def mean_two_pow_minus_s(s_prob: Sequence[float]) -> float:
    """E[2^-s] over BerExp calls."""
    return sum(p * 2.0 ** -k for k, p in enumerate(s_prob))


def per_call_estimate(diff_2p63: float, s_prob: Sequence[float]) -> float:
    """Typical probability that one BerExp call decides differently when
    the two fpr_expm_p63 outputs differ by `diff_2p63` units of 2^-63."""
    return 2.0 * diff_2p63 * mean_two_pow_minus_s(s_prob) / TWO64


def per_call_bound(diff_2p63: float, s_prob: Sequence[float]) -> float:
    """Upper bound of that probability (floors included)."""
    p_shifted = sum(s_prob[1:])
    return (2.0 * diff_2p63 * mean_two_pow_minus_s(s_prob) + p_shifted) / TWO64


def calls_per_signature(n: int, calls_per_sample: float) -> float:
    """BerExp calls in one Falcon-n signature attempt: ffSampling draws 2n
    integers, each costing calls_per_sample BerExp calls on average."""
    return 2.0 * n * calls_per_sample


def bytes_diff_expected(first_byte_diff: Sequence[int]) -> float:
    """Expected draws whose byte count differs, from the histogram of the
    first differing byte j of z1, z2: each such draw does with probability
    2^-(8j + 7) for j < 7, never for j = 7."""
    return sum(c * 2.0 ** -(8 * j + 7) for j, c in enumerate(first_byte_diff) if j < 7)
