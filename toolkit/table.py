"""The one table printer of the tools: plain text for the terminal and
Markdown for the docs, from the same header and rows.

    render(header, rows, style="text" | "markdown", align=None) -> str

A cell is printed with str(), except None, printed "-".  `align` is one
letter per column, "l" or "r"; by default the first column (a name) is
left-aligned and the others (figures) right-aligned.  Plain text separates
columns by two spaces and rules the header off with dashes; Markdown is a
GitHub pipe table whose cells have their "|" escaped.
"""
from __future__ import annotations

from typing import Optional, Sequence

STYLES = ("text", "markdown")


def _cell(value: object) -> str:
    return "-" if value is None else str(value)


def _check(header: Sequence[str], rows: Sequence[Sequence[object]], align: str) -> None:
    """A ragged table or a bad alignment string is a programming error."""
    for i, row in enumerate(rows):
        if len(row) != len(header):
            raise ValueError(f"table row {i} has {len(row)} cells, the header {len(header)}")
    if len(align) != len(header) or set(align) - {"l", "r"}:
        raise ValueError(f"align must be one l or r per column, got {align!r}")


def text(header: Sequence[str], rows: Sequence[Sequence[object]], align: Optional[str] = None) -> str:
    """Columns padded to their widest cell, two spaces apart, a dashed rule
    under the header; no trailing spaces."""
    align = align or "l" + "r" * (len(header) - 1)
    _check(header, rows, align)
    cells = [list(header)] + [[_cell(v) for v in row] for row in rows]
    widths = [max(len(r[j]) for r in cells) for j in range(len(header))]

    def line(row: Sequence[str]) -> str:
        padded = (c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(row, widths, align))
        return "  ".join(padded).rstrip()

    return "\n".join([line(cells[0]), "  ".join("-" * w for w in widths)]
                     + [line(r) for r in cells[1:]])


def markdown(header: Sequence[str], rows: Sequence[Sequence[object]],
             align: Optional[str] = None) -> str:
    """A Markdown pipe table; right-aligned columns get a "---:" rule."""
    align = align or "l" + "r" * (len(header) - 1)
    _check(header, rows, align)

    def line(row: Sequence[object]) -> str:
        return "| " + " | ".join(_cell(v).replace("|", "\\|") for v in row) + " |"

    rule = "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|"
    return "\n".join([line(header), rule] + [line(r) for r in rows])


def render(header: Sequence[str], rows: Sequence[Sequence[object]], style: str = "text",
           align: Optional[str] = None) -> str:
    """The table in `style` ("text" or "markdown")."""
    if style == "text":
        return text(header, rows, align)
    if style == "markdown":
        return markdown(header, rows, align)
    raise ValueError(f"unknown table style {style!r} (one of {', '.join(STYLES)})")
