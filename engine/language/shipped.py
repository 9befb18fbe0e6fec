"""Where the shipped rule files and strategy files are, and finding one by its name.

>>> ruleset_path("fichas").name
'fichas.yaml'
>>> ruleset_path("no_such_game") is None
True
"""
from __future__ import annotations

from pathlib import Path

HOME = Path(__file__).resolve().parents[2]  # the project: rulesets/ and strategies/ beside engine/
RULESETS = HOME / "rulesets"
STRATEGIES = HOME / "strategies"


def shipped_rulesets() -> list[Path]:
    """Every shipped rule file, by name."""
    return sorted(RULESETS.glob("*.yaml"))


def ruleset_path(name: str) -> Path | None:
    """The shipped rule file called `name` (``pocha`` or ``pocha.yaml``), if there is one."""
    candidate = RULESETS / (name if name.endswith((".yaml", ".yml")) else f"{name}.yaml")
    return candidate if candidate.is_file() else None


def strategy_folders(game: str) -> list[Path]:
    """The folders of strategies/ whose levels play the game called `game`, nearest first
    (a variant, GAME_official, plays strategies/GAME)."""
    return sorted((d for d in STRATEGIES.glob("*") if d.is_dir() and game.startswith(d.name)),
                  key=lambda d: -len(d.name))
