"""The interpreter: runs a compiled program, one game at a time.

The cycle (docs/engine.md): fire rules (match, resolve, act) until no activation
is left; then put the pending decision to the player whose turn it is; apply
the chosen move; continue.  A game that has neither an activation nor a
decision before it is over is an error naming the phase, and a runaway cycle
is cut by ``max_firings`` with the rules involved.

>>> from naipes import load_program
>>> from naipes.agents.registry import RandomAgent
>>> result = play_game(load_program("fichas"), [RandomAgent(1), RandomAgent(2)], seed=7)
>>> sorted(result.payoffs), result.cut_off   # the chip game has one winner
([0, 1], None)
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final, Protocol, cast

from ..errors import GameError, Location, NaipesError
from ..library.builtins import pick
from ..library.limits import MAX_STEPS
from ..program import LEAVE, MoveSpec, PartSpec, Program, RuleSpec, ViewSpec, attribute, declared
from .agenda import Activation, Agenda, memory_local, new_agenda
from .memory import (
    CARD_CLASS,
    FACT_CLASS,
    PLAYER_CLASS,
    ZONE_CLASS,
    Baseline,
    CardBase,
    Memory,
    PlayerBase,
    Zone,
    new_memory,
    sees,
)

Listener = Callable[[dict[Any, Any]], None]
SHAREABLE: Final = frozenset({int, str, type(None)})  # argument kinds whose options games may share (besides cards)
UNSEEN: Final = object()  # no watched name written yet (see Game.pause_after)
NONE_FOUND: Final[list[Any]] = []  # no options or arguments (Game._offer; never changed: it is shared)
STUCK_RULES_SHOWN = 8  # rules a "the game is stuck" error lists, with why each is idle


class MoveRun:
    """What a game reads of a move at each decision, as fields of its own (compiled, a game reads them
    directly, and a MoveSpec's through attribute lookups). Made once per program (see `move_runs`)."""

    __slots__ = ("spec", "name", "choices", "effect", "fixed_label", "shared", "parts")

    def __init__(self, spec: MoveSpec):
        self.spec = spec
        self.name: str = spec.name
        # (every move of a built program has them)
        self.choices: Callable[..., Any] = spec.choices  # type: ignore[assignment]
        self.effect: Callable[..., Any] = spec.effect
        self.fixed_label: bool = spec.fixed_label
        self.parts: tuple[PartSpec, ...] = spec.parts  # (a compound move's later choices: Memory.partial)
        # a number's or a text's option, shared by every game of the program (_options_of)
        self.shared: dict[Any, Any] = {}


def move_runs(program: Program) -> dict[str, MoveRun]:
    """The program's moves by name, as a game reads them at each decision (kept in the program's caches)."""
    runs: dict[str, MoveRun] | None = program.caches.get("move runs")
    if runs is None:
        runs = program.caches["move runs"] = {spec.name: MoveRun(spec) for spec in program.moves.values()}
    return runs


class Option:
    """One legal choice: a move kind and its argument, with a readable label.

    Options are equal when move and argument are; the label is computed on
    first use (search never needs it).
    """

    __slots__ = ("move", "arg", "_label", "_labeller", "_key")

    def __init__(self, move: str, arg: Any, label: str | None = None, labeller: Callable[..., Any] | None = None):
        self.move = move
        self.arg = arg
        self._label = label
        self._labeller = labeller
        self._key: tuple[Any, ...] | None = None

    @property
    def label(self) -> str:
        if self._label is None:
            assert self._labeller is not None  # an option is made with its label or a labeller
            self._label = self._labeller(self)
            self._labeller = None
        return self._label

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Option) and self.move == other.move and self.arg == other.arg

    def __hash__(self) -> int:
        return hash((self.move, repr(self.arg)))

    def __repr__(self) -> str:
        return f"Option({self.move!r}, {self.label!r})"

    def __str__(self) -> str:
        return self.label

    @property
    def key(self) -> tuple[Any, ...]:
        """The option's identity across copies of a game: cards by id, players by seat, zones by slot."""
        if self._key is None:
            self._key = self.move, arg_key(self.arg)
        return self._key


# a move to make: its player, its option (a compound move's first), the values its effect takes (Game._take)
Made = tuple[PlayerBase, Option, tuple[Any, ...]]
Waiting = tuple[PlayerBase, tuple[str, ...]]  # the player a decision waits for, and the moves he is asked

def arg_key(arg: Any) -> Any:
    """A move argument's identity across copies of a game (a bid of 1 is not True)."""
    if isinstance(arg, CARD_CLASS):
        return "card", arg.id
    if isinstance(arg, PLAYER_CLASS):
        return "player", arg.index
    if isinstance(arg, ZONE_CLASS):
        return "zone", arg.slot
    return arg.__class__.__name__, repr(arg)


class Decision:
    """What an agent is asked: its seat, its view, the legal options.

    The view (what this player can see) is built when first read. `game` is
    the game itself: for in-process agents (bots get only views).
    """

    __slots__ = ("player", "player_name", "moves", "options", "game", "_view")

    def __init__(self, player: int, player_name: str, moves: tuple[str, ...], options: list[Option], game: Game):
        self.player = player
        self.player_name = player_name
        self.moves = moves
        self.options = options
        self.game = game
        self._view: dict[Any, Any] | None = None

    def __repr__(self) -> str:
        return f"Decision(player={self.player!r}, player_name={self.player_name!r}, moves={self.moves!r}, " \
               f"options={self.options!r})"

    @property
    def view(self) -> dict[Any, Any]:
        if self._view is None:
            self._view = self.game.view(self.player)
        return self._view

    @property
    def history(self) -> list[str]:
        """The public record of the game so far (moves and announcements), if the game keeps one."""
        return list(self.game.history or ())

    def simulator(self) -> Game:
        """A copy of the game to search, for perfect-information games only."""
        if not self.game.program.perfect_information:
            raise NaipesError(f"{self.game.program.name} hides information: it cannot be searched exactly")
        return self.game.clone()

    def explain_illegal(self, move: str, arg: Any) -> str | None:
        """Why an option the player named is not legal (None if it is)."""
        return self.game.explain_illegal(move, arg)

    def explain_illegal_label(self, label: str) -> str | None:
        """Why the option labelled `label` (any case) is not legal, if it names one."""
        return self.game.explain_label(label)


