"""Strategies for Chinchón (strategies/chinchon/) and the chip game (strategies/fichas/), pinned by positions.

The original Chinchón player (strategies/chinchon/seed.yaml) keeps a counter per card:
+2 per other card of the same rank (+1 once another card of that rank has
gone out), +1 per card of the same suit next to it (if the run can still be
completed beyond the pair) or one apart (if the card between has not gone
out). It discards the unmelded card with the lowest counter (ties: the
highest), takes the discard top only to close or to join two unmelded cards,
and closes as soon as it can. The expected choices below are worked out by
hand from those rules.

Cards: rank + suit initial (1o as de oros, 12c rey de copas, 10e sota de espadas).
"""
from __future__ import annotations

import random
from functools import cache

import pytest

from naipes.agents.registry import load_strategy, strategy_agent
from naipes.agents.search import Solver
from naipes.agents.strategy import StrategyAgent
from naipes.language.builder import compile_expression
from naipes.runtime.game import Game
from naipes.tools.scenario import arrange, cards

from helpers import RULESETS, STRATEGIES, program

CHINCHON = str(RULESETS / "chinchon.yaml")
FICHAS = str(RULESETS / "fichas.yaml")


@cache
def strategy(game_path: str, level: str, params: tuple = ()):
    folder = "chinchon" if game_path == CHINCHON else "fichas"
    return load_strategy(STRATEGIES / folder / f"{level}.yaml", program(game_path, params))


def agent_for(game: Game, level: str, seat: int = 0, path: str = CHINCHON, params: tuple = ()) -> StrategyAgent:
    agent = strategy_agent(strategy(path, level, params), seed=1)
    agent.attach(game, seat)
    return agent


ALL_40 = [f"{r}{s}" for s in "oceb" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]


def chinchon(p1: str, discard: str = "", stage: str = "discard") -> Game:
    """P1 to move with hand `p1` (8 cards to discard or close, 7 to draw); the discard pile bottom first.
    P2 holds seven of the other cards (P1 cannot see them)."""
    game = Game(program(CHINCHON), 0, players=2)
    game.start()
    game.memory.pending = None
    used = set(p1.split()) | set(discard.split())
    p2 = " ".join([n for n in ALL_40 if n not in used][:7])
    moves = "discard, close, close_all" if stage == "discard" else "draw"
    return arrange(game, zones={"P1.hand": p1, "P2.hand": p2, "discard": discard},
                   state={"turn": "players[0]", "stage": repr(stage)}, to_move=("P1", moves))


def decide(game: Game, agent: StrategyAgent) -> tuple[str, str]:
    """The label of the option the agent chooses, and the rule that chose it."""
    option, rule = agent.decide(game.decision())
    return option.label, rule


def seen(agent: StrategyAgent, names: str, game: Game) -> None:
    """Let the seat remember these cards as gone out in the current discard pile."""
    agent.memory.update(gone=names.split(), gone_hand=game.memory.vars["hand_number"],
                        stock_was=len(game.memory.vars["stock"]))


# ============================================================ the seed's player: discarding
# Hand 1o 2o 3o (a run) + 12c 12e (a pair: 2 each) + 11c (next to 12c: 1, and 12c gets 1 more)
# + 7b and 4e (no relation: 0). The lowest counter is 0 (7b, 4e); the tie goes to the highest.
SEED_HAND = "1o 2o 3o 12c 12e 11c 7b 4e"


def test_seed_discards_the_unmelded_card_with_the_lowest_counter_not_the_highest_card():
    game = chinchon(SEED_HAND)
    label, rule = decide(game, agent_for(game, "seed"))
    assert label == "discard 7b"
    assert rule == "discard_the_unmelded_card_with_the_lowest_counter"


def test_seed_counters_as_the_seed_defines_them():
    game = chinchon(SEED_HAND)
    agent = agent_for(game, "seed")
    counter = compile_expression(strategy(CHINCHON, "seed").program, "counter(c, h)", ("c", "h"))
    hand = cards(game, SEED_HAND)
    view = game.memory.seen_by(0)
    view.vars.update(agent.memory)
    got = {c.name: counter(view, view.localize(c), [view.localize(d) for d in hand]) for c in hand}
    assert got == {"12c": 3, "12e": 2, "11c": 1, "7b": 0, "4e": 0, "1o": 2, "2o": 2, "3o": 2}


def test_seed_never_discards_a_melded_card_even_a_high_one():
    # 10b 11b 12b is a run worth 33; 2c, 4e, 6o are loose and unrelated: the highest of them goes
    game = chinchon("10b 11b 12b 7c 7e 2c 4e 6o")
    assert decide(game, agent_for(game, "seed"))[0] == "discard 6o"


def test_seed_counts_a_run_as_dead_once_its_missing_cards_have_gone_out():
    # 4e 5e: one point each while 3e or 6e may still come; 2b is unrelated (0) and goes first ...
    hand = "10o 11o 12o 7c 7b 4e 5e 2b"
    game = chinchon(hand)
    assert decide(game, agent_for(game, "seed"))[0] == "discard 2b"
    # ... but once 3e and 6e have gone out, 4e 5e are worth 0 too, and the highest of the three goes
    game = chinchon(hand)
    agent = agent_for(game, "seed")
    seen(agent, "3e 6e", game)
    assert decide(game, agent)[0] == "discard 5e"


def test_seed_forgets_the_cards_gone_out_in_an_earlier_hand():
    game = chinchon("10o 11o 12o 7c 7b 4e 5e 2b", discard="6b")
    agent = agent_for(game, "seed")
    seen(agent, "3e 6e", game)
    agent.memory["gone_hand"] -= 1  # they went out in the last hand: 4e 5e are alive again
    assert decide(game, agent)[0] == "discard 2b"
    assert agent.memory["gone"] == ["6b"]  # only the top of this hand's pile


