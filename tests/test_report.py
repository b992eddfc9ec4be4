"""The HTML report: self-contained, complete, and rendered by a real headless browser."""
from __future__ import annotations

import html
import os
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

import chimera_dsl
from chimera_dsl.study.report import PALETTE, comparison_report, simulation_report
from chimera_dsl.study.simulate import compare, comparison_data, simulate, simulation_data

ROOT = Path(__file__).resolve().parents[1]
OFFICIAL = ROOT / "variants" / "chimera.yaml"
DOUBLE = ROOT / "variants" / "house_rules" / "double-treasures.yaml"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
BROWSER = next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")
                if shutil.which(name)), None)


@pytest.fixture(scope="module")
def pages():
    official = chimera_dsl.load_variant(OFFICIAL)
    summary, info = simulate(official, 12, seed=5, players="random", workers=1)
    comparison = compare(official, chimera_dsl.load_variant(DOUBLE), 12, seed=5, players="random", workers=1)
    sim, cmp = simulation_data(summary, info), comparison_data(comparison)
    return {"simulation": (simulation_report(sim), sim), "comparison": (comparison_report(cmp), cmp)}


@pytest.mark.parametrize("kind", ["simulation", "comparison"])
def test_report_is_self_contained(pages, kind):
    page, _ = pages[kind]
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page.lower()
    assert not re.search(r"""(src|href)\s*=|url\(|@import""", page), "nothing may be fetched"
    # the only URL is the SVG namespace, which names, never loads
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) <= {"http://www.w3.org/2000/svg"}


def test_simulation_report_has_every_figure_and_the_charts(pages):
    page, data = pages["simulation"]
    text = html.unescape(page)
    for fig in data["figures"].values():
        assert f">{fig['label']}</td>" in text
    assert page.count("<svg") == 4
    for caption in ("success rate by bid", "points in a round", "Final totals", "Game length"):
        assert caption in page
    assert "first seat's advantage" in text


def _group_tables(page: str) -> dict[str, str]:
    """The table of each part of the page (balance, length, mechanics), by its group."""
    return {group: page.split(f'<section id="{group}"', 1)[1].split("</table>", 1)[0]
            for group in ("balance", "length", "mechanics") if f'<section id="{group}"' in page}


def test_comparison_report_lists_differences_designer_figures_first(pages):
    page, data = pages["comparison"]
    tables = _group_tables(page)
    assert list(tables) == ["balance", "length", "mechanics"]
    labels = [name for table in tables.values() for name in re.findall(r'<td title="([^"]+)">', table)]
    assert labels == [d["figure"] for d in data["differences"]]
    table = "".join(tables.values())
    assert "Holm" in page
    # doubling the treasures doubles the treasure points: significant even after Holm's
    # correction, and shown before the mechanical figures of its group
    significant = [d["figure"] for d in data["differences"] if d["significant"]]
    assert "others_treasures_per_round" in significant
    assert labels.index("role_gap_per_round") < labels.index("others_treasures_per_round")
    assert 'class="sig"' in table


# -- a real browser -------------------------------------------------------------------------------

def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit, non-interlaced RGB/RGBA PNG (what Chromium writes) into rows of pixels."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if bpp == 3 else bytes(v for j, v in enumerate(line) if j % 4 != 3))
        prev = line
    return width, height, rows


def render(html_file: Path, tmp_path: Path, size=(1280, 1400)) -> tuple[list[bytes], str]:
    """Screenshot a page in headless Chromium; return its pixel rows and the browser's log."""
    if BROWSER is None:
        if IN_CI:
            pytest.fail("CI=true but no chromium found: .ci/run must install it")
        pytest.skip("chromium is not installed (apt-get install -y chromium); under CI it must be")
    shot = tmp_path / (html_file.stem + ".png")
    proc = subprocess.run(
        [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
         f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr", "--v=0",
         f"--screenshot={shot}", f"--window-size={size[0]},{size[1]}", html_file.as_uri()],
        capture_output=True, text=True, timeout=120)
    assert shot.exists(), f"no screenshot (exit {proc.returncode}): {proc.stderr[-2000:]}"
    _, _, rows = png_pixels(shot.read_bytes())
    return rows, proc.stderr


def console_messages(log: str) -> list[str]:
    return [line for line in log.splitlines() if ":CONSOLE" in line or "Uncaught" in line]


def colours_of(rows: list[bytes]) -> dict[bytes, int]:
    counts: dict[bytes, int] = {}
    for row in rows[::4]:
        for i in range(0, len(row), 12):            # every 4th pixel of every 4th row
            px = row[i:i + 3]
            counts[px] = counts.get(px, 0) + 1
    return counts


def test_the_console_check_catches_errors(tmp_path):
    """A page that logs an error must be caught: the check below is not vacuous."""
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html><body><p>x</p><script>console.error("boom"); nope();</script></body></html>')
    _, log = render(bad, tmp_path, (400, 300))
    messages = console_messages(log)
    assert any("boom" in m for m in messages) and any("nope" in m for m in messages)


