"""Collect every kernel's figures into build/audit.json and print a table.

For each kernel name it reads the generator's sidecar
(generated/<name>/<name>.json), the checker's result
(build/check/<name>.json) and, for kernels with Falcon adaptors, the
adaptors' checker's result (build/check/<name>.fpr.json, verify/fpr.py),
and writes one entry:

    {"name", "segments", "degree", "scale_bits", "word_bits", "table_bytes",
     "fixed_point",
     "eval": {"max_err_ulp", "worst_z", "inputs_checked", "exhaustive"} or null,
     "expm_p63": {"max_err_2p63", "log2_abs_err", "inputs_checked"} or null,
     "fpr": {"max_err_2p63", "worst_x_bits", "worst_ccs_bits",
             "inputs_checked", "bound", ...} or null,
     "falcon_budget_ok", ...optional fields...}

Falcon's budget is 2^-43 absolute: a kernel with Falcon adaptors is judged
on their error against the double inputs, another 64-bit kernel on its
expm_p63 error, a 32-bit kernel (no expm_p63) on its eval error.

A kernel without the fixed-point interface (sidecar "fixed_point": false,
form eft: only the Falcon adaptors and batch entries) has no checker
result build/check/<name>.json: its entry is built from the adaptors'
result alone, with "eval" and "expm_p63" null (their columns print "-"),
and it is judged, and fails, on the adaptors' error against their bound.

The audit fails (exit status 1, after writing the JSON and printing the
tables, one "audit: FAIL:" line per reason on stderr) when a measured
error exceeds its proven bound, or when the Falcon adaptors disagree with
each other or with the header's bound macro (fpr.fpr_failures).  Missing
or malformed inputs are a one-line error, exit status 2, nothing written.

Extending: optional sidecar fields (OPTIONAL_SIDECAR_FIELDS) are copied into
the entry when present, and a table column is a (title, dotted path, format)
triple in COLUMNS; a column whose path no kernel has is left out.  A new
figure (a proven bound, a constant-time verdict) therefore needs one line in
each list, not new code.

Usage: python3 -m verify.audit [--generated DIR] [--check-dir DIR]
                                 [--out FILE] NAME...
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any, Callable, Union

import kfolder
from toolkit import provenance, table
from toolkit.files import write_text_atomic
from verify import fpr

FALCON_BUDGET_LOG2 = -43.0

SIDECAR_FIELDS = ("segments", "degree", "scale_bits", "word_bits", "table_bytes")
EVAL_FIELDS = ("max_err_ulp", "worst_z", "inputs_checked", "exhaustive")
EXPM_FIELDS = ("max_err_2p63", "log2_abs_err", "inputs_checked")
# Copied from the sidecar into the entry, unchanged, when the sidecar has them.
OPTIONAL_SIDECAR_FIELDS = ("bound",)


class AuditError(ValueError):
    """A kernel's sidecar or checker result is missing or malformed."""


def _load(path: Path) -> dict[str, Any]:
    try:
        with path.open(encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, json.JSONDecodeError) as exc:
        raise AuditError(f"{path}: {exc}") from exc
    if not isinstance(data, dict):
        raise AuditError(f"{path}: expected a JSON object")
    return data


def _pick(source: dict[str, Any], keys: tuple[str, ...], where: str) -> dict[str, Any]:
    missing = [k for k in keys if k not in source]
    if missing:
        raise AuditError(f"{where}: missing {', '.join(missing)}")
    return {k: source[k] for k in keys}


def judged_log2_error(entry: dict[str, Any]) -> float:
    """log2 of the absolute error Falcon's budget is judged on (-inf: zero error)."""
    if entry.get("fpr") is not None:
        value = entry["fpr"]["log2_abs_err"]
        return -math.inf if value is None else float(value)
    if entry.get("expm_p63") is not None:
        value = entry["expm_p63"]["log2_abs_err"]
        return -math.inf if value is None else float(value)
    ulp = lookup(entry, "eval.max_err_ulp")
    return math.log2(ulp) - entry["scale_bits"] if ulp > 0 else -math.inf


