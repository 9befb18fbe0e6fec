"""A seat's search knowledge (naipes.agents.knowledge) knows no more than the seat could: it changes only by what
the seat observes, never by where a hidden card really went.

Scenarios where it knew more: in Cheat, a card seen going into a hand was followed into a face-down claim, and the
claim's cards were read from the hidden variable that holds them; in Pocha static, the next rounds' hands from the
hidden order of the deck; a card played face down under an obligation told what the hand lacked. What the table
does know stays known (a hand put down whole, a discard pile turned into a new stock). Then two
properties over random games of shipped rule files: what a seat's knowledge holds is true of the real game and of
cards the seat has seen, and two games the seat cannot tell apart give it the same knowledge and the same worlds.
"""
from __future__ import annotations

import random

import pytest

from naipes import load_program
from naipes.agents.knowledge import Knowledge
from naipes.agents.registry import RandomAgent
from naipes.runtime.game import Game
from naipes.runtime.memory import CARD_CLASS
from naipes.tools.scenario import arrange, player, zone

from helpers import choose, shipped_program, unask, write_rules

CHEAT_HANDS = {"P1.hand": "Ac 7d 5d 9s", "P2.hand": "2c 3c 5s", "P3.hand": "4c 5c 8d", "P4.hand": "6c 8c 2d"}
P3 = 2  # the seat whose knowledge the Cheat scenarios follow


# ====================================================================== Cheat
def cheat(hands: dict, pile: str = "") -> tuple[Game, Knowledge]:
    """P1 to claim aces, the hands and the pile as given (the rest in the stock), and P3's knowledge from there."""
    game = unask(Game(shipped_program("cheat"), 0))
    game.start()
    state = {"phase": "'play'", "turn": "players[0]", "due": "1", "claimer": "None", "resolved": "False",
             "challenger": "None"}
    arrange(game, zones={**hands, "pile": pile}, state=state)
    arrange(game, to_move=("P1", "claim"))
    return game, Knowledge(game, P3)


def claim(game: Game, cards: str) -> None:
    """The player to move claims `cards` (names), as many cards of the rank due."""
    names = cards.split()
    choose(game, next(label for label in (o.label for o in game.options())
                      if label.startswith(f"claim {['one', 'two', 'three', 'four'][len(names) - 1]} ")))
    for name in names:
        choose(game, f"put down {name}")


def let_stand(game: Game) -> None:
    """Nobody calls the open claim."""
    while "let it stand" not in [o.label for o in game.options()]:
        choose(game, next(o.label for o in game.options() if o.label.startswith("leave it to")))
    choose(game, "let it stand")


def ids(game: Game) -> dict[str, int]:
    return {card.name: card.id for card in game.memory.where}


def zone_of(game: Game, card_id: int) -> int:
    return next(slot for card, slot in game.memory.where.items() if card.id == card_id)


def truthful(game: Game) -> bool:
    V = game.memory.vars
    return all(card.rank == V["claimed"] for card in V["claim_cards"])


def test_a_card_seen_going_into_a_hand_is_not_followed_into_a_face_down_claim():
    game, knowledge = cheat(CHEAT_HANDS, pile="5h 9d")
    claim(game, "Ac 7d")                       # a lie, called by P4 and shown: P1 takes the pile
    choose(game, "leave it to P3")
    choose(game, "leave it to P4")
    choose(game, "cheat!")
    card, hand, pile = ids(game), player(game, "P1").hand.slot, zone(game, "pile").slot
    assert knowledge.known[card["Ac"]] == knowledge.known[card["7d"]] == hand
    for cards in ("2c", "4c", "6c"):          # P2, P3 (the seat: a lie of its own) and P4 claim, let stand
        claim(game, cards)
        let_stand(game)
    claim(game, "7d")                          # P1 puts one card face down: which, nobody at the table knows
    assert card["7d"] not in knowledge.known and card["Ac"] not in knowledge.known
    assert knowledge.confined[card["7d"]] == knowledge.confined[card["Ac"]] == {hand, pile}
    assert knowledge.known[card["4c"]] == pile  # its own card, seen going onto the pile
    assert card["2c"] not in knowledge.known and card["6c"] not in knowledge.known
    rng = random.Random(1)
    worlds = [knowledge.world(rng) for _ in range(200)]
    assert {world.memory.where[world.memory.vars["claim_cards"][0]] for world in worlds} == {pile}
    assert {zone_of(world, card["7d"]) for world in worlds} == {hand, pile}
    assert {truthful(world) for world in worlds} == {True, False}  # a five put down, or not


