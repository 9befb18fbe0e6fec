"""The agenda: which activations may fire, and which fires first.

An *activation* is a rule plus one binding of its ``for:`` variables.  The
agenda keeps every activation's last truth value and re-evaluates only those
whose inputs were written (the memory's dirty keys):

* a global name re-evaluates the rules that read it;
* ``(attr, player)`` re-evaluates rules that read ``attr`` of any object, and
  only the matching activations of rules that read it on a bound variable
  (``p.score`` with ``for: p in players``) or of one seat (``players[0].s``);
* a rule guarded by ``phase:`` (or by a leading ``name == literal`` test) is
  indexed by that value, so changing ``phase`` touches only the rules of the
  old and the new phase — the agenda groups of CLIPS and Drools.

The linker fixes at compile time what each written key touches, as bit masks
over the rules (:class:`~naipes.program.Matching`): a rule's bit is its place
in the static conflict order, so the conflict set is one integer whose lowest
bit is the next rule to fire.  A rule with ``for:`` variables has, besides its
bit, an integer over its bindings' positions.  The order is cut into words of
WORD rules, so that a mask is a machine integer: a program with more rules has
an agenda per word (:class:`Agendas`).

Conflict resolution, as in CLIPS: higher ``priority`` (salience) first; then
the rule file's ``strategy``; then declaration order; then binding order.
Refraction: an activation that fired does not fire again until something it
read has changed.
"""
from __future__ import annotations

from collections.abc import Callable
from heapq import heappop, heappush
from typing import Any, Final

from ..program import Matching
from .memory import PLAYER_CLASS, SHARED, ZONE_CLASS, Memory

STRATEGIES = {
    "declaration": "rules earlier in the file first (CLIPS: none; the final tie-break of every strategy)",
    "specificity": "rules whose condition makes more tests first (CLIPS: complexity; OPS5/Drools: specificity)",
    "simplicity": "rules whose condition makes fewer tests first (CLIPS: simplicity)",
    "recency": "the activation whose data changed most recently first (CLIPS: depth; OPS5: recency)",
    "depth": "alias of recency (CLIPS's name)",
    "breadth": "the activation whose data changed least recently first (CLIPS: breadth)",
}
DYNAMIC_STRATEGIES = {"recency", "depth", "breadth"}  # the order depends on when activations were made


def static_term(strategy: str, tests: int) -> int:
    """The part of a rule's fixed place in the conflict order that a strategy contributes."""
    if strategy == "specificity":
        return -tests
    if strategy == "simplicity":
        return tests
    return 0


def sort_key(rule: Any, stamp: int, position: tuple) -> tuple:
    """Where an activation of `rule` made at update `stamp` stands in the conflict set (smallest first)."""
    strategy = rule.strategy
    term = -stamp if strategy in ("recency", "depth") else stamp if strategy == "breadth" else \
        static_term(strategy, rule.tests)
    return (-rule.priority, term, rule.index, position)


class Activation:
    """A rule with one binding of its variables. Immutable; shared by clones.

    Its position is where each value stands in its `for:` collection (so that
    bindings fire in the order the collections give them); a rule without
    variables has one activation, at position ().
    """

    __slots__ = ("rule", "binding", "position", "key", "action")

    def __init__(self, rule: Any, binding: tuple, position: tuple, bkey: tuple, action: Any):
        self.rule, self.binding, self.position, self.key = rule, binding, position, bkey
        self.action = action  # the rule's (a field of its own, which compiled code reads directly)

    def __repr__(self) -> str:
        return f"<{self.rule.name} {self.binding}>"


class Bindings:
    """The activations of a rule with variables, by position (made by a rebinding; never changed after)."""

    __slots__ = ("acts", "index", "facts")

    def __init__(self, acts: dict[tuple, Activation], index: list[dict] | None, facts: dict[str, tuple]):
        self.acts = acts
        self.index = index  # per variable: identity -> the positions bound to it (for bound reads)
        self.facts = facts  # kind of fact -> the facts of that kind when these were bound (see Agenda.extend)


class Matches:
    """The state of a rule with variables in one agenda: per binding position, pending and refracted flags,
    and a heap of positions holding every pending one (the smallest pending position fires first)."""

    __slots__ = ("flags", "heap")

    def __init__(self, flags: dict[tuple, int], heap: list[tuple]):
        self.flags, self.heap = flags, heap

    def copy(self) -> Matches:
        return Matches(self.flags.copy(), self.heap[:])

    def first(self) -> tuple | None:
        """The smallest pending position (None: none), after dropping the positions no longer pending."""
        heap, flags = self.heap, self.flags
        while heap:
            if flags[heap[0]] & LIVE:
                return heap[0]
            heappop(heap)
        return None

    def pending(self) -> list[tuple]:
        return sorted(position for position, flag in self.flags.items() if flag & LIVE)


