"""Rule files as OpenSpiel games: OpenSpiel's own checks on every shipped rule file, saving and loading, chance
nodes where information appears, game types from the rule file, exact answers on games with known ones (the
chip game against `naipes solve`, Kuhn and Leduc poker against OpenSpiel's own), OpenSpiel's bots playing."""
from __future__ import annotations

import json
import pickle
from fractions import Fraction
from itertools import permutations
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is an optional extra: pip install -e '.[openspiel]'")
np = pytest.importorskip("numpy")
from click.testing import CliRunner  # noqa: E402
from open_spiel.python import policy as spiel_policy  # noqa: E402
from open_spiel.python.algorithms import (  # noqa: E402
    cfr,
    expected_game_score,
    exploitability,
    get_all_states,
    ismcts,
    mcts,
    minimax,
)

from naipes import GameError, NaipesError, ParamError, load_program  # noqa: E402
from naipes.bridges import chance as chance_module  # noqa: E402
from naipes.bridges.chance import ChanceGame  # noqa: E402
from naipes.bridges.openspiel import load_game, register, register_all  # noqa: E402
from naipes.program import get  # noqa: E402
from naipes.tools.cli import main as cli  # noqa: E402

from helpers import RULESETS  # noqa: E402
from helpers import program as cached_program  # noqa: E402

NAMES = register_all()
CHANCE = pyspiel.PlayerId.CHANCE

# Every shipped rule file, with params that keep a random game short, and the games OpenSpiel's check plays.
# (Chinchón: a bad close is offered and ends the match, so random play ends it soon.)
SHORT_CHINCHON = {"target": 5, "allow_bad_close": True}
SIMULATED = {
    "naipes_chinchon": (SHORT_CHINCHON, 3), "naipes_chinchon_48": (SHORT_CHINCHON, 3),
    "naipes_chinchon_jokers": (SHORT_CHINCHON, 3), "naipes_fichas": ({}, 3), "naipes_fichas_misere": ({"count": 6}, 3),
    "naipes_kuhn_poker": ({}, 5), "naipes_leduc_poker": ({}, 5), "naipes_pocha": ({"peak": 2}, 2),
    "naipes_pocha_static": ({"rounds": 2, "cards_each": 3}, 2), "naipes_tricks": ({}, 1),
    "naipes_tute_cabrero": ({"porotos_to_retire": 1}, 1), "naipes_wizard": ({"players": 6}, 1),
    "naipes_wizard_last_bidder": ({"players": 6}, 1), "naipes_wizard_official": ({"players": 6}, 1),
    "naipes_brisca": ({}, 2), "naipes_brisca_parejas": ({}, 2), "naipes_hearts": ({"target": 30}, 1),
    "naipes_escoba": ({"target": 5}, 2), "naipes_escoba_parejas": ({"target": 5}, 1),
    "naipes_truco": ({}, 3), "naipes_truco_parejas": ({}, 3),
    "naipes_texas_holdem": ({"hands": 3}, 3), "naipes_texas_holdem_limit": ({"hands": 3, "players": 3}, 3),
    "naipes_mus": ({"target": 30}, 3), "naipes_president": ({"hands": 1}, 2), "naipes_cheat": ({"max_cards": 8}, 1),
}
# two decks from five players: every card twice
TWO_DECKS = ("naipes_chinchon", {**SHORT_CHINCHON, "players": 5})


def random_play(state, rng: np.random.RandomState, moves: int = 10**9):
    """Play at random (chance by its probabilities) until the end or `moves` actions; returns the state."""
    while not state.is_terminal() and moves > 0:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        moves -= 1
    return state


def to_decision(state, rng: np.random.RandomState):
    """Deal (at random) up to the next decision."""
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))
    return state


def test_every_shipped_rule_file_is_registered_and_simulated() -> None:
    assert sorted(NAMES) == sorted(f"naipes_{p.stem}" for p in RULESETS.glob("*.yaml"))
    assert set(NAMES) <= {t.short_name for t in pyspiel.registered_games()}
    assert sorted(SIMULATED) == sorted(NAMES)  # none left out of OpenSpiel's check


@pytest.mark.slow
@pytest.mark.parametrize("name, params", [(name, params) for name, (params, _) in sorted(SIMULATED.items())]
                         + [TWO_DECKS], ids=lambda v: v if isinstance(v, str) else "")
def test_openspiel_random_simulation_checks_with_saving(name: str, params: dict) -> None:
    games = SIMULATED[name][1] if params is SIMULATED[name][0] else 1
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=games, serialize=True, verbose=False)


