"""Loading rule files: CPU time per load, with Python's garbage collector held off during a load (as
`load_program` does) and running through it, side by side.

A load makes millions of short-lived objects and almost no cycles, so the collector's passes over them are
work for nothing: `naipes.language.builder.collector_paused` holds it off while a rule file loads. The
"running" contender loads the same files with that pause taken away. Both load every shipped rule file (as
Python: NAIPES_COMPILE=never, so no C compile is timed), in paired rounds, CPU time; a second race loads them in
a process that already holds every shipped game loaded (as a test worker or a server does), where each full
collection has more to walk.

    NAIPES_COMPILE=never .venv/bin/python benchmarks/bench_load.py [--json FILE]
"""
from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator

from common import ROOT, Race, header, table, write_summary

from naipes.language import builder

RULE_FILES = sorted((ROOT / "rulesets").glob("*.yaml"))
ROUNDS = 7


@contextlib.contextmanager
def collector_running() -> Iterator[None]:
    """Loads with the collector left as it is (the pause replaced by nothing)."""
    paused = builder.collector_paused
    builder.collector_paused = contextlib.nullcontext
    try:
        yield
    finally:
        builder.collector_paused = paused


def load_all(pause: bool) -> Callable[[], int]:
    def run() -> int:
        with contextlib.nullcontext() if pause else collector_running():
            for path in RULE_FILES:
                builder.load_program(path, to_c=False)
        return len(RULE_FILES)
    return run


def race(title: str) -> float:
    contenders = {"collector held off": load_all(True), "collector running": load_all(False)}
    result = Race(contenders, ROUNDS, time.process_time)
    rows = [[name, result.outs[name], result.best(name), result.best(name) / result.outs[name] * 1e3]
            for name in contenders]
    table([title, "files", "best s", "ms/file"], rows)
    ratio = 1 / result.speedup("collector held off", "collector running")
    print(f"   held off / running = {ratio:.2f} (median of {ROUNDS} paired rounds)\n")
    return ratio


def main() -> None:
    header("bench_load", "loading every shipped rule file, the garbage collector held off or running", ROUNDS,
           time.process_time)
    summary = {"fresh_process": race("a process holding nothing else")}
    held = [builder.load_program(path, to_c=False) for path in RULE_FILES]
    summary["holding_every_game"] = race(f"a process holding {len(held)} loaded games")
    write_summary(sys.argv, summary)


if __name__ == "__main__":
    main()
