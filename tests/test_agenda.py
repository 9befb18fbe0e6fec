"""The forward-chaining semantics of the agenda (docs/writing.md, "The engine").

Every test writes a small rule file to tmp_path, runs it and observes the
order of firings, either through a listener on ``game.listeners`` (``fire``
records) or through a state variable ``log`` that the rules append to.
"""
from __future__ import annotations

import random

import pytest

from naipes import load_program
from naipes.errors import GameError
from naipes.runtime.agenda import Agendas, memory_local, new_agenda
from naipes.runtime.game import Game

from helpers import RULESETS, shipped_program, write_rules

FICHAS = str(RULESETS / "fichas.yaml")

# A rule that ends the game once everything else has settled: without it a
# rule file with no decision would be "stuck" (an error), which is tested apart.
FIN = """
  - name: fin
    priority: -100
    when: "True"
    then: "end game"
"""


def load(tmp_path, text, params=None, name="rules.yaml"):
    body, fin, tail = text.partition(FIN)  # FIN is written at the rules' own indentation
    return load_program(write_rules(tmp_path, body, name, fin + tail), params or {})


def run(tmp_path, text, params=None, seed=0):
    """Load and start a game; returns it and every record its listener saw."""
    game = Game(load(tmp_path, text, params), seed)
    records: list[dict] = []
    game.listeners.append(records.append)
    game.start()
    return game, records


def fired(records):
    return [r["rule"] for r in records if r["type"] == "fire"]


def firings(records, rule):
    """The bindings a rule fired with, in order."""
    return [r["binding"] for r in records if r["type"] == "fire" and r["rule"] == rule]


# ------------------------------------------------------------------ priority
def test_higher_priority_fires_first_whatever_the_declaration_order(tmp_path):
    game, records = run(tmp_path, """
        game: salience
        state:
          log: "()"
        rules:
          - name: low
            priority: -5
            when: "True"
            then: "log = log + ('low',)"
          - name: zero
            when: "True"
            then: "log = log + ('zero',)"
          - name: high
            priority: 7.5
            when: "True"
            then: "log = log + ('high',)"
          - name: mid
            priority: 3
            when: "True"
            then: "log = log + ('mid',)"
    """ + FIN)
    assert fired(records) == ["high", "mid", "zero", "low", "fin"]
    assert game.memory.vars["log"] == ("high", "mid", "zero", "low")
    first = next(r for r in records if r["type"] == "fire")
    assert first["priority"] == 7.5
    assert first["binding"] == {}
    # the record explains what it was preferred over
    assert any(o.startswith("mid") and "priority" in o for o in first["over"])
    assert game.over


# ---------------------------------------------------------------- strategies
# After three setter rules of high priority have fired, three rules of equal
# priority are active. They differ in each respect a strategy looks at:
#
#   rule  declared  tests in its condition     activated (its data changed)
#   X     1st       2  (a > 0 and a < 9)       1st  (set_a fires first)
#   Y     2nd       3  (b > 0 and ... != 5)    3rd  (set_b fires last)
#   Z     3rd       1  (c > 0)                 2nd
#
# and P, with priority 1, is simple, declared last and activated first: it
# fires before X, Y, Z under every strategy, since priority comes first.
STRATEGY_RULES = """
game: strategies
{strategy}
state:
  a: 0
  b: 0
  c: 0
  log: "()"
rules:
  - name: X
    when: "a > 0 and a < 9"
    then: "log = log + ('X',)"
  - name: Y
    when: "b > 0 and b < 9 and b != 5"
    then: "log = log + ('Y',)"
  - name: Z
    when: "c > 0"
    then: "log = log + ('Z',)"
  - name: P
    priority: 1
    when: "a > 0"
    then: "log = log + ('P',)"
  - name: set_a
    priority: 30
    when: "a == 0"
    then: "a = 1"
  - name: set_c
    priority: 20
    when: "c == 0"
    then: "c = 1"
  - name: set_b
    priority: 10
    when: "b == 0"
    then: "b = 1"
""" + FIN


def test_a_program_of_more_than_62_rules_fires_as_one_agenda_would(tmp_path):
    """Past 62 rules the agenda has one agenda per word of 62 (Agendas): 150 rules pending at once fire by
    priority then declaration across the words, and a 130-rule chain declared out of order fires in step order
    (each write of `step` wakes the words with rules guarded by its old or new value)."""
    rng = random.Random(11)
    priorities = [rng.choice((-2, 0, 0, 1, 5)) for _ in range(150)]
    rules = "".join(f"""
          - name: r{i}
            priority: {priorities[i]}
            when: "True"
            then: "log = log + ({i},)"
""" for i in range(150))
    game, _ = run(tmp_path, f"""
        game: many
        state:
          log: "()"
        rules:{rules}""" + FIN)
    assert type(game.agenda).__name__ == "Agendas" and len(game.program.matchings) == 3
    assert list(game.memory.vars["log"]) == sorted(range(150), key=lambda i: (-priorities[i], i))
    order = list(range(130))
    rng.shuffle(order)
    chain = "".join(f"""
          - name: c{i}
            when: "step == {i}"
            then: "step = {i + 1}"
""" for i in order)
    _, records = run(tmp_path, f"""
        game: chain
        state:
          step: 0
        rules:{chain}""" + FIN)
    assert fired(records) == [f"c{i}" for i in range(130)] + ["fin"]


