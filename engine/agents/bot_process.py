"""The game's side of a bot's worker process: start it, exchange JSON lines with limits, end it.

A :class:`BotProcess` runs :mod:`naipes.agents.bot_worker` in a fresh interpreter,
in a sandbox of its own where the system allows it (:mod:`naipes.agents.sandbox`:
its own processes, a read-only copy of its file, no network, not root), in a
session (and process group) of its own, with its stdin on /dev/null, a minimal
environment, two pipes for the messages and one for what it prints, which we
copy to our standard error line by line, control characters escaped (it never
gets our terminal). Nothing from the worker is trusted: a reply is read
only up to :data:`MAX_MESSAGE` bytes, parsed as JSON (never unpickled or
evaluated), and checked (its sequence number, its fields and their types)
before anyone uses it. Every wait has a deadline; past it, or on any broken
promise, the whole process group (and the sandbox's every process) is killed
(SIGKILL) and :class:`WorkerEnded` says why. A process the bot started that
is still there after a call is such a broken promise. Workers still running
when the game's process exits are killed too, and on Linux each worker dies
with its parent however that ends.

>>> from pathlib import Path
>>> _ = Path("first.py").write_text("from naipes.bots import Bot\\nclass FirstOption(Bot):\\n"
...                                 "    def decide(self, view, options):\\n        return 0\\n")
>>> worker, hello = BotProcess.start(["play", "first.py", "FirstOption"], BotLimits())
>>> hello
{'ready': 'FirstOption', 'n': 0}
>>> worker.exchange([("observe", [{"type": "announce", "text": "hi"}]), ("decide", [{}, ["a", "b"]])])
[{}, {'n': 2, 'answer': 0}]
>>> worker.end()
"""
from __future__ import annotations

import atexit
import contextlib
import functools
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, NoReturn

from .bot_worker import MEMORY_EXIT, SANDBOX
from .sandbox import environment, sandbox, sandboxed

WORKER = Path(__file__).resolve().with_name("bot_worker.py")
MAX_MESSAGE = 64 * 1024  # bytes of one reply line (a worker that sends more is ended), and of a line it prints
# The signals that stop a worker between its calls and let it go on for one (none where the system has no such)
STOP, GO_ON = getattr(signal, "SIGSTOP", None), getattr(signal, "SIGCONT", None)
REPLY_FIELDS: dict[str, type | tuple[type, ...]] = {  # every field a reply may have, and its type
    "n": int, "done": int, "answer": (int, str), "fault": str, "fatal": bool, "ready": str, "bots": list}
ENVIRONMENT = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ")
PR_SET_DUMPABLE = 4


@dataclass(frozen=True)
class BotLimits:
    """What a bot may use: seconds per call, seconds per game, MiB of memory, seconds to load and start.

    >>> BotLimits(decision=0.3).game
    120.0
    """

    decision: float = 5.0
    game: float = 120.0
    memory_mb: int = 1024
    startup: float = 30.0


class WorkerEnded(Exception):
    """The worker's process had to be ended (or ended by itself); the message says why."""


