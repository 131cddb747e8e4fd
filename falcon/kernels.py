"""Which kernels have Falcon adaptors, their figures, and how to compile
the C programs of falcon/ against them.

A kernel is usable here when its sidecar says "falcon_adaptors": true
(kernel folders are read through kfolder).  Every C program is compiled
once per kernel with -DKNAME=<name> -DKHEADER='"<name>.h"' (see
falcon/kname.h).
"""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Optional, Sequence

import kfolder
from kfolder import Kernel

ROOT = Path(__file__).resolve().parent.parent
FALCON = ROOT / "falcon"
RUNTIME = ROOT / "runtime"
TOOLKIT_C = ROOT / "toolkit" / "c"
# FALCON_GENERATED points the tests and tools at another rendering (e.g. a
# candidate generator output) instead of generated/.
GENERATED = Path(os.environ.get("FALCON_GENERATED", str(ROOT / "generated")))
VECTORS = ROOT / "tests" / "data" / "facct_vectors.tsv"   # a copy of ../shared/anchors/facct_vectors.tsv
# The reference's max error, units of 2^-63 (FACCT.md, 256-bit check).
REF_MAX_ERR_2P63 = 3562.6

WARN = ["-Wall", "-Wextra", "-Werror"]


class FalconError(RuntimeError):
    """A kernel, file or tool the falcon/ programs need is missing or broken."""


def defines(kernel: Kernel) -> list[str]:
    """The -D flags that point falcon/kname.h at `kernel`'s adaptors."""
    return [f"-DKNAME={kernel.name}", f"-DKHEADER=\"{kernel.falcon_header.name}\""]


def load_kernel(name: str, generated: Path = GENERATED) -> Optional[Kernel]:
    """The kernel `name`, or None when it has no Falcon adaptors."""
    try:
        kernel = kfolder.load(generated, name)
    except kfolder.KernelFolderError as exc:
        raise FalconError(str(exc)) from None
    return kernel if kernel.falcon_adaptors else None


def adaptor_kernels(names: Sequence[str], generated: Path = GENERATED) -> list[Kernel]:
    """The kernels among `names` that ship Falcon adaptors, in order."""
    kernels = [load_kernel(n, generated) for n in names]
    return [k for k in kernels if k is not None]


def shipped_names() -> list[str]:
    """The names the Makefile's KERNELS holds: kernels/*.toml."""
    return sorted(p.stem for p in (ROOT / "kernels").glob("*.toml"))


def generated_names(generated: Path = GENERATED) -> list[str]:
    """The shipped names whose kernel is rendered already.  The tests use
    this: whether generated/ is up to date is the generator's tests' job,
    and the make targets regenerate stale kernels first."""
    present = set(kfolder.names(generated))
    return [n for n in shipped_names() if n in present]


def audit_figures(path: Path) -> dict[str, dict[str, Any]]:
    """Per kernel name, its build/audit.json entry ({} if the file is absent)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, json.JSONDecodeError) as exc:
        raise FalconError(f"{path}: {exc}") from exc
    return {e["name"]: e for e in data.get("kernels", [])}


def compile_c(sources: Sequence[Path], out: Path, includes: Sequence[Path],
              flags: Sequence[str] = (), cc: str = "gcc", link: Sequence[str] = (),
              object_only: bool = False) -> Path:
    """Compile (and link unless object_only) into `out`; FalconError on failure."""
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [cc, "-O2", "-std=gnu11", *WARN, *flags, *[f"-I{d}" for d in includes],
           *(["-c"] if object_only else []), *[str(s) for s in sources], "-o", str(out),
           *([] if object_only else link)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise FalconError(f"compile failed: {' '.join(cmd)}\n{done.stderr}")
    return out


def build_probe(kernel: Kernel, out_dir: Path, cc: str = "gcc",
                flags: Sequence[str] = (), emu_flags: Sequence[str] = ()) -> Path:
    """The probe program of falcon/probe.c for `kernel`.

    The emulated adaptor is compiled separately (emu_wrap.c) with
    `emu_flags` on top of `flags`, e.g. -mgeneral-regs-only, so the outputs
    the probe prints come from that FP-free object.
    """
    inc = [FALCON, RUNTIME, TOOLKIT_C, kernel.folder]
    flags = [*flags, *kernel.cflags]
    # Two files include the header: the table is defined in the probe's.
    emu = compile_c([FALCON / "emu_wrap.c"], out_dir / "emu_wrap.o", inc,
                    [*defines(kernel), f"-D{kernel.table_extern_macro}", *flags, *emu_flags], cc,
                    object_only=True)
    return compile_c([FALCON / "probe.c", RUNTIME / "facct_ref.c", emu],
                     out_dir / "probe", inc, [*defines(kernel), *flags], cc)


def run_probe(probe: Path, cases: Sequence[tuple[int, int]]) -> list[tuple[int, int, int, int, int]]:
    """(emu, native, ref, domain, domain_bits) for each (x_bits, ccs_bits); FalconError on
    any error output (a sanitizer report counts as one)."""
    text = "".join(f"{x:016x} {c:016x}\n" for x, c in cases)
    done = subprocess.run([str(probe)], input=text, capture_output=True, text=True,
                          timeout=300)
    if done.returncode != 0 or done.stderr:
        raise FalconError(f"{probe} failed ({done.returncode}): {done.stderr[:2000]}")
    rows = [tuple(int(w, 16) for w in line.split()) for line in done.stdout.splitlines()]
    if len(rows) != len(cases) or any(len(r) != 5 for r in rows):
        raise FalconError(f"{probe}: expected {len(cases)} rows of 5 words")
    return rows  # type: ignore[return-value]
