"""Kernel configs: TOML files under ``kernels/``, validated before anything runs.

Every problem is reported as a :class:`GenError` whose message starts with the
key at fault, so the command line can print one line and exit with status 2.
The keys are documented in ``docs/config.md``.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from . import expr, names
from .errors import GenError

_INTEGER = re.compile(r"[+-]?(0x[0-9a-fA-F]+|[0-9]+)")

TOP_KEYS = {
    "name", "description", "function", "domain", "word_bits", "scale_bits",
    "degree", "error", "precision_digits", "remez_tolerance",
    "remez_max_iterations", "coefficient_scales", "max_abs_error_log2",
    "table_access", "segments", "coefficients", "evaluation", "form", "reoptimize", "wide",
    "float_tail", "multiplier", "truncation_budget_log2", "table_placement", "pad_table",
    "exact_head", "fma", "conversion_remainder", "batch", "truncation_budgets_log2", "centre",
    "table_layout", "columns", "bias_samples",
}
# The SIMD instruction sets a form = "head" kernel can be rendered for
# (config key ``batch``, docs/config.md): "avx512" needs AVX-512F and
# AVX-512DQ, "avx2" needs AVX2 and FMA.
BATCH_ISAS = ("avx512", "avx2")
MULTIPLIERS = ("auto", "umull", "mul16", "truncated", "umaal")
MAX_CONFIG_BYTES = 1 << 20       # a config is a few hundred bytes; anything near this is a mistake
MAX_DESCRIPTION = 120            # characters: the description is one line of each header's banner

# The value of every parameter a config may leave out, as KernelConfig.parameters()
# reports it (the banners list the parameters that differ from these).
DEFAULTS: dict[str, Any] = {
    "function": "exp(-x)", "domain": ["0", "ln2"], "word_bits": 64,
    "segments": {"kind": "equal", "count": 1}, "error": "absolute", "precision_digits": 50,
    "remez_tolerance": 1e-12, "remez_max_iterations": 60, "coefficient_scales": None,
    "explicit_coefficients": False, "max_abs_error_log2": None, "table_access": "direct",
    "evaluation": "horner", "form": "direct", "reoptimize": True, "wide": False,
}
SEGMENT_KEYS = {"kind", "count", "bits"}
COEFFICIENT_KEYS = {"values", "scale", "scales"}


@dataclass(frozen=True)
class ExplicitCoefficients:
    """Third-party coefficients: ``values[i][j]`` is a_j * 2^scales[j] on segment i."""

    values: tuple[tuple[int, ...], ...]
    scales: tuple[int, ...]


@dataclass(frozen=True)
class HeadOptions:
    """The keys of form = "head" (docs/config.md): how many leading Taylor
    terms stay exact, whether the binary64 tail fuses its multiply-adds, and
    whether the Falcon adaptors carry the conversion remainders of x and
    ccs into the result (so that their bound holds against the doubles with
    no conversion loss)."""

    exact_head: int
    fma: bool
    conversion_remainder: bool
    batch: tuple[str, ...] = ()


# form = "eft" (docs/config.md): the keys it takes, and what it fixes.
EFT_KEYS = {"name", "description", "function", "domain", "word_bits", "scale_bits", "degree", "form",
            "segments", "max_abs_error_log2", "batch"}
EFT_SEGMENTS = {"kind": "nearest", "count": 16}
EFT_DEGREES = (6, 12)


# form = "fold" (docs/config.md): the keys it takes.  float_tail is the first
# power evaluated in binary64 (the powers 2 .. float_tail - 1 are the
# fixed-point middle words).
FOLD_KEYS = {"name", "description", "function", "domain", "word_bits", "scale_bits", "degree", "form",
             "float_tail", "max_abs_error_log2"}
FOLD_DEGREES = (6, 16)
FOLD_FLOAT_TAIL = 5
# form = "twin" (docs/config.md): the keys it takes; its layout (degree 13,
# the powers 7..13 in binary64) is the form's (gen/twin/design.py).
TWIN_KEYS = {"name", "description", "function", "domain", "word_bits", "scale_bits", "degree", "form",
             "float_tail", "max_abs_error_log2"}
TWIN_DEGREE = 13
TWIN_FLOAT_TAIL = 7


# form = "mcu" (docs/config.md): the keys it takes; the layout is the form's
# (gen/mcu/design.py), the product plan and the bias sampling the config's.
MCU_KEYS = {"name", "description", "function", "domain", "word_bits", "scale_bits", "degree", "form",
            "segments", "max_abs_error_log2", "columns", "bias_samples"}
MCU_SEGMENTS = {"kind": "pow2", "bits": 7}
MCU_DEGREE = 5
MCU_PRODUCTS = ("y4", "y3", "y2", "y1", "y0", "ccs")
MCU_BIAS_SAMPLES = (0, 20000, 256)     # allowed range and default


@dataclass(frozen=True)
class McuOptions:
    """The keys of form = "mcu": the number of limb columns each product
    keeps (y4 .. y0, then the ccs product), and the inputs per row on
    which the rounding bias is measured (0: no bias)."""

    columns: tuple[int, ...]
    bias_samples: int


@dataclass(frozen=True)
class EftOptions:
    """The keys of form = "eft": the SIMD instruction sets to render the
    batch forms for (the polynomial's degree is KernelConfig.degree)."""

    batch: tuple[str, ...] = ()


@dataclass(frozen=True)
class KernelConfig:
    """One validated kernel config.  Field meanings: docs/config.md."""

    path: str
    sha256: str
    name: str
    description: str
    function: str
    function_tree: expr.Node
    domain: tuple[str, str]                   # the ends as written (for banners)
    domain_trees: tuple[expr.Node, expr.Node]  # the same, parsed once
    word_bits: int
    scale_bits: int
    degree: int
    error: str
    precision_digits: int
    remez_tolerance: float
    remez_max_iterations: int
    coefficient_scales: Optional[tuple[int, ...]]
    max_abs_error_log2: Optional[float]
    table_access: str
    evaluation: str
    form: str
    reoptimize: bool
    wide: int                      # final Horner steps on two words (0: none; with wide_auto, the most)
    float_tail: Optional[int]
    segment_kind: str
    segment_count: int
    segment_bits: Optional[int]
    explicit: Optional[ExplicitCoefficients]
    multiplier: str = "auto"
    truncation_budget_log2: Optional[float] = None
    table_placement: str = "default"
    pad_table: bool = False
    head: Optional[HeadOptions] = None
    # wide = "auto" for a kernel that takes two-word steps: the fit stage
    # chooses how many (up to ``wide``) from the proven evaluation error.
    wide_auto: bool = False
    # multiplier = "truncated": per product, the budget of each Horner
    # product from the top step down, then of the final ccs product (log2).
    truncation_budgets_log2: Optional[tuple[float, ...]] = None
    centre: str = "expm"            # which interval the centring of a_0 balances
    table_layout: str = "uniform"   # "mixed": 32-bit words for the constants of 32-bit steps
    eft: Optional[EftOptions] = None
    mcu: Optional[McuOptions] = None

    @property
    def batch(self) -> tuple[str, ...]:
        """The SIMD instruction sets of the batch forms (either form that has them)."""
        return self.head.batch if self.head else self.eft.batch if self.eft else ()

    def parameters(self) -> dict[str, Any]:
        """Every input parameter, for banners and the sidecar (form eft: the
        keys it takes, none of the fitting keys it does not use)."""
        if self.form in ("fold", "twin"):
            return {"name": self.name, "function": self.function, "domain": list(self.domain),
                    "word_bits": self.word_bits, "scale_bits": self.scale_bits, "degree": self.degree,
                    "float_tail": self.float_tail, "max_abs_error_log2": self.max_abs_error_log2,
                    "form": self.form}
        if self.mcu is not None:
            return {"name": self.name, "function": self.function, "domain": list(self.domain),
                    "word_bits": self.word_bits, "scale_bits": self.scale_bits, "degree": self.degree,
                    "segments": {"kind": "pow2", "bits": self.segment_bits},
                    "max_abs_error_log2": self.max_abs_error_log2, "form": self.form,
                    "columns": list(self.mcu.columns), "bias_samples": self.mcu.bias_samples}
        if self.eft is not None:
            return {"name": self.name, "function": self.function, "domain": list(self.domain),
                    "word_bits": self.word_bits, "scale_bits": self.scale_bits, "degree": self.degree,
                    "segments": {"kind": self.segment_kind, "count": self.segment_count},
                    "max_abs_error_log2": self.max_abs_error_log2, "form": self.form,
                    **({"batch": list(self.batch)} if self.batch else {})}
        return {
            "name": self.name,
            "function": self.function,
            "domain": list(self.domain),
            "word_bits": self.word_bits,
            "scale_bits": self.scale_bits,
            "degree": self.degree,
            "segments": ({"kind": "pow2", "bits": self.segment_bits} if self.segment_kind == "pow2"
                         else {"kind": self.segment_kind, "count": self.segment_count}),
            "error": self.error,
            "precision_digits": self.precision_digits,
            "remez_tolerance": self.remez_tolerance,
            "remez_max_iterations": self.remez_max_iterations,
            "coefficient_scales": list(self.coefficient_scales) if self.coefficient_scales else None,
            "explicit_coefficients": self.explicit is not None,
            "max_abs_error_log2": self.max_abs_error_log2,
            "table_access": self.table_access,
            "evaluation": self.evaluation,
            "form": self.form,
            "reoptimize": self.reoptimize,
            "wide": bool(self.wide) if self.wide <= 1 else self.wide,
            **({"float_tail": self.float_tail} if self.float_tail is not None else {}),
            **({"multiplier": self.multiplier} if self.multiplier != "auto" else {}),
            **({"truncation_budget_log2": self.truncation_budget_log2}
               if self.truncation_budget_log2 is not None else {}),
            **({"table_placement": self.table_placement} if self.table_placement != "default" else {}),
            **({"pad_table": True} if self.pad_table else {}),
            **({"truncation_budgets_log2": list(self.truncation_budgets_log2)}
               if self.truncation_budgets_log2 is not None else {}),
            **({"centre": self.centre} if self.centre != "expm" else {}),
            **({"table_layout": self.table_layout} if self.table_layout != "uniform" else {}),
            **({"exact_head": self.head.exact_head, "fma": self.head.fma,
                "conversion_remainder": self.head.conversion_remainder} if self.head else {}),
            **({"batch": list(self.batch)} if self.batch else {}),
        }


def _want(value: Any, kind: type | tuple[type, ...], key: str, what: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, kind):
        raise GenError(f"{key}: expected {what}, got {type(value).__name__} {value!r}")
    return value


def _flag(raw: dict[str, Any], key: str, default: bool) -> bool:
    """A true/false key."""
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise GenError(f"{key}: expected true or false, got {value!r}")
    return value


def _int_in(table: dict[str, Any], key: str, lo: int, hi: int, default: Optional[int] = None,
            prefix: str = "") -> int:
    full = prefix + key
    if key not in table:
        if default is None:
            raise GenError(f"{full}: missing (an integer from {lo} to {hi})")
        return default
    value = _want(table[key], int, full, "an integer")
    if not lo <= value <= hi:
        raise GenError(f"{full}: {value} is out of range (allowed {lo} to {hi})")
    return value


def _parse_integer(text: Any, key: str) -> int:
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    if not isinstance(text, str) or not _INTEGER.fullmatch(text.strip()):
        raise GenError(f"{key}: expected an integer or a hex string such as '-0x1F', got {text!r}")
    return int(text.strip(), 0)


def _read(path: Path) -> bytes:
    """The bytes of a config file: a regular file of at most MAX_CONFIG_BYTES
    (opened without blocking, so a FIFO or a device is refused, not waited on)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise GenError(f"config: cannot read {path}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise GenError(f"config: {path} is not a regular file")
        if info.st_size > MAX_CONFIG_BYTES:
            raise GenError(f"config: {path} is {info.st_size} bytes, more than the limit of {MAX_CONFIG_BYTES}")
        data = os.read(fd, MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise GenError(f"config: cannot read {path}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_CONFIG_BYTES:
        raise GenError(f"config: {path} is more than the limit of {MAX_CONFIG_BYTES} bytes")
    return data


def load(path: str | Path) -> KernelConfig:
    """Read and validate the config at ``path``."""
    path = Path(path)
    raw_bytes = _read(path)
    try:
        raw = tomllib.loads(raw_bytes.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise GenError(f"config: {path} is not valid TOML: {_one_line(str(exc))}") from None
    return validate(raw, str(path), hashlib.sha256(raw_bytes).hexdigest())


def _one_line(text: str) -> str:
    return " ".join(text.split())


def validate(raw: dict[str, Any], path: str, sha256: str) -> KernelConfig:
    """Check every key of a parsed config; see :func:`load`."""
    unknown = sorted(set(raw) - TOP_KEYS)
    if unknown:
        raise GenError(f"{unknown[0]}: unknown key (allowed: {', '.join(sorted(TOP_KEYS))})")
    if raw.get("form") == "eft":
        return _eft(raw, path, sha256)
    if raw.get("form") == "fold":
        return _fold(raw, path, sha256)
    if raw.get("form") == "twin":
        return _twin(raw, path, sha256)
    if raw.get("form") == "mcu":
        return _mcu(raw, path, sha256)
    name, description = _identity(raw)
    function, tree, domain, domain_trees = _function_and_domain(raw)
    word_bits = _want(raw.get("word_bits", DEFAULTS["word_bits"]), int, "word_bits", "an integer")
    if word_bits not in (32, 64):
        raise GenError(f"word_bits: {word_bits} is not supported (32 or 64)")
    scale_bits = _int_in(raw, "scale_bits", 1, word_bits)
    degree = _int_in(raw, "degree", 1, 32)
    fitting = _fitting(raw, degree, word_bits)
    table_access, evaluation, form, wide, float_tail = _evaluation(raw, word_bits, degree)
    multiplier, truncation_budget = _multiplier(raw, word_bits, scale_bits, form, wide, evaluation)
    placement = _want(raw.get("table_placement", "default"), str, "table_placement", "a string")
    if placement not in ("default", "sram"):
        raise GenError(f"table_placement: {placement!r} is not 'default' or 'sram'")
    pad_table = _flag(raw, "pad_table", False)
    kind, count, bits = _segments(raw)
    if pad_table and (kind != "pow2" or table_access != "direct"):
        raise GenError("pad_table: needs segments.kind = 'pow2' and table_access = 'direct'")
    explicit = None
    if "coefficients" in raw:
        explicit = _explicit(raw["coefficients"], degree, count, kind, word_bits)
        if fitting["coefficient_scales"] is not None:
            raise GenError("coefficient_scales: not allowed with explicit [coefficients] (give coefficients.scales)")
    if float_tail is not None:
        if explicit is not None:
            raise GenError("float_tail: not available with explicit [coefficients]")
        if not ((kind == "equal" and count == 1) or (kind == "pow2" and bits == 0)):
            raise GenError("float_tail: needs a single segment (segments.count = 1)")

    wide, wide_auto = _auto_wide(wide, form, word_bits, scale_bits, degree, evaluation, multiplier,
                                 explicit is not None, float_tail)
    head = _head(raw, form, word_bits, scale_bits, degree, float_tail, fitting, multiplier, explicit)
    budgets, centre, layout = _m3_keys(raw, multiplier, degree, word_bits, table_access, form)
    return KernelConfig(
        path=path, sha256=sha256, name=name, description=description,
        function=function, function_tree=tree, domain=domain, domain_trees=domain_trees,
        word_bits=word_bits, scale_bits=scale_bits, degree=degree, **fitting,
        table_access=table_access, evaluation=evaluation,
        form=form, wide=wide, float_tail=float_tail, segment_kind=kind,
        segment_count=count, segment_bits=bits, explicit=explicit,
        multiplier=multiplier, truncation_budget_log2=truncation_budget, table_placement=placement,
        pad_table=pad_table, head=head, wide_auto=wide_auto, truncation_budgets_log2=budgets, centre=centre,
        table_layout=layout)


def _head(raw: dict[str, Any], form: str, word_bits: int, scale_bits: int, degree: int,
          float_tail: Optional[int], fitting: dict[str, Any], multiplier: str,
          explicit: Optional["ExplicitCoefficients"]) -> Optional[HeadOptions]:
    """The keys of form = "head", and what the form needs from the others."""
    keys = [k for k in ("exact_head", "fma", "conversion_remainder", "batch") if k in raw]
    if form != "head":
        if keys:
            raise GenError(f"{keys[0]}: only with form = 'head'")
        return None
    exact_head = _int_in(raw, "exact_head", 2, 3, default=3)
    if word_bits != 64 or scale_bits != 63:
        raise GenError("form: 'head' needs word_bits = 64 and scale_bits = 63")
    if float_tail is None or not exact_head < float_tail <= degree:
        raise GenError(f"float_tail: form 'head' needs the first binary64 power, from exact_head + 1 "
                       f"({exact_head + 1}) to degree ({degree})")
    if multiplier != "auto" or explicit is not None or "reoptimize" in raw or "coefficient_scales" in raw:
        raise GenError("form: 'head' chooses its own coefficients and products: leave out multiplier, "
                       "reoptimize, coefficient_scales and [coefficients]")
    if fitting["error"] != "absolute":
        raise GenError("error: form 'head' fits the absolute error")
    fma, remainders = _flag(raw, "fma", True), _flag(raw, "conversion_remainder", True)
    return HeadOptions(exact_head, fma, remainders, _batch(raw, exact_head, fma, remainders))


def _batch(raw: dict[str, Any], exact_head: int, fma: bool, remainders: bool) -> tuple[str, ...]:
    """The ``batch`` key of form = "head": the SIMD instruction sets to
    render the batch forms for (docs/config.md), each named once.  The
    batch code mirrors the scalar code operation by operation; it is
    rendered (and tested bit for bit) for the head form with exact_head = 3,
    fma = true and conversion_remainder = true only."""
    isas = _isa_list(raw)
    if isas and (exact_head != 3 or not fma or not remainders):
        raise GenError("batch: needs exact_head = 3, fma = true and conversion_remainder = true")
    return isas


def _isa_list(raw: dict[str, Any]) -> tuple[str, ...]:
    """The ``batch`` key's list of SIMD instruction sets, each named once
    (empty when the key is absent)."""
    if "batch" not in raw:
        return ()
    value = raw["batch"]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise GenError(f"batch: expected a non-empty list of instruction-set names "
                       f"({', '.join(BATCH_ISAS)}), got {value!r}")
    unknown = [v for v in value if v not in BATCH_ISAS]
    if unknown:
        raise GenError(f"batch: {unknown[0]!r} is not a known instruction set ({', '.join(BATCH_ISAS)})")
    if len(set(value)) != len(value):
        raise GenError(f"batch: {value!r} names an instruction set twice")
    return tuple(value)


def _eft(raw: dict[str, Any], path: str, sha256: str) -> KernelConfig:
    """A form = "eft" config: the function, domain, scale and segments are
    the ones its proof is written for (gen/eft/proof.py), so a config may
    only restate them; the degree and the batch forms are its choices."""
    other = sorted(set(raw) - EFT_KEYS)
    if other:
        raise GenError(f"{other[0]}: not used by form 'eft' (its keys: {', '.join(sorted(EFT_KEYS))})")
    name, description = _identity(raw)
    function, tree, domain, domain_trees = _function_and_domain(raw)
    if "".join(function.split()) != "exp(-x)" or list(domain) != DEFAULTS["domain"]:
        raise GenError("form: 'eft' computes exp(-x) on [0, ln2] only (function = 'exp(-x)', domain = ['0', 'ln2'])")
    if raw.get("word_bits", 64) != 64 or raw.get("scale_bits", 63) != 63:
        raise GenError("form: 'eft' needs word_bits = 64 and scale_bits = 63")
    degree = _int_in(raw, "degree", *EFT_DEGREES)
    if raw.get("segments", EFT_SEGMENTS) != EFT_SEGMENTS:
        raise GenError(f"segments: form 'eft' needs kind = 'nearest', count = 16 (round(16 x); "
                       f"got {raw.get('segments')!r})")
    fitting = _fitting({k: raw[k] for k in ("max_abs_error_log2",) if k in raw}, degree, 64)
    return KernelConfig(
        path=path, sha256=sha256, name=name, description=description, function=function, function_tree=tree,
        domain=domain, domain_trees=domain_trees, word_bits=64, scale_bits=63, degree=degree, **fitting,
        table_access="ct_scan", evaluation="horner", form="eft", wide=0, float_tail=None,
        segment_kind="nearest", segment_count=16, segment_bits=None, explicit=None,
        eft=EftOptions(_isa_list(raw)))


def _fold(raw: dict[str, Any], path: str, sha256: str) -> KernelConfig:
    """A form = "fold" config: exp(-x) on [0, ln2] at 2^63 (what its proof,
    gen/fold/proof.py, is written for); the degree, the first binary64
    power and the budget are its choices."""
    other = sorted(set(raw) - FOLD_KEYS)
    if other:
        raise GenError(f"{other[0]}: not used by form 'fold' (its keys: {', '.join(sorted(FOLD_KEYS))})")
    name, description = _identity(raw)
    function, tree, domain, domain_trees = _function_and_domain(raw)
    if "".join(function.split()) != "exp(-x)" or list(domain) != DEFAULTS["domain"]:
        raise GenError("form: 'fold' computes exp(-x) on [0, ln2] only (function = 'exp(-x)', domain = ['0', 'ln2'])")
    if raw.get("word_bits", 64) != 64 or raw.get("scale_bits", 63) != 63:
        raise GenError("form: 'fold' needs word_bits = 64 and scale_bits = 63")
    degree = _int_in(raw, "degree", *FOLD_DEGREES)
    float_tail = _int_in(raw, "float_tail", 3, degree, default=FOLD_FLOAT_TAIL)
    fitting = _fitting({k: raw[k] for k in ("max_abs_error_log2",) if k in raw}, degree, 64)
    return KernelConfig(
        path=path, sha256=sha256, name=name, description=description, function=function, function_tree=tree,
        domain=domain, domain_trees=domain_trees, word_bits=64, scale_bits=63, degree=degree, **fitting,
        table_access="none", evaluation="horner", form="fold", wide=0, float_tail=float_tail,
        segment_kind="equal", segment_count=1, segment_bits=None, explicit=None)


def _twin(raw: dict[str, Any], path: str, sha256: str) -> KernelConfig:
    """A form = "twin" config: exp(-x) on [0, ln2] at 2^63, degree 13 with the
    powers 7..13 in binary64 (the layout its instructions and its proof,
    gen/twin/, are written for); the budget is the config's choice."""
    other = sorted(set(raw) - TWIN_KEYS)
    if other:
        raise GenError(f"{other[0]}: not used by form 'twin' (its keys: {', '.join(sorted(TWIN_KEYS))})")
    name, description = _identity(raw)
    function, tree, domain, domain_trees = _function_and_domain(raw)
    if "".join(function.split()) != "exp(-x)" or list(domain) != DEFAULTS["domain"]:
        raise GenError("form: 'twin' computes exp(-x) on [0, ln2] only (function = 'exp(-x)', domain = ['0', 'ln2'])")
    if raw.get("word_bits", 64) != 64 or raw.get("scale_bits", 63) != 63:
        raise GenError("form: 'twin' needs word_bits = 64 and scale_bits = 63")
    degree = _int_in(raw, "degree", TWIN_DEGREE, TWIN_DEGREE, default=TWIN_DEGREE)
    float_tail = _int_in(raw, "float_tail", TWIN_FLOAT_TAIL, TWIN_FLOAT_TAIL, default=TWIN_FLOAT_TAIL)
    fitting = _fitting({k: raw[k] for k in ("max_abs_error_log2",) if k in raw}, degree, 64)
    return KernelConfig(
        path=path, sha256=sha256, name=name, description=description, function=function, function_tree=tree,
        domain=domain, domain_trees=domain_trees, word_bits=64, scale_bits=63, degree=degree, **fitting,
        table_access="none", evaluation="horner", form="twin", wide=0, float_tail=float_tail,
        segment_kind="equal", segment_count=1, segment_bits=None, explicit=None)


def _mcu(raw: dict[str, Any], path: str, sha256: str) -> KernelConfig:
    """A form = "mcu" config: exp(-x) on [0, ln2] at 2^63, 2^-7 segments of
    degree 5 (the layout its proof, gen/mcu/proof.py, is written for); the
    product plan, the bias sampling and the budget are its choices."""
    other = sorted(set(raw) - MCU_KEYS)
    if other:
        raise GenError(f"{other[0]}: not used by form 'mcu' (its keys: {', '.join(sorted(MCU_KEYS))})")
    name, description = _identity(raw)
    function, tree, domain, domain_trees = _function_and_domain(raw)
    if "".join(function.split()) != "exp(-x)" or list(domain) != DEFAULTS["domain"]:
        raise GenError("form: 'mcu' computes exp(-x) on [0, ln2] only (function = 'exp(-x)', domain = ['0', 'ln2'])")
    if raw.get("word_bits", 64) != 64 or raw.get("scale_bits", 63) != 63:
        raise GenError("form: 'mcu' needs word_bits = 64 and scale_bits = 63")
    degree = _int_in(raw, "degree", MCU_DEGREE, MCU_DEGREE, default=MCU_DEGREE)
    if raw.get("segments", MCU_SEGMENTS) != MCU_SEGMENTS:
        raise GenError(f"segments: form 'mcu' needs kind = 'pow2', bits = 7 (89 segments of width 2^-7; "
                       f"got {raw.get('segments')!r})")
    if "columns" not in raw:
        raise GenError(f"columns: missing (the limb columns each product keeps: {', '.join(MCU_PRODUCTS)})")
    cols = raw["columns"]
    if (not isinstance(cols, list) or len(cols) != len(MCU_PRODUCTS)
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in cols)):
        raise GenError(f"columns: expected a list of {len(MCU_PRODUCTS)} integers ({', '.join(MCU_PRODUCTS)}), got {cols!r}")
    lo, hi, default = MCU_BIAS_SAMPLES
    samples = _int_in(raw, "bias_samples", lo, hi, default=default)
    if samples == 1:
        raise GenError("bias_samples: 1 input cannot fit a line (0 for no bias, or at least 2)")
    fitting = _fitting({k: raw[k] for k in ("max_abs_error_log2",) if k in raw}, degree, 64)
    return KernelConfig(
        path=path, sha256=sha256, name=name, description=description, function=function, function_tree=tree,
        domain=domain, domain_trees=domain_trees, word_bits=64, scale_bits=63, degree=degree, **fitting,
        table_access="direct", evaluation="horner", form="mcu", wide=0, float_tail=None,
        segment_kind="pow2", segment_count=89, segment_bits=7, explicit=None, table_placement="sram",
        mcu=McuOptions(tuple(cols), samples))


