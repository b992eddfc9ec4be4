"""The default player's balance figures against the search player's, on every shipped file.

    python bench/bench_figures.py --out /tmp/figures-json              # play what is missing, then print the table
    python bench/bench_figures.py --out /tmp/figures-json --summarize  # print the table from the saved outputs only
    python bench/bench_figures.py --out DIR --files variants/others/hearts.yaml --rounds 50

For each base file (``variants/*.yaml`` and ``variants/others/*.yaml``) it runs
``chimera simulate FILE --rounds N --players heuristic --json`` and the same with
``--players search`` (seed 0, ``--workers 1``, under ``nice``; ``--parallel`` files at once,
two by default), and keeps each JSON output in ``--out`` as ``NAME.PLAYER.json``: a run
already saved is not played again, so the table can be printed again, or a run cut short
finished, without replaying games.  The table gives, for each figure the file has (role
fairness ``role_gap_per_round``, seat fairness ``seat_fairness``, bidder success
``bidder_success``: see docs/figures.md), the default player's value, the search player's
with its 95% interval, and whether the first falls inside the second.

    python bench/bench_figures.py --roles search,heuristic --files variants/others/doudizhu.yaml --rounds 150

``--roles BIDDER,OTHERS`` plays the same single rounds (the deals of ``simulate --seed 0``)
with the bidder's decisions made by one player and the others' by the other (a seat takes
the bidder's player once it is the bidder), and prints the bidder's success, its points per
round and its plays of a higher tier (bombs) per round: which role a player's figures come from.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PLAYERS = ("heuristic", "search")
FIGURES = (("role_gap_per_round", "role fairness (points)"),
           ("seat_fairness", "seat fairness (points)"),
           ("bidder_success", "bidder success"))


def base_files() -> list[str]:
    """Every shipped base file, relative to the repository."""
    paths = sorted(glob.glob(os.path.join(ROOT, "variants", "*.yaml")))
    paths += sorted(glob.glob(os.path.join(ROOT, "variants", "others", "*.yaml")))
    return [os.path.relpath(p, ROOT) for p in paths]


def saved_path(out: str, path: str, player: str) -> str:
    name = os.path.splitext(path.replace(os.sep, "_"))[0]
    return os.path.join(out, f"{name}.{player}.json")


def load(path: str) -> dict | None:
    """A saved output, or None when it is missing, cut short, or not one of ``simulate --json``."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "rounds" in data else None


def run_one(job: tuple) -> str:
    """Play one file with one player unless its output is saved; return a line for the log."""
    path, player, rounds, seed, out, nice = job
    target = saved_path(out, path, player)
    if load(target) is not None:
        return f"{path} {player}: saved"
    command = [sys.executable, "-m", "chimera_dsl", "simulate", path, "--rounds", str(rounds),
               "--players", player, "--seed", str(seed), "--workers", "1", "--json"]
    if nice:
        command = ["nice", "-n", str(nice)] + command
    start = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        return f"{path} {player}: failed ({done.returncode}) {done.stderr.strip()[-300:]}"
    json.loads(done.stdout)
    with open(target + ".part", "w", encoding="utf-8") as f:
        f.write(done.stdout)
    os.replace(target + ".part", target)
    return f"{path} {player}: {rounds} rounds in {seconds:.0f} s"


def figure(data: dict, name: str) -> dict | None:
    if name == "seat_fairness":
        return data.get("seat_fairness")
    return data.get("figures", {}).get(name)


def value(fig: dict) -> float:
    return fig["rate"] if "rate" in fig else fig["mean"]


def show(x: float, rate: bool) -> str:
    return f"{100 * x:.1f}%" if rate else f"{x:+.1f}"


def rows(out: str, paths: list[str]) -> list[dict]:
    """One row per file and figure the file has: the two players' values, the interval, inside."""
    table = []
    for path in paths:
        data = {p: load(saved_path(out, path, p)) for p in PLAYERS}
        if None in data.values():
            table.append({"file": path, "missing": [p for p, d in data.items() if d is None]})
            continue
        for name, label in FIGURES:
            default, search = figure(data["heuristic"], name), figure(data["search"], name)
            if default is None or search is None:
                continue
            low, high = search["ci95"]
            rate = "rate" in search
            table.append({"file": path, "rounds": (data["heuristic"]["rounds"], data["search"]["rounds"]),
                          "figure": name, "label": label, "default": value(default),
                          "search": value(search), "ci95": (low, high), "rate": rate,
                          "inside": low <= value(default) <= high})
    return table


