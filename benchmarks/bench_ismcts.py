"""ISMCTS on Tute Cabrero: decisions per second at a fixed number of iterations.

Seat 1 is `ismcts:iterations=N` (random playouts, cut at the end of the hand
by the rule file's `evaluation`), seats 2 and 3 are random players. Only the
searcher's decisions with at least two options are timed (a forced move costs
nothing). Side by side, in the same rounds, the time of one plain random
playout step, so the cost of an iteration can be read in playout steps.

With OpenSpiel installed (the `openspiel` extra), also OpenSpiel's Python
`ISMCTSBot` (random rollouts, UCT c = 2, the same number of simulations) at
seat 0 of oh_hell (3 players, 13 tricks, random players elsewhere), timed the
same way, in paired rounds with the Naipes searcher: issue 37's target is
Naipes' time per move <= 0.4 x OpenSpiel's. (OpenSpiel's rollouts run to the end
of its one-hand game; Naipes' playouts stop at the end of the hand.) Every time
is the process's CPU time (time.process_time): other processes on a shared
machine do not lengthen it.

    .venv/bin/python benchmarks/bench_ismcts.py [--iterations 100] [--decisions 40] [--rounds 5]
"""
from __future__ import annotations

import argparse
import random
import statistics
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
                start = time.process_time()
                option = agent.choose(decision)
                seconds += time.process_time() - start
                timed += 1
                runs += agent.iterations_done - before
            else:
                option = agent.choose(decision)
            game.apply(option)
        seed += 1
    return timed, seconds, runs


def openspiel_decisions(iterations: int, wanted: int, seed: int) -> tuple[int, float]:
    """(decisions timed, seconds) of OpenSpiel's ISMCTSBot at seat 0 of oh_hell, random players elsewhere."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game("oh_hell", {"players": 3, "num_tricks_fixed": 13})
    timed, seconds = 0, 0.0
    while timed < wanted:
        rng, np_rng = random.Random(seed), np.random.RandomState(seed)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np_rng), 2.0, iterations, random_state=np_rng)
        state = game.new_initial_state()
        while not state.is_terminal() and timed < wanted:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [q for _, q in outcomes])[0]
            elif state.current_player() == 0 and len(state.legal_actions()) > 1:
                start = time.process_time()
                action = bot.step(state)
                seconds += time.process_time() - start
                timed += 1
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        seed += 1
    return timed, seconds


def versus_openspiel(program, iterations: int, decisions: int, rounds: int) -> None:
    """Paired rounds (order alternating): time per searcher move, Naipes / OpenSpiel."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("  OpenSpiel is not installed (the openspiel extra): no comparison")
        return
    per_move: dict[str, list[float]] = {"naipes": [], "openspiel": []}
    runs = {"naipes": lambda: timed_decisions(program, iterations, decisions, seed=1)[:2],
            "openspiel": lambda: openspiel_decisions(iterations, decisions, seed=1)}
    for r in range(rounds):
        for name in (("naipes", "openspiel") if r % 2 == 0 else ("openspiel", "naipes")):
            timed, seconds = runs[name]()
            per_move[name].append(seconds / timed)
    ratio = statistics.median(n / o for n, o in zip(per_move["naipes"], per_move["openspiel"]))
    print(f"  OpenSpiel ISMCTSBot ({iterations} simulations) on oh_hell, 3 players, 13 tricks: "
          f"{min(per_move['openspiel']) * 1e3:.1f} ms per move (best of {rounds}); Naipes "
          f"{min(per_move['naipes']) * 1e3:.1f} ms")
    verdict = "met" if ratio <= 0.4 else "NOT met"
    print(f"  Naipes time per move / OpenSpiel's = {ratio:.3f} (median of {rounds} paired rounds, {decisions} moves "
          f"each); issue 37 target <= 0.4: {verdict}")


def random_steps_per_second(program, steps: int = 20_000) -> float:
    rng = random.Random(1)
    game, done, start = None, 0, time.process_time()
    while done < steps:
        if game is None or game.over:
            game = Game(program, done)
            game.start()
        game.apply(rng.choice(game.options()))
        done += 1
    return steps / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5, help="paired rounds against OpenSpiel")
    args = parser.parse_args()
    program = load_program(ROOT / "rulesets" / "tute_cabrero.yaml")
    timed, seconds, runs = timed_decisions(program, args.iterations, args.decisions, seed=1)
    steps = random_steps_per_second(program)
    print(f"Tute Cabrero, 3 players, ismcts:iterations={args.iterations} at seat 1, random elsewhere")
    print(f"  {timed} decisions in {seconds:.1f} s: {timed / seconds:.2f} decisions/s, "
          f"{runs / seconds:.0f} iterations/s ({seconds / runs * 1e3:.2f} ms each)")
    print(f"  plain random play: {steps:.0f} moves/s; one iteration costs about "
          f"{steps * seconds / runs:.0f} random moves")
    versus_openspiel(program, args.iterations, max(10, args.decisions // 4), args.rounds)


if __name__ == "__main__":
    main()