def _identity(raw: dict[str, Any]) -> tuple[str, str]:
    """The ``name`` and ``description`` keys."""
    if "name" not in raw:
        raise GenError("name: missing")
    name = _want(raw["name"], str, "name", "a string")
    why = names.problem(name)
    if why:
        raise GenError(f"name: {name[:60]!r} {why}")
    description = _want(raw.get("description", ""), str, "description", "a string")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in description):
        raise GenError("description: must be one line of printable text (no line breaks or control characters)")
    if len(description) > MAX_DESCRIPTION:
        raise GenError(f"description: {len(description)} characters, at most {MAX_DESCRIPTION}")
    return name, description


def _function_and_domain(raw: dict[str, Any]
                         ) -> tuple[str, expr.Node, tuple[str, str], tuple[expr.Node, expr.Node]]:
    """The function's text and tree, the domain's two ends as text and as
    trees (parsed here once; later stages use the trees)."""
    function = _want(raw.get("function", DEFAULTS["function"]), str, "function", "a string")
    tree = expr.parse(function, "function")
    domain_raw = _want(raw.get("domain", DEFAULTS["domain"]), list, "domain", "a list of two expressions")
    if len(domain_raw) != 2:
        raise GenError(f"domain: expected two ends [lo, hi], got {len(domain_raw)} items")
    lo, hi = (str(_want(d, (str, int, float), "domain", "a number or an expression")) for d in domain_raw)
    trees = (expr.parse(lo, "domain", variable=False), expr.parse(hi, "domain", variable=False))
    for text, end in zip((lo, hi), trees):
        if not expr.is_finite_real(end):
            raise GenError(f"domain: {text!r} is not a finite real number")
    return function, tree, (lo, hi), trees


