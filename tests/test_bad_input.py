"""Bad input found by widening the fuzzer (test_fuzz.py) and by hand: each once ended in a Python traceback or in an
error that did not say where. Each test writes the smallest file that showed it, and asserts the located error (or
that the file now loads and plays)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from naipes import load_program
from naipes.agents.registry import RandomAgent, load_strategy, make_agent
from naipes.errors import RuleError, RuleErrors
from naipes.language.loader import MAX_BYTES
from naipes.runtime.game import Game, play_game
from naipes.tools.cli import main

from helpers import RULESETS, STRATEGIES

ROOT = Path(__file__).resolve().parent.parent
HIGH_CARD = (ROOT / "examples" / "high_card.yaml").read_text(encoding="utf-8")
ASK_WHEN = 'when: "len(played) < len(players)"'


def high_card(tmp_path: Path, when: str, name: str = "g.yaml") -> Path:
    """The example game with the condition of its rule 'ask_to_play' replaced by `when` (YAML, quoted)."""
    assert ASK_WHEN in HIGH_CARD
    path = tmp_path / name
    path.write_text(HIGH_CARD.replace(ASK_WHEN, f"when: {when}"), encoding="utf-8")
    return path


def only_error(exc: RuleError | RuleErrors) -> RuleError:
    errors = exc.errors if isinstance(exc, RuleErrors) else [exc]
    assert len(errors) == 1, [str(e) for e in errors]
    return errors[0]


def first_line(exc: BaseException) -> str:
    return str(exc).splitlines()[0]


# ---------------------------------------------------------- numbers that constant folding made too large
@pytest.mark.parametrize("expression", [
    "999999999999999999 * 10",                      # within folding's old bound (2**64), past the 18 digits
    "999999999999999999 + 999999999999999999",
    "999999999999999999 * 1.5",                     # a float of 19 digits
    "-(999999999999999999 + 1)",                   # negated after folding
])
def test_arithmetic_of_literals_past_the_largest_number_loads_and_plays(tmp_path, expression):
    # Folding computed these at load time into a literal that the code writer refuses (ValueError: ... is a
    # number too large): a traceback from a file whose every number is one a rule file may write.
    path = high_card(tmp_path, f"\"len(played) < len(players) and str({expression}) != ''\"")
    program = load_program(path, {})
    play_game(program, [RandomAgent(1), RandomAgent(2)], seed=1)


def test_a_float_that_rounds_up_to_nineteen_digits_is_a_located_error(tmp_path):
    # 18 digits and a fraction: float() rounds it to 1e18, a number no rule file may write (ValueError before)
    path = high_card(tmp_path, "\"len(played) < len(players) and str(999999999999999999.99) != ''\"")
    with pytest.raises((RuleError, RuleErrors)) as info:
        load_program(path, {})
    error = only_error(info.value)
    assert error.message == "the number is too large (at most 18 digits)"
    line = HIGH_CARD.split("\n").index(f"    {ASK_WHEN}") + 1
    col = len('    when: "len(played) < len(players) and str(') + 1
    assert (error.location.file, error.location.line, error.location.col) == (str(path), line, col)
    assert first_line(error) == f"{path}:{line}:{col}: the number is too large (at most 18 digits)"


# ---------------------------------------------------------- 'extends:' naming no possible file
def variant(tmp_path: Path, extends: str, name: str = "v.yaml") -> Path:
    path = tmp_path / name
    path.write_text(f"game: v\nextends: {extends}\n", encoding="utf-8")
    return path


# (a NUL is refused as any control character in a file's text is, where it is written)
NUL_REFUSED = "a text holds the control character \\x00, which a terminal obeys rather than shows: leave it out"


def test_extends_with_a_nul_character_is_a_located_error(tmp_path):
    # pathlib's resolve() raised ValueError (embedded null byte)
    path = variant(tmp_path, '"fichas\\0.yaml"')
    with pytest.raises(RuleError) as info:
        load_program(path, {})
    assert first_line(info.value) == f"{path}:2:10: {NUL_REFUSED}"


def test_extends_without_a_suffix_and_a_nul_character_shows_it_escaped(tmp_path):
    path = variant(tmp_path, '"fich\\0as"')
    with pytest.raises(RuleError) as info:
        load_program(path, {})
    assert first_line(info.value) == f"{path}:2:10: {NUL_REFUSED}"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_extends_through_a_loop_of_symbolic_links_is_a_located_error(tmp_path):
    # resolve() raised RuntimeError (Symlink loop), for the base named and for its name without '.yaml'
    (tmp_path / "a.yaml").symlink_to("b.yaml")
    (tmp_path / "b.yaml").symlink_to("a.yaml")
    for extends, shown in [("a.yaml", "a.yaml"), ("a", "a")]:
        path = variant(tmp_path, extends)
        with pytest.raises(RuleError) as info:
            load_program(path, {})
        assert first_line(info.value) == f"{path}:2:10: base rule file '{shown}' not found"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_a_loop_of_symbolic_links_beside_a_variant_does_not_break_its_missing_base_error(tmp_path):
    # the files beside a variant are listed for a "did you mean" hint: one of them a loop of links raised
    # RuntimeError, whatever base the variant named
    (tmp_path / "a.yaml").symlink_to("b.yaml")
    (tmp_path / "b.yaml").symlink_to("a.yaml")
    path = variant(tmp_path, "nowhere.yaml")
    with pytest.raises(RuleError) as info:
        load_program(path, {})
    assert first_line(info.value) == f"{path}:2:10: base rule file 'nowhere.yaml' not found"


def test_a_strategy_extending_a_path_with_a_nul_character_is_a_located_error(tmp_path):
    folder = tmp_path / "pocha"
    folder.mkdir()
    for level in (STRATEGIES / "pocha").glob("*.yaml"):
        (folder / level.name).write_text(level.read_text(encoding="utf-8"), encoding="utf-8")
    text = (folder / "strong.yaml").read_text(encoding="utf-8")
    assert "\nextends: baseline.yaml\n" in text
    path = folder / "strong.yaml"
    path.write_text(text.replace("\nextends: baseline.yaml\n", '\nextends: "a\\0b.yaml"\n'), encoding="utf-8")
    line = text.split("\n").index("extends: baseline.yaml") + 1
    with pytest.raises(RuleError) as info:
        load_strategy(path, load_program(RULESETS / "pocha.yaml"))
    assert first_line(info.value) == f"{path}:{line}:10: {NUL_REFUSED}"


# ---------------------------------------------------------- a file that is not UTF-8
def test_a_rule_file_that_is_not_utf8_is_an_error_at_the_first_bad_byte(tmp_path):
    # the error said "cannot read FILE: 'utf-8' codec can't decode ...", without a line or column
    path = tmp_path / "latin1.yaml"
    path.write_bytes('game: g\ntitle: "café"\n'.encode("latin-1"))
    with pytest.raises(RuleError) as info:
        load_program(path, {})
    error = info.value
    assert (error.location.file, error.location.line, error.location.col) == (str(path), 2, 12)
    assert first_line(error) == \
        f"{path}:2:12: the file is not UTF-8 text: byte 0xe9 cannot be read (invalid continuation byte)"
    assert "hint: save it as UTF-8" in str(error)


def test_a_utf16_rule_file_is_an_error_at_its_first_byte(tmp_path):
    path = tmp_path / "utf16.yaml"
    path.write_bytes("game: g\n".encode("utf-16"))
    with pytest.raises(RuleError) as info:
        load_program(path, {})
    assert first_line(info.value) == \
        f"{path}:1:1: the file is not UTF-8 text: byte 0xff cannot be read (invalid start byte)"


def test_naipes_check_on_a_file_that_is_not_utf8_says_where(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes('game: g\ntitle: "café"\n'.encode("latin-1"))
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    assert f"{path}:2:12: the file is not UTF-8 text" in result.output
    assert "Traceback" not in result.output


def test_naipes_check_on_folded_arithmetic_past_the_largest_number_has_no_traceback(tmp_path):
    path = high_card(tmp_path, "\"len(played) < len(players) and str(999999999999999999 * 10) != ''\"")
    exe = Path(sys.executable).with_name("naipes")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "naipes.tools.cli"]
    env = {**os.environ, "NAIPES_COMPILE": "never"}
    done = subprocess.run(command + ["check", "--games", "1", str(path)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env=env)
    assert "Traceback" not in done.stdout + done.stderr
    assert done.returncode == 0, done.stdout + done.stderr


# ---------------------------------------------------------- a compound move's part without 'choose'
ESCOBA = (RULESETS / "escoba.yaml").read_text(encoding="utf-8")
PART = '      - choose: "t in table"\n        collect: taken'


def escoba_with(tmp_path: Path, old: str, new: str) -> Path:
    assert old in ESCOBA
    path = tmp_path / "escoba_mutant.yaml"
    path.write_text(ESCOBA.replace(old, new), encoding="utf-8")
    return path


def line_of(text: str, fragment: str) -> int:
    return text[:text.index(fragment)].count("\n") + 1


@pytest.mark.parametrize("written", ["      - collect: taken", "      - true: \"t in table\"\n        collect: taken"])
def test_a_part_without_choose_is_a_located_error(tmp_path, written):
    # the reader took keys["choose"] (KeyError: 'choose'); the shape check behind it did not know required keys
    path = escoba_with(tmp_path, PART, written)
    with pytest.raises((RuleError, RuleErrors)) as info:
        load_program(path, {})
    errors = info.value.errors if isinstance(info.value, RuleErrors) else [info.value]
    assert first_line(errors[0]) == \
        f"{path}:{line_of(ESCOBA, PART)}:9: part 1 of move 'capture' needs 'choose: NAME in COLLECTION'"


@pytest.mark.parametrize("parts", ['"t in table"', '{t: "t in table"}'])
def test_parts_that_are_no_list_are_a_located_error(tmp_path, parts):
    # a text was read character by character as parts (and a mapping key by key)
    path = escoba_with(tmp_path, "    parts:\n", f"    parts: {parts}\n    old_parts:\n")
    with pytest.raises((RuleError, RuleErrors)) as info:
        load_program(path, {})
    errors = info.value.errors if isinstance(info.value, RuleErrors) else [info.value]
    line = line_of(ESCOBA, "    parts:\n")
    assert f"{path}:{line}:12: move 'capture': 'parts' is a list of parts, each 'NAME in COLLECTION' or a mapping " \
        "with 'choose'" in [first_line(e) for e in errors]


def test_the_shape_check_reports_a_missing_required_key():
    # the net behind every reader: a mapping without a key the vocabulary requires is a located error
    from naipes.language.loader import parse_yaml
    from naipes.language.shapes import shape_errors
    from naipes.language.vocabulary import RULE_FILE, STRATEGY_FILE
    tree = parse_yaml("game: g\nmoves:\n  m:\n    choose: x in y\n    parts:\n      - {label: a}\n", "f.yaml")
    assert [(str(e.location), e.message) for e in shape_errors(tree, RULE_FILE)] == \
        [("f.yaml:6:9", "'item 1' of 'moves.m.parts' needs 'choose'")]
    # the file's own required keys ('game') are its reader's to report (the bets check part of a file with this)
    assert shape_errors(parse_yaml("title: t\n", "t.yaml"), RULE_FILE) == []
    # a strategy's group of rules is the record with 'group' and 'rules' (not a rule without 'name')
    group = "game: g\nrules:\n  - group: g1\n    rules:\n      - {name: r, choose: x}\n"
    assert shape_errors(parse_yaml(group, "s.yaml"), STRATEGY_FILE) == []


# ---------------------------------------------------------- a variant listing a phase twice
def test_a_variant_listing_a_phase_twice_is_a_located_error(tmp_path):
    # the list of phases became a mapping: the second 'play' was silently dropped
    (tmp_path / "high_card.yaml").write_text(HIGH_CARD, encoding="utf-8")
    path = tmp_path / "v.yaml"
    path.write_text("game: v\nextends: high_card.yaml\nphases: [deal, play, play]\n", encoding="utf-8")
    with pytest.raises(RuleError) as info:
        load_program(path, {})
    assert first_line(info.value) == f"{path}:3:22: phase 'play' is listed twice"
    assert f"hint: first at {path}:3:16" in str(info.value)


# ---------------------------------------------------------- a person asked to move in a run of AI players
FICHAS = (RULESETS / "fichas.yaml").read_text(encoding="utf-8")
AI_ONLY = "simulate, tournament and solve --after seat only AI players: use 'naipes play' to play"


def person_by_default(tmp_path: Path, default: str = "human") -> Path:
    """A strategy for fichas that never chooses: its default decides every move."""
    path = tmp_path / "lazy.yaml"
    path.write_text(f"game: fichas\ndefault: {default}\nrules:\n  - name: r\n    choose: \"None\"\n", encoding="utf-8")
    return path


def no_traceback(result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", [["simulate", "fichas", "-n", "1", "--opponents", "random", "--seat"],
                                     ["simulate", "fichas", "-n", "1", "--seat", "random", "--opponents"],
                                     ["tournament", "fichas", "-n", "1", "--jobs", "1", "--seat", "random", "--seat"]])
def test_a_strategy_whose_default_is_a_person_is_refused_where_only_ai_plays(tmp_path, command):
    # the strategy's default asked a person at the terminal mid-run: without one, QuitGame ended it in a traceback
    path = person_by_default(tmp_path)
    result = CliRunner().invoke(main, [*command, str(path), "--seed", "1"], input="")
    no_traceback(result)
    assert result.exit_code == 1
    assert f"{path}:2:10: default 'human' asks a person to move: {AI_ONLY}" in result.output


def test_a_strategy_leading_to_a_person_through_another_is_refused_at_that_one(tmp_path):
    lazy = person_by_default(tmp_path)
    chain = tmp_path / "chain.yaml"
    chain.write_text(f"game: fichas\ndefault: \"ismcts:policy={lazy}\"\nrules:\n  - name: r\n    choose: \"None\"\n",
                     encoding="utf-8")
    result = CliRunner().invoke(main, ["simulate", "fichas", "-n", "1", "--opponents", "random", "--seat", str(chain),
                                       "--seed", "1"], input="")
    no_traceback(result)
    assert f"{lazy}:2:10: default 'human' asks a person to move" in result.output


def test_a_person_in_an_agents_options_is_refused_in_a_simulation():
    result = CliRunner().invoke(main, ["simulate", "fichas", "-n", "1", "--seat", "ismcts:policy=human",
                                       "--opponents", "random", "--seed", "1"], input="")
    no_traceback(result)
    assert result.exit_code == 1
    assert f"'ismcts:policy=human' asks a person to move: {AI_ONLY}" in result.output


@pytest.mark.parametrize("command", [["simulate", "-n", "1"], ["solve", "--open", "--after", "2"]])
def test_a_rule_file_whose_ai_is_a_person_is_refused_where_only_ai_plays(tmp_path, command):
    assert "ai: exact" in FICHAS
    path = tmp_path / "hot_seat.yaml"
    path.write_text(FICHAS.replace("ai: exact", "ai: human"), encoding="utf-8")
    result = CliRunner().invoke(main, [command[0], str(path), *command[1:], "--seed", "1"], input="")
    no_traceback(result)
    assert result.exit_code == 1
    assert f"'human' asks a person to move: {AI_ONLY}" in result.output


# ---- a decision without options is located at the move (it was a GameError without a place)
def test_a_move_asked_without_a_legal_option_is_an_error_at_that_move(tmp_path):
    legal = '''    legal:
      - follow_the_colour: "len(played) == 0 or c.colour == led()"
      - any_card: "True"
'''
    assert legal in HIGH_CARD
    path = tmp_path / "g.yaml"
    path.write_text(HIGH_CARD.replace(legal, '    legal: "False"\n'), encoding="utf-8")
    program = load_program(path)
    with pytest.raises(RuleError) as caught:
        play_game(program, [RandomAgent(i) for i in range(program.players[0])], seed=1)
    error = only_error(caught.value)
    assert "is asked to play but has no legal option" in error.message
    lines = path.read_text(encoding="utf-8").splitlines()
    at = lines.index('    legal: "False"')
    move_line = max(i for i in range(at) if lines[i] == "  play:") + 1  # (the move's key, above its legality)
    assert (error.location.file, error.location.line) == (str(path), move_line)


# ---- a lambda called with the wrong arguments is named as the file writes it (it was named by the generated
# function it is in, its parameter by its generated name: "rule_then_3.<locals>.<lambda>() missing ... 'v_b'")
@pytest.mark.parametrize("lambdas, message", [
    ("let f = lambda a, b: a + b\n      x = f(1)", "lambda missing 1 required positional argument: 'b'"),
    ("let f = lambda: 1\n      x = f(3)", "lambda takes 0 positional arguments but 1 was given"),
    ("let f = lambda a: lambda b, c: b\n      let g = f(1)\n      x = g(2)",
     "lambda missing 1 required positional argument: 'c'"),
    ("x = max([1, 2], key=lambda a, b: a)", "lambda missing 1 required positional argument: 'b'"),
])
def test_a_lambda_called_with_the_wrong_arguments_is_named_as_written(tmp_path, lambdas, message):
    path = tmp_path / "g.yaml"
    path.write_text(f"""game: g