def markdown(table: list[dict]) -> str:
    lines = ["| file | rounds (default / search) | figure | default player | search player [95% interval] | inside |",
             "|---|---|---|---|---|---|"]
    for r in table:
        if "missing" in r:
            lines.append(f"| `{r['file']}` | not yet played: {', '.join(r['missing'])} | | | | |")
            continue
        low, high = r["ci95"]
        lines.append(f"| `{r['file']}` | {r['rounds'][0]} / {r['rounds'][1]} | {r['label']} | "
                     f"{show(r['default'], r['rate'])} | {show(r['search'], r['rate'])} "
                     f"[{show(low, r['rate'])}, {show(high, r['rate'])}] | {'yes' if r['inside'] else 'no'} |")
    return "\n".join(lines)


class ByRole:
    """A seat played by ``bidder`` while it is the bidder, else by ``others``."""

    name = "by-role"

    def __init__(self, bidder, others):
        self.bidder, self.others = bidder, others

    def act(self, observation, legal_actions):
        player = self.bidder if observation.bidder is not None and observation.bidder == observation.seat else self.others
        return player.act(observation, legal_actions)


def by_role(path: str, bidder: str, others: str, rounds: int, seed: int) -> dict:
    """The bidder's success, points and higher-tier plays per round over ``rounds`` single rounds."""
    sys.path.insert(0, ROOT)
    from chimera_dsl import load_variant
    from chimera_dsl.engine import Game
    from chimera_dsl.players import make_player, play_game
    from chimera_dsl.study.simulate import unit_seed
    rules = load_variant(os.path.join(ROOT, path))
    game = Game(rules, max_rounds=1)
    tiers = {c.id for c in rules.combinations if getattr(c, "tier", 0)}
    won = points = high = played = 0
    for i in range(rounds):
        s = unit_seed(seed, i)
        state = play_game(game, [ByRole(make_player(bidder, s * 1000 + k), make_player(others, s * 1000 + k))
                                 for k in range(game.players)], s)
        end = next(e for e in state.events if e["type"] == "round_end")
        # the record says whether the bidder won by the file's name for the role (``landlord_won``),
        # and names its seat at the round's end or in the event that made it (``chief``)
        flag = next((k for k in end if k.endswith("_won")), None)
        role = flag[:-4] if flag else None
        seat = end.get(role)
        if not isinstance(seat, int):
            seat = next((e.get("seat") for e in state.events if e["type"] == role), None)
        if seat is None:
            continue
        played += 1
        won += bool(end[flag])
        points += end["points"][seat]
        high += sum(1 for e in state.events if e["type"] == "play" and e["seat"] == seat and e.get("combination") in tiers)
    return {"rounds": played, "bidder_success": won / played if played else None,
            "bidder_points_per_round": points / played if played else None,
            "bidder_higher_tier_plays_per_round": high / played if played else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="folder of the saved JSON outputs (needed but with --roles)")
    parser.add_argument("--files", nargs="*", help="files to measure (default: every shipped base file)")
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--parallel", type=int, default=2, help="files played at once")
    parser.add_argument("--nice", type=int, default=5, help="niceness of the runs (0: none)")
    parser.add_argument("--players", nargs="*", default=list(PLAYERS), choices=PLAYERS,
                        help="play only these players' runs (the table still needs both)")
    parser.add_argument("--summarize", action="store_true", help="print the table from the saved outputs, play nothing")
    parser.add_argument("--roles", metavar="BIDDER,OTHERS",
                        help="play the bidder with one player and the others with another (see above)")
    args = parser.parse_args()
    paths = args.files or base_files()
    if args.roles:
        bidder, _, others = args.roles.partition(",")
        for path in paths:
            print(path, json.dumps(by_role(path, bidder.strip(), others.strip() or bidder.strip(), args.rounds, args.seed)))
        return
    if not args.out:
        parser.error("--out FOLDER is needed: where the outputs are kept")
    os.makedirs(args.out, exist_ok=True)
    if not args.summarize:
        jobs = [(p, player, args.rounds, args.seed, args.out, args.nice) for player in args.players for p in paths]
        with ThreadPoolExecutor(args.parallel) as pool:
            for line in pool.map(run_one, jobs):
                print(time.strftime("%H:%M:%S"), line, flush=True)
    print(markdown(rows(args.out, paths)))


if __name__ == "__main__":
    main()
