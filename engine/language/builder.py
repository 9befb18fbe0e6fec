"""From a loaded rule tree to a runnable, frozen :class:`~naipes.program.Program`.

The builder checks every section and key, resolves params (defaults, then
``-p name=value`` overrides), declares the symbols the compiler may use,
compiles every condition, action, move and function, and has the linker
generate one Python module for the whole rule file.

>>> program = load_program("mygame", {"target": "70"})  # doctest: +SKIP
>>> program.name                                                         # doctest: +SKIP
'mygame'
"""
from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import Location, RuleError, RuleErrors, did_you_mean
from ..library.limits import GAME_STEPS, MAX_DECISIONS, MAX_FIRINGS, MAX_STEPS
from ..program import (
    CardSpec,
    Matching,
    MoveSpec,
    Param,
    Program,
    RuleSpec,
    TurnSpec,
    VarSpec,
    ViewSpec,
    ZoneSpec,
    attribute,
)
from . import nodes as n
from .bets import expand_bets
from .cards import Cards
from .code import Code
from .codecheck import check_generated
from .codegen import write_module
from .compiler import Compiler, Symbols, Unit, identifier_problem
from .declarations import Declarations
from .display import read_display
from .linker import (
    compile_module,
    evaluator,
    linked_plans,
    names_read,
    numbers_only,
    player_class,
    read_indexes,
    readable_attributes,
    resolve_specs,
)
from .loader import Map, Text, beside, load_tree
from .moves import Moves
from .phases import PhaseBodies, Phases, TurnOrder
from .resolver import Unmade
from .rules import Rules, rule_units
from .sections import FUNCTION, Definition, define, function_reads, located_text
from .settings import Settings
from .shapes import shapes_checked
from .shipped import is_file, ruleset_path
from .texts import hidden_builtins, unmade_texts
from .vocabulary import RULE_FILE, SECTIONS, VAR_KEYS, VIEW_KEYS


@dataclass
class Declared:
    """The declare stage's result: the file's name, doc, players, params, phases (with what the compile stage reads
    of them) and zones, its conflict-resolution strategy, and the symbol table every text is then compiled against
    (filled: declarations.Declarations)."""

    name: str
    title: str
    doc: str
    players: tuple[int, int, int]
    default_ai: str
    params: dict[str, Param]
    values: dict[str, Any]  # each param's value: its default, or the value `-p name=value` gave
    phases: list[str]
    phase_bodies: PhaseBodies  # what `phases:` says of each phase besides its name
    strategy: str
    symbols: Symbols
    teams: Any  # `teams:` as Program.teams
    zones: list[ZoneSpec]
    seats_alike: bool  # players: symmetric: true


@dataclass
class Compiled:
    """The compile stage's result: every spec, holding the names of its generated functions where the linker will
    put the functions, and the generated definitions with what the linker needs of them."""

    cards: CardSpec | None
    state: list[VarSpec]
    player_state: list[VarSpec]
    setup: str | None
    moves: dict[str, MoveSpec]
    rules: list[RuleSpec]
    result: str | None
    evaluation: str | None
    estimate: str | None
    numbers_at: dict[str, Location]  # where `result:`, `evaluation:` and `estimate:` are written
    views: list[ViewSpec]
    display: dict[str, Any]
    max_firings: int
    max_decisions: int
    max_steps: int
    symmetric: tuple[str, ...]  # the card attributes whose values play alike (cards: symmetric:)
    defs: list[Definition]
    rule_units: dict[int, tuple[Unit, list[Unit]]]
    turns: dict[str, TurnOrder]  # phase -> its turn order's generated names (Phases.turn_orders)


