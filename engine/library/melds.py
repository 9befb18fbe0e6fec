"""Melds for rummy-family games: sets, runs, the best partition of a hand, laying off.

A *set* is ``min_set``..``max_set`` cards of one rank (any suits; with several
decks a set may hold identical cards).  A *run* is ``min_run`` or more cards of
one suit whose ranks are consecutive in ``order`` (a list of ranks, lowest
first; the first rank is low only: there is no wrap-around).  A card whose rank
is not in ``order`` can be in a set but never in a run.  A *joker* stands for
any card; a meld holds at most ``jokers_per_meld`` jokers (default 1) and at
least one card that is not a joker.

Nothing here knows a game: every function takes the cards (any objects with
attributes: the engine's cards, or any stand-in) and, as arguments, how to read
them.  ``suit``, ``rank``, ``value`` and ``jokers`` are each an attribute name
or a function of a card (a rule file can pass ``lambda c: ...``).
``value=None`` means a card is worth its rank; ``jokers=None`` means there are
no jokers, otherwise a card is a joker when that attribute (or function) is
truthy, and an unmelded joker is worth ``joker_value``.

Results that hold several things are dicts, because the rule language indexes
dicts by key (``best_melds(hand, order)['deadwood']``) but cannot unpack tuples.

What is read from a hashable card is remembered by the card itself (as the
engine's cards are, a hashable card is taken to keep its attributes):
``best_melds`` of a hand already seen, and where ``meldable`` puts a card.

The searches (``best_melds``, ``meldable``, ``lay_off_all``, ``meld_and_lay_off``)
grow exponentially with the cards and jokers they are given; given a ``budget``
(a :class:`~naipes.library.limits.Budget`, as a rule file's call is), they spend
a step for each candidate meld they make and each position they search, and stop
with its error when it runs out.

>>> from types import SimpleNamespace as C
>>> order = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]
>>> hand = [C(suit='a', rank=r) for r in (5, 6, 7, 10)] + [C(suit=s, rank=2) for s in 'bcd']
>>> best_melds(hand, order)['deadwood']
0
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from itertools import combinations
from math import comb
from operator import attrgetter
from typing import Any, Final

from .limits import Budget

__all__ = ["best_melds", "meldable", "is_meld", "can_lay_off", "lay_off_all", "meld_and_lay_off",
           "longest_run"]


# ---------------------------------------------------------------- reading cards
_ATTRIBUTE_READERS: dict[str, Callable[[Any], Any]] = {}
_MAX_READERS = 256


def _reader(how: Any, what: str) -> Callable[[Any], Any]:
    """A function reading `what` from a card: `how` is an attribute name or a function."""
    if type(how) is str:  # the usual case first: a name already read (a string is not callable)
        got = _ATTRIBUTE_READERS.get(how)
        if got is not None:
            return got
    if callable(how):
        return how
    if isinstance(how, str) and how.isidentifier() and not how.startswith("_"):
        if len(_ATTRIBUTE_READERS) >= _MAX_READERS:  # a rule file making up names does not grow the table
            return attrgetter(how)
        return _ATTRIBUTE_READERS.setdefault(how, attrgetter(how))
    raise ValueError(f"{what} must be an attribute name (not starting with '_') or a function, not {how!r}")


@lru_cache(maxsize=64)
def _positions(order: tuple) -> dict:
    """Each rank's place in `order` (shared between calls: never change it)."""
    positions: dict = {}
    for i, r in enumerate(order):
        if r in positions:
            raise ValueError(f"rank {r!r} appears twice in the order")
        positions[r] = i
    return positions


class _Table:
    """The cards of one call, read once: parallel lists indexed like the cards."""

    __slots__ = ("cards", "joker", "suit", "rank", "pos", "value", "size")
    # values of the rule file's own types; a joker's suit, rank and position are None
    suit: list[Any]
    rank: list[Any]
    pos: list[Any]
    value: list[Any]

    def __init__(self, cards: Iterable, order: Iterable, suit: Any, rank: Any, jokers: Any,
                 value: Any = None, joker_value: Any = 0, with_value: bool = False):
        self.cards = cards = list(cards)
        positions = _positions(order if type(order) is tuple else tuple(order))
        self.size = len(positions)
        get_suit, get_rank = _reader(suit, "suit"), _reader(rank, "rank")
        is_joker = _reader(jokers, "jokers") if jokers is not None else None
        flags = list(map(is_joker, cards)) if is_joker else ()
        wild = any(flags)
        self.joker = joker = [bool(f) for f in flags] if wild else [False] * len(cards)
        if wild:
            self.suit = [None if j else get_suit(c) for c, j in zip(cards, joker)]
            self.rank = [None if j else get_rank(c) for c, j in zip(cards, joker)]
            self.pos = [None if j else positions.get(r) for r, j in zip(self.rank, joker)]
        else:  # the usual case, read with map
            self.suit = list(map(get_suit, cards))
            self.rank = list(map(get_rank, cards))
            self.pos = list(map(positions.get, self.rank))
        if with_value:
            get_value = _reader(value, "value") if value is not None else None
            if wild:
                self.value = [joker_value if j else (get_value(c) if get_value else r)
                              for c, j, r in zip(cards, joker, self.rank)]
            else:
                self.value = list(map(get_value, cards)) if get_value else list(self.rank)

    def extend(self, other: _Table) -> None:
        """Append another table's cards (their indices follow this table's)."""
        for slot in ("cards", "joker", "suit", "rank", "pos"):
            getattr(self, slot).extend(getattr(other, slot))


