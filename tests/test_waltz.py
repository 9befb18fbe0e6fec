"""Waltz line labelling (examples/waltz/): the rule file and the CLIPS version (waltz.clp, the rules of the CLIPS
6.4 distribution's examples/waltz) fire each rule as often, make the same junctions and label every edge alike
(issue 36). Needs clipspy (the `clips` extra); 12 regions, the benchmark's drawing
(benchmarks/bench_rule_engines.py), are in the slow run."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from test_manners import trace_router

from naipes.runtime.game import Game

from helpers import program

WALTZ = Path(__file__).resolve().parent.parent / "examples" / "waltz"


def lines(regions: int) -> list[tuple[int, int]]:
    """The rule file's drawing (its `lines`): CLIPS is given the same lines."""
    return list(Game(program(WALTZ / "waltz.yaml", (("regions", str(regions)),)), 0).memory.vars["lines"])


def run_naipes(regions: int) -> tuple[Counter, set, set]:
    game = Game(program(WALTZ / "waltz.yaml", (("regions", str(regions)),)), 0)
    counts: Counter = Counter()
    game.listeners.append(lambda r: counts.update([r["rule"]]) if r["type"] == "fire" else None)
    game.start()
    assert game.over
    V = game.memory.vars
    junctions = {(j.base_point, j.type, j.p1, j.p2, j.p3) for j in V["junction"]}
    return counts, junctions, {(e.p1, e.p2, e.label) for e in V["edge"]}


def run_clips(regions: int) -> tuple[Counter, set, set]:
    clips = pytest.importorskip("clips", reason="clipspy is not installed (pip install -e '.[clips]')")
    env = clips.Environment()
    trace = trace_router()
    env.add_router(trace)
    env.load(str(WALTZ / "waltz.clp"))
    for rule in env.rules():
        rule.watch_firings = True
    env.eval("(set-strategy depth)")
    env.reset()
    for p1, p2 in lines(regions):
        env.assert_string(f"(line (p1 {p1}) (p2 {p2}))")
    env.assert_string("(stage (value duplicate))")
    env.run()
    counts = Counter(name.replace("-", "_") for name in re.findall(r"FIRE\s+\d+\s+([\w-]+):", trace.text))
    value = {"nil": None, "L": "L", "tee": "tee", "fork": "fork", "arrow": "arrow", "+": "+", "-": "-", "B": "B"}
    junctions, edges = set(), set()
    for fact in env.facts():
        if fact.template.name == "junction":
            junctions.add((fact["base_point"], value[str(fact["type"])], fact["p1"], fact["p2"],
                           value.get(str(fact["p3"]), fact["p3"])))
        elif fact.template.name == "edge":
            edges.add((fact["p1"], fact["p2"], value[str(fact["label"])]))
    return counts, junctions, edges


@pytest.mark.slow
def test_the_drawing_is_the_benchmarks():
    # a region: four figures of 17 lines and the 4 lines joining them; each region after the first, 4 more to the
    # one before it (the benchmark's waltz12.fct has 12 regions, 908 lines)
    assert len(lines(1)) == 72 and len(lines(12)) == 72 * 12 + 4 * 11
    points = Counter(p for line in lines(3) for p in line)
    assert set(points.values()) == {2, 3}  # every point ends two lines (an L) or three (a tee, fork or arrow)


@pytest.mark.parametrize("regions", [1, 3, pytest.param(12, marks=pytest.mark.slow)])
def test_waltz_fires_as_often_as_in_clips_and_labels_the_same(regions):
    clips_counts, clips_junctions, clips_edges = run_clips(regions)
    naipes_counts, naipes_junctions, naipes_edges = run_naipes(regions)
    assert naipes_counts == clips_counts
    assert naipes_junctions == clips_junctions  # the junction geometry, in whole numbers, as CLIPS's in floats
    assert naipes_edges == clips_edges
    # not vacuous: many edges got a label (the others, which no labelling reached, are plotted as boundaries), both
    # ways of a labelled line alike
    labels = {(p1, p2): label for p1, p2, label in naipes_edges}
    assert sum(label is not None for label in labels.values()) > len(labels) / 3
    assert all(labels[p2, p1] == label for (p1, p2), label in labels.items() if label is not None)
