"""The ``moves:`` section: each kind of decision's options, legality cascade, labels and effect."""
from __future__ import annotations

from typing import Any

from ..errors import Location, did_you_mean
from ..program import MoveSpec, PartSpec, ZoneSpec
from . import nodes as n
from .codegen import Writer
from .compiler import Compiler, Unit, identifier_problem
from .linker import reads_through_calls
from .loader import Map, Seq, location_of
from .nodes import ALLOWED, CANDIDATES
from .sections import SectionReader, binding
from .vocabulary import MOVE_KEYS

MOVED_IN = "_moved_in"  # the engine's local: the phase a move is made in (no file names one: '_')


class Moves(SectionReader):
    """Reads ``moves:``."""

    def moves(self, turn_phases: list[str], zones: list[ZoneSpec]) -> dict[str, MoveSpec]:
        """Every move (`turn_phases`: the phases with declared turns, in which the turn passes after a move;
        `zones`: those declared)."""
        out: dict[str, MoveSpec] = {}
        lines: list[tuple[list[n.Stmt], int]] = []  # (a move's choices, the statement making its candidates)
        self.read_moves(out, turn_phases, [z.name for z in zones if not z.per_player], lines)
        self.share_candidates(lines)
        return out

    def read_moves(self, out: dict[str, MoveSpec], turn_phases: list[str], shared: list[str],
                   lines: list[tuple[list[n.Stmt], int]]) -> None:
        """The moves into `out` (`shared`: the names of the shared zones; `lines`: where each move's choices make
        its candidates, for share_candidates)."""
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
                bound = binding(text) if text is not None else None
                if bound is None:
                    self.error(f"move '{name}': 'choose' is 'NAME in COLLECTION'", spec.loc("choose"))
                    continue
                arg, collection = bound
                unit = c.expression(collection, dict(scope), what=f"move '{name}' choose")
                if unit is not None:
                    unit.tree = n.Copy(unit.expression, at=unit.expression.at)
                options = self.define("move_options", ("player",), unit, False, f"options of move '{name}'")
                scope[arg] = None
            space = self.move_space(str(name), spec, unit if "choose" in spec else None, shared)
            options_unit = unit if "choose" in spec else None
            cascade, tests = [], []
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
                unit = c.expression(text, dict(scope), what=f"legality of move '{name}'")
                if unit is not None:  # one call filters every candidate: [x for x in candidates if TEST]
                    test = unit.expression
                    filtered = n.Filter(arg, n.local(CANDIDATES, test.at, "list"), test, at=test.at)
                    unit.tree = [n.Return(filtered, at=test.at)]
                    tests.append((filtered, unit))
                cascade.append((str(step_name), self.define("move_legal", ("player", "__candidates"), unit,
                                                            True, f"legality '{step_name}' of move '{name}'")))
            when = None
            if "when" in spec or "stage" in spec:
                text = self.expr_text(spec.get("when", True), spec.loc("when"), f"move '{name}' when")
                unit = None if not text else c.expression(text, {"player": "player"}, what=f"move '{name}' when")
                if unit is not None and "stage" in spec:
                    self.only_in_stage(str(name), spec, unit)
                when = self.define("move_when", ("player",), unit, False, f"availability of move '{name}'")
            when_unit = unit if when is not None else None
            choices = self.move_choices(str(name), spec, options_unit, tests, when_unit, not isinstance(legal, list),
                                        lines)
            label, fixed_label = None, True
            if "label" in spec:
                text = self.expr_text(spec["label"], spec.loc("label"), f"move '{name}' label")
                unit = None if not text else c.expression(text, dict(scope), what=f"move '{name}' label")
                label = self.define("move_label", ("player", arg or "_"), unit, False, f"label of move '{name}'")
                fixed_label = unit is not None and not self.reads_through_calls(unit) and unit.uses <= {arg}
            public = None
            if "public" in spec:
                text = self.expr_text(spec["public"], spec.loc("public"), f"move '{name}' public")
                unit = None if not text else c.expression(text, dict(scope), what=f"move '{name}' public")
                public = self.define("move_public", ("player", arg or "_"), unit, False,
                                     f"public form of move '{name}'")
            parts = self.move_parts(str(name), spec, scope, shared) if "parts" in spec else ()
            effect_scope = {**scope, n.ENDS_TURN: "bool"} if turn_phases else dict(scope)  # (`end turn` sets it)
            unit = c.block(self.texts(spec.get("then", "pass"), spec.loc("then"), f"move '{name}' then"), effect_scope,
                           what=f"effect of move '{name}'")
            if turn_phases and unit is not None and isinstance(unit.tree, list):  # with declared turns, the
                at = spec.loc("then") if "then" in spec else spec.where  # turn passes on (Memory.pass_turn)
                unit.tree.insert(0, n.set_local(MOVED_IN, n.global_name("phase", at), at))
                passing: list[n.Expr] = [n.local("player"), n.Literal(str(name)), n.local(MOVED_IN)]
                if any(isinstance(s.target, n.NameTarget) and s.target.name == n.ENDS_TURN
                       for t in unit.tree for s in t.find_all(n.Assign)):  # (`end turn` somewhere in it)
                    unit.tree.insert(0, n.set_local(n.ENDS_TURN, n.Constant(False, at=at), at))
                    passing.append(n.local(n.ENDS_TURN, at, "bool"))
                unit.tree.append(n.Do(n.MemoryCall("pass_turn", passing), at=at))
            effect = self.define("move_effect", ("player", arg or "_", *(p.name for p in parts)), unit, True,
                                 f"effect of move '{name}'")
            out[str(name)] = MoveSpec(str(name), arg, options, cascade, when, label, effect, str(spec.get("doc", "")),
                                      strict=not isinstance(legal, list), public=public, space=space,
                                      fixed_label=fixed_label, choices=choices, verb=self.move_verb(str(name), spec),
                                      parts=tuple(parts), location=section.key_loc(name))

    def move_parts(self, name: str, spec: Map, scope: dict[str, str | None], shared: list[str]) -> list[PartSpec]:
        """A compound move's later choices (`parts:`), each compiled with the values chosen before it in scope
        (added to `scope`, for the next parts and the effect)."""
        parts, listed = [], spec["parts"]
        if "choose" not in spec:
            self.error(f"move '{name}': 'parts' come after the move's first choice: give it 'choose'",
                       spec.key_loc("parts"))
            return []
        if not isinstance(listed, Seq):  # (a text or a mapping would be read item by item: its characters, its keys)
            self.error(f"move '{name}': 'parts' is a list of parts, each 'NAME in COLLECTION' or a mapping with "
                       "'choose'", spec.loc("parts"))
            return []
        for i, part in enumerate(listed):
            keys = part if isinstance(part, Map) else written_alone(part, location_of(part, spec.loc("parts")))
            loc = keys.loc
            what = f"part {i + 1} of move '{name}'"
            if "choose" not in keys:
                self.error(f"{what} needs 'choose: NAME in COLLECTION'", keys.where)
                return []
            text = self.expr_text(keys["choose"], loc("choose"), f"{what} choose")
            binds = binding(text) if text is not None else None
            if binds is None:
                self.error(f"{what}: 'choose' is 'NAME in COLLECTION'", loc("choose"))
                return []
            value, collection = binds
            if value in scope:
                self.error(f"{what}: '{value}' names an earlier choice already: give this part a name of its own",
                           loc("choose"))
                return []
            well_formed, collected = self.collected(keys, value, scope, what)
            if not well_formed:
                return []
            before = tuple(k for k in scope if k != "player")
            if collected:  # (chosen again and again: its values so far are in scope, after the parts before it)
                scope[collected] = None
                before += (collected,)
            unit = self.compiler.expression(collection, dict(scope), what=f"{what} choose")
            legal_unit = None
            if "legal" in keys:
                legal = self.expr_text(keys["legal"], loc("legal"), f"{what} legal")
                legal_unit = None if not legal else \
                    self.compiler.expression(legal, {**scope, value: None}, what=f"legality of {what}")
            choices = self.define("move_part", ("player", *before), self.part_choices(value, unit, legal_unit),
                                  True, f"choices of {what}")
            label, public = (self.part_text(keys, key, loc, {**scope, value: None}, (*before, value), what)
                             for key in ("label", "public"))
            until = self.part_text(keys, "until", loc, dict(scope), before, what) if collected else None
            asked = self.part_text(keys, "when", loc, {k: v for k, v in scope.items() if k != collected},
                                   tuple(k for k in before if k != collected), what)
            bound = collected or value
            space = self.move_space(f"{name}.{bound}", keys, unit, shared)
            scope[bound] = None
            parts.append(PartSpec(bound, f"{name}.{bound}", choices, label, public, space, until, asked,
                                  keys.where, self.move_verb(f"{name}.{bound}", keys)))
        return parts

    def collected(self, keys: Any, value: str, scope: dict[str, str | None], what: str) -> tuple[bool, str | None]:
        """Whether a part's `collect:` and `until:` are right (reported when not), and the name of its values so
        far when it is chosen again and again (None for a part chosen once)."""
        if "collect" not in keys and "until" not in keys:
            return True, None
        name = keys.get("collect")
        problem = ("'collect' needs 'until': when the part is complete" if "until" not in keys else
                   "'until' goes with 'collect': the name of the values chosen so far" if name is None else
                   identifier_problem(name, "part")
                   or (f"'{name}' is already a name here" if name in scope or name == value else None))
        if problem:
            self.error(f"{what}: {problem}", keys.key_loc("collect" if "collect" in keys else "until"))
            return False, None
        return True, str(name)

    def part_choices(self, value: str, options: Unit | None, legal: Unit | None) -> Unit | None:
        """A part's legal values: its candidates, filtered by its `legal` (if any)."""
        if options is None:
            return None
        at = options.expression.at
        made: n.Expr = n.Copy(options.expression, at=at) if legal is None else \
            n.Filter(value, options.expression, legal.expression, at=legal.expression.at)
        return Unit([n.Return(made, at=at)], options.reads | (legal.reads if legal else set()),
                    options.calls | (legal.calls if legal else set()))

    def part_text(self, keys: Any, key: str, loc: Any, scope: dict[str, str | None], params: tuple[str, ...],
                  what: str) -> Any:
        """A part's `label` or `public`, a function of the values chosen so far (None when not given)."""
        if key not in keys:
            return None
        text = self.expr_text(keys[key], loc(key), f"{what} {key}")
        unit = None if not text else self.compiler.expression(text, scope, what=f"{key} of {what}")
        return self.define(f"move_{key}", ("player", *params), unit, False, f"{key} of {what}")

    def move_verb(self, name: str, spec: Map) -> str | dict[str, str] | None:
        """How the table tells of a move (`verb:`): a verb put before its public form, or its first words
        replaced ({bid: bids}); plain text, never code."""
        verb = spec.get("verb")
        if verb is None or (isinstance(verb, str) and verb.strip()):
            return verb.strip() if isinstance(verb, str) else None
        if isinstance(verb, Map) and verb and all(isinstance(k, str) and isinstance(v, str) and k.strip()
                                                  and v.strip() for k, v in verb.items()):
            return {k.strip(): v.strip() for k, v in verb.items()}
        self.error(f"move '{name}': 'verb' is a text (plays: 'P1 plays 3o') or a mapping from the first word of "
                   "the move's public form to what replaces it (bid: bids: 'P1 bids 3')", spec.loc("verb"))
        return None

    def share_candidates(self, lines: list[tuple[list[n.Stmt], int]]) -> None:
        """Moves whose candidates are the same code (a discard and a close, both `c in choices(player.hand)`)
        may be asked together: the first of them offered in a decision makes the candidates, the others take
        them (Memory.give and given). The code draws nothing at random (a `choose:` is pure), and no write
        comes between the moves of one decision."""
        alike: dict[str, list[tuple[list[n.Stmt], int]]] = {}
        for statements, at in lines:
            made = statements[at]
            assert isinstance(made, n.Assign)  # (the candidates made: move_choices)
            alike.setdefault(Writer().expr(made.value), []).append((statements, at))
        shared = 0
        for places in alike.values():
            if len(places) < 2:
                continue
            for statements, at in places:
                made = statements[at]
                assert isinstance(made, n.Assign)
                where, number = made.at, n.Literal(shared)
                statements[at:at + 1] = [
                    n.set_local(CANDIDATES, n.MemoryCall("given", [number]), where),
                    n.If(n.Compare(n.local(CANDIDATES), [("is", None)], [n.Literal(None)]),
                         [n.set_local(CANDIDATES, n.MemoryCall("give", [number, made.value]), where)], [], at=where)]
            shared += 1

    def move_choices(self, name: str, spec: Map, options: Unit | None, tests: list[tuple[n.Filter, Unit]],
                     when: Unit | None, strict: bool, lines: list[tuple[list[n.Stmt], int]]) -> Any:
        """One function giving a move's legal arguments: its availability, its candidates and its legality
        cascade in a row (the optimiser then computes what the steps share once); where it makes its candidates
        added to `lines`."""
        legal = spec.get("legal")
        if ("choose" in spec and options is None) or ("when" in spec and when is None) or \
                (isinstance(legal, list) and len(tests) != len(legal)):
            return None  # an error was reported
        statements: list[n.Stmt] = []
        reads, calls = set(), set()
        if when is not None:
            available = when.expression
            statements.append(n.If(n.Not(available), [n.Return(n.ListExpr([]), at=available.at)], [],
                                   at=available.at))
        if options is not None:
            statements.append(n.set_local(CANDIDATES, options.expression, options.expression.at))
            candidates_at = len(statements) - 1
        else:
            statements.append(n.set_local(CANDIDATES, n.Literal([None]), spec.where))
        for filtered, unit in tests:
            where = filtered.at
            statements.append(n.set_local(ALLOWED, filtered, where))
            allowed = n.Return(n.local(ALLOWED), at=where)
            statements.append(allowed if strict else n.If(n.local(ALLOWED), [allowed], [], at=where))
            reads |= unit.reads
            calls |= unit.calls
        statements.append(n.Return(n.local(CANDIDATES), at=spec.where))
        if options is not None:
            lines.append((statements, candidates_at))
        return self.define("move_choices", ("player",), Unit(statements, reads, calls), True,
                           f"choices of move '{name}'")

    def only_in_stage(self, name: str, spec: Map, unit: Unit) -> None:
        """`stage: S`: the move is offered only in stage S (its `when`, if any, must hold too)."""
        stage = spec["stage"]
        stages = self.sym.enums.get("stage", ())
        if stage not in stages:
            self.error(f"move '{name}': unknown stage '{stage}'", spec.loc("stage"),
                       did_you_mean(str(stage), stages) or "declare the stages of a phase under 'phases:'")
            return
        when = unit.expression
        in_stage = n.Compare(n.global_name("stage"), [("==", None)], [n.Literal(str(stage))])
        unit.tree = n.BoolOp("and", [in_stage, when], at=when.at)

    def move_space(self, name: str, spec: Map, choose: Unit | None, shared: list[str]) -> Any:
        """The name of the function giving every argument move `name` can ever offer (see MoveSpec.space), or None
        (`shared`: the names of the shared zones)."""
        if "space" in spec:
            text = self.expr_text(spec["space"], spec.loc("space"), f"move '{name}' space")
            if not text:
                return None
            unit = self.compiler.expression(text, {}, what=f"move '{name}' space")
            if unit is None:
                return None
            changing = self.changing_reads(unit) - named_zones(unit, shared)
            if changing:
                self.error(f"move '{name}': 'space' may read only params, players and all_cards(), "
                           f"not {', '.join(sorted(changing))}", spec.loc("space"))
                return None
        elif choose is None:
            return None
        elif choose.type == "zone":
            unit = Unit(n.builtin_call("all_cards", [], spec.loc("choose")))
        else:  # the collection without a player in scope: static if it compiles and reads nothing that changes
            probe = Compiler(self.sym)
            bound = binding(spec["choose"])
            if bound is None:  # reported where the move is read
                return None
            unit = probe.expression(bound[1], {}, what="")
            if unit is None or probe.errors or self.changing_reads(unit):
                return None
        unit.tree = n.Copy(unit.expression, at=unit.expression.at)
        return self.define("move_space", (), unit, False, f"space of move '{name}'")

    def changing_reads(self, unit: Unit) -> set[str]:
        """What `unit` reads, through the functions it calls, that a game may change (all but players)."""
        return self.reads_through_calls(unit) - {"players"}

    def reads_through_calls(self, unit: Unit) -> set[str]:
        return reads_through_calls(unit, self.function_reads())


def named_zones(space: Unit, shared: list[str]) -> set[str]:
    """The zones of a space written as a list of `shared` zones' names (`[stock, discard]`): the zones themselves
    are the arguments, and which zones a game has never changes."""
    items = space.expression.items if isinstance(space.expression, n.ListExpr) else []
    listed = {item.id for item in items if isinstance(item, n.Name)} if items and all(
        isinstance(item, n.Name) for item in items) else set()
    return listed if listed <= set(shared) else set()


def written_alone(choose: Any, where: Location) -> Map:
    """A part written as its binding alone (`- "d in player.hand"`), as the mapping `{choose: ...}`."""
    keys = Map({"choose": choose})
    keys.where, keys.key_locs, keys.value_locs = where, {"choose": where}, {"choose": where}
    return keys
