"""Tournaments in parallel: the speed-up of `--jobs 2` over `--jobs 1`, and the CPU the workers add.

Each contender is one whole `run_tournament` (what `naipes tournament` runs after
its command line: the rule file loaded and the strategies compiled, then every
deal in every seating), timed side by side in paired rounds (the order rotating):

* `1 job`: every deal in this process;
* `2 jobs, forked`: two worker processes forked from this one, which hold the
  program and the strategies compiled here (naipes.tools.tournament.start_method);
* `2 jobs, spawned`: two fresh interpreters, each importing Naipes and compiling
  the rule file and the strategies again (what every run did before, and what
  runs where fork is not safe still do).

Wall time is `time.perf_counter`; CPU time is this process's and its children's
(`getrusage`, user + system), so the workers' imports and compilation count.
The speed-up is the median over rounds of wall(1 job) / wall(2 jobs); the extra
CPU the median of cpu(2 jobs) - cpu(1 job). Both need two idle cores: on a busy
machine the second worker waits for a core, and the speed-up falls towards 1.

    .venv/bin/python benchmarks/bench_tournament.py [--deals 8] [--rounds 5] [--json FILE]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable

from common import ROOT, header, table, write_summary

GAME = "pocha"
SEATS = ["strong", "baseline", "random", "random"]


def cpu_seconds() -> float:
    """User + system CPU of this process and of its children that have ended."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def contender(jobs: int, method: str | None, deals: int) -> Callable[[], dict]:
    """A whole tournament with `jobs` workers started by `method` (None: the default)."""
    from naipes.tools import tournament

    def run() -> dict:
        chosen = tournament.start_method
        if method is not None:
            tournament.start_method = lambda: method
        try:
            return tournament.run_tournament(str(ROOT / "rulesets" / f"{GAME}.yaml"), SEATS, deals, seed=1,
                                             jobs=jobs)
        finally:
            tournament.start_method = chosen
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", help="write the summary as JSON")
    args = parser.parse_args()
    header("bench_tournament", f"{GAME}, {args.deals} deals x {len(SEATS)} seatings ({', '.join(SEATS)}), "
                               f"{args.rounds} paired rounds", args.rounds)
    print(f"cores: {os.cpu_count()}, load average at the start: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    contenders = {"1 job": contender(1, None, args.deals), "2 jobs, forked": contender(2, "fork", args.deals),
                  "2 jobs, spawned": contender(2, "spawn", args.deals)}
    wall: dict[str, list[float]] = {name: [] for name in contenders}
    cpu: dict[str, list[float]] = {name: [] for name in contenders}
    summaries = {}
    names = list(contenders)
    for r in range(args.rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            cpu_start, start = cpu_seconds(), time.perf_counter()
            summaries[name] = contenders[name]()
            wall[name].append(time.perf_counter() - start)
            cpu[name].append(cpu_seconds() - cpu_start)
    results = {name: [(a["win_rate"], a["mean_payoff"]) for a in summary["agents"]]
               for name, summary in summaries.items()}
    if len({repr(r) for r in results.values()}) != 1:
        sys.exit(f"the contenders disagree: {results}")
    one = "1 job"
    rows = []
    for name in names:
        speedup = statistics.median(o / w for o, w in zip(wall[one], wall[name]))
        extra = statistics.median(c - o for o, c in zip(cpu[one], cpu[name]))
        rows.append([name, min(wall[name]), statistics.median(wall[name]), statistics.median(cpu[name]),
                     speedup, extra])
    table(["contender", "best wall s", "median wall s", "median CPU s", "speed-up", "extra CPU s"], rows)
    print(f"load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    write_summary(sys.argv, {row[0]: {"wall": row[2], "cpu": row[3], "speedup": row[4], "extra_cpu": row[5]}
                             for row in rows})


if __name__ == "__main__":
    main()