def test_seed_remembers_the_discards_it_sees():
    game = chinchon("10o 11o 12o 7c 7b 4e 5e 2b")
    agent = agent_for(game, "seed")
    game.apply(next(o for o in game.options() if o.label == "discard 2b"))
    assert agent.memory["gone"] == ["2b"]


# ============================================================ drawing
# (level, hand of 7, discard pile bottom first, expected choice, the rule expected to choose it)
DRAWS = [
    # the 6c joins the unmelded 4c 5c into a run; the 6b joins nothing; a fourth 7 is never taken
    ("seed", "4c 5c 1o 7e 10b 12o 3e", "11b 6c", "take 6c", "take_the_discard_that_joins_two_unmelded"),
    ("seed", "4c 5c 1o 7e 10b 12o 3e", "6b", "draw stock", "otherwise_draw_from_the_stock"),
    ("seed", "7o 7c 7e 1c 4e 10b 12o", "7b", "draw stock", "otherwise_draw_from_the_stock"),
    # 1o 2o 3o + 5c 5e 5b melded, 12b loose: the 2c lets it close (12b face down, scores 2);
    # a high card on top: it tries the stock
    ("seed", "1o 2o 3o 5c 5e 5b 12b", "2c", "take 2c", "take_the_discard_that_closes"),
    ("seed", "1o 2o 3o 5c 5e 5b 12b", "10c", "draw stock", "six_melded_try_the_stock"),
    # 1o 2o 3o melded: the 4o extends the run and lets the 12o go (12 points saved); the 11c
    # would only replace the 12o (one point saved, under the margin of 3)
    ("strong", "1o 2o 3o 7c 10b 12o 11e", "4o", "take 4o", "take_the_discard_that_saves_points"),
    ("strong", "1o 2o 3o 7c 10b 12o 4e", "11c", "draw stock", "otherwise_draw_from_the_stock"),
]


@pytest.mark.parametrize("level, hand, pile, expected, rule", DRAWS)
def test_drawing(level, hand, pile, expected, rule):
    game = chinchon(hand, discard=pile, stage="draw")
    assert decide(game, agent_for(game, level)) == (expected, rule)


# ============================================================ closing
@pytest.mark.parametrize("level", ["seed", "strong"])
def test_closes_as_soon_as_it_can(level):
    # 1o 2o 3o 4o + 6c 6e 6b all melded: 12b face down scores -10
    game = chinchon("1o 2o 3o 4o 6c 6e 6b 12b")
    label, rule = decide(game, agent_for(game, level))
    assert label == "close with 12b (scores -10)"
    assert rule == "close_when_the_hand_wins"


@pytest.mark.parametrize("level", ["seed", "strong"])
def test_six_melded_and_a_low_card_closes(level):
    game = chinchon("1o 2o 3o 6c 6e 6b 2b 12b")
    assert decide(game, agent_for(game, level))[0] == "close with 12b (scores 2)"


# ============================================================ the strong player
def test_strong_sheds_points_where_the_seed_keeps_them():
    # the seed throws 7b (counter 0) and keeps 11c 12c 12e; the strong player weighs points: the
    # kings stay (a pair two unseen cards complete), the 11c (only the 10c joins it) goes
    game = chinchon(SEED_HAND)
    assert decide(game, agent_for(game, "strong")) == ("discard 11c", "discard_for_the_best_expected_hand")


def test_strong_keeps_a_melded_run_and_weighs_a_pair_by_its_points():
    # 10b 11b 12b melded (33 points kept off the count) stays; the seed would keep the pair 7c 7e
    # and throw 6o, the strong player breaks the pair: 7c leaves 19 points loose, 6o would leave 20
    game = chinchon("10b 11b 12b 7c 7e 2c 4e 6o")
    assert decide(game, agent_for(game, "strong"))[0] == "discard 7c"


# ============================================================ the chip game
def fichas(seed: int, **params) -> Game:
    key = tuple(sorted((k, str(v)) for k, v in params.items()))
    game = Game(program(FICHAS, key), seed, players=2)
    game.start()
    return game


@pytest.mark.slow
def test_exact_always_picks_a_winning_move_in_a_won_position():
    solver, checked = Solver(), 0
    rng = random.Random(4)
    for seed in range(40):
        params = {"count": rng.randint(3, 10), "colours": rng.randint(2, 4), "values": rng.randint(2, 4)}
        game = fichas(seed, **params)
        mover = game.to_move.index
        winning = {o.label for o, value in solver.evaluate(game) if value[mover] == 1}
        if not winning:
            continue
        key = tuple(sorted((k, str(v)) for k, v in params.items()))
        option, _ = agent_for(game, "exact", mover, FICHAS, key).decide(game.decision())
        assert option.label in winning, f"seed {seed} {params}: {option.label} not in {winning}"
        checked += 1
    assert checked >= 10


def test_exact_takes_the_last_colour_without_search():
    game = fichas(0, chips="R1 R2 R3")
    option, rule = agent_for(game, "exact", 0, FICHAS, (("chips", "R1 R2 R3"),)).decide(game.decision())
    assert (option.label, rule) == ("colour R", "one_colour_left_take_it_all")


def test_greedy_takes_the_largest_group():
    # value 2 takes three chips, colour B two, every other group one or two
    chips = "R2 B2 G2 B3 Y1"
    game = fichas(0, chips=chips)
    option, rule = agent_for(game, "greedy", 0, FICHAS, (("chips", chips),)).decide(game.decision())
    assert (option.label, rule) == ("value 2", "take_the_largest_group")
