"""From the generated definitions to one compiled module, and the agenda's read indexes.

Every condition, action, move and function of a rule file is one generated
Python function; the linker writes them into one module, checks its source
(``codecheck``), compiles it once and resolves each spec's function names.
It also builds the indexes the agenda reacts with: which rules read which names.
"""
from __future__ import annotations

import ast
import sys
import warnings
from collections import namedtuple
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from itertools import product
from typing import Any

from ..errors import GameError, Location, RuleError
from ..library.builtins import BUILTINS
from ..library.limits import minus, modulo, plus, times
from ..program import (
    WORD,
    CardSpec,
    FactBase,
    Join,
    Matching,
    MoveSpec,
    PlayerBase,
    RuleSpec,
    VarSpec,
    ViewSpec,
    ZoneSpec,
    attribute,
    get,
    interned,
    kind_of,
    readable_by_name,
)
from ..runtime.agenda import DYNAMIC_STRATEGIES, Activation
from ..runtime.memory import REFRESH
from . import nodes as n
from .cmodules import c_module
from .codecheck import check_generated
from .codegen import Origin, write_module
from .compiler import ANY, CARD_BUILTIN_ATTRS, PLAYER_BUILTIN_ATTRS, ZONE_ATTRS, Symbols, Unit
from .facts import Facts, module_facts
from .passes import optimise_definitions
from .sections import Definition


@dataclass
class Module:
    """A rule file's generated module, compiled."""

    code_names: tuple[str, ...]  # the file names its functions carry, Python's and C's (tracebacks are mapped back
    # through line_origins: both have the lines of one source)
    namespace: dict[str, Any]
    line_origins: dict[int, Origin]  # generated line -> (what it is, rule-file location)
    facts: Facts  # what its functions do that the engine asks about

    def resolve(self, name: Any) -> Any:
        """The generated function a spec's field names (None stays None): specs hold names until linked."""
        return name and self.namespace[name]


def compile_module(defs: list[Definition], sym: Symbols, path: str, base: dict[str, Any] | None = None,
                   to_c: bool = True) -> Module:
    """Write every definition into one module, check it, and compile it, to C too where it can be and `to_c`
    (`base`: the namespace of a module compiled before, whose functions this one calls: a strategy's calls its
    game's)."""
    code_name = f"<naipes {path}>"
    source, origins, facts = module_source(defs)
    with _too_deep_for_python(origins):
        tree = ast.parse(source)
    check_generated(tree, readable_attributes(sym))  # what the compiler wrote
    # Generated code names only M, V, v_*, F_* and B_*; these few builtins serve its own scaffolding.
    namespace: dict[str, Any] = {"__builtins__": {"list": list, "dict": dict, "zip": zip, "range": range},
                                 "B_product": product}
    namespace.update({f"B_{n}": b.func for n, b in BUILTINS.items()})
    namespace.update({f"B_{n}_keyed": b.keyed for n, b in BUILTINS.items() if b.keyed is not None})
    namespace.update(B_UNSET=object(), B_times=times, B_plus=plus, B_minus=minus, B_modulo=modulo, B_lookup=lookup,
                     B_replaced=replaced, B_append=list.append)
    namespace.update({f"R_{name}": record_class(name, fields, name in sym.facts)
                      for name, fields in sym.records.items()})
    namespace.update({name: value for name, value in (base or {}).items() if name[:2] in ("F_", "R_")})
    with warnings.catch_warnings(), _too_deep_for_python(origins):
        warnings.simplefilter("ignore", SyntaxWarning)  # inlining can write `2 is not None` (rightly warned: a literal)
        code = compile(tree, code_name, "exec")
    exec(code, namespace)
    in_c = c_module(source, tree, namespace, path, base) if to_c else None
    if in_c is None:
        return Module((code_name,), namespace, origins, facts)
    namespace.update(in_c.names)
    return Module((code_name, in_c.code_name), namespace, origins, facts)


