"""Small charts rendered on the server: bars as HTML with CSS widths (text at the page's own
size, readable on a phone; the CSP allows style attributes), lines as inline SVG. No
JavaScript, nothing to download. Labels are escaped."""
from __future__ import annotations

from datetime import datetime

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH = 560  # the line chart's viewBox
COLOURS = {"red": "#c62828", "yellow": "#f9a825", "blue": "#1565c0", "green": "#2e7d32", "black": "#333",
           "white": "#bbb"}


def _num(value: float) -> str:
    return f"{value:.0f}" if abs(value) >= 100 or float(value).is_integer() else f"{value:.1f}"


def bar_chart(items: list[tuple[str, float]], *, title: str, unit: str = "", max_value: float | None = None,
              colours: list[str] | None = None, chart_id: str = "", compact: bool = False,
              marker: tuple[str, float] | None = None) -> SafeString:
    """Horizontal bars, one row per (label, value): the label, the bar (its width the value's
    share of ``max_value``, else of the largest value), the value. ``marker``: (label, value)
    drawn as a dashed line across every row (e.g. an equal share). ``compact``: for a card of an
    overview (narrower label column)."""
    top = max_value or max((v for _, v in items), default=0) or 1
    ident = f' id="{escape(chart_id)}"' if chart_id else ""
    mark = ""
    if marker is not None:
        left = min(100.0, max(0.0, marker[1]) / top * 100)
        mark = (f'<span class="bar-marker" style="left:{left:.1f}%" title="{escape(marker[0])}: '
                f'{_num(marker[1])}{escape(unit)}"></span>')
    parts = [f'<div class="chart bars{" compact" if compact else ""}" role="group" aria-label="{escape(title)}"{ident}>']
    for i, (label, value) in enumerate(items):
        share = min(100.0, max(0.0, value) / top * 100)
        fill = (colours[i] if colours and i < len(colours) else None) or COLOURS.get(str(label).lower(), "var(--accent)")
        parts.append(f'<span class="bar-label">{escape(label)}</span>'
                     f'<span class="bar-track"><span class="bar" style="width:{share:.1f}%;background:{escape(fill)}">'
                     f'</span>{mark}</span><span class="bar-value">{_num(value)}{escape(unit)}</span>')
    parts.append("</div>")
    return mark_safe("".join(parts))


def line_chart(points: list[tuple[datetime, float]], *, title: str, chart_id: str = "") -> SafeString:
    """A line through (time, value) points in order; the first and last values are labelled."""
    width, height, pad = WIDTH, 180, 34
    ident = f' id="{escape(chart_id)}"' if chart_id else ""
    head = (f'<svg class="chart line" role="img" viewBox="0 0 {width} {height}" width="100%"{ident}>'
            f"<title>{escape(title)}</title>")
    if not points:
        return mark_safe(head + "</svg>")
    values = [v for _, v in points]
    lo, hi = min(values), max(values)
    if hi - lo < 1:
        lo, hi = lo - 1, hi + 1
    n = len(points)

    def xy(i: int, v: float) -> tuple[float, float]:
        x = pad + (i / (n - 1) if n > 1 else 0.5) * (width - 2 * pad)
        y = height - pad - (v - lo) / (hi - lo) * (height - 2 * pad)
        return x, y

    coords = [xy(i, v) for i, v in enumerate(values)]
    path = " ".join(f"{'M' if i == 0 else 'L'}{x:.1f},{y:.1f}" for i, (x, y) in enumerate(coords))
    parts = [head,
             f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#ccc"/>',
             f'<text x="4" y="{pad:.0f}" font-size="11" fill="#666">{_num(hi)}</text>',
             f'<text x="4" y="{height - pad:.0f}" font-size="11" fill="#666">{_num(lo)}</text>',
             f'<path d="{path}" fill="none" stroke="#7a3b12" stroke-width="2"/>']
    for (x, y), (at, v) in zip(coords, points):
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="#7a3b12"><title>{at:%Y-%m-%d}: {_num(v)}</title></circle>')
    parts.append(f'<text x="{pad}" y="{height - 10}" font-size="11" fill="#666">{points[0][0]:%Y-%m-%d}</text>')
    parts.append(f'<text x="{width - pad}" y="{height - 10}" font-size="11" fill="#666" text-anchor="end">'
                 f"{points[-1][0]:%Y-%m-%d}</text>")
    parts.append("</svg>")
    return mark_safe("".join(parts))
