"""Atomic file writes: a reader, or a run that fails half-way, never sees a
half-written file."""
from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def _umask() -> int:
    """The process's umask (reading it means setting it, so set it back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same folder and
    os.replace, so the file holds either its old or its new content."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        # mkstemp makes the file private; give it the mode the file had, or
        # the usual one for a new file.
        os.chmod(tmp, stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
