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
the rule file's ``strategy``, as CLIPS 6.4 defines each (see STRATEGIES and
docs/engine.md); then the order CLIPS leaves to its implementation, which
Naipes fixes: the newest facts first under depth (the oldest otherwise), then
declaration order, then binding order. Refraction: an activation that fired
does not fire again until something it read has changed.

**Time.** Every strategy but ``declaration`` orders activations by when they
were made, CLIPS's way: each fact has the time tag of its assertion (the
memory's clock, which each assertion and retraction moves on), each update one
more tick after the facts its firing asserted. An activation is as old as the
newest fact it binds when that fact made it (it was asserted in the update that
bound it), and as the update that made it otherwise (what its condition reads
changed). A change to facts that its condition reads without binding them
(``exists``, CLIPS's ``not`` and ``exists`` CEs) leaves it the same activation
while its condition stays true. Its stamp (its time, and under ``random`` its
draw) is kept with its pending and refracted flags, and a heap orders the
pending ones (``queue``).
"""
from __future__ import annotations

import sys
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable
from heapq import heapify, heappop, heappush
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final

from ..errors import GameError
from ..library.limits import COPY_CHUNK, MAX_ALIKE, hashes_at_will
from ..program import Matching
from .memory import ENTERED, FACT_CLASS, PLAYER_CLASS, SHARED, ZONE_CLASS, Memory

if TYPE_CHECKING:
    from ..program import Join, Program, RuleSpec

STRATEGIES = {
    "declaration": "rules earlier in the file first (CLIPS: none; the last tie-break of every strategy)",
    "depth": "the newest activation first (CLIPS's default; OPS5: recency)",
    "recency": "alias of depth",
    "breadth": "the oldest activation first",
    "simplicity": "rules whose condition makes fewer tests first; then the older activation",
    "complexity": "rules whose condition makes more tests first; then the older activation",
    "specificity": "alias of complexity",
    "lex": "OPS5's LEX: the activation whose data is newest (the time tags of what it matched, newest first) first; "
           "then more tests, then the older",
    "mea": "OPS5's MEA: the activation whose phase was entered last first (rules without a phase after); then LEX",
    "random": "a random order, drawn once for each activation from the game's generator; then the older",
}
DYNAMIC_STRATEGIES = set(STRATEGIES) - {"declaration"}  # the order depends on when activations were made

# How a strategy orders (Agenda.code)
DECLARATION: Final = 0
DEPTH: Final = 1
BREADTH: Final = 2
SIMPLICITY: Final = 3
COMPLEXITY: Final = 4
LEX: Final = 5
MEA: Final = 6
RANDOM: Final = 7
CODES: Final = {"declaration": DECLARATION, "depth": DEPTH, "recency": DEPTH, "breadth": BREADTH,
                "simplicity": SIMPLICITY, "complexity": COMPLEXITY, "specificity": COMPLEXITY, "lex": LEX, "mea": MEA,
                "random": RANDOM}

# How an activation's state is (re)computed (Agenda.evaluate_bound)
AGAIN: Final = 0  # something its condition reads changed: a new activation if it holds (made at the update's tick)
FRESH: Final = 1  # a new binding: made when the newest fact it binds was asserted, if it was in this update
KEPT: Final = 2  # only facts its condition looks up changed: the same activation while it holds
MOMENT: Final = (1 << 40) - 1  # the part of a stamp that is its time (above it: the random strategy's draw)
QUEUE_ROOM: Final = 256
BATCH: Final = 16  # an evaluation of a rule's activations that makes more of them pending queues them as a batch
START: Final = 1  # the clock at the start of a game: what was there before any fact counts as made then


class Activation:
    """A rule with one binding of its variables. Immutable; shared by clones.

    Its position is where each value stands in its `for:` collection (so that
    bindings fire in the order the collections give them); a rule without
    variables has one activation, at position ().
    """

    __slots__ = ("rule", "binding", "position", "key", "action", "tags", "order")

    def __init__(self, rule: RuleSpec, binding: tuple[Any, ...], position: tuple[Any, ...], bkey: tuple[Any, ...],
                 action: Any):
        self.rule, self.binding, self.position, self.key = rule, binding, position, bkey
        self.action = action  # the rule's (a field of its own, which compiled code reads directly)
        self.tags: tuple[Any, ...] | None = None  # the time tags of the facts it binds, in its order (see time_tags)
        # where it stands among activations equal for the strategy (Agenda.key)
        self.order: tuple[Any, ...] | None = None

    def time_tags(self) -> tuple[Any, ...]:
        """The time tags of the facts it binds, in binding order (kept: facts do not change)."""
        tags = self.tags
        if tags is None:
            tags = self.tags = tuple([value.time_tag for value in self.binding if isinstance(value, FACT_CLASS)])
        return tags

    def __repr__(self) -> str:
        return f"<{self.rule.name} {self.binding}>"


class Bindings:
    """The activations of a rule with variables, by position (made by a rebinding; never changed after)."""

    __slots__ = ("acts", "index", "facts", "places")

    def __init__(self, acts: dict[tuple[Any, ...], Activation], index: list[dict[Any, Any]] | None,
                 facts: dict[str, tuple[Any, ...]]):
        self.acts = acts
        self.index = index  # per variable: identity -> the positions bound to it (for bound reads)
        self.facts = facts  # kind of fact -> the facts of that kind when these were bound (see Agenda.extend)
        # the values bound -> their position (see place)
        self.places: dict[tuple[Any, ...], tuple[Any, ...]] | None = None

    def place(self, bkey: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """The position of the activation that binds the values `bkey` (None: none does)."""
        places = self.places
        if places is None:
            places = self.places = {act.key: position for position, act in self.acts.items()}
        return places.get(bkey)


class Lookups:
    """What the activations of a rule whose condition looks facts up (RuleSpec.probed) looked up when last
    evaluated: a change of facts can change only the activations that looked up the values it changed (the
    negated and existential joins of a Rete network, kept as an index of the lookups)."""

    __slots__ = ("of", "by", "fields")

    def __init__(self) -> None:
        # the values an activation binds -> its lookups: (kind, fields, values)
        self.of: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self.by: dict[tuple[Any, ...], set[Any]] = {}  # a lookup -> the activations (their values bound) that made it
        self.fields: dict[str, set[Any]] = {}  # kind -> the fields its facts were looked up by

    def copy(self) -> Lookups:
        new = Lookups()
        new.of = self.of.copy()
        new.by = {key: bkeys.copy() for key, bkeys in self.by.items()}
        new.fields = {kind: fields.copy() for kind, fields in self.fields.items()}
        return new

    def note(self, bkey: tuple[Any, ...], probes: list[Any]) -> None:
        """The activation binding `bkey` made the lookups `probes` (memory.probes) when evaluated."""
        self.forget(bkey)
        keys = tuple([probe[:3] for probe in probes])
        self.of[bkey] = keys
        for key in keys:
            found = self.by.get(key)
            if found is None:
                found = self.by[key] = set()
                of_kind = self.fields.get(key[0])
                if of_kind is None:
                    of_kind = self.fields[key[0]] = set()
                of_kind.add(key[1])
            found.add(bkey)

    def forget(self, bkey: tuple[Any, ...]) -> None:
        for key in self.of.pop(bkey, ()):
            found = self.by.get(key)
            if found is not None:
                found.discard(bkey)

    def touched(self, kind: str, facts: list[Any]) -> set[Any]:
        """The activations (their values bound) whose lookups the coming or going of `facts` may answer otherwise."""
        found: set[Any] = set()
        for fields in self.fields.get(kind, ()):
            for fact in facts:
                bkeys = self.by.get((kind, fields, tuple([getattr(fact, name) for name in fields])))
                if bkeys:
                    found |= bkeys
        return found


class Matches:
    """The state of a rule with variables in one agenda: per binding position, pending and refracted flags,
    and a heap of positions holding every pending one (the smallest pending position fires first). While the
    rule's guard does not hold, its flags may stay as they were, `asleep` saying so (see Agenda.retract)."""

    __slots__ = ("flags", "heap", "asleep", "count")

    def __init__(self, flags: dict[tuple[Any, ...], int], heap: list[tuple[Any, ...]],
                 asleep: tuple[dict[Any, Any], set[Any]] | None = None,
                 count: int = 0):
        self.flags, self.heap = flags, heap
        # asleep: (the activations when the rule's guard stopped holding, the values bound of those whose lookups
        # may answer otherwise since): their flags tell whether their conditions held
        self.asleep = asleep
        self.count = count  # under a dynamic order (which keeps no heap here): how many are pending

    def copy(self) -> Matches:
        asleep = self.asleep
        return Matches(self.flags.copy(), self.heap[:], None if asleep is None else (asleep[0], asleep[1].copy()),
                       self.count)

    def pending_any(self, dynamic: bool) -> bool:
        return self.count > 0 if dynamic else self.first() is not None

    def first(self) -> tuple[Any, ...] | None:
        """The smallest pending position (None: none), after dropping the positions no longer pending."""
        heap, flags = self.heap, self.flags
        while heap:
            if flags[heap[0]] & LIVE:
                return heap[0]
            heappop(heap)
        return None

    def pending(self) -> list[tuple[Any, ...]]:
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
    rules whose guard does not hold.  Under every strategy but declaration, a
    flag holds its activation's stamp too (``stamp << 2 | flags``), and so does
    ``times`` for a rule without variables; ``queue`` is a heap of the pending
    activations in firing order (an entry no longer pending is dropped when met).
    """

    __slots__ = ("program", "plan", "live", "fired", "closed", "bindings", "matches", "tick", "before", "times",
                 "queue", "serial", "room", "batches", "join_indexes", "diffs", "code", "written", "lookups", "seen",
                 "probed_kinds", "guard_seen", "unbound", "ungrown", "unevaluated", "readers_of", "evaluator",
                 "variable_rules", "slots", "fixed", "spare", "holding", "wakes")

    def __init__(self, program: Program | None = None, plan: Matching | None = None):
        """The agenda of `plan`, one word of `program`'s rules (see `new_agenda`). `program` None: a blank agenda,
        which `clone` fills in (a compiled class makes its objects through `__init__`)."""
        if program is None or plan is None:
            return
        self.program = program
        self.plan: Matching = plan
        # what every update reads of the plan, as fields of its own (compiled, the agenda reads its fields
        # directly and the plan's through attribute lookups)
        self.readers_of: dict[Any, int] = self.plan.readers
        self.evaluator: Callable[..., Any] | None = self.plan.evaluate
        self.variable_rules: int = self.plan.bound
        self.slots: list[RuleSpec] = list(plan.slots)
        # slot -> the one activation of a rule without variables (None: the rule has variables)
        self.fixed: list[Activation | None] = [rule.activation for rule in plan.slots]
        self.spare: set[Any] = set()  # the memory's next set of dirty keys (see update)
        self.holding, self.wakes = _holding(program, plan)
        self.live = self.fired = self.closed = 0
        self.bindings: list[Bindings] = [NO_BINDINGS] * len(program.rules)  # by rule index
        self.matches: list[Matches] = [NO_MATCHES] * len(program.rules)
        self.tick = self.before = 0  # the clock at this update and at the one before (see update)
        self.code = CODES[plan.slots[0].strategy] if plan.slots else DECLARATION
        dynamic = self.code != DECLARATION
        self.times: list[int] = [0] * len(plan.slots)  # slot -> the stamp of the rule's one activation (dynamic)
        # heap of (key, serial, activation, stamp) (dynamic)
        self.queue: list[tuple[Any, ...]] | None = [] if dynamic else None
        self.serial = 0  # entries pushed on the queue (equal keys do not compare activations)
        self.room = QUEUE_ROOM  # the queue's length past which the entries that no longer count are dropped
        self.batches: dict[int, tuple[int, list[Any]]] = {}  # rule index -> (batch, entries): see _enqueue
        # id of a Join -> (the facts it indexed, the index): _fact_index
        # join -> (the facts it was made from, their index by the join's key or None, how many keys hash alike or
        # None when too many did: see _bucket)
        self.join_indexes: dict[int, tuple[Any, dict[Any, Any] | None, Counter[int] | None]] = {}
        # kind -> the last difference worked out between its facts (see _diff)
        self.diffs: dict[str, tuple[Any, ...]] = {}
        # LEX and MEA: a written key (a name, (attr, seat)) -> when it was last written (START before)
        self.written: dict[Any, Any] | None = {} if self.code in (LEX, MEA) else None
        # rule index -> what its activations looked up (rules with variables whose conditions look facts up)
        self.lookups: list[Lookups | None] = [Lookups() if rule.probed and rule.variables else None
                                              for rule in program.rules]
        # the kinds of fact those rules look up -> their facts when the agenda last looked (see _changes)
        self.probed_kinds = frozenset(kind for rule in plan.rules if rule.probed and rule.variables
                                      for kind in rule.cond_kinds)
        self.seen: dict[str, tuple[Any, ...]] = {}
        self.guard_seen: dict[Any, Any] = {}
        # rules with variables whose `for:` changed while their guard did not hold, bound again when it holds:
        # whole, or (only facts came and went) re-matched for those facts
        self.unbound = self.ungrown = 0
        self.unevaluated = 0  # after a lazy start: the rules not evaluated yet (see start)

    def clone(self) -> Agenda:
        new = Agenda()
        new.program, new.plan, new.code = self.program, self.plan, self.code
        new.readers_of, new.evaluator, new.variable_rules = self.readers_of, self.evaluator, self.variable_rules
        new.slots, new.fixed, new.spare = self.slots, self.fixed, set()
        new.holding, new.wakes = self.holding, self.wakes
        new.live, new.fired, new.closed = self.live, self.fired, self.closed
        new.bindings = self.bindings.copy()
        new.matches = [m.copy() if m.flags else m for m in self.matches] if self.variable_rules else self.matches
        new.tick, new.before, new.guard_seen = self.tick, self.before, self.guard_seen.copy()
        new.times, new.serial, new.room = self.times.copy(), self.serial, self.room
        new.batches = {rid: (batch, entries.copy()) for rid, (batch, entries) in self.batches.items()}
        new.join_indexes, new.diffs = {}, {}  # (changed in place: made anew as asked for)
        new.queue = None if self.queue is None else self.queue.copy()
        new.written = None if self.written is None else self.written.copy()
        new.probed_kinds, new.seen = self.probed_kinds, self.seen.copy()
        new.lookups = [None if of is None else of.copy() for of in self.lookups] if self.probed_kinds else \
            self.lookups
        new.unbound, new.ungrown, new.unevaluated = self.unbound, self.ungrown, self.unevaluated
        return new

    def save_point(self) -> tuple[Any, ...]:
        """What to come back to after trying a move (the memory records its own writes; `guard_seen` is kept
        as it is: it is replaced, never changed in place)."""
        bound = self.variable_rules
        return (self.live, self.fired, self.closed, self.tick, self.before, self.guard_seen,
                self.bindings.copy() if bound else None, [m.copy() for m in self.matches] if bound else None,
                self.unbound, self.ungrown, self.unevaluated,
                None if self.queue is None else (self.times.copy(), self.queue.copy(), self.serial,
                                                 None if self.written is None else self.written.copy(),
                                                 {rid: (batch, entries.copy())
                                                  for rid, (batch, entries) in self.batches.items()}),
                None if not self.probed_kinds else (self.seen.copy(), [None if of is None else of.copy()
                                                                        for of in self.lookups]))

    def restore(self, point: tuple[Any, ...]) -> None:
        self.live, self.fired, self.closed, self.tick, self.before, self.guard_seen, bindings, matches, \
            self.unbound, self.ungrown, self.unevaluated, timed, looked_up = point
        if bindings is not None:
            self.bindings, self.matches = bindings, matches
        if timed is not None:
            self.times, self.queue, self.serial, self.written, self.batches = timed
        if self.join_indexes:  # (kept up from facts that came after: made anew)
            self.join_indexes = {}
        if self.diffs:
            self.diffs = {}
        if looked_up is not None:
            self.seen, self.lookups = looked_up

    def refracted(self) -> tuple[Any, ...]:
        """The refracted activations, hashable (part of a game's memo key)."""
        return self.fired, tuple(frozenset(m.flags.items()) for m in self.matches if m.flags)

    # ---------------------------------------------------------------- matching
    def start(self, memory: Memory, lazy: bool = False) -> None:
        """Bind and evaluate every rule (at the start of a game: an update of its own, after the setup's facts,
        which bound activations take their times from).

        `lazy`, under a static conflict order: a rule is bound and evaluated only when every rule before it is
        idle (`pop_from` does it), for an agenda that fires a rule or two and is dropped, as a strategy's
        decision; what it fires is the same."""
        memory.dirty.clear()
        self._tick(memory)
        self.before = 0  # (every fact there is new to the agenda; under a static order, until it is started)
        self.seen = {kind: memory.vars[kind] for kind in self.probed_kinds}
        V = memory.vars
        plan = self.plan
        closed = 0
        self.guard_seen = dict(self.guard_seen)  # (a new dict, never one a save point holds: see save_point)
        for name, by_value in plan.guards.items():
            value = self.guard_seen[name] = V[name]
            closed |= plan.guarded[name] & ~_get(by_value, value)
            if self.holding:  # (the first phase's enter steps come first too)
                closed |= _get(self.holding, (name, value))
        self.closed = closed
        if lazy and self.queue is None:
            self.unevaluated = (1 << len(plan.slots)) - 1
        else:
            for rule in plan.rules:
                if rule.variables:
                    self.bind(rule, memory)
                    if not rule.bit & closed:
                        self.evaluate_bound(rule, None, memory, FRESH)
                else:
                    self.evaluate_rules(rule.bit, memory)
        if self.queue is None:
            self.before = memory.clock

    def _tick(self, memory: Memory) -> None:
        """An update begins, under a dynamic order: one more tick of the memory's clock, after the facts its firing
        asserted and retracted (`before`: the clock when the previous update began, before them)."""
        self.before = self.tick
        memory.clock += 1
        self.tick = memory.clock

    def bind(self, rule: RuleSpec, memory: Memory) -> list[tuple[Any, ...]]:
        """(Re)compute a rule's bindings; returns the positions whose activations are new.

        An activation is its rule and the values it binds: while they are all still bound it keeps its
        state (pending, refracted, its stamp), wherever they now stand in their collections (which orders it)."""
        rid = rule.index
        old, old_flags = self.bindings[rid], self.matches[rid].flags
        old_acts = old.acts
        # the values bound -> their old positions (a value may be twice)
        before: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
        for position, act in old_acts.items():
            before.setdefault(act.key, []).append(position)
        acts: dict[tuple[Any, ...], Activation] = {}
        fresh: list[tuple[Any, ...]] = []
        flags: dict[tuple[Any, ...], int] = {}
        moved: list[Activation] = []
        action = rule.action
        for position, binding in self._bindings(rule, memory):
            bkey = _binding_key(rule, memory, binding)
            places = before.get(bkey)
            if places:
                was = places.pop(0)
                act = old_acts[was]
                if was != position:
                    act = Activation(rule, binding, position, bkey, action)
                    moved.append(act)
                acts[position] = act
                flags[position] = old_flags[was]
            else:  # a new binding: a new activation
                acts[position] = Activation(rule, binding, position, bkey, action)
                flags[position] = 0
                fresh.append(position)
        self.bindings[rid] = Bindings(acts, _bound_read_index(rule, acts.values()),
                                      {kind: memory.vars[kind] for kind in rule.fact_levels if kind})
        looked_up = self.lookups[rid]
        if looked_up is not None:
            for places in before.values():
                for was in places:  # (the bindings gone)
                    looked_up.forget(old_acts[was].key)
        matches = self.matches[rid] = self._matches(flags, self.matches[rid].asleep)
        if matches.pending_any(self.queue is not None):
            self.live |= rule.bit
        else:
            self.live &= ~rule.bit
        if moved and self.queue is not None:
            self._requeue(rule, moved, flags)
        return fresh

    def extend(self, rule: RuleSpec, memory: Memory) -> list[tuple[Any, ...]] | None:
        """Re-match only what the facts asserted and retracted since the rule was bound change: the activations
        of the facts gone go, the others stay as they are (a fact's place is its time tag), and only the
        combinations with a new fact are bound (semi-naive: for each variable over a kind of fact, the new
        facts there, the old ones at the variables over that kind before it). Returns the positions of the
        new activations (a caller given None binds the rule whole: see tests/test_facts.py)."""
        rid = rule.index
        old = self.bindings[rid]
        V = memory.vars
        levels = rule.fact_levels
        added: dict[str, tuple[Any, ...]] = {}  # kind -> its facts asserted since (after every one there before)
        gone: set[int] = set()  # the ids of the facts retracted since
        for kind, before in old.facts.items():
            now = V[kind]
            if now is before:
                continue
            went, added[kind] = self._diff(kind, before, now)
            gone.update(map(id, went))
        matches = self.matches[rid]
        if gone:  # facts went: their activations go
            looked_up = self.lookups[rid]
            acts: dict[tuple[Any, ...], Activation] = {}
            for position, act in old.acts.items():
                for value in act.binding:
                    if id(value) in gone:
                        if looked_up is not None:
                            looked_up.forget(act.key)
                        break
                else:
                    acts[position] = act
            matches = self.matches[rid] = self._matches({position: matches.flags[position] for position in acts},
                                                        matches.asleep)
        else:
            acts = dict(old.acts)
        found: list[tuple[tuple[Any, ...], tuple[Any, ...]]] = []
        kinds = sorted(kind for kind in added if added[kind])
        for done, kind in enumerate(kinds):
            new = added[kind]
            first = new[0].time_tag  # (every fact of the kind there before has an earlier time tag)
            later = {other: added[other][0].time_tag for other in kinds[done + 1:]}  # (their new facts: later)
            for level, of in enumerate(levels):
                if of != kind:
                    continue
                given: dict[int, Any] = {i: later[k] for i, k in enumerate(levels) if k in later}
                given.update({i: first for i in range(level) if levels[i] == kind})  # (the facts before)
                given[level] = [(fact.time_tag, fact) for fact in new]
                found += self._bindings(rule, memory, given)
        fresh, action = [], rule.action
        for position, binding in found:
            acts[position] = Activation(rule, binding, position, _binding_key(rule, memory, binding), action)
            matches.flags[position] = 0
            fresh.append(position)
        self.bindings[rid] = Bindings(acts, _bound_read_index(rule, acts.values()),
                                      {kind: V[kind] for kind in old.facts})
        if matches.pending_any(self.queue is not None):
            self.live |= rule.bit
        else:
            self.live &= ~rule.bit
        return fresh

    def _matches(self, flags: dict[tuple[Any, ...], int], asleep: tuple[dict[Any, Any], set[Any]] | None) -> Matches:
        """A rule's Matches with these flags: its heap of the pending positions, or under a dynamic order their
        count."""
        if self.queue is None:
            return Matches(flags, sorted([p for p, flag in flags.items() if flag & LIVE]), asleep)
        count = 0
        for flag in flags.values():
            if flag & LIVE:
                count += 1
        return Matches(flags, [], asleep, count)

    def _bindings(self, rule: RuleSpec, memory: Memory,
                  given: dict[int, Any] | None = None) -> list[tuple[tuple[Any, ...], tuple[Any, ...]]]:
        """_bound, a limit it runs into (a step a value tried) located at the rule."""
        try:
            return self._bound(rule, memory, given)
        except GameError as exc:
            if exc.location is not None or exc.message.startswith("in "):
                raise
            raise _at_rule(rule, exc) from None

    def _bound(self, rule: RuleSpec, memory: Memory,
               given: dict[int, Any] | None = None) -> list[tuple[tuple[Any, ...], tuple[Any, ...]]]:
        """Every binding of the rule's variables that its tests at binding time let through (one activation
        each), with its position: where each value stands in its collection (see Join), and for a variable over a
        kind of fact (`fact_levels`) its fact's time tag, which orders the facts as their collection does and stays
        as facts come and go. `given`: for some variables, the (place, value) pairs to go over instead of their
        collections, or a number: only the values placed before it (extend binds the facts just asserted so, with
        the facts there before). A variable over a kind of fact with a key finds its facts in an index kept up
        (_fact_index)."""
        V = memory.vars
        found: list[tuple[tuple[Any, ...], tuple[Any, ...]]] = [((), ())]
        levels = rule.fact_levels
        joins = rule.join
        wanted = self._wanted(rule, given, memory) if given is not None and joins else {}
        for level, domain in enumerate(rule.domains):
            join = joins[level] if joins else None
            kind = levels[level] if levels else None
            limit = -1
            if given is not None and level in given:
                chosen = given[level]
                if type(chosen) is int:
                    limit = chosen
                else:
                    memory.spend(len(found) * len(chosen))  # (a step a value tried, as a loop's item)
                    found = [(position + (i,), binding + (value,)) for position, binding in found
                             for i, value in chosen
                             if join is None or not join.tests or join.passes(memory, binding + (value,))]
                    continue
            index: dict[Any, Any] | None = None
            probe: Callable[..., Any] | None = None
            if join is not None and join.key is not None:
                index = self._fact_index(join, kind, memory) if kind is not None else join.index(memory)
                probe = join.probe
            looked_up = wanted.get(level) if index is None else None  # (a key of its own finds fewer)
            found_next = []
            for position, binding in found:
                candidates: Any = looked_up
                if looked_up is not None:
                    memory.spend(len(looked_up))  # (a step a value tried, as a loop's item)
                elif index is not None:
                    assert probe is not None  # (a join with a key has its probe)
                    try:
                        candidates = index.get(probe(memory, V, *binding), ())
                        memory.spend(len(candidates))  # (a step a value tried, as a loop's item)
                    except TypeError:  # a key that cannot be looked up: go over them all
                        candidates = None
                if candidates is None:
                    values = memory.charge(domain(memory, V, *binding))  # (a step a value tried)
                    candidates = [(value.time_tag, value) for value in values] if kind is not None else \
                        enumerate(values)
                for i, value in candidates:
                    if limit >= 0 and i >= limit:
                        continue
                    bound = binding + (value,)
                    if join is None or not join.tests or join.passes(memory, bound):
                        found_next.append((position + (i,), bound))
            found = found_next
        return found

    def _wanted(self, rule: RuleSpec, given: dict[int, Any], memory: Memory) -> dict[int, list[tuple[Any, Any]]]:
        """For the variables over kinds of fact that the facts given to later ones reach by their equalities
        (Join.back), the facts that can join them, with their time tags, in their order: looked up by key from the
        facts given (extend: the facts just asserted) and on from those, a later variable before an earlier one,
        rather than all gone over, so that binding the facts just asserted costs what they match, not what is
        there. A variable no given fact reaches (or whose keys cannot be looked up) is not in it."""
        V, joins, levels = memory.vars, rule.join, rule.fact_levels
        wanted: dict[int, list[tuple[Any, Any]]] = {level: chosen for level, chosen in given.items()
                                                    if type(chosen) is not int}
        for level in range(len(joins) - 1, -1, -1):  # (a link goes back: from a later variable to an earlier one)
            join, kind = joins[level], levels[level] if levels else None
            if level in wanted or join is None or kind is None:
                continue
            for later, back in join.back:
                facts = wanted.get(later)
                index = self._fact_index(back, kind, memory) if facts is not None else None
                if facts is None or index is None:
                    continue
                linked = joins[later]
                key = linked.key if linked is not None else None
                assert key is not None  # (a link back is made with the later variable's key)
                memory.spend(len(facts))  # (a step a key made)
                found: dict[int, Any] = {}
                try:
                    for _, fact in facts:
                        for tag, value in index.get(key(memory, V, fact), ()):
                            found[tag] = value
                except TypeError:  # a key that cannot be looked up
                    continue
                wanted[level] = sorted(found.items())
                break
        return wanted

    def _fact_index(self, join: Join, kind: str, memory: Memory) -> dict[Any, Any] | None:
        """The facts of `kind` by `join`'s key, with their time tags (None: a key cannot be looked up), kept up
        from the facts that came and went since it was last asked for."""
        now = memory.vars[kind]
        cached = self.join_indexes.get(id(join))
        if cached is not None and (cached[0] is now or cached[2] is None):  # (None: crowded, for good)
            return cached[1]
        V, key = memory.vars, join.key
        assert key is not None  # (a join looked up by key)
        index: dict[Any, Any] | None
        alike: Counter[int] = Counter()  # how many keys hash alike, by hash (see _bucket)
        try:
            if cached is None or cached[1] is None:
                index = {}
                for fact in now:
                    _bucket(index, alike, key(memory, V, fact)).append((fact.time_tag, fact))
            else:
                before, index, kept_alike = cached
                assert index is not None and kept_alike is not None  # (tested above)
                alike = kept_alike
                went, new = self._diff(kind, before, now)
                for fact in went:
                    bucket = index[key(memory, V, fact)]
                    del bucket[_place(bucket, fact)]
                    memory.spend(len(bucket) // COPY_CHUNK)  # (the bucket's later entries are moved down)
                for fact in new:
                    _bucket(index, alike, key(memory, V, fact)).append((fact.time_tag, fact))
        except TypeError:  # a key that cannot be hashed
            index = None
        except _Crowded:  # keys made to hash alike: no index, for good
            self.join_indexes[id(join)] = (now, None, None)
            return None
        self.join_indexes[id(join)] = (now, index, alike)
        return index

    def _requeue(self, rule: RuleSpec, moved: list[Activation], flags: dict[tuple[Any, ...], int]) -> None:
        """Activations that moved to other places stay pending under the stamps they had (their queue entries,
        made for their old places, no longer count)."""
        for act in moved:
            flag = flags[act.position]
            if flag & LIVE:
                self._push(rule, act, flag >> 2)

    def evaluate_rules(self, mask: int, memory: Memory) -> None:
        """Re-evaluate every activation of the rules in `mask` (retracting those whose guard does not hold): what
        their conditions read changed, so those that hold are new activations."""
        closed = mask & self.closed
        if closed:
            mask ^= closed
            if closed & (self.live | self.fired | self.variable_rules):
                self.retract(closed)  # (and what they kept asleep: something their conditions read was written)
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
                    self.evaluate_bound(rule, None, memory, AGAIN)
            return
        V = memory.vars
        slots = self.slots
        live, fired = self.live, self.fired
        made = 0  # (the rules without variables made pending: stamped once `live` says so)
        while mask:
            bit = mask & -mask
            mask ^= bit
            rule = slots[bit.bit_length() - 1]
            if rule.variables:
                self.live = live
                self.evaluate_bound(rule, None, memory, AGAIN)
                live = self.live
                continue
            fired &= ~bit
            if rule.guard_only or rule.condition(memory, V):
                live |= bit
                made |= bit
            else:
                live &= ~bit
        self.live, self.fired = live, fired
        if made and self.queue is not None:
            for rule in self._rules_of(made):
                self._made(rule, self.tick, memory)

    def evaluate_kept(self, mask: int, memory: Memory, changes: dict[str, list[Any] | None]) -> None:
        """Re-evaluate the rules in `mask`, whose conditions look up facts that came or went (nothing else they read
        changed): an activation that still holds, and whose lookups' answers did not change in this update, is the
        same one (pending, or refracted, with its stamp); one that holds anew, or whose lookups changed and changed
        back (a modify's retraction and assertion), is made when the last of them changed; the others go."""
        mask &= ~(self.closed | self.unevaluated)
        if not mask:
            return
        bound = mask & self.variable_rules
        V = memory.vars
        for rule in self._rules_of(mask ^ bound):
            bit = rule.bit
            memory.probes = []
            holds: Any = rule.guard_only or rule.condition(memory, V)
            probes, memory.probes = memory.probes, None
            if holds:
                changed = _latest(probes)
                if changed > self.before or not (self.live | self.fired) & bit:
                    self.live |= bit
                    self.fired &= ~bit
                    if self.queue is not None:
                        self._made(rule, changed if changed > self.before else self.tick, memory)
            else:
                self.live &= ~bit
                self.fired &= ~bit
        for rule in self._rules_of(bound):
            self.evaluate_bound(rule, self._touched(rule, changes), memory, KEPT)

    def _touched(self, rule: RuleSpec, changes: dict[str, list[Any] | None]) -> list[tuple[Any, ...]] | None:
        """The positions of the activations of `rule` whose lookups the facts that came and went (`changes`) may
        answer otherwise (None: every one, as for a rule that reads its kinds of fact otherwise)."""
        looked_up = self.lookups[rule.index]
        if looked_up is None:
            return None
        bkeys: set[Any] = set()
        for kind in rule.cond_kinds:
            facts = changes.get(kind, ())
            if facts is None:
                return None
            if facts:
                bkeys |= looked_up.touched(kind, facts)
        bindings = self.bindings[rule.index]
        return sorted(place for place in map(bindings.place, bkeys) if place is not None)

    def _changes(self, kind: str, memory: Memory) -> list[Any] | None:
        """The facts of `kind` that came or went since the agenda last looked (None: not known, as after a copy
        of the game whose agenda has not looked yet)."""
        now = memory.vars[kind]
        before = self.seen.get(kind)
        self.seen[kind] = now
        if before is None:
            return None
        went, new = self._diff(kind, before, now)
        return list(went) + list(new)

    def _diff(self, kind: str, before: tuple[Any, ...], now: tuple[Any, ...]) -> tuple[tuple[Any, ...],
              tuple[Any, ...]]:
        """(the facts of `before` not in `now`, the facts of `now` not in `before`), facts of one kind at two
        times, found by their time tags (a kind's facts stand in the order of their tags; the new ones last); the
        last asked for of each kind is kept (the rules over a kind ask for the same one)."""
        last = self.diffs.get(kind)
        if last is not None and last[0] is before and last[1] is now:
            return last[2], last[3]
        newest = before[len(before) - 1].time_tag if before else 0
        kept = len(now)
        while kept and now[kept - 1].time_tag > newest:
            kept -= 1
        went: list[Any] = []
        if kept < len(before):  # (some went: the old ones still there are in the same order)
            j = 0
            for fact in before:
                if j < kept and now[j] is fact:
                    j += 1
                else:
                    went.append(fact)
        found = (before, now, tuple(went), now[kept:])
        self.diffs[kind] = found
        return found[2], found[3]

    def _rules_of(self, mask: int) -> list[Any]:
        """The rules whose bits are in `mask`, in slot order."""
        slots, found = self.slots, []
        while mask:
            bit = mask & -mask
            mask ^= bit
            found.append(slots[bit.bit_length() - 1])
        return found

    def evaluate_bound(self, rule: RuleSpec, positions: list[tuple[Any, ...]] | None, memory: Memory,
                       how: int = AGAIN) -> None:
        """Re-evaluate the activations of a rule with variables at `positions` (None: all of them). `how`: AGAIN,
        FRESH or KEPT (see their definitions)."""
        rid = rule.index
        acts = self.bindings[rid].acts
        matches = self.matches[rid]
        flags, heap = matches.flags, matches.heap
        V, condition = memory.vars, rule.condition
        timed = self.queue is not None
        looked_up = self.lookups[rid]
        probing = looked_up is not None or how == KEPT or (timed and how == FRESH)
        before = self.before
        asleep = matches.asleep
        slept: dict[Any, Any] = {}
        touched: set[Any] = set()
        if asleep is not None:  # (woken: what held when it went to sleep and no write could change holds still)
            matches.asleep = None
            slept, touched = asleep
        made: list[Any] | None = [] if timed else None  # (queue entries, pushed at once: see _enqueue)
        holds: Any
        probes: list[Any] | None
        for position in (acts if positions is None else positions):
            act = acts[position]
            # (asleep: its flags are as they were when the rule went to sleep, and nothing is pending)
            was = flags[position] if asleep is None else 0
            if asleep is not None and act.key not in touched and slept.get(position) is act:
                holds, probes = flags[position] & (LIVE | FIRED), None
            else:
                if probing:
                    memory.probes = []
                holds = condition(memory, V, *memory_local(memory, act.binding))
                probes, memory.probes = memory.probes, None
                if looked_up is not None:
                    assert probes is not None  # (made when probing, as a rule whose lookups are followed is)
                    looked_up.note(act.key, probes)
            if holds:
                moment = self.tick
                if probes is not None and how != AGAIN:  # (when the last of its lookups changed, or its newest
                    changed = max(_latest(probes), _newest(act.binding))  # fact came)
                    if how == KEPT and was & (LIVE | FIRED) and changed <= before:
                        continue  # (the same activation)
                    if changed > before:
                        moment = changed
                if made is not None:
                    if not was & LIVE:
                        matches.count += 1
                    stamp = self._stamp(moment, memory)
                    flags[position] = stamp << 2 | LIVE
                    self.serial += 1
                    made.append((self._order(rule, act, stamp), self.serial, act, stamp, -1, 0))
                else:
                    if not was & LIVE:
                        heappush(heap, position)
                    flags[position] = LIVE
            else:
                if was & LIVE and made is not None:
                    matches.count -= 1
                flags[position] = 0
        if made:  # (a batch only where every activation pending was made again: see _enqueue)
            self._enqueue(rid, made, positions is None and how != KEPT)
        if matches.pending_any(timed):
            self.live |= rule.bit
        else:
            self.live &= ~rule.bit

    def retract(self, mask: int, asleep: bool = False) -> None:
        """The rules in `mask` have nothing pending and nothing refracted (their guard does not hold). `asleep`:
        their guard just stopped holding; a rule with variables whose condition reads nothing but the values it
        binds, variables and facts it looks up keeps its flags as they are, telling whether each activation's
        condition held, until something it reads is written or a lookup may answer otherwise (its guard holding
        again, they are made anew without evaluating their conditions again: see evaluate_bound). Otherwise, its
        flags are cleared."""
        self.live &= ~mask
        self.fired &= ~mask
        for rule in self._rules_of(mask & self.variable_rules):
            rid = rule.index
            matches = self.matches[rid]
            self.batches.pop(rid, None)
            if not matches.flags:
                continue
            if asleep and (rule.probed or not rule.cond_kinds):
                if matches.asleep is None:
                    matches.asleep = (self.bindings[rid].acts, set())
                    matches.count, matches.heap = 0, []
            else:
                self.matches[rid] = Matches(dict.fromkeys(matches.flags, 0), [])

    def update(self, memory: Memory) -> None:
        """Re-evaluate what the memory's dirty keys may have changed: most keys only make their readers stale
        (one lookup in `plan.readers`, which remembers such keys as they are met); the others switch guards,
        rebind, refresh, or re-evaluate the activations bound to what was written."""
        dirty = memory.dirty
        if dirty:
            memory.dirty = self.spare
            if self.queue is None:
                self.react(dirty, memory)
                self.before = memory.clock  # (facts asserted and retracted after it are this update's)
            else:
                self._tick(memory)
                if self.written is not None:
                    _note_writes(self.written, dirty, self.tick)
                self.react(dirty, memory)
            dirty.clear()  # (the keys were read: the set is the next one, rather than a new set at each update)
            self.spare = dirty

    def react(self, dirty: set[Any], memory: Memory) -> None:
        """`update`, for the keys written `dirty` (the caller ticked the clock)."""
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
        stale = rebind = refresh = factual = whole = kept = woken = 0
        touched: list[Any] | None = None  # (rule, variable position, identity): activations bound to what was written
        for key in dirty:
            readers = readers_of.get(key)
            if readers is not None:
                stale |= readers
                continue
            if type(key) is str:
                reaction = globals_.get(key)
                if reaction is None:
                    wake = self.wakes.get(key) if self.wakes else None
                    if wake is not None:  # a phase's enter steps ran
                        guard, value, held = wake
                        woken |= self._wake(guard, value, held)
                        continue
                    readers_of[key] = 0  # no rule reads it (the keys are the program's names)
                    continue
                guards, readers, domain, refreshed, looked_up = reaction
                if guards is not None:
                    woken |= self._switch_guard(key, guards, memory.vars[key])
                stale |= readers
                kept |= looked_up
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
        if woken:  # (a rule woken whose condition reads something written keeps nothing of its sleep)
            if woken & stale & self.variable_rules:
                self._forget_sleep(woken & stale)
            stale |= woken
        if touched:
            self._forget_sleep(sum({rule.bit for rule, _, _ in touched}) & self.closed)
        if self.unevaluated:  # (a lazy start: evaluated when reached)
            stale &= ~self.unevaluated
            rebind &= ~self.unevaluated
            refresh &= ~self.unevaluated
        if self.probed_kinds:
            changes = {kind: self._changes(kind, memory) for kind in self.probed_kinds if kind in dirty}
        else:
            changes = {}
        if kept & (self.closed | woken):  # (before a woken rule is evaluated: what it kept may hold no longer)
            self._wake_less(kept & (self.closed | woken), changes)
        if rebind:
            self._rebind(rebind, stale, memory, factual & ~whole)
        if refresh:
            self._refresh(refresh & ~stale & ~self.closed, memory)
        if stale:
            self.evaluate_rules(stale, memory)
        kept &= ~stale
        if kept:
            self.evaluate_kept(kept, memory, changes)
        if touched:  # looked up after any rebinding, in the bindings as they are now
            closed = self.closed
            for rule, pos, ident in touched:
                index = self.bindings[rule.index].index
                positions = index[pos].get(ident) if index else None
                if positions and not rule.bit & (stale | closed | self.unevaluated):
                    self.evaluate_bound(rule, positions, memory)

    def _forget_sleep(self, mask: int) -> None:
        """What the rules in `mask` kept asleep no longer holds (something their conditions read was written)."""
        for rule in self._rules_of(mask & self.variable_rules):
            matches = self.matches[rule.index]
            if matches.asleep is not None:
                self.matches[rule.index] = Matches(dict.fromkeys(matches.flags, 0), [])

    def _wake_less(self, mask: int, changes: dict[str, list[Any] | None]) -> None:
        """Asleep rules whose lookups' facts came or went: the activations they may answer otherwise are evaluated
        again when they wake."""
        for rule in self._rules_of(mask & self.variable_rules):
            asleep = self.matches[rule.index].asleep
            if asleep is None:
                continue
            looked_up = self.lookups[rule.index]
            if looked_up is None:
                self._forget_sleep(rule.bit)
                continue
            for kind in rule.cond_kinds:
                facts = changes.get(kind, ())
                if facts is None:
                    self._forget_sleep(rule.bit)
                    break
                if facts:
                    asleep[1].update(looked_up.touched(kind, facts))

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
                self.evaluate_bound(rule, fresh, memory, FRESH)

    def _refresh(self, mask: int, memory: Memory) -> None:
        """CLIPS's refresh: the activations that fired come back; the pending ones keep their place (recency)."""
        for rule in self._rules_of(mask):
            if rule.variables:
                refracted = sorted(p for p, flag in self.matches[rule.index].flags.items() if flag & FIRED)
                if refracted:
                    self.evaluate_bound(rule, refracted, memory)
            elif self.fired & rule.bit:
                self.evaluate_rules(rule.bit, memory)

    def _switch_guard(self, name: str, by_value: dict[Any, Any], value: Any) -> int:
        """`name` was written: retract the rules expecting its old value; returns those expecting the new one."""
        old = self.guard_seen.get(name)
        woken = _get(by_value, value)
        if old is not value and old != value:
            stale = _get(by_value, old)
            if stale:
                if stale & (self.live | self.fired | self.variable_rules):
                    self.retract(stale, asleep=True)
                self.closed |= stale  # (every other rule guarded by `name` expected another value: closed)
            if woken:
                self.closed &= ~woken
            seen = self.guard_seen.copy()  # (a new dict, never one a save point holds: see save_point)
            seen[name] = value
            self.guard_seen = seen
        held = _get(self.holding, (name, value)) if self.holding else 0
        if held:  # a phase with enter steps: its other rules wait, closed, until the steps have run (_wake)
            if held & (self.live | self.fired | self.variable_rules):
                self.retract(held, asleep=True)
            self.closed |= held
            woken &= ~held
        return woken  # a write that sets the old value back wakes its rules too, as for any read

    def _wake(self, name: str, value: Any, held: int) -> int:
        """The enter steps of phase `value` (of guard `name`) ran: the rules they held are woken, if it is still
        the phase (a goto in a step left it)."""
        seen = self.guard_seen.get(name)
        if seen is not value and seen != value:
            return 0
        self.closed &= ~held
        return held

    # -------------------------------------------------------------- stamps
    def _stamp(self, moment: int, memory: Memory) -> int:
        """An activation's stamp: when it was made, and under the random strategy a draw of its own above."""
        if self.code == RANDOM:
            return memory.rng.getrandbits(30) << 40 | moment
        return moment

    def _made(self, rule: RuleSpec, moment: int, memory: Memory) -> None:
        """The one activation of a rule without variables was made (it is pending) at `moment`."""
        stamp = self._stamp(moment, memory)
        self.times[rule.bit.bit_length() - 1] = stamp
        act = rule.activation
        assert act is not None  # (a rule without variables has its one activation)
        self._push(rule, act, stamp)

    def _push(self, rule: RuleSpec, act: Activation, stamp: int) -> None:
        """Queue an activation made pending with `stamp`: an entry (key, serial, activation, stamp, batch's rule or
        -1, batch)."""
        queue = self.queue
        assert queue is not None  # (only a dynamic order keeps stamps)
        self.serial += 1
        heappush(queue, (self._order(rule, act, stamp), self.serial, act, stamp, -1, 0))
        if len(queue) > self.room:
            self._compact()

    def _enqueue(self, rid: int, made: list[Any], whole: bool) -> None:
        """Queue the entries of activations a rule's evaluation made. Many, from an evaluation of all its
        activations (its guard holding again, what its condition reads written), are a batch: ordered in a heap
        of their own, which puts one entry at a time on the queue (the next when that one leaves it), so that
        the activations made at once and dropped at once (its guard failing again) cost no place in the queue."""
        queue = self.queue
        assert queue is not None
        if whole and len(made) > BATCH:
            heapify(made)
            self.serial += 1
            batch = self.serial
            self.batches[rid] = (batch, made)
            self._promote(rid, batch)
            return
        for entry in made:
            heappush(queue, entry)
        if len(queue) > self.room:
            self._compact()

    def _promote(self, rid: int, batch: int) -> None:
        """The next entry of the rule's batch goes on the queue (if that batch is still the rule's)."""
        found = self.batches.get(rid)
        if found is None or found[0] != batch:
            return
        entries = found[1]
        if not entries:
            del self.batches[rid]
            return
        entry = heappop(entries)
        heappush(self.queue, (entry[0], entry[1], entry[2], entry[3], rid, batch))  # type: ignore[arg-type]

    def _compact(self) -> None:
        """Drop the queue's entries that no longer count (most of them, after many re-evaluations), in place, but a
        batch's (see _enqueue); the next time when it has grown four times as long."""
        queue = self.queue
        assert queue is not None
        queue[:] = [entry for entry in queue if entry[4] >= 0 or self._counts(entry[2], entry[3])]
        heapify(queue)
        self.room = max(QUEUE_ROOM, 4 * len(queue))

    def _counts(self, act: Activation, stamp: int) -> bool:
        """Whether a queue entry (an activation with the stamp it was pushed with) is still pending."""
        rule = act.rule
        if rule.variables:
            position = act.position
            return self.bindings[rule.index].acts.get(position) is act and not self.closed & rule.bit and \
                self.matches[rule.index].flags.get(position) == stamp << 2 | LIVE
        bit = rule.bit
        return bool(self.live & bit) and self.times[bit.bit_length() - 1] == stamp

    def key(self, rule: RuleSpec, act: Activation, stamp: int) -> tuple[Any, ...]:
        """Where an activation stands in the conflict order (smallest first): (-priority, what the strategy
        looks at as CLIPS defines it, what breaks the ties CLIPS leaves to its implementation). Activations with
        equal first two parts are a tie in CLIPS: made by one assertion or retraction (or one update)."""
        if self.code == DECLARATION:
            return (-rule.priority, (), (rule.index, act.position))
        order = self._order(rule, act, stamp)
        return (order[0], order[1:-1], order[-1])

    def _order(self, rule: RuleSpec, act: Activation, stamp: int) -> tuple[Any, ...]:
        """`key`, flat (the priority, each thing the strategy looks at, the tie-breaks as one): the queue's keys."""
        code = self.code
        moment = stamp & MOMENT
        tiebreak = act.order
        if tiebreak is None:
            tiebreak = act.order = self._tiebreak(rule, act)
        if code == DEPTH:
            return (-rule.priority, -moment, tiebreak)
        if code == BREADTH:
            return (-rule.priority, moment, tiebreak)
        if code == SIMPLICITY:
            return (-rule.priority, rule.tests, moment, tiebreak)
        if code == COMPLEXITY:
            return (-rule.priority, -rule.tests, moment, tiebreak)
        if code == RANDOM:
            return (-rule.priority, stamp >> 40, moment, tiebreak)
        data = self._data(rule, act)
        recency = tuple([-t for t in sorted(data, reverse=True)]) + (1,)  # (1: more time tags first on a tie)
        if code == LEX:
            return (-rule.priority, recency, -rule.tests, moment, tiebreak)
        first = self._time_of("phase") if rule.phase is not None else -1
        return (-rule.priority, -first, recency, -rule.tests, moment, tiebreak)

    def _tiebreak(self, rule: RuleSpec, act: Activation) -> tuple[Any, ...]:
        """What orders activations equal for the strategy: the time tags of their facts (under depth the newest
        first, else the oldest), then declaration, then binding order; the tags only under the strategies that
        look at no data themselves."""
        code = self.code
        if code == DEPTH:
            return (tuple([-t for t in act.time_tags()]), rule.index, act.position)
        if code in (BREADTH, SIMPLICITY, COMPLEXITY):
            return (act.time_tags(), rule.index, act.position)
        return (rule.index, act.position)

    def _data(self, rule: RuleSpec, act: Activation) -> list[int]:
        """LEX and MEA: the time tags of what an activation matched: the facts it binds, the rule's phase (when it
        was entered), the variables its condition reads (when last written) and a 0 for each kind of fact it looks
        up (CLIPS's not and exists CEs); values bound that are not facts count from the start."""
        data = [value.time_tag if isinstance(value, FACT_CLASS) else START for value in act.binding]
        if rule.phase is not None:
            data.append(self._time_of("phase"))
        for read in rule.data_reads:
            if type(read) is str:
                data.append(self._time_of(read))
            else:
                attr, of = read
                if type(of) is int:
                    data.append(self._time_of((attr, of)))
                elif type(of) is tuple:  # (of a variable bound: its seat)
                    value = act.binding[of[0]]
                    data.append(self._time_of((attr, value.index)) if isinstance(value, PLAYER_CLASS) else START)
                else:  # (of any player: when one of them last changed it)
                    data.append(self._time_of((attr, None)))
        data += [0] * len(rule.cond_kinds)
        return data

    def _time_of(self, key: Any) -> int:
        written = self.written
        return START if written is None else written.get(key, START)

    # -------------------------------------------------------------- resolving
    def _top(self) -> tuple[Any, ...] | None:
        """Under a dynamic order, the queue's first entry still pending (the entries before it dropped)."""
        queue = self.queue
        assert queue is not None
        while queue:
            entry = queue[0]
            if self._counts(entry[2], entry[3]):
                return entry
            heappop(queue)
            if entry[4] >= 0:
                self._promote(entry[4], entry[5])
        return None

    def _winner(self) -> tuple[Any, tuple[Any, ...]] | None:
        """The rule whose activation fires next, and its binding position (() for a rule without variables)."""
        live = self.live
        if not live:
            return None
        if self.queue is not None:
            entry = self._top()
            assert entry is not None  # (a live rule has a pending activation on the queue)
            return entry[2].rule, entry[2].position
        bit = live & -live
        rule = self.slots[bit.bit_length() - 1]
        if rule.variables:
            position = self.matches[rule.index].first()
            assert position is not None  # the bit of a rule with variables is live when one of them is
            return rule, position
        return rule, ()

    def _pending_pairs(self, mask: int) -> list[tuple[Any, tuple[Any, ...]]]:
        """(rule, position) of every pending activation of the rules in `mask`, in slot then binding order."""
        found: list[tuple[Any, tuple[Any, ...]]] = []
        for rule in self._rules_of(mask):
            if rule.variables:
                found += [(rule, position) for position in self.matches[rule.index].pending()]
            else:
                found.append((rule, ()))
        return found

    def _activation(self, rule: RuleSpec, position: tuple[Any, ...]) -> Activation:
        if rule.variables:
            return self.bindings[rule.index].acts[position]
        act: Activation | None = rule.activation
        assert act is not None  # (a rule without variables has its one activation)
        return act

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
        if self.queue is not None:
            entry = self._top()
            assert entry is not None  # (a live rule has a pending activation on the queue)
            heappop(self.queue)
            if entry[4] >= 0:
                self._promote(entry[4], entry[5])
            act: Activation = entry[2]
            stamp = entry[3]
            rule = act.rule
            if not rule.variables:
                self.live = live ^ rule.bit
                self.fired |= rule.bit
                return act
            matches = self.matches[rule.index]
            matches.flags[act.position] = stamp << 2 | FIRED
            matches.count -= 1
            if not matches.count:
                self.live ^= rule.bit
            return act
        bit = live & -live
        slot = bit.bit_length() - 1
        fixed = self.fixed[slot]
        if fixed is not None:  # (a rule without variables: the common case)
            self.live = live ^ bit
            self.fired |= bit
            return fixed
        rule = self.slots[slot]
        matches = self.matches[rule.index]
        position = matches.first()
        assert position is not None  # (the rule is live)
        matches.flags[position] = FIRED
        if matches.first() is None:
            self.live ^= bit
        return self.bindings[rule.index].acts[position]

    def take(self, act: Activation) -> None:
        """Remove a pending activation and refract it, as `pop` does the winner's: for a caller that chooses which
        one fires (the differential tests follow CLIPS's choice where CLIPS and Naipes leave a tie to their
        implementations)."""
        rule = act.rule
        if rule.variables:
            matches = self.matches[rule.index]
            flag = matches.flags[act.position]
            assert flag & LIVE, f"{act} is not pending"
            matches.flags[act.position] = flag ^ LIVE | FIRED
            matches.count -= 1
            if not matches.pending_any(self.queue is not None):
                self.live &= ~rule.bit
        else:
            assert self.live & rule.bit, f"{act} is not pending"
            self.live ^= rule.bit
            self.fired |= rule.bit

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

    def conflict_set(self) -> list[tuple[tuple[Any, ...], Activation]]:
        """Every pending activation with its place in the conflict order (see `key`), in firing order."""
        entries = []
        for rule, position in self._pending_pairs(self.live):
            act = self._activation(rule, position)
            if self.queue is None:
                stamp = 0
            elif rule.variables:
                stamp = self.matches[rule.index].flags[position] >> 2
            else:
                stamp = self.times[rule.bit.bit_length() - 1]
            entries.append((self.key(rule, act, stamp), act))
        entries.sort(key=lambda entry: entry[0])
        return entries

    def pending(self) -> list[Activation]:
        """Every live activation in firing order (for tracing)."""
        return [act for _, act in self.conflict_set()]


class Agendas(Agenda):
    """The agenda of a program with more than WORD rules: one agenda per word of its conflict order, so that each
    word's masks stay machine integers. A word's pending activation fires before any of the words after it
    (under a dynamic order: the best of every word's, on one clock). `live` has the bit of every word with a
    pending activation (bit w: word w).

    A written key wakes only the words that react to it: those whose rules read it, and for a guard's name
    those with rules guarded by its old or its new value (a word that sleeps through a guard's changes has
    all its rules of that guard closed, and its last value seen is one it has no rule for)."""

    __slots__ = ("parts", "routes")

    def __init__(self, program: Program | None = None, parts: list[Agenda] | None = None):
        if program is None:
            return
        self.program = program
        self.parts: list[Agenda] = parts if parts is not None else [Agenda(program, plan)
                                                                    for plan in program.matchings]
        self.routes: tuple[dict[Any, Any], dict[Any, Any], dict[Any, Any]] = _word_routes(program)
        self.variable_rules = 1 if any(part.variable_rules for part in self.parts) else 0
        self.tick = self.before = 0
        self.guard_seen = {}
        self.spare = set()
        first = self.parts[0]
        self.queue, self.written = first.queue, first.written
        for part in self.parts:  # (one record of writes for every word)
            part.written = self.written
        self._sync()

    def _sync(self) -> None:
        live = 0
        for word, part in enumerate(self.parts):
            if part.live:
                live |= 1 << word
        self.live = live

    def clone(self) -> Agenda:
        new = Agendas(self.program, [part.clone() for part in self.parts])
        new.tick, new.before, new.guard_seen = self.tick, self.before, self.guard_seen.copy()
        return new

    def save_point(self) -> tuple[Any, ...]:
        # (a copy: update writes the values its guards take into it, unlike a word's own, replaced instead)
        return tuple([part.save_point() for part in self.parts]), self.tick, self.before, self.guard_seen.copy()

    def restore(self, point: tuple[Any, ...]) -> None:
        points, self.tick, self.before, self.guard_seen = point
        for part, part_point in zip(self.parts, points):
            part.restore(part_point)
        self.written = self.parts[0].written
        for part in self.parts:
            part.written = self.written
        self._sync()

    def refracted(self) -> tuple[Any, ...]:
        return tuple([part.refracted() for part in self.parts])

    def start(self, memory: Memory, lazy: bool = False) -> None:
        tick = memory.clock + 1
        for part in self.parts:
            memory.clock = tick - 1  # (one start for every word)
            part.start(memory, lazy)
        self.tick, self.before = self.parts[0].tick, self.parts[0].before
        V = memory.vars
        self.guard_seen = {name: V[name] for name in self.routes[2]}
        self._sync()

    def update(self, memory: Memory) -> None:
        dirty = memory.dirty
        if not dirty:
            return
        memory.dirty = self.spare
        if self.queue is not None:
            self._tick(memory)
            if self.written is not None:
                _note_writes(self.written, dirty, self.tick)
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
        tick, before, parts, live = self.tick, self.before, self.parts, self.live
        while words:
            bit = words & -words
            words ^= bit
            part = parts[bit.bit_length() - 1]
            part.tick, part.before = tick, before  # (one clock for every word)
            part.react(dirty, memory)
            live = live | bit if part.live else live & ~bit
        self.live = live
        if self.queue is None:
            self.before = memory.clock
        dirty.clear()
        self.spare = dirty

    def _word_to_fire(self) -> int:
        """The bit of the word whose winning activation fires next (0: nothing is pending)."""
        live = self.live
        if not live or self.queue is None:
            return live & -live
        best, best_key = 0, None
        while live:
            bit = live & -live
            live ^= bit
            entry = self.parts[bit.bit_length() - 1]._top()
            assert entry is not None  # (a live word has a pending activation on its queue)
            if best_key is None or entry[0] < best_key:
                best, best_key = bit, entry[0]
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
        if self.queue is not None:
            return self.pop()
        for part in self.parts:
            act = part.pop_from(memory)
            if act is not None:
                self._sync()
                return act
        self._sync()
        return None

    def take(self, act: Activation) -> None:
        for word, part in enumerate(self.parts):
            if any(rule is act.rule for rule in part.slots):
                part.take(act)
                if not part.live:
                    self.live &= ~(1 << word)
                return
        raise ValueError(f"{act} is no activation of this agenda")

    def idle_entries(self, memory: Memory) -> list[tuple[bool, Any, str]]:
        return [entry for part in self.parts for entry in part.idle_entries(memory)]

    def conflict_set(self) -> list[tuple[tuple[Any, ...], Activation]]:
        entries = [entry for part in self.parts for entry in part.conflict_set()]
        entries.sort(key=lambda entry: entry[0])
        return entries


def _word_routes(program: Program) -> tuple[dict[Any, Any], dict[Any, Any], dict[Any, Any]]:
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
            for name, (by_value, readers, domain, refreshed, looked_up) in plan.globals.items():
                if readers or domain or refreshed or looked_up:
                    names[name] = names.get(name, 0) | bit
                for value in by_value or ():
                    of_name = guards.setdefault(name, {})
                    of_name[value] = of_name.get(value, 0) | bit
            for attr in plan.attrs:
                attrs[attr] = attrs.get(attr, 0) | bit
            for key in _holding(program, plan)[1]:  # (a phase's entry wakes the words holding rules of it)
                names[key] = names.get(key, 0) | bit
        routes = program.caches["word routes"] = (names, attrs, guards)
    return routes


def _holding(program: Program, plan: Matching) -> tuple[dict[tuple[str, Any], int], dict[str, tuple[str, Any, int]]]:
    """A phase's enter steps run before any rule of it is evaluated: the rules of `plan`'s word held while the
    entry of their phase is pending, by guard (name, value); and by the key its entry writes
    (Memory.entered), (name, value, those rules). Once per program and word."""
    cache_key = ("holding", id(plan))
    found = program.caches.get(cache_key)
    if found is None:
        by_guard: dict[tuple[str, Any], int] = {}
        wakes: dict[str, tuple[str, Any, int]] = {}
        entries = sum(rule.bit for rule in plan.slots if rule.steps)  # (a bit is its rule's place in its word)
        for rule in program.rules:
            if rule.steps and rule.guard is not None:
                name, value = rule.guard
                held = _get(plan.guards.get(name, {}), value) & ~entries
                if held:
                    by_guard[name, value] = held
                    wakes[sys.intern(ENTERED + str(value))] = (name, value, held)  # (as Memory.entered's)
        found = program.caches[cache_key] = (by_guard, wakes)
    return found


def new_agenda(program: Program) -> Agenda:
    """The agenda of a program: one word of rules, or an agenda per word (see Matching)."""
    plans = program.matchings
    return Agenda(program, plans[0]) if len(plans) == 1 else Agendas(program)


def _note_writes(written: dict[Any, Any], dirty: set[Any], tick: int) -> None:
    """LEX and MEA: the keys of `dirty` were written at `tick` (a player's variable also as (attr, None): of some
    player)."""
    for key in dirty:
        written[key] = tick
        if type(key) is tuple:
            written[key[0], None] = tick


def _latest(probes: list[Any]) -> int:
    """When the last of a condition's lookups (kind, fields, values, when its answer last changed) changed its
    answer (0: none since the facts were indexed)."""
    latest = 0
    for probe in probes:
        if probe[3] > latest:
            latest = probe[3]
    return latest


def _newest(binding: tuple[Any, ...]) -> int:
    """The time tag of the newest fact a binding holds (0: none)."""
    newest = 0
    for value in binding:
        if isinstance(value, FACT_CLASS) and value.time_tag > newest:
            newest = value.time_tag
    return newest


def _bound_read_index(rule: RuleSpec, acts: Any) -> list[dict[Any, Any]] | None:
    """Per variable of a rule that reads something of a bound variable: identity -> the positions bound to it."""
    if not rule.bound_reads:
        return None
    index: list[dict[Any, Any]] = [{} for _ in rule.variables]
    for act in acts:
        for pos, ident in enumerate(act.key):
            index[pos].setdefault(ident, []).append(act.position)
    return index


def _get(by_value: dict[Any, int], value: Any) -> int:
    try:
        return by_value.get(value, 0)
    except TypeError:  # an unhashable value is no rule's literal
        return 0


def _binding_key(rule: RuleSpec, memory: Memory, binding: tuple[Any, ...]) -> tuple[Any, ...]:
    """How an activation's binding is keyed (_identity of each value), after spending what making and hashing the
    key costs: a collection bound is copied into it, or shown (Budget.hashed: its items, and a tuple or a large
    number among the values hashed alike); a limit it runs into is located at the rule."""
    for value in binding:
        if type(value) in COLLECTIONS or hashes_at_will(value):
            try:
                memory.hashed(value)
            except GameError as exc:
                raise _at_rule(rule, exc) from None
    return tuple([_identity(v) for v in binding])


def _at_rule(rule: RuleSpec, exc: GameError) -> GameError:
    """A limit the agenda ran into while binding `rule`'s variables, located at the rule."""
    return GameError(f"in the 'for' of rule '{rule.name}': {exc.message}", rule.location)


COLLECTIONS: Final = frozenset({tuple, list, set, frozenset, dict})


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


def memory_local(memory: Memory, binding: tuple[Any, ...]) -> tuple[Any, ...]:
    """A binding's values as objects of `memory` (players and zones belong to one memory)."""
    return tuple([v if type(v) in SHARED else memory.localize(v) for v in binding])


FIRST: Final = itemgetter(0)


def _place(bucket: list[Any], fact: Any) -> int:
    """Where `fact` is in a bucket of a join's index: found by its time tag, a bucket being in the order of its
    facts' tags as the facts are, but for facts put back by a move taken back (a search's), found one by one."""
    i = bisect_left(bucket, fact.time_tag, key=FIRST)
    if i < len(bucket) and bucket[i][1] is fact:
        return i
    return next(j for j, entry in enumerate(bucket) if entry[1] is fact)


class _Crowded(Exception):
    """More than MAX_ALIKE keys of a join's index hash alike."""


def _bucket(index: dict[Any, Any], alike: Counter[int], key: Any) -> list[Any]:
    """The bucket of `key` in a join's index, made if new: a file can make keys that hash alike (see
    naipes.library.limits.Budget.hashed), and each look-up of one would compare it with them all, so more than
    MAX_ALIKE of them end the index (_Crowded: the join goes over the facts, as for a key that cannot be hashed)."""
    bucket = index.get(key)
    if bucket is None:
        bucket = index[key] = []
        alike[hash(key)] += 1
        if alike[hash(key)] > MAX_ALIKE:
            raise _Crowded
    return bucket
