"""What the Gappa scripts of forms fold and twin share (certify/gappa_fold.py,
certify/gappa_twin.py): the sidecar's per-piece claims of a binary64 part,
and the script around the goals.  Each form's module decodes its own
claims into goals; this one writes everything else."""

from __future__ import annotations

from typing import Any, Sequence

from certify.gappa_script import PRECISION, SidecarError


def claims(sidecar: dict[str, Any], form: str) -> list[list[str]]:
    """The sidecar's ``<form>.binary64`` claims, checked for presence."""
    try:
        rows = sidecar[form]["binary64"]["claims"]
    except (KeyError, TypeError):
        raise SidecarError(f"no {form}.binary64 claims (render the kernel again with this generator)") from None
    if not rows:
        raise SidecarError(f"{form}.binary64 has no claims")
    return rows


def script(module: str, title: str, source: str, about: Sequence[str], body: Sequence[str],
           goals: Sequence[str]) -> str:
    """A whole Gappa script: the do-not-edit banner naming ``module``, the
    ``about`` comment lines, binary64 rounding to nearest, the program's
    definitions ``body`` and one proposition holding every goal."""
    if not goals:
        raise SidecarError("no claims in the pieces asked for")
    out = [f"# {title} -- DO NOT EDIT.  Rendered by {module} from {source or 'its sidecar'}.",
           "# Check with:  gappa <this file>   (exit status 0 = every property proven)",
           "#", *(f"# {line}" for line in about),
           f"#@-Eprecision={PRECISION}",
           "@rnd = float<ieee_64, ne>;", "", *body, ""]
    out.append("{ " + " /\\\n  ".join(goals) + " }")
    return "\n".join(out) + "\n"