@pytest.mark.parametrize("kind", ["simulation", "comparison"])
def test_report_renders_in_a_headless_browser(pages, tmp_path, kind):
    page, _ = pages[kind]
    html_file = tmp_path / f"{kind}.html"
    html_file.write_text(page, encoding="utf-8")
    rows, log = render(html_file, tmp_path)
    assert console_messages(log) == []
    counts = colours_of(rows)
    total = sum(counts.values())
    white = counts.get(b"\xff\xff\xff", 0)
    assert len(counts) > 20, "the screenshot is nearly blank"
    assert white < 0.97 * total, "the screenshot is nearly all white"
    # the bars of the charts were drawn in the palette's first colour (and, comparing, its second)
    drawn = [bytes.fromhex(c[1:]) for c in PALETTE[:2 if kind == "comparison" else 1]]
    for colour in drawn:
        assert counts.get(colour, 0) > 50, f"no chart bars of colour {colour.hex()}"


# -- what a reader sees first, and how the numbers read -----------------------------------------------

INTERVAL = re.compile(r"^\[-?\d+\.\d\d%?, -?\d+\.\d\d%?\]$")       # "[-15.80%, -11.70%]"


def test_the_summary_names_what_moved_beyond_chance_with_its_interval(pages):
    page, data = pages["comparison"]
    summary = page.split('<section id="summary"', 1)[1].split("</section>", 1)[0]
    shown = re.findall(r'<td title="([^"]+)">', summary)
    moved = {d["figure"]: d for d in data["differences"] if d["significant"]}
    assert shown and set(shown) <= set(moved) and len(shown) <= 5, shown
    assert "others_treasures_per_round" in shown or "bidder_treasures_per_round" in shown
    intervals = re.findall(r'data-label="95% interval">([^<]*)<', summary)
    assert len(intervals) == len(shown) and all(INTERVAL.match(i) for i in intervals), intervals
    assert f"{sum(d['p_adjusted'] is not None for d in moved.values())} of the" in summary and "Holm" in summary


def test_the_summary_says_so_when_nothing_moved(pages):
    _, data = pages["comparison"]
    still = {**data, "differences": [{**d, "significant": False} for d in data["differences"]]}
    page = comparison_report(still)
    summary = page.split('<section id="summary"', 1)[1].split("</section>", 1)[0]
    assert "nothing moved beyond chance" in summary and "<table" not in summary


def test_the_simulation_summary_says_what_was_found(pages):
    page, data = pages["simulation"]
    assert page.index('<section id="summary"') < page.index('<section id="balance"')
    summary = html.unescape(page.split('<section id="summary"', 1)[1].split("</section>", 1)[0])
    assert "What was found" in summary and f"Over {data['games']} games" in summary
    rounds = data["figures"]["rounds_per_game"]
    assert f"a game lasted {rounds['mean']:.2f} rounds [{rounds['ci95'][0]:.2f}, {rounds['ci95'][1]:.2f}]" in summary
    # a fairness figure whose interval leaves 0 out is said to favour a side, and only then
    role = data["figures"]["role_gap_per_round"]
    unfair = role["ci95"][0] > 0 or role["ci95"][1] < 0
    assert ("the role gap" in summary.split("Beyond chance", 1)[-1].split(".", 1)[0]) == unfair


# -- in a real browser: at 1280 px and on a phone --------------------------------------------------------

ARTIFACTS = ROOT / "tests" / "artifacts" / "report"
SIZES = {"1280x800": {"width": 1280, "height": 800}, "390x844": {"width": 390, "height": 844}}

# what the page tells a browser test about itself: where the summary stands, each table column's
# numbers, every interval cell, and every element whose content is wider than its box
MEASURE = """() => {
  const top = (e) => e.getBoundingClientRect().top;
  const summary = document.getElementById('summary');
  const others = [...document.querySelectorAll('h2, table, figure, details')].filter((e) => !summary.contains(e));
  const columns = [];
  for (const table of document.querySelectorAll('table.figures')) {
    const rows = [...table.querySelectorAll('tbody tr')];
    const width = Math.max(0, ...rows.map((r) => r.cells.length));
    for (let i = 1; i < width; i++) columns.push({table: table.dataset.group, column: i,
      cells: rows.map((r) => r.cells[i] ? r.cells[i].textContent : '')});
  }
  const intervals = [...document.querySelectorAll('td[data-label="95% interval"]')].map((e) => e.textContent);
  const overflowing = [];
  for (const e of document.querySelectorAll('figure, figure :not(svg):not(svg *), td, th, h1, h2, p, section')) {
    if (e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
      overflowing.push(`${e.tagName} "${e.textContent.slice(0, 60)}" ${e.scrollWidth} > ${e.clientWidth}`);
  }
  for (const svg of document.querySelectorAll('figure svg')) {         // labels cut by the chart's edge
    const box = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll('text')) {
      const r = t.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
        overflowing.push(`svg text "${t.textContent}" outside its chart`);
    }
  }
  return {summaryTop: top(summary), firstOther: Math.min(...others.map(top)),
          summaryIndex: [...document.body.children].indexOf(summary), columns, intervals, overflowing,
          pageWidth: document.documentElement.scrollWidth, legends: document.querySelectorAll('.legend li').length};
}"""


