"""What Naipes ships: the rule files, their params, and the AI levels each game can seat.

Plain data for tables and listings (the web table's choose-game screen):

>>> from naipes import load_program
>>> entry = describe(load_program("rulesets/fichas.yaml"))
>>> [level["name"] for level in entry["levels"]]   # its strategy files, then the built-in agents that apply
['exact', 'greedy', 'random', 'minimax', 'ismcts', 'pimc']
"""
from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from ..agents.legend import card_legend
from ..agents.levels import ai_levels, default_opponent
from ..language.builder import load_program
from ..language.loader import Map, load_tree
from ..program import Program


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
