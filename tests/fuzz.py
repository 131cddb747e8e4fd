"""Config fuzzing: random mutations of the shipped configs (bytes, lines,
keys, values, types) through the generator's command line, in process.

Each mutation must either render a kernel that compiles (C99, -Wall
-Wextra -Wpedantic -Werror) and passes a quick check (_eval, and the
Falcon adaptors where there are any, within their proven bounds of
mpmath at 40 digits), or exit with status 2 and one line on stderr,
leaving the output folder as it was.  A traceback or status 3 (a bug of
the generator) fails the run.

Builds are the slow part (up to 20 s for a shipped config), so a kernel
is built once per meaning: configs that differ only in name, description,
comments or layout share a build, and every new meaning is built before
the run, in parallel (gen.kernel.build is wrapped for the run).  A valid
config of more than MAX_SEGMENTS segments (10 s and more to build) is
skipped and counted, not checked; the run draws mutations until `count`
are checked.  Everything is a pure function of the seed.

Usage: python3 -m tests.fuzz [--count N] [--seed S] [--max-segments N]   (make fuzz)
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import json
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Optional
from unittest import mock

import mpmath

import kfolder
from gen import __main__ as cli
from gen import config, expr, kernel
from gen.errors import GenError
from tests.helpers import KERNELS, shipped_kernels, shipped_kernels_built, tree_hash

KEYS = sorted(config.TOP_KEYS) + ["kind", "count", "bits", "values", "scale", "scales"]
VALUES = ["0", "1", "2", "3", "-1", "63", "64", "65", "4097", "9223372036854775808", "1e999", "nan", "inf",
          "-inf", "0.5", "1e-320", "true", "false", '""', '"x"', '"*/ #error injected /*"', '"??/"',
          '"' + "d" * 200 + '"', '"\\u0000"', '"\\n"', '"exp(-x)"', '"log(0)"', '"sqrt(-1)"', '"1/0"',
          '"ln2"', '"x"', '"fxp"', '"stdint"', '"int"', '"eval"', '"a__b"', '"Bad"', "[]", "[1]",
          '["0", "ln2"]', '["log(0)", "ln2"]', '["0"]', "[[1]]", "{}", '{kind = "pow2", bits = 3}',
          '"direct"', '"ct_scan"', '"estrin"', '"one_minus"', '"truncated"', '"sram"', '"relative"']


def _lines(text: str) -> list[str]:
    return text.split("\n")


def flip_byte(rng: random.Random, text: str) -> str:
    data = bytearray(text.encode())
    data[rng.randrange(len(data))] = rng.choice([rng.randrange(256), rng.randrange(32, 127)])
    return data.decode("utf-8", errors="replace")


def insert_bytes(rng: random.Random, text: str) -> str:
    i = rng.randrange(len(text) + 1)
    junk = rng.choice(["\x00", "\n", "=", "[", "]", '"', "'", "#", "\\", "*/", "\u00e9", " " * 3,
                       str(rng.randrange(10 ** 6))])
    return text[:i] + junk + text[i:]


def delete_bytes(rng: random.Random, text: str) -> str:
    i = rng.randrange(len(text))
    return text[:i] + text[i + rng.randint(1, 8):]


def delete_line(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def duplicate_line(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines.insert(rng.randrange(len(lines) + 1), lines[i])
    return "\n".join(lines)


def swap_lines(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _assignments(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if re.match(r"\s*[a-z_]+\s*=", line)]


def _edit_assignment(rng: random.Random, text: str, edit: Callable[[str, str], str]) -> str:
    """One `key = value` line of text replaced by edit(key, value)."""
    lines = _lines(text)
    found = _assignments(lines)
    if not found:
        return text
    i = rng.choice(found)
    lines[i] = edit(*lines[i].split("=", 1))
    return "\n".join(lines)


def replace_value(rng: random.Random, text: str) -> str:
    return _edit_assignment(rng, text, lambda key, _: f"{key}= {rng.choice(VALUES)}")


def rename_key(rng: random.Random, text: str) -> str:
    return _edit_assignment(rng, text, lambda _, value: rng.choice(KEYS + ["Name", "degre", "x y"]) + " =" + value)


def add_key(rng: random.Random, text: str) -> str:
    head, sep, tail = text.partition("\n[")
    return head + f"\n{rng.choice(KEYS)} = {rng.choice(VALUES)}" + sep + tail


def change_name(rng: random.Random, text: str) -> str:
    new = rng.choice(['"fxp"', '"stdint"', '"string"', '"int"', '"eval"', '"total"', '"a__b"', '"x_"', '"9x"',
                      '"' + "k" * 49 + '"', f'"fz{rng.randrange(10 ** 6)}"', f'"fz_{rng.randrange(100)}"'])
    return re.sub(r"(?m)^name\s*=.*$", "name = " + new, text)


def change_description(rng: random.Random, text: str) -> str:
    new = rng.choice(['"x */ #error injected /*"', '"a ??/ b ??= c"', '"ends with a backslash \\\\"',
                      '"tab\\there"', '"line\\nbreak"', '"' + "w" * 121 + '"', '"caf\u00e9 \u2028"',
                      '"/* nested */"', f'"fuzz {rng.random()}"'])
    if re.search(r"(?m)^description\s*=", text):
        return re.sub(r"(?m)^description\s*=.*$", lambda _: "description = " + new, text)
    return "description = " + new + "\n" + text


MUTATORS: list[Callable[[random.Random, str], str]] = [
    flip_byte, insert_bytes, delete_bytes, delete_line, duplicate_line, swap_lines,
    replace_value, replace_value, rename_key, add_key, change_name, change_name,
    change_description, change_description]


def mutate(rng: random.Random, text: str) -> str:
    """One to three mutations of `text`."""
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        text = rng.choice(MUTATORS)(rng, text)
    return text


def meaning(cfg: config.KernelConfig) -> str:
    """What a kernel's build depends on: the config without its identity."""
    return repr(dataclasses.replace(cfg, path="", sha256="", name="", description=""))


