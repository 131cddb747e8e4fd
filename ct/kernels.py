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

# The entry points of a 64-bit kernel (through its Falcon adaptors) and of a
# 32-bit one (its _eval only), with the argument kind of each.
_SPECS_64 = (("eval", KIND_Z64), ("expm_p63", KIND_ZW64), ("fpr_expm_p63", KIND_BITS),
             ("fpr_expm_p63_native", KIND_DBL), ("fpr_expm_p63_domain", KIND_DBL))
_SPECS_32 = (("eval", KIND_Z32),)


class KernelError(Exception):
    """A kernel folder or sidecar that the checks cannot use."""


@dataclass(frozen=True)
class Entry:
    """One ABI entry point of one kernel, as wrapped for the harnesses."""

    kernel: str
    suffix: str  # "eval", "expm_p63", "fpr_expm_p63", "fpr_expm_p63_native"
    kind: str

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


def entries(kernel: Kernel) -> tuple[Entry, ...]:
    """The entry points the harnesses wrap for `kernel`."""
    specs = _SPECS_64 if kernel.word_bits == 64 else _SPECS_32
    return tuple(Entry(kernel.name, suffix, kind) for suffix, kind in specs)