def module_source(defs: list[Definition]) -> tuple[str, dict[int, Origin], Facts]:
    """The Python source of the definitions, one function each, after the optimiser's passes over their trees
    (which may add functions), each line's origin (generated line -> (what it is, rule-file location)), and the
    facts of its functions."""
    definitions = [n.Definition(d.name, d.params, d.unit.tree, d.what, d.kind) for d in defs]
    optimise_definitions(definitions)
    return (*write_module(definitions), module_facts(definitions))


def readable_attributes(sym: Symbols) -> set[str]:
    """Every attribute generated code may read (each behind the engine's prefix: naipes.program.attribute)."""
    return {attribute(name) for name in (*sym.card_attrs, *sym.player_attrs, *CARD_BUILTIN_ATTRS,
                                         *PLAYER_BUILTIN_ATTRS, *ZONE_ATTRS, *sym.record_fields)}


@contextmanager
def _too_deep_for_python(origins: dict[int, Origin]) -> Iterator[None]:
    """Python's own limits on what it compiles (nested brackets, recursion), met where the parser's (see
    naipes.language.parser.MAX_NESTING) let a text through, as a located error rather than a traceback."""
    try:
        yield
    except (SyntaxError, RecursionError, MemoryError) as exc:
        line = getattr(exc, "lineno", None)
        what, where = origins.get(line, ("the rule file", None)) if line else ("the rule file", None)
        raise RuleError(f"{what} is too deep to compile ({type(exc).__name__}: {exc})", where,
                        "split it: name a part with 'let', or write a function") from None


def resolve_specs(module: Module, moves: dict[str, MoveSpec], variables: list[VarSpec], views: list[ViewSpec],
                  cards: CardSpec | None, rules: list[RuleSpec]) -> None:
    """Replace the generated function names in the specs by the functions."""
    resolve = module.resolve
    for view in views:
        view.value = resolve(view.value)
    for var in variables:
        var.init = resolve(var.init)
    if cards is not None:
        cards.build = resolve(cards.build)
        cards.tables = {name: (of, resolve(f)) for name, (of, f) in cards.tables.items()}
        cards.name = resolve(cards.name)
    for move in moves.values():
        move.options, move.when, move.label = resolve(move.options), resolve(move.when), resolve(move.label)
        move.public, move.space, move.effect = resolve(move.public), resolve(move.space), resolve(move.effect)
        move.choices = resolve(move.choices)
        for part in move.parts:
            part.choices, part.label, part.public = resolve(part.choices), resolve(part.label), resolve(part.public)
            part.space, part.until, part.when = resolve(part.space), resolve(part.until), resolve(part.when)
        move.cascade = [(n, resolve(f)) for n, f in move.cascade]
    for rule in rules:
        rule.condition, rule.action = resolve(rule.condition), resolve(rule.action)
        if rule.activation is not None:  # (made with the plans, before the functions were compiled)
            rule.activation.action = rule.action
        rule.domains = [resolve(d) for d in rule.domains]
        rule.join = tuple(None if j is None else _linked_join(j, resolve) for j in rule.join)


def _linked_join(join: Join, resolve: Callable[[Any], Any]) -> Join:
    """A rule's Join with the names of its generated functions resolved (those of its lookups the other way too)."""
    return Join(resolve(join.domain), tuple(map(resolve, join.tests)), resolve(join.key), resolve(join.probe),
                tuple((later, _linked_join(other, resolve)) for later, other in join.back))


def linked_plans(module: Module, plans: list[tuple[Matching, Any]]) -> tuple[Matching, ...]:
    """The agenda's plans, each with its generated evaluation (named by `plans`) resolved in `module`."""
    return tuple(replace(plan, evaluate=module.resolve(name)) for plan, name in plans)


