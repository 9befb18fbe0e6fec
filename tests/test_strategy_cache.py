"""load_strategy keeps what it compiled in the game program's caches: the same file against the same program is
compiled once; a changed file (or one it extends), or a program of other params, is compiled afresh."""
from __future__ import annotations

from naipes.agents import registry
from naipes.agents.registry import checking, load_strategy, make_agent

from helpers import STRATEGIES
from helpers import shipped_program as program_for


def counting(monkeypatch) -> list:
    compiled: list = []
    real = registry.compile_strategy

    def compile_strategy(path, game):
        compiled.append(str(path))
        return real(path, game)
    monkeypatch.setattr(registry, "compile_strategy", compile_strategy)
    return compiled


def test_a_strategy_is_compiled_once_per_program_and_file(monkeypatch, tmp_path):
    compiled = counting(monkeypatch)
    program = program_for("pocha")
    path = tmp_path / "mine.yaml"
    path.write_text("game: pocha\nrules:\n  - {name: first_card, move: play, choose: 'options[0]'}\n")
    first = load_strategy(path, program)
    assert load_strategy(path, program) is first and len(compiled) == 1
    assert load_strategy(path, program_for("pocha", peak="3")) is not first and len(compiled) == 2  # other params
    path.write_text("game: pocha\nrules:\n  - {name: last_card, move: play, choose: 'options[-1]'}\n")
    changed = load_strategy(path, program)
    assert changed is not first and len(compiled) == 3
    assert [r.name for r in changed.program.rules] == ["last_card"]
    path.write_text("# a comment moves every line down\n" + path.read_text())
    assert load_strategy(path, program) is not changed and len(compiled) == 4  # (its locations changed)


def test_a_changed_base_compiles_its_variant_afresh(monkeypatch, tmp_path):
    compiled = counting(monkeypatch)
    program = program_for("pocha")
    (tmp_path / "base.yaml").write_text("game: pocha\nmemory: {seen: '0'}\n")
    variant = tmp_path / "variant.yaml"
    variant.write_text("game: pocha\nextends: base.yaml\n")
    first = load_strategy(variant, program)
    assert load_strategy(variant, program) is first
    (tmp_path / "base.yaml").write_text("game: pocha\nmemory: {seen: '0', kept: '1'}\n")
    assert {v.name for v in load_strategy(variant, program).memory} == {"seen", "kept"} and len(compiled) == 2


def test_search_agents_compile_their_policy_once(monkeypatch):
    compiled = counting(monkeypatch)
    program = program_for("pocha", peak="2")
    for seed in range(3):
        make_agent("pimc:worlds=1,nodes=0", seed=seed, program=program)
    assert compiled.count(str(STRATEGIES / "pocha" / "strong.yaml")) <= 1


def test_checking_compiles_afresh(monkeypatch, tmp_path):
    compiled = counting(monkeypatch)
    program = program_for("pocha")
    path = tmp_path / "mine.yaml"
    path.write_text("game: pocha\n")
    with checking():
        load_strategy(path, program)
        load_strategy(path, program)
    assert len(compiled) == 2
