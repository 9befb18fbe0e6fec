"""Train a simple agent on a rule file through PettingZoo, then evaluate it (a few seconds).

Tabular Monte-Carlo control: the agent at seat 0 keeps the mean return of
each (observation, action) pair it has tried, picks the best legal action
(epsilon-greedy while training) and plays against uniformly random seats.
It works on any rule file; the default, a small chip game, is solved by it.

    .venv/bin/python examples/pettingzoo_agent.py [--ruleset fichas] [-p count=6] [--episodes 3000] [--seed 1]
"""
from __future__ import annotations

import argparse
import random
from collections import defaultdict

from naipes.bridges.pettingzoo import NaipesEnv


class MonteCarloAgent:
    """Mean return per (observation, action); unseen pairs are tried first."""

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


def play(env: NaipesEnv, agent: MonteCarloAgent, rng: random.Random, seed: int, learning: bool) -> float:
    """One game: seat 0 is the agent, the others random; returns the agent's reward."""
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


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="fichas")
    parser.add_argument("-p", dest="params", action="append", default=None, metavar="NAME=VALUE")
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    given = args.params if args.params is not None else ["count=6", "colours=3", "values=3"]
    params = dict(p.split("=", 1) for p in given)
    env = NaipesEnv(args.ruleset, params)
    rng = random.Random(args.seed)
    agent = MonteCarloAgent(0.1, rng)
    deals = 50  # a few positions, seen again and again: the table can learn them
    random_seat = MonteCarloAgent(1.0, random.Random(args.seed))  # epsilon 1: always random
    baseline = sum(play(env, random_seat, random.Random(i), args.seed + i, learning=True) for i in range(deals)) / deals
    for episode in range(args.episodes):
        play(env, agent, rng, args.seed + episode % deals, learning=True)
    trained = sum(play(env, agent, random.Random(i), args.seed + i, learning=False) for i in range(deals)) / deals
    print(f"mean reward of seat 0 against random play on {deals} deals: random play {baseline:.2f}, "
          f"after {args.episodes} training episodes {trained:.2f}")
    return {"random": baseline, "trained": trained, "episodes": args.episodes}


if __name__ == "__main__":
    main()
