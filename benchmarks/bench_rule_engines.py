"""Naipes beside CLIPS (clipspy), durable-rules and the naive loop, on the same workloads (issue 14).

    .venv/bin/pip install -e '.[compare]' && .venv/bin/python benchmarks/bench_rule_engines.py

(a) the chain of bench_engine.py: N rules `step == i -> step = i + 1`, looped L laps, then the end;
(b) its join: for: [p in players, q in players] with `q.index == p.index + 1 and p.level > q.level`;
(c) Miss Manners, examples/manners/ (the rule file and the CLIPS original), 16, 32, 64 and 128 guests;
(d) Waltz, examples/waltz/ (the rule file and the CLIPS 6.4 distribution's rules), 3 and 12 regions (224 lines,
    and the benchmark's waltz12: 908 lines), Naipes and CLIPS.
Contenders run in turns (Race of common.py), timed in CPU time (time.process_time: the machine's other work
does not lengthen it); ratios are medians of the paired rounds' ratios, and every contender must fire as many
rules as Naipes, or the benchmark stops (durable-rules' versions are in durable_programs.py). Without
durable-rules or clipspy the benchmark says so and runs the others; the naive loop has no Manners.

For the compiled runtime, as CI and the wheel have it: `bash .ci/native && PYTHONPATH=build/native-lib
.venv/bin/python benchmarks/bench_rule_engines.py`.
"""
from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_engine import chain_naive, chain_yaml, engine_runner, join_naive, join_yaml, naive_runner, write_rules
from common import ROOT, Race, header, rate, table, write_summary

from naipes import load_program
from naipes.runtime.game import Game

MANNERS = ROOT / "examples" / "manners"
WALTZ = ROOT / "examples" / "waltz"


def missing(engine: str, module: str) -> str | None:
    """Why `engine` cannot run here (its module does not import), or None."""
    try:
        __import__(module)
    except ImportError as error:
        return f"{engine} cannot run: {error} (pip install -e '.[compare]')"
    return None


# ---------------------------------------------------------------- CLIPS
def clips_env(constructs: str) -> Any:
    import clips
    env = clips.Environment()
    for construct in constructs.strip().split("\n\n"):
        env.build(construct)
    return env


def clips_chain(n: int, laps: int) -> Callable[[], int]:
    rules = [f"(defrule r{i} ?f <- (st (step {i})) => (modify ?f (step {i + 1})))" for i in range(n)]
    env = clips_env("\n\n".join(["(deftemplate st (slot step) (slot lap))", *rules,
                                 f"(defrule next_lap ?f <- (st (step {n}) (lap ?l&:(< ?l {laps}))) => "
                                 f"(modify ?f (step 0) (lap (+ ?l 1))))",
                                 f"(defrule finish (st (step {n}) (lap {laps})) =>)"]))

    def run() -> int:
        env.reset()
        env.assert_string("(st (step 0) (lap 0))")
        return env.run()
    return run


def clips_join(players: int, rounds: int) -> Callable[[], int]:
    env = clips_env(f"""(deftemplate player (slot index) (slot level))

(defrule propagate (declare (salience 1)) (player (index ?i) (level ?lp))
  ?q <- (player (index ?j&:(= ?j (+ ?i 1))) (level ?lq&:(> ?lp ?lq))) => (modify ?q (level ?lp)))

(defrule bump ?p <- (player (index 0) (level ?l&:(< ?l {rounds}))) => (modify ?p (level (+ ?l 1))))

(defrule finish (declare (salience -1)) =>)""")

    def run() -> int:
        env.reset()
        for i in range(players):
            env.assert_string(f"(player (index {i}) (level 0))")
        return env.run()
    return run


def clips_manners(guests: list[tuple[int, str, tuple[int, ...]]]) -> Callable[[], int]:
    import clips
    env = clips.Environment()
    env.define_function(lambda name, seat: None, "printed")
    env.load(str(MANNERS / "manners.clp"))
    facts = [f"(guest (name {name}) (sex {sex}) (hobby {hobby}))" for name, sex, hobbies in guests
             for hobby in hobbies]
    facts += [f"(last_seat (seat {len(guests)}))", "(count (c 1))", "(context (state start_up))"]
    return clips_run(env, facts)


def clips_waltz(lines: list[tuple[int, int]]) -> Callable[[], int]:
    import clips
    env = clips.Environment()
    env.load(str(WALTZ / "waltz.clp"))
    env.eval("(set-strategy depth)")
    facts = [f"(line (p1 {p1}) (p2 {p2}))" for p1, p2 in lines] + ["(stage (value duplicate))"]
    return clips_run(env, facts)


def clips_run(env: Any, facts: list[str]) -> Callable[[], int]:
    """A run of CLIPS's loaded rules from `facts` (asserted in order after a reset): its firings."""
    def run() -> int:
        env.reset()
        for fact in facts:
            env.assert_string(fact)
        return env.run()
    return run


