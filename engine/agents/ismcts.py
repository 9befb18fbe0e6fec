"""Information-set Monte Carlo tree search: a search agent for any rule file.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012). One tree is
grown over the searching seat's information set: each iteration draws a
*determinisation* (:meth:`Knowledge.world`: the hidden cards dealt again,
consistently with what the seat has seen and deduced), descends the tree
choosing among the options legal in that world by UCB1 (with availability
counts, since an option exists only in some worlds), adds one node, plays
the game on with a playout policy (by default a random kind of move, then a
random option of that kind, so that a rare move such as closing a hand gets
played), and backs the result up: each node keeps
the total reward of the player who made its move.

The playout stops at the end of the game, or, when the rule file declares an
``evaluation`` (how well each player stands: a hand's points, porotos lost),
as soon as any player's evaluation changes; the reward is then the change.
That keeps playouts to one hand of a long match. A playout also stops after
``depth`` moves (a game that random play may never finish): it then scores
the change in the rule file's ``estimate`` (the standing counting the round in
progress, e.g. minus a hand's unmelded points), or nothing without one. A node keeps the sum of its rewards; UCB1
divides their mean by the largest reward seen so far in the decision (every reward alike, whenever it came), so
one exploration constant suits every game.

Named on the command line as ``ismcts`` or with parameters,
``ismcts:iterations=200``, ``ismcts:seconds=0.5``, ``ismcts:policy=expert``
(a strategy level plays the playouts instead of uniform random moves: in
each seat, that level's agent as it followed the real game, which then sees
every move of the world, so it remembers what its seat saw, the cards gone),
``ismcts:exploration=1.0``, ``ismcts:depth=300`` (moves per playout),
``ismcts:plies=1`` (the tree grows at most that many moves below the
decision: 1 is a bandit over the decision's options, each tried in worlds
and scored by playouts, the other players' moves all played at random),
``ismcts:infer=strong`` (worlds resampled by how likely that strategy level makes
the other players' choices so far: :mod:`naipes.agents.inference`; a pool of
POOL worlds per decision, each iteration plays in a copy of one drawn by weight).

With ``seconds`` a decision keeps to them (:mod:`naipes.agents.deadline`):
it iterates until then (at least once), inference weighs candidate worlds for
at most half the time (none weighed: the worlds are drawn unweighted), and a
policy's playout stops at the deadline, scored where it stands as a playout
cut off by ``depth`` is.
"""
from __future__ import annotations

import bisect
import itertools
import math
import random
import time
from collections.abc import Callable
from typing import Any

from ..errors import ParamError
from ..library.builtins import pick
from ..program import Program
from ..runtime.game import Decision, Game, Option, arg_key
from .deadline import NEVER, Deadline
from .inference import Inference
from .knowledge import Knowledge
from .rollout import Policies, seated_choice

# The most search one decision may ask for: a strategy or a seat cannot stall a game for longer.
MAX_ITERATIONS, MAX_DEPTH, MAX_SECONDS = 100_000, 10_000, 60
POOL = 32  # worlds resampled by inference at each decision, which the iterations draw from by weight
INFERENCE_SHARE = 0.5  # the part of a decision's time that inference may take to weigh its pool of worlds


class _Node:
    __slots__ = ("mover", "children", "visits", "available", "total")

    def __init__(self, mover: int):
        self.mover = mover  # who made the move leading here (the reward counted is his)
        self.children: dict[tuple[str, Any], _Node] = {}  # by the option's identity across worlds (move, arg_key)
        self.visits = 0
        self.available = 0
        self.total = 0.0


