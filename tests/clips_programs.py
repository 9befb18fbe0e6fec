"""Random small rule programs, written both in the rule language and in CLIPS, and run on both engines.

Used by tests/test_clips_differential.py (issue 14: does the agenda behave as CLIPS's does?).

A program has a few integer variables, a few rules (salience, maybe a phase, a condition of one to three
comparisons joined by and/or/not, one or two writes, maybe a goto or a refresh) and a conflict-resolution
strategy. The translation keeps each rule meaning the same thing in both engines:

* a variable is a fact of its own template, ``(x0 (v 3))``; a condition reads a variable through a pattern on
  its fact (``(x0 (v ?x0))``) and tests it in one ``test`` CE, so a rule is re-matched exactly when a variable
  its condition reads changes — Naipes's read sets. A write is ``modify`` of that fact, done by a deffunction
  that finds the fact, so writing a variable does not make the rule read it; actions read current values the
  same way (Naipes's actions are sequential: ``x = 1`` then ``y = x`` gives y 1). CLIPS 6.4's ``modify``
  with unchanged slots does nothing, as a Naipes write of the value a variable already has.
* a player variable is a fact per player, ``(s0 (p 1) (v 2))``, and a rule with ``for: p in players`` joins
  ``(player (p ?p))`` with the facts of ``p`` it reads (depth and breadth programs only: the join's tests would
  count in CLIPS's complexity, the bound variable does in Naipes's specificity);
* a phase is a fact of its own template, present while the phase is current (the control-fact idiom: not
  CLIPS's modules and focus, see docs/engine.md); ``goto`` retracts it and asserts the new one, unless it is
  already the phase.
* CLIPS's complexity counts one per pattern besides the tests, Naipes's specificity counts the condition's
  tests only: every rule gets the same number of patterns (padding with a fact that never changes), so the
  two orders compare.
* Naipes starts by evaluating every rule at once, so its first activations tie and go in declaration order;
  CLIPS has no such moment (activations made by one assertion are in an order it leaves to its implementation).
  Every rule has a start pattern of its own, ``(go-r0)`` (``(go-r0 (p ?p))`` over the players), and the start
  facts are asserted last, one by one, in the order that makes CLIPS's first activations go as Naipes's
  (declaration then binding order: the first is the newest under depth, the oldest under the others), so that
  what follows the start can be compared.

Where CLIPS leaves the order to its implementation (activations made by one assertion; with simplicity or
complexity, rules of equal complexity, ordered by age in CLIPS and by declaration in Naipes), Naipes breaks the
tie by declaration order. `compare` checks every firing: the rule CLIPS fires must be the one Naipes fires, or,
where Naipes's choice was such a tie, one of the tied rules; if CLIPS took another of them the runs part
legitimately and the comparison of that program stops there (counted as a tie).
"""
from __future__ import annotations

import random
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Strategies whose order CLIPS defines the same way as Naipes: Naipes name -> CLIPS name.
STRATEGIES = {"depth": "depth", "breadth": "breadth", "simplicity": "simplicity", "specificity": "complexity"}
FIRING_LIMIT = 40  # a program that does not settle is compared over its first firings
FIN_PRIORITY = -1000
COMPARISONS = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "=", "!=": "<>"}


# ------------------------------------------------------------------ expressions (tuples, rendered twice)
# ("var", name) | ("pvar", attr): p.attr | ("int", n) | ("add", a, b) | ("cmp", op, a, b) | ("and"/"or", [c...])
# | ("not", c)
def naipes_text(e: tuple) -> str:
    kind = e[0]
    if kind == "var":
        return e[1]
    if kind == "pvar":
        return f"p.{e[1]}"
    if kind == "int":
        return str(e[1])
    if kind == "add":
        return f"{naipes_text(e[1])} + {naipes_text(e[2])}" if e[2][0] != "int" or e[2][1] >= 0 else \
            f"{naipes_text(e[1])} - {-e[2][1]}"
    if kind == "cmp":
        return f"{naipes_text(e[2])} {e[1]} {naipes_text(e[3])}"
    if kind == "not":
        return f"not ({naipes_text(e[1])})"
    return f" {kind} ".join(f"({naipes_text(c)})" for c in e[1])


