"""Python-bot seats: what running a bot through its seat costs per decision.

Four bots from examples/pocha_bots (Greedy, Learner, Greedy, Learner) play
rulesets/pocha_static.yaml (cards_each=10, 4 rounds: 176 decisions a game).
Two contenders play the same games in paired rounds:

* ``seated``: the seats the command line makes (``--seat python:FILE:CLASS``),
  with the time limits and the isolation of naipes.bots (its sandbox, where
  bubblewrap is there);
* ``unsandboxed``: the same seats with their workers started without the
  sandbox (as where there is no bubblewrap);
* ``direct``: the same bot classes imported into this process and called
  directly by a minimal adapter (no copies, no limits, no isolation): the
  bots' own cost and the engine's, nothing else.

The ratios seated/direct and seated/unsandboxed (medians of paired rounds) are
the cost of the seat and of its sandbox. Starting the seats (their processes)
is timed apart.

    .venv/bin/python benchmarks/bench_bots.py [--json FILE]
"""
from __future__ import annotations

import importlib.util
import sys
import time

from common import ROOT, Race, header, rate, table, write_summary

GAMES = 5
BOTS = [("greedy.py", "Greedy"), ("learner.py", "Learner"), ("greedy.py", "Greedy"), ("learner.py", "Learner")]
FOLDER = ROOT / "examples" / "pocha_bots"


class DirectSeat:
    """A bot object called in this process: no copies, no time limit, no isolation."""

    def __init__(self, bot: object):
        self.bot, self.name = bot, type(bot).__name__

    def start_game(self, info: dict) -> None:
        self.bot.start_game(info)

    def observe(self, record: dict) -> None:
        if record["type"] == "decision":
            self.bot.observe({"type": "move", "player": record["player"], "move": record["move"],
                              "choice": record["choice"]})
        elif record["type"] == "announce":
            self.bot.observe({"type": "announce", "text": record["text"]})
        elif record["type"] == "end":
            self.bot.end_game({"winners": record["winners"], "payoffs": record["payoffs"]})

    def choose(self, decision):  # noqa: ANN001, ANN201 - the Agent protocol
        labels = [o.label for o in decision.options]
        answer = self.bot.decide(decision.view, labels)
        return decision.options[answer if isinstance(answer, int) else labels.index(answer)]


def direct_seats() -> list[DirectSeat]:
    seats = []
    for file, name in BOTS:
        spec = importlib.util.spec_from_file_location(f"bench_{file[:-3]}", FOLDER / file)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        seats.append(DirectSeat(getattr(module, name)()))
    return seats


def seated_seats(sandboxed: bool = True) -> list:
    from naipes import make_agent
    from naipes.agents import bot_process
    from naipes.agents.sandbox import Sandbox
    walls = bot_process.sandbox
    if not sandboxed:
        bot_process.sandbox = lambda: Sandbox(None, "the benchmark's unsandboxed seats")  # type: ignore[assignment]
    try:
        return [make_agent(f"python:{FOLDER / file}:{name}") for file, name in BOTS]
    finally:
        bot_process.sandbox = walls


def started(make: object) -> tuple[list, float]:
    """The seats `make()` returns, and the seconds it took."""
    start = time.perf_counter()
    seats = make()  # type: ignore[operator]
    return seats, time.perf_counter() - start


def play(program: object, seats: list, games: int) -> int:
    from naipes import play_game
    decisions = 0
    for game in range(games):
        decisions += play_game(program, seats, seed=game).decisions
    return decisions


def main() -> None:
    from naipes import load_program
    header("bench_bots", "Pocha games of four Python bots: seated (as the command line seats them) vs direct calls")
    program = load_program(ROOT / "rulesets" / "pocha_static.yaml", {"cards_each": "10", "rounds": "4"})
    seated, startup = started(seated_seats)
    unsandboxed, startup_unsandboxed = started(lambda: seated_seats(sandboxed=False))
    direct = direct_seats()
    race = Race({"seated": lambda: play(program, seated, GAMES),
                 "unsandboxed": lambda: play(program, unsandboxed, GAMES),
                 "direct": lambda: play(program, direct, GAMES)}, repeat=7)
    for seat in seated + unsandboxed:
        seat.close()
    rows, summary = [], {}
    for name in ("seated", "unsandboxed", "direct"):
        decisions, seconds = race.outs[name], race.best(name)
        rows.append([name, decisions, rate(decisions, seconds), seconds / decisions * 1e6])
        summary[name] = {"decisions_per_s": rate(decisions, seconds)}
    table([f"{GAMES} games, 4 bots", "decisions", "decisions/s", "us/decision"], rows)
    ratio, sandbox = 1 + race.cost("seated", "direct"), 1 + race.cost("seated", "unsandboxed")
    summary["ratio"], summary["sandbox_ratio"] = ratio, sandbox
    summary["startup_s"], summary["startup_unsandboxed_s"] = startup, startup_unsandboxed
    print(f"   seated time / direct time = {ratio:.2f}, seated / unsandboxed = {sandbox:.2f} (medians of 7 paired "
          f"rounds); starting the four seats took {startup:.2f} s ({startup_unsandboxed:.2f} s unsandboxed)\n")
    write_summary(sys.argv, summary)


if __name__ == "__main__":
    main()