@pytest.mark.parametrize("strategy, order", [
    (None, "XYZ"),              # the default is declaration order
    ("declaration", "XYZ"),     # earlier in the file first
    ("specificity", "YXZ"),     # more tests first: 3, 2, 1
    ("simplicity", "ZXY"),      # fewer tests first: 1, 2, 3
    ("recency", "YZX"),         # most recently activated first
    ("depth", "YZX"),           # alias of recency
    ("breadth", "XZY"),         # least recently activated first
])
def test_conflict_strategy_orders_rules_of_equal_priority(tmp_path, strategy, order):
    text = STRATEGY_RULES.format(strategy=f"strategy: {strategy}" if strategy else "")
    game, records = run(tmp_path, text)
    assert fired(records)[:3] == ["set_a", "set_c", "set_b"]
    assert game.memory.vars["log"] == ("P",) + tuple(order)


SIMULTANEOUS = """
game: simultaneous
players: 3
strategy: {strategy}
state:
  a: 0
rules:
  - name: X
    when: "a > 0"
    then: "pass"
  - name: Y
    when: "a > 0"
    then: "pass"
  - name: B
    for: "p in players"
    when: "a > 0"
    then: "pass"
  - name: set_a
    priority: 5
    when: "a == 0"
    then: "a = 1"
""" + FIN


@pytest.mark.parametrize("strategy", [
    "declaration",
    "breadth",
    "recency",
])
def test_activations_made_by_one_write_tie_and_fall_back_to_declaration_then_binding_order(tmp_path, strategy):
    # X, Y and B's three bindings all become true when set_a writes a: their
    # data changed at the same moment, so only the last tie-breaks apply
    game, records = run(tmp_path, SIMULTANEOUS.format(strategy=strategy))
    order = [(r["rule"], r["binding"].get("p")) for r in records if r["type"] == "fire"]
    assert order == [("set_a", None), ("X", None), ("Y", None), ("B", "P1"), ("B", "P2"), ("B", "P3"), ("fin", None)]


def test_unknown_strategy_is_a_rule_file_error(tmp_path):
    from naipes.errors import RuleErrors
    with pytest.raises(RuleErrors, match="strategy"):
        load(tmp_path, STRATEGY_RULES.format(strategy="strategy: lex_typo"))


def test_bindings_of_one_rule_fire_in_binding_order(tmp_path):
    game, records = run(tmp_path, """
        game: binding_order
        players: 4
        rules:
          - name: each
            for: "p in reversed(players)"
            when: "True"
            then: "pass"
    """ + FIN)
    # the tie-break after declaration order is the order of the 'for' collection
    assert [b["p"] for b in firings(records, "each")] == ["P4", "P3", "P2", "P1"]


# ---------------------------------------------------------------- refraction
def test_refraction_a_true_condition_fires_once_until_what_it_reads_changes(tmp_path):
    game, records = run(tmp_path, """
        game: refraction
        state:
          x: 1
          other: 0
          step: 0
          log: "()"
        rules:
          - name: r
            when: "x > 0"
            then: "log = log + ('r',)"
          - name: noise        # writes only what r does not read
            priority: -1
            when: "step == 0"
            then: |
              step = 1
              other = 5
          - name: same         # writes x with the value it already has: no change
            priority: -2
            when: "step == 1"
            then: |
              step = 2
              x = 1
          - name: off_on       # x changes, and is set back, in one action
            priority: -3
            when: "step == 2"
            then: |
              step = 3
              x = 7
              x = 1
    """ + FIN)
    assert fired(records) == ["r", "noise", "same", "off_on", "r", "fin"]


def test_refraction_reactivates_after_the_condition_was_false_and_true_again(tmp_path):
    game, records = run(tmp_path, """
        game: refraction2
        state:
          x: 1
          step: 0
        rules:
          - name: r
            when: "x > 0"
            then: "pass"
          - name: down
            priority: -1
            when: "step == 0"
            then: |
              step = 1
              x = 0
          - name: up
            priority: -2
            when: "step == 1"
            then: |
              step = 2
              x = 1
    """ + FIN)
    assert fired(records) == ["r", "down", "up", "r", "fin"]


def test_a_rule_changing_what_it_reads_fires_again_while_true(tmp_path):
    game, records = run(tmp_path, """
        game: counter
        state:
          n: 0
        rules:
          - name: count
            when: "n < 4"
            then: "n = n + 1"
    """ + FIN)
    assert fired(records) == ["count"] * 4 + ["fin"]
    assert game.memory.vars["n"] == 4


# -------------------------------------------------------------------- phases
def test_phases_are_agenda_groups(tmp_path):
    game, records = run(tmp_path, """
        game: phases
        phases: [deal, play, scoring]
        state:
          rounds: 0
        rules:
          - name: in_deal
            phase: deal
            when: "True"
            then: "pass"
          - name: deal_done
            phase: deal
            priority: -1
            when: "True"
            then: "phase = 'play'"
          - name: in_play
            phase: play
            when: "True"
            then: "pass"
          - name: cond_play        # the phase as a leading test of the condition
            when: "phase == 'play' and rounds >= 0"
            then: "pass"
          - name: in_scoring       # the game never reaches this phase
            phase: scoring
            priority: 50
            when: "True"
            then: "pass"
          - name: play_done
            phase: play
            priority: -1
            when: "rounds < 1"
            then: |
              rounds = rounds + 1
              phase = 'deal'
          - name: fin
            phase: play
            priority: -5
            when: "rounds >= 1"
            then: "end game"
    """)
    assert game.memory.vars["phase"] == "play"
    # phase starts as the first; switching activates the new phase's rules;
    # re-entering a phase activates its rules again
    assert fired(records) == ["in_deal", "deal_done", "in_play", "cond_play", "play_done",
                              "in_deal", "deal_done", "in_play", "cond_play", "fin"]
    assert "in_scoring" not in fired(records)


