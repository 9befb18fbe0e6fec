"""A Python bot's seat at the table: its worker process, the fault policy, the faults it records.

The policy itself is described in :mod:`naipes.bots` (what bot writers read);
the process and its messages in :mod:`naipes.agents.bot_process`. A seat queues the
bot's events (``start_game``, ``observe``) and delivers them with its next
decision, or at the end of the game with ``end_game``: one exchange per
decision, whatever the number of events.
"""
from __future__ import annotations

import ast
import os
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..bots import RETIRE_AFTER
from ..errors import ParamError
from .bot_process import BotLimits, BotProcess, WorkerEnded, clean

if TYPE_CHECKING:
    from ..runtime.game import Decision, Game, Option


class BotSeat:
    """One Python bot at one seat, run in its own worker process (see naipes.bots for the fault policy).

    >>> seat = make_bot_seat("python:examples/first_option_bot.py:FirstOption")  # doctest: +SKIP
    >>> play_game(program, [seat, RandomAgent(1)], seed=3).winners                # doctest: +SKIP
    (1,)
    >>> seat.faults, seat.close()                                                 # doctest: +SKIP
    ([], None)
    """

    wants_history = False

    def __init__(self, file: str | Path, class_name: str, limits: BotLimits = BotLimits()):
        self.name, self.limits = class_name, limits
        self.faults: list[str] = []
        self._mode = ["play", str(file), class_name]
        self._ended = 0  # worker processes ended so far in this run
        self._queue: list[tuple[str, list]] = []
        self._spent = 0.0  # seconds the bot has used in this game
        self._game: Game | None = None
        self._player = "?"
        self._worker: BotProcess | None = self._start()  # None: first options for the rest of this game

    def _start(self) -> BotProcess:
        """A new worker with the bot loaded and made, or WorkerEnded saying why not."""
        worker, hello = BotProcess.start(self._mode, self.limits)
        if "ready" not in hello:
            worker.end()
            raise WorkerEnded(hello.get("fault", "did not say it was ready"))
        return worker

    def close(self) -> None:
        """End the worker process (the seat plays no more)."""
        if self._worker is not None:
            self._worker.end()
            self._worker = None

    # ---------------------------------------------------------------- events
    def attach(self, game: Game, seat: int) -> None:
        self._game = game

    def start_game(self, info: dict) -> None:
        self._queue, self._spent, self._player = [], 0.0, info["seat"]
        if self._worker is None and self._ended >= RETIRE_AFTER:
            self._record(f"retired after {self._ended} ended processes: plays the first legal option", None)
            return
        if self._worker is None:
            try:
                self._worker = self._start()
            except WorkerEnded as ended:
                self._end_worker(f"restarting: {ended}", played=None)
                return
        self._queue.append(("start_game", [info]))

    def observe(self, record: dict) -> None:
        """A game record (from the game's observers), queued for the bot as a public event."""
        kind = record["type"]
        if self._worker is None or kind not in ("decision", "announce", "end"):
            return
        if kind == "decision":
            self._queue.append(("observe", [{"type": "move", "player": record["player"], "move": record["move"],
                                              "choice": record["choice"]}]))
        elif kind == "announce":
            self._queue.append(("observe", [{"type": "announce", "text": record["text"]}]))
        else:
            self._queue.append(("end_game", [{"winners": record["winners"], "payoffs": record["payoffs"]}]))
            self._deliver(played=None)

    # -------------------------------------------------------------- deciding
    def choose(self, decision: Decision) -> Option:
        options = decision.options
        labels = [o.label for o in options]
        if self._worker is None:
            return options[0]
        self._queue.append(("decide", [decision.view, labels]))
        replies = self._deliver(played=labels[0])
        if replies is None:
            return options[0]
        verdict = judge(replies[-1], labels)
        if isinstance(verdict, int):
            return options[verdict]
        self._record(f"decide {verdict}", labels[0])
        return options[0]

    def _deliver(self, played: str | None) -> list[dict] | None:
        """Send the queued calls; their replies, or None if the worker had to end (recorded)."""
        calls, self._queue = self._queue, []
        if not calls or self._worker is None:
            return []
        start = time.monotonic()
        try:
            replies = self._worker.exchange(calls, start + self.limits.game - self._spent)
        except WorkerEnded as ended:
            self._end_worker(str(ended), played)
            return None
        finally:
            self._spent += time.monotonic() - start
        for (name, _), reply in zip(calls, replies):
            if name != "decide" and "fault" in reply:
                self._record(f"{name} {reply['fault']}", None)
        return replies

    # ---------------------------------------------------------------- faults
    def _end_worker(self, reason: str, played: str | None) -> None:
        if self._worker is not None:
            self._worker.end()
        self._worker = None
        self._ended += 1
        self._record(f"{reason}; its process was ended", played, "; first legal options for the rest of this game")

    def _record(self, reason: str, played: str | None, then: str = "") -> None:
        """A fault: in seat.faults (where, why, what was played instead) and as a record in the game's log."""
        game = self._game
        where = []
        if game is not None and game.seed is not None:
            where.append(f"seed {game.seed}")
        if game is not None:
            where.append(f"decision {game.decisions + 1}" if played is not None else f"after decision {game.decisions}")
        self.faults.append(", ".join(where) + ": " + reason + (f"; played '{played}' instead" if played else "") + then)
        if game is not None:
            game.emit({"type": "fault", "player": self._player, "agent": self.name, "fault": reason + then,
                       "played": played})


