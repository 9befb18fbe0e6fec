"""best_melds speed: mean time per random hand (a plain script, not a test; nothing is asserted).

    .venv/bin/python benchmarks/bench_melds.py [--hands 10000] [--size 8]

Hands are drawn from a 40-card deck (four suits x ranks 1-7, 10-12), then from
the same deck plus two jokers (jokers='joker', at most one per meld).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from naipes.melds import best_melds  # noqa: E402

ORDER = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]


@dataclass(eq=False)
class Card:
    suit: str | None
    rank: int | None
    joker: bool = False


def mean_time(hands: list, **kw) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for h in hands:
            best_melds(h, ORDER, **kw)
        best = min(best, (time.perf_counter() - start) / len(hands))
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10000)
    ap.add_argument("--size", type=int, default=8)
    args = ap.parse_args()
    rng = random.Random(1)
    deck = [Card(s, r) for s in "abcd" for r in ORDER]
    plain = [rng.sample(deck, args.size) for _ in range(args.hands)]
    wild = [rng.sample(deck + [Card(None, None, True), Card(None, None, True)], args.size) for _ in range(args.hands)]
    print(f"{args.hands} random {args.size}-card hands, mean time per best_melds call (best of 3 passes):")
    print(f"  40 cards:            {mean_time(plain) * 1e6:7.1f} us")
    print(f"  40 cards + 2 jokers: {mean_time(wild, jokers='joker') * 1e6:7.1f} us")


if __name__ == "__main__":
    main()
