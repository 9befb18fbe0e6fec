"""What Naipes ships: the rule files, their params, and the AI levels each game can seat.

Plain data for tables and listings (the web table's choose-game screen):

>>> from naipes import load_program
>>> entry = describe(load_program("fichas"))
>>> [level["name"] for level in entry["levels"]]   # its strategy files, then the built-in agents that apply
['exact', 'greedy', 'random', 'minimax', 'ismcts', 'pimc']
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from ..agents.legend import card_legend
from ..agents.levels import ai_levels, default_opponent
from ..language.builder import load_program
from ..language.loader import Map, load_tree
from ..language.shipped import RULESETS
from ..program import Program

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # (libyaml's parser where PyYAML has it)
BASES = 10  # bases followed through `extends` at most


@dataclass(frozen=True)
class Glance:
    """What a rule file says of itself, read from its YAML and its bases' (`extends`) without compiling: each key
    the file's own, else its nearest base's (milliseconds, where compiling takes a second). A listing needs no
    more; params and AI levels that apply need the compiled program (`describe`)."""

    file: str  # the file's name without .yaml
    name: str  # the game (`game:`), as Program.name: its strategy folders play it
    title: str
    doc: str
    players: dict[str, int | None]  # min, max, default
    default_ai: str  # `players: ai:`, as Program.default_ai

    def listed(self) -> dict[str, Any]:
        """As the choose-game screen lists it."""
        return {"name": self.file, "title": self.title, "doc": self.doc, "players": self.players}


def glance(path: Path) -> Glance:
    """The rule file at `path` glanced at (OSError or yaml.YAMLError when it cannot be read)."""
    found: dict[str, Any] = {}
    seats: dict[str, Any] = {}
    for tree in _chain(path):
        for key in ("game", "title", "doc"):
            if tree.get(key) is not None:
                found.setdefault(key, tree[key])
        players = tree.get("players")
        players = {"min": players, "max": players, "default": players} if isinstance(players, int) else players
        for key, value in (players.items() if isinstance(players, dict) else ()):
            seats.setdefault(key, value)
    title, doc = found.get("title"), found.get("doc")
    return Glance(path.stem, str(found.get("game") or path.stem), str(title or path.stem),
                  doc.strip() if isinstance(doc, str) else "",
                  {"min": seats.get("min"), "max": seats.get("max"), "default": seats.get("default", seats.get("min"))},
                  str(seats.get("ai", "random")))


def _chain(path: Path) -> list[dict]:
    """A rule file's tree and its bases', the file first (as far as they read as mappings)."""
    chain: list[dict] = []
    while len(chain) < BASES:
        tree = yaml.load(path.read_text(encoding="utf-8"), Loader=LOADER)
        if not isinstance(tree, dict):
            break
        chain.append(tree)
        base = tree.get("extends")
        if not isinstance(base, str):
            break
        path = _base_path(path, base)
    return chain


def _base_path(path: Path, base: str) -> Path:
    """The file `extends: base` names, found as the loader finds it (beside the file, else a shipped one)."""
    given = path.parent / base
    if base.isidentifier() and not given.is_file():
        beside = path.parent / f"{base}.yaml"
        return beside if beside.is_file() else RULESETS / f"{base}.yaml"
    return given


def describe(program: Program) -> dict[str, Any]:
    """A game as plain data: title, how to play (its `doc:`), players, params (type, default, limits, doc), AI
    levels."""
    low, high, default = program.players
    return {
        "name": Path(program.path).stem,
        "game": program.name,
        "title": program.title,
        "doc": program.doc,
        "players": {"min": low, "max": high, "default": default, "ai": default_opponent(program)},
        "params": [{"name": p.name, "type": p.type, "default": p.default, "doc": p.doc, "choices": p.choices,
                    "min": p.min, "max": p.max} for p in program.params.values()],
        "levels": ai_levels(program),
        "moves": [{"name": name, "doc": move.doc} for name, move in program.moves.items()],
        "phases": phase_docs(program),
        "legend": card_legend(program),
    }


def phase_docs(program: Program) -> list[dict[str, str]]:
    """The phases of `program` in order, each with its `doc:` (variants take their base's)."""
    section = load_tree(program.path).get("phases")
    docs = {str(name): spec.get("doc", "") for name, spec in section.items()
            if isinstance(spec, Map)} if isinstance(section, Map) else {}
    return [{"name": name, "doc": str(docs.get(name) or "")} for name in program.phases]


@cache
def describe_file(path: str) -> dict[str, Any]:
    """:func:`describe` of a rule file (compiled once per process)."""
    return describe(load_program(path))
