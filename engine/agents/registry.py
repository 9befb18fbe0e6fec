"""The players: every seat is an agent with ``choose(decision) -> Option``.

Built-in agents, named on the command line with ``--seat NAME``:

``random``
    a uniformly random legal option (seeded: reproducible).
``minimax``
    exhaustive memoised search (:mod:`naipes.agents.search`), for perfect-information
    rule files; ties between equally good options are broken by the seeded
    generator.
``ismcts``
    information-set Monte Carlo tree search (:mod:`naipes.agents.ismcts`), for any
    rule file; options ``ismcts:iterations=200,seconds=0.5,policy=LEVEL``.
``pimc``
    perfect-information Monte Carlo (:mod:`naipes.agents.pimc`): worlds of the hidden
    cards, weighted by the others' choices, each solved open-handed; options
    ``pimc:worlds=20,seconds=1,model=maxn,nodes=5000,infer=LEVEL``.
a strategy file
    ``strategies/GAME/LEVEL.yaml`` or its short name ``LEVEL`` (:mod:`naipes.language.strategies`).
``human``
    the terminal: the position, the numbered legal options; answer with a
    number or an option's name; ``help`` and ``quit`` always work.
``python:path/to/bot.py:ClassName``
    a Python bot (:mod:`naipes.bots`), run in a process of its own.

Only the command line starts a Python bot: :func:`make_agent` starts one only when told that the name is the
person's own words (``typed=True``), and the agents a typed name's options name (``policy=``, ``infer=``) are typed
with it; every other name (a strategy's ``default:``, a rule file's ``players: ai:``, a log's seats, a web page's
request) is not, whatever reads it. A file may name a bot: ``naipes check`` then reads the bot's file as text
(:func:`~naipes.agents.bot_seat.check_bot_reference`: it exists, parses, defines the class) and never runs it,
and a game refuses it with an error that says how to seat it from the command line.
"""
from __future__ import annotations

import contextlib
import hashlib
import random
import re
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from pathlib import Path

from ..errors import ParamError, RuleError, RuleErrors, did_you_mean
from ..language.loader import Map, Seq, Text, load_tree
from ..language.strategies import Strategy, compile_strategy, strategy_path
from ..language.vocabulary import AGENT_NAMES, agent_options
from ..program import Program
from ..runtime.game import Agent, Decision, Option
from .bot_process import BotLimits
from .bot_seat import check_bot_reference, make_bot_seat
from .human import HumanAgent
from .ismcts import make_ismcts
from .levels import ai_levels
from .pimc import make_pimc
from .random_play import RandomAgent
from .search import Solver
from .strategy import StrategyAgent

MINIMAX_POSITIONS = 100_000  # (the full chip board: 65 positions; a random 50-chip board, 315,000: naipes solve)


class MinimaxAgent:
    """Perfect play by exhaustive search (perfect-information games only), of at most MINIMAX_POSITIONS positions a
    decision: a seat a file or a page names may not search for ever (a game too large says so and ends)."""

    name = "minimax"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)
        self.solver = Solver(MINIMAX_POSITIONS)

    def reseed(self, seed: int) -> None:
        self.rng.seed(seed)

    def choose(self, decision: Decision) -> Option:
        game = decision.simulator()
        return self.rng.choice(self.solver.best(game))


AGENTS: dict[str, Callable[..., Agent]] = {  # by name: (seed, program, make_policy, options) -> agent
    "random": lambda seed=None, program=None, make_policy=None, options=None: RandomAgent(seed),
    "minimax": lambda seed=None, program=None, make_policy=None, options=None: MinimaxAgent(seed),
    "ismcts": make_ismcts,  # see naipes.agents.ismcts
    "pimc": make_pimc,  # see naipes.agents.pimc
    "human": lambda seed=None, program=None, make_policy=None, options=None: HumanAgent(),  # see naipes.agents.human
}
assert tuple(AGENTS) == AGENT_NAMES, "naipes.language.vocabulary.AGENT_NAMES lists the built-in agents"


