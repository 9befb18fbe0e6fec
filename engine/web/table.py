"""A game at the web table: its seats, the thread that plays it, what each seat is shown.

The game runs in its own thread through :func:`naipes.runtime.game.play_game`.
A human seat is an agent like any other (:class:`WebSeat`): its ``choose``
waits for a request from the seat's browser tab and answers it with the
option it names, or with the reason it is refused (a move not in the
options, explained by the rule that forbids it). AI seats play between the
humans' moves. Each seat is shown only ``Game.view(seat)``, its own legal
options (and the refused ones with their reasons) when it is to move, and the
public record of the game; nothing else of the game leaves this module.

Nothing here knows about HTTP: :mod:`naipes.web.app` carries these
messages over WebSockets. The server's event loop reads a table only through
what its game thread has published (each seat's state, ready to send); the
rule file's code (views, options, explanations of refused options, moves, AIs)
runs in that thread alone, never under a lock the event loop takes: one table
cannot stall another's requests.

>>> program = load_program("fichas")                    # doctest: +SKIP
>>> table = Table(program, ["human", "minimax"], seed=7)              # doctest: +SKIP
>>> table.start(); table.state(0)["to_move"]                          # doctest: +SKIP
'P1'
>>> table.submit(0, {"label": "colour R", "serial": 1}).result()      # doctest: +SKIP
"""
from __future__ import annotations

import contextlib
import json
import os
import queue
import secrets
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..agents.human import display_order, hidden_variables
from ..agents.registry import make_agent
from ..errors import GameError, NaipesError
from ..library.builtins import all_cards
from ..program import Program
from ..runtime.game import Agent, Decision, Game, GameResult, Option, QuitGame, jsonable, play_game
from ..runtime.memory import CardBase
from ..tools.gamelog import LogHeader, attach_log, digest
from ..tools.replay import ruleset_reference, scripted
from ..tools.scoresheet import ScoreSheet, score_columns
from .guard import RequestError

HUMAN = "human"
UNEXPLAINED = "not allowed now (choose it to hear why)"  # a refused option the decision's budget did not explain
EARLIER = "that click was for an earlier position: the game has moved on"
Request = dict  # {"serial": int, "label": str, "move": str} or {"serial": int, "card": str}


class WebSeat:
    """A person at the web table: the seat's choice arrives from its browser tab.

    ``choose`` takes requests from the seat's inbox until one names a legal
    option; each request is answered (through its reply callable) with None
    when accepted or the reason it is refused. Closing the table ends the
    wait with :class:`QuitGame`.
    """

    name = HUMAN
    wants_history = False

    def __init__(self, table: Table, seat: int):
        self.table, self.seat = table, seat
        self.inbox: queue.Queue = queue.Queue()
        self.last_label: str | None = None

    def choose(self, decision: Decision) -> Option:
        while True:
            item = self.inbox.get()
            if item is None:
                raise QuitGame()
            request, reply = item
            if request.get("serial") != self.table.serial:
                reply(EARLIER)
                continue
            outcome = resolve(request, decision, self.table.game.candidates)
            if isinstance(outcome, Option):
                self.last_label = outcome.label
                self.table.answered()
                reply(None)
                return outcome
            reply(outcome)


def resolve(request: Request, decision: Decision, candidates: Callable[[], list[Option]]) -> Option | str:
    """The legal option a request names, or why it names none (the rule that forbids it).

    `candidates` gives every option the decision considers, legal or not (``Game.candidates``).
    """
    options = decision.options
    label, card = request.get("label"), request.get("card")
    if isinstance(label, str):
        move = request.get("move")
        found = [o for o in options if o.label == label and (move is None or o.move == move)]
        if found:
            return found[0]
        reason = decision.explain_illegal_label(label)
        return f"'{label}' is refused: {reason}" if reason else f"'{label}' is not a move you can make now"
    if isinstance(card, str):
        named = [o for o in options if _card_name(o.arg) == card]
        if len(named) == 1:
            return named[0]
        if named:
            return f"{card}: choose one of {', '.join(o.label for o in named)}"
        refused = [o for o in candidates() if _card_name(o.arg) == card]
        if refused:
            reason = decision.explain_illegal(refused[0].move, refused[0].arg)
            return f"'{refused[0].label}' is refused: {reason}"
        return f"{card} is not a choice now: you can {' or '.join(decision.moves)}"
    return "a move names an option's label or a card"