class Builder(Settings, Phases, Declarations, Cards, Moves, Rules):
    """Reads a whole rule tree into a Program in three stages, each with a typed result: declare (names, params,
    phases: the symbol table), compile (every section's texts into specs and generated definitions), link
    (:func:`link`: one module compiled, the specs given its functions).

    The section readers share only the context of reading the file (sections.SectionReader); what one of them
    gives another is a return value, passed on as a parameter or a field of Declared or Compiled."""

    def build(self, to_c: bool = True) -> Program:
        self.tree, self.sym.unmade = expand_bets(self.tree, self.error)
        declared = self.declared()
        compiled = self.compiled(declared)
        self.raise_errors()
        return link(declared, compiled, self.path, self.overrides, to_c)

    def declared(self) -> Declared:
        """The declare stage: the sections that name things, read into the symbol table."""
        tree = self.tree
        for key in tree:
            if key not in SECTIONS:
                self.error(f"unknown section '{key}'", tree.key_loc(key),
                           did_you_mean(str(key), SECTIONS) or "docs/language.md lists the sections of a rule file")
        name = tree.get("game")
        if not isinstance(name, str) or not name:
            self.error("the rule file needs 'game: <identifier>'",
                       tree.key_loc("game") if "game" in tree else tree.where)
            name = Path(self.path).stem
        doc = tree.get("doc", "")
        if not isinstance(doc, str):
            self.error("'doc' is a text: how to play, in a few lines", tree.loc("doc"))
        players = self.players()
        params = self.params()
        values = {p.name: p.default for p in params.values()}
        self.apply_overrides(params, values)
        self.sym.params = values
        phases, bodies = self.phases()
        strategy = self.strategy()
        zones = self.declare(phases, bodies.stages)
        spec = tree.get("players")
        default_ai = beside(str(spec["ai"]), spec.loc("ai")) if isinstance(spec, Map) and "ai" in spec else "random"
        return Declared(str(name), str(tree.get("title", name)), doc.strip() if isinstance(doc, str) else "", players,
                        default_ai, params, values, phases, bodies, strategy, self.sym, self.teams(players[1]),
                        zones, self.seats_alike())

    def compiled(self, declared: Declared) -> Compiled:
        """The compile stage: every function, card, variable, move, rule, view and display of the file."""
        tree = self.tree
        self.compile_functions()
        turns = self.turn_orders(declared.phase_bodies.turns)
        cards, symmetric = self.cards(declared.zones)
        zones = declared.zones
        wrong_resets: set[str] = set()
        state = self.variables("state", False, wrong_resets) + self.fact_collections()
        player_state = self.variables("player_state", True, wrong_resets)
        setup = None
        if "setup" in tree:
            unit = self.compiler.block(self.texts(tree["setup"], tree.loc("setup"), "'setup'"), {}, what="setup")
            setup = self.define("setup", (), unit, True, "setup")
        moves = self.moves(list(turns), zones)
        read = self.rules(declared.phases, declared.strategy)
        read += self.entry_rules(len(read), declared.strategy, {v.reset for v in state + player_state if v.reset},
                                 declared.phase_bodies, turns, read)
        rules = [r.spec for r in read]
        result, evaluation, estimate = (self.per_player_expression(s) for s in ("result", "evaluation", "estimate"))
        views = self.views()
        display = read_display(tree, cards.attributes + list(cards.tables) if cards else [],
                               [z.name for z in zones if not z.per_player], [v.name for v in state], list(moves),
                               self.error)
        max_firings = self.limit("max_firings", 100_000, MAX_FIRINGS)
        max_decisions = self.limit("max_decisions", 100_000, MAX_DECISIONS)
        max_steps = self.limit("max_steps", MAX_STEPS, GAME_STEPS)
        numbers_at = {s: self.tree.loc(s) for s in ("result", "evaluation", "estimate") if s in self.tree}
        return Compiled(cards, state, player_state, setup, moves, rules, result, evaluation, estimate, numbers_at,
                        views, display, max_firings, max_decisions, max_steps, symmetric, self.defs, rule_units(read),
                        turns)

    def fact_collections(self) -> list[VarSpec]:
        """For each kind of fact, the variable holding those asserted (empty at the start)."""
        found = []
        facts = self.section("facts", Map, Map())
        for name in sorted(self.sym.facts, key=list(facts).index):
            init = self.define("init_state", (), Unit(n.TupleExpr([], at=facts.key_loc(name))), False,
                               f"facts '{name}'")
            found.append(VarSpec(name, init, "public", f"facts {name}"))
        return found

    def raise_errors(self) -> None:
        """Every error found so far (the compiler's too), once each, as one RuleErrors in error_order (a variant's
        wrong value is the cause of what its base then says)."""
        self.errors.extend(self.compiler.errors)
        if self.errors:
            own = [e for e in self.errors if not isinstance(e, Unmade)]  # (a refused bet's error, not its uses')
            unique = {(str(e.location), e.message): e for e in own or self.errors}
            raise RuleErrors(sorted(unique.values(), key=lambda e: error_order(e, self.path)))

    def per_player_expression(self, section: str) -> str | None:
        """`result:` or `evaluation:`, an expression of `player`."""
        if section not in self.tree:
            return None
        text = self.expr_text(self.tree[section], self.tree.loc(section), f"'{section}'")
        unit = None if not text else self.compiler.expression(text, {"player": "player"}, what=section)
        name: str = self.define(section, ("player",), unit, False, section)
        return name

    def variables(self, section: str, per_player: bool, wrong_resets: set[str]) -> list[VarSpec]:
        """`state:` or `player_state:` (`wrong_resets`: where a `reset:` naming no phase was reported, so that it is
        said once)."""
        out = []
        entries = self.section(section, Map, Map())
        for name, spec in entries.items():
            loc = entries.loc(name)
            visibility = "public"
            init = spec
            if isinstance(spec, Map):
                self.check_keys(spec, VAR_KEYS, f"{section} '{name}'")
                init = spec.get("init")
                visibility = spec.get("visibility", "public")
                if visibility not in ("public", "hidden", "owner") or (visibility == "owner" and not per_player):
                    self.error(f"{section} '{name}': visibility must be public, hidden"
                               + (" or owner" if per_player else ""), spec.loc("visibility"))
                loc = spec.loc("init")
            text: str | Code
            if init is None:
                text = "None"
            elif isinstance(init, (str, Code)):
                text = init
            elif isinstance(init, (bool, int, float)):
                text = repr(init)
            else:
                self.error(f"{section} '{name}': the initial value is an expression (text) or a number", loc)
                continue
            scope: dict[str, str | None] = {"player": "player"} if per_player else {}
            unit = self.compiler.expression(text if isinstance(text, (Text, Code)) else located_text(text, loc), scope,
                                            what=f"{section} '{name}'", allow_random=True)
            if unit is not None and unit.type and self.sym.globals.get(name, 0) is None and not per_player:
                self.sym.globals[name] = unit.type
            if unit is not None and unit.type and per_player and self.sym.player_attrs.get(name, 0) is None:
                self.sym.player_attrs[name] = unit.type
            func = self.define(f"init_{section}", ("player",) if per_player else (), unit, False, f"{section} '{name}'")
            show = spec.get("show", True) if isinstance(spec, Map) else True
            if not isinstance(show, bool):
                self.error(f"{section} '{name}': 'show' is true or false", spec.loc("show"))
            score = spec.get("score", False) if isinstance(spec, Map) else False
            if score is not False and (score is not True or not per_player or visibility != "public"):
                self.error(f"{section} '{name}': 'score' is true or false, on a public per-player variable (the "
                           f"score sheet is shown to everyone)", spec.loc("score"))
            out.append(VarSpec(str(name), func, str(visibility), unit.type if unit else None, show is not False,
                               score is True, self.reset_phase(spec, f"{section} '{name}'", wrong_resets)))
        return out

    def reset_phase(self, spec: Any, what: str, wrong_resets: set[str]) -> str | None:
        """`reset: PHASE`: the phase whose every entry starts the variable again from its init."""
        if not isinstance(spec, Map) or "reset" not in spec:
            return None
        phase, phases = spec["reset"], self.sym.enums.get("phase", ())
        if phase not in phases:
            where = spec.loc("reset")
            if str(where) not in wrong_resets:  # (a bet's variables share its reset: one mistake, said once)
                wrong_resets.add(str(where))
                hint = did_you_mean(str(phase), list(phases)) if phases else "declare the game's phases ('phases:')"
                self.error(f"{what}: 'reset' names the phase each entry of which starts it again, and '{phase}' is "
                           f"not a phase", where, hint)
            return None
        return str(phase)

    def views(self) -> list[ViewSpec]:
        """`views: name: {value: EXPR, per_player: bool, visibility}`: display values, never stored."""
        out = []
        section = self.section("views", Map, Map())
        for name, spec in section.items():
            problem = identifier_problem(name, "view")
            if problem:
                self.error(problem, section.key_loc(name))
                continue
            if not isinstance(spec, Map) or "value" not in spec:
                self.error(f"view '{name}' is a mapping with 'value: EXPR' (and per_player, visibility)",
                           section.loc(name))
                continue
            self.check_keys(spec, VIEW_KEYS, f"view '{name}'")
            per_player = bool(spec.get("per_player", False))
            visibility = spec.get("visibility", "public")
            if visibility not in ("public", "owner") or (visibility == "owner" and not per_player):
                self.error(f"view '{name}': visibility is public" + (" or owner" if per_player else ""),
                           spec.loc("visibility"))
            text = self.expr_text(spec["value"], spec.loc("value"), f"view '{name}'")
            unit = self.compiler.expression(text, {"player": "player"} if per_player else {},
                                            what=f"view '{name}'") if text else None
            func = self.define("view", ("player",) if per_player else (), unit, False, f"view '{name}'")
            out.append(ViewSpec(str(name), func, per_player, str(visibility)))
        return out


