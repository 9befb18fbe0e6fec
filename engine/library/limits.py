"""What a rule file may cost: the limits every evaluation runs under.

A rule file is a program, and a program can run away: a loop over
``range(10**9)``, five nested comprehensions, a function that calls itself
twice, ``x = x * x`` in a loop, a list multiplied by a huge number. The
language has no unbounded loop, so its cost is bounded by what these limits
bound:

* **steps**: every item a loop or comprehension of a rule file goes over is
  a step, and so is every call of a rule file's function (or of a lambda or
  function held as a value) and every item of a list or text made by ``+``,
  ``*`` and the built-ins above, and the work Python does inside one
  operation, charged by what it goes over (:func:`work`): a value compared or
  hashed, through every level; a list searched; what a built-in goes over; one engine
  operation (starting a game, applying a move, listing the options, building
  a view) may take at most :data:`MAX_STEPS`;
* **values hashed alike**: a tuple or a number past :data:`HASHED_EXACTLY` that
  an operation hashes costs a step more for every different value hashed alike
  before it (:meth:`Budget.hashed`), and a set or a map kept in the state may
  hold at most :data:`MAX_ALIKE` of them (:func:`check_alike`);
* **sizes**: no list, text or range made by ``+``, ``*``, ``range``,
  ``join``, ``sum`` or ``str`` may hold more than :data:`MAX_ITEMS` items
  or characters, and no value stored in the game's state more than
  :data:`MAX_ITEMS` items counted through every nesting;
* **numbers**: ``+``, ``-`` and ``*`` refuse a number of more than :data:`MAX_BITS` bits;
* **firings**: ``max_firings`` (rules fired between two decisions) is at most
  :data:`MAX_FIRINGS`;
* **decisions**: a game is cut off after ``max_decisions`` decisions (at most
  :data:`MAX_DECISIONS`; 100,000 unless the rule file says), and its result
  says so: no game goes on for ever.

Each limit ends the evaluation with a located error naming it (see :class:`Budget`).
"""
from __future__ import annotations

from collections.abc import Iterator
from contextvars import ContextVar
from types import GeneratorType
from typing import Any, Final

from ..errors import GameError

MAX_STEPS: Final = 1_000_000  # loop items, function calls and items made, per engine operation
GAME_STEPS: Final = 100 * MAX_STEPS  # steps a whole game may spend, all its operations together
SEARCH_STEPS: Final = 50 * MAX_STEPS  # steps the worlds of one decision's search may spend together
UNBOUNDED: Final = 1 << 62  # the steps left to a copy: a search's world or a seat's view (bounded by its agent)
# the steps the search under way may still spend (a one-item list its worlds take what they spend from), or None:
# a copy made during a search spends from it (see Budget.refuel and naipes.agents.deadline)
SEARCH_POOL: Final[ContextVar[list[int] | None]] = ContextVar("SEARCH_POOL", default=None)
MAX_ITEMS: Final = 1_000_000  # items of a list or set, characters of a text
MAX_DEPTH: Final = 100  # collections inside collections in a value kept or shown (each level is a C call deep)
MAX_BITS: Final = 4_096  # bits of a product of whole numbers
MAX_FIRINGS = 1_000_000  # the largest max_firings a rule file may ask for
MAX_DECISIONS = 10_000_000  # the largest max_decisions a rule file may ask for
SEQUENCES: Final = (list, tuple, str)
SIZED: Final = (list, tuple, str, set, frozenset, dict)  # (zones are lists)
_SIZED_KINDS: Final[dict[type, bool]] = {}  # a class -> whether its values are SIZED (isinstance tries each in turn:
_MOST_KINDS = 256  # a card's class, the common argument, tried all six; a program's classes are few)
TEXT_CHUNK: Final = 64  # characters a step compares (Python compares and hashes a text in C, a word at a time)
COPY_CHUNK: Final = 64  # items of a collection a step copies (Python copies a tuple in C)
HASHED_EXACTLY: Final = 1 << 60  # a whole number within (-this, this) is its own hash (Python's: modulo 2**61 - 1)
MAX_ALIKE: Final = 8  # different values hashed alike that a set or a map of the state may hold (see check_alike)
BOUND: Final = 1 << MAX_BITS  # a whole number of at most MAX_BITS bits is within (-BOUND, BOUND)


