"""The settings of a rule file: players, params (defaults, then ``-p name=value``), limits."""
from __future__ import annotations

from typing import Any

from ..errors import Location, ParamError, did_you_mean, printable, unshowable
from ..library.limits import MAX_ITEMS
from ..program import Param
from .compiler import identifier_problem
from .loader import Map, number_problem
from .sections import PARAM_TYPES, SectionReader, type_name
from .shipped import is_file, strategy_folders
from .vocabulary import AGENT_NAMES, PARAM_KEYS, PLAYERS_KEYS, agent_options


class Settings(SectionReader):
    """Reads ``players:``, ``params:``, ``max_firings:`` and ``max_decisions:``."""

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
        if not isinstance(spec.get("symmetric", False), bool):
            self.error("players.symmetric is true or false", spec.loc("symmetric"))
        return (lo, hi, default)

    def seats_alike(self) -> bool:
        """`players: symmetric: true`: positions that differ by turning the seats round play alike (checked by
        :meth:`players`)."""
        spec = self.tree.get("players")
        return isinstance(spec, Map) and spec.get("symmetric") is True

    def check_agent(self, name: Any, loc: Location) -> None:
        if not isinstance(name, str) or (name.partition(":")[0] not in AGENT_NAMES
                                         and not name.endswith((".yaml", ".yml")) and not self.is_level(name)):
            self.error(f"unknown agent '{name}'", loc,
                       did_you_mean(str(name), AGENT_NAMES) or f"agents: {', '.join(AGENT_NAMES)}")
        elif name.partition(":")[0] in AGENT_NAMES:
            try:  # (its options, as play reads them)
                agent_options(name)
            except ParamError as exc:
                self.error(str(exc), loc)

    def is_level(self, name: str) -> bool:
        """A shipped strategy level of this game (`ai: strong`: strategies/GAME/strong.yaml), or a name a base
        file gave (checked with that file; a variant of another name plays it only if it plays that game)."""
        game, where = self.tree.get("game"), self.tree["players"].loc("ai")
        if where is not None and where.file != self.path:
            return True
        return isinstance(game, str) and any(is_file(d / f"{name}.yaml") for d in strategy_folders(game))

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
            typ = spec.get("type") or type_name(default)
            if typ not in PARAM_TYPES:
                self.error(f"param '{name}' has type '{typ}'; use one of {', '.join(PARAM_TYPES)}", spec.loc("type"),
                           did_you_mean(str(typ), PARAM_TYPES))
                continue
            param = Param(name, typ, default, str(spec.get("doc", "")), spec.get("choices"), spec.get("min"),
                          spec.get("max"))
            if not self.param_limits_ok(param, spec):
                continue
            if default is None:
                self.error(f"param '{name}' needs a default", spec.where)
                continue
            problem = check_param_value(param, default)
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
            problem = unshowable(name) or unshowable(raw)  # (half a character, or one a terminal obeys)
            if problem:
                raise ParamError(f"param '{printable(name)}': {problem}")
            if name not in params:
                hint = did_you_mean(name, params) or (f"params: {', '.join(params)}" if params
                                                      else "this game has no params")
                raise ParamError(f"unknown param '{name}' ({hint})")
            param = params[name]
            value = convert_param(param, raw)
            problem = check_param_value(param, value)
            if problem:
                raise ParamError(f"param '{name}': {problem}")
            values[name] = value

    def limit(self, section: str, default: int, largest: int) -> int:
        """A section holding a whole number from 1 to `largest`."""
        value = self.section(section, int, default)
        if isinstance(value, bool) or not 1 <= value <= largest:
            self.error(f"'{section}' must be a whole number from 1 to {largest:,}", self.tree.loc(section))
            return default
        number: int = value
        return number


def convert_param(param: Param, raw: Any) -> Any:
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


def check_param_value(param: Param, value: Any) -> str | None:
    problem = number_problem(value)
    if problem:
        return f"{value!r} is {problem}"
    if isinstance(value, str) and len(value) > MAX_ITEMS:
        return f"a text of {len(value):,} characters is too long (the limit is {MAX_ITEMS:,})"
    expected = PARAM_TYPES[param.type]
    wrong_type = not isinstance(value, expected) or (expected is int and isinstance(value, bool))
    if wrong_type and not (expected is float and isinstance(value, int) and not isinstance(value, bool)):
        return f"{value!r} is not {param.type}"
    if param.choices is not None and value not in param.choices:
        return f"{value!r} is not one of {', '.join(map(str, param.choices))}"
    if param.min is not None and value < param.min:
        return f"{value!r} is below the minimum {param.min}"
    if param.max is not None and value > param.max:
        return f"{value!r} is above the maximum {param.max}"
    return None
