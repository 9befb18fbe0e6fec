"""Competitions: a folder of Python bots plays one or more rule files; a league table.

Every Bot subclass defined in a ``.py`` file of the folder is an entrant (each
file is imported by a worker process of its own, never by the game's). A file
that cannot be imported, or a bot that cannot be made, is an entrant with a
fault and no games, at the bottom of the table; the others play. Each entrant
is one object in one worker process for the whole competition, so it may
learn across games (the static environment of a competition keeps deck order
and seats fixed for that). Tables are formed by rotating the entrants over the seats; with fewer
entrants than seats, ``random`` agents fill the table. Games are played one
after another (learning bots need the order), each from its own seed.

>>> table = run_competition(["rulesets/mygame.yaml"], "bots/", games=10, seed=1)  # doctest: +SKIP
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..agents.bot_process import BotLimits, BotProcess, WorkerEnded
from ..agents.bot_seat import BotSeat, make_bot_seat
from ..agents.registry import RandomAgent
from ..errors import NaipesError, ParamError
from ..language.builder import load_program
from ..program import Program
from ..runtime.game import play_game

FAULT_EXAMPLES = 5  # fault reasons kept per entrant for the summary


@dataclass
class Entrants:
    """What a bot folder holds: the seat spec (python:FILE:CLASS) of every Bot subclass its files define, and
    why each file that could not be read for them could not (by file name)."""

    specs: list[str]
    broken: dict[str, str]


def discover_bots(folder: str | Path, limits: BotLimits = BotLimits()) -> Entrants:
    """Every Bot subclass defined in the folder's .py files, each file imported in a worker process of its own
    (its code may be anyone's): it answers plain names, which must name that file and Python identifiers."""
    folder = Path(folder)
    if not folder.is_dir():
        raise NaipesError(f"no bot folder '{folder}'")
    found = Entrants([], {})
    for file in sorted(folder.glob("*.py")):
        try:
            worker, hello = BotProcess.start(["scan", str(file)], limits)
        except WorkerEnded as ended:
            found.broken[file.name] = f"loading {file.name}: {ended}"
            continue
        worker.end()
        bots = hello.get("bots", [])
        if "fault" in hello:
            found.broken[file.name] = hello["fault"]
        elif not all(isinstance(entry, list) and len(entry) == 2 and entry[0] == file.name
                     and isinstance(entry[1], str) and entry[1].isidentifier() for entry in bots):
            found.broken[file.name] = f"loading {file.name}: the scan answered something else than bot classes"
        else:
            found.specs += [f"python:{file}:{name}" for _, name in bots]
    if not found.specs and not found.broken:
        raise NaipesError(f"no Bot subclass in the .py files of '{folder}'")
    return found


def run_competition(rulesets: list[str], folder: str | Path, games: int, seed: int, fixed: tuple[str, ...] = (),
                    limits: BotLimits = BotLimits(), progress: Callable[[int], None] | None = None) -> dict:
    """Play `games` games of each rule file; returns per-rule-file standings and the league table.

    Rule files in `fixed` are played as a static environment: the same deal
    (one seed) and the same table for all `games` games of a block, one block
    per rotation of the entrants when there are more entrants than seats.
    The others get a new seed and the next rotation of the table every game.
    """
    entrants = discover_bots(folder, limits)
    unloaded = dict(entrants.broken)  # entrant -> why it could not play
    seats: dict[str, BotSeat] = {}
    try:
        for spec in entrants.specs:
            try:
                seats[spec] = make_bot_seat(spec, limits)
            except ParamError as error:
                unloaded[spec] = str(error)
        if not seats:
            raise NaipesError(f"no bot of '{folder}' could be loaded: " + "; ".join(unloaded.values()))
        standings = {}
        for path in rulesets:
            program = load_program(path)
            name = program.ruleset if program.ruleset not in standings else str(path)  # (a file given twice)
            standings[name] = play_ruleset(program, seats, games, seed, path in fixed, progress)
    finally:
        for seat in seats.values():
            seat.close()
    return {"rulesets": [str(p) for p in rulesets], "games": games, "seed": seed, "entrants": entrants.specs,
            "standings": standings, "table": league(list(seats), standings) + unplayed(unloaded, standings)}


def play_ruleset(program: Program, seats: dict[str, BotSeat], games: int, seed: int, static: bool,
                 progress: Callable[[int], None] | None) -> dict[str, dict]:
    """One rule file's games: per entrant, games, points, wins, faults and the first fault reasons."""
    specs = list(seats)
    count = program.players[2]
    rows: dict[str, dict[str, Any]] = {spec: {"games": 0, "points": 0.0, "wins": 0.0, "faults": 0, "fault_reasons": []}
                                       for spec in specs}
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
                new = seats[spec].faults[before[spec]:]
                row["faults"] += len(new)
                row["fault_reasons"] += new[:FAULT_EXAMPLES - len(row["fault_reasons"])]
            if progress:
                progress(1)
    return rows


def league(specs: list[str], standings: dict[str, dict]) -> list[dict]:
    """Entrants ranked by mean points per game over every rule file (then wins)."""
    rows = []
    for spec in specs:
        played = sum(s[spec]["games"] for s in standings.values())
        points = sum(s[spec]["points"] for s in standings.values())
        wins = sum(s[spec]["wins"] for s in standings.values())
        faults = sum(s[spec]["faults"] for s in standings.values())
        reasons = [reason for s in standings.values() for reason in s[spec]["fault_reasons"]]
        rows.append({"entrant": spec.rsplit(":", 1)[1], "spec": spec, "games": played,
                     "mean_points": points / played if played else 0.0, "wins": wins, "faults": faults,
                     "fault_reasons": reasons[:FAULT_EXAMPLES],
                     "by_ruleset": {name: (s[spec]["points"] / s[spec]["games"] if s[spec]["games"] else 0.0)
                                    for name, s in standings.items()}})
    rows.sort(key=lambda r: (-r["mean_points"], -r["wins"], r["entrant"]))
    return rows


def unplayed(unloaded: dict[str, str], standings: dict[str, dict]) -> list[dict]:
    """The table's rows of the entrants that could not play (a bot spec, or a file whose classes are unknown):
    no games, one fault each, why."""
    return [{"entrant": entrant.rsplit(":", 1)[1] if entrant.startswith("python:") else entrant, "spec": entrant,
             "games": 0, "mean_points": 0.0, "wins": 0.0, "faults": 1, "fault_reasons": [reason],
             "by_ruleset": {name: None for name in standings}} for entrant, reason in unloaded.items()]