def test_rules_of_an_inactive_phase_never_fire_even_with_high_priority(tmp_path):
    game, records = run(tmp_path, """
        game: phases2
        phases: [one, two]
        state:
          x: 0
        rules:
          - name: two_rule
            phase: two
            priority: 100
            when: "x >= 0"
            then: "x = x - 100"
          - name: one_rule
            phase: one
            when: "x < 3"
            then: "x = x + 1"
    """ + FIN)
    assert fired(records) == ["one_rule"] * 3 + ["fin"]
    assert game.memory.vars["x"] == 3


# ---------------------------------------------------------------- for: bindings
def test_for_gives_one_activation_per_binding_and_a_list_gives_the_cross_product(tmp_path):
    game, records = run(tmp_path, """
        game: bindings
        players: 3
        rules:
          - name: each
            priority: 2
            for: "p in players"
            when: "True"
            then: "announce 'hello', p.name"
          - name: pairs
            priority: 1
            for: ["p in players", "q in players"]
            when: "True"
            then: "pass"
          - name: distinct
            for: ["p in players", "q in players"]
            when: "p != q"
            then: "pass"
    """ + FIN)
    names = ["P1", "P2", "P3"]
    assert firings(records, "each") == [{"p": n} for n in names]
    announced = [r["text"] for r in records if r["type"] == "announce"]
    assert announced == ["hello P1", "hello P2", "hello P3"]
    assert firings(records, "pairs") == [{"p": a, "q": b} for a in names for b in names]
    assert firings(records, "distinct") == [{"p": a, "q": b} for a in names for b in names if a != b]


PER_PLAYER = """
game: per_player
players: 3
state:
  step: 0
player_state:
  score: 0
rules:
  - name: watch
    for: "p in players"
    when: "{condition}"
    then: "pass"
  - name: bump
    priority: -1
    when: "step == 0"
    then: |
      step = 1
      players[1].score += 2
""" + FIN


def test_changing_one_players_variable_reactivates_only_that_players_binding(tmp_path):
    game, records = run(tmp_path, PER_PLAYER.format(condition="p.score >= 0"))
    fires = [b["p"] for b in firings(records, "watch")]
    # each fires once at the start; after P2's score changes, only P2's again
    assert fires == ["P1", "P2", "P3", "P2"]
    assert [p.score for p in game.memory.players] == [0, 2, 0]


def test_a_bound_rule_reading_every_players_variable_reacts_for_every_binding(tmp_path):
    game, records = run(tmp_path, PER_PLAYER.format(condition="sum(q.score for q in players) >= 0"))
    assert sorted(b["p"] for b in firings(records, "watch")) == ["P1", "P1", "P2", "P2", "P3", "P3"]


def test_a_comprehension_variable_shadowing_the_bound_one_reads_every_player(tmp_path):
    # the same condition as above with the comprehension variable named p:
    # it does not depend on the bound p at all, so it is true for all three
    # bindings as soon as the total reaches 1
    game, records = run(tmp_path, PER_PLAYER.format(condition="sum(p.score for p in players) >= 1"))
    assert sorted(b["p"] for b in firings(records, "watch")) == ["P1", "P2", "P3"]


def test_a_domain_change_does_not_refire_unchanged_bindings(tmp_path):
    game, records = run(tmp_path, """
        game: domain
        cards:
          attributes: {rank: [1, 2, 3]}
          start: table
        zones:
          table: {visibility: public}
          gone: {visibility: public}
        state:
          step: 0
        rules:
          - name: each
            for: "c in table"
            when: "c.rank > 0"
            then: "pass"
          - name: drop
            priority: -1
            when: "step == 0"
            then: |
              step = 1
              move top(table) to gone
    """ + FIN)
    assert [b["c"] for b in firings(records, "each")] == ["1", "2", "3"]


# ---------------------------------------------------------------------- joins
JOIN = """
game: join
players: 6
player_state:
  level: 0
state:
  rounds: 0
rules:
  - name: propagate
    priority: 1
    {binding}
    then: "q.level = p.level"
  - name: bump
    when: "rounds < 3"
    then: |
      rounds += 1
      players[0].level += 1
""" + FIN


def test_a_join_in_its_plain_cross_product_form_binds_only_the_pairs_its_tests_allow(tmp_path):
    # q.index == p.index + 1 reads nothing a game changes: it is tested while binding, by lookup, so the rule
    # has one activation per neighbouring pair (5 of 36), and fires as the hand-filtered form does
    cross = 'for: ["p in players", "q in players"]\n    when: "q.index == p.index + 1 and p.level > q.level"'
    filtered = 'for: ["p in players", "q in players[p.index + 1:p.index + 2]"]\n    when: "p.level > q.level"'
    game, records = run(tmp_path, JOIN.format(binding=cross))
    assert len(game.agenda.bindings[0].acts) == 5
    hand_game, hand_records = run(tmp_path, JOIN.format(binding=filtered))
    assert [(r["rule"], r["binding"]) for r in records if r["type"] == "fire"] == \
        [(r["rule"], r["binding"]) for r in hand_records if r["type"] == "fire"]
    assert [p.level for p in game.memory.players] == [3] * 6


