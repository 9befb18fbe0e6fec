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
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN))
import record  # noqa: E402


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
