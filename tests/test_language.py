"""The rule language: expressions, statements and the sandbox.

Every test writes a small rule file into a temporary folder, loads it with
``load_program`` and runs it with ``Game``.  Expected values follow from
Python's semantics (the language is documented as Python-like) or from the
rules written in the test, never from running the engine first.
"""
from __future__ import annotations

import operator
import random
import textwrap

import pytest

from naipes import load_program
from naipes.errors import GameError, NaipesError, RuleError, RuleErrors
from naipes.library.builtins import index_of, pick, shuffle_in_place
from naipes.runtime.game import Game

from helpers import write_rules

# A rule that ends the game once everything else has settled, so that a file
# with only state and setup is not reported as stuck.
FINISH = """
rules:
  - name: finish
    priority: -100
    when: "True"
    then: "end game"
"""


def write(tmp_path, text: str, name: str = "g.yaml"):
    """Write a rule file; an indented text is dedented (a trailing FINISH is kept as is)."""
    if text.endswith(FINISH):
        return write_rules(tmp_path, text[:-len(FINISH)], name, FINISH)
    return write_rules(tmp_path, text, name)


def load(tmp_path, text: str, params: dict | None = None):
    return load_program(write(tmp_path, text), params or {})


def run(tmp_path, text: str, params: dict | None = None, seed: int = 0, listeners=()) -> Game:
    game = Game(load(tmp_path, text, params), seed)
    game.listeners.extend(listeners)
    game.start()
    return game


def yaml_str(expr: str) -> str:
    """`expr` as a single-quoted YAML scalar."""
    return "'" + expr.replace("'", "''") + "'"


def value_of(tmp_path, expr: str, extra: str = "") -> object:
    """The value of `expr` used as the initial value of a state variable."""
    game = run(tmp_path, f"game: t\n{extra}\nstate:\n  v: {yaml_str(expr)}\n{FINISH}")
    return game.memory.vars["v"]


def action_value(tmp_path, actions: str, extra: str = "") -> object:
    """The value the setup `actions` leave in state variable `v` (initially None)."""
    body = textwrap.indent(textwrap.dedent(actions).strip("\n"), "  ")
    game = run(tmp_path, f"game: t\n{extra}\nstate:\n  v: 'None'\nsetup: |\n{body}\n{FINISH}")
    return game.memory.vars["v"]


def compile_errors(tmp_path, text: str) -> list[RuleError]:
    with pytest.raises((RuleErrors, RuleError)) as info:
        load(tmp_path, text)
    exc = info.value
    return exc.errors if isinstance(exc, RuleErrors) else [exc]


# ============================================================== expressions
@pytest.mark.parametrize("expr, expected", [
    # arithmetic and precedence
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("2 * -3", -6),
    ("-3 + 5", 2),
    ("7 // 2", 3),
    ("-7 // 2", -4),
    ("7 % 3", 1),
    ("7 / 2", 3.5),
    ("10 - 4 - 3", 3),          # left-associative
    ("1.5 * 2", 3.0),
    ("'ab' * 2", "abab"),
    ("'ab' + 'cd'", "abcd"),
    # comparison chains are chains, not nested comparisons
    ("1 < 2 < 3", True),
    ("1 < 3 < 2", False),       # (1 < 3) < 2 would be True
    ("3 > 2 == 2", True),       # (3 > 2) == 2 would be False
    ("1 == 1 != 2", True),
    ("2 <= 2 >= 1", True),
    # membership
    ("2 in [1, 2, 3]", True),
    ("4 in [1, 2, 3]", False),
    ("4 not in [1, 2]", True),
    ("2 not in [1, 2]", False),
    ("'b' in 'abc'", True),
    ("'k' in {'k': 1}", True),
    ("not 2 in [2]", False),
    # boolean logic
    ("not True or True", True),
    ("True and not False", True),
    ("False or False", False),
    ("1 > 2 or 3 > 2 and 2 > 1", True),
    # conditional expressions, nested to the right
    ("'x' if 1 > 2 else 'y'", "y"),
    ("'a' if False else 'b' if False else 'c'", "c"),
    ("'a' if True else 1 // 0", "a"),   # the other branch is not evaluated
    # comprehensions
    ("[x * x for x in range(5) if x % 2 == 0]", [0, 4, 16]),
    ("[a * 10 + b for a in range(2) for b in range(3)]", [0, 1, 2, 10, 11, 12]),
    ("[a for a, b in [(1, 2), (3, 4)]]", [1, 3]),
    ("{x % 3 for x in range(10)}", {0, 1, 2}),
    ("{k: k * k for k in range(3)}", {0: 0, 1: 1, 2: 4}),
    # generator arguments
    ("sum(x for x in range(5))", 10),
    ("sum(x for x in range(5) if x > 2)", 7),
    ("any(x > 3 for x in [1, 5])", True),
    ("all(x > 3 for x in [1, 5])", False),
    ("max(len(w) for w in ['a', 'abc', 'ab'])", 3),
    # lambdas as keys
    ("sorted([3, 1, 2], key=lambda v: -v)", [3, 2, 1]),
    ("sorted(['bb', 'a', 'ccc'], key=lambda s: len(s), reverse=True)", ["ccc", "bb", "a"]),
    ("sorted([(2, 'b'), (1, 'z'), (2, 'a')], key=lambda p: p[1])", [(2, "a"), (2, "b"), (1, "z")]),
    ("min([3, 1, 2], key=lambda v: -v)", 3),
    ("max([], default=7)", 7),
    # slices and indexes
    ("'abcdef'[1:3]", "bc"),
    ("'abcdef'[:2]", "ab"),
    ("'abcdef'[4:]", "ef"),
    ("[1, 2, 3, 4][-2:]", [3, 4]),
    ("[1, 2, 3][:]", [1, 2, 3]),
    ("'abc'[-1]", "c"),
    ("[[1, 2], [3, 4]][1][0]", 3),
    # literals
    ("{'a': 1, 'b': 2}['b']", 2),
    ("{}", {}),
    ("{1, 2, 2}", {1, 2}),
    ("len({1, 1, 1})", 1),
    ("(1, 2)", (1, 2)),
    ("(1,)", (1,)),
    ("()", ()),
    ("[]", []),
    ("None", None),
    ("\"it's\"", "it's"),
    ("'a\\'b'", "a'b"),
    # the documented built-ins
    ("len('abc') + int('4') + abs(-2)", 9),
    ("str(12) + 'x'", "12x"),
    ("round(2.567, 1)", 2.6),
    ("reversed([1, 2, 3])", [3, 2, 1]),
    ("list('ab')", ["a", "b"]),
    ("tuple([1, 2])", (1, 2)),
    ("set([1, 1, 2])", {1, 2}),
    ("bool(0)", False),
    ("enumerate(['a', 'b'], 1)", [(1, "a"), (2, "b")]),
    ("zip([1, 2], 'ab')", [(1, "a"), (2, "b")]),
    ("count([0, 1, 2, '', 'x'])", 3),
    ("index_of([5, 6, 7], 7)", 2),
    ("split('a b  c')", ["a", "b", "c"]),
    ("split('a,b', ',')", ["a", "b"]),
    ("range(2, 8, 3)", [2, 5]),
])
def test_expression_values(tmp_path, expr, expected):
    value = value_of(tmp_path, expr)
    assert value == expected
    assert type(value) is type(expected)


