"""How long a search agent thinks per move: CPU seconds per decision it had a choice in (docs/ai.md).

Each AGENT plays seat 0 of `--games` games of the rule file, the rule file's AI in the other seats;
reported per agent: decisions timed, and the mean, median, 90th percentile and largest CPU time (the
process's, so that other work on a shared machine does not count; the load average is printed beside), and
the largest wall-clock time (what an agent bounded by `seconds=` keeps to, and a player waits), and what a
search agent did a move (pimc's worlds, ISMCTS's iterations).
Forced moves (one option) are answered at once by every agent and left out. For an ISMCTS at the same time
as a pimc, take its iterations per second from here.

    PYTHONPATH=build/native-lib .venv/bin/python benchmarks/time_per_move.py pocha -p peak=5 \\
        --agent pimc --agent ismcts:iterations=1000 --games 2
"""
from __future__ import annotations

import argparse
import statistics
import time

from naipes import load_program, make_agent, play_game
from naipes.tools.cli import find_ruleset


class Timed:
    """An agent whose decisions with a choice are timed (CPU seconds)."""

    def __init__(self, agent):
        self.agent, self.name, self.times, self.walls = agent, agent.name, [], []

    def __getattr__(self, name):
        return getattr(self.agent, name)

    def choose(self, decision):
        if len(decision.options) == 1:
            return self.agent.choose(decision)
        start, wall = time.process_time(), time.perf_counter()
        chosen = self.agent.choose(decision)
        self.times.append(time.process_time() - start)
        self.walls.append(time.perf_counter() - wall)
        return chosen


def searched(agent, decisions: int) -> str:
    """What a search agent did per decision: pimc's worlds (solved exactly), ISMCTS's iterations."""
    if hasattr(agent, "worlds_done"):
        return f"{agent.worlds_done / decisions:.1f} worlds a move ({agent.worlds_exact / decisions:.1f} exact)"
    if hasattr(agent, "iterations_done"):
        return f"{agent.iterations_done / decisions:.0f} iterations a move"
    return ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset")
    parser.add_argument("-p", dest="params", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--agent", action="append", required=True, help="an agent to time (repeatable)")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    program = load_program(find_ruleset(args.ruleset), dict(p.split("=", 1) for p in args.params))
    with open("/proc/loadavg") as load:
        print(f"load average at the start: {load.read().split()[0]}")
    print(f"{'agent':45} {'moves':>6} {'mean':>7} {'median':>7} {'90%':>7} {'max':>7}  (CPU seconds a move) "
          f"{'max wall':>8}")
    for spec in args.agent:
        timed = Timed(make_agent(spec, seed=args.seed, program=program))
        for game in range(args.games):
            others = [make_agent(program.default_ai, seed=args.seed * 100 + game * 10 + s, program=program)
                      for s in range(1, program.players[2])]
            play_game(program, [timed, *others], args.seed + game)
        times = sorted(timed.times)
        tenth = times[int(0.9 * (len(times) - 1))]
        print(f"{spec:45} {len(times):6} {statistics.mean(times):7.3f} {statistics.median(times):7.3f} "
              f"{tenth:7.3f} {times[-1]:7.3f}  {' ' * 19}{max(timed.walls):8.3f}  {searched(timed.agent, len(times))}")


if __name__ == "__main__":
    main()
