"""Competitions: a folder of Python bots plays one or more rule files; a league table.

Every Bot subclass defined in a ``.py`` file of the folder is an entrant. Each
entrant is one object for the whole competition, so it may learn across games
(the static environment of a competition keeps deck order and seats fixed for
that). Tables are formed by rotating the entrants over the seats; with fewer
entrants than seats, ``random`` agents fill the table. Games are played one
after another (learning bots need the order), each from its own seed.

>>> table = run_competition(["rulesets/mygame.yaml"], "bots/", games=10, seed=1)  # doctest: +SKIP
"""
from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path
from typing import Callable

from .agents import RandomAgent
from .bots import Bot, BotSeat, load_bot_class
from .errors import NaipesError
from .interpreter import play_game
from .program import load_program


def discover_bots(folder: str | Path) -> list[str]:
    """The seat specs (python:FILE:CLASS) of every Bot subclass defined in the folder's .py files."""
    folder = Path(folder)
    if not folder.is_dir():
        raise NaipesError(f"no bot folder '{folder}'")
    specs = []
    for file in sorted(folder.glob("*.py")):
        loader = importlib.util.spec_from_file_location(f"naipes_scan_{file.stem}", file)
        module = importlib.util.module_from_spec(loader)
        try:
            loader.loader.exec_module(module)
        except Exception as exc:
            raise NaipesError(f"bot file '{file}' failed to load: {type(exc).__name__}: {exc}") from None
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Bot) and cls is not Bot and cls.__module__ == module.__name__:
                specs.append(f"python:{file}:{name}")
    if not specs:
        raise NaipesError(f"no Bot subclass in the .py files of '{folder}'")
    return specs


def run_competition(rulesets: list[str], folder: str | Path, games: int, seed: int, fixed: tuple[str, ...] = (),
                    time_limit: float | None = 5.0, progress: Callable[[int], None] | None = None) -> dict:
    """Play `games` games of each rule file; returns per-rule-file standings and the league table.

    Rule files in `fixed` are played as a static environment: the same deal
    (one seed) and the same table for all `games` games of a block, one block
    per rotation of the entrants when there are more entrants than seats.
    The others get a new seed and the next rotation of the table every game.
    """
    specs = discover_bots(folder)
    seats = {spec: BotSeat(load_bot_class(spec)(), spec.rsplit(":", 1)[1], time_limit) for spec in specs}
    standings: dict[str, dict] = {}
    for path in rulesets:
        program = load_program(path)
        count = program.players[2]
        static = path in fixed
        rows = {spec: {"games": 0, "points": 0.0, "wins": 0.0, "faults": 0} for spec in specs}
        blocks = (len(specs) if len(specs) > count else 1) if static else 1
        for block in range(blocks):
            for game in range(games):
                rotation = block if static else game
                table = [specs[(rotation + i) % len(specs)] for i in range(min(count, len(specs)))]
                agents: list = [seats[spec] for spec in table]
                agents += [RandomAgent(seed * 7919 + game * 31 + i) for i in range(count - len(agents))]
                before = {spec: len(seats[spec].faults) for spec in table}
                result = play_game(program, agents, seed + block if static else seed + game)
                share = 1.0 / len(result.winners) if result.winners else 0.0
                for seat, spec in enumerate(table):
                    row = rows[spec]
                    row["games"] += 1
                    row["points"] += result.payoffs[seat]
                    row["wins"] += share if seat in result.winners else 0.0
                    row["faults"] += len(seats[spec].faults) - before[spec]
                if progress:
                    progress(1)
        standings[program.name] = rows
    return {"rulesets": [str(p) for p in rulesets], "games": games, "seed": seed, "entrants": specs,
            "standings": standings, "table": league(specs, standings)}


def league(specs: list[str], standings: dict[str, dict]) -> list[dict]:
    """Entrants ranked by mean points per game over every rule file (then wins)."""
    rows = []
    for spec in specs:
        played = sum(s[spec]["games"] for s in standings.values())
        points = sum(s[spec]["points"] for s in standings.values())
        wins = sum(s[spec]["wins"] for s in standings.values())
        faults = sum(s[spec]["faults"] for s in standings.values())
        rows.append({"entrant": spec.rsplit(":", 1)[1], "spec": spec, "games": played,
                     "mean_points": points / played if played else 0.0, "wins": wins, "faults": faults,
                     "by_ruleset": {name: (s[spec]["points"] / s[spec]["games"] if s[spec]["games"] else 0.0)
                                    for name, s in standings.items()}})
    rows.sort(key=lambda r: (-r["mean_points"], -r["wins"], r["entrant"]))
    return rows

