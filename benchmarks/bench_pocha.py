"""Pocha: random hands per second, side by side with OpenSpiel's oh_hell and a plain Python Pocha.

A "hand" is one round of 4 players and 10 tricks: a new shuffle, the deal, the
turned-up trump, four bids and forty cards played, all choices uniformly
random. Naipes plays benchmarks/pocha_hands.yaml (pocha.yaml with rounds of 10
cards) with RandomAgent seats; OpenSpiel plays oh_hell (players=4,
num_tricks_fixed=10) driven from Python: random chance outcomes and random
legal actions, one apply_action per step.
OpenSpiel is an optional benchmark dependency (pip install open_spiel).
The plain column is benchmarks/plain_pocha.py (Pocha hand-written with lists
and ints, tests/test_plain_pocha.py checks that its legal sets are the rule
file's) playing the same 10-card hands with random choices.
A second race plays whole matches of rulesets/pocha.yaml (4 players, hands of
1..10..1 cards, random seats) against plain_pocha.py's match: the ratio of
time per decision, Naipes / plain. Every contender is timed by the process's CPU time (time.process_time),
in paired rounds: other processes on a shared machine do not lengthen it. The targets printed are issue 37's:
hands/s at least 1.5x OpenSpiel's, time per decision at most 2x the plain Python's.

    .venv/bin/python benchmarks/bench_pocha.py [--json FILE]
"""
from __future__ import annotations

import sys
import time
from functools import lru_cache

from common import ROOT, Race, header, random_openspiel_games, rate, table, write_summary
from plain_pocha import play_random

ROUNDS = 20  # hands per Naipes game (pocha_hands: every round is a new 10-card hand)
HANDS = 200  # hands per timed batch
MATCHES = 3  # whole pocha.yaml matches per timed batch of the per-decision race
RACE_ROUNDS = 21  # (short batches on a shared machine: the median of many pairs is what stays put)


@lru_cache(maxsize=1)
def pocha_hands() -> object:
    from naipes import load_program
    return load_program(ROOT / "benchmarks" / "pocha_hands.yaml", {"cards_each": "10", "rounds": str(ROUNDS)})


def naipes_hands(count: int, seed: int) -> tuple[int, int]:
    """Play `count` random 10-card hands; returns (hands, decisions). The rule file is loaded beforehand."""
    from naipes import RandomAgent, play_game
    program = pocha_hands()
    hands = decisions = 0
    while hands < count:
        result = play_game(program, [RandomAgent(seed + hands + i) for i in range(4)], seed + hands)
        hands += ROUNDS
        decisions += result.decisions
    return hands, decisions


def plain_hands(count: int, seed: int) -> tuple[int, int]:
    """The same 10-card random hands, played by plain_pocha.py; returns (hands, decisions)."""
    hands = decisions = 0
    while hands < count:
        rounds, made = play_random(4, seed + hands, [10] * ROUNDS)
        hands += rounds
        decisions += made
    return hands, decisions


@lru_cache(maxsize=1)
def pocha() -> object:
    from naipes import load_program
    return load_program(ROOT / "rulesets" / "pocha.yaml")


def naipes_matches(count: int, seed: int) -> tuple[int, int]:
    """Whole random pocha.yaml matches (4 players, 19 rounds); returns (matches, decisions)."""
    from naipes import RandomAgent, play_game
    decisions = 0
    for i in range(count):
        decisions += play_game(pocha(), [RandomAgent(seed + 10 * i + k) for k in range(4)], seed + i).decisions
    return count, decisions


def plain_matches(count: int, seed: int) -> tuple[int, int]:
    decisions = 0
    for i in range(count):
        decisions += play_random(4, seed + i)[1]
    return count, decisions


def per_decision(race: Race, name: str, reference: str) -> float:
    """Time per decision of `name` / of `reference`: the median over rounds, scaled by the decision counts."""
    return (1 / race.speedup(name, reference)) * (race.outs[reference][1] / race.outs[name][1])


@lru_cache(maxsize=1)
def oh_hell() -> object:
    import pyspiel
    return pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 10})


def openspiel_hands(count: int, seed: int) -> tuple[int, int]:
    return random_openspiel_games(oh_hell(), count, seed)


def main() -> None:
    header("bench_pocha", "random Pocha hands per second, Naipes vs OpenSpiel oh_hell vs plain Python",
           RACE_ROUNDS, time.process_time)
    pocha_hands()
    contenders = {"naipes": lambda: naipes_hands(HANDS, 1), "plain python": lambda: plain_hands(HANDS, 1)}
    try:
        oh_hell()
        contenders["openspiel"] = lambda: openspiel_hands(HANDS, 1)
    except ImportError:
        print("   OpenSpiel is not installed (pip install open_spiel): no OpenSpiel column\n")
    race = Race(contenders, RACE_ROUNDS, time.process_time)
    rows, summary = [], {}
    for name in contenders:
        hands, decisions = race.outs[name]
        seconds = race.best(name)
        rows.append([name, hands, rate(hands, seconds), rate(decisions, seconds), seconds / decisions * 1e6])
        summary[name] = {"hands_per_s": rate(hands, seconds), "decisions_per_s": rate(decisions, seconds)}
    table(["4 players, 10 tricks, random play", "hands", "hands/s", "decisions/s", "us/decision"], rows)
    if "openspiel" in contenders:
        ratio = race.speedup("naipes", "openspiel") * (race.outs["naipes"][0] / race.outs["openspiel"][0])
        summary["ratio"] = ratio
        verdict = "met" if ratio >= 1.5 else "NOT met"
        print(f"   Naipes hands/s / OpenSpiel hands/s = {ratio:.2f} (median of paired rounds); "
              f"issue 37 target >= 1.5: {verdict}")
    hand_ratio = per_decision(race, "naipes", "plain python")
    summary["per_decision_vs_plain_10_card_hands"] = hand_ratio
    verdict = "met" if hand_ratio <= 2 else "NOT met"
    print(f"   Naipes time per decision / plain Python's, 10-card hands = {hand_ratio:.2f}x "
          f"(median of paired rounds); issue 37 target <= 2: {verdict}\n")

    matches = Race({"naipes pocha.yaml": lambda: naipes_matches(MATCHES, 1),
                    "plain python": lambda: plain_matches(MATCHES, 1)}, RACE_ROUNDS, time.process_time)
    rows = []
    for name in matches.times:
        count, decisions = matches.outs[name]
        seconds = matches.best(name)
        rows.append([name, count, decisions, rate(decisions, seconds), seconds / decisions * 1e6])
    table(["whole matches, 4 players, 1..10..1", "matches", "decisions", "decisions/s", "us/decision"], rows)
    ratio = per_decision(matches, "naipes pocha.yaml", "plain python")
    summary["per_decision_vs_plain"] = ratio
    verdict = "met" if ratio <= 2 else "NOT met"
    print(f"   Naipes time per decision / plain Python's = {ratio:.2f}x (median of {RACE_ROUNDS} paired rounds); "
          f"issue 37 target <= 2: {verdict}\n")
    write_summary(sys.argv, summary)


if __name__ == "__main__":
    main()