LIVE: Final = 1
FIRED: Final = 2
NO_BINDINGS = Bindings({}, None, {})
NO_MATCHES = Matches({}, [])


class Agenda:
    """Activations of one game; cloned together with its memory.

    ``live`` has the bit of every rule with a pending activation, ``fired``
    that of every rule without variables that fired and whose condition was not
    re-evaluated since (refraction); a rule with variables keeps both per
    binding in its :class:`Matches`.  ``closed`` has the bits of the guarded
    rules whose guard does not hold.
    """

    __slots__ = ("program", "plan", "live", "fired", "closed", "bindings", "matches", "tick", "stamps",
                 "guard_seen", "unbound", "ungrown", "unevaluated", "readers_of", "evaluator", "variable_rules",
                 "slots", "fixed", "spare")

    def __init__(self, program: Any = None, plan: Matching | None = None):
        """The agenda of `plan`, one word of `program`'s rules (see `new_agenda`). `program` None: a blank agenda,
        which `clone` fills in (a compiled class makes its objects through `__init__`)."""
        if program is None or plan is None:
            return
        self.program = program
        self.plan: Matching = plan
        # what every update reads of the plan, as fields of its own (compiled, the agenda reads its fields
        # directly and the plan's through attribute lookups)
        self.readers_of: dict[Any, int] = self.plan.readers
        self.evaluator: Callable | None = self.plan.evaluate
        self.variable_rules: int = self.plan.bound
        self.slots: list[Any] = list(plan.slots)
        # slot -> the one activation of a rule without variables (None: the rule has variables)
        self.fixed: list[Activation | None] = [rule.activation for rule in plan.slots]
        self.spare: set = set()  # the memory's next set of dirty keys (see update)
        self.live = self.fired = self.closed = 0
        self.bindings: list[Bindings] = [NO_BINDINGS] * len(program.rules)  # by rule index
        self.matches: list[Matches] = [NO_MATCHES] * len(program.rules)
        self.tick = 0  # counts updates: activations made by one write share a tick (recency)
        self.stamps: dict | None = {} if self.plan.dynamic else None  # (rule, position) -> tick it became live
        self.guard_seen: dict = {}
        # rules with variables whose `for:` changed while their guard did not hold, bound again when it holds:
        # whole, or (only facts came and went) re-matched for those facts
        self.unbound = self.ungrown = 0
        self.unevaluated = 0  # after a lazy start: the rules not evaluated yet (see start)

    def clone(self) -> Agenda:
        new = Agenda()
        new.program, new.plan = self.program, self.plan
        new.readers_of, new.evaluator, new.variable_rules = self.readers_of, self.evaluator, self.variable_rules
        new.slots, new.fixed, new.spare = self.slots, self.fixed, set()
        new.live, new.fired, new.closed = self.live, self.fired, self.closed
        new.bindings = self.bindings.copy()
        new.matches = [m.copy() if m.flags else m for m in self.matches] if self.variable_rules else self.matches
        new.tick, new.guard_seen = self.tick, self.guard_seen.copy()
        new.stamps = self.stamps.copy() if self.stamps is not None else None
        new.unbound, new.ungrown, new.unevaluated = self.unbound, self.ungrown, self.unevaluated
        return new

    def save_point(self) -> tuple:
        """What to come back to after trying a move (the memory records its own writes)."""
        bound = self.variable_rules
        return (self.live, self.fired, self.closed, self.tick, self.guard_seen.copy(),
                None if self.stamps is None else self.stamps.copy(),
                self.bindings.copy() if bound else None, [m.copy() for m in self.matches] if bound else None,
                self.unbound, self.ungrown, self.unevaluated)

    def restore(self, point: tuple) -> None:
        self.live, self.fired, self.closed, self.tick, self.guard_seen, self.stamps, bindings, matches, \
            self.unbound, self.ungrown, self.unevaluated = point
        if bindings is not None:
            self.bindings, self.matches = bindings, matches

    def refracted(self) -> tuple:
        """The refracted activations, hashable (part of a game's memo key)."""
        return self.fired, tuple(frozenset(m.flags.items()) for m in self.matches if m.flags)

    # ---------------------------------------------------------------- matching
    def start(self, memory: Memory, lazy: bool = False) -> None:
        """Bind and evaluate every rule (at the start of a game).

        `lazy`, under a static conflict order: a rule is bound and evaluated only when every rule before it
        is idle (`pop_from` does it), for an agenda that fires a rule or two and is dropped, as a strategy's
        decision; what it fires is the same."""
        memory.dirty.clear()
        self.tick += 1
        V = memory.vars
        plan = self.plan
        closed = 0
        for name, by_value in plan.guards.items():
            value = self.guard_seen[name] = V[name]
            closed |= plan.guarded[name] & ~_get(by_value, value)
        self.closed = closed
        if lazy and self.stamps is None:
            self.unevaluated = (1 << len(plan.slots)) - 1
            return
        for rule in plan.rules:
            if rule.variables:
                self.bind(rule, memory)
            self.evaluate_rules(rule.bit, memory)

    def bind(self, rule: Any, memory: Memory) -> list[tuple]:
        """(Re)compute a rule's bindings; returns the positions whose activations are new.

        An activation is its rule and the values it binds: while they are all still bound it keeps its
        state (pending, refracted), wherever they now stand in their collections (which orders it)."""
        rid = rule.index
        old, old_flags = self.bindings[rid], self.matches[rid].flags
        old_acts = old.acts
        before: dict[tuple, list[tuple]] = {}  # the values bound -> their old positions (a value may be twice)
        for position, act in old_acts.items():
            before.setdefault(act.key, []).append(position)
        acts: dict[tuple, Activation] = {}
        fresh: list[tuple] = []
        flags: dict[tuple, int] = {}
        action = rule.action
        for position, binding in rule.bindings(memory):
            bkey = tuple([_identity(v) for v in binding])
            places = before.get(bkey)
            if places:
                was = places.pop(0)
                act = old_acts[was]
                acts[position] = act if was == position else Activation(rule, binding, position, bkey, action)
                flags[position] = old_flags[was]
            else:  # a new binding: a new activation
                acts[position] = Activation(rule, binding, position, bkey, action)
                flags[position] = 0
                fresh.append(position)
        self.bindings[rid] = Bindings(acts, _bound_read_index(rule, acts.values()),
                                      {kind: memory.vars[kind] for kind in rule.fact_levels if kind})
        matches = self.matches[rid] = Matches(flags, sorted(p for p, flag in flags.items() if flag & LIVE))
        if matches.heap:  # (a kept activation keeps its place, so its stamp under recency stays right)
            self.live |= rule.bit
        else:
            self.live &= ~rule.bit
        return fresh

    def extend(self, rule: Any, memory: Memory) -> list[tuple] | None:
        """Re-match only what the facts asserted and retracted since the rule was bound change: the activations
        of the facts gone go, the others move to their facts' new places (keeping their state), and only the
        combinations with a new fact are bound (semi-naive: for each variable over a kind of fact, the new
        facts there, the old ones at the variables over that kind before it). Returns the positions of the
        new activations; None when a collection was reordered (bind the rule again, whole)."""
        rid = rule.index
        old = self.bindings[rid]
        V = memory.vars
        levels = rule.fact_levels
        changed: dict[str, tuple[tuple, tuple]] = {}  # kind -> (the old facts still there, the new ones)
        places: dict[str, dict[int, int]] = {}  # kind with facts gone -> id of a fact -> its new place
        for kind, before in old.facts.items():
            now = V[kind]
            if now is before:
                continue
            present = {id(f): i for i, f in enumerate(now)}
            kept = tuple(f for f in before if id(f) in present)
            if now[:len(kept)] != kept:
                return None
            changed[kind] = (kept, now[len(kept):])
            if len(kept) < len(before):
                places[kind] = present
        matches = self.matches[rid]
        acts = dict(old.acts)
        if places:  # facts went: their activations go, the others move to their facts' new places
            acts, flags = {}, {}
            for position, act in old.acts.items():
                moved = list(position)
                for level, kind in enumerate(levels):
                    if kind in places:
                        moved[level] = places[kind].get(id(act.binding[level]), -1)
                if -1 in moved:
                    continue
                at = tuple(moved)
                acts[at] = act if at == position else Activation(rule, act.binding, at, act.key, act.action)
                flags[at] = matches.flags[position]
            matches = self.matches[rid] = Matches(flags, sorted(p for p, flag in flags.items() if flag & LIVE))
        found: list[tuple[tuple, tuple]] = []
        kinds = sorted(k for k in changed if changed[k][1])
        for done, kind in enumerate(kinds):
            kept, added = changed[kind]
            later = {k: list(enumerate(changed[k][0])) for k in kinds[done + 1:]}  # (their new facts: later)
            for level, of in enumerate(levels):
                if of != kind:
                    continue
                given: dict[int, Any] = {i: later[k] for i, k in enumerate(levels) if k in later}
                given.update({i: list(enumerate(kept)) for i in range(level) if levels[i] == kind})
                given[level] = [(len(kept) + i, fact) for i, fact in enumerate(added)]
                found += rule.bindings(memory, given)
        fresh, action = [], rule.action
        for position, binding in found:
            acts[position] = Activation(rule, binding, position, tuple([_identity(v) for v in binding]), action)
            matches.flags[position] = 0
            fresh.append(position)
        self.bindings[rid] = Bindings(acts, _bound_read_index(rule, acts.values()),
                                      {kind: V[kind] for kind in old.facts})
        if matches.first() is not None:
            self.live |= rule.bit
        else:
            self.live &= ~rule.bit
        return fresh

    def evaluate_rules(self, mask: int, memory: Memory) -> None:
        """Re-evaluate every activation of the rules in `mask` (retracting those whose guard does not hold)."""
        closed = mask & self.closed
        if closed:
            mask ^= closed
            if closed & (self.live | self.fired | self.variable_rules):
                self.retract(closed)
        if mask & (self.unbound | self.ungrown):  # `for:` changed while their guard did not hold: bound now
            for rule in self._rules_of(mask & self.unbound):
                self.bind(rule, memory)
            for rule in self._rules_of(mask & self.ungrown & ~self.unbound):
                if self.extend(rule, memory) is None:  # (only facts came and went: re-matched for them)
                    self.bind(rule, memory)
            self.unbound &= ~mask
            self.ungrown &= ~mask
        evaluator = self.evaluator
        if evaluator is not None:  # the program's own evaluation of its rules without variables
            bound = mask & self.variable_rules
            unbound = mask ^ bound
            if unbound & (unbound - 1):
                self.live = evaluator(memory, memory.vars, unbound, self.live)
                self.fired &= ~unbound
            elif unbound:  # one rule: its condition, without going down the evaluation's tests
                rule = self.slots[unbound.bit_length() - 1]
                self.fired &= ~unbound
                if rule.guard_only or rule.condition(memory, memory.vars):
                    self.live |= unbound
                else:
                    self.live &= ~unbound
            if bound:
                for rule in self._rules_of(bound):
                    self.evaluate_bound(rule, None, memory)
            return
        V = memory.vars
        slots = self.slots
        live, fired = self.live, self.fired
        stamps, tick = self.stamps, self.tick
        while mask:
            bit = mask & -mask
            mask ^= bit
            rule = slots[bit.bit_length() - 1]
            if rule.variables:
                self.live = live
                self.evaluate_bound(rule, None, memory)
                live = self.live
                continue
            fired &= ~bit
            if rule.guard_only or rule.condition(memory, V):
                live |= bit
                if stamps is not None:
                    stamps[rule.index, ()] = tick
            else:
                live &= ~bit
        self.live, self.fired = live, fired

    def _rules_of(self, mask: int) -> list[Any]:
        """The rules whose bits are in `mask`, in slot order."""
        slots, found = self.slots, []
        while mask:
            bit = mask & -mask
            mask ^= bit
            found.append(slots[bit.bit_length() - 1])
        return found

    def evaluate_bound(self, rule: Any, positions: list[tuple] | None, memory: Memory) -> None:
        """Re-evaluate the activations of a rule with variables at `positions` (None: all of them)."""
        rid = rule.index
        acts = self.bindings[rid].acts
        matches = self.matches[rid]
        flags, heap = matches.flags, matches.heap
        V, condition, stamps, tick = memory.vars, rule.condition, self.stamps, self.tick
        for position in (acts if positions is None else positions):
            was = flags[position]
            if condition(memory, V, *memory_local(memory, acts[position].binding)):
                flags[position] = LIVE
                if not was & LIVE:
                    heappush(heap, position)
                if stamps is not None:
                    stamps[rid, position] = tick
            else:
                flags[position] = 0
        if matches.first() is not None:
            self.live |= rule.bit
        else:
            self.live &= ~rule.bit

    def retract(self, mask: int) -> None:
        """The rules in `mask` have nothing pending and nothing refracted (their guard does not hold)."""
        self.live &= ~mask
        self.fired &= ~mask
        for rule in self._rules_of(mask & self.variable_rules):
            matches = self.matches[rule.index]
            if matches.flags:
                self.matches[rule.index] = Matches(dict.fromkeys(matches.flags, 0), [])

    def update(self, memory: Memory) -> None:
        """Re-evaluate what the memory's dirty keys may have changed: most keys only make their readers stale
        (one lookup in `plan.readers`, which remembers such keys as they are met); the others switch guards,
        rebind, refresh, or re-evaluate the activations bound to what was written."""
        dirty = memory.dirty
        if dirty:
            memory.dirty = self.spare
            self.tick += 1
            self.react(dirty, memory)
            dirty.clear()  # (the keys were read: the set is the next one, rather than a new set at each update)
            self.spare = dirty

    def react(self, dirty: set, memory: Memory) -> None:
        """`update`, for the keys written `dirty` (the caller counted the update in `tick`)."""
        readers_of, stale = self.readers_of, 0
        for key in dirty:  # the common case first: every key only makes its readers stale
            readers = readers_of.get(key)
            if readers is None:
                break
            stale |= readers
        else:
            if self.unevaluated:
                stale &= ~self.unevaluated
            if stale:
                self.evaluate_rules(stale, memory)
            return
        plan = self.plan
        globals_, attrs = plan.globals, plan.attrs
        stale = rebind = refresh = factual = whole = 0
        touched: list | None = None  # (rule, variable position, identity): activations bound to what was written
        for key in dirty:
            readers = readers_of.get(key)
            if readers is not None:
                stale |= readers
                continue
            if type(key) is str:
                reaction = globals_.get(key)
                if reaction is None:
                    readers_of[key] = 0  # no rule reads it (the keys are the program's names)
                    continue
                guards, readers, domain, refreshed = reaction
                if guards is not None:
                    stale |= self._switch_guard(key, guards, memory.vars[key])
                stale |= readers
                if domain:  # rules over kinds of fact alone re-match only the facts that came and went (extend)
                    rebind |= domain
                    incremental = plan.incremental.get(key, 0)
                    factual |= domain & incremental
                    whole |= domain & ~incremental
                refresh |= refreshed
            else:
                of_attr = attrs.get(key[0])
                if of_attr is None:
                    readers_of[key] = 0
                    continue
                readers, domain, bound, by_seat = of_attr
                readers |= by_seat.get(key[1], 0)
                stale |= readers
                if not (domain or bound):
                    readers_of[key] = readers  # (the keys are the program's names and seats)
                    continue
                rebind |= domain
                if bound:
                    if touched is None:
                        touched = []
                    touched += [(rule, pos, key[1]) for rule, pos in bound]
        if self.unevaluated:  # (a lazy start: evaluated when reached)
            stale &= ~self.unevaluated
            rebind &= ~self.unevaluated
            refresh &= ~self.unevaluated
        if rebind:
            self._rebind(rebind, stale, memory, factual & ~whole)
        if refresh:
            self._refresh(refresh & ~stale & ~self.closed, memory)
        if stale:
            self.evaluate_rules(stale, memory)
        if touched:  # looked up after any rebinding, in the bindings as they are now
            closed = self.closed
            for rule, pos, ident in touched:
                index = self.bindings[rule.index].index
                positions = index[pos].get(ident) if index else None
                if positions and not rule.bit & (stale | closed | self.unevaluated):
                    self.evaluate_bound(rule, positions, memory)

    def _rebind(self, rebind: int, stale: int, memory: Memory, factual: int = 0) -> None:
        """Rebind the rules in `rebind` (what their `for:` reads was written) and evaluate their new activations;
        a rule whose guard does not hold is bound again only when it does (its activations wait retracted)."""
        closed = rebind & self.closed
        if closed:
            self.unbound |= closed & ~factual
            self.ungrown |= closed & factual
            rebind ^= closed
        for rule in self._rules_of(rebind):
            bit = rule.bit
            fresh = self.extend(rule, memory) if bit & factual else None
            if fresh is None:
                fresh = self.bind(rule, memory)
            if fresh and not bit & (stale | self.closed):
                self.evaluate_bound(rule, fresh, memory)

    def _refresh(self, mask: int, memory: Memory) -> None:
        """CLIPS's refresh: the activations that fired come back; the pending ones keep their place (recency)."""
        for rule in self._rules_of(mask):
            if rule.variables:
                refracted = sorted(p for p, flag in self.matches[rule.index].flags.items() if flag & FIRED)
                if refracted:
                    self.evaluate_bound(rule, refracted, memory)
            elif self.fired & rule.bit:
                self.evaluate_rules(rule.bit, memory)

    def _switch_guard(self, name: str, by_value: dict, value: Any) -> int:
        """`name` was written: retract the rules expecting its old value; returns those expecting the new one."""
        old = self.guard_seen.get(name)
        woken = _get(by_value, value)
        if old is not value and old != value:
            stale = _get(by_value, old)
            if stale:
                if stale & (self.live | self.fired | self.variable_rules):
                    self.retract(stale)
                self.closed |= stale  # (every other rule guarded by `name` expected another value: closed)
            if woken:
                self.closed &= ~woken
            self.guard_seen[name] = value
        return woken  # a write that sets the old value back wakes its rules too, as for any read

    # -------------------------------------------------------------- resolving
    def _winner(self) -> tuple[Any, tuple] | None:
        """The rule whose activation fires next, and its binding position (() for a rule without variables)."""
        live = self.live
        if not live:
            return None
        if self.stamps is not None:
            return self._winner_by_stamp()
        bit = live & -live
        rule = self.slots[bit.bit_length() - 1]
        if rule.variables:
            position = self.matches[rule.index].first()
            assert position is not None  # the bit of a rule with variables is live when one of them is
            return rule, position
        return rule, ()

    def _winner_by_stamp(self) -> tuple[Any, tuple]:
        """Recency or breadth: among the pending activations of the highest priority, the newest (or oldest)."""
        best, best_key = None, None
        for rule, position in self._pending_pairs(self.plan.band(self.live)):
            key = sort_key(rule, self.stamps[rule.index, position], position)  # type: ignore[index]  # (stamps set)
            if best_key is None or key < best_key:
                best, best_key = (rule, position), key
        assert best is not None  # the band of a live rule has a pending activation
        return best

    def _pending_pairs(self, mask: int) -> list[tuple[Any, tuple]]:
        """(rule, position) of every pending activation of the rules in `mask`, in slot then binding order."""
        found: list[tuple[Any, tuple]] = []
        for rule in self._rules_of(mask):
            if rule.variables:
                found += [(rule, position) for position in self.matches[rule.index].pending()]
            else:
                found.append((rule, ()))
        return found

    def _activation(self, rule: Any, position: tuple) -> Activation:
        if rule.variables:
            return self.bindings[rule.index].acts[position]
        return rule.activation

    def next(self) -> Activation | None:
        """The winning activation, without removing it."""
        winner = self._winner()
        return None if winner is None else self._activation(*winner)

    def pop_from(self, memory: Memory) -> Activation | None:
        """`pop`, after a lazy start: the rules before the first pending one are evaluated first."""
        slots = self.slots
        while self.unevaluated:
            pending = self.live | self.unevaluated
            bit = pending & -pending
            if not bit & self.unevaluated:
                break
            self.unevaluated ^= bit
            rule = slots[bit.bit_length() - 1]
            if rule.variables:
                self.bind(rule, memory)
            self.evaluate_rules(bit, memory)
        return self.pop()

    def pop(self) -> Activation | None:
        """Remove the winning activation and refract it (its binding's players and zones are of the memory
        it was bound in: see `memory_local`)."""
        live = self.live
        if not live:
            return None
        if self.stamps is None:
            bit = live & -live
            slot = bit.bit_length() - 1
            fixed = self.fixed[slot]
            if fixed is not None:  # (a rule without variables: the common case)
                self.live = live ^ bit
                self.fired |= bit
                return fixed
            rule, position = self.slots[slot], None
        else:
            rule, position = self._winner_by_stamp()
            bit = rule.bit
        if not rule.variables:
            self.live = live ^ bit
            self.fired |= bit
            return rule.activation
        matches = self.matches[rule.index]
        if position is None:
            position = matches.first()
            assert position is not None  # (the rule is live)
        matches.flags[position] = FIRED
        if matches.first() is None:
            self.live ^= bit
        return self.bindings[rule.index].acts[position]

    def idle_reasons(self, memory: Memory) -> list[tuple[Any, str]]:
        """Why each rule is not pending, for a game that is stuck: (rule, reason), the rules of the phase first."""
        found = self.idle_entries(memory)
        found.sort(key=lambda entry: (not entry[0], entry[1].index))  # declaration order within each group
        return [(rule, reason) for _, rule, reason in found]

    def idle_entries(self, memory: Memory) -> list[tuple[bool, Any, str]]:
        """(whether its guard holds, rule, why it is not pending) for each rule."""
        V = memory.vars
        found = []
        for rule in self.plan.rules:
            guard = rule.guard
            if guard is not None and V[guard[0]] != guard[1]:
                found.append((False, rule, f"waits for {guard[0]} == {guard[1]!r}"))
                continue
            if rule.variables and not self.bindings[rule.index].acts:
                reason = "its 'for:' has nothing to go over"
            elif (all(flag & FIRED for flag in self.matches[rule.index].flags.values()) if rule.variables
                  else self.fired & rule.bit):
                reason = "fired already, and nothing its condition reads has changed since"
            else:
                reason = "its condition is false"
            found.append((True, rule, reason))
        return found

    def conflict_set(self) -> list[tuple[tuple, Activation]]:
        """Every pending activation with its place in the conflict order (smallest first), in firing order."""
        stamps = self.stamps
        entries = [(sort_key(rule, stamps[rule.index, position] if stamps is not None else 0, position),
                    self._activation(rule, position)) for rule, position in self._pending_pairs(self.live)]
        entries.sort(key=lambda entry: entry[0])
        return entries

    def pending(self) -> list[Activation]:
        """Every live activation in firing order (for tracing)."""
        return [act for _, act in self.conflict_set()]


