"""From a loaded rule tree to a runnable :class:`Program`.

This stage checks every section and key, resolves params (defaults, then
``-p name=value`` overrides), declares the symbols the compiler may use,
compiles every condition, action, move and function, and generates one Python
module for the whole rule file (compiled once to a code object).  It also
builds the agenda's dependency indexes: which rules read which names.

>>> program = load_program("rulesets/mygame.yaml", {"target": "70"})  # doctest: +SKIP
>>> program.name                                                         # doctest: +SKIP
'mygame'
"""
from __future__ import annotations

import random
import re
import sys
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import Any, Callable

from .runtime.agenda import DEFAULT_STRATEGY, STRATEGIES, strategy_term
from .language.codecheck import check_generated
from .language.compiler import (ANY, CARD_BUILTIN_ATTRS, PLAYER_BUILTIN_ATTRS, ZONE_ATTRS, Compiler, Symbols, Unit,
                       declared_name_problem, identifier_problem, literal)
from .language.display import read_display
from .errors import GameError, Location, NaipesError, ParamError, RuleError, RuleErrors, did_you_mean
from .library.limits import MAX_DECISIONS, MAX_FIRINGS, minus, plus, times
from .language.loader import Map, Seq, Text, load_tree, location_of, number_problem, subtext
from .runtime.memory import CardBase, Memory, PlayerBase
from .library.builtins import BUILTINS, DECK
from .language.vocabulary import (CARD_KEYS, MOVE_KEYS, PARAM_KEYS, PLAYERS_KEYS, RULE_KEYS, SECTIONS, TABLE_KEYS, VAR_KEYS,
                         VIEW_KEYS, VISIBILITIES, ZONE_KEYS)

PARAM_TYPES = {"int": int, "float": float, "bool": bool, "str": str}
SIGNATURE = re.compile(r"^\s*([A-Za-z]\w*)\s*\(\s*([A-Za-z]\w*(\s*,\s*[A-Za-z]\w*)*)?\s*\)\s*$", re.ASCII)
BINDING = re.compile(r"^\s*([A-Za-z]\w*)\s+in\s+(.+)$", re.S | re.ASCII)


@dataclass
class Param:
    name: str
    type: str
    default: Any
    doc: str = ""
    choices: list | None = None
    min: Any = None
    max: Any = None


@dataclass
class ZoneSpec:
    name: str
    per_player: bool
    visibility: str
    ordered: bool


@dataclass
class VarSpec:
    name: str
    init: Callable
    visibility: str
    type: str | None = None
    show: bool = True  # shown to a human at the table (bookkeeping can be hidden; views still carry it)


@dataclass
class ViewSpec:
    """A display value: computed when a view is built, never stored in the game state."""

    name: str
    value: Callable
    per_player: bool
    visibility: str


@dataclass
class MoveSpec:
    """A kind of decision: its options, the legality cascade, its effect."""

    name: str
    arg: str | None
    options: Callable | None
    cascade: list[tuple[str, Callable]]  # (step name, f(memory, vars, player, candidates) -> the allowed ones)
    when: Callable | None
    label: Callable | None  # how an option reads to the player choosing
    effect: Callable
    doc: str = ""
    # A single `legal` expression is a filter (it may leave nothing); a list is an
    # obligation cascade (the first step that leaves something decides, else all).
    strict: bool = False
    public: Callable | None = None  # how the move reads to the other players (default: its label)
    # f(memory, vars) -> every argument the move can ever offer (naipes.bridges.actions numbers them): the
    # declared `space:`, else the deck when `choose` ranges over a zone, else the `choose` collection
    # itself when it reads nothing a game changes; None when unknown.
    space: Callable | None = None


@dataclass
class RuleSpec:
    """A production rule, compiled."""

    name: str
    index: int
    priority: float
    phase: str | None
    tests: int
    variables: tuple[str, ...]
    domains: list[Callable]
    condition: Callable
    action: Callable
    guard: tuple | None
    location: Location | None
    bound_reads: bool = False
    guard_only: bool = False  # the whole condition is its guard (no call needed once the guard holds)
    doc: str = ""
    strategy: str = DEFAULT_STRATEGY

    def bindings(self, memory: Memory) -> list[tuple]:
        """Every binding of the rule's variables (one activation each)."""
        found: list[tuple] = [()]
        for domain in self.domains:
            found = [b + (v,) for b in found for v in domain(memory, memory.vars, *b)]
        return found

    def sort_key(self, seq: int, position: int) -> tuple:
        return (-self.priority, strategy_term(self.strategy, self.tests, seq), self.index, position)


@dataclass
class CardSpec:
    attributes: list[str]
    build: Callable  # (memory) -> list of attribute dicts
    tables: dict[str, tuple[str, dict, Any]]
    name: Callable | None
    start: str
    card_class: type = CardBase
    location: Location | None = None  # the 'cards' section, where a fault in building the deck is reported


