"""The ``phases:`` section: the game's phases in order, and the steps each runs when it is entered.

A phase is an agenda group: rules with ``phase: NAME`` are active only in it.
Written as a mapping, a phase may also say what happens on entering it::

    phases:
      deal:
        enter:
          - shuffle_the_stock: "shuffle stock"
          - deal_the_hands: "deal hand_size from stock to [p.hand for p in players]"
          - open_the_round: |
              turn = first_leader()
              goto play
      play:

The steps run in order, as one firing, as soon as the phase is entered and
before any rule of it; a step may have ``when:`` (it runs only if that holds
when its turn comes); a ``goto`` or ``end game`` in a step ends the entry.
A variant overrides or removes a step by name, like a rule.

Before each step after the first, the entry also names what may still change
in the phase: what that step, the steps after it and the rules that may fire
in the phase may write (:mod:`naipes.language.writes`). A search's world that
stops where its evaluation changed (``Game.pause_after``) then skips the
steps that could not change the evaluation again (gathering the cards, the
next dealer), as the memory decides in ``Memory.in_phase``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..errors import did_you_mean
from ..program import RuleSpec, entry_rule
from . import nodes as n
from .compiler import Unit, identifier_problem
from .loader import Map, Seq
from .rules import ReadRule
from .sections import SectionReader, located_text
from .vocabulary import PHASE_KEYS, STEP_KEYS, TURNS_KEYS
from .writes import union, unit_writes

NAME = re.compile(r"[A-Za-z]\w*\Z", re.ASCII)
ENTRY_PRIORITY = float("inf")  # entering a phase comes before every rule of it


@dataclass
class PhaseBodies:
    """What ``phases:`` says of each phase besides its name (read when the names are declared, compiled later):
    where it is named, its stages, its `turns:` and its enter steps (with where `enter:` is written), as written."""

    where: dict[str, Any] = field(default_factory=dict)
    stages: dict[str, list[str]] = field(default_factory=dict)
    turns: dict[str, Map] = field(default_factory=dict)
    steps: dict[str, tuple[Seq, Any]] = field(default_factory=dict)


class TurnOrder(NamedTuple):
    """A phase's `turns:` compiled (Phases.turn_orders): the generated names of its from, order, skip and until
    (None: not given, or wrong), whether the turn goes round once, the moves that end a turn (None: every move) and
    those the player is asked when the turn passes to him."""

    first: str | None
    order: str | None
    skip: str | None
    until: str | None
    once: bool
    after: frozenset[str] | None
    ask: tuple[str, ...]


class Phases(SectionReader):
    """Reads ``phases:`` (a list of names, or a mapping of phases with their enter steps)."""

    def phases(self) -> tuple[list[str], PhaseBodies]:
        """The names of the phases in order, and what the file says of each."""
        bodies = PhaseBodies()
        phases = self.tree.get("phases") or Seq()
        if not isinstance(phases, (Seq, Map)):
            self.error("'phases' is a list of names, or a mapping of phases (name: {enter: steps})",
                       self.tree.loc("phases"))
            return [], bodies
        names: list[str] = []
        for i, p in enumerate(phases):
            where = phases.loc(i) if isinstance(phases, Seq) else phases.key_loc(p)
            problem = None if isinstance(p, str) and NAME.match(p) else \
                f"a phase is a name (letters, digits, _), not {p!r}"
            if problem:
                self.error(problem, where)
            elif p in names:
                self.error(f"phase '{p}' is listed twice", where)
            else:
                names.append(str(p))
                bodies.where[str(p)] = where
                if isinstance(phases, Map):
                    self.phase_body(str(p), phases[p], phases.loc(p), bodies)
        return names, bodies

    def phase_body(self, name: str, body: Any, where: Any, bodies: PhaseBodies) -> None:
        if body is None:
            return
        if not isinstance(body, Map):
            self.error(f"phase '{name}' is a mapping (enter: steps, doc: text), or empty", where)
            return
        self.check_keys(body, PHASE_KEYS, f"phase '{name}'")
        stages = self.stages(name, body)
        if stages:
            bodies.stages[name] = stages
        turns = body.get("turns")
        if turns is not None:
            if isinstance(turns, Map) and "from" in turns:
                self.check_keys(turns, TURNS_KEYS, f"the turns of phase '{name}'")
                bodies.turns[name] = turns
            else:
                self.error(f"the turns of phase '{name}' are a mapping with 'from: PLAYER' (and order, skip, once, "
                           "until)", body.loc("turns"))
        steps = body.get("enter")
        if steps is None:
            return
        if not isinstance(steps, Seq):
            self.error(f"the enter steps of phase '{name}' are a list: - step_name: actions", body.loc("enter"))
            return
        bodies.steps[name] = (steps, body.key_loc("enter"))

    def stages(self, phase: str, body: Map) -> list[str]:
        """The names of a phase's stages (`stages:`), the wrong ones left out."""
        stages = body.get("stages")
        if stages is None:
            return []
        if not isinstance(stages, Seq) or not stages:
            self.error(f"the stages of phase '{phase}' are a list of names", body.loc("stages"))
            return []
        names: list[str] = []
        for i, stage in enumerate(stages):
            if not (isinstance(stage, str) and NAME.match(stage)) or stage in names:
                self.error(f"a stage is a name, once: not {stage!r}", stages.loc(i))
            else:
                names.append(str(stage))
        return names

    def turn_orders(self, phase_turns: dict[str, Map]) -> dict[str, TurnOrder]:
        """Each phase's `turns:` (as written: PhaseBodies.turns) compiled."""
        out: dict[str, TurnOrder] = {}
        if phase_turns and "turn" not in self.sym.globals:
            phase, turns = next(iter(phase_turns.items()))
            self.error(f"phase '{phase}' declares its turns: declare the state variable they set, 'turn' (the "
                       "player to move)", turns.where, "state: {turn: None}")
            return out
        for phase, turns in phase_turns.items():
            scopes: dict[str, dict[str, str | None]] = {"from": {}, "order": {}, "skip": {"player": "player"},
                                                         "until": {}}
            first, order, skip, until = [self.turn_expression(phase, turns, key, scope)
                                         for key, scope in scopes.items()]
            once = turns.get("once", False)
            if not isinstance(once, bool):
                self.error(f"'once' in the turns of phase '{phase}' is true or false", turns.loc("once"))
            after, ask = self.turn_moves(phase, turns, "after"), self.turn_moves(phase, turns, "ask")
            out[phase] = TurnOrder(first, order, skip, until, once is True, None if after is None else frozenset(after),
                                   ask or ())
        return out

    def turn_moves(self, phase: str, turns: Map, key: str) -> tuple[str, ...] | None:
        """`after: [MOVE, ...]` (the moves that end a turn in the phase) or `ask: [MOVE, ...]` (those the player
        is asked when the turn passes to him): the names of moves, in order (None: not given; a name that is not
        a move's is an error, and left out)."""
        listed = turns.get(key)
        if listed is None:
            return None
        section = self.tree.get("moves")
        moves = list(section) if isinstance(section, Map) else []
        names = listed if isinstance(listed, Seq) else [listed]
        for i, name in enumerate(names):
            if name not in moves:
                where = listed.loc(i) if isinstance(listed, Seq) else turns.loc(key)
                self.error(f"'{key}' in the turns of phase '{phase}' lists moves, and '{name}' is not one", where,
                           did_you_mean(str(name), [str(m) for m in moves]))
        return tuple(str(name) for name in names if name in moves)

    def entry_end(self, phase: str, turns: Map, ask: tuple[str, ...]) -> list[n.Stmt]:
        """The end of the entry of a phase with declared turns (`turns`, as written), once the enter steps have
        run, if the game is still in the phase: a holder of the turn whom they left one the order passes over
        (`skip`) passes it on; the player whose turn it is, if any, is asked the turns' `ask` (checked)."""
        if "skip" not in turns and not ask:
            return []
        still = n.MemoryCall("in_phase", [n.Literal(phase)])
        end: list[n.Stmt] = [n.If(n.Not(still), [n.Return(None, at=turns.where)], [], at=turns.where)]
        if "skip" in turns:
            end.append(n.Do(n.MemoryCall("settle_turns", [n.Literal(phase)]), at=turns.loc("skip")))
        return end + self.first_ask(phase, turns, ask)

    def first_ask(self, phase: str, turns: Map, ask: tuple[str, ...]) -> list[n.Stmt]:
        """The player whose turn it is, if any, is asked the turns' `ask` (at the end of the phase's entry)."""
        if not ask:
            return []
        what, at = f"'ask' of the turns of phase '{phase}'", turns.loc("ask")
        unit = self.compiler.block([located_text(f"ask turn to {', '.join(ask)}", at)], {}, what=what)
        someone = self.compiler.expression(located_text("turn is not None", at), {}, what=what)
        if unit is None or someone is None:
            return []
        return [n.If(n.Generated(self.define("phase_test", (), someone, False, what)),
                     [n.Do(n.Generated(self.define("phase_step", (), unit, True, what)), at=at)], [], at=at)]

    def turn_expression(self, phase: str, turns: Map, key: str, scope: dict[str, str | None]) -> str | None:
        if key not in turns:
            return None
        what = f"'{key}' of the turns of phase '{phase}'"
        text = self.expr_text(turns[key], turns.loc(key), what)
        unit = None if not text else self.compiler.expression(text, dict(scope), what=what)
        name: str = self.define(f"turn_{key}", tuple(scope), unit, False, what)
        return name

    def entry_rules(self, first_index: int, strategy: str, resetting: set[str], bodies: PhaseBodies,
                    turns: dict[str, TurnOrder], file_rules: list[ReadRule]) -> list[ReadRule]:
        """One rule per phase with enter steps, variables reset on entering it (`resetting`) or declared turns:
        guarded by the phase, first of all, resetting the variables, giving the first turn, then running the
        steps in order (`turns`: the turn orders compiled, Phases.turn_orders; `file_rules`: the rules of the
        file, what they may write)."""
        rules: list[ReadRule] = []
        seen: set[str] = set()
        entered = dict(bodies.steps)
        entered.update({phase: (Seq(), bodies.where.get(phase)) for phase in [*resetting, *bodies.turns]
                        if phase not in entered})
        for phase, (steps, where) in entered.items():
            calls: list[tuple[list[n.Stmt], frozenset[str] | None, Any]] = []
            for i, step in enumerate(steps):
                made = self.step(phase, step, steps.loc(i), seen)
                if made is not None:
                    calls.append((*made, steps.loc(i)))
            source: list[n.Stmt] = []
            rules_may_write = union(r.writes for r in file_rules if r.spec.phase in (None, phase))
            for i, (call, _, where_step) in enumerate(calls):
                if source:  # a goto or the end of the game in a step ends the entry
                    later = union([rules_may_write, *(writes for _, writes, _ in calls[i:])])
                    names = [] if later is None else [n.Literal(tuple(sorted(later)))]
                    still = n.MemoryCall("in_phase", [n.Literal(phase), *names])
                    source.append(n.If(n.Not(still), [n.Return(None, at=where_step)], [], at=where_step))
                source += call
            if phase in bodies.turns:
                source.insert(0, n.Do(n.MemoryCall("start_turns", [n.Literal(phase)]), at=where))
                ask = turns[phase].ask if phase in turns else ()  # (none when the turns were refused)
                source += self.entry_end(phase, bodies.turns[phase], ask)
            if phase in resetting:
                source.insert(0, n.Do(n.MemoryCall("reset_variables", [n.Literal(phase)]), at=where))
            if not source:
                continue
            source.insert(0, n.Do(n.MemoryCall("entered", [n.Literal(phase)]), at=where))  # (wakes the held rules)
            cond = self.compiler.expression(located_text("True", where), {}, what=f"entering phase '{phase}'")
            if cond is None:
                continue
            index = first_index + len(rules)
            condition = self.define("phase_when", (), cond, False, f"entering phase '{phase}'")
            action = self.define("phase_enter", (), Unit(source), True, f"entering phase '{phase}'")
            rule = RuleSpec(entry_rule(phase), index, ENTRY_PRIORITY, phase, cond.tests, (), [], condition, action,
                            ("phase", phase), where, doc=f"the enter steps of phase '{phase}'", steps=True,
                            strategy=strategy)
            rules.append(ReadRule(rule, cond, [], None))  # (what it writes: not asked)
        return rules

    def step(self, phase: str, step: Any, where: Any, seen: set[str]
             ) -> tuple[list[n.Stmt], frozenset[str] | None] | None:
        """The statements that run one step (a call of its actions, under its `when`), and what it may
        change (naipes.language.writes)."""
        if not isinstance(step, Map) or len(step) != 1:
            self.error(f"a step of phase '{phase}' is '- name: actions' (or '- name: {{when:, then:, doc:}}')", where)
            return None
        name, body = next(iter(step.items()))
        problem = identifier_problem(name, "step")
        if problem:
            self.error(problem, step.key_loc(name))
            return None
        if name in seen:
            self.error(f"two steps are named '{name}'", step.key_loc(name))
        seen.add(str(name))
        when, then, then_loc = None, body, step.loc(name)
        if isinstance(body, Map):
            self.check_keys(body, STEP_KEYS, f"step '{name}'")
            when, then, then_loc = body.get("when"), body.get("then", "pass"), body.loc("then")
        what = f"step '{name}' of phase '{phase}'"
        unit = self.compiler.block(self.texts(then, then_loc, what), {}, what=what)
        call = self.define("phase_step", (), unit, True, what)
        if unit is None:
            return None
        at = step.key_loc(name)
        run: list[n.Stmt] = [n.Do(n.MemoryCall("entering_step", [n.Literal(phase), n.Literal(str(name))]), at=at),
                             n.Do(n.Generated(call), at=at)]
        writes = unit_writes(unit, self.sym.zones)
        if when is None:
            return run, writes
        text = self.expr_text(when, body.loc("when"), f"the condition of {what}")
        cond = None if not text else self.compiler.expression(text, {}, what=f"the condition of {what}")
        test = self.define("phase_test", (), cond, False, f"the condition of {what}")
        if cond is None:
            return None
        return [n.If(n.Generated(test), run, [], at=body.loc("when"))], writes

