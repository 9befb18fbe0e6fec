"""Rule firings per second: the engine against a naive loop, side by side.

    .venv/bin/python benchmarks/bench_engine.py

(a) chains: N rules `step == i -> step = i + 1`, looped L laps, then `end game`;
(b) bindings: `for: p in players` (many players), `for: i in range(K)` over a
    state tuple, and a two-variable join `for: [p in players, q in players]`
    with a selective condition, at growing player counts (does it collapse?);
    and that join in its plain cross-product form (the filter in `when:`)
    against the hand-filtered form (`q in players[p.index + 1:p.index + 2]`),
    at about 1k and 10k combinations;
(c) the 100-rule chain plus rules that never match: the cost they add.

Each rule set is written as a YAML rule file into a temporary directory and
run through naipes.runtime.game.Game (Game(program, seed); game.start() runs
to `end game`; game.firings counts the firings).  The same logic is written
as plain-Python rules for NaiveEngine below and run on the same data; both
must fire the same number of rules, or the benchmark stops.  Compilation
(load_program) is not timed; Game construction and start are.
"""
from __future__ import annotations

import statistics
import sys
import tempfile
from collections.abc import Callable
from itertools import product
from pathlib import Path
from typing import Any

from common import REPEAT, Race, header, rate, table, write_summary

from naipes import load_program
from naipes.runtime.game import Game

MAX_FIRINGS = 1_000_000  # the loader's most (max_firings); every workload here stays far below it


# ====================================================== the naive loop (~100 lines)
class NaiveState:
    """Global variables in a dict, players as objects; every write notes a change."""

    def __init__(self, players: int = 0, **variables: Any):
        self.v = dict(variables)
        self.players = [NaivePlayer(i) for i in range(players)]
        self.changed = False
        self.over = False

    def set(self, name: str, value: Any) -> None:
        if self.v[name] != value:
            self.v[name] = value
            self.changed = True

    def set_attr(self, obj: Any, attr: str, value: Any) -> None:
        if getattr(obj, attr) != value:
            setattr(obj, attr, value)
            self.changed = True

    def end(self) -> None:
        self.over = True
        self.changed = True


class NaivePlayer:
    __slots__ = ("index", "n", "level")

    def __init__(self, index: int):
        self.index, self.n, self.level = index, 0, 0


class NaiveRule:
    """cond(state, *binding) -> bool; action(state, *binding); one domain per variable."""

    __slots__ = ("name", "cond", "action", "priority", "domains")

    def __init__(self, name: str, cond: Callable, action: Callable, priority: int = 0,
                 domains: tuple[Callable, ...] = ()):
        self.name, self.cond, self.action, self.priority, self.domains = name, cond, action, priority, domains


class NaiveEngine:
    """Scan every rule and binding each cycle (priority, then declaration order,
    then binding order); fire the first whose condition holds and that has not
    fired since the last change of the state.  No indexing, no caching."""

    def __init__(self, rules: list[NaiveRule]):
        self.order = sorted(enumerate(rules), key=lambda ir: (-ir[1].priority, ir[0]))

    def run(self, state: NaiveState) -> int:
        fired: set = set()
        firings = 0
        order = self.order
        while not state.over:
            chosen = None
            for idx, rule in order:
                bindings = product(*[d(state) for d in rule.domains]) if rule.domains else ((),)
                cond = rule.cond
                for binding in bindings:
                    if (idx, binding) not in fired and cond(state, *binding):
                        chosen = (idx, rule, binding)
                        break
                if chosen:
                    break
            if chosen is None:
                raise RuntimeError("naive loop: nothing to fire and the game is not over")
            idx, rule, binding = chosen
            state.changed = False
            rule.action(state, *binding)
            firings += 1
            if state.changed:
                fired.clear()  # refraction: "fired since the last change" of the state
            else:
                fired.add((idx, binding))
        return firings


