"""Inference from every decision: how likely a world makes the other players' choices so far.

A world (:meth:`naipes.agents.knowledge.Knowledge.world`) is consistent with
what a seat saw; it is not equally likely. A player who bid three tricks
probably holds strong cards; one who led a low card of a suit probably holds
no higher one. :class:`Inference` follows a game from one seat and keeps,
for each decision another player made (bids included), the position he
decided in. A world says what his hand was then: the hand it gives him now,
with the cards seen to leave it since put back and those seen to arrive
taken out (a card that came or went unseen ends what can be said of his
earlier decisions). A *model* of the players, a strategy level of the game
(by default the rule file's AI), is asked what it would have chosen there,
with that hand: the observed choice has probability ``1 - EPSILON`` if it
is the model's, ``EPSILON`` shared among the other legal options if not (a
model is never quite right), and 0 if the world's hand could not have made
it. A world's weight is the product over the decisions, and
:meth:`Inference.weighted_worlds` resamples candidate worlds by weight.

The model decides on the player's view alone (his hand, what is public),
with the memory it had built from what that player saw of the table.
"""
from __future__ import annotations

import math
import random
from typing import Any

from ..errors import NaipesError
from ..language.strategies import strategy_path
from ..program import Program
from ..runtime.game import Decision, Game, Option
from ..runtime.memory import PlayerBase, Zone, sees
from .deadline import NEVER, Deadline
from .knowledge import Knowledge
from .levels import strategy_levels

EPSILON = 0.2  # the share of a model's probability left to the options it would not choose
IMPOSSIBLE = 1e-12  # the likelihood of a choice the world's hand could not have made (never quite 0: see weights)
MOST_CANDIDATES = 4  # candidate worlds drawn at most per world kept (see weighted_worlds)


def default_model(program: Program | None) -> str | None:
    """The model of the other players by default: the rule file's AI when it is one of its strategy levels, else
    (its AI is a search agent, as `pimc` itself may be) the strongest of its levels, the last of the ladder:
    never a search agent, which would model the others by searching as itself in every world it weighs."""
    if program is None or program.perfect_information:
        return None
    name = program.default_ai
    if strategy_path(name, program) is not None:
        return name
    ladder = strategy_levels(program)
    return ladder[-1]["name"] if ladder else None


class _Record:
    """One decision of another player: the position he decided in (a copy), what he chose, his model's memory."""

    __slots__ = ("index", "game", "player", "key", "memory", "scopes", "slots")

    def __init__(self, index: int, game: Game, player: int, key: tuple, memory: dict, scopes: dict,
                 slots: list[int]):
        self.index, self.game, self.player, self.key = index, game, player, key
        self.memory, self.scopes, self.slots = memory, scopes, slots


