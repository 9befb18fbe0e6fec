"""Pocha: random hands per second, side by side with OpenSpiel's oh_hell.

A "hand" is one round of 4 players and 10 tricks: the deal, the turned-up
trump, four bids and forty cards played, all choices uniformly random. Naipes
plays rulesets/pocha_static.yaml (cards_each=10) with RandomAgent seats;
OpenSpiel plays oh_hell (players=4, num_tricks_fixed=10) driven from Python:
random chance outcomes and random legal actions, one apply_action per step.
OpenSpiel is an optional benchmark dependency (pip install open_spiel).
Also reported: Naipes decisions per second and full Pocha matches per second.

    .venv/bin/python benchmarks/bench_pocha.py [--json FILE]
"""
from __future__ import annotations

import random
import sys
from functools import lru_cache

from common import ROOT, Race, header, rate, table, write_summary

ROUNDS = 20  # hands per Naipes game (pocha_static: every round is a 10-card hand)
HANDS = 40  # hands per timed batch


@lru_cache(maxsize=1)
def pocha_static() -> object:
    from naipes import load_program
    return load_program(ROOT / "rulesets" / "pocha_static.yaml", {"cards_each": "10", "rounds": str(ROUNDS)})


def naipes_hands(count: int, seed: int) -> tuple[int, int]:
    """Play `count` random 10-card hands; returns (hands, decisions). The rule file is loaded beforehand."""
    from naipes import RandomAgent, play_game
    program = pocha_static()
    hands = decisions = 0
    while hands < count:
        result = play_game(program, [RandomAgent(seed + hands + i) for i in range(4)], seed + hands)
        hands += ROUNDS
        decisions += result.decisions
    return hands, decisions


@lru_cache(maxsize=1)
def oh_hell() -> object:
    import pyspiel
    return pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 10})


def openspiel_hands(count: int, seed: int) -> tuple[int, int]:
    game = oh_hell()
    rng = random.Random(seed)
    decisions = 0
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
                decisions += 1
            state.apply_action(action)
    return count, decisions


def main() -> None:
    header("bench_pocha", "random Pocha hands per second, Naipes vs OpenSpiel oh_hell")
    pocha_static()
    contenders = {"naipes": lambda: naipes_hands(HANDS, 1)}
    try:
        oh_hell()
        contenders["openspiel"] = lambda: openspiel_hands(HANDS, 1)
    except ImportError:
        print("   OpenSpiel is not installed (pip install open_spiel): Naipes alone\n")
    race = Race(contenders)
    rows, summary = [], {}
    for name in contenders:
        hands, decisions = race.outs[name]
        seconds = race.best(name)
        rows.append([name, hands, rate(hands, seconds), rate(decisions, seconds)])
        summary[name] = {"hands_per_s": rate(hands, seconds), "decisions_per_s": rate(decisions, seconds)}
    table(["4 players, 10 tricks, random play", "hands", "hands/s", "decisions/s"], rows)
    if "openspiel" in contenders:
        ratio = race.speedup("naipes", "openspiel") * (race.outs["naipes"][0] / race.outs["openspiel"][0])
        summary["ratio"] = ratio
        verdict = "met" if ratio >= 0.5 else "NOT met"
        print(f"   Naipes hands/s / OpenSpiel hands/s = {ratio:.2f} (median of paired rounds); "
              f"target >= 0.5: {verdict}\n")
    write_summary(sys.argv, summary)


if __name__ == "__main__":
    main()
