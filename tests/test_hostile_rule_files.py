"""Rule-file text never becomes code: hostile names and values in every place one enters generated code.

A small valid game is written with a placeholder for each name and literal a
rule file gives (a view, a state variable, a zone, a param and its value, a
function and its argument, a move and its choice, a card attribute, a card
table, card values, extra cards, a rule and its binding, a local, a number, a
string, a strategy's memory). Each placeholder in turn receives hostile
text: code that would create a marker file if it ever ran, names that are not
ASCII identifiers, names of the engine's own attributes, keywords, and values
that are not plain literals. Every such file must load and play, or fail with
a located error; none may run code, and none may fail with a traceback.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from naipes import load_program
from naipes.agents.registry import RandomAgent, load_strategy
from naipes.errors import NaipesError, RuleError, RuleErrors
from naipes.runtime.game import play_game

from helpers import yaml_text

ROOT = Path(__file__).resolve().parent.parent


def game_tree(n: dict) -> dict:
    """The template game; `n` maps each placeholder to a name, values stay placeholders (@INT@, ...)."""
    return {
        "game": "hostile", "players": 2,
        "params": {n["PARAM"]: {"type": "int", "default": "@INT@"}},
        "cards": {"attributes": {n["ATTR"]: "@CARD_VALUES@", "colour": ["r", "b"]},
                  "tables": {n["TABLE"]: {"of": n["ATTR"], "values": "@TABLE_VALUES@", "default": 0}},
                  "extra": "@EXTRA@", "start": n["ZONE"]},
        "zones": {n["ZONE"]: {"visibility": "public"}, n["HAND"]: {"per_player": True}},
        "state": {n["STATE"]: 0},
        "player_state": {n["PSTATE"]: 0},
        "functions": {f"{n['FUNC']}({n['ARG']})": f"{n['ARG']} + @NUMBER@"},
        "views": {n["VIEW"]: {"value": f"len({n['ZONE']})"}},
        "moves": {n["MOVE"]: {
            "choose": f"{n['CHOICE']} in {n['ZONE']}",
            "label": f"@STRING@ + {n['CHOICE']}.name",
            "then": f"let {n['LOCAL']} = {n['FUNC']}({n['STATE']})\n"
                    f"move {n['CHOICE']} to player.{n['HAND']}\n"
                    f"{n['STATE']} = {n['LOCAL']}\n"
                    f"player.{n['PSTATE']} += {n['CHOICE']}.{n['TABLE']}\n"}},
        "rules": [{"name": n["RULE"], "for": f"{n['FOR']} in players",
                   "when": f"len({n['ZONE']}) > 0 and {n['FOR']} == players[{n['STATE']} % 2]",
                   "then": f"ask {n['FOR']} to {n['MOVE']}"},
                  {"name": "the_end", "when": f"len({n['ZONE']}) == 0", "then": "end game"}],
    }


def strategy_tree(n: dict) -> dict:
    return {"game": "hostile", "memory": {n["MEMORY"]: 0},
            "rules": [{"name": n["SRULE"], "move": n["MOVE"], "choose": "first(options)",
                       "then": f"{n['MEMORY']} = {n['MEMORY']} + 1"}]}


NAMES = {"PARAM": "limit", "ATTR": "rank", "TABLE": "points", "ZONE": "stock", "HAND": "hand", "STATE": "turn",
         "PSTATE": "score", "FUNC": "bump", "ARG": "n", "VIEW": "remaining", "MOVE": "take", "CHOICE": "c",
         "LOCAL": "next_turn", "RULE": "ask_to_take", "FOR": "p", "MEMORY": "seen", "SRULE": "take_first"}
# Values are raw YAML (some hostile ones exist only as YAML text); in expressions, rule-language text.
VALUES = {"INT": "3", "CARD_VALUES": "[1, 2, 3]", "TABLE_VALUES": "{1: 10, 2: 20}", "EXTRA": "[]", "NUMBER": "1",
          "STRING": "'take '"}


def injection(marker: Path) -> str:
    return f"__import__('os').system('touch {marker}')"


def hostile_names(marker: Path) -> list[str]:
    code = injection(marker)
    return [
        f"x(M, V):\n    {code}\ndef y",  # a name pasted into a def would run this
        f"x(M, V): {code}",
        f"x; {code}",
        "ñame", "ﬁle", "naïve",  # non-ASCII (ﬁ folds to fi under NFKC)
        "__class__", "_private", "if", "lambda", "match",  # private names, keywords, soft keywords
        "index", "state_slots", "zone_slots", "id", "attributes", "name",  # the engine's own attributes
        "1abc", "a b", "a-b", "a.b", "a\x00b", "",  # not identifiers
        "M", "V", "B_len", "v_x", "F_f",  # the generated code's own names
        "x" * 300,
    ]


def hostile_values(marker: Path) -> dict[str, list[str]]:
    code = injection(marker)
    return {
        "INT": [".inf", "-.inf", ".nan", "2020-01-01", "1" + "0" * 30, "1" * 5000, "!!binary aGVsbG8=",
                "!!python/object/apply:os.system ['true']", "[1, 2]", "{a: 1}", "007", "0x1F", f'"{code}"'],
        "CARD_VALUES": ["[.inf, 1]", "[2020-01-01, 1]", "[!!binary aGVsbG8=]", f'["{code}", 1]', "[[1, 2], 3]",
                        "[{a: 1}]", "[1e400]", "[!!set {a}]"],
        "TABLE_VALUES": ["{1: .nan}", "{1: [1, 2]}", f'{{1: "{code}"}}', "{2020-01-01: 1}", "{[1]: 2}"],
        "EXTRA": ["[{rank: .inf, colour: r}]", f'[{{rank: 1, colour: "{code}"}}]', "[{rank: 2020-01-01}]",
                  "[{rank: !!binary aGVsbG8=}]", "5", "[[1]]", "[{'__class__': 1}]"],
        "NUMBER": ["007", "0" * 5000 + "1", "9" * 30, "1.5", "99999999999999999999.5", "1_000", "0x10", "1e3"],
        "STRING": [f'"{code}"', "'\\x00'", "'\\N{BELL}'", "'\\'", '"' + "a" * 100_000 + '"', "'''x'''", "f'{1}'",
                   "b'x'", "r'x'"],
    }


def write(path: Path, tree: dict, values: dict) -> Path:
    text = yaml_text(tree, allow_unicode=True, width=10_000)
    for key, value in values.items():
        placeholder = f"@{key}@"
        if key in ("NUMBER", "STRING"):  # inside an expression: rule-language text within a YAML string
            text = text.replace(placeholder, value.replace("\\", "\\\\").replace("'", "''"))
        else:  # a whole YAML value, written as the quoted placeholder
            text = text.replace(f"'{placeholder}'", value)
    path.write_text(text, encoding="utf-8")
    return path


def write_game(folder: Path, names: dict, values: dict) -> Path:
    return write(folder / "hostile.yaml", game_tree(names), values)


def outcome(path: Path) -> str:
    """'loaded' (and played), or 'located' (a located error); anything else fails the test."""
    try:
        program = load_program(path)
    except RuleErrors as errors:
        assert all(e.location is not None for e in errors.errors), str(errors)
        return "located"
    except RuleError as error:
        assert error.location is not None, str(error)
        return "located"
    try:
        play_game(program, [RandomAgent(1), RandomAgent(2)], seed=1)
    except NaipesError as error:
        assert getattr(error, "location", None) is not None, str(error)
        return "located"
    return "loaded"


@pytest.fixture
def marker(tmp_path):
    path = tmp_path / "PWNED"
    yield path
    assert not path.exists(), "rule-file text ran as code"


def test_the_template_itself_loads_and_plays(tmp_path, marker):
    assert outcome(write_game(tmp_path, NAMES, VALUES)) == "loaded"


@pytest.mark.parametrize("place", sorted(set(NAMES) - {"MEMORY", "SRULE"}))
def test_hostile_names_never_run_and_always_get_a_located_answer(tmp_path, marker, place):
    outcomes = [outcome(write_game(tmp_path, {**NAMES, place: name}, VALUES)) for name in hostile_names(marker)]
    assert outcomes.count("located") >= len(outcomes) // 2  # most of these names are refused, wherever they stand


@pytest.mark.parametrize("place", sorted(VALUES))
def test_hostile_values_never_run_and_always_get_a_located_answer(tmp_path, marker, place):
    for value in hostile_values(marker)[place]:
        outcome(write_game(tmp_path, NAMES, {**VALUES, place: value}))


def test_a_param_given_on_the_command_line_must_be_a_finite_number(tmp_path, marker):
    path = write_game(tmp_path, NAMES, VALUES)
    for value in ("inf", "nan", "-inf", "1" * 40):
        with pytest.raises(NaipesError, match="limit"):
            load_program(path, {"limit": value})


@pytest.mark.parametrize("place", ["MEMORY", "SRULE", "MOVE"])
def test_hostile_names_in_a_strategy_never_run(tmp_path, marker, place):
    game = load_program(write_game(tmp_path, NAMES, VALUES))
    for name in hostile_names(marker):
        path = write(tmp_path / "hostile_strategy.yaml", strategy_tree({**NAMES, place: name}), {})
        try:
            load_strategy(path, game)
        except RuleErrors as errors:
            assert all(e.location is not None for e in errors.errors), str(errors)
        except RuleError as error:
            assert error.location is not None, str(error)


def test_extends_never_echoes_a_file_that_is_not_a_rule_file(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("password: hunter2\nother: [unclosed\n", encoding="utf-8")
    variant = tmp_path / "variant.yaml"
    for base in (str(secret), "secret.txt", "../" * 10 + str(secret)):
        variant.write_text(f"extends: {base}\ngame: v\n", encoding="utf-8")
        with pytest.raises(RuleError) as caught:
            load_program(variant)
        assert "hunter2" not in str(caught.value) and "unclosed" not in str(caught.value)
        assert caught.value.location is not None


def test_loading_a_rule_file_never_reads_the_parsers_tables_from_the_shared_temporary_folder(tmp_path):
    # Lark's own cache (cache=True) is a pickle at a name known beforehand in the shared temporary folder (the
    # user's name, a hash of the grammar): another user of the machine could put one there first, and the next load
    # of any rule file ran it. The tables are kept in the user's own cache folder, or nowhere.
    shared, marker = tmp_path / "shared-tmp", tmp_path / "PWNED"
    shared.mkdir()
    plant = textwrap.dedent(f"""\
        import os, pickle, tempfile
        from lark import Lark
        from naipes.language.parser import GRAMMAR, _BlockIndenter
        Lark(GRAMMAR.read_text(), parser="lalr", start=["expr_start", "block_start"], cache=True,
             postlex=_BlockIndenter(), propagate_positions=True, maybe_placeholders=True)  # (the parser's options)
        class Planted:
            def __reduce__(self):
                return (os.system, ("touch {marker}",))
        for name in os.listdir(tempfile.gettempdir()):  # (the file Lark made, at the name it gives it)
            with open(os.path.join(tempfile.gettempdir(), name), "wb") as file:
                file.write(b"planted\\n")
                pickle.dump(Planted(), file)
        """)
    load = f"from naipes import load_program; load_program({str(ROOT / 'examples' / 'high_card.yaml')!r})"
    environment = {**os.environ, "TMPDIR": str(shared), "NAIPES_CACHE": str(tmp_path / "cache")}
    for code in (plant, load):
        subprocess.run([sys.executable, "-c", code], env=environment, check=True, capture_output=True)
    assert not marker.exists(), "a pickle another user put in the temporary folder ran"
    assert (tmp_path / "cache").stat().st_mode & 0o077 == 0 and list((tmp_path / "cache").glob("grammar-*"))
