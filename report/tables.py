"""The generated tables of accuracy and side channels: the audit
(build/audit.json), constant time (build/ct.json) and BerExp
(build/berexp.json).  Each renderer takes the parsed JSON and the path it
came from and returns Markdown."""
from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

from report.common import Skip, fixed, measured_on, sig, verdict
from toolkit import table
from verify.guard_sweep import table as sweep_table


def _tightness(k: dict[str, Any]) -> Any:
    """Proven over measured, on the error Falcon's budget is judged on."""
    bound, expm = k.get("bound") or {}, k.get("expm_p63")
    if k.get("eval") is None:
        # No fixed-point interface (form eft): judged on its Falcon adaptors.
        f = k.get("fpr") or {}
        return f"{f['bound'] / f['max_err_2p63']:.3f}" if f.get("bound") and f.get("max_err_2p63") else None
    if expm is not None and bound.get("expm_p63_2p63") and expm.get("max_err_2p63"):
        return f"{bound['expm_p63_2p63'] / expm['max_err_2p63']:.3f}"
    if expm is None and bound.get("eval_ulp") and k["eval"].get("max_err_ulp"):
        return f"{bound['eval_ulp'] / k['eval']['max_err_ulp']:.3f}"
    return None


def _audit_errors(k: dict[str, Any]) -> tuple[Any, Any, Any, Any]:
    """The audit table's measured _eval, measured and proven _expm_p63 and
    log2 abs cells of one entry."""
    ev, expm, bound = k.get("eval"), k.get("expm_p63"), k.get("bound") or {}
    if ev is None:
        # No fixed-point interface (form eft): no _eval or _expm_p63; the
        # proven column shows the adaptors' bound, which it is judged on.
        f = k.get("fpr") or {}
        log2_fpr = f.get("log2_abs_err")
        return (None, None, f"(adaptors) {sig(f.get('bound'), 6)}",
                fixed(log2_fpr) if log2_fpr is not None else None)
    exhaustive = " (exhaustive)" if ev.get("exhaustive") else ""
    # A 32-bit kernel is judged on _eval (as the audit's budget is).
    log2_abs = (expm["log2_abs_err"] if expm else
                math.log2(ev["max_err_ulp"]) - k["scale_bits"] if ev["max_err_ulp"] else None)
    return (f"{sig(ev['max_err_ulp'], 6)}{exhaustive}",
            sig(expm["max_err_2p63"], 4) if expm else None,
            sig(bound.get("expm_p63_2p63"), 6) if expm else f"(eval) {sig(bound.get('eval_ulp'), 6)}",
            fixed(log2_abs) if log2_abs is not None else None)


def audit(data: dict[str, Any], source: Path) -> str:
    """README's audit table: measured and proven errors, constant time, budget."""
    header = ("kernel", "segs", "deg", "S", "W", "table B", "measured `_eval` (2^-S)",
              "measured `_expm_p63`", "proven `_expm_p63`", "proven / measured", "log2 abs",
              "constant-time", "2^-43 budget")
    if not any(k.get("constant_time") for k in data.get("kernels", [])):
        # make audit copies the verdicts of build/ct.json when it exists; a
        # table of dashes would overwrite the verdicts the README states.
        raise Skip(f"{source} has no constant-time verdicts: make ct, then make audit")
    rows = []
    for k in data.get("kernels", []):
        ct_rec = k.get("constant_time") or {}
        ct = ct_rec.get("constant_time")
        direct = " (direct table)" if ct_rec.get("table_access") == "direct" else ""
        measured_eval, measured_expm, proven, log2_abs = _audit_errors(k)
        rows.append((k["name"], k["segments"], k["degree"], k["scale_bits"], k["word_bits"],
                     k["table_bytes"], measured_eval, measured_expm, proven, _tightness(k), log2_abs,
                     verdict(ct, "yes", f"no{direct}"), verdict(k.get("falcon_budget_ok"))))
    return (measured_on(data, source, "Errors in units of 2^-63 unless said")
            + "\n" + table.markdown(header, rows) + "\n")


def audit_fpr(data: dict[str, Any], source: Path) -> str:
    """The Falcon adaptors against the caller's double inputs (the audit's
    "fpr" entries): measured maximum, proven bound, where, and the verdict."""
    header = ("kernel", "measured max error", "proven bound", "proven / measured",
              "worst x (bits)", "worst ccs (bits)", "inputs checked", "inputs over the bound",
              "adaptors agree", "within bound")
    rows = []
    for k in data.get("kernels", []):
        f = k.get("fpr")
        if f is None:
            continue
        bound, measured = f.get("bound"), f["max_err_2p63"]
        within = None if bound is None else measured <= bound
        rows.append((k["name"], sig(measured, 6), sig(bound, 6),
                     f"{bound / measured:.3f}" if bound and measured else None,
                     f"`{f['worst_x_bits']}`", f"`{f['worst_ccs_bits']}`",
                     f"{f['inputs_checked']:,}", f"{f['over_bound']:,}",
                     verdict(f["disagreements"] == 0, "yes", "**NO**"),
                     verdict(within, "yes", "**NO**")))
    what = ("Error: the distance from the result to ccs exp(-x) 2^63 in units of 2^-63, "
            "x and ccs the doubles passed; the maximum over the four adaptors")
    return measured_on(data, source, what) + "\n" + table.markdown(header, rows, "lrrrllrrll") + "\n"


