"""What a rule file may cost (naipes.library.limits).

Every runaway ends with a located error, quickly and in little memory.
"""
from __future__ import annotations

import textwrap

import pytest

from naipes import load_program
from naipes.agents.registry import RandomAgent, load_strategy, make_agent
from naipes.errors import GameError, ParamError, RuleErrors
from naipes.library.limits import GAME_STEPS, MAX_ALIKE, MAX_BITS, MAX_DECISIONS, MAX_FIRINGS, MAX_ITEMS, MAX_STEPS
from naipes.runtime.game import Game, play_game

from helpers import shipped_program

ONE_ACTION = """\
game: runaway
state:
  x: 2
  out: 0
  grown: "[]"
player_state:
  kept: "[]"
{functions}
rules:
  - name: go
    when: out == 0
    then: |
{body}
      out = 1
      end game
"""

SHARED = "let a = [1]\nlet b = [1]\nfor i in range(60):\n  a = [a, a]\n  b = [b, b]\n"  # 2**60 items, 240 made
TUPLES = "let t = (1,)\nfor i in range(60):\n  t = (t, t)\n"
DEEP = "let t = (1,)\nfor i in range(300000):\n  t = (t,)\n"

RUNAWAYS = {
    "a huge range": ("", "out = len(range(10000000000))", f"{MAX_ITEMS:,}"),
    "five nested comprehensions": ("", "out = len([1 for a in range(100) for b in range(100) for c in range(100) "
                                       "for d in range(100) for e in range(100)])", f"{MAX_STEPS:,} steps"),
    "squaring in a loop": ("", "for i in range(100):\n  x = x * x", f"{MAX_BITS:,} bits"),
    "doubling in a loop": ("", "for i in range(1000000):\n  x = x + x", ""),
    "a giant text": ("", "let s = 'x' * 10000000000", f"{MAX_ITEMS:,}"),
    "a giant list": ("", "let s = [0] * 100000 * 100000", f"{MAX_ITEMS:,}"),
    "a list doubled in a loop": ("", "let l = [1]\nfor i in range(100):\n  l = l + l", ""),
    "a text doubled in a loop": ("", "let l = 'ab'\nfor i in range(100):\n  l += l", ""),
    "many large lists": ("", "out = len(sum([[0] * 1000000 for i in range(1000)], []))", f"{MAX_STEPS:,} steps"),
    "a value nested through sharing": ("", "let t = [1]\nfor i in range(60):\n  t = [t, t]\nout = len(str(t))",
                                       f"{MAX_ITEMS:,} items"),
    # a list of the state that grows by itself (each time weighed by what it gains: naipes.runtime.memory)
    "a list grown by itself": ("", "for i in range(60):\n  grown = grown + [grown]", f"{MAX_ITEMS:,} items"),
    "a player's list grown by itself": ("", "for i in range(60):\n  for p in players:\n    p.kept = p.kept + [p.kept]",
                                        f"{MAX_ITEMS:,} items"),
    # work Python does inside one operation, charged by what it goes over (naipes.library.limits.work): a list
    # holding itself through 60 shared levels is 2**60 items to compare or hash; a long list searched, a long
    # text split or a long list sliced again and again is quadratic under the loop's steps
    "comparing a value nested through sharing": ("", SHARED + "out = 1 if a == b else 0", f"{MAX_ITEMS:,} items"),
    "ordering values nested through sharing": ("", SHARED + "out = 1 if a < b else 0", f"{MAX_ITEMS:,} items"),
    "the larger of two values nested through sharing": ("", SHARED + "out = len(max(a, b))", f"{MAX_ITEMS:,} items"),
    "sorting values nested through sharing": ("", SHARED + "out = len(sorted([a, b]))", f"{MAX_ITEMS:,} items"),
    "a tuple nested through sharing in a set": ("", TUPLES + "out = len({t})", f"{MAX_ITEMS:,} items"),
    "a tuple nested through sharing as a key": ("", TUPLES + "let d = {t: 1}", f"{MAX_ITEMS:,} items"),
    "a tuple nested through sharing made a set": ("", TUPLES + "out = len(set([t]))", f"{MAX_ITEMS:,} items"),
    "a tuple nested through sharing looked up": ("", TUPLES + "let d = {1: 2}\nout = 1 if t in d else 0",
                                                 f"{MAX_ITEMS:,} items"),
    "a tuple nested through sharing as an index": ("", TUPLES + "let d = {1: 2}\nout = d[t]", f"{MAX_ITEMS:,} items"),
    # a tuple nested 300,000 deep held only in a local: Python's own hash and comparison recurse in C without a
    # limit (a crash), so it is refused before either
    "a tuple nested deep in a set": ("", DEEP + "out = len({t})", "100 deep"),
    "tuples nested deep compared": ("", DEEP + "out = 1 if t == (t,) else 0", "100 deep"),
    "a value nested through sharing kept": ("", SHARED + "grown = a", f"{MAX_ITEMS:,} items"),
    "a member searched for in a long list": ("", "let l = [0] * 500000\nfor i in range(1000):\n  out = 1 if -1 in l "
                                             "else 0", f"{MAX_STEPS:,} steps"),
    "a long text split again and again": ("", "let t = 'a' * 500000\nfor i in range(1000):\n  out = len(split(t, 'b'))",
                                          f"{MAX_STEPS:,} steps"),
    "a long list sliced again and again": ("", "let l = [0] * 500000\nfor i in range(1000):\n  out = len(l[1:])",
                                           f"{MAX_STEPS:,} steps"),
    "a long list searched by index_of": ("", "let l = [0] * 500000\nfor i in range(1000):\n  out = index_of(l, 0)",
                                         f"{MAX_STEPS:,} steps"),
    "long texts compared again and again": ("", "let a = 'a' * 400000\nlet b = 'a' * 400000\nfor i in range(100000):"
                                            "\n  out = 1 if a == b else 0", f"{MAX_STEPS:,} steps"),
    "exponential recursion": ('functions:\n  "f(n)": "0 if n == 0 else f(n - 1) + f(n - 1)"', "out = f(60)",
                              f"{MAX_STEPS:,} steps"),
    "deep recursion": ('functions:\n  "g(n)": "0 if n == 0 else 1 + g(n - 1)"', "out = g(1000000)", "too deeply"),
    # no function calls itself, but each calls the one before twice: 2**40 calls (small ones are inlined or not
    # charged a step, naipes.language.steps; the budget must still see the tree grow)
    # f is inlined into the comprehension: each item still charges f's call (600,000 items, 1,200,000 steps)
    "a loop of inlined calls": ('functions:\n  "f(n)": "n + 1"', "out = len([f(i) for i in range(600000)])",
                                f"{MAX_STEPS:,} steps"),
    "an exponential tree of small functions": (
        "functions:\n  f0(n): n + 1\n" + "".join(f"  f{k}(n): f{k - 1}(n) + f{k - 1}(n)\n" for k in range(1, 41)),
        "out = f40(1)", f"{MAX_STEPS:,} steps"),
}


