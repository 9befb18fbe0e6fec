"""Tournaments on a Dask distributed cluster give the same results as one local process."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("distributed", reason="Dask distributed is an optional extra: pip install -e '.[cluster]'")
pytestmark = pytest.mark.slow  # starts a Dask cluster
from distributed import LocalCluster  # noqa: E402

from naipes import NaipesError  # noqa: E402
from naipes.tools.cli import main  # noqa: E402
from naipes.tools.cluster import play_deals_on_cluster  # noqa: E402
from naipes.tools.tournament import play_one_deal, run_tournament  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TUTE = str(ROOT / "rulesets" / "tute_cabrero.yaml")
AGENTS = ["strategies/tute_cabrero/novice.yaml", "random", "ismcts:iterations=3"]


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
        yield local.scheduler_address


def test_a_tournament_on_a_cluster_equals_one_process(cluster: str) -> None:
    params = {"porotos_to_retire": "1"}
    local = run_tournament(TUTE, AGENTS, deals=6, seed=11, params=params, jobs=1)
    remote = run_tournament(TUTE, AGENTS, deals=6, seed=11, params=params, cluster=cluster)
    assert remote == local
    assert local["games"] == 18


def test_the_cli_runs_a_tournament_on_a_cluster(cluster: str) -> None:
    args = ["tournament", "fichas", "--seat", "minimax", "--seat", "random", "-n", "4", "--seed", "3"]
    local = CliRunner().invoke(main, args + ["--jobs", "1"])
    remote = CliRunner().invoke(main, args + ["--cluster", cluster])
    assert remote.exit_code == 0, remote.output
    assert remote.output.splitlines()[-3:] == local.output.splitlines()[-3:]


def test_an_unreachable_cluster_is_a_clear_error() -> None:
    with pytest.raises(NaipesError, match="cannot reach the cluster at tcp://127.0.0.1:9"):
        list(play_deals_on_cluster("tcp://127.0.0.1:9", play_one_deal, str(ROOT / "rulesets" / "fichas.yaml"), {},
                                   ["random", "random"], [1], timeout=1))