class _Shape:
    """The meld conventions of one call."""

    __slots__ = ("min_set", "max_set", "min_run", "per_meld")

    def __init__(self, min_set: int, max_set: int, min_run: int, jokers_per_meld: int):
        self.min_set, self.max_set, self.min_run, self.per_meld = min_set, max_set, min_run, jokers_per_meld

    def kind(self, t: _Table, idx: Iterable[int]) -> str | None:
        """'set', 'run' or None: what the cards `idx` of table `t` form (a set when both)."""
        reals = [i for i in idx if not t.joker[i]]
        n_jokers = sum(1 for i in idx if t.joker[i])
        n = len(reals) + n_jokers
        if not reals or n_jokers > self.per_meld:
            return None
        rank = t.rank[reals[0]]
        if self.min_set <= n <= self.max_set and all(t.rank[i] == rank for i in reals):
            return "set"
        if n < self.min_run or n > t.size:
            return None
        suit = t.suit[reals[0]]
        positions = {t.pos[i] for i in reals}
        if None in positions or len(positions) != len(reals) or any(t.suit[i] != suit for i in reals):
            return None
        return "run" if max(positions) - min(positions) + 1 - len(reals) <= n_jokers else None

    def arrange(self, t: _Table, idx: list[int]) -> list:
        """The cards of a valid meld as they are shown: a set in the given order, jokers last; a
        run by rank, each joker in the gap it fills, spare jokers above the top (below if no room)."""
        reals = [i for i in idx if not t.joker[i]]
        jokers = [i for i in idx if t.joker[i]]
        first = t.rank[reals[0]]
        if self.min_set <= len(idx) <= self.max_set and all(t.rank[i] == first for i in reals):  # a set
            return [t.cards[i] for i in reals + jokers]
        reals.sort(key=t.pos.__getitem__)
        out, spare = [], jokers
        for k, i in enumerate(reals):
            if k:
                out += [spare.pop(0) for _ in range(t.pos[i] - t.pos[reals[k - 1]] - 1)]
            out.append(i)
        room = t.size - 1 - t.pos[reals[-1]]
        out = spare[room:] + out + spare[:room]
        return [t.cards[i] for i in out]


