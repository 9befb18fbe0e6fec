"""A compiled rule file as data: the :class:`Program` and the specs it is made of.

The language layer (``naipes.language``) builds a Program from a rule file;
the runtime (``naipes.runtime``) runs games of it.  A Program is frozen once
built: games, searches and strategies share one.
"""
from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, Literal, NoReturn

from .errors import GameError, Location, NaipesError
from .library.limits import MAX_STEPS
from .library.names import ATTRIBUTE_PREFIX, attribute, declared

if TYPE_CHECKING:
    from .runtime.agenda import Activation
    from .runtime.memory import Memory

DEFAULT_STRATEGY = "declaration"
CYCLE_WATCH = 64  # the firings before the limit whose rules a "runaway cycle" error names (see Program.watch_from)


def interned(name: Any) -> str:
    """`name` as the one str of its text that Python keeps (sys.intern): the generated code's names are
    interned (Python interns the names and name-like constants of the code it compiles), so the memory's dicts
    and the agenda's, keyed by interned names, find them by identity without comparing their text."""
    return sys.intern(str(name))


def get(value: Any, name: str) -> Any:
    """The declared attribute `name` of a card, player, record or fact (Python's way to what a file writes
    `value.name`): `get(card, "rank")`, or `card.get("rank")`."""
    return getattr(value, attribute(name))


def readable_by_name(cls: type, names: Iterable[str]) -> type:
    """`cls` with each declared name of `names` readable by Python callers as itself (`card.rank`, in tests,
    tools, notebooks: a property reading `card.a_rank`), where `cls` has no attribute of that name already
    (a player's `state_slots`, a record's `count`: those read with `get`). Generated code never reads a
    bare name, so this opens nothing to a file; and the class's other attributes are read as fast as ever."""
    for name in names:
        if not hasattr(cls, name):
            setattr(cls, name, property(attrgetter(attribute(name)), doc=f"the declared '{name}'"))
    return cls


def expose(cls: type, *names: str) -> None:
    """Let generated code read the engine's own attributes `names` of `cls` (a player's index, a card's id) as
    declared ones are read, through the prefix: the same slot under a second name."""
    for name in names:
        setattr(cls, attribute(name), cls.__dict__[name])


class PlayerBase:
    """A seat. Rule files add one slot per player variable and zone (behind ATTRIBUTE_PREFIX)."""

    __slots__ = ("index", "name")
    index: int
    name: str
    _order_by = "index"  # how min, max and sorted order players (naipes.library.builtins.natural_order)
    state_slots: tuple = ()  # player variables (set per program)
    zone_slots: tuple = ()  # per-player zones (set per program)

    get = get  # player.get("hand"): the variable or zone the rule file declares under that name

    def __repr__(self) -> str:
        return self.name


class CardBase:
    """A card (or chip, or any token). Immutable; rule files add attributes (behind ATTRIBUTE_PREFIX)."""

    __slots__ = ("id", "name")
    id: int
    name: str
    _order_by = "id"  # how min, max and sorted order cards (naipes.library.builtins.natural_order)
    attributes: tuple = ()  # the attributes and tables the rule file declares, by their names
    get = get  # card.get("rank"): the attribute (or table) the rule file declares under that name

    def __repr__(self) -> str:
        return self.name


# The attributes the language gives every player, card and zone, with their types (p.index, c.name, z.owner)
PLAYER_ATTRIBUTES = {"index": "int", "name": "str"}
CARD_ATTRIBUTES = {"id": "int", "name": "str"}
ZONE_ATTRIBUTES = {"owner": "player"}
LEAVE = "leave"  # the option 'ask any of PLAYERS' gives each asked player but the last: let the next one answer
expose(PlayerBase, *PLAYER_ATTRIBUTES)
expose(CardBase, *CARD_ATTRIBUTES)


