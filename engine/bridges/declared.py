"""What a rule file declares, read from Python: a player's variables and zones, a card's attributes.

The bridges read them by the name the rule file gives them; this is the one place that knows how that name
is found on the engine's objects.
"""
from __future__ import annotations

from typing import Any


def declared(holder: Any, name: str) -> Any:
    """The value of the declared variable, zone or attribute `name` of a player or a card."""
    return getattr(holder, name)
