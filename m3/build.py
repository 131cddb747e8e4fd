"""What gets built per measured target (a generated kernel, or the
hand-written reference `facct_portable`), and how."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .toolchain import M3_DIR, REPO, M3Error, compile_arm, compile_host

PORTABLE = "facct_portable"
KPROG = M3_DIR / "kprog.c"
KNOWN = M3_DIR / "known.S"


@dataclass(frozen=True)
class Target:
    name: str
    word_bits: int
    include: Path          # folder of the kernel's headers (or runtime/)
    portable: bool = False

    def defines(self) -> list[str]:
        if self.portable:
            return ["M3_PORTABLE=1"]
        header = f"{self.name}_falcon.h" if self.word_bits == 64 else f"{self.name}.h"
        return [f"M3_KERNEL={self.name}", f'M3_HEADER="{header}"',
                f"M3_WORD_BITS={self.word_bits}"]

    def sources(self) -> list[Path]:
        return [KPROG, REPO / "runtime" / "facct_ref.c"] if self.portable else [KPROG]

    def entries(self) -> dict[str, str]:
        """Bench label -> symbol whose calls are counted."""
        if self.portable:
            return {"expm": "facct_ref_poly", "fpr": "facct_ref_expm_p63"}
        if self.word_bits == 64:
            return {"eval": "m3_eval", "expm": "m3_expm", "fpr": "m3_fpr", "domain": "m3_fpr_domain"}
        return {"eval32": "m3_eval32"}

    def main_label(self) -> str:
        """The entry point a kernel's headline figures are about: for 64-bit
        kernels the Falcon adaptor for emulated-float builds under Falcon's
        own contract (_fpr_expm_p63_domain_bits, conversions included), the
        function facct_portable's figure is about; eval for 32-bit ones."""
        if self.portable:
            return "fpr"
        return "eval32" if self.word_bits == 32 else "domain"


def portable() -> Target:
    return Target(PORTABLE, 64, REPO / "runtime", portable=True)


def load_kernel(name: str, gen_dir: Path) -> Target:
    """A generated kernel, from its sidecar JSON."""
    sidecar = gen_dir / name / f"{name}.json"
    if not sidecar.is_file():
        raise M3Error(f"kernel '{name}': {sidecar} missing (generate the kernels first)")
    try:
        meta = json.loads(sidecar.read_text())
        bits = int(meta["word_bits"])
    except (ValueError, KeyError, TypeError):
        raise M3Error(f"kernel '{name}': {sidecar} has no valid word_bits") from None
    if bits not in (32, 64):
        raise M3Error(f"kernel '{name}': word_bits {bits} is neither 32 nor 64")
    return Target(name, bits, gen_dir / name)


def build_vec(t: Target, out: Path, vec_dir: Path, nrand: int) -> tuple[Path, Path]:
    """The vector program for the M3 and for the host."""
    defs = t.defines() + ["M3_MODE_VEC", f"M3_NRAND={nrand}u"]
    inc = [t.include, vec_dir]
    elf = compile_arm(t.sources(), out / f"{t.name}_vec.elf", defs, inc)
    exe = compile_host(t.sources(), out / f"{t.name}_vec.host", defs, inc)
    return elf, exe


def build_bench(t: Target, out: Path, calls: int, tag: str) -> Path:
    """The bench program (M3 only) timing `calls` and 2*`calls` calls."""
    defs = t.defines() + ["M3_MODE_BENCH", f"M3_BENCH_N={calls}u"]
    return compile_arm(t.sources() + [KNOWN], out / f"{t.name}_bench_{tag}.elf",
                       defs, [t.include])