def _set_many(state: NaiveState, pairs: tuple) -> None:
    for name, value in pairs:
        state.set(name, value)


# ================================================================ rule files
def write_rules(directory: Path, name: str, body: str) -> Path:
    path = directory / f"{name}.yaml"
    path.write_text(body)
    return path


def chain_yaml(n: int, laps: int, extras: str = "", ghost: bool = False, start: int = 0) -> str:
    """`start=n`: begin at the end of the last lap, so only `finish` fires (the cost of Game() + start())."""
    rules = [f"""  - name: r{i}
    when: "step == {i}"
    then: "step = {i + 1}"
""" for i in range(n)]
    return f"""game: chain
max_firings: {MAX_FIRINGS}
state:
  step: {start}
  lap: {laps if start else 0}
{"  ghost: 0" if ghost else ""}
rules:
{extras}{"".join(rules)}  - name: next_lap
    when: "step == {n} and lap < {laps}"
    then: |
      step = 0
      lap = lap + 1
  - name: finish
    when: "step == {n} and lap >= {laps}"
    then: "end game"
"""


def extra_yaml(kind: str, count: int) -> str:
    conditions = {
        "unwritten": "ghost > {k}",          # reads a variable nobody writes
        "guarded": "step == {big}",          # a leading `name == literal`: indexed, never this value
        "unindexed": "step > {big}",         # reads step without an equality guard: re-evaluated each step
    }[kind]
    return "".join(f"""  - name: {kind}{k}
    when: "{conditions.format(k=k, big=1000 + k)}"
    then: "step = 0"
""" for k in range(count))


def naive_condition(kind: str, k: int) -> Callable[[NaiveState], bool]:
    """The condition of the k-th extra rule of a kind; none of them ever holds."""
    if kind == "unwritten":
        return lambda s: s.v["ghost"] > k
    if kind == "guarded":
        return lambda s: s.v["step"] == 1000 + k
    return lambda s: s.v["step"] > 1000 + k


def chain_naive(n: int, laps: int, extras: list[str]) -> tuple[NaiveEngine, Callable[[], NaiveState]]:
    rules = []
    for kind in extras:
        for k in range(100):
            rules.append(NaiveRule(f"{kind}{k}", naive_condition(kind, k), lambda s: s.set("step", 0)))
    for i in range(n):
        rules.append(NaiveRule(f"r{i}", lambda s, i=i: s.v["step"] == i, lambda s, i=i: s.set("step", i + 1)))
    rules.append(NaiveRule("next_lap", lambda s: s.v["step"] == n and s.v["lap"] < laps,
                           lambda s: _set_many(s, (("step", 0), ("lap", s.v["lap"] + 1)))))
    rules.append(NaiveRule("finish", lambda s: s.v["step"] == n and s.v["lap"] >= laps, lambda s: s.end()))
    return NaiveEngine(rules), lambda: NaiveState(step=0, lap=0, ghost=0)


PLAYERS_HEAD = f"""players: {{min: 2, max: 200, default: 2}}
max_firings: {MAX_FIRINGS}
player_state:
  n: 0
  level: 0
"""


def per_player_yaml(limit: int) -> str:
    return f"""game: per_player
{PLAYERS_HEAD}rules:
  - name: inc
    for: "p in players"
    when: "p.n < {limit}"
    then: "p.n += 1"
  - name: finish
    priority: -1
    when: "True"
    then: "end game"
"""


def per_player_naive(players: int, limit: int) -> tuple[NaiveEngine, Callable[[], NaiveState]]:
    rules = [NaiveRule("inc", lambda s, p: p.n < limit, lambda s, p: s.set_attr(p, "n", p.n + 1),
                       domains=(lambda s: s.players,)),
             NaiveRule("finish", lambda s: True, lambda s: s.end(), priority=-1)]
    return NaiveEngine(rules), lambda: NaiveState(players)


