"""The open-hand solver's speed (issue 40, item 5), side by side in one run.

1. The yardstick: positions of 4-player Pocha at the first card of a hand of
   `--cards` cards each (bids made at random), solved by
   naipes.agents.solver.OpenSolver (pocha.yaml through the interpreter: every
   node a `make`, the rules that fire, the options, `undo`) and by
   plain_pocha_solver.PlainSolver (the same algorithms with Pocha written into
   the search), max^n and paranoid. Both must give every first card the same
   value and visit about as many positions; reported: positions per second
   of each side (CPU time, so that other work on the machine does not enter),
   and the ratio naipes/plain, the median of the per-position ratios (paired:
   the two sides solve each position one after the other), and the median
   ratio of the solves' times (which counts the positions each searches).
2. Hands: the time to solve (CPU seconds, paranoid, the mover's value; the
   median over `--hands` deals) a 4-player Pocha hand of 8 cards each from
   its first trick, and a 3-player Tute Cabrero hand from its 6th trick (8
   cards each left), each solve stopped after `--cap` CPU seconds (reported as
   "> cap"); `--hand pocha` or `--hand tute`: one kind only.

    bash .ci/native && PYTHONPATH=build/native-lib .venv/bin/python benchmarks/bench_solver.py
"""
from __future__ import annotations

import argparse
import multiprocessing
import random
import signal
import statistics
import sys
import time

from common import ROOT
from plain_pocha import RANKS, SUITS, PlainPocha
from plain_pocha_solver import PlainSolver

POCHA = ROOT / "benchmarks" / "pocha_hands.yaml"
TUTE = ROOT / "rulesets" / "tute_cabrero.yaml"


def pocha_position(cards: int, seed: int):
    """A 4-player Pocha game at the first card of its first hand of `cards` cards, the bids made at random."""
    from naipes import Game, load_program
    program = load_program(POCHA, {"cards_each": str(cards), "rounds": "1", "random_seats": "false"})
    game = Game(program, seed)
    game.start()
    rng = random.Random(seed)
    while game.memory.vars["phase"] != "play":
        game.apply(rng.choice(game.options()))
    return game


def tute_position(seed: int):
    """A 3-player Tute Cabrero game at the start of the 6th trick of its first hand (random play so far)."""
    from naipes import Game, load_program
    game = Game(load_program(TUTE, {"porotos_to_retire": "1"}), seed)
    game.start()
    rng = random.Random(seed)
    while not (game.memory.vars["phase"] == "play" and not game.memory.vars["trick"]
               and all(len(p.hand) == 8 for p in game.memory.players) and "play" in game.memory.pending[1]):
        game.apply(rng.choice(game.options()))
    return game


def card_int(card) -> int:
    return SUITS.index(card.suit) * 16 + card.rank


def plain_of(game) -> PlainSolver:
    """The engine's position as plain_pocha's state."""
    memory = game.memory
    V = memory.vars
    plain = PlainPocha(len(memory.players), seats=[p.index for p in V["seats"]], schedule=[V["hand_size"]])
    plain.deal([[card_int(c) for c in p.hand] for p in memory.players], SUITS.index(V["trump"]))
    plain.bids = [p.bid for p in memory.players]
    plain.bids_made, plain.bids_total = len(memory.players), sum(plain.bids)
    plain.phase, plain.turn = "play", game.mover.index
    assert set(RANKS) >= {c.rank for p in memory.players for c in p.hand}
    return PlainSolver(plain)