class Budget:
    """The steps an engine operation may still spend; a game's working memory is one.

    >>> budget = Budget()
    >>> budget.charge([1, 2, 3])   # a loop goes over three items: three steps
    [1, 2, 3]
    >>> times(budget, "ab", 3)     # a text of six characters made: six steps
    'ababab'
    >>> MAX_STEPS - budget.steps
    9
    >>> times(budget, "ab", MAX_ITEMS)
    Traceback (most recent call last):
    ...
    naipes.errors.GameError: a text of 2,000,000 characters is too long (the limit is 1,000,000)
    """

    __slots__ = ("steps", "allowance", "left", "alike", "pool", "per_operation")

    def __init__(self, per_operation: int = MAX_STEPS) -> None:
        self.per_operation = per_operation  # the steps one operation may take (a rule file's max_steps)
        self.steps = self.allowance = per_operation
        self.left = GAME_STEPS  # what the game's operations before this one left of its GAME_STEPS
        # hash -> the different values this operation hashed alike (see hashed); None: none hashed yet
        self.alike: dict[int, list[Any]] | None = None
        self.pool: list[int] | None = None  # the search's steps this copy spends from (SEARCH_POOL), or None

    def refuel(self) -> None:
        """A new engine operation begins: it may spend `per_operation` steps (MAX_STEPS, unless the rule file says
        `max_steps`), or what is left of the game's GAME_STEPS when that is less (what the operation before spent is
        taken from it)."""
        spent = self.allowance - self.steps
        left = self.left - spent
        if self.pool is not None:
            self.pool[0] -= spent  # (a search's world: the search stops once its steps are spent)
        if left <= 0:
            self.left, self.steps, self.allowance = 0, 0, 0
            raise GameError(_ran_away(True, self.per_operation))
        self.left, self.alike = left, None
        per_operation = self.per_operation
        self.steps = self.allowance = per_operation if left >= per_operation else left

    def spend(self, count: int) -> None:
        self.steps -= count
        if self.steps < 0:
            self.steps = 0
            raise GameError(_ran_away(self.allowance < self.per_operation, self.per_operation))

    def step(self) -> None:
        """One step: a call of a rule file's function."""
        self.spend(1)

    def call(self, function: Any, /, *args: Any, **kwargs: Any) -> Any:
        """`function(*args, **kwargs)` for a function a file holds as a value (a lambda in a local, a function
        given as an argument): one step, as every call of a rule file's function, so that no call goes uncounted
        (a lambda that calls itself through a local runs away as a recursive function would)."""
        self.steps -= 1
        if self.steps < 0:
            self.spend(0)  # (says so)
        return function(*args, **kwargs)

    def weighed(self, value: Any) -> Any:
        """`value`, after spending what comparing or hashing it may cost (:func:`work`): the left side of a
        comparison (Python's `==` stops at the shorter side, so the left bounds it), a member searched for, a key
        hashed. A number, a card or a player costs nothing."""
        kind = type(value)
        if kind is int or kind is bool or kind is float or value is None:
            return value
        if kind in LEAVES and kind is not str:  # (a card, a player: equal only to itself)
            return value
        self.steps -= work(value)
        if self.steps < 0:
            self.spend(0)  # (says so)
        return value

    def hashed(self, value: Any) -> Any:
        """`value`, about to be hashed (a set's member, a map's key, a member looked up in either), after spending
        what comparing it may cost (weighed) and what finding it among the values hashed alike may cost.

        Python finds a value in a set or a map by its hash, then compares it with every member of the same
        hash; and the hash of a number or of a tuple of numbers is no secret (2**61 - 1 and its every multiple
        hash to 0; a tuple's hash is a known function of its items'), so a file can make any number of
        different values that hash alike, and a set of n of them takes n * n / 2 comparisons to make. So each
        such value (a tuple, a number past HASHED_EXACTLY) hashed in an operation is also charged a step for
        every different value hashed alike before it in that operation: n * n / 2, paid for."""
        kind = type(value)
        if kind is int:
            if -HASHED_EXACTLY < value < HASHED_EXACTLY:  # (its own hash: only other numbers equal to it share it)
                return value
        elif kind is not tuple:
            return self.weighed(value)
        else:
            self.weighed(value)
        self._hashed_alike(value)
        return value

    def hashed_all(self, items: Any) -> Any:
        """`items`, all about to be hashed (`set(items)`), after spending what `hashed` spends on each."""
        if type(items) is GeneratorType:
            items = list(items)
        self.compared(items)
        for item in items:
            if hashes_at_will(item):
                self._hashed_alike(item)
        return items

    def _hashed_alike(self, value: Any) -> None:
        alike = self.alike
        if alike is None:
            alike = self.alike = {}
        key = hash(value)
        seen = alike.get(key)
        if seen is None:
            alike[key] = [value]
        elif len(seen) > 1 or seen[0] != value:  # (the same value hashed again costs nothing more)
            self.steps -= len(seen) * work(value)
            if self.steps < 0:
                self.spend(0)  # (says so)
            if value not in seen:
                seen.append(value)

    def contains(self, member: Any, items: Any) -> bool:
        """`member in items`, after spending what the search may cost: a list's or tuple's items are each compared
        (:func:`work`); a text searched for a text costs a step per TEXT_CHUNK of the product of their lengths
        (Python's search for a short text may try it at every place: 'a' * 1500 + 'ba' in 'a' * 2500 compares
        3.7 million characters); a set or a dict looks the member up by its hash (charged apart: hashed)."""
        kind = type(items)
        if kind is str and type(member) is str:
            self.steps -= 1 + len(items) * len(member) // TEXT_CHUNK
        elif kind is not set and kind is not dict and kind is not frozenset:
            self.steps -= work(items)
        if self.steps < 0:
            self.spend(0)  # (says so)
        return member in items

    def searched(self, items: Any) -> Any:
        """`items`, after spending what searching them for a member may cost, when the member is not at hand (a
        member of a chain of comparisons, `a < b in c`): as `contains` does, a text as if searched for a text as
        long as itself."""
        if type(items) is str:
            self.steps -= 1 + len(items) * len(items) // TEXT_CHUNK
        elif not isinstance(items, (set, frozenset, dict)):
            self.steps -= work(items)
        if self.steps < 0:
            self.spend(0)  # (says so)
        return items

    def compared(self, items: Any, each: int = 0, sorting: bool = False) -> Any:
        """`items` a built-in compares or hashes (min, max, sorted, set), after spending their work (:func:`work`),
        times the rounds of comparisons a sort makes, and `each` steps an item (a key's inlined calls)."""
        if type(items) is GeneratorType:
            items = list(items)  # (its own loops were charged as it ran; its items are compared now)
        cost = work(items)
        if sorting and sized(items):
            cost *= max(1, len(items).bit_length())
        self.steps -= cost + (len(items) * each if each else 0)
        if self.steps < 0:
            self.spend(0)  # (says so)
        return items

    def charge_sized(self, value: Any) -> Any:
        """`value`, an argument of a built-in, after spending a step for each item of a collection or character
        of a text (a built-in goes over its arguments: `split` a text, `longest_run` an order); nothing for a
        number, a card or a player."""
        if sized(value):
            self.steps -= len(value)
            if self.steps < 0:
                self.spend(0)  # (says so)
        return value

    def weighing(self, key: Any) -> Any:
        """A key function (sorted, min, max) whose every value is weighed as it is made (:meth:`weighed`): the
        built-in compares the keys."""
        return lambda item: self.weighed(key(item))

    def charge(self, items: Any, each: int = 1) -> Any:
        """`items`, after spending `each` steps on each (a rule file's loop or comprehension goes over them;
        `each` counts the calls of functions inlined in its body too: naipes.language.steps)."""
        try:
            count = len(items)
        except TypeError:  # a generator: its own loops were charged as it ran
            items = list(items)
            count = len(items)
        self.steps -= count * each
        if self.steps < 0:
            self.spend(0)  # (says so)
        return items


