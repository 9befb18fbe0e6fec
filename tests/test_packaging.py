"""The package as a user gets it: a wheel built from the sources, installed (not editable) in a fresh virtual
environment, plays the shipped games from a directory that has no rulesets/ or strategies/ of its own.

The wheel is built from a copy of the sources (a stale build/ folder in the checkout cannot leak into it). The
fresh environment gets only the wheel (--no-deps --no-index); the dependencies (pyyaml, lark, click, rich,
matplotlib) come from this test run's environment through a .pth line, which adds their folder to sys.path
without running its .pth files (so the checkout's editable install stays out).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds a wheel, and a virtual environment to install it in

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ["pyproject.toml", "setup.py", "README.md", "engine", "rulesets", "strategies"]
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")


def run(*command: str | Path, cwd: Path, timeout: int = 120, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess:
    """`command` in `cwd`, with this run's environment and `env`, less PYTHONPATH (which could lead to another
    naipes: .ci/native)."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"} | (env or {})
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env=environment)
    assert done.returncode == 0, f"{' '.join(map(str, command))} failed:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        item = ROOT / name
        if item.is_dir():
            shutil.copytree(item, source / name, ignore=IGNORED)
        else:
            shutil.copy2(item, source / name)
    out = tmp_path_factory.mktemp("dist")
    # a plain Python wheel: its contents are the point here (.ci/run tests the wheel with the compiled runtime)
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--wheel-dir", out, source, cwd=source,
        env={"NAIPES_NATIVE": "0"})
    (found,) = out.glob("naipes-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed; its bin/ folder."""
    env = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False).create(env)
    python = env / "bin" / "python"
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=env).stdout.strip())
    here = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}  # where this run's dependencies are
    (site / "dependencies.pth").write_text("\n".join(sorted(here)) + "\n")
    # --ignore-installed: pip would otherwise take the naipes this run's environment may have (the README's test
    # command installs one) for the wheel's, and install nothing
    run(python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--ignore-installed", wheel, cwd=env)
    return env / "bin"


def test_the_wheel_carries_the_games_the_strategies_the_grammar_and_the_page(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {f"naipes/rulesets/{p.name}" for p in (ROOT / "rulesets").glob("*.yaml")}
    shipped |= {f"naipes/strategies/{p.parent.name}/{p.name}" for p in (ROOT / "strategies").glob("*/*.yaml")}
    shipped |= {f"naipes/web/static/{p.name}" for p in (ROOT / "engine" / "web" / "static").iterdir()}
    shipped |= {"naipes/language/grammar.lark", "naipes/tools/cli.py"}
    assert shipped <= names, sorted(shipped - names)
    assert not [n for n in names if n.startswith(("engine/", "rulesets/", "strategies/", "tests/"))]


def test_an_installed_wheel_plays_from_any_directory(installed: Path, tmp_path: Path) -> None:
    where = run(installed / "python", "-c", "import naipes; print(naipes.__file__)", cwd=tmp_path).stdout
    assert Path(where.strip()).is_relative_to(installed.parent), where  # the wheel's copy, not the checkout
    assert not (tmp_path / "rulesets").exists()
    # a shipped game by name, its strategy file by level, a variant that extends its base by name
    played = run(installed / "naipes", "play", "fichas", "--seat", "exact", "--seat", "greedy", "--seed", "3",
                 "--log", "game.jsonl", cwd=tmp_path).stdout
    assert "Game over. Winner:" in played
    replayed = run(installed / "naipes", "replay", "game.jsonl", "--to", "1", cwd=tmp_path).stdout
    assert replayed.startswith("Step 1 of ")  # the log names the shipped game, found in the installed package
    # (every seat named: an empty one would get the rule file's AI, a search that takes minutes as plain Python)
    simulated = run(installed / "naipes", "simulate", "pocha_static", "-n", "2", "--seat", "baseline",
                    "--seat", "random", "--seat", "strong", "--seat", "random", "--seed", "1", "-p", "rounds=2",
                    cwd=tmp_path).stdout
    assert "2 games" in simulated and "strong" in simulated
    variant = run(installed / "naipes", "simulate", "fichas_misere", "-n", "2", "--seed", "1", cwd=tmp_path).stdout
    assert "2 games" in variant
    page = run(installed / "python", "-c", "from importlib.resources import files; "
               "print((files('naipes.web') / 'static' / 'index.html').read_text()[:15])", cwd=tmp_path).stdout
    assert page.startswith("<!doctype html>")


def test_the_development_install_runs_the_sources() -> None:
    """Neither install compiles anything into engine/: setup.py compiles a copy under build/ for a wheel and
    leaves an editable build plain, so an edit always takes effect and .ci/run's editable run tests the sources."""
    assert not [p.relative_to(ROOT) for p in (ROOT / "engine").rglob("*") if p.suffix in (".so", ".pyd", ".c")]