# ---------------------------------------------------------------- action strings
@pytest.mark.parametrize("name, params", [(name, {}) for name in sorted(NAMES)] + [TWO_DECKS],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_every_action_has_a_string_of_its_own(name: str, params: dict) -> None:
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    moves = [state.action_to_string(0, a) for a in range(game.num_distinct_actions())]
    assert len(set(moves)) == len(moves)
    deals = [state.action_to_string(CHANCE, a) for a in range(game.max_chance_outcomes())]
    assert len(set(deals)) == len(deals)


def test_copies_of_a_card_are_told_apart_by_number() -> None:
    game = pyspiel.load_game(*TWO_DECKS)
    state = game.new_initial_state()
    moves = [state.action_to_string(0, a) for a in range(game.num_distinct_actions())]
    assert "discard 1o #1" in moves and "discard 1o #2" in moves and "discard 1o" not in moves
    jokers = pyspiel.load_game("naipes_chinchon_jokers", SHORT_CHINCHON).new_initial_state()
    assert {jokers.action_to_string(CHANCE, a) for a in (40, 41)} == {"deal joker #1", "deal joker #2"}


# ---------------------------------------------------------------- saving and loading
def played(name: str, params: dict, seed: int, moves: int):
    game = pyspiel.load_game(name, params)
    return game, random_play(game.new_initial_state(), np.random.RandomState(seed), moves)


def same_future(a, b, seed: int) -> None:
    """Two states that are the same state: the same string and history, and the same game when played on alike."""
    assert str(a) == str(b) and a.history() == b.history()
    rng_a, rng_b = np.random.RandomState(seed), np.random.RandomState(seed)
    for _ in range(40):
        if a.is_terminal():
            break
        random_play(a, rng_a, 1), random_play(b, rng_b, 1)
        assert str(a) == str(b)
    assert a.is_terminal() == b.is_terminal() and a.returns() == b.returns()


@pytest.mark.parametrize("name, params, moves", [("naipes_leduc_poker", {}, 4), ("naipes_tute_cabrero", {}, 60),
                                                 ("naipes_chinchon", {"target": 5}, 70),
                                                 ("naipes_chinchon", {"target": 5}, 5)])  # (in the middle of a deal)
def test_states_serialize_pickle_and_load_again(name: str, params: dict, moves: int) -> None:
    game, state = played(name, params, 7, moves)
    same_future(game.deserialize_state(state.serialize()), state.clone(), 1)
    same_future(pickle.loads(pickle.dumps(state)), state.clone(), 2)
    loaded_game, loaded = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(loaded_game) == str(game)
    same_future(loaded, state.clone(), 3)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.get_type().utility == game.get_type().utility


def test_a_resampled_state_is_saved_with_the_resampling() -> None:
    game, state = played("naipes_tute_cabrero", {}, 3, 50)
    to_decision(state, np.random.RandomState(0))
    world = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert str(world) != str(state)
    same_future(pickle.loads(pickle.dumps(world)), world.clone(), 4)


def test_a_game_around_a_naipes_game_cannot_be_saved() -> None:
    from naipes import Game
    from naipes.agents.knowledge import Knowledge
    game = Game(cached_program(RULESETS / "fichas.yaml"), 1)
    knowledge = Knowledge(game, 0)
    game.start()
    with pytest.raises(NaipesError, match="cannot be saved"):
        pickle.dumps(ChanceGame.around(game, knowledge, []))


# ---------------------------------------------------------------- chance nodes
def chance_before_first_decision(game) -> tuple[int, int]:
    """(chance nodes before the first decision, the lines of chance outcomes that lead there)."""
    state, nodes, lines = game.new_initial_state(), 0, 1
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        nodes, lines = nodes + 1, lines * len(outcomes)
        state.apply_action(outcomes[0][0])
    return nodes, lines


def test_a_deal_is_chance_for_the_cards_dealt_only() -> None:
    # a one-card hand of Pocha for 3 (36 cards): the three cards dealt and the trump turned up; OpenSpiel's
    # one-trick oh_hell for 3 (52 cards) chooses the dealer, deals three cards and turns up the trump
    pocha = chance_before_first_decision(load_game("pocha", {"players": 3, "peak": 1}))
    oh_hell = chance_before_first_decision(pyspiel.load_game("oh_hell", {"players": 3, "num_tricks_fixed": 1}))
    assert pocha == (4, 36 * 35 * 34 * 33) and oh_hell[0] == 6
    # Tute deals every card: 39 decided, the last has nowhere else to go
    assert chance_before_first_decision(load_game("tute_cabrero"))[0] == 39


def test_an_undealt_stock_stays_undecided_until_a_card_is_drawn() -> None:
    game = load_game("chinchon", {"target": 5})
    assert chance_before_first_decision(game)[0] == 7 + 7 + 1  # two hands and the card turned up
    state = to_decision(game.new_initial_state(), np.random.RandomState(0))
    draw = next(a for a in state.legal_actions() if state.action_to_string(state.current_player(), a)
                == "draw stock")
    hand = json.loads(state.observation_string(state.current_player()))["players"][state.current_player()]["hand"]
    state.apply_action(draw)
    assert state.is_chance_node() and len(state.chance_outcomes()) == 40 - 15  # any card of the stock
    state.apply_action(state.chance_outcomes()[3][0])
    assert not state.is_chance_node()
    after = json.loads(state.observation_string(state.current_player()))["players"][state.current_player()]["hand"]
    assert len(after) == len(hand) + 1


def chance_tree(state, probability=Fraction(1), dealt=()) -> dict:
    """Leduc with every bet a check: the probability of each (P1's card, P2's card, board card) dealt."""
    if state.is_terminal():
        return {dealt: probability}
    out: dict = {}
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        for card, _ in outcomes:
            for key, p in chance_tree(state.child(card), probability / len(outcomes), dealt + (card,)).items():
                out[key] = out.get(key, 0) + p
        return out
    check = next(a for a in state.legal_actions() if state.action_to_string(state.current_player(), a) == "call")
    return chance_tree(state.child(check), probability, dealt)


def test_cards_dealt_one_by_one_come_as_a_shuffle_deals_them() -> None:
    # a shuffle deals the top three of six cards in each of the 6 * 5 * 4 orders alike
    tree = chance_tree(load_game("leduc_poker").new_initial_state())
    assert sorted(tree) == sorted(permutations(range(6), 3))
    assert set(tree.values()) == {Fraction(1, 120)}


def random_chance_game(program, seed: int, moves: int, check: bool = False) -> ChanceGame:
    rng = np.random.RandomState(seed)
    table = ChanceGame(program, seed, check=check)
    for _ in range(moves):
        if table.game.over and not table.chance_pending:
            break
        if table.chance_pending:
            table.deal(int(rng.choice(table.chance_cards())))
        else:
            options = table.game.options()
            table.apply(options[rng.randint(len(options))])
    return table


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(RULESETS.glob("*.yaml")), ids=lambda p: p.stem)
def test_no_shipped_rule_file_reads_a_card_before_anybody_sees_it(path: Path) -> None:
    # each step run again with the unseen cards elsewhere: what any seat sees stays the same (check=True)
    program = cached_program(path, (("allow_bad_close", "true"), ("target", "5")) if "chinchon" in path.stem else ())
    random_chance_game(program, 1, 150, check=True)