def _fitting(raw: dict[str, Any], degree: int, word_bits: int) -> dict[str, Any]:
    """The keys that steer the fit: error kind, Remez settings, forced
    coefficient scales, the error budget and re-optimization."""
    error = _want(raw.get("error", DEFAULTS["error"]), str, "error", "a string")
    if error not in ("absolute", "relative"):
        raise GenError(f"error: {error!r} is not 'absolute' or 'relative'")
    precision_digits = _int_in(raw, "precision_digits", 20, 500, default=DEFAULTS["precision_digits"])
    tolerance = _want(raw.get("remez_tolerance", DEFAULTS["remez_tolerance"]), (float, int), "remez_tolerance", "a number")
    if not 0 < tolerance < 1:
        raise GenError(f"remez_tolerance: {tolerance} must be between 0 and 1")
    max_iterations = _int_in(raw, "remez_max_iterations", 1, 1000, default=DEFAULTS["remez_max_iterations"])
    scales = raw.get("coefficient_scales")
    if scales is not None:
        _want(scales, list, "coefficient_scales", "a list of integers")
        scales = tuple(_want(s, int, "coefficient_scales", "a list of integers") for s in scales)
        if len(scales) != degree + 1:
            raise GenError(f"coefficient_scales: {len(scales)} entries, expected degree + 1 = {degree + 1}")
        if any(not 0 <= s <= 4 * word_bits for s in scales):
            raise GenError(f"coefficient_scales: every scale must lie in 0..{4 * word_bits}")
    budget = raw.get("max_abs_error_log2")
    if budget is not None:
        budget = float(_want(budget, (int, float), "max_abs_error_log2", "a number"))
        if not -200 < budget < 0:
            raise GenError(f"max_abs_error_log2: {budget} must be between -200 and 0")
    return {"error": error, "precision_digits": precision_digits, "remez_tolerance": float(tolerance),
            "remez_max_iterations": max_iterations, "coefficient_scales": scales,
            "max_abs_error_log2": budget, "reoptimize": _flag(raw, "reoptimize", DEFAULTS["reoptimize"])}


