"""The banners of a kernel's header: the vendored one (at most 12 lines:
licence, do-not-edit, the regeneration command, the config's and the
generator's SHA-256, the parameters that differ from the defaults and the
proven bounds with what they bound) and the annotated one in provenance/
(every parameter and every computed value).  Text from the config goes
through :func:`c_comment` first."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

from .. import cemit, fingerprint
from ..config import DEFAULTS, KernelConfig
from ..falcon import compatible
from ..kernel import Kernel

ROOT = fingerprint.ROOT
SPDX = "SPDX-License-Identifier: CC0-1.0"
MAX_LINES = 12     # the whole banner, "/*" and "*/" included
WIDTH = 100


def c_comment(text: str) -> str:
    """`text` made safe on one line of a C block comment: no comment
    delimiter, no trigraph (C99 replaces ??/ even in comments), no control
    character (a newline would end the line), no backslash at the end
    (it would splice the next line)."""
    text = "".join("?" if ord(c) < 0x20 or ord(c) == 0x7F else c for c in text)
    while any(s in text for s in ("*/", "/*", "??")):
        text = text.replace("*/", "* /").replace("/*", "/ *").replace("??", "? ?")
    return text + "_" if text.endswith("\\") else text


def project_path(path: str) -> str:
    """`path` relative to the project root, as the regeneration command
    (run in the project root) needs it, with '..' steps for a path outside it."""
    return Path(os.path.relpath(Path(path).resolve(), ROOT)).as_posix()


def command(config_path: str, out_dir: str) -> str:
    """The exact command that renders this kernel again, from the project root."""
    return f"python3 -m gen render {shlex.quote(project_path(config_path))} --out {shlex.quote(project_path(out_dir))}"


def _toml(value: object) -> str:
    """A parameter's value as the config would write it."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)


def changed_parameters(cfg: KernelConfig) -> list[str]:
    """`key = value` for every parameter that is not the default (name excepted)."""
    return [f"{key} = {_toml(value)}" for key, value in cfg.parameters().items()
            if key != "name" and DEFAULTS.get(key, object()) != value]


def pack(first: str, items: list[str], indent: str = "    ") -> list[str]:
    """`first` followed by `items`, comma-separated, a line broken only
    between two items (so that no `key = value` is split)."""
    lines = [first]
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if len(lines[-1]) + 1 + len(piece) > WIDTH and lines[-1].strip():
            lines.append(indent + piece)
        else:
            lines[-1] += " " + piece
    return lines


def _bound_lines(k: Kernel) -> list[str]:
    """The proven bounds and what each bounds, one line per entry kind."""
    cfg, name = k.cfg, k.cfg.name
    W, S = cfg.word_bits, cfg.scale_bits
    lines = []
    if compatible(cfg, k.seg):
        bound = k.fpr_bound_2p63 if k.fpr_bound_2p63 is not None else k.expm_bound_2p63
        assert bound is not None
        lines.append(f"    |{name}_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= {cemit.round_up(bound)} "
                     "units of 2^-63, x in [0, ln 2), ccs in [0, 1]")
    text = f"    |_eval(z) - f(z/2^{W}) 2^{S}| <= {cemit.round_up(k.eval_bound_ulp)} (units of 2^-{S})"
    if k.expm_bound_2p63 is not None:
        text += (f", |_expm_p63(z, w) - (w/2^64) f(z/2^64) 2^63| <= {cemit.round_up(k.expm_bound_2p63)}"
                 " (units of 2^-63)")
    return lines + [text]


def lines(k: Kernel, out_dir: str) -> list[str]:
    """The vendored banner: its lines from the one that opens the comment
    (the licence) to the last before the one that closes it."""
    cfg = k.cfg
    head = [SPDX,
            f"{cfg.name}.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 "
            f"{fingerprint.short()}) from",
            f"{c_comment(project_path(cfg.path))} (sha256 {cfg.sha256}); regenerate in the project root with:",
            f"    {c_comment(command(cfg.path, out_dir))}"]
    tail = [f"Proven bounds (Taylor models, exact interval arithmetic; details, sidecar, Gappa script: "
            f"provenance/), f(x) = {c_comment(cfg.function)}:", *_bound_lines(k)]
    room = MAX_LINES - 1 - len(head) - len(tail)
    params = pack("Parameters other than the defaults:", [c_comment(p) for p in changed_parameters(k.cfg)])
    if len(params) > room:
        params = params[:max(room, 0)]
        if params:
            params[-1] = params[-1].rstrip(",") + f" ... (all in provenance/{cfg.name}.json)"
    return head + params + tail


