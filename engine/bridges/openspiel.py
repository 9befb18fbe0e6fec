"""Any rule file as an OpenSpiel game (``pip install 'naipes[openspiel]'``).

:func:`register` makes a rule file a ``pyspiel`` Python game named
``naipes_<file stem>`` (``rulesets/pocha.yaml`` is ``naipes_pocha``); its game
parameters are the rule file's params plus ``players``, ``seed`` and ``explore``.

* Actions are :class:`naipes.bridges.actions.ActionSpace` ids; each action's string is unique (copies of a card
  are numbered: ``discard joker #2``).
* Chance nodes are where information appears (:mod:`naipes.bridges.chance`): a shuffle is no chance event; each
  card of it that somebody can see (dealt into a hand, turned up) is one, when it is seen, uniform over the cards
  of the shuffle not seen yet (the distribution a shuffle gives); cards nobody has seen (a stock) stay undecided
  until they are. A chance outcome is a card id. Other randomness of a rule file (random seats, a generated
  deck) comes from the game's seeded generator: ``seed``.
* The game type and bounds come from the rule file (:mod:`naipes.bridges.outcomes`): when every line of the game
  can be played out (at most ``explore`` positions, 50,000 by default; 0: never), the chance mode (deterministic
  when no line meets a chance event), the utility (zero-sum when the payoffs always add up to 0; constant-sum
  payoffs are presented as zero-sum, each less its share of the constant: the chip game's winner gets 0.5, the
  loser -0.5), the exact least and greatest payoffs and the longest game are those of the lines played. Otherwise
  the game is deterministic when the rule file never shuffles, general-sum, its payoffs between 0 and 1 without
  ``result:`` (else within +-1e6), and no longer than its ``max_decisions``.
* Observation and information-state tensors are
  :class:`naipes.bridges.observations.ObservationEncoder` vectors; the observation
  string is the seat's view (JSON), the information-state string adds the
  public record as the seat saw it (perfect recall).
* ``resample_from_infostate`` deals the cards the player cannot place again,
  consistently with what it has seen and deduced (:class:`naipes.agents.knowledge.Knowledge`).
* States save and load: ``state.serialize()``, ``pyspiel.serialize_game_and_state`` (loading needs the rule file
  registered in that process: :func:`register`, or :func:`register_all` for the shipped ones) and ``pickle``, of
  games and of states (a state is kept as its rule file, params and actions, and played again when loaded).

>>> import pyspiel
>>> from naipes.language.shipped import ruleset_path
>>> name = register(ruleset_path("fichas"))  # the shipped chip game; any rule file's path will do
>>> game = pyspiel.load_game(name, {"colours": 2, "values": 2})
>>> game.num_distinct_actions(), game.num_players(), game.get_type().utility
(4, 2, <Utility.ZERO_SUM: 0>)
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from ..agents.knowledge import Knowledge
from ..errors import NaipesError, ParamError
from ..language.builder import load_program
from ..language.shipped import RULESETS as SHIPPED_RULESETS
from ..library.builtins import DECK
from ..program import Program
from ..runtime.game import jsonable
from ..runtime.memory import new_memory
from .actions import ActionSpace, told_apart
from .chance import ChanceGame, Record, cached_program
from .observations import ObservationEncoder
from .outcomes import LIMIT, Outcomes, explore

PREFIX = "naipes_"

BRIDGE_PARAMS = {"players", "seed", "explore"}
WIDE = 1e6  # the payoff bound of a rule file with a result whose bounds were not found
MEMO = 200_000  # the most states a game played out whole keeps (its tree's lines, which algorithms walk again)
_registered: dict[str, Path] = {}


def game_name(path: str | Path) -> str:
    """The OpenSpiel name of a rule file: ``naipes_`` and its file name without ``.yaml``."""
    return PREFIX + Path(path).stem


def register(path: str | Path) -> str:
    """Register a rule file with OpenSpiel (once); returns its game name."""
    path = Path(path).resolve()
    name = game_name(path)
    if name in _registered:
        if _registered[name] != path:
            raise NaipesError(f"{name} is already registered for {_registered[name]}")
        return name
    program = load_program(path)
    clash = BRIDGE_PARAMS & set(program.params)
    if clash:
        raise NaipesError(f"{path}: params {', '.join(sorted(clash))} clash with the OpenSpiel bridge's own")
    spec = {**{p.name: p.default for p in program.params.values()}, "players": program.players[2], "seed": 0,
            "explore": LIMIT}
    game_type = _game_type(name, program, spec, shuffles(program), pyspiel.GameType.Utility.GENERAL_SUM)
    # a class per rule file (OpenSpiel keeps the creator until the interpreter exits)
    game_class = type(f"NaipesGame_{path.stem}", (NaipesGame,), {"registered_type": game_type, "path": path})
    pyspiel.register_game(game_type, game_class)
    _registered[name] = path
    return name


def _game_type(name: str, program: Program, spec: dict, chance: bool, utility: Any) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=name, long_name=f"Naipes: {program.title}", dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance
        else pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION if program.perfect_information
        else pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=program.players[1], min_num_players=program.players[0],
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True, parameter_specification=spec)


def shuffles(program: Program) -> bool:
    """Whether the rule file's code can shuffle a zone (else nothing in its games is left to chance)."""
    return bool(program.facts.shuffles)