def pairs_hashed_alike(count: int) -> list[tuple[int, int]]:
    """`count` different pairs of numbers (of at most 18 digits) that CPython hashes alike: its tuple hash
    (xxHash's round on each item's hash, which is the number itself) undone for the second item, for a first item
    taken in turn."""
    mask, p1, p2, p5 = (1 << 64) - 1, 11400714785074694791, 14029467366897019727, 2870177450012600261

    def mixed(acc: int, lane: int) -> int:
        acc = (acc + lane * p2) & mask
        return (((acc << 31) | (acc >> 33)) & mask) * p1 & mask

    wanted = 12345  # the hash of every pair, before the length is added
    before = (wanted * pow(p1, -1, 1 << 64)) & mask
    before = ((before >> 31) | (before << 33)) & mask  # (undoes the rotation)
    pairs = []
    for first in range(1, 1 << 20):
        second = ((before - mixed(p5, first)) * pow(p2, -1, 1 << 64)) & mask
        if second < 10 ** 18:  # (a number a file may write: at most 18 digits)
            pairs.append((first, second))
            if len(pairs) == count:
                break
    assert len(pairs) == count and len({hash(pair) for pair in pairs}) == 1  # (else CPython hashes tuples anew)
    return pairs


P = "(2305843009 * 1000000000 + 213693951)"  # 2**61 - 1: Python hashes every multiple of it to 0
ALIKE = pairs_hashed_alike(3000)
# values that Python hashes alike, made by the thousand, in a set or as a map's keys: each different value hashed is
# charged a step for every one hashed alike before it in the operation (naipes.library.limits.Budget.hashed)
HASHED_ALIKE = {
    "numbers hashing alike in a set": f"out = len({{i * {P} for i in range(200000)}})",
    "numbers hashing alike as a map's keys": f"let d = {{i * {P}: i for i in range(200000)}}",
    "numbers hashing alike made a set": f"out = len(set([i * {P} for i in range(200000)]))",
    "numbers hashing alike looked up": f"let s = {{{P}}}\nout = count([i * {P} in s for i in range(200000)])",
    "tuples of numbers hashing alike in a set": f"out = len({{(i * {P}, 1) for i in range(200000)}})",
    "pairs of small numbers hashing alike in a set": f"let pairs = {ALIKE!r}\nout = len({{p for p in pairs}})",
    "pairs of small numbers hashing alike as keys": f"let pairs = {ALIKE!r}\nlet d = {{p: 1 for p in pairs}}",
    "pairs of small numbers hashing alike made a set": f"let pairs = {ALIKE!r}\nout = len(set(pairs))",
}
RUNAWAYS.update({case: ("", body, f"{MAX_STEPS:,} steps") for case, body in HASHED_ALIKE.items()})
# Python's search for a text in a text may try it at every place: charged by the product of their lengths
TEXTS_IN_TEXTS = "let h = 'a' * 2499\nlet p = 'a' * 1497 + 'ba'\nfor i in range(15000):\n  "
RUNAWAYS.update({
    "a text searched for a text again and again": ("", TEXTS_IN_TEXTS + "out = 1 if p in h else 0",
                                                   f"{MAX_STEPS:,} steps"),
    "a text not found in a text again and again": ("", TEXTS_IN_TEXTS + "out = 1 if p not in h else 0",
                                                   f"{MAX_STEPS:,} steps"),
    "a text split at a text again and again": ("", TEXTS_IN_TEXTS + "out = len(split(h, p))", f"{MAX_STEPS:,} steps"),
    "a chain searching a text again and again": ("", TEXTS_IN_TEXTS + "out = 1 if '' < p in h else 0",
                                                 f"{MAX_STEPS:,} steps"),
})


