"""Game logs that replay and resume: `play --log` records the deal and every card's movement as full records,
`naipes replay LOG` steps through the game (terminal and web) checked against the log record by record, and
`play --resume LOG` continues a saved game.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from naipes.tools.cli import GameLog, main
from naipes.tools.gamelog import read_log
from naipes.tools.replay import EVERYTHING, Replay

from helpers import RULESETS, STRATEGIES

CHIPS = "chips=R1 R2 B1 G3 Y2 B2 G1 Y3 R3"


def naipes(*args: str, input: str | None = None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def records(path: Path) -> list[dict]:
    return [entry.record for entry in read_log(path)]


@pytest.fixture(scope="module")
def tute_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole game of Tute Cabrero (hidden hands, a shuffle per hand) played by random seats."""
    log = tmp_path_factory.mktemp("logs") / "tute.jsonl"
    result = naipes("play", "tute_cabrero", "--seat", "random", "--seat", "random", "--seat", "random",
                    "--seed", "5", "--log", log)
    assert result.exit_code == 0, result.output
    return log


@pytest.mark.slow
def test_the_log_has_the_deal_and_every_card_movement_marked_full(tute_log: Path) -> None:
    logged = records(tute_log)
    assert logged[0]["type"] == "log" and logged[0]["ruleset"] == "tute_cabrero" and logged[0]["seed"] == 5
    full = [r for r in logged if r.get("visibility") == "full"]
    shuffles = [r for r in full if r["type"] == "shuffle"]
    assert shuffles and all(sorted(s["order"]) == sorted(shuffles[0]["order"]) for s in shuffles)
    assert len(set(shuffles[0]["order"])) == 40
    # every record says who may see it: a decision (its options: the mover's hand) its mover only; announcements
    # and the end everyone; the start (it has the seed, which predicts every hand) nobody at the table
    assert all("visibility" in r for r in logged)
    assert all(r["visibility"] == r["player"] for r in logged if r["type"] == "decision")
    assert {r["visibility"] for r in logged if r["type"] in ("announce", "end")} == {"public"}
    assert {r["visibility"] for r in logged if r["type"] in ("log", "start")} == {"full"}
    # following the card movements from zone to zone gives every card's place at the end of the game
    where: dict[str, str] = {}
    for record in (r for r in full if r["type"] == "move"):
        for card in record["cards"]:
            assert where.get(card, record["from"]) == record["from"], record
            where[card] = record["to"]
    final = Replay.load(tute_log).view(Replay.load(tute_log).steps, EVERYTHING)
    placed = {card: zone for zone, cards in final["zones"].items() for card in cards}
    placed |= {card: f"{p['name']}.{zone}" for p in final["players"] for zone in ("hand", "won") for card in p[zone]}
    assert where and all(placed[card] == zone for card, zone in where.items())


def test_every_line_of_a_log_is_standard_json(tmp_path: Path) -> None:
    # a phase's entry fires before every rule of it, at an infinite priority: logged as Python writes it
    # ("priority": Infinity), a line that JSON parsers other than Python's refuse (RFC 8259 has no Infinity, NaN)
    log = tmp_path / "game.jsonl"
    high_card = Path(__file__).resolve().parent.parent / "examples" / "high_card.yaml"
    assert naipes("play", high_card, "--seat", "random", "--seat", "random", "--seed", "1", "--log", log).exit_code == 0

    def refused(constant: str) -> None:
        raise AssertionError(f"{constant} in a log line")
    logged = [json.loads(line, parse_constant=refused) for line in log.read_text(encoding="utf-8").splitlines()]
    fired = [r for r in logged if r["type"] == "fire"]
    assert {r["priority"] for r in fired} == {"entry", 0}  # the entries of the phases, and the rules'


