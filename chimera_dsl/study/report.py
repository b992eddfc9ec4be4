"""One self-contained HTML page for a simulation or a comparison.

Tables and charts (score distributions, success by bid, game length) are inline SVG and
inline CSS: no script, no font, image or style sheet from elsewhere, so the page reads
offline, prints, and shows the same in every browser.  The input is what `--json` prints
(:func:`chimera_dsl.study.simulate.simulation_data` / ``comparison_data``).
"""
from __future__ import annotations

import html
import math
import re

from .figures import designer_group, designer_rank, label_of
from .simulate import correction_family, is_rate_figure

PALETTE = ("#2f6db5", "#d9822b", "#3c9a5f", "#b5443c")
DECIMALS = 2            # every number of the figure tables: the same decimals down a column
MISSING = "–"           # a figure that does not exist (in that variant), or has no interval
HEADLINES = 5           # the figures a comparison's summary shows at most

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1.5rem auto;max-width:72rem;
color:#1d232b;padding:0 1rem;background:#fff;line-height:1.4}
h1{font-size:1.5rem;margin-bottom:.6rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #d6dbe1}
h3{font-size:1rem;margin:1.2rem 0 .3rem}
table{border-collapse:collapse;font-size:.9rem;margin:.5rem 0;max-width:100%}
th,td{padding:.25rem .6rem;border-bottom:1px solid #e6e9ee;text-align:right;vertical-align:top}
th{background:#f3f5f8}th:first-child,td:first-child{text-align:left}
td.num{font-variant-numeric:tabular-nums;white-space:nowrap}
tr.sig td{background:#fff3d6;font-weight:600}.note{color:#5b6673;font-size:.85rem}
.summary{background:#f4f7fb;border:1px solid #d6dfea;border-radius:6px;padding:.2rem 1rem .6rem}
.summary h2{margin-top:.6rem;border:0}.summary p.lead{font-size:1.05rem;margin:.4rem 0}
.summary table{background:#fff}
.charts{display:flex;flex-wrap:wrap;gap:1.5rem;margin:.8rem 0}
figure{margin:0;flex:1 1 22rem;max-width:32rem;min-width:0}
figure svg{display:block;width:100%;height:auto}
figcaption{font-size:.85rem;color:#5b6673;overflow-wrap:anywhere}
.legend{list-style:none;margin:.3rem 0;padding:0;display:flex;flex-wrap:wrap;gap:.1rem 1.2rem;font-size:.8rem}
.legend li{min-width:0;overflow-wrap:anywhere}
.legend .key{display:inline-block;width:.7rem;height:.7rem;margin-right:.35rem;vertical-align:-.05rem}
svg text{font-family:inherit;fill:#333}.warn{background:#fdecea;border-left:4px solid #b5443c;padding:.4rem .8rem}
details{margin:1rem 0}summary{cursor:pointer;font-weight:600}
td{overflow-wrap:anywhere}
@media (max-width:40rem){
body{padding:0 .6rem;margin-top:1rem}h1{font-size:1.25rem}.summary{padding:.1rem .6rem .4rem}
table.figures,table.figures tbody,table.figures tr,table.figures td{display:block;width:auto}
table.figures thead{display:none}
table.figures tr{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:0 .6rem;
padding:.35rem .3rem;border-bottom:1px solid #e6e9ee}
table.figures tr.sig{background:#fff3d6}
table.figures td{border:0;padding:.1rem 0;text-align:left;background:none}
table.figures td:first-child{grid-column:1/-1}
table.figures td[data-label="95% interval"]{grid-column:span 2}
table.figures td[data-label]::before{content:attr(data-label);display:block;font-size:.7rem;color:#5b6673;
font-weight:400}
}
"""

# the report's three parts, each from groups of DESIGNER_GROUPS (fairness, success, length,
# shape; 4 is every other figure: the mechanics)
REPORT_GROUPS = (
    ("balance", "Balance: fairness and success", (0, 1)),
    ("length", "Length: how long a game lasts", (2,)),
    ("mechanics", "Mechanics and the shape of a game", (3, 4)),
)


def report_group(name: str) -> str:
    """The part of the report that shows a figure: balance, length or mechanics."""
    group = designer_group(name)
    return next(key for key, _, groups in REPORT_GROUPS if group in groups or key == "mechanics")


def _num(x, rate: bool = False, signed: bool = False) -> str:
    """A number of the figure tables: always DECIMALS decimals, rates as percentages."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return MISSING
    value = 100 * x if rate else x
    text = f"{value:+.{DECIMALS}f}" if signed else f"{value:.{DECIMALS}f}"
    if float(text) == 0:                    # no "-0.00" or "+0.00": zero has no direction
        text = f"{0:.{DECIMALS}f}"
    return text + ("%" if rate else "")


def _interval(lo, hi, rate: bool = False) -> str:
    """A 95% interval as "[low, high]" (MISSING when there is none)."""
    if lo is None or hi is None:
        return MISSING
    return f"[{_num(lo, rate)}, {_num(hi, rate)}]"


def bar_chart(title: str, series: dict[str, dict[str, float]], errors: dict | None = None,
              width: int = 400, height: int = 200, percent: bool = True) -> str:
    """An SVG bar chart that scales to its box, with its legend below it in HTML (so that a
    long name wraps instead of being cut).  ``series`` maps a label (a variant) to
    {category: value}; ``errors`` (same shape) gives (low, high) intervals drawn as whiskers."""
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
    left, bottom, pad = 48, 22, 12
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
        parts.append(f'<text x="{left - 4}" y="{y + 3:.1f}" font-size="11" text-anchor="end">{label(v)}</text>')
    for s, (name, values) in enumerate(series.items()):
        colour = PALETTE[s % len(PALETTE)]
        for i, c in enumerate(categories):
            if c not in values:
                continue
            v = values[c]
            x = left + i * slot + (s + 0.5) * bar
            y = y_of(v)
            parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{pad + plot_h - y:.1f}" '
                         f'fill="{colour}"><title>{html.escape(name)}, {html.escape(str(c))}: {label(v)}'
                         f'</title></rect>')
            interval = (errors or {}).get(name, {}).get(c)
            if interval and None not in interval:
                xm = x + bar / 2
                y1, y2 = y_of(interval[0]), y_of(interval[1])
                parts.append(f'<path d="M{xm:.1f} {y1:.1f}V{y2:.1f}M{xm - 3:.1f} {y1:.1f}h6M{xm - 3:.1f} {y2:.1f}h6" '
                             f'stroke="#222" fill="none"/>')
    # at most about one category label per 40 units of width: they never run into each other
    step = max(1, math.ceil(len(categories) * 40 / plot_w))
    for i, c in enumerate(categories):
        if i % step == 0:
            x = left + i * slot + slot / 2
            parts.append(f'<text x="{x:.1f}" y="{pad + plot_h + 14}" font-size="11" text-anchor="middle">'
                         f'{html.escape(str(c))}</text>')
    parts.append("</svg>")
    legend = "".join(f'<li><span class="key" style="background:{PALETTE[s % len(PALETTE)]}"></span>'
                     f'{html.escape(name)}</li>' for s, (name, values) in enumerate(series.items()) if values)
    return (f"<figure>{''.join(parts)}<ul class=\"legend\">{legend}</ul>"
            f"<figcaption>{html.escape(title)}</figcaption></figure>")


def _nice_top(value: float) -> float:
    """The smallest 4 x (1, 2, 2.5 or 5 x 10^k) at or above ``value``: round grid lines."""
    step = value / 4
    base = 10 ** math.floor(math.log10(step))
    for m in (1, 2, 2.5, 5, 10):
        if m * base >= step * (1 - 1e-9):
            return 4 * m * base
    return value


def _share(hist: dict, width: int = 1, span: tuple[int, int] | None = None) -> dict[str, float]:
    """Each bucket's share of the total, with the empty buckets between the first and last
    (of ``span`` when given: the buckets every variant of the chart has) shown as zero, so
    that the axis stays linear."""
    total = sum(hist.values()) or 1
    if not hist:
        return {}
    keys = [int(k) for k in hist]
    low, high = span or (min(keys), max(keys))
    return {str(k): hist.get(str(k), 0) / total for k in range(low, high + width, width)}


def _shares(summaries: dict[str, dict], name: str, width: int = 1) -> dict[str, dict[str, float]]:
    """The distribution ``name`` of each variant, on one linear axis for all (empty for a variant
    without it, so that each variant keeps its colour; empty for all: no chart)."""
    hists = {label: s["distributions"].get(name) or {} for label, s in summaries.items()}
    keys = [int(k) for hist in hists.values() for k in hist]
    if not keys:
        return {}
    return {label: _share(hist, width, (min(keys), max(keys))) for label, hist in hists.items()}


def _charts(summaries: dict[str, dict]) -> dict[str, str]:
    """The charts of each part of the report: success by bid (with intervals), the bidder's
    round points and the final totals with the balance, the game's length with the length."""
    by_bid, by_bid_ci = {}, {}
    for label, s in summaries.items():
        figs = {name.rsplit("_", 1)[1]: fig for name, fig in s["figures"].items()
                if name.startswith("bidder_success_at_") and fig["n"]}
        by_bid[label] = {level: fig["rate"] for level, fig in figs.items()}
        by_bid_ci[label] = {level: tuple(fig["ci95"]) for level, fig in figs.items()}
    bidder = next((s.get("roles", {}).get("bidder") for s in summaries.values() if s.get("roles")), None)
    balance, length = [], []
    if bidder and any(by_bid.values()):
        balance = [bar_chart(f"The {bidder}'s success rate by bid (95% intervals)", by_bid, by_bid_ci),
                   bar_chart(f"The {bidder}'s points in a round (share of rounds, buckets of 10)",
                             _shares(summaries, "bidder_round_points", 10))]
    totals = _shares(summaries, "final_totals", 25)
    if totals:
        balance.append(bar_chart("Final totals (share of players, buckets of 25)", totals))
    lengths = _shares(summaries, "rounds_per_game")
    if lengths:
        length.append(bar_chart("Game length in rounds (share of games)", lengths))
    return {key: '<div class="charts">' + "".join(charts) + "</div>"
            for key, charts in (("balance", balance), ("length", length)) if charts}


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


# -- the rows of the tables ------------------------------------------------------------------------

def figure_rows(summary: dict) -> list[dict]:
    """One simulation's figures as rows (name, label, value, lo, hi, n, rate), the first seat's
    advantage and the seat fairness among them, in the order a designer asks."""
    rows = []
    for name, fig in summary["figures"].items():
        rate = "rate" in fig
        rows.append({"name": name, "label": fig["label"], "value": fig.get("rate", fig.get("mean")),
                     "lo": fig["ci95"][0], "hi": fig["ci95"][1], "n": fig["n"], "rate": rate})
    advantage = summary.get("first_seat_advantage")
    if advantage:
        rows.append({"name": "first_seat_advantage", "label": label_of("first_seat_advantage"),
                     "value": advantage["mean"], "lo": advantage["ci95"][0], "hi": advantage["ci95"][1],
                     "n": advantage["n"], "rate": True})
    fairness = summary.get("seat_fairness")
    if fairness:
        rate = fairness["unit"] == "rate"
        rows.append({"name": "seat_fairness",
                     "label": f"{label_of('seat_fairness')} ({'games won' if rate else 'points per round'})",
                     "value": fairness["mean"], "lo": fairness["ci95"][0], "hi": fairness["ci95"][1],
                     "n": fairness["n"], "rate": rate})
    shown = {row["name"]: i for i, row in enumerate(rows)}
    return sorted(rows, key=lambda row: (designer_rank(row["name"]), shown[row["name"]]))


_SIG = ' class="sig"'


def _cell(text: str, label: str, cls: str = "num") -> str:
    return f'<td class="{cls}" data-label="{html.escape(label)}">{html.escape(text)}</td>'


def _name_cell(name: str, label: str) -> str:
    return f'<td title="{html.escape(name)}">{html.escape(label)}</td>'


def _simulation_table(rows: list[dict], group: str = "") -> str:
    body = "".join(
        f'<tr{_SIG if row.get("beyond") else ""}>{_name_cell(row["name"], row["label"])}'
        f'{_cell(_num(row["value"], row["rate"]), "value")}'
        f'{_cell(_interval(row["lo"], row["hi"], row["rate"]), "95% interval")}'
        f'{_cell(str(row["n"]), "n") if "n" in row else ""}</tr>' for row in rows)
    n = "<th>n</th>" if rows and "n" in rows[0] else ""
    return (f'<table class="figures" data-group="{group}"><thead><tr><th>figure</th><th>value</th>'
            f"<th>95% interval</th>{n}</tr></thead><tbody>{body}</tbody></table>")


def _difference_table(rows: list[dict], data: dict, group: str = "", significance: bool = True) -> str:
    """B - A, figure by figure; ``significance``: with the column that says which moved (and
    those rows highlighted), else (the summary's table, where all did) neither."""
    body = []
    for d in rows:
        rate = is_rate_figure(d, data)
        lo, hi = d["ci95"]
        body.append(
            f'<tr{_SIG if d["significant"] and significance else ""}>{_name_cell(d["figure"], d["label"])}'
            f'{_cell(_num(d["a"], rate), "A")}{_cell(_num(d["b"], rate), "B")}'
            f'{_cell(_num(d["difference"], rate, signed=True), "B − A")}'
            f'{_cell(_interval(lo, hi, rate), "95% interval")}'
            + (_cell("yes" if d["significant"] else "no", "significant", "mark") if significance else "")
            + "</tr>")
    mark = "<th>significant</th>" if significance else ""
    return (f'<table class="figures" data-group="{group}"><thead><tr><th>figure</th><th>A</th><th>B</th>'
            f"<th>B − A</th><th>95% interval</th>{mark}</tr></thead><tbody>{''.join(body)}</tbody></table>")


def _grouped(rows: list, key, table, charts: dict | None = None, level: int = 2, of: str = "") -> str:
    """Each part of the report (balance, length, mechanics) with its heading, charts and table
    (``of``: the variant of a part nested under a heading of ``level`` - 1)."""
    out = []
    for group, heading, _ in REPORT_GROUPS:
        mine = [row for row in rows if report_group(key(row)) == group]
        chart = (charts or {}).get(group, "")
        where = f'data-of="{html.escape(of)}"' if of else f'id="{group}"'
        if mine or chart:
            out.append(f'<section {where} class="part"><h{level}>{html.escape(heading)}</h{level}>{chart}'
                       f"{table(mine, group) if mine else ''}</section>")
    return "".join(out)


def _warnings(data: dict) -> str:
    return "".join(f'<p class="warn">Warning: {html.escape(w)}</p>' for w in data.get("warnings", ()))


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# -- a simulation ------------------------------------------------------------------------------------

# the figures whose fair value is 0: when the 95% interval leaves 0 out, the game favours a side
FAIRNESS_CHECKS = {"role_gap_per_round": "the role gap", "seat_fairness": "the seat fairness",
                   "first_seat_advantage": "the first seat's advantage"}
# the figures a simulation's summary shows, in this order, when the variant has them
FOUND = ("bidder_success", "rounds_per_game", "minutes_per_game", "role_gap_per_round", "seat_fairness",
         "first_seat_advantage")


def simulation_summary(data: dict, rows: list[dict]) -> str:
    """What was found, first: how long a game is, how often the bidder wins, and whether any
    fairness figure leaves its fair value (0) outside its interval; then those figures."""
    by_name = {row["name"]: row for row in rows}
    run = data["run"]
    if data.get("games"):
        what = f"Over {data['games']} games ({data['rounds']} rounds) played by {run['players']} players"
    else:
        what = f"Over {data['rounds']} single rounds played by {run['players']} players"
    facts = []
    if "rounds_per_game" in by_name:
        r = by_name["rounds_per_game"]
        minutes = by_name.get("minutes_per_game")
        facts.append(f"a game lasted {_num(r['value'])} rounds {_interval(r['lo'], r['hi'])}"
                     + (f", about {minutes['value']:.0f} minutes" if minutes else ""))
    if "bidder_success" in by_name:
        r = by_name["bidder_success"]
        bidder = (data.get("roles") or {}).get("bidder", "the bidder")
        facts.append(f"the {bidder} won {_num(r['value'], True)} of the rounds {_interval(r['lo'], r['hi'], True)}")
    lead = f"{what}, {_and(facts)}." if facts else f"{what}."
    checked = [name for name in FAIRNESS_CHECKS
               if name in by_name and None not in (by_name[name]["lo"], by_name[name]["hi"])]
    beyond = [name for name in checked if by_name[name]["lo"] > 0 or by_name[name]["hi"] < 0]
    for name in beyond:
        by_name[name]["beyond"] = True
    if beyond:
        verdict = (f"Beyond chance, the game favours a side: {_and([FAIRNESS_CHECKS[n] for n in beyond])} "
                   f"{'leaves' if len(beyond) == 1 else 'leave'} 0 (fair) outside the 95% interval.")
    elif checked:
        verdict = ("Nothing departs from a fair game beyond chance: every fairness figure's 95% interval "
                   "holds 0.")
    else:
        verdict = ""
    shown = [dict(by_name[name]) for name in FOUND if name in by_name]
    for row in shown:
        row.pop("n", None)
    return (f'<section id="summary" class="summary"><h2>What was found</h2><p class="lead">{html.escape(lead)} '
            f"{html.escape(verdict)}</p>{_warnings(data)}{_simulation_table(shown, 'summary') if shown else ''}"
            "<p class=\"note\">Highlighted: a fairness figure whose 95% interval leaves out 0, each read alone "
            "(a simulation has nothing to compare against; a comparison tests every figure together, with "
            "Holm's correction).</p></section>")


def simulation_report(data: dict, analysis: dict | None = None) -> str:
    """The page for one simulation (``data`` as `chimera simulate --json` prints it)."""
    run = data["run"]
    variant = run["variants"][0]
    title = f"Simulation: {variant['name']}"
    rows = figure_rows(data)
    body = (f"<h1>{html.escape(title)}</h1>"
            f"{simulation_summary(data, rows)}"
            f"{_grouped(rows, lambda row: row['name'], _simulation_table, _charts({variant['name']: data}))}"
            f"{analysis_section(analysis) if analysis else ''}"
            "<h2>About this run</h2>"
            f"<p class=\"note\">{html.escape(_variant_line(variant))}<br>{html.escape(_run_line(run))}</p>"
            "<p class=\"note\">Intervals are clustered by game (the seats of a round and the rounds of a game "
            "are not independent): rates carry Wilson 95% intervals, counts quasi-Poisson score intervals (never "
            "below zero), other means normal ones; the seat fairness a parametric bootstrap's. Positions count "
            "from the dealer in seat numbers: position 0 is the dealer, position 1 the next seat; win rates "
            "count from the first dealer.</p>")
    return _page(title, body)


# -- a comparison ------------------------------------------------------------------------------------

def _family_of(name: str) -> str:
    """Figures that tell the same thing (every position's points, turns and minutes): the
    summary shows one of them."""
    name = re.sub(r"_\d+(?=_|$)", "_N", name)
    return name.replace("turns_per_", "minutes_per_")


def headline_differences(data: dict) -> list[dict]:
    """The few significant differences the summary shows: the first of each designer group
    (fairness, success, length, shape, mechanics), then the next ones in the table's order, one
    of a family, at most HEADLINES."""
    significant = [d for d in data["differences"] if d["significant"]]
    picked: list[dict] = []
    families: set[str] = set()
    for first_only in (True, False):
        groups = set()
        for d in significant:
            group, family = designer_group(d["figure"]), _family_of(d["figure"])
            if len(picked) >= HEADLINES or family in families or (first_only and group in groups):
                continue
            picked.append(d)
            families.add(family)
            groups.add(group)
    order = {id(d): i for i, d in enumerate(data["differences"])}
    return sorted(picked, key=lambda d: order[id(d)])


def comparison_summary(data: dict, label_a: str, label_b: str) -> str:
    """What changed, first: how many figures moved beyond chance after Holm's correction, in
    which parts, and the few that lead each part, with their intervals."""
    run = data["run"]
    family = correction_family(data)
    deals = "the same seeded deals" if data["same_deals"] else "the same seeds (the deals differ)"
    over = f"{run['units']} {run['unit']} on {deals}, {run['players']} players"
    tested = [d for d in data["differences"] if d["significant"] and d.get("p_adjusted") is not None]
    if tested:
        counts: dict[str, int] = {}
        for d in tested:
            counts[report_group(d["figure"])] = counts.get(report_group(d["figure"]), 0) + 1
        parts = [f"{key} ({counts[key]})" for key, _, _ in REPORT_GROUPS if key in counts]
        lead = (f"From {label_a} to {label_b}, over {over}: {len(tested)} of the {family} figures compared "
                f"moved beyond chance (Holm's correction at 5%), in {_and(parts)}.")
    else:
        lead = (f"From {label_a} to {label_b}, over {over}: nothing moved beyond chance; after Holm's "
                f"correction at 5%, none of the {family} figures compared differs.")
    fairness = next((d for d in data["differences"] if d["significant"] and d.get("p_adjusted") is None), None)
    if fairness:
        name = FAIRNESS_CHECKS.get(fairness["figure"], fairness["label"])
        lead += f" {name[:1].upper() + name[1:]} moved too (read from its own interval, outside Holm's family)."
    shown = headline_differences(data)
    more = sum(d["significant"] for d in data["differences"]) - len(shown)
    table = _difference_table(shown, data, "summary", significance=False) if shown else ""
    after = (f"<p class=\"note\">{'The main ones' if more else 'They'} are above; "
             f"{f'{more} more are' if more else 'every one is'} highlighted in the tables below. The interval is "
             "the difference's own 95% interval.</p>") if shown else ""
    return (f'<section id="summary" class="summary"><h2>What changed</h2><p class="lead">{html.escape(lead)}</p>'
            f"{_warnings(data)}{table}{after}</section>")


def comparison_report(data: dict, analysis: dict | None = None) -> str:
    """The page for a comparison (``data`` as `chimera compare --json` prints it)."""
    run = data["run"]
    va, vb = run["variants"]
    label_a, label_b = f"A: {va['name']}", f"B: {vb['name']}"
    deals = ("Both variants played the same seeded deals." if data["same_deals"] else
             "Same seeds, but the decks or deals differ, so the deals do too.")
    title = f"Comparison: {va['name']} / {vb['name']}"
    family = correction_family(data)

    def each(summary: dict, label: str) -> str:
        return (f"<details><summary>{html.escape(label)}: every figure with its own 95% interval</summary>"
                f"{_grouped(figure_rows(summary), lambda row: row['name'], _simulation_table, level=3, of=label)}"
                "</details>")

    def differences(rows: list, group: str) -> str:
        return _difference_table(rows, data, group)

    charts = _charts({label_a: data["a"], label_b: data["b"]})
    body = (f"<h1>{html.escape(title)}</h1>"
            f"{comparison_summary(data, label_a, label_b)}"
            f"<p class=\"note\">Each part below lists the differences B − A: significant ones first "
            f"(highlighted: Holm's adjusted p-value over the {family} figures compared is below 5%), the interval "
            f"being each figure's own 95% interval; {MISSING} : the figure does not exist in that variant.</p>"
            f"{_grouped(data['differences'], lambda d: d['figure'], differences, charts)}"
            f"<h2>Each variant alone</h2>{each(data['a'], label_a)}{each(data['b'], label_b)}"
            f"{analysis_section(analysis) if analysis else ''}"
            "<h2>About this run</h2>"
            f"<p class=\"note\">{html.escape(label_a)} — {html.escape(va['path'])}<br>"
            f"{html.escape(label_b)} — {html.escape(vb['path'])}<br>{html.escape(_run_line(run))}. "
            f"{html.escape(deals)} Differences are paired seed by seed (the seat fairness's is not; it is read "
            "from its own bootstrap interval, outside Holm's family).</p>")
    return _page(title, body)


def _percent(x) -> str:
    """A chance, with DECIMALS decimals like every number of the report; a chance too small for
    them but not nil reads "<0.01%", never "0.00%"."""
    if x is None:
        return MISSING
    if 0 < 100 * x < 10 ** -DECIMALS / 2:
        return f"<{10 ** -DECIMALS:.{DECIMALS}f}%"
    return f"{100 * x:.{DECIMALS}f}%"


def _chance_interval(ci95) -> str:
    return html.escape(f"[{_percent(ci95[0])}, {_percent(ci95[1])}]")


def _analysis_part(part: dict, label: str = "") -> str:
    """The tables of one variant's analysis."""
    out = []
    for hand in part["hands"]:
        method = ("exact: every rank-count hand listed, weighted by the card sets it stands for"
                  if hand["method"] == "exact" else
                  f"sampled: {hand['samples']} hands drawn (seed {hand['seed']}), Wilson 95% intervals")
        rows = "".join(
            f"<tr><td>{html.escape(c['name'])}</td><td>{html.escape(_percent(c['chance']))}</td>"
            f"<td>{'exact' if c['ci95'] is None else _chance_interval(c['ci95'])}</td></tr>"
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
