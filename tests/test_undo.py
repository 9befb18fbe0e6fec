"""Game.make / Game.undo: a search tries a move in the game itself and takes it back, leaving nothing behind.

For every shipped rule file, random games stop at each decision; every legal
option is made and undone (sometimes two deep), and the whole state must be
exactly as before: every variable, every player's variables and zones, the
order of every zone, where each card is, the pending decision, the agenda's
pending and refracted activations and its guards' values seen, the generator. Then a made option must
lead where a copy of the game playing it leads.
"""
from __future__ import annotations

import random

import pytest

from naipes import load_program
from naipes.runtime.game import Game

from helpers import RULESETS, shipped_program

GAMES = {"fichas": {"count": "12"}, "pocha": {"peak": "3"}, "tute_cabrero": {"porotos_to_retire": "1"},
         "chinchon": {"target": "30"}, "wizard": {}}


def state(game: Game) -> tuple:
    """Everything a game holds that a move may change."""
    memory, agenda = game.memory, game.agenda
    players = tuple((p.index, tuple(getattr(p, slot) for slot in p.state_slots),
                     tuple(tuple(c.id for c in getattr(p, slot)) for slot in p.zone_slots)) for p in memory.players)
    variables = tuple((name, value if not hasattr(value, "slot") else ("zone", value.slot))
                      for name, value in sorted(memory.vars.items()) if name != "players")
    zones = tuple(tuple(c.id for c in zone) for zone in memory.zones)
    pending = (memory.pending[0].index, memory.pending[1]) if memory.pending else None
    rng = memory.rng.getstate()
    words = tuple((part.live, part.fired, part.closed, repr(sorted(part.guard_seen.items())))
                  for part in getattr(agenda, "parts", [agenda]))
    guards = repr(sorted(agenda.guard_seen.items()))  # (the values of its guards last seen: an Agendas' own too)
    where = tuple(sorted((card.id, slot) for card, slot in memory.where.items()))
    return (repr(variables), players, zones, where, pending, memory.over, memory.winners, words, guards,
            agenda.refracted(), game.decisions, rng)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_move_made_and_undone_leaves_the_game_as_it_was(name):
    make_and_undo(name, shipped_program(name, **GAMES[name]), range(3))


@pytest.mark.parametrize("name", ["pocha", "tute_cabrero"])
def test_an_agenda_per_word_of_rules_is_taken_back_too(name, monkeypatch):
    """A program of more than WORD rules has an agenda per word (Agendas): here a word per rule."""
    from naipes.language import linker
    monkeypatch.setattr(linker, "WORD", 1)
    program = load_program(RULESETS / f"{name}.yaml", GAMES[name])
    assert len(program.matchings) > 1
    make_and_undo(name, program, range(1))


def make_and_undo(name: str, program, seeds: range) -> None:
    """Random games that make and undo every option at each decision, checking the state after each undo."""
    chooser = random.Random(7)
    for seed in seeds:
        game = Game(program, seed)
        game.start()
        for _ in range(150):
            if game.over:
                break
            options = game.options()
            before = state(game)
            for option in options:
                point = game.make(option)
                if not game.over and chooser.random() < 0.3:  # two deep now and then
                    inner = game.make(chooser.choice(game.options()))
                    game.undo(inner)
                game.undo(point)
                assert state(game) == before, f"{name} seed {seed}: {option.label} was not taken back"
                assert game.options() == options
            option = chooser.choice(options)
            copy = game.clone()  # (an option naming a player or a zone names the original's: take the copy's own)
            copy.apply(next(o for o in copy.options() if o.key == option.key))
            point = game.make(option)
            assert game.key() == copy.key(), f"{name} seed {seed}: making {option.label} differs from playing it"
            game.undo(point)
            game.apply(option)


def test_an_agent_following_a_search_is_given_back_what_it_remembered_by_each_undo():
    """Game.followers: a strategy agent that remembers the moves it sees (Pocha's `strong`: the cards gone this
    round, started again each round) and follows a search's world has, after each undo, the memory and the
    scopes it had before that move, two makes deep too; a move it saw changes them."""
    from naipes.agents.registry import make_agent
    program = shipped_program("pocha", peak="3")
    game = Game(program, 4)
    agent = make_agent("strong", seed=1, program=program)
    agent.attach(game, 2)
    game.followers.append(agent)
    game.start()
    chooser, changed = random.Random(3), 0
    while not game.over:
        before = (agent.memory, dict(agent.scopes), agent.left)
        for option in game.options():
            point = game.make(option)
            changed += agent.memory != before[0]
            if not game.over:
                inner = game.make(chooser.choice(game.options()))
                game.undo(inner)
            game.undo(point)
            assert (agent.memory, agent.scopes, agent.left) == before, f"{option.label} was not taken back"
        game.apply(chooser.choice(game.options()))
    assert changed > 20