def test_the_cards_of_a_claim_are_not_read_from_where_the_game_keeps_them():
    """The claim's cards are in a hidden variable (to show them if called): a world holds its own cards there."""
    game, knowledge = cheat(CHEAT_HANDS, pile="5h 9d")
    claim(game, "7d")
    assert not truthful(game)
    rng = random.Random(2)
    worlds = [knowledge.world(rng) for _ in range(200)]
    assert {truthful(world) for world in worlds} == {True, False}
    for world in worlds[:20]:
        assert_secrets_lie_where_they_do(game, world)


def test_a_hand_put_down_whole_is_known_in_the_claim():
    """What the table does know stays known: every card of a hand the seat has seen, put down at once."""
    game, knowledge = cheat({**CHEAT_HANDS, "P1.hand": "Ac 7d"})
    claim(game, "Ac 7d")                       # P1's last cards, a lie: called, shown, taken back
    choose(game, "cheat!")
    for cards in ("2c", "4c", "6c"):
        claim(game, cards)
        let_stand(game)
    claim(game, "Ac 7d")
    card, pile = ids(game), zone(game, "pile").slot
    assert knowledge.known[card["Ac"]] == knowledge.known[card["7d"]] == pile
    rng = random.Random(3)
    for _ in range(20):
        world = knowledge.world(rng)
        assert sorted(c.id for c in world.memory.vars["claim_cards"]) == sorted([card["Ac"], card["7d"]])


# ================================================================== Chinchón
def test_a_pile_shuffled_into_a_new_stock_is_known_to_be_there_in_no_order():
    """Chinchón turns the discard pile (each card of it seen on top) but its top card into a new stock, shuffled:
    the seat knows which cards the stock holds, not in what order."""
    game = Game(shipped_program("chinchon"), 0)
    knowledge = Knowledge(game, 0)
    heard: list[str] = []
    game.observers.append(lambda record: heard.append(record.get("text", "")))
    game.start()
    agent = RandomAgent(0)
    while not any(text.startswith("The stock is empty") for text in heard):
        game.apply(agent.choose(game.decision()))
    stock = game.memory.vars["stock"]
    assert {knowledge.confined.get(card.id) for card in stock} == {frozenset([stock.slot])}
    rng = random.Random(5)
    worlds = [knowledge.world(rng).memory.vars["stock"] for _ in range(5)]
    assert all(sorted(card.id for card in world) == sorted(card.id for card in stock) for world in worlds)
    assert any([card.id for card in world] != [card.id for card in stock] for world in worlds)


# ============================================================== Pocha static
def test_the_hidden_order_of_the_deck_names_the_worlds_cards():
    """Pocha static keeps the deck's order in a hidden variable, to deal the same hands every round: a world's
    order deals the world's hands, not the real ones."""
    game = Game(shipped_program("pocha_static", rounds="2", cards_each="5"), 4)
    knowledge = Knowledge(game, 0)
    game.start()
    order = game.memory.vars["deck_order"]
    rng = random.Random(4)
    worlds = [knowledge.world(rng) for _ in range(20)]
    for world in worlds:
        assert_secrets_lie_where_they_do(game, world)
    assert any(world.memory.vars["deck_order"] != order for world in worlds)


def secret_names(game: Game) -> list[str]:
    """The game's hidden variables."""
    return [var.name for var in game.program.state if var.visibility != "public"]