players: 2
state: {{x: 0}}
rules:
  - name: r
    when: "x == 0"
    then: |
      {lambdas}
      end game
""", encoding="utf-8")
    program = load_program(path)
    with pytest.raises(RuleError) as caught:
        play_game(program, [RandomAgent(1), RandomAgent(2)], seed=1)
    error = only_error(caught.value)
    assert error.message == f"in actions of rule 'r': TypeError: {message}"
    assert (error.location.file, error.location.line) == (str(path), 8 + lambdas.count("\n"))


def test_a_part_without_a_legal_choice_is_an_error_at_that_part(tmp_path):
    escoba = (RULESETS / "escoba.yaml").read_text(encoding="utf-8")
    legal = 'legal: "may_take(c, taken, t)"'
    assert escoba.count(legal) == 1
    path = tmp_path / "escoba_no_part.yaml"
    path.write_text(escoba.replace(legal, 'legal: "False"'), encoding="utf-8")
    program = load_program(path)
    with pytest.raises(RuleError) as caught:
        for seed in range(20):  # (until someone begins a capture)
            play_game(program, [RandomAgent(seed * 10 + i) for i in range(2)], seed=seed)
    error = only_error(caught.value)
    assert "but has no legal choice for its part 'taken'" in error.message
    lines = escoba.splitlines()
    at = next(i for i, line in enumerate(lines) if legal in line)
    part_line = max(i for i in range(at) if lines[i].lstrip().startswith("- choose:")) + 1  # (the part, above it)
    assert (error.location.file, error.location.line) == (str(path), part_line)


# ---- a strategy file a file names by a relative path is read beside that file (it was read from the command's
# folder: a shared folder of files played only when run from inside it)
def test_a_strategys_default_path_is_read_beside_the_strategy(tmp_path, monkeypatch):
    folder = tmp_path / "shared"
    folder.mkdir()
    person_by_default(folder, default="random").rename(folder / "fallback.yaml")
    lazy = person_by_default(folder, default="fallback.yaml")
    monkeypatch.chdir(tmp_path)  # (not the strategy's folder)
    program = load_program(RULESETS / "fichas.yaml")
    strategy = load_strategy(lazy, program)
    assert strategy.default == str(folder / "fallback.yaml")
    result = CliRunner().invoke(main, ["simulate", "fichas", "-n", "1", "--seat", str(lazy), "--opponents", "random",
                                       "--seed", "1"])
    no_traceback(result)
    assert result.exit_code == 0, result.output


def test_a_rule_files_ai_path_is_read_beside_the_rule_file(tmp_path, monkeypatch):
    folder = tmp_path / "shared"
    folder.mkdir()
    person_by_default(folder, default="random").rename(folder / "house_ai.yaml")
    assert "ai: exact" in FICHAS
    (folder / "house.yaml").write_text(FICHAS.replace("ai: exact", "ai: house_ai.yaml"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    program = load_program(folder / "house.yaml")
    assert program.default_ai == str(folder / "house_ai.yaml")
    result = CliRunner().invoke(main, ["simulate", str(folder / "house.yaml"), "-n", "1", "--seed", "1"])
    no_traceback(result)
    assert result.exit_code == 0, result.output


def test_a_strategy_path_in_an_agents_options_is_read_beside_the_strategy(tmp_path, monkeypatch):
    folder = tmp_path / "shared"
    folder.mkdir()
    person_by_default(folder, default="random").rename(folder / "fallback.yaml")
    searching = person_by_default(folder, default='"ismcts:iterations=5, policy=fallback.yaml"')
    monkeypatch.chdir(tmp_path)
    strategy = load_strategy(searching, load_program(RULESETS / "fichas.yaml"))
    assert strategy.default == f"ismcts:iterations=5,policy={folder / 'fallback.yaml'}"
    result = CliRunner().invoke(main, ["simulate", "fichas", "-n", "1", "--seat", str(searching), "--opponents",
                                       "random", "--seed", "1"])
    no_traceback(result)
    assert result.exit_code == 0, result.output


def test_a_tournament_refuses_a_person_seated_by_name():
    result = CliRunner().invoke(main, ["tournament", "fichas", "--seat", "human", "--seat", "random", "-n", "1",
                                       "--seed", "1"], input="")
    no_traceback(result)
    assert result.exit_code == 1
    assert f"'human' asks a person to move: {AI_ONLY}" in result.output


# ---------------------------------------------------------- found by a red team (rule-file text that reached Python)
def small_game(tmp_path: Path, extra: str, setup: str) -> Path:
    path = tmp_path / "g.yaml"
    path.write_text(f"game: g\nplayers: 2\n{extra}state:\n  x: {{init: 'None'}}\nsetup: |\n  {setup}\n"
                    "rules:\n  - name: done\n    then: \"end game\"\n", encoding="utf-8")
    return path


def test_a_value_nested_too_deep_to_keep_is_an_error_where_it_is_kept(tmp_path):
    # a list nested 200,000 deep loaded, played, and ended in a RecursionError traceback when the game was shown
    path = small_game(tmp_path, "", "let t = []\n  for i in range(5000):\n      t = [t]\n  x = t")
    with pytest.raises(RuleError) as caught:
        play_game(load_program(path), [RandomAgent(1), RandomAgent(2)], seed=1)
    assert "a value nested more than 100 deep" in caught.value.message and caught.value.location.line == 9
    shallow = small_game(tmp_path, "", "let t = []\n  for i in range(90):\n      t = [t, (i, [i])]\n  x = t")
    play_game(load_program(shallow), [RandomAgent(1), RandomAgent(2)], seed=1)  # (90 deep is kept)


def test_a_function_is_never_shown_as_python_writes_it(tmp_path):
    # a card named by a lambda, a view holding a built-in: shown as "<function deck_name_1.<locals>.<lambda> at 0x..>"
    named = small_game(tmp_path, "cards:\n  attributes: {rank: [1, 2]}\n  name: \"lambda x: x\"\n  start: deck\n"
                       "zones:\n  deck: {}\n", "x = 1")
    with pytest.raises(RuleError, match="card 0: its name is a function, where a text is wanted"):
        Game(load_program(named), 1).start()
    viewed = small_game(tmp_path, "views:\n  shown: {value: \"sorted\"}\n", "x = 1")
    game = Game(load_program(viewed), 1)
    game.start()
    with pytest.raises(RuleError, match="view 'shown': a function .* is not a value to show"):
        game.view(0)


@pytest.mark.parametrize("text", ["'\\ud800'", "f'a\\udfff {x}'", "\"b\\udc00\""])
def test_a_text_with_half_a_character_is_an_error_where_it_is_written(tmp_path, text):
    # an escape of a lone surrogate loaded, then cut the log short with an unlocated UnicodeEncodeError
    error = only_error(pytest.raises((RuleError, RuleErrors), load_program,
                                     small_game(tmp_path, "", f"announce {text}")).value)
    assert "an escape of half a character" in error.message
    assert (error.location.line, error.location.col) == (6, 12)


def test_round_to_a_billion_places_is_an_error_not_a_hang(tmp_path):
    path = small_game(tmp_path, "", "x = [round(5, -1000000000)]")
    with pytest.raises(RuleError, match="round to at most 36 places either way, not -1000000000"):
        Game(load_program(path), 1).start()
    rounded = small_game(tmp_path, "", "x = [round(1234.5678, 2), round(1234, -2), round(2.5)]")
    game = Game(load_program(rounded), 1)
    game.start()
    assert game.memory.vars["x"] == [1234.57, 1200, 2]


def test_a_long_text_repeated_by_yaml_aliases_is_refused_before_it_is_read_again_and_again(tmp_path):
    # 40 aliases of a megabyte's text took a minute and 4 GB to load
    long = "x" * 200_000
    path = tmp_path / "g.yaml"
    path.write_text(f"game: g\ndoc: &s {long}\nplayers: 2\nstate:\n"
                    + "".join(f"  v{i}: {{init: '0', doc: *s}}\n" for i in range(10)), encoding="utf-8")
    with pytest.raises((RuleError, RuleErrors), match="repeated by YAML aliases, come to more than twice the file"):
        load_program(path)
    few = tmp_path / "few.yaml"  # (aliases of short texts, as files share a doc or a list, are read)
    few.write_text("game: few\ndoc: &s a short text shared\nplayers: 2\ntitle: *s\nstate:\n"
                   + "".join(f"  v{i}: {{init: '0', doc: *s}}\n" for i in range(50))
                   + "rules:\n  - name: done\n    then: \"end game\"\n", encoding="utf-8")
    assert load_program(few).title == "a short text shared"


def test_a_text_of_escapes_loads_in_time_in_proportion_to_it(tmp_path):
    # where each character of a quoted YAML text is written was found by walking the text as written from the last
    # one found, and from there again whenever a character has no literal counterpart (an escape, "\\x41" for "A"):
    # a 32 KB text of escapes took a minute to load, a file of the most bytes would have taken hours
    path = tmp_path / "escapes.yaml"
    path.write_text('game: escapes\nplayers: 2\ndoc: "' + "\\x41" * 25_000 + '"\nrules:\n  - name: done\n'
                    '    then: "end game"\n', encoding="utf-8")
    load = f"from naipes import load_program; print(len(load_program({str(path)!r}).doc))"
    done = subprocess.run([sys.executable, "-c", load], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout == "25000\n"


def test_a_file_larger_than_a_load_may_take_is_refused_before_it_is_read(tmp_path):
    # a load's time follows the file (a 474 KB file of 16,000 functions, each calling the next, loads in 24 s):
    # a file, with the files it extends, may have MAX_BYTES, counted in bytes (an "ñ" is two)
    chain = "".join(f'  "f{i}(x)": "f{i + 1}(x) + 1"\n' for i in range(20_000))
    path = tmp_path / "chain.yaml"
    path.write_text(f"game: chain\nfunctions:\n{chain}", encoding="utf-8")
    with pytest.raises(RuleError, match=f"the file is too large: .* at most {MAX_BYTES:,} bytes") as caught:
        load_program(path)
    assert (caught.value.location.file, caught.value.location.line) == (str(path), 1)
    pocha = (RULESETS / "pocha.yaml").stat().st_size + (RULESETS / "tricks.yaml").stat().st_size
    for padding, loads in [(MAX_BYTES - pocha - 200, True), (MAX_BYTES - pocha, False)]:
        variant = tmp_path / "variant.yaml"
        variant.write_text(f"game: pocha\nextends: pocha\ndoc: {'ñ' * (padding // 2)}\n", encoding="utf-8")
        if loads:
            assert load_program(variant).name == "pocha"
            continue
        with pytest.raises(RuleError, match="this file and the files it extends come to more than") as caught:
            load_program(variant)
        assert (caught.value.location.file, caught.value.location.line) == (str(variant), 2)
    level = tmp_path / "level.yaml"  # a strategy is read as a rule file is
    level.write_text(f"game: pocha\nextends: strong\nrules: []\n# {'x' * MAX_BYTES}\n", encoding="utf-8")
    with pytest.raises((RuleError, RuleErrors), match="the file is too large"):
        load_strategy(level, load_program(RULESETS / "pocha.yaml"))


@pytest.mark.parametrize("section, value, said", [
    ("result", "'a'", "a text"),
    ("result", "[player.tricks]", "a list"),
    ("result", "None if player.index == 1 else 0", "None"),
    ("result", "big", "a number no float can hold"),  # (2 ** 1100: a sum of payoffs is taken as a float)
    ("evaluation", "'a'", "a text"),
    ("estimate", "[1]", "a list"),
])
def test_a_payoff_or_an_evaluation_that_is_no_number_is_an_error_where_it_is_written(tmp_path, section, value, said):
    # a text `result:` checked clean and then ended the run's summary in a TypeError traceback
    text = HIGH_CARD.replace('result: "player.tricks"', f'{section}: "{value}"')
    text = text.replace("state:\n", "state:\n  big: {init: '1'}\n", 1)
    text = text.replace("setup: |\n", "setup: |\n  for i in range(1100):\n    big = big + big\n", 1) \
        if "setup: |\n" in text else text + "setup: |\n  for i in range(1100):\n    big = big + big\n"
    path = tmp_path / "g.yaml"
    path.write_text(text, encoding="utf-8")
    program = load_program(path)
    seats = [make_agent("ismcts:iterations=8", 1, program), RandomAgent(2)] if section != "result" \
        else [RandomAgent(1), RandomAgent(2)]
    with pytest.raises(RuleError, match=f"'{section}' gives {said} for P., where a number is needed") as caught:
        play_game(program, seats, seed=1)
    line = text.splitlines().index(next(ln for ln in text.splitlines() if ln.startswith(f"{section}:"))) + 1
    assert (caught.value.location.file, caught.value.location.line) == (str(path), line)
