"""The compiler's call graphs (engine/language/callgraph.py), and what a function reads through its calls,
checked against plain reachability.

Each answer is worked out independently here by the definition (a function is recursive when it reaches itself;
two functions share a component when each reaches the other), on random graphs and on the shapes a shared rule
file may take: a chain of thousands of functions (as deep as it is long), one cycle through all of them, a star.
"""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from naipes.language.callgraph import callees_first, components, recursive
from naipes.language.compiler import ANY
from naipes.language.sections import FUNCTION, Definition, function_reads


def reach(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every name `start` calls, directly or not (not itself, unless a cycle leads back)."""
    found, todo = set(), list(graph.get(start, ()))
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo.extend(graph.get(name, ()))
    return found


def random_graph(rng: random.Random, size: int, edges: int) -> dict[str, set[str]]:
    names = [f"f{i}" for i in range(size)]
    graph: dict[str, set[str]] = {name: set() for name in names}
    for _ in range(edges):
        graph[rng.choice(names)].add(rng.choice(names + ["builtin"]))  # a name outside the graph too
    return graph


def shapes() -> list[dict[str, set[str]]]:
    rng = random.Random(7)
    chain = {f"f{i}": {f"f{i + 1}"} for i in range(5000)}
    ring = {f"f{i}": {f"f{(i + 1) % 5000}"} for i in range(5000)}
    star = {"hub": {f"f{i}" for i in range(2000)}, **{f"f{i}": {"hub"} if i % 2 else set() for i in range(2000)}}
    return [random_graph(rng, size, edges) for size, edges in [(1, 1), (5, 4), (12, 20), (40, 40), (60, 150)]
            for _ in range(8)] + [{}, {"a": {"a"}}, chain, ring, star]


@pytest.mark.parametrize("graph", shapes(), ids=lambda graph: f"{len(graph)}-functions")
def test_call_graph_answers_agree_with_reachability(graph):
    reached = {name: reach(graph, name) for name in graph} if len(graph) < 100 else None
    if reached is not None:
        assert recursive(graph) == {name for name in graph if name in reached[name]}
    found = components(graph)
    assert sorted(name for component in found for name in component) == sorted(set(graph).union(*graph.values()))
    where = {name: k for k, component in enumerate(found) for name in component}
    for name, callees in graph.items():
        for callee in callees:
            assert where[callee] <= where[name]  # each component after every one it calls
            if reached is not None and callee in graph:
                assert (where[callee] == where[name]) == (name in reached[callee])  # together: they reach each other
    order = callees_first(graph)
    assert sorted(order) == sorted(where)  # every name, once
    place = {name: k for k, name in enumerate(order)}
    for name, callees in graph.items():
        for callee in callees:
            assert place[callee] < place[name] or where[callee] == where[name]  # callees first, but in a cycle


def test_the_shapes_of_many_functions_are_answered_whole():
    *_, chain, ring, star = shapes()
    assert recursive(chain) == set() and len(components(chain)) == 5001  # and f5000, which it calls
    assert callees_first(chain)[:2] == ["f5000", "f4999"] and callees_first(chain)[-1] == "f0"
    assert recursive(ring) == set(ring) and len(components(ring)) == 1
    assert recursive(star) == {"hub"} | {f"f{i}" for i in range(1, 2000, 2)}


def test_the_order_of_callees_first_is_the_same_in_every_process():
    graph = {"b": {"c", "a"}, "a": {"d"}, "c": {"d", "b"}, "d": set()}
    assert callees_first(graph) == ["d", "a", "c", "b"]  # names in order, each after what it calls (c, b: a cycle)


@pytest.mark.parametrize("seed", range(6))
def test_what_each_function_reads_is_what_every_function_it_reaches_reads(seed):
    rng = random.Random(seed)
    graph = random_graph(rng, 30, 45)
    own = {name: {rng.choice(["a", "b", ("c", 0), ("c", "p"), "d"]) for _ in range(rng.randrange(3))} for name in graph}
    known = {"builtin": {"k", ("c", ANY)}}
    defs = [Definition(f"F_{name}", (), SimpleNamespace(reads=own[name], calls=graph[name]), False, "", FUNCTION)
            for name in graph]
    found = function_reads(defs, known)
    for name in graph:
        expected = set(own[name]).union(*(own.get(other, known.get(other, set())) for other in reach(graph, name)))
        assert found[name] == {(r[0], ANY) if isinstance(r, tuple) else r for r in expected}
