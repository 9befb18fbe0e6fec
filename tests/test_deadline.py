"""Time budgets that hold (naipes.agents.deadline): `pimc:seconds=S` and `ismcts:seconds=S` bound a whole
decision, inference, exact searches and lines played on included.

The clock is the test's own and moves on a fixed step each time it is read, so a deadline comes after a fixed
count of reads: the tests count the work a deadline lets through (model calls, worlds, nodes), never the time.
The position is Chinchón's where one `pimc:worlds=1000,seconds=0.1` decision took 51 CPU seconds before the
budget was checked inside inference: it weighed 4,000 candidate worlds, each asking the rule file's AI (about
17 ms a call, compiled) what the other player would have done."""
from __future__ import annotations

import pytest

from naipes import Game, load_program
from naipes.agents.deadline import Deadline
from naipes.agents.ismcts import ISMCTSAgent
from naipes.agents.pimc import PIMCAgent
from naipes.agents.registry import make_agent
from naipes.agents.solver import OpenSolver

from helpers import RULESETS


class Ticking:
    """A clock that moves on by `tick` each time it is read."""

    def __init__(self, tick: float):
        self.now, self.tick = 0.0, tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


@pytest.fixture(scope="module")
def chinchon():
    return load_program(RULESETS / "chinchon.yaml")


def position(program, agent, decisions: int) -> Game:
    """A game of `program` where `agent` (seat 0) has watched the rule file's AI play both seats for `decisions`
    decisions with a choice, up to one of seat 0's with a choice."""
    game = Game(program, 1)
    players = [make_agent("strong", seed=seat, program=program) for seat in range(2)]
    agent.attach(game, 0)
    for seat, player in enumerate(players):
        player.attach(game, seat)
    game.start()
    made = 0
    while made < decisions or game.decision().player != 0 or len(game.options()) < 2:
        decision = game.decision()
        made += len(decision.options) > 1
        game.apply(players[decision.player].choose(decision))
    return game


def make_policy(program):
    return lambda spec, seed: make_agent(spec, seed=seed, program=program)


def model_calls(agent) -> int:
    return len(agent.inference._likelihoods)  # (each hand the model was asked about: the cache of its answers)


def test_a_pimc_decision_keeps_to_its_seconds_through_inference(chinchon):
    agent = PIMCAgent(1, worlds=1000, seconds=0.1, program=chinchon, make_policy=make_policy(chinchon),
                      clock=Ticking(0.001))  # (the deadline comes at the 100th read; inference's at the 50th)
    game = position(chinchon, agent, 20)
    assert agent.inference.records  # (decisions to weigh worlds by: one, since cards drawn unseen end the rest)
    before = model_calls(agent)
    choice = agent.choose(game.decision())
    assert choice in game.options()
    assert 0 < model_calls(agent) - before <= 50  # (the budget's half; without a deadline it made 4,000)
    assert 1 <= agent.worlds_done <= 50
    assert agent.fallbacks == 0  # (Chinchón's estimate scores the lines: a world is always finished)


def test_a_pimc_decision_out_of_time_in_its_first_world_plays_the_policys_choice(chinchon):
    agent = PIMCAgent(1, worlds=10, seconds=0.01, policy="strong", program=chinchon,
                      make_policy=make_policy(chinchon), clock=Ticking(0.004))  # (the deadline at the 3rd read)
    game = position(chinchon, agent, 6)
    choice = agent.choose(game.decision())
    assert choice in game.options()
    assert (agent.fallbacks, agent.worlds_done) == (1, 0)


def test_an_ismcts_decision_keeps_to_its_seconds_through_inference(chinchon):
    agent = ISMCTSAgent(1, seconds=0.1, infer="strong", program=chinchon, make_policy=make_policy(chinchon),
                        clock=Ticking(0.001))
    game = position(chinchon, agent, 20)
    before = model_calls(agent)
    choice = agent.choose(game.decision())
    assert choice in game.options()
    assert 0 < model_calls(agent) - before <= 50  # (a pool of 32 worlds asks for 32 to 128 candidates)
    assert 1 <= agent.iterations_done <= 100  # (a read of the clock each)


def test_the_solver_stops_at_its_deadline():
    program = load_program(RULESETS / "pocha.yaml", {"peak": "4", "random_seats": "false"})
    game = Game(program, 3)
    game.start()
    # three cards: the whole search, 29,528 positions, is far past the 500 reads the deadline allows (four cards,
    # 170,588 positions, took 8 CPU s to show the same)
    while len(game.memory.players[0].hand) < 3 or len(game.options()) < 2:
        game.apply(game.options()[0])
    solver = OpenSolver("paranoid")
    assert solver.try_solve(game, deadline=Deadline(0.5, Ticking(0.001))) is None
    assert solver.out_of_time and solver.nodes <= 500
    assert solver.try_solve(game) is not None and not solver.out_of_time and solver.nodes > 500
    deepening = OpenSolver("paranoid", nodes=10_000_000)
    solution = deepening.solve(game, line=False, deadline=Deadline(0.5, Ticking(0.001)))
    assert not solution.complete and solution.depth is not None  # (the deepest search done before the deadline)
    assert {option.key for option, _ in solution.moves} == {option.key for option in game.options()}


def test_a_pimc_decision_drops_a_world_whose_search_a_turns_deep_the_deadline_stops(chinchon):
    # three turns deep, a world's search of this draw takes 794 positions; a read of the clock each: the
    # deadline (the 100th read) comes inside the second world's search, which is dropped (the first is always
    # finished, so that one world counts)
    agent = PIMCAgent(1, worlds=50, seconds=0.1, infer="none", nodes=0, depth=3, program=chinchon,
                      make_policy=make_policy(chinchon), clock=Ticking(0.001))
    game = position(chinchon, agent, 6)
    choice = agent.choose(game.decision())
    assert choice in game.options()
    assert agent.worlds_done == 1 and agent.fallbacks == 0
    assert agent.cut.out_of_time and agent.cut.nodes < 794