class Agent(Protocol):
    """A seat's player: given a decision, return one of its options."""

    name: str

    def choose(self, decision: Decision) -> Option: ...


class QuitGame(Exception):
    """A human asked to stop; the game ends early."""


@dataclass
class GameResult:
    winners: tuple[int, ...]
    payoffs: list[float]
    names: list[str]
    decisions: int
    firings: int
    seed: int | None
    cut_off: str | None = None  # why the game was stopped before its end (see Game.apply), if it was


def jsonable(value: Any) -> Any:
    """A value as JSON data: cards and players by name, zones by name (`stock`, `P1.hand`: never their cards, which
    only a seat's view shows as that seat sees them), facts as their fields."""
    if isinstance(value, (CARD_CLASS, PLAYER_CLASS)):
        return value.name
    if isinstance(value, FACT_CLASS):
        return {declared(field): jsonable(v) for field, v in zip(value.fields(), value)}
    if isinstance(value, ZONE_CLASS):
        return value.name if value.owner is None else f"{value.owner.name}.{value.name}"
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((jsonable(v) for v in value), key=str)
    if isinstance(value, dict):
        return {str(jsonable(k)): jsonable(v) for k, v in value.items()}
    if callable(value):  # (never shown as Python writes it: a generated name and an address)
        raise GameError("a function (a lambda, a built-in) is not a value to show: a view, a log and a table show "
                        "numbers, texts, cards, players, zones and collections of them")
    return value


def card_order(card: CardBase) -> tuple[Any, ...]:
    """Cards of an unordered zone are shown sorted by their attributes, in declared order."""
    return tuple((0, v) if isinstance(v, (int, float)) else (1, str(v)) for v in
                 (getattr(card, attribute(a)) for a in card.attributes))


