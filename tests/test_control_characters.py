"""No text of a file reaches a terminal as a control character (an escape sequence that sets the window's title or
clears the screen): a rule file, a strategy or a log may not hold one, and an error shows one escaped."""
import json

import pytest
from click.testing import CliRunner

from naipes.errors import CONTROL, ParamError, RuleError
from naipes.tools.cli import main
from naipes.tools.gamelog import LogError, read_log

from helpers import load_errors

ESCAPE = "\x1b]0;PWNED\x07"
GAME = """\
game: t
players: 2
cards:
  attributes: {rank: [1, 2, 3]}
  start: stock
zones:
  stock: {visibility: public}
rules:
  - name: the_end
    when: "True"
    then: THEN
"""


def written(tmp_path, text):
    path = tmp_path / "g.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("where, text", [
    ("a key", GAME.replace("then: THEN", 'then: end game\n"\\e]0;PWNED\\a": 1')),
    ("a title", 'title: "\\e]0;PWNED\\a"\n' + GAME.replace("THEN", "end game")),
    ("a text of the language", GAME.replace("THEN", "\"announce '\\\\x1b[2J'\"")),
    ("an f-string's text", GAME.replace("THEN", "\"announce f'\\\\x9b{1}'\"")),
    # a bidirectional override shows what follows it backwards ('Trojan Source'): a label that reads as another
    ("a right-to-left override", 'title: "Pocha \u202eahcop"\n' + GAME.replace("THEN", "end game")),
    ("an isolate in the language", GAME.replace("THEN", "\"announce '\\\\u2067x'\"")),
    ("a line separator", 'title: "one\\L two"\n' + GAME.replace("THEN", "end game")),
])
def test_a_control_character_in_a_file_is_a_located_error(tmp_path, where, text):
    errors = load_errors(written(tmp_path, text))
    assert "a text holds the control character" in str(errors[0]) and errors[0].location is not None
    checked = CliRunner().invoke(main, ["check", str(tmp_path / "g.yaml")])
    assert checked.exit_code != 0 and not CONTROL.search(checked.output)


def test_a_control_character_in_a_log_is_a_located_error(tmp_path):
    log = tmp_path / "game.jsonl"
    played = CliRunner().invoke(main, ["play", "kuhn_poker", "--seat", "random", "--seat", "random", "--log", str(log)])
    assert played.exit_code == 0, played.output
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    records[0]["ruleset"] = ESCAPE
    log.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    with pytest.raises(LogError, match="control character") as error:
        read_log(log)
    assert error.value.location.line == 1
    replayed = CliRunner().invoke(main, ["replay", str(log)])
    assert replayed.exit_code != 0 and "\x1b" not in replayed.output


def test_an_error_shows_a_control_character_escaped():
    assert str(RuleError(f"unknown section '{ESCAPE}'")) == "unknown section '\\x1b]0;PWNED\\x07'"
    assert str(ParamError(ESCAPE)) == "\\x1b]0;PWNED\\x07"
    assert str(RuleError("two\n\tlines")) == "two\n\tlines"  # (a new line and a tab are shown as they are)


@pytest.mark.parametrize("param", [f"colour={ESCAPE}", "colour=\udcff1", f"{ESCAPE}=1", "colour=" + "x" * 1_000_001])
def test_a_param_given_a_control_character_half_a_character_or_a_huge_text_is_refused(tmp_path, param):
    # a text param reached the cards' names, a log (which cannot hold half a character: a traceback) and the
    # terminal; given on the command line or by the web table, it is checked as a file's texts are
    path = written(tmp_path, GAME.replace("THEN", "end game").replace(
        "players: 2", "players: 2\nparams:\n  colour: {type: str, default: oros}"))
    result = CliRunner().invoke(main, ["check", str(path), "-p", param])
    assert result.exit_code != 0 and isinstance(result.exception, (SystemExit, ParamError)), result.output
    assert "\x1b" not in result.output and "\udcff" not in result.output
    assert "control character" in result.output or "half a character" in result.output or "too long" in result.output
