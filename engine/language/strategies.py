"""Strategies: AI players written as rule files, run by the same engine.

A strategy file names the game it plays and holds rules over what its seat
can see (:meth:`Memory.seen_by`: hidden cards are placeholders, hidden
variables None).  Its expressions are compiled against the game's own
symbols, so they call the game's functions (``beats(c, best_card())``) and
read its state and zones.

* **Decision rules** run when the seat must move: they are matched by an
  :class:`Agenda` over the seat's view, so priority, the conflict-resolution
  ``strategy`` and refraction are the game engine's.  A rule with ``choose``
  proposes the argument of an option (a card, a bid); if that is not one of
  the legal options (or None) the rule falls through to the next activation.
  A rule without ``choose`` only thinks: its ``then`` updates the memory and
  may activate other rules.  ``move: NAME`` limits a rule to decisions that
  offer that move; in every decision rule ``options`` is the list of legal
  arguments (of that move, or of all offered moves).
* **Observation rules** (``observe: MOVE``) run after any player makes that move,
  with ``player`` and the move's argument bound (a card the seat cannot see
  is a placeholder): the strategy's way to remember cards played, voids
  shown, bids.
* **Memory**: ``memory: {name: INIT}`` is private to the seat and kept for
  the whole game, or ``name: {init: INIT, reset: EXPR}``: started again from
  INIT whenever EXPR's value changes (``reset: round_number``: one hand); ``me`` is the seat's player.
  Actions may change only the memory (the compiler refuses anything else).
* **Default**: when no rule proposes a legal option, ``default:`` decides:
  ``first`` (the first legal option, the default), ``random`` (the seat's
  seeded generator) or any agent name (``minimax``, ``ismcts``...).

A stronger level ``extends`` a weaker one and adds rules (``override`` and
``remove`` replace or delete them by name), exactly like a game's variants.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from ..errors import Location, RuleError, RuleErrors, did_you_mean
from ..program import LEAVE, Program, RuleSpec, VarSpec
from . import nodes as n
from .builder import Builder, agenda_plans, collector_paused
from .compiler import Compiler, Unit, identifier_problem
from .linker import Module, compile_module, linked_plans, names_read, resolve_specs
from .loader import Map, Seq, beside, load_tree, written_as_strategy
from .rules import ReadRule, rule_units, with_given
from .sections import function_reads
from .shapes import shapes_checked
from .shipped import STRATEGIES, is_file, strategy_folders
from .vocabulary import AGENT_NAMES, STRATEGY_FILE, STRATEGY_GROUP_KEYS, STRATEGY_RULE_KEYS, STRATEGY_SECTIONS

OFFERED = "__offered"  # the legal arguments by move, in the view's variables (no rule can name it)
BEGUN = "__begun"  # the values of the compound move begun (Game.begun), in the view's variables (as OFFERED)


@dataclass
class Observation:
    """An ``observe: MOVE`` rule, compiled: condition and actions of (player, argument)."""

    name: str
    move: str
    priority: float
    when: Callable[..., Any]
    then: Callable[..., Any]


@dataclass
class Strategy:
    """A compiled strategy file, for one compiled game."""

    name: str
    path: str
    game: Program
    program: Program  # the game's symbols plus the strategy's memory, functions and decision rules
    memory: list[VarSpec]  # VarSpecs of the private memory
    observations: dict[str, list[Observation]] = field(default_factory=dict)  # by move
    default: str = "first"
    default_where: Location | None = None  # where `default:` is written (errors in making it are reported there)
    # memory name -> f(view, vars): the memory restarts when it changes
    resets: dict[str, Callable[..., Any]] = field(default_factory=dict)
    # move -> the names of the game's variables and zones that its observation rules and the resets read (through
    # functions too): a view for observing that move holds no others (Memory.seen_by)
    observed_reads: dict[str, frozenset[str]] = field(default_factory=dict)
    decision_reads: frozenset[str] | None = None  # the same for deciding: what every other part of the strategy reads


class NamedGame(Protocol):
    """A game as far as finding its strategy files goes: its name (a Program, or a rule file glanced at)."""

    @property
    def name(self) -> str: ...


# The names a strategy's rules are given, which its memory and functions cannot take (they would be hidden)
RESERVED = {"me": "the seat's player", "options": "a decision rule's legal arguments of its move"}


def strategy_path(spec: str, game: NamedGame) -> Path | None:
    """The file a ``--seat`` name means: a path, ``GAME/LEVEL``, or a level of the game being played."""
    given = Path(spec)
    if given.suffix in (".yaml", ".yml"):
        return given if is_file(given) else None
    candidates = [STRATEGIES / f"{spec}.yaml"]
    candidates += [d / f"{spec}.yaml" for d in strategy_folders(game.name)]
    return next((c for c in candidates if is_file(c)), None)


def compile_strategy(path: str | Path, game: Program) -> Strategy:
    """Load, check and compile a strategy file against a compiled game (RuleError(s) if it is wrong).

    Its ``default:`` is checked by name here; making it (its options, defaults that
    lead back to this file) is checked by :func:`naipes.agents.strategy.load_strategy`.
    """
    with collector_paused():
        tree = load_tree(path)
        with shapes_checked(tree, STRATEGY_FILE):
            return _compiled_strategy(tree, path, game)


def _compiled_strategy(tree: Map, path: str | Path, game: Program) -> Strategy:
    errors = [RuleError(f"unknown section '{key}' in a strategy file", tree.key_loc(key),
                        did_you_mean(str(key), STRATEGY_SECTIONS)
                        or f"sections: {', '.join(sorted(STRATEGY_SECTIONS))}")
              for key in tree if key not in STRATEGY_SECTIONS]
    try:
        game_name = _declared_game(tree)
        if not game.name.startswith(game_name):  # a game's variants (GAME_official) play its strategies
            errors.append(RuleError(f"this strategy plays {game_name}, not {game.name}", tree.loc("game")))
    except RuleError as error:
        errors.append(error)
    default = beside(str(tree.get("default", "first")), tree.loc("default") if "default" in tree else None)
    if not _is_agent_name(default, game):
        errors.append(RuleError(f"default '{default}' is not first, random, or an agent", tree.loc("default")))
    if errors:
        raise RuleErrors(errors)
    builder = _StrategyBuilder(tree, str(path), game)
    program = builder.build()
    memory = list(program.state)
    return Strategy(_strategy_name(tree, path), str(path), game, program, memory, builder.resolved_observations,
                    default, tree.loc("default") if "default" in tree else tree.where, builder.resolved_resets,
                    builder.observed_reads, builder.decision_reads)


def is_strategy_file(path: str | Path) -> bool:
    """Whether a YAML file is a strategy (under a strategies/ folder, or written like one)."""
    if "strategies" in Path(path).parts:
        return True
    return written_as_strategy(load_tree(path))


def strategy_game(path: str | Path) -> str:
    """The rule file a strategy file is written for (its ``game:``)."""
    return _declared_game(load_tree(path))


def strategy_game_at(path: str | Path) -> tuple[str, Location | None]:
    """A strategy file's ``game:`` and where it is written."""
    tree = load_tree(path)
    return _declared_game(tree), tree.loc("game")


