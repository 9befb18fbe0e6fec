"""Facts (issue 14): kinds of fact declared under `facts:`, asserted, modified and retracted by actions, matched
by rules with `for:` (one activation per fact or combination), looked up with `exists(...)`.

The semantics are CLIPS's: a fact asserted again with the same values is not added twice; `modify` retracts
the fact and asserts a new one (the newest); an activation lives as long as the facts it binds.
"""
from __future__ import annotations

import pytest

from naipes import load_program
from naipes.errors import GameError, RuleError, RuleErrors
from naipes.runtime.game import Game

from helpers import write_rules

FIN = """
  - name: fin
    priority: -100
    when: "True"
    then: "end game"
"""


def run(tmp_path, text: str):
    game = Game(load_program(write_rules(tmp_path, text, "facts.yaml", FIN)), 0)
    records: list[dict] = []
    game.listeners.append(records.append)
    game.start()
    return game, [(r["rule"], r["binding"]) for r in records if r["type"] == "fire"]


def errors(tmp_path, text: str) -> list[str]:
    with pytest.raises((RuleError, RuleErrors)) as caught:
        load_program(write_rules(tmp_path, text, "facts.yaml", FIN))
    found = caught.value.errors if isinstance(caught.value, RuleErrors) else [caught.value]
    return [e.message for e in found]


ITEMS = """
game: facts
facts:
  item: [name, weight]
  pair: [a, b]
state:
  log: "()"
setup: |
  for i in range(4):
      assert item(name=i, weight=i % 2)
  assert item(name=0, weight=0)
rules:
"""


def test_facts_are_asserted_once_each_and_matched_one_activation_per_combination(tmp_path):
    game, fired = run(tmp_path, ITEMS + """
  - name: pair_up
    for: ["x in item", "y in item"]
    when: "x.weight == y.weight and x.name < y.name"
    then: "assert pair(a=x.name, b=y.name)"
""")
    items = game.memory.vars["item"]
    assert [(f.name, f.weight) for f in items] == [(0, 0), (1, 1), (2, 0), (3, 1)]  # item(0, 0) once
    assert [(f.a, f.b) for f in game.memory.vars["pair"]] == [(0, 2), (1, 3)]
    assert [rule for rule, _ in fired] == ["pair_up", "pair_up", "fin"]
    assert game.view(None)["state"]["pair"] == [{"a": 0, "b": 2}, {"a": 1, "b": 3}]


def test_retract_and_modify_make_the_collection_change_and_modify_asserts_a_new_fact(tmp_path):
    game, fired = run(tmp_path, ITEMS + """
  - name: drop_heavy
    for: "x in item"
    when: "x.weight == 1"
    then: |
      retract x
      log = log + (x.name,)
  - name: lighten
    priority: -1
    for: "x in item"
    when: "x.name == 0"
    then: "modify x(name=10)"
""")
    assert game.memory.vars["log"] == (1, 3)
    # the modified fact is a new one, the newest; the rule saw the old one only (item 10 does not match)
    assert [(f.name, f.weight) for f in game.memory.vars["item"]] == [(2, 0), (10, 0)]
    assert [rule for rule, _ in fired] == ["drop_heavy", "drop_heavy", "lighten", "fin"]


def test_an_activation_lives_as_long_as_its_facts(tmp_path):
    # each item fires `seen` once: asserting and retracting other items makes none of them fire again
    game, fired = run(tmp_path, ITEMS.replace("state:\n  log: \"()\"", "state:\n  log: \"()\"\n  step: 0") + """
  - name: seen
    for: "x in item"
    then: "log = log + (x.name,)"
  - name: churn
    priority: -1
    when: "step < 2"
    then: |
      step += 1
      assert item(name=10 + step, weight=0)
      retract item[0]
""")
    assert sorted(game.memory.vars["log"]) == [0, 1, 2, 3, 11, 12]