class Inference:
    """Follows a game from one seat: the other players' decisions and the cards seen to enter and leave their
    hands; weighs worlds by how likely a model of the players makes those decisions."""

    def __init__(self, game: Game, seat: int, knowledge: Knowledge, models: dict[int, Any]):
        """`models`: an agent per seat, attached to `game` (naipes.agents.rollout.Policies): its memory follows
        what that seat sees of the table."""
        self.game, self.seat, self.knowledge = game, seat, knowledge
        memory = game.memory
        # the zones each other player sees and this seat does not (his hand): what a world changes for him
        self.hidden_own: dict[int, list[int]] = {
            p.index: [z.slot for z in memory.zones if z.owner is p and sees(z, p.index) and not sees(z, seat)]
            for p in memory.players if p.index != seat}
        self.models = {q: agent for q, agent in models.items() if q != seat and self.hidden_own.get(q)}
        self.records: list[_Record] = []
        self.clock = 0  # decisions recorded so far (a record's index; events are dated by it)
        self.where: dict[int, int] = {card.id: slot for card, slot in memory.where.items()}
        # (records made before it, zone slot, card id entering (+) or leaving (-), or None: a card unseen)
        self.events: list[tuple[int, int, int, int | None]] = []
        self._likelihoods: dict[tuple, float] = {}
        memory.trackers = memory.trackers + (self,)
        game.before_move.append(self._decided)

    # ------------------------------------------------------------- following
    def _decided(self, game: Game, player: PlayerBase, option: Option) -> None:
        q = player.index
        model = self.models.get(q)
        if model is None:
            return
        options = game.options()
        if len(options) < 2:
            return  # a forced move says nothing
        copy = game.clone()  # (the move under way already took the decision off the game: put it back)
        copy.memory.pending = (copy.memory.players[q], tuple(dict.fromkeys(o.move for o in options)))
        self.records.append(_Record(self.clock, copy, q, option.key, dict(getattr(model, "memory", {})),
                                    dict(getattr(model, "scopes", {})), self.hidden_own[q]))
        self.clock += 1

    def moved(self, cards: list, dest: Zone) -> None:
        """A tracker's call (Memory.move): note cards entering or leaving the other players' hidden hands."""
        known, seat, now = self.knowledge.known, self.seat, self.clock
        zones = self.game.memory.zones
        for card in cards:
            source = self.where.get(card.id)
            self.where[card.id] = dest.slot
            if source == dest.slot:
                continue
            seen = sees(dest, seat) or card.id in known
            for slot, sign in ((source, -1), (dest.slot, 1)):
                if slot is not None and zones[slot].owner is not None and not sees(zones[slot], seat):
                    self.events.append((now, slot, sign, card.id if seen else None))
                    if not seen:
                        self._forget(slot)

    def shuffled(self, zone: Zone) -> None:
        """A tracker's call: a shuffle moves no card between zones."""

    def shown(self, cards: list) -> None:
        """A tracker's call: showing moves no card (the knowledge notes where the cards are)."""

    def _forget(self, slot: int) -> None:
        """A card entered or left a hand unseen: earlier decisions of its owner can no longer be weighed."""
        self.records = [r for r in self.records if slot not in r.slots]
        self.events = [e for e in self.events if e[1] != slot]

    # ------------------------------------------------------------------ worlds
    def weighted_worlds(self, rng: random.Random, count: int, deadline: Deadline = NEVER) -> list[tuple[Game, float]]:
        """`count` worlds resampled by likelihood from candidates drawn `count` at a time, until they are worth
        `count` / 2 independent worlds (their effective sample size) or number MOST_CANDIDATES times `count`,
        or the `deadline` passes; each with its weight (a world drawn k times is solved once, with weight k).
        Empty if the deadline passed before one candidate was weighed (a model can be slow: its caller draws
        worlds unweighted then)."""
        if not self.records:
            return [(self.knowledge.world(rng), 1.0) for _ in range(count)]
        candidates: list[Game] = []
        logs: list[float] = []
        while len(candidates) < MOST_CANDIDATES * count:
            weighed = self._weigh(rng, count, deadline)
            candidates += [world for world, _ in weighed]
            logs += [log for _, log in weighed]
            if len(weighed) < count or _effective(logs) >= count / 2:
                break  # (out of time, or worth enough worlds)
        if not candidates:
            return []
        picks = _systematic(_weights(logs), count, rng)
        return [(candidates[i], float(n)) for i, n in sorted(picks.items())]

    def _weigh(self, rng: random.Random, count: int, deadline: Deadline) -> list[tuple[Game, float]]:
        """Up to `count` new candidate worlds with their log-likelihoods; fewer if the deadline passes."""
        weighed = []
        for _ in range(count):
            world = self.knowledge.world(rng)
            log = self.log_likelihood(world, deadline)
            if log is None:
                break
            weighed.append((world, log))
        return weighed

    def log_likelihood(self, world: Game, deadline: Deadline = NEVER) -> float | None:
        """The log of how likely the model makes the recorded decisions with the hands `world` gives (None if
        the `deadline` passed before all were weighed)."""
        total = 0.0
        for record in self.records:
            if deadline.passed():
                return None
            hand = self._hand_then(world, record)
            if hand is not None:
                total += math.log(self._likelihood(record, hand))
        return total

    def _hand_then(self, world: Game, record: _Record) -> dict[int, frozenset[int]] | None:
        """What the world says the player's hidden zones held at the record's decision (card ids by slot)."""
        zones = world.memory.zones
        held = {slot: {card.id for card in zones[slot]} for slot in record.slots}
        for when, slot, sign, card in reversed(self.events):
            if when <= record.index:
                break
            if slot in held:
                if card is None:
                    return None
                if sign > 0:
                    held[slot].discard(card)
                else:
                    held[slot].add(card)
        return {slot: frozenset(ids) for slot, ids in held.items()}

    def _likelihood(self, record: _Record, hand: dict[int, frozenset[int]]) -> float:
        key = (record.index, id(record), tuple(sorted(hand.items())))
        found = self._likelihoods.get(key)
        if found is None:
            found = self._likelihoods[key] = self._ask_model(record, hand)
        return found

    def _ask_model(self, record: _Record, hand: dict[int, frozenset[int]]) -> float:
        """The probability of the recorded choice if the player held `hand` then, under the model."""
        game = record.game
        swaps = _arrange(game, hand)
        try:
            if swaps is None:
                return IMPOSSIBLE
            game._options = None
            options = game.options()
            observed = next((o for o in options if o.key == record.key), None)
            if observed is None:
                return IMPOSSIBLE
            if len(options) == 1:
                return 1.0
            chosen = self._model_choice(record, game, options)
            if chosen is None:
                return 1.0
            return 1 - EPSILON if chosen.key == record.key else EPSILON / (len(options) - 1)
        finally:
            if swaps:
                _undo(game, swaps)
            game._options = None

    def _model_choice(self, record: _Record, game: Game, options: list[Option]) -> Option | None:
        model = self.models[record.player]
        kept = {name: getattr(model, name) for name in ("game", "seat", "memory", "scopes") if hasattr(model, name)}
        if "memory" in kept:
            model.game, model.seat = game, record.player
            model.memory, model.scopes = dict(record.memory), dict(record.scopes)
        try:
            player = game.memory.players[record.player]
            decision = Decision(record.player, player.name, game.memory.pending[1], options, game)  # type: ignore[index]
            return model.choose(decision) if not hasattr(model, "decide") else model.decide(decision)[0]
        except NaipesError:
            return None  # the model cannot say: the decision weighs nothing
        finally:
            for name, value in kept.items():
                setattr(model, name, value)


