"""Word-level helpers shared by the quantization rules: signed shifts, the
operand shift of a 32-bit step, and where a coefficient's node is."""

from __future__ import annotations

from ..scheme import Scheme

Interval = tuple[int, int]


def shift(value: int, r: int) -> int:
    """value >> r, or value << -r for a negative r (an exact left shift)."""
    return value >> r if r >= 0 else value << -r


def operand_shift(scheme: Scheme, n: int, x: int, word_bits: int) -> int:
    """A narrow (32-bit) product reads a 64-bit operand x as x >> 32."""
    return word_bits - 32 if scheme.nodes[n].narrow and not scheme.nodes[x].narrow else 0


def const_node(scheme: Scheme, j: int) -> int:
    return next(n for n, nd in enumerate(scheme.nodes) if nd.kind == "const" and nd.power == j)
