"""The chip game: random games per second, and exact solving of full boards.

    .venv/bin/python benchmarks/bench_fichas.py            # the tables
    .venv/bin/python benchmarks/bench_fichas.py --profile 8 # cProfile of one 8x8 solve, top 15 by tottime
    .venv/bin/python benchmarks/bench_fichas.py --profile 8 --plain  # the same without symmetric keys
    .venv/bin/python benchmarks/bench_fichas.py --versus-plain [--boards N]  # naipes' Solver vs plain_fichas.py

Random games: naipes.runtime.game.play_game with two naipes.agents.registry.RandomAgent
seats, a new game seed per game (so default params draw a new random position
each game), through the whole public API (decisions with views, options).

Solving: full C x C boards (params full=true, colours=values=C); the game is
started (Game(program, 1); game.start()) and naipes.agents.search.Solver().evaluate
scores every root option.  Each solve runs in a fresh child process with a
fresh Solver (no memo carried over) and is stopped after 60 s.  Target
(DESIGN): 10x10 in under 2 s.

--versus-plain: the same Solver (what `naipes solve` runs) against the plain
bitmask solver of plain_fichas.py on random 50-chip boards of 10 colours x
10 values (the rule file draws each chip's colour and value independently, so
chips repeat; seeds 1..N, N = 10 unless --boards N) and on the full 10x10
board; each solve in a fresh process that reports its peak RSS (naipes is
stopped after 180 s, its peak RSS read from /proc just before).  Targets:
naipes within 10x the plain solver on every random board, the full board
under 0.2 s.
"""
from __future__ import annotations

import json
import resource
import statistics
import sys
import time
from typing import Any

from common import REPEAT, Race, fichas, fichas_symmetric, header, rate, run_measured, table, write_summary
from plain_fichas import PlainSolver

from naipes.agents.registry import RandomAgent
from naipes.agents.search import Solver
from naipes.runtime.game import Game, play_game

SOLVE_TIMEOUT = 60.0
SOLVE_SIZES = (6, 8, 10)
SOLVE_RUNS, SOLVE_BUDGET = 5, 4.0  # up to 5 runs per board, fewer once a board has taken 4 s
TARGET_10x10 = 2.0
VERSUS_TIMEOUT = 180.0  # naipes' solve of the random 50-chip board is stopped after this
VERSUS_RUNS = 3  # plain solves of the full board (fresh processes), the median reported
VERSUS_BOARDS = 10  # random boards, seeds 1..VERSUS_BOARDS (--boards N)
RANDOM_BOARD = {"count": "50", "colours": "10", "values": "10"}


def board(side: int) -> dict[str, str]:
    return {"full": "true", "colours": str(side), "values": str(side)}


def random_games(program: Any, games: int) -> tuple[int, int, int]:
    decisions = firings = 0
    for seed in range(games):
        result = play_game(program, [RandomAgent(seed), RandomAgent(seed + 1_000_003)], seed=seed)
        decisions += result.decisions
        firings += result.firings
    return games, decisions, firings


def load_board(side: int, plain: bool = False) -> Any:
    """The full side x side board; `plain`: the variant without symmetric keys."""
    return fichas(board(side), plain)


def peak_rss_mb() -> float:
    """This process's peak resident set size so far, in MB (Linux reports kB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def solve_once(params: dict[str, str], seed: int = 1, plain: bool = False, by: str = "naipes") -> dict:
    """Solve the start position of the board `params` with naipes' Solver, or (by="plain") plain_fichas."""
    program = fichas(params, plain)
    game = Game(program, seed)
    game.start()
    chips = [(c.colour, c.value) for c in game.memory.vars["table"]]
    rss_before = peak_rss_mb()
    start = time.perf_counter()
    if by == "plain":
        bitmask = PlainSolver(chips)
        winning = bitmask.winning_moves()
        seconds, nodes, memo, options = time.perf_counter() - start, bitmask.nodes, len(bitmask.memo), 0
    else:
        solver = Solver()
        scored = solver.evaluate(game)
        seconds = time.perf_counter() - start
        mover = game.mover.index
        winning = [o.label for o, value in scored if value[mover] == 1]
        nodes, memo, options = solver.nodes, len(solver.memo), len(scored)
    return {"seconds": seconds, "nodes": nodes, "memo": memo, "options": options, "winning": sorted(winning),
            "chips": len(chips), "rss_before_mb": rss_before, "peak_rss_mb": peak_rss_mb()}


