"""The agenda: which activations may fire, and which fires first.

An *activation* is a rule plus one binding of its ``for:`` variables.  The
agenda keeps every activation's last truth value and re-evaluates only those
whose inputs were written (the memory's dirty keys):

* a global name re-evaluates the rules that read it;
* ``(attr, player)`` re-evaluates rules that read ``attr`` of any object, and
  only the matching activations of rules that read it on a bound variable
  (``p.score`` with ``for: p in players``);
* a rule guarded by ``phase:`` (or by a leading ``name == literal`` test) is
  indexed by that value, so changing ``phase`` touches only the rules of the
  old and the new phase — the agenda groups of CLIPS and Drools.

Conflict resolution, as in CLIPS: higher ``priority`` (salience) first; then
the rule file's ``strategy``; then declaration order; then binding order.
Refraction: an activation that fired does not fire again until something it
read has changed.
"""
from __future__ import annotations

from heapq import heappop, heappush
from typing import Any

from .memory import ATOMS, PlayerBase, Zone

STRATEGIES = {
    "declaration": "rules earlier in the file first (CLIPS: none; the final tie-break of every strategy)",
    "specificity": "rules whose condition makes more tests first (CLIPS: complexity; OPS5/Drools: specificity)",
    "simplicity": "rules whose condition makes fewer tests first (CLIPS: simplicity)",
    "recency": "the activation whose data changed most recently first (CLIPS: depth; OPS5: recency)",
    "depth": "alias of recency (CLIPS's name)",
    "breadth": "the activation whose data changed least recently first (CLIPS: breadth)",
}
DEFAULT_STRATEGY = "declaration"


def strategy_term(strategy: str, tests: int, seq: int) -> int:
    """The part of the sort key a conflict-resolution strategy contributes."""
    if strategy == "specificity":
        return -tests
    if strategy == "simplicity":
        return tests
    if strategy in ("recency", "depth"):
        return -seq
    if strategy == "breadth":
        return seq
    return 0


