"""An open-hand solver of a Pocha hand written by hand in plain Python: the yardstick of issue 40.

What benchmarks/plain_pocha.py is for play, this is for search: the solver a
Python programmer would write for one game, lists and ints, the rules
(plain_pocha.PlainPocha's legal moves and trick winner) written into the
search. It plays the same algorithms as naipes.agents.solver.OpenSolver,
from the first card of a trick to the end of the hand: max^n (each player
for his own round score, ties broken the same way) or paranoid alpha-beta
(the others against one player), a transposition table looked up at the
start of each trick (keyed by the hands, the leader and the tricks taken),
the table's best move tried first. The values are the round scores; they
must equal the engine's (bench_solver.py checks).

    solver = PlainSolver(game)          # a PlainPocha in its play phase, at the start of a trick
    values = solver.solve("maxn")       # {card: (score change per player)}
"""
from __future__ import annotations

import math

from plain_pocha import PlainPocha

INFINITE = math.inf


class PlainSolver(PlainPocha):
    """Max^n or paranoid alpha-beta over one Pocha hand, every card shown (PlainPocha's rules: `legal`,
    `trick_winner`)."""

    def __init__(self, game: PlainPocha):
        self.__dict__.update(vars(game))
        self.hands = [list(h) for h in game.hands]
        self.trick, self.played, self.tricks = list(game.trick), list(game.played), list(game.tricks)
        self.next = {p: game.next_seat(p) for p in range(self.n)}
        self.table: dict = {}
        self.nodes = 0
        self.me = 0

    # ------------------------------------------------------------------ rules
    def play(self, card: int) -> tuple:
        """Play `card` for the player to move; what `unplay` needs to take it back."""
        p = self.turn
        self.hands[p].remove(card)
        self.trick.append(card)
        self.played.append(p)
        if len(self.trick) < self.n:
            self.turn = self.next[p]
            return (p, None)
        winner = self.trick_winner()
        done = (self.trick, self.played)
        self.tricks[winner] += 1
        self.trick, self.played = [], []
        self.turn = winner
        return (p, done)

    def unplay(self, card: int, undo: tuple) -> None:
        p, done = undo
        if done is not None:
            self.tricks[self.turn] -= 1
            self.trick, self.played = done
        self.trick.pop()
        self.played.pop()
        self.hands[p].append(card)
        self.turn = p

    def finished(self) -> bool:
        return not self.trick and not self.hands[self.turn]

    def scores(self) -> tuple:
        out = []
        for p in range(self.n):
            bid, took = self.bids[p], self.tricks[p]
            out.append(self.exact + self.per_trick * took if took == bid else -self.per_miss * abs(took - bid))
        return tuple(out)

    def key(self) -> tuple:
        return (tuple(tuple(sorted(h)) for h in self.hands), self.turn, tuple(self.tricks))

    # ----------------------------------------------------------------- search
    def solve(self, model: str, me: int | None = None) -> dict[int, tuple]:
        """Every legal card of the player to move with its value (a score vector; paranoid: `me`'s in its
        place, 0 elsewhere)."""
        self.me = self.turn if me is None else me
        self.nodes = 0
        self.table.clear()
        values = {}
        for card in self.legal():
            undo = self.play(card)
            if model == "maxn":
                values[card] = self.maxn()
            else:
                value = self.paranoid(-INFINITE, INFINITE)
                values[card] = tuple(value if p == self.me else 0.0 for p in range(self.n))
            self.unplay(card, undo)
        return values

    def maxn(self) -> tuple:
        if self.finished():
            return self.scores()
        self.nodes += 1
        key = self.key() if not self.trick else None
        if key is not None:
            known = self.table.get(key)
            if known is not None:
                return known[0]
        mover = self.turn
        best: tuple | None = None
        best_rank: tuple = ()
        best_card = None
        for card in self.legal():
            undo = self.play(card)
            value = self.maxn()
            self.unplay(card, undo)
            rank = (value[mover], -(sum(value) - value[mover]), tuple(-x for x in value))
            if best is None or rank > best_rank:
                best, best_rank, best_card = value, rank, card
        if key is not None:
            self.table[key] = (best, best_card)
        return best

    def paranoid(self, alpha: float, beta: float) -> float:
        me = self.me
        if self.finished():
            return self.scores()[me]
        self.nodes += 1
        key = self.key() if not self.trick else None
        hint = None
        if key is not None:
            known = self.table.get(key)
            if known is not None:
                lower, upper, hint = known
                if lower >= beta or lower == upper:
                    return lower
                if upper <= alpha:
                    return upper
                alpha, beta = max(alpha, lower), min(beta, upper)
        low, high = alpha, beta
        maximising = self.turn == me
        best, best_card = (-INFINITE if maximising else INFINITE), None
        cards = self.legal()
        if hint in cards:
            cards.remove(hint)
            cards.insert(0, hint)
        for card in cards:
            undo = self.play(card)
            value = self.paranoid(alpha, beta)
            self.unplay(card, undo)
            if maximising:
                if value > best:
                    best, best_card, alpha = value, card, max(alpha, value)
            elif value < best:
                best, best_card, beta = value, card, min(beta, value)
            if alpha >= beta:
                break
        if key is not None:
            self.table[key] = (best if best > low else -INFINITE, best if best < high else INFINITE, best_card)
        return best
