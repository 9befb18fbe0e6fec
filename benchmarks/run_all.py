"""Run every benchmark (each in its own process) and print a summary.

    .venv/bin/python benchmarks/run_all.py

About two minutes on two cores.  Prints each benchmark's tables as it runs,
then one summary of the headline numbers, the speed targets and
whether they were met.  Nothing here fails on a time: the exit status is
non-zero only if a benchmark itself failed.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BENCHMARKS = ["bench_engine.py", "bench_fichas.py", "bench_clone.py"]


def git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def fmt(value: float | None, unit: str = "", digits: int = 0) -> str:
    if value is None:
        return "-"
    return f"{value:,.{digits}f}{unit}"


def summarise(results: dict[str, dict], seconds: dict[str, float]) -> None:
    print("=" * 100)
    print("SUMMARY")
    dirty = [line for line in git("status", "--short", "--", "engine", "rulesets").splitlines() if line]
    print(f"  code: {git('rev-parse', '--short', 'HEAD')}" +
          (f" with uncommitted changes in {', '.join(line.split()[-1] for line in dirty)}" if dirty else " (clean)"))
    print("  time: " + ", ".join(f"{name} {s:.0f} s" for name, s in seconds.items())
          + f"; total {sum(seconds.values()):.0f} s")
    print()
    e = results.get("bench_engine.py")
    if e:
        print("  engine vs naive loop (firings/s; ratio = median of paired rounds)")
        for key, label in (("chain10", "chain of 10 rules"), ("chain30", "chain of 30 rules"),
                           ("chain100", "chain of 100 rules"),
                           ("per_player20", "for p in players, 20 players"),
                           ("per_player200", "for p in players, 200 players"),
                           ("tuple", "for i in range(50) over a state tuple"),
                           ("join25", "join p, q in players, P=25"), ("join50", "join p, q in players, P=50"),
                           ("join100", "join p, q in players, P=100")):
            row = e[key]
            mark = "beats naive" if row["ratio"] > 1 else "SLOWER than naive"
            print(f"    {label:<40} engine {fmt(row['engine']):>9}  naive {fmt(row['naive']):>9}  "
                  f"x{row['ratio']:.2f}  {mark}")
        g = e["join_growth"]
        print(f"    join: per-firing cost P 25 -> 100: engine x{g['engine']:.1f}, naive x{g['naive']:.1f} -> "
              f"{'COLLAPSES' if g['collapse'] else 'no collapse'}")
        worst = e["dead_worst_cost"]
        print(f"    never-matching rules added to the 100-rule chain: worst cost per firing {worst * 100:+.1f}% "
              f"(target < 10%: {'met' if worst < 0.10 else 'NOT MET'}); whole short game incl. start "
              f"{e['dead_game_cost'] * 100:+.1f}%")
        print("    (info) 100 rules `step > 1000+k`, reading step without a guard: "
              f"{e['dead4']['engine_cost'] * 100:+.0f}%")
        print()
    f = results.get("bench_fichas.py")
    if f:
        print("  chip game")
        for label, row in f.items():
            if "games_per_s" in row:
                print(f"    random games, {label:<38} {fmt(row['games_per_s']):>7} games/s")
        for plain in ("", "_plain"):
            parts = []
            for side in (6, 8, 10):
                row = f.get(f"solve{side}x{side}{plain}")
                if row is None:
                    continue
                parts.append(f"{side}x{side} " + (f"> {row['timeout']:.0f} s (stopped)" if row["seconds"] is None else
                                                   f"{row['seconds']:.2f} s ({row['nodes']:,} nodes, "
                                                   f"{row['us_per_node']:,.0f} us/node)"))
            if parts:
                print(f"    solve{' (plain keys)' if plain else ''}: " + "; ".join(parts))
        ten = f.get("solve10x10", {}).get("seconds")
        print("    10x10 solve target < 2 s: " + ("NOT MET (stopped at 60 s)" if ten is None else
                                                   f"{'met' if ten < 2 else 'NOT MET'} ({ten:.2f} s)"))
        print()
    c = results.get("bench_clone.py")
    if c:
        print("  one search step (us per call)")
        for label, row in c.items():
            plain = f", key plain {row['key_plain']:.0f}" if row.get("key_plain") is not None else ""
            print(f"    {label:<42} clone {row['clone']:.0f}, memory.clone {row['memory_clone']:.0f}, "
                  f"key {row['key']:.0f}{plain}, options {row['options']:.0f}, apply {row['apply']:.0f}; "
                  f"clone+options+apply {row['step']:.0f}")
        print()


def main() -> int:
    results: dict[str, dict] = {}
    seconds: dict[str, float] = {}
    failed = []
    with tempfile.TemporaryDirectory(prefix="naipes-bench-") as tmp:
        for name in BENCHMARKS:
            out = Path(tmp) / f"{name}.json"
            start = time.perf_counter()
            done = subprocess.run([sys.executable, str(HERE / name), "--json", str(out)], cwd=ROOT)
            seconds[name] = time.perf_counter() - start
            print(flush=True)
            if done.returncode != 0 or not out.exists():
                failed.append(name)
                print(f"!! {name} failed (exit status {done.returncode})", flush=True)
                continue
            results[name] = json.loads(out.read_text())
    summarise(results, seconds)
    if failed:
        print(f"FAILED: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
