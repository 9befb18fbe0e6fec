"""The benchmark's workloads written for durable-rules (the `compare` extra); used by bench_rule_engines.py.

durable-rules keeps its facts in the ruleset, so every run gets a ruleset of its own, made before the timing
starts (`fresh`). What writing them found, and docs/engine.md reports:

* `pri(n)`: the lower n fires first (CLIPS's salience and Naipes's priority: the higher);
* `c.x << a & b` binds `c.x << a` first (Python's precedence): the condition must be `c.x << (a & b)`;
* `c.s` and `c.m` are the rule's state and message, a fact's `id` is its identity (another fact with that
  `id` is refused) and `sid` its session: a fact or a field called so is not what it seems;
* an exception in an action does not propagate: `assert_fact` returns a state with an `exception` entry, so
  `checked` raises it;
* a fact equal to one present cannot be asserted again (MessageObservedException), nor one no rule reads
  (MessageNotHandledException), and an action with a second parameter is taken as asynchronous.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from durable.lang import assert_fact, c, m, none, post, pri, ruleset, when_all

names = itertools.count()


def checked(result: Any) -> None:
    if isinstance(result, dict) and "exception" in result:
        raise RuntimeError(f"durable-rules: an action failed: {result['exception']}")


def fresh(build: Callable[[str, list], None], start: Callable[[str], None], rounds: int) -> Callable[[], int]:
    """A runner that uses one ruleset built beforehand per call (at most `rounds` calls)."""
    prepared = []
    for _ in range(rounds):
        name, fired = f"naipes_bench_{next(names)}", [0]
        build(name, fired)
        prepared.append((name, fired))
    queue = iter(prepared)

    def run() -> int:
        name, fired = next(queue)
        start(name)
        return fired[0]
    return run


def chain(n: int, laps: int, rounds: int) -> Callable[[], int]:
    """Events step == i; each action posts the next step; a lap is a new post of step 0 (events are consumed,
    so the `step == n` rule ends each lap where the others have a lap rule and, once, a finish)."""
    ids = itertools.count()

    def build(name: str, fired: list) -> None:
        def step(i: int) -> Callable:
            def act(c: Any) -> None:
                fired[0] += 1
                if i < n:
                    c.post({"id": next(ids), "step": i + 1})
            act.__name__ = f"r{i}"
            return act
        with ruleset(name):
            for i in range(n + 1):
                when_all(m.step == i)(step(i))

    def start(name: str) -> None:
        for _ in range(laps + 1):
            checked(post(name, {"id": next(ids), "step": 0}))
    return fresh(build, start, rounds)


def join(players: int, rounds_up: int, rounds: int) -> Callable[[], int]:
    """bench_engine.py's join over player facts; no finish rule (nothing fires when the rest is done)."""
    def build(name: str, fired: list) -> None:
        with ruleset(name):
            @when_all(pri(0), c.p << (m.t == "player"),
                      c.q << ((m.t == "player") & (m.index == c.p.index + 1) & (m.level < c.p.level)))
            def propagate(c: Any) -> None:
                fired[0] += 1
                c.retract_fact(dict(c.q.items()))
                c.assert_fact({"t": "player", "index": c.q.index, "level": c.p.level})

            @when_all(pri(1), (m.t == "player") & (m.index == 0) & (m.level < rounds_up))
            def bump(c: Any) -> None:
                fired[0] += 1
                c.retract_fact(dict(c.m.items()))
                c.assert_fact({"t": "player", "index": 0, "level": c.m.level + 1})

    def start(name: str) -> None:
        for i in list(range(1, players)) + [0]:
            checked(assert_fact(name, {"t": "player", "index": i, "level": 0}))
    return fresh(build, start, rounds)


def replace(host: Any, old: Any, changes: dict) -> None:
    """CLIPS's modify: retract the fact, assert it changed."""
    fact = dict(old.items())
    host.retract_fact(fact)
    host.assert_fact({**{k: v for k, v in fact.items() if k != "sid"}, **changes})


