"""What the explorer enumerates per target: one small table of families,
each a set of config keys crossed with segmentations, degrees, scales,
evaluation schemes and variants.  Everything target-specific lives in
TARGETS; the code below only crosses the table out into candidates.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from gen.mcu.design import ROW_WORDS

# The function and domain every candidate computes: Falcon's
# fpr_expm_p63(x, ccs) = ccs exp(-x) 2^63 for x in [0, ln 2).
FUNCTION = "exp(-x)"
DOMAIN_HI = math.log(2.0)
WORD_BYTES = 8          # every candidate has 64-bit words (word_bits = 64)
MCU_ROW_BYTES = 4 * ROW_WORDS   # form mcu: a row of 32-bit words
BATCH_ISAS = ("avx512", "avx2")   # the batch forms the x86 head candidates carry


@dataclass(frozen=True)
class Family:
    """Configs sharing their fixed keys; crossed with the tuples below."""

    tag: str                                  # short, used in candidate names
    keys: dict[str, Any]                      # fixed config keys
    segments: tuple[tuple[str, int], ...]     # ("equal", count) or ("pow2", bits)
    degrees: tuple[int, ...]
    scales: tuple[int, ...]
    evaluations: tuple[str | None, ...]       # None: the form fixes its scheme (no evaluation key)
    variants: tuple[dict[str, Any], ...] = ({},)   # extra keys, one candidate each
    # What the Falcon adaptors add to any bound of this form, units of 2^-63
    # (docs/error-model.md section 4: the truncating conversions of x and
    # ccs widen the _expm_p63 interval by one unit; the head form with
    # conversion remainders is proven against the doubles directly).
    adaptor_floor_2p63: float = 1.0
    # Keys the form fixes itself, left out of its configs (so that the
    # shipped kernel's config, which leaves them out too, is recognised):
    # "segments" (form fold: one polynomial on [0, ln 2), named by the
    # single equal segment above), "scale_bits" (forms fold and mcu: 2^63).
    fixed: tuple[str, ...] = ()


@dataclass(frozen=True)
class TargetSpace:
    name: str
    families: tuple[Family, ...]
    # The shipped kernels this target is compared with, each made for its
    # own budget (its max_abs_error_log2); a run compares with the one made
    # for the largest budget within the requested one (shipped_for).
    shipped: tuple[str, ...]
    ct_scan_when_segmented: bool  # table_access = "ct_scan" for N > 1 (x86: constant time)


def _equal(*counts: int) -> tuple[tuple[str, int], ...]:
    return tuple(("equal", n) for n in counts)


def _pow2(*bits: int) -> tuple[tuple[str, int], ...]:
    return tuple(("pow2", b) for b in bits)


# x86-64: the kernels must be constant-time, so a segmented table is read
# whole (ct_scan).  The head form needs one segment and scale 2^63; its
# float_tail must lie in exact_head + 1 .. degree (checked in candidates()).
# exact_head = 2 is not enumerated: the generator refused it with every
# float_tail from 5 to 7 at degrees 12 and 13 in the first x86 run ("the
# middle part changes sign"), so it only cost time.
# The head form's candidates are rendered with their batch forms (AVX-512
# and AVX2, gen/render/batch.py): these compute the scalar adaptors'
# integers lane by lane, so they change neither the proven bound nor the
# scalar cost, and the front's timing adds their cycles per element.
_X86_SEGMENTS = _equal(1, 2, 4, 8, 16, 32)
X86 = TargetSpace("x86", (
    # The direct form both with the generator's default (wide = "auto":
    # the last Horner steps on two words where the proof needs them) and
    # with one-word steps only (wide = false: cheaper, a larger bound).
    Family("dir", {"form": "direct"}, _X86_SEGMENTS, tuple(range(5, 14)), (63, 62),
           ("horner", "estrin"), ({}, {"wide": False})),
    Family("om", {"form": "one_minus", "wide": True}, _X86_SEGMENTS, tuple(range(5, 14)), (63, 62),
           ("horner", "estrin")),
    Family("hd", {"form": "head", "batch": list(BATCH_ISAS)}, _equal(1), tuple(range(5, 14)), (63,), ("horner", "estrin"),
           tuple({"exact_head": 3, "float_tail": k} for k in (4, 5, 6, 7, 8)),
           adaptor_floor_2p63=0.0),
    # The fold form (falcon_x86_fast's): one polynomial, no table and no
    # segments key, its scheme fixed (Estrin on the middle words); the
    # first binary64 power float_tail from 3 up.  Its adaptors do not carry
    # the conversion remainders (one unit, as the direct form's).
    Family("fd", {"form": "fold"}, _equal(1), tuple(range(10, 15)), (63,), (None,),
           tuple({"float_tail": k} for k in (3, 4, 5, 6, 7)), fixed=("segments", "scale_bits")),
), shipped=("falcon_x86", "falcon_x86_fast"), ct_scan_when_segmented=True)

# Form mcu's product plans: the shipped falcon_m3's [1, 2, 3, 3, 4, 4], a
# column fewer in one product, a column more in one or two.
MCU_PLANS = ((1, 2, 3, 3, 4, 4), (1, 1, 3, 3, 4, 4), (1, 2, 3, 2, 4, 4), (1, 2, 3, 3, 4, 3),
             (2, 2, 3, 3, 4, 4), (1, 3, 3, 3, 4, 4), (1, 2, 4, 3, 4, 4), (1, 2, 3, 4, 4, 4),
             (1, 2, 3, 3, 5, 4), (2, 2, 3, 4, 4, 4))

# Cortex-M3: power-of-two segments (the index is one shift), products from
# truncated 15-bit limbs whose budget sits just below the error budget
# ("truncation_budget_offset": truncation_budget_log2 = budget + offset),
# the table in SRAM (no data cache: direct loads are constant-time), padded
# so that the adaptor needs no clamp, or not padded (smaller, with a clamp).
# reoptimize = false and centre = "adaptor" as in falcon_m3
# (kernels/falcon_m3.toml says why); the table in 64-bit words or in mixed
# words (32-bit words for the constants of the 32-bit steps; the pruning
# counts 8 bytes a word, an upper bound there, and the figures reported
# are the rendered kernel's).
M3 = TargetSpace("m3", (
    Family("m3", {"form": "direct", "multiplier": "truncated", "table_placement": "sram",
                  "reoptimize": False, "centre": "adaptor"},
           _pow2(4, 5, 6, 7, 8), (3, 4, 5, 6), (63,), ("horner",),
           tuple({"truncation_budget_offset": o, "pad_table": p, "table_layout": t}
                 for o in (-1, -2, -3) for p in (True, False) for t in ("uniform", "mixed"))),
    # The mcu form (falcon_m3's): its layout fixed (2^-7 segments, degree
    # 5, 32-byte rows), the product plan varied around the shipped one
    # (columns: limb columns kept per product; docs/config.md).  The
    # generator refuses a plan whose limbs or column sums could overflow,
    # and the run lists it as render failed.
    Family("mcu", {"form": "mcu", "bias_samples": 1000}, _pow2(7), (5,), (63,), (None,),
           tuple({"columns": list(p)} for p in MCU_PLANS), fixed=("scale_bits",)),
), shipped=("falcon_m3",), ct_scan_when_segmented=False)

# Cortex-M4: 64-bit Horner with every product UMULL, UMULL, UMAAL, UMAAL
# (multiplier = "umaal": one cycle whatever the operands on the M4, so a
# full 64x64 high product is cheap and constant-time there), power-of-two
# segments, the table in SRAM, padded or not; with or without every
# coefficient at scale 2^64 ("coefficient_scales_64": the root word at
# 2^64 lets the adaptor take ccs by its significand, as falcon_m4 does;
# the generator refuses it where the overflow proof fails).
M4 = TargetSpace("m4", (
    Family("m4", {"form": "direct", "multiplier": "umaal", "table_placement": "sram"},
           _pow2(3, 4, 5, 6, 7), (4, 5, 6, 7, 8), (63,), ("horner",),
           tuple({"coefficient_scales_64": s, "pad_table": p} for s in (True, False) for p in (True, False))),
), shipped=("falcon_m4",), ct_scan_when_segmented=False)

TARGETS: dict[str, TargetSpace] = {"x86": X86, "m3": M3, "m4": M4}


@dataclass(frozen=True)
class Candidate:
    """One config to evaluate, and what pruning needs to know about it."""

    name: str
    config: dict[str, Any]        # the TOML keys ([segments] as a nested dict)
    family: str
    segment_kind: str
    segment_param: int            # count (equal) or bits (pow2)
    degree: int
    adaptor_floor_2p63: float
    shipped: bool = False

    @property
    def segment_count(self) -> int:
        """Segments covering [0, ln 2)."""
        if self.segment_kind == "equal":
            return self.segment_param
        return math.ceil(DOMAIN_HI * 2 ** self.segment_param)

    @property
    def table_bytes(self) -> int:
        """Table size: rows x (degree + 1) words of 8 bytes; a padded pow2
        table has one row per value of the index (2^bits); the head and fold
        forms have no table (their coefficients are immediates); form mcu's
        rows are 32 bytes."""
        if self.config.get("form") in ("head", "fold", "twin"):
            return 0
        if self.config.get("form") == "mcu":
            return self.segment_count * MCU_ROW_BYTES
        rows = 2 ** self.segment_param if self.config.get("pad_table") else self.segment_count
        return rows * (self.degree + 1) * WORD_BYTES

    def segment_interval(self, which: str) -> tuple[float, float]:
        """[a, b] of the first or of the last full-width segment (the
        estimate's representative segments); floats are enough to name them
        (the estimate recomputes them exactly from the same numbers)."""
        width = DOMAIN_HI / self.segment_param if self.segment_kind == "equal" else 2.0 ** -self.segment_param
        if which == "first":
            return 0.0, width
        last = self.segment_count - 1 if self.segment_kind == "equal" else math.floor(DOMAIN_HI / width) - 1
        return last * width, (last + 1) * width


def _short(key: str, value: Any) -> str:
    """A variant key and value in a name: exact_head 3 -> eh3, pad_table
    true -> pt1, truncation_budget_offset -2 -> tbom2, table_layout "mixed"
    -> tlm (a string by its first letter), columns [1, 2, 3, 3, 4, 4] ->
    c123344 (a list by its digits)."""
    initials = "".join(w[0] for w in key.split("_"))
    if isinstance(value, bool):
        return f"{initials}{int(value)}"
    if isinstance(value, list):
        return initials + "".join(str(v) for v in value)
    if isinstance(value, str):
        return f"{initials}{value[0]}"
    return f"{initials}{'m' if value < 0 else ''}{abs(value)}"


def _name(target: str, fam: Family, seg: tuple[str, int], degree: int, scale: int, ev: str | None,
          variant: dict[str, Any]) -> str:
    parts = [f"xp_{target}", fam.tag, f"{seg[0][0]}{seg[1]}", f"d{degree}", f"s{scale}"] + ([ev[0]] if ev else [])
    parts += [_short(k, v) for k, v in sorted(variant.items())]
    return "_".join(parts)


def _config(space: TargetSpace, fam: Family, seg: tuple[str, int], degree: int, scale: int, ev: str | None,
            variant: dict[str, Any], budget_log2: int, name: str) -> dict[str, Any]:
    cfg: dict[str, Any] = {"name": name, "description": f"make explore candidate ({space.name}, budget 2^{budget_log2})",
                           "function": FUNCTION, "domain": ["0", "ln2"], "word_bits": 64,
                           "scale_bits": scale, "degree": degree, **({"evaluation": ev} if ev else {}), **fam.keys}
    for key, value in variant.items():
        if key == "truncation_budget_offset":
            cfg["truncation_budget_log2"] = budget_log2 + value
        elif key == "coefficient_scales_64":
            if value:
                cfg["coefficient_scales"] = [64] * (degree + 1)
        else:
            cfg[key] = value
    if space.ct_scan_when_segmented and seg[1] > 1:
        cfg["table_access"] = "ct_scan"
    for key in fam.fixed:
        cfg.pop(key, None)
    if "segments" not in fam.fixed:
        cfg["segments"] = {"kind": seg[0], ("count" if seg[0] == "equal" else "bits"): seg[1]}
    return cfg


def _renderable(fam: Family, degree: int, variant: dict[str, Any]) -> bool:
    """Rules of docs/config.md the table alone does not express."""
    tail = variant.get("float_tail")
    first = variant.get("exact_head", 3) + 1 if fam.keys.get("form") == "head" else 3
    if tail is not None and not first <= tail <= degree:
        return False
    return True


def candidates(space: TargetSpace, budget_log2: int) -> list[Candidate]:
    """Every config of the target's table (before any pruning)."""
    out: list[Candidate] = []
    for fam in space.families:
        for seg in fam.segments:
            for degree in fam.degrees:
                for scale in fam.scales:
                    for ev in fam.evaluations:
                        for variant in fam.variants:
                            if not _renderable(fam, degree, variant):
                                continue
                            name = _name(space.name, fam, seg, degree, scale, ev, variant)
                            cfg = _config(space, fam, seg, degree, scale, ev, variant, budget_log2, name)
                            out.append(Candidate(name, cfg, fam.tag, seg[0], seg[1], degree,
                                                 fam.adaptor_floor_2p63))
    return out


def shipped_for(space: TargetSpace, budgets_log2: dict[str, float], budget_log2: int) -> str:
    """The shipped kernel a run at budget_log2 is compared with: of the
    target's shipped kernels (budgets_log2: each one's max_abs_error_log2),
    the one made for the largest budget within the requested one (at
    2^-58 on x86 falcon_x86_fast, at 2^-63 the faithful falcon_x86); the
    most accurate one if every budget is tighter than the kernels'."""
    within = [n for n in space.shipped if budgets_log2[n] <= budget_log2]
    if within:
        return max(within, key=lambda n: budgets_log2[n])
    return min(space.shipped, key=lambda n: budgets_log2[n])


def shipped_candidate(space: TargetSpace, config: dict[str, Any]) -> Candidate:
    """The shipped kernel's config (kernels/<name>.toml, already parsed) as a
    candidate, so that it is measured in the same run as the others."""
    seg = config.get("segments", {"kind": "equal", "count": 1})
    kind = seg.get("kind", "equal")
    param = seg.get("count", 1) if kind == "equal" else seg["bits"]
    floor = 0.0 if config.get("form") == "head" else 1.0
    return Candidate(config["name"], dict(config), "shipped", kind, param, config["degree"], floor, shipped=True)