def _ran_away(whole_game: bool, per_operation: int) -> str:
    if whole_game:
        return (f"this game took more than {GAME_STEPS:,} steps in all (items gone over by loops, calls of functions, "
                "items of the lists and texts made, in every operation of the game): the rule file runs away")
    return (f"this took more than {per_operation:,} steps in one go (items gone over by loops, calls of functions, "
            "items of the lists and texts made, bindings of rules tried): the rule file runs away (one that needs "
            f"more says so: max_steps, at most {GAME_STEPS:,})")


def _made(budget: Budget, value: Any, size: int) -> None:
    """A sequence of `size` items or characters is about to be made: check its size, and pay for it."""
    if size > MAX_ITEMS:
        what = f"a text of {size:,} characters" if isinstance(value, str) else f"a list of {size:,} items"
        raise GameError(f"{what} is too long (the limit is {MAX_ITEMS:,})")
    budget.spend(size)


def _check_bits(bits: int) -> None:
    if bits > MAX_BITS:
        raise GameError(f"a number of more than {MAX_BITS:,} bits is too large")


def times(budget: Budget, a: Any, b: Any) -> Any:
    """`a * b`, refusing a product too large: a long repeated sequence, or a number of too many bits."""
    if isinstance(a, int) and isinstance(b, int):
        _check_bits(a.bit_length() + b.bit_length())
    elif isinstance(a, SEQUENCES) and isinstance(b, int):
        _made(budget, a, len(a) * b)
    elif isinstance(b, SEQUENCES) and isinstance(a, int):
        _made(budget, b, len(b) * a)
    return a * b