def make_agent(spec: str, seed: int | None = None, program: Program | None = None,
               bot_limits: BotLimits = BotLimits(), strategies: dict | None = None, *, typed: bool = False) -> Agent:
    """An agent from its command-line name: a built-in (with options: ``ismcts:iterations=200``),
    ``python:path/to/bot.py:ClassName`` (naipes.bots: a process of its own, with `bot_limits`), or, given the
    game's program, a strategy file (a path, ``GAME/LEVEL`` or a level of this game). `strategies`: the
    strategy files compiled so far, by path (seats made together share them: each file is compiled once).
    `typed`: `spec` is the person's own words (the command line, a Python caller's); only then may it, or an agent
    its options name, start a Python bot."""
    if spec.startswith("python:"):
        return python_bot(spec, bot_limits, typed)
    name = spec.partition(":")[0]
    factory = AGENTS.get(name)
    if factory is not None:
        def make_policy(policy: str, policy_seed: int) -> object:
            return make_agent(policy, seed=policy_seed, program=program, typed=typed)
        # (the options as one value: a name written in a file never becomes a keyword of the engine's own)
        return factory(seed=seed, program=program, make_policy=make_policy, options=agent_options(spec))
    path = strategy_path(spec, program) if program is not None else None
    if path is not None and program is not None:
        strategy = strategies.get(path) if strategies is not None else None
        if strategy is None:
            strategy = load_strategy(path, program)
            if strategies is not None:
                strategies[path] = strategy
        return strategy_agent(strategy, seed)
    raise ParamError(unknown_agent(spec, program))


# While a file's text is made into agents: the file (None: the command line's own words), and, for naipes check,
# the Python bots its text names (None: not checking; they are then started, or refused).
_NAMED_BY: ContextVar[str | None] = ContextVar("named_by", default=None)
_CHECKED_BOTS: ContextVar[list[str] | None] = ContextVar("checked_bots", default=None)


class NamedBot:
    """A Python bot a file names, checked as text and not started (what `make_agent` gives while checking)."""

    def __init__(self, spec: str):
        self.name = spec

    def choose(self, decision: Decision) -> Option:
        raise ParamError(f"{self.name} was checked, not started")


def python_bot(spec: str, limits: BotLimits, typed: bool) -> Agent:
    """The Python bot `spec` names, started if the person typed its name; else checked without running it
    (naipes check) or refused."""
    checked = _CHECKED_BOTS.get()
    if checked is not None:
        check_bot_reference(spec)
        checked.append(spec)
        return NamedBot(spec)
    named_by = _NAMED_BY.get()
    if named_by is not None or not typed:
        raise ParamError(f"{named_by or 'a name not typed on the command line'} names the Python bot '{spec}', but "
                         f"only the command line starts one: seat it yourself with --seat {spec}")
    return make_bot_seat(spec, limits)


@contextlib.contextmanager
def named_by(file: str) -> Iterator[None]:
    """Agents made meanwhile come from `file`'s text (a Python bot it names is not started)."""
    token = _NAMED_BY.set(file)
    try:
        yield
    finally:
        _NAMED_BY.reset(token)


@contextlib.contextmanager
def checking() -> Iterator[list[str]]:
    """Agents made meanwhile are checked, not started: a Python bot is read as text (see check_bot_reference);
    yields the list of those met."""
    found: list[str] = []
    token = _CHECKED_BOTS.set(found)
    try:
        yield found
    finally:
        _CHECKED_BOTS.reset(token)


SHIPPED_NAME = re.compile(r"[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)?")  # a built-in agent, or a strategy level by name


def shipped_agent(spec: str) -> bool:
    """Whether `spec` names only what naipes ships: a built-in agent (with options naming only such agents) or a
    strategy level by its name (LEVEL, GAME/LEVEL): no Python bot, no file by its path."""
    return all(SHIPPED_NAME.fullmatch(name.partition(":")[0] if name.partition(":")[0] in AGENTS else name)
               for name in named_agents(spec))


def python_bots(spec: str) -> list[str]:
    """The Python bots `spec` names: itself (python:FILE:CLASS), or in its options (ismcts:policy=...)."""
    return [name for name in named_agents(spec) if name.startswith("python:")]


AGENT_OPTIONS = ("policy", "infer")  # the options of the built-in agents whose values are agents (make_policy's)


def named_agents(spec: str) -> list[str]:
    """`spec` and every agent its options name, and theirs (``ismcts:policy=AGENT,infer=AGENT``), outermost first:
    what every question about what a name would run reads (a Python bot, a person, a file)."""
    found = [spec]
    name, _, options = spec.partition(":")
    if name in AGENTS:
        for item in options.split(","):
            key, _, value = item.partition("=")
            if key.strip() in AGENT_OPTIONS:
                found += named_agents(value.strip())
    return found