def _choice(raw: dict[str, Any], key: str, default: str, allowed: tuple[str, ...]) -> str:
    """A string key that must be one of ``allowed``."""
    value = _want(raw.get(key, default), str, key, "a string")
    if value not in allowed:
        quoted = [repr(a) for a in allowed]
        raise GenError(f"{key}: {value!r} is not {', '.join(quoted[:-1])} or {quoted[-1]}")
    return value


def _wide_steps(raw: dict[str, Any], form: str, word_bits: int, degree: int, evaluation: str) -> Optional[int]:
    """The ``wide`` key: how many final Horner steps run on two words
    (true = 1, false = 0), or None for "auto" (left out), which
    :func:`_auto_wide` resolves once the other keys are known."""
    value = raw.get("wide", "auto")
    if value == "auto":
        return None
    if isinstance(value, bool):
        steps = int(value)
    elif isinstance(value, int):
        steps = value
    else:
        raise GenError(f"wide: expected true, false, \"auto\" or a number of steps, got {value!r}")
    if not 0 <= steps <= degree:
        raise GenError(f"wide: {steps} steps must lie in 0..degree ({degree})")
    if steps and (form not in ("direct", "one_minus") or word_bits != 64):
        raise GenError("wide: needs form = 'direct' or 'one_minus' and word_bits = 64")
    if steps > 1 and evaluation != "horner":
        raise GenError("wide: more than one step needs evaluation = 'horner' (estrin keeps its a_0 spine wide)")
    return steps