def _declared_game(tree: Map) -> str:
    game = tree.get("game")
    if not isinstance(game, str) or not game:
        raise RuleError("a strategy file names the game it plays: 'game: <rule file name>'",
                        tree.loc("game") if "game" in tree else tree.where)
    problem = identifier_problem(game, "game")
    if problem:  # a name, never a path: a strategy cannot make the loader read an arbitrary file
        raise RuleError(f"{problem}; 'game:' is the name of a rule file, such as pocha", tree.loc("game"))
    return game


def _is_agent_name(name: str, game: Program) -> bool:
    return name in ("first", "random") or name.partition(":")[0] in AGENT_NAMES or strategy_path(name, game) is not None


def _strategy_name(tree: Map, path: str | Path) -> str:
    game = tree.get("game")
    return f"{game}/{Path(path).stem}" if isinstance(game, str) else Path(path).stem


def _own_sections(strategy: Map) -> Map:
    """The strategy's own sections under the names the section readers know: its memory is its state
    (and player_state, the memory kept per player)."""
    tree = Map()
    tree.where, tree.key_locs, tree.value_locs = strategy.where, {}, {}
    for own in ("memory", "functions", "strategy"):
        if own not in strategy:
            continue
        value = strategy[own]
        if own != "strategy" and not isinstance(value, Map):
            raise RuleError(f"'{own}' must be a mapping (name: value)", strategy.loc(own))
        sections = {"state": _memory(value, False), "player_state": _memory(value, True)} if own == "memory" \
            else {own: value}
        for section, entries in sections.items():
            tree[section] = entries
            tree.key_locs[section], tree.value_locs[section] = strategy.key_loc(own), strategy.loc(own)
    return tree


