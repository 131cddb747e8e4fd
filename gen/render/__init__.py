"""Stage 7, render: a built kernel in, the contents of its folder out
(``<out>/<name>/``: headers from the Jinja2 templates, the sidecar, the
runtime header and the Gappa certificate); nothing is written here, the
command line writes them with :func:`gen.render.writer.write_atomic`.
Output depends on the config and the generator alone: no timestamps, no
machine paths.
"""

from __future__ import annotations

import json

import jinja2

from certify import gappa_script

from .. import VERSION, cemit, falcon
from ..config import KernelConfig
from ..head_kernel import HeadKernel
from ..kernel import Kernel
from . import head
from .context import ROOT, config_display_path, context
from .sidecar import sidecar

TEMPLATES = ROOT / "templates"
RUNTIME_HEADER = ROOT / "runtime" / "fxp.h"


def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True, keep_trailing_newline=True,
                              autoescape=False)


def _render_head(k: HeadKernel, out_dir: str) -> dict[str, str]:
    """The files of a form = "head" kernel (no table: its coefficients are
    immediates; the Gappa certificate of its binary64 part is
    certify/gappa_head.py's)."""
    env = _environment()
    ctx = head.context(k, out_dir)
    name = k.cfg.name
    files = {f"{name}.h": env.get_template("head.h.j2").render(filename=f"{name}.h", **ctx),
             f"{name}_falcon.h": env.get_template("falcon/head.h.j2").render(filename=f"{name}_falcon.h", **ctx),
             "fxp.h": RUNTIME_HEADER.read_text()}
    files[f"{name}.json"] = json.dumps(head.sidecar(k, ctx), indent=1, sort_keys=False) + "\n"
    return files


def render(k: "Kernel | HeadKernel", out_dir: str) -> dict[str, str]:
    """File name -> content for kernel k (nothing written)."""
    if isinstance(k, HeadKernel):
        return _render_head(k, out_dir)
    env = _environment()
    ctx = context(k, out_dir)
    name = k.cfg.name
    files: dict[str, str] = {}
    targets = [(f"{name}.h", "kernel.h.j2"), (f"{name}_table.h", "table.h.j2")]
    if falcon.compatible(k.cfg, k.seg):
        targets.append((f"{name}_falcon.h", f"falcon/{falcon.variant(k.cfg, k.qz, k.final_plan)}.h.j2"))
    for filename, template in targets:
        files[filename] = env.get_template(template).render(filename=filename, **ctx)
    files["fxp.h"] = RUNTIME_HEADER.read_text()
    data = sidecar(k, ctx)
    files[f"{name}.json"] = json.dumps(data, indent=1, sort_keys=False) + "\n"
    # The independent certificate of the evaluation error (run by `make certify`);
    # none for kernels with truncated limb products, which it does not model.
    if not gappa_script.has_limb_products(data):
        files[f"{name}.gappa"] = gappa_script.render_script(data, source=f"{name}.json")
    return files


def mpfr_reference(cfg: KernelConfig) -> str:
    """The checker's reference for cfg's function: a C function calling MPFR
    (``kernel_ref_f``), built from the parsed expression."""
    return _environment().get_template("mpfr_ref.h.j2").render(
        config_path=config_display_path(cfg.path), version=VERSION, function=cfg.function,
        body=cemit.to_mpfr_c(cfg.function_tree, "kernel_ref_f"))
