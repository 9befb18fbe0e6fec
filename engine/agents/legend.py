"""What a game's card names mean, in words, from its rule file's ``display:`` section.

A card is named in play by the rule file's short name (``10s``); its ``display:``
names the values of its attributes (rank 10: "ten", suit s: "stars") and how they
make a full name (``{rank} of {suit}``: "ten of stars"). The terminal table and
``naipes info`` show it.
"""
from __future__ import annotations

from typing import Any

from ..language.display import PLACEHOLDER
from ..language.loader import Map, load_tree
from ..library.builtins import all_cards
from ..program import CardBase, Program, attribute
from ..runtime.game import Game


def _value(card: Any, name: str) -> Any:
    """The card's value of its attribute `name` (None for a card without it: a jester has no suit)."""
    return getattr(card, attribute(name), None)


def value_name(program: Program, name: str, value: Any) -> str | None:
    """How the rule file's ``display:`` names a value of a card attribute (None: it names it not)."""
    for known, look in program.display.get("values", {}).get(name, []):
        if known == value and look.get("name"):
            return str(look["name"])
    return None


def full_name(program: Program, card: Any) -> str:
    """A card's name in words, as the web table titles it: ``display: name`` filled in ("ten of stars"),
    else the first value the display names (a card with no suit: its kind's name), else the card's own name."""
    template = program.display.get("name")
    if template and all(_value(card, a) is not None for a in PLACEHOLDER.findall(template)):
        return PLACEHOLDER.sub(lambda m: value_name(program, m.group(1), _value(card, m.group(1)))
                               or str(_value(card, m.group(1))), template)
    named = [value_name(program, a, _value(card, a)) for a in program.display.get("values", {})]
    return next((name for name in named if name), card.name)


def deck(program: Program) -> list:
    """Every card of a game with its default params (empty when the rule file declares no cards)."""
    return list(all_cards(Game(program, 0).memory.vars)) if program.cards else []


def card_legend(program: Program, examples: int = 4) -> dict[str, Any]:
    """What the card names mean: each attribute value of the deck that the rule file names otherwise than
    it is written (rank 10: "ten"), and a few cards spelt out ("10s": "ten of stars"), of different suits."""
    cards = list({card.name: card for card in deck(program)}.values())
    looks = program.display.get("values", {})
    values = {name: [[value, str(look["name"])] for value, look in named
                     if look.get("name") and str(look["name"]) != str(value)
                     and any(_value(c, name) == value for c in cards)]
              for name, named in looks.items()}
    values = {name: named for name, named in values.items() if named}
    wanted = [(a, value) for a, named in (values.items() or ((a, looks[a]) for a in looks)) for value, _ in named]
    suit = program.display.get("suit")
    shown: dict[CardBase, str] = {}
    for name, value in wanted:
        used = {_value(c, suit) for c in shown} if suit else set()
        fitting = [c for c in cards if _value(c, name) == value and c not in shown and full_name(program, c) != c.name]
        fitting.sort(key=lambda c: _value(c, suit) in used if suit else False)
        if fitting and len(shown) < examples:
            shown[fitting[0]] = full_name(program, fitting[0])
    return {"values": values, "examples": [[card.name, words] for card, words in shown.items()]}


def legend_line(legend: dict[str, Any], examples: int = 4) -> str:
    """The legend as one line of text for a terminal (empty when the cards need none)."""
    parts = [f"{attr} " + ", ".join(name if isinstance(value, bool) else f"{value} {name}" for value, name in named)
             for attr, named in legend["values"].items()]
    spelt = ", ".join(f"{name} = {words}" for name, words in legend["examples"][:examples])
    return "; ".join(parts + ([f"e.g. {spelt}"] if spelt else []))


def table_docs(program: Program) -> dict[str, str]:
    """What each zone, state variable, player variable and view of the rule file means (its `doc:`), by name."""
    tree = load_tree(program.path)
    docs = {}
    for section in ("zones", "state", "player_state", "views"):
        entries = tree.get(section)
        for name, spec in (entries.items() if isinstance(entries, Map) else ()):
            if isinstance(spec, Map) and spec.get("doc"):
                docs[str(name)] = str(spec["doc"])
    return docs
