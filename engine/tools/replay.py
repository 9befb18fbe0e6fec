"""Replaying a game log (``naipes replay LOG``) and resuming one (``naipes play --resume LOG``).

A game is a function of its rule file, params, seed and decisions, so a replay runs the rule file again with
the logged decisions and keeps a copy of the game at every decision: step 0 is the position at the first
decision, step k the position after the k-th. Everything the re-run says (its own records and the full
records of every shuffle and card movement) must be what the log says, record by record: a log of another
rule file, of a changed one or an edited log is an error located at the first line that differs, never a
wrong replay. Each step can be seen as a seat saw it (``Game.view``), as an onlooker, or with every card
face up (``all``).

>>> replay = Replay.load("game.jsonl")           # doctest: +SKIP
>>> replay.steps, replay.view(3, "all")["players"][1]["hand"]   # doctest: +SKIP
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from ..agents.human import render_table
from ..errors import Location, NaipesError, ParamError
from ..language.builder import load_program
from ..language.shipped import ruleset_path
from ..program import Program
from ..runtime.game import Decision, Game, Option, card_order, jsonable
from .gamelog import FORMAT, READABLE, LogError, LoggedRecord, as_line, as_logged, digest, read_log, record_game

AGENT_RECORDS = {"log", "strategy", "fault"}  # what a log has that the game itself does not say (header, AI traces)
EVERYTHING = "all"  # the seat of a view with every card face up
SHOWN = 160  # characters of a record quoted in an error
SHIPPED_RULESET = re.compile(r"[A-Za-z0-9_-]+")  # how a log names a shipped rule file (never a path)


def ruleset_reference(path: Path) -> str:
    """How a log names the rule file: a shipped one by its name (found wherever naipes is installed), else its path."""
    shipped = ruleset_path(path.stem)
    return path.stem if shipped is not None and shipped.resolve() == path.resolve() else str(path.resolve())


@dataclass
class Step:
    game: Game  # a copy of the game at this step
    end: int  # how many of the game's records lead up to it
    decision: dict | None  # the logged decision that led here (None at step 0)


class Replay:
    """A logged game run again and checked against its log; its steps, views and records."""

    def __init__(self, path: Path, header: dict, program: Program, rule_file: Path, logged: list[LoggedRecord]):
        self.path, self.header, self.program, self.rule_file = path, header, program, rule_file
        self.logged = [r for r in logged if r.record["type"] not in AGENT_RECORDS]
        self.records: list[dict] = []  # what the re-run says, as it reads back from a log
        self.checked = 0  # how many of them have been compared with the log
        self.history: list[Step] = []

    # -------------------------------------------------------------- loading
    @classmethod
    def load(cls, path: str | Path, ruleset: str | Path | None = None) -> Replay:
        """Read a log and run it again (with `ruleset` instead of the file the log names, if given)."""
        path = Path(path)
        logged = read_log(path)
        header = _header(path, logged[0].record)
        rule_file = Path(ruleset) if ruleset is not None else _rule_file(path, header["ruleset"])
        if not rule_file.is_file():
            raise LogError(f"no rule file {rule_file}", Location(str(path), 1, 1),
                           hint="name the rule file it was played with: --ruleset PATH")
        try:
            program = load_program(rule_file, header["params"])
        except ParamError as error:
            raise LogError(f"the log's params: {error}", Location(str(path), 1, 1)) from None
        replay = cls(path, header, program, rule_file, logged)
        replay._run()
        return replay

    def _run(self) -> None:
        start = self._first("start")
        game = Game(self.program, self.header["seed"], players=len(start.record.get("players") or ()) or None)
        record_game(game, lambda record: self.records.append(as_logged(record)))
        game.start()
        self._check()
        self.history.append(Step(game.clone(), len(self.records), None))
        for entry in (r for r in self.logged if r.record["type"] == "decision"):
            game.apply(self._option(game, entry))
            self._check()
            self.history.append(Step(game.clone(), len(self.records), entry.record))
        if game.over:
            game.finish()
            self._check()
        if self.checked < len(self.logged):
            entry = self.logged[self.checked]
            raise self._differs(entry, "nothing more (the game is over, or waits for a decision the log does not have)")

    def _first(self, kind: str) -> LoggedRecord:
        found = next((r for r in self.logged if r.record["type"] == kind), None)
        if found is None:
            raise LogError(f"the log has no '{kind}' record", Location(str(self.path), 1, 1))
        return found

    def _option(self, game: Game, entry: LoggedRecord) -> Option:
        """The option a logged decision chose, in the re-run (an error at its line if there is none)."""
        record = entry.record
        if game.over:
            raise self._differs(entry, "the game is over")
        decision = game.decision()
        found = [o for o in decision.options if o.move == record.get("move") and o.label == record.get("choice")]
        if decision.player_name != record.get("player") or not found:
            offered = ", ".join(o.label for o in decision.options)
            raise self._differs(entry, f"{decision.player_name} to choose one of: {offered}")
        return found[0]

    def _check(self) -> None:
        """Compare what the re-run said since the last check with the log (a log of format 1 marked the
        visibility of full records only)."""
        compared = _unmarked if self.header["format"] == 1 else dict
        for produced in self.records[self.checked:len(self.logged)]:  # a log cut short is checked as far as it goes
            entry = self.logged[self.checked]
            if compared(entry.record) != compared(produced):
                raise self._differs(entry, _quote(produced))
            self.checked += 1

    def _differs(self, entry: LoggedRecord, found: str) -> LogError:
        hint = (f"{self.rule_file} has changed since the log was written (its SHA-256 differs): replay with the "
                f"version it was played with (--ruleset PATH)" if self.changed_rule_file else
                f"the log was not written with {self.rule_file} and these params, or it was edited")
        return LogError(f"the replay differs from the log: the log has {_quote(entry.record)}, "
                        f"but the rule file gives {found}", Location(str(self.path), entry.line, 1), hint=hint)

    # ---------------------------------------------------------------- steps
    @property
    def steps(self) -> int:
        """The last step's number (the decisions in the log)."""
        return len(self.history) - 1

    @property
    def decisions(self) -> list[dict]:
        return [step.decision for step in self.history[1:] if step.decision is not None]

    @property
    def game(self) -> Game:
        """The game at the last step (a copy: to look at, not to play on)."""
        return self.history[-1].game

    @property
    def cut_short(self) -> bool:
        """Whether the log stops before the game's records do (its process ended while the rules ran)."""
        return len(self.records) > len(self.logged)

    @property
    def changed_rule_file(self) -> bool:
        return digest(self.rule_file) != self.header["sha256"]

    def seat(self, text: str | int | None) -> int | str | None:
        """A seat: 'all' (every card), 'watch' or None (an onlooker), or a player (its index, the int, from 0);
        a user names a player as the table does (P2, any case) or by its number from 1 (2: P2)."""
        if text is None or text == "watch":
            return None
        if text == EVERYTHING:
            return EVERYTHING
        names = [p.name for p in self.game.memory.players]
        if isinstance(text, int):
            if 0 <= text < len(names):
                return text
            raise NaipesError(f"no seat {text}: the seats are 0..{len(names) - 1}")
        return seat_named(text, names, "all, watch, ")

    def step(self, number: int) -> Step:
        if not 0 <= number <= self.steps:
            raise NaipesError(f"no step {number}: the log has steps 0..{self.steps}")
        return self.history[number]

    def view(self, number: int, seat: int | str | None) -> dict:
        """The position at step `number` as `seat` saw it (EVERYTHING: every card face up, every variable)."""
        game = self.step(number).game
        return full_view(game) if seat == EVERYTHING else game.view(seat if isinstance(seat, int) else None)

    def records_for(self, number: int, seat: int | str | None, since: int | None = None) -> list[dict]:
        """The records up to step `number` (from step `since`, if given) as `seat` was told them.

        A decision reads in its mover's words for the mover (and for EVERYTHING), as the others saw it for
        the others; shuffles and card movements are shown to EVERYTHING only; rule firings to nobody.
        """
        first = self.step(since).end if since is not None else 0
        names = [p.name for p in self.game.memory.players]
        shown = []
        for record in self.records[first:self.step(number).end]:
            kind = record["type"]
            if kind == "decision":
                mover = names.index(record["player"])
                own = seat in (mover, EVERYTHING)
                shown.append({"type": kind, "player": record["player"], "seat": mover, "move": record["move"],
                              "text": record["choice"] if own else record["public"]})
            elif kind == "announce":
                shown.append({"type": kind, "text": record["text"]})
            elif kind == "end":
                shown.append({key: record[key] for key in ("type", "winners", "payoffs", "cut_off") if key in record})
            elif kind in ("move", "shuffle") and seat == EVERYTHING:
                shown.append({"type": kind, "text": movement_text(record)})
        return shown