@pytest.mark.slow
def test_replay_reruns_every_decision_and_shows_each_seat_only_its_own_cards(tute_log: Path) -> None:
    replay = Replay.load(tute_log)
    decisions = [r for r in records(tute_log) if r["type"] == "decision"]
    assert replay.steps == len(decisions) and replay.game.over
    assert replay.records[-1]["type"] == "end"
    for number in (0, 7, replay.steps // 2):
        full = replay.view(number, EVERYTHING)
        mine = replay.view(number, 1)
        onlooker = replay.view(number, None)
        assert mine["players"][1]["hand"] == full["players"][1]["hand"]
        assert mine["players"][0]["hand"] == {"count": len(full["players"][0]["hand"])}
        assert onlooker["players"][1]["hand"] == {"count": len(full["players"][1]["hand"])}
    shown = replay.records_for(3, 2)
    assert not [r for r in shown if r["type"] in ("move", "shuffle", "fire")]
    assert [r for r in replay.records_for(3, EVERYTHING) if r["type"] == "shuffle"]


@pytest.mark.slow
def test_replay_to_a_step_prints_it_as_a_seat_saw_it(tute_log: Path) -> None:
    decisions = [r for r in records(tute_log) if r["type"] == "decision"]
    result = naipes("replay", tute_log, "--to", "4", "--seat", "2")  # numbered as the table numbers them
    assert result.exit_code == 0, result.output
    assert f"Step 4 of {len(decisions)} · {decisions[3]['player']} chose {decisions[3]['choice']} · seen by P2" \
        in result.output
    assert "P2 (you)" in result.output and "[shuffle]" not in result.output
    everything = naipes("replay", tute_log, "--to", "0").output
    assert "[shuffle] stock:" in everything and "[move] stock → P1.hand:" in everything
    assert naipes("replay", tute_log, "--to", "9999").exit_code == 1
    bad_seat = naipes("replay", tute_log, "--seat", "P7", "--to", "1")
    assert bad_seat.exit_code == 1 and "no seat 'P7'" in bad_seat.output


@pytest.mark.slow
def test_replay_steps_forward_and_back_at_the_prompt(tute_log: Path) -> None:
    result = naipes("replay", tute_log, input="n\nn\nb\nseat p3\n12\nwhat\nq\n")
    assert result.exit_code == 0, result.output
    heads = [line.split(" · ")[0] for line in result.output.splitlines() if line.startswith("Step ")]
    assert heads == ["Step 0 of 351", "Step 1 of 351", "Step 2 of 351", "Step 1 of 351", "Step 1 of 351",
                     "Step 12 of 351", "Step 12 of 351"]
    assert "seen by P3" in result.output and "unknown command 'what'" in result.output


def fichas_log(tmp_path: Path, rule_file: Path | str = "fichas", name: str = "fichas.jsonl") -> Path:
    log = tmp_path / name
    result = naipes("play", rule_file, "--seat", "exact", "--seat", "greedy", "--seed", "9", "-p", CHIPS,
                    "--log", log)
    assert result.exit_code == 0, result.output
    return log


def test_a_changed_rule_file_is_a_located_error_not_a_wrong_replay(tmp_path: Path) -> None:
    rule_file = tmp_path / "chips.yaml"
    shutil.copy(RULESETS / "fichas.yaml", rule_file)
    log = fichas_log(tmp_path, rule_file)
    assert naipes("replay", log, "--ruleset", rule_file, "--to", "1").exit_code == 0
    rule_file.write_text(rule_file.read_text() + "\n# a comment changes the file, not the game\n")
    same = naipes("replay", log, "--ruleset", rule_file, "--to", "1")
    assert same.exit_code == 0 and "has changed since the log was written, but this game replays the same" \
        in same.output
    text = rule_file.read_text()
    assert "name: \"f'{c.colour}{c.value}'\"" in text
    rule_file.write_text(text.replace("f'{c.colour}{c.value}'", "f'{c.value}{c.colour}'"))  # R1 is now 1R
    changed = naipes("replay", log, "--ruleset", rule_file)
    assert changed.exit_code == 1
    assert f"{log}:2:1: the replay differs from the log" in changed.output
    assert "has changed since the log was written" in changed.output


def test_a_log_of_another_rule_file_or_an_edited_log_is_refused(tmp_path: Path) -> None:
    log = fichas_log(tmp_path)
    other = naipes("replay", log, "--ruleset", "fichas_misere")
    assert other.exit_code == 1 and "the replay differs from the log" in other.output
    lines = log.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"decision"' in line and '"P2"' in line)
    record = json.loads(lines[at])
    record["choice"] = next(o for o in record["options"] if o != record["choice"])
    lines[at] = json.dumps(record)
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join(lines) + "\n")
    result = naipes("replay", edited, "--to", "0")
    assert result.exit_code == 1 and f"{edited}:{at + 1}:1: the replay differs from the log" in result.output
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"type": "start"}\n')
    assert f"{junk}:1:1: not a game log" in naipes("replay", junk).output
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines[0] + "\n{oops\n" + lines[1] + "\n")
    assert f"{broken}:2:2: not a JSON record" in naipes("replay", broken).output


