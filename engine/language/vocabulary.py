"""The vocabulary of rule files and strategy files: every section and key, its shape and meaning.

This table is the one source of truth for what a file may contain. The
loader checks keys against it (:mod:`naipes.program`, :mod:`naipes.language.strategies`
import the key sets derived here) and :mod:`naipes.tools.schema` turns it into a
JSON Schema for editors, so a key added here is accepted by both at once.

Shapes: :class:`Value` (a scalar of some kinds), :class:`ListOf`,
:class:`Entries` (a mapping of declared names to one shape), :class:`Record`
(a mapping with fixed keys, each a :class:`Field`) and :class:`Either`.

>>> sorted(MOVE_KEYS)[:3]
['choose', 'doc', 'label']
>>> RULE_FILE.fields["zones"].doc
'piles of cards and who sees them'
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import ParamError
from ..runtime.agenda import STRATEGIES

# The built-in agents (naipes.agents.registry makes them): what `players: ai:` and a strategy's `default:` may name.
AGENT_NAMES = ("random", "minimax", "ismcts", "pimc", "human")
# The options each built-in agent takes (`ismcts:iterations=200`), and how each is read from its text.
AGENT_OPTION_KINDS: dict[str, dict[str, Callable[[str], Any]]] = {
    "ismcts": {"iterations": int, "seconds": float, "exploration": float, "policy": str, "depth": int, "infer": str,
               "plies": int},
    "pimc": {"worlds": int, "seconds": float, "model": str, "nodes": int, "depth": int, "policy": str, "infer": str},
}


def agent_options(spec: str) -> dict[str, Any]:
    """The options of the built-in agent `spec` (``ismcts:iterations=200,policy=strong``), each read as its kind:
    {NAME: VALUE}. A ParamError says what is wrong: an option the agent does not take, or a value of another kind.
    (Options stay one value until the agent reads them: a name written in a file is never a keyword argument.)"""
    name, _, text = spec.partition(":")
    texts: dict[str, str] = {}
    for item in filter(None, text.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ParamError(f"agent '{spec}': options are NAME=VALUE separated by commas, not '{item}'")
        if key.strip() in texts:
            raise ParamError(f"agent '{spec}': option '{key.strip()}' is given twice")
        texts[key.strip()] = value.strip()
    kinds = AGENT_OPTION_KINDS.get(name)
    if texts and kinds is None:
        raise ParamError(f"agent '{name}' takes no options")
    return {key: _option_value(name, key, raw, kinds or {}) for key, raw in texts.items()}


def _option_value(agent: str, key: str, raw: str, kinds: dict[str, Callable[[str], Any]]) -> Any:
    if key not in kinds:
        raise ParamError(f"{agent} has no option '{key}' (options: {', '.join(kinds)})")
    try:
        return kinds[key](raw)
    except ValueError:
        kind = "whole number" if kinds[key] is int else "number" if kinds[key] is float else "value"
        raise ParamError(f"{agent} option '{key}' needs a {kind}, not '{raw}'") from None


@dataclass(frozen=True)
class Value:
    """A scalar: `kinds` among text, int, number, bool, null; optionally one of `choices`, at least `minimum`."""

    kinds: tuple[str, ...]
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    pattern: str | None = None  # a regular expression a text must match


@dataclass(frozen=True)
class ListOf:
    item: Shape


@dataclass(frozen=True)
class Entries:
    """A mapping from names the file declares (`key`: identifier, signature or any) to one shape."""

    value: Shape
    key: str = "identifier"
    at_most: int | None = None


@dataclass(frozen=True)
class Field:
    doc: str
    shape: Shape


@dataclass(frozen=True)
class Record:
    """A mapping with a fixed set of keys."""

    fields: dict[str, Field]
    required: tuple[str, ...] = ()
    base: str | None = None  # a key naming a base file the required keys may come from (extends)

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(self.fields)


@dataclass(frozen=True)
class Either:
    options: tuple[Shape, ...] = field(default_factory=tuple)


Shape = Value | ListOf | Entries | Record | Either


def _taken_away_by_null(record: Record) -> Record:
    """An override of `record`: every key but the required ones may also be null (the base's key taken away)."""
    return Record({name: f if name in record.required else Field(f.doc, Either((f.shape, NULL)))
                   for name, f in record.fields.items()}, record.required, record.base)

TEXT = Value(("text",))
BOOL = Value(("bool",))
NUMBER = Value(("int", "number"))
COUNT = Value(("int",), minimum=1)
ANY_SCALAR = Value(("text", "int", "number", "bool"))
EXPRESSION = Value(("text", "int", "number", "bool"))  # numbers and booleans are expressions too
ACTIONS = Either((TEXT, ListOf(TEXT)))  # statements: one text (lines) or a list of texts
BINDING = Value(("text",), pattern=r"^\s*[A-Za-z]\w*\s+in\s+\S")  # NAME in COLLECTION
NAMES = ListOf(TEXT)
NULL = Value(("null",))
BINDINGS = Either((BINDING, ListOf(BINDING)))
VISIBILITIES = ("public", "hidden", "owner", "top")
PARAM_TYPES = ("int", "float", "bool", "str")


def _record(required: tuple[str, ...] = (), base: str | None = None, /, **fields: tuple[str, Shape]) -> Record:
    return Record({name: Field(doc, shape) for name, (doc, shape) in fields.items()}, required, base)


PLAYERS = _record(
    min=("fewest seats", COUNT), max=("most seats", COUNT), default=("seats when not given", COUNT),
    ai=("the default opponent in 'naipes play' (an agent name or a strategy file)", TEXT),
    symmetric=("the seats are alike: positions that differ only by turning who sits where round the table play "
               "alike (search shares them)", BOOL))
PARAM = _record(
    type=("int, float, bool or str (default: the default's type)", Value(("text",), PARAM_TYPES)),
    default=("the value when not overridden with -p", ANY_SCALAR),
    min=("smallest allowed value (numeric params)", NUMBER), max=("largest allowed value (numeric params)", NUMBER),
    choices=("the allowed values", ListOf(ANY_SCALAR)), doc=("what it means", TEXT))
TABLE = _record(("of",), of=("the attribute it reads", TEXT),
                values=("attribute value -> table value", Entries(ANY_SCALAR, key="any")),
                value=("or the table value as an expression of the attribute (named as the attribute)", EXPRESSION),
                default=("the value for the others", ANY_SCALAR))
CARDS = _record(
    attributes=("each attribute's values (a list or an expression); with generate: its type, or the list of its values",
                Entries(Either((ListOf(ANY_SCALAR), EXPRESSION)))),
    generate=("an expression giving a list of attribute maps, one per card", EXPRESSION),
    extra=("more cards, each a mapping attribute: value", ListOf(Entries(Either((ANY_SCALAR, NULL)), key="any"))),
    copies=("copies of every card (a number or an expression)", Either((Value(("int",)), TEXT))),
    tables=("derived attributes: {of: attribute, values: {value: number}, default}", Entries(TABLE)),
    name=("a card's name, an expression over c", EXPRESSION),
    start=("the global zone the deck starts in", TEXT),
    symmetric=("attributes whose values are interchangeable labels (search shares positions)", NAMES))
ZONE = _record(
    per_player=("one per player (a hand) or one for the table", BOOL),
    visibility=("who sees its cards: public, hidden, owner, top (only the top card)", Value(("text",), VISIBILITIES)),
    ordered=("whether the order of its cards matters (default true)", BOOL), doc=("what it holds", TEXT))
VARIABLE = _record(
    init=("the initial value, an expression", Either((EXPRESSION, NULL))),
    visibility=("public, hidden, or owner (per-player variables)", Value(("text",), ("public", "hidden", "owner"))),
    show=("shown to a human at the table (false: bookkeeping)", BOOL),
    score=("a column of the score sheet shown when the game ends: its value after each hand that changes a score, "
           "and at the end (public per-player variables)", BOOL),
    values=("the only texts it may hold (a text the file writes to or compares with it must be one)", NAMES),
    team=("a per-player variable its team shares: writing it for one member writes it for each (teams:)", BOOL),
    reset=("a phase: the variable starts again from its init each time the phase is entered, before its enter "
           "steps (per-hand state: reset: deal)", TEXT),
    doc=("what it means", TEXT))
VARIABLES = Entries(Either((VARIABLE, EXPRESSION, NULL)))  # name: INIT, or name: {init, visibility, ...}
VIEW = _record(
    ("value",), value=("the displayed value, an expression", EXPRESSION),
    per_player=("one per player", BOOL),
    visibility=("public, or owner (per-player views)", Value(("text",), ("public", "owner"))),
    doc=("what it shows", TEXT))
# The drawings the web table knows (naipes/web/static/table.js, ICONS), and the colours a look may name.
SHAPES = ("card", "chip")  # how the web table draws a card
ICONS = ("coin", "cup", "sword", "club", "heart", "diamond", "spade", "clover", "star", "pointed_hat", "belled_cap")
COLOUR = r"^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-zA-Z]{3,20})$"
LOOK = _record(
    name=("the value's name", ANY_SCALAR), short=("what a card's corner shows (a few characters)", ANY_SCALAR),
    icon=("a drawing of the web table: " + ", ".join(ICONS), Value(("text",), ICONS)),
    symbol=("text drawn instead of an icon", ANY_SCALAR),
    colour=("a CSS colour: #rgb, #rrggbb or a name", Value(("text",), pattern=COLOUR)))
DISPLAY = _record(
    shape=("how a card is drawn: card (a playing card) or chip (a round token)", Value(("text",), SHAPES)),
    corner=("the attribute written in a card's corner (default: the card's name)", TEXT),
    suit=("the attribute whose value gives a card its icon or symbol and its colour", TEXT),
    order=("the attributes a hand is sorted by, in turn (values in the order `values` lists them)", NAMES),
    name=("a card's full name, {attribute} standing for the value's name: \"{rank} de {suit}\"", TEXT),
    labels=("zone: a state variable of (player, card) pairs that says who put each card there", Entries(TEXT)),
    values=("attribute: {value: {name, short, icon, symbol, colour}}: how each value is named and drawn",
            Entries(Entries(LOOK, key="any"))),
    click=("move: attribute: a click on a card picks the option of the move whose argument is the card's attribute",
           Entries(TEXT)))
LEGAL_STEP = Either((EXPRESSION, Entries(EXPRESSION, key="any", at_most=1)))  # EXPR or {step_name: EXPR}
PART = _record(
    ("choose",),
    choose=("NAME in COLLECTION: this part's candidates (the parts before it, and the move's argument, in scope)",
            BINDING),
    legal=("a filter of the candidates", EXPRESSION),
    label=("how an option of this part reads to the player choosing (default: the value); the last part's label "
           "reads the whole move", EXPRESSION),
    public=("how this part reads to the other players (default: its label)", EXPRESSION),
    verb=("how the table tells of this part, as a move's verb does (default: 'P1: text')",
          Either((TEXT, Entries(TEXT, key="any")))),
    space=("every value the part can ever offer (see the move's space)", EXPRESSION),
    collect=("the part is chosen again and again, one value each time: the name of the tuple of its values so far, "
             "in scope in its own keys, the parts after it and the effect (needs until)", TEXT),
    until=("with collect: the part is complete once this holds, checked after each value chosen", EXPRESSION),
    when=("when the part is asked at all (the values before it in scope); otherwise it is passed over and its "
          "value is None (an 8 names a suit, another card does not)", EXPRESSION),
    doc=("what the part is", TEXT))
MOVE = _record(
    choose=("NAME in COLLECTION: the candidate arguments", BINDING),
    parts=("a compound move's further choices, made one after the other by the same player once `choose` is made: "
           "each NAME in COLLECTION, or {choose, legal, label, public, verb, space, when, collect, until}; `then` runs "
           "once all are made",
           ListOf(Either((BINDING, PART)))),
    legal=("a filter, or an ordered list of filters (an obligation cascade)", Either((LEGAL_STEP, ListOf(LEGAL_STEP)))),
    when=("when the move is available at all", EXPRESSION),
    label=("how an option reads to the player choosing", EXPRESSION),
    public=("how the move reads to the other players (default: the label)", EXPRESSION),
    verb=("how the table tells of the move (plain text): a verb put before its public form (plays: 'P1 plays "
          "3o'), or {WORD: TEXT}: the public form's first word WORD becomes TEXT (bid: bids: 'P1 bids 3'); "
          "without it, 'P1: bid 3'", Either((TEXT, Entries(TEXT, key="any")))),
    stage=("the stage of a turn in which the move is offered (see phases: stages)", TEXT),
    then=("the move's effect: actions with player and the chosen argument in scope", ACTIONS),
    space=("every argument the move can ever offer (the action space of learning agents); "
           "reads only params, players and all_cards()", EXPRESSION),
    doc=("what the move does", TEXT))
STEP_BODY = _record(
    when=("run the step only if this holds when its turn comes", EXPRESSION), then=("its actions", ACTIONS),
    doc=("what it does", TEXT))
STEP = Entries(Either((ACTIONS, STEP_BODY)), at_most=1)  # - step_name: ACTIONS, or - step_name: {when, then, doc}
TURNS = _record(
    ("from",), **{"from": ("who moves first on entering the phase (a player)", EXPRESSION)},
    order=("the players who take turns, in turn order (default: players)", EXPRESSION),
    skip=("a player passed over when this holds (an expression of `player`)", EXPRESSION),
    once=("the turn goes round once: the player back to `from` gets no turn (turn is None)", BOOL),
    until=("after a move, the turn stops (turn is None) when this holds", EXPRESSION),
    after=("the moves that end a turn (default: every move; a move not listed leaves the turn where it is)",
           NAMES),
    ask=("the moves the player is asked each time the turn order gives him the turn (on entering the phase, once "
         "its enter steps have run, and after each move that ends a turn)", NAMES),
    doc=("how the turn goes round", TEXT))
PHASE = _record(
    turns=("declared turn order: `turn` is `from` on entering the phase and passes after each move made by the "
           "player whose turn it is, to the next player of `order` (unless the move gave the turn itself)", TURNS),
    stages=("the stages of a turn in this phase, in order: `stage` holds the current one, the first on entering "
            "the phase; a move with `stage:` is offered only in its stage", NAMES),
    enter=("named steps run in order each time the phase is entered, before any rule of it; "
           "a variant overrides or removes a step by name", ListOf(STEP)),
    doc=("what happens in the phase", TEXT))
ORDER_BEFORE = ("placed right before the rule of this name, with its priority (instead of a priority)", TEXT)
ORDER_AFTER = ("placed right after the rule of this name, with its priority (instead of a priority)", TEXT)
RULE = _record(
    ("name",), name=("the rule's name (override and remove use it)", TEXT), when=("its condition", EXPRESSION),
    then=("its actions", ACTIONS), priority=("salience: higher fires first (default 0)", NUMBER),
    phase=("the phase (agenda group) in which it is active", TEXT),
    before=ORDER_BEFORE, after=ORDER_AFTER,
    doc=("what it does", TEXT), **{"for": ("NAME in COLLECTION bindings: one activation per binding", BINDINGS)})

BLINDS_STEP = _record(
    bets=("the blinds, posted in order: a list of (player, amount); a player short of his posts what he has "
          "(all-in); the largest is the round's first bet", EXPRESSION),
    antes=("the ante each player still in posts first (an expression of player): dead, in the pot but not a bet "
           "of the round", EXPRESSION),
    when=("post them only if this holds when the round begins (street == 0)", EXPRESSION),
    then=("actions once they are posted (what each posted: p.NAME_bet)", ACTIONS), doc=("what is posted", TEXT))
BET = _record(
    calls=("the calls, in the order they raise (the call move's options): [truco, retruco, vale cuatro]", NAMES),
    answers=("two words: accepting, then refusing (default [accept, refuse]): the answer move's options", NAMES),
    move=("the move that makes a call (default: the bet's name), or a move for each call: {envido: envido, "
          "órdago: ordago} (calls naming the same move share it)", Either((TEXT, Entries(TEXT, key="any")))),
    size=("the amounts a call is made for, by call: {envido: '[2, 5, 10]'} (an expression of player); a sized "
          "call has a move of its own, which chooses the amount n, and is worth it", Entries(EXPRESSION, key="any")),
    answer=("the move that answers a call (default: answer); bets naming the same one share it, answered in the "
            "order declared", TEXT),
    when=("when any call may be made at all (an expression of player)", EXPRESSION),
    open=("when a player may make a call with none waiting (an expression of player)", EXPRESSION),
    follows=("which call k may be made next (an expression of k and player; default: the next one of the ladder)",
             EXPRESSION),
    answerer=("who must answer a call the player made (default: next_player(player))", EXPRESSION),
    answerers=("who may answer a call the player made, in order (a list): a refusal asks the next, and the call is "
               "refused when the last refuses (instead of answerer)", EXPRESSION),
    answered_by=("player (default: the player asked answers) or team (any member of his team may)",
                 Value(("text",), ("player", "team"))),
    raiser=("who may call next once a call is accepted: accepter (his team, the default) or any",
            Value(("text",), ("accepter", "any"))),
    worth=("what each call is worth: a number for each call, or an expression of the call k (default: 1, 2, 3...)",
           Either((ListOf(NUMBER), EXPRESSION))),
    adds=("true: the calls accepted add up (envido); false: the bet stands at the last one's worth (truco)", BOOL),
    base=("what the bet stands at before any call is accepted (default 0)", EXPRESSION),
    accepted=("actions when a call is accepted (player: who accepts)", ACTIONS),
    refused=("actions when a call is refused (player: who refuses; NAME_by made the call)", ACTIONS),
    reset=("a phase each entry of which starts the bet again (reset: deal)", TEXT),
    round=("a round of betting: the phase each entry of which is one (every player still in answers each bet in "
           "turn, until the bets are level)", TEXT),
    chips=("a round: the player variable the chips are bet from (default: chips)", TEXT),
    minimum=("a round: the smallest bet (and raise, until a larger one; default 1)", EXPRESSION),
    fixed=("a round: fixed-limit, the size of every bet and raise (0: no-limit)", EXPRESSION),
    cap=("a round: the bets and raises a round may have (0: no cap)", EXPRESSION),
    sizes=("a round: the no-limit sizes, by word: what a raise is by, at least the minimum raise ({min: '0', pot: "
           "'...'}); all-in is always offered", Entries(EXPRESSION, key="any")),
    blinds=("a round: the enter step of its phase that posts forced bets: {STEP: {bets, when, then, doc}}",
            Entries(BLINDS_STEP, at_most=1)),
    folded=("a round: actions when a player folds (player: who folds)", ACTIONS),
    doc=("what the bet is", TEXT))

RULE_FILE = _record(
    ("game",), "extends",  # required keys; the key naming a base (extends)
    game=("the game's identifier", TEXT), title=("a human title", TEXT), description=("free text", TEXT),
    doc=("how to play, in a few lines: the aim, a turn, who wins ('naipes info', 'help rules' at the terminal "
         "and the web table show it; a variant gives its own, else it has its base's)", TEXT),
    players=("min / max / default number of seats, and the default AI", Either((COUNT, PLAYERS))),
    params=("named, typed parameters", Entries(Either((PARAM, ANY_SCALAR))),),
    cards=("the deck", CARDS), zones=("piles of cards and who sees them", Entries(Either((ZONE, NULL)))),
    state=("global variables", VARIABLES), player_state=("per-player variables", VARIABLES),
    teams=("fixed partnerships: `parity` (seats 0, 2, ... against 1, 3, ... at an even table; alone at an odd "
           "one) or lists of seat indexes ([[0, 2], [1, 3]]); a seat in none plays alone",
           Either((Value(("text",), ("parity",)), ListOf(ListOf(Value(("int",), minimum=0)))))),
    phases=("the phases (agenda groups), the first is the start: a list of names, or name: {enter: steps, doc}",
            Either((NAMES, Entries(Either((PHASE, NULL)))))),
    strategy=("conflict-resolution strategy", Value(("text",), tuple(STRATEGIES))),
    setup=("actions run once at the start", ACTIONS),
    functions=("pure helper functions", Entries(EXPRESSION, key="signature")),
    records=("values with named fields: NAME: [field, ...]; NAME(field=value, ...) makes one, r.field reads it",
             Entries(NAMES)),
    facts=("kinds of fact, NAME: [field, ...]: actions assert NAME(field=value, ...), modify F(field=value) and "
           "retract F; NAME is the collection of the facts asserted, oldest first (for: f in NAME)", Entries(NAMES)),
    moves=("the decisions players make", Entries(MOVE)),
    bets=("calls that wait for an answer (accept, refuse, or call again): each written out as state NAME_calls, "
          "NAME_accepted, NAME_asked, NAME_by, NAME_raiser, functions and its moves; or, with round: PHASE, a round "
          "of betting (NAME_high, p.NAME_bet, NAME_over(), the moves fold, call and bet...)", Entries(BET)),
    rules=("production rules", ListOf(RULE)),
    result=("each player's payoff when the game ends", EXPRESSION),
    evaluation=("how well each player stands mid-game (search agents stop their playouts when it changes)", EXPRESSION),
    estimate=("how well each player stands right now, the round in progress included "
              "(search agents score a cut-off playout by it)", EXPRESSION),
    views=("values computed only when a player's view is built (for display; rules cannot read them)", Entries(VIEW)),
    display=("how the cards look at the web table: corner, suit, names, icons, colours, order (plain data)", DISPLAY),
    max_firings=("firings allowed between two decisions (at most 1,000,000)", COUNT),
    max_decisions=("decisions after which a game is cut off, so that none goes on for ever (default 100,000)", COUNT),
    max_steps=("steps (loop items, calls, items made, bindings tried) one operation may take (default 1,000,000; at "
               "most 100,000,000, a whole game's)", COUNT),
    extends=("base rule file of a variant: a path, or the name of a shipped rule file", TEXT),
    override=("rules (or phase steps) changing the base's by name, key by key (a key given null is taken away)",
              ListOf(_taken_away_by_null(RULE))),
    remove=("base rules, phase steps or variables to delete by name", NAMES))

STRATEGY_RULE = _record(
    ("name",), name=("the rule's name", TEXT), priority=("salience: higher first", NUMBER),
    phase=("the game phase in which it is active", TEXT),
    when=("its condition over the seat's view", EXPRESSION),
    choose=("the argument it proposes (options: the legal ones)", EXPRESSION),
    then=("actions on the strategy's memory", ACTIONS),
    move=("only in decisions offering this move", TEXT),
    observe=("an observation rule: runs after any player makes this move", TEXT), doc=("what it does", TEXT),
    before=ORDER_BEFORE, after=ORDER_AFTER, **{"for": ("NAME in COLLECTION bindings", BINDINGS)})

MEMORY_VARIABLE = _record(
    init=("the initial value, an expression", Either((EXPRESSION, NULL))),
    reset=("start again from init whenever this expression's value changes (round_number: every hand)", EXPRESSION),
    per_player=("one value per player, read and written as p.NAME (INIT may read `player`)", BOOL),
    doc=("what it remembers", TEXT))
MEMORY = Entries(Either((MEMORY_VARIABLE, EXPRESSION, NULL)))

STRATEGY_GROUP = _record(
    ("group", "rules"), group=("the group's name", TEXT),
    when=("the condition its rules share (each adds its own)", EXPRESSION),
    move=("the move its rules are about (a rule may name another)", TEXT), doc=("what its rules do", TEXT),
    before=ORDER_BEFORE, after=ORDER_AFTER,
    rules=("decision rules", ListOf(STRATEGY_RULE)))

STRATEGY_FILE = _record(
    ("game",), "extends",  # required keys; the key naming a base (extends)
    game=("the rule file it plays", TEXT), title=("a human title", TEXT), description=("free text", TEXT),
    extends=("a weaker level it adds rules to", TEXT),
    override=("rules changing the base's by name, key by key (a key given null is taken away)",
              ListOf(_taken_away_by_null(STRATEGY_RULE))),
    remove=("base rules to delete by name", NAMES),
    default=("when no rule proposes a legal option: first, random, or an agent", TEXT),
    strategy=("conflict-resolution strategy", Value(("text",), tuple(STRATEGIES))),
    memory=("the seat's private variables: name: INIT, or name: {init: INIT, reset: EXPR}", MEMORY),
    functions=("pure helper functions", Entries(EXPRESSION, key="signature")),
    rules=("decision and observation rules, and groups of decision rules sharing a condition",
           ListOf(Either((STRATEGY_RULE, STRATEGY_GROUP)))))

# The key sets the loader checks against.
SECTIONS = {name: f.doc for name, f in RULE_FILE.fields.items()}
RULE_KEYS = RULE.keys
MOVE_KEYS = MOVE.keys
ZONE_KEYS = ZONE.keys
PARAM_KEYS = PARAM.keys
CARD_KEYS = CARDS.keys
VAR_KEYS = VARIABLE.keys
VIEW_KEYS = VIEW.keys
PLAYERS_KEYS = PLAYERS.keys
PHASE_KEYS = PHASE.keys
STEP_KEYS = STEP_BODY.keys
TURNS_KEYS = TURNS.keys
TABLE_KEYS = TABLE.keys
STRATEGY_SECTIONS = STRATEGY_FILE.keys
STRATEGY_RULE_KEYS = STRATEGY_RULE.keys
STRATEGY_GROUP_KEYS = STRATEGY_GROUP.keys