class FactBase(tuple):
    """A fact: a record (fields by name) that is itself, not its value: two facts asserted alike are two
    facts (equal only to themselves), so a rule's activations follow each one (naipes.runtime.agenda). A
    rule file's kinds of fact are classes of it (`facts:`).

    Its time tag, `time_tag`, is set when it is asserted (naipes.runtime.memory): an attribute of its own (a fact
    has an instance dict for it; its fields are all `a_<name>`), which copies and views share with it."""

    kind: str = ""  # the kind of fact (the collection it belongs to)
    time_tag: int  # when it was asserted (its time tag; only asserted facts have one)
    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__

    def same(self, other: tuple) -> bool:
        """Whether `other` holds the same values (a fact asserted again is not added twice, as in CLIPS)."""
        return tuple.__eq__(self, other)

    get = get  # fact.get("x"): its field of that name

    def fields(self) -> tuple[str, ...]:
        """The attributes holding its fields, in order (naipes.program.attribute; `declared` gives the names)."""
        return self._fields  # type: ignore[attr-defined]  # (a kind of fact is also a named tuple)

    def changed(self, changes: dict[str, Any]) -> FactBase:
        """A new fact of the same kind with some fields changed (what `modify` asserts)."""
        return self._replace(**changes)  # type: ignore[attr-defined]


@dataclass
class Param:
    name: str
    type: str
    default: Any
    doc: str = ""
    choices: list | None = None
    min: Any = None
    max: Any = None


@dataclass
class ZoneSpec:
    name: str
    per_player: bool
    visibility: str
    ordered: bool

    def __post_init__(self) -> None:
        self.name = interned(self.name)


@dataclass
class VarSpec:
    name: str
    init: Callable
    visibility: str
    type: str | None = None
    show: bool = True  # shown to a human at the table (bookkeeping can be hidden; views still carry it)
    score: bool = False  # a column of the score sheet at the end (naipes.tools.scoresheet)
    reset: str | None = None  # the phase on each entry of which it starts again from its init (`reset:`)

    def __post_init__(self) -> None:
        self.name = interned(self.name)


@dataclass
class ViewSpec:
    """A display value: computed when a view is built, never stored in the game state."""

    name: str
    value: Callable
    per_player: bool
    visibility: str


@dataclass
class PartSpec:
    """A later choice of a compound move (`parts:`), made by the same player after the ones before it."""

    name: str  # the name its value is bound to in what follows
    key: str  # its options' move name: MOVE.NAME (numbered apart in the action space)
    choices: Callable  # f(memory, vars, player, the values chosen before it...) -> its legal values
    label: Callable | None = None  # f(memory, vars, player, the values before it..., value) -> how it reads
    public: Callable | None = None  # as label, to the other players (default: the label)
    space: Callable | None = None  # f(memory, vars) -> every value it can ever offer (as MoveSpec.space)
    # a part chosen again and again (`collect:`): f(memory, vars, player, the values before it..., its values so
    # far) -> complete; its name is bound to the tuple of its values, and its choices and texts take that tuple
    # after the values before it (its texts then the value offered)
    until: Callable | None = None
    # f(memory, vars, player, the values before it...) -> whether the part is asked at all (`when:`); a part passed
    # over takes the value None
    when: Callable | None = None
    location: Location | None = None  # where the part is declared (a mistake found in it later is located there)
    verb: str | dict[str, str] | None = None  # how the table tells of it (told)

    def told(self, player: str, text: str) -> str:
        """The part as the table tells it (a move's `told`, its value always an argument)."""
        return told(self.verb, player, text, False)


@dataclass
class MoveSpec:
    """A kind of decision: its options, the legality cascade, its effect."""

    name: str
    arg: str | None
    options: Callable | None
    cascade: list[tuple[str, Callable]]  # (step name, f(memory, vars, player, candidates) -> the allowed ones)
    when: Callable | None
    label: Callable | None  # how an option reads to the player choosing
    effect: Callable
    doc: str = ""
    # A single `legal` expression is a filter (it may leave nothing); a list is an
    # obligation cascade (the first step that leaves something decides, else all).
    strict: bool = False
    public: Callable | None = None  # how the move reads to the other players (default: its label)
    # f(memory, vars) -> every argument the move can ever offer (naipes.bridges.actions numbers them): the
    # declared `space:`, else the deck when `choose` ranges over a zone, else the `choose` collection
    # itself when it reads nothing a game changes; None when unknown.
    space: Callable | None = None
    fixed_label: bool = False  # its label depends on the argument alone (options are made once: naipes.runtime.game)
    choices: Callable | None = None  # f(memory, vars, player) -> the legal arguments: `when`, candidates, cascade
    verb: str | dict[str, str] | None = None  # how the table tells of the move (`verb:`)
    parts: tuple[PartSpec, ...] = ()  # a compound move's later choices; `effect` takes every value
    location: Location | None = None  # where the move is declared (a mistake found in it later is located there)

    def __post_init__(self) -> None:
        self.name = interned(self.name)

    def told(self, player: str, text: str) -> str:
        """The move as the table tells it, from its public form `text` (see told): a move without an argument
        whose public form is one word (its name, or a label such as 'pass') is told by its verb alone."""
        return told(self.verb, player, text, self.arg is None and len(text.split()) == 1)


