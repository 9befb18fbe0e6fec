"""Cross-play: OpenSpiel's ISMCTS bot (through naipes.bridges.openspiel) against Naipes agents.

One OpenSpiel ISMCTS seat (random rollouts to the end of the match, UCT c=2,
`--iterations` simulations per move) against Naipes agents in every other
seat; each deal is played once with the OpenSpiel bot in each seat (duplicate
style), and a deal's score is the mean over those seatings. Reported: the
OpenSpiel bot's and its opponents' mean payoff and win share, with 95 %
intervals over deals. Needs the [openspiel] extra.

    .venv/bin/python benchmarks/crossplay_openspiel.py --ruleset tute_cabrero -p porotos_to_retire=1 \\
        --opponent ismcts:iterations=30 --iterations 30 --deals 10 --seed 1
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from naipes import load_program, make_agent, play_game
from naipes.bridges.openspiel import SpielBotAgent, load_game
from naipes.tools.cli import find_ruleset
from naipes.tools.tournament import mean_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", required=True)
    parser.add_argument("-p", dest="params", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--opponent", required=True, help="the Naipes agent in the other seats")
    parser.add_argument("--iterations", type=int, default=30, help="OpenSpiel ISMCTS simulations per move")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    params = dict(p.split("=", 1) for p in args.params)
    path = find_ruleset(args.ruleset)
    program = load_program(path, params)
    typed = {k: type(program.param_values[k])(v) if not isinstance(program.param_values[k], bool)
             else v.lower() == "true" for k, v in params.items()}
    spiel = load_game(path, typed)
    seats = program.players[2]

    def make_bot(game, seed):
        rng = np.random.RandomState(seed)
        return ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, args.iterations, random_state=rng)

    rows = {"openspiel": ([], []), "naipes": ([], [])}
    started = time.time()
    for deal in range(args.deals):
        seed = args.seed + deal
        payoff = {"openspiel": 0.0, "naipes": 0.0}
        wins = {"openspiel": 0.0, "naipes": 0.0}
        for bot_seat in range(seats):
            agents = [SpielBotAgent(spiel, make_bot, "openspiel-ismcts", seed * 31 + bot_seat) if s == bot_seat
                      else make_agent(args.opponent, seed=seed * 1009 + s, program=program) for s in range(seats)]
            result = play_game(program, agents, seed)
            share = 1.0 / len(result.winners) if result.winners else 0.0
            for s in range(seats):
                side = "openspiel" if s == bot_seat else "naipes"
                weight = 1.0 if s == bot_seat else 1.0 / (seats - 1)
                payoff[side] += weight * result.payoffs[s] / seats
                wins[side] += weight * (share if s in result.winners else 0.0) / seats
        for side in rows:
            rows[side][0].append(payoff[side])
            rows[side][1].append(wins[side])
        print(f"deal {deal + 1}/{args.deals} done ({time.time() - started:.0f} s)", flush=True)
    summary = {"ruleset": args.ruleset, "params": params, "opponent": args.opponent, "iterations": args.iterations,
               "deals": args.deals, "seed": args.seed, "seconds": round(time.time() - started)}
    for side, (payoffs, wins) in rows.items():
        summary[side] = {"mean_payoff": mean_interval(payoffs), "win_share": mean_interval(wins)}
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
