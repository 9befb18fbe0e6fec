"""Call graphs: which function a rule file's function calls, as a map of each name to the names it calls.

What the compiler asks of one: which functions can call themselves (they are neither inlined nor compiled to
C, whose calls would spend the C stack unchecked), an order that puts each function after those it calls (for
folding, and for what each function reads through its calls), and the groups of functions that call each other.
Each answer takes time linear in the graph: a shared file may hold thousands of functions.
"""
from __future__ import annotations


def recursive(graph: dict[str, set[str]]) -> set[str]:
    """The functions of a call graph that can call themselves, directly or not."""
    return {name for component in components(graph) for name in component
            if len(component) > 1 or name in graph.get(name, ())}


def components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of a call graph (the functions of one call each other, directly or
    not), each after every component it calls: Tarjan's algorithm, in time linear in the graph, with a stack of
    its own (a chain of thousands of functions is as deep)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        path = [(root, iter(graph[root]))]
        while path:
            name, callees = path[-1]
            for callee in callees:
                if callee not in index:
                    index[callee] = low[callee] = len(index)
                    stack.append(callee)
                    on_stack.add(callee)
                    path.append((callee, iter(graph.get(callee, ()))))
                    break
                if callee in on_stack:
                    low[name] = min(low[name], index[callee])
            else:  # every callee of `name` is done
                path.pop()
                if path:
                    caller = path[-1][0]
                    low[caller] = min(low[caller], low[name])
                if low[name] == index[name]:
                    component = [stack.pop()]
                    while component[-1] != name:
                        component.append(stack.pop())
                    on_stack.difference_update(component)
                    found.append(component)
    return found


def callees_first(graph: dict[str, set[str]]) -> list[str]:
    """The functions of a call graph, each after those it calls (cycles broken anywhere): a depth-first walk in
    the order of their names, so that the order is the same in every process."""
    order: list[str] = []
    done: set[str] = set()
    for root in sorted(graph):
        if root in done:
            continue
        done.add(root)
        path = [(root, iter(sorted(graph[root])))]
        while path:
            name, callees = path[-1]
            for callee in callees:
                if callee not in done:
                    done.add(callee)
                    path.append((callee, iter(sorted(graph.get(callee, ())))))
                    break
            else:  # every callee of `name` is in the order
                path.pop()
                order.append(name)
    return order