def test_an_expression_may_span_lines(tmp_path):
    text = """
        game: t
        state:
          v: |
            [x + 1
             for x in range(3)
             if x != 1]
        """ + FINISH
    assert run(tmp_path, text).memory.vars["v"] == [1, 3]


def test_params_are_constants_in_expressions_and_can_be_overridden(tmp_path):
    text = """
        game: t
        params:
          n: {type: int, default: 3}
          word: {type: str, default: ab}
        state:
          v: "n * 2"
          w: "word + word"
        """ + FINISH
    game = run(tmp_path, text)
    assert (game.memory.vars["v"], game.memory.vars["w"]) == (6, "abab")
    game = run(tmp_path, text, params={"n": "5", "word": "z"})
    assert (game.memory.vars["v"], game.memory.vars["w"]) == (10, "zz")


def test_user_functions_call_each_other_and_recurse(tmp_path):
    extra = """
functions:
  "double(a)": "a * 2"
  "quad(a)": "double(double(a))"
  "fact(n)": "1 if n <= 1 else n * fact(n - 1)"
  "pair(a, b)": "[a, b]"
"""
    assert value_of(tmp_path, "[quad(3), fact(5), pair(1, 'x')]", extra) == [12, 120, [1, "x"]]


def test_functions_written_as_statements_compute_with_let_if_for_and_return(tmp_path):
    extra = """
functions:
  "sign(n)": |
    if n > 0:
        return 1
    elif n < 0:
        return -1
    return 0
  "total(xs)": |
    let t = 0
    for v in xs:
        t += v
    return t
  "first_even(xs)": |
    for v in xs:
        if v % 2 == 0:
            return v
    return None
"""
    assert value_of(tmp_path, "[sign(-4), sign(0), sign(9), total([1, 2, 3]), first_even([3, 5, 8, 10])]",
                    extra) == [-1, 0, 1, 6, 8]


@pytest.mark.parametrize("body, message", [
    ("let a = 1\n    v = 2\n    return a", "a function cannot assign 'v'"),
    ("let a = 1\n    announce a\n    return a", "a function cannot announce"),
    ("let a = 1\n    if a > 0:\n        return a", "can end without a value"),
    ("if True:\n        return 1\n    else:\n        let b = 2", "can end without a value"),
    ("return random()", "'random' is random"),
])
def test_a_function_body_that_writes_or_may_not_return_is_a_located_error(tmp_path, body, message):
    errors = compile_errors(tmp_path, f"game: t\nstate:\n  v: 0\nfunctions:\n  \"bad()\": |\n    {body}\n{FINISH}")
    assert any(message in e.message and e.location.line >= 6 for e in errors), [str(e) for e in errors]


def test_return_outside_a_function_is_a_located_error(tmp_path):
    errors = compile_errors(tmp_path, f"game: t\nsetup: |\n  return 1\n{FINISH}")
    assert errors[0].message == "'return' belongs in a function's body" and errors[0].location.line == 3


def test_comprehension_variables_do_not_leak_or_clobber_state(tmp_path):
    # `x` inside the comprehension is its own local; the state variable keeps its value.
    text = """
        game: t
        state:
          x: 100
          v: "[x for x in range(3)]"
          w: "x + 1"
        """ + FINISH
    game = run(tmp_path, text)
    assert game.memory.vars["v"] == [0, 1, 2]
    assert game.memory.vars["x"] == 100
    assert game.memory.vars["w"] == 101


def test_cards_expose_their_attributes_id_and_name(tmp_path):
    text = """
        game: t
        cards:
          attributes: {suit: [o, c], rank: [1, 2]}
          tables:
            points: {of: rank, values: {1: 11}, default: 0}
          name: "c.suit + str(c.rank)"
          start: deck
        zones:
          deck: {}
        state:
          names: "[c.name for c in deck]"
          ids: "[c.id for c in deck]"
          points: "sum(c.points for c in deck)"
          oros: "[c.rank for c in deck if c.suit == 'o']"
        """ + FINISH
    V = run(tmp_path, text).memory.vars
    # every combination of the attributes is one card
    assert sorted(V["names"]) == ["c1", "c2", "o1", "o2"]
    assert sorted(V["ids"]) == [0, 1, 2, 3]
    assert V["points"] == 22  # two cards of rank 1 at 11 points
    assert sorted(V["oros"]) == [1, 2]



def test_min_max_and_sorted_order_cards_by_id_and_players_by_seat(tmp_path):
    text = """
        game: t
        cards:
          attributes: {suit: [o, c], rank: [1, 2]}
          start: deck
        zones:
          deck: {}
        state:
          backwards: "[c.id for c in sorted(reversed(list(deck)))]"
          lowest: "min(c for c in deck if c.rank == 2).id"
          highest: "max(deck).id"
          seats: "[p.index for p in sorted(reversed(players))]"
          last: "max(p for p in players).index"
          pairs: "[(p.index, c.id) for p, c in sorted(zip(reversed(players), list(deck)[:2]))]"
          by_player: "[p.index for p, c in sorted(zip(reversed(players), deck), key=lambda pc: pc[0].index)]"
        """ + FINISH
    V = run(tmp_path, text).memory.vars
    assert V["backwards"] == [0, 1, 2, 3]
    assert V["lowest"] == min(c.id for c in V["deck"] if c.rank == 2)  # (a generator, gone over twice)
    assert (V["highest"], V["seats"], V["last"]) == (3, [0, 1], 1)
    assert (V["pairs"], V["by_player"]) == ([(0, V["deck"][1].id), (1, V["deck"][0].id)], [0, 1])


@pytest.mark.parametrize("expr", ["deck[0] < deck[1]", "max(deck, key=lambda c: c)"])
def test_cards_compared_by_order_is_a_located_error(tmp_path, expr):
    text = """
        game: t
        cards:
          attributes: {suit: [o, c]}
          start: deck
        zones:
          deck: {}
        state:
          before: "EXPR"
        """.replace("EXPR", expr) + FINISH
    with pytest.raises(GameError, match="'(<|>)' not supported"):
        run(tmp_path, text)