class Game:
    """One game of a program: its memory, its agenda, its listeners.

    >>> from naipes import load_program
    >>> game = Game(load_program("fichas", {"chips": "R1 R2 B1"}), seed=1)
    >>> game.start()
    >>> [o.label for o in game.options()]
    ['colour B', 'colour R', 'value 1', 'value 2']
    >>> copy = game.clone(); copy.apply(copy.options()[1])
    >>> game.view(0)["zones"]["table"], copy.view(0)["zones"]["table"]
    (['B1', 'R1', 'R2'], ['B1'])
    >>> copy.over, copy.to_move.name
    (False, 'P2')
    """

    def __init__(self, program: Program | None = None, seed: int | None = None, *, players: int | None = None,
                 names: list[str] | None = None):
        """`program` None: a blank game, which `clone` fills in (a compiled class makes its objects through
        `__init__`)."""
        if program is None:
            return
        self.program = program
        self.seed = seed
        self.memory: Memory = new_memory(program, seed, names, players)
        self.agenda: Agenda = new_agenda(program)
        self.runs: dict[str, MoveRun] = move_runs(program)
        self.watch_from = program.watch_from  # (read at each advance: a field of a compiled Game is one load)
        self.listeners: list[Listener] = []  # receive every record, rule firings included (logs, traces)
        # receive the public records only: moves (as the other players see them), announcements, faults, the end
        self.observers: list[Listener] = []
        # f(game, player, option), called just before a move takes effect and just after (before the rules react)
        self.before_move: list[Callable[[Game, PlayerBase, Option], None]] = []
        self.after_move: list[Callable[[Game, PlayerBase, Option], None]] = []
        # what follows the moves of a search's world and is taken back with them (make, undo): objects with
        # `saved()` and `restore(saved)`, such as the players' agents a search seats in it, who remember moves
        self.followers: list[Any] = []
        self.history: list[str] | None = None  # a list once keep_history() is called
        self.firings = 0
        self.decisions = 0
        self.cut_off: str | None = None
        # a search's pause (see pause_after): the names watched, the phase they changed in, whether it paused
        self.watched: frozenset[Any] | None = None
        # the watched keys' `isdisjoint`, bound once: a search asks it after each move and rule, and a compiled
        # method call of a frozenset looks the method up each time
        self._misses_watched: Callable[[set[Any]], bool] | None = None
        self._watched_phase: Any = UNSEEN
        self.paused = False
        self._options: list[Option] | None = None
        self._labellers: dict[tuple[str, int], Callable[[Option], str]] = {}  # (move, seat) -> see _labeller
        self._labels_left = MAX_STEPS  # the steps the labels of the options offered last may still spend together
        self._recent: list[str] = []  # rules fired near the firing limit (to name a runaway cycle)
        self._untold: list[dict[str, Any]] = []  # the records of answers held until all are in (Memory.ask_group)

    def pause_after(self, names: frozenset[Any]) -> None:
        """Fire no rule of another phase once a move or a rule in some phase has written one of `names`
        (variables, a player's by name): a search that scores positions by what they hold (the evaluation's
        names) plays no further than the end of the phase in which they changed (a playout to the end of a
        hand stops before the next deal), nor than the step of the phase's entry after which no step can
        write them again (Memory.in_phase). The game is then `paused`: a position to score, not to play on."""
        # as the memory's dirty keys: a name, or (a name, a seat) for players' variables and zones; the same for
        # every world of a search (kept in the program's caches, by the names and the number of players)
        players = self.memory.players
        cache_key = ("watched", names, len(players))
        halt: tuple[frozenset[Any], frozenset[Any]] | None = self.program.caches.get(cache_key)
        if halt is None:
            named = frozenset(names)
            halt = (named, named | {(name, p.index) for name in names for p in players})
            self.program.caches[cache_key] = halt
        self.watched = halt[1]
        self._misses_watched = halt[1].isdisjoint
        self.memory.halt = halt

    @property
    def watched_written(self) -> bool:
        """Whether a move or a rule wrote one of the names watched (see pause_after) since the watch began."""
        return self._watched_phase is not UNSEEN

    def _note_writes(self, phase: Any) -> None:
        """A move or a rule that ran in `phase` wrote the dirty keys: is one of them watched?"""
        misses = self._misses_watched
        if self._watched_phase is UNSEEN and misses is not None and not misses(self.memory.dirty):
            self._watched_phase = phase
        if self.memory.halted:  # (a phase's entry stopped after the steps that could write them)
            self.paused = True

    def keep_history(self) -> None:
        """Record every move and announcement as text (for players who ask for the history)."""
        if self.history is None:
            self.history = []
            self.observers.append(self._record_history)

    def _record_history(self, record: dict[Any, Any]) -> None:
        assert self.history is not None  # observing since keep_history made the list
        if record["type"] == "announce":
            self.history.append(record["text"])
        elif record["type"] == "decision" and (told := self.program.told(record["move"], record["player"],
                                                                          record["choice"])):
            self.history.append(told)  # (as the table tells it: the move's `verb:`; nothing for an empty public)

    # ------------------------------------------------------------- lifecycle
    def start(self) -> None:
        """Run setup and fire rules up to the first decision."""
        if self.listeners or self.observers:  # (the position's view costs a game of few moves dearly)
            self.emit({"type": "start", "game": self.program.name, "seed": self.seed,
                       "params": self.program.param_values, "players": [p.name for p in self.memory.players],
                       "position": self.view(None)})
        program, memory = self.program, self.memory
        memory.refuel()
        self._reporting()
        with program.located():
            if program.setup:
                program.setup(memory, memory.vars)
            self.agenda.start(memory)
        self.advance()

    @property
    def over(self) -> bool:
        return self.memory.over

    def _reporting(self) -> bool:
        """Whether anyone hears this game's records; the memory keeps announcements only then."""
        memory = self.memory
        if not (self.listeners or self.observers):
            memory.events = None
            return False
        if memory.events is None:
            memory.events = []
        return True

    def advance(self) -> None:
        """Fire rules until none is left (or the game is over, or a search's world pauses: see pause_after).
        What hears or watches the game costs the loop a test of a local each firing when there is none: the
        records of firings go to the listeners, announcements to the listeners and observers."""
        program, memory, agenda, watched = self.program, self.memory, self.agenda, self.watched
        listening = bool(self.listeners)
        reporting = (listening or bool(self.observers) or memory.events is not None) and self._reporting()
        memory.on_step = self._report_step if listening else None
        V, watch_from, count = memory.vars, self.watch_from, 0  # (watch_from: see _watch_cycle)
        phase: Any = None
        try:
            while agenda.live and not memory.over:  # (a game's agenda has an activation when `live` is not 0)
                if watched is not None:
                    phase = V.get("phase")
                    if self._watched_phase is not UNSEEN and (phase != self._watched_phase or self.paused):
                        self.paused = True
                        break
                if listening:
                    self.emit(self._firing_record(agenda.next()))
                act = agenda.pop()
                assert act is not None  # (the agenda is live)
                if act.binding:
                    act.action(memory, V, *memory_local(memory, act.binding))
                else:
                    act.action(memory, V)
                if memory.dirty:
                    if watched is not None:
                        self._note_writes(phase)
                    agenda.update(memory)
                count += 1
                if count > watch_from:
                    self._watch_cycle(act.rule, count, count == watch_from + 1)
                if reporting and memory.events:
                    self._flush_events()
        except Exception as exc:
            program.raise_located(exc)
        self.firings += count
        if reporting and memory.events:
            self._flush_events()
        self._options = None
        if not memory.over and memory.pending is None and not self.paused:
            raise self._stuck()

    def _stuck(self) -> GameError:
        """The error of a game where no rule can fire and nobody is asked to move: each rule and why it is idle."""
        phase = self.memory.vars.get("phase")
        reasons = self.agenda.idle_reasons(self.memory)
        listed = [f"{rule.name} ({rule.location}): {reason}" for rule, reason in reasons[:STUCK_RULES_SHOWN]]
        if len(reasons) > STUCK_RULES_SHOWN:
            listed.append(f"... and {len(reasons) - STUCK_RULES_SHOWN} more")
        where = reasons[0][0].location if reasons else Location(self.program.path, 1, 1)
        return GameError(f"the game is stuck: no rule can fire and no decision is pending"
                         f"{f' in phase {phase!r}' if phase is not None else ''}; state: {self.describe_state()}",
                         where, hint="no rule fires, so nobody is asked to move ('ask PLAYER to MOVE') and the game "
                                     "does not end ('end game'). The rules:\n        " + "\n        ".join(listed)
                         if listed else "the rule file has no rules: nobody is ever asked to move")

    def _watch_cycle(self, rule: RuleSpec, count: int, first: bool) -> None:
        """Near the firing limit, remember what fires (`first`: the first firing watched in this run of the
        rules); past it, report the cycle."""
        recent = self._recent
        if first:
            recent.clear()
        recent.append(rule.name)
        if count > self.program.max_firings:
            cycle = ", ".join(f"{name} ×{n}" for name, n in Counter(recent).most_common(6))
            raise GameError(f"runaway cycle: more than {self.program.max_firings} firings without a decision; "
                            f"the last {len(recent)} firings were {cycle}", rule.location,
                            hint="a rule whose actions change what its condition reads fires again; "
                                 "make the condition false after it fires")

    def _report_step(self, phase: str, step: str) -> None:
        self._flush_events()  # what earlier steps announced comes first
        self.emit({"type": "step", "phase": phase, "step": step})

    def _flush_events(self) -> None:
        events = self.memory.events
        if events:
            for text in events:
                self.emit({"type": "announce", "text": text})
            events.clear()

    def describe_state(self) -> str:
        V = self.memory.vars
        parts = [f"{name}={jsonable(V[name])!r}" for name in self.program.state_names]
        parts += [f"{z.name}: {len(V[z.name])} cards" for z in self.program.zones if not z.per_player]
        return ", ".join(parts) or "(empty)"

    # --------------------------------------------------------------- decisions
    @property
    def to_move(self) -> PlayerBase | None:
        pending = self.memory.pending
        return pending[0] if pending else None

    def begun(self) -> tuple[str, tuple[Any, ...]] | None:
        """The compound move the player to move has begun (Memory.partial), and the values its next part reads:
        the move's argument, each earlier part's value, and a part chosen again and again its values so far."""
        partial, pending = self.memory.partial, self.memory.pending
        if partial is None or pending is None:
            return None
        with self.program.located():
            following = self._next_part(pending[0], *partial)
        return (partial[0], following[1]) if following is not None else None

    @property
    def mover(self) -> PlayerBase:
        """The player to move, where a decision must be pending (a GameError if none is)."""
        pending = self.memory.pending
        if pending is None:
            raise GameError("no decision is pending")
        return pending[0]

    def options(self) -> list[Option]:
        """The legal options of the pending decision."""
        found = self._options
        if found is None:
            pending = self.memory.pending
            if pending is None:
                return []
            found = self._options = self._offer(*pending)
        return found

    def _offer(self, player: PlayerBase, moves: tuple[str, ...], arguments: bool = False) -> list[Any]:
        """The legal options of `player`, asked to make one of `moves` (computed anew). `arguments`, for a
        search's playout: (move, its legal arguments) for each of `moves` that has some, in the order asked,
        and no options made."""
        memory = self.memory
        memory.refuel()
        self._labels_left = memory.allowance
        if memory.partial is not None:
            return self._offer_part(player, memory.partial, arguments)
        if memory.given_now:  # (moves asked together may share their candidates, for this decision: Memory.give)
            memory.given_now.clear()
        runs, V = self.runs, memory.vars
        found: list[Any] = NONE_FOUND  # (no list made for a decision whose one move lists its own)
        try:
            for name in moves:  # (more than one: a move asked beside another, a close beside a discard)
                run = runs[name]
                args = run.choices(memory, V, player)
                if args:  # (else a move not offered now)
                    listed = [(name, args)] if arguments else self._options_of(run, player, args)
                    found = found + listed if found else listed
        except Exception as exc:
            self.program.raise_located(exc)
        group = memory.group
        if group is not None and group[0] == "any" and group[1]:  # (not the last asked: he may leave it to the next)
            leave = (LEAVE, [None]) if arguments else Option(LEAVE, None, f"leave it to {group[1][0].name}")
            found = [*found, leave]
        if not found:
            raise self._no_option(player, moves)
        return found

    def _offer_part(self, player: PlayerBase, partial: tuple[str, tuple[Any, ...]], arguments: bool) -> list[Any]:
        """The options of the next part of the compound move `player` has begun (Memory.partial)."""
        move, values = partial
        memory = self.memory
        with self.program.located():
            part, values = self._next_part(player, move, values)  # type: ignore[misc]  # (begun: a part is next)
            args = part.choices(memory, memory.vars, player, *values)
        if not args:
            raise GameError(f"{player} has begun {move} but has no legal choice for its part '{part.name}'; "
                            f"state: {self.describe_state()}", part.location)
        if arguments:
            return [(part.key, args)]

        label: Callable[..., Any] | None = part.label

        def labeller(option: Option) -> str:
            if label is None:
                return str(jsonable(option.arg))
            return self._labelled(lambda: label(memory, memory.vars, player, *values, option.arg))
        return [Option(part.key, arg, None, labeller) for arg in args]

    def _next_part(self, player: PlayerBase, move: str, values: tuple[Any, ...]
                   ) -> tuple[PartSpec, tuple[Any, ...]] | None:
        """The part of `player`'s compound `move` to choose after `values` (its argument, then each part's
        value), and the values its choices and texts take; None when every part is chosen. A part chosen again
        and again (`until`) is next until its condition holds: its values so far are then the last value. A part
        whose `when` does not hold is passed over, its value None (in the values given with the next part; see
        _complete for the last ones)."""
        parts, memory = self.runs[move].parts, self.memory
        last = len(values) - 2  # (the part of the last value; -1: the move's own argument)
        until = parts[last].until if last >= 0 and values[-1] is not None else None
        if until is not None and not until(memory, memory.vars, player, *values):
            return parts[last], values
        while len(values) <= len(parts):
            part = parts[len(values) - 1]
            if part.when is None or part.when(memory, memory.vars, player, *values):
                return part, (*values, ()) if part.until is not None else values
            values = (*values, None)
        return None

    def _complete(self, move: str, values: tuple[Any, ...]) -> tuple[Any, ...]:
        """The values of `move`'s effect, once _next_part found no part left to ask: a None for each part passed
        over at the end."""
        return values + (None,) * (len(self.runs[move].parts) + 1 - len(values))

    @staticmethod
    def _chosen(part: PartSpec, values: tuple[Any, ...], arg: Any) -> tuple[Any, ...]:
        """`values` (as _next_part gives them for `part`) with `arg` chosen for `part`."""
        return (*values[:-1], (*values[-1], arg)) if part.until is not None else (*values, arg)

    def _part(self, key: str) -> PartSpec | None:
        """The part of a compound move whose options are named `key` (MOVE.PART), if it is one."""
        run = self.runs.get(key.split(".")[0])
        return next((p for p in run.parts if p.key == key), None) if run is not None else None

    def _no_option(self, player: PlayerBase, moves: tuple[str, ...]) -> GameError:
        """The error of a decision without options, located at the first move asked (where its choices are said)."""
        run = self.runs.get(moves[0]) if moves else None
        return GameError(f"{player} is asked to {' or '.join(moves)} but has no legal option; "
                         f"state: {self.describe_state()}", run.spec.location if run is not None else None)

    def _candidates(self, move: MoveSpec, player: PlayerBase) -> list[Any]:
        memory = self.memory
        if move.when is not None and not move.when(memory, memory.vars, player):
            return []
        return move.options(memory, memory.vars, player) if move.options else [None]

    def _options_of(self, move: MoveRun, player: PlayerBase, args: list[Any]) -> list[Option]:
        """`player`'s options of `move` for its legal arguments `args` (a new list)."""
        memory = self.memory
        if move.fixed_label:
            # options whose label depends on the argument alone are made once and shared: a number or a text by
            # every game of the program, a card by a game and its copies (a new game has new cards); never a
            # player or a zone, which belong to one game
            name, made = move.name, memory.made
            cards: dict[Any, Any] | None = made.get(name)
            if cards is None:
                cards = made[name] = {}
            found: list[Option] = []
            if cards:  # (a move offered cards before)
                try:
                    for arg in args:  # (cards alone are kept there, by identity)
                        option = cards.get(arg)
                        if option is None:
                            break
                        found.append(option)
                    else:
                        return found
                except TypeError:  # an argument that cannot be a key (a list of cards, say)
                    pass
            values = move.shared
            found = []
            for arg in args:  # numbers and texts alone (no True to find a 1's option)
                option = values.get(arg) if type(arg) in SHAREABLE else None
                if option is None:
                    break
                found.append(option)
            else:
                return found
            found = []
            for arg in args:
                kept = cards if isinstance(arg, CARD_CLASS) else values if type(arg) in SHAREABLE else None
                option = kept.get(arg) if kept is not None else None
                if option is None or type(option.arg) is not type(arg):  # (1 and True are equal keys)
                    option = Option(name, arg, self._label(move.spec, player, arg))
                    if kept is not None:
                        kept[arg] = option
                found.append(option)
            return found

        labeller = self._labellers.get((move.name, player.index))
        if labeller is None:
            labeller = self._labellers[move.name, player.index] = self._labeller(move.spec, player)
        name, found = move.name, []
        for arg in args:  # (a loop: cheaper than a comprehension for the few options of such moves)
            found.append(Option(name, arg, None, labeller))
        return found

    def _labeller(self, move: MoveSpec, player: PlayerBase) -> Callable[[Option], str]:
        """What labels `player`'s options of `move` when they are first read, from the game as it is then
        (made once per game, move and seat)."""
        def labeller(option: Option) -> str:
            return self._labelled(lambda: self._label(move, player, option.arg))
        return labeller

    def _labelled(self, make: Callable[[], Any]) -> str:
        """A label made when it is first read, within whatever operation reads it: from the steps the labels of
        the options offered last share (so that N options' labels spend one budget, not N), the operation's own
        steps left as they were."""
        memory = self.memory
        outer, memory.steps = memory.steps, self._labels_left
        try:
            with self.program.located():
                return str(make())
        finally:
            memory.left -= self._labels_left - memory.steps  # (what labels spend is the game's too)
            self._labels_left, memory.steps = memory.steps, outer

    def _label(self, move: MoveSpec, player: PlayerBase, arg: Any) -> str:
        if move.label is not None:
            memory = self.memory
            return str(move.label(memory, memory.vars, player, arg))
        if arg is None:
            return move.name
        return f"{move.name} {jsonable(arg)}"

    def public_text(self, player: PlayerBase, option: Option) -> str:
        """How a move reads to the players who did not make it (the move's ``public:``, else its label)."""
        move = self.program.moves.get(option.move)
        part = self._part(option.move) if move is None else None
        if part is not None and part.public is not None:
            memory = self.memory
            assert memory.partial is not None  # (a part is offered while its move is begun)
            memory.refuel()
            with self.program.located():
                values = self._next_part(player, *memory.partial)[1]  # type: ignore[index]  # (begun: one is next)
                return str(part.public(memory, memory.vars, player, *values, option.arg))
        if move is None or move.public is None:  # (None: LEAVE, or a part)
            return option.label
        self.memory.refuel()
        with self.program.located():
            return str(move.public(self.memory, self.memory.vars, player, option.arg))

    def explain_illegal(self, move_name: str, arg: Any, *, refuel: bool = True) -> str | None:
        """The cascade step (or availability) that excludes `arg` for the player to move.

        `refuel=False`: spend what is left of the current step budget instead of a fresh one (a caller explaining
        many options refuels once, so that together they spend one budget)."""
        player = self.to_move
        move = self.program.moves.get(move_name)
        if player is None or move is None or (self.memory.pending and move_name not in self.memory.pending[1]):
            return f"'{move_name}' is not a move you can make now"
        if refuel:
            self.memory.refuel()
        with self.program.located():
            return self._first_step_excluding(move, player, arg)

    def _first_step_excluding(self, move: MoveSpec, player: PlayerBase, arg: Any) -> str | None:
        memory, V = self.memory, self.memory.vars
        candidates = self._candidates(move, player)
        if arg not in candidates:
            return f"{jsonable(arg)} is not among the choices for '{move.name}'"
        for step, allowed_of in move.cascade:
            allowed = allowed_of(memory, V, player, candidates)
            if arg in allowed:
                return None
            if not allowed and move.strict:
                return f"the rule '{step}' of '{move.name}' allows none of its choices now"
            if allowed:
                return f"the rule '{step}' requires one of: " + \
                    ", ".join(self._label(move, player, c) for c in allowed)
        return None

    def candidates(self) -> list[Option]:
        """Every option the pending decision's moves consider, legal or not, labelled (to explain the illegal ones)."""
        if self.memory.pending is None:
            return []
        if self.memory.partial is not None:  # (a part's candidates are its legal values)
            return self.options()
        player, moves = self.memory.pending
        self.memory.refuel()
        with self.program.located():
            return [Option(name, arg, self._label(self.program.moves[name], player, arg))
                    for name in moves for arg in self._candidates(self.program.moves[name], player)]

    def explain_label(self, label: str) -> str | None:
        """Explain why the candidate labelled `label` is illegal (None if no candidate has it)."""
        wanted = label.lower()
        named = [(o.move, o.arg, o.label.lower()) for o in self.candidates()]
        exact = [(name, arg) for name, arg, text in named if text == wanted]
        prefix = [(name, arg) for name, arg, text in named if text.startswith(wanted)]
        found = exact or (prefix if len(prefix) == 1 else [])
        return self.explain_illegal(*found[0]) if found else None

    def _take(self, player: PlayerBase, option: Option, moves: tuple[str, ...]) -> list[Made]:
        """What `player`'s choice `option` (of a decision offering `moves`) makes now: (player, the move's option,
        the values its effect takes) for each move, in order. Nothing while the move waits for its next part
        (a compound move: Memory.partial; the same player is asked again) or for other players' answers
        (Memory.group)."""
        memory = self.memory
        partial = memory.partial
        if partial is not None:
            move, values = partial
            part, values = self._next_part(player, move, values)  # type: ignore[misc]  # (begun: a part is next)
            values = self._chosen(part, values, option.arg)
            if self._next_part(player, move, values) is not None:
                memory.partial, memory.pending = (move, values), (player, moves)
                return []
            memory.partial = None
            values = self._complete(move, values)
            option = self._whole(player, move, values[0])
        elif option.move in self.runs and self.runs[option.move].parts:
            values = (option.arg,)
            if self._next_part(player, option.move, values) is not None:
                memory.partial, memory.pending = (option.move, values), (player, moves)
                return []
            values = self._complete(option.move, values)  # (every part passed over: the move is whole)
        else:
            values = (option.arg,)
        if memory.group is None:
            return [(player, option, values)]
        return self._answers(player, option, values, moves)

    def _answers(self, player: PlayerBase, option: Option, values: tuple[Any, ...], moves: tuple[str, ...]
                 ) -> list[Made]:
        """Take `player`'s answer to a decision put to several players (Memory.ask_group); the moves to make now,
        in order: none while another player is still to answer (an answer to 'each' is held; 'any' left to the
        next player, who is asked now), else every answer held and this one ('each'), or this one ('any')."""
        memory = self.memory
        assert memory.group is not None
        mode, later, held = memory.group
        if mode == "each":
            held += ((player, option.move, values),)
        elif option.move != LEAVE:
            memory.group = None
            return [(player, option, values)]
        if later:
            memory.pending = (later[0], moves)
            memory.group = (mode, later[1:], held) if later[1:] or mode == "each" else None
            return []
        memory.group = None
        return [(who, option if who is player else self._whole(who, move, made[0]), made) for who, move, made in held]

    def _make_taken(self, player: PlayerBase, option: Option, moves: tuple[str, ...]) -> bool:
        """Make what `player`'s choice makes now (`_take`), with no hooks (the fast loops' way); False when
        nothing is made: an answer held, or a part of a move begun (no rule runs until it is)."""
        taken = self._take(player, option, moves)
        memory = self.memory
        for who, answer, values in taken:
            self.runs[answer.move].effect(memory, memory.vars, who, *values)
        return bool(taken)

    def _whole(self, player: PlayerBase, move: str, arg: Any) -> Option:
        """`player`'s option of `move` with its first value `arg`, labelled when read: the whole move, made once
        every part is chosen or every answer is in."""
        return Option(move, arg, None, self._labeller(self.program.moves[move], player))

    def redraw_answers(self, seat: int, rng: Any) -> None:
        """Answers held from the players other than `seat` drawn again at random among their options: a search's
        world of what `seat` knows (no answer can depend on another, so each player's options are as they were
        when he answered)."""
        memory = self.memory
        if memory.group is None or memory.pending is None:
            return
        mode, later, held = memory.group
        moves = memory.pending[1]
        partial, memory.partial = memory.partial, None  # (the player to move may have begun a compound move)
        drawn = []
        with self.program.located():  # (a part's choices are the rule file's code)
            for who, move, values in held:
                if who.index != seat:
                    move, arg = pick(rng, [(name, a) for name, args in self._offer(who, moves, True) for a in args])
                    values = (arg,)
                    while (following := self._next_part(who, move, values)) is not None:  # (a compound move's
                        part, values = following                                           # parts, in turn)
                        values = self._chosen(part, values, pick(rng, part.choices(memory, memory.vars, who, *values)))
                    if self.runs[move].parts:
                        values = self._complete(move, values)
                drawn.append((who, move, values))
        memory.group, memory.partial = (mode, later, tuple(drawn)), partial

    def decision(self) -> Decision:
        if self.memory.pending is None:
            raise GameError("no decision is pending")
        player, moves = self.memory.pending
        return Decision(player.index, player.name, moves, self.options(), self)

    def apply(self, option: Option) -> None:
        """Play a legal option for the player to move, then advance."""
        memory = self.memory
        if memory.pending is None:
            raise GameError("no decision is pending")
        player, moves = memory.pending
        record = {"type": "decision", "player": player.name, "options": [o.label for o in self.options()],
                  "move": option.move, "choice": option.label, "public": self.public_text(player, option)} \
            if (self.listeners or self.observers or memory.events is not None) and self._reporting() else None
        memory.pending = None
        self.decisions += 1
        memory.refuel()
        group = memory.group
        made = self._take(player, option, moves)
        if record is not None:
            self._untold.append(record)
            if made or group is None or group[0] == "any":  # (an answer held is told with the last one)
                for told in self._untold:
                    self.emit(told)
                self._untold.clear()
        if not made:  # (an answer held, or a part of a move begun: nothing is made, and no rule runs until it is)
            self._options = None
            return
        phase = memory.vars.get("phase") if self.watched is not None else None
        try:
            for who, chosen, values in made:
                for watch in self.before_move:
                    watch(self, who, chosen)
                effect = self.runs[chosen.move].effect
                if len(values) == 1:  # (the common case: a direct call, without a tuple of the arguments made)
                    effect(memory, memory.vars, who, values[0])
                else:
                    effect(memory, memory.vars, who, *values)
                for watch in self.after_move:
                    watch(self, who, chosen)
            if self.watched is not None:
                self._note_writes(phase)
            self.agenda.update(memory)
        except Exception as exc:
            self.program.raise_located(exc)
        self.advance()
        if not memory.over and self.decisions >= self.program.max_decisions:
            self._cut_at_max_decisions()

    @property
    def holding(self) -> bool:
        """Whether answers are held from the table until others asked with their players have answered (the
        records of the decisions made since are told with the last: Memory.ask_group)."""
        return bool(self._untold)

    @property
    def quiet(self) -> bool:
        """Whether nothing hears, watches or hooks this game's moves (see play_quietly)."""
        return not (self.listeners or self.observers or self.before_move or self.after_move
                    or self.watched is not None or self.memory.events is not None)

    def play_quietly(self, agents: list[Agent]) -> None:
        """Play on while the game is `quiet` and not over, each seat's agent choosing: `decision`, the choice
        and `apply` in one loop, taking their steps without their calls and their checks for what listens."""
        memory, agenda, program = self.memory, self.agenda, self.program
        V, runs, max_decisions = memory.vars, self.runs, program.max_decisions
        while not memory.over and self.quiet:
            player, names = cast(Waiting, memory.pending)  # (set: a game not over waits for a decision)
            options = self._options = self._offer(player, names)
            seat = player.index
            agent = agents[seat]
            choice = agent.choose(Decision(seat, player.name, names, options, self))
            chosen = offered(choice, options)
            if chosen is None:
                raise refused(agent, player, choice)
            memory.pending = None
            self.decisions += 1
            memory.refuel()
            try:
                run = runs.get(chosen.move)  # (None: a part of a compound move, or LEAVE)
                if memory.group is None and memory.partial is None and run is not None and not run.parts:
                    run.effect(memory, V, player, chosen.arg)
                elif not self._make_taken(player, chosen, names):
                    self._options = None
                    continue
                agenda.update(memory)
            except Exception as exc:
                program.raise_located(exc)
            self.advance()
            if not memory.over and self.decisions >= max_decisions:
                self._cut_at_max_decisions()

    def play_out(self, choose: Callable[[list[tuple[str, list[Any]]]], tuple[str, Any]], most: int) -> int:
        """A search's playout: play up to `most` moves while the game is not over nor paused and nothing hears
        or hooks its moves, and stop after a move that writes a watched name (see pause_after: the search then
        looks at where things stand). Each move is `choose(offered)`: a (move, argument) from `offered`, the
        legal arguments of each move asked (`_offer` with `arguments`: no options are made). `apply`'s steps in
        one loop, as `play_quietly`'s; the moves made."""
        memory, agenda, program = self.memory, self.agenda, self.program
        V, runs, max_decisions = memory.vars, self.runs, program.max_decisions
        watching, made, pool = self.watched is not None, 0, memory.pool
        while made < most and not memory.over and not self.paused and not (
                self.listeners or self.observers or self.before_move or self.after_move or memory.events is not None
                or (pool is not None and pool[0] <= 0)):  # (a search's steps spent: see naipes.agents.deadline)
            player, names = cast(Waiting, memory.pending)  # (set: a game not over waits for a decision)
            self._options = None
            move, arg = choose(self._offer(player, names, True))
            memory.pending = None
            self.decisions += 1
            memory.refuel()
            phase = V.get("phase") if watching else None
            try:
                run = runs.get(move)  # (None: a part of a compound move, or LEAVE)
                if memory.group is None and memory.partial is None and run is not None and not run.parts:
                    run.effect(memory, V, player, arg)
                elif not self._make_taken(player, Option(move, arg, move), names):
                    made += 1
                    continue
                if watching:
                    self._note_writes(phase)
                agenda.update(memory)
            except Exception as exc:
                program.raise_located(exc)
            self.advance()
            made += 1
            if not memory.over and self.decisions >= max_decisions:
                self._cut_at_max_decisions()
            if self._watched_phase is not UNSEEN:
                break
        return made

    def _cut_at_max_decisions(self) -> None:
        self._cut(f"cut off after {self.decisions:,} decisions (the rule file's max_decisions)")

    def _cut(self, reason: str) -> None:
        """End the game before its rules do: no winners; the payoffs are the result section's, as things stand."""
        memory = self.memory
        memory.withdraw()
        memory.over, memory.winners = True, ()
        self.cut_off = reason
        self._options = None

    # ------------------------------------------------------------------ copies
    def clone(self, into: Game | None = None) -> Game:
        """An independent copy for search (no listeners). `into`: a copy of this game that nothing uses any more
        (a search's last world), which becomes the copy (every field of a game is set here; its memory's zones
        and players are filled in again: Memory.clone)."""
        new = Game() if into is None else into
        new.program, new.seed, new.runs, new.watch_from = self.program, self.seed, self.runs, self.watch_from
        new.memory = self.memory.clone(into.memory if into is not None else None)
        new.agenda = self.agenda.clone()
        new.memory.events = None  # (nobody hears a copy until someone listens: see _reporting)
        new.listeners, new.observers, new.firings, new.decisions, new._options = [], [], 0, self.decisions, None
        new._labellers, new._labels_left = {}, MAX_STEPS
        new.before_move, new.after_move, new.followers = [], [], []
        new.history, new._recent, new._untold, new.cut_off = None, [], [], self.cut_off
        new.watched, new._misses_watched, new._watched_phase, new.paused = None, None, UNSEEN, False
        return new

    def make(self, option: Option) -> tuple[Any, ...]:
        """Play `option`, recording how to take it back (`undo`): a search tries moves in one game, without
        copying it. Makes nest; each undo takes back the newest, and what the `followers` made of it. Not for a game
        that others watch."""
        followers = self.followers
        point = (self.memory.save_point(), self.agenda.save_point(), self.decisions, self.firings, self._options,
                 self.cut_off, self._watched_phase, self.paused, self.memory.halted,
                 [follower.saved() for follower in followers] if followers else None)
        self.apply(option)
        return point

    def undo(self, point: tuple[Any, ...]) -> None:
        """Take back the move played by the `make` that returned `point` (and everything it set off)."""
        memory, agenda, self.decisions, self.firings, self._options, self.cut_off, self._watched_phase, \
            self.paused, halted, followed = point
        self.memory.restore(memory)
        self.memory.halted = halted  # (a search's world that stopped where its evaluation changed: pause_after)
        self.agenda.restore(agenda)
        if followed is not None:
            for follower, saved in zip(self.followers, followed):
                follower.restore(saved)

    def key(self, symmetric: bool = True, turn: int = 0, same: Baseline | None = None) -> tuple[Any, ...]:
        """Canonical state key: equal keys play out identically (`symmetric`, `turn`, `same`: see Memory.key;
        seats are counted from `turn` only in a rule file whose seats are alike and whose rules bind no
        variables)."""
        if turn and (not self.program.seats_alike or self.agenda.variable_rules):
            turn = 0
        return (self.memory.key(symmetric, turn, same), self.agenda.refracted())

    # ----------------------------------------------------------------- results
    @property
    def winners(self) -> tuple[int, ...]:
        return self.memory.winners

    def payoffs(self) -> list[float]:
        memory = self.memory
        if self.program.result is None:
            return [1 if p.index in memory.winners else 0 for p in memory.players]
        memory.refuel()
        with self.program.located():
            return [self.program.result(memory, memory.vars, p) for p in memory.players]

    def result(self) -> GameResult:
        return GameResult(self.winners, self.payoffs(), [p.name for p in self.memory.players],
                          self.decisions, self.firings, self.seed, self.cut_off)

    def finish(self) -> GameResult:
        """The result of a game that is over, told to the listeners and observers as its end record."""
        result = self.result()
        end = {"type": "end", "winners": [result.names[i] for i in result.winners], "payoffs": result.payoffs}
        if result.cut_off:
            end["cut_off"] = result.cut_off
        self.emit(end)
        return result

    # ------------------------------------------------------------------- views
    def view(self, seat: int | None) -> dict[Any, Any]:
        """What the player at `seat` can see (None: an onlooker who sees public things)."""
        memory, program = self.memory, self.program
        V = memory.vars
        memory.refuel()

        def zone_view(zone: Zone) -> Any:
            if sees(zone, seat):
                cards = zone if zone.spec.ordered else sorted(zone, key=card_order)
                return [c.name for c in cards]
            if zone.spec.visibility == "top":
                return {"count": len(zone), "top": zone[-1].name if zone else None}
            return {"count": len(zone)}

        players = []
        for p in memory.players:
            entry: dict[str, Any] = {"name": p.name, "seat": p.index}
            for var in program.player_state:
                if var.visibility == "public" or (var.visibility == "owner" and p.index == seat):
                    entry[var.name] = jsonable(getattr(p, attribute(var.name)))
            for zone in program.zones:
                if zone.per_player:
                    entry[zone.name] = zone_view(getattr(p, attribute(zone.name)))
            for view in program.views:
                if view.per_player and (view.visibility == "public" or p.index == seat):
                    entry[view.name] = self._view_value(view, p)
            players.append(entry)
        return {
            "seat": seat,
            "phase": V.get("phase"),
            **({"stage": V["stage"]} if program.first_stages else {}),
            "state": {**{v.name: jsonable(V[v.name]) for v in program.state if v.visibility == "public"},
                      **self._global_views()},
            "zones": {z.name: zone_view(V[z.name]) for z in program.zones if not z.per_player},
            "players": players,
            "to_move": memory.pending[0].name if memory.pending else None,
            **({"answered": [p.name for p, _, _ in memory.group[2]]} if memory.group and memory.group[2] else {}),
            **({"choosing": {"move": memory.partial[0], "chosen": [jsonable(v) for v in memory.partial[1]]}}
               if memory.partial and memory.pending and memory.pending[0].index == seat else {}),
        }

    def _global_views(self) -> dict[Any, Any]:
        return {v.name: self._view_value(v) for v in self.program.views if not v.per_player}

    def _view_value(self, view: ViewSpec, *player: PlayerBase) -> Any:
        """A view's value (of `player`'s, for a view per player) as JSON data; a fault located, and named."""
        memory = self.memory
        with self.program.located():
            value = view.value(memory, memory.vars, *player)
        try:
            return jsonable(value)
        except GameError as error:
            raise GameError(f"view '{view.name}': {error.message}") from None

    # ----------------------------------------------------------------- tracing
    def emit(self, record: dict[Any, Any]) -> None:
        for listener in self.listeners:
            listener(record)
        if record["type"] in ("fire", "step") or not self.observers:
            return
        if record["type"] == "decision":  # the others see the move's public form, not the chooser's options
            record = {"type": "decision", "player": record["player"], "move": record["move"],
                      "choice": record["public"]}
        for observer in self.observers:
            observer(record)

    def _firing_record(self, act: Activation | None) -> dict[str, Any]:
        assert act is not None  # (told of a firing: the agenda is live)
        rule = act.rule
        # (a phase's entry comes before every rule of it: its priority is infinite, which JSON cannot write)
        priority = rule.priority if rule.priority != math.inf else "entry"
        record: dict[str, Any] = {"type": "fire", "rule": rule.name, "priority": priority,
                  "binding": {var: jsonable(v) for var, v in zip(rule.variables, act.binding)}}
        if rule.steps:
            record["steps"] = True  # its steps follow as records of their own
        others = [other for other in self.agenda.pending() if other is not act]
        record["over"] = [self._why_first(rule, other) for other in others[:5]]
        if len(others) > 5:
            record["over"].append(f"... {len(others) - 5} more")
        return record

    def _why_first(self, rule: RuleSpec, act: Activation) -> str:
        other, binding = act.rule, act.binding
        label = other.name + ("{" + ", ".join(f"{v}={jsonable(x)}" for v, x in zip(other.variables, binding)) + "}"
                              if binding else "")
        if other.priority != rule.priority:
            return f"{label}: lower priority {other.priority}"
        strategy = self.program.strategy
        if strategy != "declaration" and (rule.tests != other.tests or strategy in ("recency", "depth", "breadth")):
            return f"{label}: same priority, later by strategy '{strategy}'"
        if other.index != rule.index:
            return f"{label}: same priority, declared later"
        return f"{label}: same rule, later binding"


