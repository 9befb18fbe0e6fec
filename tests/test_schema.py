"""The JSON Schemas: every shipped file validates, and the schema and the loader agree on mutants."""
from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from naipes import NaipesError, load_program
from naipes.agents.registry import load_strategy
from naipes.tools.cli import main
from naipes.tools.schema import rule_file_schema, strategy_file_schema

from helpers import RULESETS, STRATEGIES, shipped_program, yaml_text

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test extra: pip install -e '.[test]'")

RULE_FILES = sorted(RULESETS.glob("*.yaml"))
STRATEGY_FILES = sorted(STRATEGIES.glob("*/*.yaml"))


def as_json(path: Path) -> dict:
    """A YAML file as an editor's schema checker sees it (JSON: every key a string)."""
    return json.loads(json.dumps(yaml.safe_load(path.read_text(encoding="utf-8")), default=str))


def errors(schema: dict, data: dict) -> list[str]:
    return [error.message for error in jsonschema.Draft202012Validator(schema).iter_errors(data)]


def test_the_schemas_are_valid_json_schemas() -> None:
    for schema in (rule_file_schema(), strategy_file_schema()):
        jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.stem)
def test_every_shipped_rule_file_validates(path: Path) -> None:
    assert errors(rule_file_schema(), as_json(path)) == []


@pytest.mark.parametrize("path", STRATEGY_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_shipped_strategy_file_validates(path: Path) -> None:
    assert errors(strategy_file_schema(), as_json(path)) == []


def test_naipes_schema_prints_both_schemas() -> None:
    runner = CliRunner()
    rules = runner.invoke(main, ["schema"])
    strategy = runner.invoke(main, ["schema", "strategy"])
    assert rules.exit_code == 0 and json.loads(rules.output) == rule_file_schema()
    assert strategy.exit_code == 0 and json.loads(strategy.output) == strategy_file_schema()
    assert runner.invoke(main, ["schema", "nonsense"]).exit_code == 2


def test_an_override_may_take_a_key_away_with_null(tmp_path: Path) -> None:
    # docs/language.md: a key an override gives as null (when: ~) is taken away; the loader takes it, so must the
    # schema (an editor flagged it)
    variant = {"extends": "fichas", "override": [{"name": "last_chip_wins", "when": None, "doc": None}]}
    strategy = {"game": "fichas", "extends": "greedy", "override": [{"name": "take_the_largest_group", "when": None}]}
    assert errors(rule_file_schema(), variant) == [] and errors(strategy_file_schema(), strategy) == []
    assert errors(rule_file_schema(), {**variant, "override": [{"name": None}]}) != []  # (but its name)
    (tmp_path / "v.yaml").write_text(yaml_text(variant), encoding="utf-8")
    assert load_program(tmp_path / "v.yaml").rules


# ------------------------------------------------------------------ mutants
def first(mapping: dict) -> str:
    return next(iter(mapping))


def rule_file_mutants(data: dict) -> list[tuple[str, dict, bool]]:
    """(what, mutated file, still valid?) for one rule file."""
    out = []

    def mutant(what: str, valid: bool, change) -> None:
        copy_ = copy.deepcopy(data)
        if change(copy_) is not False:
            out.append((what, copy_, valid))

    mutant("unknown section", False, lambda d: d.update(bogus_section=1))
    mutant("max_firings zero", False, lambda d: d.update(max_firings=0))
    mutant("unknown strategy", False, lambda d: d.update(strategy="alphabetical"))
    mutant("players below one", False, lambda d: d.update(players={"min": 0, "max": 4}))
    mutant("unknown players key", False, lambda d: d.update(players={"min": 2, "seats": 3}))
    if isinstance(data.get("moves"), dict):
        name = first(data["moves"])
        mutant("unknown move key", False, lambda d: d["moves"][name].update(chose="x in []"))
        mutant("move docs removed", True, lambda d: [m.pop("doc", None) for m in d["moves"].values()])
    if isinstance(data.get("zones"), dict):
        name = first(data["zones"])
        mutant("bad zone visibility", False, lambda d: d["zones"].update({name: {"visibility": "sideways"}}))
        mutant("unknown zone key", False, lambda d: d["zones"].update({name: {"visibility": "public", "colour": 1}}))
    if isinstance(data.get("rules"), list) and data["rules"]:
        mutant("rule priority as text", False, lambda d: d["rules"][0].update(priority="high"))
        mutant("rule without a name", False, lambda d: d["rules"][0].pop("name"))
        mutant("unknown rule key", False, lambda d: d["rules"][0].update(salience=3))
    if isinstance(data.get("params"), dict) and data["params"]:
        name = first(data["params"])
        mutant("unknown param type", False, lambda d: d["params"].update({name: {"type": "complex", "default": 1}}))
        mutant("unknown param key", False, lambda d: d["params"].update({name: {"default": 1, "unit": "cm"}}))
    cards = data.get("cards")
    if isinstance(cards, dict) and isinstance(cards.get("tables"), dict) and cards["tables"]:
        table = first(cards["tables"])
        mutant("unknown card table key", False, lambda d: d["cards"]["tables"][table].update(scale=2))
        mutant("unknown cards key", False, lambda d: d["cards"].update(jokers=2))
    return out


def loader_accepts(path: Path) -> bool:
    try:
        load_program(path)
        return True
    except NaipesError:
        return False


@pytest.mark.slow
@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.stem)
def test_schema_and_loader_agree_on_rule_file_mutants(path: Path, tmp_path: Path) -> None:
    for other in RULE_FILES:  # variants find their base file beside them
        shutil.copy(other, tmp_path / other.name)
    mutants = rule_file_mutants(as_json(path))
    assert len(mutants) >= 5
    for what, data, valid in mutants:
        target = tmp_path / path.name
        target.write_text(yaml_text(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        by_schema = errors(rule_file_schema(), as_json(target)) == []
        assert by_schema == valid, f"{path.name}, {what}: the schema says {by_schema}"
        assert loader_accepts(target) == valid, f"{path.name}, {what}: the loader says {not valid}"


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in STRATEGY_FILES if p.parent.name in ("pocha", "tute_cabrero")],
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_schema_and_loader_agree_on_strategy_file_mutants(path: Path, tmp_path: Path) -> None:
    game = shipped_program(path.parent.name)
    folder = tmp_path / "strategies" / path.parent.name
    shutil.copytree(path.parent, folder)
    data = as_json(path)
    rule = 0 if data.get("rules") else None
    mutants = [("unknown section", False, {**data, "tactics": []}),
               ("unknown strategy", False, {**data, "strategy": "alphabetical"}),
               ("description removed", True, {k: v for k, v in data.items() if k != "description"})]
    if rule is not None:
        broken = copy.deepcopy(data)
        broken["rules"][rule]["salience"] = 1
        mutants.append(("unknown rule key", False, broken))
    for what, valid, mutated in mutants:
        target = folder / path.name
        target.write_text(yaml_text(mutated, allow_unicode=True, sort_keys=False), encoding="utf-8")
        by_schema = errors(strategy_file_schema(), as_json(target)) == []
        try:
            load_strategy(target, game)
            by_loader = True
        except NaipesError:
            by_loader = False
        assert (by_schema, by_loader) == (valid, valid), f"{path}, {what}: schema {by_schema}, loader {by_loader}"