# =============================================================== statements
def test_let_assignment_and_augmented_assignment(tmp_path):
    actions = """
        let a = 5
        a += 3
        a -= 1
        a *= 4
        a //= 3
        let b = a
        b = b + 1
        v = [a, b]
    """
    # ((5 + 3 - 1) * 4) // 3 = 28 // 3 = 9
    assert action_value(tmp_path, actions) == [9, 10]


def test_state_and_player_variables_are_assigned(tmp_path):
    text = """
        game: t
        players: 3
        state:
          total: 0
        player_state:
          score: "player.index * 10"
        setup: |
          total = 4
          total += 3
          for p in players:
              p.score += 1
          players[2].score = -1
        """ + FINISH
    game = run(tmp_path, text)
    assert game.memory.vars["total"] == 7
    assert [p.score for p in game.memory.players] == [1, 11, -1]


@pytest.mark.parametrize("start, expected", [(200, "big"), (7, "mid"), (5, "small"), (-1, "small")])
def test_if_elif_else_picks_one_branch(tmp_path, start, expected):
    actions = f"""
        let n = {start}
        if n > 100:
            v = 'big'
        elif n > 5:
            v = 'mid'
        else:
            v = 'small'
    """
    assert action_value(tmp_path, actions) == expected


def test_if_without_else_and_one_line_suites(tmp_path):
    actions = """
        v = 0
        if v == 0: v = 1
        if v == 0:
            v = 99
    """
    assert action_value(tmp_path, actions) == 1


def test_for_loops_nest_and_see_outer_locals(tmp_path):
    actions = """
        let acc = []
        let k = 10
        for i in range(3):
            for j in range(2):
                if i != j:
                    acc = acc + [k * i + j]
        v = acc
    """
    # (i, j) with i != j over i in 0..2, j in 0..1: (0,1) (1,0) (2,0) (2,1)
    assert action_value(tmp_path, actions) == [1, 10, 20, 21]


def test_locals_from_a_block_are_gone_after_it(tmp_path):
    # A `let` inside an if-suite is local to that suite (scopes are restored).
    errors = compile_errors(tmp_path, """
        game: t
        state:
          v: 0
        setup: |
          if True:
              let inner = 1
          v = inner
        """ + FINISH)
    assert any("unknown name 'inner'" in e.message for e in errors)


def test_lambda_in_a_local_can_be_called(tmp_path):
    actions = """
        let f = lambda a, b: a * b + 1
        let g = lambda: 42
        v = [f(3, 4), g()]
    """
    assert action_value(tmp_path, actions) == [13, 42]


DECK = """
game: t
players: 3
cards:
  attributes: {n: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]}
  name: "str(c.n)"
  start: deck
zones:
  deck: {visibility: hidden}
  pile: {}
  hand: {per_player: true}
"""


def test_move_to_a_zone_on_top_and_at_bottom(tmp_path):
    text = DECK + """
setup: |
  move [c for c in deck if c.n % 2 == 0] to pile
  move top(deck) from deck to pile
  move [c for c in deck if c.n == 1] to pile at bottom
""" + FINISH
    V = run(tmp_path, text).memory.vars
    # the deck is built in attribute order 0..9 with 9 on top; after the evens
    # go (in order), the top of the deck is 9; then 1 goes under the pile.
    assert [c.n for c in V["pile"]] == [1, 0, 2, 4, 6, 8, 9]
    assert [c.n for c in V["deck"]] == [3, 5, 7]


def test_cards_moved_to_their_own_zone_go_on_top_or_under_in_turn_and_are_taken_back(tmp_path):
    text = DECK + """
setup: |
  move [c for c in deck if c.n % 3 == 0] to deck
  move [c for c in deck if c.n in [8, 1]] to deck at bottom
""" + FINISH
    game = run(tmp_path, text)
    # 0, 3, 6, 9 leave the deck and land on it in turn; then 1 goes under it, and 8 under 1
    assert [c.n for c in game.memory.vars["deck"]] == [8, 1, 2, 4, 5, 7, 0, 3, 6, 9]
    memory = game.memory
    deck = memory.vars["deck"]
    before = (list(deck), dict(memory.where))
    point = memory.save_point()
    memory.move(list(deck)[:3], deck)
    assert [c.n for c in deck] == [4, 5, 7, 0, 3, 6, 9, 8, 1, 2]
    memory.restore(point)
    assert (list(deck), dict(memory.where)) == before

def test_move_from_the_wrong_zone_is_a_located_game_error(tmp_path):
    text = DECK + """
setup: |
  move top(deck) from pile to hand_of_nobody
""" + FINISH
    # hand_of_nobody does not exist: refused before running
    errors = compile_errors(tmp_path, text)
    assert any("hand_of_nobody" in e.message for e in errors)
    text = DECK + """
setup: |
  move top(deck) from pile to pile
""" + FINISH
    with pytest.raises(GameError) as info:
        run(tmp_path, text)
    assert info.value.location is not None and info.value.location.line == 13


def test_a_deck_is_computed_once_per_set_of_names_unless_it_draws_at_random(tmp_path):
    # the deck is kept per program and player names: later games take the same cards (they never change) and
    # pay the steps the deck took; a deck drawing at random is made afresh for each game
    text = """
game: t
players: 2
cards:
  attributes: {n: "[len(p.name) for p in players] + [7]", s: [a, b]}
  name: "str(c.n) + c.s"
  start: deck
zones:
  deck: {}
""" + FINISH
    program = load(tmp_path, text)
    first, again, named = Game(program, 1), Game(program, 2), Game(program, 3, names=["Ann", "Bartholomew"])
    assert [c.name for c in first.memory.vars["deck"]] == ["2a", "2b", "2a", "2b", "7a", "7b"]
    assert [c.name for c in again.memory.vars["deck"]] == [c.name for c in first.memory.vars["deck"]]
    assert all(map(operator.is_, again.memory.vars["deck"], first.memory.vars["deck"]))
    placed = [[(card.id, slot) for card, slot in game.memory.where.items()] for game in (first, again)]
    assert again.memory.steps == first.memory.steps and placed[0] == placed[1]
    assert [c.name for c in named.memory.vars["deck"]] == ["3a", "3b", "11a", "11b", "7a", "7b"]
    shuffled = Game(load(tmp_path, text.replace('[len(p.name) for p in players] + [7]', 'shuffled(range(30))')), 1)
    decks = [Game(shuffled.program, seed).memory.vars["deck"] for seed in (1, 2, 1)]
    assert [c.n for c in decks[0]] == [c.n for c in decks[2]] != [c.n for c in decks[1]]
    assert not set(map(id, decks[0])) & set(map(id, decks[2]))
    # drawn in a function of the module's own (a reduction's loop: what the compiler found each function draws)
    keyed = "[max(range(30), key=lambda x: random()) for i in range(3)]"
    program = load(tmp_path, text.replace('[len(p.name) for p in players] + [7]', keyed))
    drawn = [[c.n for c in Game(program, seed).memory.vars["deck"]] for seed in (1, 2, 1)]
    assert drawn[0] == drawn[2] != drawn[1]