# ---------------------------------------------------------------- Naipes Manners and Waltz
def naipes_manners(guests: int) -> tuple[Callable[[], int], list]:
    """The runner and the guest list (the rule file's `guest_list`, which the other engines are given)."""
    program = load_program(MANNERS / "manners.yaml", {"guests": str(guests)})
    return engine_runner(program), list(Game(program, 0).memory.vars["guest_list"])


def naipes_waltz(regions: int) -> tuple[Callable[[], int], list]:
    """The runner and the drawing (the rule file's `lines`, which CLIPS is given)."""
    program = load_program(WALTZ / "waltz.yaml", {"regions": str(regions)})
    return engine_runner(program), list(Game(program, 0).memory.vars["lines"])


def main(argv: list[str]) -> dict:
    header("bench_rule_engines", "Naipes beside CLIPS, durable-rules and a naive loop")
    import naipes.runtime.agenda as agenda
    print(f"   the runtime: {'compiled (mypyc)' if agenda.__file__.endswith('.so') else 'interpreted'}; CPU time")
    absent = {name: missing(name, module) for name, module in (("CLIPS", "clips"), ("durable-rules", "durable.lang"))}
    for why in filter(None, absent.values()):
        print(f"   skipped: {why}")
    summary: dict[str, Any] = {}
    rows = []
    with tempfile.TemporaryDirectory(prefix="naipes-bench-") as tmp:
        d = Path(tmp)
        durable = None if absent["durable-rules"] else __import__("durable_programs")
        workloads: list[tuple[str, dict[str, Callable[[], int]], int]] = []
        n, laps, repeat = 10, 300, 7
        chain = {"Naipes": engine_runner(load_program(write_rules(d, "chain", chain_yaml(n, laps)))),
                 "naive": naive_runner(*chain_naive(n, laps, []))}
        if not absent["CLIPS"]:
            chain["CLIPS"] = clips_chain(n, laps)
        if durable:
            chain["durable-rules"] = durable.chain(n, laps, repeat)
        workloads.append((f"(a) chain, {n} rules x {laps} laps", chain, repeat))
        players, rounds = 25, 8
        join = {"Naipes": engine_runner(load_program(write_rules(d, "join", join_yaml(rounds))), players),
                "naive": naive_runner(*join_naive(players, rounds))}
        if not absent["CLIPS"]:
            join["CLIPS"] = clips_join(players, rounds)
        if durable:
            join["durable-rules"] = durable.join(players, rounds, repeat)
        workloads.append((f"(b) join, {players} players x {rounds} rounds", join, repeat))
        for guests, repeat in ((16, 5), (32, 3), (64, 3), (128, 1)):
            runner, guest_list = naipes_manners(guests)
            manners = {"Naipes": runner}
            if not absent["CLIPS"]:
                manners["CLIPS"] = clips_manners(guest_list)
            if durable:
                manners["durable-rules"] = durable.manners(guest_list, repeat)
            workloads.append((f"(c) Miss Manners, {guests} guests", manners, repeat))
        for regions, repeat in ((3, 3), (12, 1)):
            runner, lines = naipes_waltz(regions)
            waltz = {"Naipes": runner}
            if not absent["CLIPS"]:
                waltz["CLIPS"] = clips_waltz(lines)
            workloads.append((f"(d) Waltz, {regions} regions", waltz, repeat))
        for label, fns, repeat in workloads:
            race = Race(fns, repeat, clock=time.process_time)
            counts = {name: race.outs[name] for name in fns}
            expected = {name: counts["Naipes"] - (name == "durable-rules" and label.startswith("(b)")) for name in fns}
            if counts != expected:
                raise SystemExit(f"{label}: the engines fired different numbers of rules: {counts}")
            for name in fns:
                speed = race.speedup(name, "Naipes")
                rows.append([label, name, counts[name], rate(counts[name], race.best(name)), speed])
                summary[f"{label} {name}"] = {"firings": counts[name], "per_s": rate(counts[name], race.best(name)),
                                              "times_naipes": speed}
            ratios = ", ".join(f"{name} x{race.speedup(name, 'Naipes'):.2f}" for name in fns)
            print(f"   {label}: {ratios}", flush=True)  # (as it goes: a long run shows where it is)
    table(["workload", "engine", "firings", "firings/s", "x Naipes's speed"], rows,
          "firings/s: best of the rounds; x Naipes's speed: median over the paired rounds of Naipes's time / its")
    print("   durable-rules: in (a) a lap is a new event (events are consumed): its `step == N` rule ends every lap, "
          "where the others fire a lap rule and, once, the finish;\n   in (b) it has no finish (no rule fires when "
          "nothing else is left), one firing fewer")
    return summary


if __name__ == "__main__":
    write_summary(sys.argv, main(sys.argv))
