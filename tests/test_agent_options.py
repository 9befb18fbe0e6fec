"""An agent's options written in a file or a log are read as the agent's options, never as the engine's own
arguments: `ismcts:seed=1` used to reach make_ismcts as a second `seed` (a TypeError traceback, and `check` said ok)."""
import json

import pytest
from click.testing import CliRunner

from naipes.agents.registry import make_agent
from naipes.errors import ParamError
from naipes.language.vocabulary import agent_options
from naipes.tools.cli import main

from helpers import load_errors, shipped_program

ENGINE_ARGUMENTS = ["seed", "program", "make_policy", "options"]


@pytest.mark.parametrize("agent", ["ismcts", "pimc"])
@pytest.mark.parametrize("option", ENGINE_ARGUMENTS)
def test_an_engine_argument_is_not_an_option(agent, option):
    with pytest.raises(ParamError, match=f"{agent} has no option '{option}'"):
        make_agent(f"{agent}:{option}=1", seed=3, program=shipped_program("kuhn_poker"))


def test_options_are_read_as_their_kinds():
    assert agent_options("ismcts:iterations=20,exploration=0.5,policy=random") == {
        "iterations": 20, "exploration": 0.5, "policy": "random"}
    with pytest.raises(ParamError, match="'iterations' needs a whole number"):
        agent_options("ismcts:iterations=many")
    with pytest.raises(ParamError, match="'random' takes no options"):
        agent_options("random:seed=1")


def test_a_rule_files_ai_with_an_engine_argument_is_a_located_error(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text('extends: kuhn_poker\nplayers: {min: 2, max: 2, default: 2, ai: "ismcts:seed=1"}\n',
                    encoding="utf-8")
    errors = load_errors(path)
    assert "ismcts has no option 'seed'" in str(errors[0])
    assert (errors[0].location.line, errors[0].location.col) == (2, 43)


def test_a_logs_seat_with_an_engine_argument_is_refused_without_a_traceback(tmp_path):
    log = tmp_path / "game.jsonl"
    played = CliRunner().invoke(main, ["play", "kuhn_poker", "--seat", "random", "--seat", "random", "--seed", "1",
                                       "--log", str(log)])
    assert played.exit_code == 0, played.output
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    records[0]["seats"][0] = "ismcts:seed=1"
    log.write_text("".join(json.dumps(r) + "\n" for r in records[:2]), encoding="utf-8")
    resumed = CliRunner().invoke(main, ["play", "--resume", str(log), "--no-log"])
    assert resumed.exit_code != 0
    assert "ismcts has no option 'seed'" in resumed.output
    assert "Traceback" not in resumed.output and not isinstance(resumed.exception, TypeError)
