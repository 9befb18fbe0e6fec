"""Helpers shared by the test files: load and start games, pick options by label, write rule files.

Fixtures live in conftest.py; these are plain functions, imported by the tests that use them
(`from helpers import choose, labels`).
"""
from __future__ import annotations

import json
import random
import textwrap
from functools import cache
from pathlib import Path

import pytest
import yaml

from naipes import load_program
from naipes.agents.knowledge import Knowledge, sees
from naipes.errors import GameError, RuleError, RuleErrors
from naipes.language import linker
from naipes.language.shipped import RULESETS, STRATEGIES  # noqa: F401 (the tests import them from here)
from naipes.program import Program
from naipes.runtime.game import Game

ROOT = Path(__file__).resolve().parent.parent


def shipped(name: str) -> str:
    """The shipped rule file called `name` (``fichas``) where the installed package has it (the checkout's
    rulesets/ in an editable install, site-packages in another): a log names a shipped file by its name, any other
    by its path, so a test of shipped games takes them, like RULESETS and STRATEGIES, from the package."""
    return str(RULESETS / f"{name}.yaml")


def program(path: str | Path, params: tuple = ()) -> Program:
    """The rule file at `path` with `params` (a tuple of (name, text) pairs), loaded once per test process (and per
    linker.WORD: a test that cuts the rules into words gets a program of its own). A test that is not about loading
    takes its program from here: a shipped game costs about half a CPU second to compile."""
    return _program(str(path), tuple(sorted(params)), linker.WORD)


def shipped_program(name: str, **params: str) -> Program:
    """The shipped game called `name` (``pocha``) with `params`, loaded once per test process (`program`)."""
    return program(shipped(name), params_key(params))


@cache
def _program(path: str, params: tuple, word: int) -> Program:
    return load_program(path, dict(params))


def params_key(params: dict) -> tuple:
    """Params as the command line gives them (texts; booleans as true/false), sorted: a key for `program`."""
    return tuple(sorted((k, str(v).lower() if isinstance(v, bool) else str(v)) for k, v in params.items()))


def start_game(path: str, players: int, seed: int = 0, listeners=(), **params) -> Game:
    """A started game of the rule file at `path`: setup and the rules have run up to the first decision."""
    game = Game(program(path, params_key(params)), seed, players=players)
    game.listeners.extend(listeners)
    game.start()
    return game


def labels(game: Game) -> list[str]:
    return [o.label for o in game.options()]


def choose(game: Game, label: str) -> None:
    """Play the one option labelled `label`."""
    matching = [o for o in game.options() if o.label == label]
    assert len(matching) == 1, f"{label!r} not (uniquely) among {labels(game)}"
    game.apply(matching[0])


def names(zone_cards) -> list[str]:
    return sorted(c.name for c in zone_cards)


def V(game: Game) -> dict:
    """The game's variables (state, zones, params) by name."""
    return game.memory.vars


def unask(game: Game) -> Game:
    """Withdraw the pending decision, to put the game in another position and let the rules run from there."""
    game.memory.withdraw()
    return game


def yaml_text(tree: object, **options) -> str:
    """`tree` written as YAML (yaml.safe_dump's options) by libyaml's emitter where PyYAML has it: the tests that
    write hundreds of altered rule files spent a fifth of their time in PyYAML's emitter written in Python."""
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(tree, Dumper=dumper, **options)


def write_rules(folder: Path, text: str, name: str = "g.yaml", tail: str = "") -> Path:
    """Write a rule file into `folder`: `text` dedented (leading newlines dropped), then `tail` as it is."""
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip("\n") + tail, encoding="utf-8")
    return path


def load_errors(path: Path, params: dict | None = None) -> list[RuleError]:
    """Load `path` expecting failure: every RuleError reported, in order (found while loading, not playing)."""
    with pytest.raises((RuleError, RuleErrors)) as info:
        load_program(path, params or {})
    exc = info.value
    assert not isinstance(exc, GameError), "a rule-file mistake must be found while loading"
    return exc.errors if isinstance(exc, RuleErrors) else [exc]


def run(game: Game, agents: list, limit: int, check=None) -> list:
    """Play up to `limit` decisions; every choice must be legal. Returns the option keys chosen."""
    for seat, agent in enumerate(agents):
        if hasattr(agent, "attach"):
            agent.attach(game, seat)
    game.start()
    chosen = []
    while not game.over and len(chosen) < limit:
        decision = game.decision()
        if check:
            check(game, decision)
        option = agents[decision.player].choose(decision)
        assert option in decision.options, f"{agents[decision.player].name} chose {option}, not legal"
        chosen.append((decision.player, option.key))
        game.apply(option)
    return chosen


def hide_differently(game: Game, seat: int, knowledge: Knowledge, rng: random.Random) -> Game:
    """A copy of the game where the cards the seat cannot place are dealt again among the hidden places."""
    twin = game.clone()
    memory = twin.memory
    places = [(z, i) for z in memory.zones if not sees(z, seat)
              for i in range(len(z) - (1 if z.spec.visibility == "top" and z else 0))
              if knowledge.known.get(z[i].id) != z.slot and not knowledge.excluded.get(z.slot)]
    cards = [z[i] for z, i in places]
    rng.shuffle(cards)
    for (z, i), card in zip(places, cards):
        z[i] = card
        memory.where[card] = z.slot
    return twin


def blind_check(agent, compared: list, rng: random.Random, most: int = 4):
    """A `run` check: at most `most` of seat 0's decisions, `agent` (a searcher with `knowledge` and `rng`) must
    choose the same with the cards it cannot place dealt differently (same knowledge, same generator)."""
    def check(game: Game, decision) -> None:
        if decision.player != 0 or len(decision.options) < 2 or len(compared) >= most:
            return
        twin = hide_differently(game, 0, agent.knowledge, rng)
        state = agent.rng.getstate()
        first = agent.choose(decision)
        agent.rng.setstate(state)
        real, agent.knowledge.game = agent.knowledge.game, twin  # the same knowledge, the other arrangement
        second = agent.choose(twin.decision())
        agent.knowledge.game = real
        agent.rng.setstate(state)
        assert first.key == second.key
        compared.append(first)
    return check


# Python bots in tests tell the test what they saw with note(NAME, VALUE): a line on their standard error, which
# the game copies to its own (a bot can write nowhere else: its file system is read-only but for its own /tmp).
NOTE = '''
def note(name, value):
    import json, sys
    print(f"NOTE {name} {json.dumps(value)}", file=sys.stderr, flush=True)
'''


def bot_notes(text: str, name: str) -> list:
    """What the bots noted under `name` in `text` (the standard error of their game), in order."""
    marker = f"NOTE {name} "
    return [json.loads(line.split(marker, 1)[1]) for line in text.splitlines() if marker in line]
