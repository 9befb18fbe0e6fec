"""A rule file's generated module compiled to C by Cython, cached by its content.

The linker compiles every generated module as Python first, so that every check and every error is the same
whether or not C follows. Then, where Cython and a C compiler are present (``pip install 'naipes[fast]'``), the
same source (checked by ``codecheck``) is compiled to a C extension, once per content: its key hashes the source,
the Python and Cython versions, the modules that make the C from it and, for a strategy, its game's key. The
extension is kept in the user's cache folder (``NAIPES_CACHE``, else ``$XDG_CACHE_HOME/naipes`` or
``~/.cache/naipes``) and reused by every later run and process; its functions take the place of the Python ones
in the module's namespace. Nothing is loaded from a folder or file that is not the user's alone to write (keys are
hashes anyone can compute); each compile prunes the cache of what was long unused. A first compile takes up to
half a minute and says so on stderr, once; a compile that fails says why, once, is remembered, and the module runs
as Python. A module larger than ``C_SOURCE_LIMIT`` (four times the largest shipped game's) runs as Python, saying
so once: a compile's time grows with the module (a file of 1,000 small functions had taken three minutes).
``NAIPES_COMPILE=never`` keeps every module Python (the test suite's default: see tests/conftest.py).

Two kinds of function stay Python: those that can reach themselves (recursion, through their names) and those
that call a function held as a value (``M.call``: a lambda may call itself through a local). C functions that
call each other spend the C stack with no check, where Python's own frames raise RecursionError at
``sys.getrecursionlimit()``, which the located error of a runaway rule file rests on. A third kind stays
Python where Cython would compute another value than Python (``cdefects``: an assignment inside a comprehension
that reads a loop variable shadowing another name).
"""
from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib.metadata
import importlib.util
import os
import stat
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import cbuiltins, cdefects, cdirect, cslots
from .callgraph import recursive
from .cbuiltins import builtin_names
from .cdefects import bind_at_entry, misread
from .cslots import site_caches

KEY_VERSION = "6"  # bumped when the C made from one source changes otherwise than by the modules that make it, whose
#                   text is in the key (MAKERS; 3: cdefects, 4: cbuiltins, 5: cdirect, 6: C_GLOBALS)
MAKERS = tuple(Path(m.__file__).read_text(encoding="utf-8") for m in (cbuiltins, cdefects, cdirect, cslots)
               if m.__file__ is not None)
KEY = "__naipes_key__"  # where a compiled module's namespace keeps its key (a strategy's module includes its game's)
BUILD_SCRIPT = """
import sys
from Cython.Build import cythonize
from setuptools import Distribution, Extension
source, name, out = sys.argv[1:]
flags = [] if sys.platform == "win32" else ["-g0"]  # no debug information: a quarter of the compile's time
extensions = cythonize([Extension(name, [source], extra_compile_args=flags)], quiet=True, language_level=3,
                        compiler_directives={"binding": True})
dist = Distribution({"ext_modules": extensions,
                     "script_args": ["build_ext", "--build-lib", out, "--build-temp", out]})
dist.parse_command_line()
dist.run_commands()
"""
EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")  # an extension module's file ending on this Python
BUILD_TIMEOUT = 900  # seconds: the largest module compiled (C_SOURCE_LIMIT) takes under a minute
C_SOURCE_LIMIT = 200_000  # characters of generated Python: the largest shipped game's is 46,000 (Mus: 20 s of C)
UNUSED_DAYS, CACHE_BYTES = 60, 256 << 20  # the cache drops what it has not used for that long, or beyond that size

_loaded: dict[str, Any] = {}  # key -> the extension module (an extension is initialised once per process)
_distrusted: set[Path] = set()  # cache folders and files refused in this process (said once each)
_too_large: set[str] = set()  # the files said to be too large to compile to C, in this process


@dataclass(frozen=True)
class CModule:
    """A generated module's C functions, to take the place of its Python ones."""

    code_name: str  # the file name their tracebacks carry (rule-file lines are mapped through the same origins)
    names: dict[str, Any]  # what the namespace gets: the C functions and the values they share with it


def compiling() -> bool:
    """Whether modules are compiled to C: NAIPES_COMPILE is not 'never' and Cython is installed."""
    return os.environ.get("NAIPES_COMPILE", "auto") != "never" and importlib.util.find_spec("Cython") is not None