def ct(data: dict[str, Any], source: Path) -> str:
    """The constant-time verdicts: three checks per kernel (and the controls)."""
    cols = ("table_access", "valgrind_reports", "ttest_max_t", "cond_branches", "fp_insns",
            "calls", "divisions", "indexed_loads")
    header = ("kernel", "table access", "valgrind reports", "t-test max |t|",
              "cond. branches", "FP insns", "calls", "divisions", "secret-indexed loads",
              "constant-time")
    rows = []
    for k in data.get("kernels", []):
        cells = [fixed(k[c], 1) if isinstance(k[c], float) else k[c] for c in cols]
        rows.append((k["name"], *cells, "**yes**" if k["constant_time"] else "no"))
    controls = data.get("leaky_control_detected")
    what = (f"{data.get('compiler', 'compiler not recorded')}, `{data.get('flags', '')}`; "
            f"leaky controls detected in the same run: {controls}")
    return measured_on(data, source, what) + "\n" + table.markdown(header, rows, "llrrrrrrrl") + "\n"


def berexp(data: dict[str, Any], source: Path) -> str:
    """BerExp decision and byte-count differences against the reference."""
    header = ("kernel", "decision diffs", "expected (exact sum)", "byte-count diffs", "expected",
              "per call vs reference (run)", "per signature n=512 / n=1024 vs reference",
              "proven bound (2^-63)", "per signature n=1024 vs exact, from the bound")
    rows = []
    for k in data.get("kernels", []):
        m, x = k["measured"], k["expected_from_run"]
        obs = k["per_call"]["observed_vs_reference"]
        proven = k["per_call"].get("bound_2p63", {}).get("per_signature_vs_exact_bound", {})
        rows.append((k["name"], m["decision_diffs"], sig(x["decision_diffs"], 3),
                     m["bytes_diffs"], sig(x["bytes_diffs"], 3), sig(obs["per_call"], 3),
                     f"{sig(obs['per_signature']['512'], 3)} / {sig(obs['per_signature']['1024'], 3)}",
                     sig(k["errors"].get("bound_2p63"), 6), sig(proven.get("1024"), 3)))
    what = f"{data.get('draws', 0):.0e} draws per kernel, seed {data.get('seed')}".replace("e+0", "e")
    return measured_on(data, source, what) + "\n" + table.markdown(header, rows) + "\n"


def berexp_errors(data: dict[str, Any], source: Path) -> str:
    """Each kernel's error against Falcon's relative budget and its expected
    decision flips against the exact function."""
    header = ("kernel", "max err (measured / proven)", "log2 abs", "log2 rel (worst)",
              "2^-43 relative budget", "P(differ) per call vs exact, bound",
              "per signature n=512 / n=1024, vs exact")
    rows = []
    for k in data.get("kernels", []):
        if k["name"].startswith("control"):
            continue
        e, b = k["errors"], k["budget"].get("bound_2p63") or {}
        pc = k["per_call"].get("bound_2p63") or {}
        per_sig = pc.get("per_signature_vs_exact_bound") or {}
        rows.append((k["name"], f"{sig(e.get('measured_2p63'), 6) or '-'} / {sig(e.get('bound_2p63'), 6)}",
                     fixed(b.get("log2_abs")), fixed(b.get("log2_rel_worst")),
                     verdict(b.get("meets_2^-43_relative")), sig(pc.get("vs_exact_bound"), 3),
                     f"{sig(per_sig.get('512'), 3)} / {sig(per_sig.get('1024'), 3)}"))
    return (measured_on(data, source, "Errors in units of 2^-63 (measured: build/audit.json "
                                      "when the run found one)")
            + "\n" + table.markdown(header, rows) + "\n")


