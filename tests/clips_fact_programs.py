"""Random small programs over facts, written both in the rule language and in CLIPS, run on both engines side by
side with the whole agenda compared at every firing (issue 36).

Used by tests/test_clips_differential.py. A program has two or three kinds of fact (CLIPS's templates) with the
fields x and y (values 0-2), a few facts asserted at the start (an assertion that repeats one is part of it),
maybe two or three phases, and a few rules: salience 0-2 (ties are common), zero to three `for:` variables over
the kinds (self-joins included), comparisons of their fields, `exists` / `not exists` lookups (CLIPS's exists and
not CEs), and one or two of assert, retract and modify (which may change nothing, or make a duplicate), maybe a
`goto` last. The translation keeps each rule meaning the same thing in both engines:

* a `for:` variable is a pattern binding every field to a variable of its own (`?v0 <- (a (x ?v0_x) (y ?v0_y))`),
  its comparisons one `test` CE, a lookup a `not` or `exists` CE with the fields as constraints;
* a phase is a control fact, the first pattern of its rules; `goto` retracts it and asserts the new one;
* the conditions' complexity (simplicity, complexity, and the tie-break of LEX and MEA) is made equal: CLIPS counts
  a pattern and each test in it, Naipes each test of the condition and each variable; the side that counts fewer
  gets tests that always hold;
* a rule that binds no fact starts, in CLIPS, with a fact of its own asserted after the start's facts (Naipes makes
  such activations at the start, after the facts; a new binding is as old as its newest fact in both). Under LEX
  and MEA, where that fact would count as data, rules start without it; MEA's first pattern is the phase, or for a
  rule without one a fact asserted before all others (Naipes: no first datum, which MEA places after the others).

Both engines run until nothing is pending (or FIRING_LIMIT firings). Before each firing the pending activations
are compared, by rule and the facts they bind: the same ones, and CLIPS's order must be Naipes's up to Naipes's
ties (Agenda.key: the activations that CLIPS leaves in an order of its implementation, made by one assertion or
retraction, and under random every activation of a salience). CLIPS fires its first; Naipes must have it among its
first tie, and fires it (Agenda.take). The facts are compared after each firing.
"""
from __future__ import annotations

import random
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clips_programs import clips_environment, rule_head

STRATEGIES = ("depth", "breadth", "simplicity", "complexity", "lex", "mea", "random")
FIRING_LIMIT = 40
FIELDS = ("x", "y")
OPERATORS = {"==": "=", "!=": "<>", "<": "<", ">": ">", "<=": "<=", ">=": ">="}
FIN_PRIORITY = -1000


# ------------------------------------------------------------------ programs
# an operand: ("int", n) | ("field", variable, field); a value written: an operand, or ("next", operand, n): (operand
# + n) % 3
@dataclass
class Rule:
    name: str
    salience: int
    phase: str | None
    variables: list[tuple[str, str]]  # (variable, kind)
    tests: list[tuple[str, tuple, tuple]]  # (operator, left operand, right operand)
    lookups: list[tuple[bool, str, dict[str, tuple]]]  # (negated, kind, field -> operand)
    actions: list[tuple]  # ("assert", kind, {field: value}) | ("retract", var) | ("modify", var, {field: value})
    # | ("goto", phase)
    naipes_padding: int = 0  # tests that always hold, to count as many as CLIPS
    clips_padding: int = 0