class Builds:
    """gen.kernel.build, once per meaning (results and refusals alike)."""

    def __init__(self, real: Callable[[config.KernelConfig], kernel.Kernel]) -> None:
        self.real = real
        self.done: dict[str, Any] = {}
        self.fresh = 0

    def __call__(self, cfg: config.KernelConfig) -> kernel.Kernel:
        key = meaning(cfg)
        if key not in self.done:
            self.fresh += 1
            try:
                self.done[key] = self.real(cfg)
            except GenError as exc:
                self.done[key] = exc
        result = self.done[key]
        if isinstance(result, GenError):
            raise result
        return dataclasses.replace(result, cfg=cfg)


@dataclasses.dataclass
class Report:
    """What a run found: counts, and every broken promise."""

    count: int = 0
    refused: int = 0
    skipped: int = 0
    built: int = 0
    rendered: dict[str, str] = dataclasses.field(default_factory=dict)   # header text -> sidecar text
    problems: list[str] = dataclasses.field(default_factory=list)


MAX_SEGMENTS = 16


def _one(text: str, work: Path, out: Path, report: Report) -> None:
    """Run the command line on one mutated config and check its promise."""
    path = work / "fuzz.toml"
    path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
    before = tree_hash(out)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            status = cli.main(["render", str(path), "--out", str(out), "--quiet"])
        except BaseException as exc:      # a traceback: the promise is broken
            report.problems.append(f"{type(exc).__name__}: {exc} for config:\n{text}")
            return
    lines = err.getvalue().strip().splitlines()
    if status == 2:
        report.refused += 1
        if len(lines) != 1 or not lines[0].startswith("gen: error: "):
            report.problems.append(f"exit 2 with {len(lines)} line(s) {lines[:3]} for config:\n{text}")
        if tree_hash(out) != before:
            report.problems.append(f"a refused config changed the output folder:\n{text}")
        return
    if status != 0:
        report.problems.append(f"exit {status}: {lines[:3]} for config:\n{text}")
        return
    name = config.load(path).name
    k = kfolder.load(out, name)
    report.rendered.setdefault(k.header.read_text(), k.sidecar_path.read_text())
    shutil.rmtree(out / name)


def _meaning_of(text: str, work: Path) -> Optional[tuple[str, config.KernelConfig]]:
    """(meaning, config) of a config text that validates, else None."""
    path = work / "pre.toml"
    path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
    try:
        cfg = config.load(path)
    except GenError:
        return None
    return meaning(cfg), cfg


def _segments(cfg: config.KernelConfig) -> int:
    """How many segments cfg asks for (a cheap stage of its own)."""
    from gen import segments
    if cfg.eft is not None:
        return cfg.segment_count      # form eft: round(16 x), no segmentation stage
    try:
        return segments.segment(cfg).count
    except GenError:
        return 0


