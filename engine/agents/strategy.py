"""A seat played by a strategy file (:mod:`naipes.language.strategies` compiles it).

The agent matches the strategy's decision rules over its seat's view with the
game engine's own :class:`~naipes.runtime.agenda.Agenda`, runs its observation
rules after the moves they watch, and keeps the seat's private memory.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from operator import is_
from typing import Any

from ..errors import GameError, ParamError
from ..language.strategies import BEGUN, OFFERED, Strategy
from ..library.builtins import pick
from ..library.limits import GAME_STEPS
from ..program import CardBase, PlayerBase
from ..runtime.agenda import new_agenda
from ..runtime.game import Decision, Game, Option, arg_key
from ..runtime.memory import Zone


class StrategyAgent:
    """Plays a seat by a strategy file; keeps the seat's private memory for the game."""

    def __init__(self, strategy: Strategy, seed: int | None = None, fallback: Callable[[], Any] | None = None):
        """`fallback` makes the agent of the strategy's ``default:`` when it names one
        (:func:`naipes.agents.registry.strategy_agent` gives it)."""
        if strategy.default not in ("first", "random") and fallback is None:
            raise ParamError(f"strategy {strategy.name}: its default '{strategy.default}' is an agent; "
                             "make the seat with naipes.agents.registry.strategy_agent")
        self.strategy = strategy
        self.make_fallback = fallback
        self.name = strategy.name
        self.rng = random.Random(seed)
        self.memory: dict[str, Any] = {}
        self._plain: dict[str, Any] = {}  # memory name -> its value when last found to hold no player or zone
        self.scopes: dict[str, Any] = {}  # memory name -> the value of its `reset:` when it last started
        self.game: Game | None = None
        self.seat: int | None = None
        self._fallback: Any = None
        self.last_rule: str | None = None
        # names an observation reads -> (the game's memory, what its view was made of, the view): see _observed
        self._views: dict[frozenset, tuple] = {}
        self._decided: Any = None  # the view of the last decision, renewed for the next (Memory.seen_by `into`)
        # the steps the strategy may still spend in this game, every decision and observation together, and the
        # view spending them now (see naipes.library.limits.GAME_STEPS: its memory is kept across decisions)
        self.left = GAME_STEPS
        self._spending: Any = None

    def reseed(self, seed: int) -> None:
        self.rng.seed(seed)

    def twin(self, game: Game, seat: int, seed: int) -> StrategyAgent:
        """A copy that plays `seat` in `game` (a search's world) from this agent's memory, its generator seeded with
        `seed` (the fallback agent and what is known of plain values shared; views its own)."""
        twin = StrategyAgent(self.strategy, seed, self.make_fallback)
        twin.game, twin.seat, twin.memory, twin.scopes = game, seat, dict(self.memory), dict(self.scopes)
        twin._plain, twin._fallback, twin.last_rule = self._plain, self._fallback, self.last_rule
        return twin

    def saved(self) -> tuple:
        """What a search's `undo` gives back (Game.followers): the memory, its scopes and the steps left."""
        return self.memory, dict(self.scopes), self.left, self.last_rule

    def restore(self, saved: tuple) -> None:
        self.memory, self.scopes, self.left, self.last_rule = saved  # (memory is never changed in place: _keep)

    def attach(self, game: Game, seat: int) -> None:
        """A new game: start the memory, and watch the moves the observation rules are about."""
        self.game, self.seat = game, seat
        self.memory, self._views, self._decided = {}, {}, None
        self.left = GAME_STEPS
        view = self._view(game, {})
        with self.strategy.program.located():
            self.memory = {var.name: var.init(view, view.vars) for var in self.strategy.memory}
            self.scopes = {name: reset(view, view.vars) for name, reset in self.strategy.resets.items()}
        if self.strategy.observations:
            game.after_move.append(self.note_move)

    # ---------------------------------------------------------------- deciding
    def choose(self, decision: Decision) -> Option:
        game = decision.game
        option, rule = self.decide(decision)
        self.last_rule = rule
        if game.listeners:
            record = {"type": "strategy", "player": decision.player_name, "strategy": self.name,
                      "rule": rule, "choice": option.label}
            for listener in game.listeners:
                listener(record)
        return option

    def decide(self, decision: Decision) -> tuple[Option, str]:
        """The chosen option and the rule that chose it (or the default)."""
        if decision.game is not self.game or decision.player != self.seat:
            self.attach(decision.game, decision.player)  # not seated by play_game: it sees the game from now on
        strategy, program = self.strategy, self.strategy.program
        offered: dict = {None: _unique([o.arg for o in decision.options])}
        for o in decision.options:
            offered.setdefault(o.move, []).append(o.arg)
        # (what the strategy reads, in the last decision's view renewed: nothing holds it once a decision is made)
        view = self._decided = self._view(decision.game, offered, self.strategy.decision_reads, into=self._decided)
        V = view.vars
        begun = decision.game.begun()
        V[BEGUN] = view.localize(begun[1]) if begun is not None else ()
        agenda = new_agenda(program)
        fired = 0
        with program.located():
            agenda.start(view, lazy=True)  # (the first rule that chooses ends it: the rules after it are not matched)
            while (act := agenda.pop_from(view)) is not None:
                binding = act.binding  # (bound in this view: its own players and zones)
                rule = act.rule
                fired += 1
                if fired > program.max_firings:
                    raise GameError(f"strategy {self.name}: more than {program.max_firings} rule firings in one "
                                    "decision", rule.location)
                if rule.choose is not None:
                    option = _matching(decision.options, rule.move, rule.choose(view, V, *binding))
                    if option is None:
                        continue
                    rule.action(view, V, *binding)
                    self._keep(V)
                    return option, rule.name
                rule.action(view, V, *binding)
                agenda.update(view)
        self._keep(V)
        return self._default(decision), f"default ({strategy.default})"

    def _default(self, decision: Decision) -> Option:
        default = self.strategy.default
        if default == "first":
            return decision.options[0]
        if default == "random":
            return pick(self.rng, decision.options)
        if self._fallback is None:
            assert self.make_fallback is not None  # checked when made: a default naming an agent needs it
            self._fallback = self.make_fallback()
            if hasattr(self._fallback, "rng"):
                self._fallback.rng = self.rng  # one seeded generator per seat
        return self._fallback.choose(decision)

    # --------------------------------------------------------------- observing
    def note_move(self, game: Game, player: PlayerBase, option: Option) -> None:
        """Run the strategy's observation rules of the move `player` just made (a search's playouts call it too)."""
        rules = self.strategy.observations.get(option.move)
        if not rules:
            return
        arg = option.arg
        reads = self.strategy.observed_reads[option.move]
        if isinstance(arg, Zone) and arg.name not in reads:
            reads = reads | {arg.name}
        view = self._observed(game, reads)  # (only what the observation rules read)
        V = view.vars
        if isinstance(arg, CardBase) and not game.memory.shows(arg, self.seat):
            arg = None  # a card this seat did not see
        elif isinstance(arg, (PlayerBase, Zone)):
            arg = view.localize(arg)
        mover = view.players[player.index]
        with self.strategy.program.located():
            for rule in rules:
                if rule.when(view, V, mover, arg):
                    rule.then(view, V, mover, arg)
        self._keep(V)

    # ------------------------------------------------------------------- views
    def _observed(self, game: Game, reads: frozenset) -> Any:
        """The view an observation reads: the one made for the last observation reading `reads`, when all it
        was made of is unchanged (the state it keeps, the decision pending, the end: Memory.made_of), else that
        view renewed (Memory.seen_by `into`: its players and zones filled in again)."""
        assert self.seat is not None  # attached before its first observation
        memory = game.memory
        made_of = memory.made_of(self.seat, reads)
        kept = self._views.get(reads)
        if made_of is not None and kept is not None and kept[0] is memory and kept[1] == made_of:
            view = kept[2]
            view.restart()
            return self._filled(view, {})
        view = self._view(game, {}, reads, into=kept[2] if kept is not None else None)
        self._views[reads] = (memory, made_of, view)
        return view

    def _view(self, game: Game, offered: dict, reads: frozenset | None = None, into: Any = None) -> Any:
        assert self.seat is not None  # attached before its first decision
        return self._filled(game.memory.seen_by(self.seat, reads, into=into), offered)

    def _filled(self, view: Any, offered: dict) -> Any:
        """`view` given the seat's generator and memory, `me` and the arguments offered."""
        assert self.seat is not None  # (as above)
        self._settle()
        if self.left <= 0:
            raise GameError(f"strategy {self.name}: more than {GAME_STEPS:,} steps in this game (items gone over by "
                            "loops, calls of functions, items of the lists and texts made): it runs away")
        view.left, view.steps = self.left, min(view.per_operation, self.left)
        view.allowance, self._spending = view.steps, view
        view.rng = self.rng
        V = view.vars
        for name, value in self.memory.items():
            V[name] = self._localized(view, name, value)
        V["me"] = view.players[self.seat]
        V[OFFERED] = {move: view.localize(args) for move, args in offered.items()} if offered else {}  # (the view's)
        if self.strategy.resets:
            self._reset_scopes(view)
        return view

    def _localized(self, view: Any, name: str, value: Any) -> Any:
        """A memory value with its players and zones made the view's. One found to hold none is kept as it
        is (values are never changed in place), and a list that grew from one such (`gone = gone + [c]`)
        is checked only in its new items."""
        known = self._plain.get(name)
        if known is value:
            return value
        if known.__class__ is list and value.__class__ is list and len(value) > len(known) and \
                all(map(is_, known, value)):
            new = value[len(known):]
            local = value if view.localize(new) is new else view.localize(value)
        else:
            local = view.localize(value)
        if local is value:
            self._plain[name] = value
        return local

    def _reset_scopes(self, view: Any) -> None:
        """Start again the memory whose `reset:` value changed (a new hand, say)."""
        V, resets, scopes = view.vars, self.strategy.resets, self.scopes
        with self.strategy.program.located():
            for var in self.strategy.memory:
                reset = resets.get(var.name)
                if reset is not None and (scope := reset(view, V)) != scopes.get(var.name):
                    scopes[var.name] = scope
                    V[var.name] = var.init(view, V)

    def _keep(self, V: dict) -> None:
        self.memory = {name: V[name] for name in self.memory}
        self._settle()

    def _settle(self) -> None:
        """Take what the view in use spent from the steps the strategy may still spend."""
        view = self._spending
        if view is not None:
            self.left, self._spending = view.left - (view.allowance - view.steps), None


def _unique(values: list) -> list:
    return list({arg_key(v): v for v in values}.values())


def _matching(options: list[Option], move: str | None, value: Any) -> Option | None:
    """The offered option a rule's `choose` gave `value` for (of its `move`, if it names one), or None.

    For a move that takes no argument, `value` says whether to make it: true (`choose: yes`) chooses it."""
    if value is None:
        return None
    if move is not None and isinstance(value, bool):
        argless = next((o for o in options if o.move == move and o.arg is None), None)
        if argless is not None:
            return argless if value else None
    wanted = arg_key(value)
    return next((o for o in options if (move is None or o.move == move) and arg_key(o.arg) == wanted), None)