def test_deal_is_one_card_at_a_time_round_robin(tmp_path):
    text = DECK + """
setup: |
  deal 2 from deck to [p.hand for p in players]
""" + FINISH
    game = run(tmp_path, text)
    # cards come off the top (9, 8, 7, ...) to P1, P2, P3, P1, P2, P3
    assert [[c.n for c in p.hand] for p in game.memory.players] == [[9, 6], [8, 5], [7, 4]]
    assert [c.n for c in game.memory.vars["deck"]] == [0, 1, 2, 3]


@pytest.mark.parametrize("dests, hands, pile, deck", [
    (lambda hands, V: [hands[0], V["pile"], hands[1]], [[9, 6], [7, 4], []], [8, 5], [0, 1, 2, 3]),
    (lambda hands, V: [V["pile"], V["pile"]], [[], [], []], [9, 8, 7, 6], [0, 1, 2, 3, 4, 5]),  # a zone twice
    (lambda hands, V: [V["pile"], V["deck"]], [[], [], []], [9, 8], [0, 1, 2, 3, 4, 5, 6, 7]),  # the source
])
def test_a_deal_to_any_zones_goes_round_robin_and_is_undone(tmp_path, dests, hands, pile, deck):
    # two cards to each zone in turn, off the top of the deck (9, 8, 7, ...): dealing to the deck itself puts
    # a card back on top, which is the next one dealt
    game = run(tmp_path, DECK + FINISH)
    memory, V = game.memory, game.memory.vars
    before = [list(z) for z in memory.zones], dict(memory.where)
    point = memory.save_point()
    memory.deal(2, V["deck"], dests([p.hand for p in memory.players], V))
    assert [[c.n for c in p.hand] for p in memory.players] == hands
    assert ([c.n for c in V["pile"]], [c.n for c in V["deck"]]) == (pile, deck)
    assert all(memory.zones[memory.where[c]] is zone for zone in memory.zones for c in zone)
    memory.restore(point)
    assert ([list(z) for z in memory.zones], dict(memory.where)) == before


def test_deal_more_cards_than_the_zone_holds_is_a_game_error(tmp_path):
    text = DECK + """
setup: |
  deal 4 from deck to [p.hand for p in players]
""" + FINISH
    with pytest.raises(GameError):
        run(tmp_path, text)


def test_shuffle_is_a_permutation_and_reproducible_from_the_seed(tmp_path):
    text = DECK + """
setup: |
  shuffle deck
""" + FINISH
    orders = {seed: [c.n for c in run(tmp_path, text, seed=seed).memory.vars["deck"]] for seed in range(6)}
    for order in orders.values():
        assert sorted(order) == list(range(10))
    # same seed, same order
    assert [c.n for c in run(tmp_path, text, seed=3).memory.vars["deck"]] == orders[3]
    # six seeds do not all give one order (each equal pair has chance 1/10!)
    assert len({tuple(o) for o in orders.values()}) > 1


def test_a_shuffle_draws_as_the_standard_library_shuffle_does():
    """The engine shuffles a random.Random's items itself: the same orders, and the generator left in the same
    state, as random.Random.shuffle; a generator of another class (which may draw otherwise) shuffles its way."""
    for seed in range(40):
        for size in (0, 1, 2, 3, 7, 40, 48, 100):
            ours, theirs = random.Random(seed), random.Random(seed)
            mine, library = list(range(size)), list(range(size))
            shuffle_in_place(ours, mine)
            theirs.shuffle(library)
            assert mine == library
            assert ours.getstate() == theirs.getstate()

    class Reversing(random.Random):
        def shuffle(self, x):
            x.reverse()

    items = list(range(5))
    shuffle_in_place(Reversing(1), items)
    assert items == [4, 3, 2, 1, 0]


def test_a_pick_draws_as_the_standard_library_choice_does():
    """The engine picks among a random.Random's items itself: the same item, and the generator left in the same
    state, as random.Random.choice (so a seeded random player plays as it did); nothing to pick from is the
    library's error; a generator of another class picks its way."""
    for seed in range(40):
        for size in (1, 2, 3, 5, 7, 8, 9, 40, 100, 1000):
            ours, theirs = random.Random(seed), random.Random(seed)
            items = list(range(size))
            assert [pick(ours, items) for _ in range(20)] == [theirs.choice(items) for _ in range(20)]
            assert ours.getstate() == theirs.getstate()
    with pytest.raises(IndexError):
        pick(random.Random(1), [])

    class First(random.Random):
        def choice(self, seq):
            return seq[0]

    assert pick(First(1), [7, 8, 9]) == 7


def test_index_of_finds_what_operator_index_of_finds(tmp_path):
    """index_of searches a list itself, anything else through operator.indexOf: the same index, the first of
    equals, and the same error when the item is not there."""
    game = Game(load_program(write_rules(tmp_path, PICK)), seed=1)
    p1, p2 = game.memory.players
    for items, item in [([p1, p2], p2), ([p2, p1, p2], p2), ((p1, p2), p2), ([True, 1], 1), ([1.0, 1], 1),
                        ([0, "1", 1], 1), ("abc", "c")]:
        assert index_of(items, item) == operator.indexOf(items, item)
    for items, item in [([p1], p2), ([], p1), ([1, 2], 3)]:
        with pytest.raises(ValueError):
            index_of(items, item)


PICK = """
game: pick
players: 2
state:
  picked: "[]"
  turn: "players[0]"
moves:
  pick:
    choose: "n in range(1, 7)"
    legal:
      - evens: "n % 2 == 0 and n not in picked"
      - anything: "n not in picked"
    label: "'pick ' + str(n)"
    then: |
      picked = picked + [n]
      turn = next_player(player)
  stop:
    when: "len(picked) >= 2"
    then: "end game winner player"
rules:
  - name: prompt
    when: "len(picked) < 6"
    then: "ask turn to pick, stop"
"""