def test_a_rule_file_that_reads_an_unseen_card_is_caught(rule_file) -> None:
    path = rule_file("""
        game: peek
        players: 2
        cards: {attributes: {rank: [1, 2, 3, 4]}, start: stock}
        zones: {stock: {visibility: hidden}, hand: {per_player: true, visibility: owner}}
        state: {high: "False"}
        phases:
          deal:
            enter:
              - deal: |
                  shuffle stock
                  deal 1 from stock to [p.hand for p in players]
                  high = top(stock).rank > 2
                  goto play
          play:
        moves: {stop: {then: "end game"}}
        rules:
          - {name: ask, phase: play, then: "ask players[0] to stop"}
    """)
    table = ChanceGame(load_program(path), check=True)
    table.deal(0)  # rank 1 to P1
    with pytest.raises(GameError, match="read a shuffled card before anybody could see it"):
        table.deal(2)  # rank 3 to P2: whether the top of the stock is high depends on which of 2 and 4 it is


def test_placing_a_drawn_card_in_the_game_equals_playing_the_game_again(monkeypatch) -> None:
    # a card of an older shuffle is put in place in the game as it stands (ChanceGame._relabel); playing the
    # window again from its start with the new order must give the same game
    program = cached_program(RULESETS / "chinchon.yaml", (("target", "5"),))
    in_place = random_chance_game(program, 5, 400)
    monkeypatch.setattr(ChanceGame, "_relabel", lambda self, was, card: False)
    replayed = random_chance_game(program, 5, 400)
    assert replayed.describe() == in_place.describe()
    assert [r.text_for(0) for r in replayed.records] == [r.text_for(0) for r in in_place.records]