class BotProcess:
    """One worker process and its two pipes (see the module's docstring)."""

    def __init__(self, process: subprocess.Popen, requests: int, replies: int, output: Output, limits: BotLimits,
                 helpers: int = 0):
        self.process, self.limits, self.output = process, limits, output
        self._requests, self._replies = requests, replies
        self._helpers = helpers  # the processes above the worker's own (in a sandbox: bubblewrap's two)
        self._watched = process.pid  # the worker's own process, once it said hello (see _check_processes)
        self._buffer = self._pending = b""
        self._sent = 0  # the number of the last request sent (0: the hello)
        self.ended = False
        _running.add(self)

    @classmethod
    def start(cls, mode: list[str], limits: BotLimits) -> tuple[BotProcess, dict]:
        """A new worker in `mode` (``play FILE CLASS`` or ``scan FILE``) and its hello message."""
        _undumpable()
        file = Path(mode[1]).resolve()
        walls = sandbox()
        pipes: list[int] = []
        try:
            child_requests, requests = _pipe(pipes)
            replies, child_replies = _pipe(pipes)
            printed, child_printed = _pipe(pipes)
            passed = [child_requests, child_replies]
            parent = SANDBOX if walls.bwrap else str(os.getpid())
            command = [sys.executable, "-s", "-P", str(WORKER), str(child_requests), str(child_replies), parent,
                       str(limits.memory_mb), mode[0], str(file), *mode[2:]]
            if walls.bwrap:
                copy = os.open(file, os.O_RDONLY)  # what the sandbox copies in: the file as the game's user reads it
                pipes.append(copy)
                passed.append(copy)
                command = sandboxed(walls.bwrap, command, {file: copy})
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=child_printed, stderr=child_printed,
                                       pass_fds=passed, start_new_session=True,
                                       env=environment() if walls.bwrap else _environment())
        except BaseException as exc:
            for fd in pipes:
                os.close(fd)
            if isinstance(exc, OSError):  # no process to be had (too many open files or processes...)
                raise WorkerEnded(f"could not start its process: {exc.strerror or exc}"
                                  + (f" ({exc.filename})" if exc.filename else "")) from None
            raise
        for fd in (*passed, child_printed):
            os.close(fd)
        os.set_blocking(requests, False)
        os.set_blocking(replies, False)
        worker = cls(process, requests, replies, Output(printed, file.stem), limits, 2 if walls.bwrap else 0)
        try:
            hello = worker._receive(0, time.monotonic() + limits.startup, f"did not start within {limits.startup:g} s",
                                    "loading")
            for _ in range(worker._helpers):  # down to the process that said hello
                worker._watched = next(iter(_children(worker._watched)), worker._watched)
            worker._check_processes("loading")
            worker._signal(STOP)
            return worker, hello
        except WorkerEnded as ended:
            raise WorkerEnded(worker.output.explain(str(ended))) from None
        except BaseException:
            worker.end()
            raise

    # ------------------------------------------------------------- exchange
    def exchange(self, calls: list[tuple[str, list]], deadline: float | None = None) -> list[dict]:
        """Send the calls, return one checked reply per call (``{}``: it returned, with nothing to say).
        Each call has the decision time limit from the reply before it, and all must be done by `deadline`
        (a time.monotonic() value: the end of the game's budget)."""
        if self.ended:
            raise WorkerEnded("its process had been ended")
        if not calls:
            return []
        try:
            self._signal(GO_ON)
            first = self._sent + 1
            self._sent += len(calls)
            self._pending = json.dumps({"n": first, "calls": calls}, separators=(",", ":"), default=str).encode()
            self._pending += b"\n"
            replies: list[dict] = []
            while len(replies) < len(calls):
                name = calls[len(replies)][0]
                reply = self._receive(first + len(replies), *self._deadline(name, deadline), name)
                done = reply.pop("done", None)
                if done is None:
                    if len(reply) == 1:  # a number alone says nothing
                        self._fail(f"{name} sent a malformed message")
                    replies.append(reply)
                elif len(reply) > 1 or not 0 < done <= len(calls) - len(replies):
                    self._fail(f"{name} sent a malformed message")
                else:
                    replies.extend({} for _ in range(done))
                if reply.get("fatal"):
                    self._fail(f"{name} {reply.get('fault', 'ended its process')}")
            if self._buffer or self._pending:  # more than was asked, or answers to calls it has not read
                self._fail(f"{calls[-1][0]} sent a message out of turn")
            self._check_processes(calls[-1][0])
            self._signal(STOP)
            return replies
        except WorkerEnded:
            raise
        except BaseException:  # an interrupt mid-exchange: the pipes are out of step, so the worker goes
            self.end()
            raise

    def _signal(self, which: int | None) -> None:
        """Stop the worker between calls (STOP), let it go on for one (GO_ON): a bot computes only in its own
        calls, never meanwhile (a timer's handler thinking on while the others play)."""
        if which is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self._watched, which)

    def _deadline(self, call: str, game_end: float | None) -> tuple[float, str]:
        """When the reply to `call` is due, and what to say if it is late."""
        due = time.monotonic() + self.limits.decision
        if game_end is not None and game_end < due:
            return game_end, f"{call} used up its {self.limits.game:g} s for this game"
        return due, f"{call} took longer than {self.limits.decision:g} s"

    def _receive(self, number: int, deadline: float, late: str, call: str) -> dict:
        """The reply numbered `number` (writing what is pending meanwhile), or the worker ends: `late` says
        why when the deadline passes; other reasons name the `call`."""
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_MESSAGE:
                self._fail(f"{call} sent a message longer than {MAX_MESSAGE} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail(late)
            self._wait(left, call)
        line, _, self._buffer = self._buffer.partition(b"\n")
        if len(line) > MAX_MESSAGE:
            self._fail(f"{call} sent a message longer than {MAX_MESSAGE} bytes")
        return self._check(line, number, call)

    def _wait(self, seconds: float, call: str) -> None:
        """Write what is pending (as much as the pipe takes), then wait up to `seconds` for a reply."""
        if self._pending:
            try:
                self._pending = self._pending[os.write(self._requests, self._pending[:MAX_MESSAGE]):]
            except BlockingIOError:  # the pipe is full: the worker is busy
                pass
            except BrokenPipeError:
                self._fail(self._exit_reason(call))
        writers = [self._requests] if self._pending else []
        readable, _, _ = select.select([self._replies], writers, [], seconds)
        if readable:
            data = os.read(self._replies, MAX_MESSAGE + 1)
            if not data:
                self._fail(self._exit_reason(call))
            self._buffer += data

    def _check(self, line: bytes, number: int, call: str) -> dict:
        try:
            reply = json.loads(line)
        except (ValueError, RecursionError):
            reply = None
        if not _well_formed(reply):
            self._fail(f"{call} sent a malformed message")
        if reply.get("n") != number:
            self._fail(f"{call} sent a message out of turn")
        if "fault" in reply:
            reply["fault"] = clean(reply["fault"])
        return reply

    def _fail(self, reason: str) -> NoReturn:
        self.end()
        raise WorkerEnded(reason)

    def _check_processes(self, call: str) -> None:
        """A bot may start no process: one still there after its call (even in a session of its own) is a fault,
        and ends with the worker. (The worker adopts the orphans of what its bot started: all are its children.)"""
        started = len(_children(self._watched))
        if started > 0:
            self._fail(f"{call} started a process that outlived its call" if started == 1 else
                       f"{call} started {started} processes that outlived its call")

    def _exit_reason(self, call: str) -> str:
        """Why the worker's pipe closed: its exit status (waited for a moment), else a closed channel."""
        try:
            code = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return f"{call} closed its channel"
        if code == MEMORY_EXIT:
            return f"{call} ran out of memory (limit {self.limits.memory_mb} MiB)"
        if code < 0:
            name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
            return f"{call} crashed ({name})"
        return f"{call} exited with status {code}"

    # ------------------------------------------------------------------ end
    def end(self) -> None:
        """Kill the worker's whole process group (what it forked too) and release its pipes."""
        if self.ended:
            return
        self.ended = True
        _running.discard(self)
        below = _descendants(self.process.pid)  # (those in a session of their own too, where no sandbox ends them)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)  # before reaping: the group's id stays ours
        for pid in below:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait()
        for fd in (self._requests, self._replies):
            os.close(fd)
        self.output.close()


class Output:
    """What a worker prints, copied to our standard error line by line (from a thread of its own), made safe to
    print; the last lines are kept to explain a worker that could not start."""

    KEPT = 3
    SHOWN = 1 << 20  # characters of a worker's output copied at most (past them it is read and left out, said once)

    def __init__(self, fd: int, name: str):
        self.name = name
        self.last: list[str] = []
        self.shown = 0
        self._stream: IO[bytes] = os.fdopen(fd, "rb")
        self._thread = threading.Thread(target=self._copy, name=f"bot output {name}", daemon=True)
        self._thread.start()

    def _copy(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            while raw := self._stream.readline(MAX_MESSAGE):  # (a longer line comes in pieces)
                line = clean(raw.decode("utf-8", "replace").rstrip("\n"), MAX_MESSAGE)
                self.last = [*self.last[-self.KEPT + 1:], line]
                if self.shown > self.SHOWN:
                    continue  # (still read: a worker writing to a full pipe would wait)
                self.shown += len(line)
                if self.shown > self.SHOWN:
                    line = f"(the rest of its output is left out: more than {self.SHOWN:,} characters)"
                # one write, newline included: print() writes the newline apart, and two workers' lines interleaved
                sys.stderr.write(f"[{self.name}] {line}\n")
                sys.stderr.flush()

    def close(self) -> None:
        """Wait (a moment) for the rest of what the worker printed, then close the pipe."""
        self._thread.join(timeout=2.0)
        if not self._thread.is_alive():
            self._stream.close()

    def explain(self, reason: str) -> str:
        """`reason` a worker could not start, with the last line it printed (bubblewrap's, or a traceback's)."""
        self._thread.join(timeout=1.0)
        return f"{reason}: {self.last[-1]}" if self.last and "exited with status" in reason else reason


def _well_formed(reply: Any) -> bool:
    """A JSON object whose fields are known ones of the right types (true/false only where a bool is meant)."""
    if not isinstance(reply, dict):
        return False
    for key, value in reply.items():
        kind = REPLY_FIELDS.get(key)
        if kind is None or not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            return False
    return True


def clean(text: str, limit: int = 300) -> str:
    """A bot's text made safe to print: at most `limit` characters, control characters escaped."""
    text = text[:limit]
    return "".join(c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii")
                   for c in text)


def _pipe(opened: list[int]) -> tuple[int, int]:
    """A new pipe, its ends noted in `opened` (to be closed if the start fails)."""
    read, write = os.pipe()
    opened += [read, write]
    return read, write


def _children(pid: int) -> list[int]:
    """The children of process `pid`, of every thread (Linux: /proc's lists; elsewhere none are known)."""
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as children:
                found += [int(child) for child in children.read().split()]
    except OSError:
        return []
    return found


def _descendants(pid: int) -> list[int]:
    """The processes below `pid`."""
    found = _children(pid)
    return found + [grandchild for child in found for grandchild in _descendants(child)]


def _environment() -> dict[str, str]:
    """What a worker inherits: the basics, and a fixed string hash seed (bots replay from a seed too)."""
    env = {name: os.environ[name] for name in ENVIRONMENT if name in os.environ}
    env["PYTHONHASHSEED"] = "0"
    return env


@functools.cache
def _undumpable() -> None:
    """Once, on Linux: forbid other processes of this user (bots) to read our memory or trace us."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0)
    except (OSError, AttributeError):
        pass


_running: set[BotProcess] = set()


@atexit.register
def _end_all() -> None:
    for worker in list(_running):
        worker.end()
