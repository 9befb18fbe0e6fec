"""The names a rule file declares (phases, zones, variables, functions, moves, card attributes): the symbol table."""
from __future__ import annotations

import re
from typing import Any

from ..errors import Location
from ..library.builtins import BUILTINS
from ..program import DEFAULT_STRATEGY, ZoneSpec
from ..runtime.agenda import STRATEGIES
from . import nodes as n
from .code import Code
from .compiler import SPECIAL_FORMS, declared_name_problem, identifier_problem, move_name_problem
from .loader import Map, Seq
from .parser import statement_words
from .sections import PARAM_TYPES, SIGNATURE, SectionReader, is_scalar, type_name
from .vocabulary import VISIBILITIES, ZONE_KEYS

FIRST_WORD = re.compile(r"\s*([A-Za-z_]\w*)")


class Declarations(SectionReader):
    """Reads ``strategy:``, declares every name, compiles ``functions:``."""

    def strategy(self) -> str:
        strategy = self.section("strategy", str, DEFAULT_STRATEGY)
        if strategy not in STRATEGIES:
            self.error(f"unknown conflict-resolution strategy '{strategy}'", self.tree.loc("strategy"),
                       f"choose one of: {', '.join(STRATEGIES)}")
            return DEFAULT_STRATEGY
        return str(strategy)

    def declare_team_variable(self, section: str, name: str, spec: Any) -> None:
        """`team: true`: a player variable his team shares (with `teams:` declared)."""
        if not (isinstance(spec, Map) and "team" in spec):
            return
        if spec["team"] is not True:
            if spec["team"] is not False:
                self.error(f"{section} '{name}': 'team' is true or false", spec.loc("team"))
            return
        if section != "player_state":
            self.error(f"state '{name}': only a per-player variable is shared by a team (player_state)",
                       spec.loc("team"))
        elif "teams" not in self.tree:
            self.error(f"player_state '{name}' is shared by a team: declare the teams (teams: parity, or lists of "
                       "seats)", spec.loc("team"))
        else:
            self.sym.team_attrs.add(str(name))

    def teams(self, most: int) -> Any:
        """`teams:` as Program.teams: 'parity', a tuple of tuples of seat indexes (below `most`), or None."""
        teams, where = self.tree.get("teams"), self.tree.loc("teams") if "teams" in self.tree else None
        if teams is None or teams == "parity":
            return teams
        seen: set[int] = set()
        if isinstance(teams, Seq) and all(isinstance(t, Seq) for t in teams):
            for seats in teams:
                for j, seat in enumerate(seats):
                    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < most or seat in seen:
                        self.error(f"a seat in 'teams' is an index from 0 to {most - 1}, in one team only: not "
                                   f"{seat!r}", seats.loc(j))
                    seen.add(seat)
            return tuple(tuple(seats) for seats in teams)
        self.error("'teams' is parity, or lists of seat indexes: [[0, 2], [1, 3]]", where)
        return None

    def declare(self, phases: list[str], stages: dict[str, list[str]]) -> list[ZoneSpec]:
        """Put every name a rule file declares into the symbol table (`stages`: each phase's stages, if any); the
        zones declared."""
        sym, tree = self.sym, self.tree
        sym.globals.update({"players": "list", "phase": "str" if phases else None})
        if phases:
            sym.enums["phase"] = tuple(phases)
        if stages:
            sym.globals["stage"] = "str"
            sym.enums["stage"] = tuple(dict.fromkeys(s for names in stages.values() for s in names))
            sym.first_stages = {phase: stages[phase][0] if phase in stages else None for phase in phases}
        sym.rules = self.rule_names()
        zone_specs = []
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
            zone_specs.append(ZoneSpec(str(name), per_player, str(visibility), bool(spec.get("ordered", True))))
            self.new_symbol(str(name), zones.key_loc(name), per_player, "zone")
            sym.zones.add(str(name))
        for section, per_player in (("state", False), ("player_state", True)):
            entries = self.section(section, Map, Map())
            for name in entries:
                self.new_symbol(str(name), entries.key_loc(name), per_player, None)
                values = self.declared_values(entries[name], f"{section} '{name}'")
                if values:
                    (sym.attr_enums if per_player else sym.enums)[str(name)] = values
                self.declare_team_variable(section, name, entries[name])
        self.declare_functions()
        self.declare_records()
        self.declare_records("facts")
        moves = self.section("moves", Map, Map())
        for move in moves:
            problem = move_name_problem(move)
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
                sym.card_attrs[str(attr)] = self.attr_type(attrs[attr], "generate" in cards)
                values = attrs[attr]
                if isinstance(values, list) and values and all(isinstance(v, str) for v in values):
                    sym.attr_enums[str(attr)] = tuple(str(v) for v in values)
                if isinstance(values, list) and values and all(is_scalar(v) for v in values):
                    sym.card_values[str(attr)] = tuple(values)
            tables = cards.get("tables")
            if tables is not None and not isinstance(tables, Map):
                self.error("'tables' maps a name to {of: attribute, values: {value: number}, default: ...}",
                           cards.loc("tables"))
            if not isinstance(tables, Map):
                tables = Map()
            for table, spec in tables.items():
                problem = declared_name_problem(table, "card table", "card")
                if problem:
                    self.error(problem, tables.key_loc(table))
                    continue
                values = spec.get("values") if isinstance(spec, Map) else None
                types = {type_name(v) for v in values.values()} if isinstance(values, Map) else set()
                sym.card_attrs[str(table)] = types.pop() if len(types) == 1 else None
                of = spec.get("of") if isinstance(spec, Map) else None
                if str(table) in sym.functions or table in BUILTINS:
                    self.error(f"card table '{table}' and a function share the name", tables.key_loc(table),
                               "a table is also a function of its attribute's value: rename one")
                elif isinstance(of, str) and identifier_problem(of, "attribute") is None:
                    sym.functions[str(table)] = (of,)  # strength(3): the table's value for rank 3
        return zone_specs

    def declare_functions(self) -> None:
        """`functions:`: each signature's name and arguments into the symbol table (the bodies come later)."""
        sym = self.sym
        functions = self.section("functions", Map, Map())
        for signature in functions:
            match = SIGNATURE.match(str(signature))
            if not match:
                self.error(f"a function is declared as 'name(arg, ...)', not '{signature}'",
                           functions.key_loc(signature))
                continue
            fname = match.group(1)
            args = tuple(a.strip() for a in (match.group(2) or "").split(",") if a.strip())
            problem = next(filter(None, [identifier_problem(fname, "function")] +
                                  [identifier_problem(a, "function argument") for a in args]), None)
            if problem:
                self.error(problem, functions.key_loc(signature))
                continue
            if fname in sym.functions or fname in SPECIAL_FORMS:  # (one of the file's own hides a built-in)
                self.error(f"function '{fname}' is already defined", functions.key_loc(signature))
            elif fname in BUILTINS:
                sym.hiding[fname] = functions.key_loc(signature)
            sym.functions[fname] = args

    def declare_records(self, section: str = "records") -> None:
        """`records: NAME: [field, ...]`: values made by NAME(field=value, ...) and read by r.field; `facts:` the
        same, each NAME also the collection of the facts of that kind asserted (a global only asserting,
        modifying and retracting change)."""
        kind = "record" if section == "records" else "kind of fact"
        records = self.section(section, Map, Map())
        for name, fields in records.items():
            problem = identifier_problem(name, kind)
            if problem is None and (name in self.sym.functions or name in BUILTINS or name in self.sym.globals
                                    or name in self.sym.records):
                problem = f"{kind} '{name}' shares its name with a function, a record or a variable"
            if problem is None and (not isinstance(fields, Seq) or not fields):
                problem = f"{kind} '{name}' lists its fields: [field, ...]"
            problem = problem or next(filter(None, (identifier_problem(f, f"{kind} field") for f in fields)), None)
            if problem is None and len(set(fields)) != len(fields):
                problem = f"{kind} '{name}' names a field twice"
            if problem:
                self.error(problem, records.key_loc(name) if problem.startswith(f"{kind} '") else records.loc(name))
                continue
            self.sym.records[str(name)] = tuple(str(f) for f in fields)
            if section == "facts":
                self.sym.facts.add(str(name))
                self.sym.globals[str(name)] = f"facts {name}"

    def rule_names(self) -> set[str]:
        """The names of the rules (what `refresh` may name)."""
        rules = self.tree.get("rules")
        if not isinstance(rules, Seq):
            return set()
        return {str(r["name"]) for r in rules if isinstance(r, Map) and isinstance(r.get("name"), str)}

    def declared_values(self, spec: Any, what: str) -> tuple[str, ...] | None:
        """A variable's `values:`, the only texts it may hold (checked where the file writes or compares one)."""
        if not isinstance(spec, Map) or "values" not in spec:
            return None
        values = spec["values"]
        if not isinstance(values, list) or not values or not all(isinstance(v, str) for v in values):
            self.error(f"{what}: 'values' lists the texts it may hold", spec.loc("values"))
            return None
        return tuple(str(v) for v in values)

    def attr_type(self, values: Any, generated: bool) -> str | None:
        if generated and not isinstance(values, list):
            return str(values) if isinstance(values, str) and values in PARAM_TYPES else None
        if isinstance(values, list):
            types = {type_name(v) for v in values}
            return types.pop() if len(types) == 1 else None
        return None

    def new_symbol(self, name: str, loc: Location, per_player: bool, typ: str | None) -> None:
        sym = self.sym
        # Per-player names are attributes of players; global names are only keys of the variables.
        problem = declared_name_problem(name, "per-player variable or zone", "player") if per_player else \
            identifier_problem(name, "variable or zone")
        if problem:
            self.error(problem, loc)
            return
        taken = f"'{name}' is a built-in function" if name in BUILTINS else \
            f"'{name}' is a name of the engine's own" if name in ("players", "phase", "stage", "player") \
            else f"'{name}' is already a param" if name in sym.params else None
        if taken:  # (its uses read the built-in, the engine's or the param: no error of theirs follows)
            self.error(f"{taken}: a variable or zone needs a name of its own", loc)
            return
        if not per_player and typ is None and name in statement_words():
            self.error(f"the variable '{name}' is named like the statement '{name} ...': a line beginning with "
                       f"'{name}' is that statement, so the variable could never be assigned", loc,
                       "give it another name")
        table = sym.player_attrs if per_player else sym.globals
        if name in table:
            self.error(f"'{name}' is declared twice", loc)
        table[name] = typ

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
            scope: dict[str, str | None] = {a: None for a in args}
            # every call is a step (naipes.library.limits): recursion runs out of steps, not forever
            if text.block if isinstance(text, Code) else written_as_statements(text, args):
                unit = self.compiler.function_body(text, scope, f"function '{fname}'")
                if unit is not None:
                    unit.tree = [n.Do(n.MemoryCall("step", []), at=unit.statements[0].at), *unit.statements]
            else:
                unit = self.compiler.expression(text, scope, what=f"function '{fname}'")
                if unit is not None:
                    value = unit.expression
                    unit.tree = [n.Do(n.MemoryCall("step", []), at=value.at), n.Return(value, at=value.at)]
            self.define(n.function_name(fname), args, unit, True, f"function '{fname}'")


def written_as_statements(body: str, params: tuple[str, ...]) -> bool:
    """Whether a function's body is statements: it starts with a statement's word, as an expression never does
    (let, if, for, return; an action's word too, which the resolver then refuses with why), unless the word is
    one of its params."""
    word = FIRST_WORD.match(body)
    return word is not None and word.group(1) in statement_words() and word.group(1) not in params
