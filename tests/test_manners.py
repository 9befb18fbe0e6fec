"""Miss Manners (examples/manners/): the rule file, written as CLIPS users write it (strategy: depth, plain
joins), and the CLIPS original fire the same rules as often and both seat every guest validly (issues 14 and 36).
Needs clipspy (the `clips` extra); 64 guests are in the slow run, 128 in
benchmarks/bench_rule_engines.py."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from naipes import load_program
from naipes.runtime.game import Game

MANNERS = Path(__file__).resolve().parent.parent / "examples" / "manners"


def guests(n: int) -> list[tuple[int, str, tuple[int, ...]]]:
    """The rule file's `guest_list` (name, sex, hobbies): CLIPS is given the same guests."""
    return list(Game(load_program(MANNERS / "manners.yaml", {"guests": str(n)}), 0).memory.vars["guest_list"])


def run_naipes(n: int) -> tuple[Counter, list[tuple[int, int]]]:
    game = Game(load_program(MANNERS / "manners.yaml", {"guests": str(n)}), 0)
    counts: Counter = Counter()
    game.listeners.append(lambda r: counts.update([r["rule"]]) if r["type"] == "fire" else None)
    game.start()
    assert game.over
    return counts, list(game.memory.vars["printed"])


def run_clips(n: int) -> tuple[Counter, list[tuple[int, int]]]:
    clips = pytest.importorskip("clips", reason="clipspy is not installed (pip install -e '.[clips]')")
    env = clips.Environment()
    seated: list[tuple[int, int]] = []
    env.define_function(lambda name, seat: seated.append((int(name), int(seat))), "printed")
    trace = trace_router()
    env.add_router(trace)
    env.load(str(MANNERS / "manners.clp"))
    for rule in env.rules():
        rule.watch_firings = True
    env.reset()
    for name, sex, hobbies in guests(n):
        for hobby in hobbies:
            env.assert_string(f"(guest (name {name}) (sex {sex}) (hobby {hobby}))")
    for fact in (f"(last_seat (seat {n}))", "(count (c 1))", "(context (state start_up))"):
        env.assert_string(fact)
    env.run()
    counts = Counter(re.findall(r"FIRE\s+\d+\s+(\w+):", trace.text))
    counts["continue_seating"] = counts.pop("continue", 0)  # `continue` is a reserved word in the rule language
    return counts, seated


def trace_router():
    """A router that keeps what CLIPS's `watch` writes (the rule firings) in its `text`."""
    import clips

    class Trace(clips.Router):
        def __init__(self) -> None:
            super().__init__("naipes-trace", 20)
            self.text = ""

        def query(self, name: str) -> bool:
            return name in ("wtrace", "stdout")  # CLIPS 6.4 writes its watch output to stdout

        def write(self, name: str, message: str) -> None:
            self.text += message
    return Trace()


def assert_valid_seating(n: int, seated: list[tuple[int, int]]) -> None:
    by_seat = dict((seat, name) for name, seat in seated)
    assert sorted(by_seat) == list(range(1, n + 1)) and sorted(by_seat.values()) == list(range(1, n + 1))
    info = {name: (sex, set(hobbies)) for name, sex, hobbies in guests(n)}
    for seat in range(1, n):
        (sex_a, hobbies_a), (sex_b, hobbies_b) = info[by_seat[seat]], info[by_seat[seat + 1]]
        assert sex_a != sex_b and hobbies_a & hobbies_b, (seat, by_seat[seat], by_seat[seat + 1])


@pytest.mark.parametrize("n", [16, 32, pytest.param(64, marks=pytest.mark.slow)])  # 128: bench_rule_engines.py
def test_manners_fires_as_often_as_in_clips_and_both_seat_everyone(n):
    clips_counts, clips_seated = run_clips(n)
    naipes_counts, naipes_seated = run_naipes(n)
    assert naipes_counts == clips_counts
    # the classic's counts: a seat per find_seating; make_path copies the path so far, 1 + 2 + ... + (n - 1)
    assert naipes_counts["find_seating"] == n - 1 and naipes_counts["make_path"] == n * (n - 1) // 2
    assert_valid_seating(n, naipes_seated)
    assert_valid_seating(n, clips_seated)
