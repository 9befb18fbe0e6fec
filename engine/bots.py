"""Competition bots: players written as Python classes.

A bot subclasses :class:`Bot` (or just has a ``decide`` method) and is seated
with ``--seat python:path/to/bot.py:ClassName``. It sees only copies: its view
(plain dicts and lists: what its seat could see at a real table), the labels of
its legal options, and the public events of the game. Nothing it receives
leads back to the game's state, so it cannot read other hands or the stock.

The seat that runs a bot (:class:`BotSeat`) applies the fault policy: if the
bot raises, answers something that is not one of its options, or takes longer
than ``time_limit`` seconds, the fault is recorded (``seat.faults`` and the
game log), the first legal option is played for it, and the game goes on.

>>> class FirstOption(Bot):
...     def decide(self, view, options):
...         return 0          # an index into options, or an option's label
"""
from __future__ import annotations

import copy
import importlib.util
import sys
import threading
from concurrent.futures import ThreadPoolExecutor, TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any

from .errors import ParamError
from .interpreter import Decision, Option


class Bot:
    """The interface of a competition bot. Override what you need; only `decide` is required.

    Every argument is a fresh copy: keep whatever you like (memory across
    games is allowed: the same bot object plays every game of a tournament).
    """

    def start_game(self, info: dict) -> None:
        """A game begins: ``info`` has the game's name, params, your seat and the players' names."""

    def observe(self, event: dict) -> None:
        """Something public happened: ``{"type": "move", "player", "move", "choice"}`` (a card played,
        a bid...) or ``{"type": "announce", "text"}`` (a trick won, a round's scores...)."""

    def decide(self, view: dict, options: list[str]) -> int | str:
        """Choose: return the index of an option or its label."""
        raise NotImplementedError

    def end_game(self, result: dict) -> None:
        """The game is over: ``result`` has the winners and each player's payoff."""


def load_bot_class(spec: str) -> type:
    """The class named by ``python:path/to/file.py:ClassName``."""
    _, _, rest = spec.partition(":")
    path, _, class_name = rest.rpartition(":")
    if not path or not class_name:
        raise ParamError(f"a Python bot is named 'python:path/to/file.py:ClassName', not '{spec}'")
    file = Path(path)
    if not file.is_file():
        raise ParamError(f"bot file '{path}' not found")
    module_name = f"naipes_bot_{abs(hash(file.resolve()))}"
    module = sys.modules.get(module_name)
    if module is None:
        loader = importlib.util.spec_from_file_location(module_name, file)
        module = importlib.util.module_from_spec(loader)
        try:
            loader.loader.exec_module(module)
        except Exception as exc:  # the bot's own code failed to import
            raise ParamError(f"bot file '{path}' failed to load: {type(exc).__name__}: {exc}") from None
        sys.modules[module_name] = module
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type) or not callable(getattr(cls, "decide", None)):
        raise ParamError(f"'{class_name}' in '{path}' is not a bot class with a decide(view, options) method")
    return cls


class BotSeat:
    """Runs one bot at one seat, under the fault policy (see the module's docstring)."""

    wants_history = False

    def __init__(self, bot: Any, name: str, time_limit: float | None = 5.0):
        self.bot, self.name, self.time_limit = bot, name, time_limit
        self.faults: list[str] = []
        self._worker: ThreadPoolExecutor | None = None
        self._busy = threading.Event()

    # ---------------------------------------------------------------- events
    def start_game(self, info: dict) -> None:
        self._call("start_game", copy.deepcopy(info))

    def observe(self, record: dict) -> None:
        """A game record (from the game's listeners), passed on as a public event."""
        if record["type"] == "decision":
            event = {"type": "move", "player": record["player"], "move": record.get("move"), "choice": record["choice"]}
        elif record["type"] == "announce":
            event = {"type": "announce", "text": record["text"]}
        elif record["type"] == "end":
            self._call("end_game", copy.deepcopy({"winners": record["winners"], "payoffs": record["payoffs"]}))
            return
        else:
            return
        self._call("observe", event)

    # -------------------------------------------------------------- deciding
    def choose(self, decision: Decision) -> Option:
        options = decision.options
        labels = [o.label for o in options]
        # A view built afresh for the bot: plain data shared with nothing else.
        answer, fault = self._timed(self.bot.decide, decision._game.view(decision.player), list(labels))
        if fault is None:
            if isinstance(answer, bool) or not isinstance(answer, (int, str)):
                fault = f"answered {answer!r}, which is neither an option's index nor its label"
            elif isinstance(answer, int):
                if 0 <= answer < len(options):
                    return options[answer]
                fault = f"answered index {answer}, but there are {len(options)} options"
            elif answer in labels:
                return options[labels.index(answer)]
            else:
                fault = f"answered '{answer}', which is not a legal option"
        self.faults.append(f"decision {decision._game.decisions + 1}: {fault}; played '{labels[0]}' instead")
        decision._game.emit({"type": "fault", "player": decision.player_name, "agent": self.name, "fault": fault,
                             "played": labels[0]})
        return options[0]

    def _timed(self, method: Any, *args: Any) -> tuple[Any, str | None]:
        """Call the bot within the time limit: (answer, None) or (None, what went wrong)."""
        if self.time_limit is None:
            try:
                return method(*args), None
            except Exception as exc:
                return None, f"raised {type(exc).__name__}: {exc}"
        if self._busy.is_set():
            return None, "is still busy with an earlier decision"
        if self._worker is None:
            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"bot-{self.name}")
        self._busy.set()

        def run() -> Any:
            try:
                return method(*args)
            finally:
                self._busy.clear()
        future = self._worker.submit(run)
        try:
            return future.result(timeout=self.time_limit), None
        except FutureTimeout:
            return None, f"took longer than {self.time_limit} s"
        except Exception as exc:
            return None, f"raised {type(exc).__name__}: {exc}"

    def _call(self, method_name: str, *args: Any) -> None:
        method = getattr(self.bot, method_name, None)
        if method is None:
            return
        _, fault = self._timed(method, *args)
        if fault is not None:
            self.faults.append(f"{method_name}: {fault}")


def make_bot_seat(spec: str, time_limit: float | None = 5.0) -> BotSeat:
    """A seat for the bot named by ``python:path:ClassName`` (a new bot object)."""
    cls = load_bot_class(spec)
    try:
        bot = cls()
    except Exception as exc:
        raise ParamError(f"bot '{spec}' failed to start: {type(exc).__name__}: {exc}") from None
    return BotSeat(bot, cls.__name__, time_limit)
