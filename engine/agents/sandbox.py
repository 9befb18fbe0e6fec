"""The operating system's walls around a bot's worker process: bubblewrap (``bwrap``) on Linux.

A bot's worker runs inside a sandbox made for it alone (:func:`sandboxed`):

- its own PID namespace: the only processes it can see, signal or trace are
  its own; the game's process, the command line that started it (its seed,
  its log's path), its environment, memory and open files, and every other
  bot are not there to be named;
- its own mount namespace, read-only, holding only what a bot needs to run:
  the system's programs and libraries (``/usr``), Python, the ``naipes``
  package, and a copy of the bot's own file; a private ``/tmp`` of
  :data:`SCRATCH_MB` MiB is the one place it can write. Nothing else of the
  disk is there: no log, no rule file, no other bot's file;
- no network (its own network namespace: loopback only), its own IPC and host
  name, and a session of its own (no controlling terminal);
- no privileges: as root, the sandbox starts with only the right to change
  user, and the worker gives up being root (it becomes ``nobody``, 65534)
  before any code of the bot runs; as another user, its own user namespace
  with no capabilities outside it. Either way, no new privileges
  (``PR_SET_NO_NEW_PRIVS``) and, with RLIMIT_NPROC at 0 for a user that is not
  root, no new processes or threads;
- when the worker ends, or the game's process does, every process in its PID
  namespace is killed by the kernel.

Where bubblewrap is missing or cannot make namespaces (not Linux, no user
namespaces), :func:`sandbox` says why once, and workers run with what
:mod:`naipes.agents.bot_process` enforces alone (see docs/security.md, "Bots").
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

NOBODY = 65534  # the user (and group) a bot runs as inside the sandbox
SCRATCH_MB = 64  # MiB of the sandbox's own /tmp (and /dev/shm)
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")  # programs and libraries
MOUNTED = {Path(p) for p in ("/", "/tmp", "/dev", "/proc")}  # made by the sandbox itself
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime")
ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8",
               "PYTHONDONTWRITEBYTECODE": "1"}


@dataclass(frozen=True)
class Sandbox:
    """How bots are isolated here: `bwrap` (its path) or None, and `why` when it is None."""

    bwrap: str | None
    why: str = ""


@functools.cache
def sandbox() -> Sandbox:
    """The sandbox this system allows (tried once per process; a message on standard error when there is none)."""
    found = _try_bwrap()
    if found.bwrap is None:
        print(f"naipes: Python bots run without a sandbox: {found.why}. A bot can then read what your user can "
              "(your files, other processes' command lines, where a game's seed may be) and, as root, other "
              "processes' memory. Install bubblewrap (Debian: apt install bubblewrap) to isolate bots.",
              file=sys.stderr)
    return found


def _try_bwrap() -> Sandbox:
    if not sys.platform.startswith("linux"):
        return Sandbox(None, f"bubblewrap needs Linux, and this is {sys.platform}")
    bwrap = shutil.which("bwrap") or next((p for p in ("/usr/bin/bwrap", "/bin/bwrap") if os.access(p, os.X_OK)),
                                          None)
    if bwrap is None:
        return Sandbox(None, "bubblewrap (bwrap) is not installed")
    true = shutil.which("true") or "/bin/true"
    try:
        run = subprocess.run([bwrap, *_namespaces(), *_system(), "--", true], stdin=subprocess.DEVNULL,
                             capture_output=True, timeout=30, env={})
    except (OSError, subprocess.TimeoutExpired) as error:
        return Sandbox(None, f"bubblewrap did not run: {error}")
    if run.returncode != 0:
        message = run.stderr.decode(errors="replace").strip().splitlines()
        return Sandbox(None, f"bubblewrap cannot make a sandbox here ({message[-1] if message else run.returncode})")
    return Sandbox(bwrap)


def sandboxed(bwrap: str, command: list[str], files: dict[Path, int]) -> list[str]:
    """`command` run by bubblewrap in a sandbox of its own (see the module's docstring), with `files` (a path and
    a descriptor open on it, to be passed to bwrap) copied read-only into it at the same paths."""
    paths = [Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)]
    paths += [Path(sys.executable).resolve().parent, Path(__file__).resolve().parents[1]]  # Python; naipes
    binds = _outermost(p.resolve() for p in paths if p.resolve().is_dir() and not _under(p.resolve(), SYSTEM))
    arguments = [*_namespaces(), *_system()]
    for path in binds:
        arguments += ["--ro-bind", str(path), str(path)]
    copies = [path for path in files if not _under(path, binds)]  # (a file in a bound folder is there already)
    for path in copies:
        arguments += ["--perms", "0444", "--ro-bind-data", str(files[path]), str(path)]
    for made in _made_folders(binds, copies):  # bwrap makes them only for its owner: let nobody through
        arguments += ["--chmod", "0755", str(made)]
    arguments += ["--clearenv", *(item for name, value in environment().items() for item in ("--setenv", name, value))]
    return [bwrap, *arguments, "--chdir", "/tmp", "--", *command]


def _namespaces() -> list[str]:
    """Every namespace but the user's own (as root: none, with only the right to change user; else a user
    namespace, as nobody, that cannot make others)."""
    shared = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
              "--hostname", "bot", "--die-with-parent", "--new-session"]
    if os.geteuid() == 0:
        return [*shared, "--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    return [*shared, "--unshare-user", "--disable-userns", "--uid", str(NOBODY), "--gid", str(NOBODY)]


def _system() -> list[str]:
    """The system's programs and libraries (as links where the system has links), /proc, /dev, a small /tmp."""
    arguments = []
    for name in SYSTEM:
        path = Path(name)
        if path.is_symlink():
            arguments += ["--symlink", os.readlink(path), name]
        elif path.is_dir():
            arguments += ["--ro-bind", name, name]
    for name in SYSTEM_FILES:
        arguments += ["--ro-bind-try", name, name]
    size = str(SCRATCH_MB << 20)
    return [*arguments, "--proc", "/proc", "--dev", "/dev", "--perms", "01777", "--size", size, "--tmpfs",
            "/dev/shm", "--perms", "01777", "--size", size, "--tmpfs", "/tmp"]


def environment() -> dict[str, str]:
    """A sandbox's environment (bwrap's, and its bot's): fixed values, the host's time zone and character set
    (nothing else of the host's)."""
    kept = {name: os.environ[name] for name in ("LC_ALL", "LC_CTYPE", "TZ") if name in os.environ}
    return {**ENVIRONMENT, **kept, "PYTHONHASHSEED": "0"}


def _under(path: Path, folders: tuple[str, ...] | list[Path]) -> bool:
    return any(path == Path(f) or Path(f) in path.parents for f in folders)


def _outermost(paths: object) -> list[Path]:
    """The folders of `paths` that are not inside another of them (binding those binds the rest)."""
    unique = sorted(set(paths))  # type: ignore[call-overload]
    return [p for p in unique if not any(other in p.parents for other in unique)]


def _made_folders(binds: list[Path], files: list[Path]) -> list[Path]:
    """The folders bwrap makes to hold `binds` and `files` (their parents that are not mounted themselves)."""
    made = {parent for path in [*binds, *files] for parent in path.parents
            if parent not in MOUNTED and not _under(parent, binds) and not _under(parent, SYSTEM)}
    return sorted(made, key=lambda p: len(p.parts))
