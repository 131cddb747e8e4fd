"""The explorer's plot as SVG text: cost (instructions per call) against
log2 of the proven error, one circle per evaluated candidate, its area
growing with the table bytes; the front filled and joined by a staircase,
the budget a dashed line, the shipped kernel a square, the recommended
config labelled.  No plotting library."""
from __future__ import annotations

import math
from html import escape
from typing import Any

WIDTH, HEIGHT = 820, 520
LEFT, RIGHT, TOP, BOTTOM = 70, 250, 40, 60


def _log2_err(c: dict[str, Any]) -> float:
    return math.log2(c["proven_err_2p63"]) - 63.0


def render(title: str, cands: list[dict[str, Any]], budget_log2: int, recommended: str | None) -> str:
    """The SVG document for the evaluated candidates (status ok)."""
    pts = [c for c in cands if c["status"] == "ok"]
    pw, ph = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           'font-family="sans-serif" font-size="11">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{LEFT}" y="22" font-size="14">{escape(title)}</text>',
           f'<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="black"/>']
    if not pts:
        out += [f'<text x="{LEFT + 10}" y="{TOP + 20}">no candidate evaluated</text>', "</svg>"]
        return "\n".join(out) + "\n"
    xs = [float(c["instructions"]) for c in pts]
    ys = [_log2_err(c) for c in pts] + [float(budget_log2)]
    xlo, xhi = math.floor(min(xs) * 0.95), math.ceil(max(xs) * 1.05) + 1
    ylo, yhi = math.floor(min(ys)) - 1, math.ceil(max(ys)) + 1
    largest = max(c["table_bytes"] for c in pts)
    tmax = max(largest, 1)

    def sx(v: float) -> float:
        return LEFT + pw * (v - xlo) / (xhi - xlo)

    def sy(v: float) -> float:
        return TOP + ph * (yhi - v) / (yhi - ylo)

    for i in range(7):
        v = xlo + (xhi - xlo) * i / 6
        out.append(f'<line x1="{sx(v):.1f}" y1="{TOP}" x2="{sx(v):.1f}" y2="{TOP + ph}" stroke="#ddd"/>'
                   f'<text x="{sx(v):.1f}" y="{TOP + ph + 15}" text-anchor="middle">{v:.0f}</text>')
    for v in range(int(ylo), int(yhi) + 1):
        out.append(f'<line x1="{LEFT}" y1="{sy(v):.1f}" x2="{LEFT + pw}" y2="{sy(v):.1f}" stroke="#eee"/>'
                   f'<text x="{LEFT - 6}" y="{sy(v) + 4:.1f}" text-anchor="end">{v}</text>')
    out.append(f'<text x="{LEFT + pw / 2}" y="{HEIGHT - 22}" text-anchor="middle">instructions per call</text>')
    out.append(f'<text transform="translate(18 {TOP + ph / 2}) rotate(-90)" text-anchor="middle">'
               'log2 proven error (absolute)</text>')
    by = sy(budget_log2)
    out.append(f'<line x1="{LEFT}" y1="{by:.1f}" x2="{LEFT + pw}" y2="{by:.1f}" stroke="red" stroke-dasharray="6 4"/>'
               f'<text x="{LEFT + pw - 4}" y="{by - 4:.1f}" fill="red" text-anchor="end">budget 2^{budget_log2}</text>')
    front = sorted((c for c in pts if c["on_front"]), key=lambda c: (c["instructions"], c["proven_err_2p63"]))
    steps = []
    for i, c in enumerate(front):
        steps.append(f"{sx(c['instructions']):.1f},{sy(_log2_err(c)):.1f}")
        if i + 1 < len(front):
            steps.append(f"{sx(front[i + 1]['instructions']):.1f},{sy(_log2_err(c)):.1f}")
    out.append(f'<polyline points="{" ".join(steps)}" fill="none" stroke="#2a7" stroke-width="1.5"/>')
    for c in pts:
        x, y = sx(c["instructions"]), sy(_log2_err(c))
        r = 3 + 6 * math.sqrt(c["table_bytes"] / tmax)
        fill = "#2a7" if c["on_front"] else "white"
        name = c["config"]["name"]
        if c["shipped"]:
            out.append(f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" '
                       f'fill="{fill}" stroke="blue" stroke-width="2"/>')
        else:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" stroke="black" fill-opacity="0.7"/>')
        if c["shipped"] or name == recommended:
            out.append(f'<text x="{x + r + 3:.1f}" y="{y - r:.1f}">{escape(name)}</text>')
    legend = ["filled: Pareto front (instructions,", "  proven error, table bytes)",
              f"area: table bytes (largest {largest} B)", "blue square: shipped kernel",
              f"recommended: {recommended or 'none'}", "", "front:"]
    legend += [f"{c['config']['name']}: {c['instructions']:g} insn, {c['proven_err_2p63']:g}, {c['table_bytes']} B"
               for c in front[:24]]
    lx = LEFT + pw + 10
    for i, line in enumerate(legend):
        out.append(f'<text x="{lx}" y="{TOP + 10 + 12 * i}" font-size="8">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
