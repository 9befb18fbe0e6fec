"""Pocha written by hand in plain Python: the reference contender of issue 11.

The same game as rulesets/pocha.yaml (over tricks.yaml): the Spanish deck
(without the 2s with 3 or 6 players), hands of 1..max..1 cards (or any
schedule), the trump turned up (every card dealt: the dealer's last card),
bids from the player after the dealer (the last bidder may not make the bids
add up to the tricks), the obligations of tricks.yaml's `play` cascade, and the
round score (exact: 10 + 5 per trick; else -5 per trick of difference).
Lists and ints only: a card is `suit * 16 + rank`.  Players are indices
0..n-1; `seats` is the order around the table, the last of it deals first.

    game = PlainPocha(4, seats=[0, 1, 2, 3])
    game.deal_random(rng)              # or game.deal(hands, trump) with given cards
    while not game.over:
        game.apply(pick(rng, game.legal()))
        if game.phase == DEAL: game.deal_random(rng)
"""
from __future__ import annotations

import random

from naipes.library.builtins import pick

SUITS = ("oros", "copas", "espadas", "bastos")
RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
# trick strength: as > 3 > rey > caballo > sota > 7 > 6 > 5 > 4 > 2
STRENGTH = {1: 12, 3: 11, 12: 10, 11: 9, 10: 8, 7: 5, 6: 4, 5: 3, 4: 2, 2: 1}
DEAL, BID, PLAY, OVER = "deal", "bid", "play", "over"


def card_name(card: int) -> str:
    """The rule file's name: rank then the suit's initial (1o, 12c)."""
    return f"{card & 15}{SUITS[card >> 4][0]}"


def deck(players: int) -> list[int]:
    ranks = [r for r in RANKS if r != 2 or players not in (3, 6)]
    return [s * 16 + r for s in range(4) for r in ranks]


class PlainPocha:
    """One match.  `legal()` lists the options of the player to move (bids: ints
    0..hand size; cards: card ints), `apply(choice)` plays one."""

    def __init__(self, players: int = 4, seats: list[int] | None = None, schedule: list[int] | None = None,
                 restriction: bool = True, exact: int = 10, per_trick: int = 5, per_miss: int = 5):
        self.n = players
        self.seats = list(seats) if seats is not None else list(range(players))
        self.deck = deck(players)
        most = len(self.deck) // players
        self.schedule = schedule or list(range(1, most + 1)) + list(range(most - 1, 0, -1))
        self.restriction, self.exact, self.per_trick, self.per_miss = restriction, exact, per_trick, per_miss
        self.power = [0] * 64  # a card's strength; trumps and the lead suit are added at play time
        for c in self.deck:
            self.power[c] = STRENGTH[c & 15]
        self.dealer = self.seats[-1]
        self.round = 0
        self.score = [0] * players
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.phase = DEAL
        self.winners: list[int] = []

    def next_seat(self, p: int) -> int:
        seats = self.seats
        return seats[(seats.index(p) + 1) % len(seats)]

    # ------------------------------------------------------------------ the deal
    def deal_random(self, rng: random.Random) -> None:
        """Shuffle, deal one card at a time from the player after the dealer, turn up the trump."""
        stock = self.deck[:]
        rng.shuffle(stock)
        size = self.schedule[self.round]
        hands: list[list[int]] = [[] for _ in range(self.n)]
        order = [self.seats[(self.seats.index(self.dealer) + 1 + i) % self.n] for i in range(self.n)]
        for _ in range(size):
            for p in order:
                hands[p].append(stock.pop())
        trump = stock[-1] if stock else hands[self.dealer][-1]
        self.deal(hands, trump >> 4)

    def deal(self, hands: list[list[int]], trump: int) -> None:
        """Start the next round with these hands (by player) and trump suit (0..3)."""
        self.hand_size = self.schedule[self.round]
        self.round += 1
        self.hands = [list(h) for h in hands]
        self.trump = trump
        self.bids: list[int | None] = [None] * self.n
        self.tricks = [0] * self.n
        self.trick: list[int] = []
        self.played: list[int] = []
        self.bids_total = self.bids_made = 0
        self.turn = self.next_seat(self.dealer)
        self.phase = BID

    # ---------------------------------------------------------------- decisions
    def legal(self) -> list[int]:
        if self.phase == BID:
            size = self.hand_size
            if self.restriction and self.bids_made == self.n - 1:
                return [b for b in range(size + 1) if self.bids_total + b != size]
            return list(range(size + 1))
        hand, trick = self.hands[self.turn], self.trick
        if not trick:
            return hand[:]
        lead, trump, power = trick[0] >> 4, self.trump, self.power
        # power in the trick: trumps above the lead suit above the rest, then strength
        best = max((200 if c >> 4 == trump else 100 if c >> 4 == lead else 0) + power[c] for c in trick)
        follow = [c for c in hand if c >> 4 == lead]
        if follow:  # follow suit and beat; else follow suit
            beat = [c for c in follow if (200 if lead == trump else 100) + power[c] > best]
            return beat or follow
        trumps = [c for c in hand if c >> 4 == trump]
        if trumps:
            if best < 200:  # no trump on the table: trump when void
                return trumps
            over = [c for c in trumps if 200 + power[c] > best]  # overtrump
            if over:
                return over
        return hand[:]

    def apply(self, choice: int) -> None:
        p = self.turn
        if self.phase == BID:
            self.bids[p] = choice
            self.bids_total += choice
            self.bids_made += 1
            self.turn = self.next_seat(self.dealer) if self.bids_made == self.n else self.next_seat(p)
            if self.bids_made == self.n:
                self.phase = PLAY
            return
        self.hands[p].remove(choice)
        self.trick.append(choice)
        self.played.append(p)
        if len(self.trick) < self.n:
            self.turn = self.next_seat(p)
            return
        self.turn = self.trick_winner()
        self.tricks[self.turn] += 1
        self.trick, self.played = [], []
        if not self.hands[self.turn]:
            self.score_round()

    def trick_winner(self) -> int:
        lead, trump, power = self.trick[0] >> 4, self.trump, self.power
        powers = [(200 if c >> 4 == trump else 100 if c >> 4 == lead else 0) + power[c] for c in self.trick]
        return self.played[powers.index(max(powers))]

    def score_round(self) -> None:
        for p in self.seats:
            bid, took = self.bids[p], self.tricks[p]
            assert bid is not None
            self.score[p] += self.exact + self.per_trick * took if took == bid else -self.per_miss * abs(took - bid)
        if self.round >= len(self.schedule):
            top = max(self.score[p] for p in self.seats)
            self.winners = [p for p in self.seats if self.score[p] == top]
            self.phase = OVER
            return
        self.dealer = self.next_seat(self.dealer)
        self.phase = DEAL

    @property
    def over(self) -> bool:
        return self.phase == OVER


def play_random(players: int, seed: int, schedule: list[int] | None = None) -> tuple[int, int]:
    """One random match, choices uniformly random; returns (rounds, decisions)."""
    rng = random.Random(seed)
    seats = list(range(players))
    rng.shuffle(seats)
    game = PlainPocha(players, seats, schedule)
    decisions = 0
    while not game.over:
        if game.phase == DEAL:
            game.deal_random(rng)
        game.apply(pick(rng, game.legal()))  # (the draw of Naipes' random players: the games compare alone)
        decisions += 1
    return game.round, decisions