def _card_name(arg: Any) -> str | None:
    return arg.name if isinstance(arg, CardBase) else None


def explain_refused(game: Game, refused: list[Option]) -> list[str | None]:
    """Why each of the refused options of the decision being made is refused, all explained within one step
    budget: a move of 100,000 candidates, explained one by one with a budget each, would take minutes. Once the
    budget is spent the rest are UNEXPLAINED (a click on one still asks why: :func:`resolve` explains it alone)."""
    game.memory.refuel()
    reasons: list[str | None] = []
    for option in refused:
        try:
            reasons.append(game.explain_illegal(option.move, option.arg, refuel=False))
        except GameError:  # the budget is spent (listing the options already ran the same code with one of its own)
            break
    return reasons + [UNEXPLAINED] * (len(refused) - len(reasons))


def message_text(data: Any) -> str:
    """A message to a tab as it is sent: JSON in ASCII (any text it quotes is sent)."""
    return json.dumps(data, separators=(",", ":"))


@dataclass(frozen=True)
class Shown:
    """What a seat is shown of the latest position: its state, and the same as the message sent to its tabs
    (encoded once, by the game thread: the event loop never encodes a state as large as a rule file made it)."""

    state: dict
    text: str


def game_facts(game: Game) -> dict[str, Any]:
    """How a tab draws a game: its title and params, how cards look, every card's attributes, the zones."""
    program = game.program
    return {
        "title": program.title, "game": program.name, "doc": program.doc, "params": jsonable(program.param_values),
        "display": program.display,
        "cards": {c.name: {a: jsonable(c.get(a)) for a in c.attributes} for c in all_cards(game.memory.vars)},
        "zones": [{"name": z.name, "per_player": z.per_player, "visibility": z.visibility, "ordered": z.ordered}
                  for z in program.zones],
        "hidden": sorted(hidden_variables(program)),
    }


def result_outcome(result: GameResult, sheet: dict | None) -> dict[str, Any]:
    """How a finished game ends, for the tabs: winners and payoffs, the game's score sheet
    (:mod:`naipes.tools.scoresheet`), and why it was cut off, if it was."""
    outcome: dict[str, Any] = {"winners": [result.names[i] for i in result.winners],
                               "payoffs": dict(zip(result.names, result.payoffs)), "sheet": sheet}
    if result.cut_off:  # stopped by the rule file's max_decisions
        outcome["cut_off"] = result.cut_off
    return outcome


def option_data(option: Option) -> dict[str, Any]:
    """An option as the browser gets it: move, label, the card it plays (if any), its argument as data."""
    return {"move": option.move, "label": option.label, "card": _card_name(option.arg), "arg": jsonable(option.arg)}


