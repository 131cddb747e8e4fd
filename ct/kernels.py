"""Kernel discovery: sidecar JSON in, list of entry points to check out."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

# The kinds match enum ct_kind in ct/c/ct_entry.h.
KIND_Z64 = "CT_Z64"
KIND_ZW64 = "CT_ZW64"
KIND_BITS = "CT_BITS"
KIND_DBL = "CT_DBL"
KIND_Z32 = "CT_Z32"

TABLE_ACCESS = ("direct", "ct_scan", "none")


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


@dataclass(frozen=True)
class Kernel:
    """A kernel folder and the facts of its sidecar that the checks use."""

    name: str
    folder: Path
    word_bits: int
    table_access: str
    entries: tuple[Entry, ...]
    headers: tuple[str, ...]
    uses_float: bool = False   # a binary64 tail: every entry may use the allowed SSE list


def load_kernel(gen_dir: Path, name: str) -> Kernel:
    """Read <gen_dir>/<name>/<name>.json and list the kernel's entries."""
    folder = gen_dir / name
    sidecar = folder / f"{name}.json"
    if not sidecar.is_file():
        raise KernelError(f"kernel '{name}': no sidecar {sidecar}")
    try:
        meta = json.loads(sidecar.read_text())
    except json.JSONDecodeError as exc:
        raise KernelError(f"kernel '{name}': bad JSON in {sidecar}: {exc}") from exc
    word_bits = meta.get("word_bits")
    access = meta.get("table_access")
    if word_bits not in (32, 64):
        raise KernelError(f"kernel '{name}': word_bits must be 32 or 64, got {word_bits!r}")
    if access not in TABLE_ACCESS:
        raise KernelError(f"kernel '{name}': table_access must be one of {TABLE_ACCESS}, got {access!r}")
    if word_bits == 64:
        specs = (("eval", KIND_Z64), ("expm_p63", KIND_ZW64),
                 ("fpr_expm_p63", KIND_BITS), ("fpr_expm_p63_native", KIND_DBL),
                 ("fpr_expm_p63_domain", KIND_DBL))
        headers: tuple[str, ...] = (f"{name}.h", f"{name}_falcon.h")
    else:
        specs = (("eval", KIND_Z32),)
        headers = (f"{name}.h",)
    for header in headers:
        if not (folder / header).is_file():
            raise KernelError(f"kernel '{name}': missing {folder / header}")
    entries = tuple(Entry(name, suffix, kind) for suffix, kind in specs)
    return Kernel(name, folder, word_bits, access, entries, headers, meta.get("uses_float") is True)
