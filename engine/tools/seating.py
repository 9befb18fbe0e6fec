"""Who sits where: the agents of a table from ``--seat``, ``--players`` and ``--opponents``.

The seats named with ``--seat`` come first, in order; the table is then filled
up to ``--players`` (default: the rule file's number of players, or more if
more seats are named) with ``--opponents`` (default: the rule file's AI,
``players: ai:``). With no seat named, ``play`` and ``serve`` put a person
(``human``) at seat 1.

>>> seat_plan(load_program("pocha"), ("human", "random"))     # doctest: +SKIP
['human', 'random', 'strong', 'strong']
"""
from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from ..agents.bot_process import BotLimits
from ..agents.levels import default_opponent, unseatable
from ..agents.registry import load_strategy, make_agent, named_agents
from ..errors import ParamError, RuleError
from ..language.strategies import strategy_path
from ..language.vocabulary import AGENT_NAMES, agent_options
from ..program import Program

HUMAN = "human"
AI_ONLY = "simulate, tournament and solve --after seat only AI players: use 'naipes play' to play"


def seat_plan(program: Program, seats: tuple[str, ...] | list[str], players: int | None = None,
              opponents: str | None = None, person_first: bool = False) -> list[str]:
    """The agent name at every seat (ParamError, naming the flag at fault, if the table cannot be made)."""
    low, high, default = program.players
    count = players if players is not None else max(default, len(seats))
    if not low <= count <= high:
        flag = "--players" if players is not None else "--seat"
        raise ParamError(f"{flag}: {program.title} seats {low} to {high} players, not {count}")
    if len(seats) > count:
        raise ParamError(f"--players {count}, but {len(seats)} agents are named with --seat")
    named = list(seats) or ([HUMAN] if person_first else [])
    return named + [opponents or default_opponent(program)] * (count - len(named))


def typed_seats(names: list[str], seats: tuple[str, ...] | list[str], opponents: str | None) -> range:
    """The seats of `seat_plan`'s `names` that the person typed: those named with --seat, and the rest when
    --opponents named their agent (not when the rule file's AI fills them)."""
    return range(len(names) if opponents is not None else len(seats))


def refuse_people(program: Program, specs: list[str]) -> None:
    """For the runs that seat only AI players (simulate, tournament, solve --after): refuse `specs` where a seat
    would ask a person to move after all: 'human' itself (the rule file's `players: ai:`), in a built-in agent's
    options (ismcts:policy=human), or as the `default:` of a strategy file, followed from file to file (a RuleError
    located at that default). A person asked in the middle of a run waits at a terminal, or ends the run where
    there is none."""
    for spec in specs:
        if _asks_a_person(program, spec, ()):
            raise ParamError(f"'{spec}' asks a person to move: {AI_ONLY}")


def _asks_a_person(program: Program, spec: str, seen: tuple[Path, ...]) -> bool:
    if spec == HUMAN:
        return True
    if spec.partition(":")[0] in AGENT_NAMES:  # (its options may name the agents it plays out with or models by)
        agent_options(spec)  # (malformed options: said here, as making the agent would)
        return any(_asks_a_person(program, inner, seen) for inner in named_agents(spec)[1:])
    if spec.startswith("python:"):
        return False
    path = strategy_path(spec, program)
    if path is None or path in seen:  # (not an agent, or a cycle of defaults: making it says so)
        return False
    strategy = load_strategy(path, program)
    if not _asks_a_person(program, strategy.default, (*seen, path)):  # (first and random ask nobody)
        return False
    raise RuleError(f"default '{strategy.default}' asks a person to move: {AI_ONLY}", strategy.default_where)


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent at `seat` in a game played from `seed` (so a game replays from its seed alone)."""
    return seed * 1009 + seat


def seat_agents(program: Program, names: list[str], named: int, seed: int, limits: BotLimits,
                typed: Collection[int] = ()) -> list:
    """The agents of `names`; the first `named` came from --seat, the others from --opponents (for errors).
    `typed`: the seats whose names the person typed (only those may start a Python bot: see make_agent)."""
    agents: list = []
    strategies: dict = {}  # (a strategy file seated twice is compiled once)
    try:
        for i, name in enumerate(names):
            try:
                agents.append(make_agent(name, seed=agent_seed(seed, i), program=program, bot_limits=limits,
                                         strategies=strategies, typed=i in typed))
            except ParamError as error:
                raise ParamError(f"{'--seat' if i < named else '--opponents'}: {error}") from None
    except BaseException:
        close_agents(agents)
        raise
    return agents


def close_agents(agents: list) -> None:
    """End the worker processes of the Python bots among `agents`."""
    for agent in agents:
        if hasattr(agent, "close"):
            agent.close()


def seat_list(program: Program, names: list[str], labels: list[str], named: int) -> str:
    """Who sits where, in words: `labels` are the agents' names; seats past `named` were filled in."""
    seats = ", ".join(f"P{i + 1} {label}{' (you)' if name == HUMAN and names.count(HUMAN) == 1 else ''}"
                      for i, (name, label) in enumerate(zip(names, labels)))
    filled = len(names) - max(named, 1 if names[:1] == [HUMAN] else 0)
    if filled <= 0:
        return f"seats: {seats}"
    first = len(names) - filled + 1
    which = f"P{first}" if filled == 1 else f"P{first}-P{len(names)}"
    why = unseatable(program)
    if names[-1] != default_opponent(program):
        source = "--opponents"
    elif why is None:
        source = "the rule file's AI"
    else:
        source = f"in place of the rule file's AI '{program.default_ai}': {why}"
    low, high, _ = program.players
    more = f"; --players N for {low} to {high} players" if low < high else ""
    return (f"seats: {seats}\n  ({which}: {names[-1]}, {source}; choose others with --seat AGENT or "
            f"--opponents LEVEL{more})")
