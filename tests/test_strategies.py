"""Strategies (rule files over a seat's view) and the ISMCTS agent: the mechanics every AI relies on.

Every strategy file under strategies/ is played here: it must only play legal
moves, be reproducible from its seed, and decide the same whatever the cards
it cannot see are. The games' own strategy tests pin what each level chooses.
"""
import random
from functools import cache
from pathlib import Path

import pytest

from naipes import load_program
from naipes.agents.ismcts import ISMCTSAgent
from naipes.agents.knowledge import Knowledge
from naipes.agents.pimc import PIMCAgent
from naipes.agents.registry import RandomAgent, load_strategy, make_agent, strategy_agent
from naipes.agents.search import Solver
from naipes.agents.strategy import StrategyAgent
from naipes.errors import RuleError, RuleErrors
from naipes.language.builder import compile_expression
from naipes.language.strategies import Strategy, strategy_game, strategy_path
from naipes.runtime.game import Game
from naipes.tools.scenario import new_game

from helpers import RULESETS, STRATEGIES, blind_check, hide_differently, run, shipped, start_game
from helpers import shipped_program as program_for

STRATEGY_FILES = sorted(STRATEGIES.glob("*/*.yaml"))


def option_key(option) -> tuple:
    return option.key


@cache
def strategy_for(path: Path) -> Strategy:
    """The shipped strategy file at `path`, compiled once per test process against its game (seats share it, as the
    command's seats do, each agent with a memory of its own)."""
    return load_strategy(path, program_for(strategy_game(path)))


def agent_for(path: Path, seed: int) -> StrategyAgent:
    return strategy_agent(strategy_for(path), seed)


def table(path: Path, seed: int, mine: int = 0) -> list:
    """Seat 0 plays the strategy, the others random."""
    program = program_for(strategy_game(path))
    return [agent_for(path, seed) if i == mine else RandomAgent(seed * 10 + i) for i in range(program.players[2])]