def unknown_agent(spec: str, program: Program | None) -> str:
    """Why `spec` names no agent, with what does: the game's AI levels when the game is known."""
    if program is None:
        names = list(AGENTS)
        choices = f"{', '.join(names)}, a strategy file (strategies/GAME/LEVEL.yaml or its short name)"
    else:
        names = [level["name"] for level in ai_levels(program)] + ["human"]
        choices = f"{program.ruleset}'s AI levels ({', '.join(names[:-1])}), human, a strategy file (a path)"
    hint = did_you_mean(spec, names)
    return f"unknown agent '{spec}': choose {choices} or python:FILE.py:CLASS" + (f"; {hint}" if hint else "")


def strategy_agent(strategy: Strategy, seed: int | None = None) -> StrategyAgent:
    """The seat a compiled strategy plays, with the agent its ``default:`` names made when first needed."""
    def fallback() -> object:
        with named_by(f"the strategy {strategy.path}"):
            return make_agent(strategy.default, program=strategy.game)
    return StrategyAgent(strategy, seed, fallback)


_LOADING: list[Path] = []  # strategy files being loaded (a default may name another, never itself)


STRATEGIES_CACHE = "strategies"  # the key of a game program's caches that holds its strategies (load_strategy)
KEPT_STRATEGIES = 32  # strategies a program keeps (the oldest let go first: files edited again and again)


def load_strategy(path: str | Path, game: Program) -> Strategy:
    """Compile a strategy file against a game and check that its ``default:`` agent can be made
    (RuleError(s), located at ``default:``, if not: bad options, defaults that lead back to this file, a Python bot
    (which only the command line starts; within :func:`checking`, it is read as text instead)).

    A strategy loaded once is kept in the game program's caches (a program per set of params), by the path given
    and what was read (the file and the files it extends, each value with where it is written): loading it again
    gives the same Strategy, until a file changes (KEPT_STRATEGIES at most). (Not while checking, which accepts a
    default that a game refuses.)"""
    kept: dict | None = None
    key: tuple | None = None
    if _CHECKED_BOTS.get() is None:
        try:
            key = (str(path), _fingerprint(load_tree(path)))
        except (RuleError, RuleErrors):
            key = None  # (compiling it says what is wrong)
        if key is not None:
            kept = game.caches.setdefault(STRATEGIES_CACHE, {})
            found = kept.get(key)
            if found is not None:
                return found
    strategy = _load_strategy(path, game)
    if kept is not None:
        if len(kept) >= KEPT_STRATEGIES:
            del kept[next(iter(kept))]
        kept[key] = strategy
    return strategy


def _fingerprint(tree: Map) -> str:
    """A digest of a file's tree as the strategy compiler reads it: its values, and where each is written."""
    return hashlib.sha256(repr(_read_as(tree)).encode()).hexdigest()


def _read_as(node: object) -> object:
    if isinstance(node, Map):
        return ("map", getattr(node, "where", None),
                [(_read_as(k), node.key_locs.get(k), node.value_locs.get(k), _read_as(v)) for k, v in node.items()])
    if isinstance(node, Seq):
        return ("seq", getattr(node, "where", None), getattr(node, "item_locs", None), [_read_as(v) for v in node])
    if isinstance(node, Text):
        return ("text", str(node), getattr(node, "loc", None), node.block_indent, node.positions)
    return (type(node).__name__, node)


def _load_strategy(path: str | Path, game: Program) -> Strategy:
    strategy = compile_strategy(path, game)
    if strategy.default in ("first", "random"):
        return strategy
    here = Path(path).resolve()
    if here in _LOADING:
        raise RuleErrors([_DefaultCycle(f"default '{strategy.default}' leads back to this strategy: "
                                        "defaults make a cycle", strategy.default_where)])
    _LOADING.append(here)
    try:
        with named_by("this strategy"):
            make_agent(strategy.default, program=game)
    except (ParamError, RuleError, RuleErrors) as error:
        inner = error.errors[0] if isinstance(error, RuleErrors) else error
        if isinstance(inner, _DefaultCycle):
            raise RuleErrors([_DefaultCycle(f"default '{strategy.default}' leads back to this strategy: "
                                            "defaults make a cycle", strategy.default_where)]) from None
        message = inner.message if isinstance(inner, RuleError) else str(inner)
        raise RuleErrors([RuleError(f"default '{strategy.default}': {message}", strategy.default_where)]) from None
    finally:
        _LOADING.remove(here)
    return strategy


class _DefaultCycle(RuleError):
    """Strategies whose defaults lead back to the first."""
