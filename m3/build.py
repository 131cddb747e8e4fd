"""What gets built per measured target (a generated kernel, or one of the
hand-written references `facct_portable` and `facct_m4`), and how."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import kfolder

from .toolchain import M3, M3_DIR, REPO, Core, M3Error, compile_arm, compile_host

PORTABLE = "facct_portable"
FACCT_M4 = "facct_m4"
KPROG = M3_DIR / "kprog.c"
KNOWN = M3_DIR / "known.S"


@dataclass(frozen=True)
class Reference:
    """A hand-written reference in runtime/: its source, header and the two
    functions measured (the polynomial from z, w and fpr_expm_p63 from the
    inputs' bits)."""

    source: str
    header: str
    poly: str
    fpr: str


REFERENCES = {
    PORTABLE: Reference("facct_ref.c", "facct_ref.h", "facct_ref_poly", "facct_ref_expm_p63"),
    FACCT_M4: Reference("facct_m4.c", "facct_m4.h", "facct_m4_poly", "facct_m4_expm_p63"),
}


@dataclass(frozen=True)
class Target:
    """One measured program: a kernel folder, or a hand-written reference."""

    name: str
    word_bits: int
    include: Path          # folder of the kernel's headers (or runtime/)
    kernel: Optional[kfolder.Kernel] = None   # None for the references
    ref: Optional[Reference] = None           # None for the kernels

    @property
    def portable(self) -> bool:
        """True for a hand-written reference (facct_portable, facct_m4)."""
        return self.kernel is None

    def defines(self) -> list[str]:
        """The -D flags that select the target in kprog.c."""
        if self.ref is not None:
            return [f'M3_REF_HEADER="{self.ref.header}"', f"M3_REF_EXPM={self.ref.poly}",
                    f"M3_REF_FPR={self.ref.fpr}"]
        # 64-bit kernels are called through their Falcon adaptors.
        header = self.kernel.falcon_header.name if self.word_bits == 64 else self.kernel.header.name
        return [f"M3_KERNEL={self.name}", f'M3_HEADER="{header}"',
                f"M3_WORD_BITS={self.word_bits}", f"M3_FIXED_POINT={int(self.kernel.fixed_point)}"]

    def sources(self) -> list[Path]:
        """The C files of the program (the reference adds its own source)."""
        return [KPROG, REPO / "runtime" / self.ref.source] if self.ref is not None else [KPROG]

    def entries(self) -> dict[str, str]:
        """Bench label -> symbol whose calls are counted."""
        if self.ref is not None:
            return {"expm": self.ref.poly, "fpr": self.ref.fpr}
        if self.word_bits == 64 and not self.kernel.fixed_point:
            return {"fpr": "m3_fpr", "domain": "m3_fpr_domain"}
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


def reference(name: str = PORTABLE) -> Target:
    """A hand-written reference: facct_portable (Falcon's emulated
    fpr_expm_p63, 32-bit-limb products) or facct_m4 (the same function as
    the reference's Cortex-M4 build computes it, UMULL/UMAAL products)."""
    return Target(name, 64, REPO / "runtime", ref=REFERENCES[name])


def portable() -> Target:
    """The hand-written reference facct_portable."""
    return reference(PORTABLE)


def load_kernel(name: str, gen_dir: Path) -> Target:
    """A generated kernel, from its kernel folder; a 64-bit one must ship
    the Falcon adaptors the programs call."""
    try:
        kernel = kfolder.load(gen_dir, name, adaptors_for_64bit=True)
    except kfolder.KernelFolderError as exc:
        raise M3Error(str(exc)) from None
    return Target(name, kernel.word_bits, kernel.folder, kernel)


def build_vec(t: Target, out: Path, vec_dir: Path, nrand: int,
              core: Core = M3) -> tuple[Path, Path]:
    """The vector program for the core and for the host."""
    defs = t.defines() + ["M3_MODE_VEC", f"M3_NRAND={nrand}u"]
    inc = [t.include, vec_dir]
    elf = compile_arm(t.sources(), out / f"{t.name}_vec.elf", defs, inc, core)
    exe = compile_host(t.sources(), out / f"{t.name}_vec.host", defs, inc)
    return elf, exe


def build_vec_core(t: Target, out: Path, vec_dir: Path, tag: str, core: Core = M3) -> Path:
    """The vector program for the core only, on the vectors.h of `vec_dir`
    and no pseudo-random inputs (the error-distribution run)."""
    defs = t.defines() + ["M3_MODE_VEC", "M3_NRAND=0u"]
    return compile_arm(t.sources(), out / f"{t.name}_{tag}.elf", defs, [t.include, vec_dir], core)


def build_bench(t: Target, out: Path, calls: int, tag: str, core: Core = M3) -> Path:
    """The bench program (the core only) timing `calls` and 2*`calls` calls."""
    defs = t.defines() + ["M3_MODE_BENCH", f"M3_BENCH_N={calls}u"]
    return compile_arm(t.sources() + [KNOWN], out / f"{t.name}_bench_{tag}.elf",
                       defs, [t.include], core)
