"""What a seat knows about hidden cards, and the worlds (determinisations) built from it."""
import random
import types

import pytest

from naipes.agents.knowledge import Knowledge, sees
from naipes.agents.registry import RandomAgent
from naipes.runtime.game import Game

from helpers import shipped_program

GAMES = ["tute_cabrero", "pocha", "wizard", "chinchon"]


@pytest.fixture(scope="module", params=GAMES)
def program(request):
    return shipped_program(request.param)


def _play(program, seed, check, decisions=150):
    """A random game with a Knowledge on seat 0; `check(game, knowledge)` after every move."""
    game = Game(program, seed)
    knowledge = Knowledge(game, 0)
    agent = RandomAgent(seed)
    game.start()
    for _ in range(decisions):
        if game.over:
            break
        game.apply(agent.choose(game.decision()))
        check(game, knowledge)
    return knowledge


def test_known_cards_are_where_the_seat_believes(program):
    def check(game, knowledge):
        where = {card.id: slot for card, slot in game.memory.where.items()}
        for card_id, slot in knowledge.known.items():
            assert where[card_id] == slot
    knowledge = _play(program, 3, check)
    assert knowledge.known  # it saw something


def test_deductions_are_true(program):
    """An excluded card is never in the zone that excludes it (the deduction is sound)."""
    seen_exclusions = []

    def check(game, knowledge):
        for slot, ids in knowledge.excluded.items():
            zone = game.memory.zones[slot]
            assert not ids & {c.id for c in zone}
            seen_exclusions.append(len(ids))
    for seed in range(3):
        _play(program, seed, check)
    if program.name in ("tute_cabrero", "pocha"):  # the Spanish obligations reveal voids
        assert max(seen_exclusions, default=0) > 0


def test_worlds_keep_what_the_seat_sees_and_deduces(program):
    rng = random.Random(5)

    def check(game, knowledge):
        if game.over:
            return
        world = knowledge.world(rng)
        real, imagined = game.memory, world.memory
        assert len(real.where) == len(imagined.where)
        for zone, twin in zip(real.zones, imagined.zones):
            assert len(zone) == len(twin)
            if sees(zone, 0):
                assert list(zone) == list(twin)
            elif zone.spec.visibility == "top" and zone:
                assert zone[-1] is twin[-1]
        imagined_where = {card.id: slot for card, slot in imagined.where.items()}
        for card_id, slot in knowledge.known.items():
            assert imagined_where[card_id] == slot
        for slot, ids in knowledge.excluded.items():
            assert not ids & {c.id for c in imagined.zones[slot]}
        for card in (c for z in imagined.zones for c in z):
            assert imagined.zones[imagined.where[card]].count(card) == 1
        world.options()  # the world is a playable game
    _play(program, 11, check, decisions=60)


def test_worlds_differ_in_the_hidden_hands():
    program = shipped_program("tute_cabrero")
    game = Game(program, 2)
    knowledge = Knowledge(game, 0)
    game.start()
    rng = random.Random(1)
    hands = {tuple(sorted(c.id for c in knowledge.world(rng).memory.players[1].hand)) for _ in range(10)}
    assert len(hands) > 1
    mine = {tuple(sorted(c.id for c in knowledge.world(rng).memory.players[0].hand)) for _ in range(10)}
    assert len(mine) == 1


def test_a_world_follows_cards_moved_outside_a_decision():
    """Worlds drawn at one position share the work of finding the hidden cards; a card that moves (here by the
    memory directly, as a scenario or a bridge may move one) is where the next world puts it."""
    program = shipped_program("tute_cabrero")
    game = Game(program, 2)
    knowledge = Knowledge(game, 0)
    game.start()
    rng = random.Random(1)
    knowledge.world(rng)
    memory = game.memory
    card = memory.players[1].hand[0]
    memory.move(card, memory.vars["trick"])  # public now: the seat sees it on the table
    for _ in range(5):
        world = knowledge.world(rng).memory
        assert [c.id for c in world.vars["trick"]] == [card.id]
        assert len(world.players[1].hand) == len(memory.players[1].hand)
        assert card.id not in {c.id for p in world.players for c in p.hand}


def _plays_alike(first: Game, second: Game, seed: int) -> None:
    """Both games play on the same random moves to the same end."""
    agents = [RandomAgent(seed), RandomAgent(seed)]
    while not first.over:
        assert [o.label for o in first.options()] == [o.label for o in second.options()]
        for game, agent in zip((first, second), agents):
            game.apply(agent.choose(game.decision()))
    assert second.over and first.payoffs() == second.payoffs() and first.key() == second.key()


def test_a_world_filled_in_again_is_a_world_made_anew(program):
    # a search fills its last world in again for the next (Game.clone's `into`): the same world as a new clone,
    # whatever the last one became
    def check(game, knowledge):
        if game.decisions % 23 or game.over:
            return
        spare = knowledge.world(random.Random(game.decisions))
        for _ in range(15):  # (the spare world plays on: its zones and players change)
            if not spare.over:
                spare.apply(RandomAgent(1).choose(spare.decision()))
        made, filled = knowledge.world(random.Random(7)), knowledge.world(random.Random(7), spare)
        assert filled is spare and filled.memory.zones is spare.memory.zones  # (filled in, not made)
        assert filled.key() == made.key() and filled.memory.where == made.memory.where
        assert [p.name for p in filled.memory.vars["players"]] == [p.name for p in made.memory.players]
        _plays_alike(made, filled, game.decisions)

    _play(program, 3, check, decisions=100)


@pytest.mark.skipif(not isinstance(Knowledge.__dict__["world"], types.FunctionType),
                    reason="the compiled runtime's classes cannot be patched (the world filled in again is checked "
                           "against a new one above, compiled or not)")
def test_ismcts_decides_as_it_did_with_a_new_world_each_iteration(monkeypatch):
    from naipes.agents.ismcts import ISMCTSAgent
    program = shipped_program("tute_cabrero")

    def choices() -> list[str]:
        game, made = Game(program, 11), []
        agents = [ISMCTSAgent(1, iterations=30), RandomAgent(2), RandomAgent(3)]
        game.start()
        while not game.over and len(made) < 25:
            decision = game.decision()
            option = agents[decision.player].choose(decision)
            made += [option.label] if decision.player == 0 else []
            game.apply(option)
        return made

    filled = choices()
    world = Knowledge.world
    monkeypatch.setattr(Knowledge, "world", lambda self, rng, spare=None: world(self, rng))  # (a new world each)
    assert choices() == filled and len(filled) == 25
