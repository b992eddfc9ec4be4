"""Trick-taking on one core: rounds per second, beside OpenSpiel, and the heuristic's strength.

    python bench/bench_tricks.py --games 0                   # speed: every file, and the peers
    python bench/bench_tricks.py                             # and the heuristic against random players
    python bench/bench_tricks.py --rounds 3000 --games 1000 --peer-rounds 5000

Speed: single rounds (``max_rounds=1``: the deal, the trump or the auction, every trick and
the scoring) with uniformly random players choosing among the legal actions, timed in CPU
seconds of this process (what one core gives) after a warm-up, for every shipped file whose
play is trick-taking (``variants/others/`` and ``variants/house_rules/``).  Target: 1,000
rounds per second on every file.  A Mü round is mostly its auction (random players lay cards
nearly every turn, so most auctions end in a dispute and a new deal): a turn's lays are
counted, not listed (``chimera_dsl.engine.phases.auction.Lays``), and the draw below reads one
of them by its index.

Peers: OpenSpiel's six trick-taking games (``pyspiel``, the ``peers`` extra) against the file
that plays the same game (:data:`PEERS`), both driven the same way from Python: a loop that
takes a uniformly random legal action until the round ends (OpenSpiel's chance nodes sampled by
their probabilities; ours deals in ``new_game``), in the same process, in interleaved chunks
whose order alternates, so that the load of a shared machine falls on both alike.  The ratio is
ours / OpenSpiel's rounds per CPU second.  Target: at least 0.5 for each game.  A game whose file
is not shipped is skipped with a note.

Strength: ``--games`` whole games of Chibre and of Mü for three; one seat (Chibre: one team)
is the heuristic, the others random, the heuristic's seat turning with the seed; the share of
games it wins (alone or shared at the top) and its mean final total against the others'.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from chimera_dsl import load_variant  # noqa: E402
from chimera_dsl.engine import Game  # noqa: E402
from chimera_dsl.players import make_player, play_game  # noqa: E402

TARGET_ROUNDS = 1000
TARGET_RATIO = 0.5
STRENGTH_FILES = ("variants/others/chibre.yaml", "variants/others/mu-3.yaml", "variants/others/mu-4.yaml",
                  "variants/others/mu.yaml", "variants/others/mu-6.yaml")

# OpenSpiel's game, its parameters, and the file that plays it.  Oh Hell: OpenSpiel draws the
# number of tricks at random unless fixed; ours deals 10 cards in its first round, so the peer's
# is fixed at 10 too.  Bridge: played out (not scored double dummy after the auction).
PEERS = (
    ("hearts", {}, "variants/others/hearts.yaml"),
    ("spades", {}, "variants/others/spades.yaml"),
    ("oh_hell", {"players": 4, "num_tricks_fixed": 10}, "variants/others/oh-hell.yaml"),
    ("euchre", {"stick_the_dealer": False}, "variants/others/euchre.yaml"),
    ("skat", {}, "variants/house_rules/skat-openspiel.yaml"),
    ("bridge", {"use_double_dummy_result": False}, "variants/others/bridge.yaml"),
)


def trick_files() -> list[str]:
    """Every shipped file whose play is trick-taking, relative to the repository."""
    found = []
    for folder in ("others", "house_rules"):
        for path in sorted(glob.glob(os.path.join(ROOT, "variants", folder, "*.yaml"))):
            if (load_variant(path).spec.get("play") or {}).get("kind") == "tricks":
                found.append(os.path.relpath(path, ROOT))
    return found


def our_rounds(path: str):
    """A function playing random single rounds of ``path`` for given seeds; returns the actions taken."""
    game = Game(load_variant(os.path.join(ROOT, path)), max_rounds=1)
    rng = random.Random(1)

    def play(seeds) -> int:
        actions = 0
        for seed in seeds:
            state = game.new_game(seed)
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                actions += 1
        return actions
    return play


def peer_rounds(pyspiel, name: str, params: dict):
    """The same loop over OpenSpiel's game ``name``: chance outcomes drawn by their probabilities."""
    game = pyspiel.load_game(name, params)
    rng = random.Random(1)

    def play(seeds) -> int:
        actions = 0
        for _ in seeds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    pick = rng.random()
                    for action, probability in outcomes:
                        pick -= probability
                        if pick < 0:
                            break
                    state.apply_action(action)
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rng.random() * len(legal))])
                    actions += 1
        return actions
    return play


def timed(play, seeds) -> tuple[float, int]:
    """CPU seconds and actions of ``play(seeds)``."""
    cpu = time.process_time()
    actions = play(seeds)
    return time.process_time() - cpu, actions


def speed(path: str, rounds: int) -> dict:
    """Random single rounds of ``path`` per CPU second."""
    play = our_rounds(path)
    play(range(50))
    spent, actions = timed(play, range(1000, 1000 + rounds))
    return {"file": path, "rounds_per_s": round(rounds / spent), "us_per_action": round(1e6 * spent / actions, 1)}


