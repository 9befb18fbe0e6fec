"""The chip game: random games per second, and exact solving of full boards.

    .venv/bin/python benchmarks/bench_fichas.py            # the tables
    .venv/bin/python benchmarks/bench_fichas.py --profile 8 # cProfile of one 8x8 solve, top 15 by tottime
    .venv/bin/python benchmarks/bench_fichas.py --profile 8 --plain  # the same without symmetric keys

Random games: naipes.runtime.game.play_game with two naipes.agents.registry.RandomAgent
seats, a new game seed per game (so default params draw a new random position
each game), through the whole public API (decisions with views, options).

Solving: full C x C boards (params full=true, colours=values=C); the game is
started (Game(program, 1); game.start()) and naipes.agents.search.Solver().evaluate
scores every root option.  Each solve runs in a fresh child process with a
fresh Solver (no memo carried over) and is stopped after 60 s.  Target
(DESIGN): 10x10 in under 2 s.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import Any

from common import REPEAT, Race, fichas, fichas_symmetric, header, rate, table, write_summary

from naipes.agents.registry import RandomAgent
from naipes.agents.search import Solver
from naipes.runtime.game import Game, play_game

SOLVE_TIMEOUT = 60.0
SOLVE_SIZES = (6, 8, 10)
SOLVE_RUNS, SOLVE_BUDGET = 5, 4.0  # up to 5 runs per board, fewer once a board has taken 4 s
TARGET_10x10 = 2.0


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


def solve_once(side: int, plain: bool = False) -> dict:
    program = load_board(side, plain)
    game = Game(program, 1)
    game.start()
    solver = Solver()
    start = time.perf_counter()
    scored = solver.evaluate(game)
    seconds = time.perf_counter() - start
    mover = game.to_move.index
    winning = [o.label for o, value in scored if value[mover] == 1]
    return {"seconds": seconds, "nodes": solver.nodes, "memo": len(solver.memo), "options": len(scored),
            "winning": winning}


def solve_in_child(side: int, plain: bool) -> dict | None:
    """One solve in a fresh interpreter; None if it ran over SOLVE_TIMEOUT."""
    command = [sys.executable, __file__, "--solve-child", str(side)] + (["--plain"] if plain else [])
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=SOLVE_TIMEOUT, check=True)
    except subprocess.TimeoutExpired:
        return None
    except subprocess.CalledProcessError as exc:
        raise SystemExit(f"solving {side}x{side} failed:\n{exc.stderr}") from None
    return json.loads(done.stdout)


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
                out = solve_in_child(side, plain)
                if out is None:
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
        print(json.dumps(solve_once(int(sys.argv[sys.argv.index("--solve-child") + 1]), "--plain" in sys.argv)))
    elif "--profile" in sys.argv:
        profile(int(sys.argv[sys.argv.index("--profile") + 1]), "--plain" in sys.argv)
    else:
        write_summary(sys.argv, main(sys.argv))