def told(verb: str | dict[str, str] | None, player: str, text: str, alone: bool) -> str:
    """A move, or a part of one, as the table tells it from its public form `text` and its `verb`: 'P1 plays 3o'
    (`verb: plays`), 'P1 bids 3' (`verb: {bid: bids}` and 'bid 3'), 'P1 stands' (`verb: stands` where the text says
    no more than the verb, `alone`), else 'P1: bid 3'."""
    if isinstance(verb, dict):
        for words, replacement in verb.items():
            if text == words or text.startswith(words + " "):
                return f"{player} {replacement}{text[len(words):]}"
    elif verb:
        return f"{player} {verb}" if alone else f"{player} {verb} {text}"
    return f"{player}: {text}"


@dataclass
class RuleSpec:
    """A production rule, compiled."""

    name: str
    index: int
    # (int | float, not float: the runtime compiled by mypyc would read every priority as a float, and traces and
    # logs of a compiled run would say 'priority 0.0' where a plain one says 'priority 0')
    priority: int | float
    phase: str | None
    tests: int
    variables: tuple[str, ...]
    domains: list[Callable]
    condition: Callable
    action: Callable
    guard: tuple | None
    location: Location | None
    bound_reads: bool = False
    guard_only: bool = False  # the whole condition is its guard (no call needed once the guard holds)
    doc: str = ""
    strategy: str = DEFAULT_STRATEGY  # the conflict-resolution strategy (naipes.runtime.agenda)
    steps: bool = False  # a phase's enter steps (naipes.language.phases), not a rule of the file
    move: str | None = None  # a strategy's decision rule: the move it is about (None: any)
    choose: Callable | None = None  # a strategy's decision rule: the argument it proposes
    join: tuple[Join | None, ...] = ()  # per variable, its tests at binding time (empty: the cross product)
    # per variable, the kind of fact its `for:` goes over when that is all it goes over (`for: f in KIND`)
    fact_levels: tuple[str | None, ...] = ()
    # the kinds of fact its condition reads (`exists`; itself or through functions): a change of their facts
    # leaves an activation that still holds the same one (naipes.runtime.agenda)
    cond_kinds: tuple[str, ...] = ()
    probed: bool = False  # its condition reads them only by looking facts up, itself (the agenda follows its lookups)
    # LEX and MEA: the rest of what its condition reads, whose times count: a name, (attr, seat), (attr, (the
    # position of the variable bound to the player,)) or (attr, None): of any player
    data_reads: tuple = ()
    bit: int = 0  # 1 << the rule's slot in its word of the static conflict order (set by the linker: see Matching)
    activation: Activation | None = None  # a rule without variables: its one activation (naipes.runtime.agenda)


@dataclass
class Join:
    """How one `for:` variable of a rule is bound (naipes.language.rules): the tests of its condition that
    read nothing a game changes and nothing of a later variable, made as soon as this variable is bound
    (a binding that fails one can never become true); with an equality between this variable and earlier
    ones, `key` (of this variable) and `probe` (of the earlier ones) find the matching values by lookup.
    `back`: the same lookup the other way, for a later variable whose probe reads only this one: when only a few
    facts are bound to that later variable (the facts just asserted: Agenda.extend), this variable's facts are
    looked up by their keys rather than all gone over."""

    domain: Callable | None  # f(memory, vars) -> the collection, for the lookup by key (None: no lookup)
    tests: tuple[Callable, ...] = ()  # f(memory, vars, *variables so far) -> bool
    key: Callable | None = None  # f(memory, vars, value) -> its key
    probe: Callable | None = None  # f(memory, vars, *earlier variables) -> the key wanted
    back: tuple[tuple[int, Join], ...] = ()  # (a later variable's level, a Join keying this variable's values
    #                                          by that later variable's probe)

    def passes(self, memory: Memory, binding: tuple[Any, ...]) -> bool:
        """Whether no test refuses the binding (a test that fails with an error refuses nothing: the condition,
        tested in its own order, says what is wrong if it comes to that)."""
        V = memory.vars
        for test in self.tests:
            try:
                if not test(memory, V, *binding):
                    return False
            except Exception:  # noqa: BLE001 (see above)
                continue
        return True

    def index(self, memory: Memory, tagged: bool = False) -> dict[Any, list[tuple[Any, Any]]] | None:
        """The values of the collection by key, with their places in it (`tagged`: facts, placed by their time
        tags) (None: a key cannot be looked up)."""
        found: dict = {}
        V = memory.vars
        assert self.domain is not None  # a join with a key has its collection
        try:
            for i, value in enumerate(self.domain(memory, V)):
                found.setdefault(self.key(memory, V, value), []).append(  # type: ignore[misc]
                    (value.time_tag if tagged else i, value))
        except TypeError:  # an unhashable key
            return None
        return found