class Table:
    """One game in the browser: seats (humans and AIs), the game's thread, each seat's latest view.

    Thread-safe: the game thread publishes; any thread may read a seat's
    state, the records, and submit requests. `watchers` are called (from the
    game thread) whenever something changed. `typed`: the seats are the words of the person who started the
    server (its command line), not a page's request: only then may one start a Python bot.
    """

    def __init__(self, program: Program, seats: list[str], seed: int, *, pause: float = 0.0,
                 spec: dict | None = None, seed_chosen: bool = True, script: list[dict] | None = None,
                 typed: bool = False):
        self.id = secrets.token_urlsafe(6)
        self.program, self.seed, self.pause = program, seed, pause
        self.spec = spec or {}  # how it was made: game, params, seats (to start another like it)
        self.seed_chosen = seed_chosen  # by whoever made the table (else drawn at random): the others are told
        self.seat_specs = list(seats)
        strategies: dict = {}  # (a strategy file seated twice is compiled once)
        self.agents: list[Agent] = [WebSeat(self, i) if name == HUMAN
                                    else make_agent(name, seed=seed * 1009 + i, program=program, strategies=strategies,
                                                    typed=typed)
                                    for i, name in enumerate(seats)]
        self.human_seats = {i: agent for i, agent in enumerate(self.agents) if isinstance(agent, WebSeat)}  # the humans
        self.script = list(script or [])  # a resumed game's logged decisions, made again first (quickly, unshown)
        if self.script:
            self.agents = list(scripted(self.agents, self.script))
        self.log: Path | None = None  # where the game is logged (set before it starts)
        self._log_stream: TextIO | None = None
        self.game = Game(program, seed, players=len(seats))
        self.names = [p.name for p in self.game.memory.players]
        self.game.observers.append(self._record)
        self.records: list[dict] = []
        self._decided = 0  # decisions recorded
        self.serial = 0  # the number of the decision being made (a request names it)
        self._answered = False  # whether decision `serial` has its move (a request for it comes too late)
        self.turn: int | None = None  # the seat to move
        self.over = False
        self.outcome: dict | None = None  # winners and payoffs, or the error that stopped the game
        self.sheet = ScoreSheet(score_columns(program))  # the scores after each hand, noted from onlookers' views
        self.watchers: list[Callable[[], None]] = []
        self.tokens = {seat: secrets.token_urlsafe(18) for seat in self.human_seats}  # a seat's key (its link's)
        self.host = self.humans[0] if self.humans else None  # the seat of whoever made the table: it invites
        self.tabs: dict[int | None, int] = {}  # seat (None: onlookers) -> how many tabs are open there
        self.last_seen = time.monotonic()  # when a tab was last open here (a table nobody looks at may be let go)
        self.facts = game_facts(self.game)  # (made here, never on the event loop: a deck may be large)
        self._shown: dict[int | None, Shown] = {}  # each seat's (None: onlookers'), published by the game thread
        self._lock = threading.Lock()  # (the event loop takes it: held to read or swap references, never to compute)
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._play, name=f"table-{self.id}", daemon=True)
        self.created = time.monotonic()

    # ------------------------------------------------------------- facts
    @property
    def humans(self) -> list[int]:
        return list(self.human_seats)

    def info(self, seat: int | None) -> dict[str, Any]:
        """What a tab needs once: the game, the seats, how cards look, every card's attributes; the seat that
        made the table also gets the other human seats' links, to invite people to them.

        The seed is not in it (it predicts every hand) until the game is over; nor in anything else a tab gets.
        """
        info = {"type": "table", "id": self.id, "seat": seat, "seed": self.seed if self.over else None,
                "seed_chosen": self.seed_chosen, "spec": self.spec, "seats": self.seats(), **self.facts}
        if seat is not None and seat == self.host:
            info["invites"] = {str(s): self.link(s) for s in self.humans if s != seat}
        return info

    def link(self, seat: int) -> str:
        """The path of a human seat's link, with its key (whoever has it may sit there)."""
        return f"table/{self.id}?seat={seat}&token={self.tokens[seat]}"

    def seats(self) -> list[dict[str, Any]]:
        with self._lock:
            return [{"seat": i, "name": self.names[i], "agent": self.seat_specs[i], "human": i in self.humans,
                     "taken": self.tabs.get(i, 0) > 0} for i in range(len(self.agents))]

    def summary(self) -> dict[str, Any]:
        """A line of the list of tables (the seed only once the game is over)."""
        return {"id": self.id, "title": self.program.title, "seed": self.seed if self.over else None,
                "seed_chosen": self.seed_chosen, "seats": self.seats(), "over": self.over,
                "to_move": None if self.turn is None else self.names[self.turn]}

    def idle(self, now: float, after: float) -> bool:
        """Whether no tab is open at the table and none has been for `after` seconds."""
        with self._lock:
            return not any(self.tabs.values()) and now - self.last_seen > after

    # --------------------------------------------------------- lifecycle
    def start(self) -> None:
        self._log_stream = self._open_log()  # (its header is written now: the saved games list it at once)
        self._thread.start()

    def close(self) -> None:
        """Stop the game (a human seat waiting for its tab gives up; AIs stop at the next decision)."""
        self._closed.set()
        for seat in self.human_seats.values():
            seat.inbox.put(None)

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    @property
    def finished(self) -> bool:
        """Whether the game was played to its end (not stopped, nor broken by an error)."""
        return self.outcome is not None and "winners" in self.outcome

    @property
    def catching_up(self) -> bool:
        """Whether a resumed game is still making its logged decisions again."""
        return self.game.decisions < len(self.script)

    def _play(self) -> None:
        outcome: dict[str, Any]
        log = self._log_stream
        try:
            result = play_game(self.program, self.agents, self.seed, game=self.game, on_decision=self._decision)
            self.sheet.note(self.game.view(None))
            outcome = result_outcome(result, self.sheet.data())
        except QuitGame:
            outcome = {"stopped": "the table was closed"}
        except NaipesError as error:  # a rule file's fault while playing: shown at the table, located
            outcome = {"error": str(error)}
        except Exception as error:  # a bug: the players are told, the server log gets the traceback
            traceback.print_exc()
            outcome = {"error": f"internal error: {type(error).__name__}: {error}"}
        outcome["seed"] = self.seed  # told now that every hand has been played
        self._close_log(log)
        if self.log is not None and "winners" in outcome:
            outcome["log"] = self.log.name  # to download and replay
        with self._lock:  # (over at once, whether or not the last states can be built)
            self.over, self.turn, self.outcome = True, None, outcome
        self._publish(self.serial, None, outcome)  # (requests that came in as the game ended are answered)
        self._notify()

    def _open_log(self) -> TextIO | None:
        """Start the game's log: the header, then every record as it comes. A resumed game writes its log
        beside the old one until its logged decisions are made again, then takes its place (so that a
        failure meanwhile loses nothing)."""
        if self.log is None:
            return None
        stream = self._writing().open("w", encoding="utf-8")
        rule_file = Path(self.program.path)
        attach_log(self.game, stream, LogHeader(ruleset_reference(rule_file), digest(rule_file),
                                                dict(self.spec.get("params", {})), self.seed, list(self.seat_specs)))
        return stream

    def _writing(self) -> Path:
        """The file the log is written to now."""
        assert self.log is not None
        return self.log.with_name(self.log.name + ".part") if self.script else self.log

    def _caught_up(self) -> None:
        if self.log is not None and self._writing().exists():
            os.replace(self._writing(), self.log)
        self.script = []

    def _close_log(self, stream: TextIO | None) -> None:
        if stream is None:
            return
        stream.close()
        if self.script:  # stopped before the logged decisions were all made again: the old log stays
            self._writing().unlink(missing_ok=True)

    @staticmethod
    def _take_waiting(inbox: queue.Queue) -> list[Callable[[str | None], None]]:
        """Take the requests waiting in a seat's inbox: their replies (a closed table's word stays in it)."""
        replies, closing = [], False
        while not inbox.empty():
            item = inbox.get_nowait()
            if item is None:
                closing = True
            else:
                replies.append(item[1])
        if closing:
            inbox.put(None)
        return replies

    # ------------------------------------------------ the game thread's side
    def _decision(self, decision: Decision) -> None:
        """Before a seat is asked: show every seat the position; an AI waits `pause` so that people
        (players or onlookers) can follow."""
        if self._closed.is_set():
            raise QuitGame()
        if self.script:
            if self.catching_up:
                return
            self._caught_up()
        self._publish(self.serial + 1, decision, None)
        self._notify()
        if decision.player not in self.human_seats and self.pause:
            self._closed.wait(self.pause)

    def _publish(self, serial: int, decision: Decision | None, outcome: dict | None) -> None:
        """Show every seat position `serial` (with the decision being made, or the game's outcome): the states are
        built with no lock held, then swapped in at once under the lock, so that the event loop waits on it for a
        swap of references, never for the rule file's code."""
        shown = self._seat_states(serial, decision, outcome)
        with self._lock:
            self.serial, self._shown, self._answered = serial, shown, False
            self.turn = None if decision is None else decision.player
            self.over, self.outcome = outcome is not None, outcome
            waiting = [reply for seat in self.human_seats.values() for reply in self._take_waiting(seat.inbox)]
        for reply in waiting:  # (requests for an earlier position are answered now, not when the seat is next asked)
            reply("the game is over" if outcome is not None else EARLIER)

    def answered(self) -> None:
        """The decision being made has its move: another request for it is refused at once, not queued."""
        with self._lock:
            self._answered = True

    def _seat_states(self, serial: int, decision: Decision | None, outcome: dict | None) -> dict[int | None, Shown]:
        """Each human seat's state and the onlookers' (the rule file's code runs here: views, options, reasons)."""
        turn = None if decision is None else decision.player
        shown = {}
        for seat in [*self.humans, None]:
            view = self.game.view(seat)
            state = {"type": "state", "serial": serial, "view": view,
                     "to_move": None if turn is None else self.names[turn],
                     "your_turn": seat is not None and seat == turn, "moves": [], "options": [],
                     "refused": [], "over": outcome is not None, "outcome": outcome}
            if decision is not None and seat == turn:
                state.update(self._choices(decision))
            shown[seat] = Shown(state, message_text(state))
        self.sheet.note(view)  # (the last view built is an onlooker's)
        return shown

    def _choices(self, decision: Decision) -> dict[str, list]:
        """What the seat to move is offered: the moves asked and what else is offered (a part of a move begun replaces
        them: MOVE.PART; 'leave', where any of several players may answer), its legal options, and the refused ones
        with why."""
        begun = self.game.memory.partial is not None
        legal = set(decision.options)  # (a set: a move of many options is not compared option by option)
        refused = [o for o in display_order(self.game.candidates()) if o not in legal]
        return {"moves": list(dict.fromkeys([*(() if begun else decision.moves), *(o.move for o in decision.options)])),
                "options": [option_data(o) for o in display_order(decision.options)],
                "refused": [{**option_data(o), "reason": reason}
                            for o, reason in zip(refused, explain_refused(self.game, refused))]}

    def _record(self, record: dict) -> None:
        """A public record (a move as the others see it, an announcement, the end), kept for every seat."""
        if record["type"] == "start":  # the opening position: every seat gets its view anyway
            return
        entry = {"type": record["type"]}
        if record["type"] == "decision":
            seat = self.names.index(record["player"])
            text = str(record.get("public", record.get("choice")))
            told = self.game.program.told(record["move"], record["player"], text)
            entry.update(player=record["player"], seat=seat, move=record["move"], text=text,
                         told=told[len(record["player"]):])  # (' takes 12o' with a `verb:`, else ': take 12o')
            agent = self.human_seats.get(seat)
            if agent is not None:  # the mover's own wording, for the mover only (a logged one's, made again)
                entry["own"] = self.script[self._decided]["choice"] if self.catching_up else agent.last_label
            self._decided += 1
        elif record["type"] == "announce":
            entry["text"] = str(record["text"])
        elif record["type"] == "end":
            entry.update(winners=list(record["winners"]), payoffs=list(record["payoffs"]))
        else:
            entry["text"] = str(record.get("text") or record.get("reason") or record["type"])
        with self._lock:
            self.records.append(entry)

    def _notify(self) -> None:
        for watcher in list(self.watchers):
            watcher()

    # ------------------------------------------------------ the tabs' side
    def state(self, seat: int | None) -> dict | None:
        """The latest state shown to `seat` (None: an onlooker), or None before the first."""
        shown = self.shown(seat)
        return None if shown is None else shown.state

    def shown(self, seat: int | None) -> Shown | None:
        """The latest state shown to `seat` and its message, or None before the first."""
        with self._lock:
            return self._shown.get(seat if seat in self.humans else None)

    def records_for(self, seat: int | None, start: int = 0) -> list[dict]:
        """The public records from `start` on, as `seat` sees them (its own moves in its own words)."""
        with self._lock:
            records = self.records[start:]
        return [{k: v for k, v in r.items() if k != "own"} if r.get("seat") != seat else r for r in records]

    def sit(self, seat: int | None, token: str | None) -> str | None:
        """Open a tab at a human seat, given the seat's key (None: to watch); why not, if it cannot.

        Any number of tabs with the key may be open at the seat (a reload, a second window); without it,
        none, whether or not another tab is there."""
        if seat is not None:
            if not 0 <= seat < len(self.agents):
                return f"there is no seat {seat + 1}: this table has {len(self.agents)}"
            if seat not in self.humans:
                return f"{self.names[seat]} is played by {self.seat_specs[seat]}: choose a human seat"
            if token is None or not secrets.compare_digest(token.encode(), self.tokens[seat].encode()):
                return (f"{self.names[seat]}'s seat opens only with its own link (its key is missing or wrong): "
                        f"ask whoever made the table for it, or watch")
        with self._lock:
            self.tabs[seat] = self.tabs.get(seat, 0) + 1
            self.last_seen = time.monotonic()
        self._notify()
        return None

    def leave(self, seat: int | None) -> None:
        """A tab that sat (or watched) is closed."""
        with self._lock:
            self.tabs[seat] -= 1
            self.last_seen = time.monotonic()
        self._notify()

    def submit(self, seat: int | None, request: Any) -> Future:
        """A move requested from `seat`'s tab; the future gives None (accepted) or why it is refused.

        A request from a seat that is not to move, or for an earlier position,
        is refused here and changes nothing; the seat's agent judges the rest.
        """
        reply: Future = Future()
        with self._lock:
            refusal = self._refusal(seat, request)
            if refusal is None and seat is not None:  # (a seat of None, an onlooker, is always refused)
                self.human_seats[seat].inbox.put((request, reply.set_result))
        if refusal is not None:
            reply.set_result(refusal)
        return reply

    def _refusal(self, seat: int | None, request: Any) -> str | None:
        if not isinstance(request, dict) or not isinstance(request.get("serial"), int):
            return "a move is {\"serial\": N, \"label\": TEXT} or {\"serial\": N, \"card\": NAME}"
        if self.over:
            return "the game is over"
        if seat is None or seat not in self.humans:
            return "you are watching: take a free seat to play"
        if self.turn != seat:
            waiting = "the game to start" if self.turn is None else f"{self.names[self.turn]} to move"
            return f"it is not your turn: waiting for {waiting}"
        if request["serial"] != self.serial or self._answered:
            return EARLIER
        return None


