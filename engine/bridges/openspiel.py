"""Any rule file as an OpenSpiel game (``pip install 'naipes[openspiel]'``).

:func:`register` makes a rule file a ``pyspiel`` Python game named
``naipes_<file stem>`` (``rulesets/pocha.yaml`` is ``naipes_pocha``); its game
parameters are the rule file's params plus ``players`` and ``seed``, and
``min_utility``, ``max_utility``, ``max_game_length``: bounds OpenSpiel wants
that a rule file does not state (the payoffs of a rule file without
``result:`` are 0 and 1; otherwise the defaults are wide, narrow them if an
algorithm needs it).

* Actions are :class:`naipes.bridges.actions.ActionSpace` ids.
* Every shuffle is a run of chance nodes, one card at a time from the top of
  the shuffled pile, each remaining card equally likely (:mod:`naipes.bridges.chance`);
  a chance outcome is a card id. Other randomness of a rule file (random
  seats, a generated deck) comes from the game's seeded generator: ``seed``.
* Observation and information-state tensors are
  :class:`naipes.bridges.observations.ObservationEncoder` vectors; the observation
  string is the seat's view (JSON), the information-state string adds the
  public record as the seat saw it (perfect recall).
* ``resample_from_infostate`` deals the cards the player cannot place again,
  consistently with what it has seen and deduced (:class:`naipes.agents.knowledge.Knowledge`).

>>> import pyspiel
>>> name = register("rulesets/fichas.yaml")
>>> game = pyspiel.load_game(name, {"colours": 2, "values": 2})
>>> game.num_distinct_actions(), game.num_players()
(4, 2)
"""
from __future__ import annotations

import json
import random
from functools import cached_property
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
from .actions import ActionSpace
from .chance import ChanceGame, Record
from .observations import ObservationEncoder

PREFIX = "naipes_"

BRIDGE_PARAMS = {"players", "seed", "min_utility", "max_utility", "max_game_length"}
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
            "min_utility": 0.0 if program.result is None else -1e6,
            "max_utility": 1.0 if program.result is None else 1e6, "max_game_length": 100_000}
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"Naipes: {program.title}", dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if program.cards is not None
        else pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION if program.perfect_information
        else pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=program.players[1], min_num_players=program.players[0],
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True, parameter_specification=spec)
    # a class per rule file (OpenSpiel keeps the creator until the interpreter exits)
    game_class = type(f"NaipesGame_{path.stem}", (NaipesGame,), {"game_type": game_type, "path": path})
    pyspiel.register_game(game_type, game_class)
    _registered[name] = path
    return name


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


class NaipesGame(pyspiel.Game):
    """A rule file with its params, as an OpenSpiel game."""

    game_type: Any  # set per rule file by register()
    path: Path

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        rule_params = {k: str(v).lower() if isinstance(v, bool) else str(v)
                       for k, v in params.items() if k not in BRIDGE_PARAMS}
        self.program: Program = load_program(self.path, rule_params)
        self.seed = int(params.get("seed", 0))
        players = int(params.get("players", self.program.players[2]))
        if not self.program.players[0] <= players <= self.program.players[1]:
            raise ParamError(f"{self.program.name} is for {self.program.players[0]} to {self.program.players[1]} "
                             f"players, not {players}")
        self.actions = ActionSpace(self.program, players)
        self.deck = new_memory(self.program, self.seed, None, players).vars.get(DECK, ())
        info = pyspiel.GameInfo(num_distinct_actions=self.actions.size, max_chance_outcomes=len(self.deck),
                                num_players=players, min_utility=float(params["min_utility"]),
                                max_utility=float(params["max_utility"]), utility_sum=None,
                                max_game_length=int(params["max_game_length"]))
        super().__init__(self.game_type, info, params)

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
        table = self.table
        if table.chance_pending:
            table.deal(action)
        else:
            table.apply(self.get_game().actions.option(table.game, action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            deck = self.get_game().deck
            return f"deal {deck[action].name}" if 0 <= action < len(deck) else f"deal card {action}"
        return self.get_game().actions.describe(action)

    def is_terminal(self) -> bool:
        return self.table.game.over and not self.table.chance_pending

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.get_game().num_players()
        return [float(x) for x in self.table.game.payoffs()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> NaipesState:
        """A state the player cannot tell from this one: the cards it cannot place dealt again."""
        state = self.get_game().new_initial_state()
        state._table = self.table.resample(player_id, random.Random(probability_sampler()))
        return state

    def __str__(self) -> str:
        """The whole state, hidden cards included (for debugging; OpenSpiel compares it between clones)."""
        table = self.table
        return f"{table.game.memory.key()!r} chance: {table.chance_cards()}"


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
        view = json.dumps(jsonable(table.game.view(player)), ensure_ascii=False, sort_keys=True)
        if not self.recall:
            return view
        return "\n".join([f"seat P{player + 1}", view] + table.history_for(player))