def _draw(count: int, seed: int, work: Path, known: set[str], max_segments: int
          ) -> tuple[list[str], dict[str, config.KernelConfig], int]:
    """Mutations until `count` are checkable, the new meanings to build
    first, and how many were skipped (valid, new and too long to build)."""
    rng = random.Random(seed)
    bases = {n: (KERNELS / f"{n}.toml").read_text() for n in shipped_kernels()}
    texts: list[str] = []
    fresh: dict[str, config.KernelConfig] = {}
    skipped = 0
    while len(texts) < count:
        text = mutate(rng, bases[rng.choice(sorted(bases))])
        found = _meaning_of(text, work)
        if found is not None and found[0] not in known and found[0] not in fresh:
            if _segments(found[1]) > max_segments:
                skipped += 1
                continue
            fresh[found[0]] = found[1]
        texts.append(text)
    return texts, fresh, skipped


def run(count: int, seed: int, work: Path, max_segments: int = MAX_SEGMENTS) -> Report:
    """`count` checked mutations of the shipped configs from `seed`."""
    builds = Builds(kernel.build)
    cheap = {n: config.load(KERNELS / f"{n}.toml") for n in shipped_kernels()}
    cheap = {n: c for n, c in cheap.items() if _segments(c) <= max_segments}
    for name, k in shipped_kernels_built(list(cheap)).items():    # shared with the other tests
        builds.done[meaning(k.cfg)] = k
    texts, fresh, skipped = _draw(count, seed, work, set(builds.done), max_segments)
    for key, result in zip(fresh, kernel.build_many(list(fresh.values()))):
        builds.done[key] = result
    out = work / "out"
    (out / "keep").mkdir(parents=True)
    (out / "keep" / "mine.c").write_text("/* a user's file */\n")
    (out / "NOTES.txt").write_text("a user's notes\n")
    report = Report(skipped=skipped, built=len(fresh))
    with mock.patch.object(kernel, "build", builds):
        for text in texts:
            _one(text, work, out, report)
            report.count += 1
    if not (out / "keep" / "mine.c").is_file() or not (out / "NOTES.txt").is_file():
        report.problems.append("a user's file in the output folder disappeared")
    report.problems += quick_check(report.rendered, work)
    return report


# ------------------------------------------------------------ quick check

_PROBE = """
#include <stdio.h>
{includes}
int main(void)
{{
{calls}
    return 0;
}}
"""