def detail_lines(k: Kernel, out_dir: str) -> list[str]:
    """The annotated header's banner: the vendored banner's first lines, then
    every parameter and the computed values, proven bounds included."""
    cfg, seg, qz = k.cfg, k.seg, k.qz
    W = cfg.word_bits
    out = lines(k, out_dir)[:-1]
    if cfg.description:
        out.append(f"Description: {c_comment(cfg.description)}")
    out += ["", "Parameters:"]
    out += [f"  {key} = {c_comment(json.dumps(value))}" for key, value in cfg.parameters().items()]
    out += ["",
            "Computed:",
            f"  inputs z = 0x{seg.z_lo:x} .. 0x{seg.z_max:x} (Q0.{W}); {seg.count} segment(s); pre-shift g = {seg.pre_shift}",
            f"  evaluation: {qz.scheme.name}, form {cfg.form}; coefficient scales s_j (j = 0..{qz.degree}) = "
            f"{list(qz.const_scales)}",
            f"  output: root word at 2^{qz.root_scale} -> 2^{cfg.scale_bits} "
            f"(shift {qz.root_scale - cfg.scale_bits}, round to nearest)",
            f"  coefficients re-optimized after rounding (evaluation-aware): {'yes' if k.reoptimized else 'no'}",
            f"  table: {k.table_rows} row(s), {k.table_bytes} bytes, access {k.table_access}"
            + (" (one segment: table_access has no effect)" if seg.count == 1 else "")]
    minimax = [s.minimax_error for s in k.fit.segments if s.minimax_error is not None]
    if minimax:
        out.append(f"  real-coefficient minimax error (max over segments): {max(minimax):.4e}")
    out.append(f"  proven |p - f| of the quantized polynomials (max over segments): "
               f"{cemit.round_up(max(s.approx.bound for s in k.proof.segments))}")
    out.append(f"  proven bound of _eval: {cemit.round_up(k.eval_bound_ulp)} units of 2^-{cfg.scale_bits}")
    if k.expm_bound_2p63 is not None:
        out.append(f"  proven bound of _expm_p63: {cemit.round_up(k.expm_bound_2p63)} units of 2^-63")
    if k.fpr_bound_2p63 is not None and compatible(cfg, seg):
        how = "ccs through its significand" if k.mantissa_adaptor else "conversions included"
        out.append(f"  proven bound of the Falcon adaptors against the doubles passed ({how}): "
                   f"{cemit.round_up(k.fpr_bound_2p63)} units of 2^-63")
    out.append("  (bounds: gen/proof/ and docs/error-model.md of fxp-kernels; figures per segment: "
               f"{cfg.name}.json)")
    return out


def adaptor_lines(cfg: KernelConfig, out_dir: str, bound: str, how: str) -> list[str]:
    """The vendored banner of a kernel with the Falcon adaptors only (forms
    eft and fold): where it came from, the parameters that differ from the
    defaults, and the proven bound ``bound`` (units of 2^-63) with ``how``
    it was proven."""
    head = [SPDX,
            f"{cfg.name}.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 "
            f"{fingerprint.short()}) from",
            f"{c_comment(project_path(cfg.path))} (sha256 {cfg.sha256}); regenerate in the project root with:",
            f"    {c_comment(command(cfg.path, out_dir))}"]
    tail = [f"Proven bound ({how}; terms: provenance/),",
            f"f(x) = {c_comment(cfg.function)}:",
            f"    |{cfg.name}_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= {bound} units of 2^-63, "
            "x in [0, ln 2), ccs in [0, 1]"]
    room = MAX_LINES - 1 - len(head) - len(tail)
    params = pack("Parameters other than the defaults:", [c_comment(p) for p in changed_parameters(cfg)])[:room]
    return head + params + tail


def parameter_lines(cfg: KernelConfig) -> list[str]:
    """The annotated banner's description and every input parameter."""
    out = [f"Description: {c_comment(cfg.description)}"] if cfg.description else []
    out += ["", "Parameters:"]
    return out + [f"  {key} = {c_comment(json.dumps(value))}" for key, value in cfg.parameters().items()]