class Agendas(Agenda):
    """The agenda of a program with more than WORD rules: one agenda per word of its conflict order, so that each
    word's masks stay machine integers. A word's pending activation fires before any of the words after it
    (under recency and breadth: the best of every word's). `live` has the bit of every word with a pending
    activation (bit w: word w).

    A written key wakes only the words that react to it: those whose rules read it, and for a guard's name
    those with rules guarded by its old or its new value (a word that sleeps through a guard's changes has
    all its rules of that guard closed, and its last value seen is one it has no rule for)."""

    __slots__ = ("parts", "routes")

    def __init__(self, program: Any = None, parts: list[Agenda] | None = None):
        if program is None:
            return
        self.program = program
        self.parts: list[Agenda] = parts if parts is not None else [Agenda(program, plan)
                                                                    for plan in program.matchings]
        self.routes: tuple[dict, dict, dict] = _word_routes(program)
        self.variable_rules = 1 if any(part.variable_rules for part in self.parts) else 0
        self.tick = 0
        self.guard_seen = {}
        self.spare = set()
        self._sync()

    def _sync(self) -> None:
        live = 0
        for word, part in enumerate(self.parts):
            if part.live:
                live |= 1 << word
        self.live = live

    def clone(self) -> Agenda:
        new = Agendas(self.program, [part.clone() for part in self.parts])
        new.tick, new.guard_seen = self.tick, self.guard_seen.copy()
        return new

    def save_point(self) -> tuple:
        return tuple([part.save_point() for part in self.parts]), self.tick, self.guard_seen.copy()

    def restore(self, point: tuple) -> None:
        points, self.tick, self.guard_seen = point
        for part, part_point in zip(self.parts, points):
            part.restore(part_point)
        self._sync()

    def refracted(self) -> tuple:
        return tuple([part.refracted() for part in self.parts])

    def start(self, memory: Memory, lazy: bool = False) -> None:
        for part in self.parts:
            part.start(memory, lazy)
        self.tick = self.parts[0].tick
        V = memory.vars
        self.guard_seen = {name: V[name] for name in self.routes[2]}
        self._sync()

    def update(self, memory: Memory) -> None:
        dirty = memory.dirty
        if not dirty:
            return
        memory.dirty = self.spare
        self.tick += 1
        names, attrs, guards = self.routes
        V, seen = memory.vars, self.guard_seen
        words = 0
        for key in dirty:
            if type(key) is str:
                words |= names.get(key, 0)
                by_value = guards.get(key)
                if by_value is not None:
                    value = V[key]
                    words |= _get(by_value, value) | _get(by_value, seen.get(key))
                    seen[key] = value
            else:
                words |= attrs.get(key[0], 0)
        tick, parts, live = self.tick, self.parts, self.live
        while words:
            bit = words & -words
            words ^= bit
            part = parts[bit.bit_length() - 1]
            part.tick = tick  # (one clock for every word: recency and breadth compare their stamps)
            part.react(dirty, memory)
            live = live | bit if part.live else live & ~bit
        self.live = live
        dirty.clear()
        self.spare = dirty

    def _word_to_fire(self) -> int:
        """The bit of the word whose winning activation fires next (0: nothing is pending)."""
        live = self.live
        if not live or self.parts[0].stamps is None:
            return live & -live
        best, best_key = 0, None
        while live:
            bit = live & -live
            live ^= bit
            part = self.parts[bit.bit_length() - 1]
            stamps = part.stamps
            assert stamps is not None  # (every word has stamps under recency and breadth)
            rule, position = part._winner_by_stamp()
            key = sort_key(rule, stamps[rule.index, position], position)
            if best_key is None or key < best_key:
                best, best_key = bit, key
        return best

    def next(self) -> Activation | None:
        bit = self._word_to_fire()
        return self.parts[bit.bit_length() - 1].next() if bit else None

    def pop(self) -> Activation | None:
        bit = self._word_to_fire()
        if not bit:
            return None
        part = self.parts[bit.bit_length() - 1]
        act = part.pop()
        if not part.live:
            self.live ^= bit
        return act

    def pop_from(self, memory: Memory) -> Activation | None:
        """After a lazy start (a static order only), a word's rules are evaluated once every word before it is
        idle."""
        if self.parts[0].stamps is not None:
            return self.pop()
        for part in self.parts:
            act = part.pop_from(memory)
            if act is not None:
                self._sync()
                return act
        self._sync()
        return None

    def idle_entries(self, memory: Memory) -> list[tuple[bool, Any, str]]:
        return [entry for part in self.parts for entry in part.idle_entries(memory)]

    def conflict_set(self) -> list[tuple[tuple, Activation]]:
        entries = [entry for part in self.parts for entry in part.conflict_set()]
        entries.sort(key=lambda entry: entry[0])
        return entries