@pytest.mark.slow
@pytest.mark.parametrize("path", STRATEGY_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_strategy_plays_only_legal_moves(path):
    program = program_for(strategy_game(path))
    for seed in range(3):
        run(Game(program, seed), table(path, seed), limit=250)


@pytest.mark.slow
@pytest.mark.parametrize("path", STRATEGY_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_strategy_is_reproducible_from_its_seed(path):
    program = program_for(strategy_game(path))
    first = run(Game(program, 4), table(path, 4), limit=120)
    again = run(Game(program, 4), table(path, 4), limit=120)
    assert first == again


@pytest.mark.slow
@pytest.mark.parametrize("path", STRATEGY_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_strategy_never_reads_what_its_view_hides(path):
    """The same decision when the cards it cannot see are elsewhere (same memory, same generator)."""
    program = program_for(strategy_game(path))
    rng = random.Random(0)
    compared = []

    def check(game, decision):
        if decision.player != 0 or len(decision.options) < 2:
            return
        agent = agents[0]
        twin = hide_differently(game, 0, knowledge, rng)
        memory, state = dict(agent.memory), agent.rng.getstate()
        option, rule = agent.decide(decision)
        agent.memory = memory
        agent.rng.setstate(state)
        agent.game = twin  # the same seat and memory, looking at the other arrangement
        again, rule_again = agent.decide(twin.decision())
        agent.game = game
        agent.memory = memory
        agent.rng.setstate(state)
        assert (option_key(option), rule) == (option_key(again), rule_again)
        compared.append(rule)

    for seed in range(2):
        agents = table(path, seed)
        game = Game(program, seed)
        knowledge = Knowledge(game, 0)
        run(game, agents, limit=80, check=check)
    assert compared  # the strategy had choices to make


@pytest.mark.slow
def test_ismcts_never_reads_what_its_view_hides():
    program = program_for("tute_cabrero")
    rng = random.Random(0)
    compared = []
    game = Game(program, 7)
    agents = [ISMCTSAgent(1, iterations=20), RandomAgent(2), RandomAgent(3)]
    check = blind_check(agents[0], compared, rng)

    run(game, agents, limit=60, check=check)
    assert len(compared) == 4


@pytest.mark.slow
def test_ismcts_plays_legal_reproducible_games_in_every_game():
    for name in ("tute_cabrero", "pocha", "wizard", "chinchon", "fichas"):
        program = program_for(name)
        seats = program.players[2]

        def agents(seats=seats):
            return [ISMCTSAgent(5, iterations=8, depth=40)] + [RandomAgent(i) for i in range(1, seats)]
        assert run(Game(program, 3), agents(), limit=40) == run(Game(program, 3), agents(), limit=40)


@pytest.mark.parametrize("offered", [
    [("play", [10, 11, 12])],
    [("play", [10, 11, 12]), ("sing", ["oros"])],
    [("sing", ["oros", "copas"]), ("close", [7]), ("play", [1, 2])],
    [("play", [1, 2]), ("play", [3])],  # a move asked twice: one kind
    [("play", [1, 2]), ("sing", ["oros"]), ("play", [3])],
])
def test_a_playout_draws_a_kind_of_move_then_one_of_its_arguments(offered):
    """The searcher's random playout (Game.play_out gives it each move's arguments, not options) first draws
    one of the kinds of move offered, by name, then one of that kind's arguments, so that a rare move (a song)
    is not drowned by a common one."""
    from naipes.agents.ismcts import _random_move
    for seed in range(40):
        rng = random.Random(seed)
        kinds = sorted({move for move, _ in offered})
        kind = rng.choice(kinds) if len(kinds) > 1 else kinds[0]
        expected = (kind, rng.choice([arg for move, args in offered if move == kind for arg in args]))
        assert _random_move(offered, random.Random(seed)) == expected


def test_a_searchers_move_in_a_world_that_others_hear_is_the_move_in_a_quiet_one():
    """The searcher moves in its worlds through Game.play_out, which makes no options; in a world someone hears,
    play_out makes no move, and the move is made through the options and `apply`: the same move."""
    from naipes.agents.ismcts import _step
    game = Game(program_for("tute_cabrero"), 4)
    game.start()
    quiet, heard = game.clone(), game.clone()
    heard.observers.append(lambda record: None)
    last = lambda offered: (offered[-1][0], offered[-1][1][-1])  # noqa: E731  (the last move's last argument)
    for _ in range(30):
        for world in (quiet, heard):
            _step(world, last)
    assert quiet.decisions == heard.decisions == game.decisions + 30
    assert repr(quiet.memory.vars) == repr(heard.memory.vars)
    assert [list(zone) for zone in quiet.memory.zones] == [list(zone) for zone in heard.memory.zones]


@pytest.mark.parametrize("game_name", ["tute_cabrero", "pocha"])
def test_a_playout_that_stops_early_in_the_scoring_sees_the_score_a_whole_scoring_gives(game_name):
    """A searcher's world stops once the scoring wrote what the evaluation reads and the steps left cannot write
    it again (gathering the cards, the next dealer: Memory.in_phase); the evaluation there is the one the
    whole scoring gives."""
    from naipes.agents.ismcts import _random_move, standing
    program = program_for(game_name)
    halted_some = 0
    for seed in range(6):
        game = Game(program, seed)
        game.start()
        standings = []
        for halting in (True, False):
            world, rng = game.clone(), random.Random(seed)
            world.pause_after(program.evaluation_reads)
            if not halting:
                world.memory.halt = None
            while not (world.paused or world.over):
                world.play_out(lambda offered, rng=rng: _random_move(offered, rng), 1000)
            halted_some += world.memory.halted
            standings.append((standing(world), world.decisions))
        assert standings[0] == standings[1]
    assert halted_some >= 5  # (a seed whose hand ends the match runs every step)


def test_ismcts_finds_the_winning_move_of_a_chip_game():
    game = new_game(str(RULESETS / "fichas.yaml"), {"chips": "R1 R2 B1 B3 G3"})
    winning = {option_key(o) for o in Solver().best(game.clone())}
    assert 0 < len(winning) < len(game.options())
    choices = {option_key(ISMCTSAgent(seed, iterations=400).choose(game.decision())) for seed in range(3)}
    assert choices <= winning


class _Counting:
    """A playout policy that counts the moves it has seen made, and notes that count and the game's at each choice."""

    def __init__(self, noted: list):
        self.strategy = type("Observes", (), {"observations": {"play": ()}})()  # (it observes moves)
        self.noted, self.seen = noted, 0

    def attach(self, game: Game, seat: int) -> None:
        self.seen = 0
        game.after_move.append(self.note_move)

    def note_move(self, game, player, option) -> None:
        self.seen += 1

    def choose(self, decision):
        self.noted.append((self.seen, decision.game.decisions))
        return decision.options[-1]

    def saved(self):  # (a search's undo takes back what it saw: Game.followers)
        return self.seen

    def restore(self, saved) -> None:
        self.seen = saved


def test_ismcts_playouts_are_played_by_each_seats_agent_remembering_what_it_saw():
    """`ismcts:policy=LEVEL` plays its playouts with the level's agent of each seat, as that agent followed the real
    game, then saw every move of the world (the tree's and the playout's), each once: its memory is not started
    again at each move, nor a move observed twice."""
    program = program_for("tute_cabrero")
    noted: list = []
    searcher = ISMCTSAgent(1, iterations=25, policy="counting", program=program,
                           make_policy=lambda spec, seed: _Counting(noted))
    agents = [searcher, RandomAgent(2), RandomAgent(3)]
    run(Game(program, 5), agents, limit=30)
    assert len(noted) > 500 and len({game for _, game in noted}) > 20
    assert all(seen == made for seen, made in noted)


def test_pimc_lines_are_played_on_by_agents_that_saw_every_move_of_them():
    """`pimc:policy=LEVEL` seats each seat's agent of the level where a world's search begins, not where a line
    is cut: at every choice of a line it has seen every move made, the searched moves too, each once, and the
    search's undo has taken back what it saw of the lines tried before."""
    program = program_for("tute_cabrero")
    noted: list = []
    searcher = PIMCAgent(1, worlds=3, nodes=0, policy="counting", infer="none", program=program,
                         make_policy=lambda spec, seed: _Counting(noted))
    run(Game(program, 5), [searcher, RandomAgent(2), RandomAgent(3)], limit=30)
    assert len(noted) > 500 and len({game for _, game in noted}) > 20
    assert all(seen == made for seen, made in noted)


def test_ismcts_plies_bound_how_deep_its_tree_grows():
    """`ismcts:plies=N`: no node of the tree lies more than N moves below the decision (1: a bandit over the
    decision's options, each scored by playouts); without it the tree grows deeper."""
    from naipes.agents.ismcts import _Node

    def deepest(node, below=0):
        return max((deepest(child, below + 1) for child in node.children.values()), default=below)

    program = program_for("tute_cabrero")
    game = Game(program, 5)
    game.start()
    def tree(**options):
        agent = ISMCTSAgent(3, iterations=400, program=program, **options)
        agent.attach(game, game.mover.index)
        root = _Node(game.mover.index)
        agent._scale = 1e-9
        agent._search(root, agent._deadline)
        assert sum(child.visits for child in root.children.values()) == 400
        return root

    assert [deepest(tree(plies=plies)) for plies in (1, 2)] == [1, 2]
    assert deepest(tree()) > 2


def test_ismcts_options_on_the_command_line():
    program = program_for("fichas")
    agent = make_agent("ismcts:iterations=7,exploration=1.5", seed=1, program=program)
    assert (agent.iterations, agent.exploration) == (7, 1.5)
    with pytest.raises(Exception, match="no option 'width'"):
        make_agent("ismcts:width=3", program=program)
    with pytest.raises(Exception, match="takes no options"):
        make_agent("random:x=1", program=program)
    with pytest.raises(Exception, match="option 'iterations' is given twice"):  # (not the last one silently)
        make_agent("ismcts:iterations=7,iterations=9", program=program)
    for spec in ("pimc:policy=nowhere", "pimc:infer=nowhere", "ismcts:infer=nowhere", "ismcts:policy=nowhere"):
        with pytest.raises(Exception, match="unknown agent 'nowhere'"):  # said when the seat is made, not later
            make_agent(spec, program=program)


# ------------------------------------------------------------ the language of strategies
GAME = """
game: duel
players: 2
cards: {attributes: {rank: [1, 2, 3, 4, 5]}, start: deck}
zones:
  deck: {visibility: hidden}
  hand: {per_player: true, visibility: owner, ordered: false}
  table: {}
state: {turn: "players[0]"}
phases: [deal, play]
functions:
  "high(xs)": "max(xs, key=lambda c: c.rank)"
moves:
  play: {choose: "c in player.hand", then: "move c to table\\nturn = next_player(player)"}
  pass_turn: {when: "len(table) > 2", then: "turn = next_player(player)"}
rules:
  - {name: deal, phase: deal, then: "shuffle deck\\ndeal 2 from deck to [p.hand for p in players]\\nphase = 'play'"}
  - {name: over, phase: play, priority: 1, when: "len(table) == 4", then: "end game winner players[0]"}
  - {name: ask, phase: play, when: "turn != None", then: "ask turn to play, pass_turn"}
"""


@pytest.fixture
def duel(tmp_path):
    (tmp_path / "duel.yaml").write_text(GAME)
    program = load_program(tmp_path / "duel.yaml")

    def strategy(name: str, text: str):
        (tmp_path / f"{name}.yaml").write_text(text)
        return load_strategy(tmp_path / f"{name}.yaml", program)
    return program, strategy


def decide(program, strategy, seed=0):
    game = Game(program, seed)
    game.start()
    return strategy_agent(strategy, seed).decide(game.decision()), game


def test_the_winning_rule_chooses_and_an_illegal_proposal_falls_through(duel):
    program, strategy = duel
    s = strategy("s", """
game: duel
rules:
  - {name: wants_a_card_it_lacks, priority: 5, move: play, choose: "len(options)"}
  - {name: highest, move: play, choose: "high(options)"}
  - {name: lowest, move: play, choose: "min(options, key=lambda c: c.rank)"}
""")
    (option, rule), game = decide(program, s)
    assert rule == "highest"
    assert option.arg.rank == max(c.rank for c in game.memory.players[0].hand)


def test_a_move_without_an_argument_is_chosen_by_a_true_choose(duel):
    program, strategy = duel
    rules = """
game: duel
rules:
  - {name: pass_when_offered, move: pass_turn, choose: %s}
"""
    game = Game(program, 0)
    game.start()
    for _ in range(3):  # (pass_turn is offered once three cards are on the table)
        game.apply(game.decision().options[0])
    decision = game.decision()
    assert {o.move for o in decision.options} == {"play", "pass_turn"}
    option, rule = strategy_agent(strategy("yes", rules % "yes"), 0).decide(decision)
    assert (option.move, rule) == ("pass_turn", "pass_when_offered")
    option, rule = strategy_agent(strategy("no", rules % '"len(options) > 5"'), 0).decide(decision)
    assert option.move == "play" and rule.startswith("default")


def test_levels_extend_override_and_remove(duel):
    program, strategy = duel
    strategy("base", """
game: duel
rules:
  - {name: lowest, move: play, choose: "min(options, key=lambda c: c.rank)"}
  - {name: never, priority: 9, move: play, when: "False", choose: "options[0]"}
""")
    higher = strategy("higher", """
game: duel
extends: base.yaml
override:
  - {name: lowest, move: play, choose: "high(options)"}
remove: [never]
rules:
  - {name: added, priority: -1, choose: "None"}
""")
    assert [r.name for r in higher.program.rules] == ["lowest", "added"]
    (option, rule), game = decide(program, higher)
    assert rule == "lowest" and option.arg.rank == max(c.rank for c in game.memory.players[0].hand)


def test_a_strategy_anywhere_extends_a_shipped_level_by_name(tmp_path):
    """`extends: baseline` in a strategy outside the repository is the game's shipped level, as `extends: pocha`
    in a rule file is the shipped game; a level beside the file comes first, a misspelt one is located."""
    program = program_for("pocha")
    mine = tmp_path / "mine.yaml"
    mine.write_text("game: pocha\nextends: baseline\nrules:\n  - {name: first_card, priority: 99, move: play, "
                    "choose: 'options[0]'}\n")
    baseline = load_strategy(str(STRATEGIES / "pocha" / "baseline.yaml"), program)
    levels = load_strategy(str(mine), program)
    assert [r.name for r in levels.program.rules] == [*(r.name for r in baseline.program.rules), "first_card"]
    (tmp_path / "baseline.yaml").write_text("game: pocha\nrules:\n  - {name: beside, move: play, "
                                            "choose: 'options[0]'}\n")
    assert [r.name for r in load_strategy(str(mine), program).program.rules] == ["beside", "first_card"]
    mine.write_text("game: pocha\nextends: stron\nrules:\n  - {name: x, move: play, choose: 'options[0]'}\n")
    with pytest.raises(RuleError) as caught:
        load_strategy(str(mine), program)
    assert caught.value.location.line == 2 and "'stron' not found" in str(caught.value)
    assert caught.value.hint == "did you mean 'strong'?"


def test_thinking_rules_and_observations_keep_a_private_memory(duel):
    program, strategy = duel
    s = strategy("s", """
game: duel
memory: {seen: "[]", decided: "0"}
rules:
  - {name: think, when: "decided == 0", then: "decided = len(me.hand)"}
  - {name: play_what_was_counted, move: play, when: "decided > 0",
     choose: "sorted(options, key=lambda c: c.rank)[min(decided, len(options)) - 1]"}
  - {name: remember, observe: play, then: "seen = seen + [c.rank if c != None else -1]"}
""")
    game = Game(program, 3)
    agents = [strategy_agent(s, 1), strategy_agent(s, 2)]
    run(game, agents, limit=10)
    assert agents[0].memory["decided"] == 2
    table_ranks = [c.rank for c in game.memory.vars["table"]]
    assert agents[0].memory["seen"] == table_ranks == agents[1].memory["seen"]


def test_an_observation_sees_what_its_rules_read_and_nothing_more(duel):
    """A view made for observation rules holds only the game's variables and zones that they (through their
    functions too) and the memory's resets read: the others are left out, not copied (or shown)."""
    program, strategy = duel
    s = strategy("s", """
game: duel
functions:
  "on_table()": "len(table)"
memory: {sizes: "[]", seen: "[]"}
rules:
  - {name: measure, observe: play, then: "sizes = sizes + [on_table()]\\nseen = seen + [c.rank if c != None else -1]"}
""")
    reads = s.observed_reads["play"]
    assert "table" in reads and not {"deck", "hand", "turn"} & reads
    game = Game(program, 3)
    agents = [strategy_agent(s, 1), strategy_agent(s, 2)]
    run(game, agents, limit=10)
    table_ranks = [c.rank for c in game.memory.vars["table"]]
    assert agents[0].memory["seen"] == table_ranks == agents[1].memory["seen"]  # each card played is seen
    assert agents[0].memory["sizes"] == list(range(1, len(table_ranks) + 1))
    view = game.memory.seen_by(0, reads)
    assert [c.rank for c in view.vars["table"]] == table_ranks
    assert "deck" not in view.vars and "turn" not in view.vars and not hasattr(view.players[1], "hand")


def test_an_observation_view_is_used_again_only_while_what_it_holds_is_unchanged(duel):
    """An observation's view is made again when a variable it keeps changed (`turn`, after every play), and used
    again, started afresh, while nothing it keeps did (`phase`, all through the play)."""
    program, strategy = duel
    s = strategy("s", """
game: duel
memory: {turns: "[]", phases: "[]"}
rules:
  - {name: lowest, move: play, choose: "min(options, key=lambda c: c.rank)"}
  - {name: whose_turn, observe: play, then: "turns = turns + [turn.index]"}
""")
    t = strategy("t", """
game: duel
memory: {phases: "[]"}
rules:
  - {name: lowest, move: play, choose: "min(options, key=lambda c: c.rank)"}
  - {name: which_phase, observe: play, then: "phases = phases + [phase]"}
""")
    game = Game(program, 3)
    agents = [strategy_agent(s, 1), strategy_agent(t, 2)]
    views: list = []
    run(game, agents, limit=10, check=lambda game, decision: views.append(
        [entry[2] for entry in agents[1]._views.values()]))
    plays = len(game.memory.vars["table"])
    assert plays == 4 and agents[0].memory["turns"] == [1, 0, 1, 0][:plays]  # (a stale view would repeat one)
    assert agents[1].memory["phases"] == ["play"] * plays
    made = {id(view) for seen in views for view in seen}
    assert len(made) == 1 and len(views[-1]) == 1  # one view, made at the first play, used at the others


def test_a_strategy_decides_on_a_view_of_what_it_reads(duel):
    """The view a strategy decides on holds the variables and zones its rules, functions, memory and resets
    read (a hidden zone as as many placeholders), and leaves the others out."""
    program, strategy = duel
    s = strategy("s", """
game: duel
rules:
  - {name: low_while_the_deck_holds_cards, move: play, when: "len(deck) > 0",
     choose: "min(options, key=lambda c: c.rank)"}
""")
    assert "deck" in s.decision_reads and not {"table", "turn", "hand"} & s.decision_reads  # (options: offered)
    game = Game(program, 3, players=2)
    game.start()
    decision = game.decision()
    agent = strategy_agent(s, 1)
    option, rule = agent.decide(decision)
    assert rule == "low_while_the_deck_holds_cards"  # (the deck's placeholders count: one card is left)
    assert option.arg.rank == min(c.rank for c in game.memory.players[0].hand)
    view = game.memory.seen_by(0, s.decision_reads)
    assert "table" not in view.vars and len(view.vars["deck"]) == len(game.memory.vars["deck"]) == 1


SECRETS = """
game: secrets
players: 3
player_state:
  secret: {init: "10 * player.index + 5", visibility: owner}
moves:
  point: {choose: "p in players", then: "end game winner p"}
rules:
  - {name: ask, then: "ask players[0] to point"}
"""


def test_the_options_a_strategy_reads_are_of_its_view_never_the_games_own_objects(tmp_path):
    """Offered players (and zones) are the view's: their hidden variables are None to the strategy, as
    everything it sees (a strategy cannot read another seat's secret through its options)."""
    (tmp_path / "secrets.yaml").write_text(SECRETS)
    program = load_program(tmp_path / "secrets.yaml")
    (tmp_path / "peek.yaml").write_text("""
game: secrets
rules:
  - {name: peek, move: point, when: "all(p.secret is None for p in options if p != me)",
     choose: "max(options, key=lambda p: p.secret if p.secret is not None else -1)"}
""")
    game = Game(program, 0)
    game.start()
    option, rule = strategy_agent(load_strategy(tmp_path / "peek.yaml", program), 1).decide(game.decision())
    assert rule == "peek" and option.arg.index == 0  # its own secret (5) is the only one it sees


def test_a_view_hides_what_its_seat_may_not_see_whether_it_holds_all_or_a_few_names(tmp_path):
    (tmp_path / "secrets.yaml").write_text(SECRETS.replace("player_state:\n", """state:
  pot: {init: "7", visibility: hidden}
  lap: {init: "2"}
player_state:
  sealed: {init: "player.index", visibility: hidden}
"""))
    game = Game(load_program(tmp_path / "secrets.yaml"), 0)
    game.start()
    for reads in (None, frozenset({"pot", "secret", "sealed"}), frozenset({"lap", "secret"})):
        for _ in range(2):  # (the second view follows the plan the first made)
            view = game.memory.seen_by(1, reads)
            assert [p.secret for p in view.players] == [None, 15, None]  # the owner's own only
            if reads is None or "sealed" in reads:
                assert [p.sealed for p in view.players] == [None, None, None]
            assert view.vars.get("pot", "left out") == (None if reads is None or "pot" in reads else "left out")
            assert view.vars.get("lap", "left out") == (2 if reads is None or "lap" in reads else "left out")
    assert game.memory.vars["pot"] == 7 and [p.secret for p in game.memory.players] == [5, 15, 25]


def test_a_strategy_rule_can_go_over_its_options_with_for(duel):
    """`for:` in a decision rule binds each of its options in turn (its domain reads `options` too)."""
    program, strategy = duel
    s = strategy("s", """
game: duel
rules:
  - {name: the_highest, move: play, for: "c in options", when: "c.rank == max(x.rank for x in options)",
     choose: "c"}
""")
    (option, rule), game = decide(program, s)
    assert rule == "the_highest" and option.arg.rank == max(c.rank for c in game.memory.players[0].hand)


def test_players_kept_in_a_strategys_memory_are_the_current_views(duel):
    """A memory list of players (grown one mover at a time) names the players of each new view: `me in
    movers` holds once the seat has moved, though every view has players of its own."""
    program, strategy = duel
    s = strategy("s", """
game: duel
memory: {movers: "[]"}
rules:
  - {name: moved_before, move: play, when: "me in movers", choose: "min(options, key=lambda c: c.rank)"}
  - {name: remember, observe: play, then: "movers = movers + [player]"}
""")
    game = Game(program, 5)
    agents = [strategy_agent(s, 1), strategy_agent(s, 2)]
    for seat, agent in enumerate(agents):
        agent.attach(game, seat)
    game.start()
    rules = []
    while not game.over:
        decision = game.decision()
        game.apply(agents[decision.player].choose(decision))
        rules.append((decision.player, agents[decision.player].last_rule))
    assert rules[:4] == [(0, "default (first)"), (1, "default (first)"), (0, "moved_before"), (1, "moved_before")]


def test_a_default_decides_when_no_rule_does(duel):
    program, strategy = duel
    first = strategy("f", "game: duel\nrules: []\n")
    (option, rule), game = decide(program, first)
    assert rule == "default (first)" and option == game.decision().options[0]
    rnd = strategy("r", "game: duel\ndefault: random\n")
    picks = {option_key(decide(program, rnd, seed)[0][0])[1:] for seed in range(12)}
    assert len(picks) > 1


@pytest.mark.parametrize("text, message", [
    ("rules: [{name: cheat, move: play, choose: 'options[0]', then: 'turn = me'}]", "cannot assign 'turn'"),
    ("rules: [{name: cheat, observe: play, then: 'move c to table'}]", "cannot use 'move'"),
    ("rules: [{name: x, move: fly, choose: '1'}]", "'fly' is not a move of duel"),
    ("memory: {turn: '0'}", "'turn' is already a name of the game"),
    ("memory: {me: '0'}", "'me' is reserved in strategies (the seat's player)"),
    ("memory: {options: '[]'}", "'options' is reserved in strategies (a decision rule's legal arguments"),
    ("functions: {'options()': '[]'}", "'options' is reserved in strategies"),
    ("rules: [{name: x, when: 'secret > 1'}]", "unknown name 'secret'"),
    ("tactics: 1", "unknown section 'tactics'"),
    ("default: cleverest", "default 'cleverest' is not first, random, or an agent"),
])
def test_strategy_errors_are_located(duel, text, message):
    program, strategy = duel
    with pytest.raises((RuleErrors, Exception)) as error:
        strategy("bad", "game: duel\n" + text + "\n")
    assert message in str(error.value)
    assert "bad.yaml:" in str(error.value)


def test_short_names_find_the_strategies_of_a_game_and_its_variants():
    tute = program_for("tute_cabrero")
    assert strategy_path("novice", tute) == STRATEGIES / "tute_cabrero" / "novice.yaml"
    official = program_for("wizard_official")
    assert strategy_path("seed", official) == STRATEGIES / "wizard" / "seed.yaml"
    assert strategy_path("nonexistent", tute) is None


def test_a_view_knows_what_the_deck_is_made_of_but_not_where_hidden_cards_are():
    game = start_game(shipped("tute_cabrero"), 3)
    view = game.memory.seen_by(0)
    deck = compile_expression(game.program, "all_cards()")(view)
    assert sorted(c.name for c in deck) == sorted(c.name for z in game.memory.zones for c in z)
    rival_hand = compile_expression(game.program, "players[1].hand")(view)
    assert len(rival_hand) == len(game.memory.players[1].hand)
    assert all(c.suit is None and c.rank is None for c in rival_hand)
    first_as = compile_expression(game.program,
                                  "first([c for c in all_cards() if c.rank == 1 and c.suit == 'oros']).name")
    assert first_as(view) == "1o"
    assert compile_expression(game.program, "first([c for c in me_hand if c.rank == 99], 'none')", ("me_hand",))(
        view, list(view.players[0].hand)) == "none"


PICK = """
game: pick
players: 2
state: {turn: "players[0]"}
player_state: {total: 0}
estimate: "player.total"
moves:
  pick: {choose: "n in [4, 30, 9]", then: "player.total += n\\nturn = next_player(player)"}
rules:
  - {name: ask, when: "turn != None", then: "ask turn to pick"}
"""


def test_a_cut_off_playout_is_scored_by_the_estimate(tmp_path):
    """A game that never ends: only the rule file's estimate can tell the options apart."""
    (tmp_path / "pick.yaml").write_text(PICK)
    game = Game(load_program(tmp_path / "pick.yaml"), 1)
    game.start()
    picks = {ISMCTSAgent(seed, iterations=60, depth=1).choose(game.decision()).arg for seed in range(4)}
    assert picks == {30}  # ties would go to the last option by key, 9


def test_a_memory_with_reset_starts_again_when_its_expression_changes(duel):
    program, strategy = duel
    counting = strategy("counting", """
game: duel
memory:
  played: {init: 0, reset: "len(table) // 2"}   # a new scope every two cards on the table
  ever: 0
rules:
  - {name: count, observe: play, then: "played += 1\\never += 1"}
""")
    game = Game(program, 0)
    agent = strategy_agent(counting, 0)
    agent.attach(game, 0)
    game.start()
    seen = []
    for _ in range(3):
        game.apply(next(o for o in game.options() if o.move == "play"))
        seen.append((dict(agent.memory), dict(agent.scopes)))
    # after 1 card: scope 0, one play; after 2: scope 1 (reset, then counted); after 3: scope 1 again
    assert [(m["played"], m["ever"], s["played"]) for m, s in seen] == [(1, 1, 0), (1, 2, 1), (2, 3, 1)]


def test_a_group_shares_its_condition_and_move_with_its_rules(duel):
    program, strategy = duel
    grouped = strategy("grouped", """
game: duel
rules:
  - group: never
    move: play
    when: "len(table) > 100"
    rules:
      - {name: unreachable, choose: "options[0]"}
  - group: always
    move: play
    when: "True"
    rules:
      - {name: not_this, when: "False", choose: "options[0]"}
      - {name: the_highest, choose: "high(options)"}
""")
    (option, rule), game = decide(program, grouped)
    assert rule == "the_highest" and option.arg == max(game.decision().options, key=lambda o: o.arg.rank).arg


@pytest.mark.parametrize("text, message", [
    ("  - group: g\n    when: 'True'\n", "group 'g' needs 'rules:'"),
    ("  - group: g\n    rules:\n      - {name: r, observe: play}\n", "unknown key 'observe' in a rule of group 'g'"),
    ("  - group: g\n    colour: red\n    rules:\n      - {name: r}\n", "unknown key 'colour' in a group of rules"),
])
def test_a_badly_written_group_is_a_located_error(duel, text, message):
    program, strategy = duel
    with pytest.raises(RuleErrors) as caught:
        strategy("bad_group", "game: duel\nrules:\n" + text)
    error = caught.value.errors[0]
    assert message in error.message and error.location.line >= 3


def test_rules_ordered_by_name_slot_between_the_base_rules(duel):
    """before:/after: place a rule by another's name (and priority); an override keeps its rule's place."""
    program, strategy = duel
    strategy("ordered_base", """
game: duel
rules:
  - {name: first_choice, priority: 7, move: play, when: "False", choose: "options[0]"}
  - {name: lowest, move: play, choose: "min(options, key=lambda c: c.rank)"}
""")
    level = strategy("ordered_level", """
game: duel
extends: ordered_base.yaml
rules:
  - {name: late, after: lowest, move: play, choose: "options[0]"}
  - {name: highest, before: lowest, move: play, choose: "high(options)"}
  - {name: also_first, after: first_choice, move: play, when: "False", choose: "options[0]"}
  - {name: right_after_highest, after: highest, move: play, when: "False", choose: "options[0]"}
override:
  - {name: first_choice, move: play, when: "False", choose: "options[-1]"}
""")
    assert [(r.name, r.priority) for r in level.program.rules] == [
        ("first_choice", 7), ("also_first", 7), ("highest", 0), ("right_after_highest", 0), ("lowest", 0),
        ("late", 0)]
    (option, rule), game = decide(program, level)
    assert rule == "highest"


@pytest.mark.parametrize("rules, message, hint", [
    ("  - {name: a, before: lowest, choose: 'options[0]'}\n  - {name: lowset, choose: 'options[0]'}\n",
     "'before: lowest' names no rule of this list", "lowset"),
    ("  - {name: a, after: b, choose: 'options[0]'}\n  - {name: b, before: a, choose: 'options[0]'}\n",
     "goes round in a circle", None),
    ("  - {name: a, choose: 'options[0]'}\n  - {name: b, priority: 3, after: a, choose: 'options[0]'}\n",
     "by priority or by one of before/after", None),
    ("  - {name: a, after: play, then: 'pass'}\n", "'after: play' names no rule", "is written 'observe: play'"),
])
def test_a_bad_order_by_name_is_a_located_error(duel, rules, message, hint):
    program, strategy = duel
    with pytest.raises(RuleErrors) as caught:
        strategy("bad_order", "game: duel\nrules:\n" + rules)
    error = next(e for e in caught.value.errors if message in e.message)
    assert error.location.line >= 3 and (hint is None or hint in (error.hint or ""))


def test_memory_kept_per_player_is_read_and_written_as_an_attribute(duel):
    """`per_player: true`: one value per player, p.NAME; INIT may read `player`."""
    program, strategy = duel
    s = strategy("per_player", """
game: duel
memory:
  played: {init: "[player.index]", per_player: true}
rules:
  - {name: remember, observe: play, then: "player.played = player.played + [c.rank if c is not None else 0]"}
  - {name: lowest_if_the_other_played, move: play, when: "len(players[1].played) > 1",
     choose: "min(options, key=lambda c: c.rank)"}
""")
    game = Game(program, 3)
    agent = strategy_agent(s, 3)
    agent.attach(game, 0)
    game.start()
    assert agent.memory["played"] == ([0], [1])
    game.apply(next(o for o in game.options() if o.move == "play"))
    mine = game.memory.players[0].hand
    assert game.memory.vars["turn"] is game.memory.players[1]
    game.apply(next(o for o in game.options() if o.move == "play"))
    assert len(agent.memory["played"][0]) == 2 and len(agent.memory["played"][1]) == 2
    option, rule = agent.decide(game.decision())
    assert rule == "lowest_if_the_other_played" and option.arg.rank == min(c.rank for c in mine)


@pytest.mark.parametrize("text, message", [
    ("memory:\n  seen: {init: '[]', per_player: yes please}\n", "'per_player' is true or false"),
    ("memory:\n  seen: {init: '[]', per_player: true}\nrules:\n  - {name: r, observe: play, then: 'seen = []'}\n",
     "'seen' is kept per player"),
    ("memory:\n  hand: {init: '[]', per_player: true}\n", "'hand' is already a name of the game"),
])
def test_a_bad_per_player_memory_is_a_located_error(duel, text, message):
    program, strategy = duel
    with pytest.raises(RuleErrors) as caught:
        strategy("bad_memory", "game: duel\n" + text)
    error = next(e for e in caught.value.errors if message in e.message)
    assert error.location.line >= 3