def seat_named(text: str, names: list[str], others: str = "") -> int:
    """The index of the player a user names as the table numbers players: P2 (any case), or 2 (from 1)."""
    folded = [name.lower() for name in names]
    if text.strip().lower() in folded:
        return folded.index(text.strip().lower())
    if text.strip().isdecimal() and text.strip().isascii() and 1 <= int(text) <= len(names):
        return int(text) - 1
    hint = " (seats count from 1, as the table numbers them: 1 is P1)" if text.strip() == "0" else ""
    raise NaipesError(f"no seat '{text}': choose {others}a player ({', '.join(names)}) or its number 1.."
                      f"{len(names)}{hint}")


def _unmarked(record: dict) -> dict:
    return {key: value for key, value in record.items() if key != "visibility"}


def _header(path: Path, record: dict) -> dict:
    """The log's first line, checked: the fields a replay needs, of the right kinds."""
    where = Location(str(path), 1, 1)
    if isinstance(record.get("seat"), str):
        raise LogError(f"this is {record['seat']}'s own log (what that seat saw): it has no seed, so it cannot be "
                       "replayed", where, hint="replay the game's full log (naipes play --log FILE)")
    fields = {"ruleset": str, "sha256": str, "params": dict, "seed": int, "seats": list, "format": int}
    for name, kind in fields.items():
        if not isinstance(record.get(name), kind):
            raise LogError(f"the log's first line has no {name} ({kind.__name__})", where)
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in record["params"].items()):
        raise LogError("the log's params are not names and texts", where)
    if not all(isinstance(seat, str) for seat in record["seats"]):
        raise LogError("the log's seats are not agent names", where)
    if record["format"] not in READABLE:
        raise LogError(f"a log of format {record['format']}; this naipes reads format {FORMAT} (and older)", where)
    return record


