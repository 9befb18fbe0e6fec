"""Tournament deals on a Dask distributed cluster (``pip install 'naipes[cluster]'``).

Start a scheduler and workers (on one machine or many; every worker needs
Naipes installed and the rule and strategy files at the same paths)::

    dask scheduler                          # prints its address, e.g. tcp://10.0.0.5:8786
    dask worker tcp://10.0.0.5:8786 --nthreads 1 --nworkers 4

then ``naipes tournament RULESET --seat A --seat B -n 1000 --cluster tcp://10.0.0.5:8786``
or ``run_tournament(..., cluster="tcp://10.0.0.5:8786")``. Each deal is one task;
results come back in deal order, so a tournament gives the same numbers as
``--jobs 1`` for the same seed.

Workers run in directories of their own, so the files a tournament names by a
relative path (the rule file, strategy files, ``python:`` bots, an ``ismcts``
policy) are sent by their absolute paths, and a worker that lacks one of them
says which, and where.

>>> portable("ismcts:iterations=5,policy=strategies/pocha/strong.yaml").endswith("strategies/pocha/strong.yaml")
True
>>> portable("ismcts:iterations=5,policy=strong"), portable("random")
('ismcts:iterations=5,policy=strong', 'random')
>>> from distributed import LocalCluster                         # doctest: +SKIP
>>> from naipes.tools.tournament import play_one_deal           # doctest: +SKIP
>>> with LocalCluster(n_workers=2, threads_per_worker=1) as local:  # doctest: +SKIP
...     results = list(play_deals_on_cluster(local.scheduler_address, play_one_deal, "rulesets/fichas.yaml", {},
...                                          ["minimax", "random"], [1, 2]))
"""
from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from distributed import Client

from ..agents.bot_process import BotLimits
from ..agents.registry import AGENT_OPTIONS, named_agents
from ..errors import NaipesError
from ..language.vocabulary import AGENT_OPTION_KINDS


def play_deals_on_cluster(address: str, play_one_deal: Callable[[int, tuple], Any], path: str, params: dict[str, str],
                          specs: list[str], seeds: list[int], limits: BotLimits = BotLimits(),
                          timeout: float = 10) -> Iterator[Any]:
    """Play every deal on the cluster at `address` with `play_one_deal(seed, setup)` (the tournament's, run by
    the workers: setup is (path, params, specs, limits)); yields results in deal order."""
    try:
        client = Client(address, timeout=timeout)
    except (OSError, TimeoutError) as error:
        raise NaipesError(f"cannot reach the cluster at {address}: {error}") from None
    specs = [portable(spec) for spec in specs]
    setup = (str(Path(path).resolve()), dict(params), specs, limits)
    files = [setup[0], *(file for spec in specs for file in files_named(spec))]
    with client:
        futures = client.map(play_with_files, seeds, play=play_one_deal, setup=setup, files=files, pure=False)
        try:
            for future in futures:
                yield future.result()
        finally:
            client.cancel(futures)


def play_with_files(deal_seed: int, play: Callable[[int, tuple], Any], setup: tuple, files: list[str]) -> Any:
    """On a worker: play one deal once the files it needs are found there."""
    missing = next((file for file in files if not Path(file).is_file()), None)
    if missing is not None:
        raise NaipesError(f"the worker on {socket.gethostname()} has no file {missing}: every worker needs the "
                          "rule file, strategies and bots at the paths the tournament names")
    return play(deal_seed, setup)


def portable(spec: str) -> str:
    """An agent's name as a worker in another directory reads it: the files it names by a path relative to
    this directory (a strategy file, a ``python:`` bot, an ``ismcts`` policy) by their absolute paths;
    built-in agents and the levels of a game by name, as they are (each worker finds its own)."""
    if spec.startswith("python:"):
        bot, _, class_name = spec.removeprefix("python:").rpartition(":")
        return f"python:{Path(bot).resolve()}:{class_name}" if bot else spec
    name, colon, options = spec.partition(":")
    if name in AGENT_OPTION_KINDS and colon:  # (the agents its options name: policy=, infer=)
        items = (item.partition("=") for item in options.split(","))
        return f"{name}:" + ",".join(f"{key}={portable(value.strip()) if key.strip() in AGENT_OPTIONS else value}"
                                     if eq else key for key, eq, value in items)
    return _absolute(spec)


def files_named(spec: str) -> list[str]:
    """The files a portable agent name needs on a worker: its own, and those of the agents its options name."""
    found = []
    for name in named_agents(spec):
        if name.startswith("python:"):
            found.append(name.removeprefix("python:").rpartition(":")[0])
        elif Path(name).suffix in (".yaml", ".yml") and Path(name).is_absolute():
            found.append(name)
    return found


def _absolute(name: str) -> str:
    """A strategy file named by a path that exists here, by its absolute path; any other name as it is."""
    path = Path(name.strip())
    return str(path.resolve()) if path.suffix in (".yaml", ".yml") and path.exists() else name