def cache_folder() -> Path:
    """Where compiled modules are kept."""
    if os.environ.get("NAIPES_CACHE"):
        return Path(os.environ["NAIPES_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "naipes"


def c_module(source: str, tree: ast.Module, namespace: dict[str, Any], what: str,
             base: dict[str, Any] | None = None) -> CModule | None:
    """The module `source` (parsed: `tree`, run as Python into `namespace`) compiled to C, or None where it is not
    (not compiling, or its compile failed). `what`: the rule file, as a user knows it; `base`: the namespace of the
    game a strategy's module calls."""
    if not compiling():
        return None
    if len(source) > C_SOURCE_LIMIT:  # a C compiler's time grows with the module, and a little faster
        if what not in _too_large:
            _too_large.add(what)
            print(f"naipes: {what} is too large to compile to C (its module has {len(source):,} characters, the most "
                  f"is {C_SOURCE_LIMIT:,}); it runs as Python", file=sys.stderr, flush=True)
        return None
    key = module_key(source, (base or {}).get(KEY, ""))
    namespace[KEY] = key
    module = _loaded.get(key) or _import(key, source, tree, namespace, what)
    if module is None:
        return None
    names = {name: value for name, value in vars(module).items() if not name.startswith("__")}
    return CModule(f"{module_name(key)}.pyx", names)


def module_key(source: str, base_key: str) -> str:
    """The content hash a compiled module is cached under."""
    parts = (KEY_VERSION, BUILD_SCRIPT, *MAKERS, importlib.metadata.version("cython"),
             sys.implementation.cache_tag, sysconfig.get_platform(), base_key, source)
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]


def module_name(key: str) -> str:
    return f"naipes_c_{key}"


def _import(key: str, source: str, tree: ast.Module, namespace: dict[str, Any], what: str) -> Any:
    """Import the module of `key` from the cache, compiling it first if it is not there; set its shared names from
    `namespace` (its Python twin's). None if it cannot be compiled."""
    folder = _trusted_folder()
    if folder is None:
        return None
    name = module_name(key)
    built = folder / f"{name}{EXT_SUFFIX}"
    why = _not_own(built) if built.exists() else None
    if why is not None:
        _distrust(built, why)
        return None
    if not built.exists() and ((folder / f"{name}.failed").exists() or
                               not _build(c_source(source, tree, namespace), name, built, what)):
        return None
    try:
        module = _load(name, built)
    except (ImportError, OSError) as exc:  # (a file in the cache this Python cannot load: compiled elsewhere)
        built.unlink(missing_ok=True)
        _failed(folder, name, what, f"{type(exc).__name__}: {exc}")
        return None
    own, kept = defined_names(tree), python_only(tree) | misread(tree, source)
    for shared, value in namespace.items():  # what it is given, and its functions that stay Python
        if not shared.startswith("__") and (shared in kept or shared not in own):
            setattr(module, shared, value)
    _loaded[key] = module
    return module


def _trusted_folder() -> Path | None:
    """The cache folder, made the user's alone if it is not there yet; None (said once) if code in it may not be
    loaded. (The keys are content hashes anyone can compute: a folder others can write to would let them put code
    of their own under a rule file's key.)"""
    folder, why = _own_folder()
    if why is None:
        return folder
    _distrust(folder, why)
    return None


def private_folder() -> Path | None:
    """The cache folder, made the user's alone if it is not there yet, for anything kept there that is code when it
    is read back (a compiled module, the parser's pickled tables: naipes.language.parser); None, said nowhere, where
    it is not the user's alone to write."""
    folder, why = _own_folder()
    return folder if why is None else None


def _own_folder() -> tuple[Path, str | None]:
    """The cache folder, made if it is not there yet, and why code in it may not be loaded (None: it may)."""
    folder = cache_folder()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        return folder, _not_own(folder)
    except OSError as exc:
        return folder, f"it cannot be made ({exc.strerror})"


def _not_own(path: Path) -> str | None:
    """Why code in `path` (the cache folder, or a file in it) may not be loaded: it is not this user's alone to
    write. None: it may."""
    if not hasattr(os, "geteuid"):  # (no POSIX owners: the user's own cache folder is trusted)
        return None
    try:
        status = path.stat()
    except OSError as exc:
        return f"it cannot be read ({exc.strerror})"
    if status.st_uid != os.geteuid():
        return "it belongs to another user"
    if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "others can write to it"
    return None


def _distrust(path: Path, why: str) -> None:
    """Say once that compiled code is not loaded from `path`."""
    if path not in _distrusted:
        _distrusted.add(path)
        print(f"naipes: compiled code is not loaded from {path}: {why}; rule files run as Python (make the cache "
              f"folder yours alone, `chmod 700`, or name another with NAIPES_CACHE)", file=sys.stderr, flush=True)


def _load(name: str, built: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, built)
    if spec is None or spec.loader is None:
        raise ImportError(f"{built} is not an extension module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with contextlib.suppress(OSError):
        os.utime(built)  # (its time is when it was last used: see _prune)
    return module


def defined_names(tree: ast.Module) -> set[str]:
    """The names a module's top level defines."""
    names = set()
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef):
            names.add(statement.name)
        elif isinstance(statement, ast.Assign):
            names.update(t.id for t in statement.targets if isinstance(t, ast.Name))
    return names


def c_source(source: str, tree: ast.Module, namespace: dict[str, Any]) -> str:
    """What Cython compiles: the module's source, Python's own functions called by Cython's names (cbuiltins), its
    attribute reads and memory calls made direct (cslots), the names its comprehensions assign bound from each
    function's start (cdefects), and the names it is given declared after its own lines."""
    return bind_at_entry(site_caches(builtin_names(source, tree, namespace) + _declarations(tree, namespace), tree),
                         tree)


# Names the C module holds as C variables of its own rather than as names it is given (a lookup at each read):
# the sentinel of a value not computed yet (B_UNSET), which never leaves the function that sets it and reads it.
C_GLOBALS = {"B_UNSET": "cdef object B_UNSET = object()\n"}


def _declarations(tree: ast.Module, namespace: dict[str, Any]) -> str:
    """Lines that declare, after the module's own (its line numbers unchanged), the names it is given at run time:
    Cython refuses a name it sees neither defined nor built in (and C_GLOBALS, its own)."""
    own = defined_names(tree)
    return "".join(C_GLOBALS.get(name, f"{name} = None\n") for name in namespace
                   if not name.startswith("__") and name not in own)


def python_only(tree: ast.Module) -> set[str]:
    """The module's functions that stay Python: those that reach themselves through the names they read (recursion,
    direct or mutual) and those that call a function value (M.call)."""
    functions = {s.name: s for s in tree.body if isinstance(s, ast.FunctionDef)}
    reads = {name: {node.id for node in ast.walk(f) if isinstance(node, ast.Name) and node.id in functions}
             for name, f in functions.items()}
    calls_values = {name for name, f in functions.items()
                    if any(isinstance(node, ast.Attribute) and node.attr == "call" and
                           isinstance(node.value, ast.Name) and node.value.id == "M" for node in ast.walk(f))}
    return calls_values | recursive(reads)


def _build(source: str, name: str, built: Path, what: str) -> bool:
    """Compile `source` into the extension `built`, saying so; on failure say why and remember it."""
    folder = built.parent
    print(f"naipes: compiling {what} to C, once (it may take half a minute; kept in {folder})", file=sys.stderr,
          flush=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix="build-") as work:
        (Path(work) / f"{name}.pyx").write_text(source, encoding="utf-8")
        try:
            done = subprocess.run([sys.executable, "-c", BUILD_SCRIPT, f"{name}.pyx", name, "."], cwd=work,
                                  capture_output=True, text=True, timeout=BUILD_TIMEOUT)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return _failed(folder, name, what, str(exc))
        made = Path(work) / built.name  # (build_ext names it as the cache does: the module and EXT_SUFFIX)
        if done.returncode != 0 or not made.exists():
            return _failed(folder, name, what, done.stderr or done.stdout)
        made.chmod(0o700)  # (whatever the umask: a file others can write to is not loaded)
        os.replace(made, built)  # (atomic: another process compiling the same module meanwhile finds one whole file)
    _prune(folder, built)
    return True


def _prune(folder: Path, kept: Path) -> None:
    """Remove what the cache holds that was not used for UNUSED_DAYS, then the least recently used until it holds
    at most CACHE_BYTES (never `kept`, the file just built). A process that loaded a removed file keeps it."""
    held = []
    for file in folder.glob("naipes_c_*"):
        with contextlib.suppress(OSError):  # (another process may remove it meanwhile)
            held.append((file.stat(), file))
    held.sort(key=lambda entry: entry[0].st_mtime)
    total = sum(status.st_size for status, _ in held)
    stale = time.time() - UNUSED_DAYS * 86_400
    for status, file in held:
        if file != kept and (status.st_mtime < stale or total > CACHE_BYTES):
            file.unlink(missing_ok=True)
            total -= status.st_size


def _failed(folder: Path, name: str, what: str, output: str) -> bool:
    lines = [line for line in output.strip().splitlines() if line.strip()]
    (folder / f"{name}.failed").write_text(output, encoding="utf-8")
    print(f"naipes: could not compile {what} to C ({lines[-1] if lines else 'no output'}); it runs as Python "
          f"(the compiler's output: {folder / (name + '.failed')})", file=sys.stderr, flush=True)
    return False
