"""Fuzzing the loader and the interpreter with mutated shipped rule files.

Every rule file in ``rulesets/`` is mutated a few dozen times, and every
strategy file in ``strategies/`` a dozen (seeded, so a failure names a
reproducible mutant): characters and spans deleted, lines duplicated, swapped
or deleted, garbage tokens inserted, indentation changed, numbers replaced by
strings or by odd numbers, names misspelt, operators flipped, values of the
wrong type, control characters, truncation, recursive aliases, tabs, YAML
tags, keys named like the engine's own attributes. For every mutant, loading
must either succeed or raise a :class:`NaipesError` that says where
(``file:line:col: ...``), and a mutant that loads must play a short game (a
strategy at the first seat, random players elsewhere) or fail with a located
:class:`NaipesError`: no traceback, and no error without a location.

The mutants are generated and run once per module (the ``all_outcomes`` fixture); the
tests below look at the collected outcomes from different angles.
"""
from __future__ import annotations

import contextlib
import os
import random
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from naipes import Program, load_program
from naipes.agents.registry import RandomAgent, load_strategy, strategy_agent
from naipes.errors import NaipesError, RuleError, RuleErrors
from naipes.runtime.game import play_game
from naipes.tools.cli import main

from helpers import RULESETS, STRATEGIES

# Mutated params can reach the engine's random module with a float (a DeprecationWarning
# in Python 3.11, a TypeError -> GameError later): not what these tests are about.
# slow: its tests share fixtures that load and play a thousand mutants; one xdist group, so that one worker makes
# them once (pyproject.toml runs the suite with --dist loadgroup)
pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow,
              pytest.mark.xdist_group("fuzz")]

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = sorted(RULESETS.glob("*.yaml"))
STRATEGY_FILES = sorted(STRATEGIES.glob("*/*.yaml"))
STRATEGY_MUTANTS = int(os.environ.get("NAIPES_FUZZ_STRATEGY_MUTANTS", "15"))  # per strategy file
TOTAL_MUTANTS = int(os.environ.get("NAIPES_FUZZ_MUTANTS", "300"))  # spread over the rule files
MAX_DECISIONS = 400  # a mutant whose game runs longer is cut (not a failure)

GARBAGE = ["=", "==", ":", ": ", "(", ")", "[", "]", "{", "}", "'", '"', "#", "- ", ",", "lambda", "_x",
           "__import__", "__class__", ".__dict__", "if", "else", "for", "in", "not", "None", "0", "-1",
           "1/0", "x.y", "&", "@", "\t", "\\", "|", ">", "*", "!", "%", "?", "...", "move", "ask", "end game",
           "let", "\n", "\n  ", "&anchor", "*alias", "!!python/object:os.system", "ünï", "\x00"]


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """One random mutation of `text`: (what was done, the new text)."""
    if rng.random() < 0.4:
        return mutate_shape(text, rng)
    lines = text.split("\n")
    kind = rng.randrange(11)
    if kind == 0:
        i = rng.randrange(len(text))
        return f"delete char {i}", text[:i] + text[i + 1:]
    if kind == 1:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
        return f"duplicate line {i + 1}", "\n".join(lines)
    if kind == 2:
        i = rng.randrange(len(lines) - 1)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
        return f"swap lines {i + 1},{i + 2}", "\n".join(lines)
    if kind == 3:
        i = rng.randrange(len(lines))
        del lines[i]
        return f"delete line {i + 1}", "\n".join(lines)
    if kind == 4:
        i = rng.randrange(len(text) + 1)
        token = rng.choice(GARBAGE)
        return f"insert {token!r} at {i}", text[:i] + token + text[i:]
    if kind == 5:
        i = rng.randrange(len(lines))
        shift = rng.choice([-4, -2, -1, 1, 2, 4])
        line = lines[i]
        indent = len(line) - len(line.lstrip(" "))
        lines[i] = " " * shift + line if shift > 0 else line[min(-shift, indent):]
        return f"indent line {i + 1} by {shift}", "\n".join(lines)
    if kind == 6:
        numbers = list(re.finditer(r"\d+", text))
        if numbers:
            m = rng.choice(numbers)
            new = rng.choice([f"'{m.group()}'", f'"{m.group()}"', "x", "-" + m.group(), "0", "99999", "1.5",
                              "true", "null", '""', "[]", "{}"])
            return f"number {m.group()!r} at {m.start()} -> {new}", text[:m.start()] + new + text[m.end():]
    if kind == 7:
        words = list(re.finditer(r"[A-Za-z_]\w*", text))
        m = rng.choice(words)
        word = m.group()
        new = rng.choice([word[:-1] or "q", word + "x", word.upper(), "_" + word, rng.choice(words).group()])
        return f"word {word!r} at {m.start()} -> {new!r}", text[:m.start()] + new + text[m.end():]
    if kind == 8:
        i = rng.randrange(len(text))
        j = min(len(text), i + rng.randrange(1, 40))
        return f"delete span {i}:{j}", text[:i] + text[j:]
    if kind == 9:
        i = rng.randrange(len(lines))
        j = rng.randrange(len(lines))
        lines.insert(j, lines.pop(i))
        return f"move line {i + 1} to {j + 1}", "\n".join(lines)
    a, b = rng.choice([("==", "!="), ("<", ">="), (">", "<="), ("+", "-"), (" and ", " or "), ("0", "1"),
                       ("(", ""), (")", ""), ("[", ""), (":", ""), ("'", ""), ('"', ""), ("- ", "")])
    spots = [m.start() for m in re.finditer(re.escape(a), text)]
    if spots:
        i = rng.choice(spots)
        return f"replace {a!r} at {i} by {b!r}", text[:i] + b + text[i + len(a):]
    return "unchanged", text


