"""The vendored form of a rendered header: the same C tokens, fewer lines.

The annotated header (every comment of the templates and runtime/fxp.h,
kept in the kernel folder's provenance/) is turned into the header a user
vendors by:

* dropping every comment except documentation comments, ``/** ... */``
  (the interface, the formats and the constant-time assumptions);
* opening each function's brace on its signature's line, and writing a
  function whose body is one statement on one line when it fits;
* no blank line between two functions, after ``#if``/``#else`` or before
  ``#else``/``#endif``, and at most one in a row.

Only comments and white space change, so the compiler sees the same tokens
(tests/test_vendor.py compares the two headers' machine code).
"""

from __future__ import annotations

import re

WIDTH = 120
_ONE_LINE = re.compile(r"^(static inline .*\)|#define .*|typedef .*;|.*\) \{ .* \})$")


_TOKENS = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', re.S)


def strip_comments(text: str) -> str:
    """`text` without its non-documentation comments; a line left empty by
    the removal disappears, and a comment after code leaves the code.
    String and character literals are skipped whole."""
    def keep(m: re.Match[str]) -> str:
        token = m.group(0)
        if token[0] in "\"'" or (token.startswith("/**") and token != "/**/"):
            return token
        return "\0"                        # marks where a comment was
    lines = []
    for line in _TOKENS.sub(keep, text).split("\n"):
        if "\0" in line:
            line = line.replace("\0", "").rstrip()
            if not line.strip():
                continue
        lines.append(line)
    return "\n".join(lines)


def _braces(lines: list[str]) -> list[str]:
    """Function braces on the signature's line; one-statement bodies on one line."""
    out: list[str] = []
    for line in lines:
        if line == "{" and out and out[-1].endswith(")") and not out[-1].startswith((" ", "#")):
            out[-1] += " {"
        else:
            out.append(line)
    joined: list[str] = []
    i = 0
    while i < len(out):
        line = out[i]
        if (line.endswith(") {") and not line.startswith((" ", "#")) and i + 2 < len(out)
                and out[i + 2] == "}" and out[i + 1].startswith("    ")
                and not out[i + 1].lstrip().startswith(("#", "/*"))):
            candidate = f"{line} {out[i + 1].strip()} }}"
            if len(candidate) <= WIDTH:
                joined.append(candidate)
                i += 3
                continue
        joined.append(line)
        i += 1
    return joined


def _blank_lines(lines: list[str]) -> list[str]:
    out: list[str] = []
    for i, line in enumerate(lines):
        if line.strip():
            out.append(line)
            continue
        following = next((x for x in lines[i + 1:] if x.strip()), "")
        if (not out or not out[-1].strip() or out[-1].startswith(("#if", "#else", "#elif"))
                or following.startswith(("#endif", "#else", "#elif"))
                or (_ONE_LINE.match(out[-1]) and _ONE_LINE.match(following))
                or (out[-1] == "}" and following.startswith("static inline"))):
            continue
        out.append("")
    while out and not out[-1].strip():
        out.pop()
    return out


def lean(text: str) -> str:
    """The vendored form of the annotated header `text`."""
    lines = [line.rstrip() for line in strip_comments(text).split("\n")]
    return "\n".join(_blank_lines(_braces(lines))) + "\n"