def test_ask_offers_the_legal_options_and_apply_plays_one(tmp_path):
    game = run(tmp_path, PICK)
    assert game.to_move.name == "P1"
    # the first cascade step that leaves something decides: the evens
    assert [o.label for o in game.options()] == ["pick 2", "pick 4", "pick 6"]
    assert "evens" in game.explain_illegal("pick", 3)
    game.apply(game.options()[0])                         # P1 picks 2
    assert game.memory.vars["picked"] == [2]
    assert game.to_move.name == "P2"
    assert [o.label for o in game.options()] == ["pick 4", "pick 6"]
    game.apply(game.options()[0])                         # P2 picks 4
    # `stop` is available now (two picks made); pick still offers only 6
    assert [o.label for o in game.options()] == ["pick 6", "stop"]
    game.apply(game.options()[-1])                        # P1 stops and wins
    assert game.over
    assert game.winners == (0,)
    assert game.payoffs() == [1, 0]


def test_a_move_may_offer_lists_and_numbers_with_a_label_of_the_argument_alone(tmp_path):
    text = PICK.replace('choose: "n in range(1, 7)"', 'choose: "n in [[1, 2], 3, [4]]"').replace(
        "label: \"'pick ' + str(n)\"", "label: \"'pick ' + str(n)\"\n    space: \"[[1, 2], 3, [4]]\"").replace(
        '- evens: "n % 2 == 0 and n not in picked"', '- lists: "n != 3 and n not in picked"')
    game = run(tmp_path, text)
    assert [o.label for o in game.options()] == ["pick [1, 2]", "pick [4]"]
    game.apply(game.options()[1])
    assert [(o.label, o.arg) for o in game.options()] == [("pick [1, 2]", [1, 2])]
    game.apply(game.options()[0])
    assert [o.label for o in game.options()] == ["pick 3", "stop"]

def test_options_of_numbers_texts_and_truths_keep_their_own_kind(tmp_path):
    # True equals 1 and 2.0 equals 2: an option made for one is never offered for the other
    text = PICK.replace('choose: "n in range(1, 7)"', 'choose: "n in ([0, 1, 2, \'a\'] if len(picked) % 2 == 0 else '
                        '[False, True, 2.0, \'a\'])"').replace(
        '- evens: "n % 2 == 0 and n not in picked"', '- all: "True"').replace(
        '- anything: "n not in picked"', '- none: "False"').replace(
        "label: \"'pick ' + str(n)\"", "label: \"'pick ' + str(n)\"\n    space: \"[0, 1, 2, 'a']\"")
    game = run(tmp_path, text)
    for _ in range(2):
        for kinds, labels in (((int, int, int, str), ["pick 0", "pick 1", "pick 2", "pick a"]),
                              ((bool, bool, float, str), ["pick False", "pick True", "pick 2.0", "pick a"])):
            options = [o for o in game.options() if o.move == "pick"]
            assert [o.label for o in options] == labels
            assert tuple(o.arg.__class__ for o in options) == kinds
            game.apply(options[-1])


def test_cascade_falls_through_when_a_step_leaves_nothing(tmp_path):
    game = run(tmp_path, PICK)
    for _ in range(3):  # the three evens go first
        game.apply(next(o for o in game.options() if o.move == "pick"))
    assert [o.label for o in game.options() if o.move == "pick"] == ["pick 1", "pick 3", "pick 5"]


def test_ask_needs_a_player(tmp_path):
    # a number is refused while loading; a value of unknown type while running
    text = PICK.replace('then: "ask turn to pick, stop"', 'then: "ask 3 to pick"')
    errors = compile_errors(tmp_path, text)
    assert any("'ask' needs a player, not int" in e.message for e in errors)
    text = PICK.replace('then: "ask turn to pick, stop"', 'then: "ask same(5) to pick"')
    text = text.replace("moves:", 'functions:\n  "same(x)": "x"\nmoves:')
    with pytest.raises(GameError) as info:
        run(tmp_path, text)
    assert "'ask' needs a player" in info.value.message


@pytest.mark.parametrize("ending, winners, payoffs", [
    ("end game winner players[1]", (1,), [0, 1, 0]),
    ("end game winners [players[2], players[0]]", (0, 2), [1, 0, 1]),
    ("end game winners [p for p in players if p.index > 0]", (1, 2), [0, 1, 1]),
    ("end game", (), [0, 0, 0]),
])
def test_end_game_sets_the_winners(tmp_path, ending, winners, payoffs):
    game = run(tmp_path, f"""
        game: t
        players: 3
        rules:
          - name: stop
            when: "True"
            then: "{ending}"
        """)
    assert game.over
    assert game.winners == winners
    assert game.payoffs() == payoffs


def test_result_gives_each_players_payoff(tmp_path):
    game = run(tmp_path, """
        game: t
        players: 3
        player_state:
          score: "player.index * 5"
        result: "player.score - 1"
        rules:
          - name: stop
            when: "True"
            then: "end game winner players[2]"
        """)
    assert game.payoffs() == [-1, 4, 9]


def test_announce_emits_its_parts_joined_by_spaces(tmp_path):
    records = []
    run(tmp_path, """
        game: t
        state:
          n: 3
        setup: |
          announce 'hello', n + 1, 'there'
        """ + FINISH, listeners=[records.append])
    texts = [r["text"] for r in records if r["type"] == "announce"]
    assert texts == ["hello 4 there"]


def test_a_for_binding_gives_one_activation_per_player(tmp_path):
    game = run(tmp_path, """
        game: t
        players: 3
        player_state:
          seen: 0
        rules:
          - name: each
            for: "p in players"
            when: "p.seen == 0"
            then: "p.seen = p.index + 1"
          - name: stop
            priority: -1
            when: "True"
            then: "end game"
        """)
    assert [p.seen for p in game.memory.players] == [1, 2, 3]


def test_priority_decides_which_rule_fires_first(tmp_path):
    game = run(tmp_path, """
        game: t
        state:
          order: "[]"
        rules:
          - name: low
            priority: 1
            when: "'low' not in order"
            then: "order = order + ['low']"
          - name: high
            priority: 5
            when: "'high' not in order"
            then: "order = order + ['high']"
          - name: stop
            priority: -1
            when: "len(order) == 2"
            then: "end game"
        """)
    assert game.memory.vars["order"] == ["high", "low"]


# ================================================================ sandboxing
SANDBOX_BASE = """
game: t
players: 2
cards:
  attributes: {suit: [a, b]}
  start: deck
zones:
  deck: {}
state:
  x: 0
"""