def test_a_test_made_while_binding_keeps_the_error_it_would_raise(tmp_path):
    # `xs[5] > 0` fails (xs has 2 items) before `q.index == 1` is reached: tested early, the error must still
    # be the condition's, not a silently dropped binding
    text = JOIN.replace("state:\n  rounds: 0", "state:\n  rounds: 0\n  xs: '[1, 2]'").format(
        binding='for: ["p in players", "q in players"]\n    when: "xs[5] > 0 and q.index == 1"')
    with pytest.raises(GameError, match="IndexError"):
        run(tmp_path, text)


def test_an_activation_keeps_its_refraction_while_its_values_are_bound_wherever_they_stand(tmp_path):
    # pairs (p, c) with c in p's hand: P1's first card leaves (its other card moves to the front of the hand)
    # and a card is dealt to P2: only the new pair fires
    game, records = run(tmp_path, """
        game: places
        players: 2
        cards:
          attributes: {rank: [1, 2, 3, 4, 5, 6]}
          start: stock
        zones:
          stock: {visibility: public}
          hand: {per_player: true, visibility: public}
          gone: {visibility: public}
        state:
          step: 0
        setup: |
          deal 2 from stock to [p.hand for p in players]
        rules:
          - name: each
            for: ["p in players", "c in p.hand"]
            when: "c.rank > 0"
            then: "pass"
          - name: take
            priority: -1
            when: "step == 0"
            then: |
              step = 1
              move players[0].hand[0] to gone
              move top(stock) to players[1].hand
    """ + FIN)
    fires = [(b["p"], b["c"]) for b in firings(records, "each")]
    dealt = game.memory.players[1].hand[-1].name
    assert len(fires) == 5 and len(set(fires)) == 5 and fires[-1] == ("P2", dealt)


# --------------------------------------------------------------------- guards
def test_a_rule_guarded_by_equality_fires_when_the_value_is_reached(tmp_path):
    game, records = run(tmp_path, """
        game: guard
        state:
          x: 0
          log: "()"
        rules:
          - name: three
            when: "x == 3"
            then: "log = log + (x,)"
          - name: inc
            priority: -1
            when: "x < 5"
            then: "x = x + 1"
    """ + FIN)
    assert fired(records) == ["inc", "inc", "inc", "three", "inc", "inc", "fin"]
    assert game.memory.vars["log"] == (3,)


def test_a_guarded_rule_with_more_tests_fires_when_the_other_test_becomes_true(tmp_path):
    game, records = run(tmp_path, """
        game: guard2
        state:
          x: 0
          y: 0
          word: "'a'"
        rules:
          - name: both
            when: "x == 3 and y > 0"
            then: "pass"
          - name: text
            when: "word == 'b' and x == 3"
            then: "pass"
          - name: inc
            priority: -1
            when: "x < 3"
            then: "x = x + 1"
          - name: set_y
            priority: -2
            when: "y == 0"
            then: "y = 1"
          - name: set_word
            priority: -3
            when: "y == 1"
            then: "word = 'b'"
    """ + FIN)
    assert fired(records) == ["inc", "inc", "inc", "set_y", "both", "set_word", "text", "fin"]


def test_a_guarded_rule_fires_again_when_its_value_is_left_and_reached_again(tmp_path):
    game, records = run(tmp_path, """
        game: guard3
        state:
          x: 3
          step: 0
        rules:
          - name: three
            when: "x == 3"
            then: "pass"
          - name: away
            priority: -1
            when: "step == 0"
            then: |
              step = 1
              x = 4
          - name: back
            priority: -2
            when: "step == 1"
            then: |
              step = 2
              x = 3
    """ + FIN)
    assert fired(records) == ["three", "away", "back", "three", "fin"]


WIGGLE = """
game: wiggle
state:
  x: 3
  step: 0
rules:
  - name: watch
    when: "{condition}"
    then: "pass"
  - name: wiggle       # x changes and is set back within one action
    priority: -1
    when: "step == 0"
    then: |
      step = 1
      x = 4
      x = 3
""" + FIN


@pytest.mark.parametrize("condition", [
    "x >= 3 and x <= 3",
    "3 == x",
    "x == 3",
])
def test_writing_and_restoring_a_variable_in_one_action_reactivates_its_readers(tmp_path, condition):
    game, records = run(tmp_path, WIGGLE.format(condition=condition))
    assert fired(records) == ["watch", "wiggle", "watch", "fin"]


def test_a_leading_equality_followed_by_or_is_not_a_guard(tmp_path):
    game, records = run(tmp_path, """
        game: guard_or
        state:
          x: 0
          y: 0
          z: 0
        rules:
          - name: either
            when: "x == 3 and y > 0 or z > 0"
            then: "pass"
          - name: set_z
            priority: 5
            when: "z == 0"
            then: "z = 1"
    """ + FIN)
    assert fired(records) == ["set_z", "either", "fin"]


@pytest.mark.parametrize("when", ["", "when: true"])
def test_a_rule_without_a_condition_string_is_always_true(tmp_path, when):
    game, records = run(tmp_path, f"""
        game: no_when
        rules:
          - name: always
            {when}
            then: "end game"
    """)
    assert fired(records) == ["always"]
    assert game.over