def test_resume_continues_a_game_cut_short(tmp_path: Path) -> None:
    whole = records(fichas_log(tmp_path))
    lines = fichas_log(tmp_path, name="again.jsonl").read_text().splitlines(keepends=True)
    second = [i for i, line in enumerate(lines) if '"decision"' in line][1]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:second + 1]) + lines[second + 1][:20])  # stopped while writing a line
    new = tmp_path / "resumed.jsonl"
    result = naipes("play", "--resume", cut, "--log", new)
    assert result.exit_code == 0, result.output
    assert "Resuming" in result.output and "2 moves made again" in result.output and "Game over" in result.output
    resumed = records(new)
    choices = [(r["player"], r["choice"]) for r in resumed if r["type"] == "decision"]
    assert choices[:2] == [(r["player"], r["choice"]) for r in whole if r["type"] == "decision"][:2]
    assert resumed[0]["seats"] == whole[0]["seats"] and resumed[-1]["type"] == "end"
    assert Replay.load(new).game.over  # the new log is a whole game, replayable
    over = naipes("play", "--resume", new)
    assert over.exit_code == 1 and "is over: nothing to resume" in over.output
    assert naipes("play", "--resume", cut, "--seed", "3").exit_code == 2


@pytest.mark.slow
def test_resume_seats_as_many_players_as_the_logged_game(tute_log: Path, tmp_path: Path) -> None:
    lines = tute_log.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:40]))
    four = naipes("play", "--resume", cut, *["--seat", "random"] * 4)
    assert four.exit_code == 2 and "has 3 players, not 4" in four.output
    three = naipes("play", "--resume", cut, "--seat", "random", "--seat", "novice", "--seat", "random")
    assert three.exit_code == 0 and "P2 tute_cabrero/novice" in three.output and "Game over" in three.output


def test_a_human_who_quits_is_told_how_to_resume(tmp_path: Path) -> None:
    log = tmp_path / "quit.jsonl"
    quit_early = naipes("play", "fichas", "--seat", "human", "--seat", "greedy", "--seed", "4", "-p", CHIPS,
                        "--log", log, input="1\nquit\n")
    assert f"Continue it with: naipes play --resume {log}" in quit_early.output
    finished = naipes("play", "--resume", log, "--seat", "random", "--seat", "greedy")
    assert finished.exit_code == 0 and "Game over" in finished.output


def test_a_resumed_game_goes_on_logging_to_its_log(tmp_path: Path) -> None:
    log = tmp_path / "quit.jsonl"
    four = "chips=R1 G2 B3 Y4"  # four moves: each takes one chip
    naipes("play", "fichas", "--seat", "human", "--seat", "human", "-p", four, "--log", log, input="1\nquit\n")
    stopped = log.read_text()
    again = naipes("play", "--resume", log, input="1\nquit\n")   # a second sitting, quit again
    assert again.exit_code == 0 and f"Continue it with: naipes play --resume {log}" in again.output
    assert again.output.count("takes every chip of") == 1  # the move made again is not told again
    longer = records(log)
    assert len([r for r in longer if r["type"] == "decision"]) == 2 and longer[0]["type"] == "log"
    finished = naipes("play", "--resume", log, "--seat", "random", "--seat", "random")
    assert finished.exit_code == 0 and "Game over" in finished.output
    assert Replay.load(log).game.over and not list(tmp_path.glob("*.part"))  # the whole game, in one log
    # --no-log leaves the log as it was; --log FILE writes the rest elsewhere
    (tmp_path / "stopped.jsonl").write_text(stopped)
    kept = naipes("play", "--resume", tmp_path / "stopped.jsonl", "--no-log", "--seat", "random", "--seat", "random")
    assert kept.exit_code == 0 and (tmp_path / "stopped.jsonl").read_text() == stopped
    assert naipes("play", "fichas", "--no-log").exit_code == 2  # only with --resume


