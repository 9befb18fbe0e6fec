"""The functions a rule file may call, and nothing else.

Each entry says how many arguments the function takes, which keyword
arguments it accepts, whether it needs the game (``state``: the compiler
passes the working memory's variables first), and whether it is random
(random functions are refused in conditions, which must be pure).
"""
from __future__ import annotations

import builtins
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import indexOf
from types import GeneratorType
from typing import Any, Final

from ..errors import GameError
from .limits import TEXT_CHUNK, Budget, bounded_join, bounded_range, bounded_str, bounded_sum
from .melds import best_melds, can_lay_off, is_meld, lay_off_all, longest_run, meld_and_lay_off, meldable
from .names import attribute


@dataclass(frozen=True)
class Builtin:
    func: Callable
    min_args: int
    max_args: int | None = None  # None: any number
    kwargs: frozenset = field(default_factory=frozenset)
    state: bool = False  # receives the variables dict V first
    random: bool = False  # receives the game's seeded generator first
    costly: bool = False  # receives the working memory first, to pay for what it makes (naipes.library.limits)
    returns: str | None = None  # a type name for the compiler's checks
    doc: str = ""
    keyed: Callable | None = None  # called instead when a key= is given (min, max, sorted: the key says the order)
    # it goes over its one argument and keeps nothing of it but items: a generator expression given alone may stay a
    # generator (naipes.language.compiler makes every other one a list: no generator is ever a value a file holds)
    iterates: bool = False
    # what a call costs that grows with its arguments, charged before it runs (naipes.language.codegen):
    # "items": a step per item of each collection and per character of each text given; "compared": the work of
    # comparing what is given (naipes.library.limits.work); "hashed": that, and what hashing it may cost
    # (naipes.library.limits.Budget.hashed_all); "sorted": the work of comparing, once per round of a sort;
    # "made": a step per item of what it gives; "none": nothing grows (or it charges what it makes itself)
    work: str = "items"


DECK = "__deck"  # the variable holding every card, in deck order (rule files cannot name it)
TEAMS = "__teams"  # the variable holding each seat's team number (`teams:`; rule files cannot name it)


def _players(V: dict) -> list:
    return V["players"]


def next_player(V: dict, player: Any, steps: int = 1) -> Any:
    """The player `steps` seats after `player` (negative: before)."""
    seats = _players(V)
    return seats[(player.index + steps) % len(seats)]


def team_numbers(teams: Any, count: int) -> tuple[int, ...]:
    """Each seat's team number at a table of `count`: `teams` is 'parity' (partners sit alternately, which only an
    even table allows: at an odd one everyone plays alone), lists of seat indexes, or None (every seat its own);
    a seat listed in no team plays alone (a team of its own, numbered after the listed ones)."""
    if teams == "parity" and count % 2 == 0:
        return tuple(seat % 2 for seat in range(count))
    if teams == "parity":
        return tuple(range(count))
    listed = {seat: number for number, seats in enumerate(teams or ()) for seat in seats}
    alone = len(teams or ())
    return tuple(listed[seat] if seat in listed else alone + seat for seat in range(count))


def team(V: dict, player: Any) -> int:
    """The number of `player`'s team (from 0, as `teams:` lists them; with `parity`, the seat's parity)."""
    number: int = V[TEAMS][player.index]
    return number


def members(V: dict, number: int) -> list:
    """The players of team `number`, in seat order."""
    teams = V[TEAMS]
    return [p for p in _players(V) if teams[p.index] == number]


def partners(V: dict, player: Any) -> list:
    """The other players of `player`'s team."""
    return [p for p in members(V, team(V, player)) if p is not player]


def partner(V: dict, player: Any) -> Any:
    """`player`'s first partner (None if he plays alone)."""
    found = partners(V, player)
    return found[0] if found else None


def opponents(V: dict, player: Any) -> list:
    """The players not of `player`'s team, in seat order."""
    teams, own = V[TEAMS], team(V, player)
    return [p for p in _players(V) if teams[p.index] != own]