def clips_text(e: tuple, in_action: bool) -> str:
    """In a condition a variable is its pattern's variable; in an action, its current value."""
    kind = e[0]
    if kind == "var":
        return f"(val-{e[1]})" if in_action else f"?{e[1]}"
    if kind == "pvar":
        return f"(pval-{e[1]} ?p)" if in_action else f"?p_{e[1]}"
    if kind == "int":
        return str(e[1])
    if kind == "add":
        return f"(+ {clips_text(e[1], in_action)} {clips_text(e[2], in_action)})"
    if kind == "cmp":
        return f"({COMPARISONS[e[1]]} {clips_text(e[2], in_action)} {clips_text(e[3], in_action)})"
    if kind == "not":
        return f"(not {clips_text(e[1], in_action)})"
    return f"({kind} " + " ".join(clips_text(c, in_action) for c in e[1]) + ")"


def variables_of(e: tuple, kind: str = "var") -> set[str]:
    """The global variables (`kind` "var") or the attributes of p ("pvar") that `e` reads."""
    if e[0] in ("var", "pvar"):
        return {e[1]} if e[0] == kind else set()
    if e[0] == "int":
        return set()
    parts = e[1] if e[0] in ("and", "or") else e[1:]
    return set().union(*(variables_of(c, kind) for c in parts if isinstance(c, tuple)))


def tests_of(e: tuple) -> int:
    """Atomic tests, as both engines count them (and/or/not add nothing, their arguments do)."""
    if e[0] in ("and", "or"):
        return sum(tests_of(c) for c in e[1])
    if e[0] == "not":
        return tests_of(e[1])
    return 1


# ------------------------------------------------------------------ programs
@dataclass
class Rule:
    name: str
    salience: int
    phase: str | None
    condition: tuple
    actions: list[tuple]  # ("set", var, expr) | ("pset", attr, expr): p.attr = | ("kset", k, attr, expr):
    # players[k].attr = | ("goto", phase) | ("refresh", rule)
    each_player: bool = False  # for: p in players


