"""Golden logs: the engine plays the recorded games exactly as it did when they were recorded.

``tests/golden/*.jsonl.gz`` hold 50 seeded games per shipped rule file, with
mixed agents (``tests/golden/record.py`` says which and how). Every decision,
the legal options' labels (by digest), the strategy rule behind each AI move,
every announcement, the result, and the firing count and sequence (by digest)
must come out the same. A deliberate change of behaviour re-records the files
it changes, and the commit says why.
"""
import gzip
import json
import random
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN))
import record  # noqa: E402

from naipes.language import linker  # noqa: E402
from naipes.runtime.game import Game, play_game  # noqa: E402


def recorded(name):
    with gzip.open(record.golden_file(GOLDEN, name), "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def first_difference(expected, actual):
    for i, (e, a) in enumerate(zip(expected, actual)):
        if e != a:
            return f"event {i}: recorded {e}, now {a}"
    return f"recorded {len(expected)} events, now {len(actual)}"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(record.CONFIGS))
def test_games_replay_as_recorded(name):
    games = recorded(name)
    assert len(games) == 50
    for expected in games:
        actual = record.play_recorded(name, expected["seed"])
        where = f"{name} seed {expected['seed']} ({', '.join(expected['seats'])})"
        assert actual["seats"] == expected["seats"], where
        difference = first_difference(expected["events"], actual["events"])
        assert actual["events"] == expected["events"], f"{where}: {difference}"
        assert actual["result"] == expected["result"], where
        assert (actual["firings"], actual["firing_digest"]) == (expected["firings"], expected["firing_digest"]), \
            f"{where}: the rules fired differently"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(record.CONFIGS))
def test_games_replay_with_the_rules_cut_into_words(name, monkeypatch):
    """A program of more than WORD rules has an agenda per word of its conflict order (Agendas); they fire as
    one agenda would: the first recorded games replay with a word per rule."""
    monkeypatch.setattr(linker, "WORD", 1)  # (record compiles its programs and strategies again for it)
    assert len(record.program_of(name).matchings) > 1
    for expected in recorded(name)[:4]:
        actual = record.play_recorded(name, expected["seed"])
        where = f"{name} seed {expected['seed']} ({', '.join(expected['seats'])})"
        difference = first_difference(expected["events"], actual["events"])
        assert actual["events"] == expected["events"], f"{where}: {difference}"
        assert (actual["result"], actual["firings"], actual["firing_digest"]) == \
            (expected["result"], expected["firings"], expected["firing_digest"]), where


class _Enough(Exception):
    pass


class _Recording:
    """A random seat that writes down every choice in the shared `log`, and ends the game at `limit` choices."""

    name = "recording"

    def __init__(self, seed, log, limit):
        self.rng, self.log, self.limit = random.Random(seed), log, limit

    def choose(self, decision):
        if len(self.log) >= self.limit:
            raise _Enough
        choice = self.rng.choice(decision.options)
        self.log.append((decision.player, choice.key, len(decision.options)))
        return choice


def _play_logged(name, seed, listening):
    program = record.program_of(name)
    count = record.CONFIGS[name].get("players") or program.players[2]
    log = []
    game = Game(program, seed, players=count)
    if listening:
        game.listeners.append(lambda entry: None)
    try:
        result = play_game(program, [_Recording(seed * 10 + i, log, 400) for i in range(count)], seed, game=game)
        ended = (result.winners, result.payoffs, result.cut_off)
    except _Enough:
        ended = None
    return log, ended, game.decisions, game.firings, game.memory.key(False)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(record.CONFIGS))
def test_a_game_nobody_listens_to_is_the_same_game(name):
    """play_game's quiet loop (no listener, observer or hook) takes the steps decision() and apply() take:
    the same options, choices, firings and result as the same game with a listener."""
    for seed in range(4):
        quiet, heard = _play_logged(name, seed, False), _play_logged(name, seed, True)
        assert quiet[0], name  # decisions were made
        assert quiet == heard, f"{name} seed {seed}"