# wide = "auto" (the default): where the result fills the 64-bit word
# (scale_bits >= 62), the fit stage keeps the fewest final Horner steps on
# two words (at most AUTO_WIDE_STEPS) whose proven evaluation error is at
# most gen.fit.AUTO_EPS_WIDTH units wide, so that the evaluation adds little
# to the approximation (docs/error-model.md, "Guard bits"); 0 elsewhere,
# where the root word has guard bits of its own.
AUTO_WIDE_STEPS = 3
AUTO_WIDE_MIN_SCALE = 62


def _auto_wide(steps: Optional[int], form: str, word_bits: int, scale_bits: int, degree: int, evaluation: str,
               multiplier: str, explicit: bool, float_tail: Optional[int]) -> tuple[int, bool]:
    """wide = "auto": up to AUTO_WIDE_STEPS two-word steps, the fit stage
    choosing how many, for 64-bit direct and one_minus kernels at
    scale_bits >= AUTO_WIDE_MIN_SCALE evaluated by Horner with full
    products and fitted coefficients; 0 for the others (third-party
    coefficients are evaluated as their authors do, and the 32-bit-core
    multipliers keep their tuned one-word steps).  Returns (steps, auto)."""
    if steps is not None:
        return steps, False
    fits = (word_bits == 64 and scale_bits >= AUTO_WIDE_MIN_SCALE and form in ("direct", "one_minus")
            and evaluation == "horner" and multiplier in ("auto", "umull", "mul16") and not explicit
            and float_tail is None)
    return (min(AUTO_WIDE_STEPS, degree), True) if fits else (0, False)


