"""The generator's fingerprint: a SHA-256 of every file that decides what
it writes (the generator's Python, the templates, the runtime helpers and
the Gappa script writer).  Generated headers state it instead of a version
number, so two renders with the same fingerprint and the same config are
the same bytes, and a changed generator shows in every header.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("gen/**/*.py", "templates/**/*.j2", "runtime/fxp.h", "certify/gappa_script.py")


def source_files() -> list[Path]:
    """The files the fingerprint covers, in a fixed order."""
    files = {p for pattern in SOURCES for p in ROOT.glob(pattern) if p.is_file()}
    return sorted(files, key=lambda p: p.relative_to(ROOT).as_posix())


@lru_cache(maxsize=1)
def generator_sha256() -> str:
    """SHA-256 over the relative path and the bytes of every source file."""
    h = hashlib.sha256()
    for path in source_files():
        rel = path.relative_to(ROOT).as_posix().encode()
        data = path.read_bytes()
        h.update(len(rel).to_bytes(4, "big") + rel + len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def short() -> str:
    """The first 16 hex digits, as headers print it."""
    return generator_sha256()[:16]
