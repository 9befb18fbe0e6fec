"""Tournaments on a Dask distributed cluster give the same results as one local process, with the files they name
found by the workers wherever these run."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("distributed", reason="Dask distributed is an optional extra: pip install -e '.[cluster]'")
pytestmark = pytest.mark.slow  # starts a Dask cluster
from distributed import Client, LocalCluster  # noqa: E402

from naipes import NaipesError  # noqa: E402
from naipes.tools.cli import main  # noqa: E402
from naipes.tools.cluster import files_named, play_deals_on_cluster, portable  # noqa: E402
from naipes.tools.tournament import play_one_deal, run_tournament  # noqa: E402

from helpers import RULESETS, STRATEGIES, shipped  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TUTE = str(RULESETS / "tute_cabrero.yaml")
# relative paths, as a user at the top of the checkout names them
AGENTS = ["strategies/tute_cabrero/novice.yaml", "python:examples/first_option_bot.py:FirstOption",
          "ismcts:iterations=3,policy=strategies/tute_cabrero/novice.yaml"]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A scheduler, and two workers started as `dask worker` is, in a directory of their own (not the tests')."""
    elsewhere = tmp_path_factory.mktemp("worker")
    with LocalCluster(n_workers=0, processes=True, dashboard_address=None) as local:
        address = local.scheduler_address
        workers = subprocess.Popen([sys.executable, "-m", "dask", "worker", address, "--nworkers", "2",
                                    "--nthreads", "1", "--no-dashboard"], cwd=elsewhere,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            with Client(address) as client:
                client.wait_for_workers(2, timeout=120)
            yield address
        finally:
            workers.terminate()
            workers.wait(timeout=60)


@pytest.fixture(autouse=True)
def at_the_top_of_the_checkout(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_a_tournament_on_a_cluster_equals_one_process(cluster: str) -> None:
    # three deals on two workers: one of them plays two, with the agents it kept, as the one process does (the
    # ismcts seat's playouts make each deal seconds)
    params = {"porotos_to_retire": "1"}
    local = run_tournament(TUTE, AGENTS, deals=3, seed=11, params=params, jobs=1)
    remote = run_tournament(TUTE, AGENTS, deals=3, seed=11, params=params, cluster=cluster)
    assert remote == local
    assert local["games"] == 9 and [a["agent"] for a in remote["agents"]] == AGENTS


def test_the_cli_runs_a_tournament_on_a_cluster(cluster: str) -> None:
    args = ["tournament", shipped("fichas"), "--seat", "minimax", "--seat", "random", "-n", "4", "--seed", "3"]
    local = CliRunner().invoke(main, args + ["--jobs", "1"])
    remote = CliRunner().invoke(main, args + ["--cluster", cluster])
    assert remote.exit_code == 0, remote.output
    assert remote.output.splitlines()[-3:] == local.output.splitlines()[-3:]


def test_files_named_relative_to_here_travel_by_their_absolute_paths() -> None:
    strategy = str(ROOT / "strategies" / "tute_cabrero" / "novice.yaml")
    bot = str(ROOT / "examples" / "first_option_bot.py")
    assert [portable(a) for a in AGENTS] == [strategy, f"python:{bot}:FirstOption",
                                             f"ismcts:iterations=3,policy={strategy}"]
    assert [files_named(portable(a)) for a in AGENTS] == [[strategy], [bot], [strategy]]
    assert portable("expert") == "expert" and portable("ismcts:iterations=3") == "ismcts:iterations=3"
    # (every agent an option names travels: pimc's too, and infer=, as the worker reads them all)
    assert portable("pimc:worlds=3,infer=strategies/tute_cabrero/novice.yaml") == f"pimc:worlds=3,infer={strategy}"
    assert files_named(portable("pimc:policy=strategies/tute_cabrero/novice.yaml")) == [strategy]


def test_a_worker_without_a_file_says_which(cluster: str, tmp_path: Path) -> None:
    strategy = tmp_path / "mine.yaml"
    strategy.write_text((STRATEGIES / "tute_cabrero" / "novice.yaml").read_text(encoding="utf-8"),
                        encoding="utf-8")
    deals = play_deals_on_cluster(cluster, play_one_deal, TUTE, {"porotos_to_retire": "1"},
                                  [str(strategy), "random", "random"], [1])
    os.remove(strategy)  # (made here, gone before the worker looks: as on a machine that does not have it)
    with pytest.raises(NaipesError, match=f"has no file {strategy}: every worker needs"):
        list(deals)


def test_an_unreachable_cluster_is_a_clear_error() -> None:
    with pytest.raises(NaipesError, match="cannot reach the cluster at tcp://127.0.0.1:9"):
        list(play_deals_on_cluster("tcp://127.0.0.1:9", play_one_deal, str(RULESETS / "fichas.yaml"), {},
                                   ["random", "random"], [1], timeout=1))
