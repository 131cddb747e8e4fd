"""One candidate end to end, run as its own process by the scheduler (so
that the time box can stop it, and its process group, at any step):

    render   python3 -m gen render CONFIG --out DIR/gen (one generator process)
    bound    the sidecar's proven bound: "fpr_expm_p63_2p63" (the Falcon
             adaptors, against the doubles passed) if present, else
             "expm_p63_2p63"; units of 2^-63
    check    verify.user_kernel.check_user_kernel, quick coverage, one thread:
             the measured error of the same entry, and measured <= proven
    cost     explore.cost_x86, or explore.cost_mcu on the M3 or the M4

The result is one JSON object written atomically to --out; "status" is "ok"
or says which step failed (the figures found before it are kept).

Usage: python3 -m explore.worker --target x86|m3|m4 --config C.toml --dir DIR --out R.json
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import kfolder
from toolkit.files import write_text_atomic
from verify import user_kernel

from . import cost_mcu, cost_x86, space

ROOT = Path(__file__).resolve().parent.parent


def render(config: Path, gen_dir: Path) -> str | None:
    """Render one config; None, or the generator's one-line error."""
    env = {**os.environ, "FXP_GEN_JOBS": "1"}
    res = subprocess.run([sys.executable, "-m", "gen", "render", str(config), "--out", str(gen_dir), "--quiet"],
                         cwd=ROOT, env=env, capture_output=True, text=True)
    if res.returncode == 0:
        return None
    lines = res.stderr.strip().splitlines() or [f"exit status {res.returncode}"]
    # The generator names the config file; the candidate's name says as much.
    return lines[-1].replace(f"{config}: ", "")


def proven_bound(kernel: kfolder.Kernel) -> float | None:
    """The sidecar's bound of the Falcon adaptors, else of _expm_p63."""
    bound = kernel.sidecar.get("bound") or {}
    value = bound.get("fpr_expm_p63_2p63", bound.get("expm_p63_2p63"))
    return None if value is None else float(value)


def measured_error(audit_json: Path) -> float | None:
    """The quick check's largest error of the same entry, units of 2^-63."""
    if not audit_json.is_file():
        return None
    entry = json.loads(audit_json.read_text())["kernels"][0]
    for key in ("fpr", "expm_p63"):
        if isinstance(entry.get(key), dict) and entry[key].get("max_err_2p63") is not None:
            return float(entry[key]["max_err_2p63"])
    return None


def evaluate(target: str, config: Path, work: Path) -> dict[str, Any]:
    """The candidate's figures; see the module docstring."""
    gen_dir = work / "gen"
    result: dict[str, Any] = {"status": "ok"}
    failure = render(config, gen_dir)
    if failure is not None:
        return {"status": f"render failed: {failure}"}
    name = user_kernel.kernel_name(config)
    kernel = kfolder.load(gen_dir, name)
    result["proven_err_2p63"] = proven_bound(kernel)
    result["table_bytes"] = kernel.table_bytes
    try:
        user_kernel.check_user_kernel(config, gen_dir.resolve(), (work / "check").resolve(), 1, [], True, [])
    except user_kernel.UserKernelError as exc:
        result["status"] = f"check failed: {exc}"
    result["measured_err_2p63"] = measured_error(work / "check" / name / "audit.json")
    if result["status"] != "ok":
        return result
    try:
        if target in ("m3", "m4"):
            result.update(cost_mcu.measure(name, gen_dir.resolve(), (work / target).resolve(), target))
        else:
            result.update(cost_x86.measure(kernel, gen_dir.resolve(), (work / "x86").resolve()))
    except (cost_mcu.CostError, cost_x86.CostError) as exc:
        result["status"] = f"cost failed: {exc}"
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m explore.worker", description=__doc__.splitlines()[0])
    ap.add_argument("--target", choices=tuple(space.TARGETS), required=True)
    ap.add_argument("--config", type=Path, required=True)
    ap.add_argument("--dir", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    result = evaluate(args.target, args.config.resolve(), args.dir.resolve())
    write_text_atomic(args.out, json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
