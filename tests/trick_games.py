"""What the tests of the two trick-taking games with bids share (Pocha: test_pocha.py; Wizard: test_wizard.py).

Both rule files name the same things (`hand`, `trick`, `turnup`, `stock`; `trump`, `trump_card`, `leader`,
`turn`, `played`, `dealer`, `seats`, `schedule`; each player's `bid`, `tricks`, `score`, `scores`, `won`), so
a position is set up alike in both, and a random game is checked alike after every decision. Each test file
passes its own `start` and says its own rules: which cards are legal, who takes a trick, what a round scores
(a Checker's methods to fill in).
"""
from __future__ import annotations

import re
from collections.abc import Callable

from naipes.agents.registry import RandomAgent
from naipes.runtime.game import Game
from naipes.tools.scenario import arrange, player, zone

from helpers import V, choose, labels, names, unask


def on_table(start: Callable[..., Game], hands: dict, trick: str = "", *, leader: str = "P1", trump=None,
             players: int = 4, to_move: bool = True, settle: bool = False, bids: dict | None = None) -> Game:
    """A trick in progress in a game from `start(players)`: `trick` played in turn from `leader`; the next player
    is asked to play (`to_move`), or the rules run on from there (`settle`)."""
    game = unask(start(players))
    n = len(trick.split())
    seats = [f"P{i + 1}" for i in range(players)]
    mover = seats[(seats.index(leader) + n) % players]
    zones = {f"{p}.hand": hands.get(p, "") for p in seats}
    zones["trick"] = trick
    zones["turnup"] = ""
    state = {"phase": "'play'", "trump": repr(trump), "trump_card": "None",
             "leader": f"players[{seats.index(leader)}]", "turn": f"players[{seats.index(mover)}]",
             "played": "[(seat_order(leader)[i], c) for i, c in enumerate(trick)]"}
    player_state = {f"{p}.bid": str((bids or {}).get(p, 0)) for p in seats}
    return arrange(game, zones=zones, state=state, player_state=player_state,
                   to_move=(mover, "play") if to_move and n < players else None, settle=settle)


def legal_cards(table: Callable[..., Game], trick: str, hand: str) -> set[str]:
    """The cards the next player may play on `trick` holding `hand` (`table(hands, trick)`: on_table)."""
    mover = f"P{len(trick.split()) + 1}"
    game = table({mover: hand}, trick)
    assert game.to_move.name == mover
    assert all(o.move == "play" for o in game.options())
    return set(labels(game))


def assert_took_the_trick(game: Game, winner: str, trick: str, filler: str) -> None:
    """`winner` took the trick `trick` (played from hands of one `filler` card each) and leads the next one."""
    w = player(game, winner)
    assert w.tricks == 1
    assert sum(p.tricks for p in game.memory.players) == 1
    assert names(w.won) == sorted(trick.split())
    assert len(zone(game, "trick")) == 0 and V(game)["played"] == []
    assert V(game)["leader"] is w and V(game)["turn"] is w
    assert game.to_move is w and labels(game) == [filler.split()[int(winner[1]) - 1]]


def bid_round(game: Game, bids: list[int]) -> None:
    for b in bids:
        choose(game, f"bid {b}")


def deal_round(game: Game, round_number: int) -> Game:
    """Finish the current round at once (bids and tricks 0) and let the rules deal round `round_number`."""
    state = {f"{p.name}.{v}": "0" for p in game.memory.players for v in ("bid", "tricks")}
    return arrange(unask(game), state={"phase": "'score'", "round_number": str(round_number - 1)}, player_state=state,
                   settle=True)


def score(start: Callable[[int], Game], players: int, bids: list[int], tricks: list[int], *, round_number: int = 1,
          totals: list[int] | None = None) -> Game:
    """Score a round of a game from `start(players)`: set bids and tricks taken, enter the score phase, let the
    rules run."""
    game = unask(start(players))
    state = {f"P{i + 1}.bid": str(b) for i, b in enumerate(bids)}
    state.update({f"P{i + 1}.tricks": str(t) for i, t in enumerate(tricks)})
    state.update({f"P{i + 1}.score": str(s) for i, s in enumerate(totals or [])})
    return arrange(game, state={"phase": "'score'", "round_number": str(round_number),
                                "hand_size": str(sum(tricks))}, player_state=state, settle=True)


def announced_tricks(texts: list[str]) -> list[int]:
    """The tricks each player took, from the round scores announced ("P2 bid 1 and took 0: -5 points")."""
    return [int(m.group(1)) for m in (re.match(r"P\d+ bid \d+ and took (\d+)", t) for t in texts) if m]