def register_all(folder: str | Path = SHIPPED_RULESETS) -> list[str]:
    """Register every rule file of a folder (by default the shipped rulesets/); returns their names."""
    return [register(path) for path in sorted(Path(folder).glob("*.yaml"))]


def load_game(ruleset: str | Path, params: dict[str, Any] | None = None) -> NaipesGame:
    """A rule file (a path, or a name in rulesets/) as a loaded OpenSpiel game, with Naipes's own errors:
    an unknown rule file or param, or a value of the wrong type, is a ParamError naming it."""
    path = Path(ruleset)
    if not path.exists():
        path = SHIPPED_RULESETS / f"{str(ruleset).removeprefix(PREFIX)}.yaml"
    if not path.exists():
        known = ", ".join(game_name(p) for p in sorted(SHIPPED_RULESETS.glob("*.yaml")))
        raise ParamError(f"no rule file '{ruleset}' (known: {known})")
    name = register(path)
    params = dict(params or {})
    spec = _parameter_spec(name)
    for key, value in params.items():
        if key not in spec:
            raise ParamError(f"unknown param '{key}' of {name} (params: {', '.join(sorted(spec))})")
        expected = type(spec[key])
        if not isinstance(value, expected) or isinstance(value, bool) != isinstance(spec[key], bool):
            raise ParamError(f"param '{key}' of {name} is {expected.__name__}; {value!r} is not")
    return pyspiel.load_game(name, params)


def _parameter_spec(name: str) -> dict[str, Any]:
    return next(t.parameter_specification for t in pyspiel.registered_games() if t.short_name == name)


def _loaded(path: str, params: dict[str, Any]) -> NaipesGame:
    """A pickled game loaded again (its rule file registered first)."""
    return pyspiel.load_game(register(path), params)


@lru_cache(maxsize=64)
def _outcomes(path: str, overrides: tuple, seed: int, players: int, limit: int) -> Outcomes | None:
    """Every line of a game played out, once per process for a rule file, its params, seed and players."""
    program = cached_program(path, overrides)
    return explore(ChanceGame(program, seed, players), limit) if limit > 0 else None


@dataclass(frozen=True)
class _Facts:
    """What OpenSpiel is told about a game: its chance mode and utility, the amount taken from each payoff (a
    share of a constant sum), the least and greatest return and the longest game."""

    chance: bool
    utility: Any
    shift: float
    low: float
    high: float
    longest: int


def _facts(program: Program, found: Outcomes | None, players: int) -> _Facts:
    """The facts of every line played out (`found`), else those the rule file states."""
    if found is None:
        low, high = (0.0, 1.0) if program.result is None else (-WIDE, WIDE)
        return _Facts(shuffles(program), pyspiel.GameType.Utility.GENERAL_SUM, 0.0, low, high, program.max_decisions)
    # payoffs that always add up to the same total are shown less each player's share of it: zero-sum
    shift = found.total / players if found.total is not None else 0.0
    utility = pyspiel.GameType.Utility.GENERAL_SUM if found.total is None else pyspiel.GameType.Utility.ZERO_SUM
    low, high = float(found.low - shift), float(found.high - shift)
    if low == high:  # (OpenSpiel wants low < high)
        low, high = low - 1.0, high + 1.0
    return _Facts(found.chance, utility, shift, low, high, found.longest)


