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


@pytest.mark.parametrize("program", ["growing", "manners", "waltz"])
def test_binding_only_the_facts_asserted_fires_as_binding_everything_again(tmp_path, monkeypatch, program):
    from pathlib import Path

    from naipes.runtime.agenda import Agenda
    if program in ("manners", "waltz"):  # (Waltz: joins of three and four facts, looked up both ways)
        path = Path(__file__).resolve().parent.parent / "examples" / program / f"{program}.yaml"
        compiled = load_program(path, {"guests": "16"} if program == "manners" else {"regions": "2"})
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


@pytest.mark.parametrize("strategy", ["declaration", "depth"])
def test_what_a_rule_keeps_asleep_and_looks_up_changes_nothing_it_fires(tmp_path, monkeypatch, strategy):
    """A rule whose guard stops holding keeps whether each activation's condition held, and re-evaluates, as
    facts come and go, only the activations whose lookups they may answer otherwise (Agenda.retract, Lookups):
    Miss Manners fires the same without either (every activation evaluated again on waking and at every change)."""
    from pathlib import Path

    from naipes.runtime.agenda import Agenda
    path = Path(__file__).resolve().parent.parent / "examples" / "manners" / "manners.yaml"
    text = path.read_text().replace("strategy: depth", f"strategy: {strategy}")
    if strategy == "declaration":  # (the depth-first search by declaration: the newest seating bound first)
        text = text.replace('"s in seated"', '"s in reversed(seated)"')
    compiled = load_program(write_rules(tmp_path, text, "manners.yaml"), {"guests": "12"})

    def firings() -> list:
        game = Game(compiled, 0)
        records: list[dict] = []
        game.listeners.append(records.append)
        game.start()
        return [(r["rule"], r["binding"]) for r in records if r["type"] == "fire"]
    kept = firings()
    retract = Agenda.retract
    monkeypatch.setattr(Agenda, "retract", lambda self, mask, asleep=False: retract(self, mask))
    monkeypatch.setattr(Agenda, "_touched", lambda self, rule, changes: None)
    assert firings() == kept and len(kept) > 100


# ---------------------------------------------------------------- issue 36: D1-D4, each with CLIPS 6.4's answer
TWO_A = """
game: modified
strategy: {strategy}
facts:
  a: [x, y]
  b: [x, y]
setup: |
  assert a(x=0, y=0)
  assert a(x=1, y={second})
{more}
rules:
"""


@pytest.mark.parametrize("strategy", ["depth", "recency", "breadth"])
def test_a_modified_fact_is_a_new_activation_under_every_dynamic_strategy(tmp_path, strategy):
    # D1: the second firing crashed (KeyError in the agenda's stamps, kept by rule and position); CLIPS: n m n
    game, fired = run(tmp_path, TWO_A.format(strategy=strategy, second=1, more="") + """
  - name: m
    for: "v in a"
    when: "v.y == 0"
    then: "modify v(y=1)"
  - name: n
    for: "v in a"
    when: "v.y == 1"
""")
    order = [(rule, binding.get("v")) for rule, binding in fired]
    if strategy == "breadth":  # the oldest first: m on a(0, 0), n on a(1, 1), then n on the modified fact
        assert [rule for rule, _ in order] == ["m", "n", "n", "fin"]
    else:
        assert [rule for rule, _ in order] == ["n", "m", "n", "fin"]
    assert sorted(tuple(f) for f in game.memory.vars["a"]) == [(0, 1), (1, 1)]


@pytest.mark.parametrize("strategy, order", [("breadth", "m m o m m"), ("depth", "o m m m m")])
def test_an_activation_of_a_modified_fact_is_as_old_as_the_modify(tmp_path, strategy, order):
    # D2: stamps kept by (rule, position) gave the modified fact's activation an old stamp: breadth fired
    # m m m m o; CLIPS fires as below
    game, fired = run(tmp_path, TWO_A.format(strategy=strategy, second=0, more="  assert b(x=0, y=0)") + """
  - name: m
    for: "v in a"
    when: "v.y < 2"
    then: "modify v(y=v.y + 1)"
  - name: o
    for: "w in b"
""")
    assert [rule for rule, _ in fired] == order.split() + ["fin"]


def test_a_negated_lookup_that_stays_true_keeps_the_activation_refracted(tmp_path):
    # D3: asserting a fact of kind c re-evaluated the rule and lost its refraction, though `not exists(c, y=1)`
    # stayed true: it fired until max_firings; CLIPS fires it once
    game, fired = run(tmp_path, """
game: negated
max_firings: 50
facts:
  c: [x, y]
state:
  n: 0
rules:
  - name: r
    when: "not exists(c, y=1)"
    then: |
      assert c(x=n, y=0)
      n = n + 1
""")
    assert [rule for rule, _ in fired] == ["r", "fin"] and game.memory.vars["n"] == 1


