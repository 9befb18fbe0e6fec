"""Open-hand solving of any rule file: every card shown, the best play and what it is worth.

:class:`OpenSolver` searches a game as it stands, hidden cards included, as if
every card were face up (a *world* of a search over hidden cards is such a
game: :meth:`naipes.agents.knowledge.Knowledge.world`). It plays lines through
the interpreter with :meth:`Game.make` and :meth:`Game.undo`, so it solves
whatever a rule file says, and stops a line where the rule file's
``evaluation`` changes (the end of a hand: a round scored, a poroto lost) or
where the game ends; a line cut after ``depth`` moves (or, with ``turns``,
turns: a player's moves in a row count as one, so a line is never cut in the
middle of a turn, between a rummy's draw and its discard, say) is scored by
the ``estimate`` less the root's evaluation, as a line that ends the hand is
by its evaluation (so the two compare; without an evaluation, the estimate's
change; without an estimate, the evaluation's).

What a position is worth is a change of each player's standing (the
evaluation; the payoffs of a game without one). With two players and a
zero-sum standing the value is exact. With more players it depends on what
the others are assumed to want, the *model*:

``paranoid``
    the others play together against one player (alpha-beta on that
    player's value): what he can make sure of, whatever they do.
``maxn``
    each player plays for his own value (max^n; ties are broken the same
    way in every search: the fewest points for the others, then the
    vector's order), a prediction rather than a guarantee.

When the rule file's ``teams:`` make two sides, either model searches
*two-sided* (``sides``): the player's partners maximise with him the side's
value (the mean of its members' values; a ``team: true`` variable gives them
one), the other side minimises it, alpha-beta as paranoid: exact when the
two sides' values sum to a constant.

The search: alpha-beta (paranoid) or max^n with a transposition table over
the game's canonical key (:meth:`Game.key`), the best move of an earlier
search of a position tried first, an optional strategy level's choice tried
first (`order`), and moves that differ only by cards the rule file cannot
tell apart merged (:mod:`naipes.agents.equivalence`). Iterative deepening
under a node budget gives the deepest search that fits (`nodes`).

>>> from naipes import Game, load_program
>>> game = Game(load_program("pocha", {"peak": "2", "random_seats": "false"}), seed=3)
>>> game.start()
>>> solution = OpenSolver("maxn").solve(game)
>>> solution.model, len(solution.moves) == len(game.options()), solution.complete
('maxn', True, True)
"""
from __future__ import annotations

import gc
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import ParamError
from ..library.builtins import TEAMS
from ..runtime.game import Game, Option
from ..runtime.memory import Baseline
from .deadline import Deadline
from .equivalence import Distinct
from .ismcts import estimates, standing

MODELS = {
    "paranoid": "the others play together against the player whose value it is",
    "maxn": "each player plays for his own value",
}
SIDES = "sides"  # the search of a game whose teams make two sides (whatever the model asked: see _prepare)
SEARCHES = {**MODELS, SIDES: "the player's side against the other: the rule file's teams make two sides"}
INFINITE = 1 << 30  # a depth left that never runs out
HISTORY_PLIES = 24  # a cut-off weighs 2 ** (HISTORY_PLIES - its ply) in the history heuristic
TABLE_TRIAL, TABLE_HITS = 1000, 50  # a kind of position is looked up while found once in 50 lookups (see _key)
FORCED_HITS = 20  # and its forced positions while found once in 20
Vector = tuple  # a standing change per player


class OutOfNodes(Exception):
    """The node budget or the time ran out in the middle of a search (iterative deepening keeps the last search
    done)."""


class NoCollector:
    """The cycle collector off for a search: a search makes and drops a great many small objects but no cycles
    (none found after 446,166 positions of Pocha), so the collector's passes, set off by the count of objects
    made, are waste: 2 to 4 % of a solve's time (benchmarks/bench_solver.py's positions, paired)."""

    def __enter__(self) -> None:
        self.collecting = gc.isenabled()
        gc.disable()

    def __exit__(self, *_: object) -> None:
        if self.collecting:
            gc.enable()


