"""Python bots: loading, what they see, the fault policy (hostile bots: tests/test_bot_sandbox.py)."""
import os

import pytest

from naipes import RandomAgent, play_game
from naipes.agents.bot_process import BotLimits
from naipes.agents.bot_seat import make_bot_seat
from naipes.errors import ParamError

from helpers import NOTE, ROOT, bot_notes, shipped, shipped_program

BOTS = NOTE + '''
import os, time
from naipes.bots import Bot

PROCESS = os.urandom(8).hex()  # this process's own mark (its pid, in a sandbox of its own, is always the same)

class First(Bot):
    """Notes what it has seen so far at the end of every game."""
    def __init__(self):
        self.games, self.events, self.views = 0, [], []
    def start_game(self, info):
        self.games += 1
    def observe(self, event):
        self.events.append(event)
    def decide(self, view, options):
        self.views.append(view)
        return options[0]
    def end_game(self, result):
        note("first", {"process": PROCESS, "games": self.games, "events": self.events, "views": self.views})

class Vandal(Bot):
    """Tries to damage the game through what it is given."""
    def decide(self, view, options):
        view["zones"].clear()
        view["players"].append("intruder")
        options.clear()
        return 0

class Raises(Bot):
    def decide(self, view, options):
        raise RuntimeError("boom")

class Illegal(Bot):
    def decide(self, view, options):
        return "take everything"

class Malformed(Bot):
    def decide(self, view, options):
        return {"move": 1}

class OutOfRange(Bot):
    def decide(self, view, options):
        return 99

class Slow(Bot):
    def decide(self, view, options):
        time.sleep(3)
        return 0
'''


@pytest.fixture()
def bot_file(tmp_path):
    path = tmp_path / "bots.py"
    path.write_text(BOTS)
    return path


@pytest.fixture()
def seated(bot_file):
    """seated(CLASS, **limits): a seat for a bot of BOTS (closed after the test)."""
    seats = []

    def seat(name, **limits):
        seats.append(make_bot_seat(f"python:{bot_file}:{name}", BotLimits(**limits)))
        return seats[-1]
    yield seat
    for made in seats:
        made.close()


def chips():
    return shipped_program("fichas", chips="R1 R2 R3 B1 B2 G3")


def written(seat, capsys):
    """What the First bot noted, one record per game (its seat closed first: all it said has arrived)."""
    seat.close()
    return bot_notes(capsys.readouterr().err, "first")


def test_a_bot_plays_and_observes_every_move(seated, capsys):
    seat = seated("First")
    result = play_game(chips(), [seat, RandomAgent(1)], seed=3)
    [record] = written(seat, capsys)
    assert record["games"] == 1
    moves = [e for e in record["events"] if e["type"] == "move"]
    assert len(moves) == result.decisions          # it saw every move, its own and the other's
    assert {e["player"] for e in moves} == {"P1", "P2"}
    assert seat.faults == []


def test_the_bot_runs_in_a_process_of_its_own(seated):
    seat = seated("First")
    play_game(chips(), [seat, RandomAgent(1)], seed=3)
    assert seat._worker is not None and seat._worker.process.pid != os.getpid()


def test_a_bot_cannot_change_the_game_through_its_copies(seated):
    program = chips()
    vandal = seated("Vandal")
    polite = seated("First")
    result = play_game(program, [vandal, RandomAgent(2)], seed=5)
    again = play_game(program, [polite, RandomAgent(2)], seed=5)
    # the vandal's answers were legal (index 0), so the two games are the same game
    assert vandal.faults == []
    assert result.winners == again.winners and result.decisions == again.decisions


@pytest.mark.parametrize("name, fault", [
    ("Raises", "raised RuntimeError: boom"),
    ("Illegal", "'take everything', which is not a legal option"),
    ("Malformed", "neither an option's index nor its label"),
    ("OutOfRange", "index 99"),
])
def test_faults_are_recorded_and_a_legal_move_is_played(seated, name, fault):
    seat = seated(name)
    records = []
    result = play_game(chips(), [seat, RandomAgent(1)], seed=3, listeners=[records.append])
    assert result.winners                          # the game went on to its end
    assert seat.faults and all(fault in f for f in seat.faults)
    assert all(f.startswith("seed 3, decision ") and "; played '" in f for f in seat.faults)
    logged = [r for r in records if r["type"] == "fault"]
    assert len(logged) == len(seat.faults) and logged[0]["player"] == "P1"
    assert all(r["choice"] == r["options"][0] for r in records if r["type"] == "decision" and r["player"] == "P1")