# ---------------------------------------------------------------- game types
def test_game_types_and_bounds_come_from_the_rule_file() -> None:
    chips = load_game("fichas", {"chips": "R1 R2 B1"})
    kind = chips.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM and chips.utility_sum() == 0
    # winner 1, loser 0: presented less the share of the constant 1
    assert (chips.min_utility(), chips.max_utility(), chips.max_chance_outcomes()) == (-0.5, 0.5, 0)
    # the longest line: value 2 (R2), colour R (R1), then B1 is taken: three moves
    assert chips.max_game_length() == 3
    for ours, theirs in [("kuhn_poker", "kuhn_poker"), ("leduc_poker", "leduc_poker")]:
        mine, spiel = load_game(ours), pyspiel.load_game(theirs)
        assert mine.get_type().utility == spiel.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
        assert mine.get_type().chance_mode == spiel.get_type().chance_mode
        assert (mine.min_utility(), mine.max_utility(), mine.max_game_length(), mine.max_chance_outcomes()) == \
            (spiel.min_utility(), spiel.max_utility(), spiel.max_game_length(), spiel.max_chance_outcomes())
    tute = load_game("tute_cabrero")  # too many lines to play out: what the rule file says
    assert tute.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert tute.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert tute.max_game_length() == tute.program.max_decisions
    unexplored = load_game("fichas", {"explore": 0})  # nothing played out: it never shuffles, so deterministic
    assert unexplored.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert unexplored.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (unexplored.min_utility(), unexplored.max_utility()) == (0.0, 1.0)


@pytest.mark.parametrize("params", [{"count": 8, "seed": 1}, {"count": 8, "seed": 2}, {"count": 10, "seed": 3},
                                    {"chips": "R1 R2 B1"}, {"full": True, "colours": 2, "values": 3}])
def test_alpha_beta_on_the_chip_game_agrees_with_naipes_solve(params: dict) -> None:
    game = load_game("fichas", params)
    value, action = minimax.alpha_beta_search(game)
    args = ["solve", "fichas", "--json", "--seed", str(params.get("seed", 0))]
    args += [f for k, v in params.items() if k != "seed" for f in ("-p", f"{k}={str(v).lower()}")]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    solved = json.loads(result.output.splitlines()[-1])
    assert (value > 0) == (solved["outcome"] == "win") and abs(value) == 0.5
    state = game.new_initial_state()
    if value > 0:
        assert game.actions.option(state.table.game, action).label in solved["winning_moves"]


# ---------------------------------------------------------------- poker: exact answers
def kuhn_equilibrium(game):
    """A Nash equilibrium of Kuhn poker (Kuhn 1950, with alpha = 0) as a policy of the bridge's game:
    P1 checks, then folds J, calls Q 1/3 of the time, calls K; P2 bets K, bluffs J 1/3 of the time after a
    check, and facing a bet folds J, calls Q 1/3 of the time, calls K."""
    bet_or_call = {  # (seat, card, moves so far) -> probability of action 1 (bet or call)
        (0, "J", 0): 0, (0, "Q", 0): 0, (0, "K", 0): 0,
        (0, "J", 2): 0, (0, "Q", 2): Fraction(1, 3), (0, "K", 2): 1,
        (1, "J", "check"): Fraction(1, 3), (1, "Q", "check"): 0, (1, "K", "check"): 1,
        (1, "J", "bet"): 0, (1, "Q", "bet"): Fraction(1, 3), (1, "K", "bet"): 1}
    policy = spiel_policy.TabularPolicy(game)
    for state in get_all_states.get_all_states(game, include_terminals=False).values():
        seat = state.current_player()
        table = state.table
        card = get(table.game.memory.players[seat], "hand")[0].name
        moves = [r.label for r in table.records if r.mover is not None]
        key = (seat, card, len(moves)) if seat == 0 else (seat, card, moves[0])
        probabilities = policy.policy_for_key(state.information_state_string(seat))
        probabilities[:] = [1 - float(bet_or_call[key]), float(bet_or_call[key])]
    return policy


def test_kuhn_poker_through_the_bridge_has_its_known_value() -> None:
    game = load_game("kuhn_poker")
    equilibrium = kuhn_equilibrium(game)
    assert exploitability.exploitability(game, equilibrium) == pytest.approx(0, abs=1e-12)
    value = expected_game_score.policy_value(game.new_initial_state(), [equilibrium] * 2)
    assert value[0] == pytest.approx(-1 / 18, abs=1e-12) and value[1] == pytest.approx(1 / 18, abs=1e-12)