def test_a_resumed_log_is_replaced_only_once_its_moves_are_made_again(tmp_path: Path) -> None:
    log = fichas_log(tmp_path)
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:[i for i, line in enumerate(lines) if '"decision"' in line][1] + 1]))
    stopped, resumed = log.read_text(), Replay.load(log)
    with GameLog(str(log), resumed) as writing:   # stopped before catching up (a crash, Ctrl-C)
        assert writing.stream is not None
        writing.stream.write('{"type": "log"}\n')
    assert log.read_text() == stopped and not list(tmp_path.glob("*.part"))
    with GameLog(str(log), resumed) as writing:
        assert writing.stream is not None
        writing.stream.write('{"type": "log"}\n')
        writing.caught_up()
    assert log.read_text() == '{"type": "log"}\n'


def test_seats_are_numbered_as_the_table_numbers_them(tmp_path: Path) -> None:
    log = fichas_log(tmp_path)
    first = naipes("replay", log, "--to", "1", "--seat", "1")
    assert first.exit_code == 0 and "seen by P1" in first.output
    assert "seen by P2" in naipes("replay", log, "--to", "1", "--seat", "p2").output
    zero = naipes("replay", log, "--to", "1", "--seat", "0")
    assert zero.exit_code == 1 and "seats count from 1, as the table numbers them" in zero.output
    own = tmp_path / "p2.jsonl"
    assert naipes("play", "fichas", "--seat", "random", "--seat", "random", "--log-seat", "2", own).exit_code == 0
    assert records(own)[0]["seat"] == "P2"


starlette = pytest.importorskip("starlette", reason="the web replay needs the web extra")
testclient = pytest.importorskip("starlette.testclient", reason="Starlette's TestClient needs httpx2")


@pytest.mark.slow
def test_the_web_table_replays_a_log_step_by_step(tute_log: Path) -> None:
    from naipes.web.app import create_app
    replay = Replay.load(tute_log)
    client = testclient.TestClient(create_app({}, replay=replay, hosts=["testserver"]))
    assert client.get("/replay").status_code == 200
    info = client.get("/api/replay", params={"seat": "1"}).json()
    assert info["type"] == "table" and info["seat"] == 1 and info["replay"]["steps"] == replay.steps
    assert [s["name"] for s in info["seats"]] == ["P1", "P2", "P3"] and info["cards"]
    seen = client.get("/api/replay/5", params={"seat": "1"}).json()
    view = seen["state"]["view"]
    assert view["players"][1]["hand"] == replay.view(5, 1)["players"][1]["hand"]
    assert view["players"][0]["hand"] == {"count": len(replay.view(5, EVERYTHING)["players"][0]["hand"])}
    assert not [r for r in seen["records"]["records"] if r["type"] in ("move", "shuffle")]
    everything = client.get("/api/replay/5").json()
    assert everything["state"]["view"]["players"][0]["hand"] == replay.view(5, EVERYTHING)["players"][0]["hand"]
    assert [r for r in everything["records"]["records"] if r["type"] == "shuffle"]
    back = client.get("/api/replay/4").json()
    assert len(back["records"]["records"]) < len(everything["records"]["records"])
    last = client.get(f"/api/replay/{replay.steps}").json()
    assert last["state"]["over"] and last["state"]["outcome"]["payoffs"]
    assert client.get(f"/api/replay/{replay.steps + 1}").status_code == 404
    assert "no seat" in client.get("/api/replay/1", params={"seat": "9"}).json()["error"]
    plain = testclient.TestClient(create_app({}, hosts=["testserver"]))
    assert plain.get("/api/replay").status_code == 404


# ------------------------------------------------------- what a log may choose
BOT = '''
import sys
print("NOTE loaded the bot's file", file=sys.stderr, flush=True)

class Bot:
    def decide(self, view, options):
        return 0
'''


def with_header(log: Path, tmp_path: Path, name: str = "crafted.jsonl", **fields) -> Path:
    """A copy of `log` whose first line has `fields` instead (a log as an attacker may write it)."""
    lines = log.read_text().splitlines(keepends=True)
    crafted = tmp_path / name
    crafted.write_text(json.dumps({**json.loads(lines[0]), **fields}) + "\n" + "".join(lines[1:]))
    return crafted