class NaipesGame(pyspiel.Game):
    """A rule file with its params, as an OpenSpiel game."""

    registered_type: Any  # set per rule file by register()
    path: Path

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        rule_params = {k: str(v).lower() if isinstance(v, bool) else str(v)
                       for k, v in params.items() if k not in BRIDGE_PARAMS}
        self.program: Program = cached_program(str(self.path), tuple(sorted(rule_params.items())))
        self.seed = int(params.get("seed", 0))
        players = int(params.get("players", self.program.players[2]))
        if not self.program.players[0] <= players <= self.program.players[1]:
            raise ParamError(f"{self.program.name} is for {self.program.players[0]} to {self.program.players[1]} "
                             f"players, not {players}")
        self.actions = ActionSpace(self.program, players)
        deck = new_memory(self.program, self.seed, None, players).vars.get(DECK, ())
        self.card_names = told_apart([card.name for card in deck])
        found = _outcomes(str(self.path), tuple(sorted(rule_params.items())), self.seed, players,
                          int(params.get("explore", LIMIT)))
        facts = _facts(self.program, found, players)
        self.shift = facts.shift
        info = pyspiel.GameInfo(num_distinct_actions=self.actions.size,
                                max_chance_outcomes=len(deck) if facts.chance else 0, num_players=players,
                                min_utility=facts.low, max_utility=facts.high,
                                utility_sum=0.0 if facts.utility == pyspiel.GameType.Utility.ZERO_SUM else None,
                                max_game_length=facts.longest)
        game_type = _game_type(self.registered_type.short_name, self.program,
                               self.registered_type.parameter_specification, facts.chance, facts.utility)
        super().__init__(game_type, info, params)
        # a game small enough to play out whole keeps every state it reaches, by the actions that lead there:
        # algorithms that walk the tree again and again (CFR) then run each step of it once
        self.memo: dict[tuple, ChanceGame] | None = {} if found is not None else None

    def __reduce__(self) -> tuple:
        """Pickled as its rule file and params (loading registers the rule file)."""
        return _loaded, (str(self.path), self.get_parameters())

    @cached_property
    def start(self) -> ChanceGame:
        """The game before anything happened (every new state starts from a copy)."""
        return ChanceGame(self.program, self.seed, self.num_players())

    def new_initial_state(self) -> NaipesState:
        return NaipesState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> NaipesObserver:
        if params:
            raise ParamError(f"the observer takes no params, got {params}")
        recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        return NaipesObserver(ObservationEncoder(self.program, self.num_players(), recall), recall)


class NaipesState(pyspiel.State):
    """A state of a Naipes game: a :class:`ChanceGame` (copied on clone)."""

    def __init__(self, game: NaipesGame):
        super().__init__(game)
        self._table: ChanceGame | None = None  # built on first use: OpenSpiel's clone replaces it

    @property
    def table(self) -> ChanceGame:
        if self._table is None:
            self._table = self.get_game().start.clone()
        return self._table

    def current_player(self) -> int:
        table = self.table
        if table.chance_pending:
            return pyspiel.PlayerId.CHANCE
        if table.game.over:
            return pyspiel.PlayerId.TERMINAL
        return table.game.mover.index

    def _legal_actions(self, player: int) -> list[int]:
        return self.get_game().actions.legal_ids(self.table.game)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = self.table.chance_cards()
        return [(card, 1.0 / len(cards)) for card in cards]

    def _apply_action(self, action: int) -> None:
        table, game = self.table, self.get_game()
        key = (tuple(table.path), action) if game.memo is not None and table.path is not None else None
        after = game.memo.get(key) if game.memo is not None and key is not None else None
        if after is not None:
            self._table = after.clone()
            return
        if table.chance_pending:
            table.deal(action)
        else:
            table.apply(game.actions.option(table.game, action))
        if game.memo is not None and key is not None and len(game.memo) < MEMO:
            game.memo[key] = table.clone()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            names = self.get_game().card_names
            return f"deal {names[action]}" if 0 <= action < len(names) else f"deal card {action}"
        return self.get_game().actions.describe(action)

    def is_terminal(self) -> bool:
        return self.table.game.over and not self.table.chance_pending

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.get_game().num_players()
        views = self.table.now.views  # (kept with the position, which copies of the state share)
        returns = views.get("returns")
        if returns is None:
            shift = self.get_game().shift
            returns = views["returns"] = [float(x) - shift for x in self.table.game.payoffs()]
        return list(returns)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> NaipesState:
        """A state the player cannot tell from this one: the cards it cannot place dealt again."""
        state = self.get_game().new_initial_state()
        state._table = self.table.resample(player_id, probability_sampler())
        return state

    def __reduce__(self) -> tuple:
        """Pickled as its game and its serialisation (OpenSpiel's history, the bridge's path of actions)."""
        return _state_of, (self.get_game(), self.serialize())

    def __str__(self) -> str:
        """The whole state, hidden cards included (for debugging; OpenSpiel compares it between clones)."""
        return self.table.describe()


