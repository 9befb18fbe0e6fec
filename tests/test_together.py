"""Decisions put to several players at once: `ask each of PLAYERS` (everyone answers; no answer is seen, nor
made, before the last is in) and `ask any of PLAYERS` (the first answer counts; each may leave it to the next)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from naipes import Game, GameError, RandomAgent, load_program, play_game
from naipes.agents.bot_seat import make_bot_seat
from naipes.agents.knowledge import Knowledge
from naipes.program import LEAVE, get
from naipes.tools.cli import main
from naipes.tools.replay import Replay

from helpers import ROOT, load_errors, shipped, write_rules

# Three players bid 1, 2 or 3 at once; the highest bid wins, the earliest seat among equal bids. `log` keeps the
# order in which the bids were made; `seen` what each bidder could read of the others' bids when bidding.
SEALED = """
game: sealed
players: 3
state:
  log: "[]"
player_state:
  bid: {init: "None", visibility: public}
  seen: {init: "None", visibility: public}
phases:
  bidding:
moves:
  bid:
    choose: "n in [1, 2, 3]"
    public: "'a bid'"
    then: |
      player.seen = [p.bid for p in players]
      player.bid = n
      log = log + [player.index]
rules:
  - name: ask_everyone_to_bid
    phase: bidding
    when: "all(p.bid is None for p in players)"
    then: "ask each of players to bid"
  - name: highest_bid_wins
    phase: bidding
    when: "all(p.bid is not None for p in players)"
    then: "end game winner max(players, key=lambda p: p.bid)"
"""

# P1 makes a challenge; either opponent may answer it: the one who does wins if he accepts, P1 if he refuses.
CHALLENGE = """
game: challenge
players: 3
state:
  answer: {init: "None"}
  by: {init: "None"}
phases:
  answering:
moves:
  accept:
    then: |
      answer = 'accepted'
      by = player
  refuse:
    then: |
      answer = 'refused'
      by = player
rules:
  - name: either_opponent_answers
    phase: answering
    when: "answer is None"
    then: "ask any of [players[1], players[2]] to accept, refuse"
  - name: answered
    phase: answering
    when: "answer is not None"
    then: "end game winner by if answer == 'accepted' else players[0]"
