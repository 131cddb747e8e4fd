"""Turn a kernel's sidecar JSON into the plain-text plan that verify/check.c reads.

The plan is one "key value..." line per fact, so the C driver needs no JSON
parser:

    name <name>
    function <text of the sidecar's "function", e.g. exp(-x)>
    word_bits <W>
    scale_bits <S>
    z_min <first input of the domain: "z_lo", or the first segment's start>
    z_max <last input of the domain>
    segment <index> <z_first> <z_last>        (one per segment)
    extremum <segment index> <z>              (one per error extremum)

A kernel without the fixed-point interface (sidecar "fixed_point": false)
has no _eval for check.c to call: its plan is refused with a one-line error
(its Falcon adaptors are checked by check_fpr, `make check-fpr`).

Segments reaching above z_max are clipped to it (a power-of-two segmentation
may overhang the domain); segments entirely above z_max are dropped.

Usage: python3 -m verify.plan KERNEL_FOLDER [-o PLAN]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import kfolder
from toolkit.files import write_text_atomic


class PlanError(ValueError):
    """The sidecar lacks something the checker needs, or is inconsistent."""


def _integer(value: Any, what: str) -> int:
    """A non-negative integer given as a decimal string (or a JSON integer)."""
    if isinstance(value, bool):
        raise PlanError(f"{what}: expected a decimal integer, got {value!r}")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and value.isdigit():
        number = int(value)
    else:
        raise PlanError(f"{what}: expected a decimal integer, got {value!r}")
    if number < 0:
        raise PlanError(f"{what}: negative")
    return number


def _field(obj: dict[str, Any], key: str, where: str) -> Any:
    if key not in obj:
        raise PlanError(f"{where}: missing \"{key}\"")
    return obj[key]


def build_plan(sidecar: dict[str, Any]) -> list[str]:
    """The plan lines for one sidecar; raises PlanError on bad input."""
    if sidecar.get("fixed_point") is False:
        raise PlanError("no fixed-point interface (\"fixed_point\": false): nothing for check.c to call; "
                        "its Falcon adaptors are checked by check_fpr (make check-fpr)")
    name = _field(sidecar, "name", "sidecar")
    function = _field(sidecar, "function", "sidecar")
    if not isinstance(name, str) or not name.isidentifier():
        raise PlanError(f"sidecar: \"name\" must be a C identifier, got {name!r}")
    if not isinstance(function, str) or not function.strip() or "\n" in function:
        raise PlanError("sidecar: \"function\" must be a one-line string")
    word_bits = _integer(_field(sidecar, "word_bits", "sidecar"), "word_bits")
    scale_bits = _integer(_field(sidecar, "scale_bits", "sidecar"), "scale_bits")
    if word_bits not in (32, 64):
        raise PlanError(f"word_bits must be 32 or 64, got {word_bits}")
    z_max = _integer(_field(sidecar, "z_max", "sidecar"), "z_max")
    if z_max >= 1 << word_bits:
        raise PlanError(f"z_max {z_max} does not fit {word_bits} bits")
    raw_segments = _field(sidecar, "segment_list", "sidecar")
    if not isinstance(raw_segments, list) or not raw_segments:
        raise PlanError("sidecar: \"segment_list\" must be a non-empty list")

    segment_lines: list[str] = []
    extremum_lines: list[str] = []
    previous_last = -1
    for position, seg in enumerate(raw_segments):
        where = f"segment_list[{position}]"
        if not isinstance(seg, dict):
            raise PlanError(f"{where}: expected an object")
        index = _integer(_field(seg, "index", where), f"{where}.index")
        first = _integer(_field(seg, "z_first", where), f"{where}.z_first")
        last = _integer(_field(seg, "z_last", where), f"{where}.z_last")
        if first > last:
            raise PlanError(f"{where}: z_first > z_last")
        if first <= previous_last:
            raise PlanError(f"{where}: overlaps or precedes the previous segment")
        previous_last = last
        if first > z_max:
            continue
        segment_lines.append(f"segment {index} {first} {min(last, z_max)}")
        extrema = _field(seg, "error_extrema_z", where)
        if not isinstance(extrema, list):
            raise PlanError(f"{where}.error_extrema_z: expected a list")
        for z_text in extrema:
            z = _integer(z_text, f"{where}.error_extrema_z")
            if not first <= z <= last:
                raise PlanError(f"{where}: extremum {z} lies outside the segment")
            if z <= z_max:
                extremum_lines.append(f"extremum {index} {z}")

    # The domain starts at the sidecar's "z_lo" when it has one (it must then
    # be the first segment's start), else at the first segment.
    z_min = _integer(raw_segments[0]["z_first"], "segment_list[0].z_first")
    if "z_lo" in sidecar and _integer(sidecar["z_lo"], "z_lo") != z_min:
        raise PlanError(f"z_lo {sidecar['z_lo']} is not the first segment's z_first {z_min}")
    header = [
        f"name {name}",
        f"function {function.strip()}",
        f"word_bits {word_bits}",
        f"scale_bits {scale_bits}",
        f"z_min {z_min}",
        f"z_max {z_max}",
    ]
    return header + segment_lines + extremum_lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernel", type=Path,
                        help="a kernel folder (generated/<name>) or its sidecar")
    parser.add_argument("-o", "--output", type=Path, help="plan file (default: stdout)")
    args = parser.parse_args(argv)
    try:
        lines = build_plan(kfolder.load_path(args.kernel).sidecar)
    except kfolder.KernelFolderError as exc:
        print(f"plan: error: {exc}", file=sys.stderr)
        return 2
    except PlanError as exc:
        print(f"plan: error: {args.kernel}: {exc}", file=sys.stderr)
        return 2
    text = "\n".join(lines) + "\n"
    if args.output:
        write_text_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