class Checker:
    """Plays a random game, checking the rules' invariants after every decision; a game's test file says its own
    rules in `legal`, `winner` and `points` (and may check more in the hooks)."""

    def __init__(self, program, players: int, seed: int, restricted: bool = True):
        self.restricted = restricted  # the last-bidder rule is on
        self.checked = {"bids": 0, "plays": 0, "tricks": 0, "scores": 0}
        self.game = Game(program, seed, players=players)
        self.announced: list[str] = []
        self.game.listeners.append(lambda r: self.announced.append(r["text"]) if r["type"] == "announce" else None)
        self.game.start()
        self.agents = [RandomAgent(seed * 100 + i) for i in range(players)]
        self.ids = sorted(c.id for z in self.game.memory.zones for c in z)
        self.card_names = {c.name for z in self.game.memory.zones for c in z}

    # --- the game's own rules
    def legal(self, hand: list, trick: list) -> list:
        """The cards of `hand` that may be played on `trick`."""
        raise NotImplementedError

    def winner(self, played: list[tuple]) -> object:
        """The player who takes the trick of (player, card) pairs `played`."""
        raise NotImplementedError

    def points(self, bid: int, took: int) -> int:
        """What a round scores."""
        raise NotImplementedError

    # --- hooks: more checks of a game
    def applied(self, choice) -> None:
        """After `choice` was played."""

    def check_view(self, view: dict, seat: int | None) -> None:
        """What `seat` is shown."""

    def check_first_bid(self, size: int) -> None:
        """At a round's first bid (the hands are dealt)."""

    def check_other_move(self, decision) -> None:
        """A decision that is neither a bid nor a play."""
        raise AssertionError(f"unexpected moves {decision.moves}")

    # --- the game
    def run(self) -> Game:
        game = self.game
        self.check()
        while not game.over:
            decision = game.decision()
            assert decision.options, "no legal option offered"
            self.check_options(decision)
            choice = self.agents[decision.player].choose(decision)
            expected_winner = self.expected_winner(choice)
            self.announced.clear()
            game.apply(choice)
            self.applied(choice)
            self.check()
            self.check_announcements(expected_winner)
        assert game.options() == []
        assert all(self.checked.values()), self.checked
        return game

    # --- after every decision
    def check(self) -> None:
        game, memory = self.game, self.game.memory
        # every card is in exactly one zone, and `where` says which
        held = [(c.id, z.slot) for z in memory.zones for c in z]
        assert sorted(i for i, _ in held) == self.ids
        assert all(memory.where[c] == z.slot for z in memory.zones for c in z)
        # views show no card the seat cannot see
        visible_to_all = {c.name for c in zone(game, "trick")} | {c.name for c in zone(game, "turnup")}
        if V(game)["trump_card"] is not None:
            visible_to_all.add(V(game)["trump_card"].name)
        for seat in [None] + list(range(len(memory.players))):
            view = game.view(seat)
            allowed = visible_to_all | ({c.name for c in memory.players[seat].hand} if seat is not None else set())
            shown = set(self.strings(view)) & self.card_names
            assert shown <= allowed, f"seat {seat} sees {shown - allowed}"
            self.check_view(view, seat)
        # totals are the sums of the round scores
        for p in memory.players:
            assert p.score == sum(p.scores)
        if not game.over:
            assert game.to_move is V(game)["turn"]

    def strings(self, value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for k, v in value.items():
                yield from self.strings(k)
                yield from self.strings(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                yield from self.strings(v)

    # --- the options, from the rules
    def check_options(self, decision) -> None:
        game = self.game
        player = game.memory.players[decision.player]
        if decision.moves == ("bid",):
            size = V(game)["hand_size"]
            bids = [p.bid for p in game.memory.players if p is not player]
            allowed = set(range(size + 1))
            if self.restricted and all(b is not None for b in bids):
                allowed.discard(size - sum(bids))
            assert {o.arg for o in decision.options} == allowed
            self.checked["bids"] += 1
            # bidding goes round the seats from the player after the dealer
            seats = V(game)["seats"]
            first = seats[(seats.index(V(game)["dealer"]) + 1) % len(seats)]
            order = seats[seats.index(first):] + seats[:seats.index(first)]
            assert player is order[sum(b is not None for b in bids)]
            if sum(b is not None for b in bids) == 0:  # the round's first bid: the hands are dealt
                assert all(len(p.hand) == size for p in game.memory.players)
                assert size == V(game)["schedule"][V(game)["round_number"] - 1]
                self.check_first_bid(size)
        elif decision.moves == ("play",):
            legal = self.legal(list(player.hand), list(zone(game, "trick")))
            assert {o.arg.name for o in decision.options} == {c.name for c in legal}
            self.checked["plays"] += 1
        else:
            self.check_other_move(decision)

    def expected_winner(self, choice) -> str | None:
        game = self.game
        if choice.move != "play" or len(zone(game, "trick")) != len(game.memory.players) - 1:
            return None
        return self.winner(list(V(game)["played"]) + [(game.to_move, choice.arg)]).name  # type: ignore[attr-defined]

    def check_announcements(self, expected_winner: str | None) -> None:
        taken = [m.group(1) for m in (re.match(r"(P\d+) takes the trick", t) for t in self.announced) if m]
        if expected_winner is not None:
            assert taken == [expected_winner]
            self.checked["tricks"] += 1
        for text in self.announced:
            m = re.match(r"P\d+ bid (\d+) and took (\d+): (-?\d+) points", text)
            if m:
                bid, took, points = map(int, m.groups())
                assert points == self.points(bid, took)
                self.checked["scores"] += 1