def cfr_curves(ours, theirs, iterations: int) -> list[tuple[float, float]]:
    """CFR on both games side by side: their exploitability after 1, 2, 4, ... iterations."""
    mine, spiel = cfr.CFRSolver(ours), cfr.CFRSolver(theirs)
    curve = []
    for i in range(1, iterations + 1):
        mine.evaluate_and_update_policy()
        spiel.evaluate_and_update_policy()
        if i & (i - 1) == 0:
            curve.append((exploitability.exploitability(ours, mine.average_policy()),
                          exploitability.exploitability(theirs, spiel.average_policy())))
    value = expected_game_score.policy_value(ours.new_initial_state(), [mine.average_policy()] * 2)
    expected = expected_game_score.policy_value(theirs.new_initial_state(), [spiel.average_policy()] * 2)
    assert value == pytest.approx(expected, abs=1e-12)
    return curve


def test_cfr_on_kuhn_poker_through_the_bridge_follows_openspiels_own() -> None:
    curve = cfr_curves(load_game("kuhn_poker"), pyspiel.load_game("kuhn_poker"), 32)
    assert [ours for ours, _ in curve] == pytest.approx([theirs for _, theirs in curve], abs=1e-12)
    assert curve[-1][0] < 0.03 < 0.4 < curve[0][0]  # (it does converge: 0.46 after one iteration, 0.024 after 32)


@pytest.mark.slow
def test_cfr_on_leduc_poker_through_the_bridge_follows_openspiels_own() -> None:
    # two iterations: a state, an information set or a payoff the bridge got wrong shows in the first; each
    # exploitability walks the whole tree through the bridge (seconds)
    curve = cfr_curves(load_game("leduc_poker"), pyspiel.load_game("leduc_poker"), 2)
    assert [ours for ours, _ in curve] == pytest.approx([theirs for _, theirs in curve], abs=1e-12)
    assert curve[-1][0] < curve[0][0]


# ---------------------------------------------------------------- bots and the rest of the API
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
    assert sorted(returns) == [-0.5, 0.5] and moves >= 2


def test_resampling_keeps_the_information_state_and_changes_hidden_cards() -> None:
    game = pyspiel.load_game("naipes_tute_cabrero")
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while state.is_chance_node() or state.move_number() < 90:
        random_play(state, rng, 1)
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
    state = to_decision(small.new_initial_state(), np.random.RandomState(0))
    assert len(state.observation_tensor(1)) == small.observation_tensor_size()
    assert len(state.information_state_tensor(1)) == small.information_state_tensor_size()


def test_bad_input_gets_clear_errors(tmp_path: Path) -> None:
    known = "naipes_brisca, naipes_brisca_parejas, naipes_cheat"  # (sorted)
    with pytest.raises(ParamError, match=f"no rule file 'naipes_nope' \\(known: {known}"):
        load_game("naipes_nope")
    with pytest.raises(ParamError, match="param 'peak' of naipes_pocha is int; 'x' is not"):
        load_game("naipes_pocha", {"peak": "x"})
    with pytest.raises(ParamError, match="param 'peak': 99 is above the maximum 20"):
        load_game("pocha", {"peak": 99})
    with pytest.raises(ParamError, match="unknown param 'nope' of naipes_pocha"):
        load_game("pocha", {"nope": 1})
    state = to_decision(load_game("tute_cabrero").new_initial_state(), np.random.RandomState(0))
    with pytest.raises(GameError, match=r"action 0 \(bid 0\) is not legal now"):
        state.apply_action(0)
    other = tmp_path / "fichas.yaml"  # another rule file of the same name
    other.write_text((RULESETS / "fichas.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(NaipesError, match="naipes_fichas is already registered for"):
        register(other)


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


def test_copies_of_a_state_are_independent() -> None:
    # copies share what they hold until one of them changes (ChanceGame.clone): then each has its own
    table = ChanceGame(chance_module.cached_program(str(RULESETS / "leduc_poker.yaml"), ()))
    copy = table.clone()
    copy.deal(5)
    assert table.chance_cards() == list(range(6)) and copy.chance_cards() == [0, 1, 2, 3, 4]
    table.deal(0)
    copy.deal(0)
    assert table.describe() != copy.describe()
    assert copy.clone().describe() == copy.describe()