def judge(reply: dict, labels: list[str]) -> int | str:
    """The index of the option a decide reply names, or what is wrong with it."""
    if "fault" in reply:
        return reply["fault"]
    answer: Any = reply.get("answer")
    if isinstance(answer, int):
        if 0 <= answer < len(labels):
            return answer
        return f"answered index {answer}, but there are {len(labels)} options"
    if isinstance(answer, str):
        if answer in labels:
            return labels.index(answer)
        return f"answered '{clean(answer, 80)}', which is not a legal option"
    return "gave no answer"


MAX_SOURCE = 10 * 2 ** 20  # bytes of a bot file that naipes check reads


def make_bot_seat(spec: str, limits: BotLimits = BotLimits()) -> BotSeat:
    """A seat for the bot named by ``python:path/to/file.py:ClassName`` (its worker started and ready)."""
    path, class_name = bot_reference(spec)
    try:
        return BotSeat(path, class_name, limits)
    except WorkerEnded as ended:
        raise ParamError(f"bot '{spec}' failed to start: {ended}") from None


def bot_reference(spec: str) -> tuple[Path, str]:
    """The file (which exists) and the class name of ``python:path/to/file.py:ClassName`` (ParamError if not)."""
    _, _, rest = spec.partition(":")
    path, _, class_name = rest.rpartition(":")
    if not path or not class_name.isidentifier():
        raise ParamError(f"a Python bot is named 'python:path/to/file.py:ClassName', not '{spec}'")
    if not Path(path).is_file():
        raise ParamError(f"bot file '{path}' not found")
    return Path(path), class_name


def check_bot_reference(spec: str) -> None:
    """That `spec` names a Python file that exists and parses, and a name its top level defines (a class, or an
    assignment or import of one): all read from its syntax tree, never imported or run (ParamError if not)."""
    path, class_name = bot_reference(spec)
    try:
        source = _read_python(path)
        if len(source) > MAX_SOURCE:
            raise ParamError(f"bot file '{path}' is larger than {MAX_SOURCE >> 20} MiB")
        tree = ast.parse(source, str(path))
    except SyntaxError as error:
        where = f", line {error.lineno}" if error.lineno else ""
        raise ParamError(f"bot file '{path}'{where}: {error.msg}") from None
    except (OSError, ValueError, RecursionError, MemoryError) as error:  # unreadable, a NUL byte, nested too deep
        raise ParamError(f"bot file '{path}' cannot be read as Python: {error or type(error).__name__}") from None
    if class_name not in _top_level_names(tree.body):
        raise ParamError(f"bot file '{path}' defines no '{class_name}' at its top level")


def _read_python(path: Path) -> bytes:
    """At most MAX_SOURCE + 1 bytes of the Python file `path`: a regular file named .py, opened without waiting (a
    file names it: a pipe, a device or /proc/kmsg would block a read until something writes to it)."""
    if path.suffix != ".py":
        raise ParamError(f"bot file '{path}' is not a Python file (.py)")
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise ParamError(f"bot file '{path}' is not a regular file")
        return file.read(MAX_SOURCE + 1)


def _top_level_names(body: list[ast.stmt]) -> set[str]:
    """The names a module's statements bind when it is run (in its ifs, tries and withs too, not in functions)."""
    names: set[str] = set()
    for statement in body:
        if isinstance(statement, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(statement.name)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            names |= {node.id for target in targets for node in ast.walk(target) if isinstance(node, ast.Name)}
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).partition(".")[0] for alias in statement.names}
        else:
            for field in ("body", "orelse", "finalbody"):
                names |= _top_level_names([s for s in getattr(statement, field, []) if isinstance(s, ast.stmt)])
            for handler in getattr(statement, "handlers", []):
                names |= _top_level_names(handler.body)
    return names
