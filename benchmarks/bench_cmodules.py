"""Rule files' modules compiled to C (naipes.language.cmodules) against the same modules run as Python.

Each case loads its rule file twice, with NAIPES_COMPILE=never and with it compiled (the first run compiles into
the cache: the wall-clock time of that load is printed, not raced), checks that both play the batch's games to
the same results, then races them in paired rounds: the ratio is Python's time over C's (median of rounds), the whole
decision (engine and rule file) timed. Run it on the compiled runtime (.ci/native) for what a wheel gives, and on
the plain sources for the plain figure. Needs the `fast` extra (Cython).

    PYTHONPATH=build/native-lib .venv/bin/python benchmarks/bench_cmodules.py [--rounds 15] [--json FILE]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from functools import partial

from common import ROOT, Race, header, table, write_summary

# (name, rule file, params, seat agents, players, games per batch)
CASES = [
    ("Pocha, random 10-card hands", ROOT / "benchmarks" / "pocha_hands.yaml", {"cards_each": "10", "rounds": "10"},
     "random", 4, 4),
    ("Pocha (peak=4), strong in every seat", ROOT / "rulesets" / "pocha.yaml", {"peak": "4"}, "strong", 4, 2),
    ("Tute Cabrero, expert in every seat", ROOT / "rulesets" / "tute_cabrero.yaml", {"porotos_to_retire": "1"},
     "expert", 3, 2),
    ("Chinchón (target=30), seed in every seat", ROOT / "rulesets" / "chinchon.yaml", {"target": "30"}, "seed", 2, 1),
    ("Pocha (peak=3), ismcts:iterations=100 in every seat", ROOT / "rulesets" / "pocha.yaml", {"peak": "3"},
     "ismcts:iterations=100", 4, 1),
]


def loaded(path, params: dict[str, str], compile_mode: str, agent: str, players: int):
    """The rule file and one `agent` a seat (a strategy compiled with it, as the game is), made once."""
    from naipes import load_program
    from naipes.agents.registry import make_agent
    os.environ["NAIPES_COMPILE"] = compile_mode
    program = load_program(path, params)
    return program, [make_agent(agent, seed=k, program=program) for k in range(players)]


def batch(program, agents: list, games: int):
    """(games, decisions, results) of `games` games from seeds 0.., the seats reseeded for each."""
    from naipes import play_game
    results = []
    for seed in range(games):
        for k, agent in enumerate(agents):
            agent.reseed(100 * seed + k)
        results.append(play_game(program, agents, seed))
    return games, sum(r.decisions for r in results), [(r.payoffs, r.decisions, r.firings) for r in results]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--json", help="write the summary here")
    args = parser.parse_args()
    header("bench_cmodules", "rule files' modules in C (Cython) against the same in Python", args.rounds)
    rows, summary = [], {}
    for name, path, params, agent, players, games in CASES:
        python = loaded(path, params, "never", agent, players)
        started = time.perf_counter()
        in_c = loaded(path, params, "auto", agent, players)
        compile_seconds = time.perf_counter() - started
        if len(in_c[0].code_names) < 2:
            sys.exit("the module was not compiled to C: is Cython installed (pip install '.[fast]')?")
        same = batch(*python, games)[2] == batch(*in_c, games)[2]
        race = Race({"python": partial(batch, *python, games), "c": partial(batch, *in_c, games)}, args.rounds)
        decisions = race.outs["c"][1]
        ratio = race.speedup("c", "python")
        rows.append([name, decisions, race.best("python") / decisions * 1e6, race.best("c") / decisions * 1e6,
                     ratio, "yes" if same else "NO", compile_seconds])
        summary[name] = {"python_over_c": ratio, "same_games": same}
    table(["case", "decisions", "us/decision python", "us/decision C", "python / C", "same games",
           "first load s (seats too)"], rows)
    if args.json:
        write_summary(sys.argv, summary)


if __name__ == "__main__":
    main()