# Rules per word of the conflict order: 1 << 61 is the highest bit a mask of compiled code (mypyc) holds as a
# machine integer; past it every mask operation is a long integer's, several times slower.
WORD = 62


@dataclass(frozen=True)
class Matching:
    """What the agenda does when a key is written, fixed at compile time as bit masks over the rules of one *word*.

    The static conflict order is priority, then the strategy's fixed term, then
    declaration order (under recency and breadth only priority and declaration).
    It is cut into words of WORD rules, so that every mask is a machine integer:
    a rule's *slot* is its place within its word, and its bit is ``1 << slot``,
    so that the lowest bit of a mask of rules is the one that fires first.  A
    program with more than WORD rules has one plan, and one agenda, per word
    (naipes.runtime.agenda.Agendas).
    """

    slots: tuple[RuleSpec, ...]  # the word's rules by slot
    rules: tuple[RuleSpec, ...]  # the word's rules in declaration order
    # name -> (value -> the rules guarded by `name == value`, or None; its readers; the rules whose `for:` reads
    # it; the rules a `refresh` of that name brings back; for a kind of fact, the rules whose condition looks its
    # facts up), one lookup per written key
    globals: dict[str, tuple[dict | None, int, int, int, int]]
    # attr -> (readers of any player's; rules whose `for:` reads it; ((rule, variable position), ...) reading it on a
    # bound variable; seat -> readers of that seat's)
    attrs: dict[str, tuple[int, int, tuple, dict[int, int]]]
    guards: dict[str, dict[Any, int]]  # guard name -> value -> the rules guarded by `name == value`
    guarded: dict[str, int]  # guard name -> every rule it guards
    bound: int  # the rules with variables
    bands: tuple[int, ...]  # slot -> the slots of the same priority
    dynamic: bool  # recency or breadth: the order within a priority depends on when activations were made
    # written key (a name, or (an attr, a seat)) -> its readers, for the keys whose only reaction is to make their
    # readers stale (most); the agenda adds (attr, seat) keys as it meets them
    readers: dict[Any, int]
    # kind of fact -> the rules whose `for:` reads it only as `for: f in KIND` (they re-match only the facts that
    # came and went: naipes.runtime.agenda.Agenda.extend)
    incremental: dict[str, int]
    # f(memory, vars, stale, live, fired) -> (live, fired): the rules without variables in `stale` re-evaluated,
    # generated for the program (naipes.language.linker.evaluator); None: the agenda goes rule by rule
    evaluate: Callable | None = None

    def band(self, live: int) -> int:
        """The rules of `live` that share the highest priority among them."""
        bit = live & -live
        return live & self.bands[bit.bit_length() - 1]


@dataclass
class CardSpec:
    attributes: list[str]
    build: Callable  # (memory) -> list of attribute dicts
    tables: dict[str, tuple[str, Callable]]  # table -> (the attribute it reads, its function)
    name: Callable | None
    start: str
    card_class: type[CardBase] = CardBase
    location: Location | None = None  # the 'cards' section, where a fault in building the deck is reported
    declared: dict = field(default_factory=dict)  # attribute -> the values a generated deck may give it


def entry_rule(phase: str) -> str:
    """The name of the rule that enters `phase` (its resets, first turn and enter steps)."""
    return f"entering_{phase}"


@dataclass
class TurnSpec:
    """A phase's declared turn order (`turns:`): who moves first on entering it, and who after each move."""

    first: Callable
    order: Callable | None = None  # the players in turn order (None: every player)
    skip: Callable | None = None  # f(memory, vars, player): passed over
    until: Callable | None = None  # f(memory, vars): the turn stops after a move
    once: bool = False  # the turn goes round once, from `first`
    after: frozenset[str] | None = None  # the moves that end a turn (None: every move)
    ask: tuple[str, ...] = ()  # the moves the player is asked when the turn passes to him


