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

from .memory import ATOMS, REFRESH, PlayerBase, Zone

STRATEGIES = {
    "declaration": "rules earlier in the file first (CLIPS: none; the final tie-break of every strategy)",
    "specificity": "rules whose condition makes more tests first (CLIPS: complexity; OPS5/Drools: specificity)",
    "simplicity": "rules whose condition makes fewer tests first (CLIPS: simplicity)",
    "recency": "the activation whose data changed most recently first (CLIPS: depth; OPS5: recency)",
    "depth": "alias of recency (CLIPS's name)",
    "breadth": "the activation whose data changed least recently first (CLIPS: breadth)",
}
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


STATIC_STRATEGIES = {"declaration", "specificity", "simplicity"}


def sort_key(rule: Any, seq: int, position: int) -> tuple:
    """Where an activation of `rule` stands in the conflict set (smallest first)."""
    return (-rule.priority, strategy_term(rule.strategy, rule.tests, seq), rule.index, position)


class Activation:
    """A rule with one binding of its variables. Immutable; shared by clones."""

    __slots__ = ("rule", "binding", "position", "key", "order")

    def __init__(self, rule: Any, binding: tuple, position: int, bkey: tuple):
        self.rule, self.binding, self.position, self.key = rule, binding, position, (rule.index, bkey)
        # With a static strategy the sort key never changes: compute it once.
        self.order = sort_key(rule, 0, position) if rule.strategy in STATIC_STRATEGIES else None

    def __repr__(self) -> str:
        return f"<{self.rule.name} {self.binding}>"


