"""The kernel folder: where a rendered kernel's files are and what its
sidecar says.  Every tool (ct/, falcon/, bench/, m3/, verify/, certify/)
and the generator itself read and write kernel folders through this module
only, so it is the one place that knows the file names inside a folder; a
change of layout touches it alone.

A kernel folder ``<gen_dir>/<name>/`` holds:

    <name>.h                         the kernel: the one header a user includes
                                     and vendors (Falcon adaptors included when
                                     the sidecar says falcon_adaptors)
    provenance/<name>.json           the sidecar: the kernel's facts and proven bounds
    provenance/<name>_annotated.h    the same header with every comment, every
                                     parameter and every computed value
    provenance/<name>.gappa          the Gappa script (kernels without limb products)

The sidecar is a JSON object whose first key is ``"schema_version": 2``;
``load`` refuses any other version (version 1 was the earlier layout of
several headers), a sidecar that is not JSON, one whose name is not its
folder's, a folder without its header, and a header whose content hash is
not the sidecar's (files from two renders), each with a one-line
KernelFolderError.

Public API:
    SCHEMA_VERSION, TABLE_ACCESS, KernelFolderError, Layout (relative paths:
    header, sidecar, annotated_header, gappa_script, written()), layout(name),
    Kernel (files: header, falcon_header, sidecar_path, annotated_header,
    gappa_script, headers, require(); facts: word_bits, scale_bits,
    table_access, uses_float, falcon_adaptors, fixed_point, batch_isas,
    form, table_bytes, segments, degree, isa, cflags, for_32bit_cores,
    content_hash, table_extern_macro;
    proven bounds: eval_bound_ulp, expm_bound_2p63, fpr_bound_2p63, bound_method,
    headline_bound_2p63, headline_bound_log2; the parsed sidecar),
    load(gen_dir, name, adaptors_for_64bit=False) -> Kernel,
    load_path(folder or sidecar path) -> Kernel,
    names(gen_dir) -> the names of the kernel folders under gen_dir
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

__all__ = ["SCHEMA_VERSION", "TABLE_ACCESS", "KernelFolderError", "Layout", "layout", "Kernel",
           "load", "load_path", "names"]

SCHEMA_VERSION = 2
TABLE_ACCESS = ("direct", "ct_scan", "none")
ISA_FLAGS = {"fma": "-mfma", "bmi2": "-mbmi2"}
# The forms whose C needs a 64-bit host with a binary64 unit: "head"
# (unsigned __int128 and a binary64 tail), "eft" (binary64 error-free
# transforms only), "fold" (unsigned __int128 and a binary64 tail) and
# "twin" (x86-64 inline assembly).  Kernels of these forms are not for the
# Cortex-M cores.
HOST64_FORMS = ("head", "eft", "fold", "twin")
BATCH_ISAS = ("avx512", "avx2")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
PROVENANCE = "provenance"


class KernelFolderError(ValueError):
    """A kernel folder or sidecar that the tools cannot use; the message is
    one line that names the file."""


@dataclass(frozen=True)
class Layout:
    """The paths of a kernel's files, relative to its folder."""

    name: str

    @property
    def header(self) -> str:
        return f"{self.name}.h"

    @property
    def sidecar_name(self) -> str:
        return f"{self.name}.json"

    @property
    def sidecar(self) -> str:
        return f"{PROVENANCE}/{self.sidecar_name}"

    @property
    def annotated_header(self) -> str:
        return f"{PROVENANCE}/{self.name}_annotated.h"

    @property
    def gappa_script(self) -> str:
        return f"{PROVENANCE}/{self.name}.gappa"

    def written(self) -> set[str]:
        """Every path the generator writes in a kernel folder, and the files
        of the version-1 layout it wrote before (so that a folder it made
        then is recognised as its own)."""
        legacy = {f"{self.name}{suffix}" for suffix in ("_table.h", "_falcon.h", ".json", ".gappa")}
        return {self.header, self.sidecar, self.annotated_header, self.gappa_script, "fxp.h", *legacy}


def layout(name: str) -> Layout:
    """The layout of kernel `name`'s folder."""
    return Layout(name)