class TablesFull(NaipesError):
    """No room for another table: every table is in play."""


class Tables:
    """The tables a server holds, by id, at most `limit`.

    To make room, a finished table goes first (the oldest), then one that nobody has looked at for `idle`
    seconds; a game with a tab open, or left for less than that, is never ended to make room for another:
    the new table is refused instead (so that requests making tables cannot close a game in play).
    """

    def __init__(self, limit: int = 32, idle: float = 600.0):
        self.limit, self.idle = limit, idle
        self._tables: dict[str, Table] = {}
        self._claimed: set[str] = set()  # saved games' logs that a table is about to resume (claim_log)
        self._lock = threading.Lock()

    def add(self, table: Table) -> Table:
        with self._lock:
            while len(self._tables) >= self.limit:
                now = time.monotonic()
                spare = [t for t in self._tables.values() if t.over or t.idle(now, self.idle)]
                if not spare:
                    raise TablesFull(f"this server already holds {self.limit} games in play: finish or leave one, "
                                     f"or try again later")
                oldest = min(spare, key=lambda t: (not t.over, t.created))
                oldest.close()
                del self._tables[oldest.id]
            self._tables[table.id] = table
        table.start()
        return table

    def get(self, table_id: str) -> Table | None:
        with self._lock:
            return self._tables.get(table_id)

    def logs_in_play(self) -> set[str]:
        """The names of the logs that tables still playing write, or are about to (claim_log)."""
        with self._lock:
            return self._in_play()

    def _in_play(self) -> set[str]:
        return self._claimed | {t.log.name for t in self._tables.values() if t.log is not None and not t.over}

    @contextlib.contextmanager
    def claim_log(self, name: str) -> Iterator[None]:
        """The saved game's log `name` held for one table to resume while it is made (a RequestError if a table
        plays it or another is being made for it): checked and held at once, under the lock, so that two requests
        cannot both resume one game into one file."""
        with self._lock:
            if name in self._in_play():
                raise RequestError("this game is being played at a table: open it from the list of tables", 409)
            self._claimed.add(name)
        try:
            yield
        finally:
            with self._lock:
                self._claimed.discard(name)

    def all(self) -> list[Table]:
        with self._lock:
            return sorted(self._tables.values(), key=lambda t: -t.created)

    def close(self) -> None:
        for table in self.all():
            table.close()
