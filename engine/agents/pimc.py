"""Perfect-information Monte Carlo: a search agent for any rule file with hidden cards.

For each decision the agent draws *worlds*: the game with the cards its seat
cannot place dealt again, consistently with what it has seen and deduced
(:meth:`naipes.agents.knowledge.Knowledge.world`), and, with inference on,
resampled by how likely each world makes the other players' earlier choices
(:mod:`naipes.agents.inference`). It solves each world with every card
shown (:class:`naipes.agents.solver.OpenSolver`) and plays the option of the
best mean: the method of the strongest trick-taking programs (GIB for bridge,
the Skat programs), here for any rule file.

A world is solved exactly, to the end of the hand, when that fits in a node
budget (the last tricks of a hand); otherwise its search stops after `depth`
turns (a player's moves in a row count as one: a rummy's draw and its
discard are searched together) and scores each line by the rule file's ``estimate`` or, without one
or when a `policy` is named, by playing the world on to the end of the hand
with a strategy level in every seat (:mod:`naipes.agents.rollout`).

Given ``seconds``, a decision keeps to them (:mod:`naipes.agents.deadline`):
inference weighs candidate worlds for up to half the time (none weighed: the
worlds are drawn unweighted), and worlds are solved until the time is up. An
exact search the deadline stops gives way to the depth-limited one; a world
whose depth-limited search or whose lines played on the deadline stops is
dropped (the first world's search is finished regardless), and if lines of
the first were cut short, the seat plays what the policy would (the rule
file's AI).

Named on the command line as ``pimc`` or with options, e.g.
``pimc:worlds=20,seconds=1,model=maxn,nodes=3000,depth=1,policy=strong,infer=strong``:

``worlds``   worlds per decision (a fixed count: the same choices whatever the machine's load)
``seconds``  the time one decision may take, all told (see below)
``model``    ``maxn`` (each player plays for himself) or ``paranoid`` (the others against the seat)
``nodes``    the node budget of a world's exact search (0: never exact)
``depth``    turns searched before a line is scored, when the exact search does not fit (a turn: one player's
             moves in a row)
``policy``   the strategy level that plays lines on (``random`` too; by default the rule file's AI, or its
             ``estimate`` if it declares one)
``infer``    the strategy level that models the other players' choices (``none``: no inference; by
             default the rule file's AI)
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import ParamError
from ..program import Program
from ..runtime.game import Decision, Game, Option, offered
from .deadline import NEVER, Deadline
from .inference import Inference, default_model
from .ismcts import standing
from .knowledge import Knowledge
from .rollout import Policies
from .solver import MODELS, OpenSolver, Vector

MAX_WORLDS, MAX_SECONDS, MAX_NODES, MAX_DEPTH = 10_000, 60.0, 10_000_000, 100
INFERENCE_SHARE = 0.5  # the part of a decision's time that inference may take to weigh candidate worlds


class PIMCAgent:
    """Solves sampled worlds open-handed and plays the best option on average."""

    def __init__(self, seed: int | None = None, worlds: int = 10, seconds: float | None = None,
                 model: str = "maxn", nodes: int = 3000, depth: int = 1, policy: str | None = None,
                 infer: str | None = None, program: Program | None = None,
                 make_policy: Callable[[str, int], Any] | None = None,
                 clock: Callable[[], float] = time.perf_counter):
        """`make_policy(spec, seed)` makes the strategy agents named by `policy` and `infer` (the registry
        gives it); `clock` is what `seconds` are read from (naipes.agents.deadline)."""
        _check("worlds", worlds, 1, MAX_WORLDS)
        _check("nodes", nodes, 0, MAX_NODES)
        _check("depth", depth, 1, MAX_DEPTH)
        if seconds is not None and not (math.isfinite(seconds) and 0.001 <= seconds <= MAX_SECONDS):
            raise ParamError(f"pimc option seconds is {seconds}: it must be from 0.001 to {MAX_SECONDS:g}")
        if model not in MODELS:
            raise ParamError(f"pimc option model is '{model}': choose {', '.join(MODELS)}")
        self.worlds, self.seconds, self.model, self.nodes, self.depth = worlds, seconds, model, nodes, depth
        self.rng = random.Random(seed)
        self.program, self.make_policy = program, make_policy
        estimate = program is not None and program.estimate is not None
        self.policy_spec = policy if policy is not None else None if estimate else default_model(program)
        self.infer_spec = default_model(program) if infer is None else (None if infer == "none" else infer)
        if (self.policy_spec or self.infer_spec) and (program is None or make_policy is None):
            raise ParamError("pimc's policy and inference need the game's program (make it with make_agent)")
        for spec in {self.policy_spec, self.infer_spec}:
            if spec is not None and make_policy is not None:
                make_policy(spec, 0)  # (an unknown level is said now, not at the seat's first decision)
        self.exact = OpenSolver(model, nodes=nodes) if nodes else None
        self.cut = OpenSolver(model, depth=depth, cut=self._play_on if self.policy_spec else None, turns=True,
                              begin=self._follow if self.policy_spec else None)
        self.name = "pimc"
        self.knowledge: Knowledge | None = None
        self.policies: Policies | None = None
        self.inference: Inference | None = None
        self.worlds_done = self.worlds_exact = self.fallbacks = 0
        self.clock = clock
        self._deadline, self._cut_short = NEVER, False
        self._too_long = MAX_NODES  # moves left to the end of a hand whose exact search did not fit the budget

    def reseed(self, seed: int) -> None:
        self.rng.seed(seed)

    def attach(self, game: Game, seat: int) -> None:
        """Follow the game from the start: what the seat sees and deduces, and the others' choices."""
        self.knowledge = Knowledge(game, seat)
        self.policies = self.inference = None
        seed = self.rng.randrange(1 << 30)
        if self.policy_spec is not None:
            assert self.make_policy is not None  # checked when made
            self.policies = Policies(game, self.policy_spec, self.make_policy, seed)
        if self.infer_spec is not None:
            assert self.make_policy is not None
            models = self.policies if self.policies is not None and self.infer_spec == self.policy_spec else \
                Policies(game, self.infer_spec, self.make_policy, seed)
            self.inference = Inference(game, seat, self.knowledge, models.agents)

    def choose(self, decision: Decision) -> Option:
        if self.knowledge is None or not self.knowledge.follows(decision):
            self.attach(decision.game, decision.player)  # joined late: knows only what it sees from now on
        if len(decision.options) == 1:
            return decision.options[0]
        means = self.evaluate(decision)
        if not means:  # out of time before one world was solved: the policy's choice
            assert self.policies is not None  # (only a policy's line can be cut short: see evaluate)
            self.fallbacks += 1
            return offered(self.policies.agents[decision.player].choose(decision), decision.options) or \
                decision.options[0]
        return max(decision.options, key=lambda option: means.get(option.key, -math.inf))

    def evaluate(self, decision: Decision) -> dict[tuple, float]:
        """Each option's weighted mean value for the seat over the worlds solved before the deadline, by option
        key; empty if the deadline passed before the first world was solved (only a world whose lines the
        policy plays on can take that long: an estimate's depth-limited search is always finished)."""
        knowledge = self.knowledge
        assert knowledge is not None  # attached in choose
        deadline = Deadline(self.seconds, self.clock)
        self._deadline = deadline
        with deadline.searching():  # (its worlds spend the decision's steps: see naipes.agents.deadline)
            return self._solved(decision, knowledge, deadline)

    def _solved(self, decision: Decision, knowledge: Knowledge, deadline: Deadline) -> dict[tuple, float]:
        """evaluate's means, of the worlds solved before the `deadline` (its seconds, its steps)."""
        sums: dict[tuple, float] = {}
        weight_sum = 0.0
        exact, left = self.exact, 0
        for done, (world, weight) in enumerate(self._worlds(knowledge, deadline)):
            if done and deadline.passed():
                break
            if exact is not None and not done:
                left = exact.moves_left(world)
                if left >= self._too_long:
                    exact = None  # (as long as a hand whose exact search did not fit the budget: skipped)
            solution = exact.try_solve(world, decision.player, deadline) if exact is not None else None
            if solution is None:
                if exact is not None:  # (a hand this long does not fit the budget, or the time)
                    self._too_long, exact = left, None  # (this decision's other worlds are as long)
                if done and deadline.passed():
                    break
                self._cut_short = False
                # (the first world's search is finished whatever the time, so that one is counted; a later one
                # that the deadline stops is dropped: a rule file whose turns are long chains of one player's
                # moves could make a search a turn deep take long)
                found = self.cut.try_solve(world, decision.player, deadline) if done else \
                    self.cut.solve(world, decision.player, line=False)
                if found is None or self._cut_short:
                    break  # (a search or a line the deadline stopped: the world is not counted)
                solution = found
            else:
                self.worlds_exact += 1
            for option, value in solution.moves:
                sums[option.key] = sums.get(option.key, 0.0) + weight * value[decision.player]
            weight_sum += weight
            self.worlds_done += 1
        return {key: total / weight_sum for key, total in sums.items()}

    def _worlds(self, knowledge: Knowledge, deadline: Deadline) -> Iterator[tuple[Game, float]]:
        """The worlds to solve, each with its weight (1 without inference), drawn as they are asked for. With a
        deadline, inference weighs candidate worlds for up to half the time; if it had no time to weigh one, the
        worlds are drawn unweighted."""
        if self.inference is not None:
            weighted = self.inference.weighted_worlds(self.rng, self.worlds, deadline.share(INFERENCE_SHARE))
            if weighted:
                yield from weighted
                return
        for _ in range(self.worlds):
            yield knowledge.world(self.rng), 1.0

    def _follow(self, world: Game) -> None:
        """Seat the policy's players where a world's search begins: its lines are played on by agents that saw
        every move of them, the searched ones too."""
        assert self.policies is not None  # (begins only with a policy)
        self.policies.follow(world)

    def _play_on(self, world: Game) -> Vector:
        """A line cut by depth: the standing once the policy has played the world to the end of the hand (a line
        the deadline stops is marked cut short)."""
        policies = self.policies
        assert policies is not None  # (the cut plays on only with a policy)
        if not policies.play_on(world, self._deadline):
            self._cut_short = True
        try:
            return standing(world)
        finally:
            policies.undo_all(world)


def _check(option: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise ParamError(f"pimc option {option} is {value}: it must be from {low:,} to {high:,}")


def make_pimc(seed: int | None = None, program: Program | None = None,
              make_policy: Callable[[str, int], Any] | None = None,
              options: dict[str, Any] | None = None) -> PIMCAgent:
    """``pimc:worlds=N,seconds=S,model=maxn,nodes=N,depth=D,policy=LEVEL,infer=LEVEL`` from its options, read
    (naipes.language.vocabulary.agent_options)."""
    return PIMCAgent(seed, program=program, make_policy=make_policy, **(options or {}))
