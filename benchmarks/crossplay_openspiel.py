"""Cross-play: OpenSpiel's ISMCTS bot (through naipes.bridges.openspiel) against Naipes agents.

One OpenSpiel ISMCTS seat (random rollouts to the end of the match, UCT c=2)
against Naipes agents in every other seat; each deal is played once with the
OpenSpiel bot in each seat (duplicate style), and a deal's score is the mean
over those seatings. Reported: the OpenSpiel bot's and its opponents' mean
payoff and win share, with 95 % intervals over deals, and the difference between the two sides paired deal by
deal (the same cards: the luck they share cancels). Needs the [openspiel]
extra. Ctrl-C (or `kill -INT`, also for a run in the background) stops the run and prints the results of
the deals played so far.

The OpenSpiel bot searches `--iterations` simulations per move, or, with
`--seconds S`, as many as fit in S seconds (at least two); `--seconds` also
gives the Naipes search agents (ismcts, pimc) the same time per move, unless
their spec names one (`seconds=`).

    .venv/bin/python benchmarks/crossplay_openspiel.py --ruleset tute_cabrero -p porotos_to_retire=1 \\
        --opponent pimc --seconds 1 --deals 20 --seed 1
"""
from __future__ import annotations

import argparse
import json
import signal
import time

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from naipes import load_program, make_agent, play_game
from naipes.bridges.openspiel import SpielBotAgent, load_game
from naipes.tools.cli import find_ruleset
from naipes.tools.tournament import mean_interval

TIMED_AGENTS = ("ismcts", "pimc")  # the Naipes agents --seconds gives a time per move


class TimedISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTS with a time per move: simulations until `seconds` have passed (at least two)."""

    def __init__(self, *args: object, seconds: float, **kwargs: object):
        super().__init__(*args, **kwargs)
        self.seconds = seconds
        self.simulations = 0

    def run_search(self, state):  # OpenSpiel's loop, bounded by time instead of a count
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        while True:
            self.run_simulation(self.sample_root_state(state))
            self.simulations += 1
            if time.perf_counter() >= deadline and self._root_node.total_visits > 0:
                break  # (OpenSpiel's first simulation only expands the root: its policy needs a second)
        if self._allow_inconsistent_action_sets:
            return self.get_final_policy(state, self.filter_illegals(self._root_node, state.legal_actions()))
        return self.get_final_policy(state, self._root_node)


def timed_spec(spec: str, seconds: float | None) -> str:
    """`spec` with `seconds=` added when it is a Naipes search agent without one."""
    name, _, options = spec.partition(":")
    if seconds is None or name not in TIMED_AGENTS or "seconds=" in options:
        return spec
    return f"{name}:{options + ',' if options else ''}seconds={seconds}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", required=True)
    parser.add_argument("-p", dest="params", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--opponent", required=True, help="the Naipes agent in the other seats")
    parser.add_argument("--iterations", type=int, default=30, help="OpenSpiel ISMCTS simulations per move")
    parser.add_argument("--seconds", type=float, default=None,
                        help="time per move for both sides (OpenSpiel: instead of --iterations)")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    params = dict(p.split("=", 1) for p in args.params)
    path = find_ruleset(args.ruleset)
    program = load_program(path, params)
    typed = {k: type(program.param_values[k])(v) if not isinstance(program.param_values[k], bool)
             else v.lower() == "true" for k, v in params.items()}
    spiel = load_game(path, typed)
    seats = program.players[2]
    opponent = timed_spec(args.opponent, args.seconds)

    def make_bot(game, seed):
        rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(1, rng)
        if args.seconds is not None:
            return TimedISMCTSBot(game, evaluator, 2.0, 1, random_state=rng, seconds=args.seconds)
        return ismcts.ISMCTSBot(game, evaluator, 2.0, args.iterations, random_state=rng)

    rows: dict[str, tuple[list, list]] = {"openspiel": ([], []), "naipes": ([], [])}
    signal.signal(signal.SIGINT, signal.default_int_handler)  # (a shell starts a background job with Ctrl-C ignored)
    started = time.time()
    try:
        for deal in range(args.deals):
            seed = args.seed + deal
            payoff = {"openspiel": 0.0, "naipes": 0.0}
            wins = {"openspiel": 0.0, "naipes": 0.0}
            for bot_seat in range(seats):
                agents = [SpielBotAgent(spiel, make_bot, "openspiel-ismcts", seed * 31 + bot_seat) if s == bot_seat
                          else make_agent(opponent, seed=seed * 1009 + s, program=program) for s in range(seats)]
                result = play_game(program, agents, seed)
                share = 1.0 / len(result.winners) if result.winners else 0.0
                for s in range(seats):
                    side = "openspiel" if s == bot_seat else "naipes"
                    weight = 1.0 if s == bot_seat else 1.0 / (seats - 1)
                    payoff[side] += weight * result.payoffs[s] / seats
                    wins[side] += weight * (share if s in result.winners else 0.0) / seats
            for side in rows:
                rows[side][0].append(payoff[side])
                rows[side][1].append(wins[side])
            print(f"deal {deal + 1}/{args.deals} done ({time.time() - started:.0f} s)", flush=True)
    except KeyboardInterrupt:
        print(f"interrupted: the {len(rows['naipes'][0])} deals played so far", flush=True)
    summary = {"ruleset": args.ruleset, "params": params, "opponent": opponent,
               "iterations": None if args.seconds is not None else args.iterations, "seconds_per_move": args.seconds,
               "deals": len(rows["naipes"][0]), "seed": args.seed, "seconds": round(time.time() - started)}
    if rows["naipes"][0]:
        for side, (payoffs, wins) in rows.items():
            summary[side] = {"mean_payoff": mean_interval(payoffs), "win_share": mean_interval(wins)}
        # paired deal by deal (the two sides played the same cards): what the deal's luck shares cancels
        (naipes_payoffs, naipes_wins), (spiel_payoffs, spiel_wins) = rows["naipes"], rows["openspiel"]
        summary["naipes_minus_openspiel"] = {
            "mean_payoff": mean_interval([a - b for a, b in zip(naipes_payoffs, spiel_payoffs)]),
            "win_share": mean_interval([a - b for a, b in zip(naipes_wins, spiel_wins)])}
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