@pytest.mark.parametrize("named", ["{rules}", "{stem}", "../../../../../../..{stem}", "{rules_dir}/"])
def test_a_log_that_names_a_rule_file_by_its_path_loads_it_only_if_the_command_line_does(tmp_path, named):
    rules = tmp_path / "chips.yaml"
    shutil.copy(RULESETS / "fichas.yaml", rules)
    log = fichas_log(tmp_path, rules)
    crafted = with_header(log, tmp_path, ruleset=named.format(rules=rules, stem=rules.with_suffix(""),
                                                               rules_dir=tmp_path))
    refused = naipes("replay", crafted, "--to", "1")
    assert refused.exit_code == 1 and f"{crafted}:1:1: the log names the rule file" in refused.output
    assert "a log does not choose a file to load" in refused.output and "--ruleset PATH" in refused.output
    resumed = naipes("play", "--resume", crafted)
    assert resumed.exit_code == 1 and "the log names the rule file" in resumed.output
    assert naipes("replay", crafted, "--ruleset", rules, "--to", "1").exit_code == 0
    assert naipes("replay", fichas_log(tmp_path), "--to", "1").exit_code == 0  # a shipped one, by its name


@pytest.mark.parametrize("seat", ["python:{bot}:Bot", "ismcts:iterations=2,policy=python:{bot}:Bot",
                                  "{strategy}", "ismcts:iterations=2,policy={strategy}", "../../{strategy_stem}"])
def test_a_log_that_names_a_bot_or_a_file_for_a_seat_is_shown_not_obeyed(tmp_path, seat):
    bot, strategy = tmp_path / "bot.py", tmp_path / "mine.yaml"
    bot.write_text(BOT)
    shutil.copy(STRATEGIES / "fichas" / "greedy.yaml", strategy)
    log = fichas_log(tmp_path)
    lines = log.read_text().splitlines(keepends=True)
    second = [i for i, line in enumerate(lines) if '"decision"' in line][1]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:second + 1]))
    named = seat.format(bot=bot, strategy=strategy, strategy_stem=strategy.with_suffix(""))
    crafted = with_header(cut, tmp_path, seats=["exact", named])
    refused = naipes("play", "--resume", crafted)
    assert refused.exit_code == 1
    assert f"for P2; pass --seat P2={named} to use it" in refused.output
    assert "loaded the bot's file" not in refused.output
    if named.startswith("python:"):  # named on the command line, it plays
        chosen = subprocess.run([sys.executable, "-m", "naipes.tools.cli", "play", "--resume", str(crafted),
                                 "--seat", f"P2={named}", "--no-log"],  # (the log stays stopped, to resume again)
                                capture_output=True, text=True, timeout=120)
        assert chosen.returncode == 0, chosen.stderr
        assert "Game over" in chosen.stdout and "loaded the bot's file" in chosen.stderr
    replaced = naipes("play", "--resume", crafted, "--seat", "P2=random")
    assert replaced.exit_code == 0 and "P2 random" in replaced.output and "Game over" in replaced.output


def test_resume_replaces_a_seat_or_every_seat_not_a_mix(tmp_path):
    log = fichas_log(tmp_path)
    lines = log.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:[i for i, line in enumerate(lines) if '"decision"' in line][1] + 1]))
    mixed = naipes("play", "--resume", cut, "--seat", "random", "--seat", "1=random")
    assert mixed.exit_code == 2 and "not both" in mixed.output
    by_number = naipes("play", "--resume", cut, "--seat", "1=random", "--no-log")  # P1, as the table numbers it
    assert by_number.exit_code == 0 and "P1 random, P2 fichas/greedy" in by_number.output
    nowhere = naipes("play", "--resume", cut, "--seat", "P9=random")
    assert nowhere.exit_code == 1 and "no seat 'P9'" in nowhere.output


@pytest.mark.parametrize("fields, message", [
    ({"params": {"chips": ["R1"]}}, "the log's params are not names and texts"),
    ({"seats": ["exact", {"python": "x"}]}, "the log's seats are not agent names"),
    ({"seats": ["exact"]}, "the log names 1 seats for a game of 2 players"),
    ({"format": 99}, "a log of format 99"),
    ({"seed": "9"}, "the log's first line has no seed (int)"),
])
def test_a_crafted_header_is_a_located_error(tmp_path, fields, message):
    log = fichas_log(tmp_path)
    lines = log.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:[i for i, line in enumerate(lines) if '"decision"' in line][1] + 1]))
    crafted = with_header(cut, tmp_path, **fields)
    result = naipes("play", "--resume", crafted)
    assert result.exit_code == 1 and f"{crafted}:1:1: {message}" in result.output


