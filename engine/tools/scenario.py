"""Build game positions from short text, for scenario tests and tools.

>>> game = arrange(new_game("pocha"), zones={"P1.hand": "1o 3o"})
>>> [c.name for c in zone(game, "P1.hand")]
['1o', '3o']

Zones are named as in the rule file (``table``) or per player as
``P2.hand``; their contents are card names separated by spaces, bottom
first. Every card named is moved from wherever it is, so cards stay
conserved; cards not named stay where they were, except those displaced from a zone
being set, which go to a spare zone. State values are
expressions of the rule language (``"players[1]"``, ``"'red'"``).
"""
from __future__ import annotations

from typing import Any

from ..errors import NaipesError
from ..language.builder import compile_expression, load_program
from ..program import attribute
from ..runtime.game import Game
from ..runtime.memory import CardBase, Zone


def new_game(path: str, params: dict[str, str] | None = None, seed: int = 0, players: int | None = None) -> Game:
    """A started game of the rule file at `path` (or a shipped one by name)."""
    game = Game(load_program(path, params or {}), seed, players=players)
    game.start()
    return game


def player(game: Game, name: str) -> Any:
    """The player called `name` (P1, P2, ...)."""
    for p in game.memory.players:
        if p.name == name:
            return p
    raise NaipesError(f"no player '{name}' (players: {', '.join(p.name for p in game.memory.players)})")


def zone(game: Game, name: str) -> Zone:
    """A zone by name: 'table' or 'P2.hand'."""
    owner, _, zone_name = name.rpartition(".")
    found = getattr(player(game, owner), attribute(zone_name), None) if owner else game.memory.vars.get(zone_name)
    if not isinstance(found, Zone):
        raise NaipesError(f"no zone '{name}'")
    return found


def cards(game: Game, names: str | list[str], taken: set[int] | None = None) -> list[CardBase]:
    """The cards called `names` (space-separated or a list); with duplicates, distinct copies."""
    taken = set() if taken is None else taken
    wanted = names.split() if isinstance(names, str) else list(names)
    everything = [c for z in game.memory.zones for c in z]
    found = []
    for name in wanted:
        card = next((c for c in everything if c.name == name and c.id not in taken), None)
        if card is None:
            raise NaipesError(f"no card '{name}' left to place")
        taken.add(card.id)
        found.append(card)
    return found


def _entered(game: Game) -> None:
    """The entries of the phase arranged, pending, count as done without running: the phase's rules wake."""
    agenda, memory = game.agenda, game.memory
    while (act := agenda.next()) is not None and act.rule.steps:
        agenda.pop()
        memory.entered(act.rule.phase or "")
        agenda.update(memory)


def arrange(game: Game, zones: dict[str, str | list[str]] | None = None, state: dict[str, str] | None = None,
            player_state: dict[str, str] | None = None, to_move: tuple[str, str] | None = None,
            settle: bool = False, spare: str | None = None) -> Game:
    """Rearrange a game in place and return it.

    zones: {'P1.hand': '1o 3o', 'trick': '5c'} — set exactly these zones' contents;
      cards they held that are not named go to the `spare` zone (by default
      the zone the deck starts in), which must not be one of them.
    state: {'trump': "'red'"} — global variables, as expressions.
    player_state: {'P2.bid': '3'} — per-player variables, as expressions.
    to_move: ('P2', 'play') — put that decision (move names comma-separated) to that player;
      () — no decision pending (let the rules ask again, e.g. with settle). A decision is in the middle of
      a phase: the entry of a phase the state sets (its resets, first turn and enter steps) counts as done.
    settle: let the rules fire afterwards (as after a move).
    """
    memory = game.memory
    program = game.program
    taken: set[int] = set()
    placements = [(zone(game, name), cards(game, content, taken)) for name, content in (zones or {}).items()]
    spare_zone = zone(game, spare or (program.cards.start if program.cards else ""))
    for target, chosen in placements:
        if target is spare_zone:
            raise NaipesError(f"'{target.name}' is the spare zone; name another with spare=")
        memory.move([c for c in target if c.id not in taken], spare_zone, bottom=True)
        memory.move(chosen, target)
    for name, text in (state or {}).items():
        if name not in memory.vars:
            raise NaipesError(f"no variable '{name}'")
        memory.set_var(name, compile_expression(program, text)(memory))
    for name, text in (player_state or {}).items():
        owner, _, attr = name.partition(".")
        if attr not in {v.name for v in program.player_state}:
            raise NaipesError(f"no player variable '{attr}'")
        memory.set_attr(player(game, owner), attr, compile_expression(program, text)(memory))
    if to_move is not None:
        memory.withdraw()
        if to_move:
            memory.pending = (player(game, to_move[0]), tuple(m.strip() for m in to_move[1].split(",")))
    game._options = None
    with program.located():
        game.agenda.update(memory)
        if to_move:
            _entered(game)
    if settle:
        game.advance()
    return game