@dataclass
class Solution:
    """What the solver found for the position: each option's value, the best, the line of best play."""

    model: str  # paranoid, maxn, or sides (teams that make two sides)
    player: int  # the mover; paranoid and sides: also the player whose value `value` is (sides: his side's)
    value: Vector  # the position's value per player (paranoid: the player's alone is meaningful)
    moves: list[tuple[Option, Vector]]  # every legal option with its value
    best: list[Option]
    line: list[str] = field(default_factory=list)  # the principal line, option labels from the position on
    nodes: int = 0  # positions searched
    depth: int | None = None  # the depth of the deepest search done (None: to the end)
    complete: bool = True  # the values are exact to the end of the hand (no line was cut by depth)


class OpenSolver:
    """Alpha-beta (paranoid) or max^n over a game with every card shown. One solver may solve many positions, one
    after the other (its table serves one position's search: the deepening steps and the principal line)."""

    def __init__(self, model: str = "paranoid", depth: int | None = None, nodes: int | None = None,
                 order: Callable[[Game], Option | None] | None = None, merge: bool = True,
                 order_depth: int = 4, cut: Callable[[Game], Vector] | None = None, turns: bool = False,
                 begin: Callable[[Game], None] | None = None):
        """`depth`: moves searched before a line is cut (None: to the end of the hand); `nodes`: the budget of
        one `solve` (deepening two moves at a time until it runs out, up to `depth`; None: no budget);
        `order(game)`: an option to try first (a strategy's choice), asked in the first `order_depth` moves of
        a line; `merge`: options that differ by cards the rule file cannot tell apart are searched once;
        `cut(game)`: the standing a line cut by depth is worth (naipes.agents.rollout plays it on; by
        default the estimate, or the standing as it is); `turns`: `depth` counts turns, a player's moves in a
        row counting as one (a line is cut only where another player is to move); `begin(world)`: called with
        the search's own copy of the position before it is searched (a `cut` that plays lines on seats its
        players there, to see every move of the lines: rollout.Policies.follow)."""
        if model not in MODELS:
            raise ParamError(f"unknown model '{model}': choose {', '.join(MODELS)}")
        if depth is not None and depth < 1:
            raise ParamError(f"the depth is {depth}: it must be at least 1")
        self.model, self.depth, self.budget, self.order, self.order_depth = model, depth, nodes, order, order_depth
        self.merge, self.cut, self.turns, self.begin = merge, cut, turns, begin
        self.table: dict = {}
        self.nodes = 0
        self._limit = INFINITE
        self._deadline: Deadline | None = None
        self.out_of_time = False  # the last search was stopped by its deadline
        self._distinct: Distinct | None = None
        self._merging_for: tuple | None = None  # the program and deck size `_distinct` was made for
        # the table's use by kind of position (see _key): [searches, found], for the program `_stats_for`
        self._stats: dict[tuple, list[int]] = {}
        self._history: dict[tuple, int] = {}  # (player, option key) -> how often it cut a search off, weighted
        self._stats_for: Any = None
        self._ordered_slots: list[int] = []
        self._me = 0
        self._search = model  # the model searched: `model`, or sides where the teams make two
        self._side: tuple[int, ...] = ()  # paranoid and sides: the seats that maximise (the player's side)
        self._root_standing: Vector = ()
        self._root_estimate: Vector | None = None
        self._same: Baseline | None = None

    # ------------------------------------------------------------ the public calls
    def solve(self, game: Game, player: int | None = None, line: bool = True,
              deadline: Deadline | None = None) -> Solution:
        """Every option of the pending decision with its value, the best, and (`line`) the line of best play.
        `player` (paranoid): whose value (by default the mover's). The game is left as it is. Past the
        `deadline` (or the node budget) the deepest search done is kept; the first is finished regardless."""
        with NoCollector():
            return self._solve(game, player, line, deadline)

    def _solve(self, game: Game, player: int | None, line: bool, deadline: Deadline | None) -> Solution:
        world = self._prepare(game, player, deadline)
        done: tuple | None = None
        for depth in self._depths():
            try:
                scored, complete = self._root(world, depth)
            except OutOfNodes:
                if done is None:  # not even the shallowest search fitted: finish it regardless
                    self._limit, self._deadline = INFINITE, None
                    scored, complete = self._root(world, depth)
                    done = (scored, complete, depth)
                break
            done = (scored, complete, depth)
            if complete:
                break
        assert done is not None  # (the first depth is always searched)
        scored, complete, depth = done
        return self._solution(world, scored, complete, depth, line)

    def try_solve(self, game: Game, player: int | None = None, deadline: Deadline | None = None) -> Solution | None:
        """`solve` in one search (no line) to the solver's `depth` (to the end of the hand without one), or None if
        the node budget runs out first or the `deadline` passes (then `out_of_time` is set)."""
        with NoCollector():
            return self._try_solve(game, player, deadline)

    def _try_solve(self, game: Game, player: int | None, deadline: Deadline | None) -> Solution | None:
        world = self._prepare(game, player, deadline)
        depth = self.depth if self.depth is not None else INFINITE
        try:
            scored, complete = self._root(world, depth)
        except OutOfNodes:
            return None
        return self._solution(world, scored, complete, depth, False)

    def _solution(self, world: Game, scored: list[tuple[Option, Vector]], complete: bool, depth: int,
                  line: bool) -> Solution:
        mover = world.mover.index
        top = max(self._rank(value, mover) for _, value in scored)
        best = [option for option, value in scored if self._rank(value, mover) == top]
        value = next(value for option, value in scored if option is best[0])
        self._limit, self._deadline = INFINITE, None  # (the line is searched whatever the budget)
        shown = self._line(world, depth) if line else []
        return Solution(self._search, self._me if self._search != "maxn" else mover, value, scored, best, shown,
                        self.nodes, None if complete else depth, complete)

    def moves_left(self, game: Game, most: int = 1000) -> int:
        """How many moves one line from `game` takes to the end of the hand (the first option each time): how
        deep a search to the end must go."""
        world = self._prepare(game, None, None)
        count = 0
        while not self._leaf(world) and count < most:
            world.apply(world.options()[0])
            count += 1
        return count

    def values(self, game: Game, player: int | None = None) -> dict[tuple, float]:
        """Each option's value for `player` (the mover by default), by option key: what a player who sees every
        card expects of each move (naipes.agents.pimc averages it over worlds)."""
        solution = self.solve(game, player, line=False)
        seat = solution.player if player is None else player
        return {option.key: value[seat] for option, value in solution.moves}

    # ------------------------------------------------------------------ set up
    def _prepare(self, game: Game, player: int | None, deadline: Deadline | None) -> Game:
        """The search's own copy of `game`, watched for its evaluation, and what the search measures from and
        stops at."""
        if game.over or game.memory.pending is None:
            raise ParamError("the game is over: there is nothing to solve" if game.over else "no decision is pending")
        self.nodes = 0
        self._limit = self.budget if self.budget is not None else INFINITE
        self._deadline, self.out_of_time = deadline, False
        world = game.clone()
        program = world.program
        if program.evaluation is not None:
            world.pause_after(program.evaluation_reads)  # a line ends where the evaluation changes
        if self.begin is not None:
            self.begin(world)
        count = len(world.memory.players)
        self._me = world.mover.index if player is None else player
        if not 0 <= self._me < count:
            raise ParamError(f"no player {player}: the game has players 0..{count - 1}")
        self._search, self._side = self._sides(world)
        self._same = world.memory.baseline()  # (the table's keys are this root's: see Memory.key)
        self.table.clear()
        self._history.clear()
        if self._stats_for is not program:
            self._stats_for, self._stats = program, {}
            self._ordered_slots = [zone.slot for zone in world.memory.zones if zone.spec.ordered]
        self._root_standing = standing(world)
        self._root_estimate = estimates(world) if program.estimate is not None else None
        cards = list(world.memory.where)
        if self.merge and self._merging_for != (program, len(cards)):
            self._merging_for = (program, len(cards))
            distinct = Distinct(program, cards)
            self._distinct = distinct if distinct.attributes is not None else None  # (None: no two cards alike)
        return world

    def _sides(self, world: Game) -> tuple[str, tuple[int, ...]]:
        """The model searched and the seats that maximise: two-sided where the rule file's teams make two sides
        of more than one player in all (the player's team against the other), else the model asked (paranoid:
        the player alone)."""
        teams = world.memory.vars[TEAMS]
        if world.program.teams is not None and len(set(teams)) == 2 and len(teams) > 2:
            own = teams[self._me]
            return SIDES, tuple(seat for seat, number in enumerate(teams) if number == own)
        return self.model, (self._me,)

    def _depths(self) -> list[int]:
        """The depths to search, deepest last: one to the end (no budget), else deepening by `depth` moves (or
        one) under the budget, up to `depth` if one is set."""
        if self.budget is None:
            return [self.depth if self.depth is not None else INFINITE]
        if self.depth is not None:
            return [self.depth]
        return [*range(2, 64, 2), INFINITE]

    def _root(self, world: Game, depth: int) -> tuple[list[tuple[Option, Vector]], bool]:
        """Every root option's value (exact, no cut at the root), and whether none was cut by depth."""
        scored, complete = [], True
        known: dict = {}  # an option's merged class -> its value
        for option in self._ordered(world, world.options(), None, 0):
            merged = self._distinct.of(world, option) if self._distinct is not None else option.key
            if merged in known:
                scored.append((option, known[merged]))
                continue
            mover = world.mover.index
            point = world.make(option)
            try:
                below = self._below(world, depth, mover)
                if self._search != "maxn":
                    value, whole = self._paranoid(world, -math.inf, math.inf, below, 1)
                    vector = self._as_vector(world, value)
                else:
                    vector, whole = self._maxn(world, below, 1)
            finally:
                world.undo(point)
            complete = complete and whole
            known[merged] = vector
            scored.append((option, vector))
        order = {option.key: i for i, option in enumerate(world.options())}
        scored.sort(key=lambda pair: order[pair[0].key])
        return scored, complete

    def _as_vector(self, world: Game, value: float) -> Vector:
        """A paranoid or sides value as a vector: the value in the places of the player's side (the others' are not
        searched: 0)."""
        vector = [0.0] * len(world.memory.players)
        for seat in self._side:
            vector[seat] = value
        return tuple(vector)

    def _side_value(self, vector: Vector) -> float:
        """What the player's side gets of a value vector: the mean over its members (his own, alone)."""
        side = self._side
        if len(side) == 1:
            return float(vector[side[0]])
        return sum(vector[seat] for seat in side) / len(side)

    # ------------------------------------------------------------ the leaves
    def _leaf(self, world: Game) -> bool:
        return world.over or world.paused or world.watched_written

    def _leaf_vector(self, world: Game) -> Vector:
        """The standing's change from the root (the game over or its evaluation changed)."""
        return tuple(b - a for a, b in zip(self._root_standing, standing(world)))

    def _cut_vector(self, world: Game) -> Vector:
        """A line cut by depth: the standing `cut` gives, else the estimate (without one, the standing: no change
        mid-hand), less the root's standing, as a line that ends the hand is measured: the hand in progress at
        the root is what the lines decide, and a line that ends it (a close) counts it only as its standing
        does. (Without an evaluation, the estimate's change.)"""
        if self.cut is not None:
            return tuple(b - a for a, b in zip(self._root_standing, self.cut(world)))
        if self._root_estimate is None:
            return self._leaf_vector(world)
        root = self._root_standing if world.program.evaluation is not None else self._root_estimate
        return tuple(b - a for a, b in zip(root, estimates(world)))

    # ---------------------------------------------------------------- paranoid
    def _paranoid(self, world: Game, alpha: float, beta: float, depth: int, ply: int) -> tuple[float, bool]:
        """The player's value at `world` within (alpha, beta), and whether no line was cut by depth."""
        ended, complete, key, entry = self._reach(world, depth)
        if ended is not None:
            return self._side_value(ended), complete
        hint = None
        if entry is not None:
            lower, upper, searched, hint = entry
            if searched in (INFINITE, depth):
                if lower >= beta or lower == upper:
                    return lower, searched == INFINITE
                if upper <= alpha:
                    return upper, searched == INFINITE
                alpha, beta = max(alpha, lower), min(beta, upper)
        low, high = alpha, beta
        mover = world.mover.index
        maximising = mover in self._side
        best, best_key = (-math.inf if maximising else math.inf), None
        for option in self._distinct_options(world, hint, ply):
            point = world.make(option)
            try:
                below = self._below(world, depth, mover) if self.turns else depth - 1  # (a call less a node)
                value, whole = self._paranoid(world, alpha, beta, below, ply + 1)
            finally:
                world.undo(point)
            complete = complete and whole
            if maximising:
                if value > best:
                    best, best_key = value, option.key
                    alpha = max(alpha, value)
            elif value < best:
                best, best_key = value, option.key
                beta = min(beta, value)
            if alpha >= beta:
                cut = (mover, option.key)
                self._history[cut] = self._history.get(cut, 0) + (1 << max(0, HISTORY_PLIES - ply))
                break
        if key is not None:
            lower = best if best > low else -math.inf  # fail-low: an upper bound only; fail-high: a lower bound
            upper = best if best < high else math.inf
            self.table[key] = (lower, upper, INFINITE if complete else depth, best_key)
        return best, complete

    # -------------------------------------------------------------------- max^n
    def _maxn(self, world: Game, depth: int, ply: int) -> tuple[Vector, bool]:
        """The value vector at `world` (each player choosing the best for himself), and whether no line was cut."""
        ended, complete, key, entry = self._reach(world, depth)
        if ended is not None:
            return ended, complete
        hint = None
        if entry is not None:
            vector, searched, hint = entry
            if searched in (INFINITE, depth):
                return vector, searched == INFINITE
        mover = world.mover.index
        best: Vector | None = None
        best_own = 0.0
        best_key = None
        for option in self._distinct_options(world, hint, ply):
            point = world.make(option)
            try:
                below = self._below(world, depth, mover) if self.turns else depth - 1
                vector, whole = self._maxn(world, below, ply + 1)
            finally:
                world.undo(point)
            complete = complete and whole
            own = vector[mover]
            if best is None or own > best_own or (own == best_own and
                                                  self._rank(vector, mover) > self._rank(best, mover)):
                best, best_own, best_key = vector, own, option.key
        assert best is not None  # a pending decision has options
        if key is not None:
            self.table[key] = (best, INFINITE if complete else depth, best_key)
        return best, complete

    def _below(self, world: Game, depth: int, mover: int) -> int:
        """The depth left once `mover` has moved: one less, but (turns) the same while he is still to move."""
        if self.turns and not self._leaf(world) and world.mover.index == mover:
            return depth
        return depth - 1

    def _reach(self, world: Game, depth: int) -> tuple[Vector | None, bool, tuple | None, Any]:
        """A position the search reaches: (its value vector, True) at the end of the hand, (the cut's value,
        False) at the depth's; else (None, True, its table key or None, the table's entry or None)."""
        if self._leaf(world):
            return self._leaf_vector(world), True, None, None
        if depth <= 0:
            return self._cut_vector(world), False, None, None
        self.nodes += 1
        if self.nodes > self._limit:
            raise OutOfNodes
        if self._deadline is not None and self._deadline.passed():
            self.out_of_time = True
            raise OutOfNodes
        return self._key(world)

    def _distinct_options(self, world: Game, hint: Any, ply: int) -> list[Option]:
        """The options in the order to search them, one of each class of options that differ only by cards the
        rule file cannot tell apart."""
        options = self._ordered(world, world.options(), hint, ply)
        distinct = self._distinct
        if distinct is None:
            return options
        seen: set = set()
        kept = []
        for option in options:
            merged = distinct.of(world, option)
            if merged not in seen:
                seen.add(merged)
                kept.append(option)
        return kept

    def _key(self, world: Game) -> tuple[None, bool, tuple | None, Any]:
        """_reach's answer for a position to search: (None, True, its key in the table or None, the table's
        entry or None). None where the table is not worth its keys: kinds of positions that do not meet again
        (told apart by the lengths of the ordered zones, a trick's cards so far: a kind that after TABLE_TRIAL
        searches was found in the table less than once in TABLE_HITS is no longer looked up; a trick-taking
        game's positions meet again only between tricks), and a forced move's position unless its kind is
        found in the table at least once in FORCED_HITS lookups (a forced move has nothing to order, and its
        position is worth its key only where that saves the line it begins: a hand's last trick, whose forced
        cards end in the hand's scoring, met again from another order of the tricks before)."""
        forced = len(world.options()) == 1
        zones = world.memory.zones
        shape = tuple([len(zones[slot]) for slot in self._ordered_slots])
        stats = self._stats.get(shape)
        if stats is None:
            if forced:
                return None, True, None, None
            stats = self._stats[shape] = [0, 0]
        elif stats[0] >= TABLE_TRIAL and stats[1] * TABLE_HITS < stats[0] or forced and (
                not stats[1] or stats[1] * FORCED_HITS < stats[0]):
            return None, True, None, None
        key = world.key(True, 0, self._same)
        stats[0] += 1
        entry = self.table.get(key)  # (one lookup: a key is a long tuple, hashed anew each time)
        if entry is not None:
            stats[1] += 1
        return None, True, key, entry

    def _rank(self, vector: Vector, mover: int) -> tuple:
        """How a player prefers outcomes: his own value first; max^n breaks ties by the fewest points for the
        others, then by the vector (the same choice whatever order the moves are searched in)."""
        if self._search != "maxn":
            return (vector[self._me],)
        return (vector[mover], -(sum(vector) - vector[mover]), tuple(-x for x in vector))

    # ---------------------------------------------------------------- ordering
    def _ordered(self, world: Game, options: list[Option], hint: Any, ply: int) -> list[Option]:
        """The options in the order to search them: the table's best move of an earlier search of the position
        first, else the strategy's choice (`order`); then, paranoid, the moves that cut searches off most
        often so far for the same player (the history heuristic: a card that refutes one line often refutes
        its neighbours)."""
        if len(options) < 2:
            return options
        if self._search != "maxn" and self._history:
            mover, history = world.mover.index, self._history
            options = sorted(options, key=lambda option: -history.get((mover, option.key), 0))
        first = hint
        if first is None and self.order is not None and ply < self.order_depth:
            chosen = self.order(world)
            first = chosen.key if chosen is not None else None
        if first is None:
            return options
        for i, option in enumerate(options):
            if option.key == first:
                return [option] + options[:i] + options[i + 1:] if i else options
        return options

    # -------------------------------------------------------- the principal line
    def _line(self, world: Game, depth: int) -> list[str]:
        """The labels of the line of best play from the root, each move one of best value where it is played."""
        line: list[str] = []
        points: list[tuple] = []
        left = depth
        try:
            while not self._leaf(world) and left > 0:
                mover = world.mover
                chosen = max(world.options(), key=lambda option: self._preference(world, option, left))
                line.append(f"{mover.name}: {chosen.label}")
                points.append(world.make(chosen))
                left = self._below(world, left, mover.index)
        finally:
            while points:
                world.undo(points.pop())
        return line

    def _preference(self, world: Game, option: Option, depth: int) -> tuple:
        """How much the player to move likes `option` (searched to `depth` from here): the larger, the better."""
        mover = world.mover.index
        point = world.make(option)
        try:
            depth = self._below(world, depth, mover)
            if self._search != "maxn":
                value = self._paranoid(world, -math.inf, math.inf, depth, 1)[0]
                return (value if mover in self._side else -value,)
            return self._rank(self._maxn(world, depth, 1)[0], mover)
        finally:
            world.undo(point)