def player_class(player_state: list[VarSpec], zones: list[ZoneSpec]) -> type:
    """The class of the program's players: a slot per player variable and per-player zone."""
    player_slots = tuple(attribute(v.name) for v in player_state)
    zone_slots = tuple(attribute(z.name) for z in zones if z.per_player)
    return readable_by_name(type("Player", (PlayerBase,), {"__slots__": player_slots + zone_slots,
                                                          "state_slots": player_slots, "zone_slots": zone_slots}),
                            [v.name for v in player_state] + [z.name for z in zones if z.per_player])


def numbers_only(function: Callable[..., Any] | None, section: str,
                 at: Location | None) -> Callable[..., Any] | None:
    """`result:`, `evaluation:` or `estimate:` as the engine calls it, for each player: a number that a float can
    hold (the engine sums them and takes their means), or a located error saying what it gave instead."""
    if function is None:
        return None

    def number(memory: Any, V: Any, player: Any) -> Any:
        value = function(memory, V, player)
        if isinstance(value, (int, float)) and -MAX_FLOAT <= value <= MAX_FLOAT:
            return value
        shown = "a number no float can hold" if isinstance(value, (int, float)) else kind_of(value)
        raise GameError(f"'{section}' gives {shown} for {player.name}, where a number is needed", at)
    return number


MAX_FLOAT = sys.float_info.max


def reads_through_calls(unit: Unit, functions: dict[str, set[Any]]) -> set[str]:
    """The names `unit` reads, itself or through the rule-file functions it calls (what each reads: `functions`,
    as function_reads makes it)."""
    reads = set(unit.reads)
    for fname in unit.calls:
        reads |= functions.get(fname, set())
    return {r if isinstance(r, str) else r[0] for r in reads}


def condition_data(unit: Unit, functions: dict[str, set[Any]], variables: list[str],
                   kinds: set[str]) -> tuple[tuple[str, ...], tuple[Any, ...], bool]:
    """What a rule's condition reads, for the agenda: the kinds of fact it reads, the other names and players'
    variables it reads (as RuleSpec.data_reads holds them), both in a fixed order, and whether it reads those
    kinds only by looking their facts up (`exists`, itself: RuleSpec.probed)."""
    reads = _with_calls(unit, functions)
    looked_up = sorted(read for read in reads if isinstance(read, str) and read in kinds)
    through_calls = {read for name in unit.calls for read in functions.get(name, ()) if read in kinds}
    data: set[Any] = set()
    for read in reads:
        if isinstance(read, str):
            if read not in kinds:
                data.add(read)
        elif isinstance(read[1], int):
            data.add(read)
        elif read[1] in variables:
            data.add((read[0], (variables.index(read[1]),)))
        else:
            data.add((read[0], None))
    probed = bool(looked_up) and set(looked_up) <= unit.lookups and not through_calls
    return tuple(looked_up), tuple(sorted(data, key=repr)), probed


def names_read(units: list[Unit], functions: dict[str, set[Any]]) -> frozenset[str]:
    """The names of variables and zones (a player's by its name) that `units` read, themselves or through the
    functions they call (`functions`: what each reads, as function_reads gives)."""
    return frozenset(r if isinstance(r, str) else r[0] for unit in units for r in _with_calls(unit, functions))


def read_indexes(rules: list[RuleSpec], units: dict[int, tuple[Unit, list[Unit]]],
                 functions: dict[str, set[Any]]) -> tuple[Matching, ...]:
    """What the agenda reacts with: which rules read which names, as bit masks (see Matching), one plan per
    word of WORD rules of the static conflict order."""
    dynamic = any(rule.strategy in DYNAMIC_STRATEGIES for rule in rules)
    order = sorted(rules, key=lambda r: (-r.priority, r.index))
    return tuple(_word_plan(tuple(order[start:start + WORD]), units, functions, dynamic)
                 for start in range(0, max(len(order), 1), WORD))


