"""Tournaments: many deals, every seating of the agents, results with confidence intervals.

Duplicate style: each deal (a seed) is played once per rotation of the agents
around the table, so every agent meets the same cards from every seat and the
luck of the deal cancels out. An agent's score on a deal is its mean over the
rotations; the deals are the independent samples behind the 95 % intervals
(Wilson's for the win rates, which stay honest at 0 and 1).

Deals run in parallel worker processes, forked from the one that compiled the
rule file and the strategies (see start_method); results are gathered in deal
order, so a tournament is deterministic from its seed whatever the number of
workers.
(Agents that learn across games should run with ``jobs=1``: each worker has
its own copy of every agent; a Python bot's copy is a process of its own.)

>>> summary = run_tournament("rulesets/mygame.yaml", ["minimax", "random"], deals=20, seed=1)  # doctest: +SKIP
>>> summary["agents"][0]["win_rate"]                                                           # doctest: +SKIP
0.95
"""
from __future__ import annotations

import math
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..agents.bot_process import BotLimits
from ..agents.registry import make_agent
from ..errors import NaipesError
from ..language.builder import load_program
from ..program import Program
from ..runtime.game import play_game
from .seating import close_agents, refuse_people
from .statistics import mean_interval, wilson_interval

FAULT_EXAMPLES = 5  # fault reasons kept per agent for the summary


@dataclass(frozen=True)
class DealResult:
    """One deal played in every rotation: per agent, its mean win share and mean payoff."""

    deal: int
    win_share: tuple[float, ...]
    payoff: tuple[float, ...]
    faults: tuple[int, ...]
    fault_reasons: tuple[tuple[str, ...], ...]  # per agent, its first few of this deal
    cut_off: int = 0  # games of the deal stopped by max_decisions


def rotations(count: int) -> list[list[int]]:
    """Seatings: rotation r puts agent (seat + r) mod count at each seat."""
    return [[(seat + r) % count for seat in range(count)] for r in range(count)]


# ------------------------------------------------------------------ workers
WORKER: dict[str, Any] = {}


@dataclass
class Compiled:
    """What every worker plays with: the program, and the strategy files its seats name compiled against it
    (path -> Strategy; naipes.agents.registry.make_agent fills it). Made once, where the run starts."""

    program: Program
    strategies: dict = field(default_factory=dict)


def compile_seats(program: Program, specs: list[str], limits: BotLimits) -> Compiled:
    """`program` with the strategy files `specs` name compiled against it: each agent is made once, which fails
    early on a bad name, and closed (a Python bot's process ends: each worker starts its own).

    `specs` are the words of whoever runs the tournament (the command line's --seat, a Python caller's): a Python
    bot among them is started. The seats the rule file's AI fills get naipes.agents.levels.default_opponent,
    which never names one."""
    refuse_people(program, specs)
    compiled = Compiled(program)
    for spec in specs:
        close_agents([make_agent(spec, program=program, bot_limits=limits, strategies=compiled.strategies,
                                 typed=True)])
    return compiled


def worker_state(compiled: Compiled, specs: list[str], limits: BotLimits) -> dict[str, Any]:
    """A worker's program and agents (a strategy seated twice, or by several workers, is compiled once)."""
    program = compiled.program
    return {"program": program, "specs": specs, "agents": [
        make_agent(spec, program=program, bot_limits=limits, strategies=compiled.strategies, typed=True)
        for spec in specs]}


def init_worker(compiled: Compiled, specs: list[str], limits: BotLimits) -> None:
    """A worker started by fork, or the process itself with one job: it holds the compiled program already."""
    WORKER.update(worker_state(compiled, specs, limits))


def init_spawned_worker(path: str, params: dict[str, str], specs: list[str], limits: BotLimits) -> None:
    """A worker started afresh (where fork is not safe: see start_method): it loads the rule file again."""
    WORKER.update(worker_state(Compiled(load_program(path, params)), specs, limits))


def start_method() -> str:
    """How worker processes start: forked from this one where that is safe (Linux, no other thread that might
    hold a lock), so that they share the program compiled here; else a fresh interpreter that compiles it
    again (a second or so per worker)."""
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "spawn"


def play_deal(deal_seed: int, worker: dict | None = None) -> DealResult:
    """One deal played in every rotation of the worker's agents (WORKER's, or `worker`'s: worker_state)."""
    worker = worker if worker is not None else WORKER
    program: Program = worker["program"]
    agents = worker["agents"]
    count = len(agents)
    wins, payoffs, cut_off = [0.0] * count, [0.0] * count, 0
    faults_before = [len(getattr(a, "faults", ())) for a in agents]
    for rotation, order in enumerate(rotations(count)):
        seated = [agents[i] for i in order]
        for seat, agent in enumerate(seated):
            if hasattr(agent, "reseed"):
                agent.reseed((deal_seed * 31 + rotation) * 1009 + seat)
        result = play_game(program, seated, deal_seed)
        cut_off += result.cut_off is not None
        share = 1.0 / len(result.winners) if result.winners else 0.0
        for seat, agent_index in enumerate(order):
            wins[agent_index] += share if seat in result.winners else 0.0
            payoffs[agent_index] += result.payoffs[seat]
    new_faults = [list(getattr(a, "faults", ()))[b:] for a, b in zip(agents, faults_before)]
    return DealResult(deal_seed, tuple(w / count for w in wins), tuple(p / count for p in payoffs),
                      tuple(len(f) for f in new_faults), tuple(tuple(f[:FAULT_EXAMPLES]) for f in new_faults), cut_off)


_thread = threading.local()  # a worker thread's program and agents (cluster workers may run several threads)


