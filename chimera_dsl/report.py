"""One self-contained HTML page for a simulation or a comparison.

Tables and charts (score distributions, success by bid, game length) are drawn as inline
SVG: no script, no font or style sheet from elsewhere, so the page reads offline and shows
the same in every browser.
"""
from __future__ import annotations

import html
import math

PALETTE = ("#2f6db5", "#d9822b", "#3c9a5f", "#b5443c")

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;max-width:70rem;
color:#1d232b;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #d6dbe1}
table{border-collapse:collapse;font-size:.9rem;margin:.5rem 0}
th,td{padding:.25rem .6rem;border-bottom:1px solid #e6e9ee;text-align:right}
th:first-child,td:first-child{text-align:left}
tr.sig td{background:#fff6e0}.note{color:#5b6673;font-size:.85rem}
.charts{display:flex;flex-wrap:wrap;gap:1.5rem}figure{margin:0}figcaption{font-size:.85rem;color:#5b6673}
"""


def _fmt(x) -> str:
    if x is None:
        return "–"
    if isinstance(x, float):
        if not math.isfinite(x):
            return "–"
        return f"{x:.3f}" if abs(x) < 10 else f"{x:.1f}"
    return str(x)


def _value(fig: dict):
    return fig.get("rate", fig.get("mean"))


def bar_chart(title: str, series: dict[str, dict[str, float]], width: int = 460, height: int = 220) -> str:
    """An SVG bar chart: ``series`` maps a label (a variant) to {category: value}."""
    categories: list[str] = []
    for values in series.values():
        for c in values:
            if c not in categories:
                categories.append(c)
    try:
        categories.sort(key=lambda c: float(c))
    except ValueError:
        pass
    top = max([v for values in series.values() for v in values.values()] + [1e-9])
    left, bottom, pad = 40, 30, 10
    plot_w, plot_h = width - left - pad, height - bottom - pad
    n_series = max(len(series), 1)
    slot = plot_w / max(len(categories), 1)
    bar = max(slot / (n_series + 1), 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="{html.escape(title)}">',
             f'<line x1="{left}" y1="{pad + plot_h}" x2="{left + plot_w}" y2="{pad + plot_h}" stroke="#888"/>',
             f'<text x="{left - 4}" y="{pad + 8}" font-size="10" text-anchor="end">{_fmt(top)}</text>',
             f'<text x="{left - 4}" y="{pad + plot_h}" font-size="10" text-anchor="end">0</text>']
    for s, (label, values) in enumerate(series.items()):
        colour = PALETTE[s % len(PALETTE)]
        for i, c in enumerate(categories):
            v = values.get(c, 0.0)
            h = plot_h * v / top
            x = left + i * slot + (s + 0.5) * bar
            parts.append(f'<rect x="{x:.1f}" y="{pad + plot_h - h:.1f}" width="{bar:.1f}" height="{h:.1f}" '
                         f'fill="{colour}"><title>{html.escape(label)} {html.escape(str(c))}: {_fmt(v)}</title></rect>')
    step = max(1, len(categories) // 12)
    for i, c in enumerate(categories):
        if i % step == 0:
            x = left + i * slot + slot / 2
            parts.append(f'<text x="{x:.1f}" y="{height - 12}" font-size="10" text-anchor="middle">'
                         f'{html.escape(str(c))}</text>')
    for s, label in enumerate(series):
        parts.append(f'<rect x="{left + 8 + 130 * s}" y="{height - 9}" width="8" height="8" '
                     f'fill="{PALETTE[s % len(PALETTE)]}"/><text x="{left + 20 + 130 * s}" y="{height - 2}" '
                     f'font-size="10">{html.escape(label[:20])}</text>')
    parts.append("</svg>")
    return f"<figure>{''.join(parts)}<figcaption>{html.escape(title)}</figcaption></figure>"


def _share(hist: dict) -> dict[str, float]:
    total = sum(hist.values()) or 1
    return {k: v / total for k, v in hist.items()}


def _charts(summaries: dict[str, dict]) -> str:
    totals = {label: _share(s["distributions"]["final_totals"]) for label, s in summaries.items()
              if s["distributions"]["final_totals"]}
    lengths = {label: _share(s["distributions"]["rounds_per_game"]) for label, s in summaries.items()
               if s["distributions"]["rounds_per_game"]}
    chimera = {label: _share(s["distributions"]["chimera_round_points"]) for label, s in summaries.items()}
    by_bid = {}
    for label, s in summaries.items():
        by_bid[label] = {name.rsplit("_", 1)[1]: fig["rate"] for name, fig in s["figures"].items()
                         if name.startswith("chimera_success_at_")}
    charts = [bar_chart("Chimera success by bid", by_bid),
              bar_chart("Chimera's points per round (share of rounds)", chimera)]
    if totals:
        charts.append(bar_chart("Final totals (share of seats, buckets of 25)", totals))
    if lengths:
        charts.append(bar_chart("Game length in rounds (share of games)", lengths))
    return '<div class="charts">' + "".join(charts) + "</div>"


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>{body}</body></html>\n")


def simulation_report(summary: dict, meta: dict) -> str:
    """The page for one simulation: ``summary`` is Summary.as_dict(), ``meta`` says how it ran."""
    rows = []
    for name, fig in summary["figures"].items():
        lo, hi = fig["ci95"]
        rows.append(f"<tr><td>{html.escape(name)}</td><td>{_fmt(_value(fig))}</td>"
                    f"<td>{_fmt(lo)} – {_fmt(hi)}</td><td>{fig['n']}</td></tr>")
    body = (f"<h1>{html.escape(meta.get('title', 'Simulation'))}</h1>"
            f"<p class=\"note\">{html.escape(_meta_line(meta))}</p>"
            f"<h2>Charts</h2>{_charts({meta.get('label', 'variant'): summary})}"
            f"<h2>Figures</h2><table><thead><tr><th>figure</th><th>value</th><th>95% interval</th><th>n</th></tr>"
            f"</thead><tbody>{''.join(rows)}</tbody></table>")
    return _page(meta.get("title", "Simulation"), body)


def comparison_report(a: dict, b: dict, differences: list[dict], meta: dict) -> str:
    """The page for a comparison of two variants."""
    rows = []
    for d in differences:
        lo, hi = d["ci95"]
        cls = ' class="sig"' if d["significant"] else ""
        rows.append(f"<tr{cls}><td>{html.escape(d['figure'])}</td><td>{_fmt(d['a'])}</td><td>{_fmt(d['b'])}</td>"
                    f"<td>{_fmt(d['difference'])}</td><td>{_fmt(lo)} – {_fmt(hi)}</td>"
                    f"<td>{'yes' if d['significant'] else 'no'}</td></tr>")
    label_a, label_b = meta.get("label_a", "A"), meta.get("label_b", "B")
    body = (f"<h1>{html.escape(meta.get('title', 'Comparison'))}</h1>"
            f"<p class=\"note\">{html.escape(_meta_line(meta))}</p>"
            f"<h2>Charts</h2>{_charts({label_a: a, label_b: b})}"
            f"<h2>Differences (B − A), most significant first</h2><table><thead><tr><th>figure</th>"
            f"<th>{html.escape(label_a)}</th><th>{html.escape(label_b)}</th><th>B − A</th><th>95% interval</th>"
            f"<th>significant</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")
    return _page(meta.get("title", "Comparison"), body)


def _meta_line(meta: dict) -> str:
    keys = ("variant", "variant_a", "variant_b", "games", "rounds", "seed", "players", "workers", "seconds")
    return "; ".join(f"{k}: {meta[k]}" for k in keys if k in meta)