@dataclass
class Program:
    strategy: str
    kinds: list[str]
    facts: list[tuple[str, tuple[int, int]]]  # asserted at the start, in order
    phases: list[str]
    rules: list[Rule] = field(default_factory=list)

    # -------------------------------------------------------- the rule file
    def naipes_yaml(self) -> str:
        lines = ["game: facts_differential", f"max_firings: {FIRING_LIMIT + 10}", f"strategy: {self.strategy}"]
        if self.phases:
            lines.append(f"phases: [{', '.join(self.phases)}]")
        lines.append("facts:")
        lines += [f"  {kind}: [{', '.join(FIELDS)}]" for kind in self.kinds]
        lines.append("setup: |")
        lines += [f"  assert {kind}(x={x}, y={y})" for kind, (x, y) in self.facts] or ["  pass"]
        lines.append("rules:")
        for rule in self.rules:
            lines += rule_head(rule)
            if rule.variables:
                lines.append(f"    for: [{', '.join(repr(f'{v} in {k}') for v, k in rule.variables)}]")
            tests = [naipes_test(t) for t in rule.tests] + [naipes_lookup(look) for look in rule.lookups] + \
                ["(1 > 0)"] * rule.naipes_padding
            lines.append(f'    when: "{" and ".join(tests) or "True"}"')
            lines.append("    then: |")
            lines += [f"      {action_text(a, False)}" for a in rule.actions]
        lines += ["  - name: fin", f"    priority: {FIN_PRIORITY}", '    then: "end game"']
        return "\n".join(lines) + "\n"

    # -------------------------------------------------------- CLIPS
    def starts(self, rule: Rule) -> bool:
        """Whether the rule has a start fact of its own (see the module's doc)."""
        return not rule.variables and self.strategy not in ("lex", "mea")

    def first_patterns(self, rule: Rule) -> list[str]:
        """The patterns before the rule's variables (its start fact, its phase or MEA's padding)."""
        found = [f"(go-{rule.name})"] if self.starts(rule) else []
        if rule.phase:
            found.append(f"(phase-{rule.phase})")
        elif self.strategy == "mea":
            found.append("(pad)")
        return found

    def clips_constructs(self) -> list[str]:
        out = ["(deftemplate pad)"] + [f"(deftemplate {kind} (slot x) (slot y))" for kind in self.kinds]
        out += [f"(deftemplate go-{rule.name})" for rule in self.rules if self.starts(rule)]
        out += [f"(deftemplate phase-{phase})" for phase in self.phases]
        templates = " ".join(f"phase-{p}" for p in self.phases)
        for phase in self.phases:
            out.append(f"(deffunction goto-{phase} () (if (not (any-factp ((?p phase-{phase})) TRUE)) then "
                       f"(do-for-all-facts ((?p {templates})) TRUE (retract ?p)) (assert (phase-{phase}))))")
        for rule in self.rules:
            ces = self.first_patterns(rule)
            ces += [f"?{v} <- ({kind} (x ?{v}_x) (y ?{v}_y))" for v, kind in rule.variables]
            tests = [clips_test(t) for t in rule.tests] + ["(> 2 1)"] * rule.clips_padding
            if tests:  # (before the lookups: after a `not` CE, CLIPS counts no test in the complexity)
                ces.append(f"(test {tests[0]})" if len(tests) == 1 else f"(test (and {' '.join(tests)}))")
            ces += [clips_lookup(look) for look in rule.lookups]
            out.append(f"(defrule {rule.name} (declare (salience {rule.salience})) {' '.join(ces)} => "
                       f"{' '.join(action_text(a, True) for a in rule.actions)})")
        return out

    def clips_facts(self) -> list[str]:
        """What CLIPS is given at the start, in order: the padding fact, the phase, the start's facts, then the
        start facts of the rules that have one."""
        facts = ["(pad)"] + ([f"(phase-{self.phases[0]})"] if self.phases else [])
        facts += [f"({kind} (x {x}) (y {y}))" for kind, (x, y) in self.facts]
        return facts + [f"(go-{rule.name})" for rule in self.rules if self.starts(rule)]

    def balance(self) -> None:
        """Make each rule's complexity the same in both engines (see the module's doc): Naipes counts each test of
        the condition (`True` is one) and each variable; CLIPS each pattern (`not` and `exists` CEs too), each
        constraint in it and each comparison of the `test` CE."""
        for rule in self.rules:
            leaves = len(rule.tests) + len(rule.lookups)
            naipes = max(leaves, 1) + len(rule.variables)
            clips = len(self.first_patterns(rule)) + len(rule.variables) + len(rule.tests) + \
                sum(1 + len(fields) for _, _, fields in rule.lookups)
            if naipes < clips:
                rule.naipes_padding = clips - len(rule.variables) - leaves
            else:
                rule.clips_padding = naipes - clips


def operand_text(operand: tuple, clips: bool) -> str:
    if operand[0] == "int":
        return str(operand[1])
    if operand[0] == "field":
        return f"?{operand[1]}_{operand[2]}" if clips else f"{operand[1]}.{operand[2]}"
    inner = operand_text(operand[1], clips)
    return f"(mod (+ {inner} {operand[2]}) 3)" if clips else f"({inner} + {operand[2]}) % 3"


def naipes_test(test: tuple) -> str:
    return f"{operand_text(test[1], False)} {test[0]} {operand_text(test[2], False)}"


def clips_test(test: tuple) -> str:
    return f"({OPERATORS[test[0]]} {operand_text(test[1], True)} {operand_text(test[2], True)})"


def naipes_lookup(lookup: tuple) -> str:
    negated, kind, fields = lookup
    given = ", ".join(f"{name}={operand_text(value, False)}" for name, value in fields.items())
    return f"{'not ' if negated else ''}exists({kind}{', ' if given else ''}{given})"


