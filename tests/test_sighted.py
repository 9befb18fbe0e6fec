"""benchmarks/strength.py --sighted: the first seat's search agent is told where every card is, so that what
seeing the cards is worth to it can be measured (docs/ai.md). Its worlds must be the real deal at every decision,
and the same agent's worlds without sight must not be."""
from __future__ import annotations

import random
import sys

import pytest

from naipes import make_agent, play_game

from helpers import ROOT, shipped_program

sys.path.insert(0, str(ROOT / "benchmarks"))
from strength import Sighted  # noqa: E402


class _Checked:
    """Before each decision of `agent` with a choice, draws a world from its knowledge as its search would, and
    notes whether every card lies in that world where it lies in the real deal."""

    def __init__(self, agent):
        self.agent, self.real = agent, []

    def __getattr__(self, name):
        return getattr(self.agent, name)

    def choose(self, decision):
        chosen = self.agent.choose(decision)  # (after it: the agent knows what it was told, and has attached)
        if len(decision.options) > 1:
            world = self.agent.knowledge.world(random.Random(len(self.real)))
            real = {card.id: slot for card, slot in decision.game.memory.where.items()}
            self.real.append(all(real[card.id] == slot for card, slot in world.memory.where.items()))
        return chosen


@pytest.mark.parametrize("game, params, spec", [
    ("tute_cabrero", {"porotos_to_retire": "1"}, "ismcts:iterations=20"),
    ("pocha", {"peak": "3"}, "pimc:worlds=3,infer=none"),
])
def test_a_sighted_agent_searches_the_real_deal_and_the_same_agent_unsighted_does_not(game, params, spec):
    program = shipped_program(game, **params)
    for wrap, expected in ((Sighted, True), (lambda agent: agent, False)):
        checked = _Checked(wrap(make_agent(spec, seed=1, program=program)))
        others = [make_agent("strong", seed=s, program=program) for s in range(1, program.players[2])]
        play_game(program, [checked, *others], 5)
        assert checked.real, "the agent had choices to make"
        assert all(checked.real) if expected else not all(checked.real)


def test_sighted_refuses_an_agent_that_searches_no_worlds():
    program = shipped_program("tute_cabrero")
    with pytest.raises(SystemExit, match="does not search worlds"):
        Sighted(make_agent("strong", seed=1, program=program))
