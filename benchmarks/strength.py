"""A duplicate tournament with paired differences, kept deal by deal: the strength tables of docs/ai.md.

It plays deals exactly as `naipes tournament` does (naipes.tools.tournament.play_deals: every deal once per
rotation of the agents, in worker processes, the same results for any --jobs), prints the same per-agent
table (mean payoff with its 95 % interval over deals), and adds what a comparison needs: for each agent
after the first, the mean *difference* between the first agent's deal score and its own, with its 95 %
interval (paired by deal, so the luck that deals share cancels), and the difference to all the others
together. Every deal's scores go to --json as they come, so a run stopped by Ctrl-C (or `kill -INT`, also
in the background) keeps them and prints the table, and --resume FILE continues a run from the deals it holds
(same agents, params and seed).

--sighted: the first seat is told where every card is before each of its decisions (its agent's knowledge of the
deal is filled in: a search agent's worlds are then the real deal). Played against the same agent unsighted, it
measures what seeing the cards is worth to that agent: the most that inference, a better model of the hands,
could add to it.

    PYTHONPATH=build/native-lib .venv/bin/python benchmarks/strength.py pocha -p peak=5 \\
        --seat pimc --seat strong --seat strong --seat strong -n 100 --jobs 2 --json pocha.json
"""
from __future__ import annotations

import argparse
import json
import signal
import time
from pathlib import Path

from common import ROOT  # noqa: F401  (puts the checkout on the path)

from naipes import load_program
from naipes.agents.bot_process import BotLimits
from naipes.tools.cli import find_ruleset
from naipes.tools.statistics import mean_interval
from naipes.tools.tournament import compile_seats, play_deal, play_deals, worker_state


class Sighted:
    """An agent whose seat's knowledge (naipes.agents.knowledge.Knowledge) is told where every card is before each
    of its decisions, so that the worlds it searches are the real deal (only later shuffles stay unknown)."""

    def __init__(self, agent):
        if not hasattr(agent, "knowledge"):
            raise SystemExit(f"--sighted: {agent.name} does not search worlds")
        self.agent = agent

    def __getattr__(self, name):
        return getattr(self.agent, name)

    def choose(self, decision):
        knowledge = self.agent.knowledge
        if knowledge is not None and knowledge.follows(decision):
            knowledge.known.update({card.id: slot for card, slot in decision.game.memory.where.items()})
            knowledge.confined.clear()
        return self.agent.choose(decision)


def sighted_deals(compiled, specs: list[str], seeds: list[int]):
    """play_deals in this process, the first seat's agent Sighted."""
    worker = worker_state(compiled, specs, BotLimits())
    worker["agents"][0] = Sighted(worker["agents"][0])
    for seed in seeds:
        yield play_deal(seed, worker)


def report(specs: list[str], deals: list[dict]) -> list[str]:
    """The table: per agent its mean payoff and interval; per later agent the paired difference to the first."""
    labels = [f"{spec}#{i + 1}" if specs.count(spec) > 1 else spec for i, spec in enumerate(specs)]
    lines = [f"{len(deals)} deals x {len(specs)} seatings",
             f"{'agent':40} {'mean payoff':>12} {'95% interval':>22}   first minus it {'95% interval':>22}"]
    first = [deal["payoff"][0] for deal in deals]
    for i, label in enumerate(labels):
        mean, low, high = mean_interval([deal["payoff"][i] for deal in deals])
        row = f"{label:40} {mean:12.3f} [{low:9.3f}, {high:9.3f}]"
        if i:
            diff, dlow, dhigh = mean_interval([a - deal["payoff"][i] for a, deal in zip(first, deals)])
            row += f"   {diff:14.3f} [{dlow:9.3f}, {dhigh:9.3f}]"
        lines.append(row)
    if len(specs) > 2:
        rest = [a - sum(deal["payoff"][1:]) / (len(specs) - 1) for a, deal in zip(first, deals)]
        diff, low, high = mean_interval(rest)
        lines.append(f"{'the others together':40} {'':12} {'':22}   {diff:14.3f} [{low:9.3f}, {high:9.3f}]")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset")
    parser.add_argument("--seat", dest="seats", action="append", required=True)
    parser.add_argument("-p", dest="params", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("-n", "--deals", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", required=True, help="where the deals' scores go (written as they come)")
    parser.add_argument("--resume", action="store_true", help="continue the run that --json holds")
    parser.add_argument("--sighted", action="store_true", help="the first seat sees every card (one process)")
    args = parser.parse_args()
    params = dict(p.split("=", 1) for p in args.params)
    path = str(find_ruleset(args.ruleset))
    out = Path(args.json)
    run = {"ruleset": args.ruleset, "params": params, "seats": args.seats, "seed": args.seed, "deals": [],
           "sighted": args.sighted}
    if args.resume and out.exists():
        kept = json.loads(out.read_text())
        same = ("ruleset", "params", "seats", "seed", "sighted")
        if {k: kept.get(k, False) for k in same} != {k: run[k] for k in same}:
            raise SystemExit(f"{out} holds another run: {kept['ruleset']} {kept['params']} {kept['seats']}")
        run["deals"] = kept["deals"]
    with open("/proc/loadavg") as load:
        print(f"load average at the start: {load.read().split()[0]}", flush=True)
    done = len(run["deals"])
    seeds = [args.seed + i for i in range(done, args.deals)]
    started = time.time()
    compiled = compile_seats(load_program(path, params), args.seats, BotLimits())
    signal.signal(signal.SIGINT, signal.default_int_handler)  # (a shell starts a background job with Ctrl-C ignored)
    try:
        results = sighted_deals(compiled, args.seats, seeds) if args.sighted else \
            play_deals(compiled, args.seats, seeds, args.jobs)
        for result in results:
            run["deals"].append({"deal": result.deal, "payoff": list(result.payoff),
                                 "win_share": list(result.win_share), "faults": list(result.faults)})
            out.write_text(json.dumps(run))
            print(f"deal {len(run['deals'])}/{args.deals} ({time.time() - started:.0f} s)", flush=True)
    except KeyboardInterrupt:
        print("interrupted: the deals played so far", flush=True)
    for line in report(args.seats, run["deals"]):
        print(line)
    with open("/proc/loadavg") as load:
        print(f"load average at the end: {load.read().split()[0]}")


if __name__ == "__main__":
    main()
