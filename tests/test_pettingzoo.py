"""Rule files as PettingZoo AEC environments: PettingZoo's API test for every shipped rule file."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is an optional extra: pip install -e '.[pettingzoo]'")
from pettingzoo.test import api_test  # noqa: E402

from naipes import GameError, ParamError  # noqa: E402
from naipes.bridges.pettingzoo import NaipesEnv  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = sorted((ROOT / "rulesets").glob("*.yaml"))
QUICK = {"tute_cabrero": {"porotos_to_retire": "1"}, "pocha": {"peak": "2"}, "pocha_static": {"rounds": "2"},
         "chinchon": {"target": "10"}, "chinchon_48": {"target": "10"}, "chinchon_jokers": {"target": "10"}}


@pytest.mark.filterwarnings("ignore:Observation")  # a dict of observation and mask, as PettingZoo's card games have
@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if p.stem.startswith(("chinchon", "wizard",
                                  "tute")) else p for p in RULE_FILES], ids=lambda p: p.stem)  # (slow: seconds each)
def test_pettingzoo_api_test(path: Path) -> None:
    api_test(NaipesEnv(str(path), QUICK.get(path.stem)), num_cycles=200, verbose_progress=False)


@pytest.mark.slow
def test_the_same_seed_plays_the_same_game() -> None:
    def moves(seed: int) -> list:
        env = NaipesEnv("pocha", {"peak": "2"})
        env.reset(seed=seed)
        out = []
        for agent in env.agent_iter(max_iter=60):
            observation, _, terminated, truncated, _ = env.last()
            action = None if terminated or truncated else int(observation["action_mask"].nonzero()[0][-1])
            out.append((agent, action, observation["observation"].sum()))
            env.step(action)
        return out
    assert moves(7) == moves(7) != moves(8)


def test_rewards_are_the_payoffs_and_bad_actions_are_refused() -> None:
    env = NaipesEnv("fichas", {"count": "2"})
    env.reset(seed=1)
    with pytest.raises(GameError, match="not an action id"):
        env.step(99)
    legal = env.last()[0]["action_mask"].nonzero()[0]
    illegal = next(a for a in range(env.action_space("player_0").n) if a not in legal)
    with pytest.raises(GameError, match="is not legal now"):
        env.step(illegal)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        env.step(None if terminated or truncated else int(observation["action_mask"].nonzero()[0][0]))
    assert sorted(total.values()) == [0.0, 1.0]
    with pytest.raises(ParamError, match="unknown param 'chip'"):
        NaipesEnv("fichas", {"chip": "R1"})


@pytest.mark.slow
def test_the_example_trains_an_agent_in_seconds() -> None:
    spec = importlib.util.spec_from_file_location("pettingzoo_agent", ROOT / "examples" / "pettingzoo_agent.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    result = example.main(["--episodes", "1500", "--seed", "1"])
    assert result["trained"] > result["random"]
