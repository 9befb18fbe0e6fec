"""The ``naipes`` command: help, check, solve, simulate, play, logs, errors.

Expectations about the chip game come from its rules (take every chip of one
colour or of one value; whoever takes the last chip wins), checked here by a
small independent solver, not from the command's own output.
"""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from naipes import RandomAgent, load_program
from naipes.tools.cli import main

from helpers import RULESETS, write_rules

ROOT = Path(__file__).resolve().parent.parent
FICHAS = str(RULESETS / "fichas.yaml")


def naipes(*args: str, input: str | None = None):
    """Run the command in-process; `output` holds stdout and stderr."""
    return CliRunner().invoke(main, list(args), input=input)


def clean(result) -> None:
    """No Python traceback reached the user, and no exception escaped the command."""
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


def write(tmp_path, text: str, name: str = "g.yaml") -> str:
    return str(write_rules(tmp_path, text, name))


# ============================================ an independent chip-game solver
def solve_chips(chips: str) -> tuple[str, list[str]]:
    """Outcome for the player to move and the winning moves, by the game's rules.

    A position is the set of chips left; a move takes every chip of one
    colour or of one value; the player who takes the last chip wins, so the
    player facing an empty table has lost.  Moves are listed as the rule file
    offers them: colours in sorted order, then values in sorted order.
    """
    pieces = [(t[0], int(t[1:])) for t in chips.split()]

    @cache
    def mover_wins(left: frozenset) -> bool:
        if not left:
            return False
        return any(not mover_wins(rest) for rest in successors(left).values())

    def successors(left: frozenset) -> dict[str, frozenset]:
        out = {}
        for colour in sorted({pieces[i][0] for i in left}):
            out[f"colour {colour}"] = frozenset(i for i in left if pieces[i][0] != colour)
        for value in sorted({pieces[i][1] for i in left}):
            out[f"value {value}"] = frozenset(i for i in left if pieces[i][1] != value)
        return out

    start = frozenset(range(len(pieces)))
    winning = [label for label, rest in successors(start).items() if not mover_wins(rest)]
    return ("win" if winning else "loss"), winning


def test_the_reference_solver_on_hand_checked_positions():
    # R1 R2 B1 G3 worked by hand: taking B leaves R1 R2 G3, where "value 1"
    # leaves R2 G3 (nothing in common: the mover there loses), so B loses;
    # taking G leaves R1 R2 B1, a loss for the mover (every move leaves one
    # chip or two chips sharing a colour or value); R leaves B1 G3 (a loss);
    # 1 leaves R2 G3 (a loss); 2 leaves R1 B1 G3 (the mover takes R and
    # wins); 3 leaves R1 R2 B1 (a loss).
    assert solve_chips("R1 R2 B1 G3") == ("win", ["colour G", "colour R", "value 1", "value 3"])
    assert solve_chips("R1 B2") == ("loss", [])
    assert solve_chips("R1 R2 R3") == ("win", ["colour R"])
    assert solve_chips("G7") == ("win", ["colour G", "value 7"])


# ===================================================================== help
def test_top_level_help_lists_every_command():
    result = naipes("--help")
    assert result.exit_code == 0
    for command in ("play", "simulate", "check", "solve"):
        assert command in result.output


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_command_has_help(command):
    result = naipes(command, "--help")
    clean(result)
    assert result.exit_code == 0
    assert f"Usage: main {command}" in result.output or f"{command} [OPTIONS]" in result.output
    assert result.output.count("\n") > 3


@pytest.mark.parametrize("command, options", [
    ("play", ["--seat", "-p", "--seed", "--log", "--log-seat", "--trace"]),
    ("simulate", ["-n", "--seat", "-p", "--seed"]),
    ("solve", ["-p", "--seed", "--json"]),
    ("check", ["RULESETS"]),
])
def test_help_documents_the_options(command, options):
    output = naipes(command, "--help").output
    for option in options:
        assert option in output


# ==================================================================== check
def test_check_a_good_file_exits_0():
    result = naipes("check", "fichas")
    clean(result)
    assert result.exit_code == 0
    assert "ok" in result.output


def test_check_prints_every_error_of_a_file_and_exits_1(tmp_path):
    path = write(tmp_path, """
        game: t
        state:
          x: 0
        rulez: []
        rules:
          - name: r
            when: "x == nothing"
            then: "x = 'text'"
          - name: s
            when: "True"
            then: "ask players[0] to fly"
        """)
    result = naipes("check", path)
    clean(result)
    assert result.exit_code == 1
    expected = {  # (line, col) of each mistake in the file above
        (4, 1): "unknown section 'rulez'",
        (7, 17): "unknown name 'nothing'",
        (8, 12): "'x' holds int",
        (11, 30): "unknown move 'fly'",
    }
    for (line, col), words in expected.items():
        assert f"{path}:{line}:{col}: " in result.output
        assert words in result.output
    assert "4 error(s)" in result.output
    assert "did you mean 'rules'?" in result.output


