"""SVG scatter of accuracy against latency, with the Pareto front marked.

x: median chain cycles per call (latency).  y: log2 of the maximum absolute
error of ccs * exp(-x) (error in units of 2^-63, minus 63).  Lower-left is
better on both axes.  Written as plain SVG text: no plotting library.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

# Falcon's accuracy budget (FACCT.md): 2^-43 absolute.
BUDGET_LOG2 = -43.0

WIDTH, HEIGHT = 760, 500
LEFT, RIGHT, TOP, BOTTOM = 70, 200, 40, 60


@dataclass(frozen=True)
class Point:
    name: str
    cycles: float     # median chain cycles per call
    cycles_p5: float
    cycles_p95: float
    err_2p63: float   # max |error| in units of 2^-63
    source: str       # where the error figure comes from

    @property
    def log2_err(self) -> float:
        return math.log2(self.err_2p63) - 63.0


def pareto(points: list[Point]) -> list[Point]:
    """Points that no other point beats on both axes (ties count as not
    beaten), sorted by cycles."""
    front = [p for p in points
             if not any(q.cycles <= p.cycles and q.err_2p63 <= p.err_2p63
                        and (q.cycles < p.cycles or q.err_2p63 < p.err_2p63)
                        for q in points)]
    return sorted(front, key=lambda p: p.cycles)


def _ticks(lo: float, hi: float, n: int) -> list[float]:
    """About n round tick values covering [lo, hi]."""
    raw = (hi - lo) / max(n, 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = min((m * mag for m in (1, 2, 5, 10) if m * mag >= raw), default=raw)
    first = math.ceil(lo / step) * step
    return [first + i * step for i in range(int((hi - first) / step) + 1)]


def render(points: list[Point], title: str, notes: list[str]) -> str:
    """The SVG document."""
    if not points:
        raise ValueError("nothing to plot")
    xmax = max(p.cycles_p95 for p in points) * 1.1
    ys = [p.log2_err for p in points] + [BUDGET_LOG2]
    ylo, yhi = math.floor(min(ys)) - 1, math.ceil(max(ys)) + 1
    pw, ph = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def sx(c: float) -> float:
        return LEFT + pw * c / xmax

    def sy(e: float) -> float:
        return TOP + ph * (yhi - e) / (yhi - ylo)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{LEFT}" y="20" font-size="14">{escape(title)}</text>',
           f'<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="black"/>']
    for t in _ticks(0.0, xmax, 8):
        out.append(f'<line x1="{sx(t):.1f}" y1="{TOP}" x2="{sx(t):.1f}" y2="{TOP + ph}" stroke="#ddd"/>'
                   f'<text x="{sx(t):.1f}" y="{TOP + ph + 15}" text-anchor="middle">{t:g}</text>')
    for t in _ticks(ylo, yhi, 8):
        out.append(f'<line x1="{LEFT}" y1="{sy(t):.1f}" x2="{LEFT + pw}" y2="{sy(t):.1f}" stroke="#ddd"/>'
                   f'<text x="{LEFT - 6}" y="{sy(t) + 4:.1f}" text-anchor="end">{t:g}</text>')
    out.append(f'<text x="{LEFT + pw / 2}" y="{HEIGHT - 25}" text-anchor="middle">'
               'chain cycles per call (median; whiskers P5-P95)</text>')
    out.append(f'<text transform="translate(18 {TOP + ph / 2}) rotate(-90)" text-anchor="middle">'
               'log2 max |error| (absolute)</text>')
    by = sy(BUDGET_LOG2)
    out.append(f'<line x1="{LEFT}" y1="{by:.1f}" x2="{LEFT + pw}" y2="{by:.1f}" stroke="red" '
               f'stroke-dasharray="6 4"/><text x="{LEFT + pw - 4}" y="{by - 4:.1f}" fill="red" '
               'text-anchor="end">Falcon budget 2^-43</text>')
    front = pareto(points)
    steps = []
    for i, p in enumerate(front):
        steps.append(f"{sx(p.cycles):.1f},{sy(p.log2_err):.1f}")
        if i + 1 < len(front):
            steps.append(f"{sx(front[i + 1].cycles):.1f},{sy(p.log2_err):.1f}")
    out.append(f'<polyline points="{" ".join(steps)}" fill="none" stroke="#2a7" stroke-width="2"/>')
    on_front = {p.name for p in front}
    for p in points:
        x, y = sx(p.cycles), sy(p.log2_err)
        fill = "#2a7" if p.name in on_front else "white"
        out.append(f'<line x1="{sx(p.cycles_p5):.1f}" y1="{y:.1f}" x2="{sx(p.cycles_p95):.1f}" '
                   f'y2="{y:.1f}" stroke="#555"/>')
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{fill}" stroke="black"/>')
        out.append(f'<text x="{x + 8:.1f}" y="{y - 6:.1f}">{escape(p.name)}</text>')
    lx = LEFT + pw + 12
    legend = ["filled: Pareto front", "(no faster point is", " more accurate)", ""]
    legend += [f"{p.name}: {p.source}" for p in points] + [""] + notes
    for i, line in enumerate(legend):
        out.append(f'<text x="{lx}" y="{TOP + 12 + 13 * i}" font-size="9">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