# ------------------------------------------------------------- loops, stuck
def test_a_runaway_cycle_raises_a_game_error_naming_the_rules(tmp_path):
    program = load(tmp_path, """
        game: runaway
        max_firings: 50
        state:
          a: 0
        rules:
          - name: ping
            when: "a == 0"
            then: "a = 1"
          - name: pong
            when: "a == 1"
            then: "a = 0"
    """ + FIN)
    game = Game(program, 0)
    with pytest.raises(GameError) as info:
        game.start()
    message = str(info.value)
    assert "ping" in message and "pong" in message
    assert "the last 51 firings" in message  # (the limit is under the 64 firings watched: all of this run's)


def test_the_firing_limit_counts_firings_between_two_decisions(tmp_path):
    # 8 firings of inc and one of asker per decision: under the limit of 10
    # each time, though the game fires more than 40 rules in all
    game, records = run(tmp_path, """
        game: limit
        max_firings: 10
        state:
          x: 0
          target: 8
          made: 0
        moves:
          go:
            then: |
              target = target + 8
              made = made + 1
        rules:
          - name: inc
            when: "x < target"
            then: "x = x + 1"
          - name: asker
            priority: -1
            when: "x >= target and made < 5"
            then: "ask players[0] to go"
          - name: fin
            priority: -1
            when: "x >= target and made >= 5"
            then: "end game"
    """)
    while not game.over:
        game.apply(game.options()[0])
    assert game.memory.vars["x"] == 48
    assert fired(records).count("inc") == 48


def test_the_firing_limit_is_read_from_the_rule_file(tmp_path):
    text = """
        game: limit2
        max_firings: {limit}
        state:
          x: 0
        rules:
          - name: inc
            when: "x < 30"
            then: "x = x + 1"
    """ + FIN
    run(tmp_path, text.format(limit=40))  # 31 firings: fine
    with pytest.raises(GameError, match="inc"):
        run(tmp_path, text.format(limit=20))


def test_no_activation_and_no_decision_is_a_stuck_game(tmp_path):
    program = load(tmp_path, """
        game: stuck
        phases: [opening, middle]
        state:
          n: 0
        rules:
          - name: only
            phase: opening
            when: "n == 0"
            then: "n = 1"
    """)
    game = Game(program, 0)
    with pytest.raises(GameError, match="stuck") as info:
        game.start()
    assert "opening" in str(info.value)


def test_a_move_after_which_nothing_asks_is_a_stuck_game(tmp_path):
    game, records = run(tmp_path, """
        game: stuck_after_move
        state:
          moved: "False"
        moves:
          go:
            then: "moved = True"
        rules:
          - name: asker
            when: "not moved"
            then: "ask players[0] to go"
    """)
    assert [o.label for o in game.options()] == ["go"]
    with pytest.raises(GameError, match="stuck"):
        game.apply(game.options()[0])


# ----------------------------------------------------------- decisions, end
def test_the_decision_is_put_only_after_the_rules_settle(tmp_path):
    game, records = run(tmp_path, """
        game: settle
        players: 2
        state:
          n: 1
          done: "False"
        moves:
          pick:
            choose: "k in range(n)"
            label: "'pick ' + str(k)"
            then: "done = True"
        rules:
          - name: asker
            priority: 10
            when: "not done"
            then: "ask players[1] to pick"
          - name: later        # lower priority, fires after the ask
            when: "True"
            then: "n = 3"
          - name: fin
            when: "done"
            then: "end game winner players[1]"
    """)
    assert fired(records) == ["asker", "later"]
    assert game.to_move.index == 1
    # the options are those of the settled state (n = 3), not of the ask's
    assert [o.label for o in game.options()] == ["pick 0", "pick 1", "pick 2"]
    decision = game.decision()
    assert decision.player == 1 and decision.moves == ("pick",)
    game.apply(game.options()[2])
    assert fired(records)[-1] == "fin"
    assert game.over and game.winners == (1,)


def test_end_game_stops_firing(tmp_path):
    game, records = run(tmp_path, """
        game: ending
        players: 2
        state:
          log: "()"
        rules:
          - name: ender
            priority: 5
            when: "True"
            then: "end game winner players[1]"
          - name: after
            when: "True"
            then: "log = log + ('after',)"
    """)
    assert fired(records) == ["ender"]
    assert game.over and game.winners == (1,) and game.to_move is None
    assert game.memory.vars["log"] == ()
    assert game.payoffs() == [0, 1]


def test_end_game_in_a_move_stops_firing(tmp_path):
    game, records = run(tmp_path, """
        game: resign
        players: 2
        state:
          moves_made: 0
        moves:
          resign:
            then: |
              moves_made = moves_made + 1
              end game winner next_player(player)
        rules:
          - name: asker
            priority: 1
            when: "moves_made == 0"
            then: "ask players[0] to resign"
          - name: after_move
            when: "moves_made > 0"
            then: "pass"
    """)
    game.apply(game.options()[0])
    assert game.over and game.winners == (1,)
    assert "after_move" not in fired(records)


# ------------------------------------------------------------- clone and key
def _fichas(chips, seed=0):
    game = Game(shipped_program("fichas", chips=chips), seed)
    game.start()
    return game


def _option(game, label):
    found = [o for o in game.options() if o.label == label]
    assert found, f"{label} not among {[o.label for o in game.options()]}"
    return found[0]


def _snapshot(game):
    memory = game.memory
    return (sorted(c.name for c in memory.vars["table"]), sorted(c.name for c in memory.vars["removed"]),
            memory.vars["turn"].name, memory.vars["last_taker"], game.to_move.name,
            [o.label for o in game.options()], game.key())