def plus(budget: Budget, a: Any, b: Any) -> Any:
    """`a + b`, refusing a sequence too long or a number of too many bits."""
    kind = type(a)
    if kind is int and type(b) is int and -BOUND < a < BOUND and -BOUND < b < BOUND:
        return a + b  # the common cases first: numbers of at most MAX_BITS bits, lists of lists
    if kind is list and type(b) is list:
        size = len(a) + len(b)
        budget.steps -= size
        if size > MAX_ITEMS or budget.steps < 0:
            budget.steps += size
            _made(budget, a, size)  # says which limit
        return a + b
    if isinstance(a, int) and isinstance(b, int):
        _check_bits(max(a.bit_length(), b.bit_length()))
    elif isinstance(a, SEQUENCES) and isinstance(b, SEQUENCES):
        _made(budget, a, len(a) + len(b))
    return a + b


def minus(budget: Budget, a: Any, b: Any) -> Any:
    """`a - b`, refusing a number of too many bits (`x - (0 - x)` doubles as `x + x` does)."""
    if type(a) is int and type(b) is int and -BOUND < a < BOUND and -BOUND < b < BOUND:
        return a - b
    if isinstance(a, int) and isinstance(b, int):
        _check_bits(max(a.bit_length(), b.bit_length()))
    return a - b


def modulo(budget: Budget, a: Any, b: Any) -> Any:
    """`a % b` for numbers; a text's `%` (Python's printf-style formatting, which can make a text of any size
    from a short one: '%0999999999d') is refused."""
    if isinstance(a, str):
        raise GameError("'%' is for numbers: a text is not formatted with it (write an f-string)")
    return a % b


def bounded_range(budget: Budget, *args: int) -> list:
    """`range(...)` as a list, refusing one too long."""
    span = range(*args)
    _made(budget, span, len(span))
    return list(span)


def bounded_join(budget: Budget, items: Any, separator: str = " ") -> str:
    """The items as text, separated (join(['a', 'b'], ', ') -> 'a, b'), refusing a text too long."""
    parts = [bounded_str(budget, item) for item in items]
    _made(budget, "", sum(map(len, parts)) + len(separator) * max(len(parts) - 1, 0))
    return separator.join(parts)


def bounded_sum(budget: Budget, items: Any, start: Any = 0) -> Any:
    """`sum(...)`; of lists or texts only while the result stays within the size limit."""
    if isinstance(start, SEQUENCES):
        items = list(items)
        _made(budget, start, len(start) + sum(len(i) for i in items if isinstance(i, SEQUENCES)))
    return sum(items, start)


def bounded_str(budget: Budget, value: Any = "") -> str:
    """`str(value)`; a collection is measured first, so that a deeply shared one cannot make a huge text."""
    if not isinstance(value, (str, int, float, bool, type(None))):
        budget.spend(weigh(value))
    text = str(value)
    _made(budget, text, len(text))
    return text


def weigh(value: Any, texts: bool = False) -> int:
    """How many items `value` holds through every nesting (a shared part counts each time), within the limit;
    with `texts`, a text counts an item more per TEXT_CHUNK characters (see work)."""
    leaves, kind = LEAVES, type(value)
    # the common shape first: a list of leaves and tuples of leaves (a trick's plays), found without a lookup
    if isinstance(value, list):  # (a zone too: a list of cards)
        total = _flat_list_weight(value, texts)
    elif kind in leaves:
        return 1 + len(value) // TEXT_CHUNK if texts and kind is str else 1
    else:
        total = _flat_list_weight(list(value), texts) if kind in _FLAT else -1
    if total >= 0:
        if total > MAX_ITEMS:
            raise _too_large()
        return total
    total, stack, depths = 0, [value], [1]
    while stack:
        item, depth = stack.pop(), depths.pop()
        kind = type(item)
        if kind in leaves:
            total += 1 + len(item) // TEXT_CHUNK if texts and kind is str else 1
            continue
        if not isinstance(item, _COLLECTIONS):
            if callable(item):
                raise GameError("a function (a lambda, a built-in) is not a value to keep or show: the game's state "
                                "and texts hold numbers, texts, cards, players, zones and collections of them")
            leaves.add(kind)  # a card, a player: an item (the classes a game makes are few)
            total += 1
            continue
        items = (*item.keys(), *item.values()) if isinstance(item, dict) else item
        total += 1 + len(items)  # the collection and its items (those that hold more are counted when taken)
        if total > MAX_ITEMS:
            raise _too_large()
        if depth >= MAX_DEPTH and any(isinstance(inner, _COLLECTIONS) for inner in items):
            raise GameError(f"a value nested more than {MAX_DEPTH} deep (collections inside collections) is too "
                            "deep to keep, show, compare or hash")
        for inner in items:
            if type(inner) not in leaves:
                total -= 1
                stack.append(inner)
                depths.append(depth + 1)
    if total > MAX_ITEMS:
        raise _too_large()
    return total


