"""Tournaments: rotations, statistics with known answers, determinism, outputs."""
import json
import math
import subprocess
import sys

import pytest
from click.testing import CliRunner

from naipes.errors import NaipesError
from naipes.tools.cli import main
from naipes.tools.statistics import wilson_interval
from naipes.tools.tournament import mean_interval, rotations, run_tournament

from helpers import RULESETS, shipped


def test_mean_interval_of_known_samples():
    mean, low, high = mean_interval([0.0, 1.0, 0.0, 1.0])
    # sample sd = sqrt(1/3); half width = 1.96 * sd / sqrt(4)
    half = 1.959963984540054 * math.sqrt(1 / 3) / 2
    assert mean == 0.5 and low == pytest.approx(0.5 - half) and high == pytest.approx(0.5 + half)
    assert mean_interval([2.0]) == (2.0, 2.0, 2.0)


def test_every_agent_sits_in_every_seat_once_per_deal():
    for count in (2, 3, 4):
        seatings = rotations(count)
        assert len(seatings) == count
        for seat in range(count):
            assert sorted(order[seat] for order in seatings) == list(range(count))


def test_duplicate_deals_cancel_the_luck_between_equal_perfect_players():
    # Two perfect players: on each deal whoever moves first in a won position wins (or second in a lost one),
    # and each plays both seats, so each wins exactly one game of two on every deal: 0.5 with no spread in the
    # payoff (a win pays 1). The win rate's Wilson interval is a binomial one: it does not claim that certainty.
    summary = run_tournament(shipped("fichas"), ["minimax", "minimax"], deals=12, seed=3, jobs=1)
    for agent in summary["agents"]:
        assert agent["win_rate"] == 0.5 and agent["payoff_ci"] == [0.5, 0.5]
        assert agent["win_ci"] == pytest.approx(list(wilson_interval(6, 12)))
    assert summary["games"] == 24 and [a["seat_label"] for a in summary["agents"]] == ["minimax#1", "minimax#2"]


def test_perfect_play_beats_random_with_separate_intervals():
    summary = run_tournament(shipped("fichas"), ["minimax", "random"], deals=30, seed=1, jobs=1)
    best, rand = summary["agents"]
    assert best["win_rate"] + rand["win_rate"] == pytest.approx(1.0)
    assert best["win_ci"][0] > rand["win_ci"][1]


def test_results_do_not_depend_on_the_number_of_workers():
    one = run_tournament(shipped("fichas"), ["random", "random"], deals=6, seed=9, jobs=1)
    two = run_tournament(shipped("fichas"), ["random", "random"], deals=6, seed=9, jobs=2)
    assert one == two


# Compiles the chip game once, removes its rule file, then plays the same deals with one job and with two.
ONE_COMPILATION = """
import json, os, sys
from naipes import load_program
from naipes.tools.tournament import compile_seats, play_deals, start_method
from naipes.agents.bot_process import BotLimits
seats = ["exact", "random"]
compiled = compile_seats(load_program(sys.argv[1]), seats, BotLimits())
os.remove(sys.argv[1])
played = {jobs: [r.payoff for r in play_deals(compiled, seats, [1, 2, 3, 4], jobs=jobs)] for jobs in (1, 2)}
print(json.dumps([start_method(), played[1], played[2]]))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
def test_workers_play_the_program_compiled_once_without_reading_the_rule_file_again(tmp_path):
    # in a fresh interpreter (no other thread: start_method forks), so that pytest's threads play no part
    path = tmp_path / "fichas.yaml"
    path.write_text((RULESETS / "fichas.yaml").read_text())
    done = subprocess.run([sys.executable, "-c", ONE_COMPILATION, str(path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    method, one_job, two_jobs = json.loads(done.stdout)
    assert method == "fork" and one_job == two_jobs and len(two_jobs) == 4


def test_wrong_number_of_agents_is_an_error():
    with pytest.raises(NaipesError, match="seats 2 to 2 players"):
        run_tournament(shipped("fichas"), ["random", "random", "random"], deals=1, seed=1)


@pytest.mark.slow
def test_cli_writes_json_and_a_png(tmp_path):
    out_json, out_png = tmp_path / "r.json", tmp_path / "r.png"
    result = CliRunner().invoke(main, ["tournament", "fichas", "-n", "5", "--seed", "2", "--jobs", "1",
                                       "--seat", "minimax", "--seat", "random",
                                       "--json", str(out_json), "--plot", str(out_png)])
    assert result.exit_code == 0, result.output
    data = json.loads(out_json.read_text())
    assert data["deals"] == 5 and len(data["agents"]) == 2
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "95% CI" in result.output


def test_a_variant_is_named_by_its_own_file_not_its_bases_game(tmp_path):
    # (a variant that does not give `game:` keeps its base's; the commands name what the user named)
    variant = tmp_path / "fichas_variant.yaml"
    variant.write_text(f"extends: {RULESETS / 'fichas.yaml'}\n")
    result = CliRunner().invoke(main, ["tournament", str(variant), "-n", "1", "--seed", "2", "--jobs", "1",
                                       "--seat", "random", "--seat", "random"])
    assert result.exit_code == 0, result.output
    assert "fichas_variant: 1 deal, 2 games" in result.output
    result = CliRunner().invoke(main, ["tournament", str(variant), "-n", "1", "--seat", "nobody", "--seat", "random"])
    assert "choose fichas_variant's AI levels" in result.output