def play_one_deal(deal_seed: int, setup: tuple) -> DealResult:
    """One deal on a worker that may serve several tournaments; `setup` is (path, params, specs, bot limits):
    the rule file is loaded once per thread and setup."""
    if getattr(_thread, "setup", None) != setup:
        path, params, specs, limits = setup
        _thread.setup, _thread.worker = setup, worker_state(Compiled(load_program(path, params)), specs, limits)
    return play_deal(deal_seed, _thread.worker)


def play_deals(compiled: Compiled, specs: list[str], seeds: list[int], jobs: int = 0, cluster: str | None = None,
               limits: BotLimits = BotLimits()) -> Iterator[DealResult]:
    """Play every deal, in parallel when jobs != 1 (or on a Dask cluster, whose workers load the rule file
    themselves); yields results in deal order."""
    if cluster:
        try:
            from .cluster import play_deals_on_cluster
        except ImportError:
            raise NaipesError("--cluster needs Dask distributed: pip install 'naipes[cluster]'") from None
        program = compiled.program
        yield from play_deals_on_cluster(cluster, play_one_deal, program.path, program.overrides, specs, seeds, limits)
        return
    yield from map_on_workers(play_deal, compiled, specs, seeds, jobs, limits)


def map_on_workers(play: Callable[[int], Any], compiled: Compiled, specs: list[str], seeds: list[int], jobs: int,
                   limits: BotLimits) -> Iterator[Any]:
    """`play(seed)` for every seed, in seed order, on `jobs` worker processes (0: one per core; 1: here) that
    hold the program and the agents in WORKER. `play` is a module-level function (a spawned worker imports it)."""
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1 or len(seeds) == 1:
        init_worker(compiled, specs, limits)
        try:
            yield from map(play, seeds)
        finally:
            close_agents(WORKER["agents"])
        return
    method = start_method()
    program = compiled.program
    initializer, arguments = (init_worker, (compiled, specs, limits)) if method == "fork" else \
        (init_spawned_worker, (program.path, program.overrides, specs, limits))  # (a fork passes them as they are)
    context = multiprocessing.get_context(method)
    with context.Pool(min(jobs, len(seeds)), initializer=initializer, initargs=arguments) as pool:
        yield from pool.imap(play, seeds, chunksize=max(1, len(seeds) // (jobs * 8)))


def run_tournament(path: str, specs: list[str], deals: int, seed: int, params: dict[str, str] | None = None,
                   jobs: int = 0, progress: Callable[[int], None] | None = None, cluster: str | None = None,
                   limits: BotLimits = BotLimits()) -> dict:
    """Play `deals` deals in every rotation and summarise each agent's results (on a Dask cluster:
    `cluster` is the scheduler's address)."""
    program = load_program(path, dict(params or {}))
    if not program.players[0] <= len(specs) <= program.players[1]:
        raise NaipesError(f"{program.name} seats {program.players[0]} to {program.players[1]} players; "
                          f"the tournament names {len(specs)} agents")
    compiled = compile_seats(program, specs, limits)
    seeds = [seed + i for i in range(deals)]
    results: list[DealResult] = []
    interrupted = collect(play_deals(compiled, specs, seeds, jobs, cluster, limits), results, progress)
    return {**summarise(program, specs, seed, results), "requested": deals, "interrupted": interrupted}


def collect(outcomes: Iterator, into: list, progress: Callable[[int], None] | None = None) -> bool:
    """Gather `outcomes` into `into`; True if Ctrl-C stopped it after at least one (the partial results stand)."""
    try:
        for outcome in outcomes:
            into.append(outcome)
            if progress:
                progress(1)
    except KeyboardInterrupt:
        if not into:
            raise
        return True
    return False


def summarise(program: Program, specs: list[str], seed: int, results: list[DealResult]) -> dict:
    agents = []
    for i, spec in enumerate(specs):
        wins = sum(r.win_share[i] for r in results)
        win, (win_lo, win_hi) = wins / len(results) if results else math.nan, wilson_interval(wins, len(results))
        pay, pay_lo, pay_hi = mean_interval([r.payoff[i] for r in results])
        agents.append({"agent": spec, "seat_label": f"{spec}#{i + 1}" if specs.count(spec) > 1 else spec,
                       "win_rate": win, "win_ci": [win_lo, win_hi],
                       "mean_payoff": pay, "payoff_ci": [pay_lo, pay_hi],
                       "faults": sum(r.faults[i] for r in results),
                       "fault_reasons": [reason for r in results for reason in r.fault_reasons[i]][:FAULT_EXAMPLES]})
    return {"game": program.name, "ruleset": program.ruleset, "params": program.param_values, "seed": seed,
            "deals": len(results),
            "games": len(results) * len(specs), "rotations": len(specs), "agents": agents,
            "cut_off": sum(r.cut_off for r in results)}


def plot(summary: dict, path: str) -> None:
    """A PNG of each agent's mean payoff with its 95 % interval."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    agents = summary["agents"]
    labels = [a["seat_label"] for a in agents]
    means = [a["mean_payoff"] for a in agents]
    errors = [[m - a["payoff_ci"][0] for m, a in zip(means, agents)],
              [a["payoff_ci"][1] - m for m, a in zip(means, agents)]]
    figure, axes = plt.subplots(figsize=(1.6 * len(agents) + 2, 4))
    axes.bar(labels, means, yerr=errors, capsize=8, color="#4c78a8")
    axes.set_ylabel("mean payoff per game (95 % CI)")
    axes.set_title(f"{summary['ruleset']}: {summary['deals']} deals × {summary['rotations']} seatings")
    axes.axhline(0, color="black", linewidth=0.6)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