@dataclass(frozen=True, eq=False)
class Program:
    """A compiled rule file: everything needed to run games of it (frozen: built once, then shared)."""

    name: str
    title: str
    path: str
    players: tuple[int, int, int]
    default_ai: str
    params: dict[str, Param]
    param_values: dict[str, Any]
    zones: list[ZoneSpec]
    state: list[VarSpec]
    player_state: list[VarSpec]
    phases: list[str]
    strategy: str
    rules: list[RuleSpec]
    moves: dict[str, MoveSpec]
    setup: Callable | None
    result: Callable | None
    cards: CardSpec | None
    max_firings: int
    max_decisions: int
    max_steps: int = MAX_STEPS  # steps one operation may take (the file's `max_steps:`: see naipes.library.limits)
    doc: str = ""  # how to play, in a few lines (the rule file's `doc:`)
    views: list = field(default_factory=list)  # [ViewSpec]
    evaluation: Callable | None = None  # f(memory, vars, player): standing mid-game, for search playouts
    evaluation_reads: frozenset = frozenset()  # the variables (a player's by name) the evaluation reads
    estimate: Callable | None = None  # f(memory, vars, player): standing counting the round in progress
    display: dict = field(default_factory=dict)  # how the cards look (plain data, naipes.language.display)
    player_class: type[PlayerBase] = PlayerBase
    state_names: tuple = ()
    global_zone_names: tuple = ()
    symmetric: tuple = ()  # card attributes whose values are interchangeable labels
    seats_alike: bool = False  # positions that differ by turning the seats round play alike (players: symmetric:)
    card_attributes: tuple = ()
    matchings: tuple[Matching, ...] = ()  # per word of rules, what the agenda re-evaluates when a key is written
    line_origins: dict = field(default_factory=dict)
    code_names: tuple[str, ...] = ()  # the file names its generated functions carry (Python's, and C's if compiled)
    overrides: dict = field(default_factory=dict)  # the params given at load time (-p name=value), as text
    symbols: Any = None  # the compiler's symbol table, kept to compile expressions later
    namespace: dict = field(default_factory=dict)
    facts: Any = None  # what its generated functions do that the engine asks about (naipes.language.facts.Facts)
    first_stages: dict = field(default_factory=dict)  # phase -> the stage its turns start in (phases with stages)
    resets: dict = field(default_factory=dict)  # phase -> (its game variables, its player variables) to reset
    turns: dict = field(default_factory=dict)  # phase -> its TurnSpec (`turns:`)
    entries: frozenset = frozenset()  # the phases with an entry rule (entry_rule)
    teams: Any = None  # `teams:`: 'parity', tuples of seat indexes, or None (naipes.library.builtins.team_numbers)
    warnings: tuple[str, ...] = ()  # what loading found likely unmeant, though it runs (`naipes check` says it)
    # how its actions ask several players at once: 'each' (`ask each of`: answers held until all are in, so the
    # game is one of imperfect information), 'any' (`ask any of`: the options may hold LEAVE)
    asks_together: frozenset = frozenset()
    # run-time values computed once per program (placeholder cards, the moves as games read them, the zones keys hold)
    caches: dict = field(default_factory=dict)
    function_reads: dict = field(default_factory=dict)  # function -> what it reads, through every call it makes
    base: Program | None = None  # a strategy's program: the game whose compiled functions it calls
    # What a search's memo key holds (naipes.runtime.memory): the variables and zones the play reads
    # (None: every one)
    key_state: tuple | None = None
    key_player_state: tuple | None = None
    key_zones: frozenset | None = None
    locator: Locator = field(init=False, repr=False)
    watch_from: int = field(init=False, repr=False)  # firings after which a game remembers what fires (a cycle)

    def __post_init__(self) -> None:
        object.__setattr__(self, "locator", Locator(self))
        object.__setattr__(self, "watch_from", max(self.max_firings - CYCLE_WATCH, 0))

    @property
    def ruleset(self) -> str:
        """The rule file's name, as the commands take it (`escoba_parejas`): a variant's `game:` may be its base's."""
        return PurePath(self.path).stem

    @property
    def perfect_information(self) -> bool:
        """True when every zone and variable is public and no answer is held from the others (minimax may search
        it)."""
        return "each" not in self.asks_together and all(z.visibility == "public" for z in self.zones) and \
            all(v.visibility == "public" for v in self.state + self.player_state)

    def told(self, move: str, player: str, text: str) -> str:
        """A move, or a part of a compound move (MOVE.NAME), as the table tells it (MoveSpec.told, PartSpec.told);
        LEAVE as 'P1: text'; '' (nothing to tell) when its public form `text` is empty (`public: "''"`: the others
        are told nothing)."""
        if not text.strip():
            return ""
        spec = self.moves.get(move)
        if spec is not None:
            return spec.told(player, text)
        owner = self.moves.get(move.partition(".")[0])
        part = next((p for p in owner.parts if p.key == move), None) if owner is not None else None
        return part.told(player, text) if part is not None else f"{player}: {text}"

    def located(self) -> Locator:
        """Context manager turning faults in generated code into located GameErrors."""
        return self.locator

    def raise_located(self, exc: Exception) -> NoReturn:
        """Raise what a fault caught around generated code becomes (`located_error`): the one handler of the
        context manager (`located`) and of the hot paths that catch faults themselves (`except Exception as
        exc: program.raise_located(exc)`, where a `with` would cost two calls each time, fault or not)."""
        located = self.located_error(exc)
        if located is exc:
            raise exc
        raise located from None

    def located_error(self, exc: Exception) -> Exception:
        """What a fault caught around generated code becomes: a located GameError, or the exception itself
        when it says enough."""
        if isinstance(exc, NaipesError) and not isinstance(exc, GameError):
            return exc  # already a user-facing error (a bad param, a rule-file error)
        if isinstance(exc, GameError) and (exc.message.startswith("in ") or exc.location is not None):
            return exc  # already located
        return self.locate(exc)

    def locate(self, exc: BaseException) -> GameError:
        """The rule-file location of the innermost generated frame of `exc`."""
        origin = None
        tb = exc.__traceback__
        programs = {name: p for p in (self.base, self) if p is not None for name in p.code_names}
        while tb is not None:
            program = programs.get(tb.tb_frame.f_code.co_filename)
            if program is not None:
                origin = program.line_origins.get(tb.tb_lineno, origin)
            tb = tb.tb_next
        if origin is None and isinstance(exc, GameError):
            return exc  # raised by the interpreter itself, outside any rule
        where, loc = origin if origin else ("the game", None)
        if isinstance(exc, GameError):
            return GameError(f"in {where}: {exc.message}", exc.location or loc, exc.hint)
        if isinstance(exc, RecursionError):
            detail = "too deep: functions call each other, or values nest, too deeply"
        elif isinstance(exc, AttributeError) and isinstance(exc.name, str) and exc.name.startswith(ATTRIBUTE_PREFIX):
            detail = f"{kind_of(exc.obj)} has no attribute '{declared(exc.name)}'"
        elif isinstance(exc, TypeError):
            detail = f"TypeError: {_in_the_files_words(str(exc))}"
        else:
            detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        return GameError(f"in {where}: {detail}", loc)


