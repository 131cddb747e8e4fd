"""The fixed-point helpers of ``runtime/fxp.h`` as one kernel header carries
them: only the definitions the kernel reaches and no include guard (the
kernel header has its own); :func:`rename` then gives every ``fxp_``
identifier the prefix ``<name>_fxp_``, so that two kernels in one program
never share or shadow a helper.

``runtime/fxp.h`` is read as a sequence of items: a definition (function,
typedef, ``#define``) with the comment before it, and ``#if`` groups whose
branches hold items.  An item is kept when something kept uses a name it
defines; a group is kept, with every branch, when any of its items is, and
the macros its conditions test are then needed too.  Nothing is reordered
or rewritten but the names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Union

from ..errors import GenError

RUNTIME = Path(__file__).resolve().parent.parent.parent / "runtime" / "fxp.h"
_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_DEFINES = (re.compile(r"^static inline [^(]*?\b(\w+)\s*\(", re.M),   # functions
            re.compile(r"^(?:typedef struct \{[^}]*)?}\s*(\w+)\s*;", re.M),  # typedef struct { ... } name;
            re.compile(r"^(?:__extension__ )?typedef [^;{]*\b(\w+)\s*;", re.M),
            re.compile(r"^#define (\w+)", re.M))
GUARD = "FXP_H"


@dataclass
class Item:
    """One definition and the comment above it."""

    lines: list[str]
    defines: set[str]
    uses: set[str]


@dataclass
class Group:
    """An #if ... #endif group: (directive, items) per branch."""

    comment: list[str]
    branches: list[tuple[str, list["Node"]]] = field(default_factory=list)
    end: str = ""


Node = Union[Item, Group]


def _code(text: str) -> str:
    return _COMMENT.sub(" ", text)


def _item(lines: list[str]) -> Item:
    code = _code("\n".join(lines))
    defines = {m.group(1) for pattern in _DEFINES for m in pattern.finditer(code)}
    return Item(lines, defines, set(_IDENT.findall(code)) - defines)


class _Parser:
    """Splits the runtime into items at blank lines outside braces and comments."""

    def __init__(self) -> None:
        self.root: list[Node] = []
        self.stack: list[list[Node]] = [self.root]
        self.groups: list[Group] = []
        self.paragraph: list[str] = []
        self.comment: list[str] = []
        self.in_comment = False
        self.depth = 0

    def flush(self) -> None:
        if not self.paragraph:
            return
        if not _code("\n".join(self.paragraph)).strip():   # a comment on its own: it goes with the next item
            self.comment += self.paragraph + [""]
        else:
            self.stack[-1].append(_item(self.comment + self.paragraph))
            self.comment = []
        self.paragraph = []

    def directive(self, line: str) -> None:
        self.flush()
        keyword = line.strip()[1:].split()[0]
        if keyword in ("if", "ifdef", "ifndef"):
            group = Group(self.comment, [(line, [])])
            self.comment = []
            self.stack[-1].append(group)
            self.groups.append(group)
            self.stack.append(group.branches[0][1])
        elif keyword in ("elif", "else"):
            self.stack.pop()
            self.groups[-1].branches.append((line, []))
            self.stack.append(self.groups[-1].branches[-1][1])
        elif keyword == "endif":
            self.stack.pop()
            self.groups.pop().end = line
        else:
            self.stack[-1].append(_item(self.comment + [line]))
            self.comment = []

    def track(self, line: str) -> None:
        """Follow comments and braces through one line."""
        i = 0
        while i < len(line):
            if self.in_comment:
                end = line.find("*/", i)
                if end < 0:
                    return
                self.in_comment, i = False, end + 2
            else:
                start = line.find("/*", i)
                code = line[i:] if start < 0 else line[i:start]
                self.depth += code.count("{") - code.count("}")
                if start < 0:
                    return
                self.in_comment, i = True, start + 2

    def feed(self, line: str) -> None:
        top = not self.in_comment and self.depth == 0
        if top and line.startswith("#") and not line.startswith("#define"):
            self.directive(line)
        elif top and not line.strip():
            self.flush()
        else:
            self.paragraph.append(line)
            self.track(line)


def parse(text: str) -> list[Node]:
    """The items of a runtime header's body (guard and stdint include removed)."""
    parser = _Parser()
    for line in text.splitlines():
        parser.feed(line)
    parser.flush()
    if parser.groups or parser.depth or parser.in_comment:
        raise GenError("runtime/fxp.h: unbalanced #if, braces or comment")
    return parser.root


def _defined(nodes: list[Node], out: set[str]) -> set[str]:
    for node in nodes:
        if isinstance(node, Item):
            out |= node.defines
        else:
            for _, body in node.branches:
                _defined(body, out)
    return out


def _mark(nodes: list[Node], need: set[str], known: set[str]) -> bool:
    """Add to `need` what the needed items of `nodes` use; True if any is needed."""
    kept = False
    for node in nodes:
        if isinstance(node, Item):
            if node.defines & need:
                need |= node.uses & known
                kept = True
        elif any([_mark(body, need, known) for _, body in node.branches]):
            for directive, _ in node.branches:
                need |= set(_IDENT.findall(directive)) & known
            kept = True
    return kept


def _emit(nodes: list[Node], need: set[str], out: list[str]) -> None:
    for node in nodes:
        if isinstance(node, Item):
            if node.defines & need:
                out += node.lines + [""]
            continue
        bodies = []
        for directive, body in node.branches:
            lines: list[str] = []
            _emit(body, need, lines)
            bodies.append((directive, lines))
        if any(lines for _, lines in bodies):
            out += node.comment
            for directive, lines in bodies:
                out += [directive] + lines[:-1]   # no blank line before the next directive
            out += [node.end, ""]


def _body(text: str) -> str:
    """The runtime header without its include guard and its stdint include."""
    head, sep, rest = text.partition(f"#ifndef {GUARD}\n#define {GUARD}\n")
    body, sep2, _ = rest.rpartition(f"#endif /* {GUARD} */")
    if not sep or not sep2:
        raise GenError(f"runtime/fxp.h: include guard {GUARD} not found")
    return body.replace("#include <stdint.h>\n", "", 1)


def runtime_for(kernel_text: str, source: str | None = None) -> str:
    """The helpers of runtime/fxp.h (or of `source`) that `kernel_text`
    reaches, in their order there; empty if it uses none.  The caller
    renames them (:func:`rename`) with the kernel's code."""
    nodes = parse(_body(source if source is not None else RUNTIME.read_text()))
    known = _defined(nodes, set())
    need = set(_IDENT.findall(_code(kernel_text))) & known
    while True:
        before = len(need)
        _mark(nodes, need, known)
        if len(need) == before:
            break
    lines: list[str] = []
    _emit(nodes, need, lines)
    return "\n".join(lines).strip("\n") + "\n" if lines else ""


def rename(text: str, prefix: str) -> str:
    """Every fxp_ identifier of `text` with `prefix` instead."""
    return re.sub(r"\bfxp_(\w)", lambda m: prefix + m.group(1), text)