def kernel_entry(name: str, generated: Path, check_dir: Path) -> dict[str, Any]:
    """The audit entry of one kernel."""
    try:
        kernel = kfolder.load(generated, name)
    except kfolder.KernelFolderError as exc:
        raise AuditError(str(exc)) from None
    sidecar_path, sidecar = kernel.sidecar_path, kernel.sidecar
    entry: dict[str, Any] = {"name": name}
    entry.update(_pick(sidecar, SIDECAR_FIELDS, str(sidecar_path)))
    entry["fixed_point"] = kernel.fixed_point
    if kernel.fixed_point:
        entry.update(_fixed_point_figures(check_dir / f"{name}.json", entry["word_bits"]))
    else:
        entry.update(eval=None, expm_p63=None)
    try:
        entry["fpr"] = fpr.fpr_entry(kernel, check_dir)
    except fpr.FprResultError as exc:
        raise AuditError(str(exc)) from None
    entry["falcon_budget_ok"] = judged_log2_error(entry) <= FALCON_BUDGET_LOG2
    for key in OPTIONAL_SIDECAR_FIELDS:
        if key in sidecar:
            entry[key] = sidecar[key]
    return entry


def _fixed_point_figures(check_path: Path, word_bits: int) -> dict[str, Any]:
    """The "eval" and "expm_p63" figures of verify/check.c's result."""
    check = _load(check_path)
    if not isinstance(check.get("eval"), dict) or "expm_p63" not in check:
        raise AuditError(f"{check_path}: needs \"eval\" and \"expm_p63\"")
    expm = check["expm_p63"]
    if (expm is None) != (word_bits == 32):
        raise AuditError(f"{check_path}: expm_p63 must be null exactly for 32-bit kernels")
    return {"eval": _pick(check["eval"], EVAL_FIELDS, f"{check_path} eval"),
            "expm_p63": None if expm is None else _pick(expm, EXPM_FIELDS, f"{check_path} expm_p63")}


def merge_reports(entries: list[dict[str, Any]], ct_path: Path | None, berexp_path: Path | None) -> None:
    """Copy each kernel's constant-time verdict (build/ct.json, `make ct`) and
    its expected BerExp decision flips per signature (build/berexp.json,
    `make berexp`) into its entry, when those reports exist."""
    if ct_path is not None and ct_path.is_file():
        ct = {k["name"]: k for k in _load(ct_path).get("kernels", [])}
        for entry in entries:
            if entry["name"] in ct:
                entry["constant_time"] = {key: ct[entry["name"]].get(key) for key in
                                          ("constant_time", "table_access", "valgrind_reports",
                                           "ttest_max_t", "cond_branches", "indexed_loads")}
    if berexp_path is not None and berexp_path.is_file():
        berexp = {k["name"]: k for k in _load(berexp_path).get("kernels", [])}
        for entry in entries:
            item = berexp.get(entry["name"])
            if item is not None:
                entry["berexp"] = {
                    "draws": _load(berexp_path).get("draws"),
                    "decision_diffs_vs_reference": item["measured"]["decision_diffs"],
                    "bytes_diffs_vs_reference": item["measured"]["bytes_diffs"],
                    "expected_flips_per_signature_vs_exact": item["per_call"]["bound_2p63"][
                        "per_signature_vs_exact_bound"],
                }


def tightness(entry: dict[str, Any]) -> float | None:
    """Proven bound / measured maximum of the error Falcon's budget is judged on."""
    try:
        if entry.get("fpr") is not None:
            return lookup(entry, "fpr.bound") / lookup(entry, "fpr.max_err_2p63")
        if entry.get("expm_p63") is not None:
            return lookup(entry, "bound.expm_p63_2p63") / lookup(entry, "expm_p63.max_err_2p63")
        return lookup(entry, "bound.eval_ulp") / lookup(entry, "eval.max_err_ulp")
    except (KeyError, ZeroDivisionError):
        return None


def lookup(entry: dict[str, Any], path: str) -> Any:
    """entry["a"]["b"] for path "a.b"; KeyError when any step is missing or null."""
    value: Any = entry
    for part in path.split("."):
        if not isinstance(value, dict) or value.get(part) is None:
            raise KeyError(path)
        value = value[part]
    return value


def _num(fmt: str) -> Callable[[Any], str]:
    return lambda v: format(v, fmt)


def _e63_of_eval(entry: dict[str, Any]) -> float:
    return lookup(entry, "eval.max_err_ulp") * 2.0 ** (63 - entry["scale_bits"])


def _log2(v: float) -> str:
    return "-inf" if math.isinf(v) else f"{v:.2f}"


def within_bound(entry: dict[str, Any]) -> bool | None:
    """Measured errors <= the proven bounds the sidecar states (None: no bound).

    A measured error above a proven bound means the bound or the checker is
    wrong, so the table shows it."""
    pairs = (("eval.max_err_ulp", "bound.eval_ulp"),
             ("expm_p63.max_err_2p63", "bound.expm_p63_2p63"),
             ("fpr.max_err_2p63", "fpr.bound"))
    verdicts = []
    for measured, bound in pairs:
        try:
            verdicts.append(lookup(entry, measured) <= lookup(entry, bound))
        except KeyError:
            continue
    return all(verdicts) if verdicts else None