def race(cards: int, positions: int, seed: int) -> None:
    from naipes.agents.solver import OpenSolver
    print(f"1. the yardstick: {positions} Pocha positions, 4 players x {cards} cards, first card of the hand")
    print(f"{'model':9} {'naipes pos/s':>13} {'plain pos/s':>12} {'naipes/plain':>13} "
          f"{'positions (naipes, plain)':>27} {'solve time naipes/plain':>24}")
    for model in ("maxn", "paranoid"):
        ratios, times, totals = [], [], {"naipes": [0, 0.0], "plain": [0, 0.0]}
        solver = OpenSolver(model, merge=False)  # (one solver for every position, as a search agent keeps one)
        for i in range(positions):
            game = pocha_position(cards, seed + i)
            plain = plain_of(game)
            order = ["naipes", "plain"] if i % 2 == 0 else ["plain", "naipes"]
            rate, values, took = {}, {}, {}
            for side in order:
                start = time.process_time()
                if side == "naipes":
                    solution = solver.solve(game, line=False)
                    nodes = solution.nodes
                    values[side] = {o.arg.name: v if model == "maxn" else v[game.mover.index]
                                    for o, v in solution.moves}
                else:
                    found = plain.solve(model)
                    nodes = plain.nodes
                    values[side] = {f"{c & 15}{SUITS[c >> 4][0]}": v if model == "maxn" else v[plain.me]
                                    for c, v in found.items()}
                seconds = time.process_time() - start
                rate[side], took[side] = nodes / seconds, seconds
                totals[side][0] += nodes
                totals[side][1] += seconds
            if values["naipes"] != values["plain"]:
                sys.exit(f"position {seed + i}, {model}: the values differ: {values}")
            ratios.append(rate["plain"] / rate["naipes"])
            times.append(took["naipes"] / took["plain"])
        naipes_rate = totals["naipes"][0] / totals["naipes"][1]
        plain_rate = totals["plain"][0] / totals["plain"][1]
        print(f"{model:9} {naipes_rate:13,.0f} {plain_rate:12,.0f} {statistics.median(ratios):12.2f}x "
              f"{totals['naipes'][0]:>13,} {totals['plain'][0]:>13,} {statistics.median(times):23.2f}x")


def _solve_seconds(kind: str, seed: int, cap: float, queue) -> None:
    import resource

    from naipes.agents.solver import OpenSolver
    seconds = int(cap) + 1  # (the kernel stops the process after that much CPU time: a solve over the cap)
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
    game = pocha_position(8, seed) if kind == "pocha" else tute_position(seed)
    start = time.process_time()
    solution = OpenSolver("paranoid").solve(game, line=False)
    queue.put((time.process_time() - start, solution.nodes))


def hands(count: int, cap: float, seed: int, kinds: list[str]) -> None:
    print(f"\n2. hands, paranoid, {count} deals each, CPU seconds (each solve stopped after {cap:g} s)")
    context = multiprocessing.get_context("spawn")
    for kind, label in (("pocha", "Pocha, 4 players x 8 cards, from the first trick"),
                        ("tute", "Tute Cabrero, 3 players, from the 6th trick")):
        if kind not in kinds:
            continue
        times: list[float] = []
        shown = []
        for i in range(count):
            queue = context.Queue()
            process = context.Process(target=_solve_seconds, args=(kind, seed + i, cap, queue))
            process.start()
            process.join()
            if process.exitcode in (-signal.SIGXCPU, -signal.SIGKILL):  # (stopped by its CPU limit)
                times.append(float("inf"))
                shown.append(f"> {cap:g} s")
                continue
            if process.exitcode != 0:
                sys.exit(f"{kind} deal {seed + i}: the solve failed (exit code {process.exitcode})")
            seconds, nodes = queue.get()
            times.append(seconds if seconds <= cap else float("inf"))
            shown.append(f"{seconds:.2f} s ({nodes:,} positions)")
        median = statistics.median(times)
        shown_median = f"> {cap:g} s" if median == float("inf") else f"{median:.2f} s"
        print(f"{label}: median {shown_median}; each: {'; '.join(shown)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=4, help="cards each in the yardstick's positions")
    parser.add_argument("--positions", type=int, default=12, help="yardstick positions per model (0: skip part 1)")
    parser.add_argument("--hands", type=int, default=5, help="deals per kind of hand (0: skip part 2)")
    parser.add_argument("--cap", type=float, default=120.0, help="CPU seconds a hand's solve may take")
    parser.add_argument("--hand", dest="kinds", action="append", choices=["pocha", "tute"],
                        help="the kind of hand of part 2 (repeatable; both by default)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with open("/proc/loadavg") as load:
        print(f"load average at the start: {load.read().split()[0]} (on {multiprocessing.cpu_count()} cores)")
    if args.positions:
        race(args.cards, args.positions, args.seed)
    if args.hands:
        hands(args.hands, args.cap, args.seed, args.kinds or ["pocha", "tute"])


if __name__ == "__main__":
    main()