# The kinds of generated function that only show things (a label, a view), never change how play goes on.
def link(declared: Declared, compiled: Compiled, path: str, overrides: dict[str, str], to_c: bool = True) -> Program:
    """The link stage: the agenda's plans, one module of every generated definition compiled (to C too where it
    can be and `to_c`), and the Program whose specs hold its functions."""
    defs = compiled.defs
    reads = function_reads(defs)
    plans = agenda_plans(defs, compiled.rules, compiled.rule_units, reads)
    module = compile_module(defs, declared.symbols, path, to_c=to_c)
    state, player_state, zones, cards = compiled.state, compiled.player_state, declared.zones, compiled.cards
    resolve_specs(module, compiled.moves, state + player_state, compiled.views, cards, compiled.rules)
    read = names_played(defs, reads)

    def numbers(name: str | None, section: str) -> Callable[..., Any] | None:
        return numbers_only(module.resolve(name), section, compiled.numbers_at.get(section))
    return Program(
        name=declared.name, title=declared.title, doc=declared.doc,
        path=path, players=declared.players, default_ai=declared.default_ai,
        params=declared.params, param_values=declared.values, zones=zones, state=state, player_state=player_state,
        phases=declared.phases, strategy=declared.strategy, rules=compiled.rules, moves=compiled.moves,
        setup=module.resolve(compiled.setup), result=numbers(compiled.result, "result"), cards=cards,
        max_firings=compiled.max_firings, max_decisions=compiled.max_decisions, max_steps=compiled.max_steps,
        views=compiled.views,
        evaluation=numbers(compiled.evaluation, "evaluation"), estimate=numbers(compiled.estimate, "estimate"),
        display=compiled.display, player_class=player_class(player_state, zones),
        state_names=tuple(v.name for v in state), global_zone_names=tuple(z.name for z in zones if not z.per_player),
        symmetric=compiled.symmetric, card_attributes=cards.card_class.attributes if cards else (),
        seats_alike=declared.seats_alike, matchings=linked_plans(module, plans), function_reads=reads,
        line_origins=module.line_origins, code_names=module.code_names, overrides=dict(overrides),
        symbols=declared.symbols, namespace=module.namespace, facts=module.facts,
        first_stages=dict(declared.symbols.first_stages),
        resets={phase: (tuple(v for v in state if v.reset == phase), tuple(v for v in player_state if v.reset == phase))
                for phase in declared.phases},
        teams=declared.teams, entries=frozenset(r.phase for r in compiled.rules if r.steps),
        warnings=(*hidden_builtins(declared.symbols), *unmade_texts(defs, declared.symbols,
                                                                    declared_texts(declared, compiled))),
        turns={phase: TurnSpec(module.resolve(t.first), module.resolve(t.order), module.resolve(t.skip),
                               module.resolve(t.until), once=t.once, after=t.after, ask=t.ask)
               for phase, t in compiled.turns.items()},
        key_state=tuple(v.name for v in state if v.name in read),
        key_player_state=tuple(attribute(v.name) for v in player_state if v.name in read),
        key_zones=frozenset(z.name for z in zones if z.name in read),
        asks_together=frozenset(ask.group for d in defs for tree in (d.unit.tree if isinstance(d.unit.tree, list)
                                                                     else [d.unit.tree])
                                for ask in tree.find_all(n.Ask) if ask.group is not None),
        evaluation_reads=names_read([d.unit for d in defs if d.name == compiled.evaluation], reads))