@dataclass
class Program:
    """A compiled rule file: everything needed to run games of it."""

    name: str
    title: str
    path: str
    players: tuple[int, int, int]
    default_ai: str
    params: dict[str, Param]
    param_values: dict[str, Any]
    zones: list[ZoneSpec]
    state: list[VarSpec]
    player_state: list[VarSpec]
    phases: list[str]
    strategy: str
    rules: list[RuleSpec]
    moves: dict[str, MoveSpec]
    setup: Callable | None
    result: Callable | None
    cards: CardSpec | None
    max_firings: int
    max_decisions: int
    views: list = field(default_factory=list)  # [ViewSpec]
    evaluation: Callable | None = None  # f(memory, vars, player): standing mid-game, for search playouts
    estimate: Callable | None = None  # f(memory, vars, player): standing counting the round in progress
    display: dict = field(default_factory=dict)  # how the cards look (plain data, naipes.language.display)
    player_class: type = PlayerBase
    state_names: tuple = ()
    global_zone_names: tuple = ()
    symmetric: tuple = ()  # card attributes whose values are interchangeable labels
    card_attributes: tuple = ()
    global_readers: dict = field(default_factory=dict)
    attr_readers: dict = field(default_factory=dict)
    bound_readers: dict = field(default_factory=dict)
    domain_readers: dict = field(default_factory=dict)
    guard_index: dict = field(default_factory=dict)
    # What the agenda does when a key is written, one lookup per key:
    global_reactions: dict = field(default_factory=dict)  # name -> (rules by guard value | None, readers, domain readers)
    attr_reactions: dict = field(default_factory=dict)  # attr -> (readers, domain readers, (rule, variable) bound readers)
    line_origins: dict = field(default_factory=dict)
    code_name: str = ""
    overrides: dict = field(default_factory=dict)  # the params given at load time (-p name=value), as text
    symbols: Any = None  # the compiler's symbol table, kept to compile expressions later
    namespace: dict = field(default_factory=dict)

    def expression(self, text: str, scope: tuple[str, ...] = ()) -> Callable:
        """Compile an expression of the rule language against this program: f(memory, *scope values).

        For tools and tests (a REPL, a scenario harness); raises RuleErrors if it does not compile.
        """
        compiler = Compiler(self.symbols)
        unit = compiler.expression(text, {name: None for name in scope}, allow_random=False)
        if unit is None:
            raise RuleErrors(compiler.errors)
        args = ", ".join(("M", "V") + tuple(f"v_{n}" for n in scope))
        code = compile(f"def _expression({args}):\n    return {unit.source[0][1]}\n", "<naipes expression>", "exec")
        local: dict = {}
        exec(code, self.namespace, local)
        function = local["_expression"]
        return lambda memory, *values: function(memory, memory.vars, *values)

    @property
    def perfect_information(self) -> bool:
        """True when every zone and variable is public (minimax may search it)."""
        return all(z.visibility == "public" for z in self.zones) and \
            all(v.visibility == "public" for v in self.state + self.player_state)

    def new_memory(self, seed: int | None, player_names: list[str] | None = None, count: int | None = None) -> Memory:
        """A fresh working memory: players, zones, deck and state, before setup."""
        rng = random.Random(seed)
        memory = Memory(self, rng)
        count = count or self.players[2]
        if not self.players[0] <= count <= self.players[1]:
            raise ParamError(f"{self.name} is for {self.players[0]} to {self.players[1]} players, not {count}")
        names = player_names or [f"P{i + 1}" for i in range(count)]
        V = memory.vars
        V["players"] = players = []
        for i in range(count):
            p = self.player_class.__new__(self.player_class)
            p.index, p.name = i, names[i]
            players.append(p)
        memory.players = players
        V["phase"] = self.phases[0] if self.phases else None
        for spec in self.zones:
            if spec.per_player:
                for p in players:
                    setattr(p, spec.name, memory.new_zone(spec.name, p, spec))
            else:
                V[spec.name] = memory.new_zone(spec.name, None, spec)
        with self.located():
            if self.cards is not None:
                self._build_deck(memory)
            for var in self.state:
                V[var.name] = var.init(memory, V)
            for var in self.player_state:
                for p in players:
                    setattr(p, var.name, var.init(memory, V, p))
        memory.dirty.clear()
        return memory

    def _build_deck(self, memory: Memory) -> None:
        spec = self.cards
        cards = []
        for i, attrs in enumerate(spec.build(memory, memory.vars)):
            if not isinstance(attrs, dict):
                raise GameError(f"the deck must be a list of attribute maps; item {i} is {attrs!r}", spec.location)
            card = spec.card_class.__new__(spec.card_class)
            card.id = i
            for attr in spec.attributes:
                value = attrs.get(attr)
                if not _is_scalar(value):
                    raise GameError(f"card {i}: attribute '{attr}' is {value!r}; a card's attributes are plain values "
                                    "(text, numbers, true/false)", spec.location)
                setattr(card, attr, value)
            for attr, (of, values, default) in spec.tables.items():
                setattr(card, attr, values.get(getattr(card, of), default))
            card.name = spec.name(memory, memory.vars, card) if spec.name else \
                " ".join(str(getattr(card, a)) for a in spec.attributes if getattr(card, a) is not None)
            cards.append(card)
        start = memory.vars.get(spec.start)
        memory.place(cards, start)
        memory.vars[DECK] = tuple(cards)

    def located(self) -> "_Locator":
        """Context manager turning faults in generated code into located GameErrors."""
        locator = self.__dict__.get("_locator")
        if locator is None:
            locator = self.__dict__["_locator"] = _Locator(self)
        return locator

    def locate(self, exc: BaseException) -> GameError:
        """The rule-file location of the innermost generated frame of `exc`."""
        origin = None
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.code_name:
                origin = self.line_origins.get(tb.tb_lineno, origin)
            tb = tb.tb_next
        if origin is None and isinstance(exc, GameError):
            return exc  # raised by the interpreter itself, outside any rule
        where, loc = origin if origin else ("the game", None)
        if isinstance(exc, GameError):
            return GameError(f"in {where}: {exc.message}", exc.location or loc, exc.hint)
        if isinstance(exc, RecursionError):
            detail = "too deep: functions call each other, or values nest, too deeply"
        else:
            detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        return GameError(f"in {where}: {detail}", loc)


class _Locator:
    def __init__(self, program: Program):
        self.program = program

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type | None, exc: BaseException | None, tb: Any) -> bool:
        if exc is None or not isinstance(exc, Exception):
            return False
        if isinstance(exc, NaipesError) and not isinstance(exc, GameError):
            return False  # already a user-facing error (a bad param, a rule-file error)
        if isinstance(exc, GameError) and (exc.message.startswith("in ") or exc.location is not None):
            return False  # already located
        raise self.program.locate(exc) from None


