"""best_melds, meldable and meld_and_lay_off speed: mean time per random hand (a plain script, not a
test; nothing is asserted).

    .venv/bin/python benchmarks/bench_melds.py [--hands 10000] [--size 8]

Hands are drawn from a 40-card deck (four suits x ranks 1-7, 10-12), then from
the same deck plus two jokers (jokers='joker', at most one per meld). For
meld_and_lay_off (the count after a close, once per player and hand) the hard
case: two jokers in every hand, the other cards near 2, 4 or 8 melds on the
table (runs and sets of three), the slowest call reported too. meldable is the quick test a
rule file asks first (Chinchón: on every discard decision).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from naipes.library.melds import _SOLVED, best_melds, meld_and_lay_off, meldable  # noqa: E402

ORDER = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]


@dataclass(eq=False)
class Card:
    suit: str | None
    rank: int | None
    joker: bool = False


def mean_time(hands: list, search=best_melds, **kw) -> float:
    best = float("inf")
    for _ in range(3):
        _SOLVED.clear()  # best_melds remembers hands: time the search, not the memo
        start = time.perf_counter()
        for h in hands:
            search(h, ORDER, **kw)
        best = min(best, (time.perf_counter() - start) / len(hands))
    return best


def table_and_hand(rng: random.Random, melds: int, size: int) -> tuple[list, list]:
    """`melds` disjoint runs and sets of three, and a hand of two jokers and cards of their ranks or suits."""
    deck = {(s, r): Card(s, r) for s in "abcd" for r in ORDER}
    table: list = []
    while len(table) < melds:
        if rng.random() < 0.5:
            suit, at = rng.choice("abcd"), rng.randrange(len(ORDER) - 2)
            keys = [(suit, r) for r in ORDER[at:at + 3]]
        else:
            rank = rng.choice(ORDER)
            keys = [(s, rank) for s in rng.sample("abcd", 3)]
        if all(k in deck for k in keys):
            table.append([deck.pop(k) for k in keys])
    near = [c for c in deck.values() if any(c.rank == m[0].rank or c.suit == m[0].suit for m in table)]
    rng.shuffle(near)
    return [Card(None, None, True), Card(None, None, True)] + near[:size - 2], table


def lay_off_times(cases: list) -> tuple[float, float]:
    """(mean, slowest) seconds per meld_and_lay_off call, each the best of 3 passes."""
    best = [float("inf")] * len(cases)
    for _ in range(3):
        for i, (hand, table) in enumerate(cases):
            start = time.perf_counter()
            meld_and_lay_off(hand, table, ORDER, jokers="joker")
            best[i] = min(best[i], time.perf_counter() - start)
    return sum(best) / len(best), max(best)


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
    print("mean time per meldable call (best of 3 passes):")
    print(f"  40 cards:            {mean_time(plain, meldable) * 1e6:7.1f} us")
    print(f"  40 cards + 2 jokers: {mean_time(wild, meldable, jokers='joker') * 1e6:7.1f} us")
    count = max(1, args.hands // 20)
    print(f"{count} {args.size}-card hands with 2 jokers, meld_and_lay_off (best of 3 passes per hand):")
    for melds in (2, 4, 8):
        mean, slowest = lay_off_times([table_and_hand(rng, melds, args.size) for _ in range(count)])
        print(f"  {melds} melds on the table: mean {mean * 1e6:7.1f} us, slowest {slowest * 1e6:7.1f} us")


if __name__ == "__main__":
    main()
