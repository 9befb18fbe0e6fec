"""The ``rules:`` section: production rules with their bindings, conditions, actions and priorities."""
from __future__ import annotations

from typing import Any, NamedTuple

from ..errors import Location, did_you_mean
from ..program import Join, RuleSpec
from . import nodes as n
from .compiler import Unit, element_type, identifier_problem
from .linker import condition_data, reads_through_calls
from .loader import Map, Seq, location_of, subtext
from .sections import BINDING, SectionReader
from .vocabulary import RULE_KEYS
from .writes import unit_writes


def with_given(given: tuple[Any, ...], unit: Unit, returns: bool = True) -> Unit:
    """`unit` as the body of a function that first computes the `given` values of its rule (see Rules.rule):
    statements, the expression returned (`returns`) or the actions as they are."""
    if not given:
        return unit
    tree = unit.tree
    where = tree.at if isinstance(tree, n.Expr) else tree[0].at if tree else None
    made: list[n.Stmt] = [n.set_local(value, code, where) for value, _, code in given]
    body: list[n.Stmt] = [n.Return(unit.expression, at=unit.expression.at)] if returns else unit.statements
    return Unit(made + body, unit.reads, unit.calls, unit.type, unit.tests, unit.guard, unit.uses, unit.lookups)


def all_of(units: list[Unit]) -> Unit:
    """One condition that holds when every one of `units` does, tested in order."""
    if len(units) == 1:
        return units[0]
    first, last = units[0], units[-1]
    looked_up = set().union(*(u.lookups for u in units)) - set().union(*(u.reads - u.lookups for u in units))
    return Unit(n.BoolOp("and", [u.expression for u in units], at=last.expression.at),
                set().union(*(u.reads for u in units)), set().union(*(u.calls for u in units)), "bool",
                sum(u.tests for u in units), first.guard, lookups=looked_up)


ORDER_KEYS = ("before", "after")


class ReadRule(NamedTuple):
    """A rule as the rules reader gives it: its spec, the units of its condition and of its domains (their read
    sets, for the linker's indexes), and what its actions may write (naipes.language.writes: what may still
    change in its phase, phases.entry_rules)."""

    spec: RuleSpec
    condition: Unit
    domains: list[Unit]
    writes: frozenset[str] | None


def rule_units(rules: list[ReadRule]) -> dict[int, tuple[Unit, list[Unit]]]:
    """Rule index -> the units of its condition and domains (naipes.language.linker.read_indexes)."""
    return {rule.spec.index: (rule.condition, rule.domains) for rule in rules}


def entry_name(entry: Any) -> Any:
    """The name an entry of a rules list is known by: a rule's `name:`, a group's `group:`."""
    if not isinstance(entry, Map):
        return None
    return entry.get("name", entry.get("group"))


