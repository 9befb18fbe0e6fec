"""Golden logs: what the engine did in many seeded games, to prove later engines do the same.

Each shipped rule file is played on a range of seeds with a mix of agents
(random, the game's strategy files, a small ISMCTS now and then). A game's
record keeps, in order, every decision (seat, move, choice, the number of legal
options and a digest of their labels), the strategy rule that chose each AI move,
every announcement, and the result; rule firings are kept as their count and a
digest of the sequence (rule names and bindings), so that a change in firing
order shows without storing every firing. A phase's enter steps (which replaced
rules that each fired once on entering the phase) count as the firings of the
rules they replaced, under the same names.

    .venv/bin/python tests/golden/record.py                 # the checked-in set: 50 seeds per rule file
    .venv/bin/python tests/golden/record.py --seeds 200 --out /tmp/golden200   # a larger set to compare by hand

``tests/test_golden.py`` replays the checked-in set and compares.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from functools import cache
from pathlib import Path

from naipes import load_program
from naipes.agents.registry import load_strategy, make_agent, strategy_agent
from naipes.language import linker
from naipes.language.shipped import RULESETS
from naipes.language.strategies import strategy_path
from naipes.runtime.game import Game, play_game

HERE = Path(__file__).resolve().parent
MAX_DECISIONS = 2500  # a game still running after this many decisions is recorded as cut off

# Per rule file: the agents seats are drawn from, the number of players (None: the default) and params.
ISMCTS = "ismcts:iterations=4,depth=12"
TRICK_POOLS = {
    "pocha": ["random", "baseline", "strong"],
    "tute_cabrero": ["random", "novice", "medium", "expert", "novice_plus", "strong"],
    "wizard": ["random", "seed", "strong"],
}
# Params shorten the matches (a lower target, fewer rounds) so that the whole set replays in about a minute.
CONFIGS: dict[str, dict] = {
    "fichas": {"pool": ["random", "greedy", "exact", "minimax"],
               "params": {"colours": "4", "values": "4", "count": "10"}},
    "fichas_misere": {"pool": ["random", "minimax"], "params": {"colours": "4", "values": "4", "count": "10"}},
    "chinchon": {"pool": ["random", "seed", "strong"], "params": {"target": "40"}},
    "chinchon_48": {"pool": ["random", "seed", "strong"], "params": {"target": "30"}, "players": 3},
    "chinchon_jokers": {"pool": ["random", "seed", "strong"], "params": {"target": "40"}},
    "pocha": {"pool": TRICK_POOLS["pocha"], "params": {"peak": "4"}, "ismcts": True},
    "pocha_static": {"pool": TRICK_POOLS["pocha"], "params": {"rounds": "3", "cards_each": "5"}},
    "tricks": {"pool": ["random"], "players": 5},
    "tute_cabrero": {"pool": TRICK_POOLS["tute_cabrero"], "params": {"porotos_to_retire": "2"}, "ismcts": True},
    "wizard": {"pool": TRICK_POOLS["wizard"], "ismcts": True, "players": 6},
    "wizard_official": {"pool": TRICK_POOLS["wizard"], "players": 6},
    "wizard_last_bidder": {"pool": TRICK_POOLS["wizard"], "players": 6},
    "brisca": {"pool": ["random", "basic"], "ismcts": True},
    "brisca_parejas": {"pool": ["random", "basic"], "params": {"games_to_win": "2", "arrastre": "true"}},
    "hearts": {"pool": ["random", "basic"], "params": {"target": "40"}, "ismcts": True},
    "kuhn_poker": {"pool": ["random"], "ismcts": True},
    "leduc_poker": {"pool": ["random"], "ismcts": True},
    "escoba": {"pool": ["random", "basic"], "params": {"target": "6"}, "ismcts": True},
    "escoba_parejas": {"pool": ["random", "basic"], "params": {"target": "6", "must_capture": "true"}},
    "truco": {"pool": ["random", "basic"], "ismcts": True},
    "truco_parejas": {"pool": ["random", "basic"], "params": {"target": "15", "flor": "true"}},
    "texas_holdem": {"pool": ["random", "basic"], "params": {"hands": "3"}, "ismcts": True},
    "texas_holdem_limit": {"pool": ["random", "basic"], "params": {"hands": "3"}, "players": 3},
    "mus": {"pool": ["random", "basic"], "params": {"target": "30"}, "ismcts": True},
}


def seats_for(name: str, seed: int, count: int) -> list[str]:
    """The agents of one game: drawn from the pool by the seed (ISMCTS at one seat every tenth game where asked)."""
    config = CONFIGS[name]
    pool = config["pool"]
    seats = [pool[(seed * 7 + i * 3 + seed // len(pool)) % len(pool)] for i in range(count)]
    if all(s == "random" for s in seats) and len(pool) > 1:
        seats[0] = pool[1]  # some games (Chinchón) never end with random players only
    if config.get("ismcts") and seed % 10 == 3:
        seats[seed % count] = ISMCTS
    return seats


class Recorder:
    """A game listener that condenses the records into the golden form."""

    def __init__(self) -> None:
        self.events: list = []
        self.firings = 0
        self.digest = hashlib.sha1()

    def __call__(self, record: dict) -> None:
        kind = record["type"]
        if kind == "fire" and not record.get("steps"):
            self.firings += 1
            self.digest.update(json.dumps([record["rule"], record["binding"]], sort_keys=True).encode())
        elif kind == "step":  # a phase's enter step counts as the firing of the rule it replaced
            self.firings += 1
            self.digest.update(json.dumps([record["step"], {}], sort_keys=True).encode())
        elif kind == "decision":
            labels = json.dumps(record["options"], ensure_ascii=False)
            self.events.append(["d", record["player"], record["move"], record["choice"], len(record["options"]),
                                hashlib.sha1(labels.encode()).hexdigest()[:12]])
            if len(self.events) > 40 * MAX_DECISIONS:
                raise _CutOff
        elif kind == "strategy":
            self.events.append(["r", record["player"], record["rule"]])
        elif kind == "announce":
            self.events.append(["a", record["text"]])
        elif kind == "fault":
            self.events.append(["f", record["player"], record["fault"]])


class _CutOff(Exception):
    pass


def program_of(name: str):
    """The rule file `name` with its params, compiled once per run and per linker.WORD (a test lowers it to cut the
    rules into words: programs compiled so are kept apart from the others, not compiled again for the next test)."""
    return _program(name, linker.WORD)


def strategy_of(name: str, spec: str):
    return _strategy(name, spec, linker.WORD)


@cache
def _program(name: str, word: int):
    return load_program(RULESETS / f"{name}.yaml", dict(CONFIGS[name].get("params", {})))


@cache
def _strategy(name: str, spec: str, word: int):
    program = _program(name, word)
    path = strategy_path(spec, program)
    return load_strategy(path, program) if path else None


def agent(name: str, spec: str, seed: int):
    """An agent as `make_agent` makes it (strategy files compiled once per run)."""
    strategy = strategy_of(name, spec)
    if strategy is not None:
        return strategy_agent(strategy, seed)
    return make_agent(spec, seed=seed, program=program_of(name))


def play_recorded(name: str, seed: int) -> dict:
    """Play one golden game and return its record."""
    config = CONFIGS[name]
    program = program_of(name)
    count = config.get("players") or program.players[2]
    seats = seats_for(name, seed, count)
    agents = [agent(name, spec, seed * 1009 + i) for i, spec in enumerate(seats)]
    recorder = Recorder()
    game = Game(program, seed, players=count)
    decisions = [0]

    def count_decisions(record: dict) -> None:
        if record["type"] == "decision":
            decisions[0] += 1
            if decisions[0] > MAX_DECISIONS:
                raise _CutOff

    game.listeners.extend([recorder, count_decisions])
    entry = {"ruleset": name, "seed": seed, "seats": seats}
    try:
        result = play_game(program, agents, seed, game=game)
        entry["result"] = {"winners": list(result.winners), "payoffs": result.payoffs}
    except _CutOff:
        entry["result"] = "cut off"
    entry["firings"] = recorder.firings
    entry["firing_digest"] = recorder.digest.hexdigest()
    entry["events"] = recorder.events
    return entry


def golden_file(folder: Path, name: str) -> Path:
    return folder / f"{name}.jsonl.gz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("rulesets", nargs="*", default=list(CONFIGS))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.rulesets:
        with gzip.open(golden_file(args.out, name), "wt", encoding="utf-8") as out:
            for seed in range(args.seeds):
                entry = play_recorded(name, seed)
                out.write(json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n")
                print(f"\r{name}: seed {seed}", end="", file=sys.stderr, flush=True)  # progress
        print(file=sys.stderr)


if __name__ == "__main__":
    main()