@dataclass
class Program:
    strategy: str
    variables: dict[str, int]
    phases: list[str]
    rules: list[Rule] = field(default_factory=list)
    players: int = 0
    player_variables: dict[str, tuple[int, int]] = field(default_factory=dict)  # (a, b): (index * a + b) % 4

    def player_value(self, attr: str, index: int) -> int:
        a, b = self.player_variables[attr]
        return (index * a + b) % 4

    def naipes_yaml(self) -> str:
        lines = ["game: differential", f"max_firings: {FIRING_LIMIT}", f"strategy: {self.strategy}"]
        if self.phases:
            lines.append(f"phases: [{', '.join(self.phases)}]")
        lines.append("state:")
        lines += [f"  {name}: {value}" for name, value in self.variables.items()]
        if self.players:
            lines += [f"players: {self.players}", "player_state:"]
            lines += [f'  {attr}: "(player.index * {a} + {b}) % 4"' for attr, (a, b) in self.player_variables.items()]
        lines.append("rules:")
        for rule in self.rules:
            lines += rule_head(rule)
            if rule.each_player:
                lines.append('    for: "p in players"')
            lines.append(f'    when: "{naipes_text(rule.condition)}"')
            lines.append("    then: |")
            lines += [f"      {naipes_action(a)}" for a in rule.actions]
        lines += ["  - name: fin", f"    priority: {FIN_PRIORITY}", '    when: "True"', '    then: "end game"']
        return "\n".join(lines) + "\n"

    def clips_constructs(self) -> list[str]:
        """deftemplates, deffunctions and defrules, in the order they must be built."""
        out = ["(deftemplate pad)"] + [f"(deftemplate go-{rule.name}{' (slot p)' if rule.each_player else ''})"
                                       for rule in self.rules]
        for name in self.variables:
            out.append(f"(deftemplate {name} (slot v))")
            out.append(f"(deffunction val-{name} () (fact-slot-value (nth$ 1 (find-fact ((?f {name})) TRUE)) v))")
            out.append(f"(deffunction set-{name} (?n) (modify (nth$ 1 (find-fact ((?f {name})) TRUE)) (v ?n)))")
        if self.players:
            out.append("(deftemplate player (slot p))")
        for attr in self.player_variables:
            out.append(f"(deftemplate {attr} (slot p) (slot v))")
            find = f"(nth$ 1 (find-fact ((?f {attr})) (= ?f:p ?p)))"
            out.append(f"(deffunction pval-{attr} (?p) (fact-slot-value {find} v))")
            out.append(f"(deffunction pset-{attr} (?p ?n) (modify {find} (v ?n)))")
        for phase in self.phases:
            out.append(f"(deftemplate phase-{phase})")
        templates = " ".join(f"phase-{p}" for p in self.phases)
        for phase in self.phases:
            out.append(f"(deffunction goto-{phase} () (if (not (any-factp ((?p phase-{phase})) TRUE)) then "
                       f"(do-for-all-facts ((?p {templates})) TRUE (retract ?p)) (assert (phase-{phase}))))")
        for rule in self.rules:
            reads = sorted(variables_of(rule.condition))
            patterns = [f"(go-{rule.name}{' (p ?p)' if rule.each_player else ''})",
                        f"(phase-{rule.phase})" if rule.phase else "(pad)"]
            if rule.each_player:
                patterns.append("(player (p ?p))")
                patterns += [f"({attr} (p ?p) (v ?p_{attr}))" for attr in sorted(variables_of(rule.condition, "pvar"))]
            patterns += [f"({name} (v ?{name}))" for name in reads]
            patterns += ["(pad)"] * (len(self.variables) - len(reads))
            body = " ".join(clips_action(a) for a in rule.actions)
            out.append(f"(defrule {rule.name} (declare (salience {rule.salience})) {' '.join(patterns)} "
                       f"(test {clips_text(rule.condition, False)}) => "
                       f"(note {rule.name}{' ?p' if rule.each_player else ''}) {body})")
        return out

    def clips_facts(self) -> list[str]:
        facts = ["(pad)"] + [f"({name} (v {value}))" for name, value in self.variables.items()]
        facts += [f"(player (p {i}))" for i in range(self.players)]
        facts += [f"({attr} (p {i}) (v {self.player_value(attr, i)}))" for attr in self.player_variables
                  for i in range(self.players)]
        if self.phases:
            facts.append(f"(phase-{self.phases[0]})")
        starts = [f"(go-{rule.name} (p {i}))" if rule.each_player else f"(go-{rule.name})"
                  for rule in self.rules for i in range(self.players if rule.each_player else 1)]
        return facts + (starts[::-1] if self.strategy == "depth" else starts)


def rule_head(rule: Any) -> list[str]:
    """A rule's first lines in a rule file: its name, its priority, its phase."""
    head = [f"  - name: {rule.name}", f"    priority: {rule.salience}"]
    return head + [f"    phase: {rule.phase}"] if rule.phase else head


def naipes_action(action: tuple) -> str:
    if action[0] == "set":
        return f"{action[1]} = {naipes_text(action[2])}"
    if action[0] == "pset":
        return f"p.{action[1]} = {naipes_text(action[2])}"
    if action[0] == "kset":
        return f"players[{action[1]}].{action[2]} = {naipes_text(action[3])}"
    return f"{action[0]} {action[1]}"


def clips_action(action: tuple) -> str:
    if action[0] == "set":
        return f"(set-{action[1]} {clips_text(action[2], True)})"
    if action[0] == "pset":
        return f"(pset-{action[1]} ?p {clips_text(action[2], True)})"
    if action[0] == "kset":
        return f"(pset-{action[2]} {action[1]} {clips_text(action[3], True)})"
    if action[0] == "goto":
        return f"(goto-{action[1]})"
    return f"(refresh {action[1]})"


