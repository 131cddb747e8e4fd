"""A content-addressed cache on disk: one JSON file per result, named by the
SHA-256 of the canonical JSON of its inputs (build/explore/cache/<sha>.json),
so a result is reused exactly when every input is the same and a changed
input can never hit a stale entry."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Callable

from toolkit.files import write_text_atomic


def key(inputs: dict[str, Any]) -> str:
    """The SHA-256 (hex) of the inputs' canonical JSON."""
    text = json.dumps(inputs, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cached(folder: Path, inputs: dict[str, Any], compute: Callable[[], dict[str, Any]]) -> tuple[dict[str, Any], bool]:
    """The result for `inputs`, from the cache when present (True) or
    computed and stored (False).  The stored file repeats the inputs, so an
    entry can be read on its own."""
    path = folder / f"{key(inputs)}.json"
    if path.is_file():
        try:
            return json.loads(path.read_text(encoding="utf-8"))["result"], True
        except (ValueError, KeyError):
            pass    # a damaged entry is recomputed and rewritten
    result = compute()
    write_text_atomic(path, json.dumps({"inputs": inputs, "result": result}, indent=1, sort_keys=True) + "\n")
    return result, False