def test_check_several_files_reports_each_and_fails_if_any_fails(tmp_path):
    bad = write(tmp_path, "game: t\nstate:\n  x: 'y +'\n")
    result = naipes("check", "fichas", bad)
    clean(result)
    assert result.exit_code == 1
    assert "fichas: ok" in result.output
    assert f"{bad}:3:" in result.output


def test_check_runs_the_start_of_the_game_too(tmp_path):
    # loads fine, but no rule can ever fire: check must report it
    path = write(tmp_path, """
        game: t
        phases: [deal, play]
        rules:
          - name: r
            phase: play
            when: "True"
            then: "end game"
        """)
    result = naipes("check", path)
    clean(result)
    assert result.exit_code == 1
    assert "stuck" in result.output


def test_check_plays_random_games_to_their_end(tmp_path):
    # starts fine, fails once a few chips are taken: found in play, located, with the seed that replays it
    path = write(tmp_path, """
        game: late
        extends: fichas
        rules:
          - name: breaks_late
            when: "len(removed) > 2 and table[99].value > 0"
            then: "pass"
        """)
    result = naipes("check", path)
    clean(result)
    assert result.exit_code == 1
    assert f"{path}:5:12: in condition of rule 'breaks_late'" in result.output
    assert "random players from seed 1" in result.output
    assert naipes("check", path, "--games", "0").exit_code == 0  # (load and start only)


# Three players, seats 1 and 3 partners (parity): the second seat plays alone, so a trick he takes has no
# partner to name; nothing else reads the partner, so only what the table is told (or shows) fails.
ALONE = """
game: alone
players: 3
teams: parity
cards:
  attributes: {rank: [1, 2, 3, 4, 5, 6]}
  start: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true}
state:
  turn: "players[0]"
  played: 0
  best: {init: "None", show: false}
player_state:
  tricks: 0
views:
  partner_name: {value: "partner(player).name", per_player: true}
phases:
  deal:
    enter:
      - deal: |
          shuffle stock
          deal 2 from stock to [p.hand for p in players]
          goto play
  play:
moves:
  play:
    choose: "c in player.hand"
    then: |
      if best is None or c.rank > best[1].rank:
          best = (player, c)
      move c from player.hand to stock
      played += 1
      turn = next_player(player)
rules:
  - name: ask
    phase: play
    when: "played < len(players)"
    then: "ask turn to play"
  - name: take
    phase: play
    when: "played == len(players)"
    then: |
      best[0].tricks += 1
      TOLD
      turn = best[0]
      best = None
      played = 0
      if len(turn.hand) == 0:
          end game
"""


@pytest.mark.parametrize("told", ["announce best[0].name, 'and', partner(best[0]).name, 'take it'", "pass"])
def test_check_plays_as_the_table_does_and_its_seed_replays_the_game(tmp_path, told):
    # the table hears the announcement and shows the seat asked its view: check fails where the table would,
    # and the command it gives fails the same way
    path = write(tmp_path, ALONE.replace("TOLD", told))
    result = naipes("check", path, "--games", "30")
    assert result.exit_code == 1
    error = result.output.split("\n    (in a game")[0]
    assert "None has no attribute 'name'" in error and f"{path}:" in error
    replay = re.search(r"naipes play (.*) replays it", result.output).group(1).split()
    assert replay[:6] == [path, "--seed", replay[2], "--seat", "random", "--opponents"]
    replayed = naipes("play", *replay)
    assert replayed.exit_code == 1 and error in replayed.output


@pytest.mark.parametrize("move, warned", [
    # how many chips to take, offered from the table's count
    ("""take_first:
            choose: "n in range(1, len(table) + 1)"
            then: |
              move table[:n] to removed""", "take_first"),
    # a colour (its space given), then how many chips of it: the count offered reads the table, the part gives no space
    ("""take_colour:
            parts:
              - "n in range(1, len([c for c in table if c.colour == colour]) + 1)"
            then: |
              move [c for c in table if c.colour == colour][:n] to removed""", "take_colour.n"),
])
def test_check_warns_of_a_move_the_bridges_cannot_number(tmp_path, move, warned):
    path = write(tmp_path, f"""
        game: counted
        extends: fichas
        moves:
          {move}
              last_taker = player
              turn = next_player(player)
        """)
    result = naipes("check", path)
    clean(result)
    assert result.exit_code == 0
    assert [line for line in result.output.splitlines() if "warning" in line] == [
        f"  warning: move '{warned}' has no 'space:' and its 'choose' reads the game: the OpenSpiel and PettingZoo "
        f"bridges cannot number its arguments (declare every argument it can ever offer, e.g. space: \"all_cards()\")"]
    assert naipes("check", "fichas").output.count("warning") == 0


