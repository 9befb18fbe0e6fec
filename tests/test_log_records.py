"""The fields of a log's records that are read before the replay checks them against its own are of the kinds read:
a start record's players given as 2 used to end `naipes replay` in a TypeError traceback."""
import json

import pytest
from click.testing import CliRunner

from naipes.tools.cli import main
from naipes.tools.gamelog import LogError
from naipes.tools.replay import Replay


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    log = tmp_path_factory.mktemp("log") / "game.jsonl"
    played = CliRunner().invoke(main, ["play", "kuhn_poker", "--seat", "random", "--seat", "random", "--seed", "2",
                                       "--log", str(log)])
    assert played.exit_code == 0, played.output
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("kind, field, value", [
    ("start", "players", 2), ("start", "players", True), ("start", "players", ["P1", 3]),
    ("decision", "move", 5), ("decision", "choice", None), ("decision", "player", ["P1"]),
])
def test_a_read_field_of_another_kind_is_a_located_error(tmp_path, records, kind, field, value):
    edited = [dict(record) for record in records]
    line = next(i for i, record in enumerate(edited) if record["type"] == kind)
    edited[line][field] = value
    log = tmp_path / "edited.jsonl"
    log.write_text("".join(json.dumps(record) + "\n" for record in edited), encoding="utf-8")
    with pytest.raises(LogError, match=f"a {kind} record's {field} is") as error:
        Replay.load(log)
    assert error.value.location.line == line + 1
    replayed = CliRunner().invoke(main, ["replay", "--to", "0", str(log)])
    assert replayed.exit_code != 0 and not isinstance(replayed.exception, TypeError)
