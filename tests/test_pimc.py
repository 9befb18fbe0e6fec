"""The pimc agent (naipes.agents.pimc), its rollouts (naipes.agents.rollout) and its inference
(naipes.agents.inference): legal, reproducible from a seed, blind to what its seat cannot see, and inference
weights that follow the model of the other players."""
from __future__ import annotations

import dataclasses
import math
import random

import pytest

from naipes import Game, load_program
from naipes.agents.inference import EPSILON, Inference
from naipes.agents.ismcts import standing
from naipes.agents.knowledge import Knowledge
from naipes.agents.pimc import PIMCAgent
from naipes.agents.registry import RandomAgent, load_strategy, make_agent, strategy_agent
from naipes.agents.rollout import Policies
from naipes.agents.search import Solver

from helpers import blind_check, run
from helpers import shipped_program as program_for


@pytest.mark.parametrize("name, params", [("pocha", {"peak": "3"}), ("tute_cabrero", {"porotos_to_retire": "1"}),
                                          ("wizard", {}), ("chinchon", {})])
def test_pimc_plays_legal_games_reproducibly_from_its_seed(name, params):
    program = program_for(name, **params)
    seats = program.players[2]

    def agents():  # (two worlds a decision draw from the seeded generator in turn as more would; tute's lines
        # played on by its AI take seconds a world)
        return [make_agent("pimc:worlds=2,nodes=300", seed=5, program=program)] + \
            [RandomAgent(i) for i in range(1, seats)]
    first = run(Game(program, 3), agents(), limit=30)
    assert first == run(Game(program, 3), agents(), limit=30)
    assert any(seat == 0 for seat, _ in first)


def test_ismcts_with_inference_plays_legal_games_reproducibly_from_its_seed():
    program = program_for("pocha", peak="3")

    def agents():
        return [make_agent("ismcts:iterations=20,infer=strong", seed=5, program=program)] + \
            [make_agent("strong", seed=i, program=program) for i in range(1, 4)]
    first = run(Game(program, 3), agents(), limit=40)
    assert first == run(Game(program, 3), agents(), limit=40)
    seated = agents()[0]
    assert seated.infer_spec == "strong" and make_agent("ismcts", program=program).infer_spec is None


def test_pimc_finds_the_winning_move_of_a_chip_game():
    """With nothing hidden, every world is the game itself: pimc plays what the exact solver says."""
    program = program_for("fichas", chips="R1 R2 B1 B3 G3")
    game = Game(program, 1)
    game.start()
    winning = {o.key for o in Solver().best(game.clone())}
    assert 0 < len(winning) < len(game.options())
    agent = make_agent("pimc:worlds=1,nodes=100000", seed=1, program=program)
    assert agent.choose(game.decision()).key in winning


@pytest.mark.slow
@pytest.mark.parametrize("name, params", [("pocha", {"peak": "4"}), ("tute_cabrero", {"porotos_to_retire": "1"})])
def test_pimc_never_reads_what_its_view_hides(name, params):
    """The same choice when the cards its seat cannot see lie elsewhere (same knowledge, same generator)."""
    program = program_for(name, **params)
    rng = random.Random(0)
    agent = PIMCAgent(1, worlds=4, nodes=400, program=program,
                      make_policy=lambda spec, seed: make_agent(spec, seed=seed, program=program))
    agents = [agent] + [make_agent("strong", seed=i, program=program) for i in range(1, program.players[2])]
    compared: list = []
    check = blind_check(agent, compared, rng)
    run(Game(program, 7), agents, limit=80, check=check)
    assert len(compared) == 4


def test_pimc_options_on_the_command_line():
    program = program_for("pocha")
    agent = make_agent("pimc:worlds=7,model=paranoid,nodes=50,depth=2,infer=none", seed=1, program=program)
    assert (agent.worlds, agent.model, agent.nodes, agent.depth, agent.infer_spec) == (7, "paranoid", 50, 2, None)
    assert agent.policy_spec == "strong"  # the rule file's AI plays lines on (Pocha declares no estimate)
    assert make_agent("pimc", seed=1, program=program_for("chinchon")).policy_spec is None  # (an estimate)
    for spec, message in [("pimc:width=3", "no option 'width'"), ("pimc:worlds=0", "worlds is 0"),
                          ("pimc:model=best", "model is 'best'"), ("pimc:worlds=x", "needs a whole number")]:
        with pytest.raises(Exception, match=message):
            make_agent(spec, program=program)


# ------------------------------------------------------------------ rollouts
def test_a_rollout_plays_to_the_end_of_the_hand_and_takes_every_move_back():
    program = program_for("pocha", peak="4")
    game = Game(program, 2)
    policies = Policies(game, "strong", lambda spec, seed: make_agent(spec, seed=seed, program=program), 9)
    game.start()
    rng = random.Random(2)
    while game.memory.vars["round_number"] < 3:
        game.apply(rng.choice(game.options()))
    world = game.clone()
    world.pause_after(program.evaluation_reads)
    before, start = world.key(), standing(world)
    policies.follow(world)
    policies.play_on(world)
    after = standing(world)
    assert world.paused or world.over
    assert after != start  # a round was scored
    policies.undo_all(world)
    assert world.key() == before and standing(world) == start
    policies.play_on(world)
    assert standing(world) == after  # the same world, the same rollout
    policies.undo_all(world)