def clips_lookup(lookup: tuple) -> str:
    negated, kind, fields = lookup
    pattern = f"({kind}{''.join(f' ({name} {operand_text(value, True)})' for name, value in fields.items())})"
    return f"({'not' if negated else 'exists'} {pattern})"


def action_text(action: tuple, clips: bool) -> str:
    """An action in the rule language, or in CLIPS (`clips`)."""
    kind, target = action[0], action[1]
    if kind in ("assert", "modify"):
        if clips:
            values = " ".join(f"({name} {operand_text(value, True)})" for name, value in action[2].items())
            return f"(assert ({target} {values}))" if kind == "assert" else f"(modify ?{target} {values})"
        values = ", ".join(f"{name}={operand_text(value, False)}" for name, value in action[2].items())
        return f"{kind} {target}({values})"
    if kind == "retract":
        return f"(retract ?{target})" if clips else f"retract {target}"
    return f"(goto-{target})" if clips else f"goto {target}"


# ------------------------------------------------------------------ generating
def generate(rng: random.Random, strategy: str) -> Program:
    kinds = ["a", "b", "c"][:rng.choice((2, 3))]
    facts = [(rng.choice(kinds), (rng.randrange(3), rng.randrange(3))) for _ in range(rng.randint(2, 6))]
    if rng.random() < 0.3:  # an assertion that repeats one made before (CLIPS and Naipes add nothing)
        facts.append(rng.choice(facts))
    phases = ["p", "q", "s"][:rng.choice((0, 0, 2, 3))]
    program = Program(strategy, kinds, facts, phases)
    for i in range(rng.randint(3, 6)):
        program.rules.append(_rule(rng, f"r{i}", kinds, phases))
    program.balance()
    return program


def _rule(rng: random.Random, name: str, kinds: list[str], phases: list[str]) -> Rule:
    count = rng.choices((0, 1, 2, 3), (3, 8, 6, 3))[0]
    variables = [(f"v{i}", rng.choice(kinds)) for i in range(count)]
    fields = [("field", v, f) for v, _ in variables for f in FIELDS]
    tests = []
    for _ in range(rng.choice((0, 1, 1, 2, 3)) if variables else 0):
        left = rng.choice(fields)
        right = rng.choice([f for f in fields if f != left] + [("int", rng.randrange(3))] * 2)
        tests.append((rng.choice(list(OPERATORS)), left, right))
    lookups = []
    for kind in rng.sample(kinds, rng.choice((0, 0, 1, 1, 2)) if variables else rng.choice((1, 1, 2))):
        given = {f: rng.choice(fields + [("int", rng.randrange(3))] * 2) for f in FIELDS if rng.random() < 0.6}
        lookups.append((rng.random() < 0.6, kind, given))
    actions: list[tuple] = []
    for _ in range(rng.choice((1, 1, 2))):  # (one retract or modify at most: variables may bind the same fact)
        roll = rng.random()
        if variables and roll < 0.25 and not any(a[0] != "assert" for a in actions):
            actions.append(("retract", rng.choice(variables)[0]))
        elif variables and roll < 0.6 and not any(a[0] != "assert" for a in actions):
            changed = rng.sample(FIELDS, rng.choice((1, 1, 2)))
            actions.append(("modify", rng.choice(variables)[0], {f: _value(rng, fields) for f in changed}))
        else:
            actions.append(("assert", rng.choice(kinds), {f: _value(rng, fields) for f in FIELDS}))
    if phases and rng.random() < 0.35:
        actions.append(("goto", rng.choice(phases)))
    phase = rng.choice(phases) if phases and rng.random() < 0.6 else None
    return Rule(name, rng.choice((0, 0, 1, 2)), phase, variables, tests, lookups, actions)


def _value(rng: random.Random, fields: list[tuple]) -> tuple:
    """A value to write: a number, a bound field, or a bound field moved on by 1 or 2 (mod 3)."""
    roll = rng.random()
    if roll < 0.4 or not fields:
        return ("int", rng.randrange(3))
    if roll < 0.7:
        return rng.choice(fields)
    return ("next", rng.choice(fields), rng.choice((1, 2)))


# ------------------------------------------------------------------ running side by side
@dataclass
class Outcome:
    compared: int  # firings compared (each with the whole agenda before it)
    pending: int  # activations compared, over those firings
    ties: int  # firings where Naipes followed CLIPS's choice within a tie of its own
    divergence: str | None


