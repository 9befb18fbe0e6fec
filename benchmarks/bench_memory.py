"""Peak memory of issue 11's three memory workloads, each a `naipes` command in a fresh process.

    .venv/bin/python benchmarks/bench_memory.py [--json FILE] [--quick]

Peak RSS is the kernel's ru_maxrss of the finished process (os.wait4); a run
stopped at its timeout reports the VmHWM of /proc/PID/status read just before.
Each workload has a small twin (one Pocha game, 10 ISMCTS iterations, the 6x6
board), so what the long run adds over starting Python, loading naipes and the
rule file reads as the difference.  --quick: the small twins only.
"""
from __future__ import annotations

import sys
from pathlib import Path

from common import ROOT, header, run_measured, table, write_summary

NAIPES = str(Path(sys.executable).with_name("naipes"))
RULES = ROOT / "rulesets"
TIMEOUT = 600.0
CHIP_TIMEOUT = 180.0
SHORT_TUTE = ["-p", "porotos_to_retire=1"]  # the match ends at the first poroto: a hand or a few


def workloads(quick: bool) -> list[tuple[str, list[str], float]]:
    """(label, naipes arguments, timeout)"""
    def pocha(games: int) -> list[str]:
        return ["simulate", str(RULES / "pocha.yaml"), "-n", str(games), "--seed", "1"]

    def tute(iterations: int) -> list[str]:
        return ["simulate", str(RULES / "tute_cabrero.yaml"), "-n", "1", "--seed", "1", *SHORT_TUTE,
                "--seat", f"ismcts:iterations={iterations}", "--seat", "random", "--seat", "random"]

    def chips(*params: str) -> list[str]:
        return ["solve", str(RULES / "fichas.yaml"), "--seed", "1", "--json", *[a for p in params for a in ("-p", p)]]

    small = [("Pocha simulation, 1 game (4 players)", pocha(1), TIMEOUT),
             ("ISMCTS Tute (3 players, porotos_to_retire=1), 10 iterations/move", tute(10), TIMEOUT),
             ("chip solve, full 6x6", chips("full=true", "colours=6", "values=6"), TIMEOUT)]
    if quick:
        return small
    return small + [
        ("Pocha simulation, 1,000 games (4 players)", pocha(1000), TIMEOUT),
        ("ISMCTS Tute (3 players, porotos_to_retire=1), 1,000 iterations/move", tute(1000), TIMEOUT),
        ("chip solve, full 10x10", chips("full=true", "colours=10", "values=10"), CHIP_TIMEOUT),
        ("chip solve, random 50 chips 10x10", chips("count=50", "colours=10", "values=10"), CHIP_TIMEOUT)]


def main(argv: list[str]) -> dict:
    header("bench_memory", "peak RSS of naipes commands, each in a fresh process", 1)
    rows, summary = [], {}
    for label, arguments, timeout in workloads("--quick" in argv):
        run = run_measured([NAIPES, *arguments], timeout)
        if run.returncode not in (0, None):
            raise SystemExit(f"{label}: naipes {' '.join(arguments)} failed:\n{run.stderr[-2000:]}")
        seconds = f"over {timeout:.0f} (stopped)" if run.timed_out else run.seconds
        rows.append([label, seconds, run.peak_rss_mb if run.peak_rss_mb is not None else "-"])
        summary[label] = {"command": "naipes " + " ".join(arguments), "seconds": run.seconds,
                          "timed_out": run.timed_out, "peak_rss_mb": run.peak_rss_mb}
        print(f"   naipes {' '.join(a.replace(str(ROOT) + '/', '') for a in arguments)}", flush=True)
    print()
    table(["workload", "wall s", "peak RSS MB"], rows)
    return summary


if __name__ == "__main__":
    write_summary(sys.argv, main(sys.argv))
