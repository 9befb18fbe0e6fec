"""ISMCTS on Tute Cabrero: decisions per second at a fixed number of iterations.

Seat 1 is `ismcts:iterations=N` (random playouts, cut at the end of the hand
by the rule file's `evaluation`), seats 2 and 3 are random players. Only the
searcher's decisions with at least two options are timed (a forced move costs
nothing). Side by side, in the same rounds, the time of one plain random
playout step, so the cost of an iteration can be read in playout steps.

    .venv/bin/python benchmarks/bench_ismcts.py [--iterations 100] [--decisions 40]
"""
from __future__ import annotations

import argparse
import random
import time

from common import ROOT

from naipes import load_program
from naipes.agents.ismcts import ISMCTSAgent
from naipes.agents.registry import RandomAgent
from naipes.runtime.game import Game


def timed_decisions(program, iterations: int, wanted: int, seed: int) -> tuple[int, float, int]:
    """(decisions timed, seconds, iterations run) over games from `seed` on."""
    timed, seconds, runs = 0, 0.0, 0
    while timed < wanted:
        game = Game(program, seed)
        agents = [ISMCTSAgent(seed, iterations=iterations), RandomAgent(seed + 1), RandomAgent(seed + 2)]
        agents[0].attach(game, 0)
        game.start()
        while not game.over and timed < wanted:
            decision = game.decision()
            agent = agents[decision.player]
            if decision.player == 0 and len(decision.options) > 1:
                before = agent.iterations_done
                start = time.perf_counter()
                option = agent.choose(decision)
                seconds += time.perf_counter() - start
                timed += 1
                runs += agent.iterations_done - before
            else:
                option = agent.choose(decision)
            game.apply(option)
        seed += 1
    return timed, seconds, runs


def random_steps_per_second(program, steps: int = 20_000) -> float:
    rng = random.Random(1)
    game, done, start = None, 0, time.perf_counter()
    while done < steps:
        if game is None or game.over:
            game = Game(program, done)
            game.start()
        game.apply(rng.choice(game.options()))
        done += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--decisions", type=int, default=40)
    args = parser.parse_args()
    program = load_program(ROOT / "rulesets" / "tute_cabrero.yaml")
    timed, seconds, runs = timed_decisions(program, args.iterations, args.decisions, seed=1)
    steps = random_steps_per_second(program)
    print(f"Tute Cabrero, 3 players, ismcts:iterations={args.iterations} at seat 1, random elsewhere")
    print(f"  {timed} decisions in {seconds:.1f} s: {timed / seconds:.2f} decisions/s, "
          f"{runs / seconds:.0f} iterations/s ({seconds / runs * 1e3:.2f} ms each)")
    print(f"  plain random play: {steps:.0f} moves/s; one iteration costs about "
          f"{steps * seconds / runs:.0f} random moves")


if __name__ == "__main__":
    main()
