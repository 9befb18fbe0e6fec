"""Competitions: a folder of Python bots plays one or more rule files; a league table.

Every Bot subclass defined in a ``.py`` file of the folder is an entrant (the
files are imported by a worker process, never by the game's). Each entrant
is one object in one worker process for the whole competition, so it may
learn across games (the static environment of a competition keeps deck order
and seats fixed for that). Tables are formed by rotating the entrants over the seats; with fewer
entrants than seats, ``random`` agents fill the table. Games are played one
after another (learning bots need the order), each from its own seed.

>>> table = run_competition(["rulesets/mygame.yaml"], "bots/", games=10, seed=1)  # doctest: +SKIP
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..agents.bot_process import BotLimits, BotProcess, WorkerEnded
from ..agents.bot_seat import BotSeat, make_bot_seat
from ..agents.registry import RandomAgent
from ..errors import NaipesError
from ..language.builder import load_program
from ..program import Program
from ..runtime.game import play_game

FAULT_EXAMPLES = 5  # fault reasons kept per entrant for the summary


def discover_bots(folder: str | Path, limits: BotLimits = BotLimits()) -> list[str]:
    """The seat specs (python:FILE:CLASS) of every Bot subclass defined in the folder's .py files.

    The files are imported in a worker process (their code may be anyone's); it answers plain names,
    which must name files of the folder and Python identifiers."""
    folder = Path(folder)
    if not folder.is_dir():
        raise NaipesError(f"no bot folder '{folder}'")
    files = {file.name for file in folder.glob("*.py")}
    try:
        worker, hello = BotProcess.start(["scan", str(folder)], limits)
    except WorkerEnded as ended:
        raise NaipesError(f"bot folder '{folder}': {ended}") from None
    worker.end()
    if "fault" in hello:
        raise NaipesError(hello["fault"])
    found = hello.get("bots", [])
    if not all(isinstance(entry, list) and len(entry) == 2 and entry[0] in files and isinstance(entry[1], str)
               and entry[1].isidentifier() for entry in found):
        raise NaipesError(f"bot folder '{folder}': the scan answered something else than bot classes")
    specs = list(dict.fromkeys(f"python:{folder / file}:{name}" for file, name in found))
    if not specs:
        raise NaipesError(f"no Bot subclass in the .py files of '{folder}'")
    return specs


def run_competition(rulesets: list[str], folder: str | Path, games: int, seed: int, fixed: tuple[str, ...] = (),
                    limits: BotLimits = BotLimits(), progress: Callable[[int], None] | None = None) -> dict:
    """Play `games` games of each rule file; returns per-rule-file standings and the league table.

    Rule files in `fixed` are played as a static environment: the same deal
    (one seed) and the same table for all `games` games of a block, one block
    per rotation of the entrants when there are more entrants than seats.
    The others get a new seed and the next rotation of the table every game.
    """
    specs = discover_bots(folder, limits)
    seats: dict[str, BotSeat] = {}
    try:
        for spec in specs:
            seats[spec] = make_bot_seat(spec, limits)
        standings = {}
        for path in rulesets:
            program = load_program(path)
            standings[program.name] = play_ruleset(program, seats, games, seed, path in fixed, progress)
    finally:
        for seat in seats.values():
            seat.close()
    return {"rulesets": [str(p) for p in rulesets], "games": games, "seed": seed, "entrants": specs,
            "standings": standings, "table": league(specs, standings)}


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

