"""`naipes solve --open`: a position of any rule file solved with every card shown.

The position is a game's start (its seed), a number of decisions into it
played by the rule file's AI, or a step of a logged game. The report: every
card, each player's value (exact with two sides; with more, under the model
named: paranoid, the others play together against him, or max^n, each plays
for himself), every option of the player to move with its value, the best,
and the principal line.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..agents.levels import default_opponent
from ..agents.registry import make_agent
from ..agents.solver import SEARCHES, OpenSolver, Solution
from ..errors import NaipesError
from ..program import Program
from ..runtime.game import Game
from .replay import Replay
from .seating import refuse_people


def open_position(program: Program, seed: int, after: int = 0, log: str | None = None, ruleset: Path | None = None,
                  step: int | None = None) -> tuple[Game, str]:
    """The game to solve and where it comes from: a log's step (the last by default), or the deal of `seed`
    after `after` decisions of the rule file's AI."""
    if log is not None:
        replay = Replay.load(log, ruleset)
        number = replay.steps if step is None else step
        return replay.step(number).game.clone(), f"{log}, step {number}"
    game = Game(program, seed)
    opponent = default_opponent(program)  # (never a Python bot: a rule file's AI names one only as text)
    if after:
        refuse_people(program, [opponent])
    agents = [make_agent(opponent, seed=seed * 1009 + i, program=program)
              for i in range(len(game.memory.players) if after else 0)]
    for seat, agent in enumerate(agents):
        if hasattr(agent, "attach"):
            agent.attach(game, seat)
    game.start()
    for _ in range(after):
        if game.over:
            break
        decision = game.decision()
        game.apply(agents[decision.player].choose(decision))
    return game, f"seed {seed}" + (f", after {after} decisions" if after else "")


def solve_open(game: Game, model: str, depth: int | None = None) -> tuple[Solution, list[float]]:
    """The mover's solution and each player's value (paranoid: one search per player)."""
    if game.over:
        raise NaipesError("the game is over at that position: there is nothing to solve")
    solver = OpenSolver(model, depth=depth)
    solution = solver.solve(game)
    if solution.model == "maxn":
        return solution, list(solution.value)
    values = []
    for seat in range(len(game.memory.players)):
        mine = solution if seat == solution.player else OpenSolver(model, depth=depth).solve(game, seat)
        values.append(mine.value[seat])
    return solution, values


def report(game: Game, solution: Solution, values: list[float]) -> dict[str, Any]:
    """The solution as JSON data."""
    names = [p.name for p in game.memory.players]
    mover = game.mover.index
    return {
        "to_move": names[mover],
        "model": solution.model,
        "about_the_model": SEARCHES[solution.model],
        "values": dict(zip(names, values)),
        "moves": [{"move": option.label,
                   "value": value[mover] if solution.model != "maxn" else dict(zip(names, value))}
                  for option, value in solution.moves],
        "best": [option.label for option in solution.best],
        "line": solution.line,
        "exact": solution.complete,
        "depth": solution.depth,
        "positions": solution.nodes,
    }


def report_lines(data: dict[str, Any]) -> list[str]:
    """The solution as text, after the position."""
    def number(value: float) -> str:
        return f"{value:g}"
    mover = data["to_move"]
    lines = [f"model: {data['model']} ({data['about_the_model']})",
             "value: " + ", ".join(f"{name} {number(v)}" for name, v in data["values"].items()) +
             ("" if data["exact"] else f" (lines cut after {data['depth']} moves, scored by the estimate)"),
             f"{mover} to move:"]
    for entry in data["moves"]:
        value = entry["value"]
        shown = number(value) if not isinstance(value, dict) else ", ".join(
            f"{name} {number(v)}" for name, v in value.items())
        lines.append(f"  {entry['move']}: {shown}")
    lines.append("best: " + ", ".join(data["best"]))
    if data["line"]:
        lines.append("line: " + "; ".join(data["line"]))
    return lines