# ============================================================== the builder
class _Builder:
    def __init__(self, tree: Map, path: str, overrides: dict[str, str]):
        self.tree = tree
        self.path = path
        self.overrides = overrides
        self.errors: list[RuleError] = []
        self.sym = Symbols()
        self.compiler = Compiler(self.sym)
        self.defs: list[tuple[str, tuple[str, ...], Unit, bool, str]] = []  # name, params, unit, is_block, what
        self.symmetric: tuple[str, ...] = ()

    # ------------------------------------------------------------- utilities
    def error(self, message: str, loc: Location | None, hint: str | None = None) -> None:
        self.errors.append(RuleError(message, loc, hint))

    def section(self, name: str, kind: type, default: Any) -> Any:
        value = self.tree.get(name, default)
        if value is None:
            return default
        if not isinstance(value, kind):
            expected = {Map: "a mapping (name: value)", Seq: "a list", str: "text", int: "a number"}.get(kind, kind.__name__)
            self.error(f"'{name}' must be {expected}", self.tree.loc(name))
            return default
        return value

    def check_keys(self, entry: Map, allowed: set, what: str) -> None:
        for key in entry:
            if key not in allowed:
                self.error(f"unknown key '{key}' in {what}", entry.key_loc(key),
                           did_you_mean(str(key), allowed) or f"allowed: {', '.join(sorted(allowed))}")

    def texts(self, value: Any, loc: Location, what: str) -> list[str]:
        """Statement texts from a string or a list of strings."""
        if isinstance(value, str):
            return [value]
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return list(value)
        self.error(f"{what} must be text or a list of texts", location_of(value, loc))
        return []

    def expr_text(self, value: Any, loc: Location, what: str) -> str | None:
        if isinstance(value, bool):
            return _located("True" if value else "False", loc)
        if isinstance(value, (int, float)):
            return _located(str(value), loc)
        if isinstance(value, str):
            if not value.strip():
                self.error(f"{what} is empty: write an expression", location_of(value, loc))
                return None
            return value
        self.error(f"{what} must be an expression (text)", location_of(value, loc))
        return None

    def literal(self, value: Any, loc: Location, what: str) -> str:
        """`value` as Python source (see compiler.literal); None, after a located error, if it cannot be."""
        try:
            return literal(value)
        except ValueError as exc:
            self.error(f"{what}: {exc}", loc)
            return "None"

    def define(self, kind: str, params: tuple[str, ...], unit: Unit | None, block: bool, what: str) -> str:
        """Add a generated function; returns its Python name.

        The name is made by the engine (`kind` and a serial number; a rule
        file's function `f` is `F_f`, its name checked first): rule-file text
        never names generated code.
        """
        name = kind if kind.startswith("F_") else f"{kind}_{len(self.defs)}"
        if unit is not None:
            self.defs.append((name, params, unit, block, what))
        return name

    # ------------------------------------------------------------------ build
    def build(self) -> Program:
        tree = self.tree
        for key in tree:
            if key not in SECTIONS:
                self.error(f"unknown section '{key}'", tree.key_loc(key),
                           did_you_mean(str(key), SECTIONS) or "see the README for the sections of a rule file")
        name = tree.get("game")
        if not isinstance(name, str) or not name:
            self.error("the rule file needs 'game: <identifier>'", tree.key_loc("game") if "game" in tree else tree.where)
            name = Path(self.path).stem
        players = self.players()
        params = self.params()
        values = {p.name: p.default for p in params.values()}
        self.apply_overrides(params, values)
        self.sym.params = values
        phases = self.phases()
        strategy = self.strategy()
        self.declare(phases)
        self.compile_functions()
        cards = self.cards()
        zones = self.zone_specs
        state = self.variables("state", per_player=False)
        player_state = self.variables("player_state", per_player=True)
        setup = None
        if "setup" in tree:
            unit = self.compiler.block(self.texts(tree["setup"], tree.loc("setup"), "'setup'"), {}, what="setup")
            setup = self.define("setup", (), unit, True, "setup")
        moves = self.moves()
        rules = self.rules(phases, strategy)
        result, evaluation, estimate = (self.per_player_expression(s) for s in ("result", "evaluation", "estimate"))
        views = self.views()
        display = read_display(tree, cards.attributes + list(cards.tables) if cards else [],
                               [z.name for z in zones if not z.per_player], [v.name for v in state], list(moves),
                               self.error)
        max_firings = self.limit("max_firings", 100_000, MAX_FIRINGS)
        max_decisions = self.limit("max_decisions", 100_000, MAX_DECISIONS)
        self.errors.extend(self.compiler.errors)
        if self.errors:
            unique = {(str(e.location), e.message): e for e in self.errors}
            raise RuleErrors(sorted(unique.values(), key=_error_order))
        program = Program(
            name=str(name), title=str(tree.get("title", name)), path=self.path, players=players,
            default_ai=str((tree.get("players") or {}).get("ai", "random")) if isinstance(tree.get("players"), Map) else "random",
            params=params, param_values=values, zones=zones, state=state, player_state=player_state,
            phases=phases, strategy=strategy, rules=rules, moves=moves, setup=setup, result=result,
            cards=cards, max_firings=max_firings, max_decisions=max_decisions, views=views, evaluation=evaluation,
            estimate=estimate, display=display)
        self.link(program)
        return program

    def limit(self, section: str, default: int, largest: int) -> int:
        """A section holding a whole number from 1 to `largest`."""
        value = self.section(section, int, default)
        if isinstance(value, bool) or not 1 <= value <= largest:
            self.error(f"'{section}' must be a whole number from 1 to {largest:,}", self.tree.loc(section))
            return default
        return value

    def per_player_expression(self, section: str) -> str | None:
        """`result:` or `evaluation:`, an expression of `player`."""
        if section not in self.tree:
            return None
        text = self.expr_text(self.tree[section], self.tree.loc(section), f"'{section}'")
        unit = text and self.compiler.expression(text, {"player": "player"}, what=section)
        return self.define(section, ("player",), unit, False, section)

    def players(self) -> tuple[int, int, int]:
        spec = self.tree.get("players")
        if spec is None:
            return (2, 2, 2)
        if isinstance(spec, int) and not isinstance(spec, bool):
            return (spec, spec, spec)
        if not isinstance(spec, Map):
            self.error("'players' is a number or {min, max, default, ai}", self.tree.loc("players"))
            return (2, 2, 2)
        self.check_keys(spec, PLAYERS_KEYS, "players")
        nums = []
        for key, fallback in (("min", 2), ("max", None), ("default", None)):
            value = spec.get(key, fallback)
            if key in spec and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                self.error(f"players.{key} must be a positive whole number", spec.loc(key))
                value = fallback
            nums.append(value)
        lo = nums[0] if nums[0] is not None else 2
        hi = nums[1] if nums[1] is not None else max(lo, nums[2] or lo)
        default = nums[2] if nums[2] is not None else lo
        if not lo <= default <= hi:
            self.error(f"players.default ({default}) is outside min..max ({lo}..{hi})", spec.where)
        if "ai" in spec:
            self.check_agent(spec["ai"], spec.loc("ai"))
        return (lo, hi, default)

    def check_agent(self, name: Any, loc: Location) -> None:
        from .agents.registry import AGENTS  # agents depend on the interpreter, which depends on this module
        if not isinstance(name, str) or (name not in AGENTS and not name.endswith((".yaml", ".yml"))):
            self.error(f"unknown agent '{name}'", loc, did_you_mean(str(name), AGENTS) or f"agents: {', '.join(AGENTS)}")

    # ---------------------------------------------------------------- params
    def params(self) -> dict[str, Param]:
        out: dict[str, Param] = {}
        section = self.section("params", Map, Map())
        for name, spec in section.items():
            loc = section.loc(name)
            problem = identifier_problem(name, "param")
            if problem:
                self.error(problem, section.key_loc(name))
                continue
            if not isinstance(spec, Map):
                spec_map = Map({"default": spec})
                spec_map.where, spec_map.key_locs, spec_map.value_locs = loc, {}, {"default": loc}
                spec = spec_map
            self.check_keys(spec, PARAM_KEYS, f"param '{name}'")
            default = spec.get("default")
            typ = spec.get("type") or _type_name(default)
            if typ not in PARAM_TYPES:
                self.error(f"param '{name}' has type '{typ}'; use one of {', '.join(PARAM_TYPES)}", spec.loc("type"),
                           did_you_mean(str(typ), PARAM_TYPES))
                continue
            param = Param(name, typ, default, str(spec.get("doc", "")), spec.get("choices"), spec.get("min"), spec.get("max"))
            if not self.param_limits_ok(param, spec):
                continue
            if default is None:
                self.error(f"param '{name}' needs a default", spec.where)
                continue
            problem = _check_param_value(param, default)
            if problem:
                self.error(f"param '{name}': default {problem}", spec.loc("default"))
            out[name] = param
        return out

    def param_limits_ok(self, param: Param, spec: Map) -> bool:
        ok = True
        for key in ("min", "max"):
            value = getattr(param, key)
            if value is not None and (param.type not in ("int", "float") or isinstance(value, bool)
                                      or not isinstance(value, (int, float))):
                self.error(f"param '{param.name}': '{key}' must be a number (and only numeric params have one)",
                           spec.loc(key))
                ok = False
        if param.choices is not None and not isinstance(param.choices, list):
            self.error(f"param '{param.name}': 'choices' is a list of the allowed values", spec.loc("choices"))
            ok = False
        return ok

    def apply_overrides(self, params: dict[str, Param], values: dict[str, Any]) -> None:
        for name, raw in self.overrides.items():
            if name not in params:
                hint = did_you_mean(name, params) or (f"params: {', '.join(params)}" if params else "this game has no params")
                raise ParamError(f"unknown param '{name}' ({hint})")
            param = params[name]
            value = _convert_param(param, raw)
            problem = _check_param_value(param, value)
            if problem:
                raise ParamError(f"param '{name}': {problem}")
            values[name] = value

    # --------------------------------------------------------------- symbols
    def phases(self) -> list[str]:
        phases = self.section("phases", Seq, Seq())
        seen: set = set()
        for i, p in enumerate(phases):
            if not isinstance(p, str):
                self.error("phases are names", phases.loc(i))
            elif p in seen:
                self.error(f"phase '{p}' is listed twice", phases.loc(i))
            seen.add(p)
        return [str(p) for p in phases]

    def strategy(self) -> str:
        strategy = self.section("strategy", str, DEFAULT_STRATEGY)
        if strategy not in STRATEGIES:
            self.error(f"unknown conflict-resolution strategy '{strategy}'", self.tree.loc("strategy"),
                       f"choose one of: {', '.join(STRATEGIES)}")
            return DEFAULT_STRATEGY
        return str(strategy)

    def declare(self, phases: list[str]) -> None:
        """Put every name a rule file declares into the symbol table."""
        sym, tree = self.sym, self.tree
        sym.globals.update({"players": "list", "phase": "str" if phases else None})
        self.zone_specs: list[ZoneSpec] = []
        zones = self.section("zones", Map, Map())
        for name, spec in zones.items():
            spec = spec if isinstance(spec, Map) else Map()
            self.check_keys(spec, ZONE_KEYS, f"zone '{name}'")
            per_player = bool(spec.get("per_player", False))
            visibility = spec.get("visibility", "owner" if per_player else "public")
            if visibility not in VISIBILITIES:
                self.error(f"zone '{name}': visibility '{visibility}' is not one of {', '.join(VISIBILITIES)}",
                           spec.loc("visibility"))
            if visibility == "owner" and not per_player:
                self.error(f"zone '{name}': only per-player zones have an owner to see them", spec.loc("visibility"))
            self.zone_specs.append(ZoneSpec(str(name), per_player, str(visibility), bool(spec.get("ordered", True))))
            self._new_symbol(str(name), zones.key_loc(name), per_player, "zone")
            sym.zones.add(str(name))
        for section, per_player in (("state", False), ("player_state", True)):
            entries = self.section(section, Map, Map())
            for name in entries:
                self._new_symbol(str(name), entries.key_loc(name), per_player, None)
        functions = self.section("functions", Map, Map())
        for signature in functions:
            match = SIGNATURE.match(str(signature))
            if not match:
                self.error(f"a function is declared as 'name(arg, ...)', not '{signature}'", functions.key_loc(signature))
                continue
            fname = match.group(1)
            args = tuple(a.strip() for a in (match.group(2) or "").split(",") if a.strip())
            problem = next(filter(None, [identifier_problem(fname, "function")] +
                                  [identifier_problem(a, "function argument") for a in args]), None)
            if problem:
                self.error(problem, functions.key_loc(signature))
                continue
            if fname in sym.functions or fname in BUILTINS:
                self.error(f"function '{fname}' is already defined", functions.key_loc(signature))
            sym.functions[fname] = args
        moves = self.section("moves", Map, Map())
        for move in moves:
            problem = identifier_problem(move, "move")
            if problem:
                self.error(problem, moves.key_loc(move))
            else:
                sym.moves.add(move)
        cards = tree.get("cards")
        if isinstance(cards, Map):
            attrs = cards.get("attributes", Map())
            for attr in attrs if isinstance(attrs, Map) else []:
                problem = declared_name_problem(attr, "card attribute", "card")
                if problem:
                    self.error(problem, attrs.key_loc(attr))
                    continue
                sym.card_attrs[str(attr)] = self._attr_type(attrs[attr], "generate" in cards)
            tables = cards.get("tables")
            if tables is not None and not isinstance(tables, Map):
                self.error("'tables' maps a name to {of: attribute, values: {value: number}, default: ...}",
                           cards.loc("tables"))
            for table, spec in tables.items() if isinstance(tables, Map) else []:
                problem = declared_name_problem(table, "card table", "card")
                if problem:
                    self.error(problem, tables.key_loc(table))
                    continue
                values = spec.get("values") if isinstance(spec, Map) else None
                types = {_type_name(v) for v in values.values()} if isinstance(values, Map) else set()
                sym.card_attrs[str(table)] = types.pop() if len(types) == 1 else None

    def _attr_type(self, values: Any, generated: bool) -> str | None:
        if generated:
            return str(values) if isinstance(values, str) and values in PARAM_TYPES else None
        if isinstance(values, list):
            types = {_type_name(v) for v in values}
            return types.pop() if len(types) == 1 else None
        return None

    def _new_symbol(self, name: str, loc: Location, per_player: bool, typ: str | None) -> None:
        sym = self.sym
        # Per-player names are attributes of players; global names are only keys of the variables.
        problem = declared_name_problem(name, "per-player variable or zone", "player") if per_player else \
            identifier_problem(name, "variable or zone")
        if problem:
            self.error(problem, loc)
            return
        reserved = {"players", "phase", "player"} | set(BUILTINS)
        if name in reserved or name in sym.params:
            self.error(f"'{name}' is reserved or already a param", loc)
        table = sym.player_attrs if per_player else sym.globals
        if name in table:
            self.error(f"'{name}' is declared twice", loc)
        table[name] = typ

    # -------------------------------------------------------------- sections
    def compile_functions(self) -> None:
        functions = self.section("functions", Map, Map())
        for signature, body in functions.items():
            match = SIGNATURE.match(str(signature))
            if not match:
                continue
            fname = match.group(1)
            if fname not in self.sym.functions:
                continue  # its declaration was refused
            args = self.sym.functions[fname]
            text = self.expr_text(body, functions.loc(signature), f"function '{fname}'")
            if text is None:
                continue
            unit = self.compiler.expression(text, {a: None for a in args}, what=f"function '{fname}'")
            if unit is not None:  # every call is a step (naipes.library.limits): recursion runs out of steps, not forever
                _, expr, origin = unit.source[0]
                unit.source = [(0, "M.step()", origin), (0, f"return {expr}", origin)]
            self.define(f"F_{fname}", args, unit, True, f"function '{fname}'")

    def cards(self) -> CardSpec | None:
        spec = self.tree.get("cards")
        if spec is None:
            return None
        if not isinstance(spec, Map):
            self.error("'cards' is a mapping (attributes:, generate:, tables:, ...)", self.tree.loc("cards"))
            return None
        self.check_keys(spec, CARD_KEYS, "cards")
        attrs = spec.get("attributes")
        if not isinstance(attrs, Map) or not attrs:
            self.error("cards need 'attributes:' (each attribute's values, or with 'generate:' its type)", spec.where)
            return None
        names = [str(a) for a in attrs]
        if any(name not in self.sym.card_attrs for name in names):
            return None  # a refused attribute name was reported when declared
        c = self.compiler
        if "generate" in spec:
            text = self.expr_text(spec["generate"], spec.loc("generate"), "'cards.generate'")
            unit = text and c.expression(text, {}, what="cards.generate", allow_random=True)
            build_name = self.define("deck_generate", (), unit, False, "cards.generate")
        else:
            parts = []
            for attr in names:
                values = attrs[attr]
                if isinstance(values, list) and not all(_is_scalar(v) for v in values):
                    self.error(f"the values of card attribute '{attr}' are plain values (text, numbers, true/false)",
                               attrs.loc(attr))
                elif isinstance(values, list):
                    parts.append(self.literal(_plain(values), attrs.loc(attr), f"the values of card attribute '{attr}'"))
                else:
                    text = self.expr_text(values, attrs.loc(attr), f"values of card attribute '{attr}'")
                    unit = text and c.expression(text, {}, what=f"values of '{attr}'", allow_random=True)
                    parts.append(self.define("deck_values", (), unit, False, f"values of '{attr}'") + "(M, V)")
            extra = spec.get("extra", [])
            if not isinstance(extra, list) or not all(isinstance(e, Map) for e in extra):
                self.error("'extra' is a list of cards, each a mapping of attribute: value", spec.loc("extra"))
                extra = []
            copies = spec.get("copies", 1)
            if not isinstance(copies, (int, str)) or isinstance(copies, bool):
                self.error("'copies' is a whole number or an expression", spec.loc("copies"))
                copies = 1
            copies_src = "1"
            if isinstance(copies, str):
                unit = c.expression(copies, {}, what="cards.copies")
                copies_src = self.define("deck_copies", (), unit, False, "cards.copies") + "(M, V)"
            elif isinstance(copies, int):
                copies_src = str(copies)
            body = (f"[dict(zip({literal(names)}, combo)) for _ in range({copies_src}) "
                    f"for combo in B_product({', '.join(parts)})] + {self.literal(_plain(extra), spec.loc('extra'), 'extra cards')}")
            build_name = self.define("deck_product", (), Unit([(0, body, spec.where)]), False, "cards")
        tables = {}
        table_specs = spec.get("tables")
        for table, tspec in table_specs.items() if isinstance(table_specs, Map) else []:
            if table not in self.sym.card_attrs:
                continue  # its name was refused when declared
            if not isinstance(tspec, Map) or "of" not in tspec or not isinstance(tspec.get("values"), Map):
                self.error(f"table '{table}' needs 'of: <attribute>' and 'values: {{value: number}}'",
                           spec["tables"].loc(table))
                continue
            self.check_keys(tspec, TABLE_KEYS, f"card table '{table}'")
            if tspec["of"] not in names:
                self.error(f"table '{table}' is 'of' unknown attribute '{tspec['of']}'", tspec.loc("of"),
                           did_you_mean(str(tspec["of"]), names))
                continue
            tables[str(table)] = (str(tspec["of"]), dict(_plain(tspec["values"])), tspec.get("default"))
        name_func = None
        if "name" in spec:
            text = self.expr_text(spec["name"], spec.loc("name"), "'cards.name'")
            unit = text and c.expression(text, {"c": "card"}, what="cards.name")
            name_func = self.define("deck_name", ("c",), unit, False, "cards.name")
        start = spec.get("start", next((z.name for z in self.zone_specs if not z.per_player), None))
        if start not in [z.name for z in self.zone_specs if not z.per_player]:
            self.error(f"cards start in '{start}', which is not a global zone", spec.loc("start") if "start" in spec else spec.where,
                       "declare it under 'zones:' (without per_player)")
        symmetric = spec.get("symmetric", [])
        if not isinstance(symmetric, list) or any(a not in names for a in symmetric):
            self.error("'symmetric' lists card attributes whose values are interchangeable labels", spec.loc("symmetric"),
                       f"attributes: {', '.join(names)}")
            symmetric = []
        self.symmetric = tuple(str(a) for a in symmetric)
        card_class = type("Card", (CardBase,), {"__slots__": tuple(names) + tuple(tables), "attributes": tuple(names) + tuple(tables)})
        return CardSpec(names, build_name, tables, name_func, str(start), card_class, spec.where)

    def variables(self, section: str, per_player: bool) -> list[VarSpec]:
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
                    self.error(f"{section} '{name}': visibility must be public, hidden" + (" or owner" if per_player else ""),
                               spec.loc("visibility"))
                loc = spec.loc("init")
            if init is None:
                text = "None"
            elif isinstance(init, str):
                text = init
            elif isinstance(init, (bool, int, float)):
                text = repr(init)
            else:
                self.error(f"{section} '{name}': the initial value is an expression (text) or a number", loc)
                continue
            scope = {"player": "player"} if per_player else {}
            unit = self.compiler.expression(text if isinstance(text, Text) else _located(text, loc), scope,
                                            what=f"{section} '{name}'", allow_random=True)
            if unit is not None and unit.type and self.sym.globals.get(name, 0) is None and not per_player:
                self.sym.globals[name] = unit.type
            if unit is not None and unit.type and per_player and self.sym.player_attrs.get(name, 0) is None:
                self.sym.player_attrs[name] = unit.type
            func = self.define(f"init_{section}", ("player",) if per_player else (), unit, False, f"{section} '{name}'")
            show = spec.get("show", True) if isinstance(spec, Map) else True
            if not isinstance(show, bool):
                self.error(f"{section} '{name}': 'show' is true or false", spec.loc("show"))
            out.append(VarSpec(str(name), func, str(visibility), unit.type if unit else None, show is not False))
        return out

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

    def moves(self) -> dict[str, MoveSpec]:
        out = {}
        section = self.section("moves", Map, Map())
        for name, spec in section.items():
            if not isinstance(spec, Map):
                self.error(f"move '{name}' is a mapping (choose:, legal:, then:)", section.loc(name))
                continue
            self.check_keys(spec, MOVE_KEYS, f"move '{name}'")
            c = self.compiler
            scope: dict[str, str | None] = {"player": "player"}
            arg, options = None, None
            if "choose" in spec:
                text = self.expr_text(spec["choose"], spec.loc("choose"), f"move '{name}' choose")
                match = BINDING.match(text or "")
                if not match:
                    self.error(f"move '{name}': 'choose' is 'NAME in COLLECTION'", spec.loc("choose"))
                    continue
                arg = match.group(1)
                unit = c.expression(subtext(text, match.start(2)), dict(scope), what=f"move '{name}' choose")
                if unit is not None:
                    unit.source[0] = (0, f"list({unit.source[0][1]})", unit.source[0][2])
                options = self.define("move_options", ("player",), unit, False, f"options of move '{name}'")
                scope[arg] = None
            space = self.move_space(str(name), spec, unit if "choose" in spec else None)
            cascade = []
            legal = spec.get("legal")
            # a list is a cascade; one expression, or {name: expression}, is a filter
            steps = legal if isinstance(legal, list) else ([] if legal is None else [legal])
            for i, step in enumerate(steps):
                step_name, step_text = ("legal" if not isinstance(legal, list) else f"rule {i + 1}"), step
                if isinstance(step, Map) and len(step) == 1:
                    step_name, step_text = next(iter(step.items()))
                text = self.expr_text(step_text, location_of(step_text, spec.loc("legal")), f"move '{name}' legal")
                if text is None:
                    continue
                unit = c.expression(text, dict(scope), what=f"legality of move '{name}'", invariant={"player"})
                if unit is not None:  # one call filters every candidate: [x for x in candidates if TEST]
                    local = f"v_{arg}" if arg else "_"
                    indent, test, origin = unit.source[0]
                    unit.source = [(0, f"{h} = B_once(lambda: {src})", origin) for h, src in unit.hoisted] + \
                        [(0, f"return [{local} for {local} in v___candidates if {test}]", origin)]
                cascade.append((str(step_name), self.define("move_legal", ("player", "__candidates"), unit,
                                                            True, f"legality '{step_name}' of move '{name}'")))
            when = None
            if "when" in spec:
                text = self.expr_text(spec["when"], spec.loc("when"), f"move '{name}' when")
                unit = text and c.expression(text, {"player": "player"}, what=f"move '{name}' when")
                when = self.define("move_when", ("player",), unit, False, f"availability of move '{name}'")
            label = None
            if "label" in spec:
                text = self.expr_text(spec["label"], spec.loc("label"), f"move '{name}' label")
                unit = text and c.expression(text, dict(scope), what=f"move '{name}' label")
                label = self.define("move_label", ("player", arg or "_"), unit, False, f"label of move '{name}'")
            public = None
            if "public" in spec:
                text = self.expr_text(spec["public"], spec.loc("public"), f"move '{name}' public")
                unit = text and c.expression(text, dict(scope), what=f"move '{name}' public")
                public = self.define("move_public", ("player", arg or "_"), unit, False,
                                     f"public form of move '{name}'")
            unit = c.block(self.texts(spec.get("then", "pass"), spec.loc("then"), f"move '{name}' then"), dict(scope),
                           what=f"effect of move '{name}'")
            effect = self.define("move_effect", ("player", arg or "_"), unit, True, f"effect of move '{name}'")
            out[str(name)] = MoveSpec(str(name), arg, options, cascade, when, label, effect, str(spec.get("doc", "")),
                                      strict=not isinstance(legal, list), public=public, space=space)
        return out

    def move_space(self, name: str, spec: Map, choose: Unit | None) -> str | None:
        """The function giving every argument move `name` can ever offer (see MoveSpec.space), or None."""
        if "space" in spec:
            text = self.expr_text(spec["space"], spec.loc("space"), f"move '{name}' space")
            unit = text and self.compiler.expression(text, {}, what=f"move '{name}' space")
            if unit is None:
                return None
            changing = self.changing_reads(unit)
            if changing:
                self.error(f"move '{name}': 'space' may read only params, players and all_cards(), "
                           f"not {', '.join(sorted(changing))}", spec.loc("space"))
                return None
        elif choose is None:
            return None
        elif choose.type == "zone":
            unit = Unit([(0, "B_all_cards(V)", spec.loc("choose"))])
        else:  # the collection without a player in scope: static if it compiles and reads nothing that changes
            probe = Compiler(self.sym)
            text = spec["choose"]
            unit = probe.expression(subtext(text, BINDING.match(text).start(2)), {}, what="")
            if unit is None or probe.errors or self.changing_reads(unit):
                return None
        unit.source[0] = (0, f"list({unit.source[0][1]})", unit.source[0][2])
        return self.define("move_space", (), unit, False, f"space of move '{name}'")

    def changing_reads(self, unit: Unit) -> set[str]:
        """What `unit` reads, through the functions it calls, that a game may change (all but players)."""
        reads = set(unit.reads)
        function_reads = self.function_reads()
        for fname in unit.calls:
            reads |= function_reads.get(fname, set())
        return {r if isinstance(r, str) else r[0] for r in reads} - {"players"}

    def rules(self, phases: list[str], strategy: str) -> list[RuleSpec]:
        out: list[RuleSpec] = []
        section = self.section("rules", Seq, Seq())
        seen: dict[str, Location] = {}
        for i, spec in enumerate(section):
            loc = section.loc(i)
            if not isinstance(spec, Map):
                self.error("a rule is a mapping (name:, when:, then:, priority:, ...)", loc)
                continue
            self.check_keys(spec, RULE_KEYS, "a rule")
            name = self.rule_name(spec, i, seen)
            rule = self.rule(len(out), name, spec, phases, strategy)
            if rule is not None:
                out.append(rule)
        return out

    def priority(self, name: str, spec: Map) -> float:
        """A rule's priority (salience), a number; 0 after a located error."""
        priority = spec.get("priority", 0)
        if not isinstance(priority, (int, float)) or isinstance(priority, bool):
            self.error(f"rule '{name}': priority must be a number", spec.loc("priority"))
            return 0
        return priority

    def rule_name(self, spec: Map, i: int, seen: dict[str, Location]) -> str:
        """A rule's name, checked: present, an identifier, not taken (`seen` records the names so far)."""
        name = spec.get("name")
        problem = "every rule needs a 'name'" if name is None else identifier_problem(name, "rule")
        if problem:
            self.error(problem, spec.loc("name") if "name" in spec else spec.where)
            return f"rule{i + 1}"
        if name in seen:
            self.error(f"two rules are named '{name}'", spec.key_loc("name"), f"the other is at {seen[name]}")
        seen[name] = spec.key_loc("name")
        return str(name)

    def rule(self, index: int, name: str, spec: Map, phases: list[str], strategy: str,
             leading: tuple = ()) -> RuleSpec | None:
        """One rule; `leading` binds variables before its `for:` ones: (name, type, defined domain function)."""
        c = self.compiler
        priority = self.priority(name, spec)
        phase = spec.get("phase")
        if phase is not None and phase not in phases:
            self.error(f"rule '{name}': unknown phase '{phase}'", spec.loc("phase"),
                       did_you_mean(str(phase), phases) or ("declare it under 'phases:'" if not phases else None))
        bindings = spec.get("for", [])
        bindings = [bindings] if isinstance(bindings, str) else bindings
        scope: dict[str, str | None] = {var: typ for var, typ, _ in leading}
        variables, domains, domain_units = [var for var, _, _ in leading], [d for _, _, d in leading], []
        for j, text in enumerate(bindings if isinstance(bindings, list) else []):
            match = BINDING.match(text) if isinstance(text, str) else None
            if not match:
                self.error(f"rule '{name}': 'for' is 'NAME in COLLECTION'", location_of(text, spec.loc("for")))
                return None
            var = match.group(1)
            unit = c.expression(subtext(text, match.start(2)), dict(scope), what=f"'for' of rule '{name}'")
            if unit is None:
                return None
            unit.source[0] = (0, f"list({unit.source[0][1]})", unit.source[0][2])
            domains.append(self.define("rule_domain", tuple(variables), unit, False, f"'for' of rule '{name}'"))
            domain_units.append(unit)
            variables.append(var)
            scope[var] = None
        when = self.expr_text(spec.get("when", True), spec.loc("when"), f"rule '{name}' when")
        cond_unit = c.expression(when, dict(scope), bound=set(variables), what=f"condition of rule '{name}'") if when else None
        act_unit = c.block(self.texts(spec.get("then", "pass"), spec.loc("then"), f"rule '{name}' then"), dict(scope),
                           bound=set(variables), what=f"actions of rule '{name}'")
        if cond_unit is None or act_unit is None:
            return None
        guard = ("phase", str(phase)) if phase is not None else cond_unit.guard
        condition = self.define("rule_when", tuple(variables), cond_unit, False, f"condition of rule '{name}'")
        action = self.define("rule_then", tuple(variables), act_unit, True, f"actions of rule '{name}'")
        rule = RuleSpec(name, index, priority, phase, cond_unit.tests + len(variables), tuple(variables), domains,
                        condition, action, guard, spec.key_loc("name") if "name" in spec else spec.where,
                        doc=str(spec.get("doc", "")), strategy=strategy)
        rule.guard_only = guard is not None and phase is None and cond_unit.tests == 1 and not variables
        rule._units = (cond_unit, domain_units)  # read sets, consumed by link()
        return rule

    # ---------------------------------------------------------------- linking
    def link(self, program: Program) -> None:
        """Generate and compile the module; wire functions and read indexes."""
        code_name = f"<naipes {program.path}>"
        lines, origins = [], {}
        for name, params, unit, block, what in self.defs:
            args = ", ".join(("M", "V") + tuple(f"v_{p}" if p != "_" else "_" for p in params))
            lines.append(f"def {name}({args}):")
            origins[len(lines)] = (what, unit.source[0][2] if unit.source else None)
            for indent, text, origin in unit.source:
                body = text if block else f"return {text}"
                lines.append("    " * (indent + 1) + body)
                origins[len(lines)] = (what, origin)
        source = "\n".join(lines) + "\n"
        sym = self.sym
        check_generated(source, set(sym.card_attrs) | set(sym.player_attrs) | set(CARD_BUILTIN_ATTRS) |
                        set(PLAYER_BUILTIN_ATTRS) | set(ZONE_ATTRS))
        # Generated code names only M, V, v_*, F_* and B_*; these few builtins serve its own scaffolding.
        namespace: dict[str, Any] = {"__builtins__": {"list": list, "dict": dict, "zip": zip, "range": range},
                                     "B_product": product}
        namespace.update({f"B_{n}": b.func for n, b in BUILTINS.items()})
        namespace.update(B_once=once, B_times=times, B_plus=plus, B_minus=minus)
        exec(compile(source, code_name, "exec"), namespace)
        program.code_name, program.line_origins = code_name, origins
        program.symbols, program.namespace = self.sym, namespace
        resolve = namespace.__getitem__
        program.setup = program.setup and resolve(program.setup)
        program.result = program.result and resolve(program.result)
        program.evaluation = program.evaluation and resolve(program.evaluation)
        program.estimate = program.estimate and resolve(program.estimate)
        for view in program.views:
            view.value = resolve(view.value)
        for var in program.state + program.player_state:
            var.init = resolve(var.init)
        if program.cards is not None:
            spec = program.cards
            spec.build = resolve(spec.build)
            spec.name = spec.name and resolve(spec.name)
        for move in program.moves.values():
            move.options = move.options and resolve(move.options)
            move.when = move.when and resolve(move.when)
            move.label = move.label and resolve(move.label)
            move.public = move.public and resolve(move.public)
            move.space = move.space and resolve(move.space)
            move.effect = resolve(move.effect)
            move.cascade = [(n, resolve(f)) for n, f in move.cascade]
        player_slots = tuple(v.name for v in program.player_state)
        zone_slots = tuple(z.name for z in program.zones if z.per_player)
        program.player_class = type("Player", (PlayerBase,), {"__slots__": player_slots + zone_slots,
                                                             "state_slots": player_slots, "zone_slots": zone_slots})
        program.state_names = tuple(v.name for v in program.state)
        program.global_zone_names = tuple(z.name for z in program.zones if not z.per_player)
        if program.cards is not None:
            program.card_attributes = program.cards.card_class.attributes
            program.symmetric = self.symmetric
        function_reads = self.function_reads()
        for rule in program.rules:
            rule.condition, rule.action = resolve(rule.condition), resolve(rule.action)
            rule.domains = [resolve(d) for d in rule.domains]
            self.index_reads(program, rule, function_reads)
        p = program
        for name in set(p.global_readers) | set(p.guard_index) | set(p.domain_readers) - set(p.attr_readers):
            p.global_reactions[name] = (p.guard_index.get(name), tuple(p.global_readers.get(name, ())),
                                        tuple(p.domain_readers.get(name, ())))
        for attr in set(p.attr_readers) | set(p.bound_readers) | set(p.domain_readers):
            p.attr_reactions[attr] = (tuple(p.attr_readers.get(attr, ())), tuple(p.domain_readers.get(attr, ())),
                                      tuple(p.bound_readers.get(attr, ())))

    def function_reads(self) -> dict[str, set]:
        direct = {name[2:]: (unit.reads, unit.calls) for name, _, unit, _, _ in self.defs if name.startswith("F_")}
        closed: dict[str, set] = {}
        for name in direct:
            reads, stack, seen = set(), [name], set()
            while stack:
                current = stack.pop()
                if current in seen or current not in direct:
                    continue
                seen.add(current)
                reads |= direct[current][0]
                stack.extend(direct[current][1])
            closed[name] = {(r[0], ANY) if isinstance(r, tuple) else r for r in reads}
        return closed

    def index_reads(self, program: Program, rule: RuleSpec, function_reads: dict[str, set]) -> None:
        cond_unit, domain_units = rule._units
        del rule._units
        reads = set(cond_unit.reads)
        for fname in cond_unit.calls:
            reads |= function_reads.get(fname, set())
        for read in reads:
            if isinstance(read, str):
                if rule.guard is not None and read == rule.guard[0]:
                    continue
                program.global_readers.setdefault(read, []).append(rule.index)
            elif read[1] == ANY:
                program.attr_readers.setdefault(read[0], []).append(rule.index)
            else:
                program.bound_readers.setdefault(read[0], []).append((rule.index, rule.variables.index(read[1])))
                rule.bound_reads = True
        for unit in domain_units:
            domain_reads = set(unit.reads)
            for fname in unit.calls:
                domain_reads |= function_reads.get(fname, set())
            for read in domain_reads:
                program.domain_readers.setdefault(read if isinstance(read, str) else read[0], []).append(rule.index)
        if rule.guard is not None:
            program.guard_index.setdefault(rule.guard[0], {}).setdefault(rule.guard[1], []).append(rule.index)