@pytest.mark.parametrize("line, message", [
    ('{"type": "log", "seed": ' + "[" * 100_000 + "]" * 100_000 + "}", "not a record of a game log: RecursionError"),
    ('{"type": "log", "seed": ' + "9" * 5000 + "}", "not a record of a game log: ValueError"),
])
def test_a_log_nested_too_deep_or_with_a_huge_number_is_a_located_error(tmp_path, line, message):
    crafted = tmp_path / "deep.jsonl"
    crafted.write_text(line + "\n")
    result = naipes("replay", crafted)
    assert result.exit_code == 1 and f"{crafted}:1:1: {message}" in result.output


# ------------------------------------------------------ what a log reveals
CARD = re.compile(r"\b(?:1[0-2]|[1-7])[oceb]\b")


def test_a_seats_own_log_holds_what_that_seat_saw_and_nothing_else(tute_log: Path, tmp_path: Path) -> None:
    own = tmp_path / "p2.jsonl"
    full = tmp_path / "full.jsonl"
    result = naipes("play", "tute_cabrero", *["--seat", "random"] * 3, "--seed", "5", "--log", full,
                    "--log-seat", "P2", own)
    assert result.exit_code == 0, result.output
    assert full.read_text() == tute_log.read_text()  # the full log is the same with a seat's log beside it
    mine = records(own)
    header = mine[0]
    assert header["type"] == "log" and header["seat"] == "P2" and "seed" not in header
    assert all("seed" not in r for r in mine) and {r["visibility"] for r in mine} == {"public", "P2"}
    decisions = [r for r in mine if r["type"] == "decision"]
    assert all(r["visibility"] == "P2" and "options" in r and r["view"]["seat"] == 1 if r["player"] == "P2" else
               set(r) == {"type", "visibility", "player", "move", "choice"} for r in decisions)
    # every card it names, it had seen by then (in its hand, played, announced): the others' hands are nowhere
    replay = Replay.load(full)
    seen, seen_by = set(), []  # seen_by[k]: the cards P2 had seen by the end of the move after decision k
    for step in range(replay.steps + 1):
        later = min(step + 1, replay.steps)
        seen |= set(CARD.findall(json.dumps([replay.view(later, 1), replay.records_for(later, 1, since=step)])))
        seen_by.append(set(seen))
    made = 0
    for record in mine[1:]:
        assert set(CARD.findall(json.dumps(record))) <= seen_by[made], record
        made += record["type"] == "decision"
    assert made == replay.steps
    first_shuffle = next(r for r in records(full) if r["type"] == "shuffle")
    assert set(first_shuffle["order"]) - seen_by[0]  # what the full log shows at once, P2 had not seen
    not_replayable = naipes("replay", own)
    assert not_replayable.exit_code == 1 and "this is P2's own log (what that seat saw)" in not_replayable.output


def test_a_seat_log_names_a_seat_of_the_game(tmp_path: Path) -> None:
    result = naipes("play", "fichas", "--seat", "random", "--seat", "random", "--seed", "1",
                    "--log-seat", "P3", tmp_path / "p3.jsonl")
    assert result.exit_code == 2 and "no seat 'P3': choose a player (P1, P2) or its number 1..2" in result.output
    folder = naipes("play", "fichas", "--seat", "random", "--seat", "random", "--log-seat", "P1", tmp_path)
    assert folder.exit_code == 2 and "is a folder" in folder.output


def test_a_log_of_format_1_still_replays(tute_log: Path, tmp_path: Path) -> None:
    """Format 1 marked the visibility of the header, shuffles and card movements only."""
    old = []
    for number, line in enumerate(tute_log.read_text().splitlines()):
        record = json.loads(line)
        if number == 0:
            record["format"] = 1
        elif record["type"] not in ("move", "shuffle"):
            del record["visibility"]
        old.append(json.dumps(record, ensure_ascii=False))
    log = tmp_path / "old.jsonl"
    log.write_text("\n".join(old) + "\n")
    assert Replay.load(log).steps == Replay.load(tute_log).steps