class Agenda:
    """Activations of one game; cloned together with its memory."""

    __slots__ = ("program", "acts", "by_var", "live", "fired", "heap", "seq", "tick", "guard_seen")

    def __init__(self, program: Any):
        self.program = program
        self.acts: list[dict] = [{} for _ in program.rules]  # rule -> {binding key: (position, binding)}
        self.by_var: list[list[dict]] = [[] for _ in program.rules]  # rule -> var -> owner -> [bkey]
        self.live: dict = {}  # (rule, bkey) -> seq of its current heap entry
        self.fired: set = set()  # refracted activations whose condition is still true
        self.heap: list = []
        self.seq = 0  # stamps heap entries (a stale entry has an older stamp)
        self.tick = 0  # counts updates: activations made by one write share a tick (recency)
        self.guard_seen: dict = {}

    def clone(self) -> "Agenda":
        new = Agenda.__new__(Agenda)
        new.program = self.program
        new.acts, new.by_var = list(self.acts), list(self.by_var)  # inner dicts are replaced, never mutated
        new.live, new.fired, new.heap = dict(self.live), set(self.fired), list(self.heap)
        new.seq, new.tick, new.guard_seen = self.seq, self.tick, dict(self.guard_seen)
        return new

    # ---------------------------------------------------------------- matching
    def start(self, memory: Any) -> None:
        """Bind and evaluate every rule (at the start of a game)."""
        memory.dirty.clear()
        self.tick += 1
        V = memory.vars
        for name in self.program.guard_index:
            self.guard_seen[name] = V[name]
        for rule in self.program.rules:
            self.bind(rule.index, memory)
            self.evaluate_rule(rule.index, memory)

    def bind(self, rid: int, memory: Any) -> list[tuple]:
        """(Re)compute a rule's bindings; returns the keys of bindings that are new."""
        rule = self.program.rules[rid]
        acts: dict = {}
        for position, binding in enumerate(rule.bindings(memory)):
            acts[tuple(_identity(v) for v in binding)] = (position, binding)
        old = self.acts[rid]
        for bkey in old:
            if bkey not in acts:
                self.live.pop((rid, bkey), None)
                self.fired.discard((rid, bkey))
        self.acts[rid] = acts
        if rule.bound_reads:
            index: list[dict] = [{} for _ in rule.variables]
            for bkey in acts:
                for pos, ident in enumerate(bkey):
                    index[pos].setdefault(ident, []).append(bkey)
            self.by_var[rid] = index
        return [bkey for bkey in acts if bkey not in old]

    def evaluate_rule(self, rid: int, memory: Any) -> None:
        rule = self.program.rules[rid]
        if rule.guard is not None and memory.vars[rule.guard[0]] != rule.guard[1]:
            self.retract_rule(rid)
            return
        for bkey in self.acts[rid]:
            self.evaluate(rid, bkey, memory)

    def retract_rule(self, rid: int) -> None:
        live, fired = self.live, self.fired
        for bkey in self.acts[rid]:
            live.pop((rid, bkey), None)
            fired.discard((rid, bkey))

    def evaluate(self, rid: int, bkey: tuple, memory: Any) -> None:
        rule = self.program.rules[rid]
        key = (rid, bkey)
        self.fired.discard(key)
        position, binding = self.acts[rid][bkey]
        if binding:
            binding = memory_local(memory, binding)
        if rule.condition(memory, memory.vars, *binding):
            self.seq += 1
            seq = self.seq
            self.live[key] = seq
            heappush(self.heap, (rule.sort_key(self.tick, position), seq, key))
        else:
            self.live.pop(key, None)

    def update(self, memory: Any) -> None:
        """Re-evaluate what the memory's dirty keys may have changed."""
        dirty = memory.dirty
        if not dirty:
            return
        memory.dirty = set()
        program = self.program
        V = memory.vars
        rebind: set = set()
        rules: set = set()
        acts: set = set()
        for key in dirty:
            if key.__class__ is str:
                if key in program.guard_index:
                    self._switch_guard(key, V[key], rules)
                rules.update(program.global_readers.get(key, ()))
                rebind.update(program.domain_readers.get(key, ()))
            else:
                attr, owner = key
                rules.update(program.attr_readers.get(attr, ()))
                rebind.update(program.domain_readers.get(attr, ()))
                for rid, pos in program.bound_readers.get(attr, ()):
                    index = self.by_var[rid]
                    if index:
                        for bkey in index[pos].get(owner, ()):
                            acts.add((rid, bkey))
        self.tick += 1
        for rid in rebind:
            for bkey in self.bind(rid, memory):
                acts.add((rid, bkey))
        for rid in rules:
            self.evaluate_rule(rid, memory)
        for rid, bkey in acts:
            if rid not in rules and bkey in self.acts[rid]:
                rule = program.rules[rid]
                if rule.guard is None or V[rule.guard[0]] == rule.guard[1]:
                    self.evaluate(rid, bkey, memory)

    def _switch_guard(self, name: str, value: Any, rules: set) -> None:
        old = self.guard_seen.get(name)
        by_value = self.program.guard_index[name]
        if old == value:  # written, then set back: a change all the same, as for any read
            rules.update(by_value.get(_hashable(value), ()))
            return
        for rid in by_value.get(_hashable(old), ()):
            self.retract_rule(rid)
        rules.update(by_value.get(_hashable(value), ()))
        self.guard_seen[name] = value

    # -------------------------------------------------------------- resolving
    def next(self) -> tuple | None:
        """The winning activation (rule index, binding key), without removing it."""
        heap, live = self.heap, self.live
        while heap:
            _, seq, key = heap[0]
            if live.get(key) == seq:
                return key
            heappop(heap)
        return None

    def take(self, key: tuple, memory: Any) -> tuple:
        """Remove the winner from the agenda, refract it; returns its binding."""
        heappop(self.heap)
        del self.live[key]
        self.fired.add(key)
        binding = self.acts[key[0]][key[1]][1]
        return memory_local(memory, binding) if binding else binding

    def pending(self) -> list[tuple]:
        """Every live activation in firing order (for tracing)."""
        entries = [e for e in self.heap if self.live.get(e[2]) == e[1]]
        return [e[2] for e in sorted(entries)]


def _identity(value: Any) -> Any:
    """How an activation's binding is keyed: players by seat, zones by slot."""
    if isinstance(value, PlayerBase):
        return value.index
    if isinstance(value, Zone):
        return ("zone", value.slot)
    return _hashable(value)


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def memory_local(memory: Any, binding: tuple) -> tuple:
    """A binding's values as objects of `memory` (players and zones belong to one memory)."""
    return tuple(v if v.__class__ in ATOMS else memory.localize(v) for v in binding)
