"""Gappa scripts that re-prove a kernel's evaluation-error interval.

A kernel's sidecar (``generated/<name>/<name>.json``) describes its
evaluation scheme as a graph of nodes ("nodes": var, const, mul, add,
ftail, the root last), each holding a non-negative W-bit word U_n, and lists per
segment the signed integers K_j.  From them this module writes one Gappa
script that mirrors the emitted integer operations node by node, in integer
units (no scaling: the word itself):

    var    U = T = t << g, an integer multiple of 2^g in [0, t_max << g]
    const  U = K_j
    mul    U = floor(U_a * U_b / 2^W)              (the C code's mulhi)
    add    U = sum of sign * K_j (constant operand) or
           sign * shift(U_a, r): floor(U_a / 2^r) if r > 0, U_a * 2^-r if not

    ftail  U = the binary64 tail's word: an input of the script, whose range
           and error against the exact tail sum_i b_i v^(k+i) come from
           gen/proof/float_tail.py as hypotheses (Gappa does not re-prove the
           floating-point tail; the integer part and the sum are re-proven)

next to its exact counterpart X (the same graph without the floors), and asks
Gappa to prove, for every segment at once, that U_root - X_root lies in the
generator's interval "eval_error_core" and that every product, sum and
left-shifted operand lies in [0, 2^W - 1] (no wrap-around).  Gappa works on
exact dyadic bounds with its own rewriting rules and shares no code or
arithmetic with gen/quantize/ and gen/proof/, so a slip there (or in the decimal rounding
of the sidecar) makes the proof fail.

Usage (also callable from gen/render/ through :func:`render_script`):
    python3 -m certify.gappa_script generated/<name>/<name>.json [-o out.g]
"""

from __future__ import annotations

import functools
import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import jinja2

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
TEMPLATE = "gappa.j2"
# Gappa's internal precision (bits of the interval bounds it computes).  The
# ranges of U_j need more than W = 64 bits to be told apart from 2^64.
PRECISION = 192
_DECIMAL = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


class SidecarError(ValueError):
    """A sidecar that cannot describe a certifiable kernel."""


@dataclass(frozen=True)
class Term:
    """One operand of an add node: sign * (K if const else shift(U_arg, shift))."""
    arg: int
    sign: int
    shift: int
    const: Optional[int]       # K_j of the operand when it is a constant node
    product: tuple[int, ...]   # the operand's own operands when it is a product


@dataclass(frozen=True)
class Node:
    n: int
    kind: str                  # "var", "const", "mul" or "add"
    args: tuple[int, ...]
    k: Optional[int]           # K_j of a const node on this segment
    terms: tuple[Term, ...]    # add nodes only
    wide: bool                 # a 2W-bit word (full product, or a sum of them)
    tail: Optional[tuple[str, str, str, str]] = None   # ftail: range lo, hi and error lo, hi (hypotheses)
    tail_terms: tuple[tuple[str, int], ...] = ()       # ftail: (b_i in Gappa's notation, power k + i)
    tail_relative: Optional[str] = None                # ftail: r with U <= (1 + r) X + 1, when proven
    floored: bool = False      # a product rounded down: floor(a b / 2^W) (all but the exact 2W-bit one)


@dataclass(frozen=True)
class Segment:
    index: int
    z_first: int
    z_last: int
    t_max: int
    nodes: tuple[Node, ...]    # in graph order, the root last
    goal_lo: str               # generator's eps_root interval, decimal strings
    goal_hi: str


def _field(data: Any, key: str, where: str) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise SidecarError(f"{where}: missing field {key!r}")
    return data[key]