def solve_in_child(params: dict[str, str], plain: bool = False, *, seed: int = 1, by: str = "naipes",
                   timeout: float = SOLVE_TIMEOUT) -> dict:
    """One solve in a fresh interpreter.  Over `timeout`: {"timeout": timeout, "peak_rss_mb": ...}."""
    command = [sys.executable, __file__, "--solve-child", json.dumps(params), str(seed), by] + \
        (["--plain"] if plain else [])
    run = run_measured(command, timeout)
    if run.timed_out:
        return {"timeout": timeout, "peak_rss_mb": run.peak_rss_mb}
    if run.returncode:
        raise SystemExit(f"solving {params} failed:\n{run.stderr}")
    return json.loads(run.stdout)


def versus_plain(boards: int = VERSUS_BOARDS) -> dict:
    """naipes' Solver vs plain_fichas.py on `boards` random 50-chip boards (seeds 1..boards) and the full 10x10."""
    header("bench_fichas --versus-plain", "naipes' Solver (naipes solve) vs a plain bitmask solver", VERSUS_RUNS)
    chosen = {f"random {RANDOM_BOARD['count']} chips, 10x10, seed {seed}": (RANDOM_BOARD, seed)
              for seed in range(1, boards + 1)}
    chosen["full 10x10"] = (board(10), 1)
    rows, summary, ratios = [], {}, []
    for label, (params, seed) in chosen.items():
        full = params is not RANDOM_BOARD
        runs = {by: [solve_in_child(params, seed=seed, by=by, timeout=VERSUS_TIMEOUT)
                     for _ in range(VERSUS_RUNS if full and by == "plain" else 1)] for by in ("plain", "naipes")}
        plain, naipes = runs["plain"], runs["naipes"]
        plain_s = statistics.median(r["seconds"] for r in plain)
        for by, results in runs.items():
            last = results[-1]
            if "timeout" in last:
                rows.append([label, by, f"over {last['timeout']:.0f} s (stopped)", "-", "-", "-",
                             last["peak_rss_mb"] or "-", "-"])
                continue
            seconds = statistics.median(r["seconds"] for r in results)
            rows.append([label, by, seconds, last["nodes"], seconds / plain_s, last["rss_before_mb"],
                         last["peak_rss_mb"], "wins" if last["winning"] else "loses"])
        done = "timeout" not in naipes[-1]
        if done and naipes[-1]["winning"] != plain[-1]["winning"]:
            raise SystemExit(f"{label}: the solvers disagree: {naipes[-1]['winning']} vs {plain[-1]['winning']}")
        if not full:  # a stopped solve counts at its stop: the ratio is then a floor
            ratios.append((naipes[-1].get("seconds", VERSUS_TIMEOUT), plain_s))
        summary[label] = {"plain_s": plain_s, "naipes_s": naipes[-1].get("seconds"),
                          "naipes_timeout": naipes[-1].get("timeout"), "naipes_peak_rss_mb": naipes[-1]["peak_rss_mb"],
                          "plain_peak_rss_mb": plain[-1]["peak_rss_mb"]}
    table(["board", "solver", "solve s", "nodes", "x plain", "RSS before MB", "peak RSS MB", "mover"], rows,
          f"the start position solved in a fresh process each (the full board's plain solve: median of "
          f"{VERSUS_RUNS}; naipes stopped after {VERSUS_TIMEOUT:.0f} s); 'x plain': solve time / the plain solver's")
    each = sorted(naipes_s / plain_s for naipes_s, plain_s in ratios)
    whole = sum(n for n, _ in ratios) / sum(p for _, p in ratios)
    summary["random_boards"] = {"boards": len(each), "ratio_all": whole, "ratio_median": statistics.median(each),
                                "ratio_worst": each[-1]}
    print(f"   the {len(each)} random boards: all of naipes' time / all of the plain solver's {whole:.2f}x; "
          f"a board's ratio: median {statistics.median(each):.2f}x, best {each[0]:.2f}x, worst {each[-1]:.2f}x")
    print("   targets: the random boards within 10x the plain solver (every one), the full 10x10 under 0.2 s\n")
    return summary


def profile(side: int, plain: bool = False) -> None:
    import cProfile
    import pstats
    program = load_board(side, plain)
    game = Game(program, 1)
    game.start()
    solver = Solver()
    profiler = cProfile.Profile()
    profiler.enable()
    solver.evaluate(game)
    profiler.disable()
    print(f"cProfile of Solver().evaluate on the full {side}x{side} board{' (plain keys)' if plain else ''} "
          f"({solver.nodes:,} nodes), top 15 by tottime")
    pstats.Stats(profiler, stream=sys.stdout).strip_dirs().sort_stats("tottime").print_stats(15)


