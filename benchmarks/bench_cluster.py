"""A tournament's speed-up on a Dask cluster with more workers (worker processes on this machine).

The same tournament (the same deals, seed and seats) runs on a local Dask cluster of 1 worker process and of 2
(one thread each; `--workers` to choose), in paired rounds: each round runs every size once, in turn, so the
sizes meet the same load. A one-deal tournament on each cluster first lets every worker compile the rule file
and the strategy (once per worker, not timed). Reported: each run's wall time, each round's speed-up (the
1-worker time over the N-worker time) and their median, and the load average (other processes on the machine
share its cores). Needs the [cluster] extra.

    .venv/bin/python benchmarks/bench_cluster.py --deals 12 --rounds 3 [--workers 1 2]
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from distributed import Client, LocalCluster

from naipes.tools.tournament import run_tournament

ROOT = Path(__file__).resolve().parent.parent
SEATS = ["strategies/tute_cabrero/novice.yaml", "random", "ismcts:iterations=20"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    os.chdir(ROOT)
    print(f"tute_cabrero (porotos_to_retire=1), {args.deals} deals x 3 seatings, seats {', '.join(SEATS)}; "
          f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the start")
    clusters = {n: LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
                for n in args.workers}
    times: dict[int, list[float]] = {n: [] for n in args.workers}
    try:
        for cluster in clusters.values():  # every worker compiles the rule file and the strategy
            with Client(cluster.scheduler_address) as client:
                client.wait_for_workers(len(cluster.workers))
            run_tournament("rulesets/tute_cabrero.yaml", SEATS, len(cluster.workers), seed=1,
                           params={"porotos_to_retire": "1"}, cluster=cluster.scheduler_address)
        results = {}
        for round_ in range(args.rounds):
            for n, cluster in clusters.items():
                started = time.perf_counter()
                results[n] = run_tournament("rulesets/tute_cabrero.yaml", SEATS, args.deals, seed=1,
                                            params={"porotos_to_retire": "1"}, cluster=cluster.scheduler_address)
                times[n].append(time.perf_counter() - started)
            print(f"round {round_ + 1}: " + ", ".join(f"{n} worker(s) {times[n][-1]:.1f} s" for n in args.workers)
                  + f"; load average {os.getloadavg()[0]:.1f}")
        first = args.workers[0]
        assert all(result == results[first] for result in results.values()), "the sizes disagree"
        for n in args.workers[1:]:
            ratios = [a / b for a, b in zip(times[first], times[n])]
            print(f"speed-up of {n} workers over {first}: " + ", ".join(f"{r:.2f}" for r in ratios)
                  + f" (median {statistics.median(ratios):.2f})")
    finally:
        for cluster in clusters.values():
            cluster.close()


if __name__ == "__main__":
    main()
