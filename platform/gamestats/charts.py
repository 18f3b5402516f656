"""Small charts rendered on the server as inline SVG: no JavaScript, readable on a phone,
nothing to download. Labels are escaped; sizes scale with the viewBox."""
from __future__ import annotations

from datetime import datetime

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

BAR, GAP, LABEL_W, WIDTH = 22, 6, 170, 560
COLOURS = {"red": "#c62828", "yellow": "#f9a825", "blue": "#1565c0", "green": "#2e7d32", "black": "#333",
           "white": "#bbb"}


def _num(value: float) -> str:
    return f"{value:.0f}" if abs(value) >= 100 or float(value).is_integer() else f"{value:.1f}"


def bar_chart(items: list[tuple[str, float]], *, title: str, unit: str = "", max_value: float | None = None,
              colours: list[str] | None = None, chart_id: str = "", compact: bool = False) -> SafeString:
    """Horizontal bars, one per (label, value); ``compact``: narrower, for a card of an overview."""
    top = max_value or max((v for _, v in items), default=0) or 1
    height = len(items) * (BAR + GAP) + GAP
    width, label_w = (360, 110) if compact else (WIDTH, LABEL_W)
    span = width - label_w - 60
    parts = [f'<svg class="chart bar" role="img" viewBox="0 0 {width} {height}" width="100%"'
             f' preserveAspectRatio="xMinYMin meet"{f" id={chr(34)}{escape(chart_id)}{chr(34)}" if chart_id else ""}>',
             f"<title>{escape(title)}</title>"]
    for i, (label, value) in enumerate(items):
        y = GAP + i * (BAR + GAP)
        w = max(0.0, value) / top * span
        fill = (colours[i] if colours and i < len(colours) else None) or COLOURS.get(str(label).lower(), "#7a3b12")
        parts.append(f'<text x="{label_w - 8}" y="{y + BAR * 0.7:.1f}" text-anchor="end" font-size="13">{escape(label)}</text>')
        parts.append(f'<rect x="{label_w}" y="{y}" width="{w:.1f}" height="{BAR}" fill="{fill}" rx="3">'
                     f"<title>{escape(label)}: {_num(value)}{escape(unit)}</title></rect>")
        parts.append(f'<text x="{label_w + w + 6:.1f}" y="{y + BAR * 0.7:.1f}" font-size="13">{_num(value)}{escape(unit)}</text>')
    parts.append("</svg>")
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