def test_a_clone_is_independent_of_the_original():
    game = _fichas("R1 R2 B1 G3")
    before = _snapshot(game)
    clone = game.clone()
    assert clone.key() == game.key()
    clone.apply(_option(clone, "colour R"))
    assert _snapshot(game) == before
    assert sorted(c.name for c in clone.memory.vars["table"]) == ["B1", "G3"]
    assert clone.to_move.name == "P2" and game.to_move.name == "P1"
    assert clone.key() != game.key()
    # and the other way round: moving in the original leaves the clone alone
    after_clone = _snapshot(clone)
    game.apply(_option(game, "value 1"))
    assert _snapshot(clone) == after_clone
    assert sorted(c.name for c in game.memory.vars["table"]) == ["G3", "R2"]


def test_clones_draw_what_the_original_would_and_an_agents_generator_stays_the_agents():
    """A clone's generator starts where the original's is (clones share one snapshot of it); drawing in
    one leaves the others alone. A generator given to a memory (an agent's) is never swapped for a copy."""
    import random
    game = _fichas("R1 R2 B1 G3")
    first, second = game.clone(), game.clone()
    drawn = [first.memory.rng.random() for _ in range(3)]
    assert [second.memory.rng.random() for _ in range(3)] == drawn
    assert [game.memory.rng.random() for _ in range(3)] == drawn
    later = game.clone()
    assert later.memory.rng.random() == game.memory.rng.random() != drawn[0]
    agents = random.Random(5)
    game.memory.rng = agents
    game.clone()
    assert game.memory.rng is agents


def test_a_clone_has_its_own_players_and_per_player_zones(tmp_path):
    game, _ = run(tmp_path, """
        game: cloning
        players: 2
        cards:
          attributes: {rank: [1, 2, 3, 4]}
          start: deck
        zones:
          deck: {visibility: public}
          hand: {per_player: true, visibility: public}
        player_state:
          score: 0
        state:
          turn: "players[0]"
        moves:
          draw:
            then: |
              move top(deck) to player.hand
              player.score += 10
              turn = next_player(player)
        rules:
          - name: asker
            when: "len(deck) > 0"
            then: "ask turn to draw"
          - name: fin
            when: "len(deck) == 0"
            then: "end game"
    """)
    clone = game.clone()
    clone.apply(clone.options()[0])
    assert [p.score for p in clone.memory.players] == [10, 0]
    assert [len(p.hand) for p in clone.memory.players] == [1, 0]
    assert len(clone.memory.vars["deck"]) == 3
    assert clone.memory.vars["turn"] is clone.memory.players[1]
    # the original is untouched
    assert [p.score for p in game.memory.players] == [0, 0]
    assert [len(p.hand) for p in game.memory.players] == [0, 0]
    assert len(game.memory.vars["deck"]) == 4
    assert game.memory.vars["turn"] is game.memory.players[0]
    assert game.to_move is game.memory.players[0]
    # the clone plays on to the end on its own
    while not clone.over:
        clone.apply(clone.options()[0])
    assert [p.score for p in clone.memory.players] == [20, 20]
    assert not game.over and len(game.memory.vars["deck"]) == 4


CLONE_BINDINGS = """
game: clone_bindings
players: 2
state:
  go: "False"
player_state:
  score: 0
moves:
  start:
    then: "go = True"
rules:
  - name: asker
    when: "not go"
    then: "ask players[0] to start"
  - name: award
    for: "{binding}"
    when: "go"
    then: "{action}"
  - name: fin
    priority: -1
    when: "go"
    then: "end game"
"""


@pytest.mark.parametrize("binding, action", [
    ("p in players", "p.score += 1"),
    ("t in [(p, 1) for p in players]", "t[0].score += t[1]"),
])
def test_rules_firing_in_a_clone_change_only_the_clone(tmp_path, binding, action):
    # the activations are made (and bound) in the original, then fire in the clone
    game, _ = run(tmp_path, CLONE_BINDINGS.format(binding=binding, action=action))
    clone = game.clone()
    clone.apply(clone.options()[0])
    assert clone.over
    assert [p.score for p in clone.memory.players] == [1, 1]
    assert [p.score for p in game.memory.players] == [0, 0]
    assert not game.over


def test_the_key_is_equal_for_transposed_move_orders():
    def after(chips, *labels):
        game = _fichas(chips)
        for label in labels:
            game.apply(_option(game, label))
        return game

    five = "R1 B2 G3 Y4 R4"
    # R then B, or B then R: the same chips left, P1 to move, P2 took last
    assert after(five, "colour R", "colour B").key() == after(five, "colour B", "colour R").key()
    assert after(five, "colour R", "colour B").key() == after(five, "colour R", "value 2").key()
    assert after(five, "value 3", "colour B").key() == after(five, "colour G", "value 2").key()
    # positions that differ (in the chips left, or in who is to move) differ
    four = "R1 R2 B1 G3"
    assert after(four, "colour B", "colour G").key() != after(four, "colour R", "colour G").key()  # R1 R2 / B1
    assert after(four, "colour B", "colour G").key() != after(four, "colour R", "value 3").key()   # R1 R2 / B1
    assert after(four, "colour B").key() != after(four, "colour G").key()  # R1 R2 G3 / R1 R2 B1 (R2 unmatched)
    # the same chips left (B3 G4) with the other player to move
    assert after("R1 R2 B3 G4", "colour R").key() != after("R1 R2 B3 G4", "value 1", "value 2").key()


# ------------------------------------------------------------------ refresh