def tuple_yaml(k: int, limit: int) -> str:
    return f"""game: tuple_slots
max_firings: {MAX_FIRINGS}
state:
  counts: "tuple([0] * {k})"
rules:
  - name: inc
    for: "i in range({k})"
    when: "counts[i] < {limit}"
    then: "counts = tuple(counts[j] + (1 if j == i else 0) for j in range({k}))"
  - name: finish
    priority: -1
    when: "True"
    then: "end game"
"""


def tuple_naive(k: int, limit: int) -> tuple[NaiveEngine, Callable[[], NaiveState]]:
    rules = [NaiveRule("inc", lambda s, i: s.v["counts"][i] < limit,
                       lambda s, i: s.set("counts",
                                          tuple(c + (1 if j == i else 0) for j, c in enumerate(s.v["counts"]))),
                       domains=(lambda s: range(k),)),
             NaiveRule("finish", lambda s: True, lambda s: s.end(), priority=-1)]
    return NaiveEngine(rules), lambda: NaiveState(counts=(0,) * k)


CROSS_PRODUCT = 'for: ["p in players", "q in players"]\n    when: "q.index == p.index + 1 and p.level > q.level"'
HAND_FILTERED = 'for: ["p in players", "q in players[p.index + 1:p.index + 2]"]\n    when: "p.level > q.level"'


def join_yaml(rounds: int, binding: str = CROSS_PRODUCT) -> str:
    """P0 raises its level `rounds` times; each raise ripples down the seats
    through a two-variable rule whose condition holds for one pair in P
    (`binding`: the cross product filtered by `when:`, or the hand-filtered domain)."""
    return f"""game: join
{PLAYERS_HEAD}rules:
  - name: propagate
    priority: 1
    {binding}
    then: "q.level = p.level"
  - name: bump
    when: "players[0].level < {rounds}"
    then: "players[0].level += 1"
  - name: finish
    priority: -1
    when: "True"
    then: "end game"
"""


def join_naive(players: int, rounds: int) -> tuple[NaiveEngine, Callable[[], NaiveState]]:
    everyone = lambda s: s.players  # noqa: E731
    rules = [NaiveRule("propagate", lambda s, p, q: q.index == p.index + 1 and p.level > q.level,
                       lambda s, p, q: s.set_attr(q, "level", p.level), priority=1, domains=(everyone, everyone)),
             NaiveRule("bump", lambda s: s.players[0].level < rounds,
                       lambda s: s.set_attr(s.players[0], "level", s.players[0].level + 1)),
             NaiveRule("finish", lambda s: True, lambda s: s.end(), priority=-1)]
    return NaiveEngine(rules), lambda: NaiveState(players)


# ================================================================== runners
def engine_runner(program: Any, players: int | None = None) -> Callable[[], int]:
    def run() -> int:
        game = Game(program, 1, players=players)
        game.start()
        if not game.over:
            raise RuntimeError(f"{program.name}: the game did not end")
        return game.firings
    return run


def naive_runner(engine: NaiveEngine, make_state: Callable[[], NaiveState]) -> Callable[[], int]:
    return lambda: engine.run(make_state())


def race(label: str, fns: dict[str, Callable[[], int]], repeat: int = REPEAT, same: tuple = ()) -> Race:
    """Time the contenders in turn; those named in `same` must fire the same number of rules."""
    result = Race(fns, repeat)
    counts = {name: result.outs[name] for name in same}
    if len(set(counts.values())) > 1:
        raise SystemExit(f"{label}: the engine and the naive loop fired different numbers of rules: {counts}")
    return result


def versus(label: str, program: Any, naive: tuple, players: int | None = None,
           repeat: int = REPEAT) -> tuple[list, dict]:
    """One row of engine against naive: firings, both rates, the paired ratio."""
    r = race(label, {"engine": engine_runner(program, players), "naive": naive_runner(*naive)}, repeat,
             same=("engine", "naive"))
    firings = r.outs["engine"]
    e, n, ratio = rate(firings, r.best("engine")), rate(firings, r.best("naive")), r.speedup("engine", "naive")
    return [label, firings, e, n, ratio], {"firings": firings, "engine": e, "naive": n, "ratio": ratio}


