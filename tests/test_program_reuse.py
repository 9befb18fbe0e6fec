"""A loaded Program plays every table size it allows, one game after another, in any order; a load leaves the
process as it found it.

What a program computes once and keeps (naipes.program.Program.caches) must
not depend on the number of players of the game that first asked for it, or
must be kept per number of players.
"""
from __future__ import annotations

import copy
import dataclasses
import gc
import json
import subprocess
import sys

import pytest

from naipes import Program, RandomAgent, load_program
from naipes.agents.registry import load_strategy, make_agent
from naipes.errors import NaipesError
from naipes.runtime.game import Game

from helpers import RULESETS, STRATEGIES, run, write_rules

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


# The check below runs in a process of its own: its two full collections walk every object the process holds, over
# a second each in a test process late in the suite (the programs and caches of earlier tests) and a fraction of
# that in a new one; the garbage one load leaves is the same in both.
CYCLES = """\
import gc, json, sys
from naipes import load_program
from naipes.language.builder import Builder
from naipes.language.nodes import Node
load_program(sys.argv[1])  # (the parser's caches filled first)
gc.collect()
gc.disable()
gc.set_debug(gc.DEBUG_SAVEALL)
program = load_program(sys.argv[1])
gc.collect()
kept = [type(found).__name__ for found in gc.garbage if isinstance(found, Builder | Node)]
print(json.dumps({"players": list(program.players), "kept": kept[:10]}))
"""


@pytest.mark.parametrize("path", ["pocha.yaml", "chinchon_jokers.yaml", "tute_cabrero.yaml"])
def test_a_load_leaves_no_reference_cycle_holding_what_it_read(path):
    # a load's tree, its compiler's nodes and the builder are freed as the load ends, by their reference counts:
    # a compiler's function that calls itself as a closure is a reference cycle that kept them all for the
    # collector to find (naipes.language.steps._weight)
    done = subprocess.run([sys.executable, "-c", CYCLES, str(RULESETS / path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["players"] and not found["kept"], found["kept"]


def played(program: Program, seed: int) -> tuple:
    """A game of `program` at random, cut at 300 decisions: every choice, the firings and the final position."""
    game = Game(program, seed)
    chosen = run(game, [RandomAgent(seed * 10 + seat) for seat in range(program.players[2])], 300)
    return chosen, game.firings, game.memory.key(False)


def fields(program: Program) -> dict:
    """The program's fields but its caches, a container's copied (what a game could change in place)."""
    values = {f.name: getattr(program, f.name) for f in dataclasses.fields(program) if f.name != "caches"}
    return {name: copy.copy(v) if isinstance(v, dict | list | set) else v for name, v in values.items()}


@pytest.mark.parametrize("name", ["pocha", "chinchon", "tute_cabrero", "wizard", "mus"])
def test_a_program_plays_the_games_a_fresh_load_plays_whatever_it_played_before(name):
    # the tests take one program per rule file and params (helpers.program: a load per test process); a game keeps
    # its own state, and what the program keeps (Program.caches) is computed from it, not from the games: playing
    # leaves no field changed and no later game different
    program = load_program(RULESETS / f"{name}.yaml")
    before = fields(program)
    games = [played(program, seed) for seed in (1, 2, 1)]
    fresh = [played(load_program(RULESETS / f"{name}.yaml"), seed) for seed in (1, 2)]
    assert games == [fresh[0], fresh[1], fresh[0]]
    assert games[0][0] != games[1][0]  # (two different games)
    assert fields(program) == before