def _evaluation(raw: dict[str, Any], word_bits: int, degree: int
                ) -> tuple[str, str, str, Optional[int], Optional[int]]:
    """table_access, evaluation, form, wide (None: "auto") and float_tail."""
    table_access = _choice(raw, "table_access", DEFAULTS["table_access"], ("direct", "ct_scan"))
    evaluation = _choice(raw, "evaluation", DEFAULTS["evaluation"], ("horner", "estrin"))
    form = _choice(raw, "form", DEFAULTS["form"], ("direct", "one_minus", "head", "eft", "fold", "twin", "mcu"))
    wide = _wide_steps(raw, form, word_bits, degree, evaluation)
    float_tail = raw.get("float_tail")
    if float_tail is not None:
        float_tail = _want(float_tail, int, "float_tail", "an integer")
        if not 2 <= float_tail <= degree:
            raise GenError(f"float_tail: {float_tail} must lie in 2..degree ({degree})")
        if not (wide == 1 and form == "one_minus") and form != "head":
            raise GenError("float_tail: needs form = 'head', or wide = true (and so form = 'one_minus', "
                           "word_bits = 64)")
    return table_access, evaluation, form, wide, float_tail


def _segments(raw: dict[str, Any]) -> tuple[str, int, Optional[int]]:
    """The [segments] table: kind, count (0 for pow2: the segmentation
    fills it in, since it knows the domain) and bits."""
    seg = _want(raw.get("segments", DEFAULTS["segments"]), dict, "segments", "a table")
    unknown = sorted(set(seg) - SEGMENT_KEYS)
    if unknown:
        raise GenError(f"segments.{unknown[0]}: unknown key (allowed: {', '.join(sorted(SEGMENT_KEYS))})")
    kind = _want(seg.get("kind", "equal"), str, "segments.kind", "a string")
    if kind == "equal":
        if "bits" in seg:
            raise GenError("segments.bits: only for kind = 'pow2'")
        return kind, _int_in(seg, "count", 1, 4096, prefix="segments."), None
    if kind == "pow2":
        if "count" in seg:
            raise GenError("segments.count: for kind = 'pow2' the count follows from 'bits'")
        return kind, 0, _int_in(seg, "bits", 0, 12, prefix="segments.")
    raise GenError(f"segments.kind: {kind!r} is not 'equal' or 'pow2'")


