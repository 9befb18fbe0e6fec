"""What a seat sees, as a vector of fixed size: observation and information-state tensors.

The vector is derived from the declared visibility only: it encodes
:meth:`Memory.seen_by` (the copy of the game in which the cards hidden from
the seat are placeholders and hidden variables are None), the same view
strategies play on. Its layout depends only on the rule file, its params and
the number of players (P seats, N cards of the deck, A text labels: the text
values of the cards' attributes, such as suits):

* ``seat`` and ``to_move``: one-hot over the P seats; ``phase``: one-hot over the phases;
* each zone (global zones, then each per-player zone for each seat): N slots,
  1 for each card of it the seat sees, and one slot with its number of cards;
* each variable a seat may ever see (public global ones, public or owner
  per-player ones): one slot if it is declared a number or a boolean; else
  1 + P + N + A slots: its numbers (summed when it holds several), the players,
  cards and text labels it holds (a trump suit, a list of cards played).
  Other text (not an attribute value of any card) is not encoded: it is in the strings.

The information-state tensor adds, for each seat, the N cards the observer
saw it play (a card argument of a move, visible to the observer right after
the move: a card led to the trick, a discard; never one put face down).

>>> from naipes import Game, load_program
>>> program = load_program("fichas")
>>> encoder = ObservationEncoder(program)
>>> encoder.size, [name for name, _ in encoder.pieces][:4]
(69, ['seat', 'to_move', 'phase', 'zone table'])
>>> game = Game(program, seed=1); game.start()
>>> vector = encoder.encode(game, 0)
>>> float(vector[encoder.offset("zone table") + 12])   # the count of chips on the table
12.0
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..library.builtins import DECK
from ..program import Program, VarSpec, get
from ..runtime.game import Game
from ..runtime.memory import CardBase, PlayerBase, Zone, new_memory

NUMERIC = {"int", "float", "bool"}


class ObservationEncoder:
    """Encodes a seat's view of a game as a float32 vector; ``recall=True`` for the information-state layout."""

    def __init__(self, program: Program, players: int | None = None, recall: bool = False):
        self.program, self.recall = program, recall
        self.players = players or program.players[2]
        memory = new_memory(program, 0, None, self.players)
        self.cards = len(memory.vars.get(DECK, ()))
        labels = {get(c, a) for c in memory.vars.get(DECK, ()) for a in program.card_attributes}
        self.labels = {label: i for i, label in enumerate(sorted(label for label in labels if isinstance(label, str)))}
        P, N = self.players, self.cards
        self.block = 1 + P + N + len(self.labels)  # a variable that is not declared numeric
        pieces = [("seat", P), ("to_move", P)] + ([("phase", len(program.phases))] if program.phases else [])
        pieces += [(f"zone {z.name}", N + 1) for z in program.zones if not z.per_player]
        pieces += [(f"zone {z.name} of P{i + 1}", N + 1) for z in program.zones if z.per_player for i in range(P)]
        self.globals = [v for v in program.state if v.visibility == "public"]
        self.per_player = [v for v in program.player_state if v.visibility in ("public", "owner")]
        pieces += [(f"state {v.name}", self._width(v)) for v in self.globals]
        pieces += [(f"player {v.name} of P{i + 1}", self._width(v)) for v in self.per_player for i in range(P)]
        if recall:
            pieces += [(f"played by P{i + 1}", N) for i in range(P)]
        self.pieces: list[tuple[str, int]] = pieces
        self.offsets: dict[str, int] = {}
        at = 0
        for name, width in pieces:
            self.offsets[name] = at
            at += width
        self.size = at

    def _width(self, var: VarSpec) -> int:
        return 1 if var.type in NUMERIC else self.block

    def offset(self, piece: str) -> int:
        """Where a named piece starts in the vector."""
        return self.offsets[piece]

    def encode(self, game: Game, seat: int, played: Iterable[tuple[int, int]] = (), out: np.ndarray | None = None
               ) -> np.ndarray:
        """The vector of what `seat` sees (`played`: (player, card id) pairs the seat saw, for the recall layout)."""
        out = np.zeros(self.size, np.float32) if out is None else out
        out.fill(0.0)
        view = game.memory.seen_by(seat)
        V, offsets = view.vars, self.offsets
        out[offsets["seat"] + seat] = 1
        if view.pending is not None:
            out[offsets["to_move"] + view.pending[0].index] = 1
        if self.program.phases and V.get("phase") in self.program.phases:
            out[offsets["phase"] + self.program.phases.index(V["phase"])] = 1
        for spec in self.program.zones:
            if spec.per_player:
                for p in view.players:
                    self._zone(out, offsets[f"zone {spec.name} of P{p.index + 1}"], get(p, spec.name))
            else:
                self._zone(out, offsets[f"zone {spec.name}"], V[spec.name])
        for var in self.globals:
            self._value(out, offsets[f"state {var.name}"], var, V[var.name])
        for var in self.per_player:
            for p in view.players:
                self._value(out, offsets[f"player {var.name} of P{p.index + 1}"], var, get(p, var.name))
        if self.recall:
            for player, card in played:
                out[offsets[f"played by P{player + 1}"] + card] = 1
        return out

    def _zone(self, out: np.ndarray, at: int, zone: Zone) -> None:
        for card in zone:
            if card.id >= 0:
                out[at + card.id] = 1
        out[at + self.cards] = len(zone)

    def _value(self, out: np.ndarray, at: int, var: VarSpec, value: Any) -> None:
        if var.type in NUMERIC:
            out[at] = float(value or 0)
            return
        P, N = self.players, self.cards
        for item in _atoms(value):
            if isinstance(item, (bool, int, float)):
                out[at] += float(item)
            elif isinstance(item, PlayerBase):
                out[at + 1 + item.index] = 1
            elif isinstance(item, CardBase):
                if item.id >= 0:
                    out[at + 1 + P + item.id] = 1
            elif item in self.labels:
                out[at + 1 + P + N + self.labels[item]] = 1


def _atoms(value: Any) -> Iterable[Any]:
    """The plain values, players and cards a value holds (None holds nothing)."""
    if value is None:
        return
    if isinstance(value, (list, tuple, set, frozenset, Zone)):
        for item in value:
            yield from _atoms(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _atoms(item)
    else:
        yield value