def _integer(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise SidecarError(f"{where}: expected an integer, got {value!r}")
    try:
        return int(value)
    except ValueError:
        raise SidecarError(f"{where}: expected an integer, got {value!r}") from None


_HEX_DOUBLE = re.compile(r"^-?0x[01]\.[0-9a-f]{13}p[+-]\d+$")


def _hex_double(value: Any, where: str) -> str:
    """A binary64 coefficient as Python's float.hex() writes it, turned into
    Gappa's dyadic notation m b e (exact)."""
    if not isinstance(value, str) or not _HEX_DOUBLE.match(value):
        raise SidecarError(f"{where}: expected a hexadecimal double, got {value!r}")
    mantissa, exponent = value.split("p")
    negative = mantissa.startswith("-")
    digits = mantissa.lstrip("-")[2:].replace(".", "")
    return f"{'-' if negative else ''}{int(digits, 16)}b{int(exponent) - 52}"


def _decimal(value: Any, where: str) -> str:
    if not isinstance(value, str) or not _DECIMAL.match(value):
        raise SidecarError(f"{where}: expected a decimal string, got {value!r}")
    return value


def has_limb_products(sidecar: dict[str, Any]) -> bool:
    """True for kernels with narrow or truncated limb products (multiplier =
    "truncated", gen/quantize/limbs.py), which this certificate does not model: their
    products are checked by tests/test_limbs.py and the model-versus-C test."""
    nodes = sidecar.get("nodes") if isinstance(sidecar, dict) else None
    return isinstance(nodes, list) and any(isinstance(n, dict) and ("drop" in n or n.get("narrow"))
                                           for n in nodes)


def _graph(sidecar: dict[str, Any], degree: int, word_bits: int) -> list[dict[str, Any]]:
    """The sidecar's node list, checked to be a well-formed scheme graph whose
    scales agree with its operations; adds the key "wide" to every node.

    A product's scale is the sum of its operands' scales minus W for a
    multiply-high, or the plain sum for a full 2W-bit product of two words
    ("wide"; read from the node's own "wide" field when the sidecar has
    one); a wide product of a 2W-bit operand keeps floor(a b / 2^W)
    ("floored", like a multiply-high).  A sum is wide
    when an operand is.  Every operand's scale minus its shift must equal
    the sum's scale.
    """
    raw = _field(sidecar, "nodes", "sidecar")
    if not isinstance(raw, list) or not raw:
        raise SidecarError("sidecar: 'nodes' is not a non-empty list")
    if has_limb_products(sidecar):
        raise SidecarError("sidecar: narrow or truncated limb products are not modelled by the Gappa certificate")
    raw = [dict(node) if isinstance(node, dict) else node for node in raw]  # the caller's stay untouched
    for n, node in enumerate(raw):
        where = f"sidecar: node {n}"
        kind = _field(node, "kind", where)
        args = _field(node, "args", where)
        scale = _integer(_field(node, "scale", where), where)
        if kind not in ("var", "const", "mul", "add", "ftail"):
            raise SidecarError(f"{where}: unknown kind {kind!r}")
        if not isinstance(args, list) or any(not isinstance(a, int) or not 0 <= a < n for a in args):
            raise SidecarError(f"{where}: args {args!r} must name earlier nodes")
        if kind == "ftail":
            node["wide"] = False
            if len(args) < 2 or raw[args[0]]["kind"] != "var" or any(raw[a]["kind"] != "const" for a in args[1:]):
                raise SidecarError(f"{where}: a tail node takes the input word and constants")
            continue
        if len(args) != {"var": 0, "const": 0, "mul": 2, "add": 2}[kind]:
            raise SidecarError(f"{where}: a {kind} node with {len(args)} operands")
        scales = [int(raw[a]["scale"]) for a in args]
        if kind == "var":
            node["wide"] = False
            if scale != word_bits:
                raise SidecarError(f"{where}: the input word's scale {scale} is not W = {word_bits}")
        elif kind == "const":
            node["wide"] = False
            if _integer(_field(node, "power", where), where) not in range(degree + 1):
                raise SidecarError(f"{where}: power {node['power']!r} outside 0..{degree}")
        elif kind == "mul":
            node["wide"] = node.get("wide", scale == sum(scales)) is True
            # A product of a 2W-bit word keeps the top 2W bits of three:
            # floor(a b / 2^W), like a multiply-high, into a 2W-bit word.
            node["floored"] = not node["wide"] or any(raw[a]["wide"] for a in args)
            if node["floored"] and any(raw[a]["wide"] for a in args) and not node["wide"]:
                raise SidecarError(f"{where}: a product of a 2W-bit word must be 2W bits wide")
            if scale != sum(scales) - (word_bits if node["floored"] else 0):
                raise SidecarError(f"{where}: scale {scale} does not follow from operand scales {scales}")
        else:
            terms = _field(node, "terms", where)
            if (not isinstance(terms, list) or len(terms) != len(args)
                    or any(not isinstance(tm, list) or len(tm) != 2 or tm[0] not in (1, -1) for tm in terms)):
                raise SidecarError(f"{where}: terms {terms!r} are not [sign, shift] pairs")
            node["wide"] = node.get("wide", any(raw[a]["wide"] for a in args)) is True
            if any(s - _integer(tm[1], where) != scale for s, tm in zip(scales, terms)):
                raise SidecarError(f"{where}: operand scales {scales} shifted by {terms} miss scale {scale}")
    if raw[-1]["kind"] in ("var", "const"):
        raise SidecarError("sidecar: the root (last node) is not a product or a sum")
    return raw


def segments(sidecar: dict[str, Any]) -> list[Segment]:
    """The per-segment node models of a sidecar, validated."""
    degree = _integer(_field(sidecar, "degree", "sidecar"), "sidecar: degree")
    word_bits = _integer(_field(sidecar, "word_bits", "sidecar"), "sidecar: word_bits")
    graph = _graph(sidecar, degree, word_bits)
    out = []
    for i, seg in enumerate(_field(sidecar, "segment_list", "sidecar")):
        where = f"segment {i}"
        ks = [_integer(k, where) for k in _field(seg, "coefficients", where)]
        if len(ks) != degree + 1:
            raise SidecarError(f"{where}: {len(ks)} coefficients for degree {degree}")
        nodes = []
        for n, raw in enumerate(graph):
            k = ks[int(raw["power"])] if raw["kind"] == "const" else None
            terms: tuple[Term, ...] = ()
            if raw["kind"] == "add":
                terms = tuple(Term(a, tm[0], _integer(tm[1], where),
                                   ks[int(graph[a]["power"])] if graph[a]["kind"] == "const" else None,
                                   tuple(graph[a]["args"]) if graph[a]["kind"] == "mul" and not graph[a]["wide"]
                                   else ())
                              for a, tm in zip(raw["args"], raw["terms"]))
            tail, tail_terms, relative = None, (), None
            if raw["kind"] == "ftail":
                found = _field(seg, "tail", where)
                tail = (str(_integer(found["range"][0], where)), str(_integer(found["range"][1], where)),
                        _decimal(found["error"][0], where), _decimal(found["error"][1], where))
                first = _integer(found["first_power"], where)
                tail_terms = tuple((_hex_double(b, where), first + i)
                                   for i, b in enumerate(_field(found, "coefficients", where)))
                if found.get("relative") is not None:
                    if found["relative"] != "1b-35":
                        raise SidecarError(f"{where}: unexpected relative bound {found['relative']!r}")
                    relative = found["relative"]
            nodes.append(Node(n, raw["kind"], tuple(raw["args"]), k, terms, raw["wide"], tail, tail_terms,
                              relative, raw.get("floored", False)))
        lo, hi = _field(seg, "eval_error_core", where)
        out.append(Segment(i, _integer(_field(seg, "z_first", where), where),
                           _integer(_field(seg, "z_last", where), where),
                           _integer(_field(seg, "t_max", where), where), tuple(nodes),
                           _decimal(lo, where), _decimal(hi, where)))
    if not out:
        raise SidecarError("sidecar: no segments")
    return out


def split_points(t_max: int, pre_shift: int, split: int) -> list[int]:
    """Cut points in T = t << g: 2^k for k = 0, 1, ... up to t_max / split
    (pieces whose width is their distance from 0, where Estrin's sums
    a_0 - a_1 v + a_2 v^2 are decided), then ``split`` equal pieces."""
    points = []
    start = 1
    while 2 * start <= t_max // split:
        points.append(start)
        start *= 2
    points += [start + (t_max - start) * k // split for k in range(1, split)]
    return sorted({p << pre_shift for p in points if 0 < p < t_max})


@functools.lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    """The script's template, compiled once per process."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True, autoescape=False)
    return env.get_template(TEMPLATE)


def render_script(sidecar: dict[str, Any], source: str = "",
                  only: Optional[Sequence[int]] = None, split: int = 1) -> str:
    """The Gappa script of a kernel: one proposition covering every segment,
    or only the segments listed in ``only`` (Gappa's time grows faster than
    linearly with the number of segments in one script, so a runner proves
    large kernels a segment at a time).  With ``split`` > 1 the script asks
    Gappa to cut each segment's input range into pieces (a dichotomy hint,
    :func:`split_points`): plain interval arithmetic over a whole segment
    ignores that an intermediate falling in v is added to a growing power of
    v, and can miss a range the generator proved piece by piece."""
    if split < 1:
        raise SidecarError(f"split {split} must be at least 1")
    word_bits = _integer(_field(sidecar, "word_bits", "sidecar"), "sidecar: word_bits")
    pre_shift = _integer(_field(_field(sidecar, "index", "sidecar"), "pre_shift", "sidecar: index"),
                         "sidecar: pre_shift")
    chosen = segments(sidecar)
    if only is not None:
        if any(not 0 <= i < len(chosen) for i in only):
            raise SidecarError(f"segments {list(only)} outside 0..{len(chosen) - 1}")
        chosen = [chosen[i] for i in only]
    return _template().render(
        name=_field(sidecar, "name", "sidecar"), source=source or "its sidecar",
        word_bits=word_bits, pre_shift=pre_shift, precision=PRECISION,
        word_max=(1 << word_bits) - 1,
        wide_max=(1 << (2 * word_bits)) - 1, segments=chosen,
        root_bias=_integer(sidecar.get("root_bias", 0), "sidecar: root_bias"),
        cuts={s.index: split_points(s.t_max, pre_shift, split) if split > 1 else [] for s in chosen})


def write_script(text: str, out: Optional[Path]) -> None:
    """A script to the file `out`, or to stdout when there is none."""
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text)


def sidecar_cli(argv: list[str] | None, prog: str, description: str,
                render: Callable[[dict[str, Any], str], str]) -> int:
    """The command line of a script writer that needs only the sidecar: the
    sidecar in, the script to -o or stdout; a bad sidecar is one line and
    exit status 2."""
    parser = argparse.ArgumentParser(prog=f"python3 -m certify.{prog}", description=description)
    parser.add_argument("sidecar", type=Path, help="generated/<name>/provenance/<name>.json")
    parser.add_argument("-o", "--out", type=Path, help="output file (default: stdout)")
    args = parser.parse_args(argv)
    try:
        text = render(load_sidecar(args.sidecar), str(args.sidecar))
    except SidecarError as exc:
        print(f"{prog}: error: {args.sidecar}: {exc}", file=sys.stderr)
        return 2
    write_script(text, args.out)
    return 0


def load_sidecar(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise SidecarError(f"cannot read sidecar: {exc}") from None
    if not isinstance(data, dict):
        raise SidecarError("sidecar is not a JSON object")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m certify.gappa_script", description=__doc__.splitlines()[0])
    parser.add_argument("sidecar", type=Path, help="generated/<name>/<name>.json")
    parser.add_argument("-o", "--out", type=Path, help="output file (default: stdout)")
    parser.add_argument("--segment", type=int, action="append",
                        help="only this segment (repeatable; default: all)")
    parser.add_argument("--split", type=int, default=1, help="pieces per segment for Gappa (default 1)")
    args = parser.parse_args(argv)
    try:
        text = render_script(load_sidecar(args.sidecar), str(args.sidecar), args.segment, args.split)
    except SidecarError as exc:
        print(f"gappa: error: {args.sidecar}: {exc}", file=sys.stderr)
        return 2
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
