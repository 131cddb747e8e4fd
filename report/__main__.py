"""Rewrite the generated sections of README.md and docs/*.md from build/*.json.

    python3 -m report [--build build] [--source NAME=PATH ...] [FILE ...]

Every FILE (default: FILES below) must hold <!-- report:SECTION --> ...
<!-- /report:SECTION --> markers.  A section is rewritten when the JSON it
comes from exists, and left as it is otherwise; the command says which
sections it skipped and why.  All files are read and checked first: a file
without markers, with unbalanced markers or with an unknown section stops
the run with a one-line error and nothing is written.  Each file is then
written atomically, and only when its content changes, so a second run
with the same JSONs changes nothing.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Callable

from report import speed, tables
from report.common import ReportError, Skip, load_certify, load_json
from report.markers import MarkerError, rewrite, sections
from toolkit.files import write_text_atomic

ROOT = Path(__file__).resolve().parent.parent
FILES = ("README.md", "docs/abi.md", "docs/bench.md", "docs/certify.md", "docs/constant-time.md",
         "docs/error-model.md", "docs/falcon.md", "docs/m3.md")

# JSON name -> its path under the build folder.
SOURCES = {"audit": "audit.json", "bench": "bench.json", "candidates": "candidates/bench.json",
           "bench_sampler": "bench_sampler.json", "ct": "ct.json", "m3": "m3.json",
           "m3_variants": "m3_variants.json", "m4": "m4.json", "berexp": "berexp.json",
           "guard_sweep": "guard_sweep.json", "gappa": "certify", "sollya": "certify", "clamp": "clamp.json"}
# JSON names whose path is a folder of per-kernel files, with their pattern.
FOLDERS = {"gappa": "*.result.json", "sollya": "*.sollya.json"}

Renderer = Callable[[dict[str, Any], Path], str]
# Section name -> (JSON name, renderer).
SECTIONS: dict[str, tuple[str, Renderer]] = {
    "audit": ("audit", tables.audit),
    "audit-fpr": ("audit", tables.audit_fpr),
    "ct": ("ct", tables.ct),
    "berexp": ("berexp", tables.berexp),
    "berexp-errors": ("berexp", tables.berexp_errors),
    "berexp-sampler": ("berexp", tables.berexp_sampler),
    "bench": ("bench", speed.bench),
    "bench-full": ("bench", speed.bench_full),
    "bench-targets": ("bench", speed.bench_targets),
    "bench-tradeoff": ("bench", speed.bench_tradeoff),
    "bench-batch": ("bench", speed.bench_batch),
    "bench-candidates": ("candidates", speed.bench_candidates),
    "bench-sampler": ("bench_sampler", speed.bench_sampler),
    "bench-sampler-costs": ("bench_sampler", speed.bench_sampler_costs),
    "m3": ("m3", speed.m3),
    "m3-entries": ("m3", speed.m3_entries),
    "m3-variants": ("m3_variants", speed.m3_variants),
    "m4": ("m4", speed.m4),
    "m4-entries": ("m4", speed.m4_entries),
    "certify": ("gappa", tables.certify_gappa),
    "certify-sollya": ("sollya", tables.certify_sollya),
    "clamp": ("clamp", speed.clamp),
    "guard-sweep": ("guard_sweep", tables.guard_sweep),
}


def _sources(build: Path, overrides: list[str]) -> dict[str, Path]:
    """Every JSON name's path: under `build`, or as --source NAME=PATH says."""
    paths = {name: build / rel for name, rel in SOURCES.items()}
    for item in overrides:
        name, sep, path = item.partition("=")
        if not sep or name not in SOURCES:
            raise ReportError(f"--source {item!r}: expected NAME=PATH with NAME one of "
                              f"{', '.join(SOURCES)}")
        paths[name] = Path(path)
    return paths


def _read(path: Path) -> str | None:
    """The file's text with its line endings as they are (newline=""), or
    None when there is no such file."""
    if not path.is_file():
        return None
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def plan(files: list[Path], paths: dict[str, Path]) -> tuple[dict[Path, str], list[str]]:
    """The new text of every file that changes, and the skipped sections;
    ReportError or MarkerError before anything is written."""
    texts = {f: _read(f) for f in files}
    for f, text in texts.items():
        if text is None:
            raise ReportError(f"{f}: no such file")
        for sec in sections(text, str(f)):
            if sec.name not in SECTIONS:
                raise MarkerError(f"{f}:{sec.start + 1}: unknown section report:{sec.name} "
                                  f"(known: {', '.join(SECTIONS)})")
    cache: dict[str, dict[str, Any] | None] = {}
    skipped: list[str] = []

    def render(name: str) -> str | None:
        source, renderer = SECTIONS[name]
        path = paths[source]
        if source not in cache:
            if source in FOLDERS:
                cache[source] = load_certify(path, FOLDERS[source])
            else:
                cache[source] = load_json(path) if path.is_file() else None
        if cache[source] is None:
            skipped.append(f"{name} (no {path / FOLDERS[source] if source in FOLDERS else path})")
            return None
        # The file names the JSON relative to the repository, so the text
        # does not depend on where the work tree is.
        shown = path.resolve().relative_to(ROOT) if path.resolve().is_relative_to(ROOT) else path
        try:
            return renderer(cache[source], shown)  # type: ignore[arg-type]
        except Skip as exc:
            skipped.append(f"{name} ({exc})")
            return None
        except (KeyError, TypeError, ValueError) as exc:
            raise ReportError(f"{path}: cannot render report:{name}: {exc!r}") from None

    changed = {}
    for f, text in texts.items():
        assert text is not None
        new = rewrite(text, str(f), render)
        if new != text:
            changed[f] = new
    return changed, sorted(set(skipped))


def main(argv: list[str]) -> int:
    """Rewrite the files; 2 with a one-line error on bad input."""
    p = argparse.ArgumentParser(prog="python3 -m report", description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="*", type=Path, help=f"default: {' '.join(FILES)}")
    p.add_argument("--build", type=Path, default=ROOT / "build")
    p.add_argument("--source", action="append", default=[], metavar="NAME=PATH",
                   help="read one JSON from another path, e.g. berexp=build/falcon/berexp_quick.json")
    a = p.parse_args(argv)
    files = a.files or [ROOT / f for f in FILES]
    try:
        changed, skipped = plan(files, _sources(a.build, a.source))
    except (ReportError, MarkerError) as exc:
        print(f"report: error: {exc}", file=sys.stderr)
        return 2
    for f, text in changed.items():
        write_text_atomic(f, text)
    print(f"report: rewrote {len(changed)} of {len(files)} file(s)"
          + "".join(f"\n  {f}" for f in changed))
    for s in skipped:
        print(f"report: skipped {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