def game_file(tmp_path, functions: str, body: str):
    path = tmp_path / "runaway.yaml"
    path.write_text(ONE_ACTION.format(functions=functions, body=textwrap.indent(body, " " * 6)), encoding="utf-8")
    return path


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(RUNAWAYS))
def test_a_runaway_evaluation_ends_with_a_located_error_naming_the_limit(tmp_path, case):
    functions, body, says = RUNAWAYS[case]
    path = game_file(tmp_path, functions, body)
    game = Game(load_program(path), 1)
    with pytest.raises(GameError) as caught:
        game.start()
    error = caught.value
    assert error.location is not None and error.location.file == str(path), str(error)
    assert says in error.message, error.message


def test_a_short_text_searched_for_in_a_long_one_runs(tmp_path):
    body = "let h = 'ab' * 5000\nfor i in range(50):\n  out = out + (1 if 'ba' in h else 0) + len(split(h, 'ba'))"
    game = Game(load_program(game_file(tmp_path, "", body)), 1)
    game.start()
    assert game.over


def test_a_loop_within_the_limits_runs(tmp_path):
    game = Game(load_program(game_file(tmp_path, "", "out = len([1 for a in range(300) for b in range(300)])")), 1)
    game.start()
    assert game.over


def test_every_operation_gets_a_fresh_budget(tmp_path):
    # 600,000 steps per move: over the limit if the budget were shared by two moves, within it for one
    text = """\
game: budget
players: 1
state: {n: 0}
moves:
  work:
    then: |
      n = n + len([1 for a in range(600) for b in range(500)])
rules:
  - {name: ask, when: n < 2000000, then: "ask players[0] to work"}
  - {name: stop, when: n >= 2000000, then: "end game"}
"""
    path = tmp_path / "budget.yaml"
    path.write_text(text, encoding="utf-8")
    result = play_game(load_program(path), [RandomAgent(1)], seed=1)
    assert result.decisions == 7 and result.cut_off is None


def test_max_firings_may_not_be_set_absurdly_high(tmp_path):
    path = tmp_path / "firings.yaml"
    path.write_text(f"game: f\nmax_firings: {MAX_FIRINGS + 1}\n", encoding="utf-8")
    with pytest.raises(RuleErrors) as caught:
        load_program(path)
    [error] = caught.value.errors
    assert "max_firings" in error.message and error.location.line == 2


FOREVER = """\
game: forever
players: 2
max_decisions: 50
state:
  n: 0
moves:
  tick:
    then: n = n + 1
result: "n"
rules:
  - name: ask_again
    when: n >= 0
    then: ask players[n % 2] to tick
"""


def test_a_game_that_never_ends_is_cut_off_and_its_result_says_so(tmp_path):
    path = tmp_path / "forever.yaml"
    path.write_text(FOREVER, encoding="utf-8")
    records = []
    result = play_game(load_program(path), [RandomAgent(1), RandomAgent(2)], seed=1, listeners=[records.append])
    assert result.decisions == 50 and result.winners == ()
    assert "50 decisions" in result.cut_off and "max_decisions" in result.cut_off
    assert result.payoffs == [50, 50]  # the result section, as things stood
    assert records[-1]["type"] == "end" and records[-1]["cut_off"] == result.cut_off


@pytest.mark.parametrize("setting, largest, default", [("max_decisions", MAX_DECISIONS, 100_000),
                                                       ("max_steps", GAME_STEPS, MAX_STEPS)])
def test_a_setting_of_limits_is_bounded_and_defaults(tmp_path, setting, largest, default):
    path = tmp_path / "d.yaml"
    path.write_text(f"game: d\n{setting}: {largest + 1}\n", encoding="utf-8")
    with pytest.raises(RuleErrors, match=setting):
        load_program(path)
    path.write_text("game: d\n", encoding="utf-8")
    assert getattr(load_program(path), setting) == default