def _arrange(game: Game, hand: dict[int, frozenset[int]]) -> list[tuple[int, int, int, int]] | None:
    """Put the cards of `hand` (ids by zone slot) in those zones of `game`, each swapped with a card there that
    does not belong; the swaps made (None if a card is nowhere to be found or the counts differ)."""
    memory = game.memory
    zones, where = memory.zones, memory.where
    by_id = {card.id: card for card in where}
    swaps: list[tuple[int, int, int, int]] = []
    for slot, ids in hand.items():
        zone = zones[slot]
        if len(zone) != len(ids):
            _undo(game, swaps)
            return None
        spare = [i for i, card in enumerate(zone) if card.id not in ids]
        wanted = [card_id for card_id in sorted(ids) if where.get(by_id.get(card_id)) != slot]  # type: ignore[arg-type]
        for i, card_id in zip(spare, wanted):
            card = by_id.get(card_id)
            if card is None:
                _undo(game, swaps)
                return None
            other_slot = where[card]
            j = zones[other_slot].index(card)
            _swap(game, slot, i, other_slot, j)
            swaps.append((slot, i, other_slot, j))
    return swaps


def _swap(game: Game, slot: int, i: int, other_slot: int, j: int) -> None:
    zones, where = game.memory.zones, game.memory.where
    a, b = zones[slot][i], zones[other_slot][j]
    zones[slot][i], zones[other_slot][j] = b, a
    where[b], where[a] = slot, other_slot


def _undo(game: Game, swaps: list[tuple[int, int, int, int]]) -> None:
    for slot, i, other_slot, j in reversed(swaps):
        _swap(game, slot, i, other_slot, j)
    swaps.clear()


def _weights(logs: list[float]) -> list[float]:
    """Likelihoods from their logs, the largest 1 (so that none underflows to 0 against the others)."""
    top = max(logs)
    return [math.exp(log - top) for log in logs]


def _effective(logs: list[float]) -> float:
    """The effective sample size of worlds of these log-likelihoods: how many equally weighted worlds they are
    worth."""
    weights = _weights(logs)
    return sum(weights) ** 2 / sum(w * w for w in weights)


def _systematic(weights: list[float], count: int, rng: random.Random) -> dict[int, int]:
    """Systematic resampling: how many times each index is drawn, `count` draws in all, by weight."""
    total = sum(weights)
    step = total / count
    point = rng.random() * step
    picks: dict[int, int] = {}
    running, drawn = 0.0, 0
    for i, weight in enumerate(weights):
        running += weight
        while point < running and drawn < count:
            picks[i] = picks.get(i, 0) + 1
            point, drawn = point + step, drawn + 1
    return picks