class Naipes:
    """A game of the program, fired one chosen activation at a time."""

    def __init__(self, program: Program):
        from naipes import load_program
        from naipes.runtime.game import Game
        with tempfile.TemporaryDirectory(prefix="naipes-facts-") as tmp:
            path = Path(tmp) / "program.yaml"
            path.write_text(program.naipes_yaml())
            compiled = load_program(path)
        self.kinds = program.kinds
        self.game = game = Game(compiled, 0)
        memory = game.memory
        memory.refuel()
        with compiled.located():
            compiled.setup(memory, memory.vars)
            game.agenda.start(memory)

    def agenda(self) -> list[tuple[tuple, tuple]]:
        """The pending activations (but `fin`) in firing order: (Agenda.key, identity)."""
        return [(key, identity(act)) for key, act in self.game.agenda.conflict_set() if act.rule.name != "fin"]

    def fire(self, chosen: tuple) -> None:
        from naipes.runtime.agenda import memory_local
        game = self.game
        act = next(act for _, act in game.agenda.conflict_set() if identity(act) == chosen)
        game.agenda.take(act)
        memory = game.memory
        memory.refuel()
        with game.program.located():
            act.action(memory, memory.vars, *memory_local(memory, act.binding))
            game.agenda.update(memory)

    def facts(self) -> dict[str, list]:
        V = self.game.memory.vars
        return {kind: sorted(tuple(f) for f in V[kind]) for kind in self.kinds}


def identity(act: Any) -> tuple:
    """An activation as both engines can name it: its rule and the facts it binds, by kind and values."""
    return (act.rule.name, tuple((fact.kind, tuple(fact)) for fact in act.binding))


class Clips:
    def __init__(self, program: Program, strategy: str | None = None):
        self.program = program
        self.env = clips_environment(program, strategy or program.strategy)
        self.offsets = {rule.name: (len(program.first_patterns(rule)), len(rule.variables)) for rule in program.rules}

    def agenda(self) -> list[tuple]:
        facts = {fact.index: fact for fact in self.env.facts()}
        found = []
        for activation in self.env.activations():
            text = str(activation)
            name, basis = text.split(":", 1)[0].split()[-1], text.split(":", 1)[1].strip().split(",")
            start, count = self.offsets[name]
            bound = []
            for item in basis[start:start + count]:
                fact = facts[int(item.strip()[2:])]
                bound.append((fact.template.name, (fact["x"], fact["y"])))
            found.append((name, tuple(bound)))
        return found

    def fire(self) -> None:
        self.env.run(1)

    def facts(self) -> dict[str, list]:
        found: dict[str, list] = {kind: [] for kind in self.program.kinds}
        for fact in self.env.facts():
            if fact.template.name in found:
                found[fact.template.name].append((fact["x"], fact["y"]))
        return {kind: sorted(values) for kind, values in found.items()}


def compare(program: Program, clips_strategy: str | None = None) -> Outcome:
    """Run the program on both engines side by side (`clips_strategy`: CLIPS's, if not the program's: to show that
    the comparison tells strategies apart)."""
    naipes, clips = Naipes(program), Clips(program, clips_strategy)
    compared = pending = ties = 0
    random_order = program.strategy == "random"

    def outcome(divergence: str | None = None) -> Outcome:
        return Outcome(compared, pending, ties, divergence)
    while True:
        ours, theirs = naipes.agenda(), clips.agenda()
        if sorted(identity for _, identity in ours) != sorted(theirs):
            return outcome(f"before firing {compared + 1}, pending: Naipes {_names(i for _, i in ours)}, "
                           f"CLIPS {_names(theirs)}")
        group = {identity: key[:1] if random_order else key[:2] for key, identity in ours}
        order = [group[identity] for identity in theirs]
        if order != sorted(order):
            return outcome(f"before firing {compared + 1}, the order: Naipes {_names(i for _, i in ours)}, "
                           f"CLIPS {_names(theirs)} (Naipes's keys {[key for key, _ in ours]})")
        pending += len(theirs)
        if not theirs or compared == FIRING_LIMIT:
            return outcome()
        chosen = theirs[0]
        if chosen != ours[0][1]:
            ties += 1
        clips.fire()
        naipes.fire(chosen)
        compared += 1
        if naipes.facts() != clips.facts():
            return outcome(f"after firing {compared} ({chosen[0]}), the facts: Naipes {naipes.facts()}, "
                           f"CLIPS {clips.facts()}")


def _names(identities: Any) -> list[str]:
    return [f"{name}{list(bound)}" if bound else name for name, bound in identities]


def describe(program: Program) -> str:
    """Both texts of a program, for a failure message."""
    return ("Naipes:\n" + textwrap.indent(program.naipes_yaml(), "  ") + "CLIPS:\n" +
            textwrap.indent("\n".join(program.clips_constructs()) + "\n" + " ".join(program.clips_facts()), "  "))