class Agenda:
    """Activations of one game; cloned together with its memory."""

    __slots__ = ("program", "acts", "by_var", "live", "fired", "heap", "seq", "tick", "guard_seen")

    def __init__(self, program: Any):
        self.program = program
        self.acts: list[dict] = [{} for _ in program.rules]  # rule -> {binding key: Activation}
        self.by_var: list[list[dict]] = [[] for _ in program.rules]  # rule -> var -> owner -> [Activation]
        self.live: dict = {}  # activation key -> seq of its current heap entry
        self.fired: set = set()  # keys of refracted activations whose condition is still true
        self.heap: list = []  # (sort key, seq, Activation); entries whose seq is not live are stale
        self.seq = 0
        self.tick = 0  # counts updates: activations made by one write share a tick (recency)
        self.guard_seen: dict = {}

    def clone(self) -> Agenda:
        new = Agenda.__new__(Agenda)
        new.program = self.program
        new.acts, new.by_var = list(self.acts), list(self.by_var)  # inner dicts are replaced, never mutated
        new.live, new.fired, new.heap = self.live.copy(), self.fired.copy(), self.heap.copy()
        new.seq, new.tick, new.guard_seen = self.seq, self.tick, self.guard_seen.copy()
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

    def bind(self, rid: int, memory: Any) -> list[Activation]:
        """(Re)compute a rule's bindings; returns the activations that are new."""
        rule = self.program.rules[rid]
        old = self.acts[rid]
        acts: dict = {}
        fresh = []
        for position, binding in enumerate(rule.bindings(memory)):
            bkey = tuple(_identity(v) for v in binding)
            act = old.get(bkey)
            if act is None or act.position != position:
                act = Activation(rule, binding, position, bkey)
                fresh.append(act)
            acts[bkey] = act
        for bkey, act in old.items():
            if bkey not in acts:
                self.live.pop(act.key, None)
                self.fired.discard(act.key)
        self.acts[rid] = acts
        if rule.bound_reads:
            index: list[dict] = [{} for _ in rule.variables]
            for bkey, act in acts.items():
                for pos, ident in enumerate(bkey):
                    index[pos].setdefault(ident, []).append(act)
            self.by_var[rid] = index
        return fresh

    def evaluate_rule(self, rid: int, memory: Any) -> None:
        rule = self.program.rules[rid]
        if rule.guard is not None and memory.vars[rule.guard[0]] != rule.guard[1]:
            self.retract_rule(rid)
            return
        evaluate = self.evaluate
        for act in self.acts[rid].values():
            evaluate(act, memory)

    def retract_rule(self, rid: int) -> None:
        live, fired = self.live, self.fired
        for act in self.acts[rid].values():
            live.pop(act.key, None)
            fired.discard(act.key)

    def evaluate(self, act: Activation, memory: Any) -> None:
        key = act.key
        self.fired.discard(key)
        binding = act.binding
        rule = act.rule
        if rule.guard_only:  # the condition is `name == literal`, checked before we got here
            holds = True
        elif binding:
            holds = rule.condition(memory, memory.vars, *memory_local(memory, binding))
        else:
            holds = rule.condition(memory, memory.vars)
        live = self.live
        if holds:
            order = act.order
            if order is None:
                order = sort_key(rule, self.tick, act.position)
            elif key in live:
                return  # still pending, and its place in the order cannot have changed
            self.seq = seq = self.seq + 1
            live[key] = seq
            heappush(self.heap, (order, seq, act))
        elif key in live:
            del live[key]

    def update(self, memory: Any) -> None:
        """Re-evaluate what the memory's dirty keys may have changed."""
        dirty = memory.dirty
        if not dirty:
            return
        memory.dirty = set()
        self.tick += 1
        program = self.program
        rules: set = set()
        acts: list = []
        rebind = None
        for key in dirty:
            if key.__class__ is str:
                reaction = program.global_reactions.get(key)
                if reaction is None:
                    continue
                guards, readers, domain = reaction
                if key.startswith(REFRESH):  # CLIPS's refresh: the activations that fired come back, the pending
                    fired = self.fired      # ones keep their place (their recency)
                    acts.extend(act for rid in readers for act in self.acts[rid].values() if act.key in fired)
                    continue
                if guards is not None:
                    self._switch_guard(key, guards, memory.vars[key], rules)
            else:
                reaction = program.attr_reactions.get(key[0])
                if reaction is None:
                    continue
                readers, domain, bound, by_seat = reaction
                if by_seat:
                    rules.update(by_seat.get(key[1], ()))
                for rid, pos in bound:
                    index = self.by_var[rid]
                    if index:
                        acts.extend(index[pos].get(key[1], ()))
            if readers:
                rules.update(readers)
            if domain:
                rebind = (rebind or set()) | set(domain)
        if rebind:
            for rid in rebind:
                acts.extend(self.bind(rid, memory))
        if rules:
            V = memory.vars
            all_rules, all_acts, evaluate = program.rules, self.acts, self.evaluate
            for rid in rules:
                guard = all_rules[rid].guard
                if guard is not None and V[guard[0]] != guard[1]:
                    self.retract_rule(rid)
                    continue
                for act in all_acts[rid].values():
                    evaluate(act, memory)
        if acts:
            V = memory.vars
            for act in acts:
                rule = act.rule
                if rule.index not in rules and self.acts[rule.index].get(act.key[1]) is act and \
                        (rule.guard is None or V[rule.guard[0]] == rule.guard[1]):
                    self.evaluate(act, memory)

    def _switch_guard(self, name: str, by_value: dict, value: Any, rules: set) -> None:
        """`name` was written: retract the rules expecting its old value, wake those expecting the new."""
        seen = self.guard_seen
        old = seen.get(name)
        if old is not value and old != value:
            try:
                stale = by_value.get(old)
            except TypeError:  # an unhashable value is no rule's literal
                stale = None
            if stale:
                for rid in stale:
                    self.retract_rule(rid)
            seen[name] = value
        try:  # a write that sets the old value back wakes its rules too, as for any read
            woken = by_value.get(value)
        except TypeError:
            woken = None
        if woken:
            rules.update(woken)

    # -------------------------------------------------------------- resolving
    def next(self) -> Activation | None:
        """The winning activation, without removing it."""
        heap, live = self.heap, self.live
        while heap:
            _, seq, act = heap[0]
            if live.get(act.key) == seq:
                return act
            heappop(heap)
        return None

    def pop(self, memory: Any) -> tuple[Activation, tuple] | None:
        """Remove the winning activation and refract it: (activation, its binding in `memory`)."""
        heap, live = self.heap, self.live
        while heap:
            _, seq, act = heappop(heap)
            key = act.key
            if live.get(key) == seq:
                del live[key]
                self.fired.add(key)
                binding = act.binding
                return act, (memory_local(memory, binding) if binding else binding)
        return None

    def idle_reasons(self, memory: Any) -> list[tuple[Any, str]]:
        """Why each rule is not pending, for a game that is stuck: (rule, reason), the rules of the phase first."""
        V = memory.vars
        found = []
        for rule in self.program.rules:
            acts = self.acts[rule.index]
            if rule.guard is not None and V[rule.guard[0]] != rule.guard[1]:
                reason = f"waits for {rule.guard[0]} == {rule.guard[1]!r}"
            elif not acts:
                reason = "its 'for:' has nothing to go over"
            elif all(act.key in self.fired for act in acts.values()):
                reason = "fired already, and nothing its condition reads has changed since"
            else:
                reason = "its condition is false"
            found.append((rule.guard is None or V[rule.guard[0]] == rule.guard[1], rule, reason))
        found.sort(key=lambda entry: not entry[0])  # stable: declaration order within each group
        return [(rule, reason) for _, rule, reason in found]

    def pending(self) -> list[Activation]:
        """Every live activation in firing order (for tracing)."""
        entries = [e for e in self.heap if self.live.get(e[2].key) == e[1]]
        return [e[2] for e in sorted(entries, key=lambda e: (e[0], e[1]))]


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
