"""Chinchón: random decisions and hands per second, side by side with OpenSpiel's gin_rummy.

Random players almost never close in Chinchón, so the Naipes players here have
a closing bias: they close whenever a close is offered (only qualifying closes
are), and otherwise choose at random. A hand also stops after MOVE_CAP
decisions. OpenSpiel's gin_rummy (2 players) is driven from Python with random
chance outcomes and random legal actions; its hands end on their own (a knock,
or the stock down to the wall). The ratio reported is of decisions per second, each side timed by the
process's CPU time (time.process_time) in paired rounds; the target printed is issue 37's (at least 4x).
OpenSpiel is an optional benchmark dependency (pip install -e '.[bench]').

    .venv/bin/python benchmarks/bench_chinchon.py [--json FILE]
"""
from __future__ import annotations

import random
import sys
import time
from functools import lru_cache

from common import ROOT, Race, header, random_openspiel_games, rate, table, write_summary

from naipes.library.builtins import pick

HANDS = 30
MOVE_CAP = 400  # decisions per Naipes hand, at most
ROUNDS = 7  # timed runs of each contender, in turns


class Closer:
    """Random, but closes whenever it may."""

    name = "closer"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, decision):
        options = decision.options
        # the options come move by move in the order asked (discard, close, close_all), so
        # there is a close exactly when the last option is one; then take the first close
        if options[-1].move.startswith("close"):
            return next(o for o in options if o.move.startswith("close"))
        return pick(self.rng, options)


@lru_cache(maxsize=1)
def chinchon() -> object:
    from naipes import load_program
    return load_program(ROOT / "rulesets" / "chinchon.yaml")


def naipes_hands(count: int, seed: int) -> tuple[int, int]:
    """(hands, decisions): each hand played from a new game until the first close or the cap."""
    from naipes import Game
    program = chinchon()
    decisions = 0
    for hand in range(count):
        game = Game(program, seed + hand)
        game.start()
        agents = [Closer(seed * 100 + hand), Closer(seed * 100 + hand + 50)]
        state = game.memory.vars
        first = state.get("hand_number")
        for _ in range(MOVE_CAP):
            if game.over or state.get("hand_number") != first:
                break
            decision = game.decision()
            game.apply(agents[decision.player].choose(decision))
            decisions += 1
    return count, decisions


@lru_cache(maxsize=1)
def gin_rummy() -> object:
    import pyspiel
    return pyspiel.load_game("gin_rummy")


def openspiel_hands(count: int, seed: int) -> tuple[int, int]:
    return random_openspiel_games(gin_rummy(), count, seed)


def main() -> None:
    header("bench_chinchon", "random Chinchón hands and decisions per second, Naipes vs OpenSpiel gin_rummy",
           ROUNDS, time.process_time)
    chinchon()
    contenders = {"naipes chinchon (closing bias)": lambda: naipes_hands(HANDS, 1)}
    try:
        gin_rummy()
        contenders["openspiel gin_rummy"] = lambda: openspiel_hands(HANDS, 1)
    except ImportError:
        print("   OpenSpiel is not installed (pip install -e '.[bench]'): Naipes alone\n")
    race = Race(contenders, ROUNDS, time.process_time)
    rows, summary = [], {}
    for name in contenders:
        hands, decisions = race.outs[name]
        seconds = race.best(name)
        rows.append([name, hands, decisions, rate(hands, seconds), rate(decisions, seconds)])
        summary[name] = {"hands_per_s": rate(hands, seconds), "decisions_per_s": rate(decisions, seconds)}
    table(["2 players, random play", "hands", "decisions", "hands/s", "decisions/s"], rows)
    if len(contenders) == 2:
        (ours, naipes), (theirs, openspiel) = summary.items()
        best = naipes["decisions_per_s"] / openspiel["decisions_per_s"]
        # each run plays the same games, so a round's ratio of decisions/s is the ratio of the
        # decision counts times the round's ratio of times; the median of the rounds cancels
        # the drifts of a shared machine (as the other benchmarks' ratios do)
        ratio = race.outs[ours][1] / race.outs[theirs][1] * race.speedup(ours, theirs)
        summary["ratio"], summary["ratio_best_times"] = ratio, best
        print(f"   Naipes decisions/s / OpenSpiel decisions/s = {ratio:.2f} (median of {ROUNDS} paired rounds; "
              f"{best:.2f} from the best times); issue 37 target >= 4: {'met' if ratio >= 4 else 'NOT met'}\n")
    write_summary(sys.argv, summary)


if __name__ == "__main__":
    main()