@pytest.mark.parametrize("word", [None, 1])
def test_a_stuck_game_names_each_rule_and_why_it_is_idle(tmp_path, monkeypatch, word):
    """`word` 1: an agenda per rule (naipes.runtime.agenda.Agendas) names them alike, in the same order."""
    if word is not None:
        from naipes.language import linker
        monkeypatch.setattr(linker, "WORD", word)
    path = tmp_path / "stuck.yaml"
    path.write_text("""\
game: stuck
phases: [deal, play]
state:
  n: 0
rules:
  - name: counted_once
    when: n >= 0
    then: n = 0
  - name: never
    when: n > 5
    then: end game
  - name: later
    phase: play
    then: end game
""", encoding="utf-8")
    game = Game(load_program(path), 1)
    with pytest.raises(GameError) as caught:
        game.start()
    error = caught.value
    assert "stuck" in error.message and "'deal'" in error.message
    assert error.location is not None and error.location.line == 6
    assert f"counted_once ({path}:6:5): fired already" in error.hint
    assert f"never ({path}:9:5): its condition is false" in error.hint
    assert f"later ({path}:12:5): waits for phase == 'play'" in error.hint
    assert error.hint.index("counted_once") < error.hint.index("never") < error.hint.index("later")


@pytest.mark.parametrize("option", ["seconds=1000000", "iterations=1000000000", "depth=100000000", "exploration=inf"])
def test_a_search_agent_cannot_ask_for_an_unbounded_search(option):
    program = shipped_program("fichas")
    with pytest.raises(ParamError, match="must be from"):
        make_agent(f"ismcts:{option}", program=program)


def test_a_strategy_default_is_checked_when_the_strategy_loads(tmp_path):
    game = shipped_program("pocha")
    greedy = tmp_path / "greedy.yaml"
    greedy.write_text('game: pocha\ndefault: "ismcts:seconds=1000000"\nrules: []\n', encoding="utf-8")
    with pytest.raises(RuleErrors) as caught:
        load_strategy(greedy, game)
    assert caught.value.errors[0].location.line == 2 and "seconds" in caught.value.errors[0].message
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(f"game: pocha\ndefault: {b}\nrules: []\n", encoding="utf-8")
    b.write_text(f"game: pocha\ndefault: {a}\nrules: []\n", encoding="utf-8")
    with pytest.raises(RuleErrors, match="leads back to this strategy: defaults make a cycle") as caught:
        load_strategy(a, game)
    assert caught.value.errors[0].location.file == str(a)


MELDS = """\
game: melds
cards:
  attributes: {{joker: bool, suit: [a, b, c, d], rank: int}}
  generate: |
    [{{'joker': False, 'suit': s, 'rank': r}} for s in values_of(suit) for r in range(1, 14)]
    + [{{'joker': True, 'suit': None, 'rank': None}} for k in range(24)]
zones: {{deck: {{}}}}
state: {{out: 0}}
rules:
  - name: search
    when: out == 0
    then: |
      let jokers = [c for c in deck if c.joker]
      let threes = [c for c in deck if not c.joker and c.rank % 3 == 0]
      let order = list(range(1, 14))
      out = len(str({search}))
      end game
"""


@pytest.mark.parametrize("search, message", [
    ("best_melds(list(deck), order)", "best_melds searches at most 24 cards, not 76"),
    ("meld_and_lay_off(list(deck)[:15], [], order)", "meld_and_lay_off searches at most 14 cards, not 15"),
])
def test_the_meld_search_refuses_a_hand_too_large(tmp_path, search, message):
    path = tmp_path / "melds.yaml"
    path.write_text(MELDS.format(search=search), encoding="utf-8")
    with pytest.raises(GameError, match=message) as caught:
        Game(load_program(path), 1).start()
    assert caught.value.location.line == 16


# Each search's work grows exponentially with the jokers it is given and the jokers a meld may hold: within the
# cards each takes (at most 24, 14 for meld_and_lay_off), these calls ran for 6 s (meldable) to over 30 s before
# their work was charged. Charged a step for each candidate meld made and each position searched, each ends as any
# runaway does, in well under a second.
@pytest.mark.parametrize("search", [
    "best_melds(jokers[:12] + threes[:12], order, jokers='joker', jokers_per_meld=3)",
    "best_melds(jokers[:10] + threes[:14], order, jokers='joker', jokers_per_meld=2)",
    "meldable(jokers[:22] + threes[:2], order, jokers='joker', jokers_per_meld=22, max_set=24)",
    "lay_off_all(jokers[:12] + threes[:12], [[c for c in deck if c.suit == s and c.rank < 4] for s in values_of(suit)]"
    " + [[c for c in deck if c.rank == r][:3] for r in range(4, 13)], order, jokers='joker', jokers_per_meld=6)",
    "meld_and_lay_off(jokers[:14], [[c for c in deck if c.suit == s and c.rank < 4] for s in values_of(suit)], "
    "order, jokers='joker', jokers_per_meld=14, max_set=14)",
])
def test_the_meld_searchs_work_is_charged_as_steps(tmp_path, search):
    path = tmp_path / "jokers.yaml"
    path.write_text(MELDS.format(search=search), encoding="utf-8")
    with pytest.raises(GameError, match=f"more than {MAX_STEPS:,} steps") as caught:
        Game(load_program(path), 1).start()
    assert caught.value.location.file == str(path) and caught.value.location.line == 16


