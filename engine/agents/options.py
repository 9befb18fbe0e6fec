"""The options of a built-in agent on the command line (``ismcts:iterations=200``), typed."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ParamError


def parse_options(agent: str, kinds: dict[str, Callable[[str], Any]], options: dict[str, str]) -> dict[str, Any]:
    """`options` (name -> text) converted by `kinds` (name -> int, float, str); a ParamError names a bad one."""
    parsed: dict[str, Any] = {}
    for key, raw in options.items():
        if key not in kinds:
            raise ParamError(f"{agent} has no option '{key}' (options: {', '.join(kinds)})")
        try:
            parsed[key] = kinds[key](raw)
        except ValueError:
            kind = "whole number" if kinds[key] is int else "number" if kinds[key] is float else "value"
            raise ParamError(f"{agent} option '{key}' needs a {kind}, not '{raw}'") from None
    return parsed