def _word_plan(slots: tuple[RuleSpec, ...], units: dict[int, tuple[Unit, list[Unit]]], functions: dict[str, set[Any]],
               dynamic: bool) -> Matching:
    """The plan of one word of rules (`slots`: its rules in conflict order)."""
    rules = sorted(slots, key=lambda r: r.index)
    for slot, rule in enumerate(slots):
        rule.bit = 1 << slot
        rule.activation = None if rule.variables else Activation(rule, (), (), (), None)  # (its action: resolve_specs)
    reader_kinds = ("global", "attr", "bound", "seat", "domain", "guards", "kept")
    readers: dict[str, dict[Any, Any]] = {k: {} for k in reader_kinds}
    for rule in rules:
        cond_unit, domain_units = units[rule.index]
        _index_rule(readers, rule, cond_unit, domain_units, functions)
    g, a, b, s, d, guards, k = (readers[key] for key in ("global", "attr", "bound", "seat", "domain", "guards", "kept"))
    reactions = {name: (guards.get(name), g.get(name, 0), d.get(name, 0), 0, k.get(name, 0))
                 for name in set(g) | set(guards) | set(k) | set(d) - set(a)}
    reactions.update({REFRESH + rule.name: (None, 0, 0, rule.bit, 0) for rule in rules})  # `refresh RULE`
    attrs = {attr: (a.get(attr, 0), d.get(attr, 0), tuple(b.get(attr, ())), s.get(attr, {}))
             for attr in set(a) | set(b) | set(d) | set(s)}
    bands = tuple(sum(other.bit for other in slots if other.priority == rule.priority) for rule in slots)
    simple = {name: readers for name, (guard, readers, domain, refreshed, looked_up) in reactions.items()
              if not (guard or domain or refreshed or looked_up)}
    guarded = {name: sum(by_value.values()) for name, by_value in guards.items()}
    incremental: dict[str, int] = {}
    for rule in rules:
        for kind in {k for k in rule.fact_levels if k}:
            levels = [i for i, unit in enumerate(units[rule.index][1])
                      if kind in {r if isinstance(r, str) else r[0] for r in _with_calls(unit, functions)}]
            if all(rule.fact_levels[i] == kind for i in levels):
                _add(incremental, kind, rule.bit)
    return Matching(slots, tuple(rules), _interned_keys(reactions), _interned_keys(attrs), _interned_keys(guards),
                    _interned_keys(guarded), sum(rule.bit for rule in rules if rule.variables), bands, dynamic,
                    _interned_keys(simple), _interned_keys(incremental))


def _interned_keys(by_key: dict[Any, Any]) -> dict[Any, Any]:
    """`by_key` with its names interned (a written key, a name the generated code interns, is then found by
    identity), and its (attr, seat) keys as they are."""
    return {interned(key) if isinstance(key, str) else key: value for key, value in by_key.items()}


def _with_calls(unit: Unit, functions: dict[str, set[Any]]) -> set[Any]:
    """What `unit` reads, itself or through the functions it calls."""
    reads = set(unit.reads)
    for fname in unit.calls:
        reads |= functions.get(fname, set())
    return reads


def evaluator(matching: Matching) -> Unit | None:
    """The agenda's evaluation of the rules without variables as one generated function (the optimiser then
    inlines their conditions): f(M, V, stale, live) -> live with every rule of `stale` re-evaluated (the
    agenda clears their refraction). The rules are found by halving: a test of the bits of each half of the
    rules, then of each quarter, and so on, so a few stale rules among hundreds cost a few tests. None under
    recency or breadth (the agenda stamps each activation there)."""
    if matching.dynamic:
        return None
    rules = [rule for rule in matching.slots if not rule.variables]
    return Unit(_stale_tests(rules) + [n.Return(n.local("__live"))])


