"""A view renewed in place (Memory.seen_by `into`) is the view a fresh copy would be.

A strategy's observation rules read a view of their seat after every move; the
agent renews its last view rather than copying the game again: the same
players and zones, filled in again, and the values that hold them made again
only where they changed. Whatever the position, the renewed view must hold
exactly what a fresh `seen_by` holds (no card its seat may not see, no value of
an earlier position), and hold it in its own players and zones.
"""
from __future__ import annotations

import random

import pytest

from naipes.agents.registry import load_strategy
from naipes.program import CardBase, PlayerBase
from naipes.runtime.game import Game
from naipes.runtime.memory import Zone

from helpers import STRATEGIES, shipped_program

MISSING = object()


def described(view, value):
    """`value` with the view's players, zones and cards as plain tags; a player or zone that is not the view's
    own (the game's, or an earlier view's) fails."""
    if isinstance(value, PlayerBase):
        assert value is view.players[value.index], "a player that is not the view's"
        return ("player", value.index)
    if isinstance(value, Zone):
        assert value is view.zones[value.slot], "a zone that is not the view's"
        return ("zone", value.slot)
    if isinstance(value, CardBase):
        return ("card", value.id)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [described(view, item) for item in value])
    if isinstance(value, (set, frozenset)):
        return ("set", sorted(map(repr, (described(view, item) for item in value))))
    if isinstance(value, dict):
        return ("dict", sorted((repr(described(view, k)), repr(described(view, v))) for k, v in value.items()))
    return value


def everything_in(view):
    """All a view holds that code reading it could find."""
    players = [{slot: described(view, getattr(p, slot, MISSING))
                for slot in (*p.state_slots, *p.zone_slots)} for p in view.players]
    zones = [None if z is None else (z.name, z.slot, None if z.owner is None else z.owner.index,
                                     [card.id for card in z]) for z in view.zones]
    return (described(view, {name: value for name, value in view.vars.items() if name != "players"}),
            players, zones, sorted((card.id, slot) for card, slot in view.where.items()),
            described(view, view.pending), described(view, view.group), described(view, view.partial),
            view.over, view.winners)


@pytest.mark.parametrize("name", ["tute_cabrero", "pocha", "chinchon", "wizard"])
def test_a_renewed_view_holds_what_a_fresh_one_does_after_every_move(name):
    program = shipped_program(name)
    strategy = load_strategy(STRATEGIES / name / "strong.yaml", program)
    readings = {None, strategy.decision_reads, *strategy.observed_reads.values()}
    rng = random.Random(3)
    game = Game(program, 5)
    game.start()
    kept: dict = {}
    renewed = 0
    for _ in range(60):
        if game.over:
            break
        for seat in range(len(game.memory.players)):
            for reads in readings:
                view = game.memory.seen_by(seat, reads, into=kept.get((seat, reads)))
                renewed += view is kept.get((seat, reads))
                kept[seat, reads] = view
                assert everything_in(view) == everything_in(game.memory.seen_by(seat, reads)), (seat, reads)
        game.apply(rng.choice(game.decision().options))
    assert renewed > 100  # (the views were renewed, not made anew)


def test_a_view_is_renewed_only_for_its_own_seat_and_reads():
    program = shipped_program("tute_cabrero")
    game = Game(program, 1)
    game.start()
    view = game.memory.seen_by(0, frozenset({"trick", "hand"}))
    assert game.memory.seen_by(0, frozenset({"trick", "hand"}), into=view) is view
    for seat, reads in ((1, frozenset({"trick", "hand"})), (0, frozenset({"trick"})), (0, None)):
        other = game.memory.seen_by(seat, reads, into=view)
        assert other is not view and everything_in(other) == everything_in(game.memory.seen_by(seat, reads))
    assert game.memory.clone(into=view) is not view  # (a view never becomes a copy of the whole game)
