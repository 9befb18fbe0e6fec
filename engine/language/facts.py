"""What a rule file's generated functions do that the engine asks about, learnt from the compiler's tree.

The runtime and the bridges need a few facts of the code a rule file compiles to: whether its deck's functions
draw at random (else the deck is made once per program: naipes.runtime.memory.build_deck), and whether anything
shuffles (else nothing in its games is left to chance: naipes.bridges.openspiel). They are found here, once, from
the optimised definitions the module is written from, rather than from the bytecode of its functions, so that
they hold however the module runs (a function compiled to native code has no bytecode to read).
"""
from __future__ import annotations

from dataclasses import dataclass

from . import nodes as n
from .codegen import draws_at_random


@dataclass(frozen=True)
class Facts:
    """The facts of one module's generated functions, each function by its name."""

    draws: frozenset[str] = frozenset()  # the functions that draw at random, themselves or through what they call
    shuffles: bool = False  # whether any function shuffles a zone


def module_facts(definitions: list[n.Definition]) -> Facts:
    """The facts of a module written from `definitions` (after the optimiser)."""
    calls = {definition.name: {node.definition if isinstance(node, n.Call) else node.name
                               for node in definition.find_all(n.Expr)
                               if isinstance(node, n.Generated) or
                               isinstance(node, n.Call) and node.target == n.CALL_FUNCTION}
             for definition in definitions}
    drawing = {definition.name for definition in definitions if draws_at_random(definition)}
    return Facts(draws=frozenset(name for name in calls if _reaches(name, calls, drawing)),
                 shuffles=any(next(d.find_all(n.Shuffle), None) is not None for d in definitions))


def _reaches(start: str, calls: dict[str, set[str]], targets: set[str]) -> bool:
    """Whether `start`, or a function it calls (directly or not), is among `targets`."""
    seen, stack = set(), [start]
    while stack:
        name = stack.pop()
        if name in targets:
            return True
        if name not in seen:
            seen.add(name)
            stack.extend(calls.get(name, ()))
    return False
