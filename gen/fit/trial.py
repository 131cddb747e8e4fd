"""A trial quantization inside the fit stage, kept with the arguments it was
made from, so that the quantization stage can make exactly the same one
again from the fit's output (data flows one way: the fit hands over its
arguments, not its intermediate objects)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Sequence

from ..config import KernelConfig
from ..quantize import Quantized, quantize, root_margin
from ..scheme import Scheme
from ..segments import Segmentation


@dataclass(frozen=True)
class Trial:
    qz: Quantized
    coefficients: tuple[tuple[Fraction, ...], ...]   # per segment, what quantize reads (signs, scale guesses)
    scales: Optional[tuple[Optional[int], ...]]      # forced coefficient scales, if any
    ints: Optional[tuple[tuple[int, ...], ...]]      # forced signed integers a_j 2^s_j, if any
    root_offset: Fraction = Fraction(0)               # the real constant the root sum adds (Quantized.root_bias)


def make(cfg: KernelConfig, scheme: Scheme, seg: Segmentation, coefficients: Sequence[Sequence[Fraction]],
         scales: Optional[Sequence[Optional[int]]] = None,
         ints: Optional[Sequence[Sequence[int]]] = None, root_offset: Fraction = Fraction(0)) -> Trial:
    """quantize(...) with the root margin of cfg, kept with its arguments
    (GenError when no scale fits)."""
    rows = tuple(tuple(r) for r in coefficients)
    forced_scales = tuple(scales) if scales is not None else None
    forced_ints = tuple(tuple(r) for r in ints) if ints is not None else None
    qz = quantize(scheme, seg, rows, forced_scales=forced_scales, forced_ints=forced_ints,
                  root_margin=root_margin(cfg), root_offset=root_offset)
    return Trial(qz, rows, forced_scales, forced_ints, root_offset)