def against_peer(pyspiel, name: str, params: dict, path: str, rounds: int, chunks: int) -> dict:
    """Ours and OpenSpiel's rounds per CPU second, in ``chunks`` interleaved chunks."""
    ours, theirs = our_rounds(path), peer_rounds(pyspiel, name, params)
    ours(range(50))
    theirs(range(50))
    size = max(1, rounds // chunks)
    spent = {"ours": 0.0, "theirs": 0.0}
    for chunk in range(chunks):
        seeds = range(1000 + chunk * size, 1000 + (chunk + 1) * size)
        order = (("ours", ours), ("theirs", theirs)) if chunk % 2 == 0 else (("theirs", theirs), ("ours", ours))
        for who, play in order:
            spent[who] += timed(play, seeds)[0]
    mine, peer = size * chunks / spent["ours"], size * chunks / spent["theirs"]
    return {"game": name, "file": path, "rounds": size * chunks, "ours_rounds_per_s": round(mine),
            "openspiel_rounds_per_s": round(peer), "ratio": round(mine / peer, 2)}


def strength(path: str, games: int) -> dict:
    """The heuristic (one seat, or one team) against random players over whole games."""
    rules = load_variant(os.path.join(ROOT, path))
    game = Game(rules)
    n = game.players
    teams = (rules.spec.get("play") or {}).get("teams") or [[s] for s in range(n)]
    won = 0
    mine = theirs = 0.0
    for seed in range(games):
        team = teams[seed % len(teams)]
        players = [make_player("heuristic" if s in team else "random", seed * 10 + s) for s in range(n)]
        totals = play_game(game, players, seed).totals
        won += totals[team[0]] == max(totals)
        mine += totals[team[0]]
        theirs += sum(totals[s] for s in range(n) if s not in team) / (n - len(team))
    return {"file": path, "games": games, "heuristic_wins": round(won / games, 3),
            "heuristic_total": round(mine / games, 1), "random_total": round(theirs / games, 1)}


def load_average() -> str:
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "unknown"


def main() -> int:
    """Run the measures and print a table per measure (or JSON lines), MISSED beside a row below its target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="random single rounds per file (0: no speed)")
    parser.add_argument("--peer-rounds", type=int, default=2000,
                        help="random rounds per game in each engine beside OpenSpiel (0: no peers)")
    parser.add_argument("--chunks", type=int, default=10, help="interleaved chunks of the peer rounds")
    parser.add_argument("--games", type=int, default=200, help="heuristic games per file (0: no strength)")
    parser.add_argument("--only", action="append", default=[],
                        help="measure only files (and peer games) whose name holds this text (repeatable)")
    parser.add_argument("--json", action="store_true", help="print JSON lines instead of tables")
    args = parser.parse_args()
    if min(args.rounds, args.peer_rounds, args.games) < 0 or args.chunks < 1:
        parser.error("--rounds, --peer-rounds and --games must be at least 0, --chunks at least 1")

    def wanted(*names: str) -> bool:
        return not args.only or any(text in name for text in args.only for name in names)

    def show(row: dict, line: str) -> None:
        print(json.dumps(row) if args.json else line, flush=True)

    missed = False
    print(f"one core (CPU seconds of this process); load average {load_average()} at the start", flush=True)
    if args.peer_rounds:
        try:
            import pyspiel
        except ImportError:
            pyspiel = None
            print("peers: OpenSpiel is not installed (pip install -e '.[peers]'); skipped")
        if pyspiel is not None:
            print(f"\nbeside OpenSpiel: {args.peer_rounds} random rounds per game in {args.chunks} interleaved "
                  f"chunks; target ratio >= {TARGET_RATIO}")
            if not args.json:
                print(f"  {'game':<8} {'file':<34} {'ours/s':>8} {'OpenSpiel/s':>12} {'ratio':>6}")
            for name, params, path in PEERS:
                if not wanted(name, path):
                    continue
                if not os.path.exists(os.path.join(ROOT, path)):
                    print(f"  {name:<8} {path:<34} skipped: the file is not shipped", flush=True)
                    continue
                row = against_peer(pyspiel, name, params, path, args.peer_rounds, args.chunks)
                row["met"] = row["ratio"] >= TARGET_RATIO
                missed |= not row["met"]
                show(row, f"  {name:<8} {path:<34} {row['ours_rounds_per_s']:>8} "
                          f"{row['openspiel_rounds_per_s']:>12} {row['ratio']:>6.2f}{'' if row['met'] else '  MISSED'}")
    if args.rounds:
        print(f"\nevery trick-taking file: {args.rounds} random single rounds each; target {TARGET_ROUNDS} rounds/s")
        if not args.json:
            print(f"  {'file':<62} {'rounds/s':>9} {'us/action':>10}")
        for path in trick_files():
            if not wanted(path):
                continue
            row = speed(path, args.rounds)
            row["target"] = TARGET_ROUNDS
            row["met"] = row["rounds_per_s"] >= TARGET_ROUNDS
            missed |= not row["met"]
            show(row, f"  {path:<62} {row['rounds_per_s']:>9} {row['us_per_action']:>10}"
                      f"{'' if row['met'] else '  MISSED'}")
    if args.games:
        print(f"\nthe heuristic against random players: {args.games} games per file")
        for path in STRENGTH_FILES:
            if wanted(path):
                print(json.dumps(strength(path, args.games)), flush=True)
    print(f"\nload average {load_average()} at the end; targets {'MISSED on a row above' if missed else 'met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
