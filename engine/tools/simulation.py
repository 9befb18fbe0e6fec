"""Simulations: many games of one table, AI against AI; wins, mean result and faults per seat.

Game i is played from seed + i, every agent reseeded for it, so a run is
reproducible from its seed and gives the same results with any number of
worker processes (``jobs``). With one job (the default) each seat is one agent
for the whole run, so agents that learn across games keep what they learnt.

>>> summary = run_simulation("fichas", ["exact", "random"], games=20, seed=1)  # doctest: +SKIP
>>> summary["seats"][0]["wins"]                                                               # doctest: +SKIP
17
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..agents.bot_process import BotLimits
from ..program import Program
from ..runtime.game import play_game
from .statistics import wilson_interval
from .tournament import FAULT_EXAMPLES, WORKER, Compiled, collect, compile_seats, map_on_workers


@dataclass(frozen=True)
class GameOutcome:
    """One game: who won, each seat's payoff, and the faults of each seat's agent in it."""

    seed: int
    winners: tuple[int, ...]
    payoffs: tuple[float, ...]
    cut_off: bool
    faults: tuple[tuple[str, ...], ...]


def _play(seed: int) -> GameOutcome:
    program: Program = WORKER["program"]
    agents = WORKER["agents"]
    for seat, agent in enumerate(agents):
        if hasattr(agent, "reseed"):
            agent.reseed(seed * 1009 + seat)
    before = [len(getattr(a, "faults", ())) for a in agents]
    result = play_game(program, agents, seed)
    faults = tuple(tuple(list(getattr(a, "faults", ()))[b:]) for a, b in zip(agents, before))
    return GameOutcome(seed, tuple(result.winners), tuple(result.payoffs), result.cut_off is not None, faults)


def play_games(compiled: Compiled, specs: list[str], seeds: list[int], jobs: int = 1,
               limits: BotLimits = BotLimits()) -> Iterator[GameOutcome]:
    """Play a game per seed with the agents `specs` (in parallel when jobs != 1; 0: one per core), in seed order."""
    yield from map_on_workers(_play, compiled, specs, seeds, jobs, limits)


def run_simulation(program: Program, specs: list[str], games: int, seed: int, jobs: int = 1,
                   progress: Callable[[int], None] | None = None, limits: BotLimits = BotLimits()) -> dict:
    """Play `games` games from `seed` on; a summary per seat (Ctrl-C after some games: theirs, marked)."""
    outcomes: list[GameOutcome] = []
    seeds = [seed + i for i in range(games)]
    compiled = compile_seats(program, specs, limits)
    interrupted = collect(play_games(compiled, specs, seeds, jobs, limits), outcomes, progress)
    return {**summarise(program, specs, seed, outcomes), "requested": games, "interrupted": interrupted}


def summarise(program: Program, specs: list[str], seed: int, outcomes: list[GameOutcome]) -> dict[str, Any]:
    """Per seat: wins (with a Wilson 95 % interval of the rate), mean result, faults and their first reasons."""
    played = len(outcomes)
    seats = []
    for i, spec in enumerate(specs):
        wins = sum(i in o.winners for o in outcomes)
        reasons = [reason for o in outcomes for reason in o.faults[i]]
        seats.append({"seat": f"P{i + 1}", "agent": spec, "wins": wins,
                      "win_rate": wins / played if played else math.nan,
                      "win_ci": list(wilson_interval(wins, played)),
                      "mean_result": sum(o.payoffs[i] for o in outcomes) / played if played else math.nan,
                      "faults": len(reasons), "fault_reasons": reasons[:FAULT_EXAMPLES]})
    return {"game": program.name, "ruleset": program.ruleset, "title": program.title, "params": program.param_values,
            "seed": seed,
            "games": played, "cut_off": sum(o.cut_off for o in outcomes), "seats": seats}
