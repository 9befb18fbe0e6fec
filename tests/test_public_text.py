"""What the other players are told never names a card hidden from one of them.

Every shipped rule file is played (random seats and its strategy files, a few
seeds each, with the agents and params of the golden set) while a watcher reads
what a game's observers receive: each move as the others see it (the "choice"
of a decision record, the move's ``public:`` form) and each announcement. A
card named there must be in public view (in a ``public`` zone, or the top card
of a ``top`` zone) just before or just after the action that tells it: a move
may name the card it turns face up (a discard, a card played), and a rule may
name the cards it gathers face down (the trick it gives to its winner). Which
cards are in view comes from the zones the rule file declares, nothing else;
card names are the deck's own.

A rule file that shows hidden cards at the end of a hand (Chinchón's count
shows each hand) must first move them to a public zone, so that the text and
the table agree.
"""
from __future__ import annotations

import contextlib
import re
import sys
from pathlib import Path

import pytest

from naipes.library.builtins import DECK
from naipes.runtime.game import Game, play_game

GOLDEN = Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN))
import record  # noqa: E402  (the agents and params each rule file is played with)

from helpers import RULESETS  # noqa: E402

SEEDS = (0, 1, 2)  # seed 3 would seat an ISMCTS agent in some files (slow, and nothing new here)
MOVES_PER_GAME = 600
WORD = re.compile(r"[^\s\[\](),;:+*'\"!?]+")


class HiddenCardWatch:
    """Reads a game's public records and notes every card name told while it is out of public view.

    ``watch = HiddenCardWatch(game)`` before the game starts; afterwards ``watch.faults`` lists
    each offending text with the hidden cards it named (``'P1 close with 12c: 12c'``).
    """

    def __init__(self, game: Game):
        self.game = game
        self.names = {card.name for card in game.memory.vars[DECK]}
        self.faults: list[str] = []
        self.told = 0  # texts that named a card
        self._before: set[str] = set()  # in view before the last action (a move, a rule firing)
        self._move: tuple | None = None
        game.listeners.append(self.action)  # rule firings are announced to listeners before they happen
        game.observers.append(self.observe)
        game.after_move.append(self.moved)

    def in_view(self) -> set[str]:
        """The names of the cards every player sees now."""
        seen = set()
        for zone in self.game.memory.zones:
            visibility = zone.spec.visibility
            if visibility == "public":
                seen.update(card.name for card in zone)
            elif visibility == "top" and zone:
                seen.add(zone[-1].name)
        return seen

    def named(self, text: str) -> set[str]:
        return {word for word in WORD.findall(text) if word in self.names}

    def action(self, record: dict) -> None:
        if record["type"] in ("fire", "step"):
            self._before = self.in_view()

    def observe(self, record: dict) -> None:
        if record["type"] == "decision":
            self._move = (f"{record['player']} {record['choice']}", self.named(record["choice"]), self.in_view())
        elif record["type"] == "announce":
            self._check(record["text"], self.named(record["text"]), self._before | self.in_view())

    def moved(self, game: Game, player, option) -> None:
        """After a move's effect: a card it named is fine if it was in view before or is now."""
        text, named, before = self._move
        self._check(text, named, before | self.in_view())
        self._before = self.in_view()

    def _check(self, text: str, named: set[str], in_view: set[str]) -> None:
        self.told += bool(named)
        hidden = named - in_view
        if hidden:
            self.faults.append(f"{text}: {' '.join(sorted(hidden))}")


def play_watched(name: str, seed: int) -> HiddenCardWatch:
    """One game of the golden set's rule file `name`, at most MOVES_PER_GAME decisions, watched."""
    config = record.CONFIGS[name]
    program = record.program_of(name)
    count = config.get("players") or program.players[2]
    seats = record.seats_for(name, seed, count)
    agents = [record.agent(name, spec, seed * 1009 + i) for i, spec in enumerate(seats)]
    game = Game(program, seed, players=count)
    watch = HiddenCardWatch(game)
    decisions = [0]

    class Enough(Exception):
        pass

    def stop_after(record_: dict) -> None:
        if record_["type"] == "decision":
            decisions[0] += 1
            if decisions[0] > MOVES_PER_GAME:
                raise Enough

    game.listeners.append(stop_after)
    with contextlib.suppress(Enough):
        play_game(program, agents, seed, game=game)
    return watch


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(record.CONFIGS))
def test_no_public_text_names_a_hidden_card(name):
    faults, told = [], 0
    for seed in SEEDS:
        watch = play_watched(name, seed)
        faults += [f"seed {seed}: {fault}" for fault in watch.faults]
        told += watch.told
    assert not faults, "\n".join(faults[:10])
    program = record.program_of(name)
    if any(zone.visibility != "public" for zone in program.zones):
        assert told > 0, "the games named no card at all: the watcher read nothing"


@pytest.mark.slow
@pytest.mark.parametrize("leak, told", [
    ("    public: \"'close'\"\n", " close with "),  # the close names the card put face down
    # the count tells the hands held
    ("            for p in players:\n                move p.hand to laid\n", " counts "),
])
def test_the_watcher_sees_a_hidden_card_named(tmp_path, leak, told):
    # Chinchón without what keeps its public texts to cards in view
    from naipes import load_program
    from naipes.agents.registry import make_agent
    rules = (RULESETS / "chinchon.yaml").read_text(encoding="utf-8")
    assert rules.count(leak) == 1
    leaky = tmp_path / "chinchon.yaml"
    leaky.write_text(rules.replace(leak, ""), encoding="utf-8")
    program = load_program(leaky, {"target": "40"})
    for seed in range(2):  # each game up to its first count
        game = Game(program, seed, players=2)
        watch = HiddenCardWatch(game)
        game.keep_history()
        agents = [make_agent("seed", seed=seed + i, program=program) for i in range(2)]
        game.start()
        while not any(" counts " in text for text in game.history):
            game.apply(agents[game.to_move.index].choose(game.decision()))
        assert watch.faults and all(told in fault for fault in watch.faults), watch.faults
