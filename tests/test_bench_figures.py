"""bench/bench_figures.py reads saved `simulate --json` outputs back into its table: each figure
the file has, the default player's value against the search player's 95% interval."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _bench():
    spec = importlib.util.spec_from_file_location("bench_figures", ROOT / "bench" / "bench_figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _output(rounds, gap, seat, success=None):
    figures = {"role_gap_per_round": {"n": rounds, "mean": gap[0], "ci95": gap[1:]}}
    if success is not None:
        figures["bidder_success"] = {"n": rounds, "rate": success[0], "ci95": success[1:]}
    return {"rounds": rounds, "figures": figures,
            "seat_fairness": {"n": rounds, "mean": seat[0], "ci95": seat[1:], "unit": "points per round"}}


def test_every_base_file_is_measured():
    files = _bench().base_files()
    assert "variants/chimera.yaml" in files and "variants/others/tichu.yaml" in files
    assert len(files) == len(list(ROOT.glob("variants/*.yaml"))) + len(list(ROOT.glob("variants/others/*.yaml")))
    assert not [f for f in files if "house_rules" in f or "official" in f]


def test_the_table_says_inside_or_outside_from_the_saved_outputs(tmp_path):
    bench = _bench()
    path = "variants/others/doudizhu.yaml"
    saved = {"heuristic": _output(300, (6.8, 5.0, 8.6), (0.6, 0.0, 1.5), (0.753, 0.70, 0.80)),
             "search": _output(280, (9.4, 7.7, 11.0), (0.7, 0.0, 1.9), (0.80, 0.76, 0.84))}
    for player, data in saved.items():
        Path(bench.saved_path(str(tmp_path), path, player)).write_text(json.dumps(data))
    rows = bench.rows(str(tmp_path), [path, "variants/chimera.yaml"])
    by_figure = {r["figure"]: r for r in rows if "figure" in r}
    assert by_figure["role_gap_per_round"]["inside"] is False
    assert by_figure["seat_fairness"]["inside"] is True
    assert by_figure["bidder_success"]["inside"] is False
    assert by_figure["bidder_success"]["rounds"] == (300, 280)
    assert rows[-1] == {"file": "variants/chimera.yaml", "missing": ["heuristic", "search"]}
    table = bench.markdown(rows)
    assert "| `variants/others/doudizhu.yaml` | 300 / 280 | bidder success | 75.3% | 80.0% [76.0%, 84.0%] | no |" in table
    assert "| `variants/others/doudizhu.yaml` | 300 / 280 | role fairness (points) | +6.8 | +9.4 [+7.7, +11.0] | no |" in table
    assert "`variants/chimera.yaml` | not yet played: heuristic, search" in table


def test_summarize_plays_nothing(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_figures.py"), "--out", str(tmp_path),
                           "--summarize", "--files", "variants/others/hearts.yaml"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "not yet played: heuristic, search" in done.stdout
    assert list(tmp_path.iterdir()) == []


def test_by_role_gives_the_bidder_one_player_and_the_others_another():
    """With the random player as the bidder against heuristic others, the bidder wins far less
    often than with the heuristic player in every seat, on the same deals."""
    bench = _bench()
    both = bench.by_role("variants/others/doudizhu.yaml", "heuristic", "heuristic", 30, 0)
    weak = bench.by_role("variants/others/doudizhu.yaml", "random", "heuristic", 30, 0)
    assert both["rounds"] == weak["rounds"] == 30
    assert weak["bidder_success"] < both["bidder_success"] - 0.3, (weak, both)