@pytest.mark.parametrize("expr, needle, words", [
    ("open('/etc/passwd')", "open", "unknown name 'open'"),
    ("eval('1')", "eval", "unknown name 'eval'"),
    ("exec('x = 1')", "exec", "unknown name 'exec'"),
    ("getattr(players, 'x')", "getattr", "unknown name 'getattr'"),
    ("setattr(players, 'x', 1)", "setattr", "unknown name 'setattr'"),
    ("globals()", "globals", "unknown name 'globals'"),
    ("vars()", "vars", "unknown name 'vars'"),
    ("type(1)", "type", "unknown name 'type'"),
    ("compile('1', 'f', 'eval')", "compile", "unknown name 'compile'"),
    ("print(1)", "print", "unknown name 'print'"),
    ("input()", "input", "unknown name 'input'"),
    ("object", "object", "unknown name 'object'"),
    ("M", "M", "unknown name 'M'"),           # the generated code's own names
    ("V", "V", "unknown name 'V'"),
    ("B_len", "B_len", "unknown name 'B_len'"),
    ("v_x", "v_x", "unknown name 'v_x'"),
    ("__import__('os')", "__import__", "names starting with '_'"),
    ("__builtins__", "__builtins__", "names starting with '_'"),
    ("_x", "_x", "names starting with '_'"),
    ("players.__class__", "__class__", "attributes starting with '_'"),
    ("players[0]._secret", "_secret", "attributes starting with '_'"),
    ("(lambda: 1).__globals__", "__globals__", "attributes starting with '_'"),
    ("len.__self__", "__self__", "attributes starting with '_'"),
    ("players[0].score", "score", "attribute 'score'"),
    ("[p.score for p in players]", "score", "attribute 'score'"),
    ("[c.rank for c in deck]", "rank", "has no attribute 'rank'"),
    ("deck.cards", "cards", "has no attribute 'cards'"),
    ("len.gi_frame", "gi_frame", "unknown attribute 'gi_frame'"),
    ('"abc".upper()', '"abc"', "only named functions can be called"),
    ("nosuchname + 1", "nosuchname", "unknown name 'nosuchname'"),
])
def test_sandbox_refuses_names_and_attributes(tmp_path, expr, needle, words):
    text = SANDBOX_BASE + f"  v: {yaml_str(expr)}\n" + FINISH
    errors = compile_errors(tmp_path, text)
    assert len(errors) == 1
    error = errors[0]
    assert words in error.message
    # the error points at the offending name in the file
    lines = (tmp_path / "g.yaml").read_text().splitlines()
    assert error.location.line == len(SANDBOX_BASE.strip("\n").splitlines()) + 1
    assert lines[error.location.line - 1][error.location.col - 1:].startswith(needle)


@pytest.mark.parametrize("action, words", [
    ("let _hidden = 1", "names starting with '_'"),
    ("let o = open", "unknown name 'open'"),
    ("players[0]._x = 1", "attributes starting with '_'"),
    ("players[0].__class__ = 1", "attributes starting with '_'"),
    ("undeclared = 1", "'undeclared' is not a state variable"),
    ("limit = 3", "param"),                 # params are read-only
    ("deck = []", "zone"),                  # zones change with move
    ("players = []", "'players' is fixed"),
    ("top(deck).suit = 'b'", "cards are immutable"),
    ("players[0].nothing = 1", "'nothing' is not a per-player variable"),
    ("let len = 3", "already"),
])
def test_sandbox_refuses_assignments(tmp_path, action, words):
    text = SANDBOX_BASE + "params:\n  limit: 2\nsetup: " + yaml_str(action) + "\n" + FINISH
    errors = compile_errors(tmp_path, text)
    assert any(words in e.message for e in errors), [e.message for e in errors]


def test_random_builtins_are_refused_in_conditions_but_allowed_in_actions(tmp_path):
    errors = compile_errors(tmp_path, """
        game: t
        rules:
          - name: r
            when: "randint(1, 6) > 3"
            then: "end game"
        """)
    assert "'randint' is random" in errors[0].message
    game = run(tmp_path, """
        game: t
        state:
          roll: 0
        setup: |
          roll = randint(1, 6)
        """ + FINISH)
    assert 1 <= game.memory.vars["roll"] <= 6


def test_a_builtin_held_in_a_local_can_be_called(tmp_path):
    actions = """
        let f = sorted
        v = f([3, 1, 2])
    """
    assert action_value(tmp_path, actions) == [1, 2, 3]