class _Token:
    """A value of a class the game makes (a card, a player): one item."""


def _counted(value: object) -> int:
    """What weigh counts, written plainly: a collection is one item and holds its items (a dict, its keys and
    values), counted through every nesting; anything else is one item."""
    if isinstance(value, dict):
        return 1 + sum(map(_counted, [*value.keys(), *value.values()]))
    if isinstance(value, (list, tuple, set, frozenset)):
        return 1 + sum(map(_counted, value))
    return 1


@pytest.mark.parametrize("value", [
    [], [1, "a", None, 2.5, True], [(1, 2), 3, ("x",)], [(_Token(), _Token())], [(1, [2, 3])], [[1, 2], (3,)],
    [(1, (2, 3))], ((1, 2), [3]), {1, 2, (3, 4)}, {"a": [1, (2, 3)], (1, 2): "b"}, [{"k": 1}], [_Token(), [_Token()]],
    7, "text"])
def test_weigh_counts_every_item_through_every_nesting(value):
    from naipes.library.limits import weigh
    assert weigh(value) == _counted(value)


def test_a_list_of_pairs_past_the_item_limit_is_too_large():
    from naipes.library.limits import weigh
    pairs = [(1, 2)] * (MAX_ITEMS // 3 + 1)  # (1 + 3 items a pair)
    with pytest.raises(GameError, match="is too large"):
        weigh(pairs)
    assert weigh(pairs[:MAX_ITEMS // 3 - 1]) == 1 + 3 * (MAX_ITEMS // 3 - 1)


CARD_VALUES = """\
game: deck
players: 1
cards:
  attributes: {rank: int, label: str}
  generate: "[{'rank': r, 'label': LABEL} for r in range(1, 4)]"
  tables:
    weight: {of: rank, value: WEIGHT}
  start: deck
zones:
  deck: {visibility: hidden}
rules:
  - name: done
    when: "True"
    then: end game
"""


@pytest.mark.parametrize("label, weight, says", [
    ("'x' * 1001", "rank", "a text of 1,001 characters"),  # compared without a charge: kept short
    ("'x'", "[rank]", "plain values"),  # a table's value too is a plain value
    ("'x'", f"rank * {P}", "less than 2\\*\\*60 in size"),  # hashed without a charge: unlike any other (see P)
])
def test_a_cards_attributes_are_plain_values_and_short_texts(tmp_path, label, weight, says):
    path = tmp_path / "deck.yaml"
    path.write_text(CARD_VALUES.replace("LABEL", label).replace("WEIGHT", f'"{weight}"'), encoding="utf-8")
    with pytest.raises(GameError, match=says):
        Game(load_program(path), 1).start()
    path.write_text(CARD_VALUES.replace("LABEL", "'x' * 1000").replace("WEIGHT", '"rank"'), encoding="utf-8")
    Game(load_program(path), 1).start()


LABELS = """\
game: labels
players: 2
state: {n: 0}
moves:
  pick:
    choose: "k in range(2000)"
    label: "str(k + n + 0 * len([i for i in range(COST)]))"
    then: "n += 1"
rules:
  - name: ask
    when: "n == 0"
    then: "ask players[0] to pick"
  - name: stop
    when: "n > 0"
    then: "end game"
"""


@pytest.mark.parametrize("cost, runs_away", [(450_000, True), (200, False)])
def test_the_labels_of_one_decisions_options_share_one_budget(tmp_path, cost, runs_away):
    # each label read had a budget of its own: 2,000 labels of 450,000 steps each took minutes to show (naipes check
    # reads them all); together they spend one budget, so the first three end it
    path = tmp_path / "labels.yaml"
    path.write_text(LABELS.replace("COST", str(cost)), encoding="utf-8")
    game = Game(load_program(path), 1)
    game.start()
    options = game.options()
    if runs_away:
        with pytest.raises(GameError, match=f"more than {MAX_STEPS:,} steps") as caught:
            [option.label for option in options]
        assert caught.value.location.line == 7
    else:
        assert [option.label for option in options] == [str(k) for k in range(2000)]


# A whole game: each operation is bounded, and so are the decisions, but not their product. Every door by which a
# decision can spend (its move's effect, the rules it fires, its options listed, their labels) spends the game's
# GAME_STEPS, so that a game that spends much at every decision ends with an error long before its max_decisions,
# and, since everything made is paid for in steps, before it holds or writes more than that much.
WHOLE_GAME = """\
game: whole
players: 2
state: {n: 0, kept: "[]"}
moves:
  work:
    choose: "k in CHOICES"
    label: "LABEL"
    then: |
      EFFECT
      n += 1
rules:
  - name: ask
    when: "n >= 0"
    then: |
      RULE
      ask players[n % 2] to work
"""
SPEND = "0 * len([i for i in range(200000)])"  # 400,000 steps: a list of 200,000 items made (and dropped)
WHOLE_GAME_DOORS = {
    "a move's effect": {"EFFECT": f"n += {SPEND}"},
    "a rule it fires": {"RULE": f"n += {SPEND}"},
    "the options listed": {"CHOICES": f"range(2 + {SPEND})"},
    "the options' labels": {"LABEL": f"str(k + n + {SPEND})"},
    # a text of 450,000 characters made and kept at each decision: 3 GB in 7,000 decisions
    "the state grown by a text": {"EFFECT": "kept = kept + ['x' * 450000 + str(n)]"},
}


@pytest.mark.slow
@pytest.mark.parametrize("door", sorted(WHOLE_GAME_DOORS))
def test_a_game_that_spends_much_at_every_decision_ends_with_an_error(tmp_path, door):
    text = WHOLE_GAME
    for hole, code in {"CHOICES": "range(2)", "LABEL": "str(k)", "EFFECT": "pass", "RULE": "pass",
                       **WHOLE_GAME_DOORS[door]}.items():
        text = text.replace(hole, code)
    path = tmp_path / "whole.yaml"
    path.write_text(text, encoding="utf-8")
    game = Game(load_program(path), 1)
    with pytest.raises(GameError, match=f"more than {GAME_STEPS:,} steps in all"):
        play_game(load_program(path), [RandomAgent(1), RandomAgent(2)], seed=1, game=game,
                  on_decision=lambda decision: [option.label for option in decision.options])
    assert game.decisions <= GAME_STEPS // 200_000  # (of the 100,000 it may make)


def test_the_shipped_games_spend_a_small_part_of_a_games_steps():
    # the longest shipped game (random Chinchón goes on for thousands of decisions) spends about 1.4 million
    game = Game(shipped_program("chinchon"), 3)
    play_game(game.program, [RandomAgent(1), RandomAgent(2)], seed=3, game=game)
    assert 0 < GAME_STEPS - game.memory.left < GAME_STEPS // 20


@pytest.mark.parametrize("case", sorted(HASHED_ALIKE))
def test_the_same_values_hashed_unlike_cost_a_step_each(tmp_path, case):
    # the runaways of HASHED_ALIKE with numbers that hash unlike (a small factor, pairs not made to collide) run
    body = HASHED_ALIKE[case].replace(P, "3").replace(repr(ALIKE), repr([(b, a) for a, b in ALIKE]))
    game = Game(load_program(game_file(tmp_path, "", body)), 1)
    game.start()
    assert game.over


@pytest.mark.parametrize("kept", ["grown = [{p: 1 for p in pairs}]", "grown = grown + [set(pairs)]",
                                  "for p in players:\n  p.kept = [0, {'a': set(pairs)}]"])
def test_a_set_or_map_of_values_hashed_alike_is_not_kept(tmp_path, kept):
    # a few values hashed alike cost little to make in one operation, but each later look-up in a set kept with
    # them compares with them all, in operations that did not pay for making them
    pairs = ALIKE[:MAX_ALIKE + 1]
    game = Game(load_program(game_file(tmp_path, "", f"let pairs = {pairs!r}\n{kept}")), 1)
    with pytest.raises(GameError, match=f"more than {MAX_ALIKE} different values that Python hashes alike"):
        game.start()
    path = game_file(tmp_path, "", f"let pairs = {pairs[:MAX_ALIKE]!r}\n{kept}")
    Game(load_program(path), 1).start()  # (as many as MAX_ALIKE are kept)



def test_a_value_kept_is_weighed_and_checked_for_values_hashed_alike_as_before():
    # weigh_kept, what a value written to the state is charged, is weigh's count and check_alike's refusal in one:
    # for lists of plain values and tuples of them (walked once), and for anything else
    import random

    from naipes.library.limits import check_alike, weigh, weigh_kept
    pairs = ALIKE[:MAX_ALIKE + 1]
    rng = random.Random(5)
    leaves = [1, "text", None, 2.5, True, (1, "a"), ()]

    def make(depth: int = 0):
        shapes = [lambda: rng.choice(leaves), lambda: [make(depth + 1) for _ in range(rng.randrange(4))],
                  lambda: tuple(make(depth + 1) for _ in range(rng.randrange(3))),
                  lambda: {rng.randrange(9): make(depth + 1)},
                  lambda: set(pairs[:rng.choice([2, MAX_ALIKE, MAX_ALIKE + 1])])]
        return rng.choice(shapes if depth < 3 else shapes[:1])()

    refused = 0
    for _ in range(500):
        value = make()
        try:
            check_alike(value)
        except GameError:
            refused += 1
            with pytest.raises(GameError, match="hashes alike"):
                weigh_kept(value)
            continue
        assert weigh_kept(value) == weigh(value), value
    assert 20 < refused < 480
    with pytest.raises(GameError, match="too"):
        weigh_kept(list(range(MAX_ITEMS + 1)))


FACTS = """\
game: facts
facts:
  item: [name, other]
setup: |
  BODY
rules:
  - name: stop
    when: "True"
    then: end game
"""


@pytest.mark.parametrize("body, says", [
    # each assert copies the kind's collection (a tuple): charged a step per COPY_CHUNK items, 100,000 asserts are
    # 5 billion items copied, not 400,000 steps
    ("for i in range(100000):\n    assert item(name=i, other=0)", f"{MAX_STEPS:,} steps"),
    # the facts of a kind are kept in indexes by their values, across operations: at most MAX_ALIKE hashed alike
    (f"for i in range(1, 100):\n    assert item(name=i * {P}, other=0)", "hashes alike"),
    ("for p in pairs:\n    assert item(name=p, other=0)", "hashes alike"),
])
def test_facts_made_by_the_hundred_thousand_or_hashed_alike_end_with_an_error(tmp_path, body, says):
    path = tmp_path / "facts.yaml"
    path.write_text(FACTS.replace("BODY", f"let pairs = {ALIKE[:100]!r}\n  " + body.replace("\n", "\n  ")),
                    encoding="utf-8")
    with pytest.raises(GameError, match=says):
        Game(load_program(path), 1).start()


def test_facts_retracted_one_by_one_are_found_by_their_time_tags(tmp_path):
    path = tmp_path / "facts.yaml"
    path.write_text(FACTS.replace("BODY", "for i in range(3000):\n    assert item(name=i, other=i % 7)\n  "
                                          "for f in item:\n    if f.other != 3:\n      retract f"), encoding="utf-8")
    game = Game(load_program(path), 1)
    game.start()
    assert [f.name for f in game.memory.vars["item"]] == [i for i in range(3000) if i % 7 == 3]


JOINED = """\
game: joined
facts:
  item: [name, other]
state:
  matched: "[]"
setup: |
  for i in range(1, 31):
      assert item(name=i * FACTOR, other=i)
rules:
  - name: pair_up
    for: ["x in item", "y in item"]
    when: "y.name == x.other * FACTOR"
    then: "matched = matched + [(x.other, y.other)]"
"""


@pytest.mark.parametrize("factor, indexed", [(P, False), ("3", True)])
def test_a_join_whose_keys_hash_alike_goes_over_the_facts(tmp_path, factor, indexed):
    # a join looks its facts up by key in an index kept across operations: keys made to hash alike would make each
    # look-up compare with them all, so such an index is dropped and the join goes over the facts, finding the same
    path = tmp_path / "joined.yaml"
    path.write_text(JOINED.replace("FACTOR", factor), encoding="utf-8")
    game = Game(load_program(path), 1)
    with pytest.raises(GameError):  # (no rule asks anything: the game is stuck once every pair is matched)
        game.start()
    assert sorted(game.memory.vars["matched"]) == [(i, i) for i in range(1, 31)]
    kept = [alike for _, index, alike in game.agenda.join_indexes.values()]
    assert kept and all((alike is not None) == indexed for alike in kept)


def test_a_strategy_that_keeps_more_at_every_decision_ends_with_an_error(tmp_path):
    # a strategy's memory is kept across decisions, each made in a view with a budget of its own: the strategy's
    # decisions and observations together spend GAME_STEPS at most (this one had kept 450,000 characters more
    # each time, without end)
    game_path, strategy_path = tmp_path / "forever.yaml", tmp_path / "hoarder.yaml"
    game_path.write_text(FOREVER.replace("max_decisions: 50", "max_decisions: 100000"), encoding="utf-8")
    strategy_path.write_text("""\
game: forever
memory:
  kept: "[]"
rules:
  - name: tick_and_keep_a_long_text
    move: tick
    choose: "True"
    then: "kept = kept + ['x' * 450000 + str(len(kept))]"
""", encoding="utf-8")
    program = load_program(game_path)
    hoarder = make_agent(str(strategy_path), 1, program)
    game = Game(program, 1)
    with pytest.raises(GameError, match=f"more than {GAME_STEPS:,} steps"):
        play_game(program, [hoarder, RandomAgent(2)], seed=1, game=game)
    assert game.decisions <= 2 * GAME_STEPS // 450_000 + 2


@pytest.mark.parametrize("when", ["True", "not over and a + b + c < 0"])
def test_a_rules_bindings_are_charged_a_step_a_value_tried(tmp_path, when):
    # three variables over 200 values: 8 million bindings tried by the agenda (and, all let through, 3.6 GB of
    # activations), not one step of the file's charged
    path = tmp_path / "cube.yaml"
    path.write_text(f"game: cube\nplayers: 2\nstate:\n  xs: \"list(range(200))\"\n  over: false\nrules:\n"
                    f"  - name: cube\n    for: [\"a in xs\", \"b in xs\", \"c in xs\"]\n    when: \"{when}\"\n"
                    "    then: \"end game\"\n  - {name: stop, when: \"not over\", then: \"end game\"}\n",
                    encoding="utf-8")
    with pytest.raises(GameError, match=f"more than {MAX_STEPS:,} steps") as caught:
        Game(load_program(path), 1).start()
    assert caught.value.location is not None and caught.value.location.line == 7


HEAVY_MOVES = """\
game: heavy
players: {min: 2, max: 2, default: 2, ai: AGENT}
state: {n: 0, x: 0}
moves:
  go:
    choose: "k in [1, 2]"
    then: |
      x = x + k + 0 * len([i for i in range(440000)])
      n += 1
rules:
  - {name: ask, when: "n < 40", then: "ask players[n % 2] to go"}
  - {name: stop, when: "n >= 40", then: "end game"}
result: "x % 7"
"""


@pytest.mark.parametrize("agent", ["ismcts", "pimc"])
def test_a_search_spends_at_most_its_decisions_steps_in_its_worlds(tmp_path, agent):
    # a search plays in copies of the game, which the game's budget does not bound: each move here is nearly an
    # operation's million steps, and a hundred playouts of 40 moves took minutes a decision; the worlds of one
    # decision spend SEARCH_STEPS at most, and the search stops there as at a deadline: at the same place each time
    path = tmp_path / "heavy.yaml"
    path.write_text(HEAVY_MOVES.replace("AGENT", agent), encoding="utf-8")
    program = load_program(path)
    chosen = []
    for _ in range(2):
        game = Game(program, 1)
        game.start()
        searcher = make_agent(agent, 1, program)
        chosen.append(searcher.choose(game.decision()).arg)
        if agent == "ismcts":
            assert 1 <= searcher.iterations_done < 100
    assert chosen[0] == chosen[1]


@pytest.mark.parametrize("kept, domain", [
    ("list(range(300000))", "[kept] * 1000"),  # a long list bound a thousand times: copied into each key
    (f"[k * {P} for k in range(200000)]", "kept"),  # numbers hashing alike bound: keys hashing alike
])
def test_the_values_a_rule_binds_are_charged_as_its_keys_are_made(tmp_path, kept, domain):
    # an activation is keyed by the values it binds (a list copied into a tuple, a set shown): what making and
    # hashing the keys costs is paid for, as a set's members are
    path = tmp_path / "bound.yaml"
    path.write_text(f"game: bound\nplayers: 2\nstate:\n  kept: \"[]\"\n  done: false\nsetup: \"kept = {kept}\"\n"
                    f"rules:\n  - name: each\n    for: [\"x in {domain}\"]\n    when: \"not done\"\n"
                    "    then: \"done = True\"\n  - {name: stop, when: done, then: \"end game\"}\n", encoding="utf-8")
    with pytest.raises(GameError, match=f"more than {MAX_STEPS:,} steps") as caught:
        Game(load_program(path), 1).start()
    assert caught.value.location is not None and caught.value.location.line == 8


def test_a_program_that_needs_more_steps_in_one_operation_says_so(tmp_path):
    body = "out = len([1 for a in range(1000) for b in range(1500)])"
    with pytest.raises(GameError, match="max_steps"):
        Game(load_program(game_file(tmp_path, "", body)), 1).start()
    path = game_file(tmp_path, "max_steps: 4000000", body)
    game = Game(load_program(path), 1)
    game.start()
    assert game.over


def test_a_built_ins_argument_is_charged_its_items_whatever_class_was_asked_before():
    # whether a value is a collection is asked once per class (naipes.library.limits.sized): a list subclass (a
    # zone) is one, a card is none, and each later value of a class is charged as the first was
    from naipes.library.limits import Budget
    from naipes.runtime.zones import Zone

    class Card:
        pass

    budget = Budget(1_000)
    for value, items in [(Card(), 0), (Zone([1, 2, 3]), 3), ("abcd", 4), (Card(), 0), ({1: 2}, 1),
                         (Zone([1]), 1), ((1, 2), 2), (7, 0)] * 2:
        before = budget.steps
        assert budget.charge_sized(value) is value
        assert before - budget.steps == items, value
