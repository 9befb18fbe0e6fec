"""Game logs (``naipes play --log FILE``): one JSON record per line, enough to replay and to resume the game.

The first line says what was played (``{"type": "log", ...}``: the rule file, its digest, the params given,
the seed, the seats). Then come the game's own records (:meth:`naipes.runtime.game.Game.emit`: the start,
rule firings, decisions, announcements, the end) and, marked ``"visibility": "full"``, what no seat may
see: the order of every shuffle and every card's movement from zone to zone (the deal among them). A
program that shows a seat only what the seat may see leaves out every record marked full (and the log line).

>>> import io
>>> from naipes import load_program
>>> from naipes.runtime.game import Game
>>> out = io.StringIO()
>>> game = Game(load_program("rulesets/tute_cabrero.yaml"), seed=1)
>>> attach_log(game, out, LogHeader("tute_cabrero", "0" * 64, {}, 1, ["random"] * 3))
>>> game.start()
>>> records = [json.loads(line) for line in out.getvalue().splitlines()]
>>> shuffle = next(r for r in records if r["type"] == "shuffle")
>>> records[0]["type"], shuffle["visibility"], shuffle["zone"], len(shuffle["order"])
('log', 'full', 'stock', 40)
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TextIO

from ..errors import Location, NaipesError, RuleError
from ..runtime.game import Game
from ..runtime.memory import CardBase, Memory, Zone

FORMAT = 1  # the version of the log's format, in its first line
FULL = "full"  # the visibility of the records only the log (and the replay's everything view) may show


class LogError(RuleError):
    """A log that cannot be read, replayed or resumed, located at its line (file:line:col)."""


@dataclass
class LogHeader:
    """What a log was played with: a shipped rule file's name or a path, its digest, the -p params, seats."""

    ruleset: str
    sha256: str
    params: dict[str, str]
    seed: int
    seats: list[str]

    def record(self) -> dict:
        """The log's first line."""
        return {"type": "log", "format": FORMAT, "visibility": FULL, **asdict(self)}


def digest(path: str | Path) -> str:
    """The SHA-256 of a rule file's bytes (a log says which version of the file it was played with)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class JsonLines:
    """Writes each record as one JSON line, flushed at once (nothing lost if the game stops)."""

    def __init__(self, stream: TextIO):
        self.stream = stream

    def __call__(self, record: dict) -> None:
        self.stream.write(as_line(record) + "\n")
        self.stream.flush()


def as_line(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, default=str)


def as_logged(record: dict) -> Any:
    """A record as it reads back from a log (tuples as lists, other values as text)."""
    return json.loads(as_line(record))


def zone_label(zone: Zone) -> str:
    return zone.name if zone.owner is None else f"{zone.owner.name}.{zone.name}"


class CardMovements:
    """A tracker of the game's memory (``Memory.trackers``): every shuffle and movement as a full record."""

    def __init__(self, memory: Memory, write: Callable[[dict], None]):
        self.write = write
        self.where = {card.id: zone_label(zone) for zone in memory.zones for card in zone}

    def moved(self, cards: list[CardBase], dest: Zone) -> None:
        to = zone_label(dest)
        run: list[CardBase] = []
        for card in cards:  # one record per run of cards that came from the same zone
            if run and self.where[run[0].id] != self.where[card.id]:
                self._write_run(run, to)
                run = []
            run.append(card)
        if run:
            self._write_run(run, to)

    def _write_run(self, cards: list[CardBase], to: str) -> None:
        self.write({"type": "move", "visibility": FULL, "cards": [c.name for c in cards],
                    "from": self.where[cards[0].id], "to": to})
        for card in cards:
            self.where[card.id] = to

    def shuffled(self, zone: Zone) -> None:
        self.write({"type": "shuffle", "visibility": FULL, "zone": zone_label(zone), "order": [c.name for c in zone]})


def attach_log(game: Game, stream: TextIO, header: LogHeader) -> None:
    """Log `game` (not started yet) to `stream`: the header now, then every record as it happens."""
    write = JsonLines(stream)
    write(header.record())
    record_game(game, write)


def record_game(game: Game, write: Callable[[dict], None]) -> None:
    """Send every record of `game`, the full ones included, to `write` (for a log, or a replay's check)."""
    game.listeners.append(write)
    game.memory.trackers = game.memory.trackers + (CardMovements(game.memory, write),)


@dataclass
class LoggedRecord:
    line: int
    record: dict


def read_log(path: str | Path) -> list[LoggedRecord]:
    """The records of a log, each with its line; a located error for a line that is not one.

    A last line cut short (the game's process ended while writing it) is left out.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise NaipesError(f"{path}: cannot read the log: {error}") from None
    lines = text.split("\n")
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            if number == len(lines):  # no newline after it: written only in part
                break
            raise LogError(f"not a JSON record: {error.msg}", Location(str(path), number, error.colno)) from None
        if not isinstance(record, dict) or not isinstance(record.get("type"), str):
            raise LogError('not a record of a game log (a JSON object with a "type")',
                              Location(str(path), number, 1))
        records.append(LoggedRecord(number, record))
    if not records or records[0].record["type"] != "log":
        raise LogError("not a game log written by 'naipes play --log' (its first line is "
                          '{"type": "log", ...})', Location(str(path), 1, 1))
    return records
