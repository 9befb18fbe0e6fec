"""Fixtures shared by the test files (plain helper functions are in helpers.py)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import write_rules


@pytest.fixture
def rule_file(tmp_path: Path) -> Callable[..., Path]:
    """rule_file(TEXT, name="g.yaml", tail=""): TEXT dedented into a rule file in this test's tmp_path."""
    def write(text: str, name: str = "g.yaml", tail: str = "") -> Path:
        return write_rules(tmp_path, text, name, tail)
    return write
