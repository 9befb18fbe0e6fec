"""The bot's side of a seat: a worker process that loads one bot and answers the game's calls.

The game never imports this module: :mod:`naipes.agents.bot_process` runs it as a
script in a fresh interpreter, in a session of its own (in a sandbox of its own
where the system allows it: :mod:`naipes.agents.sandbox`),

    python -s -P bot_worker.py REQUESTS REPLIES PARENT MEMORY_MB play FILE CLASS
    python -s -P bot_worker.py REQUESTS REPLIES PARENT MEMORY_MB scan FILE

where REQUESTS and REPLIES are the file descriptors of its two pipes and
PARENT is the game's process id, or ``sandbox`` when it runs in one. Before
any code of the bot runs, the worker closes every other descriptor it was
given, gives up being root (in a sandbox: it becomes ``nobody``), forbids
itself new privileges, limits itself (memory, core dumps, new processes and
threads), asks to die with its parent, adopts whatever its bot's processes
leave behind (so that the game sees them), and makes ``naipes`` importable
without loading the engine. Then it loads the bot's file and says hello:
``{"n": 0, "ready": CLASS}`` (``play``) or ``{"n": 0, "bots": [[FILE, CLASS],
...]}`` (``scan``: every Bot subclass the file defines, FILE its name), or
``{"n": 0, "fault": WHY}``.

Each request is one JSON line ``{"n": N, "calls": [[NAME, ARGS], ...]}``, a
batch of calls numbered N, N + 1, ... (NAME: start_game, observe, decide,
end_game). Each call gets a reply line: ``{"n": N, "answer": INDEX_OR_LABEL}``
(decide), ``{"n": N, "fault": WHY}``, with ``"fatal": true`` when the bot
ended its own process (``sys.exit``) or started one: the game then ends the
worker; or ``{"n": N, "done": COUNT}`` for a run of calls with nothing to say. Running
out of memory exits with :data:`MEMORY_EXIT`. Everything here runs in the
bot's process, so the game trusts none of it: it checks every reply, and
what the walls around the process enforce does not depend on this code.
"""
from __future__ import annotations

import importlib.util
import json
import os
import resource
import signal
import sys
import time
import types
from pathlib import Path
from typing import Any

MEMORY_EXIT = 86  # the exit status of a worker whose bot ran out of memory
CALLS = ("start_game", "observe", "decide", "end_game")
MAX_LABEL = 1000  # an answer longer than this is no option's label: refused here, before it is sent
MAX_REASON = 300
HOLD = 0.002  # seconds a finished call's reply may wait for the next ones, to be sent together
NOBODY = 65534  # the user a worker becomes in a sandbox, if it starts as root
PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER, PR_SET_NO_NEW_PRIVS = 1, 36, 38
SANDBOX = "sandbox"  # the PARENT argument of a worker in a sandbox


def main(argv: list[str]) -> None:
    request_fd, reply_fd, parent, memory_mb, mode, file, *rest = argv
    requests, replies = int(request_fd), int(reply_fd)
    close_other_descriptors(requests, replies)
    try:
        if parent == SANDBOX:
            become_nobody()
        prctl(PR_SET_NO_NEW_PRIVS, 1)
        die_with_parent(None if parent == SANDBOX else int(parent))
        prctl(PR_SET_CHILD_SUBREAPER, 1)
        limit_resources(int(memory_mb))
    except OSError as error:
        send(replies, {"n": 0, "fault": f"could not close itself in: {error}"})
        return
    package_from(Path(__file__).resolve().parents[1])
    watch_forks()
    if mode == "scan":
        send(replies, {**run_guarded(scan, Path(file)), "n": 0})
        return
    hello = run_guarded(make_bot, Path(file), rest[0])
    bot = hello.pop("bot", None)
    send(replies, {**hello, "n": 0})
    if "ready" in hello:
        serve(bot, requests, replies)


# ------------------------------------------------------------ before the bot
def close_other_descriptors(*keep: int) -> None:
    """Close every descriptor this process was given but standard input, output, error and `keep`."""
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 1 << 20)