@pytest.mark.slow
def test_check_search_warns_of_an_evaluation_turned_the_wrong_way(tmp_path):
    # Hearts scores penalty points: an evaluation that rewards taking them makes search lose to random play. One
    # hand a game (target 1) shows it in a third of the time of longer matches: -10 points a game, the 95 %
    # interval below -3 (the right evaluation's reaches +2)
    reversed_ = write(tmp_path, "game: h\nextends: hearts\nevaluation: player.score\nparams: {target: 1}\n")
    result = naipes("check", reversed_, "--search", "8")
    clean(result)
    assert result.exit_code == 0
    assert "warning: search guided by 'evaluation'" in result.output
    right = write(tmp_path, "game: h\nextends: hearts\nparams: {target: 1}\n", "right.yaml")
    assert "warning" not in naipes("check", right, "--search", "8").output


def test_a_folder_named_like_a_game_does_not_hide_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fichas").mkdir()
    (tmp_path / "notes").mkdir()
    assert naipes("check", "fichas", "--games", "0").exit_code == 0  # the shipped game, not the folder
    result = naipes("check", "notes")
    assert result.exit_code == 1 and "'notes' is a folder, not a rule file" in result.output
    os.mkfifo(tmp_path / "pipe.yaml")  # (never opened: a pipe no one writes to would wait for ever)
    result = naipes("check", "pipe.yaml")
    assert result.exit_code == 1 and "'pipe.yaml' is a device, a pipe or a socket, not a rule file" in result.output


def test_check_a_yaml_error(tmp_path):
    path = write(tmp_path, "game: t\ntitle: a: b\n")
    result = naipes("check", path)
    clean(result)
    assert result.exit_code == 1
    assert f"{path}:2:9: YAML syntax" in result.output


def test_check_a_missing_file_exits_1():
    result = naipes("check", "no-such-rule-file")
    clean(result)
    assert "no rule file" in result.output
    assert result.exit_code == 1


def test_check_plays_every_number_of_players_the_file_seats(tmp_path):
    # a fault only a table of three meets: check played the default two only, and said ok
    rules = tmp_path / "three.yaml"
    rules.write_text("game: three\nplayers: {min: 2, max: 3, default: 2}\nstate:\n  x: 0\nsetup: |\n"
                     "  x = 6 // (3 - len(players))\nrules:\n  - name: done\n    then: \"end game\"\n")
    result = naipes("check", str(rules))
    assert result.exit_code == 1
    assert "ZeroDivisionError" in result.output
    assert "in a game of 3 players, random players from seed 2" in result.output
    assert f"naipes play {rules} --seed 2 --players 3 --seat random --opponents random replays it" in result.output
    assert naipes("check", str(rules), "--games", "1").exit_code == 0  # (one game: the default table only)


# ================================================ what a file names, check never runs
PWN = '''
import sys
print("NOTE ran the bot's file", file=sys.stderr, flush=True)

class Pwn:
    def decide(self, view, options):
        return 0
'''


def pwn_strategy(tmp_path, default: str) -> str:
    """A strategy of the chip game whose default names `default` ({bot}: a bot file beside it, which prints when
    it is run)."""
    (tmp_path / "pwn.py").write_text(PWN)
    strategies = tmp_path / "strategies"
    strategies.mkdir(exist_ok=True)
    path = strategies / "pwn.yaml"
    path.write_text(f"game: fichas\ndefault: {default.format(bot=tmp_path / 'pwn.py')}\n")
    return str(path)


