"""The examples in the engine's docstrings run (they are documentation that must stay true)."""
import doctest
import importlib
import pkgutil

import pytest

import naipes

MODULES = sorted(m.name for m in pkgutil.walk_packages(naipes.__path__, "naipes."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
