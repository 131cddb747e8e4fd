"""Rewrite the generated sections of a Markdown file in place.

A section is the lines between a start marker and its end marker, each on
a line of its own:

    <!-- report:NAME -->
    ...generated content...
    <!-- /report:NAME -->

Only the lines strictly between the markers change; every other byte of
the file, the markers included, is kept.  A file with no marker, with a
start marker that is not closed (or closed by another name), an end marker
that was not opened, or a section inside another is refused with a
one-line MarkerError.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Optional

_MARKER = re.compile(r"^<!-- (/?)report:([a-z0-9_-]+) -->$")


class MarkerError(ValueError):
    """A file whose markers cannot be rewritten; the message is one line."""


@dataclass(frozen=True)
class Section:
    """One marked section: its name and the indices of its marker lines."""

    name: str
    start: int   # index of the start marker line
    end: int     # index of the end marker line


def _marker(line: str) -> Optional[tuple[bool, str]]:
    """(is_end, name) for a marker line, else None."""
    m = _MARKER.match(line.rstrip("\r\n"))
    return None if m is None else (m.group(1) == "/", m.group(2))


def sections(text: str, where: str) -> list[Section]:
    """The sections of `text` in order; MarkerError on unbalanced markers or
    on a file that has none (`where` names the file in the message)."""
    found: list[Section] = []
    open_name, open_at = None, -1
    for i, line in enumerate(text.splitlines(keepends=True)):
        marker = _marker(line)
        if marker is None:
            continue
        is_end, name = marker
        if not is_end and open_name is not None:
            raise MarkerError(f"{where}:{i + 1}: report:{name} starts inside report:{open_name}")
        if not is_end:
            open_name, open_at = name, i
        elif open_name != name:
            raise MarkerError(f"{where}:{i + 1}: /report:{name} closes "
                              + (f"report:{open_name}" if open_name else "nothing"))
        else:
            found.append(Section(name, open_at, i))
            open_name = None
    if open_name is not None:
        raise MarkerError(f"{where}:{open_at + 1}: report:{open_name} is never closed")
    if not found:
        raise MarkerError(f"{where}: no <!-- report:NAME --> markers")
    return found


def rewrite(text: str, where: str, render: Callable[[str], Optional[str]]) -> str:
    """`text` with each section's content replaced by render(name), or left
    as it is where render returns None.  The new content gets a final
    newline; the file's line endings elsewhere are untouched."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    done = 0
    for sec in sections(text, where):
        content = render(sec.name)
        if content is None:
            continue
        out.extend(lines[done:sec.start + 1])
        out.append(content if content.endswith("\n") else content + "\n")
        done = sec.end
    out.extend(lines[done:])
    return "".join(out)
