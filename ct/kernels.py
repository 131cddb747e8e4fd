"""The entry points of a kernel as the constant-time harnesses wrap them.

Kernel folders are read through kfolder (the one module that knows their
layout); this module adds what only ct/ needs: which ABI functions each
kernel has and how the harnesses pass their arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import kfolder
from kfolder import Kernel

# The kinds match enum ct_kind in ct/c/ct_entry.h.
KIND_Z64 = "CT_Z64"
KIND_ZW64 = "CT_ZW64"
KIND_BITS = "CT_BITS"
KIND_DBL = "CT_DBL"
KIND_Z32 = "CT_Z32"

# The entry points of a 64-bit kernel (its fixed-point interface, then its
# Falcon adaptors) and of a 32-bit one (its _eval only), with the argument
# kind of each.  A kernel without the fixed-point interface (sidecar
# "fixed_point": false, form eft) has no _eval and no _expm_p63: only its
# adaptors (and batch entries) are wrapped.
_FIXED_POINT_64 = (("eval", KIND_Z64), ("expm_p63", KIND_ZW64))
_ADAPTORS = (("fpr_expm_p63", KIND_BITS), ("fpr_expm_p63_native", KIND_DBL), ("fpr_expm_p63_domain", KIND_DBL))
_SPECS_32 = (("eval", KIND_Z32),)

# The batch forms of a kernel rendered with them (kfolder's batch_isas:
# the sidecar's "batch"; form head's templates/falcon/batch.h.j2 and form
# eft's): per instruction set, its lanes, the target
# attribute its wrappers need and the CPU features that must be present.
BATCH_ISAS: dict[str, tuple[int, str, tuple[str, ...]]] = {
    "avx512": (8, "avx512f,avx512dq", ("avx512f", "avx512dq")),
    "avx2": (4, "avx2,fma", ("avx2", "fma")),
}
# valgrind executes no AVX-512 instruction: those entries get the scan and
# the t-test only (docs/constant-time.md).
VALGRIND_ISAS = ("", "avx2")


class KernelError(Exception):
    """A kernel folder or sidecar that the checks cannot use."""


@dataclass(frozen=True)
class Entry:
    """One ABI entry point of one kernel, as wrapped for the harnesses."""

    kernel: str
    suffix: str  # "eval", "expm_p63", "fpr_expm_p63", "fpr_expm_p63_native", ...
    kind: str
    isa: str = ""   # a batch entry's instruction set ("avx512", "avx2"); "" for scalar code

    @property
    def lanes(self) -> int:
        """Elements per call of a batch entry (1 for the scalar fallback)."""
        return BATCH_ISAS[self.isa][0] if self.isa else 1

    @property
    def is_batch(self) -> bool:
        return "batch" in self.suffix or self.suffix.startswith("expm_p63_x")

    @property
    def valgrind_runs(self) -> bool:
        """Whether memcheck can execute this entry (not AVX-512)."""
        return self.isa in VALGRIND_ISAS

    @property
    def name(self) -> str:
        """The ABI function name, e.g. facct_fpr_expm_p63."""
        return f"{self.kernel}_{self.suffix}"

    @property
    def wrapper(self) -> str:
        """The non-inlined wrapper symbol that the checks look at."""
        return f"ct_w_{self.name}"

    @property
    def is_native(self) -> bool:
        """True for the double-precision adaptors (native and domain), the
        entries allowed to use floating-point instructions."""
        return self.kind == KIND_DBL


def load_kernel(gen_dir: Path, name: str) -> Kernel:
    """The kernel folder <gen_dir>/<name>; a 64-bit kernel must ship its
    Falcon adaptors, since three of its five entries are in them
    (KernelFolderError otherwise)."""
    return kfolder.load(gen_dir, name, adaptors_for_64bit=True)


def cpu_has(isa: str) -> bool:
    """Whether this CPU (Linux /proc/cpuinfo) runs the batch entries of
    `isa` ("" for scalar code: always)."""
    if not isa:
        return True
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    flags = next((line.split(":", 1)[1].split() for line in text.splitlines() if line.startswith("flags")), [])
    return all(f in flags for f in BATCH_ISAS[isa][2])


def batch_isas(kernel: Kernel) -> list[str]:
    """The instruction sets of the kernel's batch forms (none for most)."""
    isas = list(kernel.batch_isas)
    unknown = [i for i in isas if i not in BATCH_ISAS]
    if unknown:
        raise KernelError(f"{kernel.name}: unknown batch instruction set {unknown[0]!r}")
    return isas


def entries(kernel: Kernel) -> tuple[Entry, ...]:
    """The entry points the harnesses wrap for `kernel`: its scalar ones,
    then for a kernel with batch forms the array path of each instruction
    set (called on one full register), its register-level entry, and the
    scalar fallback of the array entry (called on one element)."""
    if kernel.word_bits == 32:
        specs = _SPECS_32
    else:
        specs = (_FIXED_POINT_64 if kernel.fixed_point else ()) + _ADAPTORS
    out = [Entry(kernel.name, suffix, kind) for suffix, kind in specs]
    isas = batch_isas(kernel)
    for isa in isas:
        out.append(Entry(kernel.name, f"fpr_expm_p63_batch_{isa}", KIND_DBL, isa))
        out.append(Entry(kernel.name, f"expm_p63_x{BATCH_ISAS[isa][0]}", KIND_DBL, isa))
    if isas:
        out.append(Entry(kernel.name, "fpr_expm_p63_batch_scalar", KIND_DBL))
    return tuple(out)
