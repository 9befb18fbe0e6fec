"""Tournament deals on a Dask distributed cluster (``pip install 'naipes[cluster]'``).

Start a scheduler and workers (on one machine or many; every worker needs
Naipes installed and the rule and strategy files at the same paths)::

    dask scheduler                          # prints its address, e.g. tcp://10.0.0.5:8786
    dask worker tcp://10.0.0.5:8786 --nthreads 1 --nworkers 4

then ``naipes tournament RULESET --seat A --seat B -n 1000 --cluster tcp://10.0.0.5:8786``
or ``run_tournament(..., cluster="tcp://10.0.0.5:8786")``. Each deal is one task;
results come back in deal order, so a tournament gives the same numbers as
``--jobs 1`` for the same seed.

>>> from distributed import LocalCluster                         # doctest: +SKIP
>>> from naipes.tools.tournament import play_one_deal           # doctest: +SKIP
>>> with LocalCluster(n_workers=2, threads_per_worker=1) as local:  # doctest: +SKIP
...     results = list(play_deals_on_cluster(local.scheduler_address, play_one_deal, "rulesets/fichas.yaml", {},
...                                          ["minimax", "random"], [1, 2]))
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from distributed import Client

from ..agents.bot_process import BotLimits
from ..errors import NaipesError


def play_deals_on_cluster(address: str, play_one_deal: Callable[[int, tuple], Any], path: str, params: dict[str, str],
                          specs: list[str], seeds: list[int], limits: BotLimits = BotLimits(),
                          timeout: float = 10) -> Iterator[Any]:
    """Play every deal on the cluster at `address` with `play_one_deal(seed, setup)` (the tournament's, run by
    the workers: setup is (path, params, specs, limits)); yields results in deal order."""
    try:
        client = Client(address, timeout=timeout)
    except (OSError, TimeoutError) as error:
        raise NaipesError(f"cannot reach the cluster at {address}: {error}") from None
    setup = (str(Path(path).resolve()), dict(params), list(specs), limits)
    with client:
        futures = client.map(play_one_deal, seeds, setup=setup, pure=False)
        try:
            for future in futures:
                yield future.result()
        finally:
            client.cancel(futures)