def test_exists_looks_a_fact_up_by_some_of_its_fields(tmp_path):
    game, fired = run(tmp_path, ITEMS + """
  - name: unpaired
    for: "x in item"
    when: "not exists(pair, a=x.name) and not exists(pair, b=x.name)"
    then: "assert pair(a=x.name, b=x.name)"
""")
    assert [(f.a, f.b) for f in game.memory.vars["pair"]] == [(0, 0), (1, 1), (2, 2), (3, 3)]


def test_a_fact_holds_plain_values_and_retract_takes_a_fact_that_is_there(tmp_path):
    with pytest.raises(GameError, match="plain values"):
        run(tmp_path, ITEMS.replace("setup: |", "setup: |\n  assert pair(a=players, b=1)"))
    with pytest.raises(GameError, match="not asserted"):
        run(tmp_path, ITEMS.replace("  assert item(name=0, weight=0)",
                                    "  retract item[0]\n  retract item(name=0, weight=0)"))


@pytest.mark.parametrize("line, message", [
    ("assert item", "'assert' makes a fact"),
    ("assert log(name=1)", "'assert' makes a fact"),
    ("retract 3", "'retract' takes a fact, not a int"),
    ("modify item[0](size=3)", "a fact 'item' has no field 'size'"),
    ("modify item[0]", "'modify' changes fields of a fact"),
    ("item = ()", "'item' holds facts"),
    ("log = exists(item, size=1)", "a fact 'item' has no field 'size'"),
    ("log = exists(log, a=1)", "exists takes a kind of fact"),
])
def test_facts_are_written_only_as_facts(tmp_path, line, message):
    found = errors(tmp_path, ITEMS.replace("  assert item(name=0, weight=0)", f"  {line}"))
    assert any(message in m for m in found), found


def test_a_kind_of_fact_needs_a_name_of_its_own_and_may_name_its_fields_as_it_likes(tmp_path):
    found = errors(tmp_path, ITEMS.replace("  pair: [a, b]", "  pair: [a, b]\n  seating: [x]"))
    assert any("shares its name" in m for m in found), found
    # fields are reached behind the engine's prefix: one named as a fact's own methods are (kind, fields) is the
    # fact's field, and the fact still is a fact
    game, fired = run(tmp_path, ITEMS.replace("  pair: [a, b]", "  pair: [kind, fields]") + """
  - name: pair_up
    for: ["x in item", "y in item"]
    when: "x.weight == y.weight and x.name < y.name"
    then: "assert pair(kind=x.name, fields=y.name)"
""")
    assert [(f.get("kind"), f.get("fields")) for f in game.memory.vars["pair"]] == [(0, 2), (1, 3)]
    assert all(f.kind == "pair" for f in game.memory.vars["pair"])


GROWING = """
game: growing
facts:
  item: [a, b, n]
  seen: [x, y]
state:
  n: 0
rules:
  - name: pair
    for: ["x in item", "y in item"]
    when: "x.a == y.b and not exists(seen, x=x.n, y=y.n)"
    then: "assert seen(x=x.n, y=y.n)"
  - name: grow
    priority: -1
    when: "n < 40"
    then: |
      n += 1
      assert item(a=n % 5, b=n % 3, n=n)
      if n % 7 == 0:
          retract item[0]
      if n % 11 == 0:
          modify item[-1](a=(n + 1) % 5)
"""


@pytest.mark.parametrize("program", ["growing", "manners"])
def test_binding_only_the_facts_asserted_fires_as_binding_everything_again(tmp_path, monkeypatch, program):
    from pathlib import Path

    from naipes.runtime.agenda import Agenda
    if program == "manners":
        path = Path(__file__).resolve().parent.parent / "examples" / "manners" / "manners.yaml"
        compiled = load_program(path, {"guests": "16"})
    else:
        compiled = load_program(write_rules(tmp_path, GROWING, "growing.yaml", FIN))

    def firings() -> list:
        game = Game(compiled, 0)
        records: list[dict] = []
        game.listeners.append(records.append)
        game.start()
        return [(r["rule"], r["binding"]) for r in records if r["type"] == "fire"]
    extended = firings()
    monkeypatch.setattr(Agenda, "extend", lambda self, rule, memory: None)  # every change binds rules whole
    assert firings() == extended and len(extended) > 40