def _points(k: kfolder.Kernel, rng: random.Random) -> list[int]:
    lo, hi = int(k.sidecar["z_lo"]), int(k.sidecar["z_max"])
    return sorted({lo, hi, (lo + hi) // 2, *(rng.randint(lo, hi) for _ in range(13))})


def _bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _calls(k: kfolder.Kernel, rng: random.Random) -> tuple[list[str], list[tuple[str, Any, float]]]:
    """C statements printing outputs, and (label, exact value, bound) for each."""
    name, W, S = k.name, k.word_bits, k.scale_bits
    tree = expr.parse(k.sidecar["function"], "function")
    statements, expected = [], []
    with mpmath.workdps(40):
        for z in _points(k, rng) if k.fixed_point else ():     # form eft has no _eval
            statements.append(f'    printf("%llu\\n", (unsigned long long){name}_eval(UINT{W}_C({z})));')
            exact = expr.evaluate(tree, mpmath.mpf(z) / 2 ** W, mpmath.mp) * 2 ** S
            expected.append((f"{name}_eval({z})", exact, k.eval_bound_ulp or 0.0))
        if k.falcon_adaptors:
            for _ in range(4):
                x, c = rng.uniform(0, 0.69), rng.uniform(0.6, 1.0)
                statements.append(f'    printf("%llu\\n", (unsigned long long){name}_fpr_expm_p63(UINT64_C({_bits(x)}), '
                                  f'UINT64_C({_bits(c)})));')
                exact = mpmath.mpf(c) * mpmath.exp(-mpmath.mpf(x)) * 2 ** 63
                expected.append((f"{name}_fpr_expm_p63({x!r}, {c!r})", exact, k.fpr_bound_2p63 or 0.0))
    return statements, expected


def _code(header: str) -> str:
    """A header's C: without its banner and the content hash (which name the render)."""
    return re.sub(r"0x[0-9a-f]{16}u\b", "", header.split("*/\n", 1)[1])


def quick_check(rendered: dict[str, str], work: Path) -> list[str]:
    """Compile every distinct rendered kernel (banners aside) and compare
    its outputs; kernels of distinct names share a program, so their
    helpers must not collide either."""
    rng = random.Random(0)
    distinct: dict[str, tuple[str, str]] = {}
    for header, sidecar in rendered.items():
        distinct.setdefault(_code(header), (header, sidecar))
    programs: list[dict[str, tuple[str, str]]] = []
    for header, sidecar in distinct.values():
        name = json.loads(sidecar)["name"]
        slot = next((p for p in programs if name not in p), None)
        if slot is None:
            slot = {}
            programs.append(slot)
        slot[name] = (header, sidecar)
    jobs = []
    for i, program in enumerate(programs):
        folder = work / f"probe{i}"
        kernels = []
        for name, (header, sidecar) in program.items():
            (folder / name / "provenance").mkdir(parents=True)
            (folder / name / f"{name}.h").write_text(header)
            (folder / name / "provenance" / f"{name}.json").write_text(sidecar)
            kernels.append(kfolder.load(folder, name))
        calls, expected = [], []
        for k in kernels:
            c, e = _calls(k, rng)
            calls += c
            expected += e
        (folder / "probe.c").write_text(_PROBE.format(
            includes="".join(f'#include "{k.name}/{k.name}.h"\n' for k in kernels), calls="\n".join(calls)))
        jobs.append((folder, kernels, expected))
    with ThreadPoolExecutor(max_workers=2) as pool:
        return [p for found in pool.map(lambda job: _probe(*job), jobs) for p in found]


def _probe(folder: Path, kernels: list[kfolder.Kernel], expected: list[tuple[str, Any, float]]) -> list[str]:
    """Build and run one probe program; the broken promises it shows."""
    flags = sorted({flag for k in kernels for flag in k.cflags})
    build = subprocess.run(["gcc", "-std=c99", "-O1", "-Wall", "-Wextra", "-Wpedantic", "-Werror", *flags,
                            f"-I{folder}", str(folder / "probe.c"), "-o", str(folder / "probe")],
                           capture_output=True, text=True)
    if build.returncode != 0:
        return _alone(kernels, folder) + [f"kernels {[k.name for k in kernels]} do not compile together: "
                                          f"{build.stderr[:300]}"]
    outputs = subprocess.run([str(folder / "probe")], capture_output=True, text=True, check=True).stdout.split()
    problems = []
    for (label, exact, bound), got in zip(expected, outputs):
        if abs(int(got) - exact) > bound:
            problems.append(f"{label} = {got}, off by {mpmath.nstr(abs(int(got) - exact), 6)} > bound {bound}")
    return problems


def summary(report: Report, seed: int) -> str:
    """One line: what the run did and found."""
    codes = {_code(header) for header in report.rendered}
    return (f"{report.count} mutations checked (seed {seed}): {report.refused} refused with one line, "
            f"{report.count - report.refused} rendered ({len(codes)} distinct kernels compiled and checked, "
            f"{report.built} new builds); {report.skipped} valid configs of more than {MAX_SEGMENTS} "
            f"segments skipped; {len(report.problems)} problem(s)")


def _alone(kernels: list[kfolder.Kernel], folder: Path) -> list[str]:
    """Which of `kernels` fail to compile on their own, and why."""
    problems = []
    for k in kernels:
        src = folder / f"alone_{k.name}.c"
        src.write_text(f'#include "{k.name}/{k.name}.h"\nint main(void) {{ return 0; }}\n')
        done = subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", *k.cflags,
                               f"-I{folder}",
                               "-c", str(src), "-o", str(folder / "alone.o")], capture_output=True, text=True)
        if done.returncode != 0:
            problems.append(f"{k.name} ({k.sidecar.get('parameters')}) does not compile: {done.stderr[:300]}")
    return problems


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tests.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-segments", type=int, default=MAX_SEGMENTS,
                        help="build new configs of at most this many segments (more: skipped and counted)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fuzz") as tmp:
        report = run(args.count, args.seed, Path(tmp), args.max_segments)
    print(summary(report, args.seed))
    for problem in report.problems[:20]:
        print(problem)
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
