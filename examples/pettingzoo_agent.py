"""Train an agent on Kuhn poker through PettingZoo, and measure it before and after training.

Tabular Monte-Carlo control: the agent at seat 0 (P1) keeps the mean return of each (observation, action)
pair it has tried, plays the legal action of highest mean (trying each once first; a random one a tenth of
the time while training) and plays against uniformly random seats, through :func:`naipes.bridges.pettingzoo.env`
(PettingZoo's classic wrappers). In Kuhn poker (rulesets/kuhn_poker.yaml) P1 meets 6 positions (its card,
and whether P2 has bet after its check), so a table learns each of them many times over: the agent learns to
exploit random play. It is measured before (a random seat 0) and after training, on the same fresh deals (not
those it trained on), as seat 0's mean reward with a 95 % interval.

Other rule files run the same way (``--ruleset``, ``-p``), but a table learns only a game whose positions come
back: in a whole game of Tute or Pocha the agent almost never meets a position twice, and it does not learn.

    .venv/bin/python examples/pettingzoo_agent.py [--ruleset kuhn_poker] [-p NAME=VALUE] [--episodes 20000]
        [--evaluation 4000] [--seed 1]
"""
from __future__ import annotations

import argparse
import random
from collections import defaultdict

from naipes.bridges.pettingzoo import env as make_env
from naipes.tools.statistics import mean_interval


class MonteCarloAgent:
    """Mean return per (observation, action); untried pairs first while training."""

    def __init__(self, epsilon: float, rng: random.Random):
        self.values: dict = defaultdict(lambda: [0.0, 0])  # (observation bytes, action) -> [total, count]
        self.epsilon, self.rng = epsilon, rng

    def act(self, observation: dict, learning: bool) -> int:
        legal = [int(a) for a in observation["action_mask"].nonzero()[0]]
        if learning and self.rng.random() < self.epsilon:
            return self.rng.choice(legal)
        key = observation["observation"].tobytes()

        def value(action: int) -> float:
            total, count = self.values[key, action]
            return total / count if count else (float("inf") if learning else 0.0)
        return max(legal, key=lambda a: (value(a), -a))

    def learn(self, visited: list, reward: float) -> None:
        for pair in visited:
            entry = self.values[pair]
            entry[0] += reward
            entry[1] += 1


class RandomAgent:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def act(self, observation: dict, learning: bool) -> int:
        return self.rng.choice([int(a) for a in observation["action_mask"].nonzero()[0]])


def play(env, agent, rng: random.Random, seed: int, learning: bool) -> float:
    """One game: seat 0 is `agent`, the others play at random; returns seat 0's reward."""
    env.reset(seed=seed)
    visited, reward = [], 0.0
    for name in env.agent_iter():
        observation, rew, terminated, truncated, _ = env.last()
        if terminated or truncated:
            if name == "player_0":
                reward = rew
            env.step(None)
            continue
        if name == "player_0":
            action = agent.act(observation, learning)
            visited.append((observation["observation"].tobytes(), action))
        else:
            action = rng.choice([int(a) for a in observation["action_mask"].nonzero()[0]])
        env.step(action)
    if learning:
        agent.learn(visited, reward)
    return reward


def evaluate(env, agent, seed: int, games: int) -> tuple[float, float, float]:
    """Seat 0's mean reward and its 95 % interval over `games` deals, the same deals for any agent."""
    return mean_interval([play(env, agent, random.Random(seed + i), seed + i, learning=False) for i in range(games)])


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="kuhn_poker")
    parser.add_argument("-p", dest="params", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--episodes", type=int, default=20000, help="training games")
    parser.add_argument("--evaluation", type=int, default=4000, help="games of each measure (before and after)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    env = make_env(args.ruleset, dict(p.split("=", 1) for p in args.params))
    rng = random.Random(args.seed)
    fresh = 10**9 + args.seed * args.evaluation  # evaluation deals: seeds training never draws
    before = evaluate(env, RandomAgent(random.Random(args.seed)), fresh, args.evaluation)
    agent = MonteCarloAgent(0.1, rng)
    for _ in range(args.episodes):
        play(env, agent, rng, rng.randrange(10**9), learning=True)
    after = evaluate(env, agent, fresh, args.evaluation)
    for name, (mean, low, high) in [("random play", before), (f"after {args.episodes} training games", after)]:
        print(f"seat 0 against random play, {args.evaluation} fresh deals, {name}: mean reward {mean:+.3f} "
              f"(95 % interval {low:+.3f} to {high:+.3f})")
    return {"before": before, "after": after, "episodes": args.episodes, "positions": len(agent.values)}


if __name__ == "__main__":
    main()
