"""A loaded Program plays every table size it allows, one game after another, in any order; a load leaves the
process as it found it.

What a program computes once and keeps (naipes.program.Program.caches) must
not depend on the number of players of the game that first asked for it, or
must be kept per number of players.
"""
from __future__ import annotations

import gc

import pytest

from naipes import load_program
from naipes.agents.registry import load_strategy, make_agent
from naipes.errors import NaipesError
from naipes.runtime.game import Game

from helpers import RULESETS, STRATEGIES, write_rules

CHINCHON = str(RULESETS / "chinchon.yaml")


def test_a_view_of_a_larger_table_holds_every_players_zones_after_a_smaller_one():
    # a strategy's view keeps only what its rules read; made first at 3 players, the plan of that copy must
    # not leave out the hands of players 4 and 5 at the next table
    program = load_program(CHINCHON)
    reads = frozenset({"hand", "discard", "score"})
    for players in (3, 5, 2, 5):
        game = Game(program, seed=1, players=players)
        game.start()
        view = game.memory.seen_by(0, reads)
        assert [len(p.hand) for p in view.players] == [len(p.hand) for p in game.memory.players]


@pytest.mark.slow
def test_the_seed_strategy_plays_at_three_then_five_players_with_one_program():
    # the case that found it: `closes_with` met a player's hand as None at the second table
    program = load_program(CHINCHON)
    for players in (3, 5):
        agents = [make_agent("seed", seed=seat, program=program) for seat in range(players)]
        game = Game(program, seed=4, players=players)
        game.start()
        for _ in range(40):  # a few rounds of every seat (a whole game is long)
            if game.over:
                break
            decision = game.decision()
            game.apply(agents[decision.player].choose(decision))
        assert game.decisions >= 40 or game.over


@pytest.mark.parametrize("was_on", [True, False])
def test_a_load_gives_the_garbage_collector_back_as_it_found_it(tmp_path, was_on):
    # a load holds the collector off while it runs (builder.collector_paused): a load that succeeds, a variant
    # that loads its base within its own load, a strategy, and a load that fails each leave it as it was
    broken = write_rules(tmp_path, "game: broken\nplayers: 2\nrules: [{name: r, when: 'x ==', then: end game}]\n")
    loads = [lambda: load_program(RULESETS / "pocha.yaml"), lambda: load_program(RULESETS / "chinchon_jokers.yaml"),
             lambda: load_strategy(STRATEGIES / "pocha" / "strong.yaml", load_program(RULESETS / "pocha.yaml")),
             lambda: load_program(broken)]
    try:
        for load in loads:
            gc.enable() if was_on else gc.disable()
            try:
                load()
            except NaipesError:
                assert load is loads[-1]
            assert gc.isenabled() == was_on
    finally:
        gc.enable()


@pytest.mark.parametrize("path", ["pocha.yaml", "chinchon_jokers.yaml", "tute_cabrero.yaml"])
def test_a_load_leaves_no_reference_cycle_holding_what_it_read(path):
    # a load's tree, its compiler's nodes and the builder are freed as the load ends, by their reference counts:
    # a compiler's function that calls itself as a closure is a reference cycle that kept them all for the
    # collector to find (naipes.language.inlining.callees_first)
    from naipes.language.builder import Builder
    from naipes.language.nodes import Node
    load_program(RULESETS / path)  # (the parser's caches filled first)
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        program = load_program(RULESETS / path)
        gc.collect()
        kept = [type(found).__name__ for found in gc.garbage if isinstance(found, Builder | Node)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert program.players and not kept, kept[:10]