def _multiplier(raw: dict[str, Any], word_bits: int, scale_bits: int, form: str, wide: Optional[int],
                evaluation: str) -> tuple[str, Optional[float]]:
    """The ``multiplier`` key (docs/config.md) and its truncation budget."""
    multiplier = _want(raw.get("multiplier", "auto"), str, "multiplier", "a string")
    if multiplier not in MULTIPLIERS:
        raise GenError(f"multiplier: {multiplier!r} is not one of {', '.join(MULTIPLIERS)}")
    budget = raw.get("truncation_budget_log2")
    if budget is not None:
        if multiplier != "truncated":
            raise GenError("truncation_budget_log2: only with multiplier = 'truncated'")
        budget = float(_want(budget, (int, float), "truncation_budget_log2", "a number"))
        if not -200 < budget < 0:
            raise GenError(f"truncation_budget_log2: {budget} must be between -200 and 0")
    if multiplier == "truncated":
        if form != "direct" or wide:
            raise GenError("multiplier: 'truncated' needs form = 'direct' and wide = false")
        if evaluation != "horner":
            raise GenError("multiplier: 'truncated' needs evaluation = 'horner'")
        if budget is None:
            budget = float(-(scale_bits + 1))
    return multiplier, budget


def _m3_keys(raw: dict[str, Any], multiplier: str, degree: int, word_bits: int,
             table_access: str, form: str) -> tuple[Optional[tuple[float, ...]], str, str]:
    """``truncation_budgets_log2``, ``centre`` and ``table_layout``
    (docs/config.md): the per-product plan of a truncated kernel, which
    interval the rounding bias of a_0 centres, and the table's word widths."""
    budgets = None
    if "truncation_budgets_log2" in raw:
        if multiplier != "truncated":
            raise GenError("truncation_budgets_log2: only with multiplier = 'truncated'")
        values = _want(raw["truncation_budgets_log2"], list, "truncation_budgets_log2", "a list of numbers")
        want = degree + (1 if word_bits == 64 else 0)
        if len(values) != want:
            raise GenError(f"truncation_budgets_log2: {len(values)} entries, expected {want} (one per Horner "
                           "product from the top step down" + (", then the ccs product)" if word_bits == 64 else ")"))
        budgets = tuple(float(_want(v, (int, float), "truncation_budgets_log2", "a list of numbers"))
                        for v in values)
        if not all(-200 < b < 0 for b in budgets):
            raise GenError("truncation_budgets_log2: every entry must be a number between -200 and 0")
    centre = _want(raw.get("centre", "expm"), str, "centre", "a string")
    if centre not in ("expm", "adaptor"):
        raise GenError(f"centre: {centre!r} is not 'expm' or 'adaptor'")
    if centre == "adaptor" and (multiplier not in ("truncated", "umaal") or word_bits != 64 or form != "direct"):
        raise GenError("centre: 'adaptor' needs form = 'direct', word_bits = 64 and multiplier = 'truncated' "
                       "or 'umaal'")
    layout = _want(raw.get("table_layout", "uniform"), str, "table_layout", "a string")
    if layout not in ("uniform", "mixed"):
        raise GenError(f"table_layout: {layout!r} is not 'uniform' or 'mixed'")
    if layout == "mixed" and (multiplier != "truncated" or word_bits != 64 or table_access != "direct"):
        raise GenError("table_layout: 'mixed' needs multiplier = 'truncated', word_bits = 64 and "
                       "table_access = 'direct'")
    return budgets, centre, layout