def offered(choice: object, options: list[Option]) -> Option | None:
    """The option of `options` that `choice` is (the very object, as agents mostly return; else an equal one), or
    None (typed, what the game then reads of it is a field of the compiled Option, not a lookup by name)."""
    for option in options:
        if option is choice:
            return option
    for option in options:
        if option == choice:
            return option
    return None


def play_game(program: Program, agents: list[Agent], seed: int | None = None,
              listeners: Iterable[Listener] = (), names: list[str] | None = None,
              game: Game | None = None, on_decision: Callable[[Decision], None] | None = None) -> GameResult:
    """Play one game to the end and return its result.

    Every agent's answer must be one of the offered options; anything else is
    an error naming the seat (the game state is never corrupted by it).
    Pass `game` to keep a handle on it (for a report after a QuitGame), and
    `on_decision` to be told of each decision before its agent is asked (a
    table showing the position to its players).
    """
    if game is None:
        game = Game(program, seed, players=len(agents), names=names)
    game.listeners.extend(listeners)
    if any(getattr(agent, "wants_history", False) for agent in agents):
        game.keep_history()
    names = [p.name for p in game.memory.players]
    for seat, agent in enumerate(agents):
        if hasattr(agent, "attach"):
            agent.attach(game, seat)
        if hasattr(agent, "observe"):
            game.observers.append(agent.observe)
        if hasattr(agent, "start_game"):
            agent.start_game({"game": program.name, "params": dict(program.param_values), "seat": names[seat],
                              "players": names})
    game.start()
    memory = game.memory
    while not memory.over:
        if on_decision is None and game.quiet:
            game.play_quietly(agents)
            continue
        decision = game.decision()
        if on_decision is not None:
            on_decision(decision)
        agent = agents[decision.player]
        choice = agent.choose(decision)
        chosen = offered(choice, decision.options)
        if chosen is None:
            raise refused(agent, game.mover, choice)
        game.apply(chosen)
    return game.finish()


def refused(agent: Agent, player: PlayerBase, choice: Any) -> NaipesError:
    """The error of an agent whose answer is not one of the options offered."""
    return NaipesError(f"agent '{agent.name}' at seat {player.name} chose {choice!r}, which is not a legal option")
