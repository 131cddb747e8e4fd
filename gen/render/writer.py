"""Writing a rendered kernel to disk: each file atomically (a temporary file
in the same folder, flushed, then ``os.replace``), and only if its content
changed."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Optional


def write_atomic(folder: Path, files: dict[str, str], prune: Optional[set[str]] = None) -> list[str]:
    """Write each file atomically if its content changed; return the names written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for filename, content in sorted(files.items()):
        target = folder / filename
        if target.exists() and target.read_text() == content:
            continue
        fd, tmp = tempfile.mkstemp(prefix=f".{filename}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, target)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        written.append(filename)
    if prune:
        for stale in sorted(prune - set(files)):
            (folder / stale).unlink(missing_ok=True)
    return written