ODD_NUMBERS = ["007", "1" * 30, "2020-13-45", ".inf", ".nan", "-0", "1e400", "0x1F", "1_000", "9" * 5000]
ENGINE_NAMES = ["index", "id", "name", "attributes", "state_slots", "zone_slots", "owner", "phase", "players",
                "__class__", "M", "V"]
YAML_TAGS = ["!!binary ", "!!set ", "!!python/name:os.system ", "!!timestamp ", "!!omap ", "!custom "]


def mutate_shape(text: str, rng: random.Random) -> tuple[str, str]:
    """Mutations of a file's YAML shape: wrong types, control characters, truncation, recursive aliases, tabs,
    odd numbers, keys named like the engine's own attributes, YAML tags."""
    lines = text.split("\n")
    kind = rng.randrange(8)
    if kind == 0:
        spots = list(re.finditer(r": ([^\n{\[|>#]+)$", text, re.M))
        if spots:
            m = rng.choice(spots)
            new = rng.choice(["[1, 2]", "{a: 1}", "[]", "{}", "- x", "null", "[[1]]"])
            return f"value at {m.start(1)} -> {new}", text[:m.start(1)] + new + text[m.end(1):]
    if kind == 1:
        i = rng.randrange(len(text))
        c = chr(rng.choice([1, 2, 7, 8, 11, 12, 14, 27, 127, 0x85, 0xfeff]))
        return f"control {c!r} at {i}", text[:i] + c + text[i:]
    if kind == 2:
        i = rng.randrange(len(text))
        return f"truncate at {i}", text[:i]
    if kind == 3:
        spots = [i for i, line in enumerate(lines) if re.match(r"^\s*[\w\"'(), ]+:\s*$", line)]
        if spots:
            i = rng.choice(spots)
            lines[i] += " &loop"
            j = min(len(lines) - 1, i + 1)
            indent = len(lines[j]) - len(lines[j].lstrip())
            lines.insert(j, " " * max(indent, 2) + "again: *loop")
            return f"recursive alias at line {i + 1}", "\n".join(lines)
    if kind == 4:
        i = rng.randrange(len(lines))
        lines[i] = "\t" + lines[i]
        return f"tab at line {i + 1}", "\n".join(lines)
    if kind == 5:
        numbers = list(re.finditer(r"\b\d+\b", text))
        if numbers:
            m = rng.choice(numbers)
            new = rng.choice(ODD_NUMBERS)
            return f"number {m.group()} -> {new[:20]}", text[:m.start()] + new + text[m.end():]
    if kind == 6:
        keys = list(re.finditer(r"^(\s*)([a-z_]+):", text, re.M))
        if keys:
            m = rng.choice(keys)
            new = rng.choice(ENGINE_NAMES)
            return f"key {m.group(2)} -> {new}", text[:m.start(2)] + new + text[m.end(2):]
    spots = list(re.finditer(r": ", text))
    if spots:
        m = rng.choice(spots)
        tag = rng.choice(YAML_TAGS)
        return f"tag {tag.strip()} at {m.end()}", text[:m.end()] + tag + text[m.end():]
    return "unchanged", text


