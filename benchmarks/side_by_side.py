"""Two engines side by side in one process: this checkout's and another's (an A/B of a change).

The other engine is imported from OTHER/engine under another package name, so
both run in turn, round after round, on the same seeds and in the same process
(on a shared, noisy machine this is steadier than two runs one after the
other). The ratio is the median over the rounds of this engine's time per
decision over the other's: below 1, this checkout is faster. Both play this
checkout's rule and strategy files.

    git worktree add /tmp/before HEAD~3
    .venv/bin/python benchmarks/side_by_side.py /tmp/before pocha            # random seats, 10-card hands
    .venv/bin/python benchmarks/side_by_side.py /tmp/before wizard strong    # strategy seats (any game, level)

Random seats suit a game whose random games end (Pocha, Tute, Wizard, the chip
game; random Chinchón players seldom close: give them a level). With
`--own-rules` the other engine plays the rule files of its own checkout (to
measure a change to a rule file; the strategy files are this checkout's either
way).
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

from common import ROOT


def engine(package: str, root: Path) -> ModuleType:
    """The `engine` folder under `root`, imported as `package`."""
    spec = importlib.util.spec_from_file_location(package, root / "engine" / "__init__.py",
                                                  submodule_search_locations=[str(root / "engine")])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[package] = module
    spec.loader.exec_module(module)
    return module


class Workload:
    """Games of one rule file, played by one engine: `run(seed)` gives its time per decision (us)."""

    def __init__(self, naipes: ModuleType, game: str, level: str | None, root: Path = ROOT):
        self.naipes, self.level = naipes, level
        params = {"cards_each": "10", "rounds": "20"} if game == "pocha" and level is None else {}
        path = root / "rulesets" / ("pocha_static.yaml" if params else f"{game}.yaml")
        self.program = naipes.load_program(path, params)
        self.players = self.program.players[2]
        registry = sys.modules[f"{naipes.__name__}.agents.registry"]
        self.seats = [registry.make_agent(level, seed=i, program=self.program) for i in range(self.players)] \
            if level else None

    def run(self, seed: int) -> float:
        naipes, start, decisions = self.naipes, time.process_time(), 0
        for game in range(3 if self.level else 15):
            if self.seats:
                agents = self.seats
                for i, agent in enumerate(agents):
                    agent.reseed(100 * (seed + game) + i)
            else:
                agents = [naipes.RandomAgent(seed + 4 * game + i) for i in range(self.players)]
            decisions += naipes.play_game(self.program, agents, seed + game).decisions
        return (time.process_time() - start) / decisions * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the root of the other checkout (a git worktree)")
    parser.add_argument("game", help="a shipped rule file: pocha (random seats: 10-card hands), wizard, ...")
    parser.add_argument("level", nargs="?", help="a strategy level for every seat (default: random seats)")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--own-rules", action="store_true",
                        help="the other engine plays the rule files of its own checkout")
    args = parser.parse_args()
    other_root = args.other.resolve()
    this = Workload(engine("naipes", ROOT), args.game, args.level)
    other = Workload(engine("naipes_other", other_root), args.game, args.level,
                     other_root if args.own_rules else ROOT)
    for workload in (this, other):  # (warm: compiled code, caches)
        workload.run(1)
    times: dict[str, list[float]] = {"this": [], "other": []}
    for r in range(args.rounds):
        for name, workload in ((("this", this), ("other", other)) if r % 2 else (("other", other), ("this", this))):
            times[name].append(workload.run(100 + 10 * r))
    for name, measured in times.items():
        print(f"{name:5s}  min {min(measured):8.2f}  median {statistics.median(measured):8.2f} us a decision")
    ratio = statistics.median(a / b for a, b in zip(times["this"], times["other"]))
    print(f"this / other = {ratio:.3f} (median of {args.rounds} paired rounds)")


if __name__ == "__main__":
    main()
