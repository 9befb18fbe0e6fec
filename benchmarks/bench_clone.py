"""What a search pays per node: clone, key, options, apply (microseconds per call).

    .venv/bin/python benchmarks/bench_clone.py

On two chip-game positions, each right after game.start() (a decision pending):
the full 8x8 board, and 100 random chips (count=100, colours=10, values=10).
`options` and `apply` need a fresh game each call (options are cached per
position; apply changes the game), so each timed loop runs over clones made
before the clock starts: options() on fresh clones, then apply(option) on
clones whose options are known.  apply cycles through every legal option and
includes the rules fired after the move (the game asks the other player, or
ends).  The last column, clone + options + apply in one loop, is what Solver
pays per child.
"""
from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable, Iterator
from itertools import count
from typing import Any

from common import fichas, fichas_symmetric, header, per_call_us, table, write_summary

from naipes.runtime.game import Game

POSITIONS = {
    "8x8 full board": {"full": "true", "colours": "8", "values": "8"},
    "100 random chips (10 colours, 10 values)": {"count": "100", "colours": "10", "values": "10"},
}
TARGET_SECONDS = 0.08  # each timed loop runs about this long
REPEAT = 7


def calls_for(fn: Callable[[], Any]) -> int:
    """How many calls of `fn` take about TARGET_SECONDS."""
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < TARGET_SECONDS / 5:
        fn()
        calls += 1
    return max(10, calls * 5)


def measure(fn: Callable[[], Any]) -> float:
    return per_call_us(fn, calls_for(fn), REPEAT)


def measure_on(prepare: Callable[[int], list], fn: Callable[[Any], Any], calls: int) -> float:
    """Microseconds per fn(item), best of REPEAT loops over `calls` items made by `prepare` (untimed)."""
    best = float("inf")
    for _ in range(REPEAT):
        items = prepare(calls)
        gc.collect()
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - start)
    return best / calls * 1e6


def position(params: dict[str, str], plain: bool = False) -> Game:
    game = Game(fichas(params, plain), 1)
    game.start()
    if game.over or not game.options():
        raise SystemExit(f"{params}: the position has no decision pending")
    return game


def main(argv: list[str]) -> dict:
    header("bench_clone", "the cost of one search step on a chip-game position, microseconds per call", REPEAT)
    summary: dict[str, Any] = {}
    symmetric = fichas_symmetric()
    rows = []
    for label, params in POSITIONS.items():
        game = position(params)
        n_options = len(game.options())
        chips = len(game.memory.vars["table"])
        turn = count()

        def step(game: Game = game, turn: Iterator[int] = turn) -> None:
            child = game.clone()
            options = child.options()
            child.apply(options[next(turn) % len(options)])

        def clones(n: int, game: Game = game) -> list[Game]:
            return [game.clone() for _ in range(n)]

        def ready(n: int) -> list[tuple[Game, Any]]:
            out = []
            for i, child in enumerate(clones(n)):
                options = child.options()
                out.append((child, options[i % len(options)]))
            return out

        calls = calls_for(step)
        us = {
            "game.clone()": measure(game.clone),
            "memory.clone()": measure(game.memory.clone),
            "agenda.clone()": measure(game.agenda.clone),
            "game.key()": measure(game.key),
            "options": measure_on(clones, lambda child: child.options(), calls),
            "apply": measure_on(ready, lambda pair: pair[0].apply(pair[1]), calls),
            "step": measure(step),
        }
        plain_key = measure(position(params, plain=True).key) if symmetric else None
        options_us, apply_us = us["options"], us["apply"]
        rows.append([f"{label}: {chips} chips, {n_options} options", us["game.clone()"], us["memory.clone()"],
                     us["agenda.clone()"], us["game.key()"]] + ([plain_key] if symmetric else []) +
                    [options_us, apply_us, us["step"]])
        summary[label] = {"clone": us["game.clone()"], "memory_clone": us["memory.clone()"],
                          "agenda_clone": us["agenda.clone()"], "key": us["game.key()"], "key_plain": plain_key,
                          "options": options_us, "apply": apply_us, "step": us["step"]}
    table(["position", "clone", "memory.clone", "agenda.clone", "key"] + (["key (plain)"] if symmetric else []) +
          ["options", "apply", "clone+options+apply"], rows,
          f"microseconds per call (best of {REPEAT} loops of ~{TARGET_SECONDS * 1000:.0f} ms); "
          "options and apply on fresh clones made outside the timed loop")
    if symmetric:
        print("   key: rulesets/fichas.yaml as is (it declares `cards: symmetric:`, keys relabelled canonically);")
        print("   key (plain): the same position with `symmetric: []` (keys by chip id)")
        print()
    return summary


if __name__ == "__main__":
    write_summary(sys.argv, main(sys.argv))
