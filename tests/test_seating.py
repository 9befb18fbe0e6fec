"""Who sits where: the rule files' AI by default, --players, --opponents, the seat list, errors that help."""
import re

import pytest
from click.testing import CliRunner

from naipes import load_program
from naipes.agents.levels import BUILT_IN, ai_levels
from naipes.errors import ParamError
from naipes.language.shipped import shipped_rulesets
from naipes.tools.cli import main
from naipes.tools.seating import seat_plan

from helpers import shipped_program


def naipes(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def clean(result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


# README's measured ladders: the strong level of each card game, the original exact search for the chips; a search
# agent where it was measured stronger than the top level at about a second a move (docs/ai.md).
STRONGEST = {"chinchon": "strong", "pocha": "pimc:worlds=100,nodes=0", "tute_cabrero": "ismcts:iterations=1000",
             "wizard": "ismcts:iterations=1000",
             "fichas": "exact",
             "brisca": "basic", "hearts": "basic", "escoba": "basic", "truco": "basic",
             "texas_holdem": "basic", "mus": "basic"}


@pytest.mark.slow
@pytest.mark.parametrize("path", shipped_rulesets(), ids=lambda p: p.stem)
def test_every_game_seats_a_strategy_of_its_own_by_default(path):
    program = shipped_program(path.stem)
    base = next((game for game in STRONGEST if path.stem.startswith(game)), None)
    if base is None:   # tricks.yaml, the base of the trick-taking games, has no strategies of its own
        assert program.default_ai == "random"
        return
    levels = {level["name"]: level["kind"] for level in ai_levels(program)}
    if path.stem == "fichas_misere":   # the exact strategy plays to take the last chip, which loses here
        assert program.default_ai == "minimax" and levels["minimax"] == "built-in"
        return
    assert program.default_ai == STRONGEST[base]
    agent = program.default_ai.partition(":")[0]
    assert levels[agent] == ("built-in" if agent in BUILT_IN else "strategy")   # a variant finds its base's levels
    assert "strategy" in levels.values()   # the ladder of strategy levels (below a search agent)


@pytest.mark.slow
def test_a_variant_inherits_its_base_ai():
    assert shipped_program("wizard_official").default_ai == shipped_program("wizard").default_ai
    assert shipped_program("chinchon_48").default_ai == "strong"


def test_an_unknown_ai_in_a_rule_file_is_a_located_error(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("game: g\nplayers: {min: 2, max: 2, ai: strnog}\nrules: []\n", encoding="utf-8")
    result = naipes("check", str(path))
    assert result.exit_code == 1 and f"{path}:2:" in result.output and "unknown agent 'strnog'" in result.output


def test_seat_plan_fills_the_table_with_the_rule_files_ai():
    pocha = shipped_program("pocha")   # 3 to 8 players, 4 by default
    ai = pocha.default_ai
    assert seat_plan(pocha, (), person_first=True) == ["human", ai, ai, ai]
    assert seat_plan(pocha, ("human", "random")) == ["human", "random", ai, ai]
    assert seat_plan(pocha, ("human", "random"), players=3) == ["human", "random", ai]
    assert seat_plan(pocha, (), players=5, opponents="baseline") == ["baseline"] * 5
    assert seat_plan(pocha, ("random",) * 6) == ["random"] * 6   # more named than the default: that many


@pytest.mark.parametrize("seats, players, flag", [((), 9, "--players"), (("random",) * 9, None, "--seat"),
                                                  (("random",) * 4, 3, "--players 3, but 4 agents")])
def test_seat_plan_refuses_a_table_the_game_cannot_seat(seats, players, flag):
    with pytest.raises(ParamError, match=re.escape(flag)):
        seat_plan(shipped_program("pocha"), seats, players)


def test_play_says_who_sits_where_and_that_the_rule_files_ai_filled_the_table():
    result = naipes("play", "pocha", "--seat", "human", "--seat", "random", "--seed", "3", input="quit\n")
    clean(result)
    ai = shipped_program("pocha").default_ai   # a search agent: its name on the seats, its options below
    name = ai.partition(":")[0]
    assert f"seats: P1 human (you), P2 random, P3 {name}, P4 {name}" in result.output
    assert f"P3-P4: {ai}, the rule file's AI" in result.output and "--players N for 3 to 8 players" in result.output


def test_play_with_players_and_opponents():
    result = naipes("play", "pocha", "--players", "3", "--opponents", "baseline", "--seed", "3", input="quit\n")
    clean(result)
    assert "seats: P1 human (you), P2 pocha/baseline, P3 pocha/baseline" in result.output
    assert "P2-P3: baseline, --opponents" in result.output


@pytest.mark.slow
def test_the_default_play_of_every_card_game_seats_its_strongest_level():
    for game, level in STRONGEST.items():
        result = naipes("play", game, "--seed", "1", input="quit\n")
        clean(result)
        line = next(line for line in result.output.splitlines() if line.startswith("seats:"))
        assert line.startswith("seats: P1 human (you), P2 ") and "random" not in line
        agent = level.partition(":")[0]
        shown = agent if agent in BUILT_IN else f"{game}/{level}"   # (a search agent is shown by its name)
        assert line.count(shown) == shipped_program(game).players[2] - 1


def test_seat_help_lists_every_built_in_agent():
    output = naipes("play", "--help").output
    for word in ("random", "minimax", "ismcts", "human", "--players", "--opponents"):
        assert word in output


@pytest.mark.parametrize("flag", ["--seat", "--opponents"])
def test_an_unknown_level_lists_the_games_levels(flag):
    result = naipes("play", "pocha", flag, "strnog", "--seed", "1")
    clean(result)
    assert result.exit_code == 1
    assert f"{flag}: unknown agent 'strnog'" in result.output
    assert "pocha's AI levels (baseline, strong, random, ismcts, pimc)" in result.output
    assert "did you mean 'strong'?" in result.output


@pytest.mark.slow
def test_serve_seats_the_rule_files_ai(monkeypatch):
    pytest.importorskip("uvicorn", reason="naipes serve needs the web extra")
    pytest.importorskip("starlette", reason="naipes serve needs the web extra")
    import naipes.web.server as server
    monkeypatch.setattr(server, "run", lambda app, sock: sock.close())   # set the table up, do not serve
    result = naipes("serve", "tute_cabrero", "--port", "0", "--seed", "1")
    clean(result)
    assert result.exit_code == 0, result.output
    assert "seats: P1 human (you), P2 ismcts:iterations=1000, P3 ismcts:iterations=1000" in result.output
    result = naipes("serve", "tute_cabrero", "--port", "0", "--players", "4", "--opponents", "expert")
    assert "seats: P1 human (you), P2 expert, P3 expert, P4 expert" in result.output


@pytest.mark.slow
def test_a_variant_of_another_name_falls_back_to_random_when_the_bases_strategies_do_not_play_it(tmp_path):
    # strategies/chinchon/* play games named chinchon*: my_chinchon inherits `ai: strong` but cannot seat it
    mine = tmp_path / "mine.yaml"
    mine.write_text("extends: chinchon\ngame: my_chinchon\n", encoding="utf-8")
    assert seat_plan(load_program(mine), (), person_first=True) == ["human", "random"]
    ours = tmp_path / "ours.yaml"
    ours.write_text("extends: chinchon\ngame: chinchon_ours\n", encoding="utf-8")
    assert seat_plan(load_program(ours), (), players=3) == ["strong"] * 3
    result = naipes("play", str(ours), "--players", "3", "--seed", "1", input="quit\n")
    clean(result)
    assert "P2-P3: strong, the rule file's AI" in result.output


@pytest.mark.parametrize("text, ai, why", [
    # a search whose playouts a Python bot would play (a bot named alone is refused when the file loads)
    ('extends: pocha\ngame: pocha_mine\nplayers: {min: 3, max: 8, default: 4, ai: "ismcts:policy=python:b.py:B"}\n',
     "ismcts:policy=python:b.py:B", "it names a Python bot, which only the command line starts"),
    # a variant of another name inherits `ai: strong`, but strategies/chinchon/* play games named chinchon*
    ("extends: chinchon\ngame: my_chinchon\n", "strong", "no strategy file of this game has that name")])
def test_a_rule_files_ai_that_cannot_sit_is_replaced_by_random_and_the_table_says_why(tmp_path, text, ai, why):
    mine = tmp_path / "mine.yaml"
    mine.write_text(text, encoding="utf-8")
    assert seat_plan(load_program(mine), (), players=3) == ["random"] * 3
    result = naipes("play", str(mine), "--players", "3", "--seed", "1", input="quit\n")
    clean(result)
    assert f"P2-P3: random, in place of the rule file's AI '{ai}': {why};" in result.output


def test_a_strategy_seated_twice_is_compiled_once_and_its_seats_keep_their_own_memory():
    from naipes.agents.bot_process import BotLimits
    from naipes.tools.seating import seat_agents
    program = shipped_program("pocha")
    agents = seat_agents(program, ["strong", "strong", "baseline", "random"], 0, seed=1, limits=BotLimits())
    assert agents[0].strategy is agents[1].strategy  # one compiled file
    assert agents[2].strategy is not agents[0].strategy
    assert agents[0].memory is not agents[1].memory and agents[0].rng is not agents[1].rng
