"""Rule files as OpenSpiel games: OpenSpiel's own checks, its bots playing full games, resampling, errors."""
from __future__ import annotations

from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is an optional extra: pip install -e '.[openspiel]'")
np = pytest.importorskip("numpy")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from naipes import GameError, ParamError  # noqa: E402
from naipes.bridges.openspiel import load_game, register_all  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NAMES = register_all()

QUICK = {  # small params (a short match) so that OpenSpiel's checks play whole games quickly; (params, games)
    "naipes_fichas": ({}, 3), "naipes_fichas_misere": ({"count": 6}, 3),
    "naipes_tute_cabrero": ({"porotos_to_retire": 1}, 2), "naipes_pocha": ({"peak": 2}, 2),
    "naipes_pocha_static": ({"rounds": 2, "cards_each": 3}, 2),
    # one hand of random Chinchón: its discard pile is shuffled into a new stock in the middle of a move
    "naipes_chinchon": ({"target": 5}, 1),
    "naipes_brisca": ({}, 2), "naipes_brisca_parejas": ({}, 2), "naipes_hearts": ({"target": 30}, 1),
    # (Wizard, tricks: no param shortens their matches, and they add no mechanism the others lack; their
    # options and tensors are checked by tests/test_actions.py and PettingZoo's api_test)
}


def test_every_shipped_rule_file_is_registered() -> None:
    assert sorted(NAMES) == sorted(f"naipes_{p.stem}" for p in (ROOT / "rulesets").glob("*.yaml"))
    assert set(NAMES) <= {t.short_name for t in pyspiel.registered_games()}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(QUICK))
def test_openspiel_random_simulation_checks(name: str) -> None:
    params, games = QUICK[name]
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=games, serialize=False, verbose=False)


def play(game, bots: list, rng: np.random.RandomState) -> tuple[list[float], int]:
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
            moves += 1
    return state.returns(), moves


@pytest.mark.slow
@pytest.mark.parametrize("name, params", [("naipes_tute_cabrero", {"porotos_to_retire": 1}),
                                          ("naipes_pocha", {"peak": 2, "players": 3})])
def test_openspiel_ismcts_plays_whole_games(name: str, params: dict) -> None:
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(1)
    bots = [ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=np.random.RandomState(i))
            for i in range(game.num_players())]
    returns, moves = play(game, bots, rng)
    assert moves > 5 and len(returns) == game.num_players()
    if name == "naipes_tute_cabrero":
        assert sorted(returns) in ([0.0, 1.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0], [1.0, 1.0, 1.0])


def test_openspiel_mcts_plays_a_perfect_information_game() -> None:
    game = pyspiel.load_game("naipes_fichas", {"count": 8})
    rng = np.random.RandomState(2)
    bots = [mcts.MCTSBot(game, 2.0, 40, mcts.RandomRolloutEvaluator(1, rng), random_state=np.random.RandomState(i))
            for i in range(2)]
    returns, moves = play(game, bots, rng)
    assert sorted(returns) == [0.0, 1.0] and moves >= 2


@pytest.mark.slow
def test_deals_are_chance_nodes_one_card_at_a_time() -> None:
    game = pyspiel.load_game("naipes_tute_cabrero")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 40
    dealt = 0
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])
        dealt += 1
    assert dealt == 39  # the last card of the deck has nowhere else to go
    hand = state.observation_tensor(0)  # P1's hand is in the view: 13 cards
    assert sum(hand) > 13


def test_resampling_keeps_the_information_state_and_changes_hidden_cards() -> None:
    game = pyspiel.load_game("naipes_tute_cabrero")
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while state.is_chance_node() or state.move_number() < 50:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(player, sampler) for _ in range(5)]
    assert all(w.information_state_string(player) == state.information_state_string(player) for w in worlds)
    assert all(w.information_state_tensor(player) == state.information_state_tensor(player) for w in worlds)
    assert all(w.legal_actions() == state.legal_actions() for w in worlds)
    others = [p for p in range(game.num_players()) if p != player]
    assert any(w.observation_string(q) != state.observation_string(q) for w in worlds for q in others)


def test_tensor_shapes_are_fixed_per_rule_file_and_params() -> None:
    small, large = pyspiel.load_game("naipes_pocha", {"players": 3}), pyspiel.load_game("naipes_pocha", {"players": 6})
    assert small.observation_tensor_shape() != large.observation_tensor_shape()
    state = small.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert len(state.observation_tensor(1)) == small.observation_tensor_size()
    assert len(state.information_state_tensor(1)) == small.information_state_tensor_size()


def test_bad_input_gets_clear_errors() -> None:
    with pytest.raises(ParamError, match="no rule file 'naipes_nope' \\(known: naipes_chinchon"):
        load_game("naipes_nope")
    with pytest.raises(ParamError, match="param 'peak' of naipes_pocha is int; 'x' is not"):
        load_game("naipes_pocha", {"peak": "x"})
    with pytest.raises(ParamError, match="param 'peak': 99 is above the maximum 20"):
        load_game("pocha", {"peak": 99})
    with pytest.raises(ParamError, match="unknown param 'nope' of naipes_pocha"):
        load_game("pocha", {"nope": 1})
    state = load_game("tute_cabrero").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(GameError, match=r"action 0 \(bid 0\) is not legal now"):
        state.apply_action(0)


@pytest.mark.slow
def test_an_openspiel_bot_plays_in_a_naipes_seat() -> None:
    from naipes import make_agent, play_game
    from naipes.bridges.openspiel import SpielBotAgent

    game = load_game("tute_cabrero", {"porotos_to_retire": 1})

    def make_bot(spiel_game, seed: int):
        rng = np.random.RandomState(seed)
        return ismcts.ISMCTSBot(spiel_game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 4, random_state=rng)
    seats = [SpielBotAgent(game, make_bot, seed=1), make_agent("random", 2), make_agent("novice", 3, game.program)]
    result = play_game(game.program, seats, seed=4)
    assert result.decisions > 10 and sorted(result.payoffs) in ([0, 1, 1], [0, 0, 1])
