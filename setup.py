"""The engine's runtime compiled by mypyc, for a built package (a wheel, `pip install .`), and the packages
and data files the package ships (found in the source tree: each game's folder of strategy files).

Everything else is in pyproject.toml. A wheel gets the modules in NATIVE
compiled to C extensions by mypyc (mypy's compiler, as black and mypy ship
themselves), which run a game's moves, rules, memory and searches faster;
the same sources run as plain Python everywhere else. An editable install
(`pip install -e .`, the development set-up) is never compiled, so that an
edit of the source always takes effect; NAIPES_NATIVE=0 builds a plain wheel.
If mypyc cannot build (no C compiler, say), the wheel is plain Python, and
so it is if any compiled module fails (BuildWhole: never a wheel that does not
import). NAIPES_PGO builds it guided by a profile (GCC; see pgo_flags and
.ci/native).

mypyc names a module by its folder, and the package's folder is engine/
(imported as naipes): the sources are compiled from a copy under
build/native/naipes.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import BaseError, CCompilerError

# the modules every move, copy and search goes through; Zone (runtime/zones.py) stays Python: mypyc cannot
# subclass list
NATIVE = ["library/names.py", "library/limits.py", "runtime/memory.py", "runtime/agenda.py", "runtime/game.py",
          "library/builtins.py", "library/melds.py", "agents/knowledge.py", "agents/ismcts.py", "agents/solver.py",
          "agents/random_play.py", "agents/strategy.py"]

# The runtime calls its own functions and Python's through many small calls: compiled without a PLT stub per
# call, and with the library's own functions bound within it (nothing interposes them), its code is smaller
# and its calls direct: 3-4 % fewer instructions and instruction-cache misses per Pocha decision (measured
# with cachegrind; see benchmarks/README.md, "Issue 11: the runtime's calls").
LINUX_FLAGS = ["-fno-plt", "-fno-semantic-interposition"]


def pgo_flags() -> list[str]:
    """NAIPES_PGO=generate:DIR builds the runtime to count, into DIR, which branches and calls its code takes
    as it runs; NAIPES_PGO=use:DIR builds it laid out by those counts (GCC's profile-guided optimisation:
    .ci/native does both, with games between). Code the counts never reached is optimised as it would be
    without them. (The two builds must compile the same sources from the same paths.)"""
    mode, _, folder = os.environ.get("NAIPES_PGO", "").partition(":")
    if mode not in ("generate", "use") or not folder:
        return []
    flags = [f"-fprofile-{mode}={os.path.abspath(folder)}"]
    return flags + ["-fprofile-partial-training", "-Wno-missing-profile"] if mode == "use" else flags


def native_extensions() -> list:
    if os.environ.get("NAIPES_NATIVE", "1") == "0" or "editable_wheel" in sys.argv:
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("naipes: mypyc is not installed: a plain Python wheel", file=sys.stderr)
        return []
    stage = Path("build", "native")
    shutil.rmtree(stage, ignore_errors=True)
    shutil.copytree("engine", stage / "naipes", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    paths = [str(stage / "naipes" / path) for path in NATIVE]
    try:  # (the build environment has none of the package's dependencies: their types are not needed)
        extensions = mypycify(["--config-file", "", "--ignore-missing-imports", "--follow-imports", "silent", *paths],
                              opt_level="3", group_name="naipes.runtime",  # (its shared library: in the package)
                              target_dir=str(stage / "c"))
    except (Exception, SystemExit) as exc:
        print(f"naipes: mypyc could not compile the runtime ({exc}): a plain Python wheel", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True  # (a failed C build leaves the module in Python)
        if sys.platform.startswith("linux"):  # (GCC and Clang: see LINUX_FLAGS)
            extension.extra_compile_args = [*(extension.extra_compile_args or []), *LINUX_FLAGS, *pgo_flags()]
            extension.extra_link_args = [*(extension.extra_link_args or []), *pgo_flags()]
    return extensions


class BuildWhole(build_ext):
    """Builds the compiled runtime whole or not at all. Its modules all import one shared library (the group
    mypyc builds, naipes/runtime__mypyc): a wheel with some of them and not that library would not import. A
    module that fails to build guided by a profile (GCC's -fprofile-use refuses a source changed since the profile
    was counted) is built again without it; if one still fails (each is optional), every compiled module is left
    out, and the wheel is plain Python, said on stderr."""

    def build_extensions(self) -> None:
        self.failed: list[str] = []
        super().build_extensions()
        if self.failed:
            for extension in self.extensions:
                Path(self.get_ext_fullpath(extension.name)).unlink(missing_ok=True)
            print(f"naipes: {', '.join(self.failed)} could not be compiled: a plain Python wheel", file=sys.stderr)

    def build_extension(self, ext: Extension) -> None:
        try:
            try:
                super().build_extension(ext)
            except (CCompilerError, BaseError):
                profiled = set(pgo_flags())
                if not profiled & {*ext.extra_compile_args, *ext.extra_link_args}:
                    raise
                print(f"naipes: {ext.name} did not build guided by the profile (a source changed since it was "
                      f"counted?): built without it", file=sys.stderr)
                ext.extra_compile_args = [flag for flag in ext.extra_compile_args if flag not in profiled]
                ext.extra_link_args = [flag for flag in ext.extra_link_args if flag not in profiled]
                super().build_extension(ext)
        except (CCompilerError, BaseError):
            self.failed.append(ext.name)
            raise  # (an optional module: setuptools says why, and goes on)


PACKAGES = ["naipes", "naipes.library", "naipes.runtime", "naipes.language", "naipes.agents", "naipes.tools",
            "naipes.bridges", "naipes.web", "naipes.rulesets", "naipes.strategies"]


def data_packages() -> dict[str, list[str]]:
    """The folders of data files shipped, with their files: each is a package to setuptools, and one left out of
    the list gets a warning of a dozen lines per build. Every folder of strategies/ is a game's strategy files."""
    games = sorted(path.name for path in Path("strategies").iterdir()
                   if path.is_dir() and path.name.isidentifier() and not path.name.startswith("_"))
    return {"naipes.web.static": ["*"], "naipes.language": ["grammar.lark"], "naipes.rulesets": ["*.yaml"],
            **{f"naipes.strategies.{game}": ["*.yaml"] for game in games}}


DATA = data_packages()
setup(packages=sorted({*PACKAGES, *DATA}), package_data=DATA, ext_modules=native_extensions(),
      cmdclass={"build_ext": BuildWhole})