def _memory(memory: Map, per_player: bool) -> Map:
    """The memory kept per player (or not) as variables: `reset:` and `per_player:` are the strategy's own
    keys (read by _StrategyBuilder)."""
    out = _copy(memory)
    for name, spec in memory.items():
        if _per_player(spec) != per_player:
            del out[name]
        elif isinstance(spec, Map) and {"reset", "per_player"} & set(spec):
            out[name] = _copy(spec)
            for key in ("reset", "per_player"):
                out[name].pop(key, None)
    return out


def _per_player(spec: Any) -> bool:
    return isinstance(spec, Map) and spec.get("per_player") is True


def _one_per_player(init: Callable[..., Any]) -> Callable[..., Any]:
    """A per-player memory's start: its INIT for each player, in seat order."""
    return lambda memory, V: tuple(init(memory, V, player) for player in memory.players)


def _copy(mapping: Map) -> Map:
    out = Map(mapping)
    out.where, out.key_locs, out.value_locs = mapping.where, dict(mapping.key_locs), dict(mapping.value_locs)
    return out


class _StrategyBuilder(Builder):
    """Builds a strategy's program over its game's compiled one: the game's symbols, and its
    generated functions called where they are, plus the strategy's memory, functions and rules."""

    def __init__(self, strategy: Map, path: str, game: Program):
        super().__init__(_own_sections(strategy), path, game.overrides)
        self.sym = copy.deepcopy(game.symbols)
        self.compiler = Compiler(self.sym)
        self.strategy_tree, self.game = strategy, game
        memory = strategy.get("memory")
        self.memory_names = {str(k) for k in memory} if isinstance(memory, Map) else set()
        self.observations: list[tuple[Any, ...]] = []
        self.resolved_observations: dict[str, list[Observation]] = {}
        self.decision_rules: dict[int, RuleSpec] = {}
        self.choices: dict[int, str] = {}  # rule index -> the generated name of its `choose`
        self.resets: dict[str, str] = {}  # memory name -> the generated name of its `reset:` expression
        self.resolved_resets: dict[str, Callable[..., Any]] = {}
        self.read_units: dict[str | None, list[Unit]] = {None: []}  # move -> its observation units; None: resets
        self.observed_reads: dict[str, frozenset[str]] = {}
        self.decision_reads: frozenset[str] | None = None

    def build(self, to_c: bool = True) -> Program:
        game = self.game
        self.declare_own_names()
        self.compile_functions()
        memory = self.variables("state", False, set())  # (a strategy's memory has no 'reset:' of a phase)
        per_player = self.variables("player_state", True, set())
        strategy = self.strategy()
        read = self.rules(game.phases, strategy)
        rules = [r.spec for r in read]
        self.raise_errors()
        reads = function_reads(self.defs, known=game.function_reads)
        resets = names_read(self.read_units[None], reads)
        self.observed_reads = {move: names_read(units, reads) | resets for move, units in self.read_units.items()
                               if move is not None}
        self.decision_reads = names_read([d.unit for d in self.defs if d.kind not in ("observe_when", "observe_then")],
                                         reads)
        plans = agenda_plans(self.defs, rules, rule_units(read), reads)
        # (in C only when its game is: a game loaded as Python, a web page's params say, keeps its strategies so)
        module = compile_module(self.defs, self.sym, self.path, base=game.namespace,
                                to_c=to_c and len(game.code_names) > 1)
        resolve_specs(module, {}, memory + per_player, [], None, rules)
        for var in per_player:
            var.init = _one_per_player(var.init)
        memory += per_player
        self.resolve_more(module)
        return replace(game, name=f"{game.name} strategy", path=self.path, state=memory, rules=rules,
                       strategy=strategy, matchings=linked_plans(module, plans),
                       function_reads=reads,
                       line_origins=module.line_origins, code_names=module.code_names, symbols=self.sym,
                       namespace=module.namespace, facts=module.facts, caches={}, base=game)

    def declare_own_names(self) -> None:
        """The memory (global variables of the strategy), `me` and the strategy's functions, none of
        them a name the game already has."""
        sym = self.sym
        taken = set(sym.globals) | sym.zones | set(sym.params) | set(sym.functions) | set(sym.records) | \
            set(sym.player_attrs)
        for section in ("state", "player_state", "functions"):
            entries = self.section(section, Map, Map())
            for key in entries:
                name = str(key).split("(")[0].strip()
                if name in taken:
                    self.error(f"'{name}' is already a name of the game: choose another", entries.key_loc(key))
                elif name in RESERVED:
                    self.error(f"'{name}' is reserved in strategies ({RESERVED[name]}): choose another name",
                               entries.key_loc(key))
                elif section == "state":
                    self.new_symbol(name, entries.key_loc(key), False, None)
                elif section == "player_state":
                    sym.player_memory.add(name)
        memory = self.strategy_tree.get("memory")
        for name, spec in memory.items() if isinstance(memory, Map) else []:
            if isinstance(spec, Map) and not isinstance(spec.get("per_player", False), bool):
                self.error(f"memory '{name}': 'per_player' is true or false", spec.loc("per_player"))
        sym.globals["me"] = None
        self.declare_functions()

    def resolve_more(self, module: Module) -> None:
        self.resolved_resets = {name: module.resolve(reset) for name, reset in self.resets.items()}
        for rule_index, choose in self.choices.items():
            self.decision_rules[rule_index].choose = module.resolve(choose)
        for name, move, priority, when, then in self.observations:
            self.resolved_observations.setdefault(move, []).append(
                Observation(name, move, priority, module.resolve(when), module.resolve(then)))
        for rules in self.resolved_observations.values():
            rules.sort(key=lambda o: -o.priority)  # stable: declaration order among equals

    def rules(self, phases: list[str], strategy: str) -> list[ReadRule]:
        section = self.strategy_tree.get("rules") or Seq()
        if not isinstance(section, Seq):
            self.error("'rules' must be a list of rules", self.strategy_tree.loc("rules"))
            return []
        self.compile_resets()
        self.compiler.writable = self.memory_names
        out: list[ReadRule] = []
        seen: dict[str, Location] = {}
        ordered, inherited = self.in_order(section)
        for i, spec in ordered:
            if isinstance(spec, Map) and "group" in spec:
                out += self.group(spec, len(out), seen, phases, strategy, inherited)
                continue
            if not isinstance(spec, Map):
                self.error("a strategy rule is a mapping (name:, when:, choose:, then:, ...)", section.loc(i))
                continue
            self.check_keys(spec, STRATEGY_RULE_KEYS, "a strategy rule")
            name = self.rule_name(spec, i, seen)
            if "observe" in spec:
                self.observation(i, name, spec, inherited)
            else:
                rule = self.decision_rule(len(out), name, spec, phases, strategy, inherited)
                if rule is not None:
                    out.append(rule)
        self.compiler.writable = None
        return out

    def group(self, group: Map, first_index: int, seen: dict[str, Location], phases: list[str],
              strategy: str, inherited: dict[str, float]) -> list[ReadRule]:
        """`- group: NAME` with `when:` (and `move:`) shared by its `rules:`, decision rules that add their own
        (`inherited`: the priorities taken by before/after, Rules.in_order)."""
        self.check_keys(group, STRATEGY_GROUP_KEYS, "a group of rules")
        problem = identifier_problem(group["group"], "group")
        if problem:
            self.error(problem, group.loc("group"))
        inner = group.get("rules")
        if not isinstance(inner, Seq) or not inner:
            self.error(f"group '{group['group']}' needs 'rules:', a list of decision rules", group.where)
            return []
        out: list[ReadRule] = []
        for i, spec in enumerate(inner):
            if not isinstance(spec, Map):
                self.error("a strategy rule is a mapping (name:, when:, choose:, then:, ...)", inner.loc(i))
                continue
            self.check_keys(spec, STRATEGY_RULE_KEYS - {"observe", "before", "after"},
                            f"a rule of group '{group['group']}'")
            name = self.rule_name(spec, i, seen)
            rule = self.decision_rule(first_index + len(out), name, spec, phases, strategy, inherited, group)
            if rule is not None:
                out.append(rule)
        return out

    def compile_resets(self) -> None:
        """`memory: NAME: {init: INIT, reset: EXPR}`: NAME starts again from INIT whenever EXPR's value changes."""
        memory = self.strategy_tree.get("memory")
        for name, spec in memory.items() if isinstance(memory, Map) else []:
            if not (isinstance(spec, Map) and "reset" in spec):
                continue
            what = f"reset of memory '{name}'"
            text = self.expr_text(spec["reset"], spec.loc("reset"), what)
            unit = None if not text else self.compiler.expression(text, {}, what=what)
            if unit is not None:
                self.resets[str(name)] = self.define("memory_reset", (), unit, False, what)
                self.read_units[None].append(unit)

    def unknown_anchor_hint(self, target: Any) -> str | None:
        if isinstance(target, str) and target in self.game.moves:
            return f"an observation rule (after anyone plays {target}) is written 'observe: {target}'"
        return None

    def move_named(self, spec: Map, key: str, decision: bool = False) -> str | None:
        """The move `key` names (`decision`: it may also be LEAVE, where the game asks `any of` players, or a part
        of a compound move, MOVE.PART)."""
        move = spec.get(key)
        if decision and move == LEAVE and "any" in self.game.asks_together:
            return LEAVE
        parts = {p.key: p.key for m in self.game.moves.values() for p in m.parts}
        if decision and move in parts:
            return parts[move]
        if move is not None and (not isinstance(move, str) or move not in self.game.moves):
            known = [*self.game.moves, *(parts if decision else ())]
            compound = self.game.moves.get(str(move).partition(".")[0])
            hint = (f"the parts of '{compound.name}' are {', '.join(p.key for p in compound.parts)} (a part chosen "
                    f"again and again is named by its collect:)" if decision and compound and compound.parts else
                    did_you_mean(str(move), known) or f"moves: {', '.join(known)}")
            self.error(f"'{move}' is not a move of {self.game.name}", spec.loc(key), hint)
            return None
        return move

    def decision_rule(self, index: int, name: str, spec: Map, phases: list[str], strategy: str,
                      inherited: dict[str, float], group: Map | None = None) -> ReadRule | None:
        move = self.move_named(spec if "move" in spec or group is None else group, "move", decision=True)
        # `options`: the legal arguments of its move (None when the move is not offered: the rule does not apply)
        offered = n.global_name(OFFERED)
        options = (("options", "list", n.IfExp(n.Subscript(offered, n.Literal(move)),
                                               n.Compare(n.Literal(move), [("in", None)], [offered]),
                                               n.Literal(None))),) + self.begun_values(move)
        read = self.rule(index, name, spec, self.priority(name, spec, inherited), phases, strategy, given=options,
                         groups=(group,) if group is not None else ())
        if read is None:
            return None
        rule = read.spec
        rule.move = move
        self.decision_rules[index] = rule
        if "choose" in spec:
            text = self.expr_text(spec["choose"], spec.loc("choose"), f"rule '{name}' choose")
            scope = {**{value: kind for value, kind, _ in options}, **dict.fromkeys(rule.variables)}
            unit = None if not text else self.compiler.expression(text, scope, what=f"choice of rule '{name}'",
                                                                  allow_random=True)
            self.choices[index] = self.define("rule_choose", rule.variables,
                                              unit and with_given(options, unit), True, f"choice of rule '{name}'")
        return read

    def begun_values(self, move: str | None) -> tuple[tuple[str, None, n.Expr], ...]:
        """For a rule choosing a part of a compound move (MOVE.PART), the values chosen before it by their names
        in the game's move (its argument, the earlier parts, a repeated part's values so far: Game.begun)."""
        spec = self.game.moves.get(move.split(".")[0]) if move is not None and "." in move else None
        if spec is None or spec.arg is None:
            return ()
        index = next(i for i, part in enumerate(spec.parts) if part.key == move)
        names = (spec.arg, *(part.name for part in spec.parts[:index]),
                 *((spec.parts[index].name,) if spec.parts[index].until is not None else ()))
        begun, offered = n.global_name(BEGUN), n.global_name(OFFERED)  # (None where the part is not offered)
        return tuple((name, None, n.IfExp(n.Subscript(begun, n.Literal(i)),
                                          n.Compare(n.Literal(move), [("in", None)], [offered]), n.Literal(None)))
                     for i, name in enumerate(names))

    def observation(self, index: int, name: str, spec: Map, inherited: dict[str, float]) -> None:
        move = self.move_named(spec, "observe")
        for key in ("choose", "move", "for", "phase"):
            if key in spec:
                self.error(f"'{key}' is not allowed in an observation rule (observe: MOVE)", spec.key_loc(key))
        if move is None:
            return
        arg = self.game.moves[move].arg or "_"
        scope = {"player": "player", **({arg: None} if arg != "_" else {})}
        c = self.compiler
        when = self.expr_text(spec.get("when", True), spec.loc("when"), f"rule '{name}' when")
        cond = None if not when else c.expression(when, dict(scope), what=f"condition of rule '{name}'")
        act = c.block(self.texts(spec.get("then", "pass"), spec.loc("then"), f"rule '{name}' then"), dict(scope),
                      what=f"actions of rule '{name}'")
        params = ("player", arg)
        self.read_units.setdefault(move, []).extend(u for u in (cond, act) if u is not None)
        self.observations.append((name, move, self.priority(name, spec, inherited),
                                  self.define("observe_when", params, cond, False, f"condition of rule '{name}'"),
                                  self.define("observe_then", params, act, True, f"actions of rule '{name}'")))