@dataclass(frozen=True)
class Kernel:
    """One kernel folder and its parsed sidecar."""

    name: str
    folder: Path
    sidecar: dict[str, Any]

    # ------------------------------------------------------------ files
    @property
    def layout(self) -> Layout:
        return Layout(self.name)

    @property
    def sidecar_path(self) -> Path:
        """provenance/<name>.json."""
        return self.folder / self.layout.sidecar

    @property
    def header(self) -> Path:
        """<name>.h: the kernel (_eval and _expm_p63 when fixed_point) and
        its Falcon adaptors."""
        return self.folder / self.layout.header

    @property
    def falcon_header(self) -> Path:
        """The header that declares the Falcon adaptors: the kernel's own."""
        return self.header

    @property
    def annotated_header(self) -> Path:
        """provenance/<name>_annotated.h: the header with every comment."""
        return self.folder / self.layout.annotated_header

    @property
    def gappa_script(self) -> Path:
        """provenance/<name>.gappa: the Gappa script the generator wrote."""
        return self.folder / self.layout.gappa_script

    @property
    def headers(self) -> tuple[str, ...]:
        """File names of the headers a user includes: the kernel's."""
        return (self.layout.header,)

    def require(self, *paths: Path) -> None:
        """KernelFolderError unless every one of `paths` is a file."""
        for path in paths:
            if not path.is_file():
                raise KernelFolderError(f"kernel '{self.name}': missing {path}")

    # ------------------------------------------------------------ facts
    @property
    def word_bits(self) -> int:
        """32 or 64: the width of the kernel's words."""
        return int(self.sidecar["word_bits"])

    @property
    def scale_bits(self) -> int:
        """S: _eval returns exp(-x) in units of 2^-S."""
        return int(self.sidecar["scale_bits"])

    @property
    def table_access(self) -> str:
        """How the table is indexed: "direct" (secret index), "ct_scan" or "none"."""
        return str(self.sidecar["table_access"])

    @property
    def uses_float(self) -> bool:
        """True when the kernel evaluates part of the polynomial in binary64."""
        return self.sidecar.get("uses_float") is True

    @property
    def isa(self) -> tuple[str, ...]:
        """Instruction-set extensions the kernel's C needs ("fma": the x86-64
        FMA instructions of x86-64-v3; none for most kernels)."""
        return tuple(self.sidecar.get("isa") or ())

    @property
    def cflags(self) -> tuple[str, ...]:
        """The compiler flags a translation unit including the kernel needs
        on x86-64 (the kernel refuses to compile without them)."""
        return tuple(ISA_FLAGS[i] for i in self.isa)

    @property
    def form(self) -> str:
        """The generator's form ("direct", "head", "eft", ...; "" when the
        sidecar does not say)."""
        return str(self.sidecar.get("form") or "")

    @property
    def for_32bit_cores(self) -> bool:
        """False for kernels whose C needs a 64-bit x86 host, which the
        Cortex-M tools skip: a form of HOST64_FORMS (unsigned __int128 or
        binary64 arithmetic throughout), an x86 instruction-set extension
        ("isa") or batch forms.  The form alone would not do: a future form
        that needs FMA is caught by its "isa"."""
        return self.form not in HOST64_FORMS and not self.isa and not self.batch_isas

    @property
    def fixed_point(self) -> bool:
        """True when the header has the fixed-point interface: <name>_eval(z)
        (exp(-x) in units of 2^-S from z = x 2^64) and, for 64-bit kernels,
        <name>_expm_p63(z, w), with the polynomial, segment list and z range
        in the sidecar.  False (sidecar "fixed_point": false, e.g. form eft)
        for a kernel that has only the Falcon adaptors and its batch entries:
        the tools that call _eval/_expm_p63 skip it.  An absent key means
        true, as in every sidecar written before the key existed."""
        return self.sidecar.get("fixed_point", True) is True

    @property
    def batch_isas(self) -> tuple[str, ...]:
        """The instruction sets of the header's batch forms (docs/abi.md,
        "Batch ABI"; empty: no batch entries): the sidecar's top-level
        "batch", or for a sidecar written before that key existed,
        "head"."batch"."""
        if "batch" in self.sidecar:
            return tuple(self.sidecar["batch"] or ())
        return tuple((self.sidecar.get("head") or {}).get("batch") or ())

    @property
    def content_hash(self) -> str:
        """The render's content hash, which the header states too."""
        return str(self.sidecar.get("content_hash", ""))

    @property
    def table_extern_macro(self) -> str:
        """The macro that makes a translation unit declare the table without
        defining it: every file of a program but one defines it."""
        return f"{self.name.upper()}_TABLE_EXTERN"

    @property
    def falcon_adaptors(self) -> bool:
        """True when the header has the Falcon adaptors."""
        return self.sidecar.get("falcon_adaptors") is True

    @property
    def table_bytes(self) -> int:
        """The coefficient table's size in bytes."""
        return int(self.sidecar["table_bytes"])

    @property
    def segments(self) -> int:
        """The number of polynomial segments."""
        return int(self.sidecar["segments"])

    @property
    def degree(self) -> int:
        """The polynomials' degree."""
        return int(self.sidecar["degree"])

    def _bound(self, key: str) -> Optional[float]:
        value = (self.sidecar.get("bound") or {}).get(key)
        return None if value is None else float(value)

    @property
    def eval_bound_ulp(self) -> Optional[float]:
        """The proven bound of _eval, units of 2^-S (None: not stated)."""
        return self._bound("eval_ulp")

    @property
    def expm_bound_2p63(self) -> Optional[float]:
        """The proven bound of _expm_p63, units of 2^-63 (None for 32-bit kernels)."""
        return self._bound("expm_p63_2p63")

    @property
    def fpr_bound_2p63(self) -> Optional[float]:
        """The proven bound of the Falcon adaptors, units of 2^-63: their own
        where the sidecar states one (a kernel that takes ccs by its
        significand), else that of _expm_p63, which they share."""
        return self._bound("fpr_expm_p63_2p63") or self.expm_bound_2p63

    @property
    def bound_method(self) -> str:
        """How the sidecar says its bounds are proven ("" when it does not)."""
        return str((self.sidecar.get("bound") or {}).get("method") or "")

    @property
    def headline_bound_2p63(self) -> Optional[float]:
        """The proven bound of the entry a kernel is judged on, units of
        2^-63: the Falcon adaptors' for 64-bit kernels, _eval's (rescaled)
        for 32-bit ones."""
        if self.word_bits == 64 and self.fpr_bound_2p63 is not None:
            return self.fpr_bound_2p63
        ulp = self.eval_bound_ulp
        return None if ulp is None else ulp * 2.0 ** (63 - self.scale_bits)

    @property
    def headline_bound_log2(self) -> Optional[float]:
        """log2 of headline_bound_2p63 as an absolute error (None: no bound)."""
        bound = self.headline_bound_2p63
        return None if bound is None or bound <= 0 else math.log2(bound) - 63