def _decimals(cell: str) -> set[int]:
    return {len(d) for d in re.findall(r"\d+\.(\d+)", cell)} | ({0} if re.fullmatch(r"[+-]?\d+%?", cell) else set())


@pytest.fixture(scope="module")
def played():
    """A simulation and a comparison by heuristic players: the pages as people read them."""
    official = chimera_dsl.load_variant(OFFICIAL)
    summary, info = simulate(official, 16, seed=3, players="heuristic", workers=1)
    comparison = compare(official, chimera_dsl.load_variant(DOUBLE), 16, seed=3, players="heuristic", workers=1)
    return {"simulation": simulation_report(simulation_data(summary, info)),
            "comparison": comparison_report(comparison_data(comparison))}


@pytest.mark.parametrize("kind", ["simulation", "comparison"])
def test_the_report_reads_well_on_a_desk_and_a_phone(played, tmp_path, kind):
    from serve_support import BROWSER_ARGS, chromium, require
    sync_api = require("playwright.sync_api", "pip install playwright (no browser download: chromium from apt)")
    path = chromium()
    html_file = tmp_path / f"{kind}.html"
    html_file.write_text(played[kind], encoding="utf-8")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    seen, shots = {}, []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=BROWSER_ARGS)
        for size, viewport in SIZES.items():
            page = browser.new_context(viewport=viewport).new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("console", lambda message: errors.append(message.text))
            page.goto(html_file.as_uri())
            for shot, full in ((ARTIFACTS / f"{kind}-{size}.png", False), (ARTIFACTS / f"{kind}-{size}-full.png", True)):
                page.screenshot(path=shot, full_page=full)
                shots.append(shot)
            seen[size] = (page.evaluate(MEASURE), errors)
        browser.close()

    assert all(shot.stat().st_size > 10_000 for shot in shots)
    for size, (measured, errors) in seen.items():
        assert not errors, (size, errors)
        # the summary comes first: right after the title, above every table, chart and heading
        assert measured["summaryIndex"] == 1 and measured["summaryTop"] < measured["firstOther"], (size, measured)
        # the numbers of a column share their decimals (n: none; every other: two)
        for column in measured["columns"]:
            decimals = set().union(*(_decimals(c) for c in column["cells"] if c != "–"))
            assert len(decimals) <= 1, (size, column["table"], column["column"], decimals, column["cells"])
        # intervals read "[low, high]", never "low – high"
        assert measured["intervals"] and all(i == "–" or INTERVAL.match(i) for i in measured["intervals"]), \
            [i for i in measured["intervals"] if i != "–" and not INTERVAL.match(i)]
        # charts whole, legends and labels uncut, nothing wider than its box or the screen
        assert measured["legends"] >= (8 if kind == "comparison" else 4)
        assert measured["overflowing"] == [], (size, measured["overflowing"])
        assert measured["pageWidth"] <= SIZES[size]["width"], (size, measured["pageWidth"])

    target = os.environ.get("CHIMERA_SCREENSHOTS")
    if target:
        os.makedirs(target, exist_ok=True)
        for shot in shots:
            shutil.copy(shot, Path(target) / f"report-{shot.name}")


def test_a_comparisons_distributions_share_one_linear_axis(pages):
    """Two variants whose final totals lie far apart are drawn on one axis: its labels step evenly."""
    _, data = pages["comparison"]
    far = {**data["b"], "distributions": {**data["b"]["distributions"], "final_totals": {
        str(int(k) + 1000): v for k, v in data["b"]["distributions"]["final_totals"].items()}}}
    page = comparison_report({**data, "b": far})
    chart = page.split("<figcaption>Final totals (share of players", 1)[0].rsplit("<figure>", 1)[1]
    labels = [int(x) for x in re.findall(r'text-anchor="middle">(-?\d+)</text>', chart)]
    steps = {b - a for a, b in zip(labels, labels[1:])}
    assert len(labels) >= 3 and len(steps) == 1, labels


def test_the_chances_before_play_share_their_decimals_and_a_rare_one_is_not_zero():
    from chimera_dsl.study.report import analysis_section
    hand = {"method": "sampled", "samples": 100, "seed": 1, "what": "a hand as dealt", "cards": 5,
            "combinations": {"pair": {"name": "Pair", "chance": 0.5, "ci95": [0.4, 0.6]},
                             "bomb": {"name": "Bomb", "chance": 0.00002, "ci95": [0.0, 0.0371]}}}
    page = analysis_section({"hands": [hand], "never": [], "ambiguities": [], "deck_plays": {"complete": True},
                             "budget": {"deck_plays": 1}})
    cells = [html.unescape(c) for c in re.findall(r"<td>([^<]*)</td>", page)]
    assert cells == ["Pair", "50.00%", "[40.00%, 60.00%]", "Bomb", "<0.01%", "[0.00%, 3.71%]"]