def assert_secrets_lie_where_they_do(game: Game, world: Game) -> None:
    """Every card a hidden variable names is, in the world, in the zone where the real one is."""
    real, imagined = game.memory, world.memory
    for name in secret_names(game):
        pairs = list(zip(cards_in(real.vars[name]), cards_in(imagined.vars[name])))
        assert pairs and all(real.where[a] == imagined.where[b] for a, b in pairs)


def cards_in(value) -> list:
    if isinstance(value, CARD_CLASS):
        return [value]
    if isinstance(value, (list, tuple)):
        return [card for item in value for card in cards_in(item)]
    return []


# ========================================================= face-down obligation
# Each player in turn puts a card down (on PLACE), red if he has one.
OBLIGED = """\
game: obliged
players: {min: 3, max: 3, default: 3, ai: random}
cards:
  attributes:
    rank: [1, 2, 3, 4]
    colour: [red, black]
  name: "f'{c.rank}{c.colour[0]}'"
  start: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
  pile: {visibility: hidden}
  table: {visibility: public}
state:
  turn: "players[0]"
  plays: 0
phases:
  deal:
    enter:
      - deal_the_hands: |
          deal 2 from stock to [p.hand for p in players]
          goto play
  play:
moves:
  put:
    choose: "c in player.hand"
    legal:
      - red_if_he_has_one: "c.colour == 'red'"
      - else_any: "True"
    then: |
      move c from player.hand to PLACE
      plays += 1
      turn = next_player(player)
rules:
  - name: ask_to_put
    phase: play
    when: "plays < 3"
    then: "ask turn to put"
  - name: done
    phase: play
    when: "plays == 3"
    then: "end game"
"""


@pytest.mark.parametrize("place, deduced", [("table", True), ("pile", False), ("pile\n      show c", True)])
def test_a_card_played_face_down_says_nothing_of_the_hand_until_it_is_seen(tmp_path, place, deduced):
    program = load_program(write_rules(tmp_path, OBLIGED.replace("PLACE", place)))
    game = Game(program, 0)
    game.start()
    arrange(game, zones={"P1.hand": "1b 2b", "P2.hand": "1r 2r", "P3.hand": "3r 3b"})
    knowledge = Knowledge(game, P3)
    choose(game, "put 1b")                     # P1 has no red card: his black one is legal
    hand = player(game, "P1").hand.slot
    unseen_reds = {card.id for card in game.memory.where if card.colour == "red"} - set(knowledge.known)
    assert (knowledge.excluded.get(hand, set()) == unseen_reds) is deduced
    assert bool(knowledge.excluded.get(hand)) is deduced


# ================================================================= properties
GAMES = ["cheat", "chinchon", "hearts", "mus", "president", "pocha"]


def assert_true_of_the_game(game: Game, knowledge: Knowledge) -> None:
    """The real game is one of the knowledge's worlds: every card known where it is, every card confined in one of
    its zones, no card in a zone that excludes it."""
    where = {card.id: slot for card, slot in game.memory.where.items()}
    assert all(where[card] == slot for card, slot in knowledge.known.items())
    assert all(where[card] in among for card, among in knowledge.confined.items())
    zones = game.memory.zones
    assert all(not ids & {card.id for card in zones[slot]} for slot, ids in knowledge.excluded.items())


class Sightings:
    """A tracker (Memory.trackers) of the cards each seat has had in sight at any moment: in a zone it sees, on top
    of a `top` one, or shown (a card crosses the table between two decisions)."""

    def __init__(self, game: Game):
        self.memory = game.memory
        self.seen: list[set[int]] = [set() for _ in self.memory.players]
        self.memory.trackers += (self,)
        self.look()

    def look(self) -> None:
        for seat, seen in enumerate(self.seen):
            seen.update(card.id for card in self.memory.where if self.memory.shows(card, seat))

    def moved(self, cards: list, dest) -> None:
        self.look()

    def shuffled(self, zone) -> None:
        self.look()

    def shown(self, cards: list) -> None:
        for seen in self.seen:
            seen.update(card.id for card in cards)