def generate(rng: random.Random, strategy: str) -> Program:
    """One small random program: 2-4 variables with values 0-3, 4-8 rules, saliences 0-2, maybe 2-3 phases, and
    in depth and breadth programs maybe 2-3 players with one or two variables each."""
    names = [f"x{i}" for i in range(rng.randint(2, 4))]
    phases = ["a", "b", "c"][:rng.choice((0, 0, 2, 3))]
    program = Program(strategy, {n: rng.randint(0, 3) for n in names}, phases)
    if strategy in ("depth", "breadth") and rng.random() < 0.5:
        program.players = rng.randint(2, 3)
        program.player_variables = {f"s{i}": (rng.randint(0, 3), rng.randint(0, 3)) for i in range(rng.randint(1, 2))}
    rule_names = [f"r{i}" for i in range(rng.randint(4, 8))]
    for name in rule_names:
        each = bool(program.players) and rng.random() < 0.5
        leaves = [("var", n) for n in names] + [("pvar", a) for a in program.player_variables if each]
        actions = [_write(rng, program, leaves, each) for _ in range(rng.choice((1, 1, 2)))]
        if phases and rng.random() < 0.3:
            actions.append(("goto", rng.choice(phases)))
        if rng.random() < 0.2:
            actions.append(("refresh", rng.choice(rule_names)))
        phase = rng.choice(phases) if phases and rng.random() < 0.6 else None
        program.rules.append(Rule(name, rng.choice((0, 0, 0, 1, 2)), phase, _condition(rng, leaves), actions, each))
    return program


def _write(rng: random.Random, program: Program, leaves: list[tuple], each: bool) -> tuple:
    """x = v, or p.s = v in a rule over the players, or players[k].s = v."""
    roll = rng.random()
    value = _value(rng, leaves)
    if each and roll < 0.5:
        return ("pset", rng.choice(list(program.player_variables)), value)
    if program.players and roll > 0.8:
        return ("kset", rng.randrange(program.players), rng.choice(list(program.player_variables)), value)
    return ("set", rng.choice(list(program.variables)), value)


def _operand(rng: random.Random, leaves: list[tuple]) -> tuple:
    return rng.choice(leaves) if rng.random() < 0.3 else ("int", rng.randint(0, 3))


def _comparison(rng: random.Random, leaves: list[tuple]) -> tuple:
    return ("cmp", rng.choice(list(COMPARISONS)), rng.choice(leaves), _operand(rng, leaves))


def _condition(rng: random.Random, leaves: list[tuple]) -> tuple:
    atoms = [_comparison(rng, leaves) for _ in range(rng.choice((1, 1, 2, 2, 3)))]
    atoms = [("not", a) if rng.random() < 0.15 else a for a in atoms]
    if len(atoms) == 1:
        return atoms[0]
    if len(atoms) == 3 and rng.random() < 0.5:
        return (rng.choice(("and", "or")), [atoms[0], (rng.choice(("and", "or")), atoms[1:])])
    return (rng.choice(("and", "and", "or")), atoms)


def _value(rng: random.Random, leaves: list[tuple]) -> tuple:
    roll = rng.random()
    if roll < 0.4:
        return ("int", rng.randint(0, 3))
    if roll < 0.8:
        return ("add", rng.choice(leaves), ("int", rng.choice((-1, 1, 2))))
    return ("add", rng.choice(leaves), rng.choice(leaves))


# ------------------------------------------------------------------ running
@dataclass
class Run:
    fired: list[str]
    ties: list[set[str]]  # Naipes only: the rules tied with the winner where the order is CLIPS's own business
    final: dict[str, Any]
    decided: list[bool] = field(default_factory=list)  # Naipes only: did the strategy choose among rules of
    # the winner's salience (more than one pending, the winner alone first by the strategy's term)?


def run_naipes(program: Program) -> Run:
    """Run the program on Naipes; each firing's tie set is read from the agenda before the winner is taken."""
    from naipes import load_program
    from naipes.errors import GameError
    from naipes.runtime.game import Game
    with tempfile.TemporaryDirectory(prefix="naipes-diff-") as tmp:
        path = Path(tmp) / "program.yaml"
        path.write_text(program.naipes_yaml())
        compiled = load_program(path)
    game = Game(compiled, 0)
    fired: list[str] = []
    ties: list[set[str]] = []
    decided: list[bool] = []

    def listen(record: dict) -> None:
        if record["type"] == "fire" and record["rule"] != "fin":
            player = record["binding"].get("p")
            fired.append(record["rule"] + (f"[{player}]" if player else ""))
            tied, rivals = tied_with_winner(game.agenda)
            ties.append(tied)
            decided.append(len(tied) == 1 and rivals > 1)
    game.listeners.append(listen)
    try:
        game.start()
    except GameError as error:  # the firing limit: compare the firings made until then
        if "runaway" not in str(error):
            raise
    return Run(fired[:FIRING_LIMIT], ties[:FIRING_LIMIT], current_values(program, game.memory),
               decided[:FIRING_LIMIT])


