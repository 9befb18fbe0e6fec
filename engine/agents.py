"""The players: every seat is an agent with ``choose(decision) -> Option``.

Built-in agents, named on the command line with ``--seat NAME``:

``random``
    a uniformly random legal option (seeded: reproducible).
``minimax``
    exhaustive memoised search (:mod:`engine.search`), for perfect-information
    rule files; ties between equally good options are broken by the seeded
    generator.
``human``
    the terminal: the position, the numbered legal options; answer with a
    number or an option's name; ``help`` and ``quit`` always work.
"""
from __future__ import annotations

import random
from typing import Callable

from .errors import ParamError
from .interpreter import Decision, Option, QuitGame
from .search import Solver


class RandomAgent:
    """Picks a legal option uniformly at random."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, decision: Decision) -> Option:
        return self.rng.choice(decision.options)


class MinimaxAgent:
    """Perfect play by exhaustive search (perfect-information games only)."""

    name = "minimax"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)
        self.solver = Solver()

    def choose(self, decision: Decision) -> Option:
        game = decision.simulator()
        return self.rng.choice(self.solver.best(game))


HELP = """Answer with the number of an option or its name (e.g. 'colour R').
  help   this text
  quit   stop the game (the totals so far are shown)"""


class HumanAgent:
    """A person at the terminal. `ask` and `say` are injectable for tests."""

    name = "human"

    def __init__(self, ask: Callable[[str], str] = input, say: Callable[[str], None] = print):
        self.ask, self.say = ask, say

    def choose(self, decision: Decision) -> Option:
        self.say(render_view(decision.view))
        options = decision.options
        self.say(f"{decision.player_name}, your move:")
        for i, option in enumerate(options, 1):
            self.say(f"  {i:>2}. {option.label}")
        while True:
            try:
                answer = self.ask("> ").strip()
            except EOFError:
                raise QuitGame() from None
            choice = self.interpret(answer, decision)
            if isinstance(choice, Option):
                return choice
            self.say(choice)

    @staticmethod
    def interpret(answer: str, decision: Decision) -> Option | str:
        """The option an answer names, or the text explaining why it names none."""
        options = decision.options
        lowered = answer.lower()
        if lowered in ("quit", "exit", "q"):
            raise QuitGame()
        if lowered in ("help", "?", "h"):
            return HELP
        if not answer:
            return "Type the number or the name of an option ('help' for help)."
        if answer.isdigit():
            number = int(answer)
            if 1 <= number <= len(options):
                return options[number - 1]
            return f"There is no option {number}: choose 1 to {len(options)}."
        exact = [o for o in options if o.label.lower() == lowered]
        prefix = [o for o in options if o.label.lower().startswith(lowered)]
        if exact or len(prefix) == 1:
            return (exact or prefix)[0]
        if len(prefix) > 1:
            return f"'{answer}' could be {', '.join(o.label for o in prefix)}: be more precise."
        reason = decision.explain_illegal_label(answer)
        return f"'{answer}' is not a legal move{': ' + reason if reason else ''}. ('help' for help)"


def render_view(view: dict) -> str:
    """A plain-text picture of what a player sees."""
    lines = []
    if view.get("phase"):
        lines.append(f"phase: {view['phase']}")
    for name, value in view["state"].items():
        lines.append(f"{name}: {_show(value)}")
    for name, zone in view["zones"].items():
        lines.append(f"{name}: {_show(zone)}")
    for player in view["players"]:
        details = ", ".join(f"{k}: {_show(v)}" for k, v in player.items() if k not in ("name", "seat"))
        you = " (you)" if player["seat"] == view["seat"] else ""
        if details or you:
            lines.append(f"{player['name']}{you}{': ' + details if details else ''}")
    return "\n".join(lines)


def _show(value: object) -> str:
    if isinstance(value, list):
        return " ".join(map(str, value)) if value else "-"
    if isinstance(value, dict) and "count" in value:
        top = f", top {value['top']}" if value.get("top") else ""
        return f"{value['count']} cards{top}"
    return "-" if value is None else str(value)


AGENTS: dict[str, Callable[..., object]] = {
    "random": RandomAgent,
    "minimax": MinimaxAgent,
    "human": lambda seed=None: HumanAgent(),
}


def make_agent(spec: str, seed: int | None = None) -> object:
    """An agent from its command-line name."""
    factory = AGENTS.get(spec)
    if factory is None:
        raise ParamError(f"unknown agent '{spec}': choose one of {', '.join(AGENTS)}")
    return factory(seed=seed)
