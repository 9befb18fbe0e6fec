"""Where the shipped rule files and strategy files are, and finding one by its name.

They live in the repository's rulesets/ and strategies/, which are installed as the data packages
``naipes.rulesets`` and ``naipes.strategies`` (pyproject.toml); the import system finds them, so the same
code works from a source checkout (an editable install) and from an installed wheel.

>>> ruleset_path("fichas").name
'fichas.yaml'
>>> ruleset_path("no_such_game") is None
True
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path

RULESETS = Path(str(files("naipes.rulesets")))
STRATEGIES = Path(str(files("naipes.strategies")))


def is_file(path: str | Path) -> bool:
    """Whether `path` names a file; False too for a name no file can have (too long, a NUL character: a name a
    file gives is text from anywhere)."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


def shipped_rulesets() -> list[Path]:
    """Every shipped rule file, by name."""
    return sorted(RULESETS.glob("*.yaml"))


def ruleset_path(name: str) -> Path | None:
    """The shipped rule file called `name` (``pocha`` or ``pocha.yaml``), if there is one."""
    candidate = RULESETS / (name if name.endswith((".yaml", ".yml")) else f"{name}.yaml")
    return candidate if is_file(candidate) else None


def strategy_folders(game: str) -> list[Path]:
    """The folders of strategies/ whose levels play the game called `game`, nearest first
    (a variant, GAME_official, plays strategies/GAME)."""
    return sorted((d for d in STRATEGIES.glob("*") if d.is_dir() and game.startswith(d.name)),
                  key=lambda d: -len(d.name))