def _sub_first(pattern: str, replacement: str):
    def change(text: str) -> str | None:
        new = re.sub(pattern, replacement, text, count=1, flags=re.M)
        return new if new != text else None
    return change


# Deterministic mutants aimed at the shapes of mistake that have crashed the
# loader before (each is applied to every rule file that has the shape).
TARGETED = [
    ("delete the first 'when:' line", _sub_first(r"^[ \t]*when:.*\n", "")),
    ("a param bound becomes text", _sub_first(r"^([ \t]+\w+: *\{.*\btype:.*\b(?:min|max)): *-?\d+", r"\1: low")),
    ("a param bound becomes a list", _sub_first(r"^([ \t]+\w+: *\{.*\btype:.*\b(?:min|max)): *-?\d+", r"\1: [3]")),
    ("a label becomes empty", _sub_first(r"^([ \t]*label:).*$", r'\1 ""')),
    ("a one-line 'then' becomes empty", _sub_first(r"^([ \t]*then:) *[\"'].*$", r'\1 ""')),
    ("the players' min becomes null", _sub_first(r"^(players:.*\bmin:) *\d+", r"\1 null")),
    ("a ':' is lost in the card attributes", _sub_first(r"^([ \t]*attributes: *\{[^}]*\w): ", r"\1 ")),
    ("a rule loses its name", _sub_first(r"^([ \t]*- )name: *\w+\n[ \t]*", r"\1")),
]


class _LongGame(Exception):
    """Raised by the capped agents when a mutant's game goes on too long."""


class CappedRandom(RandomAgent):
    def __init__(self, seed: int, budget: list[int]):
        super().__init__(seed)
        self.budget = budget

    def choose(self, decision):
        self.budget[0] -= 1
        if self.budget[0] < 0:
            raise _LongGame()
        return super().choose(decision)


@dataclass
class Outcome:
    source: Path
    seed: int
    mutations: list[str]
    path: Path
    text: str
    load_error: BaseException | None = None
    loaded: bool = False
    play_error: BaseException | None = None
    played: bool = False

    def describe(self) -> str:
        return f"{self.source.name} seed {self.seed}: {'; '.join(self.mutations)}"


def make_mutant(source: Path, seed: int, folder: Path) -> Outcome:
    rng = random.Random(f"{source.name}:{seed}")
    text = source.read_text(encoding="utf-8")
    mutations = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        what, text = mutate(text, rng)
        mutations.append(what)
    path = folder / f"{source.stem}_m{seed}.yaml"
    path.write_text(text, encoding="utf-8")
    return Outcome(source, seed, mutations, path, text)


def run_mutant(outcome: Outcome, game: Program | None = None) -> None:
    """Load the mutant (a rule file, or with `game` a strategy for it) and play a short game with it."""
    try:
        if game is None:
            program, strategy = load_program(outcome.path, {}), None
        else:
            program, strategy = game, load_strategy(outcome.path, game)
    except Exception as exc:  # noqa: BLE001 - every exception is examined by the tests
        outcome.load_error = exc
        return
    outcome.loaded = True
    seats = program.players[2]
    if not 1 <= seats <= 8:
        return
    budget = [MAX_DECISIONS]
    agents = [CappedRandom(outcome.seed * 10 + i, budget) for i in range(seats)]
    if strategy is not None:
        agents[0] = strategy_agent(strategy, outcome.seed)
    try:
        play_game(program, agents, seed=outcome.seed)
        outcome.played = True
    except _LongGame:
        outcome.played = True
    except Exception as exc:  # noqa: BLE001
        outcome.play_error = exc


