"""One self-contained HTML page for a simulation or a comparison.

Tables and charts (score distributions, success by bid, game length) are inline SVG and
inline CSS: no script, no font, image or style sheet from elsewhere, so the page reads
offline, prints, and shows the same in every browser.  The input is what `--json` prints
(:func:`chimera_dsl.study.simulate.simulation_data` / ``comparison_data``).
"""
from __future__ import annotations

import html
import math

from .figures import label_of
from .simulate import is_rate_figure

PALETTE = ("#2f6db5", "#d9822b", "#3c9a5f", "#b5443c")

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem auto;max-width:72rem;
color:#1d232b;padding:0 1rem;background:#fff}
h1{font-size:1.5rem;margin-bottom:.2rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #d6dbe1}
table{border-collapse:collapse;font-size:.9rem;margin:.5rem 0}
th,td{padding:.25rem .6rem;border-bottom:1px solid #e6e9ee;text-align:right}
th{background:#f3f5f8}th:first-child,td:first-child{text-align:left}
tr.sig td{background:#fff3d6;font-weight:600}.note{color:#5b6673;font-size:.85rem}
.charts{display:flex;flex-wrap:wrap;gap:1.5rem}figure{margin:0}figcaption{font-size:.85rem;color:#5b6673}
svg text{font-family:inherit;fill:#333}.warn{background:#fdecea;border-left:4px solid #b5443c;padding:.4rem .8rem}
"""


def _num(x, rate: bool = False) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    if rate:
        return f"{100 * x:.1f}%"
    if isinstance(x, int):
        return str(x)
    return f"{x:.3f}" if abs(x) < 10 else f"{x:.1f}"


def bar_chart(title: str, series: dict[str, dict[str, float]], errors: dict | None = None,
              width: int = 480, height: int = 240, percent: bool = True) -> str:
    """An SVG bar chart.  ``series`` maps a label (a variant) to {category: value}; ``errors``
    (same shape) gives (low, high) intervals drawn as whiskers."""
    categories: list[str] = []
    for values in series.values():
        for c in values:
            if c not in categories:
                categories.append(c)
    try:
        categories.sort(key=float)
    except ValueError:
        pass
    highs = [v for values in series.values() for v in values.values()]
    for intervals in (errors or {}).values():
        highs += [hi for _, hi in intervals.values() if hi is not None]
    top = _nice_top(max(highs + [1e-9]))
    left, bottom, pad = 48, 44, 12
    plot_w, plot_h = width - left - pad, height - bottom - pad
    slot = plot_w / max(len(categories), 1)
    bar = slot / (len(series) + 1)
    label = (lambda v: f"{100 * v:.3g}%") if percent else (lambda v: f"{v:.3g}")
    y_of = (lambda v: pad + plot_h - plot_h * max(v, 0) / top)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{html.escape(title)}">',
             f'<rect width="{width}" height="{height}" fill="#fbfcfd"/>']
    for k in range(5):                                         # grid and axis labels
        v = top * k / 4
        y = y_of(v)
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" '
                     f'stroke="{"#888" if k == 0 else "#e3e6ea"}"/>')
        parts.append(f'<text x="{left - 4}" y="{y + 3:.1f}" font-size="10" text-anchor="end">{label(v)}</text>')
    for s, (name, values) in enumerate(series.items()):
        colour = PALETTE[s % len(PALETTE)]
        for i, c in enumerate(categories):
            if c not in values:
                continue
            v = values[c]
            x = left + i * slot + (s + 0.5) * bar
            y = y_of(v)
            parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{pad + plot_h - y:.1f}" '
                         f'fill="{colour}"><title>{html.escape(name)} – {html.escape(str(c))}: {label(v)}'
                         f'</title></rect>')
            interval = (errors or {}).get(name, {}).get(c)
            if interval and None not in interval:
                xm = x + bar / 2
                y1, y2 = y_of(interval[0]), y_of(interval[1])
                parts.append(f'<path d="M{xm:.1f} {y1:.1f}V{y2:.1f}M{xm - 3:.1f} {y1:.1f}h6M{xm - 3:.1f} {y2:.1f}h6" '
                             f'stroke="#222" fill="none"/>')
    step = max(1, math.ceil(len(categories) / 14))
    for i, c in enumerate(categories):
        if i % step == 0:
            x = left + i * slot + slot / 2
            parts.append(f'<text x="{x:.1f}" y="{pad + plot_h + 14}" font-size="10" text-anchor="middle">'
                         f'{html.escape(str(c))}</text>')
    for s, name in enumerate(series):
        x = left + 220 * s
        short = name if len(name) <= 34 else name[:33] + "…"
        parts.append(f'<rect x="{x}" y="{height - 14}" width="10" height="10" fill="{PALETTE[s % len(PALETTE)]}"/>'
                     f'<text x="{x + 14}" y="{height - 5}" font-size="11">{html.escape(short)}</text>')
    parts.append("</svg>")
    return f"<figure>{''.join(parts)}<figcaption>{html.escape(title)}</figcaption></figure>"


def _nice_top(value: float) -> float:
    """The smallest 4 x (1, 2, 2.5 or 5 x 10^k) at or above ``value``: round grid lines."""
    step = value / 4
    base = 10 ** math.floor(math.log10(step))
    for m in (1, 2, 2.5, 5, 10):
        if m * base >= step * (1 - 1e-9):
            return 4 * m * base
    return value


def _share(hist: dict, width: int = 1) -> dict[str, float]:
    """Each bucket's share of the total, with empty buckets between the first and last shown
    as zero so that the axis stays linear."""
    total = sum(hist.values()) or 1
    if not hist:
        return {}
    keys = [int(k) for k in hist]
    return {str(k): hist.get(str(k), 0) / total for k in range(min(keys), max(keys) + width, width)}


def _charts(summaries: dict[str, dict]) -> str:
    """Success by bid (with intervals), the bidder's round points, final totals, game length."""
    by_bid, by_bid_ci = {}, {}
    for label, s in summaries.items():
        figs = {name.rsplit("_", 1)[1]: fig for name, fig in s["figures"].items()
                if name.startswith("bidder_success_at_") and fig["n"]}
        by_bid[label] = {level: fig["rate"] for level, fig in figs.items()}
        by_bid_ci[label] = {level: tuple(fig["ci95"]) for level, fig in figs.items()}
    bidder = next((s.get("roles", {}).get("bidder") for s in summaries.values() if s.get("roles")), None)
    charts = []
    if bidder and any(by_bid.values()):
        charts = [bar_chart(f"The {bidder}'s success rate by bid (95% intervals)", by_bid, by_bid_ci),
                  bar_chart(f"The {bidder}'s points in a round (share of rounds, buckets of 10)",
                            {label: _share(s["distributions"]["bidder_round_points"], 10)
                             for label, s in summaries.items()})]
    totals = {label: _share(s["distributions"]["final_totals"], 25) for label, s in summaries.items()
              if s["distributions"]["final_totals"]}
    if totals:
        charts.append(bar_chart("Final totals (share of players, buckets of 25)", totals))
    lengths = {label: _share(s["distributions"]["rounds_per_game"]) for label, s in summaries.items()
               if s["distributions"]["rounds_per_game"]}
    if lengths:
        charts.append(bar_chart("Game length in rounds (share of games)", lengths))
    return '<div class="charts">' + "".join(charts) + "</div>"


def _page(title: str, body: str) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>{body}</body></html>\n")


def _run_line(run: dict) -> str:
    rate = run["units"] / run["seconds"] if run.get("seconds") else 0
    return (f"{run['units']} {run['unit']}, seed {run['seed']}, players {run['players']}, "
            f"{run['workers']} worker(s) on {run['backend']}, {run['seconds']:.1f} s ({rate:.1f} {run['unit']}/s)")


def _variant_line(v: dict) -> str:
    return f"{v['name']} — {v['path']} (sha256 {v['source_hash'][:12]})"


def _figure_rows(summary: dict) -> str:
    rows = []
    for name, fig in summary["figures"].items():
        rate = "rate" in fig
        lo, hi = fig["ci95"]
        rows.append(f"<tr><td title=\"{html.escape(name)}\">{html.escape(fig['label'])}</td>"
                    f"<td>{_num(fig.get('rate', fig.get('mean')), rate)}</td>"
                    f"<td>{_num(lo, rate)} – {_num(hi, rate)}</td><td>{fig['n']}</td></tr>")
    advantage = summary.get("first_seat_advantage")
    if advantage:
        lo, hi = advantage["ci95"]
        rows.append(f"<tr><td>{html.escape(label_of('first_seat_advantage'))}</td><td>{_num(advantage['mean'], True)}</td>"
                    f"<td>{_num(lo, True)} – {_num(hi, True)}</td><td>{advantage['n']}</td></tr>")
    fairness = summary.get("seat_fairness")
    if fairness:
        rate = fairness["unit"] == "rate"
        lo, hi = fairness["ci95"]
        what = "games won" if rate else "points per round"
        rows.append(f"<tr><td>{html.escape(label_of('seat_fairness'))} ({what})</td>"
                    f"<td>{_num(fairness['mean'], rate)}</td><td>{_num(lo, rate)} – {_num(hi, rate)}</td>"
                    f"<td>{fairness['n']}</td></tr>")
    return ("<table><thead><tr><th>figure</th><th>value</th><th>95% interval</th><th>n</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def _warnings(data: dict) -> str:
    return "".join(f'<p class="warn">Warning: {html.escape(w)}</p>' for w in data.get("warnings", ()))


def simulation_report(data: dict, analysis: dict | None = None) -> str:
    """The page for one simulation (``data`` as `chimera simulate --json` prints it)."""
    run = data["run"]
    variant = run["variants"][0]
    title = f"Simulation: {variant['name']}"
    body = (f"<h1>{html.escape(title)}</h1>"
            f"<p class=\"note\">{html.escape(_variant_line(variant))}<br>{html.escape(_run_line(run))}</p>"
            f"{_warnings(data)}"
            f"<h2>Charts</h2>{_charts({variant['name']: data})}"
            f"<h2>Figures</h2>{_figure_rows(data)}"
            "<p class=\"note\">Intervals are clustered by game (the seats of a round and the rounds of a game "
            "are not independent): rates carry Wilson 95% intervals, counts quasi-Poisson score intervals (never "
            "below zero), other means normal ones; the seat fairness a parametric bootstrap's. Positions count from the dealer in seat numbers: position 0 is the "
            "dealer, position 1 the next seat; win rates count from the first dealer.</p>"
            f"{analysis_section(analysis) if analysis else ''}")
    return _page(title, body)


def comparison_report(data: dict, analysis: dict | None = None) -> str:
    """The page for a comparison (``data`` as `chimera compare --json` prints it)."""
    run = data["run"]
    va, vb = run["variants"]
    label_a, label_b = f"A: {va['name']}", f"B: {vb['name']}"
    rows = []
    for d in data["differences"]:
        rate = is_rate_figure(d, data)
        lo, hi = d["ci95"]
        cls = ' class="sig"' if d["significant"] else ""
        plus = "+" if d["difference"] is not None and d["difference"] > 0 else ""
        rows.append(f"<tr{cls}><td title=\"{html.escape(d['figure'])}\">{html.escape(d['label'])}</td>"
                    f"<td>{_num(d['a'], rate)}</td><td>{_num(d['b'], rate)}</td>"
                    f"<td>{plus}{_num(d['difference'], rate)}</td>"
                    f"<td>{_num(lo, rate)} – {_num(hi, rate)}</td><td>{'yes' if d['significant'] else 'no'}</td></tr>")
    deals = ("Both variants played the same seeded deals." if data["same_deals"] else
             "Same seeds, but the decks or deals differ, so the deals do too.")
    title = f"Comparison: {va['name']} / {vb['name']}"
    body = (f"<h1>{html.escape(title)}</h1>"
            f"<p class=\"note\">{html.escape(label_a)} — {html.escape(va['path'])}<br>"
            f"{html.escape(label_b)} — {html.escape(vb['path'])}<br>{html.escape(_run_line(run))}. "
            f"{html.escape(deals)} Differences are paired seed by seed (the seat fairness's is not); "
            "– : the figure does not exist in that variant.</p>"
            f"{_warnings(data)}"
            f"<h2>Charts</h2>{_charts({label_a: data['a'], label_b: data['b']})}"
            f"<h2>Differences (B − A): fairness, success and length first</h2>"
            f"<p class=\"note\">Significant: the p-value adjusted by Holm's correction over the "
            f"{(data.get('correction') or {}).get('family', len(rows))} figures compared is below 5%; the interval "
            "is each figure's own 95% interval.</p><table><thead><tr><th>figure</th>"
            f"<th>A</th><th>B</th><th>B − A</th><th>95% interval</th><th>significant</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
            f"<h2>A: all figures</h2>{_figure_rows(data['a'])}<h2>B: all figures</h2>{_figure_rows(data['b'])}"
            f"{analysis_section(analysis) if analysis else ''}")
    return _page(title, body)


def _percent(x) -> str:
    if x is None:
        return "–"
    return f"{100 * x:.3f}%" if 0 < x < 0.001 else f"{100 * x:.1f}%"


def _analysis_part(part: dict, label: str = "") -> str:
    """The tables of one variant's analysis."""
    out = []
    for hand in part["hands"]:
        method = ("exact: every rank-count hand listed, weighted by the card sets it stands for"
                  if hand["method"] == "exact" else
                  f"sampled: {hand['samples']} hands drawn (seed {hand['seed']}), Wilson 95% intervals")
        rows = "".join(
            f"<tr><td>{html.escape(c['name'])}</td><td>{_percent(c['chance'])}</td>"
            f"<td>{'exact' if c['ci95'] is None else _percent(c['ci95'][0]) + ' – ' + _percent(c['ci95'][1])}</td></tr>"
            for c in list(hand["combinations"].values()) + list(hand.get("unions", {}).values()))
        out.append(f"<h3>{html.escape(label)}The chance that {html.escape(hand['what'])} ({hand['cards']} cards) "
                   f"holds each combination</h3><p class=\"note\">{html.escape(method)}</p><table><thead><tr>"
                   f"<th>combination</th><th>chance</th><th>95% interval</th></tr></thead><tbody>{rows}</tbody></table>")
    never = "".join(f"<li>{html.escape(n['name'])}: {html.escape(n['why'])}</li>" for n in part["never"])
    out.append(f"<h3>{html.escape(label)}Combinations that never arise in a hand</h3>"
               + (f"<ul>{never}</ul>" if never else "<p>None: every combination can arise in every hand.</p>"))
    rows = "".join(
        f"<tr><td>{html.escape(' / '.join(a['readings']))}</td><td>{a['card_sets']}</td><td>"
        + "<br>".join(html.escape(f"{e['cards']}: " + "; ".join(e["readings"])) for e in a["examples"])
        + "</td></tr>" for a in part["ambiguities"])
    out.append(f"<h3>{html.escape(label)}Card sets that read as several combinations</h3>"
               + (f"<table><thead><tr><th>readings</th><th>card sets</th><th>examples</th></tr></thead>"
                  f"<tbody>{rows}</tbody></table>" if rows else "<p>None.</p>"))
    if not part["deck_plays"]["complete"]:
        out.append(f"<p class=\"note\">The deck holds more than {part['budget']['deck_plays']} plays; only that "
                   "many were read, so these lists may miss some.</p>")
    return "".join(out)


def analysis_section(analysis: dict) -> str:
    """The section "Before anyone plays" (``analysis`` as `chimera analyse --json` prints it)."""
    if "b" in analysis:
        body = _analysis_part(analysis["a"], "A: ") + _analysis_part(analysis["b"], "B: ")
    else:
        body = _analysis_part(analysis)
    return f"<h2>Before anyone plays: what the deals give</h2>{body}"


def analysis_report(analysis: dict) -> str:
    """The page of `chimera analyse --report`."""
    variants = [analysis["a"]["variant"], analysis["b"]["variant"]] if "b" in analysis else [analysis["variant"]]
    title = "Analysis: " + " / ".join(v["name"] for v in variants)
    lines = "<br>".join(html.escape(f"{v['name']} — {v['path']}") for v in variants)
    return _page(title, f"<h1>{html.escape(title)}</h1><p class=\"note\">{lines}</p>{analysis_section(analysis)}")
