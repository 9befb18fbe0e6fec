"""Strategy seats: time per decision of each game's AI, side by side with random play.

Every seat plays the game's strategy level (what `naipes simulate` and
`naipes tournament` seat by default), for a few whole games from fixed seeds;
beside it, the same games with RandomAgent seats. The ratio is the time per
decision of the strategy seats over the random ones (median of paired rounds):
what deciding by the strategy file costs, in random decisions. A strategy
decides on a view of the game (Memory.seen_by) and observes every move it
watches on a narrower one (only what its observation rules read).

    .venv/bin/python benchmarks/bench_strategies.py [--rounds 5] [--json FILE]
"""
from __future__ import annotations

import argparse
import sys
from functools import cache, partial

from common import ROOT, Race, header, table, write_summary

# (rule file, strategy level, players, games per timed batch)
CASES = [("pocha", "strong", 4, 2), ("tute_cabrero", "expert", 3, 2), ("wizard", "strong", 4, 1),
         ("chinchon", "seed", 2, 2)]


@cache
def program(game: str) -> object:
    from naipes import load_program
    return load_program(ROOT / "rulesets" / f"{game}.yaml")


@cache
def seats(game: str, level: str, players: int) -> list:
    """One agent per seat for the whole run, as `naipes simulate` seats them (the strategy compiled once)."""
    from naipes.agents.registry import make_agent
    return [make_agent(level, seed=k, program=program(game)) for k in range(players)]


def play(game: str, level: str, players: int, games: int) -> tuple[int, int]:
    """(games, decisions) of `games` games from seeds 0.. with every seat `level` (reseeded per game)."""
    from naipes import play_game
    agents = seats(game, level, players)
    decisions = 0
    for seed in range(games):
        for k, agent in enumerate(agents):
            agent.reseed(100 * seed + k)
        decisions += play_game(program(game), agents, seed).decisions
    return games, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", help="write the summary as JSON")
    args = parser.parse_args()
    header("bench_strategies", "strategy seats' time per decision, beside random seats", args.rounds)
    rows, summary = [], {}
    for game, level, players, games in CASES:
        seats(game, level, players)
        race = Race({level: partial(play, game, level, players, games),
                     "random": partial(play, game, "random", players, games)}, args.rounds)
        per = {name: race.best(name) / race.outs[name][1] * 1e6 for name in (level, "random")}
        ratio = (1 / race.speedup(level, "random")) * (race.outs["random"][1] / race.outs[level][1])
        rows.append([f"{game} {level}", players, race.outs[level][1], per[level], per["random"], ratio])
        summary[f"{game}/{level}"] = {"us_per_decision": per[level], "random_us_per_decision": per["random"],
                                      "ratio": ratio}
    table(["game and level", "seats", "decisions", "us/decision", "random us/decision", "x random"], rows)
    print("   x random: time per decision of the strategy seats / of random seats (median of paired rounds)\n")
    write_summary(sys.argv, summary)


if __name__ == "__main__":
    main()
