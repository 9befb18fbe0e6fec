"""Game logs (``naipes play --log FILE``): one JSON record per line, enough to replay and to resume the game.

The first line says what was played (``{"type": "log", ...}``: the rule file, its digest, the params given,
the seed, the seats). Then come the game's own records (:meth:`naipes.runtime.game.Game.emit`: the start,
rule firings, decisions, announcements, the end), what no seat may see (the order of every shuffle and every
card's movement from zone to zone: the deal among them), and what the agents say (an AI's reasons, a bot's
faults). Every record says who may see it, in its ``visibility`` (:func:`visibility`): ``public`` (everyone
at the table: announcements, the end), a player's name (what that seat alone saw: its decisions, which list
its options, and name its hidden cards; its AI's reasons and faults), or ``full`` (nobody at the table: the
header and the start, which hold the seed, from which every hand follows; shuffles, card movements and rule
firings, whose bindings name any card). A full log is for after the game.

A seat's own log (``naipes play --log-seat SEAT FILE``, :func:`attach_seat_log`) holds only what that seat
saw, and is safe to give its player: its header and start without the seed, the public records, the other
seats' decisions in the words the table heard, and its own decisions in full, each with the position as the
seat saw it then (``view``). It cannot be replayed (it has no seed).

>>> import io
>>> from naipes import load_program
>>> from naipes.runtime.game import Game
>>> out = io.StringIO()
>>> game = Game(load_program("tute_cabrero"), seed=1)
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

from ..errors import Location, NaipesError, RuleError, unshowable
from ..runtime.game import Game, jsonable
from ..runtime.memory import CardBase, Memory, Zone

FORMAT = 2  # the version of the log's format, in its first line (1: only full records said their visibility)
READABLE = (1, 2)  # the formats this naipes replays
FULL = "full"  # the visibility of the records only the log (and the replay's everything view) may show
PUBLIC = "public"  # the visibility of what everyone at the table is told
SEAT_RECORDS = ("decision", "strategy", "fault")  # records of one seat's own: its options, its AI's reasons
PUBLIC_RECORDS = ("announce", "end", "step")


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

    def seat_record(self, player: str) -> dict:
        """The first line of `player`'s own log: the header without the seed."""
        fields = {key: value for key, value in asdict(self).items() if key != "seed"}
        return {"type": "log", "format": FORMAT, "visibility": player, "seat": player, **fields}


def visibility(record: dict) -> str:
    """Who may see `record`: PUBLIC, the name of the one player who may, or FULL (nobody at the table)."""
    kind = record["type"]
    if kind in PUBLIC_RECORDS:
        return PUBLIC
    if kind in SEAT_RECORDS and isinstance(record.get("player"), str):
        return record["player"]
    return FULL  # the start (the seed), shuffles, movements, rule firings (their bindings), and anything new


def marked(record: dict) -> dict:
    """`record` with its visibility, right after its type (a copy: other listeners share the record)."""
    return {"type": record["type"], "visibility": visibility(record), **record}


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


class CardMovements:
    """A tracker of the game's memory (``Memory.trackers``): every shuffle and movement as a full record."""

    def __init__(self, memory: Memory, write: Callable[[dict], None]):
        self.write = write
        self.where = {card.id: jsonable(zone) for zone in memory.zones for card in zone}

    def moved(self, cards: list[CardBase], dest: Zone) -> None:
        to = jsonable(dest)
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

    def shown(self, cards: list[CardBase]) -> None:
        """Shown cards stay where they are (the game's announcement of them is a record of its own)."""

    def shuffled(self, zone: Zone) -> None:
        self.write({"type": "shuffle", "visibility": FULL, "zone": jsonable(zone), "order": [c.name for c in zone]})


def attach_log(game: Game, stream: TextIO, header: LogHeader) -> None:
    """Log `game` (not started yet) to `stream`: the header now, then every record as it happens."""
    write = JsonLines(stream)
    write(header.record())
    record_game(game, write)


def record_game(game: Game, write: Callable[[dict], None]) -> None:
    """Send every record of `game`, the full ones included, each marked with its visibility, to `write` (for a
    log, or a replay's check)."""
    game.listeners.append(lambda record: write(marked(record)))
    game.memory.trackers = game.memory.trackers + (CardMovements(game.memory, write),)


def attach_seat_log(game: Game, stream: TextIO, header: LogHeader, seat: int) -> None:
    """Log to `stream` what the player at `seat` of `game` (not started yet) sees (see the module's docstring)."""
    write = JsonLines(stream)
    player = game.memory.players[seat].name
    write(header.seat_record(player))

    def told(record: dict) -> None:
        shown = seen_by(marked(record), player)
        if shown is not None:
            if shown["type"] == "decision" and shown["visibility"] == player:
                shown["view"] = game.view(seat)  # (before the move is made: as the seat saw it to choose)
            write(shown)
    game.listeners.append(told)


def seen_by(record: dict, player: str) -> dict | None:
    """What `player` saw of a marked record: all of it, its public form, or nothing (None)."""
    if record["visibility"] in (PUBLIC, player):
        return record
    if record["type"] == "decision":  # another's: his move as the table heard it, not his options
        return {"type": "decision", "visibility": PUBLIC, "player": record["player"], "move": record["move"],
                "choice": record["public"]}
    if record["type"] == "start":  # without the seed
        return {"type": "start", "visibility": PUBLIC, **{key: value for key, value in record.items()
                                                          if key not in ("type", "visibility", "seed")}}
    return None


@dataclass
class LoggedRecord:
    line: int
    record: dict


# The fields of a log's records that are read before a replay compares each record with its own (the players a
# game is dealt to, the option a decision names: naipes.tools.replay), with their kinds: checked as the log is read,
# so that nothing reads a field of another kind. (Every other field is only compared with the replay's.)
READ_FIELDS: dict[str, dict[str, type]] = {"start": {"players": list}, "decision": {"player": str, "move": str,
                                                                                  "choice": str}}


def _misshapen(record: dict) -> str | None:
    """What is wrong with `record`, or None: a text no screen should show as it is (a rule file cannot make one), or
    a field that is read (READ_FIELDS) of another kind."""
    texts: list = [record]
    while texts:  # (a record nests at most as deep as json.loads reads)
        value = texts.pop()
        if isinstance(value, dict):
            texts += [*value.keys(), *value.values()]
        elif isinstance(value, list):
            texts += value
        elif (problem := unshowable(value)) is not None:
            return problem
    for name, kind in READ_FIELDS.get(record["type"], {}).items():
        value = record.get(name)
        if not isinstance(value, kind) or (isinstance(value, list) and not all(isinstance(i, str) for i in value)):
            what = "a list of names" if kind is list else "a text"
            return f"a {record['type']} record's {name} is {what}, not {json.dumps(value)[:60]}"
    return None


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
        except (ValueError, RecursionError) as error:  # a number of thousands of digits; nested thousands deep
            raise LogError(f"not a record of a game log: {type(error).__name__}", Location(str(path), number, 1)) \
                from None
        if not isinstance(record, dict) or not isinstance(record.get("type"), str):
            raise LogError('not a record of a game log (a JSON object with a "type")',
                              Location(str(path), number, 1))
        records.append(LoggedRecord(number, record))
    if not records or records[0].record["type"] != "log":
        raise LogError("not a game log written by 'naipes play --log' (its first line is "
                          '{"type": "log", ...})', Location(str(path), 1, 1))
    for logged in records:
        problem = _misshapen(logged.record)
        if problem:
            raise LogError(f"not a record of a game log: {problem}", Location(str(path), logged.line, 1))
    return records
