"""Competitions: bots from a folder, both Pocha environments, a league table, memory across games."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from naipes.errors import NaipesError
from naipes.tools.cli import main
from naipes.tools.competition import discover_bots, run_competition

from helpers import NOTE, RULESETS, bot_notes, shipped

ROOT = Path(__file__).resolve().parent.parent

RECORDER = NOTE + '''
import os
from naipes.bots import Bot

PROCESS = os.urandom(8).hex()  # this process's own mark

class Recorder(Bot):
    """Remembers its first hand of every game (in a static environment they repeat) and notes them all,
    as it knows them so far, at the end of each game."""
    def __init__(self):
        self.first_hands = []
        self.new_game = False
    def start_game(self, info):
        self.new_game = True
    def decide(self, view, options):
        if self.new_game:
            self.first_hands.append(sorted(view["players"][view["seat"]]["hand"]))
            self.new_game = False
        return 0
    def end_game(self, result):
        note("hands", {"bot": type(self).__name__, "process": PROCESS, "first_hands": self.first_hands})

class Second(Recorder):
    pass
'''


@pytest.fixture()
def short_pocha(tmp_path):
    """Pocha environments cut short for the tests: 2 rounds each."""
    (tmp_path / "dyn.yaml").write_text(f"extends: {RULESETS / 'pocha.yaml'}\n"
                                       "state:\n  schedule: {init: \"[1, 2]\"}\n")
    (tmp_path / "static.yaml").write_text(f"extends: {RULESETS / 'pocha_static.yaml'}\n"
                                          "params:\n  rounds: {default: 2}\n  cards_each: {default: 3}\n")
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "recorder.py").write_text(RECORDER)
    return tmp_path


def test_every_bot_class_in_the_folder_enters():
    specs = discover_bots(ROOT / "examples" / "pocha_bots").specs
    assert sorted(s.rsplit(":", 1)[1] for s in specs) == ["Greedy", "Learner"]


def test_an_empty_folder_is_an_error(tmp_path):
    with pytest.raises(NaipesError, match="no Bot subclass"):
        discover_bots(tmp_path)


def test_static_environment_deals_the_same_hands_every_game(short_pocha):
    static = str(short_pocha / "static.yaml")
    summary = run_competition([static], short_pocha / "bots", games=3, seed=4, fixed=(static,))
    rows = summary["standings"]["static"]
    assert [r["games"] for r in rows.values()] == [3, 3]
    assert {r["faults"] for r in rows.values()} == {0}
    table = {row["entrant"]: row for row in summary["table"]}
    assert set(table) == {"Recorder", "Second"}


def test_two_files_of_one_game_each_get_their_standings(short_pocha):
    # (both extend pocha.yaml without a `game:` of their own: named by their files, neither hides the other)
    (short_pocha / "dyn_too.yaml").write_text((short_pocha / "dyn.yaml").read_text())
    files = [str(short_pocha / "dyn.yaml"), str(short_pocha / "dyn_too.yaml")]
    summary = run_competition(files, short_pocha / "bots", games=1, seed=4)
    assert list(summary["standings"]) == ["dyn", "dyn_too"]
    assert all(row["games"] == 2 for row in summary["table"])
    twice = run_competition(files[:1] * 2, short_pocha / "bots", games=1, seed=4, fixed=(files[0],))
    assert len(twice["standings"]) == 2


def last_records(capsys):
    """Per bot, the last record it noted (all it remembered at the end of its last game), and its processes."""
    records = bot_notes(capsys.readouterr().err, "hands")
    return ({r["bot"]: r for r in records}, {bot: {r["process"] for r in records if r["bot"] == bot}
                                             for bot in {r["bot"] for r in records}})


def test_learning_bots_keep_memory_and_see_repeated_deals(short_pocha, capsys):
    static = str(short_pocha / "static.yaml")
    run_competition([static], short_pocha / "bots", games=3, seed=4, fixed=(static,))
    last, pids = last_records(capsys)
    assert set(last) == {"Recorder", "Second"}
    for bot, record in last.items():
        assert len(record["first_hands"]) == 3                     # one object, three games
        assert len({tuple(h) for h in record["first_hands"]}) == 1  # the same deal every game
        assert len(pids[bot]) == 1                                  # one process for the whole competition


def test_dynamic_environment_changes_the_deal(short_pocha, capsys):
    run_competition([str(short_pocha / "dyn.yaml")], short_pocha / "bots", games=4, seed=4)
    last, _ = last_records(capsys)
    assert len(last) == 2
    assert all(len(r["first_hands"]) == 4 for r in last.values())
    assert any(len({tuple(h) for h in r["first_hands"]}) > 1 for r in last.values())


@pytest.mark.slow
def test_cli_prints_a_league_table(short_pocha):
    result = CliRunner().invoke(main, ["competition", str(short_pocha / "bots"), "-n", "2", "--seed", "1",
                                       "--ruleset", str(short_pocha / "dyn.yaml"),
                                       "--static", str(short_pocha / "static.yaml")])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line[:1].isdigit()]
    assert len(lines) == 2 and {"Recorder", "Second"} == {line.split()[1] for line in lines}


UNLOADABLE = {
    "syntax.py": "from naipes.bots import Bot\nclass Broken(Bot:\n",
    "exits.py": "import os\nos._exit(4)\n",
    "raises.py": "raise RuntimeError('not today')\n",
    "refuses.py": "from naipes.bots import Bot\nclass Refuses(Bot):\n    def __init__(self):\n"
                  "        raise ValueError('no')\n    def decide(self, view, options):\n        return 0\n",
}


def test_entrants_that_cannot_load_are_faults_and_the_competition_goes_on(short_pocha):
    for name, text in UNLOADABLE.items():
        (short_pocha / "bots" / name).write_text(text)
    result = CliRunner().invoke(main, ["competition", str(short_pocha / "bots"), "-n", "2", "--seed", "1",
                                       "--ruleset", str(short_pocha / "dyn.yaml")])
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.output.splitlines() if line[:1].isdigit()]
    assert [row[1] for row in rows[:2]] in (["Recorder", "Second"], ["Second", "Recorder"])  # they played
    assert all(row[2] == "2" for row in rows[:2])
    unplayed = {row[1]: row for row in rows[2:]}
    assert set(unplayed) == {"syntax.py", "exits.py", "raises.py", "Refuses"}
    assert all(row[2] == "0" and row[5] == "1" and row[-1] == "-" for row in unplayed.values())
    for reason in ("SyntaxError", "exited with status 4", "RuntimeError: not today", "raised ValueError: no"):
        assert reason in result.output, reason


def test_a_folder_of_which_nothing_loads_is_an_error(tmp_path):
    (tmp_path / "raises.py").write_text("raise RuntimeError('not today')\n")
    with pytest.raises(NaipesError, match="could be loaded: .*RuntimeError: not today"):
        run_competition([shipped("fichas")], tmp_path, games=1, seed=1)