def run(*args: str):
    """The command in a process of its own (a bot's worker prints on the standard error the command has)."""
    return subprocess.run([sys.executable, "-m", "naipes.tools.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=120)


def test_check_reads_a_python_bot_a_strategy_names_and_never_runs_it(tmp_path):
    result = run("check", pwn_strategy(tmp_path, "ismcts:iterations=5,policy=python:{bot}:Pwn"))
    assert result.returncode == 0, result.stderr
    assert "ok (a strategy for fichas" in result.stdout
    assert f"note: it names the Python bot python:{tmp_path / 'pwn.py'}:Pwn (checked as text, not run)" \
        in result.stdout
    assert "ran the bot's file" not in result.stderr


@pytest.mark.parametrize("bot, message", [
    ("class Other:\n    pass\n", "defines no 'Pwn' at its top level"),
    ("def f(:\n", "line 1: "),
    ("x = (" * 300 + ")" * 300 + "\n", "pwn.py"),
    ("\0", "null bytes"),
])
def test_check_reports_a_bad_python_bot_reference_at_the_default(tmp_path, bot, message):
    path = pwn_strategy(tmp_path, "ismcts:iterations=5,policy=python:{bot}:Pwn")
    (tmp_path / "pwn.py").write_text(bot)
    result = run("check", path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{path}:2:10: default 'ismcts:iterations=5,policy=python:" in result.stderr and message in result.stderr
    missing = pwn_strategy(tmp_path, "ismcts:iterations=5,policy=python:{bot}x:Pwn")
    assert "not found" in run("check", missing).stderr


def test_a_game_refuses_a_python_bot_a_strategy_names(tmp_path):
    path = pwn_strategy(tmp_path, "ismcts:iterations=5,policy=python:{bot}:Pwn")
    result = run("play", "fichas", "--seat", path, "--seat", "random", "--seed", "1")
    assert result.returncode == 1
    assert f"this strategy names the Python bot 'python:{tmp_path / 'pwn.py'}:Pwn', but only the command line " \
        "starts one" in result.stderr
    assert "ran the bot's file" not in result.stderr
    seated = run("play", "fichas", "--seat", f"python:{tmp_path / 'pwn.py'}:Pwn", "--seat", "random", "--seed", "1")
    assert seated.returncode == 0 and "ran the bot's file" in seated.stderr  # the command line's, it runs


def test_a_rule_files_ai_that_names_a_python_bot_is_not_obeyed(tmp_path):
    (tmp_path / "pwn.py").write_text(PWN)
    rules = tmp_path / "mine.yaml"
    rules.write_text(f"extends: {FICHAS}\nplayers: {{min: 2, max: 2, default: 2, "
                     f"ai: 'ismcts:iterations=5,policy=python:{tmp_path / 'pwn.py'}:Pwn'}}\n")
    checked = run("check", rules)
    assert checked.returncode == 0 and "note: players.ai names the Python bot" in checked.stdout
    played = run("play", rules, "--seat", "random", "--seed", "1")
    assert played.returncode == 0 and "P2 random" in played.stdout
    assert "ran the bot's file" not in checked.stderr + played.stderr


@pytest.mark.parametrize("ai", ["ismcts:iterations=2,policy=python:{bot}:Pwn",  # (`ai: python:...` does not load)
                                "ismcts:iterations=2,infer=python:{bot}:Pwn", "pimc:worlds=1,infer=python:{bot}:Pwn"])
@pytest.mark.parametrize("after", [[], ["--after", "1"]])
def test_solve_never_starts_a_python_bot_the_rule_file_names(tmp_path, ai, after):
    # solve made the rule file's AI as it was written, whatever option named the bot (found by a red team)
    (tmp_path / "pwn.py").write_text(PWN)
    rules = tmp_path / "mine.yaml"
    rules.write_text(f"extends: {RULESETS / 'kuhn_poker.yaml'}\n"
                     f"players: {{min: 2, max: 2, default: 2, ai: '{ai.format(bot=tmp_path / 'pwn.py')}'}}\n")
    result = run("solve", rules, "--open", *after)
    assert result.returncode == 0, result.stderr
    assert "ran the bot's file" not in result.stderr


def logged_then_quit(tmp_path, seat: str):
    """A log of a chip game left unfinished (the person at seat 1 quit), its second seat then edited to `seat`."""
    log = tmp_path / "game.jsonl"
    result = naipes("play", "fichas", "--seat", "human", "--seat", "random", "--seed", "1", "--log", log,
                    input="quit\n")
    assert log.exists(), result.output
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["seats"][1] = seat
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    return log


@pytest.mark.parametrize("seat", ["pimc:worlds=1,infer=python:{bot}:Pwn", "ismcts:iterations=2,infer=python:{bot}:Pwn",
                                  "ismcts:iterations=2,policy=python:{bot}:Pwn"])
def test_a_resumed_log_never_starts_a_python_bot_any_option_names(tmp_path, seat, monkeypatch):
    (tmp_path / "pwn.py").write_text(PWN)
    log = logged_then_quit(tmp_path, seat.format(bot=tmp_path / "pwn.py"))
    refused = run("play", "--resume", log, "--no-log")
    assert "a log does not choose what runs" in refused.stderr and "ran the bot's file" not in refused.stderr
    # and were the log's seat let through, it would still not start: only the person's own words start a bot
    from naipes.agents import registry
    from naipes.tools import cli
    monkeypatch.setattr(cli, "shipped_agent", lambda spec: True)
    monkeypatch.setattr(registry, "make_bot_seat", lambda *a: pytest.fail("a bot the log names was started"))
    result = naipes("play", "--resume", log, "--no-log", input="quit\n")
    assert "names the Python bot" in result.output and "only the command line starts one" in result.output


def test_a_python_bot_starts_only_from_the_persons_own_words(tmp_path, monkeypatch):
    from naipes.agents import registry
    from naipes.errors import ParamError
    started: list[str] = []
    monkeypatch.setattr(registry, "make_bot_seat", lambda spec, limits: started.append(spec) or RandomAgent(1))
    fichas = load_program(FICHAS)
    for spec in ("python:bot.py:B", "ismcts:policy=python:bot.py:B", "pimc:infer=python:bot.py:B"):
        with pytest.raises(ParamError, match="only the command line starts one"):
            registry.make_agent(spec, program=fichas)
        registry.make_agent(spec, program=fichas, typed=True)  # (the bot is made with the agent that names it)
    assert started == ["python:bot.py:B"] * 3


# ==================================================================== solve
def test_solve_the_documented_position():
    result = naipes("solve", "fichas", "-p", "chips=R1 R2 B1 G3", "--json")
    clean(result)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"outcome": "win",
                                         "winning_moves": ["colour G", "colour R", "value 1", "value 3"]}


@pytest.mark.parametrize("chips", ["R1 B2", "R1 R2 R3", "R1 R2 B1", "R1 B1 G2 G3 Y4", "R1 R1 B2 B2"])
def test_solve_small_positions(chips):
    result = naipes("solve", "fichas", "-p", f"chips={chips}", "--json")
    clean(result)
    outcome, winning = solve_chips(chips)
    assert json.loads(result.stdout) == {"outcome": outcome, "winning_moves": winning}


def test_solve_agrees_with_the_reference_solver_on_random_positions():
    rng = random.Random(2024)
    outcomes = set()
    for _ in range(10):
        chips = " ".join(f"{rng.choice('RBGY')}{rng.randint(1, 4)}" for _ in range(rng.randint(2, 8)))
        result = naipes("solve", "fichas", "-p", f"chips={chips}", "--json")
        clean(result)
        expected_outcome, expected_moves = solve_chips(chips)
        assert json.loads(result.stdout) == {"outcome": expected_outcome, "winning_moves": expected_moves}, chips
        outcomes.add(expected_outcome)
    assert outcomes == {"win", "loss"}  # the sample covers both kinds of position


def test_solve_text_output_names_the_mover_and_the_moves():
    result = naipes("solve", "fichas", "-p", "chips=R1 R2 R3", "--seed", "1")
    clean(result)
    assert result.exit_code == 0
    assert "P1 to move: WIN; winning moves: colour R" in result.output
    result = naipes("solve", "fichas", "-p", "chips=R1 B2", "-p", "first=2", "--seed", "1")
    assert "P2 to move: LOSS" in result.output


def test_solve_refuses_a_hidden_information_game(tmp_path):
    path = write(tmp_path, """
        game: hidden
        zones:
          secret: {visibility: hidden}
        moves:
          go: {then: "end game winner player"}
        rules:
          - name: r
            when: "True"
            then: "ask players[0] to go"
        """)
    result = naipes("solve", path, "--json")
    clean(result)
    assert result.exit_code == 1
    assert "hides information" in result.output


# ================================================================= simulate
def simulate_rows(output: str) -> dict[str, tuple[int, float]]:
    rows = {}
    for line in output.splitlines():
        match = re.match(r"^(P\d+)\s+(\S+)\s+(\d+)\s+([\d.]+)%\s+\[\s*[\d.]+,\s*[\d.]+\]\s+(-?[\d.]+)(?:\s+\d+)?\s*$",
                         line)
        if match:
            rows[match.group(1)] = (int(match.group(3)), float(match.group(5)))
    return rows


def test_simulate_wins_add_up_to_the_number_of_games():
    result = naipes("simulate", "fichas", "-n", "20", "--seed", "1")
    clean(result)
    assert result.exit_code == 0
    rows = simulate_rows(result.output)
    assert set(rows) == {"P1", "P2"}
    # every chip game has exactly one winner, and a win pays 1
    assert sum(wins for wins, _ in rows.values()) == 20
    for wins, mean in rows.values():
        assert mean == pytest.approx(wins / 20, abs=0.001)
    assert "seeds 1..20" in result.output


def test_simulate_is_reproducible_from_its_seed():
    first = naipes("simulate", "fichas", "-n", "10", "--seed", "5")
    second = naipes("simulate", "fichas", "-n", "10", "--seed", "5")
    assert simulate_rows(first.output) == simulate_rows(second.output)


def test_simulate_perfect_play_wins_a_won_position_every_time():
    # R1 R2 B1 G3 is a win for the player to move (P1): minimax never loses it.
    result = naipes("simulate", "fichas", "-n", "5", "--seed", "1", "--seat", "minimax", "--seat", "random",
                    "-p", "chips=R1 R2 B1 G3")
    clean(result)
    rows = simulate_rows(result.output)
    assert rows["P1"][0] == 5 and rows["P2"][0] == 0


def test_simulate_refuses_human_seats():
    result = naipes("simulate", "fichas", "-n", "2", "--seat", "human", "--seat", "random")
    clean(result)
    assert result.exit_code != 0
    assert "play" in result.output


# ===================================================================== play
def test_play_with_a_human_answers_help_rejects_bad_input_and_finishes():
    answers = "help\n99\nbogus\n" + "1\n" * 40
    result = naipes("play", "fichas", "--seat", "human", "--seat", "random", "--seed", "3", input=answers)
    clean(result)
    assert result.exit_code == 0
    out = result.output
    assert "Answer with the number of an option or its name" in out       # help
    assert "There is no option 99" in out                                 # out of range
    assert "'bogus' is not a legal move" in out                           # not an option
    assert "Game over. Winner:" in out
    assert re.search(r"P1: [01]\b", out) and re.search(r"P2: [01]\b", out)
    # the bad answers did not count as moves: P1's first move is option 1, told in the move's own words, once
    assert out.count("P1 takes every chip of colour B") == 1 and " plays " not in out


def test_play_by_option_name_and_ambiguous_prefix():
    # R1 R2 B1 G3: the options are colour B, G, R and value 1, 2, 3.
    answers = "value\nvalue 9\ncolour r\n" + "1\n" * 10
    result = naipes("play", "fichas", "--seat", "human", "--seat", "random", "--seed", "1",
                    "-p", "chips=R1 R2 B1 G3", input=answers)
    clean(result)
    out = result.output
    assert "'value' could be value 1, value 2, value 3" in out
    assert "'value 9' is not a legal move" in out
    assert "P1 takes every chip of colour R" in out   # case-insensitive name
    assert "Game over." in out


def test_play_quit_ends_early():
    result = naipes("play", "fichas", "--seat", "human", "--seat", "random", "--seed", "3", input="quit\n")
    clean(result)
    assert result.exit_code == 0
    assert "You quit" in result.output
    assert "Game over" not in result.output


def test_play_end_of_input_ends_like_quit():
    result = naipes("play", "fichas", "--seat", "human", "--seat", "random", "--seed", "3", input="")
    clean(result)
    assert "You quit" in result.output


ENDLESS = """
    game: endless
    players: 2
    max_decisions: 5
    state:
      n: 0
    player_state:
      score: 0
    moves:
      tick:
        then: |
          n = n + 1
          player.score = player.score + 10 * n
    rules:
      - name: ask_again
        when: n >= 0
        then: ask players[n % 2] to tick
    """


@pytest.mark.parametrize("result_section, payoffs", [
    ("", None),                                        # no result: nobody won, so the payoffs say nothing
    ("result: player.score\n", ["P1: 90", "P2: 60"]),  # the result as things stood
])
def test_a_game_cut_off_shows_the_standings_as_they_were(tmp_path, result_section, payoffs):
    # five ticks: P1 scores 10 + 30 + 50, P2 20 + 40
    path = write(tmp_path, ENDLESS + result_section)
    result = naipes("play", path, "--seat", "random", "--seat", "random", "--seed", "1")
    clean(result)
    out = result.output
    assert "cut off after 5 decisions" in out and "nobody wins" in out
    table = out[out.index("The table as it stood"):]
    assert re.search(r"P1\s+90\b", table) and re.search(r"P2\s+60\b", table), table
    if payoffs is None:
        assert "P1: 0" not in out and "P2: 0" not in out
    else:
        assert all(line in out for line in payoffs), out


def test_play_without_seed_prints_one_that_reproduces_the_game():
    first = naipes("play", "fichas", "--seat", "random", "--seat", "random")
    clean(first)
    seed = re.search(r"seed (\d+)", first.output).group(1)
    again = naipes("play", "fichas", "--seat", "random", "--seat", "random", "--seed", seed)
    assert again.output == first.output


def read_log(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_play_log_is_json_lines_of_the_whole_game(tmp_path):
    log = tmp_path / "game.jsonl"
    result = naipes("play", "fichas", "--seat", "random", "--seat", "random", "--seed", "7",
                    "-p", "chips=R1 R2 B1 G3 Y2", "--log", str(log))
    clean(result)
    assert result.exit_code == 0
    records = read_log(log)
    kinds = [r["type"] for r in records]
    assert kinds[:2] == ["log", "start"] and kinds[-1] == "end"
    start, end = records[1], records[-1]
    assert start["seed"] == 7
    assert start["params"]["chips"] == "R1 R2 B1 G3 Y2"
    assert sorted(start["position"]["zones"]["table"]) == sorted(["R1", "R2", "B1", "G3", "Y2"])
    decisions = [r for r in records if r["type"] == "decision"]
    fires = [r for r in records if r["type"] == "fire"]
    assert decisions and fires
    for d in decisions:
        assert d["choice"] in d["options"]
        assert d["player"] in ("P1", "P2")
    # players alternate, P1 first
    assert [d["player"] for d in decisions] == ["P1", "P2"] * (len(decisions) // 2) + ["P1"] * (len(decisions) % 2)
    # the first decision offers every colour and every value of the position
    assert sorted(decisions[0]["options"]) == sorted(
        ["colour B", "colour G", "colour R", "colour Y", "value 1", "value 2", "value 3"])
    assert {f["rule"] for f in fires} == {"entering_play", "player_to_move_takes", "last_chip_wins"}
    assert fires[0]["rule"] == "entering_play"  # (the play phase gives the first turn as it is entered)
    # one ask per decision, and the game ends by the last chip rule
    assert sum(f["rule"] == "player_to_move_takes" for f in fires) == len(decisions)
    assert fires[-1]["rule"] == "last_chip_wins"
    # the last mover took the last chip and won
    assert end["winners"] == [decisions[-1]["player"]]
    assert sorted(end["payoffs"]) == [0, 1]
    assert f"Winner: {decisions[-1]['player']}" in result.output


def test_the_same_seed_gives_the_same_log(tmp_path):
    logs = []
    for i in range(2):
        log = tmp_path / f"run{i}.jsonl"
        naipes("play", "fichas", "--seat", "random", "--seat", "random", "--seed", "11", "--log", str(log))
        logs.append(log.read_text(encoding="utf-8"))
    assert logs[0] == logs[1]
    assert len(logs[0].splitlines()) > 3


def test_trace_prints_each_firing(tmp_path):
    result = naipes("play", "fichas", "--seat", "random", "--seat", "random", "--seed", "2",
                    "-p", "chips=R1 B2", "--trace")
    clean(result)
    lines = [line for line in result.output.splitlines() if line.startswith("[trace] fire")]
    # R1 B2 has no colour or value in common: the play phase entered (its first turn given), two moves, two
    # asks, then the end rule
    assert lines == (["[trace] fire entering_play (entering the phase)"]
                     + ["[trace] fire player_to_move_takes (priority 0)"] * 2
                     + ["[trace] fire last_chip_wins (priority 0)"])


def test_play_with_the_default_opponent_wins_a_won_position():
    # default seats: the human at P1, the rule file's AI (exact, the original's exhaustive search) at P2;
    # with first=2 the AI moves first in a won position and must win.
    result = naipes("play", "fichas", "-p", "chips=R1 R2 B1 G3", "-p", "first=2", "--seed", "4",
                    input="1\n" * 10)
    clean(result)
    assert "P2 fichas/exact" in result.output
    assert "Game over. Winner: P2." in result.output


# =================================================================== errors
@pytest.mark.parametrize("args, words", [
    (["solve", "fichas", "-p", "count=abc"], "param 'count' is int; 'abc' is not"),
    (["solve", "fichas", "-p", "nosuch=1"], "unknown param 'nosuch'"),
    (["solve", "fichas", "-p", "count=0"], "below the minimum"),
    (["play", "fichas", "--seed", "1", "-p", "full=perhaps"], "param 'full' is bool"),
    (["simulate", "fichas", "-n", "2", "-p", "colours=27"], "above the maximum"),
    (["play", "fichas", "--seat", "bogus", "--seed", "1"], "unknown agent 'bogus'"),
])
def test_bad_params_and_agents_are_clean_errors_with_exit_1(args, words):
    result = naipes(*args)
    clean(result)
    assert result.exit_code == 1
    assert words in result.output


def test_malformed_param_exits_1():
    result = naipes("solve", "fichas", "-p", "count")
    clean(result)
    assert "NAME=VALUE" in result.output
    assert result.exit_code == 1


def test_rule_file_errors_in_play_are_located_not_tracebacks(tmp_path):
    path = write(tmp_path, """
        game: t
        rules:
          - name: r
            when: "True"
            then: "end game winner nobody"
        """)
    result = naipes("play", path, "--seed", "1")
    clean(result)
    assert result.exit_code == 1
    assert f"{path}:5:" in result.output
    assert "unknown name 'nobody'" in result.output


def test_game_errors_in_play_are_located_not_tracebacks(tmp_path):
    path = write(tmp_path, """
        game: t
        state:
          x: 0
        rules:
          - name: boom
            when: "x == 0"
            then: "x = 1 // x"
        """)
    result = naipes("play", path, "--seat", "random", "--seat", "random", "--seed", "1")
    clean(result)
    assert result.exit_code == 1
    assert f"{path}:7:" in result.output
    assert "ZeroDivisionError" in result.output


def test_the_installed_command_reports_a_bad_param_without_traceback():
    exe = Path(sys.executable).with_name("naipes")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "naipes.tools.cli"]
    done = subprocess.run(command + ["solve", "fichas", "-p", "count=abc"], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert done.returncode == 1
    assert "Traceback" not in done.stdout + done.stderr
    assert "param 'count' is int" in done.stderr


def test_check_warns_of_a_text_compared_with_but_never_made(tmp_path):
    # 'tuet' is compared with but nothing makes it; 'tute' is made (assigned), 'none' is compared and made
    path = write(tmp_path, """
        game: t
        players: 1
        state:
          song: "'none'"
          sung: 0
        rules:
          - name: sing
            when: "song == 'none'"
            then: "song = 'tute'"
          - name: count
            when: "song == 'tuet' or sung > 0"
            then: "sung += 1"
          - name: stop
            when: "song != 'none'"
            priority: -1
            then: "end game"
        """)
    result = naipes("check", path)
    clean(result)
    assert result.exit_code == 0
    warnings = [line for line in result.output.splitlines() if "warning:" in line]
    assert len(warnings) == 1, result.output
    assert f"{path}:11:20" in warnings[0] and "'tuet'" in warnings[0] and "did you mean 'tute'?" in warnings[0]



def test_check_warns_of_a_function_that_hides_a_built_in(tmp_path):
    # the file's own sum() is what every sum(...) of the file calls: a game that loads, but likely not as meant
    path = write(tmp_path, """
        game: t
        players: 1
        state:
          total: "sum([1, 2])"
        functions:
          sum(items): "0"
          twice(x): "2 * x"
        rules:
          - name: stop
            when: "True"
            then: "end game"
        """)
    result = naipes("check", path)
    clean(result)
    assert result.exit_code == 0
    warnings = [line for line in result.output.splitlines() if "warning:" in line]
    assert len(warnings) == 1, result.output
    assert f"{path}:6:3: the function 'sum' hides the built-in sum()" in warnings[0]


# ================================================ a strategy for a rule file of one's own
OWN_GAME = """
game: mine
extends: fichas
"""
OWN_STRATEGY = """
game: mine
rules:
  - name: take_a_colour
    move: take_colour
    choose: "first(options)"
"""


def test_check_finds_the_rule_file_a_strategy_plays_given_before_it_or_beside_it(tmp_path, monkeypatch):
    (tmp_path / "rules").mkdir()
    rules = write(tmp_path / "rules", OWN_GAME, "my_rules.yaml")  # (its game: is mine, its file name is not)
    strategy = write(tmp_path, OWN_STRATEGY, "bot.yaml")
    result = naipes("check", rules, strategy, "--games", "0")
    assert result.exit_code == 0 and f"{strategy}: ok (a strategy for mine" in result.output
    monkeypatch.chdir(tmp_path / "rules")  # (nowhere near: not here, nor in ./rulesets)
    result = naipes("check", strategy)
    assert result.exit_code == 1
    assert f"{strategy}:1:7: no rule file 'mine'" in result.output  # located at its game:
    assert f"naipes check RULES.yaml {strategy}" in result.output
    write(tmp_path, OWN_GAME, "mine.yaml")
    result = naipes("check", strategy)
    assert result.exit_code == 0 and "ok (a strategy for mine" in result.output