def manners(guests: list[tuple[int, str, tuple[int, ...]]], rounds: int) -> Callable[[], int]:
    """examples/manners/manners.clp, rule for rule (`id`/`pid` are `num`/`pnum`, reserved names; the
    saliences as pri: 0 is first)."""
    def build(name: str, fired: list) -> None:
        def count(c: Any) -> None:
            fired[0] += 1
        with ruleset(name):
            @when_all(pri(1), c.ctx << ((m.t == "context") & (m.state == "start_up")), c.g << (m.t == "guest"),
                      c.cnt << (m.t == "count"))
            def assign_first_seat(c: Any) -> None:
                count(c)
                c.assert_fact({"t": "seating", "seat1": 1, "name1": c.g.name, "name2": c.g.name, "seat2": 1,
                               "num": c.cnt.c, "pnum": 0, "path_done": "yes"})
                c.assert_fact({"t": "path", "num": c.cnt.c, "name": c.g.name, "seat": 1})
                replace(c, c.cnt, {"c": c.cnt.c + 1})
                replace(c, c.ctx, {"state": "assign_seats"})

            @when_all(pri(1), c.ctx << ((m.t == "context") & (m.state == "assign_seats")),
                      c.seat << ((m.t == "seating") & (m.path_done == "yes")),
                      c.g1 << ((m.t == "guest") & (m.name == c.seat.name2)),
                      c.g2 << ((m.t == "guest") & (m.sex != c.g1.sex) & (m.hobby == c.g1.hobby)),
                      c.cnt << (m.t == "count"),
                      none((m.t == "path") & (m.num == c.seat.num) & (m.name == c.g2.name)),
                      none((m.t == "chosen") & (m.num == c.seat.num) & (m.name == c.g2.name) &
                           (m.hobby == c.g1.hobby)))
            def find_seating(c: Any) -> None:
                count(c)
                c.assert_fact({"t": "seating", "seat1": c.seat.seat2, "name1": c.seat.name2, "name2": c.g2.name,
                               "seat2": c.seat.seat2 + 1, "num": c.cnt.c, "pnum": c.seat.num, "path_done": "no"})
                c.assert_fact({"t": "path", "num": c.cnt.c, "name": c.g2.name, "seat": c.seat.seat2 + 1})
                c.assert_fact({"t": "chosen", "num": c.seat.num, "name": c.g2.name, "hobby": c.g1.hobby})
                replace(c, c.cnt, {"c": c.cnt.c + 1})
                replace(c, c.ctx, {"state": "make_path"})

            @when_all(pri(0), c.ctx << ((m.t == "context") & (m.state == "make_path")),
                      c.seat << ((m.t == "seating") & (m.path_done == "no")),
                      c.p << ((m.t == "path") & (m.num == c.seat.pnum)),
                      none((m.t == "path") & (m.num == c.seat.num) & (m.name == c.p.name)))
            def make_path(c: Any) -> None:
                count(c)
                c.assert_fact({"t": "path", "num": c.seat.num, "name": c.p.name, "seat": c.p.seat})

            @when_all(pri(1), c.ctx << ((m.t == "context") & (m.state == "make_path")),
                      c.seat << ((m.t == "seating") & (m.path_done == "no")))
            def path_done(c: Any) -> None:
                count(c)
                replace(c, c.seat, {"path_done": "yes"})
                replace(c, c.ctx, {"state": "check_done"})

            @when_all(pri(0), c.ctx << ((m.t == "context") & (m.state == "check_done")),
                      c.last << (m.t == "last_seat"), c.seat << ((m.t == "seating") & (m.seat2 == c.last.seat)))
            def are_we_done(c: Any) -> None:
                count(c)
                replace(c, c.ctx, {"state": "print_results"})

            @when_all(pri(1), c.ctx << ((m.t == "context") & (m.state == "check_done")))
            def continue_seating(c: Any) -> None:
                count(c)
                replace(c, c.ctx, {"state": "assign_seats"})

            @when_all(pri(0), c.ctx << ((m.t == "context") & (m.state == "print_results")),
                      c.last << (m.t == "last_seat"), c.seat << ((m.t == "seating") & (m.seat2 == c.last.seat)),
                      c.p << ((m.t == "path") & (m.num == c.seat.num)))
            def print_results(c: Any) -> None:
                count(c)
                c.retract_fact(dict(c.p.items()))

            @when_all(pri(1), c.ctx << ((m.t == "context") & (m.state == "print_results")))
            def all_done(c: Any) -> None:
                count(c)

    def start(name: str) -> None:
        for guest, sex, hobbies in guests:
            for hobby in hobbies:
                checked(assert_fact(name, {"t": "guest", "name": guest, "sex": sex, "hobby": hobby}))
        for fact in ({"t": "last_seat", "seat": len(guests)}, {"t": "count", "c": 1},
                     {"t": "context", "state": "start_up"}):
            checked(assert_fact(name, fact))
    return fresh(build, start, rounds)