# ------------------------------------------------------------------ inference
GUESS = """
game: guess
players: 2
cards: {attributes: {rank: [1, 2, 3, 4, 5, 6]}, start: deck}
zones:
  deck: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
  table: {}
state: {said: "None"}
phases: [deal, talk, play]
moves:
  say: {choose: "x in ['high', 'low']", label: "x", then: "said = x\\nphase = 'play'"}
  play: {choose: "c in player.hand", then: "move c to table"}
rules:
  - {name: deal, phase: deal, then: "shuffle deck\\ndeal 2 from deck to [p.hand for p in players]\\nphase = 'talk'"}
  - {name: talk, phase: talk, then: "ask players[0] to say"}
  - {name: over, phase: play, priority: 1, when: "len(table) == 4", then: "end game winner players[0]"}
  - {name: ask, phase: play, when: "len(table) < 4", then: "ask players[len(table) % 2] to play"}
"""

MODEL = """
game: guess
rules:
  - {name: high_with_a_six, move: say, when: "any(c.rank == 6 for c in me.hand)", choose: "'high'"}
  - {name: else_low, move: say, choose: "'low'"}
  - {name: lowest, move: play, choose: "min(options, key=lambda c: c.rank)"}
"""


def test_worlds_are_weighed_by_how_likely_the_model_makes_the_choices_seen(tmp_path):
    """P1 said 'high'; the model says high only with a 6. P2's worlds where P1 holds the 6 weigh 1 - EPSILON,
    the others EPSILON (one other option); P1's later plays, lowest first, weigh in too."""
    (tmp_path / "guess.yaml").write_text(GUESS)
    (tmp_path / "model.yaml").write_text(MODEL)
    program = load_program(tmp_path / "guess.yaml")
    strategy = load_strategy(tmp_path / "model.yaml", program)
    make = lambda spec, seed: strategy_agent(strategy, seed)  # noqa: E731
    for seed in range(12):
        game = Game(program, seed)
        knowledge = Knowledge(game, 1)
        policies = Policies(game, "model", make, 1)
        inference = Inference(game, 1, knowledge, policies.agents)
        game.start()
        p1 = game.memory.players[0]
        has_six = any(c.rank == 6 for c in p1.hand)
        game.apply(next(o for o in game.options() if o.arg == ("high" if has_six else "low")))  # as the model
        rng = random.Random(seed)
        for _ in range(10):
            world = knowledge.world(rng)
            world_six = any(c.rank == 6 for c in world.memory.players[0].hand)
            expected = 1 - EPSILON if world_six == has_six else EPSILON
            assert math.exp(inference.log_likelihood(world)) == pytest.approx(expected)
        # P1 plays his higher card, which the model (lowest first) would not: worlds weigh that in too
        game.apply(max(game.options(), key=lambda o: o.arg.rank))
        played = game.memory.vars["table"][0].rank
        for _ in range(10):
            world = knowledge.world(rng)
            kept = world.memory.players[0].hand[0].rank
            said = 1 - EPSILON if (6 in (kept, played)) == has_six else EPSILON
            chose = 1 - EPSILON if played < kept else EPSILON
            assert math.exp(inference.log_likelihood(world)) == pytest.approx(said * chose)


def test_resampled_worlds_favour_the_likely_ones(tmp_path):
    (tmp_path / "guess.yaml").write_text(GUESS)
    (tmp_path / "model.yaml").write_text(MODEL)
    program = load_program(tmp_path / "guess.yaml")
    strategy = load_strategy(tmp_path / "model.yaml", program)
    make = lambda spec, seed: strategy_agent(strategy, seed)  # noqa: E731
    game = Game(program, 4)
    knowledge = Knowledge(game, 1)
    inference = Inference(game, 1, knowledge, Policies(game, "model", make, 1).agents)
    game.start()
    p1 = game.memory.players[0]
    says = "high" if any(c.rank == 6 for c in p1.hand) else "low"
    game.apply(next(o for o in game.options() if o.arg == says))
    worlds = inference.weighted_worlds(random.Random(1), 40)
    assert sum(weight for _, weight in worlds) == 40
    agreeing = sum(weight for world, weight in worlds
                   if any(c.rank == 6 for c in world.memory.players[0].hand) == (says == "high"))
    assert agreeing / 40 > 0.6  # (uniform worlds agree about 1 time in 3 for 'high', 2 in 3 for 'low')


def test_pimc_as_the_rule_files_ai_models_the_others_by_its_strongest_level_not_by_itself():
    """A rule file whose AI is pimc: pimc's policy and model of the others are the top of the game's ladder."""
    program = dataclasses.replace(program_for("tute_cabrero", porotos_to_retire="1"), default_ai="pimc:worlds=3")
    agent = make_agent(program.default_ai, seed=1, program=program)
    assert (agent.policy_spec, agent.infer_spec) == ("strong", "strong")
    first = run(Game(program, 3), [agent] + [make_agent("strong", seed=i, program=program) for i in (1, 2)], 12)
    assert any(seat == 0 for seat, _ in first)
