"""Stage 7, render: a built kernel in, the contents of its folder out
(nothing is written here; the command line writes the folder at once with
:func:`toolkit.files.replace_folder`).  The folder's layout is kfolder's:

* ``<name>.h``, the one header a user vendors: the vendored banner, then
  the C of ``templates/header.h.j2`` in its lean form (gen/render/lean.py);
* ``provenance/``: the same header with every comment and the full list of
  parameters and computed values (``<name>_annotated.h``), the sidecar and
  the Gappa certificate.

Output depends on the config and the generator alone: no timestamps, no
machine paths.
"""

from __future__ import annotations

import functools
import hashlib
import json

import jinja2

import kfolder
from certify import gappa_script

from .. import cemit, falcon, fingerprint
from ..config import KernelConfig
from ..eft import EftKernel
from ..fold import FoldKernel
from ..twin import TwinKernel
from ..mcu import McuKernel
from ..head_kernel import HeadKernel
from ..kernel import AnyKernel
from . import banner, eft, fold, head, lean, mcu, twin
from .context import context
from .runtime import rename, runtime_for
from .sidecar import sidecar

TEMPLATES = fingerprint.ROOT / "templates"
_HASH_PLACEHOLDER = "0" * 16


@functools.lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    """One environment per process, so every template is compiled once."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True,
                             autoescape=False)
    env.filters["c_comment"] = banner.c_comment
    return env


def _body(env: jinja2.Environment, k: AnyKernel, ctx: dict) -> str:
    """The header's C with every comment, banner excepted."""
    if isinstance(k, EftKernel):
        # Form eft: its constants, kernel, adaptors and batch forms are one template.
        parts = {"table": "", "kernel": env.get_template("eft.h.j2").render(**ctx), "adaptors": ""}
    elif isinstance(k, McuKernel):
        # Form mcu likewise: its table, kernel and adaptors are one template.
        parts = {"table": "", "kernel": env.get_template("mcu.h.j2").render(**ctx), "adaptors": ""}
    elif isinstance(k, FoldKernel):
        # Form fold likewise: no table, the kernel is its Falcon adaptors.
        parts = {"table": "", "kernel": env.get_template("fold.h.j2").render(**ctx), "adaptors": ""}
    elif isinstance(k, TwinKernel):
        # Form twin likewise: its constants and its two instruction streams.
        parts = {"table": "", "kernel": env.get_template("twin.h.j2").render(**ctx), "adaptors": ""}
    elif isinstance(k, HeadKernel):
        # Form head: no table (its coefficients are immediates), and always
        # the Falcon adaptors.
        parts = {"table": "", "kernel": env.get_template("head.h.j2").render(**ctx),
                 "adaptors": env.get_template("falcon/head.h.j2").render(**ctx)}
    else:
        parts = {"table": env.get_template("table.h.j2").render(**ctx),
                 "kernel": env.get_template("kernel.h.j2").render(**ctx), "adaptors": ""}
        if falcon.compatible(k.cfg, k.seg):
            variant = falcon.variant(k.cfg, k.qz, k.final_plan)
            parts["adaptors"] = env.get_template(f"falcon/{variant}.h.j2").render(**ctx)
    runtime = runtime_for("\n".join(parts.values()))
    text = env.get_template("header.h.j2").render(runtime=runtime, **parts, **ctx)
    return rename(text, f"{k.cfg.name}_fxp_")   # the helpers and every call of them


def _banner(lines: list[str]) -> str:
    return "/* " + lines[0] + "\n" + "".join(f" * {line}".rstrip() + "\n" for line in lines[1:]) + " */\n"


def render(k: AnyKernel, out_dir: str) -> dict[str, str]:
    """Path relative to the kernel folder -> content, for kernel k rendered
    into ``out_dir`` (which only the regeneration command mentions)."""
    env = _environment()
    is_head, is_eft, is_fold = isinstance(k, HeadKernel), isinstance(k, EftKernel), isinstance(k, FoldKernel)
    is_mcu, is_twin = isinstance(k, McuKernel), isinstance(k, TwinKernel)
    if is_mcu:
        ctx, banners = mcu.context(k, out_dir), (mcu.banner_lines(k, out_dir), mcu.detail_lines(k, out_dir))
    elif is_eft:
        ctx, banners = eft.context(k, out_dir), (eft.banner_lines(k, out_dir), eft.detail_lines(k, out_dir))
    elif is_fold:
        ctx, banners = fold.context(k, out_dir), (fold.banner_lines(k, out_dir), fold.detail_lines(k, out_dir))
    elif is_twin:
        ctx, banners = twin.context(k, out_dir), (twin.banner_lines(k, out_dir), twin.detail_lines(k, out_dir))
    elif is_head:
        ctx, banners = head.context(k, out_dir), (banner.lines(k, out_dir), head.detail_lines(k, out_dir))
    else:
        ctx, banners = context(k, out_dir), (banner.lines(k, out_dir), banner.detail_lines(k, out_dir))
    ctx |= {"content_hash": _HASH_PLACEHOLDER}
    layout = kfolder.layout(k.cfg.name)
    body = _body(env, k, ctx)
    data = (mcu.sidecar(k, ctx) if is_mcu else eft.sidecar(k, ctx) if is_eft else fold.sidecar(k, ctx) if is_fold
            else twin.sidecar(k, ctx) if is_twin else head.sidecar(k, ctx) if is_head else sidecar(k, ctx))
    # The content hash names what this render computed (the regeneration
    # command, which names the output folder, aside): the same in the
    # header and the sidecar, so a folder mixed from two renders is refused (kfolder).
    facts = {key: value for key, value in data.items() if key != "command"}
    digest = hashlib.sha256((body + json.dumps(facts, sort_keys=True)).encode()).hexdigest()[:16]
    body = body.replace(f"0x{_HASH_PLACEHOLDER}u", f"0x{digest}u")     # the guard's test and the macro
    data["content_hash"] = digest
    files = {
        layout.header: _banner(banners[0]) + lean.lean(body),
        layout.annotated_header: _banner(banners[1]) + body,
        layout.sidecar: json.dumps(data, indent=1, sort_keys=False) + "\n",
    }
    # The independent certificate of the evaluation error (run by `make certify`);
    # none for kernels with truncated limb products, which it does not model.
    # (Form head: certify/gappa_head.py writes one script per claim from the
    # sidecar, as one script holding them all takes Gappa far longer.)
    # (Forms eft, fold, twin and mcu: no polynomial evaluation of this kind; their
    # proofs are gen/<form>/proof.py.)
    if not (is_head or is_eft or is_fold or is_twin or is_mcu) and not gappa_script.has_limb_products(data):
        files[layout.gappa_script] = gappa_script.render_script(data, source=layout.sidecar_name)
    return files


def mpfr_reference(cfg: KernelConfig) -> str:
    """The checker's reference for cfg's function: a C function calling MPFR
    (``kernel_ref_f``), built from the parsed expression."""
    return _environment().get_template("mpfr_ref.h.j2").render(
        config_path=banner.c_comment(banner.project_path(cfg.path)), generator=fingerprint.short(),
        function=banner.c_comment(cfg.function), body=cemit.to_mpfr_c(cfg.function_tree, "kernel_ref_f"))