@pytest.fixture(scope="module")
def all_outcomes(tmp_path_factory) -> tuple[Outcome, ...]:
    """Every mutant of every rule file, loaded and (if it loads) played once."""
    folder = tmp_path_factory.mktemp("mutants")
    # the unmutated files sit beside the mutants, so that a mutated variant
    # still finds the base it extends
    for source in RULE_FILES:
        (folder / source.name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    per_file = max(30, TOTAL_MUTANTS // max(len(RULE_FILES), 1))
    found = []
    for source in RULE_FILES:
        for seed in range(per_file):
            outcome = make_mutant(source, seed, folder)
            run_mutant(outcome)
            found.append(outcome)
        original = source.read_text(encoding="utf-8")
        for k, (what, change) in enumerate(TARGETED):
            text = change(original)
            if text is None:
                continue
            path = folder / f"{source.stem}_t{k}.yaml"
            path.write_text(text, encoding="utf-8")
            outcome = Outcome(source, -1 - k, [what], path, text)
            run_mutant(outcome)
            found.append(outcome)
    return tuple(found)


@pytest.fixture(scope="module")
def strategy_outcomes(tmp_path_factory) -> tuple[Outcome, ...]:
    """Mutants of every strategy file, loaded against their game and (if they load) playing a seat once."""
    folder = tmp_path_factory.mktemp("strategy_mutants")
    games: dict[str, Program] = {}
    found = []
    for source in STRATEGY_FILES:
        level_folder = folder / source.parent.name  # beside the unmutated levels it may extend
        level_folder.mkdir(exist_ok=True)
        for level in source.parent.glob("*.yaml"):
            (level_folder / level.name).write_text(level.read_text(encoding="utf-8"), encoding="utf-8")
        game = games.setdefault(source.parent.name, load_program(RULESETS / f"{source.parent.name}.yaml"))
        for seed in range(STRATEGY_MUTANTS):
            outcome = make_mutant(source, seed, level_folder)
            run_mutant(outcome, game)
            found.append(outcome)
    return tuple(found)


def unlocated(exc: BaseException | None) -> bool:
    """Whether an error lacks a location: a traceback, or a Naipes error that does not say where."""
    if exc is None:
        return False
    if isinstance(exc, RuleErrors):
        return any(e.location is None for e in exc.errors)
    return not isinstance(exc, RuleError) or exc.location is None


def rule_errors(exc: BaseException) -> list[RuleError]:
    if isinstance(exc, RuleErrors):
        return exc.errors
    if isinstance(exc, RuleError):
        return [exc]
    return []


# ==================================================================== tests
def test_there_are_rule_files_to_fuzz():
    assert RULE_FILES, "no rule files in rulesets/"
    assert any(p.name == "fichas.yaml" for p in RULE_FILES)


def test_the_shipped_rule_files_load_and_play_unmutated():
    # the control: without mutations every file loads and plays
    for source in RULE_FILES:
        program = load_program(source, {})
        budget = [MAX_DECISIONS]
        with contextlib.suppress(_LongGame):
            play_game(program, [CappedRandom(i, budget) for i in range(program.players[2])], seed=1)


def test_mutations_are_reproducible_from_the_seed(tmp_path):
    source = RULE_FILES[0]
    a = make_mutant(source, 7, tmp_path)
    b = make_mutant(source, 7, tmp_path)
    assert a.text == b.text and a.mutations == b.mutations
    assert a.text != source.read_text(encoding="utf-8") or a.mutations == ["unchanged"]


def test_every_mutant_loads_or_fails_with_a_naipes_error(all_outcomes):
    unknown = [(o.describe(), f"{type(o.load_error).__name__}: {o.load_error}")
               for o in all_outcomes
               if o.load_error is not None and not isinstance(o.load_error, NaipesError)]
    assert not unknown, unknown


def test_located_load_errors_print_file_line_col_first(all_outcomes):
    checked = 0
    for o in all_outcomes:
        for error in rule_errors(o.load_error):
            if error.location is None:
                continue
            checked += 1
            loc = error.location
            # in the mutant, or in an (unmutated) base file it extends
            assert loc.file == str(o.path) or Path(loc.file).parent == o.path.parent, o.describe()
            assert str(error).startswith(f"{loc.file}:{loc.line}:{loc.col}:"), (o.describe(), str(error))
            # the position is inside the file it names (one past the last line for "end of file");
            # a variant's error may lie in its base, or in the base's base
            text = o.text if loc.file == str(o.path) else Path(loc.file).read_text(encoding="utf-8")
            assert 1 <= loc.line <= text.count("\n") + 2, (o.describe(), str(error))
            assert loc.col >= 1, (o.describe(), str(error))
            assert "Traceback" not in str(error)
    assert checked > 50  # the fuzzer does produce located errors


def test_every_error_of_a_mutant_is_located(all_outcomes):
    # loading and playing: a rule-file error says file:line:col, and so does a fault while the game runs
    bad = [(o.describe(), f"{type(e).__name__}: {str(e).splitlines()[0]}")
           for o in all_outcomes for e in (o.load_error, o.play_error) if unlocated(e)]
    assert not bad, bad


def test_every_error_of_a_strategy_mutant_is_located(strategy_outcomes):
    bad = [(o.describe(), f"{type(e).__name__}: {str(e).splitlines()[0]}")
           for o in strategy_outcomes for e in (o.load_error, o.play_error) if unlocated(e)]
    assert not bad, bad
    # neither outcome is vacuous: strategy mutants both break and keep playing
    assert sum(o.load_error is not None for o in strategy_outcomes) >= len(strategy_outcomes) // 5
    assert sum(o.played for o in strategy_outcomes) >= len(strategy_outcomes) // 5


def test_the_shape_mutations_are_all_exercised():
    rng = random.Random(1)
    text = (RULESETS / "fichas.yaml").read_text(encoding="utf-8")
    kinds = {mutate_shape(text, rng)[0].split()[0] for _ in range(300)}
    assert kinds == {"value", "control", "truncate", "recursive", "tab", "number", "key", "tag"}


def test_every_loaded_mutant_plays_or_fails_with_a_naipes_error(all_outcomes):
    bad = [(o.describe(), f"{type(o.play_error).__name__}: {o.play_error}")
           for o in all_outcomes if o.play_error is not None and not isinstance(o.play_error, NaipesError)]
    assert not bad, bad


def test_the_fuzzer_exercises_both_outcomes(all_outcomes):
    assert len(all_outcomes) >= min(TOTAL_MUTANTS, 30 * len(RULE_FILES))
    failed = sum(1 for o in all_outcomes if o.load_error is not None)
    played = sum(1 for o in all_outcomes if o.played)
    # mutants both break files and leave some playable: neither outcome is vacuous
    assert failed >= len(all_outcomes) // 5
    assert played >= len(all_outcomes) // 10


def test_the_targeted_mutants_apply_to_the_chip_game(all_outcomes):
    # a control: the targeted mutations do match the shipped chip game
    applied = {o.mutations[0] for o in all_outcomes if o.seed < 0 and o.source.name == "fichas.yaml"}
    assert applied == {what for what, _ in TARGETED}


# ======================================================= the check command
def cli_check(path: Path):
    return CliRunner().invoke(main, ["check", str(path)])


def test_naipes_check_on_mutants_reports_without_traceback(all_outcomes):
    candidates = [o for o in all_outcomes if o.load_error is None or isinstance(o.load_error, NaipesError)]
    failing = [o for o in candidates if o.load_error is not None][:8]
    loading = [o for o in candidates if o.loaded][:4]
    assert failing and loading
    for o in failing + loading:
        result = cli_check(o.path)
        assert "Traceback" not in result.output, o.describe()
        assert result.exception is None or isinstance(result.exception, SystemExit), (o.describe(), result.exception)
        assert result.exit_code in (0, 1), o.describe()
        if o.load_error is None:
            continue
        assert result.exit_code == 1, o.describe()
        errors = rule_errors(o.load_error)
        located = [e for e in errors if e.location is not None]
        if located:
            loc = located[0].location
            assert f"{loc.file}:{loc.line}:{loc.col}:" in result.output, o.describe()


def test_naipes_check_subprocess_on_several_mutants(all_outcomes):
    # the real command, several files at once: every file is reported, no traceback
    candidates = [o for o in all_outcomes if isinstance(o.load_error, NaipesError)][:3]
    exe = Path(sys.executable).with_name("naipes")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "naipes.tools.cli"]
    done = subprocess.run(command + ["check"] + [str(o.path) for o in candidates],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 1
    assert "Traceback" not in done.stdout + done.stderr
    for o in candidates:
        assert str(o.path) in done.stdout + done.stderr


def test_naipes_check_on_a_rule_without_when(tmp_path):
    source = (RULESETS / "fichas.yaml").read_text(encoding="utf-8")
    mutant = "\n".join(line for line in source.split("\n") if line.strip() != 'when: "len(table) == 0"')
    assert mutant != source
    path = tmp_path / "no_when.yaml"
    path.write_text(mutant, encoding="utf-8")
    exe = Path(sys.executable).with_name("naipes")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "naipes.tools.cli"]
    done = subprocess.run(command + ["check", str(path)], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert "Traceback" not in done.stdout + done.stderr
    assert done.returncode in (0, 1)
