"""Mixed precision (multiplier = "truncated", Horner): which top Horner
steps run on 32-bit words.  The first trial quantization in, a narrowed
scheme quantized again out (or the input, when nothing can be narrowed)."""

from __future__ import annotations

from fractions import Fraction

from .. import scheme
from ..config import KernelConfig
from ..errors import GenError
from . import trial
from .trial import Trial
from ..segments import Segmentation


def mixed_precision(cfg: KernelConfig, seg: Segmentation, first: Trial) -> Trial:
    """Mixed precision (multiplier = "truncated", Horner): the top steps
    y_j = a_j + v y_(j+1) whose 64-bit scale s leaves a 32-bit word a
    truncation of at most 2^-(s - 33) <= the truncation budget run on
    uint32_t, with their constants and products; so does the product that
    reads the last of them (v y on 32 bits).  The narrowed scheme is
    quantized and proven again like any other."""
    qz = first.qz
    sch = qz.scheme
    budget = sch.truncation_budget
    assert budget is not None
    narrow: set[int] = set()
    for n, node in enumerate(sch.nodes):
        if node.kind != "add":
            continue
        if n == sch.root or Fraction(2) ** -(qz.scales[n] - 33) > budget:
            break
        narrow.add(n)
        for a in node.args:
            narrow.add(a)
            narrow.update(x for x in sch.nodes[a].args if sch.nodes[x].kind == "const")
    if not narrow:
        return first
    for n, node in enumerate(sch.nodes):
        if node.kind == "mul" and n not in narrow and all(x in narrow or sch.nodes[x].kind == "var"
                                                        for x in node.args):
            narrow.add(n)
    try:
        return trial.make(cfg, scheme.narrowed(sch, narrow, budget), seg, first.coefficients, first.scales)
    except GenError:
        return first
