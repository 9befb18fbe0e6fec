"""The yardstick's Pocha positions solved by Naipes alone, one after the other: a run to profile.

`bench_solver.py` times Naipes' open-hand solver against a plain one; this solves only Naipes' side of it (the
first N positions, one `OpenSolver` for all, as the benchmark does), so that a profiler counts nothing else:

    PYTHONHASHSEED=0 PYTHONPATH=build/native-lib valgrind --tool=callgrind \\
        --toggle-collect='CPyDef_solver___OpenSolver____solve' .venv/bin/python benchmarks/profile_solver.py paranoid 12

It prints the positions searched, the CPU seconds, and a digest of every first card's value (the same digest
before and after a change: the values did not change).
"""
from __future__ import annotations

import argparse
import hashlib
import time

from bench_solver import pocha_position

from naipes.agents.solver import MODELS, OpenSolver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model", choices=MODELS, nargs="?", default="paranoid")
    parser.add_argument("positions", type=int, nargs="?", default=6, help="how many of the yardstick's positions")
    args = parser.parse_args()
    games = [pocha_position(4, 1 + i) for i in range(args.positions)]
    solver = OpenSolver(args.model, merge=False)
    positions, values = 0, []
    start = time.process_time()
    for game in games:
        solution = solver.solve(game, line=False)
        positions += solution.nodes
        values.append([(option.label, value) for option, value in solution.moves])
    seconds = time.process_time() - start
    digest = hashlib.md5(repr(values).encode()).hexdigest()
    print(f"{args.model}: {positions:,} positions, {seconds:.3f} CPU s, values {digest}")


if __name__ == "__main__":
    main()
