"""A fixed workload to count instructions on: N random games of a rule file, quiet or heard.

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/bench_ir.py 10 rulesets/pocha.yaml [quiet|heard]

Instruction counts do not move with what else runs on the machine, as times do: run it with N games and
with 0 (loading the rule file alone), for two versions of the engine, and compare the differences divided
by the decisions it prints (with the runtime compiled: PYTHONPATH=build/native-lib after `bash .ci/native`).
`quiet`: nothing hears the games (play_game's quiet loop); `heard`: a listener takes every record (a log's
path: firings, steps, announcements, decisions). The games are seeded, each seat a seeded random agent, at the
rule file's largest table.
"""
from __future__ import annotations

import sys

from naipes import load_program
from naipes.agents.registry import RandomAgent
from naipes.runtime.game import play_game


def main(games: int, path: str, mode: str = "quiet") -> None:
    if mode not in ("quiet", "heard"):
        sys.exit(f"mode is quiet or heard, not {mode!r}")
    program = load_program(path)
    seats = program.players[1]
    records: list[dict] = []
    decisions = 0
    for i in range(games):
        listeners = [records.append] if mode == "heard" else []
        result = play_game(program, [RandomAgent(i * 10 + seat) for seat in range(seats)], seed=i,
                           listeners=listeners)
        decisions += result.decisions
        records.clear()
    print(f"{games} {mode} games of {program.name} at {seats} seats: {decisions} decisions")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(int(sys.argv[1]), sys.argv[2], *sys.argv[3:4])
