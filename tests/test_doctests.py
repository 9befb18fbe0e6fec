"""The examples in the engine's docstrings run (they are documentation that must stay true)."""
import doctest
import importlib
import pkgutil

import pytest

import naipes

MODULES = sorted(m.name for m in pkgutil.walk_packages(naipes.__path__, "naipes."))
# modules of the optional extras, and what each needs
OPTIONAL = {"naipes.bridges.openspiel": "pyspiel", "naipes.bridges.pettingzoo": "pettingzoo",
            "naipes.tools.cluster": "distributed",
            "naipes.web.app": "starlette", "naipes.web.replay": "starlette", "naipes.web.server": "uvicorn",
            "naipes.web.guard": "starlette", "naipes.web.games": "starlette", "naipes.web.logs": "starlette"}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, monkeypatch, tmp_path):
    if name in OPTIONAL:
        pytest.importorskip(OPTIONAL[name], reason=f"{name} needs an optional extra (see pyproject.toml)")
    monkeypatch.chdir(tmp_path)  # (away from the checkout: the examples must run for whoever installed naipes)
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


# the modules whose examples show the public API: they must run, not be marked +SKIP
RUNNING = ["naipes", "naipes.errors", "naipes.runtime.game", "naipes.agents.search", "naipes.tools.scenario",
           "naipes.tools.catalogue", "naipes.bridges.actions"]


@pytest.mark.parametrize("name", RUNNING)
def test_the_public_api_examples_are_run(name):
    module = importlib.import_module(name)
    if not str(module.__file__).endswith(".py"):  # (mypyc keeps no examples a test could find)
        pytest.skip(f"{name} is compiled by mypyc: its examples run with the plain Python sources")
    examples = [example for test in doctest.DocTestFinder().find(module) for example in test.examples]
    assert examples, f"{name} has no docstring examples"
    skipped = [example.source for example in examples if example.options.get(doctest.SKIP)]
    assert not skipped, f"{name}: examples marked +SKIP: {skipped}"