def berexp_sampler(data: dict[str, Any], source: Path) -> str:
    """The simulated sampler's s-distribution and BerExp calls, per degree n."""
    samplers = [data["sampler"][n] for n in ("512", "1024")]
    header = ("", *(f"n = {s['n']} (sigma_min = {s['sigma_min']:.5f})" for s in samplers))
    rows = [
        ("P(s = 0), P(s = 1), P(s = 2)",
         *(", ".join(f"{p:.3f}" for p in s["s_prob"][:3]) for s in samplers)),
        ("E[2^-s]", *(f"{sum(p * 2.0 ** -k for k, p in enumerate(s['s_prob'])):.4f}"
                      for s in samplers)),
        ("BerExp calls per sample", *(f"{s['calls_per_sample']:.3f}" for s in samplers)),
        ("BerExp calls per signature, 2n samples",
         *(f"{2 * s['n'] * s['calls_per_sample']:.0f}" for s in samplers)),
    ]
    return (measured_on(data, source, "Simulated SamplerZ (falcon/berexp.c)")
            + "\n" + table.markdown(header, rows, "lrr") + "\n")


def _dyadic(text: str) -> Fraction:
    """Gappa's m or mbE (= m * 2^E), or a decimal string, as a rational."""
    if "b" in text:
        mantissa, _, exponent = text.partition("b")
        return Fraction(int(mantissa)) * Fraction(2) ** int(exponent)
    return Fraction(text)


def _union(pairs: list[list[str]]) -> str:
    lo, hi = min(_dyadic(p[0]) for p in pairs), max(_dyadic(p[1]) for p in pairs)
    return f"[{float(lo):.9g}, {float(hi):.9g}]"


def _gappa_row(k: dict[str, Any]) -> tuple[Any, ...]:
    """One kernel's row, from the summary certify/gappa_run.py wrote for its
    kind: per segment (U_root - Uhat_root), form head (the binary64 part's
    claims), form fold (its binary64 tail's claims), form twin (its binary64
    part's claims) or form eft (the small
    part's rounding claim)."""
    proven = verdict(k["proven"], "yes", "**NO**")
    if k.get("form") == "head":
        return (k["name"], f"{k['claims']} claims of the binary64 part", None, None,
                f"{k['wall_seconds']:.2f}", None, proven)
    if k.get("form") == "fold":
        return (k["name"], f"{k['claims']} claims of the binary64 tail", None, None,
                f"{k['wall_seconds']:.2f}", None, proven)
    if k.get("form") == "twin":
        return (k["name"], f"{k['claims']} claims of the binary64 part", None, None,
                f"{k['wall_seconds']:.2f}", None, proven)
    if k.get("form") == "eft":
        return (k["name"], "the small part's roundings", f"<= {k['claimed']:.9g}", None,
                f"{k['wall_seconds']:.2f}", None, proven)
    res = k["results"]
    gappa = [r["gappa"] for r in res if r["gappa"]]
    split = max(r["split"] for r in res)
    return (k["name"], f"{k['segments']} segment(s)", _union([r["generator"] for r in res]),
            _union(gappa) if len(gappa) == len(res) else None,
            f"{k['wall_seconds']:.2f} ({k['gappa_cpu_seconds']:.2f})",
            "none" if split == 1 else f"{split} pieces", proven)


def certify_gappa(data: dict[str, Any], source: Path) -> str:
    """Gappa against the generator, one row per kernel (_gappa_row)."""
    header = ("kernel", "what Gappa re-proves", "generator's claim", "Gappa enclosure",
              "wall s (Gappa CPU s)", "split", "proven")
    rows = [_gappa_row(k) for k in data["kernels"]]
    return (measured_on(data, source, "`make certify`, one file per kernel")
            + "\n" + table.markdown(header, rows) + "\n")


def certify_sollya(data: dict[str, Any], source: Path) -> str:
    """Sollya's supnorm against the generator's approx_bound, per kernel."""
    header = ("kernel", "segments", "max u", "ratio min", "ratio max", "result")
    rows = []
    for k in data["kernels"]:
        segs = k["segments"]
        ratios = [s["ratio"] for s in segs]
        ok = k["sound"] and k["tight"]
        rows.append((k["name"], len(segs), f"{max(s['upper'] for s in segs):.6e}",
                     f"{min(ratios):.5f}", f"{max(ratios):.5f}", verdict(ok, "ok", "**FAIL**")))
    return (measured_on(data, source, "`make certify-sollya`, one file per kernel")
            + "\n" + table.markdown(header, rows) + "\n")


def guard_sweep(data: dict[str, Any], source: Path) -> str:
    """docs/error-model.md's guard-bit table (make guard-sweep)."""
    quick = " (quick run: about 10^6 inputs per kernel)" if data.get("quick") else ""
    cost = f"; instructions counted in the machine code of `{data['cost_compiler']}`" if "cost_compiler" in data else ""
    what = (f"Units of 2^-S; target: measured <= approx + {data['target_excess_ulp']:g} where approx <= "
            f"{data['approx_eligible_ulp']:g}{quick}{cost}")
    return measured_on(data, source, what) + "\n" + sweep_table(data["configs"], "markdown") + "\n"