def become_nobody() -> None:
    """In a sandbox started as root: become the user nobody, which drops every capability (none is kept)."""
    if os.getuid() == 0:
        os.setgroups([])
        os.setresgid(NOBODY, NOBODY, NOBODY)
        os.setresuid(NOBODY, NOBODY, NOBODY)


def prctl(option: int, value: int) -> None:
    """Linux's prctl(option, value); nothing elsewhere."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the closed request pipe ends the worker instead
        pass


def die_with_parent(parent_pid: int | None) -> None:
    """Ask the kernel to kill this process when its parent ends (Linux), however it ends (`parent_pid`: the game's
    process, which must still be the parent; None: a sandbox's own first process, whose end ends the sandbox)."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if parent_pid is not None and os.getppid() != parent_pid:  # the parent ended before the request took effect
        os._exit(0)


def limit_resources(memory_mb: int) -> None:
    """Address space, no core files, no new processes or threads (RLIMIT_NPROC 0: root is exempt)."""
    for limit, value in ((resource.RLIMIT_AS, memory_mb * 2 ** 20), (resource.RLIMIT_CORE, 0),
                         (resource.RLIMIT_NPROC, 0)):
        _, hard = resource.getrlimit(limit)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(limit, (value, value))


def package_from(folder: Path) -> None:
    """Make ``naipes`` the package in `folder` without running its ``__init__`` (which loads the whole
    engine): a bot's ``from naipes.bots import Bot`` loads one small module; ``from naipes import X``
    runs the rest of the package on first use."""
    init = folder / "__init__.py"
    package = types.ModuleType("naipes")
    package.__path__ = [str(folder)]
    package.__file__ = str(init)
    package.__package__ = "naipes"

    def load_rest(name: str) -> Any:
        if not vars(package).pop("__getattr__", None):
            raise AttributeError(name)
        exec(compile(init.read_text(encoding="utf-8"), init, "exec"), vars(package))  # the package's __init__.py
        return getattr(package, name)
    vars(package)["__getattr__"] = load_rest
    sys.modules["naipes"] = package


forked: list[bool] = []


def watch_forks() -> None:
    """os.fork by a bot (where the process limit does not stop it: root) is a fault; the copy ends at once."""
    os.register_at_fork(after_in_child=lambda: os._exit(0), after_in_parent=count_fork)


def count_fork() -> None:
    """Python calls this after every fork, also one that failed (the process limit refused it): that one started
    nothing and is no fault, so only a fork that left a child counts."""
    if has_child():
        forked.append(True)


def has_child() -> bool:
    """Whether this process has a child, running or ended (an ended one is reaped: it has been counted)."""
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return False
    return True


# ------------------------------------------------------------------ loading
def load_module(file: Path, name: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, file)
    if spec is None or spec.loader is None:
        raise Refusal(f"bot file '{file}' is not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:  # the bot's own code failed to import
        raise Refusal(f"bot file '{file}' failed to load: {describe(exc)}") from None
    return module


def make_bot(file: Path, class_name: str) -> dict:
    """The hello of a worker that made its bot: {"ready": CLASS, "bot": the bot object}."""
    cls = getattr(load_module(file, f"naipes_bot_{file.stem}"), class_name, None)
    if not isinstance(cls, type) or not callable(getattr(cls, "decide", None)):
        raise Refusal(f"'{class_name}' in '{file}' is not a bot class with a decide(view, options) method")
    return {"ready": class_name, "bot": cls()}


def scan(file: Path) -> dict:
    """The hello of a scan: {"bots": [[file name, class name] of every Bot subclass the file defines]}."""
    # this file runs as a script: the naipes that package_from set up, found by name
    Bot = importlib.import_module("naipes.bots").Bot
    module = load_module(file, f"naipes_scan_{file.stem}")
    return {"bots": [[file.name, name] for name, value in sorted(vars(module).items())
                     if isinstance(value, type) and issubclass(value, Bot) and value is not Bot
                     and value.__module__ == module.__name__]}


class Refusal(Exception):
    """The bot cannot be loaded; the message says why."""


# ------------------------------------------------------------------ serving
def serve(bot: Any, requests: int, replies: int) -> None:
    """Answer batches of calls until the game closes the pipe."""
    buffer = b""
    while data := os.read(requests, 1 << 16):
        *lines, buffer = (buffer + data).split(b"\n")
        for line in lines:
            request = json.loads(line)
            answer_batch(bot, request["n"], request["calls"], replies)


def answer_batch(bot: Any, first: int, calls: list, replies: int) -> None:
    """Run the calls numbered first, first + 1, ...; one reply each, a run of calls that had nothing to say
    in one ``{"n": N, "done": COUNT}``.

    The game times each call from the reply before it, so replies wait for the next ones (to travel
    together: one wake-up of the game for a run of events) only while those are calls of the same name
    and for at most HOLD seconds: a slow call is then still named, and timed within HOLD."""
    held: list[dict] = []
    held_call, since = "", 0.0
    for number, (name, args) in enumerate(calls, first):
        if held and (name != held_call or time.monotonic() - since > HOLD):
            send(replies, *held)
            held = []
        reply = run_guarded(call, bot, name, args)
        if not held:
            held_call, since = name, time.monotonic()
        if not reply and held and "done" in held[-1]:
            held[-1]["done"] += 1
        else:
            held.append({"n": number, **(reply or {"done": 1})})
        if reply.get("fatal"):
            send(replies, *held)
            os._exit(0)
    if held:
        send(replies, *held)


def call(bot: Any, name: str, args: list) -> dict:
    if name not in CALLS:
        raise Refusal(f"unknown call {name!r}")
    method = getattr(bot, name, None)
    if method is None:
        return {}
    result = method(*args)
    if forked:
        return {"fault": "started a process (os.fork)", "fatal": True}
    return answer(result) if name == "decide" else {}


def answer(result: Any) -> dict:
    """An index or a label as exact int or str (subclasses are copied without calling their methods)."""
    kind = type(result)
    if kind is bool or not issubclass(kind, (int, str)):
        return {"fault": f"answered a {kind.__name__}, which is neither an option's index nor its label"}
    if issubclass(kind, int):
        value = int.__index__(result)
        if abs(value) >= 2 ** 63:
            return {"fault": "answered an index far out of range"}
        return {"answer": value}
    text = str.__str__(result)
    if len(text) > MAX_LABEL:
        return {"fault": f"answered a string of {len(text):,} characters, which is no option's label"}
    return {"answer": text}


def run_guarded(work: Any, *args: Any) -> dict:
    """``work(*args)``, which may run the bot's code: whatever the bot does becomes a reply."""
    try:
        return work(*args)
    except MemoryError:
        os._exit(MEMORY_EXIT)
    except SystemExit as exc:
        request = exc
        return {"fault": f"called sys.exit({printable(lambda: request.code)})", "fatal": True}
    except Refusal as refusal:
        return {"fault": str(refusal)}
    except BaseException as exc:
        return {"fault": f"raised {describe(exc)}"}


def describe(exc: BaseException) -> str:
    """'Type: message', whatever the exception's own methods do."""
    name = printable(lambda: type(exc).__name__)
    message = printable(lambda: str(exc))
    return f"{name}: {message}" if message else name


def printable(text: Any) -> str:
    try:
        value = text()
        return (value if type(value) is str else repr(value))[:MAX_REASON]
    except BaseException:
        return "(unprintable)"


def send(fd: int, *replies: dict) -> None:
    try:
        data = b"".join(json.dumps(reply, ensure_ascii=True).encode() + b"\n" for reply in replies)
        while data:
            data = data[os.write(fd, data):]
    except MemoryError:
        os._exit(MEMORY_EXIT)
    except OSError:  # the game closed the pipe: it wants no more answers
        os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