def _rule_file(path: Path, name: str) -> Path:
    """The rule file a log names: a shipped one, by its name; a log does not choose a file to load by its path."""
    found = ruleset_path(name) if SHIPPED_RULESET.fullmatch(name) else None
    if found is None:
        raise LogError(f"the log names the rule file '{name}', which is not a shipped one here: a log does not "
                       "choose a file to load", Location(str(path), 1, 1),
                       hint=f"to play it, name it yourself: naipes replay {path} --ruleset PATH, or naipes play "
                            f"--resume {path} PATH")
    return found


def _quote(record: dict) -> str:
    text = as_line(record) if isinstance(record, dict) else str(record)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def full_view(game: Game) -> dict:
    """The position with nothing hidden: every zone's cards, every variable (the seat is None: nobody's own)."""
    memory, program = game.memory, game.program
    view = game.view(None)
    view["state"].update({v.name: jsonable(memory.vars[v.name]) for v in program.state})
    for entry in view["players"]:
        entry.update(game.view(entry["seat"])["players"][entry["seat"]])  # each seat's own variables
    for zone in memory.zones:
        cards = [c.name for c in (zone if zone.spec.ordered else sorted(zone, key=card_order))]
        if zone.owner is None:
            view["zones"][zone.name] = cards
        else:
            view["players"][zone.owner.index][zone.name] = cards
    return view


def movement_text(record: dict) -> str:
    """A full record as a line: '[deal] stock → P1.hand: 3o 5c' or '[shuffle] stock: …' (top last)."""
    if record["type"] == "shuffle":
        return f"[shuffle] {record['zone']}: {' '.join(record['order'])}"
    return f"[move] {record['from']} → {record['to']}: {' '.join(record['cards'])}"