def tied_with_winner(agenda: Any) -> tuple[set[str], int]:
    """The rules whose pending activations sort level with the winner up to the strategy's term, and how many
    pending activations have the winner's salience."""
    live = agenda.conflict_set()
    best = min(order[:2] for order, _ in live)
    return {activation_name(act) for order, act in live if order[:2] == best}, \
        sum(order[0] == best[0] for order, _ in live)


def activation_name(act: Any) -> str:
    """`r3`, or `r3[P2]` for an activation of a rule over the players: as `note` names CLIPS's firings."""
    return act.rule.name + (f"[{act.binding[0].name}]" if act.binding else "")


def current_values(program: Program, memory: Any) -> dict[str, Any]:
    out = {name: memory.vars[name] for name in program.variables}
    if program.phases:
        out["phase"] = memory.vars["phase"]
    for player in memory.players:
        out.update({f"{attr}[{player.name}]": getattr(player, attr) for attr in program.player_variables})
    return out


def clips_environment(program: Any, strategy: str, functions: dict[str, Any] | None = None) -> Any:
    """A CLIPS environment with the program's constructs (and `functions`, Python functions by name), reset under
    `strategy`, with the program's facts asserted in order."""
    import clips
    env = clips.Environment()
    for name, function in (functions or {}).items():
        env.define_function(function, name)
    for construct in program.clips_constructs():
        env.build(construct)
    env.eval(f"(set-strategy {strategy})")
    env.reset()
    for fact in program.clips_facts():
        env.assert_string(fact)
    return env


def run_clips(program: Program) -> Run:
    fired: list[str] = []
    env = clips_environment(program, STRATEGIES[program.strategy],
                            {"note": lambda name, *player: fired.append(str(name) +
                                                                        "".join(f"[P{p + 1}]" for p in player))})
    env.run(FIRING_LIMIT)
    final: dict[str, Any] = {}
    for fact in env.facts():
        template = fact.template.name
        if template in program.variables:
            final[template] = fact["v"]
        elif template in program.player_variables:
            final[f"{template}[P{fact['p'] + 1}]"] = fact["v"]
        elif template.startswith("phase-"):
            final["phase"] = template[len("phase-"):]
    return Run(fired, [], final)


@dataclass
class Outcome:
    compared: int  # firings checked
    by_strategy: int  # of them, firings Naipes's strategy decided among rules of equal salience
    parted_at_tie: bool  # CLIPS took another rule of a tie Naipes broke by declaration order
    divergence: str | None  # a real difference, explained


def compare(program: Program) -> Outcome:
    naipes, clips_run = run_naipes(program), run_clips(program)

    def outcome(compared: int, parted: bool = False, divergence: str | None = None) -> Outcome:
        return Outcome(compared, sum(naipes.decided[:compared]), parted, divergence)
    for step, (ours, theirs) in enumerate(zip(naipes.fired, clips_run.fired)):
        if ours != theirs:
            if theirs in naipes.ties[step]:
                return outcome(step, parted=True)
            return outcome(step, divergence=f"firing {step + 1}: Naipes fired {ours}, CLIPS {theirs} "
                                            f"(Naipes's tie set {sorted(naipes.ties[step])})")
    compared = min(len(naipes.fired), len(clips_run.fired))
    if len(naipes.fired) != len(clips_run.fired):
        longer, run = ("Naipes", naipes) if len(naipes.fired) > compared else ("CLIPS", clips_run)
        return outcome(compared, divergence=f"after {compared} common firings only {longer} goes on: "
                                            f"{run.fired[compared:]}")
    if compared < FIRING_LIMIT and naipes.final != clips_run.final:
        return outcome(compared, divergence=f"same firings, different final values: Naipes {naipes.final}, "
                                            f"CLIPS {clips_run.final}")
    return outcome(compared)


def describe(program: Program) -> str:
    """Both texts of a program, for a failure message."""
    return ("Naipes:\n" + textwrap.indent(program.naipes_yaml(), "  ") + "CLIPS:\n" +
            textwrap.indent("\n".join(program.clips_constructs()) + "\n" + " ".join(program.clips_facts()), "  "))
