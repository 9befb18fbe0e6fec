"""A zone: a pile of cards, a Python list (kept out of the modules mypyc compiles, which cannot subclass list)."""
from __future__ import annotations

from typing import Any

from ..program import ZONE_ATTRIBUTES, PlayerBase, ZoneSpec, expose


class Zone(list[Any]):
    """A pile of cards: a list whose last item is the top."""

    __slots__ = ("name", "owner", "key", "slot", "spec")
    name: str
    owner: PlayerBase | None
    key: str | tuple[str, int]  # the name, with the owner's seat for a per-player zone
    slot: int
    spec: ZoneSpec

    def __repr__(self) -> str:
        owner = f"{self.owner.name}." if self.owner is not None else ""
        return f"<{owner}{self.name}: {len(self)} cards>"

    __hash__ = object.__hash__  # type: ignore[assignment]  # a zone is hashed by identity (a list is not hashable)

    def __eq__(self, other: object) -> bool:
        return self is other


expose(Zone, *ZONE_ATTRIBUTES)  # (z.owner, read by generated code as its other attributes are)
