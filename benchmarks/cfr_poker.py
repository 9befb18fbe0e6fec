"""CFR on the poker rule files through the OpenSpiel bridge, beside OpenSpiel's own games.

OpenSpiel's CFR (open_spiel.python.algorithms.cfr) runs on `naipes_kuhn_poker` or `naipes_leduc_poker`
(rulesets/, through naipes.bridges.openspiel) and on OpenSpiel's `kuhn_poker` or `leduc_poker`, iteration by
iteration; after 1, 2, 4, ... iterations it prints both average policies' exploitability (OpenSpiel's
`exploitability`, the mean of the two best responses' gains) and the seconds each has spent, and at the end
the value of both average policies for P1. Needs the [openspiel] extra.

    .venv/bin/python benchmarks/cfr_poker.py --game kuhn_poker --iterations 1024
    .venv/bin/python benchmarks/cfr_poker.py --game leduc_poker --iterations 64
"""
from __future__ import annotations

import argparse
import time

import pyspiel
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

from naipes.bridges.openspiel import load_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["kuhn_poker", "leduc_poker"], default="kuhn_poker")
    parser.add_argument("--iterations", type=int, default=64)
    args = parser.parse_args()
    started = time.perf_counter()
    games = {"naipes": load_game(args.game), "openspiel": pyspiel.load_game(args.game)}
    print(f"{args.game}: the bridge's game made (and played out for its game type) in "
          f"{time.perf_counter() - started:.1f} s")
    solvers = {name: cfr.CFRSolver(game) for name, game in games.items()}
    spent = dict.fromkeys(games, 0.0)
    print(f"{'iterations':>10} {'naipes':>20} {'openspiel':>20} {'difference':>11} {'seconds (naipes, openspiel)':>28}")
    for i in range(1, args.iterations + 1):
        for name, solver in solvers.items():
            started = time.perf_counter()
            solver.evaluate_and_update_policy()
            spent[name] += time.perf_counter() - started
        if i & (i - 1) == 0 or i == args.iterations:
            gaps = {name: exploitability.exploitability(games[name], solver.average_policy())
                    for name, solver in solvers.items()}
            print(f"{i:>10} {gaps['naipes']:>20.15f} {gaps['openspiel']:>20.15f} "
                  f"{gaps['naipes'] - gaps['openspiel']:>11.1e} {spent['naipes']:>14.1f} {spent['openspiel']:>13.1f}")
    for name, solver in solvers.items():
        value = expected_game_score.policy_value(games[name].new_initial_state(), [solver.average_policy()] * 2)
        print(f"{name}: the average policy's value for P1 {value[0]:+.6f}")


if __name__ == "__main__":
    main()
