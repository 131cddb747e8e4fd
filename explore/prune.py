"""Cheap pruning before any render.  A candidate is discarded when

* table:    its table exceeds MAX_TABLE_BYTES;
* scale:    its output grid 2^-S is coarser than the budget (the final
            rounding alone can cost that much);
* estimate: the Remez estimate of its worst representative segment (first
            or last full-width, explore/estimate.py) exceeds APPROX_SHARE of
            the budget, or the estimate plus what the Falcon adaptors add
            (Family.adaptor_floor_2p63) reaches the budget (nothing would be
            left for the evaluation's own roundings);
* degree:   a lower degree of the same config already passed DEGREE_KEEP
            times (a higher degree only adds work once the approximation
            error is far below the budget).
"""
from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass

from .space import Candidate

APPROX_SHARE = 0.5      # the approximation may use at most this share of the budget
DEGREE_KEEP = 2         # the lowest passing degrees kept per otherwise equal config


@dataclass(frozen=True)
class Verdict:
    candidate: Candidate
    kept: bool
    reason: str           # "" when kept
    estimate_2p63: float | None


def representative(c: Candidate) -> list[tuple[tuple[float, float], int]]:
    """The (segment, degree) estimates a candidate needs."""
    return [(c.segment_interval(w), c.degree) for w in ("first", "last")]


def scale_bits(c: Candidate) -> int:
    """The output scale S; a config without the key is of a form that fixes
    it at 2^63 (space.Family.fixed)."""
    return int(c.config.get("scale_bits", 63))


def _group(c: Candidate) -> str:
    rest = {k: v for k, v in c.config.items() if k not in ("name", "degree")}
    return json.dumps(rest, sort_keys=True)


def prune(cands: list[Candidate], budget_log2: int, max_table_bytes: int | None,
          estimates: dict[tuple[tuple[float, float], int], float]) -> list[Verdict]:
    """One verdict per candidate, in the order given."""
    budget = 2.0 ** (budget_log2 + 63)      # units of 2^-63
    verdicts: list[Verdict] = []
    passed: dict[str, int] = defaultdict(int)
    for c in sorted(cands, key=lambda c: c.degree):
        est = max(estimates[job] for job in representative(c)) * 2.0 ** 63
        if max_table_bytes is not None and c.table_bytes > max_table_bytes:
            reason = f"table {c.table_bytes} B > {max_table_bytes} B"
        elif 2.0 ** (63 - scale_bits(c)) > budget:
            reason = f"output grid 2^-{scale_bits(c)} coarser than the budget"
        elif est > APPROX_SHARE * budget or (c.adaptor_floor_2p63 > 0 and est + c.adaptor_floor_2p63 >= budget):
            reason = f"estimate {est:.3g} units of 2^-63 vs budget {budget:.3g}"
        elif passed[_group(c)] >= DEGREE_KEEP:
            reason = f"degree: a lower degree already passed {DEGREE_KEEP} times"
        else:
            reason = ""
            passed[_group(c)] += 1
        verdicts.append(Verdict(c, reason == "", reason, est))
    order = {id(c): i for i, c in enumerate(cands)}
    return sorted(verdicts, key=lambda v: order[id(v.candidate)])
