"""What gets built per measured target (a generated kernel, or the
hand-written reference `facct_portable`), and how."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import kfolder

from .toolchain import M3_DIR, REPO, M3Error, compile_arm, compile_host

PORTABLE = "facct_portable"
KPROG = M3_DIR / "kprog.c"
KNOWN = M3_DIR / "known.S"


@dataclass(frozen=True)
class Target:
    """One measured program: a kernel folder, or the portable reference."""

    name: str
    word_bits: int
    include: Path          # folder of the kernel's headers (or runtime/)
    kernel: Optional[kfolder.Kernel] = None   # None for facct_portable

    @property
    def portable(self) -> bool:
        """True for the hand-written reference facct_portable."""
        return self.kernel is None

    def defines(self) -> list[str]:
        """The -D flags that select the target in kprog.c."""
        if self.kernel is None:
            return ["M3_PORTABLE=1"]
        # 64-bit kernels are called through their Falcon adaptors.
        header = self.kernel.falcon_header.name if self.word_bits == 64 else self.kernel.header.name
        return [f"M3_KERNEL={self.name}", f'M3_HEADER="{header}"',
                f"M3_WORD_BITS={self.word_bits}"]

    def sources(self) -> list[Path]:
        """The C files of the program (the reference adds its own source)."""
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
    """The hand-written reference (Falcon's emulated fpr_expm_p63)."""
    return Target(PORTABLE, 64, REPO / "runtime")


def load_kernel(name: str, gen_dir: Path) -> Target:
    """A generated kernel, from its kernel folder; a 64-bit one must ship
    the Falcon adaptors the programs call."""
    try:
        kernel = kfolder.load(gen_dir, name, adaptors_for_64bit=True)
    except kfolder.KernelFolderError as exc:
        raise M3Error(str(exc)) from None
    return Target(name, kernel.word_bits, kernel.folder, kernel)


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