class ISMCTSAgent:
    """Searches a fixed number of iterations, or for a time, per decision."""

    def __init__(self, seed: int | None = None, iterations: int = 100, seconds: float | None = None,
                 exploration: float = 0.7, policy: str | None = None, program: Program | None = None,
                 depth: int = 300, make_policy: Callable[[str, int], Any] | None = None, infer: str | None = None,
                 plies: int = MAX_DEPTH, clock: Callable[[], float] = time.perf_counter):
        """`make_policy(spec, seed)` makes the playout policy agent named by `policy` and the model of the other
        players named by `infer` (the registry gives it); `clock` is what `seconds` are read from
        (naipes.agents.deadline)."""
        bounds = {"iterations": (iterations, 1, MAX_ITERATIONS), "depth": (depth, 1, MAX_DEPTH),
                  "plies": (plies, 1, MAX_DEPTH),
                  "seconds": (seconds if seconds is not None else 1, 0.001, MAX_SECONDS),
                  "exploration": (exploration, 0, 100)}
        for option, (value, low, high) in bounds.items():
            if not (math.isfinite(value) and low <= value <= high):
                raise ParamError(f"ismcts option {option} is {value}: it must be from {low:,} to {high:,}")
        self.iterations, self.seconds, self.exploration, self.depth = iterations, seconds, exploration, depth
        self.plies = plies
        self.rng = random.Random(seed)
        self.policy_spec = policy
        self.program = program
        if policy is not None:
            if program is None or make_policy is None:
                raise ParamError("an ismcts playout policy needs the game's program (make it with make_agent)")
            make_policy(policy, 0)  # (an unknown level is said now, not at the seat's first decision)
        self.infer_spec = None if infer == "none" else infer
        if self.infer_spec is not None:
            if program is None or make_policy is None:
                raise ParamError("ismcts's inference needs the game's program (make it with make_agent)")
            make_policy(self.infer_spec, 0)  # (an unknown level is said now, not at the seat's first decision)
        self.make_policy = make_policy
        self.name = "ismcts" + (f"[{policy}]" if policy else "")
        self.knowledge: Knowledge | None = None
        self.inference: Any = None
        self.policies: Policies | None = None  # the playout policy: an agent per seat, following the real game
        self.iterations_done = 0
        self.clock = clock
        self._deadline = NEVER

    def reseed(self, seed: int) -> None:
        self.rng.seed(seed)

    def attach(self, game: Game, seat: int) -> None:
        """Follow the game from the start: what the seat sees and deduces, and (inference) the others' choices."""
        self.knowledge = Knowledge(game, seat)
        self.inference = self.policies = None
        if self.policy_spec is not None:  # (each seat's agent remembers what its seat saw: the cards gone, say)
            assert self.make_policy is not None  # checked when made
            self.policies = Policies(game, self.policy_spec, self.make_policy, self.rng.randrange(1 << 30))
        if self.infer_spec is not None:
            assert self.make_policy is not None  # checked when made
            models = Policies(game, self.infer_spec, self.make_policy, self.rng.randrange(1 << 30))
            self.inference = Inference(game, seat, self.knowledge, models.agents)

    def choose(self, decision: Decision) -> Option:
        if self.knowledge is None or not self.knowledge.follows(decision):
            self.attach(decision.game, decision.player)  # joined late: knows only what it sees from now on
        if len(decision.options) == 1:
            return decision.options[0]
        root = _Node(decision.player)
        self._scale = 1e-9
        deadline = self._deadline = Deadline(self.seconds, self.clock)
        with deadline.searching():  # (its worlds spend the decision's steps: see naipes.agents.deadline)
            done = self._search(root, deadline)
        self.iterations_done += done
        by_key = {o.key: o for o in decision.options}
        ranked = sorted(((child.visits, child.total / max(child.visits, 1), key)
                         for key, child in root.children.items() if key in by_key), reverse=True)
        return by_key[ranked[0][2]] if ranked else decision.options[0]

    def _search(self, root: _Node, deadline: Deadline) -> int:
        """The iterations of one decision, from `root`, until there have been as many as asked for or the
        `deadline` has passed (its seconds, its steps), after one at least; how many."""
        done = 0
        knowledge = self.knowledge
        assert knowledge is not None  # attached in choose
        pool: list[tuple[Game, float]] = \
            self.inference.weighted_worlds(self.rng, POOL, deadline.share(INFERENCE_SHARE)) \
            if self.inference is not None else []  # (empty if no candidate was weighed in time: worlds unweighted)
        totals = list(itertools.accumulate(weight for _, weight in pool))
        spare: Game | None = None  # the last iteration's world, which the next one fills in again
        while not (done and deadline.passed()) and (self.seconds is not None or done < self.iterations):
            if pool:  # a world of the pool, drawn by its weight (each iteration plays in a copy of its own)
                world = pool[bisect.bisect_right(totals, self.rng.random() * totals[-1])][0].clone(spare)
            else:
                world = knowledge.world(self.rng, spare)
            self._iterate(root, world)
            spare = world
            done += 1
        return done

    # -------------------------------------------------------------- iteration
    def _iterate(self, root: _Node, world: Game) -> None:
        # the policy's agents seated in this world see each of its moves, the tree's too
        seated, hook = self.policies.seat(world, self.rng.randrange(1 << 30)) if self.policies else ({}, None)
        watching = world.program.evaluation is not None
        if watching:  # the playout ends where the evaluation changes: it cannot before what it reads is written
            world.pause_after(world.program.evaluation_reads)
        start = standing(world)
        if world.program.estimate is not None:
            self._start_estimate = estimates(world)
        path: list[_Node] = []
        node, grown = root, False

        def descend(offered: list[tuple[str, list]]) -> tuple[str, Any]:
            """The tree's move in this world: an option never tried here (the tree grows by it), else UCB1's."""
            nonlocal node, grown
            moves = [(move, arg) for move, args in offered for arg in args]
            keys = [(move, arg_key(arg)) for move, arg in moves]  # an option's identity across worlds
            children = node.children
            untried: list[int] = []
            tried: list[_Node] = []  # (each option's child, when every option has one)
            for i, key in enumerate(keys):
                found = children.get(key)
                if found is None:
                    untried.append(i)
                else:
                    found.available += 1
                    tried.append(found)
            if untried:
                i = pick(self.rng, untried)
                child = children[keys[i]] = _Node(mover)
                child.available, grown = 1, True
            else:
                i = self._select(tried)
                child = tried[i]
            node = child
            path.append(child)
            return moves[i]

        while not world.over and not world.paused:
            mover = world.mover.index
            _step(world, descend)
            if grown or len(path) >= self.plies or _moved(world, start, watching):
                break
        rewards = self._playout(world, start, watching, seated)
        if hook is not None:
            world.after_move.remove(hook)
        self._scale = max(self._scale, max(map(abs, rewards)))
        for child in path:
            child.visits += 1
            child.total += rewards[child.mover]

    def _select(self, children: list[_Node]) -> int:
        """UCB1 over the options legal in this world, each one's child in order (availability counts, not the
        parent's visits)."""
        c, scale = self.exploration, self._scale  # (rewards scaled by the largest seen so far, every one alike)
        best, best_value = 0, -math.inf
        for i, child in enumerate(children):
            value = child.total / child.visits / scale + c * math.sqrt(math.log(child.available) / child.visits) \
                if child.visits else math.inf
            if value > best_value:
                best, best_value = i, value
        return best

    def _playout(self, world: Game, start: tuple, watching: bool, seated: dict[int, Any]) -> list[float]:
        """Play `world` on (by the agents `seated` in it, else at random) and score it: each player's reward."""
        rng = self.rng
        left = self.depth
        while left > 0 and not (world.over or world.paused or _moved(world, start, watching)):
            if self._deadline.passed():
                break  # (a playout stopped by the deadline: scored where it stands, as one cut off)
            if not seated:  # (moves in one loop, up to the first that writes what the evaluation reads)
                made = world.play_out(lambda offered: _random_move(offered, rng), left)
                if not made:  # (a world that others hear: one move at a time)
                    _step(world, lambda offered: _random_move(offered, rng))
                left -= made or 1
            else:
                world.apply(seated_choice(seated, world.decision()))
                left -= 1
        end = standing(world)
        if end == start and not world.over and world.program.estimate is not None:
            end, start = estimates(world), self._start_estimate  # cut off: the estimate of where things stand
        if world.program.evaluation is not None or world.program.estimate is not None:
            return [b - a for a, b in zip(start, end)]
        return list(end) if world.over else [0.0] * len(world.memory.players)  # cut off: no result


