"""Trick-taking on one core: rounds per second, and the heuristic against random players.

    python bench/bench_tricks.py                              # Chibre and Mü (3 to 6 players)
    python bench/bench_tricks.py --rounds 3000 --games 1000
    python bench/bench_tricks.py --games 0                   # speed only

Speed: single rounds (``max_rounds=1``: the deal, the trump or the auction, every trick and
the scoring) with uniformly random players choosing among the legal actions, timed in CPU
seconds of this process (what one core gives) after a warm-up.  Target: 1,000 rounds per
second on every file.  A Mü round is mostly its auction (random players lay cards nearly every
turn, so most auctions end in a dispute and a new deal): a turn's lays are counted, not listed
(``chimera_dsl.engine.phases.auction.Lays``), and the draw below reads one of them by its index.

Strength: ``--games`` whole games of Chibre and of Mü for three; one seat (Chibre: one team)
is the heuristic, the others random, the heuristic's seat turning with the seed; the share of
games it wins (alone or shared at the top) and its mean final total against the others'.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from chimera_dsl import load_variant  # noqa: E402
from chimera_dsl.engine import Game  # noqa: E402
from chimera_dsl.players import make_player, play_game  # noqa: E402

TARGET_ROUNDS = 1000
FILES = ("variants/others/chibre.yaml", "variants/others/mu-3.yaml", "variants/others/mu-4.yaml",
         "variants/others/mu.yaml", "variants/others/mu-6.yaml")
STRENGTH_FILES = FILES                  # the heuristic's strength: every file


def speed(path: str, rounds: int) -> dict:
    """Random single rounds of ``path`` per CPU second."""
    game = Game(load_variant(os.path.join(os.path.dirname(HERE), path)), max_rounds=1)
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
    play(range(50))
    cpu = time.process_time()
    actions = play(range(1000, 1000 + rounds))
    spent = time.process_time() - cpu
    return {"file": path, "rounds_per_s": round(rounds / spent), "us_per_action": round(1e6 * spent / actions, 1)}


def strength(path: str, games: int) -> dict:
    """The heuristic (one seat, or one team) against random players over whole games."""
    rules = load_variant(os.path.join(os.path.dirname(HERE), path))
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


def main() -> None:
    """Run both measures and print a JSON line per file and measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="random single rounds per file (0: no speed)")
    parser.add_argument("--games", type=int, default=200, help="heuristic games per file (0: no strength)")
    args = parser.parse_args()
    if args.rounds < 0 or args.games < 0:
        parser.error("--rounds and --games must be at least 0")
    for path in FILES if args.rounds else ():
        figure = speed(path, args.rounds)
        figure["target"] = TARGET_ROUNDS
        figure["met"] = figure["rounds_per_s"] >= TARGET_ROUNDS
        print(json.dumps(figure), flush=True)
    for path in STRENGTH_FILES if args.games else ():
        print(json.dumps(strength(path, args.games)), flush=True)


if __name__ == "__main__":
    main()