def _bits(mask: int) -> list[int]:
    """The indices of the bits set in `mask` (not negative), lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# ---------------------------------------------------------------- candidate melds
def _plain_candidates(t: _Table, shape: _Shape, budget: Budget | None) -> list[int]:
    """:func:`_candidates` for cards without jokers, quick when there are few melds (in no
    particular order: callers sort them or join them)."""
    found: dict[int, None] = {}
    ranks = t.rank
    need = max(1, shape.min_set)
    if shape.max_set >= need and len(ranks) >= need:
        for r in {r for r in set(ranks) if ranks.count(r) >= need}:
            same = [1 << i for i, x in enumerate(ranks) if x == r]
            for size in range(need, min(len(same), shape.max_set) + 1):
                if budget is not None:
                    budget.spend(comb(len(same), size))
                for combo in combinations(same, size):
                    found[sum(combo)] = None
    # runs: the cells (suit, position) held, numbered as in meldable (a block per suit and an
    # empty cell above each block's top), each with the cards there (two decks: identical cards)
    stride = t.size + 1
    blocks: dict = {}
    slots: dict[int, list[int]] = {}
    held = 0
    for i, (s, p) in enumerate(zip(t.suit, t.pos)):
        if p is None:
            continue
        at = blocks.get(s)
        if at is None:
            at = blocks[s] = len(blocks) * stride
        cell = at + p
        here = slots.get(cell)
        if here is None:
            slots[cell] = [1 << i]
            held |= 1 << cell
        else:
            here.append(1 << i)
    min_run = shape.min_run
    starts = held  # the cells that begin min_run held cells in a row
    for d in range(1, min_run):
        starts &= held >> d
    # each window from a start, while cells are held (the empty cell ends a suit's block)
    while starts:
        low = starts & -starts
        starts ^= low
        a = b = low.bit_length() - 1
        partial = [0]
        while b in slots:
            partial = [m | bit for m in partial for bit in slots[b]]
            if budget is not None:
                budget.spend(len(partial))
            if b - a + 1 >= min_run:
                found.update(dict.fromkeys(partial))
            b += 1
    return list(found)


def _candidates(t: _Table, shape: _Shape, budget: Budget | None = None) -> list[int]:
    """Every valid meld of the cards of `t`, as bitmasks over their indices (a step of `budget` each)."""
    joker, pos = t.joker, t.pos
    if True not in joker:
        return _plain_candidates(t, shape, budget)
    joker_bits = [1 << i for i, j in enumerate(joker) if j]
    most = min(shape.per_meld, len(joker_bits))
    if budget is not None:
        budget.spend(sum(comb(len(joker_bits), k) for k in range(most + 1)))
    joker_masks = [[sum(combo) for combo in combinations(joker_bits, k)] for k in range(most + 1)]
    min_set, max_set, min_run = shape.min_set, shape.max_set, shape.min_run
    found: dict[int, None] = {}
    by_rank: dict = {}
    by_suit: dict = {}
    for i, (r, s) in enumerate(zip(t.rank, t.suit)):
        if joker[i]:
            continue
        bit = 1 << i
        same = by_rank.get(r)
        if same is None:
            by_rank[r] = [bit]
        else:
            same.append(bit)
        p = pos[i]
        if p is not None:
            slots = by_suit.get(s)
            if slots is None:
                by_suit[s] = {p: [bit]}
            elif p in slots:
                slots[p].append(bit)
            else:
                slots[p] = [bit]
    # sets: r real cards of one rank and k jokers, min_set <= r + k <= max_set
    for same in by_rank.values():
        if len(same) + most < min_set:
            continue
        for k in range(most + 1):
            for r in range(max(1, min_set - k), min(len(same), max_set - k) + 1):
                if budget is not None:
                    budget.spend(comb(len(same), r) * len(joker_masks[k]))
                for combo in combinations(same, r):
                    real = sum(combo)
                    for jm in joker_masks[k]:
                        found[real | jm] = None
    # runs: every window of consecutive ranks, each rank filled by a card of the suit or a joker
    for slots in by_suit.values():
        if len(slots) + most < min_run:
            continue
        # a run starts at a card, or at a joker just below one
        starts = sorted({p - k for p in slots for k in range(most + 1) if p >= k}) if most else sorted(slots)
        for a in starts:
            partial = [(0, 0)]  # (mask of real cards, jokers used) for the window a..b
            for b in range(a, t.size):
                here = slots.get(b, ())
                grown = [(m | bit, k) for m, k in partial for bit in here]
                if most:
                    grown += [(m, k + 1) for m, k in partial if k < most]
                if not grown:
                    break
                partial = grown
                if budget is not None:
                    budget.spend(len(partial))
                if b - a + 1 >= min_run:
                    for m, k in partial:
                        if m:
                            if budget is not None:
                                budget.spend(len(joker_masks[k]))
                            for jm in joker_masks[k]:
                                found[m | jm] = None
    return list(found)


# ---------------------------------------------------------------- the functions
def best_melds(cards: Iterable, order: Iterable, suit: Any = "suit", rank: Any = "rank", value: Any = None,
               jokers: Any = None, min_set: int = 3, max_set: int = 4, min_run: int = 3,
               joker_value: Any = 50, jokers_per_meld: int = 1, budget: Budget | None = None) -> dict:
    """Memoised front of :func:`solve_melds` (a pure function: rule files call it repeatedly on one hand; a
    hand found in the memo costs no steps)."""
    args = (tuple(cards), tuple(order), suit, rank, value, jokers, min_set, max_set, min_run, joker_value,
            jokers_per_meld)
    try:
        found = _SOLVED.get(args)
        known = True
    except TypeError:  # an unhashable argument: no memo
        found, known = None, False
    if found is None:
        found = solve_melds(*args, budget=budget)
        if known:
            if len(_SOLVED) >= _MAX_SOLVED:
                del _SOLVED[next(iter(_SOLVED))]  # the oldest
            _SOLVED[args] = found
    # a fresh result each call: callers may keep or change it
    return {"melds": [list(m) for m in found["melds"]], "loose": list(found["loose"]), "deadwood": found["deadwood"]}


# best_melds's memo: its arguments -> the partition found (a dict keeps the order it was filled in)
_SOLVED: dict[tuple, dict] = {}
_MAX_SOLVED = 4096


def solve_melds(cards: Iterable, order: Iterable, suit: Any = "suit", rank: Any = "rank", value: Any = None,
                jokers: Any = None, min_set: int = 3, max_set: int = 4, min_run: int = 3,
                joker_value: Any = 50, jokers_per_meld: int = 1, budget: Budget | None = None) -> dict:
    """The partition of `cards` into melds and loose cards with the least loose value (exact).

    Returns ``{'melds': [[card, ...], ...], 'loose': [card, ...], 'deadwood': total value of loose}``.
    Among partitions with the same deadwood: the most cards melded, then the
    fewest melds (one long run rather than two short ones), then the
    lexicographically first list of melds when each meld is written as the
    sorted positions of its cards in `cards` (the melds that use the earliest
    cards).  Melds come in the order of their first card in `cards`, each set
    in the given order with its joker last, each run by rank with its joker in
    place; loose cards keep the order of `cards`.

    >>> from types import SimpleNamespace as C
    >>> hand = [C(suit='a', rank=r) for r in (1, 2, 3, 4)] + [C(suit=s, rank=4) for s in 'bc'] + [C(suit='d', rank=9)]
    >>> r = best_melds(hand, [1, 2, 3, 4, 5, 6, 7, 10, 11, 12])
    >>> [[(c.suit, c.rank) for c in m] for m in r['melds']], r['deadwood']
    ([[('a', 1), ('a', 2), ('a', 3)], [('a', 4), ('b', 4), ('c', 4)]], 9)
    """
    t = _Table(cards, order, suit, rank, jokers, value, joker_value, with_value=True)
    shape = _Shape(min_set, max_set, min_run, jokers_per_meld)
    parts = _Partitions(t, shape, budget)
    if not parts.union:
        return {"melds": [], "loose": list(t.cards), "deadwood": sum(t.value)}
    parts.solve(parts.union)
    return _partition_result(t, shape, parts, parts.union)


class _Partitions:
    """The best partition of any subset of the cards of a table: ``solve(mask)`` is ``(deadwood, -cards melded,
    melds, first meld)`` for the cards of `mask` (a subset of `union`, the cards that are in some meld), memoised
    in `memo`, a step of `budget` for each subset and each meld tried. (An object, not a closure that calls itself:
    such a closure is a reference cycle, and its memo would wait for the garbage collector after every call of a
    meld function.)"""

    def __init__(self, t: _Table, shape: _Shape, budget: Budget | None = None):
        self.budget = budget
        melds = _candidates(t, shape, budget)
        self.size = {m: m.bit_count() for m in melds}
        # Only the lowest card of what is left is decided at each step (loose, or the meld it
        # starts), so each partition is reached once.  Trying its melds in order of their sorted
        # positions, then "loose", and keeping the first best, yields the documented tie-break.
        by_low: dict[int, list] = {}
        for m in sorted(melds, key=_bits):
            by_low.setdefault((m & -m).bit_length() - 1, []).append(m)
        self.by_low = by_low
        self.values = t.value
        self.memo: dict[int, tuple] = {0: (0, 0, 0, 0)}
        union = 0
        for m in melds:
            union |= m
        self.union = union

    def solve(self, mask: int) -> tuple:
        memo = self.memo
        got = memo.get(mask)
        if got is not None:
            return got
        low = mask & -mask
        i = low.bit_length() - 1
        best = None
        size = self.size
        starting = self.by_low.get(i, ())
        if self.budget is not None:
            self.budget.spend(1 + len(starting))
        for m in starting:
            if m & mask == m:
                d, neg, k, _ = self.solve(mask ^ m)
                key = (d, neg - size[m], k + 1, m)
                if best is None or key[:3] < best[:3]:
                    best = key
        d, neg, k, _ = self.solve(mask ^ low)
        key = (d + self.values[i], neg, k, 0)
        if best is None or key[:3] < best[:3]:
            best = key
        memo[mask] = best
        return best


def _partition_result(t: _Table, shape: _Shape, parts: _Partitions, mask: int, keep: int | None = None) -> dict:
    """The melds and loose cards of the partition `parts` found for `mask` (already solved), among
    the cards `keep` (default: all of `t`'s cards; `mask` is the part of them in some meld)."""
    memo = parts.memo
    chosen, left = [], mask
    while left:
        m = memo[left][3]
        if m:
            chosen.append(m)
            left ^= m
        else:
            left ^= left & -left
    used = 0
    for m in chosen:
        used |= m
    cards = range(len(t.value)) if keep is None else _bits(keep)
    loose = [i for i in cards if not used >> i & 1]
    return {"melds": [shape.arrange(t, _bits(m)) for m in chosen],
            "loose": [t.cards[i] for i in loose],
            "deadwood": sum(t.value[i] for i in loose)}


def meldable(cards: Iterable, order: Iterable, suit: Any = "suit", rank: Any = "rank", jokers: Any = None,
             min_set: int = 3, max_set: int = 4, min_run: int = 3, jokers_per_meld: int = 1,
             budget: Budget | None = None) -> list:
    """The cards of `cards` that are in at least one valid meld made of `cards`, in their order
    (any other card is loose in every partition): cheaper than :func:`best_melds`, as a first test.

    >>> from types import SimpleNamespace as C
    >>> hand = [C(suit='a', rank=r) for r in (1, 2, 3, 5)] + [C(suit='b', rank=3), C(suit='c', rank=3)]
    >>> [(c.suit, c.rank) for c in meldable(hand, [1, 2, 3, 4, 5, 6, 7, 10, 11, 12])]
    [('a', 1), ('a', 2), ('a', 3), ('b', 3), ('c', 3)]
    """
    if not isinstance(cards, list):  # (a list, or a zone, is only read)
        cards = list(cards)
    if jokers is not None and any(map(_reader(jokers, "jokers"), cards)):
        t = _Table(cards, order if type(order) is tuple else tuple(order), suit, rank, jokers)
        union = 0
        for m in _candidates(t, _Shape(min_set, max_set, min_run, jokers_per_meld), budget):
            union |= m
        return [c for i, c in enumerate(cards) if union >> i & 1]
    # without jokers: a card of a rank held min_set times is in a set, and a card inside
    # min_run held positions in a row of its suit is in a run.
    # Every (suit, position) held is a bit of one number, `held` (see _code).
    by_name = type(suit) is str and type(rank) is str
    places = _places_of(order, suit, rank) if by_name else _Places(tuple(order), suit, rank)
    try:
        held, bits, slots, counts = places.of(cards)
    except TypeError:  # a card that cannot be a key: nothing is remembered of it
        held, bits, slots, counts = _Places(tuple(order), suit, rank).of(cards, remember=False)
    # the bits that begin min_run held bits in a row, then every bit of those rows
    if min_run == 3:
        row = held & held >> 1 & held >> 2
        cover = row | row << 1 | row << 2
    else:
        row = held
        for d in range(1, min_run):
            row &= held >> d
        cover = row
        for d in range(1, min_run):
            cover |= row << d
    need = min_set if min_set > 1 else 1
    if max_set < need or not any(count >= need for count in counts):  # (no set)
        return [cards[i] for i in range(len(cards)) if bits[i] & cover] if cover else []
    return [cards[i] for i in range(len(cards)) if bits[i] & cover or counts[slots[i]] >= need]


_MAX_CARDS = 20_000  # cards remembered by one _Places (more are let go: a program's cards are far fewer)


class _Places:
    """Where meldable puts cards, for one order and one way of reading suits and ranks: each card's bit in the
    rows of its suit (see _code), and its rank's slot (ranks numbered as they are met), remembered by card."""

    __slots__ = ("order", "positions", "get_suit", "get_rank", "known", "blocks", "slots")

    def __init__(self, order: tuple, suit: Any, rank: Any):
        self.order = order
        self.positions = _positions(order)
        self.get_suit, self.get_rank = _reader(suit, "suit"), _reader(rank, "rank")
        self.known: dict[Any, tuple[Any, int]] = {}  # card -> (bit, its rank's slot)
        self.blocks: dict[Any, int] = {}  # suit -> its block of bits
        self.slots: dict[Any, int] = {}  # rank -> its slot

    def of(self, cards: list, remember: bool = True) -> tuple[int, list[Any], list[int], list[int]]:
        """(every card's bit together, each card's bit, each card's rank's slot, the cards of each slot): ranks
        counted in a list by slot, not in a map by rank (hashed and compared per card)."""
        known = self.known
        if len(known) > _MAX_CARDS:
            known.clear()
            self.blocks.clear()
            self.slots.clear()
        held = 0
        bits: list[Any] = []  # (of the ints remembered: a card's bit is not made anew per call)
        slots: list[int] = []
        counts = [0] * len(self.slots)
        for card in cards:
            code = known.get(card) if remember else None
            if code is None:
                code = _code(card, self.blocks, self.positions, self.get_suit, self.get_rank, self.slots)
                if remember:
                    known[card] = code
            bit: int = code[0]
            held |= bit
            bits.append(code[0])
            slot = code[1]
            slots.append(slot)
            while slot >= len(counts):  # (a rank first met in this hand)
                counts.append(0)
            counts[slot] = counts[slot] + 1  # (not +=, which mypyc makes a generic in-place add)
        return held, bits, slots, counts


_PLACES: Final[dict[tuple[str, str], list[_Places]]] = {}  # (suit, rank) read by name -> the orders' _Places
_MOST_ORDERS: Final = 64  # orders (and ways to read suit and rank) kept; more made up by a rule file are not


def _places_of(order: Iterable, suit: str, rank: str) -> _Places:
    """The _Places of an order and of suits and ranks read by name, shared by every call. The order is found by
    its items, as a tuple compares them (a rule file gives it as a list display, made anew each call: neither
    converted nor hashed per call)."""
    kept = _PLACES.get((suit, rank))
    if kept is None:
        kept = []
        if len(_PLACES) < _MOST_ORDERS:
            _PLACES[(suit, rank)] = kept
    items = order if type(order) is list else list(order)
    for places in kept:
        if _same_items(places.order, items):
            return places
    places = _Places(tuple(items), suit, rank)
    if len(kept) < _MOST_ORDERS:
        kept.append(places)
    return places


def _same_items(kept: tuple, items: list) -> bool:
    """Whether `items` equals the tuple `kept` item by item (identical, or equal: as tuples compare)."""
    size = len(kept)
    if size != len(items):
        return False
    for i in range(size):
        a = kept[i]
        b = items[i]
        if a is not b and a != b:
            return False
    return True


def _code(card: Any, blocks: dict, positions: dict, get_suit: Callable, get_rank: Callable,
          slots: dict[Any, int]) -> tuple[Any, int]:
    """(the card's bit: its position in the order within its suit's block of bits, 0 for a rank outside the
    order, which is in no run; its rank's slot, given by `slots`, which numbers ranks as they come). Each suit
    has a block of its own, with an empty bit above its top position so that no row of bits runs into the next
    suit."""
    suit, rank = get_suit(card), get_rank(card)
    slot = slots.get(rank)
    if slot is None:
        slot = slots[rank] = len(slots)
    p = positions.get(rank)
    if p is None:
        return 0, slot
    at = blocks.get(suit)
    if at is None:
        at = blocks[suit] = len(blocks) * (len(positions) + 1)
    return 1 << (at + p), slot


def is_meld(cards: Iterable, order: Iterable, suit: Any = "suit", rank: Any = "rank", jokers: Any = None,
            min_set: int = 3, max_set: int = 4, min_run: int = 3, jokers_per_meld: int = 1) -> bool:
    """Whether `cards`, all of them, form one valid set or run.

    >>> from types import SimpleNamespace as C
    >>> order = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]
    >>> is_meld([C(suit='a', rank=r) for r in (6, 7, 10)], order)
    True
    >>> is_meld([C(suit='a', rank=r) for r in (11, 12, 1)], order)
    False
    """
    t = _Table(cards, order, suit, rank, jokers)
    return _Shape(min_set, max_set, min_run, jokers_per_meld).kind(t, range(len(t.cards))) is not None


def can_lay_off(card: Any, meld: Iterable, order: Iterable, suit: Any = "suit", rank: Any = "rank",
                jokers: Any = None, min_set: int = 3, max_set: int = 4, min_run: int = 3,
                jokers_per_meld: int = 1) -> bool:
    """Whether `card` extends the valid meld `meld`: `meld` plus `card` is still one meld
    (a set grows up to `max_set`, a run at either end; a joker in the meld stands for
    whatever card the meld needs, so a card may take its place and push it to an end).

    >>> from types import SimpleNamespace as C
    >>> run = [C(suit='a', rank=r) for r in (1, 2, 3)]
    >>> can_lay_off(C(suit='a', rank=4), run, range(1, 13)), can_lay_off(C(suit='a', rank=5), run, range(1, 13))
    (True, False)
    """
    meld = list(meld)
    if any(card is c for c in meld):
        return False
    t = _Table(meld + [card], order, suit, rank, jokers)
    shape = _Shape(min_set, max_set, min_run, jokers_per_meld)
    n = len(meld)
    return shape.kind(t, range(n)) is not None and shape.kind(t, range(n + 1)) is not None


def lay_off_all(cards: Iterable, melds: Iterable, order: Iterable, suit: Any = "suit", rank: Any = "rank",
                value: Any = None, jokers: Any = None, min_set: int = 3, max_set: int = 4, min_run: int = 3,
                joker_value: Any = 50, jokers_per_meld: int = 1, budget: Budget | None = None) -> dict:
    """Lay off as much of `cards` as possible onto `melds` (each a valid meld, not rearranged).

    A card may go onto a meld when the meld plus it is still a meld, counting the
    cards laid before it, so chains are allowed (4 then 5 onto a run ending in 3).
    Returns ``{'laid': [card, ...], 'remaining': [card, ...], 'melds': [[card, ...], ...],
    'deadwood': value of remaining}``: the choice leaving the least value, then laying
    the most cards, then the one whose list "meld each card goes to" (in the order of
    `cards`, a card kept counting as after every meld) is lexicographically smallest.
    `melds` are the given melds with the laid cards added, arranged as in
    :func:`best_melds`; `laid` and `remaining` keep the order of `cards`.

    >>> from types import SimpleNamespace as C
    >>> run = [C(suit='a', rank=r) for r in (1, 2, 3)]
    >>> r = lay_off_all([C(suit='a', rank=5), C(suit='b', rank=7), C(suit='a', rank=4)], [run], range(1, 13))
    >>> [(c.suit, c.rank) for c in r['laid']], r['deadwood']
    ([('a', 5), ('a', 4)], 7)
    """
    t = _Table(cards, order, suit, rank, jokers, value, joker_value, with_value=True)
    shape = _Shape(min_set, max_set, min_run, jokers_per_meld)
    n = len(t.cards)
    spans, options = _lay_off_reach(t, shape, melds, order, suit, rank, jokers, budget)
    values, full = t.value, (1 << n) - 1
    # the least value kept, then the most cards laid; then the smallest placement among those
    scored = [(sum(values[i] for i in _bits(full ^ laid)), -laid.bit_count(), laid)
              for laid in _layable(options, budget)]
    top = min(scored)[:2]
    where = min(_placement(options, laid, n, budget) for *key, laid in scored if tuple(key) == top)
    return {"laid": [t.cards[i] for i in range(n) if where[i] < len(spans)],
            "remaining": [t.cards[i] for i in range(n) if where[i] == len(spans)],
            "melds": _table_melds(t, shape, spans, where),
            "deadwood": top[0]}


def meld_and_lay_off(cards: Iterable, melds: Iterable, order: Iterable, suit: Any = "suit", rank: Any = "rank",
                     value: Any = None, jokers: Any = None, min_set: int = 3, max_set: int = 4, min_run: int = 3,
                     joker_value: Any = 50, jokers_per_meld: int = 1, budget: Budget | None = None) -> dict:
    """The least unmelded value of `cards` when each may be melded with others of `cards` or laid
    off onto one of `melds` (each a valid meld, not rearranged; chains allowed, as in
    :func:`lay_off_all`): the minimum over every partition of `cards` together with every
    lay-off, so a card may leave a meld of the hand for the table when that frees another.

    Returns ``{'melds': [[card, ...], ...] (of `cards`), 'laid': [card, ...], 'loose': [card, ...],
    'deadwood': value of loose, 'table': `melds` with the laid cards added}``.  Among equal
    deadwood: the fewest loose cards, then the fewest cards laid off (a hand's own melds
    first), then the fewest melds, then laying off the earliest cards of `cards`; each card
    laid goes to the earliest meld it can (the smallest list "meld each card goes to", as in
    :func:`lay_off_all`); the hand's melds are those :func:`best_melds` finds for the cards
    not laid off.  Melds, loose and laid cards are arranged and ordered as in :func:`best_melds`.

    >>> from types import SimpleNamespace as C
    >>> order = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]
    >>> table = [[C(suit='c', rank=r) for r in (1, 2, 3)], [C(suit=s, rank=6) for s in 'oeb']]
    >>> hand = [C(suit=s, rank=4) for s in 'coe'] + [C(suit='o', rank=r) for r in (2, 3)]
    >>> r = meld_and_lay_off(hand, table, order)   # [4c 4o 4e] would leave 2o 3o: 5
    >>> [[c.suit + str(c.rank) for c in m] for m in r['melds']], [c.suit + str(c.rank) for c in r['laid']]
    ([['o2', 'o3', 'o4']], ['c4'])
    >>> r['deadwood'], [c.suit + str(c.rank) for c in r['loose']]
    (4, ['e4'])
    """
    t = _Table(cards, order, suit, rank, jokers, value, joker_value, with_value=True)
    shape = _Shape(min_set, max_set, min_run, jokers_per_meld)
    n = len(t.cards)
    parts = _Partitions(t, shape, budget)  # before the melds' cards join the table t
    union = parts.union
    spans, options = _lay_off_reach(t, shape, melds, order, suit, rank, jokers, budget)
    values, full = t.value, (1 << n) - 1
    best = None
    for laid in _layable(options, budget):
        keep = full ^ laid
        inner = keep & union
        d, neg, count, _ = parts.solve(inner)
        outside = keep ^ inner
        deadwood = d + (sum(values[i] for i in _bits(outside)) if outside else 0)
        key = (deadwood, keep.bit_count() + neg, laid.bit_count(), count, _bits(laid), laid)
        if best is None or key < best:
            best = key
    assert best is not None  # _layable always offers laying nothing off
    laid = best[-1]
    keep = full ^ laid
    own = _partition_result(t, shape, parts, keep & union, keep)
    where = _placement(options, laid, n, budget)
    return {"melds": own["melds"], "laid": [t.cards[i] for i in _bits(laid)], "loose": own["loose"],
            "deadwood": own["deadwood"], "table": _table_melds(t, shape, spans, where)}


def _lay_off_reach(t: _Table, shape: _Shape, melds: Iterable, order: Iterable, suit: Any, rank: Any,
                   jokers: Any, budget: Budget | None) -> tuple[list[list[int]], list[list[int]]]:
    """Add the cards of each meld to `t` (after its hand cards); per meld, its indices in `t`, and
    every set of hand cards (bitmasks, 0 included) it can take one at a time, staying a meld (a step of `budget`
    for each card tried and each card it is tried with)."""
    n = len(t.cards)
    spans, options = [], []
    for k, meld in enumerate(list(m) for m in melds):
        start = len(t.cards)
        t.extend(_Table(meld, order, suit, rank, jokers))
        own = list(range(start, len(t.cards)))
        spans.append(own)
        if shape.kind(t, own) is None:
            raise ValueError(f"meld {k + 1} ({', '.join(map(str, meld))}) is not a valid meld")
        reach, frontier = {0}, [0]
        while frontier:
            mask = frontier.pop()
            base = own + _bits(mask)
            if budget is not None:
                budget.spend(n * len(base))  # each card tried is checked with the meld's cards
            for i in range(n):
                bit = 1 << i
                if not mask & bit and mask | bit not in reach and shape.kind(t, base + [i]) is not None:
                    reach.add(mask | bit)
                    frontier.append(mask | bit)
        options.append(sorted(reach))
    return spans, options


def _layable(options: list[list[int]], budget: Budget | None) -> list[int]:
    """Every set of hand cards that can be laid off together: a union of disjoint options, one per meld (a step of
    `budget` for each pair tried)."""
    sets: dict[int, None] = {0: None}
    for choices in options:
        if budget is not None:
            budget.spend(len(sets) * len(choices))
        sets = {s | o: None for s in sets for o in choices if not s & o}
    return list(sets)


def _placement(options: list[list[int]], laid: int, n: int, budget: Budget | None) -> tuple:
    """Where each of the n hand cards goes when exactly the cards `laid` are laid off: the index of
    its meld (``len(options)`` for a card kept); the lexicographically smallest such list."""
    where = _place(options, 0, laid, n, {}, budget)
    assert where is not None  # `laid` is one of _layable's unions of options: it has a placement
    return where


def _place(options: list[list[int]], k: int, left: int, n: int, memo: dict, budget: Budget | None) -> tuple | None:
    """The placement of the cards `left` on the melds from the k-th on (_placement; a function of its own, not a
    closure calling itself, which would be a reference cycle; a step of `budget` for each option tried)."""
    count = len(options)
    if k == count:
        return (count,) * n if not left else None
    if (k, left) in memo:
        return memo[k, left]
    best = None
    if budget is not None:
        budget.spend(len(options[k]))
    for option in options[k]:
        if option & ~left:
            continue
        rest = _place(options, k + 1, left ^ option, n, memo, budget)
        if rest is not None:
            where = tuple(k if option >> i & 1 else w for i, w in enumerate(rest)) if option else rest
            if best is None or where < best:
                best = where
    memo[k, left] = best
    return best


def _table_melds(t: _Table, shape: _Shape, spans: list[list[int]], where: tuple) -> list:
    """The melds of `spans` with the hand cards `where` places on them, arranged."""
    return [shape.arrange(t, span + [i for i, w in enumerate(where) if w == k]) for k, span in enumerate(spans)]


def longest_run(cards: Iterable, order: Iterable, suit: Any = "suit", rank: Any = "rank", jokers: Any = None) -> int:
    """The length of the longest chain of consecutive ranks (in `order`) in one suit, jokers
    left out (0 without cards; a lone card is a chain of 1).

    >>> from types import SimpleNamespace as C
    >>> longest_run([C(suit='a', rank=r) for r in (4, 5, 6, 7, 10, 11, 12)], [1, 2, 3, 4, 5, 6, 7, 10, 11, 12])
    7
    """
    t = _Table(cards, order, suit, rank, jokers)
    by_suit: dict = {}
    for i, p in enumerate(t.pos):
        if p is not None:
            by_suit.setdefault(t.suit[i], set()).add(p)
    best = 0
    for held in by_suit.values():
        for p in held:
            if p - 1 not in held:
                q = p
                while q + 1 in held:
                    q += 1
                best = max(best, q - p + 1)
    return best