def sized(value: Any) -> bool:
    """Whether `value` is one of the SIZED collections (a zone is a list), its class asked once."""
    kind = type(value)
    known = _SIZED_KINDS.get(kind)
    if known is None:
        known = isinstance(value, SIZED)
        if len(_SIZED_KINDS) < _MOST_KINDS:
            _SIZED_KINDS[kind] = known
    return known


def work(value: Any) -> int:
    """The steps comparing, hashing or searching `value` may cost: its items through every nesting (weigh), and
    a text a step per TEXT_CHUNK characters, alone or inside. Python compares lists and tuples item by item,
    however they share their parts (`a = [a, a]` a hundred times is 2**100 items to compare), so what they hold
    is what is charged; weighing stops with an error at MAX_ITEMS, so no value costs more to weigh than that."""
    return weigh(value, True)


def hashes_at_will(value: Any) -> bool:
    """Whether a file can make `value` hash alike with as many other values as it likes (see Budget.hashed): a
    tuple, or a number past HASHED_EXACTLY."""
    kind = type(value)
    return kind is tuple or (kind is int and not -HASHED_EXACTLY < value < HASHED_EXACTLY)


def weigh_kept(value: Any) -> int:
    """weigh(value) of a value about to be kept in the game's state, refused as check_alike refuses it: one walk
    for the usual value, a list of plain values and tuples of them (which holds no set nor map)."""
    if type(value) is list:
        total = _flat_list_weight(value, False)
        if 0 <= total <= MAX_ITEMS:
            return total
    total = weigh(value)
    check_alike(value)
    return total


def check_alike(value: Any) -> None:
    """Refuse `value`, about to be kept in the game's state, if a set or a map in it holds more than MAX_ALIKE
    different members that hash alike (see Budget.hashed): each later look-up of one of them would compare it with
    them all, in an operation that did not pay for making them. (weigh_kept, its caller, passes over the common
    case first: a list of plain values and tuples of them holds no set nor map.)"""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (set, frozenset, dict)):
            counts: dict[int, int] = {}
            for member in item:
                if hashes_at_will(member):
                    key = hash(member)
                    counts[key] = counts.get(key, 0) + 1
                    if counts[key] > MAX_ALIKE:
                        raise GameError(f"a set or a map holds more than {MAX_ALIKE} different values that Python "
                                        "hashes alike (numbers or tuples made so): it is not kept, since finding one "
                                        "of them in it would mean comparing it with them all")
            if isinstance(item, dict):
                stack.extend(inner for inner in item.values() if isinstance(inner, _COLLECTIONS))
        elif isinstance(item, (list, tuple)):
            stack.extend(inner for inner in item if isinstance(inner, _COLLECTIONS))


def _too_large() -> GameError:
    return GameError(f"a value of more than {MAX_ITEMS:,} items (counted through its nesting) is too large")


def _flat_list_weight(items: list, texts: bool) -> int:
    """weigh(items, texts) for a list of leaves and tuples of leaves, or -1 for one holding anything else (typed
    as a list and a tuple, compiled code goes over them by index rather than through iterators)."""
    leaves = LEAVES
    total = 1 + len(items)
    for item in items:
        kind = type(item)
        if kind is tuple:  # (a tuple is no leaf: tested first, it costs no lookup)
            pair: tuple = item
            for inner in pair:
                inner_kind = type(inner)
                if inner_kind not in leaves:
                    return -1
                if texts and inner_kind is str:
                    total += len(inner) // TEXT_CHUNK
            total += len(pair)
        elif kind not in leaves:
            return -1
        elif texts and kind is str:
            total += len(item) // TEXT_CHUNK
    return total


_COLLECTIONS: Final = (list, tuple, set, frozenset, dict)
_FLAT: Final = {tuple, set, frozenset}  # (collections weighed as a list: a list, or a zone, is one already)
LEAVES: Final = {int, float, str, bool, type(None)}  # classes of values that hold nothing (grows as others are met)


def leaves(value: Any) -> Iterator[Any]:
    """Every item of `value` that is no list, tuple, set or dict, through every nesting (a dict's keys too)."""
    if isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from leaves(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(key)
            yield from leaves(item)
    else:
        yield value
