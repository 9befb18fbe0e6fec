"""Shared helpers of the benchmarks: timing, tables, the --json summary.

Not a benchmark itself (run_all.py runs only bench_*.py).  Every number is a
best-of-N wall-clock time from time.perf_counter; nothing here asserts on a
time.
"""
from __future__ import annotations

import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as `python benchmarks/bench_x.py` without an installed package
    sys.path.insert(0, str(ROOT))

REPEAT = 5
FICHAS = ROOT / "rulesets" / "fichas.yaml"
# The chip game without symmetric (relabelled) memo keys: keys by chip id.
PLAIN_FICHAS = "extends: {base}\ncards:\n  symmetric: []\n"


def fichas(params: dict[str, str] | None = None, plain: bool = False) -> Any:
    """The chip game's compiled program; `plain`: the variant with `cards: symmetric: []`."""
    from naipes import load_program
    if not plain:
        return load_program(FICHAS, params)
    with tempfile.TemporaryDirectory(prefix="naipes-bench-") as tmp:
        variant = Path(tmp) / "fichas_plain.yaml"
        variant.write_text(PLAIN_FICHAS.format(base=FICHAS))
        return load_program(variant, params)


def fichas_symmetric() -> bool:
    """Does the chip game declare interchangeable card labels (`cards: symmetric:`)?"""
    return bool(getattr(fichas(), "symmetric", ()))


def timed(fn: Callable[[], Any], clock: Callable[[], float] = time.perf_counter) -> tuple[float, Any]:
    """Seconds one call of `fn` takes by `clock` (time.process_time: the process's CPU time, which other processes
    on the machine do not lengthen), and what it returned."""
    gc.collect()
    start = clock()
    out = fn()
    return clock() - start, out


def best_of(fn: Callable[[], Any], repeat: int = REPEAT) -> tuple[float, Any]:
    """The best time of `repeat` calls, and the last call's result."""
    best, out = float("inf"), None
    for _ in range(repeat):
        seconds, out = timed(fn)
        best = min(best, seconds)
    return best, out


def best_of_interleaved(fns: dict[str, Callable[[], Any]], repeat: int = REPEAT) -> dict[str, tuple[float, Any]]:
    """Best time per function, running them in turn (A B C A B C ...) so that
    machine noise and drift hit every contender alike."""
    best = {name: (float("inf"), None) for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            seconds, out = timed(fn)
            if seconds < best[name][0]:
                best[name] = (seconds, out)
    return best


class Race:
    """Several contenders timed in turn, `repeat` rounds (the order rotates each
    round).  Rates come from each contender's best time; ratios are the median
    of the per-round ratios, which cancels the slow drifts of a shared machine
    (both contenders of a round ran within a second of each other)."""

    def __init__(self, fns: dict[str, Callable[[], Any]], repeat: int = REPEAT,
                 clock: Callable[[], float] = time.perf_counter):
        names = list(fns)
        self.times: dict[str, list[float]] = {name: [] for name in names}
        self.outs: dict[str, Any] = {}
        for r in range(repeat):
            shift = r % len(names)
            for name in names[shift:] + names[:shift]:
                seconds, out = timed(fns[name], clock)
                self.times[name].append(seconds)
                self.outs[name] = out

    def best(self, name: str) -> float:
        return min(self.times[name])

    def speedup(self, name: str, reference: str) -> float:
        """How many times faster `name` ran than `reference` (median of rounds)."""
        return statistics.median(r / n for n, r in zip(self.times[name], self.times[reference]))

    def cost(self, name: str, reference: str) -> float:
        """Extra time of `name` over `reference`, as a fraction (median of rounds)."""
        return statistics.median(n / r for n, r in zip(self.times[name], self.times[reference])) - 1


def per_call_us(fn: Callable[[], Any], calls: int, repeat: int = REPEAT) -> float:
    """Microseconds per call of `fn`, best of `repeat` loops of `calls` calls."""
    def loop() -> None:
        for _ in range(calls):
            fn()
    seconds, _ = best_of(loop, repeat)
    return seconds / calls * 1e6


def random_openspiel_games(game: Any, count: int, seed: int) -> tuple[int, int]:
    """`count` games of the OpenSpiel `game` driven from Python, chance outcomes drawn by their probabilities and
    each decision a random legal action, drawn as Naipes' random players draw (`pick`): (games, decisions)."""
    import random

    from naipes.library.builtins import pick
    rng = random.Random(seed)
    decisions = 0
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = pick(rng, state.legal_actions())
                decisions += 1
            state.apply_action(action)
    return count, decisions


def table(headers: list[str], rows: list[list[Any]], title: str | None = None) -> None:
    """Print a plain-text table (numbers right-aligned)."""
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    if title:
        print(title)
    print("  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(headers, widths))))
    print("  ".join("-" * w for w in widths))
    for row in cells:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
    print()


def _cell(value: Any) -> str:
    if isinstance(value, float):
        if value >= 100:
            return f"{value:,.0f}"
        if value >= 10:
            return f"{value:.1f}"
        return f"{value:.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def rate(count: float, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def write_summary(argv: list[str], summary: dict) -> None:
    """`--json FILE` on the command line: write the summary for run_all.py."""
    if "--json" in argv:
        path = argv[argv.index("--json") + 1]
        Path(path).write_text(json.dumps(summary, indent=1))


@dataclass
class Measured:
    """A command run in a fresh process: its wall time, peak RSS, output; `timed_out` if it was stopped."""
    seconds: float
    peak_rss_mb: float | None
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool


def vm_hwm_mb(pid: int) -> float | None:
    """The peak RSS so far of a running process (Linux /proc/PID/status VmHWM), in MB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def run_measured(command: list[str], timeout: float) -> Measured:
    """Run `command` in a fresh process; stop it after `timeout` s (its peak RSS read just before).
    A finished process's peak RSS is the kernel's (wait4's ru_maxrss)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=err, text=True)
        peak, timed_out, status = None, False, None
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                peak = usage.ru_maxrss / 1024
                break
            if time.perf_counter() - start > timeout:
                peak, timed_out = vm_hwm_mb(child.pid) or peak, True
                child.kill()
                os.wait4(child.pid, 0)
                break
            peak = vm_hwm_mb(child.pid) or peak
            time.sleep(0.05)
        seconds = time.perf_counter() - start
        child.returncode = -9 if timed_out else os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Measured(seconds, peak, None if timed_out else child.returncode, out.read(), err.read(), timed_out)


def header(name: str, what: str, repeat: int = REPEAT, clock: Callable[[], float] = time.perf_counter) -> None:
    print(f"== {name}: {what}")
    print(f"   Python {sys.version.split()[0]}, best of {repeat} unless noted, time.{clock.__name__}")
    print()