def test_declared_attribute_names_do_not_reach_python_internals(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    text = f"""
game: t
cards:
  attributes: {{gi_frame: [1, a], f_back: [1, a], f_globals: [1, a], read: [1, a]}}
  start: deck
zones:
  deck: {{}}
state:
  out: "None"
setup: |
  let g = None
  let f = lambda: g.gi_frame.f_back
  let g = (f() for x in [1])
  let frame = list(g)[0]
  let b = frame.f_back.f_globals['__builtins__']
  let op = b['open']
  let fh = op('{secret}')
  let rd = fh.read
  out = rd()
""" + FINISH
    try:
        game = run(tmp_path, text)
    except NaipesError:
        return  # refused: fine
    pytest.fail(f"the rule file ran with access to frames and builtins; it read {game.memory.vars['out']!r}")


def test_a_leading_equality_followed_by_or_does_not_guard_the_rule(tmp_path):
    game = run(tmp_path, """
        game: t
        state:
          x: 0
          z: "True"
        rules:
          - name: r
            when: "x == 1 and False or z"
            then: "end game winner players[0]"
        """)
    assert game.over and game.winners == (0,)


def test_a_leading_equality_guard_still_fires_when_it_holds(tmp_path):
    # The same rule shape with a guard that holds, and one whose guard
    # becomes true later: both must fire.
    game = run(tmp_path, """
        game: t
        state:
          x: 0
        rules:
          - name: bump
            when: "x == 0 and True"
            then: "x = 1"
          - name: win
            when: "x == 1 and True"
            then: "end game winner players[1]"
        """)
    assert game.over and game.winners == (1,)


def test_and_returns_an_operand_like_python(tmp_path):
    assert action_value(tmp_path, "v = ('a' and 'b') + 'c'") == "bc"


def test_or_returns_an_operand_like_python(tmp_path):
    assert action_value(tmp_path, "v = ('' or 'b') + 'c'") == "bc"


def test_a_single_legal_expression_is_a_filter_that_may_leave_nothing(tmp_path):
    # one expression filters; only a list is an obligation cascade (first non-empty step decides)
    from naipes import load_program
    from naipes.runtime.game import Game
    path = tmp_path / "f.yaml"
    path.write_text("""
game: f
players: 1
state:
  n: 0
moves:
  pick:
    choose: "x in [1, 2, 3]"
    legal: "x > 5"
  other:
    choose: "x in [1, 2, 3]"
    legal: ["x > 5", "x == 2"]
rules:
  - name: go
    when: "n == 0"
    then: "ask players[0] to pick, other"
""")
    game = Game(load_program(path), 0)
    game.start()
    assert [(o.move, o.arg) for o in game.options()] == [("other", 2)]
    reason = game.decision().explain_illegal("pick", 1)
    assert "allows none" in reason and "'legal'" in reason


def test_a_move_public_form_is_what_the_others_see(tmp_path):
    """`public:` is how a move reads to the other players; the chooser's label stays in the full record."""
    path = tmp_path / "hide.yaml"
    path.write_text(
        "game: hide\n"
        "cards: {attributes: {n: [1, 2, 3]}, start: stock}\n"
        "zones: {stock: {visibility: hidden}, hand: {per_player: true}, box: {visibility: hidden}}\n"
        "setup: deal 1 from stock to [p.hand for p in players]\n"
        "moves:\n"
        "  hide:\n"
        "    choose: c in player.hand\n"
        "    label: \"'hide ' + c.name\"\n"
        "    public: \"'hide a card'\"\n"
        "    then: |\n"
        "      move c to box\n"
        "      end game\n"
        "rules:\n"
        "  - {name: ask, when: len(box) == 0, then: \"ask players[0] to hide\"}\n")
    program = load_program(path)
    full, public = [], []
    game = Game(program, 1)
    game.listeners.append(full.append)
    game.observers.append(public.append)
    game.start()
    game.apply(game.options()[0])
    [chosen] = [r for r in full if r["type"] == "decision"]
    [seen] = [r for r in public if r["type"] == "decision"]
    assert chosen["choice"].startswith("hide ") and chosen["choice"] != "hide a card"
    assert chosen["public"] == "hide a card"
    assert seen == {"type": "decision", "player": "P1", "move": "hide", "choice": "hide a card"}


@pytest.mark.parametrize("expr, expected", [
    ("None is None", True), ("players[0] is not None", True), ("players[0] is players[0]", True),
    ("players[0] is not players[1]", True), ("first([]) is None", True),
])
def test_is_and_is_not_compare_identity(tmp_path, expr, expected):
    assert value_of(tmp_path, expr) is expected


@pytest.mark.parametrize("expr", ["1 is 1", "'a' is not 'b'", "[] is None", "2 is not None"])
def test_is_with_a_value_literal_is_refused_with_the_operator_to_use(tmp_path, expr):
    with pytest.raises(RuleErrors) as caught:
        value_of(tmp_path, expr)
    assert "compares identity: write" in caught.value.errors[0].message


def test_a_name_that_starts_with_is_is_still_a_name(tmp_path):
    assert value_of(tmp_path, "is_it(2)", "functions:\n  \"is_it(x)\": \"x is not None\"\n") is True


def test_a_variant_removes_a_variable_it_does_not_use(tmp_path):
    (tmp_path / "base.yaml").write_text(
        f"game: base\nstate:\n  kept: 1\n  unused: 2\nplayer_state:\n  bid: 0\n{FINISH}")
    (tmp_path / "v.yaml").write_text("extends: base.yaml\ngame: v\nremove: [unused, bid]\n")
    program = load_program(tmp_path / "v.yaml")
    assert [v.name for v in program.state] == ["kept"] and program.player_state == []
    (tmp_path / "bad.yaml").write_text("extends: base.yaml\ngame: bad\nremove: [unsued]\n")
    with pytest.raises(RuleError) as caught:
        load_program(tmp_path / "bad.yaml")
    assert "no rule, phase step, variable or param named 'unsued'" in caught.value.message
    assert caught.value.hint == "did you mean 'unused'?"


def test_a_variant_removes_a_param_it_does_not_use_and_a_text_still_reading_one_is_an_error_there(tmp_path):
    # a variant for another game keeps none of the base's meaningless params (`naipes info` lists them)
    (tmp_path / "base.yaml").write_text(
        "game: base\nparams:\n  target: {default: 3}\n  bonus: {default: 5}\nstate:\n  goal: target\n"
        f"{FINISH}")
    (tmp_path / "v.yaml").write_text("extends: base.yaml\ngame: v\nremove: [bonus]\n")
    assert list(load_program(tmp_path / "v.yaml").params) == ["target"]
    (tmp_path / "too_much.yaml").write_text("extends: base.yaml\ngame: too_much\nremove: [target]\n")
    with pytest.raises(RuleErrors) as caught:
        load_program(tmp_path / "too_much.yaml")
    error = caught.value.errors[0]
    assert "unknown name 'target'" in error.message
    assert (error.location.file, error.location.line) == (str(tmp_path / "base.yaml"), 6)


@pytest.mark.parametrize("expr, expected", [
    ("f'bid {1 + 2}'", "bid 3"), ("f\"{players[0].name} and {players[1].name}\"", "P1 and P2"),
    ("f'{{braces}} {len(players)}'", "{braces} 2"), ("f'plain'", "plain"), ("f''", ""),
    ("f'{None} {True} {1.5}'", "None True 1.5"),
])
def test_f_strings_write_values_into_text(tmp_path, expr, expected):
    assert value_of(tmp_path, expr) == expected


@pytest.mark.parametrize("expr, message", [
    ("f'a {plyers} b'", "unknown name 'plyers'"),
    ("f'a {1 +} b'", "unexpected"),
    ("f'a {x'", "'{' without its '}'"),
    ("f'a } b'", "a single '}'"),
    ("f'a {} b'", "an empty {}"),
])
def test_an_error_inside_an_f_string_is_located(tmp_path, expr, message):
    with pytest.raises((RuleError, RuleErrors)) as caught:
        value_of(tmp_path, expr)
    error = caught.value.errors[0] if isinstance(caught.value, RuleErrors) else caught.value
    assert message in error.message
    assert error.location is not None and error.location.line > 1
    if "plyers" in expr:  # the column of the name inside the f-string
        line = (tmp_path / "g.yaml").read_text().splitlines()[error.location.line - 1]
        assert line[error.location.col - 1:].startswith("plyers")


TABLED = """
game: tabled
players: 2
cards:
  attributes: {rank: [1, 2, 3]}
  tables:
    points: {of: rank, values: {1: 11, 3: 10}, default: 0}
    double: {of: rank, value: "rank * 2"}
  start: deck
zones:
  deck: {}
state:
  v: "[(c.points, c.double, points(c.rank), double(c.rank)) for c in deck] + [points(7), double(7)]"
""" + FINISH


def test_a_card_table_is_values_or_an_expression_and_a_function_of_its_attribute(tmp_path):
    game = run(tmp_path, TABLED)
    assert game.memory.vars["v"] == [(11, 2, 11, 2), (0, 4, 0, 4), (10, 6, 10, 6), 0, 14]


@pytest.mark.parametrize("change, message", [
    (('double: {of: rank, value: "rank * 2"}', 'double: {of: rank, value: "rank * 2", values: {1: 1}}'),
     "table 'double' needs 'of: <attribute>' and either"),
    (('double: {of: rank, value: "rank * 2"}', 'double: {of: rank, value: "rnak * 2"}'), "unknown name 'rnak'"),
    (("  start: deck\n", "  start: deck\nfunctions:\n  \"points(x)\": \"x\"\n"),
     "card table 'points' and a function share"),
])
def test_a_bad_card_table_is_a_located_error(tmp_path, change, message):
    with pytest.raises(RuleErrors) as caught:
        load(tmp_path, TABLED.replace(*change))
    assert message in caught.value.errors[0].message and caught.value.errors[0].location is not None


def test_a_variant_replaces_a_card_table_whole(tmp_path):
    (tmp_path / "base.yaml").write_text(TABLED)
    (tmp_path / "v.yaml").write_text(
        'extends: base.yaml\ngame: v\ncards:\n  tables:\n    points: {of: rank, value: "rank"}\n')
    game = Game(load_program(tmp_path / "v.yaml"), 0)
    game.start()
    assert [row[0] for row in game.memory.vars["v"][:3]] == [1, 2, 3]


ZONE_ARGUMENT_GAME = """
game: piles
players: 2
cards:
  attributes: {rank: [1, 2, 3, 4]}
  start: left
zones:
  left: {visibility: public}
  right: {visibility: public}
  hand: {per_player: true, visibility: owner}
setup: |
  move [c for c in left if c.rank > 2] from left to right
  ask players[0] to take
moves:
  take:
    choose: "pile in [z for z in [left, right] if len(z) > 0]"
    space: "SPACE"
    label: "f'take from {\\"left\\" if pile is left else \\"right\\"}'"
    then: |
      move top(pile) from pile to player.hand
      end game
"""


def test_a_zone_is_a_move_argument_with_a_space_of_zone_names(tmp_path):
    from naipes.bridges.actions import ActionSpace
    program = load(tmp_path, ZONE_ARGUMENT_GAME.replace("SPACE", "[left, right]"))
    game = Game(program, 0)
    game.start()
    options = game.options()
    assert [o.label for o in options] == ["take from left", "take from right"]
    space = ActionSpace(program, 2)
    assert [space.id_of(o) for o in options] == [0, 1]
    game.apply(options[1])
    assert [c.rank for c in game.memory.players[0].hand] == [4] and game.over


def test_a_space_reading_what_a_zone_holds_is_a_located_error(tmp_path):
    errors = compile_errors(tmp_path, ZONE_ARGUMENT_GAME.replace("SPACE", "[left] + list(right)"))
    assert "'space' may read only params" in errors[0].message and errors[0].location.line == 16


RECORDS = """
records:
  verdict: [kind, points]
functions:
  "judge(n)": |
    if n > 3:
        return verdict(kind='big', points=n * 2)
    return verdict('small', n)
"""


def test_records_are_made_by_field_name_or_in_order_and_read_by_field(tmp_path):
    made = "[judge(5).kind, judge(5).points, judge(1).kind, judge(2) == verdict(points=2, kind='small')]"
    assert value_of(tmp_path, made, RECORDS) == ["big", 10, "small", True]


@pytest.mark.parametrize("expr, message, hint", [
    ("verdict(kind='a', pionts=1)", "record 'verdict' has no field 'pionts'", "points"),
    ("verdict(kind='a')", "record 'verdict' needs every field: points missing", None),
    ("verdict('a')", "record 'verdict' takes its fields by name (kind, points) or all in order", None),
    ("judge(1).kidn", "unknown attribute 'kidn'", "kind"),
    ("verdict('a', 1).size", "a record verdict has no attribute 'size'", None),
])
def test_a_record_used_wrongly_is_a_located_error(tmp_path, expr, message, hint):
    errors = compile_errors(tmp_path, f"game: t\n{RECORDS}\nstate:\n  v: {yaml_str(expr)}\n{FINISH}")
    assert errors[0].message == message and errors[0].location.line == 12
    assert hint is None or hint in (errors[0].hint or "")


@pytest.mark.parametrize("declaration, message", [
    ("records:\n  r: [a, a]", "record 'r' names a field twice"),
    ("records:\n  r: []", "record 'r' lists its fields"),
    ("records:\n  len: [a]", "record 'len' shares its name"),
    ("records:\n  r: [_a]", "cannot start with"),
])
def test_a_bad_record_declaration_is_a_located_error(tmp_path, declaration, message):
    errors = compile_errors(tmp_path, f"game: t\n{declaration}\n{FINISH}")
    assert message in errors[0].message and errors[0].location.line == 3


VALUES_OF_GAME = """
game: t
cards:
  attributes: {suit: [oros, copas, espadas], rank: [1, 3, 12]}
  start: deck
zones:
  deck: {}
state:
  v: EXPR
FINISH"""


def test_values_of_gives_the_values_the_cards_section_lists_in_order(tmp_path):
    game = run(tmp_path, VALUES_OF_GAME.replace("EXPR", yaml_str("[values_of(suit), values_of(rank)[1:]]"))
               .replace("FINISH", FINISH))
    assert game.memory.vars["v"] == [["oros", "copas", "espadas"], [3, 12]]


@pytest.mark.parametrize("expr, text", [
    ("values_of(colour)", "values_of takes the name of a card attribute"),
    ("values_of('suit')", "values_of takes the name of a card attribute"),
])
def test_values_of_something_else_is_a_located_error(tmp_path, expr, text):
    errors = compile_errors(tmp_path, VALUES_OF_GAME.replace("EXPR", yaml_str(expr)).replace("FINISH", FINISH))
    assert text in errors[0].message and errors[0].location.line == 8 and "suit, rank" in errors[0].hint


def test_a_function_cannot_be_called_values_of(tmp_path):
    errors = compile_errors(tmp_path, f"game: t\nfunctions:\n  \"values_of(x)\": \"x\"\n{FINISH}")
    assert "function 'values_of' is already defined" in errors[0].message


def test_texts_parsed_in_several_threads_at_once_parse_as_each_does_alone():
    """The web server loads rule files in several threads: the parser, shared, keeps its indenter's state while it
    parses a text, so two texts parsed at once must not share it (brackets of one text counted in the other's)."""
    from concurrent.futures import ThreadPoolExecutor

    from naipes.language.parser import parse_block

    texts = [f"if len([x for x in range({i})]) > ({i} - 1):\n    let y = (({i}))\n" + "let z = [1, (2, 3)]\n" * (i % 7)
             for i in range(400)]
    with ThreadPoolExecutor(4) as pool:  # (texts never parsed before: parses are remembered by their text)
        together = list(pool.map(lambda text: repr(parse_block(text)), texts))
    assert together == [repr(parse_block(text + "\n")) for text in texts]  # (the same statements, another text)