def seating(V: dict, first: Any) -> list:
    """Every player once, in turn order, starting with `first`."""
    seats = _players(V)
    return seats[first.index:] + seats[:first.index]


def side_pots(budget: Budget, put: Any, live: Any) -> list:
    """The pots of a betting round whose players put in different amounts (poker's side pots): `put` is
    (player, amount) for every player who put anything in, `live` the players who may still win. Each level of
    what the live players put in is a pot: every player's chips up to that level and above the one before, won
    among the live players who put in that much; the last pot also takes what folded players put in above the
    highest live level. A list of (amount, players) pairs, the main pot first, each pot's players in the order
    `put` gives them (a pot of one player is his own chips, given back)."""
    pairs = [(p, a) for p, a in put]
    alive = list(live)
    budget.spend(len(pairs) * (len(alive) + 1))  # who is live; then a pot for each live player at most
    still_in = [p in alive for p, _ in pairs]
    tops = sorted({a for (_, a), inside in zip(pairs, still_in) if inside})
    if not tops:
        return []
    levels = tops[:-1] + [max([tops[-1]] + [a for _, a in pairs])]
    pots, before = [], 0
    for level in levels:
        amount = sum(min(a, level) - min(a, before) for _, a in pairs)
        winners = [p for (p, a), inside in zip(pairs, still_in) if inside and a >= min(level, tops[-1])]
        pots.append((amount, winners))
        before = level
    return pots


def top(zone: Any, count: int | None = None) -> Any:
    """The top card of a zone (None if empty), or a list of the top `count`."""
    if count is None:
        return zone[-1] if zone else None
    return list(zone[-count:]) if count > 0 else []