def _explicit(table: Any, degree: int, count: int, kind: str, word_bits: int) -> ExplicitCoefficients:
    _want(table, dict, "coefficients", "a table")
    unknown = sorted(set(table) - COEFFICIENT_KEYS)
    if unknown:
        raise GenError(f"coefficients.{unknown[0]}: unknown key (allowed: values, scale, scales)")
    if kind != "equal":
        raise GenError("coefficients: explicit coefficients need segments.kind = 'equal'")
    if "values" not in table:
        raise GenError("coefficients.values: missing")
    values = _want(table["values"], list, "coefficients.values", "a list")
    rows = values if values and isinstance(values[0], list) else [values]
    if len(rows) != count:
        raise GenError(f"coefficients.values: {len(rows)} segment rows, expected segments.count = {count}")
    parsed = []
    for i, row in enumerate(rows):
        _want(row, list, f"coefficients.values[{i}]", "a list")
        if len(row) != degree + 1:
            raise GenError(f"coefficients.values: segment {i} has {len(row)} values, expected degree + 1 = {degree + 1}")
        values_i = tuple(_parse_integer(v, f"coefficients.values[{i}]") for v in row)
        for j, v in enumerate(values_i):
            if abs(v) >= 1 << word_bits:
                raise GenError(f"coefficients.values: segment {i}, x^{j}: {v:#x} does not fit a {word_bits}-bit "
                               f"word (the magnitude must be below 2^{word_bits})")
        parsed.append(values_i)
    if ("scale" in table) == ("scales" in table):
        raise GenError("coefficients: give exactly one of 'scale' (one for all) or 'scales' (one per power)")
    if "scale" in table:
        scales = (_int_in(table, "scale", 0, 256, prefix="coefficients."),) * (degree + 1)
    else:
        raw_scales = _want(table["scales"], list, "coefficients.scales", "a list of integers")
        if len(raw_scales) != degree + 1:
            raise GenError(f"coefficients.scales: {len(raw_scales)} entries, expected degree + 1 = {degree + 1}")
        scales = tuple(_want(s, int, "coefficients.scales", "a list of integers") for s in raw_scales)
    return ExplicitCoefficients(values=tuple(parsed), scales=scales)
