"""Rule files as PettingZoo AEC environments: PettingZoo's API and seed tests for every shipped rule file, illegal
actions as the classic environments handle them, and the training example's agent learning."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is an optional extra: pip install -e '.[pettingzoo]'")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from naipes import GameError, ParamError  # noqa: E402
from naipes.bridges.pettingzoo import NaipesEnv, env  # noqa: E402

from helpers import RULESETS

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = sorted(RULESETS.glob("*.yaml"))
QUICK = {"tute_cabrero": {"porotos_to_retire": "1"}, "pocha": {"peak": "2"}, "pocha_static": {"rounds": "2"},
         "chinchon": {"target": "10"}, "chinchon_48": {"target": "10"}, "chinchon_jokers": {"target": "10"},
         "escoba": {"target": "5"}, "escoba_parejas": {"target": "5"},
         "texas_holdem": {"hands": "3"}, "texas_holdem_limit": {"hands": "3"}}


SLOW_API_TEST = ("chinchon", "escoba", "wizard", "tute", "truco", "texas", "mus")  # (seconds each)


@pytest.mark.filterwarnings("ignore:Observation")  # a dict of observation and mask, as PettingZoo's card games have
@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if p.stem.startswith(SLOW_API_TEST) else p
                                  for p in RULE_FILES], ids=lambda p: p.stem)
def test_pettingzoo_api_test(path: Path) -> None:
    api_test(NaipesEnv(str(path), QUICK.get(path.stem)), num_cycles=200, verbose_progress=False)
    api_test(env(str(path), QUICK.get(path.stem)), num_cycles=50, verbose_progress=False)


@pytest.mark.parametrize("name", ["fichas", "kuhn_poker", "pocha"])
def test_pettingzoo_seed_test(name: str) -> None:
    seed_test(lambda: env(name, QUICK.get(name)), num_cycles=30)


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


def test_rewards_are_the_payoffs_and_the_raw_env_refuses_bad_actions() -> None:
    raw = NaipesEnv("fichas", {"count": "2"})
    raw.reset(seed=1)
    with pytest.raises(GameError, match="not an action id"):
        raw.step(99)
    legal = raw.last()[0]["action_mask"].nonzero()[0]
    illegal = next(a for a in range(raw.action_space("player_0").n) if a not in legal)
    with pytest.raises(GameError, match="is not legal now"):
        raw.step(illegal)
    total = {a: 0.0 for a in raw.possible_agents}
    for agent in raw.agent_iter():
        observation, reward, terminated, truncated, _ = raw.last()
        total[agent] += reward
        raw.step(None if terminated or truncated else int(observation["action_mask"].nonzero()[0][0]))
    assert sorted(total.values()) == [0.0, 1.0]
    with pytest.raises(ParamError, match="unknown param 'chip'"):
        NaipesEnv("fichas", {"chip": "R1"})


@pytest.mark.filterwarnings("ignore:.*Illegal move")
def test_an_illegal_action_ends_the_game_as_in_the_classic_environments() -> None:
    # PettingZoo's classic games (connect_four, leduc_holdem...) end the game: -1 for its maker, 0 for the others
    wrapped = env("pocha", {"peak": "2"}, players=3)
    wrapped.reset(seed=2)
    mover = wrapped.agent_selection
    mask = wrapped.last()[0]["action_mask"]
    wrapped.step(int(mask.argmin()))  # an id the mask forbids
    rewards = {}
    for agent in wrapped.agent_iter():
        _, reward, terminated, truncated, _ = wrapped.last()
        assert terminated or truncated
        rewards[agent] = reward
        wrapped.step(None)
    assert rewards == {a: (-1.0 if a == mover else 0.0) for a in wrapped.possible_agents}
    with pytest.raises(AssertionError):  # out of the action space altogether
        wrapped.reset(seed=2)
        wrapped.step(10**6)


@pytest.mark.slow  # (6,000 games)
def test_the_example_agent_learns_kuhn_poker() -> None:
    spec = importlib.util.spec_from_file_location("pettingzoo_agent", ROOT / "examples" / "pettingzoo_agent.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    result = example.main(["--episodes", "3000", "--evaluation", "1500", "--seed", "1"])
    (_, _, before_high), (_, after_low, _) = result["before"], result["after"]
    assert after_low > before_high  # the 95 % intervals of seat 0's mean reward, before and after, are apart