def split(budget: Budget, text: str, sep: str | None = None) -> list:
    """`text` cut at each `sep` (None: at each run of white space); a text searched for a text costs a step per
    TEXT_CHUNK of the product of their lengths (see Budget.contains)."""
    if isinstance(text, str) and isinstance(sep, str):
        budget.spend(len(text) * len(sep) // TEXT_CHUNK)
    return text.split(sep)


def count(items: Any) -> int:
    return sum(map(bool, items))  # (the true items, counted in C)


ROUND_DIGITS = 36  # the places `round` may round to, either way: a rule file's numbers have at most 18 digits


def round_to(value: Any, digits: Any = None) -> Any:
    """`round(value)`, `round(value, digits)`: Python's, with `digits` bounded (round(5, -10**9) computes a number
    of a billion digits first)."""
    if digits is None:
        return round(value)
    if isinstance(digits, int) and not -ROUND_DIGITS <= digits <= ROUND_DIGITS:
        raise GameError(f"round to at most {ROUND_DIGITS} places either way, not {digits}")
    return round(value, digits)


def first(items: Any, default: Any = None) -> Any:
    """The first item (`default` if there is none): first([c for c in hand if c.rank == 1])."""
    return next(iter(items), default)


def all_cards(V: dict) -> list:
    """Every card of the game, wherever it is: what the deck is made of is no secret."""
    return list(V[DECK])




def natural_order(value: Any) -> Any:
    """How min, max and sorted without a key order cards (by id) and players (by seat), alone or inside tuples
    and lists: by the attribute their class names as `_order_by` (no record field or card attribute starts
    with _)."""
    if type(value) is tuple or type(value) is list:
        return tuple(map(natural_order, value))
    by = getattr(type(value), "_order_by", None)
    if type(by) is str:
        return by, getattr(value, by)
    return value


def _ordering(compare: Callable) -> Callable:
    """`compare` (min, max or sorted) without a key, which orders cards and players too (see natural_order).
    Neither class defines `<`: a class that defines a comparison in Python makes CPython compare its objects
    through Python for `==` too, ten times slower, and cards and players are compared for equality all the
    time. (With a key, the compiler calls `compare` itself: the key says what to compare.)"""
    def call(*args: Any, **kwargs: Any) -> Any:
        # (a generator, the common case, is told first: isinstance with a tuple of classes is slow)
        if len(args) == 1 and (type(args[0]) is GeneratorType or not isinstance(args[0], REUSABLE)):
            args = (list(args[0]),)  # (a generator is gone once gone over: a second try needs the items)
        try:
            return compare(*args, **kwargs) if kwargs else compare(*args)
        except TypeError:  # cards or players compared (or values that do not compare: the second try says so)
            return compare(*args, key=natural_order, **kwargs)
    call.__name__ = compare.__name__
    return call


REUSABLE = (list, tuple, set, frozenset, dict, str)  # (zones are lists)


_RANDOM: Final = random.Random  # (a module's attribute is looked up at each read; a final name is a C static)


def shuffled(rng: Any, items: Any) -> list:
    """A new list of the items in random order (the game's seeded generator)."""
    result = list(items)
    shuffle_in_place(rng, result)
    return result


def shuffle_in_place(rng: random.Random, items: list) -> None:
    """`rng.shuffle(items)`. For a `random.Random` itself, its own draws and swaps (the same order from the same
    state, and the same state after) made here, compiled, where the library's shuffle is Python code (20 us for
    40 cards, as long as a few moves of a game); a subclass, which may draw otherwise, shuffles as it does."""
    if type(rng) is not _RANDOM:
        rng.shuffle(items)
        return
    for i in range(len(items) - 1, 0, -1):  # (random.Random.shuffle)
        j = _below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


def pick(rng: random.Random, items: Sequence) -> Any:
    """`rng.choice(items)`, drawn as `shuffle_in_place` draws (the same item, and the same state after, for a
    `random.Random`), compiled: the library's choice is two calls of Python code for every random move."""
    if type(rng) is not _RANDOM:
        return rng.choice(items)
    if not items:
        raise IndexError("Cannot choose from an empty sequence")
    return items[_below(rng, len(items))]


_GETRANDBITS: Final[Callable[[random.Random, int], int]] = random.Random.getrandbits  # (unbound: no method made)


def _below(rng: random.Random, below: int) -> int:
    """A number in [0, below), as random.Random's _randbelow_with_getrandbits draws it (`rng` a random.Random)."""
    size = below.bit_length()
    j = _GETRANDBITS(rng, size)
    while j >= below:
        j = _GETRANDBITS(rng, size)
    return j


def index_of(items: Any, item: Any) -> int:
    """Where `item` first is among `items` (from 0), as `operator.indexOf` says: in a list by the list's own
    search, compiled (indexOf makes an iterator and goes through it: a next seat's index, once a move)."""
    if isinstance(items, list):
        found: list = items
        try:
            return found.index(item)
        except ValueError:
            pass
    return indexOf(items, item)  # (also says that it is not there)


def randint(rng: Any, low: int, high: int) -> int:
    return rng.randint(low, high)


def choice(rng: Any, items: Any) -> Any:
    return pick(rng, list(items))


def random_float(rng: Any) -> float:
    return rng.random()


MAX_MELD_CARDS = 24  # the meld search is exponential in the number of cards: keep every call small
# meld_and_lay_off tries every set of the hand's cards laid off with every partition of the rest:
# 14 cards onto 8 runs that take them all, two jokers among them, is about 0.1 s
MAX_LAY_OFF_CARDS = 14


def _hand(search: Callable, cards: Any, most: int) -> Any:
    """The hand a meld search is given, refused beyond `most` cards (a list, or a zone, or a tuple is only read)."""
    if not isinstance(cards, (list, tuple)):
        cards = list(cards)
    if len(cards) > most:
        raise GameError(f"{search.__name__} searches at most {most} cards, not {len(cards)}")
    return cards


CARD_FIELDS: Final = frozenset({"suit", "rank", "value", "jokers"})  # meld functions' options naming a card attribute


_DECLARED_SUIT_AND_RANK: Final = {"suit": attribute("suit"), "rank": attribute("rank")}  # (only ever unpacked)


def _declared(options: dict[str, Any]) -> dict[str, Any]:
    """A meld function's options as a rule file gives them: an option naming a card attribute by text
    (`jokers='joker'`) reads the attribute the file declared by that name, behind the engine's prefix, as every
    read of the file's code does, never a Python attribute of whatever it is given; `suit` and `rank` read the
    declared ones unless given. (The result is unpacked into the call, never changed: the usual call, with no
    options, shares one.)"""
    if not options:
        return _DECLARED_SUIT_AND_RANK
    options.setdefault("suit", "suit")
    options.setdefault("rank", "rank")
    for name, text in options.items():  # (a value replaced, never a key added: the walk stays valid)
        if type(text) is str and name in CARD_FIELDS:
            options[name] = attribute(text)
    return options


def _melds(meld: Callable, most: int | None = MAX_MELD_CARDS) -> Callable:
    """A meld function as the rule language's built-in: its card attributes the declared ones (_declared), at most
    `most` cards searched (None: no search of a hand)."""
    def called(cards: Any, *args: Any, **kwargs: Any) -> Any:
        return meld(cards if most is None else _hand(meld, cards, most), *args, **_declared(kwargs))
    called.__name__, called.__doc__ = meld.__name__, meld.__doc__
    return called


def _meld_search(search: Callable, most: int = MAX_MELD_CARDS) -> Callable:
    """A meld search as the rule language's built-in (_melds), its work paid from the operation's steps: it is
    given the working memory first (a costly built-in) and searches on that budget."""
    def metered(budget: Budget, cards: Any, *args: Any, **kwargs: Any) -> Any:
        return search(_hand(search, cards, most), *args, budget=budget, **_declared(kwargs))
    metered.__name__, metered.__doc__ = search.__name__, search.__doc__
    return metered


def _py(name: str, lo: int, hi: int | None, kwargs: tuple = (), returns: str | None = None,
        iterates: bool = False, work: str = "items") -> Builtin:
    return Builtin(getattr(builtins, name), lo, hi, frozenset(kwargs), returns=returns, iterates=iterates, work=work)


BUILTINS: dict[str, Builtin] = {
    "len": _py("len", 1, 1, returns="int", work="none"),
    "min": Builtin(_ordering(min), 1, None, frozenset(("key", "default")), keyed=min, iterates=True, work="compared"),
    "max": Builtin(_ordering(max), 1, None, frozenset(("key", "default")), keyed=max, iterates=True, work="compared"),
    "sum": Builtin(bounded_sum, 1, 2, costly=True, iterates=True),
    "any": _py("any", 1, 1, returns="bool", iterates=True),
    "all": _py("all", 1, 1, returns="bool", iterates=True),
    "sorted": Builtin(_ordering(sorted), 1, 1, frozenset(("key", "reverse")), returns="list", keyed=sorted,
                      iterates=True, work="sorted"),
    "reversed": Builtin(lambda xs: list(reversed(list(xs))), 1, 1, returns="list", iterates=True),
    "abs": _py("abs", 1, 1, work="none"),
    "round": Builtin(round_to, 1, 2, work="none"),
    "range": Builtin(bounded_range, 1, 3, costly=True, returns="list", work="none"),
    "list": _py("list", 0, 1, returns="list", iterates=True),
    "set": _py("set", 0, 1, returns="set", iterates=True, work="hashed"),
    "tuple": _py("tuple", 0, 1, returns="tuple", iterates=True),
    "str": Builtin(bounded_str, 0, 1, costly=True, returns="str", work="none"),
    "int": _py("int", 0, 1, returns="int"),
    "bool": _py("bool", 0, 1, returns="bool", work="none"),
    "enumerate": Builtin(lambda xs, start=0: list(enumerate(xs, start)), 1, 2, returns="list", iterates=True),
    "zip": Builtin(lambda *xs: list(zip(*xs)), 1, None, returns="list", iterates=True),
    "count": Builtin(count, 1, 1, returns="int", doc="how many items are true", iterates=True),
    "index_of": Builtin(index_of, 2, 2, returns="int",
                        doc="where an item first is among items (from 0)", work="compared"),
    "split": Builtin(split, 1, 2, costly=True, returns="list"),
    "join": Builtin(bounded_join, 1, 2, costly=True, returns="str", iterates=True),
    "first": Builtin(first, 1, 2, iterates=True),
    "all_cards": Builtin(all_cards, 0, 0, state=True, returns="list", work="made"),
    "shuffled": Builtin(shuffled, 1, 1, random=True, returns="list"),
    "side_pots": Builtin(side_pots, 2, 2, costly=True, returns="list",
                         doc="the pots of a betting round from (player, amount) put in and the players still in",
                                                                work="none"),
    "top": Builtin(top, 1, 2, doc="top card of a zone, or the top N cards", work="made"),
    "next_player": Builtin(next_player, 1, 2, state=True, returns="player", work="none"),
    "seating": Builtin(seating, 1, 1, state=True, returns="list", work="none"),
    "team": Builtin(team, 1, 1, state=True, returns="int", doc="the number of a player's team (teams:)", work="none"),
    "members": Builtin(members, 1, 1, state=True, returns="list",
                       doc="the players of a team, by its number", work="none"),
    "partner": Builtin(partner, 1, 1, state=True, returns="player",
                       doc="a player's partner (None: alone)", work="none"),
    "partners": Builtin(partners, 1, 1, state=True, returns="list",
                        doc="the other players of a player's team", work="none"),
    "opponents": Builtin(opponents, 1, 1, state=True, returns="list",
                         doc="the players not of a player's team", work="none"),
    "randint": Builtin(randint, 2, 2, random=True, returns="int", work="none"),
    "choice": Builtin(choice, 1, 1, random=True),
    "random": Builtin(random_float, 0, 0, random=True, returns="float", work="none"),
    # rummy-family melds (engine/melds.py); keyword options say how to read the cards and what a meld is
    "best_melds": Builtin(_meld_search(best_melds), 2, 2, frozenset({"suit", "rank", "value", "jokers", "min_set",
                                                                     "max_set", "min_run", "joker_value",
                                                                     "jokers_per_meld"}), costly=True, returns="dict",
                          doc="{'melds', 'loose', 'deadwood'}: the partition with the least unmelded value"),
    "meldable": Builtin(_meld_search(meldable), 2, 2, frozenset({"suit", "rank", "jokers", "min_set", "max_set",
                                                                 "min_run", "jokers_per_meld"}), costly=True,
                        returns="list", doc="the cards that are in at least one valid meld of the cards"),
    "is_meld": Builtin(_melds(is_meld), 2, 2, frozenset({"suit", "rank", "jokers", "min_set", "max_set", "min_run",
                                                "jokers_per_meld"}), returns="bool",
                       doc="the cards form one set or run"),
    "can_lay_off": Builtin(_melds(can_lay_off, None), 3, 3, frozenset({"suit", "rank", "jokers", "min_set", "max_set",
                                                                      "min_run", "jokers_per_meld"}), returns="bool",
                           doc="the card extends the meld"),
    "lay_off_all": Builtin(_meld_search(lay_off_all), 3, 3, frozenset({"suit", "rank", "value", "jokers", "min_set",
                                                                       "max_set", "min_run", "joker_value",
                                                                       "jokers_per_meld"}), costly=True,
                           returns="dict",
                           doc="{'laid', 'remaining', 'melds', 'deadwood'}: the most value laid off onto melds"),
    "meld_and_lay_off": Builtin(_meld_search(meld_and_lay_off, MAX_LAY_OFF_CARDS), 3, 3,
                                frozenset({"suit", "rank", "value", "jokers", "min_set", "max_set", "min_run",
                                           "joker_value", "jokers_per_meld"}), costly=True, returns="dict",
                                doc="{'melds', 'laid', 'loose', 'deadwood', 'table'}: the least unmelded value when "
                                    "the cards may meld among themselves or go onto the melds"),
    "longest_run": Builtin(_melds(longest_run, None), 2, 2, frozenset({"suit", "rank", "jokers"}), returns="int",
                           doc="the longest chain of consecutive ranks in one suit, without jokers"),
}
