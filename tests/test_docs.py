"""The documentation names only what exists, and every shipped game has its page.

A path in backquotes or in a link (`rulesets/pocha.yaml`, `runtime/game.py`, [x](docs/engine.md)) must be a
file or folder of the repository (paths under engine/ and examples/ may be given from there); a module
(`naipes.tools.replay`, `naipes.bridges.openspiel.load_game`) must be a module of engine/, or a name in one; a
bare file name (`melds.py`) must be somewhere in the repository.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", ROOT / "benchmarks" / "README.md", *(ROOT / "docs").rglob("*.md")])
BASES = (ROOT, ROOT / "engine", ROOT / "engine" / "web", ROOT / "examples")
PACKAGES = {"naipes.rulesets": ROOT / "rulesets", "naipes.strategies": ROOT / "strategies"}  # pyproject's package-dir
# a path: words joined by '/', ending in a file name with a known suffix or in '/'; no placeholders (GAME)
PATH = re.compile(r"^\.?[a-z0-9_.-]+(/[a-z0-9_.-]+)*(/|\.(py|yaml|md|json|txt|toml|js|css|html|jsonl|gz))$")
MODULE = re.compile(r"^naipes(\.[a-z_][a-z0-9_]*)+$")
FILE = re.compile(r"^[a-z0-9_]+\.(py|yaml|lark)$")  # a bare file name: somewhere in the repository
EVERY_FILE = {p.name for p in ROOT.rglob("*") if ".venv" not in p.parts and ".git" not in p.parts}


def named(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    quoted = re.findall(r"`([^`\s]+)`", text)
    linked = [target.split("#")[0] for target in re.findall(r"\]\(([^)\s]+)\)", text) if "://" not in target]
    return {name.rstrip(".,:;") for name in quoted + linked if name}


def exists(path: str, page: Path) -> bool:
    relative = path.removeprefix("./")
    return any((base / relative).exists() for base in (*BASES, page.parent))


def module_exists(name: str) -> bool:
    if name in PACKAGES:
        return (PACKAGES[name] / "__init__.py").exists()
    parts = name.split(".")[1:]
    for cut in range(len(parts), 0, -1):  # the longest prefix that is a module; the rest is a name in it
        folder = ROOT / "engine" / Path(*parts[:cut])
        source = folder.with_suffix(".py") if folder.with_suffix(".py").exists() else folder / "__init__.py"
        if source.exists():
            rest = parts[cut:]
            text = source.read_text(encoding="utf-8")
            defined = len(rest) == 1 and re.search(rf"^(def|class) {rest[0]}\b|^{rest[0]}\b", text, re.M) is not None
            return not rest or defined
    return False


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_and_module_a_page_names_exists(page):
    names = named(page)
    missing = sorted(n for n in names if "/" in n and PATH.match(n) and not n.startswith("/") and not exists(n, page))
    missing += sorted(n for n in names if MODULE.match(n) and not module_exists(n))
    missing += sorted(n for n in names if FILE.match(n) and n not in EVERY_FILE)
    assert not missing, f"{page.relative_to(ROOT)} names what does not exist: {missing}"


def test_the_check_finds_a_missing_file_and_module():
    page = ROOT / "README.md"
    assert exists("rulesets/pocha.yaml", page) and exists("runtime/game.py", page) and exists("docs/", page)
    assert not exists("engine/interpreter.py", page) and not exists("stdlib.py", page)
    assert module_exists("naipes.tools.replay") and module_exists("naipes.tools.replay.Replay")
    assert not module_exists("naipes.interpreter") and not module_exists("naipes.tools.nowhere")
    assert "melds.py" in EVERY_FILE and "interpreter.py" not in EVERY_FILE


@pytest.mark.parametrize("path", sorted((ROOT / "rulesets").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_shipped_rule_file_has_its_rules_in_docs_games(path):
    """Its own page, or its base's page names it (a variant)."""
    pages = {page.stem: page.read_text(encoding="utf-8") for page in (ROOT / "docs" / "games").glob("*.md")}
    assert path.stem in pages or any(f"{path.name}`" in text for text in pages.values()), \
        f"no page of docs/games/ gives the rules of {path.name}"


def test_ci_runs_the_readmes_test_command_first():
    """.ci/run's first run of the tests is the README's test command: the same install, not editable (CI adds
    extras), and the same pytest command, with no editable install between them."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    (command,) = [line for line in readme if line.startswith("python3 -m venv .venv &&") and "pytest" in line]
    _, install, test = (part.strip() for part in command.split("&&"))
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    installs = [line for line in ci[:ci.index(test)] if line.startswith(".venv/bin/pip install")]
    extras = re.compile(r"'\.\[([a-z0-9,]+)\]'")
    (ci_install,) = [line for line in installs if extras.search(line)]
    assert extras.sub("'.'", ci_install) == extras.sub("'.'", install), (ci_install, install)
    assert set(extras.search(install)[1].split(",")) <= set(extras.search(ci_install)[1].split(","))
    assert not [line for line in installs if " -e " in line]


def test_nothing_cites_a_document_the_repository_does_not_hold():
    cited = re.compile(r"GAMES\.md|DESIGN\.md|\.\./shared|seed 00[0-9]|seed [0-9]\.[0-9]")
    sources = [p for folder in ("engine", "rulesets", "strategies", "tests", "docs", "benchmarks", "examples")
               for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".yaml", ".md", ".js", ".html")]
    citing = [str(p.relative_to(ROOT)) for p in [*sources, ROOT / "README.md"]
              if p != Path(__file__).resolve() and cited.search(p.read_text(encoding="utf-8"))]
    assert not citing