def _word_routes(program: Any) -> tuple[dict, dict, dict]:
    """Which words react to a written key, as masks of words (bit w: word w), once per program: name -> the words
    reading it; attribute -> the words reading it of some object; guard's name -> value -> the words with rules
    guarded by that value."""
    routes = program.caches.get("word routes")
    if routes is None:
        names: dict[str, int] = {}
        attrs: dict[str, int] = {}
        guards: dict[str, dict[Any, int]] = {}
        for word, plan in enumerate(program.matchings):
            bit = 1 << word
            for name, (by_value, readers, domain, refreshed) in plan.globals.items():
                if readers or domain or refreshed:
                    names[name] = names.get(name, 0) | bit
                for value in by_value or ():
                    of_name = guards.setdefault(name, {})
                    of_name[value] = of_name.get(value, 0) | bit
            for attr in plan.attrs:
                attrs[attr] = attrs.get(attr, 0) | bit
        routes = program.caches["word routes"] = (names, attrs, guards)
    return routes


def new_agenda(program: Any) -> Agenda:
    """The agenda of a program: one word of rules, or an agenda per word (see Matching)."""
    plans = program.matchings
    return Agenda(program, plans[0]) if len(plans) == 1 else Agendas(program)


def _bound_read_index(rule: Any, acts: Any) -> list[dict] | None:
    """Per variable of a rule that reads something of a bound variable: identity -> the positions bound to it."""
    if not rule.bound_reads:
        return None
    index: list[dict] = [{} for _ in rule.variables]
    for act in acts:
        for pos, ident in enumerate(act.key):
            index[pos].setdefault(ident, []).append(act.position)
    return index


def _get(by_value: dict, value: Any) -> int:
    try:
        return by_value.get(value, 0)
    except TypeError:  # an unhashable value is no rule's literal
        return 0


def _identity(value: Any) -> Any:
    """How an activation's binding is keyed: players by seat, zones by slot."""
    if isinstance(value, PLAYER_CLASS):
        return value.index
    if isinstance(value, ZONE_CLASS):
        return ("zone", value.slot)
    kind = type(value)
    if kind is list or kind is tuple:  # (a strategy's rules bind the options offered: a list of cards, say)
        for item in value:
            if type(item) not in SHARED:
                return kind.__name__, *map(_identity, value)
        return kind.__name__, *value
    return _hashable(value)


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def memory_local(memory: Memory, binding: tuple) -> tuple:
    """A binding's values as objects of `memory` (players and zones belong to one memory)."""
    return tuple([v if type(v) in SHARED else memory.localize(v) for v in binding])
