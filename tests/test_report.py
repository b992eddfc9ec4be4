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