class Rules(SectionReader):
    """Reads ``rules:``."""

    def rules(self, phases: list[str], strategy: str) -> list[ReadRule]:
        out: list[ReadRule] = []
        section = self.section("rules", Seq, Seq())
        seen: dict[str, Location] = {}
        ordered, inherited = self.in_order(section)
        for i, spec in ordered:
            loc = section.loc(i)
            if not isinstance(spec, Map):
                self.error("a rule is a mapping (name:, when:, then:, priority:, ...)", loc)
                continue
            self.check_keys(spec, RULE_KEYS, "a rule")
            name = self.rule_name(spec, i, seen)
            rule = self.rule(len(out), name, spec, self.priority(name, spec, inherited), phases, strategy)
            if rule is not None:
                out.append(rule)
        return out

    def in_order(self, section: Seq) -> tuple[list[tuple[int, Any]], dict[str, float]]:
        """The entries of a rules list (with their declared index) in the order they say, and the priority each
        entry placed by before/after takes (by its name, a group's rules' too).

        ``before: NAME`` / ``after: NAME`` place an entry right before / right after the
        named one, and give it that one's priority; the other entries keep their declared
        order.  Entries placed against the same one keep their declared order among
        themselves, so a level that extends another can slot rules between the base's
        rules by name instead of by inventing priorities between theirs (39.5)."""
        names = {entry_name(e): i for i, e in enumerate(section) if isinstance(entry_name(e), str)}
        inherited: dict[str, float] = {}
        keys: dict[int, tuple[Any, ...]] = {}
        for i in range(len(section)):
            self.order_key(i, frozenset(), section, names, keys, inherited)
        return sorted(enumerate(section), key=lambda pair: keys[pair[0]] + (0,)), inherited

    def order_key(self, i: int, visiting: frozenset[int], section: Seq, names: dict[Any, int],
                  keys: dict[int, tuple[Any, ...]], inherited: dict[str, float]) -> tuple[Any, ...]:
        """The sort key of entry `i` of `section` (remembered in `keys`), the priorities it passes on recorded in
        `inherited` (a method, not a closure that calls itself: that would be a reference cycle holding the whole
        builder, for the garbage collector to free)."""
        if i in keys:
            return keys[i]
        entry = section[i]
        side = next((k for k in ORDER_KEYS if isinstance(entry, Map) and k in entry), None)
        keys[i] = (i,)
        if side is None:
            return keys[i]
        anchor = self.order_anchor(entry, side, names)
        if anchor is None:
            return keys[i]
        if anchor in visiting or anchor == i:
            self.error(f"'{side}: {entry[side]}' goes round in a circle of rules ordered by one another",
                       entry.loc(side))
            return keys[i]
        keys[i] = self.order_key(anchor, visiting | {i}, section, names, keys, inherited) + \
            ((-1 if side == "before" else 1), i)
        priority = inherited.get(str(entry_name(section[anchor])), section[anchor].get("priority", 0))
        for named in [entry, *(entry.get("rules") or [])]:
            if isinstance(entry_name(named), str):
                inherited[str(entry_name(named))] = priority
        return keys[i]

    def order_anchor(self, entry: Map, side: str, names: dict[Any, int]) -> int | None:
        """The index of the entry that `entry` is ordered against (None after a located error)."""
        target = entry[side]
        if len([k for k in ORDER_KEYS if k in entry]) > 1 or "priority" in entry:
            self.error(f"rule '{entry_name(entry)}' is placed by priority or by one of before/after, not by two",
                       entry.key_loc(side))
            return None
        if not isinstance(target, str) or target not in names:
            self.error(f"'{side}: {target}' names no rule of this list", entry.loc(side),
                       did_you_mean(str(target), [str(n) for n in names if n]) or self.unknown_anchor_hint(target))
            return None
        return names[target]

    def unknown_anchor_hint(self, target: Any) -> str | None:
        """A hint for `before/after:` naming no rule (strategy files say more)."""
        return None

    def priority(self, name: str, spec: Map, inherited: dict[str, float]) -> float:
        """A rule's priority (salience), a number; the priority of the rule it is ordered by
        (``before:``/``after:``, `inherited`: Rules.in_order); 0 after a located error."""
        if "priority" not in spec and name in inherited:
            return inherited[name]
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
        seen[str(name)] = spec.key_loc("name")
        return str(name)

    def rule(self, index: int, name: str, spec: Map, priority: float, phases: list[str], strategy: str,
             given: tuple[Any, ...] = (), groups: tuple[Map, ...] = ()) -> ReadRule | None:
        """One rule; `given`: values its condition, actions and `for:` can read, each of its functions
        computing them first: (name, type, generated expression), the rule not applying while one is None
        (a strategy's `options`); the `when:` of each of its `groups` comes before its own (all must hold)."""
        c = self.compiler
        phase = spec.get("phase")
        if phase is not None and phase not in phases:
            self.error(f"rule '{name}': unknown phase '{phase}'", spec.loc("phase"),
                       did_you_mean(str(phase), phases) or ("declare it under 'phases:'" if not phases else None))
        bindings = spec.get("for", [])
        bindings = [bindings] if isinstance(bindings, str) else bindings
        scope: dict[str, str | None] = {var: typ for var, typ, _ in given}
        variables: list[str] = []
        domains: list[Any] = []
        domain_units: list[Unit] = []
        collections: list[str] = []  # the `for:` texts after "in"
        for text in bindings if isinstance(bindings, list) else []:
            match = BINDING.match(text) if isinstance(text, str) else None
            if not match:
                self.error(f"rule '{name}': 'for' is 'NAME in COLLECTION'", location_of(text, spec.loc("for")))
                return None
            var = match.group(1)
            unit = c.expression(subtext(text, match.start(2)), dict(scope), what=f"'for' of rule '{name}'")
            if unit is None:
                return None
            unit.tree = n.Copy(unit.expression, at=unit.expression.at)
            domains.append(self.define("rule_domain", tuple(variables), with_given(given, unit), bool(given),
                                       f"'for' of rule '{name}'"))
            domain_units.append(unit)
            collections.append(text[match.start(2):].strip())
            variables.append(var)
            scope[var] = element_type(unit.type)
        conditions: list[Unit | None] = []
        for holder in (*[g for g in groups if "when" in g], spec):
            when = self.expr_text(holder.get("when", True), holder.loc("when"), f"rule '{name}' when")
            conditions.append(None if not when else c.expression(when, dict(scope), bound=set(variables),
                                                    what=f"condition of rule '{name}'"))
        units = [u for u in conditions if u is not None]
        cond_unit = all_of(units) if len(units) == len(conditions) else None
        act_unit = c.block(self.texts(spec.get("then", "pass"), spec.loc("then"), f"rule '{name}' then"), dict(scope),
                           bound=set(variables), what=f"actions of rule '{name}'")
        if cond_unit is None or act_unit is None:
            return None
        guard = ("phase", str(phase)) if phase is not None else cond_unit.guard
        test = cond_unit
        if given:  # (the rule applies while every given value is there)
            present: list[n.Expr] = [n.Compare(n.local(value), [("is not", None)], [n.Literal(None)])
                                     for value, _, _ in given]
            condition_tree = cond_unit.expression
            test = Unit(n.BoolOp("and", [*present, condition_tree], at=condition_tree.at),
                        cond_unit.reads, cond_unit.calls, "bool", cond_unit.tests, cond_unit.guard,
                        lookups=cond_unit.lookups)
        condition = self.define("rule_when", tuple(variables), with_given(given, test), bool(given),
                                f"condition of rule '{name}'")
        action = self.define("rule_then", tuple(variables), with_given(given, act_unit, returns=False), True,
                             f"actions of rule '{name}'")
        rule = RuleSpec(name, index, priority, phase, cond_unit.tests + len(variables) + len(given),
                        tuple(variables), domains, condition, action, guard,
                        spec.key_loc("name") if "name" in spec else spec.where,
                        doc=str(spec.get("doc", "")), strategy=strategy)
        rule.guard_only = guard is not None and phase is None and cond_unit.tests == 1 and not variables and \
            not given
        if variables and not given:
            rule.fact_levels = tuple(text if text in self.sym.facts else None for text in collections)
        if variables and not given and not groups and isinstance(when, str):
            rule.join = self.join_plan(name, when, variables, domain_units, rule.fact_levels)
        rule.cond_kinds, rule.data_reads, rule.probed = condition_data(cond_unit, self.function_reads(), variables,
                                                                       set(self.sym.facts))
        return ReadRule(rule, cond_unit, domain_units, unit_writes(act_unit, self.sym.zones))

    def join_plan(self, name: str, when: str, variables: list[str], domains: list[Unit],
                  kinds: tuple[str | None, ...]) -> tuple[Any, ...]:
        """The tests of a rule's condition made while its variables are bound (see naipes.program.Join): each
        test of `A and B and ...` that reads nothing a game changes (only the values bound, cards, params) is
        made as soon as its last variable is bound, and an equality between one variable and earlier ones
        becomes a lookup (the plain cross product `for: [p in players, q in players]` with `q.index ==
        p.index + 1` binds P pairs, not P * P); where the earlier side reads one variable over a kind of fact
        alone (`kinds`: each variable's kind of fact, or None), the same equality looks that variable's facts up the
        other way for the facts just asserted (Join.back). Empty when no test can be made early."""
        tests: list[list[Any]] = [[] for _ in variables]  # (the names of generated functions, linked later)
        keys: list[tuple[Any, Any] | None] = [None] * len(variables)  # (key, probe): names, linked later
        back: list[list[tuple[int, Join]]] = [[] for _ in variables]  # (see Join.back)
        what = f"condition of rule '{name}'"
        for unit, sides in self.compiler.conjuncts(when, dict.fromkeys(variables), what):
            if reads_through_calls(unit, self.function_reads()):
                continue  # it reads what a game changes: it waits for the condition
            used = [variables.index(v) for v in unit.uses]
            level = max(used, default=0)
            tests[level].append(self.define("rule_test", tuple(variables[:level + 1]), unit, False, what))
            independent = not domains[level].uses  # its collection does not depend on earlier variables
            for mine, theirs in (sides or ()) and (sides, sides[::-1]):
                if keys[level] is None and independent and level and mine.uses == {variables[level]} and \
                        theirs.uses and max(variables.index(v) for v in theirs.uses) < level and \
                        not reads_through_calls(mine, self.function_reads()) and \
                        not reads_through_calls(theirs, self.function_reads()):
                    keys[level] = (self.define("rule_key", (variables[level],), mine, False, what),
                                   self.define("rule_probe", tuple(variables[:level]), theirs, False, what))
                    earlier = [variables.index(v) for v in theirs.uses]
                    if len(earlier) == 1 and kinds[earlier[0]]:  # (the probe reads one variable's fact)
                        key = self.define("rule_key", (variables[earlier[0]],), theirs, False, what)
                        back[earlier[0]].append((level, Join(None, key=key)))
        if not any(tests):
            return ()
        joins = []
        for level, lookup in enumerate(keys):
            key, probe = lookup or (None, None)
            domain = self.define("rule_domain", (), domains[level], False, f"'for' of rule '{name}'") \
                if lookup else None
            joins.append(Join(domain, tuple(tests[level]), key, probe, tuple(back[level])))
        return tuple(joins)
