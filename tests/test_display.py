"""The ``display:`` section: how cards look, checked like every other section.

A mistake is a located error pointing at the offending text; the shipped
rule files describe values their decks really have.
"""
from __future__ import annotations

import textwrap

import pytest

from naipes import load_program
from naipes.errors import RuleError, RuleErrors
from naipes.library.builtins import all_cards
from naipes.runtime.game import Game

from helpers import RULESETS, shipped_program

RULE_FILES = sorted(RULESETS.glob("*.yaml"))

GAME = """
game: g
cards:
  attributes: {suit: [oros, copas], rank: [1, 2, 10]}
  name: "str(c.rank) + c.suit[0]"
zones:
  stock: {visibility: hidden}
  trick: {visibility: public}
state:
  played: "[]"
moves:
  take:
    choose: "s in ['oros', 'copas']"
    then: "pass"
rules:
  - name: stop
    then: "end game"
"""


def load_with(tmp_path, display: str):
    path = tmp_path / "g.yaml"
    path.write_text(textwrap.dedent(GAME).lstrip("\n") + textwrap.dedent(display), encoding="utf-8")
    return load_program(path), path


def error_at(tmp_path, display: str, pointed: str) -> RuleError:
    """The one error of a display section, which must point at the first occurrence of `pointed` in it."""
    path = tmp_path / "g.yaml"
    with pytest.raises((RuleError, RuleErrors)) as info:
        load_with(tmp_path, display)
    errors = info.value.errors if isinstance(info.value, RuleErrors) else [info.value]
    assert len(errors) == 1, [str(e) for e in errors]
    error = errors[0]
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("display:"))
    line = next(i for i in range(start, len(lines)) if pointed in lines[i])
    assert (error.location.line, error.location.col) == (line + 1, lines[line].index(pointed) + 1), str(error)
    return error


def test_a_display_section_is_plain_data_in_the_files_order(tmp_path):
    program, _ = load_with(tmp_path, """
        display:
          corner: rank
          suit: suit
          order: [suit, rank]
          name: "{rank} de {suit}"
          labels: {trick: played}
          click: {take: suit}
          values:
            suit:
              oros: {name: oros, icon: coin, colour: "#b7860b"}
              copas: {symbol: "C", colour: red}
            rank:
              10: {name: sota, short: S}
        """)
    assert program.display == {
        "shape": "card", "corner": "rank", "suit": "suit", "order": ["suit", "rank"], "name": "{rank} de {suit}",
        "labels": {"trick": "played"}, "click": {"take": "suit"},
        "values": {"suit": [["oros", {"name": "oros", "icon": "coin", "colour": "#b7860b"}],
                            ["copas", {"symbol": "C", "colour": "red"}]],
                   "rank": [[10, {"name": "sota", "short": "S"}]]}}
    assert all(type(value) in (str, int) for looks in program.display["values"].values() for value, _ in looks)


def test_a_number_written_as_text_is_the_numeric_value_it_spells(tmp_path):
    # JSON (and a quoted YAML key) writes every key as text: "10" is the rank 10, "3" no rank of this deck
    program, _ = load_with(tmp_path, """
        display:
          values:
            rank:
              "10": {name: sota}
        """)
    assert program.display["values"]["rank"] == [[10, {"name": "sota"}]]
    error = error_at(tmp_path, """
        display:
          values:
            rank:
              "3": {name: tres}
        """, '"3"')
    assert "'3' is not a value of the card attribute 'rank'" in str(error)


def test_without_a_display_section_cards_get_the_generic_face(tmp_path):
    program, _ = load_with(tmp_path, "")
    assert program.display["corner"] is None and program.display["values"] == {}


@pytest.mark.parametrize("display, pointed, message", [
    ("display:\n  corners: rank\n", "corners", "unknown key 'corners' in display"),
    ("display:\n  corner: rnak\n", "rnak", "'rnak' is not a card attribute"),
    ("display:\n  shape: disc\n", "disc", "display.shape is one of card, chip"),
    ("display:\n  order: [suit, colour]\n", "colour", "'colour' is not a card attribute"),
    ("display:\n  name: \"{rank} of {suits}\"\n", "\"{rank}", "'suits' is not a card attribute"),
    ("display:\n  labels: {trik: played}\n", "trik", "'trik' is not a global zone"),
    ("display:\n  labels: {trick: plyed}\n", "plyed", "'plyed' is not a state variable"),
    ("display:\n  values:\n    suit:\n      oro: {name: oros}\n", "oro:",
     "'oro' is not a value of the card attribute 'suit'"),
    ("display:\n  values:\n    suit:\n      oros: {icon: coins}\n", "coins", "unknown icon 'coins'"),
    ("display:\n  values:\n    suit:\n      oros: {colour: \"red; x\"}\n", "\"red",
     "is not #rgb, #rrggbb or a colour name"),
    ("display:\n  values:\n    suit:\n      oros: {font: big}\n", "font",
     "unknown key 'font' in the look of suit 'oros'"),
    ("display:\n  values:\n    suit:\n      oros: {name: [a, b]}\n", "[a, b]", "name of suit 'oros' is text"),
    ("display:\n  values:\n    rank: [1, 2]\n", "[1, 2]", "display.values.rank maps each value to its look"),
    ("display: [corner]\n", "[corner]", "'display' is a mapping"),
    ("display:\n  click: {tak: suit}\n", "tak", "'tak' is not a move"),
])
def test_a_mistake_in_display_is_a_located_error(tmp_path, display, pointed, message):
    error = error_at(tmp_path, display, pointed)
    assert message in error.message


def test_display_needs_cards(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("game: g\ndisplay: {corner: rank}\nrules:\n  - name: stop\n    then: 'end game'\n",
                    encoding="utf-8")
    with pytest.raises(RuleErrors, match="declares none"):
        load_program(path)


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.stem)
def test_shipped_displays_describe_values_their_decks_have(path):
    program = shipped_program(path.stem)
    display = program.display
    game = Game(program, 1)
    deck = all_cards(game.memory.vars)
    assert display["corner"] is not None, "every shipped game says what a card's corner shows"
    for attribute, looks in display["values"].items():
        present = {getattr(card, attribute) for card in deck}
        missing = [value for value, _ in looks if value not in present]
        # a value only some params bring in (the chips' 12 colours, the joker) may be absent from the default deck
        assert len(missing) < len(looks), f"{attribute}: none of {missing} is in the deck"
    if display["suit"]:
        described = {value for value, _ in display["values"].get(display["suit"], [])}
        assert all(getattr(card, display["suit"]) in described | {None} for card in deck)
