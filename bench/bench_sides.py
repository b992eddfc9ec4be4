"""Two heuristic partners against two random ones, in a partnership trick-taking file whose trump
is made by a seat (a ``trump`` or ``order_up`` phase): games won, points a hand, and the contracts
each side made (the side that named trump took at least half the tricks).

    python bench/bench_sides.py variants/others/euchre.yaml 400

Game ``seed`` seats the heuristic players at seats ``seed % 2`` and ``seed % 2 + 2``."""
from __future__ import annotations

import sys

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.players import make_player, play_game


def figures(path: str, games: int) -> dict:
    """The figures of ``games`` games (see the module's text)."""
    rules = load_variant(path)
    wins, rounds = 0, 0
    points, made, called = [0, 0], [0, 0], [0, 0]
    for seed in range(games):
        h = seed % 2                                    # the heuristic side: seats h and h + 2
        players = [make_player("heuristic" if s % 2 == h else "random", seed * 4 + s) for s in range(4)]
        final = play_game(Game(rules), players, seed)
        wins += final.totals[h] > final.totals[1 - h]
        maker = None
        for e in final.events:
            if e["type"] == "trump" and e["trump"] is not None:
                maker = e["seat"]
            if e["type"] == "round_end":
                rounds += 1
                points[0] += e["points"][h]
                points[1] += e["points"][1 - h]
                if maker is not None and not e.get("void"):
                    side = 0 if maker % 2 == h else 1
                    called[side] += 1
                    tricks = e["tricks"][maker] + e["tricks"][(maker + 2) % 4]
                    made[side] += 2 * tricks > sum(e["tricks"])
                maker = None
    return {"games": games, "won": wins, "rounds": rounds, "points": points, "called": called, "made": made}


def main(path: str, games: int) -> str:
    """The figures, said in a line."""
    f = figures(path, games)
    games, wins, rounds, points, called, made = (f[k] for k in ("games", "won", "rounds", "points", "called", "made"))
    return (f"{games} games: the heuristic side won {wins} ({wins / games:.1%}); points a hand "
            f"{points[0] / rounds:.2f} vs {points[1] / rounds:.2f} over {rounds} hands; trump made by the heuristic "
            f"side {called[0]} times, {made[0] / max(1, called[0]):.1%} made; by the random side {called[1]} times, "
            f"{made[1] / max(1, called[1]):.1%} made")


if __name__ == "__main__":
    print(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 400))