class ScriptedSeat:
    """A seat that first makes the logged decisions of its player, then leaves the choices to its agent.

    Everything else (attach, observe, start_game, faults…) is the agent's: it sees the replayed moves as
    they are made, as if it had made them.
    """

    def __init__(self, agent: Any, script: Script):
        self.agent, self.script = agent, script

    def __getattr__(self, name: str) -> Any:
        return getattr(self.agent, name)

    def choose(self, decision: Decision) -> Option:
        record = self.script.next()
        if record is None:
            return self.agent.choose(decision)
        return next(o for o in decision.options if o.move == record["move"] and o.label == record["choice"])


class Script:
    """The logged decisions, in order, shared by every seat; `caught_up()` is called once they are all made
    and a seat's own agent is to choose."""

    def __init__(self, decisions: list[dict], caught_up: Callable[[], None] | None = None):
        self.decisions, self.caught_up = iter(decisions), caught_up

    def next(self) -> dict | None:
        record = next(self.decisions, None)
        caught_up, self.caught_up = (self.caught_up, None) if record is None else (None, self.caught_up)
        if caught_up is not None:
            caught_up()
        return record


def scripted(agents: list, decisions: list[dict], caught_up: Callable[[], None] | None = None) -> list[ScriptedSeat]:
    """The agents with the logged decisions made first (one script shared by every seat, in order)."""
    script = Script(decisions, caught_up)
    return [ScriptedSeat(agent, script) for agent in agents]


# ------------------------------------------------------------ the terminal
HELP = "Enter or n: next step · b: back · a number: that step · seat all|watch|P2: whose view · q: quit"


def seat_text(replay: Replay, seat: int | str | None) -> str:
    if seat == EVERYTHING:
        return "everything (all cards face up)"
    return replay.game.memory.players[seat].name if isinstance(seat, int) else "an onlooker"


def step_lines(replay: Replay, number: int, seat: int | str | None) -> list[str]:
    """A step as text: which, what happened in it (the decision and what followed), as `seat` was told."""
    step = replay.step(number)
    done = step.decision
    lines = [f"Step {number} of {replay.steps}" + (f" · {done['player']} chose {done['choice']}" if done else "") +
             f" · seen by {seat_text(replay, seat)}"]
    for record in replay.records_for(number, seat, since=number - 1 if number else None):
        if record["type"] == "decision":
            told = replay.program.told(record["move"], record["player"], record["text"])
            lines += [f"  {told}"] if told else []  # (an empty public form tells nothing)
        elif record["type"] == "end":
            winners = ", ".join(record["winners"]) or "nobody"
            lines.append("  " + (record.get("cut_off") or f"Game over. Winner: {winners}."))
        else:
            lines.append(f"  {'*' if record['type'] == 'announce' else ' '} {record['text']}")
    game = step.game
    lines.append("  The game is over." if game.over else f"  {game.mover.name} to move.")
    return lines


def show_step(replay: Replay, number: int, seat: int | str | None) -> None:
    """Print a step: what happened in it, then the position as `seat` saw it."""
    view = replay.view(number, seat)
    for line in step_lines(replay, number, seat):
        click.echo(line)
    Console(highlight=False).print(render_table(replay.program, view))


def browse(replay: Replay, seat: int | str | None) -> None:
    """Step through the replay at the terminal (the commands of HELP), until q or the end of the input."""
    click.echo(f"{replay.program.title}: {replay.steps} moves, seed {replay.header['seed']}. {HELP}")
    number = 0
    while True:
        show_step(replay, number, seat)
        try:
            command = click.prompt("replay", default="n", show_default=False).strip().lower()
        except click.Abort:
            return
        if command in ("q", "quit"):
            return
        try:
            number, seat = _command(replay, command, number, seat)
        except NaipesError as error:
            click.echo(str(error))


def _command(replay: Replay, command: str, number: int, seat: int | str | None) -> tuple[int, int | str | None]:
    """The step and seat after a command (a located message for one it does not know)."""
    word, _, rest = command.partition(" ")
    if word in ("", "n", "next"):
        return min(number + 1, replay.steps), seat
    if word in ("b", "back"):
        return max(number - 1, 0), seat
    if word.isascii() and word.isdigit():
        replay.step(int(word))  # an error if there is no such step
        return int(word), seat
    if word == "seat" and rest.strip():
        return number, replay.seat(rest.strip())
    raise NaipesError(f"unknown command '{command}': {HELP}")