def _read_sidecar(path: Path, legacy: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        if legacy.is_file():
            raise KernelFolderError(f"{legacy.parent}: a kernel folder of the schema-1 layout "
                                    "(several headers); render it again with this generator") from None
        raise KernelFolderError(f"{path}: no sidecar (generate the kernel first: make gen)") from None
    except OSError as exc:
        raise KernelFolderError(f"{path}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise KernelFolderError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise KernelFolderError(f"{path}: the sidecar must be a JSON object")
    version = data.get("schema_version")
    if version != SCHEMA_VERSION:
        raise KernelFolderError(f"{path}: schema_version {version!r} is not supported "
                                f"(this toolchain reads version {SCHEMA_VERSION})")
    return data


def _check_facts(path: Path, name: str, data: dict[str, Any]) -> None:
    """The keys every tool relies on, with the types they assume."""
    if data.get("name") != name:
        raise KernelFolderError(f"{path}: \"name\" is {data.get('name')!r}, expected {name!r}")
    if data.get("word_bits") not in (32, 64):
        raise KernelFolderError(f"{path}: \"word_bits\" must be 32 or 64, got {data.get('word_bits')!r}")
    if data.get("table_access") not in TABLE_ACCESS:
        raise KernelFolderError(f"{path}: \"table_access\" must be one of {', '.join(TABLE_ACCESS)}, "
                                f"got {data.get('table_access')!r}")
    for key in ("scale_bits", "segments", "degree", "table_bytes"):
        if not isinstance(data.get(key), int) or isinstance(data.get(key), bool):
            raise KernelFolderError(f"{path}: \"{key}\" must be an integer, got {data.get(key)!r}")
    for key in ("falcon_adaptors", "uses_float", "fixed_point"):
        if key in data and not isinstance(data[key], bool):
            raise KernelFolderError(f"{path}: \"{key}\" must be true or false, got {data[key]!r}")
    if not isinstance(data.get("bound", {}), dict):
        raise KernelFolderError(f"{path}: \"bound\" must be an object")
    batch = data["batch"] if "batch" in data else (data.get("head") or {}).get("batch")
    if batch is not None and (not isinstance(batch, list) or any(i not in BATCH_ISAS for i in batch)):
        raise KernelFolderError(f"{path}: \"batch\" must be a list of {', '.join(BATCH_ISAS)}, got {batch!r}")
    if data.get("fixed_point") is False and data.get("falcon_adaptors") is not True:
        raise KernelFolderError(f"{path}: a kernel without the fixed-point interface "
                                "(\"fixed_point\": false) must have the Falcon adaptors")
    unknown = [i for i in data.get("isa") or () if i not in ISA_FLAGS]
    if unknown:
        raise KernelFolderError(f"{path}: unknown instruction-set extension {unknown[0]!r} in \"isa\"")


def _check_content_hash(kernel: Kernel) -> None:
    """The header states the content hash of the render that wrote it; a
    header and a sidecar from two renders are refused."""
    with kernel.header.open(encoding="utf-8", errors="replace") as f:
        head = f.read(8192)
    macro = re.search(rf"^#define {kernel.name.upper()}_CONTENT_HASH 0x([0-9a-f]*)u$", head, re.M)
    if macro is None:
        raise KernelFolderError(f"{kernel.header}: no {kernel.name.upper()}_CONTENT_HASH line "
                                "(not a header this generator wrote)")
    if macro.group(1) != kernel.content_hash:
        raise KernelFolderError(f"{kernel.header}: content hash {macro.group(1)} is not the sidecar's "
                                f"{kernel.content_hash!r}: the folder mixes files of two renders")


def load(gen_dir: Path, name: str, *, adaptors_for_64bit: bool = False) -> Kernel:
    """The kernel folder <gen_dir>/<name>: its sidecar read and checked, its
    header present and from the same render.  With adaptors_for_64bit, a 64-bit kernel must
    have the adaptors: the tools that call every 64-bit kernel through them
    (ct, bench, m3) ask for that.  KernelFolderError otherwise."""
    if not _IDENT.match(name):
        raise KernelFolderError(f"kernel name {name!r} is not a C identifier")
    folder = Path(gen_dir) / name
    if not folder.is_dir():
        raise KernelFolderError(f"{folder}: no kernel folder (generate the kernel first: make gen)")
    path = folder / layout(name).sidecar
    data = _read_sidecar(path, folder / layout(name).sidecar_name)
    _check_facts(path, name, data)
    kernel = Kernel(name, folder, data)
    kernel.require(kernel.header)
    _check_content_hash(kernel)
    if adaptors_for_64bit and kernel.word_bits == 64 and not kernel.falcon_adaptors:
        raise KernelFolderError(f"{path}: a 64-bit kernel without Falcon adaptors "
                                "(\"falcon_adaptors\": true) cannot be called by this tool")
    return kernel


def load_path(path: Path) -> Kernel:
    """A kernel named by its folder or by its sidecar file, as command lines
    give them (e.g. generated/falcon_x86 or generated/falcon_x86/provenance/falcon_x86.json)."""
    path = Path(path)
    if not path.exists():
        raise KernelFolderError(f"{path}: no kernel folder (generate the kernel first: make gen)")
    if path.is_dir():
        return load(path.parent, path.name)
    folder = path.parent.parent
    if path.parent.name != PROVENANCE or path.name != layout(folder.name).sidecar_name:
        raise KernelFolderError(f"{path}: neither a kernel folder nor the sidecar of one")
    return load(folder.parent, folder.name)


def names(gen_dir: Path) -> list[str]:
    """The names of the folders under gen_dir that hold a sidecar, sorted."""
    gen_dir = Path(gen_dir)
    if not gen_dir.is_dir():
        return []
    return sorted(p.name for p in gen_dir.iterdir() if (p / layout(p.name).sidecar).is_file())
