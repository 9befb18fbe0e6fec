"""The names through which generated code reaches what a file declares.

Every name a rule or strategy file gives an attribute (a card attribute or table, a player variable or per-player
zone, a record's or a fact's field) is an attribute of the engine's objects only behind this prefix, which no
attribute of a Python object has: generated code reads `c.a_rank`, never `c.rank`, so no file can reach
`gi_frame`, `format` or `clear` of a value it holds, whatever names it declares (docs/security.md). The built-ins
that take an attribute's name as text read it the same way (naipes.library.builtins).
"""
from __future__ import annotations

import sys
from typing import Final

ATTRIBUTE_PREFIX = "a_"
_ATTRIBUTES: Final[dict[str, str]] = {}  # declared name -> its attribute: asked per player variable's write and per
_MOST_ATTRIBUTES: Final = 1024  # meld search (compiled with the runtime); bounded, as a built-in's text may be anything


def attribute(name: str) -> str:
    """The attribute through which generated code reaches the declared `name` (interned, as compiled names are)."""
    found = _ATTRIBUTES.get(name)
    if found is None:
        found = sys.intern(ATTRIBUTE_PREFIX + name)
        if len(_ATTRIBUTES) < _MOST_ATTRIBUTES:
            _ATTRIBUTES[name] = found
    return found


def declared(attribute_name: str) -> str:
    """The name a file declared, given the attribute that holds it (for messages and views)."""
    return attribute_name[len(ATTRIBUTE_PREFIX):] if attribute_name.startswith(ATTRIBUTE_PREFIX) else attribute_name
