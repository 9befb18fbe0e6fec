"""The ``cards:`` section: the deck's attributes, how it is generated, its tables, names and symmetries."""
from __future__ import annotations

from typing import Any

from ..errors import did_you_mean
from ..program import CardBase, CardSpec, ZoneSpec, attribute, readable_by_name
from . import nodes as n
from .compiler import Unit
from .loader import Map
from .sections import SectionReader, is_scalar, plain
from .vocabulary import CARD_KEYS, TABLE_KEYS


class Cards(SectionReader):
    """Reads ``cards:``."""

    def table_function(self, table: str, spec: Map) -> str:
        """A card table as the function F_table(value of its attribute): its `values` looked up, or its `value`."""
        of, what = str(spec["of"]), f"card table '{table}'"
        value: n.Expr | None = None
        if "value" in spec:
            text = self.expr_text(spec["value"], spec.loc("value"), what)
            unit = None if not text else self.compiler.expression(text, {of: None}, what=what)
            value = unit.expression if unit is not None else None
        else:
            values = self.literal(plain(spec["values"]), spec.loc("values"), f"the values of {what}")
            default = self.literal(plain(spec.get("default")), spec.loc("default"), f"the default of {what}")
            value = n.TableLookup(values.value, n.local(of), default.value, at=spec.loc("values"))
            unit = Unit(value)
        if unit is not None and value is not None:  # (every call is a step: naipes.library.limits)
            unit.tree = [n.Do(n.MemoryCall("step", []), at=value.at), n.Return(value, at=value.at)]
        name: str = self.define(n.function_name(table), (of,), unit, True, what)
        return name

    def cards(self, zones: list[ZoneSpec]) -> tuple[CardSpec | None, tuple[str, ...]]:
        """The deck (None without one, or after an error) and the attributes whose values play alike
        (`symmetric:`); `zones`: those declared, where the cards start."""
        spec = self.tree.get("cards")
        if spec is None:
            return None, ()
        if not isinstance(spec, Map):
            self.error("'cards' is a mapping (attributes:, generate:, tables:, ...)", self.tree.loc("cards"))
            return None, ()
        self.check_keys(spec, CARD_KEYS, "cards")
        attrs = spec.get("attributes")
        if not isinstance(attrs, Map) or not attrs:
            self.error("cards need 'attributes:' (each attribute's values, or with 'generate:' its type)", spec.where)
            return None, ()
        names = [str(a) for a in attrs]
        if any(name not in self.sym.card_attrs for name in names):
            return None, ()  # a refused attribute name was reported when declared
        c = self.compiler
        if "generate" in spec:
            text = self.expr_text(spec["generate"], spec.loc("generate"), "'cards.generate'")
            unit = None if not text else c.expression(text, {}, what="cards.generate", allow_random=True)
            build_name = self.define("deck_generate", (), unit, False, "cards.generate")
        else:
            parts: list[n.Expr] = []
            for attr in names:
                values = attrs[attr]
                if isinstance(values, list) and not all(is_scalar(v) for v in values):
                    self.error(f"the values of card attribute '{attr}' are plain values (text, numbers, true/false)",
                               attrs.loc(attr))
                elif isinstance(values, list):
                    parts.append(self.literal(plain(values), attrs.loc(attr), f"the values of card attribute '{attr}'"))
                else:
                    text = self.expr_text(values, attrs.loc(attr), f"values of card attribute '{attr}'")
                    unit = None if not text else c.expression(text, {}, what=f"values of '{attr}'", allow_random=True)
                    parts.append(n.Generated(self.define("deck_values", (), unit, False, f"values of '{attr}'")))
            extra = spec.get("extra", [])
            if not isinstance(extra, list) or not all(isinstance(e, Map) for e in extra):
                self.error("'extra' is a list of cards, each a mapping of attribute: value", spec.loc("extra"))
                extra = []
            copies = spec.get("copies", 1)
            if not isinstance(copies, (int, str)) or isinstance(copies, bool):
                self.error("'copies' is a whole number or an expression", spec.loc("copies"))
                copies = 1
            times: n.Expr = n.Literal(1)
            if isinstance(copies, str):
                unit = c.expression(copies, {}, what="cards.copies")
                times = n.Generated(self.define("deck_copies", (), unit, False, "cards.copies"))
            elif isinstance(copies, int):
                times = n.Literal(copies)
            extra_cards = self.literal(plain(extra), spec.loc("extra"), "extra cards")
            product = n.DeckProduct(names, times, parts, extra_cards.value, at=spec.where)
            build_name = self.define("deck_product", (), Unit(product), False, "cards")
        tables: dict[str, tuple[str, Any]] = {}  # table -> (its attribute, the name of its function until linked)
        table_specs = spec.get("tables")
        for table, tspec in table_specs.items() if isinstance(table_specs, Map) else []:
            if table not in self.sym.card_attrs:
                continue  # its name was refused when declared
            if not isinstance(tspec, Map) or "of" not in tspec or \
                    (isinstance(tspec.get("values"), Map)) == ("value" in tspec):
                self.error(f"table '{table}' needs 'of: <attribute>' and either 'values: {{value: number}}' "
                           "or 'value: EXPRESSION'", spec["tables"].loc(table))
                continue
            self.check_keys(tspec, TABLE_KEYS, f"card table '{table}'")
            if tspec["of"] not in names:
                self.error(f"table '{table}' is 'of' unknown attribute '{tspec['of']}'", tspec.loc("of"),
                           did_you_mean(str(tspec["of"]), names))
                continue
            tables[str(table)] = (str(tspec["of"]), self.table_function(str(table), tspec))
        name_func = None
        if "name" in spec:
            text = self.expr_text(spec["name"], spec.loc("name"), "'cards.name'")
            unit = None if not text else c.expression(text, {"c": "card"}, what="cards.name")
            name_func = self.define("deck_name", ("c",), unit, False, "cards.name")
        shared = [z.name for z in zones if not z.per_player]
        start = spec.get("start", next(iter(shared), None))
        if start not in shared:
            self.error(f"cards start in '{start}', which is not a global zone",
                       spec.loc("start") if "start" in spec else spec.where,
                       "declare it under 'zones:' (without per_player)")
        symmetric = spec.get("symmetric", [])
        if not isinstance(symmetric, list) or any(a not in names for a in symmetric):
            self.error("'symmetric' lists card attributes whose values are interchangeable labels",
                       spec.loc("symmetric"), f"attributes: {', '.join(names)}")
            symmetric = []
        slots = tuple(names) + tuple(tables)
        card_class = readable_by_name(type("Card", (CardBase,), {"__slots__": tuple(map(attribute, slots)),
                                                                 "attributes": slots}), slots)
        declared = {a: tuple(attrs[a]) for a in names if "generate" in spec and isinstance(attrs[a], list)}
        return (CardSpec(names, build_name, tables, name_func, str(start), card_class, spec.where, declared),
                tuple(str(a) for a in symmetric))
