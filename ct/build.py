"""Compile the wrappers and the two harnesses with the project's compiler
and flags."""

from __future__ import annotations

import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ct.kernels import Kernel
from ct.wrappers import render_registry, render_wrappers

C_DIR = Path(__file__).resolve().parent / "c"
# toolkit/c/test_util.h: the SplitMix64 generator the harnesses draw inputs from.
TOOLKIT_C = Path(__file__).resolve().parent.parent / "toolkit" / "c"


class BuildError(Exception):
    """A compile or link step failed."""


@dataclass(frozen=True)
class Toolchain:
    """The compiler command and flags every object is built with."""

    cc: str
    cflags: tuple[str, ...]

    @property
    def flags_text(self) -> str:
        return " ".join(self.cflags)

    def version(self) -> str:
        """First line of `cc --version`, recorded in ct.json."""
        out = subprocess.run([*shlex.split(self.cc), "--version"], capture_output=True, text=True)
        return out.stdout.splitlines()[0] if out.returncode == 0 and out.stdout else self.cc


@dataclass(frozen=True)
class Built:
    """Paths of what build_all produced."""

    objects: dict[str, Path]  # kernel name -> wrapper object
    taint: Path
    ttest: Path


def _run(cmd: list[str]) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"command failed: {' '.join(cmd)}\n{proc.stderr.strip()}")


def build_all(tc: Toolchain, kernels: list[Kernel], out: Path) -> Built:
    """Render and compile one wrapper object per kernel, the registry and
    both harness executables, all under out/."""
    out.mkdir(parents=True, exist_ok=True)
    cc = shlex.split(tc.cc)
    objects: dict[str, Path] = {}
    for k in kernels:
        src = out / f"wrap_{k.name}.c"
        src.write_text(render_wrappers(k))
        obj = src.with_suffix(".o")
        _run([*cc, *tc.cflags, *k.cflags, f"-I{k.folder}", "-c", str(src), "-o", str(obj)])
        objects[k.name] = obj
    reg = out / "registry.c"
    reg.write_text(render_registry(kernels))
    common = [str(reg), str(C_DIR / "ct_entry.c"), *map(str, objects.values())]
    taint = out / "ct_taint"
    ttest = out / "ct_ttest"
    _run([*cc, *tc.cflags, f"-I{C_DIR}", f"-I{TOOLKIT_C}", str(C_DIR / "taint_main.c"), *common, "-o", str(taint)])
    _run([*cc, *tc.cflags, f"-I{C_DIR}", f"-I{TOOLKIT_C}", str(C_DIR / "ttest_main.c"), *common, "-o", str(ttest), "-lm"])
    return Built(objects, taint, ttest)
