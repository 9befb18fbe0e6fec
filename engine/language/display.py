"""The ``display:`` section: how a rule file's cards look to a person.

Plain data, never code: which attribute is written in a card's corner, which
one gives its icon and colour, how each attribute value is named and drawn,
the order a hand is sorted in, which state variable labels a zone's cards
with the players who put them there, and which moves a click on a card makes. The web table (:mod:`naipes.web`) draws
every card from it; a rule file without one gets a generic face (the name).

>>> from naipes.language.loader import parse_yaml
>>> tree = parse_yaml("display: {corner: rank, values: {rank: {10: {name: sota, short: S}}}}", "g.yaml")
>>> errors = []
>>> read_display(tree, ["suit", "rank"], [], [], [], lambda *e: errors.append(e))["values"]
{'rank': [[10, {'name': 'sota', 'short': 'S'}]]}
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..errors import Location, did_you_mean
from .loader import Map
from .vocabulary import COLOUR as COLOUR_PATTERN
from .vocabulary import DISPLAY, ICONS, LOOK, SHAPES

DISPLAY_KEYS = {name: f.doc for name, f in DISPLAY.fields.items()}
LOOK_KEYS = {name: f.doc for name, f in LOOK.fields.items()}
COLOUR = re.compile(COLOUR_PATTERN)
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
MAX_TEXT = 40  # characters of a name, short or symbol

ErrorFn = Callable[..., None]  # (message, location, hint=None)


def read_display(tree: Map, attributes: list[str], zones: list[str], variables: list[str], moves: list[str],
                 error: ErrorFn) -> dict[str, Any]:
    """The checked ``display:`` section of a rule tree as plain data (every mistake reported to `error`, located).

    `attributes` are the card attributes (tables included), `zones` the global
    zones, `variables` the global state variables a label may name and
    `moves` the moves a click may make.
    """
    display: dict[str, Any] = {"shape": "card", "corner": None, "suit": None, "order": [], "name": None,
                               "labels": {}, "values": {}, "click": {}}
    section = tree.get("display")
    if section is None:
        return display
    where = tree.loc("display")
    if not isinstance(section, Map):
        error("'display' is a mapping (corner:, suit:, values:, ...)", where)
        return display
    if not attributes:
        error("'display' describes cards, and this rule file declares none ('cards:')", where)
        return display
    for key in section:
        if key not in DISPLAY_KEYS:
            error(f"unknown key '{key}' in display", section.key_loc(key),
                  did_you_mean(str(key), DISPLAY_KEYS) or f"allowed: {', '.join(DISPLAY_KEYS)}")
    reader = _Reader(section, attributes, error)
    if "shape" in section:
        display["shape"] = reader.choice("shape", SHAPES)
    display["corner"] = reader.attribute("corner")
    display["suit"] = reader.attribute("suit")
    display["order"] = reader.attribute_list("order")
    display["name"] = reader.name_template()
    display["labels"] = reader.name_map("labels", "a zone to a state variable of (player, card) pairs", zones,
                                        "a global zone", reader.is_variable(variables))
    display["values"] = reader.values(_literal_values(tree))
    display["click"] = reader.name_map("click", "a move to the card attribute its argument is", moves, "a move",
                                       reader.is_attribute)
    return display


class _Reader:
    def __init__(self, section: Map, attributes: list[str], error: ErrorFn):
        self.section, self.attributes, self.error = section, attributes, error

    def is_attribute(self, name: Any, loc: Location) -> bool:
        if isinstance(name, str) and name in self.attributes:
            return True
        self.error(f"'{name}' is not a card attribute", loc,
                   did_you_mean(str(name), self.attributes) or f"attributes: {', '.join(self.attributes)}")
        return False

    def choice(self, key: str, allowed: tuple[str, ...]) -> str:
        value = self.section[key]
        if value not in allowed:
            self.error(f"display.{key} is one of {', '.join(allowed)}, not '{value}'", self.section.loc(key))
            return allowed[0]
        return str(value)

    def attribute(self, key: str) -> str | None:
        if key not in self.section:
            return None
        name = self.section[key]
        return str(name) if self.is_attribute(name, self.section.loc(key)) else None

    def attribute_list(self, key: str) -> list[str]:
        names = self.section.get(key, [])
        if not isinstance(names, list):
            self.error(f"display.{key} is a list of card attributes", self.section.loc(key))
            return []
        return [str(n) for i, n in enumerate(names) if self.is_attribute(n, _item_loc(names, i, self.section.loc(key)))]

    def name_template(self) -> str | None:
        if "name" not in self.section:
            return None
        text, loc = self.section["name"], self.section.loc("name")
        if not isinstance(text, str) or not text.strip():
            self.error("display.name is text such as \"{rank} de {suit}\"", loc)
            return None
        if not all(self.is_attribute(name, loc) for name in PLACEHOLDER.findall(text)):
            return None
        return str(text)

    def is_variable(self, variables: list[str]) -> Callable[[Any, Location], bool]:
        def check(name: Any, loc: Location) -> bool:
            if name in variables:
                return True
            self.error(f"display.labels: '{name}' is not a state variable", loc, did_you_mean(str(name), variables))
            return False
        return check

    def name_map(self, key: str, meaning: str, names: list[str], kind: str,
                 value_ok: Callable[[Any, Location], bool]) -> dict[str, str]:
        """display.KEY, a mapping of one of `names` (each a `kind`) to a name that `value_ok` accepts."""
        entries = self.section.get(key, Map())
        if not isinstance(entries, Map):
            self.error(f"display.{key} maps {meaning}", self.section.loc(key))
            return {}
        out = {}
        for name, value in entries.items():
            if name not in names:
                self.error(f"display.{key}: '{name}' is not {kind}", entries.key_loc(name),
                           did_you_mean(str(name), names) or f"choose: {', '.join(names)}")
            elif value_ok(value, entries.loc(name)):
                out[str(name)] = str(value)
        return out

    def values(self, attribute_values: dict[str, list[Any]]) -> dict[str, list[Any]]:
        """`values:` as {attribute: [[value, look], ...]}, in the file's order (JSON keeps the value's type)."""
        values = self.section.get("values", Map())
        if not isinstance(values, Map):
            self.error("display.values maps an attribute to {value: look}", self.section.loc("values"))
            return {}
        out = {}
        for attribute, looks in values.items():
            if not self.is_attribute(attribute, values.key_loc(attribute)):
                continue
            if not isinstance(looks, Map):
                self.error(f"display.values.{attribute} maps each value to its look "
                           "{name, short, icon, symbol, colour}", values.loc(attribute))
                continue
            known = attribute_values.get(attribute)
            out[str(attribute)] = [[_as_known(value, known), self.look(looks, value, attribute, known)]
                                   for value in looks]
        return out

    def look(self, looks: Map, value: Any, attribute: str, known: list[Any] | None) -> dict[str, str]:
        if known is not None and _as_known(value, known) not in known:
            self.error(f"'{value}' is not a value of the card attribute '{attribute}'", looks.key_loc(value),
                       did_you_mean(str(value), [str(k) for k in known]) or
                       f"values: {', '.join(map(str, known))}")
        spec, loc = looks[value], looks.loc(value)
        if not isinstance(spec, Map):
            self.error(f"the look of {attribute} '{value}' is a mapping of {', '.join(LOOK_KEYS)}", loc)
            return {}
        look = {}
        for key, text in spec.items():
            at = spec.loc(key)
            if key not in LOOK_KEYS:
                self.error(f"unknown key '{key}' in the look of {attribute} '{value}'", spec.key_loc(key),
                           did_you_mean(str(key), LOOK_KEYS) or f"allowed: {', '.join(LOOK_KEYS)}")
            elif (isinstance(text, bool) or not isinstance(text, (str, int, float))
                  or not 0 < len(str(text)) <= MAX_TEXT):
                self.error(f"{key} of {attribute} '{value}' is text of 1 to {MAX_TEXT} characters", at)
            elif key == "icon" and text not in ICONS:
                self.error(f"unknown icon '{text}'", at, did_you_mean(str(text), ICONS) or f"icons: {', '.join(ICONS)}")
            elif key == "colour" and not COLOUR.match(str(text)):
                self.error(f"colour '{text}' is not #rgb, #rrggbb or a colour name", at)
            else:
                look[str(key)] = str(text)
        return look


def _literal_values(tree: Map) -> dict[str, list[Any]]:
    """The values of the card attributes the rule file lists literally (`suit: [oros, copas]`)."""
    cards = tree.get("cards")
    attributes = cards.get("attributes") if isinstance(cards, Map) else None
    if not isinstance(attributes, Map):
        return {}
    return {str(name): list(values) for name, values in attributes.items() if isinstance(values, list)}


def _item_loc(items: Any, index: int, default: Location) -> Location:
    return items.loc(index) if hasattr(items, "loc") else default


def _as_known(value: Any, known: list[Any] | None) -> Any:
    """A display key as the attribute's value: text that spells a number of a numeric attribute is that number
    (JSON, and YAML quoted, write every key as text: "1" for the as)."""
    if isinstance(value, str):
        spelled = {str(k): k for k in known or () if not isinstance(k, str)}
        return spelled.get(value, str(value))
    return value
