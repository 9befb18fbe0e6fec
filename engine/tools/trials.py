"""What `naipes check` finds past loading: a few games played to their end, and what a file leaves unsaid.

A rule file can load and still fail in play (a rule that reads what no rule has set yet, a game that never
ends), leave the bridges without a fixed action space, or give search an `evaluation` that leads it astray.
The first two take a fraction of a second; the last plays whole games with a search (`check --search N`).
Every trial is played from a seed, so a finding can be replayed (`naipes play FILE --seat random ... --seed N`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..agents.registry import RandomAgent, make_agent
from ..errors import NaipesError
from ..program import Program
from ..runtime.game import Agent, Decision, play_game
from .seating import agent_seed
from .statistics import mean_interval

# the search's budget in the trial of an evaluation: enough to prefer what the evaluation rewards (a reversed
# Hearts evaluation loses clearly in 8 games), small enough for seconds a game
SEARCH_TRIAL = "ismcts:iterations=40"


@dataclass
class Findings:
    """Errors (the file fails in play) and warnings (it works, but something is likely unmeant)."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def moves_without_space(program: Program) -> list[str]:
    """A warning per move, or part of a compound move, that takes an argument but whose arguments cannot be listed
    before a game: the OpenSpiel and PettingZoo bridges number every move's arguments once, from its `space:`."""
    unnumbered = [move.name for move in program.moves.values() if move.arg is not None and move.space is None]
    unnumbered += [part.key for move in program.moves.values() for part in move.parts if part.space is None]
    return [f"move '{name}' has no 'space:' and its 'choose' reads the game: the OpenSpiel and PettingZoo bridges "
            f"cannot number its arguments (declare every argument it can ever offer, e.g. space: \"all_cards()\")"
            for name in unnumbered]


def random_games(program: Program, games: int, seed: int, options: str = "") -> Findings:
    """`games` games of random players from `seed` on: an error for the first that fails, a warning per game cut
    off at the decision limit. Each is played as `naipes play` plays it, heard and shown (what is announced, every
    view a seat is shown, made as at the table: a mistake there fails the game), its random players seeded as
    `naipes play --seed N --seat random --opponents random OPTIONS` seeds them, so that command replays it. The
    games go through the numbers of players the file seats in turn, its default first (a table of another size
    is as much the file's)."""
    found = Findings()
    low, high, default = program.players
    counts = [default, *(count for count in range(low, high + 1) if count != default)]
    leaks = Leaks(program)
    for i, game_seed in enumerate(range(seed, seed + games)):
        players = counts[i % len(counts)]
        agents: list[Agent] = [RandomAgent(agent_seed(game_seed, seat)) for seat in range(players)]
        table = f"{players} players, " if players != default else ""
        try:
            result = play_game(program, agents, game_seed, listeners=[_unheard], on_decision=leaks.asked)
        except NaipesError as error:
            seated = f" --players {players}" if players != default else ""
            found.errors.append(f"{error}\n    (in a game of {table}random players from seed {game_seed}: naipes play "
                                f"{program.path} --seed {game_seed}{seated} --seat random --opponents random"
                                f"{options} replays it)")
            return found
        if result.cut_off is not None:
            found.warnings.append(f"a game of {table}random players from seed {game_seed} did not end: "
                                  f"{result.cut_off}")
    found.warnings += leaks.found.values()
    return found


def _unheard(record: dict) -> None:
    """A listener that ignores what it hears (the game makes its records and announcements for it)."""


class Leaks:
    """Moves that tell the other players a card they cannot see: a move without `public:` is told as its label
    reads ("bury 4"), and a label that names a card taken from a hand and put where the others cannot see it
    gives it away. Watched in the check's random games, around each move's effect: a card the move takes as its
    argument and its public text names (by its name, as a word) that another seat saw neither before the effect
    nor after it."""

    def __init__(self, program: Program):
        self.program = program
        self.found: dict[str, str] = {}  # move -> its warning
        self.game: Any = None  # the game watched
        self.named: list[tuple[Any, set[int]]] = []  # before the effect: each card named, the seats not seeing it
        self.told = ""  # the public text of the move under way

    def asked(self, decision: Decision) -> None:
        """play_game's on_decision: the view built as the table builds it for the seat asked (views, labels: a
        mistake there fails the game), and a new game watched."""
        decision.view  # noqa: B018
        if decision.game is not self.game:
            self.game = decision.game
            self.game.before_move.append(self.before)
            self.game.after_move.append(self.after)

    def before(self, game: Any, player: Any, option: Any) -> None:
        """Before a move's effect (Game.before_move): the cards its public text names, and who does not see them."""
        spec = self.program.moves.get(option.move)
        self.named = []
        if spec is None or spec.public is not None or option.move in self.found:
            return
        told, memory = game.public_text(player, option), game.memory
        others = [seat for seat in range(len(memory.players)) if seat != player.index]
        chosen = option.arg if type(option.arg) in (list, tuple) else [option.arg]  # (a zone is a list: one value)
        for card in chosen:
            if card in memory.where and re.search(rf"(?<!\w){re.escape(str(card.name))}(?!\w)", told):
                self.named.append((card, {seat for seat in others if not memory.shows(card, seat)}))
        self.told = told

    def after(self, game: Any, player: Any, option: Any) -> None:
        """After it (Game.after_move): a card named that a seat saw neither before nor now is a warning."""
        memory = game.memory
        for card, unseen in self.named:
            blind = [seat for seat in unseen if card in memory.where and not memory.shows(card, seat)]
            if blind:
                self.found[option.move] = (
                    f"move '{option.move}' tells every player '{self.told}' (it has no 'public:', so the others read "
                    f"its label), naming {card.name}, which {memory.players[blind[0]].name} does not see: write "
                    f"'public:' (an empty text, public: \"''\", tells them nothing)")
                break
        self.named = []


def search_against_random(program: Program, games: int, seed: int) -> str | None:
    """A warning when search guided by the file's `evaluation` scores less than random play in the same games.

    Game i puts the search in seat i (mod the players) and random players elsewhere; the same game is played
    again with a random player in that seat. Whole games, measured by their payoffs: an evaluation is a proxy
    for the result, and one that rewards the wrong thing (a sign turned, a score read from the wrong player)
    makes search play worse than chance though it gains by its own measure. The warning needs the search
    clearly worse: the 95 % interval of its mean difference from random play below 0 (a few games can
    mislead)."""
    if program.evaluation is None or games <= 0:
        return None
    players, differences = program.players[2], []
    for game_seed in range(seed, seed + games):
        seat = (game_seed - seed) % players
        agents: list[Agent] = [RandomAgent(game_seed * 31 + s) for s in range(players)]
        agents[seat] = make_agent(SEARCH_TRIAL, game_seed, program)
        mine = play_game(program, agents, game_seed).payoffs[seat]
        agents = [RandomAgent(game_seed * 31 + s) for s in range(players)]
        theirs = play_game(program, agents, game_seed).payoffs[seat]
        differences.append(mine - theirs)
    mean, low, high = mean_interval(differences)
    if high >= 0:
        return None
    return (f"search guided by 'evaluation' ({SEARCH_TRIAL}) scored {mean:+.3g} a game against random play in "
            f"the same deals and seats (95 % interval {low:+.3g} to {high:+.3g}, {games} games): check that the "
            f"evaluation rises as a player's standing improves, for the player it is asked about")
