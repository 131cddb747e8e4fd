"""A candidate's config as TOML text: the flat keys, then the [segments]
table; strings, integers, floats, booleans and lists of strings only (all a
generated config holds).  tomllib reads it back to the same dict (tested)."""
from __future__ import annotations

import json
from typing import Any


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)      # a JSON string is a valid TOML basic string
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise TypeError(f"no TOML form for {type(v).__name__}")


def dumps(config: dict[str, Any], header: str = "") -> str:
    """The TOML text; `header` (lines without '#') becomes a comment on top."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    tables = {k: v for k, v in config.items() if isinstance(v, dict)}
    lines += [f"{k} = {_value(v)}" for k, v in config.items() if not isinstance(v, dict)]
    for name, table in tables.items():
        lines += ["", f"[{name}]"] + [f"{k} = {_value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"