def test_refresh_fires_a_rule_whose_reads_did_not_change(tmp_path):
    game, records = run(tmp_path, """
        game: refreshed
        state:
          log: "()"
          pokes: 0
        rules:
          - name: ask
            when: "True"
            then: "log = log + ('asked',)"
          - name: poke
            priority: -1
            when: "pokes < 2"
            then: |
              pokes += 1
              refresh ask
    """ + FIN)
    assert game.memory.vars["log"] == ("asked", "asked", "asked")
    assert fired(records) == ["ask", "poke", "ask", "poke", "ask", "fin"]


def test_refresh_of_an_unknown_rule_is_a_located_error(tmp_path):
    from naipes.errors import RuleErrors
    with pytest.raises(RuleErrors) as caught:
        load(tmp_path, """
            game: refreshed
            rules:
              - name: ask
                then: "refresh aks"
        """ + FIN)
    error = caught.value.errors[0]
    assert error.message == "unknown rule 'aks'" and error.hint == "did you mean 'ask'?"
    assert error.location.line == 4  # the line of then: "refresh aks"


def test_a_rule_reading_one_seats_variable_fires_again_when_that_seat_changes_it(tmp_path):
    """`players[0].s` is a read of seat 0's `s`: seat 0 writing it ends the refraction, seat 1 writing it does not."""
    path = tmp_path / "rules.yaml"
    path.write_text("""game: refraction_by_seat
players: 2
player_state:
  s: 0
state:
  step: 0
rules:
  - {name: watch_first, when: "players[0].s >= 0", then: "pass"}
  - {name: change_second, priority: -1, when: "step == 0", then: "step = 1\\nplayers[1].s = 5"}
  - {name: change_first, priority: -2, when: "step == 1", then: "step = 2\\nplayers[0].s = 5"}
  - {name: fin, priority: -100, when: "True", then: "end game"}
""")
    game = Game(load_program(path), 0)
    fired: list[str] = []
    game.listeners.append(lambda record: fired.append(record["rule"]) if record["type"] == "fire" else None)
    game.start()
    assert fired == ["watch_first", "change_second", "change_first", "watch_first", "fin"]


# ----------------------------------------------------------------- lazy start
LAZY = """
game: lazy
cards:
  attributes: {rank: [1, 2, 3]}
  start: table
zones:
  table: {visibility: public}
  gone: {visibility: public}
state:
  step: 0
  log: "()"
rules:
  - name: each_card_once
    priority: 2
    for: "c in table"
    when: "c.rank > step"
    then: "log = log + (c.name,)"
  - name: later_wakes_an_earlier_rule
    when: "step < 2"
    then: |
      step += 1
      move top(table) to gone
  - name: guarded
    priority: 1
    when: "step == 1"
    then: "log = log + ('guarded',)"
  - name: last
    priority: -1
    when: "True"
    then: "log = log + ('last',)"
""" + FIN


def _firings(game: Game, lazy: bool) -> list:
    """Fire the rules of a started game's copy by hand with a lazy or an eager start of a new agenda."""
    memory = game.memory.clone()
    agenda = new_agenda(game.program)
    agenda.start(memory, lazy=lazy)
    fired_ = []
    while not memory.over and (act := agenda.pop_from(memory)) is not None:
        fired_.append((act.rule.name, [getattr(v, "name", v) for v in act.binding]))
        act.rule.action(memory, memory.vars, *memory_local(memory, act.binding))
        agenda.update(memory)
    return fired_


def test_a_lazy_start_fires_what_an_eager_start_fires(tmp_path):
    """A strategy's decision starts its agenda lazily (each rule matched when every rule before it is idle):
    the firings, with their bindings and the rules woken by earlier ones, are those of a full start."""
    game = Game(load(tmp_path, LAZY), 0)
    eager = _firings(game, lazy=False)
    assert eager == _firings(game, lazy=True)
    # the top card (3) goes first; step 1 wakes card 2 again (2 > 1) and the guarded rule before the next move
    assert eager == [("each_card_once", ["1"]), ("each_card_once", ["2"]), ("each_card_once", ["3"]),
                     ("later_wakes_an_earlier_rule", []), ("each_card_once", ["2"]), ("guarded", []),
                     ("later_wakes_an_earlier_rule", []), ("last", []), ("fin", [])]


# ------------------------------------------------------------ a search's pause
PAUSE = """
game: pause
players: 1
state: {moves_made: 0, points: 0, dealt: 0}
player_state: {pts: 0}
phases: [play, score, deal]
moves:
  go: {then: "moves_made += 1"}
rules:
  - {name: ask, phase: play, when: "moves_made < 2", then: "ask players[0] to go"}
  - {name: to_score, phase: play, when: "moves_made == 2", then: "phase = 'score'"}
  - {name: score, phase: score, priority: 2, then: "points += 10\\nplayers[0].pts += 1"}
  - {name: bonus, phase: score, priority: 1, when: "points == 10", then: "points += 1"}
  - {name: leave, phase: score, then: "phase = 'deal'"}
  - {name: deal, phase: deal, then: "dealt += 1\\nmoves_made = 0\\nphase = 'play'"}
"""