def test_a_lookup_that_becomes_true_again_makes_a_new_activation(tmp_path):
    # the other side of D3: the negated test goes false (a c with y=1 comes) and true again (it goes): r fires again
    game, fired = run(tmp_path, """
game: negated
facts:
  c: [x, y]
state:
  n: 0
rules:
  - name: r
    when: "not exists(c, y=1)"
    then: "n = n + 1"
  - name: add
    priority: -1
    when: "n == 1"
    then: |
      assert c(x=0, y=1)
      n = 2
  - name: drop
    priority: -1
    for: "f in c"
    when: "n == 2"
    then: "retract f"
""")
    assert [rule for rule, _ in fired] == ["r", "add", "drop", "r", "fin"] and game.memory.vars["n"] == 3


def test_a_modify_that_changes_nothing_does_nothing(tmp_path):
    # D4: it asserted a new fact, so the rule fired again until max_firings; CLIPS 6.4 does nothing
    game, fired = run(tmp_path, """
game: unchanged
max_firings: 50
facts:
  c: [x, y]
setup: |
  assert c(x=0, y=0)
rules:
  - name: r
    for: "f in c"
    then: "modify f(y=0)"
""")
    assert [rule for rule, _ in fired] == ["r", "fin"]
    assert [tuple(f) for f in game.memory.vars["c"]] == [(0, 0)]


def test_a_modify_that_makes_a_duplicate_leaves_the_other_fact(tmp_path):
    # CLIPS 6.4: the modified fact goes and the equal one stays (with its time tag); no fact is added
    game, fired = run(tmp_path, """
game: duplicate
facts:
  c: [x, y]
setup: |
  assert c(x=0, y=5)
  assert c(x=0, y=1)
rules:
  - name: r
    for: "f in c"
    when: "f.y == 1"
    then: "modify f(y=5)"
""")
    assert [tuple(f) for f in game.memory.vars["c"]] == [(0, 5)]
    assert [rule for rule, _ in fired] == ["r", "fin"]


def steps_to_the_end(path, n: int, made: str) -> int:
    """The steps a game of `path` with param n spends, played to its end; it must have made the facts `made`
    numbered 0 to n - 1."""
    from naipes.library.limits import GAME_STEPS
    game = Game(load_program(path, {"n": str(n)}), 0)
    game.start()
    assert game.over and sorted(f.k for f in game.memory.vars[made]) == list(range(n))
    memory = game.memory
    return GAME_STEPS - memory.left + memory.allowance - memory.steps


# A chain of facts, each new one matched with one of many facts there before by an equality of their fields.
CHAIN = """
game: chain
params:
  n: {type: int, default: 100, min: 1, max: 1000}
facts:
  item: [k]
  mark: [k]
setup: |
  for i in range(n):
      assert item(k=n - 1 - i)
  assert mark(k=0)
rules:
  - name: mark_the_next
    for: ["i in item", "m in mark"]
    when: "m.k == i.k and i.k + 1 < n"
    then: "assert mark(k=i.k + 1)"
"""


@pytest.mark.parametrize("when", ["m.k == i.k and i.k + 1 < n", "i.k + 1 < n and i.k == m.k"])
def test_a_fact_just_asserted_looks_up_its_partners_among_the_earlier_variables_facts(tmp_path, when):
    """Binding a new fact to a later variable looks up the earlier variable's facts by the equality between
    them (Join.back) instead of going over them all: the steps grow with the facts, not with their square."""
    path = write_rules(tmp_path, CHAIN.replace("m.k == i.k and i.k + 1 < n", when), "chain.yaml", FIN)
    few, many = steps_to_the_end(path, 100, "mark"), steps_to_the_end(path, 400, "mark")
    # 4 times the facts: about 5.7 times the steps (a fact asserted copies its kind's collection, a step per 64
    # facts), where going over every item for each new mark took 16 times (20,474 and 323,714 steps)
    assert many < 8 * few


# Each new mark reaches an item through a link (a mark's k is a link's `to`, its `source` an item's k), and
# that item's reaching asserts the next mark: from item n - 1 down to item 0.
LINKED = """
game: linked
params:
  n: {type: int, default: 100, min: 1, max: 1000}
facts:
  item: [k]
  link: [source, to]
  mark: [k]
  reached: [k]
setup: |
  for i in range(n):
      assert item(k=i)
      assert link(source=i, to=n - 1 - i)
  assert mark(k=0)
rules:
  - name: reach
    for: ["i in item", "l in link", "m in mark"]
    when: "l.source == i.k and m.k == l.to and not exists(reached, k=i.k)"
    then: |
      assert reached(k=i.k)
      if i.k > 0:
          assert mark(k=n - i.k)
"""


def test_a_fact_just_asserted_reaches_the_first_variables_facts_through_the_ones_between(tmp_path):
    """A new mark is joined to the links by its key, and from those links to the items by theirs: neither the
    links nor the items are all gone over (the item is the first variable, two equalities away from the mark)."""
    path = write_rules(tmp_path, LINKED, "linked.yaml", FIN)
    few, many = steps_to_the_end(path, 100, "reached"), steps_to_the_end(path, 400, "reached")
    assert many < 8 * few  # (as above: 16 times if each new mark went over every item)