def failures(entry: dict[str, Any]) -> list[str]:
    """One line per reason the kernel fails the audit: _eval or _expm_p63
    measured above its proven bound, or the Falcon adaptors' checks
    (fpr.fpr_failures: above their bound, disagreeing, or a header bound
    that is not the sidecar's)."""
    out = []
    for measured, bound, what in (("eval.max_err_ulp", "bound.eval_ulp", "_eval (units of 2^-S)"),
                                  ("expm_p63.max_err_2p63", "bound.expm_p63_2p63",
                                   "_expm_p63 (units of 2^-63)")):
        try:
            got, limit = lookup(entry, measured), lookup(entry, bound)
        except KeyError:
            continue
        if got > limit:
            out.append(f"{entry['name']}: {what} measured {got:.6g} > proven bound {limit:.6g}")
    return out + fpr.fpr_failures(entry["name"], entry.get("fpr"))


# (title, dotted path or callable, formatter).
Column = tuple[str, Union[str, Callable[[dict[str, Any]], Any]], Callable[[Any], str]]
COLUMNS: list[Column] = [
    ("name", "name", str),
    ("segs", "segments", str),
    ("deg", "degree", str),
    ("S", "scale_bits", str),
    ("W", "word_bits", str),
    ("table B", "table_bytes", str),
    ("eval err 2^-S", "eval.max_err_ulp", _num(".6g")),
    ("eval err 2^-63", _e63_of_eval, _num(".6g")),
    ("expm err 2^-63", "expm_p63.max_err_2p63", _num(".6g")),
    ("log2 abs err", judged_log2_error, _log2),
    ("bound 2^-S", "bound.eval_ulp", _num(".6g")),
    ("bound expm 2^-63", "bound.expm_p63_2p63", _num(".6g")),
    ("fpr err 2^-63", "fpr.max_err_2p63", _num(".6g")),
    ("bound fpr 2^-63", "fpr.bound", _num(".6g")),
    ("<= bound", within_bound, lambda v: "yes" if v else "NO"),
    ("proven/meas", tightness, _num(".3g")),
    ("const-time", "constant_time.constant_time", lambda v: "yes" if v else "NO"),
    ("flips/sig n=1024", "berexp.expected_flips_per_signature_vs_exact.1024", _num(".2g")),
    ("exhaustive", "eval.exhaustive", lambda v: "yes" if v else "no"),
    ("budget 2^-43", "falcon_budget_ok", lambda v: "ok" if v else "FAIL"),
]


def _cell(entry: dict[str, Any], column: Column) -> str | None:
    _, path, fmt = column
    try:
        value = path(entry) if callable(path) else lookup(entry, path)
    except KeyError:
        return None
    return None if value is None else fmt(value)


def render_table(entries: list[dict[str, Any]]) -> str:
    """A plain-text table; columns no kernel has are left out."""
    cells = [[_cell(e, c) for c in COLUMNS] for e in entries]
    keep = [i for i in range(len(COLUMNS)) if any(row[i] is not None for row in cells)]
    return table.text([COLUMNS[i][0] for i in keep], [[row[i] for i in keep] for row in cells])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="+", help="kernel names")
    parser.add_argument("--generated", type=Path, default=Path("generated"))
    parser.add_argument("--check-dir", type=Path, default=Path("build/check"))
    parser.add_argument("--out", type=Path, default=Path("build/audit.json"))
    parser.add_argument("--ct", type=Path, default=None, help="build/ct.json, merged if present")
    parser.add_argument("--berexp", type=Path, default=None, help="build/berexp.json, merged if present")
    args = parser.parse_args(argv)
    try:
        entries = [kernel_entry(n, args.generated, args.check_dir) for n in args.names]
        merge_reports(entries, args.ct, args.berexp)
    except AuditError as exc:
        print(f"audit: error: {exc}", file=sys.stderr)
        return 2
    failed = []
    for entry in entries:
        reasons = failures(entry)
        entry["within_bounds"] = not reasons
        failed += reasons
    print(render_table(entries))
    fpr_table = fpr.render_table(entries)
    if fpr_table:
        print("\n" + fpr_table)
    write_text_atomic(args.out, json.dumps({"measured_on": provenance.measured_on(),
                                            "kernels": entries}, indent=2) + "\n")
    for line in failed:
        print(f"audit: FAIL: {line}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