RATIO_NOTE = "   engine/s and naive/s: best of {n}; engine/naive: median of the {n} paired rounds' ratios"


def main(argv: list[str]) -> dict:
    header("bench_engine", "rule firings per second, engine vs a naive loop")
    summary: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="naipes-bench-") as tmp:
        d = Path(tmp)

        # ------------------------------------------------------------ (a) chains
        rows = []
        for n, laps in ((10, 1000), (30, 330), (100, 100)):
            program = load_program(write_rules(d, f"chain{n}", chain_yaml(n, laps)))
            row, summary[f"chain{n}"] = versus(f"{n} rules x {laps} laps", program, chain_naive(n, laps, []), repeat=11)
            rows.append(row)
        table(["(a) chain", "firings", "engine/s", "naive/s", "engine/naive"], rows,
              "(a) a chain of rules r_i: step == i -> step = i + 1, looped by a lap rule, then `end game`")
        print(RATIO_NOTE.format(n=11))
        print()

        # ---------------------------------------------------------- (b) bindings
        rows = []
        for players, limit in ((20, 200), (200, 20)):
            program = load_program(write_rules(d, f"per_player{limit}", per_player_yaml(limit)))
            row, summary[f"per_player{players}"] = versus(f"for p in players ({players}): p.n < {limit}", program,
                                                          per_player_naive(players, limit), players, repeat=9)
            rows.append(row)
        k, limit = 50, 20
        program = load_program(write_rules(d, "tuple", tuple_yaml(k, limit)))
        row, summary["tuple"] = versus(f"for i in range({k}): counts[i] < {limit}", program, tuple_naive(k, limit),
                                       repeat=9)
        rows.append(row)
        table(["(b1) one variable", "firings", "engine/s", "naive/s", "engine/naive"], rows,
              "(b1) one activation per binding; the action writes p.n (one activation's input) or the "
              "whole `counts` tuple (every activation's input)")
        print(RATIO_NOTE.format(n=9))
        print()

        rows, join = [], {}
        for players, rounds, repeat in ((25, 8, 15), (50, 4, 9), (100, 2, 5)):
            program = load_program(write_rules(d, f"join{rounds}", join_yaml(rounds)))
            empty = load_program(write_rules(d, "join0", join_yaml(0)))
            r = race(f"join {players}", {"engine": engine_runner(program, players),
                                         "naive": naive_runner(*join_naive(players, rounds)),
                                         "start": engine_runner(empty, players)}, repeat, same=("engine", "naive"))
            fe = r.outs["engine"]
            te, tn, ts = r.best("engine"), r.best("naive"), r.best("start")
            # the cost of a firing once the P*P activations are bound: start = the same game with 0 rounds
            fire_us = (te - ts) / (fe - 1) * 1e6
            naive_us = tn / fe * 1e6
            join[players] = (fire_us, naive_us)
            ratio = r.speedup("engine", "naive")
            rows.append([f"P={players}: {players * players:,} combinations", fe, rate(fe, te), rate(fe, tn), ratio,
                         ts * 1e3, fire_us, naive_us])
            summary[f"join{players}"] = {"firings": fe, "engine": rate(fe, te), "naive": rate(fe, tn), "ratio": ratio,
                                         "start_ms": ts * 1e3, "engine_us_per_firing": fire_us,
                                         "naive_us_per_firing": naive_us}
        table(["(b2) join", "firings", "engine/s", "naive/s", "engine/naive", "start ms", "engine us/fire",
               "naive us/fire"], rows,
              "(b2) for: [p in players, q in players], when: q.index == p.index + 1 and p.level > q.level\n"
              "     (P0 raises its level; each raise ripples down the seats, one matching pair per write)")
        print("   rates, start, us/fire: best of 15 / 9 / 5 rounds for P = 25 / 50 / 100; engine/naive: median of the "
              "paired rounds' ratios")
        (e25, n25), (e100, n100) = join[25], join[100]
        growth_e, growth_n = e100 / e25, n100 / n25
        collapse = growth_e >= 8
        print(f"   P 25 -> 100 (x4 players, x16 combinations): cost per firing x{growth_e:.1f} for the engine "
              f"(it binds only the P - 1 pairs that `q.index == p.index + 1` allows, found by lookup, and "
              f"re-evaluates those that read the written player), x{growth_n:.1f} for the naive loop (it scans "
              f"the P*P bindings)")
        print("   'start ms' = Game() + start() with 0 rounds: binding the pairs and evaluating them once")
        verdict = ("COLLAPSE: the per-firing cost grows faster than linearly in P" if collapse else
                   "no collapse on this join: the per-firing cost grows at most linearly in P, "
                   "the naive loop quadratically")
        print(f"   verdict: {verdict}")
        print()
        summary["join_growth"] = {"engine": growth_e, "naive": growth_n, "collapse": collapse}

        # ------------------------------- (b3) cross product vs hand-filtered domain
        rows = []
        for players, rounds, repeat in ((32, 8, 9), (100, 2, 9)):
            runners = {}
            for form, binding in (("cross", CROSS_PRODUCT), ("filtered", HAND_FILTERED)):
                for n in (rounds, 0):
                    program = load_program(write_rules(d, f"{form}{players}_{n}", join_yaml(n, binding)))
                    runners[form + ("" if n else " start")] = engine_runner(program, players)
            r = race(f"cross product {players}", runners, repeat, same=("cross", "filtered"))
            ratio, start_ratio = r.cost("cross", "filtered") + 1, r.cost("cross start", "filtered start") + 1
            rows.append([f"P={players}: {players * players:,} combinations", r.outs["cross"], r.best("cross") * 1e3,
                         r.best("filtered") * 1e3, ratio, r.best("cross start") * 1e3,
                         r.best("filtered start") * 1e3, start_ratio])
            summary[f"cross{players}"] = {"combinations": players * players, "cross_ms": r.best("cross") * 1e3,
                                          "filtered_ms": r.best("filtered") * 1e3, "ratio": ratio,
                                          "start_ratio": start_ratio}
        table(["(b3) join forms", "firings", "cross ms", "filtered ms", "cross/filtered", "cross start ms",
               "filtered start ms", "start cross/filtered"], rows,
              "(b3) the (b2) workload written as the plain cross product, for: [p in players, q in players] with\n"
              "     when: q.index == p.index + 1 and ..., against the hand-filtered domain "
              "q in players[p.index + 1:p.index + 2]")
        print("   ms: best of 9 rounds (whole game: Game() + start() to the end); ratios: median of the paired "
              "rounds;\n   'start': the same game with 0 rounds (binding the activations once). "
              "Issue 11: the cross product no longer ~75x slower\n")

        # ------------------------------------------------ (c) rules that never match
        # Short games, many paired rounds: on a shared machine the median of
        # per-round ratios is what stays put.  Each variant is also run as a
        # game that starts at the end of the chain (only `finish` fires), so
        # the per-firing cost can be told apart from the one-off start cost
        # (binding and evaluating every rule once).
        n, laps, rounds = 100, 20, 41
        variants = {
            "chain only (102 rules)": ("", []),
            "+100 reading an unwritten variable": (extra_yaml("unwritten", 100), ["unwritten"]),
            "+100 guarded by step == 1000+k": (extra_yaml("guarded", 100), ["guarded"]),
            "+200 (both kinds)": (extra_yaml("unwritten", 100) + extra_yaml("guarded", 100), ["unwritten", "guarded"]),
        }
        info = "+100 `step > 1000+k` (info: no guard)"
        engines, naives = {}, {}
        for i, (label, (extras, kinds)) in enumerate(variants.items()):
            engines[label] = engine_runner(load_program(write_rules(d, f"dead{i}", chain_yaml(n, laps, extras, True))))
            engines["start " + label] = engine_runner(load_program(write_rules(d, f"dead{i}s", chain_yaml(
                n, laps, extras, True, start=n))))
            naives[label] = naive_runner(*chain_naive(n, laps, kinds))
        base = next(iter(variants))
        eng = race("never-matching rules", engines, rounds)
        ri = race("unguarded rules", {base: engines[base], info: engine_runner(load_program(write_rules(
            d, "dead_info", chain_yaml(n, laps, extra_yaml("unindexed", 100), True))))}, 9)
        naives[info] = naive_runner(*chain_naive(n, laps, ["unindexed"]))
        rn = race("never-matching rules (naive)", naives, 3)
        firings = eng.outs[base]
        counts = {eng.outs[label] for label in variants} | {ri.outs[info]} | set(rn.outs.values())
        if counts != {firings} or {eng.outs["start " + label] for label in variants} != {1}:
            raise SystemExit(f"never-matching rules: firing counts differ: {eng.outs} {ri.outs} {rn.outs}")

        def steady(label: str) -> list[float]:
            return [full - start for full, start in zip(eng.times[label], eng.times["start " + label])]

        base_fire = steady(base)
        rows = []
        for i, label in enumerate(list(variants) + [info]):
            if label == info:
                e, game_cost, fire_cost, start_ms = rate(firings, ri.best(info)), ri.cost(info, base), None, None
            else:
                e = rate(firings, eng.best(label))
                game_cost = eng.cost(label, base)
                fire_cost = statistics.median(v / b for v, b in zip(steady(label), base_fire)) - 1
                start_ms = statistics.median(eng.times["start " + label]) * 1e3
            nv = rate(firings, rn.best(label))
            rows.append([label, e, f"{game_cost * 100:+.1f}%", "-" if fire_cost is None else f"{fire_cost * 100:+.1f}%",
                         "-" if start_ms is None else start_ms, nv, f"{rn.cost(label, base) * 100:+.1f}%"])
            summary[f"dead{i}"] = {"label": label, "engine": e, "engine_cost": game_cost, "firing_cost": fire_cost,
                                   "start_ms": start_ms, "naive": nv, "naive_cost": rn.cost(label, base)}
        table(["(c) 100-rule chain + ...", "engine/s", "game cost", "per-firing cost", "start ms", "naive/s",
               "naive cost"], rows,
              f"(c) {firings:,} firings per game; the extra rules come first in the file (the naive loop scans them "
              f"each cycle)")
        worst = max(summary[f"dead{i}"]["firing_cost"] for i in (1, 2, 3))
        worst_game = max(summary[f"dead{i}"]["engine_cost"] for i in (1, 2, 3))
        print(f"   rates: best of {rounds} (engine), 3 (naive); costs: median over the paired rounds of the time ratio "
              f"to 'chain only';\n   per-firing cost: (game - start) time ratio, "
              f"start = the same game begun at the end "
              f"of its last lap (Game() + start(), 1 firing; 'start ms' = its median)")
        print(f"   engine cost of never-matching rules per firing: worst {worst * 100:+.1f}% "
              f"({'within' if worst < 0.10 else 'OVER'} the 10% target); whole {firings:,}-firing game incl. start: "
              f"worst {worst_game * 100:+.1f}%; the 'info' row is outside the target")
        print()
        summary["dead_game_cost"] = worst_game
        summary["dead_worst_cost"] = worst
    return summary


if __name__ == "__main__":
    write_summary(sys.argv, main(sys.argv))