def in_view(game: Game, seat: int) -> set[str]:
    """The names of the cards the seat's view shows (Game.view: the zones it sees, the top of a `top` one)."""
    view = game.view(seat)
    own = [zone.name for zone in game.program.zones if zone.per_player]
    shown = list(view["zones"].values()) + [p[name] for p in view["players"] for name in own]
    return {name for value in shown for name in (value if isinstance(value, list) else [value.get("top")]
                                                 if isinstance(value, dict) else []) if name is not None}


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_knows_what_it_sees_and_only_what_is_true_and_what_it_saw(name):
    program = shipped_program(name)
    for seed in range(2):
        game = Game(program, seed)
        seats = range(program.players[2])
        knowledge = [Knowledge(game, seat) for seat in seats]
        sightings = Sightings(game)
        game.start()
        agent = RandomAgent(seed)
        while not game.over and game.decisions < 250:
            game.apply(agent.choose(game.decision()))
            names = {card.id: card.name for card in game.memory.where}
            for seat in seats:
                assert_true_of_the_game(game, knowledge[seat])
                placed = set(knowledge[seat].known) | set(knowledge[seat].confined)
                assert placed <= sightings.seen[seat]
                assert in_view(game, seat) <= {names[card] for card in knowledge[seat].known}


def looks_alike(games: list[Game], heard: list[list], seat: int) -> bool:
    """Whether the seat has seen the same in both games: its view now, and everything told to the table."""
    return games[0].view(seat) == games[1].view(seat) and heard[0] == heard[1]


def twin_choice(games: list[Game], option, seat: int, rng: random.Random, same: float):
    """The option of the second game that the seat cannot tell from `option` in the first (its own: the same; the
    others': one the table hears the same of, often another), or None."""
    first, second = games[0].decision(), games[1].decision()
    if first.player == seat:
        return next((o for o in second.options if o.key == option.key), None)
    mover = [game.memory.players[first.player] for game in games]
    told = games[0].public_text(mover[0], option)
    alike = [o for o in second.options if games[1].public_text(mover[1], o) == told]
    kept = [o for o in alike if o.key == option.key]
    return kept[0] if kept and rng.random() < same else rng.choice(alike) if alike else None


def knowledge_state(knowledge: Knowledge) -> tuple:
    return knowledge.known, knowledge.confined, knowledge.excluded


def world_summary(world: Game) -> tuple:
    """A world as the seat could compare two: each zone's cards, and the cards the hidden variables name."""
    memory = world.memory
    return ([sorted(card.id for card in zone) for zone in memory.zones],
            [[card.id for card in cards_in(memory.vars[name])] for name in secret_names(world)])


@pytest.mark.parametrize("name", ["cheat", "hearts", "mus", pytest.param("chinchon", marks=pytest.mark.slow),
                                  pytest.param("president", marks=pytest.mark.slow)])
def test_games_a_seat_cannot_tell_apart_give_it_the_same_knowledge_and_worlds(name):
    """Two games played alike but for choices made where the seat cannot see them (the cards of a claim, of a
    pass, put face down): until it sees a difference, its knowledge and its worlds are the same."""
    program = shipped_program(name)
    compared = 0
    for seed in range(20):
        seat = seed % program.players[2]
        rng = random.Random(seed)
        games = [Game(program, seed), Game(program, seed)]
        heard: list[list] = [[], []]
        for game, told in zip(games, heard):
            game.observers.append(told.append)
        knowledge = [Knowledge(game, seat) for game in games]
        for game in games:
            game.start()
        while not games[0].over and games[0].decisions < 200 and looks_alike(games, heard, seat):
            assert knowledge_state(knowledge[0]) == knowledge_state(knowledge[1])
            if games[0].decision().player == seat:
                for r in range(2):
                    worlds = [k.world(random.Random(r)) for k in knowledge]
                    assert world_summary(worlds[0]) == world_summary(worlds[1])
                compared += 1
            option = rng.choice(games[0].decision().options)
            twin = twin_choice(games, option, seat, rng, same=0.9)  # (mostly alike: a difference seen ends it)
            if twin is None:
                break
            games[0].apply(option)
            games[1].apply(twin)
    assert compared > 40
