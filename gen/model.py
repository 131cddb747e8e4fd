"""The exact integer model of a kernel: what the emitted C computes, in
Python integers, node by node (wrap-around included).  Input: a built
kernel (or its quantized scheme and segmentation) and an input word;
output: the C function's result.  The self-check (:mod:`gen.selfcheck`),
the tests and the Falcon models (:mod:`gen.falcon`) run it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .quantize import Quantized, operand_shift, shift
from .scheme import drops_word
from .segments import Segmentation

if TYPE_CHECKING:
    from .kernel import Kernel


def evaluate_core(qz: Quantized, seg: Segmentation, z: int, check: bool = False) -> int:
    """The root value for input z; see :func:`evaluate_nodes`."""
    return evaluate_nodes(qz, seg, z, check)[-1]


def local_word(seg: Segmentation, z: int) -> int:
    """T, the offset word of z in its segment."""
    return (seg.offset_of(z) << seg.pre_shift) & ((1 << seg.word_bits) - 1)


def evaluate_nodes(qz: Quantized, seg: Segmentation, z: int, check: bool = False) -> list[int]:
    """Every node's value for input z, exactly as the emitted C computes it
    (wrap-around modulo 2^W, or 2^2W for wide nodes).  With ``check``,
    assert what the interval proof claims: every true (unwrapped) value
    lies in [0, 2^width)."""
    W = qz.word_bits
    i = seg.index_of(z)
    T = local_word(seg, z)
    vals: list[int] = []
    for n, node in enumerate(qz.scheme.nodes):
        mask = (1 << (2 * W if node.wide else (32 if node.narrow else W))) - 1
        if node.kind == "var":
            value = T
        elif node.kind == "const":
            value = qz.table_word(i, node.power)
        elif node.kind == "mul" and (node.narrow or (qz.plans and qz.plans[n] is not None)):
            a, b = (vals[x] >> operand_shift(qz.scheme, n, x, W) for x in node.args)
            plan = qz.plans[n] if qz.plans else None
            value = plan.evaluate(a, b, check) if plan else (a * b) >> 32
            if check and value > mask:
                raise AssertionError(f"overflow at z={z}, node {node.label}: {value}")
        elif node.kind == "mul":
            value = (vals[node.args[0]] * vals[node.args[1]]) >> (W if drops_word(qz.scheme.nodes, node) else 0)
        elif node.kind == "ftail":
            assert qz.tail is not None
            value = qz.tail.model(T)
            if check and not 0 <= value < 1 << (W - 1):
                raise AssertionError(f"tail out of range at z={z}: {value}")
        else:
            value = qz.root_bias if n == qz.root else 0
            terms = qz.terms[n]
            assert terms is not None
            for a, (sign, r) in zip(node.args, terms):
                is_const = qz.scheme.nodes[a].kind == "const"
                term = shift(qz.ints[i][qz.scheme.nodes[a].power] if is_const else vals[a], r)
                if check and not is_const and term > mask:
                    raise AssertionError(f"overflow at z={z}, node {node.label}")
                value += sign * term
            if check and not 0 <= value <= mask:
                raise AssertionError(f"overflow at z={z}, node {node.label}: {value}")
            value &= mask
        vals.append(value)
    return vals


def model_eval(kernel: Kernel, z: int) -> int:
    """The kernel's ``_eval(z)`` on the exact integer model."""
    qz = kernel.qz
    u = evaluate_core(qz, kernel.seg, z)
    q = qz.root_scale - kernel.cfg.scale_bits
    rounded = (u + (1 << (q - 1))) >> q if q > 0 else u
    return rounded if kernel.cfg.form == "direct" else (1 << kernel.cfg.scale_bits) - rounded


def model_expm(kernel: Kernel, z: int, w: int) -> int:
    """The kernel's ``_expm_p63(z, w)`` on the exact integer model (64-bit kernels)."""
    qz = kernel.qz
    if qz.tail is not None:
        integer_root = qz.scheme.nodes[qz.root].args[0]
        c = evaluate_nodes(qz, kernel.seg, z)[integer_root] << (128 - qz.scales[integer_root])
        tail = qz.tail.model(local_word(kernel.seg, z), w)
        n = ((w << 64) - w * (c >> 64) - ((w * (c & ((1 << 64) - 1))) >> 64)
             - qz.tail.sign * (tail << (128 - qz.tail.scale)))
        return (n >> 65) + ((n >> 64) & 1)
    u = evaluate_core(kernel.qz, kernel.seg, z)
    s = kernel.qz.root_scale
    if kernel.cfg.form == "direct" and kernel.final_plan is not None:
        p = kernel.final_plan.evaluate(w, u, check=True)
        return p >> (s - 63) if s >= 63 else p << (63 - s)
    if kernel.cfg.form == "direct" and kernel.cfg.wide:
        n = w * (u >> 64) + ((w * (u & ((1 << 64) - 1))) >> 64)
        return (n + (1 << (s - 64))) >> (s - 63)
    if kernel.cfg.form == "direct":
        p = (w * u) >> 64
        return p >> (s - 63) if s >= 63 else p << (63 - s)
    if kernel.cfg.wide:
        c = u << (128 - s)
        n = (w << 64) - w * (c >> 64) - ((w * (c & ((1 << 64) - 1))) >> 64)
    else:
        p = w * u
        n = (w << 64) - (p >> (s - 64) if s >= 64 else p << (64 - s))
    return (n >> 65) + ((n >> 64) & 1)