def test_a_slow_bot_is_timed_out_and_plays_first_options_for_the_rest_of_the_game(seated):
    seat = seated("Slow", decision=0.2)
    records = []
    result = play_game(chips(), [seat, RandomAgent(1)], seed=3, listeners=[records.append])
    assert result.winners
    [fault] = seat.faults
    assert "decide took longer than 0.2 s" in fault and "its process was ended" in fault
    mine = [r for r in records if r["type"] == "decision" and r["player"] == "P1"]
    assert len(mine) > 1 and all(r["choice"] == r["options"][0] for r in mine)


def test_a_bot_that_always_fails_does_not_stop_a_long_run(seated):
    seat = seated("Raises")
    program = shipped_program("fichas")
    for game in range(300):
        assert play_game(program, [seat, RandomAgent(game)], seed=game).winners
    assert len(seat.faults) >= 300


def test_memory_across_games(seated, capsys):
    seat = seated("First")
    for game in range(5):
        play_game(chips(), [RandomAgent(game), seat], seed=game)
    records = written(seat, capsys)
    assert [r["games"] for r in records] == [1, 2, 3, 4, 5]
    assert len({r["process"] for r in records}) == 1  # one process, one object, for the whole run


@pytest.mark.parametrize("spec, message", [
    ("python:nowhere.py:Bot", "not found"),
    ("python:{file}", "python:path/to/file.py:ClassName"),
    ("python:{file}:Not-a-name", "python:path/to/file.py:ClassName"),
    ("python:{file}:Missing", "is not a bot class"),
    ("python:{broken}:Bot", "failed to load: SyntaxError"),
])
def test_bad_bot_specs_are_clear_errors(bot_file, spec, message):
    broken = bot_file.with_name("broken.py")
    broken.write_text("class Bot(:\n")
    with pytest.raises(ParamError, match=message):
        make_bot_seat(spec.format(file=bot_file, broken=broken))


def test_the_cli_seats_a_bot(bot_file):
    from click.testing import CliRunner

    from naipes.tools.cli import main
    result = CliRunner().invoke(main, ["simulate", "fichas", "-n", "5", "--seed", "1",
                                       "--seat", f"python:{bot_file}:Raises", "--seat", "random"])
    assert result.exit_code == 0, result.output
    assert "Raises" in result.output
    row = next(line for line in result.output.splitlines() if line.startswith("P1"))
    assert int(row.split()[-1]) >= 5  # its faults are counted


@pytest.mark.slow
def test_a_bot_that_always_crashes_does_not_stop_a_1000_game_tournament(bot_file):
    from naipes.tools.tournament import run_tournament
    summary = run_tournament(shipped("fichas"), [f"python:{bot_file}:Raises", "random"], deals=500, seed=1,
                             jobs=1)
    assert summary["games"] == 1000
    crasher = summary["agents"][0]
    assert crasher["faults"] >= 1000  # at least one fault per game, each recorded
    assert 0.0 <= crasher["win_rate"] <= 1.0


@pytest.mark.slow
def test_example_bots_play_without_faults():
    for spec, ruleset, seats in [
        ("first_option_bot.py:FirstOption", "fichas", 2),
        ("pocha_bots/greedy.py:Greedy", "pocha", 4),
        ("tute_bots/sensible.py:Sensible", "tute_cabrero", 3),
        ("chinchon_bots/tidy.py:Tidy", "chinchon", 2),
    ]:
        seat = make_bot_seat(f"python:{ROOT / 'examples'}/{spec}")  # (the tests run in an empty folder)
        program = shipped_program(ruleset)
        for game in range(2):
            play_game(program, [seat] + [RandomAgent(game * 10 + i) for i in range(seats - 1)], seed=game)
        seat.close()
        assert seat.faults == [], (spec, seat.faults)