@pytest.mark.parametrize("watched", ["points", "pts"])  # a variable, a player's variable
def test_a_search_pauses_at_the_end_of_the_phase_in_which_the_watched_names_changed(tmp_path, watched):
    """pause_after(names): once a rule (or a move) in some phase writes one of the names, the rules of that
    phase all fire, and none of the next phase: a playout scored by those names ends before the next deal."""
    game = Game(load(tmp_path, PAUSE), 0)
    game.start()
    search = game.clone()
    search.pause_after(frozenset({watched}))
    for world in (game, search):
        world.apply(world.options()[0])
        assert not world.paused and world.to_move is not None  # (nothing watched written yet)
        world.apply(world.options()[0])
    V = search.memory.vars
    assert search.paused and (V["phase"], V["points"], V["dealt"]) == ("deal", 11, 0)
    assert search.to_move is None and not search.over
    V = game.memory.vars
    assert not game.paused and (V["phase"], V["points"], V["dealt"]) == ("play", 11, 1)
    assert game.to_move is not None


def test_a_search_watches_the_names_it_is_given_at_every_seat_of_its_own_table():
    """pause_after's watched keys (kept for the program's later worlds): the names, and each name at each seat of
    the game watched, whatever was watched before, at tables of other sizes or for other names."""
    program = shipped_program("pocha")
    names = program.evaluation_reads
    for players, watched in ((4, names), (3, names), (5, frozenset({"trump"})), (4, names), (3, frozenset())):
        game = Game(program, 1, players=players)
        game.pause_after(watched)
        assert game.watched == watched | {(name, seat) for name in watched for seat in range(players)}
        assert game.memory.halt == (watched, game.watched)


@pytest.mark.parametrize("watched, made", [("points", 2), ("pts", 2), ("moves_made", 1), (None, 5)])
def test_a_playout_in_one_loop_plays_as_apply_does_and_stops_where_the_search_looks(tmp_path, watched, made):
    """play_out (a search's playout) makes the moves apply makes, and stops after the first move that
    writes a watched name, itself or through the rules it sets off (the search then scores the position),
    or after `most` moves."""
    game = Game(load(tmp_path, PAUSE), 0)
    game.start()
    worlds = [game.clone() for _ in range(3)]
    for world in worlds:
        if watched:
            world.pause_after(frozenset({watched}))
    stepped, looped, short = worlds
    for _ in range(5):
        if not (stepped.paused or stepped.watched_written):
            stepped.apply(stepped.options()[0])
    first = lambda offered: (offered[0][0], offered[0][1][0])  # noqa: E731  (the first option, as options()[0])
    assert looped.play_out(first, 5) == made
    assert (repr(looped.memory.vars), looped.memory.players[0].pts, looped.paused, looped.decisions,
            looped.firings) == (repr(stepped.memory.vars), stepped.memory.players[0].pts, stepped.paused,
                                stepped.decisions, stepped.firings)
    assert looped.paused == (watched in ("points", "pts"))
    assert short.play_out(first, 1) == 1 and short.memory.vars["moves_made"] == 1


@pytest.mark.parametrize("rule_file", ["pocha.yaml", "tute_cabrero.yaml", "chinchon.yaml"])
def test_the_names_a_game_looks_up_are_interned_as_the_generated_code_names_are(rule_file):
    """The memory's variables, its zones' keys, the agenda's reactions and a game's moves are keyed by the one
    str of each name that Python keeps, as the generated code's constants are: a lookup is found by identity.
    Keys the engine makes as it plays (a phase entered) included: a game is played first on the same program."""
    import sys
    played = Game(shipped_program(rule_file.removesuffix(".yaml")), seed=2)
    played.start()
    for _ in range(40):
        if played.result() is None and played.options():
            played.apply(played.options()[0])
    game = Game(played.program, seed=1)
    game.start()
    plan = (game.agenda.parts[0] if isinstance(game.agenda, Agendas) else game.agenda).plan
    names = [*game.memory.vars, *(zone.key if isinstance(zone.key, str) else zone.key[0] for zone in game.memory.zones),
             *(key for key in plan.readers if isinstance(key, str)), *plan.globals, *plan.attrs, *game.runs]
    assert names and all(sys.intern(name) is name for name in names)


def _fields_set(source: str, cls: str) -> dict[str, set[tuple[str, str]]]:
    """Each attribute the methods of `cls` assign (on `self` or on `new`), with the (method, object) that do."""
    import ast
    found: dict[str, set[tuple[str, str]]] = {}
    node = next(n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == cls)
    for method in (m for m in node.body if isinstance(m, ast.FunctionDef)):
        for statement in ast.walk(method):
            targets = statement.targets if isinstance(statement, ast.Assign) else \
                [statement.target] if isinstance(statement, (ast.AugAssign, ast.AnnAssign)) else []
            for target in (t for top in targets for t in ast.walk(top)):
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id in ("self", "new"):
                    found.setdefault(target.attr, set()).add((method.name, target.value.id))
    return found


def test_a_copy_sets_every_field_so_a_game_filled_in_again_is_a_new_copy():
    # a search fills its last world in again (Game.clone and Memory.clone with `into`): right only while the copy
    # sets every field a game or a memory has
    from helpers import ROOT
    game = _fields_set((ROOT / "engine/runtime/game.py").read_text(), "Game")
    assert {name for name, where in game.items() if ("clone", "new") not in where} == set()
    memory = _fields_set((ROOT / "engine/runtime/memory.py").read_text(), "Memory")
    made = {name for name, where in memory.items() if ("__init__", "self") in where}
    shared_or_begun = {name for name, where in memory.items() if {("_share", "self"), ("_begin", "self")} & where}
    copied = {name for name, where in memory.items() if ("_copy", "new") in where}
    assert set(memory) == made | shared_or_begun and made - shared_or_begun <= copied