def once(compute: Callable) -> Callable:
    """A value computed on first use, then remembered (hoisted out of a legality filter)."""
    cache: list = []

    def value() -> Any:
        if not cache:
            cache.append(compute())
        return cache[0]
    return value


def _located(text: str, loc: Location) -> Text:
    located = Text(text)
    located.loc, located.block_indent = loc, None
    return located


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def _type_name(value: Any) -> str | None:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    return None


def _plain(value: Any) -> Any:
    """Strip loader types (Text, Map, Seq) so values can be repr'd into code."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _convert_param(param: Param, raw: Any) -> Any:
    if not isinstance(raw, str):
        return raw
    try:
        if param.type == "bool":
            lowered = raw.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise ValueError
        return PARAM_TYPES[param.type](raw)
    except ValueError:
        raise ParamError(f"param '{param.name}' is {param.type}; '{raw}' is not") from None


def _check_param_value(param: Param, value: Any) -> str | None:
    problem = number_problem(value)
    if problem:
        return f"{value!r} is {problem}"
    expected = PARAM_TYPES[param.type]
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        if not (expected is float and isinstance(value, int) and not isinstance(value, bool)):
            return f"{value!r} is not {param.type}"
    if param.choices is not None and value not in param.choices:
        return f"{value!r} is not one of {', '.join(map(str, param.choices))}"
    if param.min is not None and value < param.min:
        return f"{value!r} is below the minimum {param.min}"
    if param.max is not None and value > param.max:
        return f"{value!r} is above the maximum {param.max}"
    return None


def _error_order(error: RuleError) -> tuple:
    loc = error.location
    return (loc.file, loc.line, loc.col) if loc else ("", 0, 0)


def load_program(path: str | Path, params: dict[str, str] | None = None) -> Program:
    """Load, check and compile a rule file (raises RuleError(s) or ParamError)."""
    tree = load_tree(path)
    program = _Builder(tree, str(path), dict(params or {})).build()
    program.overrides = dict(params or {})
    return program


sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