"""


@pytest.fixture
def sealed(tmp_path: Path) -> Path:
    return write_rules(tmp_path, SEALED, "sealed.yaml")


@pytest.fixture
def challenge(tmp_path: Path) -> Path:
    return write_rules(tmp_path, CHALLENGE, "challenge.yaml")


def started(path: Path, listen: list | None = None) -> Game:
    game = Game(load_program(path), 1)
    if listen is not None:
        game.observers.append(listen.append)
    game.start()
    return game


def choose(game: Game, label: str) -> None:
    game.apply(next(o for o in game.options() if o.label == label))


def bids(game: Game) -> list:
    return [p.bid for p in game.memory.players]


# ------------------------------------------------------------------ each of
def test_each_answer_is_held_until_the_last_is_in_then_all_are_made_in_the_order_asked(sealed):
    game = started(sealed)
    assert game.to_move.name == "P1"
    choose(game, "bid 3")
    assert game.to_move.name == "P2" and bids(game) == [None, None, None], "P1's bid is held, not made"
    assert [o.label for o in game.options()] == ["bid 1", "bid 2", "bid 3"]
    choose(game, "bid 3")
    assert game.to_move.name == "P3" and bids(game) == [None, None, None]
    choose(game, "bid 2")
    assert bids(game) == [3, 3, 2] and game.memory.vars["log"] == [0, 1, 2]
    # made one after the other, in the order asked: each bid's effect read only the bids made before it
    assert [p.seen for p in game.memory.players] == [[None, None, None], [3, None, None], [3, 3, None]]
    assert game.over and game.memory.winners == (0,)


def test_nobody_sees_an_answer_of_another_before_all_are_in(sealed):
    told: list = []
    game = started(sealed, told)
    choose(game, "bid 2")
    view = game.view(1)
    assert view["to_move"] == "P2" and view["answered"] == ["P1"]
    assert all(p["bid"] is None for p in view["players"])
    assert not [r for r in told if r["type"] == "decision"], "the table is told nothing of a held answer"
    mine, theirs = game.memory.seen_by(0).group, game.memory.seen_by(1).group
    assert mine[2] == ((mine[2][0][0], "bid", (2,)),) and theirs[2] == ((theirs[2][0][0], None, None),)
    choose(game, "bid 1")
    choose(game, "bid 3")
    decisions = [(r["player"], r["choice"]) for r in told if r["type"] == "decision"]
    assert decisions == [("P1", "a bid"), ("P2", "a bid"), ("P3", "a bid")], "told once all are in, in order"


def test_a_held_answer_is_taken_back_by_undo_and_kept_apart_by_a_clone(sealed):
    game = started(sealed)
    before = game.memory.key()
    point = game.make(game.options()[0])
    assert game.to_move.name == "P2" and game.memory.key() != before
    game.undo(point)
    assert game.to_move.name == "P1" and game.memory.group[2] == () and game.memory.key() == before
    choose(game, "bid 1")
    copy = game.clone()
    choose(copy, "bid 2")
    choose(copy, "bid 3")
    assert copy.over and bids(copy) == [1, 2, 3]
    assert not game.over and game.to_move.name == "P2" and bids(game) == [None, None, None]


def test_a_search_world_draws_the_answers_held_from_the_seat_again(sealed):
    game = started(sealed)
    choose(game, "bid 3")
    choose(game, "bid 1")  # P3 to bid: P1's and P2's bids are held
    rng = random.Random(4)
    worlds = [Knowledge(game, 1).world(rng).memory.group[2] for _ in range(60)]
    assert {held[1][2] for held in worlds} == {(1,)}, "P2 knows his own bid"
    assert {held[0][2] for held in worlds} == {(1,), (2,), (3,)}, "P2 does not know P1's"
    assert game.memory.group[2][0][2] == (3,), "the game itself is untouched"


def test_a_game_that_holds_answers_is_not_one_of_perfect_information(sealed, challenge):
    assert not load_program(sealed).perfect_information
    assert load_program(challenge).perfect_information  # (nothing is held: each answer is made when given)


def test_a_logged_game_replays_each_answer_as_a_step(sealed, tmp_path):
    log = tmp_path / "sealed.jsonl"
    result = CliRunner().invoke(main, ["play", str(sealed), "--seat", "random", "--seat", "ismcts:iterations=20",
                                       "--seat", "random", "--seed", "3", "--log", str(log)])
    assert result.exit_code == 0, result.output
    replay = Replay.load(log, sealed)
    assert replay.steps == 3 and replay.game.over
    assert replay.view(1, 2)["answered"] == ["P1"] and replay.view(1, 2)["players"][0]["bid"] is None


# ------------------------------------------------------------------ any of
def test_the_first_answer_counts_and_the_others_are_never_asked(challenge):
    game = started(challenge)
    assert game.to_move.name == "P2"
    assert [o.label for o in game.options()] == ["accept", "refuse", "leave it to P3"]
    choose(game, "accept")
    assert game.over and game.memory.winners == (1,) and game.memory.group is None


def test_a_player_may_leave_it_to_the_next_and_the_last_must_answer(challenge):
    told: list = []
    game = started(challenge, told)
    choose(game, "leave it to P3")
    assert game.to_move.name == "P3"
    assert [o.move for o in game.options()] == ["accept", "refuse"], "nobody is left to leave it to"
    choose(game, "refuse")
    assert game.over and game.memory.winners == (0,)
    assert [(r["player"], r["move"]) for r in told if r["type"] == "decision"] == [("P2", LEAVE), ("P3", "refuse")]


def test_a_person_at_the_terminal_is_told_who_has_answered_not_what(sealed):
    result = CliRunner().invoke(main, ["play", str(sealed), "--seat", "human", "--seat", "human", "--seat", "random",
                                       "--seed", "2"], input="3\n2\n")
    assert result.exit_code == 0, result.output
    second = result.output.split("P2, your move:")[0].rsplit("phase: bidding", 1)[1]
    assert "Already answered, not shown until all have: P1." in second and "bid 3" not in second
    assert "P1: a bid\nP2: a bid\nP3: a bid" in result.output


def test_a_python_bot_answers_with_the_others(sealed, challenge):
    seat = make_bot_seat(f"python:{ROOT / 'examples'}/first_option_bot.py:FirstOption")
    try:
        for path in (sealed, challenge):
            result = play_game(load_program(path), [RandomAgent(1), seat, RandomAgent(2)], seed=3)
            assert result.winners
    finally:
        seat.close()
    assert seat.faults == []


def test_agents_play_both_kinds_to_the_end(sealed, challenge):
    for path, seats in ((sealed, ["ismcts:iterations=20", "pimc:worlds=3", "random"]),
                        (challenge, ["random", "ismcts:iterations=20", "random"])):
        result = CliRunner().invoke(main, ["simulate", str(path), "-n", "4", "--seed", "2",
                                           *[a for seat in seats for a in ("--seat", seat)]])
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("then, message", [
    ("ask each of len(players) to bid", "'ask each of' needs a list of players, not int"),
    ("ask any of players to bdi", "unknown move 'bdi'"),
])
def test_a_group_ask_is_checked_when_the_file_loads(tmp_path, then, message):
    text = SEALED.replace('then: "ask each of players to bid"', f'then: "{then}"')
    errors = load_errors(write_rules(tmp_path, text))
    assert message in errors[0].message and errors[0].location.line == 22


def test_a_move_named_leave_cannot_be_asked_any_of(tmp_path):
    text = CHALLENGE.replace("  refuse:\n", "  leave:\n").replace("accept, refuse", "accept, leave")
    errors = load_errors(write_rules(tmp_path, text))
    assert "'leave' is the option 'ask any of' adds" in errors[0].message


@pytest.mark.parametrize("players, message", [
    ("[players[0], players[0]]", "'ask each of' names a player twice: P1, P1"),
    # one player where a list is needed (the compiler cannot tell an item of players from the list)
    ("players[0]", "'ask each of' needs a list of players, got the player P1: 'ask PLAYER to' asks one player"),
])
def test_a_player_asked_twice_or_alone_is_an_error_of_the_rule_that_asks(tmp_path, players, message):
    text = SEALED.replace("ask each of players to bid", f"ask each of {players} to bid")
    with pytest.raises(GameError) as caught:
        started(write_rules(tmp_path, text))
    assert message in caught.value.message and "ask_everyone_to_bid" in str(caught.value)


# ------------------------------------------------------------------ the bridges and the web table
def test_openspiel_asks_each_in_turn_and_hides_a_held_answer_from_the_others(sealed, challenge):
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is an optional extra")
    from naipes.bridges.openspiel import load_game
    game = load_game(sealed)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state = game.new_initial_state()
    state.apply_action(2)  # P1 bids 3
    assert state.current_player() == 1
    assert state.information_state_string(1).endswith("P1: answers")
    assert state.information_state_string(0).endswith("P1: bid 3")
    state.apply_action(0)
    state.apply_action(1)
    assert state.is_terminal() and state.information_state_string(1).endswith("P1: a bid\nP2: bid 1\nP3: a bid")
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    answered = load_game(challenge)
    state = answered.new_initial_state()
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["accept", "refuse", LEAVE]
    state.apply_action(2)
    assert state.current_player() == 2 and [state.action_to_string(a) for a in state.legal_actions()] == \
        ["accept", "refuse"]
    pyspiel.random_sim_test(answered, num_sims=10, serialize=True, verbose=False)


def test_pettingzoo_plays_both_kinds(sealed, challenge):
    pytest.importorskip("pettingzoo", reason="PettingZoo is an optional extra")
    from pettingzoo.test import api_test

    from naipes.bridges.pettingzoo import env
    for path in (sealed, challenge):
        api_test(env(str(path)), num_cycles=20)


def test_the_web_table_asks_each_human_in_turn_and_shows_only_who_has_answered(sealed):
    pytest.importorskip("starlette", reason="the web table is an optional extra")
    from naipes.web.table import Table
    table = Table(load_program(sealed), ["human", "human", "random"], 5)
    table.start()
    try:
        assert table.info(0)["cards"] == {}  # (a game without cards: what a tab is told first, once a KeyError)
        state = wait_for(table, 0, lambda s: s["your_turn"])
        assert table.submit(0, {"serial": state["serial"], "label": "bid 2"}).result(20) is None
        state = wait_for(table, 1, lambda s: s["your_turn"])
        assert state["view"]["answered"] == ["P1"] and state["view"]["players"][0]["bid"] is None
        assert not [r for r in table.records_for(1) if r["type"] == "decision"]
        assert table.submit(1, {"serial": state["serial"], "label": "bid 1"}).result(20) is None
        state = wait_for(table, 1, lambda s: s["over"])
        told = [r for r in table.records_for(1) if r["type"] == "decision"]
        assert [r["text"] for r in told] == ["a bid"] * 3 and told[1]["own"] == "bid 1" and "own" not in told[0]
    finally:
        table.close()


def test_the_web_table_offers_leave_to_a_person_asked_with_others(challenge):
    pytest.importorskip("starlette", reason="the web table is an optional extra")
    from naipes.web.table import Table
    table = Table(load_program(challenge), ["random", "human", "human"], 5)
    table.start()
    try:
        state = wait_for(table, 1, lambda s: s["your_turn"])
        assert state["moves"] == ["accept", "refuse", LEAVE]
        assert table.submit(1, {"serial": state["serial"], "label": "leave it to P3"}).result(20) is None
        state = wait_for(table, 2, lambda s: s["your_turn"])
        assert state["moves"] == ["accept", "refuse"] and [o["label"] for o in state["options"]] == ["accept", "refuse"]
    finally:
        table.close()


def wait_for(table, seat, predicate):
    """The seat's state once `predicate` holds for it (the table plays in a thread of its own, which may not have
    shown the seat anything yet)."""
    import threading
    changed = threading.Event()
    table.watchers.append(changed.set)
    try:
        while (state := table.state(seat)) is None or not predicate(state):
            assert changed.wait(20), "the table did not change in 20 s"
            changed.clear()
        return state
    finally:
        table.watchers.remove(changed.set)


def test_no_rule_runs_while_answers_are_held_even_in_a_search_world():
    """A search's world deals the hidden cards again, which wakes the rule that asked; it must not ask again
    while the answers it asked for are coming in (Hearts: everyone passes a card at once)."""
    game = Game(load_program(shipped("hearts")), 2)
    game.start()
    for _ in range(5):  # the first round of the pass, and P1's second card (the others' first lie face down)
        game.apply(game.options()[0])
    world = Knowledge(game, 1).world(random.Random(1))
    for _ in range(3):
        world.apply(world.options()[0])
    assert world.to_move.name == "P1" and world.memory.group[2] == (), "the third round of the pass is asked"
    assert all(len(get(p, "passing")) == 2 for p in world.memory.players)