def _state_of(game: NaipesGame, serialized: str) -> NaipesState:
    """A pickled state loaded again."""
    return game.deserialize_state(serialized)


class SpielBotAgent:
    """An OpenSpiel bot in a Naipes seat (``play_game``, tournaments): at each decision the bot gets the game
    as it stands as a bridge state, and only what its seat may know (it resamples from its own knowledge).

    `make_bot(game, seed)` builds the bot for one game (a ``pyspiel.Bot``, e.g. OpenSpiel's ISMCTSBot).
    """

    def __init__(self, game: NaipesGame, make_bot: Any, name: str = "openspiel", seed: int = 0):
        self.spiel_game, self.make_bot, self.name, self.seed = game, make_bot, name, seed

    def reseed(self, seed: int) -> None:
        self.seed = seed

    def attach(self, game: Any, seat: int) -> None:
        self.knowledge = Knowledge(game, seat)
        self.records: list[Record] = []
        self.seats = {p.name: p.index for p in game.memory.players}
        self.bot = self.make_bot(self.spiel_game, self.seed)
        game.observers.append(self._observe)

    def _observe(self, record: dict) -> None:
        if record["type"] == "decision":
            self.records.append(Record(self.seats[record["player"]], record["choice"], record["choice"]))
        elif record["type"] == "announce":
            self.records.append(Record(None, record["text"], record["text"]))

    def choose(self, decision: Any) -> Any:
        state = self.spiel_game.new_initial_state()
        state._table = ChanceGame.around(decision.game, self.knowledge, self.records)
        return self.spiel_game.actions.option(decision.game, int(self.bot.step(state)))


class NaipesObserver:
    """OpenSpiel's Python observer protocol: `tensor`, `dict`, `set_from`, `string_from`."""

    def __init__(self, encoder: ObservationEncoder, recall: bool):
        self.encoder, self.recall = encoder, recall
        self._last: dict[int, tuple] = {}  # player -> (game, records, vector) of the last position encoded
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {name: self.tensor[encoder.offset(name):encoder.offset(name) + width]
                     for name, width in encoder.pieces}

    def set_from(self, state: NaipesState, player: int) -> None:
        table = state.table
        cached = self._last.get(player)
        if cached is not None and cached[0] is table.game and cached[1] == len(table.records):
            self.tensor[:] = cached[2]  # OpenSpiel asks again for the same position (chance nodes change no view)
            return
        played = [(r.mover, r.card) for r in table.records
                  if r.mover is not None and r.card is not None and player in r.seen_by]
        self.encoder.encode(table.game, player, played, out=self.tensor)
        self._last[player] = (table.game, len(table.records), self.tensor.copy())

    def string_from(self, state: NaipesState, player: int) -> str:
        table = state.table
        views = table.now.views  # (kept with the position, which copies of the state share)
        view = views.get(player)
        if view is None:
            view = views[player] = json.dumps(jsonable(table.game.view(player)), ensure_ascii=False, sort_keys=True)
        if not self.recall:
            return view
        return "\n".join([f"seat P{player + 1}", view] + table.history_for(player))
