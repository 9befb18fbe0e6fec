"""Competition bots: players written as Python classes, each run in a process of its own.

A bot subclasses :class:`Bot` (or just has a ``decide`` method) and is seated
with ``--seat python:path/to/bot.py:ClassName``. It sees only plain data: its
view (what its seat could see at a real table), the labels of its legal
options, and the public events of the game.

**Where it runs.** Each bot seat starts one worker process for the whole run
(a fresh interpreter, :mod:`naipes.agents.bot_worker`): the bot's file is imported
there, never in the game's process, so nothing the bot can reach (``gc``,
stack frames, patched modules) leads to the game. The game and the worker
exchange JSON lines over a pipe of their own (:mod:`naipes.agents.bot_process`).
The same bot object plays every game of the run, so it may learn across
games (in memory: on Linux with bubblewrap, :mod:`naipes.agents.sandbox`, the
worker sees no other process, a read-only file system with Python and a copy
of its own file, a private ``/tmp``, no network, and runs as ``nobody``; see
docs/security.md, "Bots"). The worker runs with these limits, enforced by the
operating system:

- time: each call of the bot (``start_game``, ``observe``, ``decide``,
  ``end_game``) must return within the decision limit (5 s by default), and
  all of its calls in one game within the game's budget (120 s); past either,
  the worker is killed;
- memory: 1024 MiB of address space by default (``RLIMIT_AS``);
- no new processes or threads (``RLIMIT_NPROC``; root is exempt, so there
  ``os.fork`` is caught instead, and whatever the bot started is killed with
  its process group); its own session, so Ctrl-C reaches the game, which ends
  the workers; stdin is /dev/null, and what it prints goes, line by line, to
  the game's standard error; on Linux it dies with the game's process.

Without bubblewrap (the first bot of a run says so), a bot runs as your user:
it can read your files and your processes' command lines, and signal them.
Run untrusted bots only in the sandbox, or under an account of their own.

**Fault policy.** A *fault* is recorded with its reason in ``seat.faults``
(``seed S, decision N: decide raised ValueError: ...``) and as a ``fault``
record in the game log; ``simulate``, ``tournament`` and ``competition``
count them and print the first reasons. There are two kinds:

1. The bot answered, badly: a call raised (any exception, including
   ``KeyboardInterrupt`` or a ``BaseException`` of its own), or ``decide``
   answered something that is not one of its options. The first legal option
   is played for it and the game goes on; the bot keeps its process and its
   memory, since nothing is wrong with them.
2. Its process had to end: a call took too long, the game's budget ran out,
   it exited (``sys.exit``, ``os._exit``) or crashed, ran out of memory,
   started a process, or broke the protocol (a malformed, oversized or
   unasked-for message). The worker's process group is killed, and the first
   legal option is played for this decision and every later one of this game:
   the bot lost its state mid-game, and a restart per decision would let a
   failing bot cost a process start every move. At the next game a new worker
   (a new bot object: its memory is lost) starts. After
   :data:`RETIRE_AFTER` ends in one run the seat is retired: it plays the first
   legal option in every later game, one fault per game, and costs nothing.

>>> class FirstOption(Bot):
...     def decide(self, view, options):
...         return 0          # an index into options, or an option's label
"""
from __future__ import annotations

RETIRE_AFTER = 3  # ended processes after which a bot seat plays first options for the rest of the run


class Bot:
    """The interface of a competition bot. Override what you need; only `decide` is required.

    Every argument is plain data (dicts, lists, strings, numbers) made for this
    call: keep whatever you like (memory across games is allowed: the same bot
    object plays every game of a run).
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
