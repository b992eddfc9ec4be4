"""OpenSpiel's ISMCTS bot against the default (heuristic) player, on any variant file.

    python examples/ismcts_gang_of_four.py                       # Gang of Four, 4 games
    python examples/ismcts_gang_of_four.py --games 20 --simulations 200
    python examples/ismcts_gang_of_four.py --variant variants/others/big-two.yaml

One seat is OpenSpiel's ISMCTS bot (open_spiel.python.algorithms.ismcts, random rollouts),
the others are the project's default player; the bot's seat moves round the table from one
game to the next.  Each game is one round (max_rounds 1).  Prints each game and the bot's
share of wins and average points against the default players'.

Needs the extras peers and rl (pip install -e '.[peers,rl]').
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from chimera_dsl.errors import ChimeraError
from chimera_dsl.learn import spiel  # noqa: F401  (registers python_chimera_dsl)
from chimera_dsl.players import make_player

ROOT = Path(__file__).resolve().parents[1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default=str(ROOT / "variants" / "others" / "gang-of-four.yaml"))
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations per decision")
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts per evaluation")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    if args.games < 1 or args.simulations < 1 or args.rollouts < 1:
        parser.error("--games, --simulations and --rollouts must be at least 1")
    try:
        game = pyspiel.load_game(spiel.SHORT_NAME, {"variant": args.variant, "seed": args.seed, "max_rounds": 1})
    except ChimeraError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    n = game.num_players()
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=args.rollouts, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=args.simulations, random_state=rng,
                           final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                           use_observation_string=False, allow_inconsistent_action_sets=False)
    wins = 0.0
    bot_points: list[float] = []
    other_points: list[float] = []
    for number in range(args.games):
        seat = number % n
        heuristics = [make_player("heuristic", seed=args.seed * 1000 + number * 10 + s) for s in range(n)]
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if player == seat:
                action = bot.step(state)
            else:
                engine = state.table.state
                chosen = heuristics[player].act(engine.observation(player), engine.legal_actions())
                action = game.space.encode(chosen, engine)
            state.apply_action(action)
        returns = state.returns()
        totals = list(state.table.state.observation(0).totals)
        wins += returns[seat]
        bot_points.append(totals[seat])
        other_points += [t for s, t in enumerate(totals) if s != seat]
        print(f"game {number + 1}: ISMCTS in seat {seat}, totals {totals}, ISMCTS win share {returns[seat]:.2f}")
    print(f"ISMCTS ({args.simulations} simulations a decision) against the default player, {args.games} games "
          f"of {Path(args.variant).name}: won {wins:g} of {args.games} (a seat's fair share: {args.games / n:.3g}); "
          f"points a game: ISMCTS {np.mean(bot_points):.2f}, default players {np.mean(other_points):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