def declared_texts(declared: Declared, compiled: Compiled) -> list[str]:
    """The names and text values a rule file declares, which its variables may hold as texts."""
    params = [str(v) for p in declared.params.values() for v in [p.default, *(p.choices or [])] if isinstance(v, str)]
    return [*compiled.moves, *(z.name for z in declared.zones), *declared.phases, *params,
            *(str(v) for v in declared.values.values() if isinstance(v, str))]


def agenda_plans(defs: list[Definition], rules: list[RuleSpec], rule_units: dict[int, tuple[Unit, list[Unit]]],
                 reads: dict[str, set[Any]]) -> list[tuple[Matching, Any]]:
    """Per word of rules, its plan and the name of its generated evaluation (None under recency or breadth), each
    evaluation added to `defs`."""
    return [(plan, None if plan.dynamic else define(defs, "agenda_evaluate", ("__stale", "__live"), evaluator(plan),
                                                    True, "the agenda"))
            for plan in read_indexes(rules, rule_units, reads)]


def names_played(defs: list[Definition], functions: dict[str, set[Any]]) -> set[str]:
    """The variables and zones that the play reads: what rules, moves and the result read, themselves or
    through functions (labels, views, spaces and evaluations only show things). Search keys leave the
    rest out: positions that differ only there play on alike."""
    read: set[Any] = set()
    for definition in defs:
        if definition.kind == FUNCTION or definition.kind in SHOWING:
            continue
        read |= definition.unit.reads
        for called in definition.unit.calls:
            read |= functions.get(called, set())
    return {r if isinstance(r, str) else r[0] for r in read}