def main(argv: list[str]) -> dict:
    header("bench_fichas", "the chip game: random games per second, solving full boards")
    summary: dict[str, Any] = {}

    # ----------------------------------------------------------- random games
    configs = {
        "default params (12 random chips, 4x4)": (fichas(), 300),
        "full=true 6x6 (36 chips)": (fichas(board(6)), 100),
    }
    r = Race({label: (lambda p=p, g=g: random_games(p, g)) for label, (p, g) in configs.items()})
    rows = []
    for label, (_, games) in configs.items():
        seconds = r.best(label)
        _, decisions, firings = r.outs[label]
        rows.append([label, games, rate(games, seconds), rate(decisions, seconds), decisions / games,
                     seconds / decisions * 1e6])
        summary[label] = {"games_per_s": rate(games, seconds), "decisions_per_s": rate(decisions, seconds)}
    table(["random vs random (play_game)", "games", "games/s", "decisions/s", "decisions/game", "us/decision"], rows,
          f"random games, two RandomAgent seats, a new seed per game (best of {REPEAT})")

    # ----------------------------------------------------------------- solving
    symmetric = fichas_symmetric()
    variants = [(False, "as is" + (" (symmetric keys)" if symmetric else ""))]
    if symmetric:
        variants.append((True, "plain keys (symmetric: [])"))
    rows = []
    for plain, keys in variants:
        for side in SOLVE_SIZES:
            results, spent = [], 0.0
            while len(results) < SOLVE_RUNS and (spent < SOLVE_BUDGET or not results):
                out = solve_in_child(board(side), plain)
                if "timeout" in out:
                    results = None
                    break
                results.append(out)
                spent += out["seconds"]
            key = f"solve{side}x{side}" + ("_plain" if plain else "")
            if results is None:
                rows.append([f"{side}x{side}", keys, 1, f"> {SOLVE_TIMEOUT:.0f} s (stopped)", "-", "-", "-", "-"])
                summary[key] = {"seconds": None, "timeout": SOLVE_TIMEOUT}
                continue
            best = min(results, key=lambda o: o["seconds"])
            verdict = "wins" if best["winning"] else "loses"
            rows.append([f"{side}x{side}", keys, len(results), best["seconds"], best["nodes"],
                         best["seconds"] / best["nodes"] * 1e6, rate(best["nodes"], best["seconds"]),
                         f"{verdict} ({len(best['winning'])}/{best['options']} moves win)"])
            summary[key] = {"seconds": best["seconds"], "nodes": best["nodes"],
                            "us_per_node": best["seconds"] / best["nodes"] * 1e6}
    table(["full board", "rulesets/fichas.yaml", "runs", "solve s", "nodes", "us/node", "nodes/s", "player to move"],
          rows, "Solver().evaluate(game) on full boards, each run in a fresh process with a fresh Solver "
                "(best of the runs)")
    ten = summary.get("solve10x10", {}).get("seconds")
    if ten is None:
        print(f"   10x10 target (< {TARGET_10x10:.0f} s): NOT MET - stopped after {SOLVE_TIMEOUT:.0f} s")
    elif ten < TARGET_10x10:
        print(f"   10x10 target (< {TARGET_10x10:.0f} s): met ({ten:.2f} s)")
    else:
        print(f"   10x10 target (< {TARGET_10x10:.0f} s): NOT MET - {ten:.2f} s, {ten / TARGET_10x10:.1f}x the target")
    if symmetric:
        print("   'plain keys': the same rule file extended with `cards: symmetric: []`, i.e. memo keys by chip id;")
        print("   it shows the engine's raw cost per node, without the symmetry reduction of the search")
    print()
    return summary


if __name__ == "__main__":
    if "--solve-child" in sys.argv:
        at = sys.argv.index("--solve-child")
        params, seed, by = json.loads(sys.argv[at + 1]), int(sys.argv[at + 2]), sys.argv[at + 3]
        print(json.dumps(solve_once(params, seed, "--plain" in sys.argv, by)))
    elif "--versus-plain" in sys.argv:
        boards = int(sys.argv[sys.argv.index("--boards") + 1]) if "--boards" in sys.argv else VERSUS_BOARDS
        write_summary(sys.argv, versus_plain(boards))
    elif "--profile" in sys.argv:
        profile(int(sys.argv[sys.argv.index("--profile") + 1]), "--plain" in sys.argv)
    else:
        write_summary(sys.argv, main(sys.argv))