# Python names a lambda by the generated function it is written in ("rule_then_3.<locals>.<lambda>()") and a
# parameter by its generated name ('v_b'): a call with the wrong arguments says neither as the file does
_LAMBDA = re.compile(r"(?:(?:\w+|<\w+>)\.)*<lambda>\(\)")
_PARAMETER = re.compile(r"'v_(\w+)'")


def _in_the_files_words(message: str) -> str:
    """Python's message of a fault in generated code, with the generated names it gives as the rule file writes
    them: a lambda as 'lambda', a parameter by its own name."""
    return _PARAMETER.sub(r"'\1'", _LAMBDA.sub("lambda", message))


def kind_of(value: Any) -> str:
    """What a value is, in the language's words (for a message about an attribute it does not have)."""
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):  # (records and facts: naipes.language.linker)
        return f"a {'fact' if isinstance(value, FactBase) else 'record'} '{type(value).__name__}'"
    for kind, words in ((PlayerBase, "a player"), (CardBase, "a card"), (bool, "true/false"),
                        (int, "a number"), (float, "a number"), (str, "a text"), (list, "a list"), (dict, "a map"),
                        (set, "a set"), (frozenset, "a set"), (tuple, "a tuple"), (type(None), "None")):
        if isinstance(value, kind):
            return words
    if callable(value):
        return "a function"
    return "this value"


class Locator:
    """Turns a fault raised inside a program's generated code into a located GameError."""

    def __init__(self, program: Program):
        self.program = program

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type | None, exc: BaseException | None, tb: Any) -> Literal[False]:
        if exc is None or not isinstance(exc, Exception):
            return False
        self.program.raise_located(exc)