SHOWING = {"move_label", "move_public", "move_space", "view", "evaluation", "estimate"}


def error_order(error: RuleError, first_file: str) -> tuple[bool, str, int, int]:
    """The loaded file's errors first, then each other file's, in line order."""
    loc = error.location
    return (loc.file != first_file, loc.file, loc.line, loc.col) if loc else (False, "", 0, 0)


def load_program(path: str | Path, params: dict[str, str] | None = None, *, to_c: bool = True) -> Program:
    """Load, check and compile a rule file: a path, or a shipped rule file's name (``"pocha"``, as ``extends:``
    names one). Raises RuleError(s) or ParamError. `to_c`: its module compiled to C too where Cython is installed
    (naipes.language.cmodules; False where what asks for the load is not to start a compile: a web page's params)."""
    if isinstance(path, str) and path.isidentifier() and not is_file(path):
        path = ruleset_path(path) or path
    with collector_paused():
        tree = load_tree(path)
        with shapes_checked(tree, RULE_FILE):
            return Builder(tree, str(path), dict(params or {})).build(to_c)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off while a rule file loads, and given back as it was.

    A load makes millions of short-lived objects (the YAML nodes, Lark's trees, the typed tree and its copies, the
    generated module's syntax tree) and almost no cycles: every few hundred of them the collector would walk the
    young ones, and now and then every object the process holds. Held off, loads take up to a quarter less CPU
    time, most in a process that holds much else (benchmarks/README.md, "Loading: the garbage collector held
    off"). A load's few cycles are collected after it, as any others."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()



def compile_expression(program: Program, text: str, scope: tuple[str, ...] = ()) -> Callable[..., Any]:
    """An expression of the rule language compiled against `program`: f(memory, *scope values).

    For tools and tests (a REPL, a scenario harness); raises RuleErrors if it does not compile.
    """
    compiler = Compiler(program.symbols)
    unit = compiler.expression(text, {name: None for name in scope}, allow_random=False)
    if unit is None:
        raise RuleErrors(compiler.errors)
    source, _ = write_module([n.Definition("expression_0", scope, unit.expression, "an expression")])
    check_generated(source, readable_attributes(program.symbols))
    code = compile(source, "<naipes expression>", "exec")
    local: dict[str, Any] = {}
    exec(code, program.namespace, local)
    function = local["expression_0"]
    return lambda memory, *values: function(memory, memory.vars, *values)


sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