def _moved(world: Game, start: tuple, watching: bool) -> bool:
    """Whether the world's standing moved from `start` (a watched world: only once what it reads was written)."""
    return (world.watched_written or not watching) and standing(world) != start


def _random_move(offered: list[tuple[str, list]], rng: random.Random) -> tuple[str, Any]:
    """A random move kind, then a random one of its arguments: a rare kind of move (closing a hand, singing)
    is not drowned by the many options of a common one (which card to discard). `offered`: (move, its
    arguments) for each move asked (Game.play_out)."""
    move, args = offered[0]
    if len(offered) > 1:
        kinds: dict[str, list] = {}
        for name, more in offered:  # (a move asked twice offers its arguments twice)
            kinds[name] = kinds.get(name, []) + more
        if len(kinds) > 1:
            move = pick(rng, sorted(kinds))
        args = kinds[move]
    return move, pick(rng, args)


def _step(world: Game, choose: Callable[[list[tuple[str, list]]], tuple[str, Any]]) -> None:
    """One move of `world`, `choose(offered)` as in Game.play_out (a world that others hear: through `apply`)."""
    if not world.play_out(choose, 1):
        options = world.options()
        offered: list[tuple[str, list]] = []
        for option in options:  # (the options come move by move, in the order asked)
            if offered and offered[-1][0] == option.move:
                offered[-1][1].append(option.arg)
            else:
                offered.append((option.move, [option.arg]))
        move, arg = choose(offered)
        world.apply(next(o for o in options if o.move == move and o.arg is arg))


def estimates(world: Game) -> tuple:
    """Each player's estimate (how he stands counting the round in progress)."""
    program, memory = world.program, world.memory
    estimate = program.estimate
    assert estimate is not None  # called only for a rule file that declares one
    try:  # (program.located()'s handler: a `with` costs two calls of Python code each time, fault or not)
        return tuple(estimate(memory, memory.vars, p) for p in memory.players)
    except Exception as exc:
        program.raise_located(exc)


def standing(world: Game) -> tuple:
    """Each player's evaluation (the payoffs once the game is over, or without an evaluation; 0s mid-game)."""
    program, memory = world.program, world.memory
    evaluation = program.evaluation
    if evaluation is not None:
        try:  # (as estimates)
            return tuple(evaluation(memory, memory.vars, p) for p in memory.players)
        except Exception as exc:
            program.raise_located(exc)
    return tuple(world.payoffs()) if world.over else (0,) * len(memory.players)


def make_ismcts(seed: int | None = None, program: Program | None = None,
                make_policy: Callable[[str, int], Any] | None = None,
                options: dict[str, Any] | None = None) -> ISMCTSAgent:
    """``ismcts:iterations=N,seconds=S,exploration=C,policy=STRATEGY,infer=LEVEL,plies=N`` from its command-line
    options, read (naipes.language.vocabulary.agent_options)."""
    return ISMCTSAgent(seed, program=program, make_policy=make_policy, **(options or {}))
