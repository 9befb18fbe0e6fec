"""The AI levels a game can seat: its strategy files, weakest first, then the built-in agents that apply.

>>> [level["name"] for level in ai_levels(load_program("pocha"))]   # doctest: +SKIP
['baseline', 'strong', 'random', 'ismcts']
"""
from __future__ import annotations

from pathlib import Path
from typing import Protocol

from ..language.shipped import STRATEGIES, is_file
from ..language.strategies import NamedGame, strategy_path
from ..program import Program


class DeclaredGame(NamedGame, Protocol):
    """A game as far as its default opponent goes: its name and its `players: ai:` (a Program, or a rule file
    glanced at without compiling: naipes.tools.catalogue.glance)."""

    @property
    def default_ai(self) -> str: ...

# Built-in agents a table can seat, and what each is; minimax only where nothing is hidden.
BUILT_IN = {
    "random": "a random legal move",
    "minimax": "perfect play by exhaustive search (games with nothing hidden)",
    "ismcts": "Monte Carlo tree search over the cards it cannot see (slower)",
    "pimc": "solves deals of the cards it cannot see with every card shown, weighted by the others' choices",
}


def strategy_levels(program: NamedGame) -> list[dict[str, str]]:
    """The strategy files that play `program` (its own folder, or its base game's), weakest first.

    A level that extends another comes after it; each says what it is from its first comment line.
    """
    levels = []
    for folder in sorted(d for d in STRATEGIES.glob("*") if d.is_dir()):
        for path in sorted(folder.glob("*.yaml")):
            if strategy_path(path.stem, program) == path:
                levels.append((_extends_depth(path), path.stem, _first_comment(path)))
    return [{"name": name, "kind": "strategy", "about": about} for _, name, about in sorted(levels)]


def default_opponent(program: DeclaredGame) -> str:
    """The agent a seat gets unless told otherwise: the rule file's `players: ai:`, or random where that cannot
    sit at this game's table (`unseatable`)."""
    return "random" if unseatable(program) else program.default_ai


def unseatable(program: DeclaredGame) -> str | None:
    """Why the rule file's `players: ai:` cannot sit at this game's table, or None: it names a Python bot (only
    the command line starts one), or no agent of this game (a variant of another name inherits its base's
    level, but the base's strategy files do not play it)."""
    name = program.default_ai
    if "python:" in name:
        return "it names a Python bot, which only the command line starts"
    if name.partition(":")[0] in BUILT_IN or name == "human" or strategy_path(name, program) is not None:
        return None
    return "no strategy file of this game has that name"


def ai_levels(program: Program) -> list[dict[str, str]]:
    """Every AI a seat of `program` can have: its strategy files, then the built-in agents that apply."""
    built_in = [{"name": name, "kind": "built-in", "about": about} for name, about in BUILT_IN.items()
                if name != "minimax" or program.perfect_information]
    return strategy_levels(program) + built_in


def _extends_depth(path: Path, limit: int = 10) -> int:
    depth = 0
    while limit > 0 and (base := _header_value(path, "extends")):
        path, depth, limit = path.parent / base, depth + 1, limit - 1
        if not is_file(path):
            break
    return depth


def _header_value(path: Path, key: str) -> str | None:
    """A top-level `key: value` of a YAML file, read as text (the strategy need not be compiled to be listed)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(f"{key}:"):
            return line.partition(":")[2].split("#")[0].strip() or None
    return None


def _first_comment(path: Path, limit: int = 160) -> str:
    """The first sentence of a file's header comment."""
    words = []
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.lstrip("#").strip()
        if not line.startswith("#") or not text:
            break
        words.append(text)
    header = " ".join(words)
    end = header.find(". ")
    sentence = header[:end + 1] if end >= 0 else header
    return sentence if len(sentence) <= limit else sentence[:limit - 1].rstrip() + "…"