def _stale_tests(part: list[RuleSpec]) -> list[n.Stmt]:
    """The evaluator's tests of the rules of `part`, halving (a plain recursive function, not a closure calling
    itself, which is a reference cycle: it would keep a load's whole tree for the garbage collector to free)."""
    if len(part) > EVALUATED_ONE_BY_ONE:
        half = len(part) // 2
        return [_stale(sum(rule.bit for rule in side), _stale_tests(side), side[0].location)
                for side in (part[:half], part[half:])]
    found: list[n.Stmt] = []
    for rule in part:
        bit, at = rule.bit, rule.location
        if rule.guard_only:  # the condition is its guard, which holds (the agenda retracts closed rules first)
            found.append(_stale(bit, [n.MaskUpdate("__live", "|", bit, at=at)], at))
        else:
            live, dead = n.MaskUpdate("__live", "|", bit, at=at), n.MaskUpdate("__live", "&", ~bit, at=at)
            found.append(_stale(bit, [n.If(n.Generated(str(rule.condition)), [live], [n.Branch(None, [dead], at=at)],
                                           at=at)], at))
    return found


def _stale(bits: int, body: list[n.Stmt], at: Any) -> n.If:
    return n.If(n.BinOp(n.local("__stale"), "&", n.Bits(bits)), body, [], at=at)


EVALUATED_ONE_BY_ONE = 4  # below this many rules, the generated evaluation tests each rule's bit


def _index_rule(readers: dict[str, dict[Any, Any]], rule: RuleSpec, cond_unit: Unit, domain_units: list[Unit],
                functions: dict[str, set[Any]]) -> None:
    reads = set(cond_unit.reads)
    for fname in cond_unit.calls:
        reads |= functions.get(fname, set())
    bit = rule.bit
    for read in reads:
        if isinstance(read, str):
            if rule.guard is not None and read == rule.guard[0]:
                continue
            _add(readers["kept" if read in rule.cond_kinds else "global"], read, bit)
        elif read[1] == ANY:
            _add(readers["attr"], read[0], bit)
        elif isinstance(read[1], int):
            _add(readers["seat"].setdefault(read[0], {}), read[1], bit)
        else:
            readers["bound"].setdefault(read[0], []).append((rule, rule.variables.index(read[1])))
            rule.bound_reads = True
    for unit in domain_units:
        domain_reads = set(unit.reads)
        for fname in unit.calls:
            domain_reads |= functions.get(fname, set())
        for read in domain_reads:
            _add(readers["domain"], read if isinstance(read, str) else read[0], bit)
    if rule.guard is not None:
        _add(readers["guards"].setdefault(rule.guard[0], {}), rule.guard[1], bit)


def _add(masks: dict[Any, int], key: Any, bit: int) -> None:
    masks[key] = masks.get(key, 0) | bit


def record_class(name: str, fields: tuple[str, ...], fact: bool) -> type:
    """The class of a record, or of a kind of fact (a FactBase: see naipes.program): a named tuple whose fields
    are the declared ones behind the engine's prefix (naipes.program.attribute), shown by their declared names."""
    base = namedtuple(name, [attribute(f) for f in fields])  # type: ignore[misc]  # (names made at run time)

    def __repr__(self: tuple[Any, ...]) -> str:
        return f"{name}({', '.join(f'{f}={v!r}' for f, v in zip(fields, self))})"
    if not fact:
        return readable_by_name(type(name, (base,), {"__slots__": (), "__repr__": __repr__, "get": get}), fields)
    return readable_by_name(type(name, (FactBase, base), {
        "__slots__": (), "__repr__": __repr__, "kind": name, "__eq__": FactBase.__eq__, "__hash__": FactBase.__hash__,
        "__ne__": FactBase.__ne__}), fields)


def lookup(table: dict[Any, Any], key: Any, default: Any) -> Any:
    """A card table's value (generated code calls it B_lookup; no rule file can name it). Its keys are plain
    values written in the file: any other key is none of them, found without hashing it (a tuple hashes item by
    item, through every level it shares)."""
    kind = type(key)
    if kind is int or kind is str or kind is float or kind is bool or key is None:
        return table.get(key, default)
    return default


def replaced(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """`values` with item `index` replaced (a strategy's per-player memory, written as p.NAME = value)."""
    return values[:index] + (value,) + values[index + 1:]
