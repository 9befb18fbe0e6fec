"""The open-hand solver (naipes.agents.solver) against plain minimax, on hundreds of small positions.

The reference below is the definition and nothing more: every line played to
its end through clones of the game (no make/undo, no table, no pruning, no
merged cards, no ordering), each position's value the best for its mover
(max^n, with the solver's documented tie-break) or, paranoid, the best for
one player where he moves and the worst for him where the others do (with
teams that make two sides: the best for his side's mean where it moves, the
worst where the other side does). The solver must give every root option the
same value.
"""
from __future__ import annotations

import json
import random

import pytest

from naipes import Game, load_program
from naipes.agents.equivalence import Distinct, read_attributes
from naipes.agents.ismcts import estimates, standing
from naipes.agents.solver import OpenSolver

from helpers import ROOT, shipped_program


def leaf(game: Game) -> bool:
    return game.over or game.paused or game.watched_written


def plain(game: Game, model: str, me: int, start: tuple, depth: int, start_estimate: tuple | None,
          side: tuple = (), turns: bool = False) -> tuple:
    """The value vector of `game` by exhaustive search (deltas from `start`); `side`: the seats that maximise with
    `me` (paranoid: none but him); `turns`: a move after which its player is still to move does not count."""
    side = side or (me,)
    if leaf(game):
        return tuple(b - a for a, b in zip(start, standing(game)))
    if depth == 0:  # the estimate (else the standing) less the root's standing (without an evaluation, estimate)
        if start_estimate is None:
            return tuple(b - a for a, b in zip(start, standing(game)))
        base = start if game.program.evaluation is not None else start_estimate
        return tuple(b - a for a, b in zip(base, estimates(game)))
    mover = game.mover.index
    values = []
    for option in game.options():
        child = game.clone()
        child.watched, child._watched_phase, child.paused = game.watched, game._watched_phase, game.paused
        child.memory.halt = game.memory.halt
        child.apply(same(child, option))
        values.append(plain(child, model, me, start, below(child, depth, mover, turns), start_estimate, side, turns))
    if model in ("paranoid", "sides"):
        pick = max if mover in side else min
        return pick(values, key=lambda v: sum(v[seat] for seat in side) / len(side))
    return max(values, key=lambda v: (v[mover], -(sum(v) - v[mover]), tuple(-x for x in v)))


def below(child: Game, depth: int, mover: int, turns: bool) -> int:
    """The depth left after `mover`'s move: one less, unless (turns) he is to move again."""
    return depth if turns and not leaf(child) and child.mover.index == mover else depth - 1


def same(game: Game, option):
    """`option` in a copy of its game (a zone or a player is the copy's own)."""
    return next(o for o in game.options() if o.key == option.key)


def plain_root(game: Game, model: str, me: int, depth: int | None = None, side: tuple = (),
               turns: bool = False) -> list[tuple]:
    world = game.clone()
    if world.program.evaluation is not None:
        world.pause_after(world.program.evaluation_reads)
    start = standing(world)
    start_estimate = estimates(world) if world.program.estimate is not None and depth is not None else None
    values, mover = [], world.mover.index
    for option in world.options():
        child = world.clone()
        child.watched, child.memory.halt = world.watched, world.memory.halt
        child.apply(same(child, option))
        left = below(child, depth or 10_000, mover, turns)
        values.append((option.key, plain(child, model, me, start, left, start_estimate, side, turns)))
    return values


def positions(name: str, params: dict, seeds: range, most_moves_left: int, skip=lambda game: False):
    """Positions of random games with at most `most_moves_left` decisions to the end of the hand."""
    for seed in seeds:
        game = Game(shipped_program(name, **params), seed)
        game.start()
        rng = random.Random(seed)
        while not game.over:
            if len(game.options()) > 1 and not skip(game) and moves_left(game) <= most_moves_left:
                yield game.clone()
                if rng.random() < 0.5:
                    break
            game.apply(rng.choice(game.options()))


def moves_left(game: Game) -> int:
    """Decisions to the end of the hand along the first options (a bound on a hand's length)."""
    world = game.clone()
    if world.program.evaluation is not None:
        world.pause_after(world.program.evaluation_reads)
    count = 0
    while not leaf(world) and count < 50:
        world.apply(world.options()[0])
        count += 1
    return count


def compare(game: Game, model: str, me: int | None = None, depth: int | None = None, turns: bool = False,
            **solver) -> None:
    me = game.mover.index if me is None else me
    expected = plain_root(game, model, me, depth, turns=turns)
    solution = OpenSolver(model, depth=depth, turns=turns, **solver).solve(game, me)
    found = [(option.key, value) for option, value in solution.moves]
    if model == "paranoid":
        assert [(k, v[me]) for k, v in found] == [(k, v[me]) for k, v in expected]
    else:
        assert found == expected


CASES = [  # (rule file, params, seeds, moves left at most)
    ("pocha", {"peak": "3", "random_seats": "false"}, range(40), 9),
    ("tute_cabrero", {"porotos_to_retire": "1"}, range(16), 7),
    ("wizard", {}, range(30), 9),
]


@pytest.mark.parametrize("model", ["paranoid", "maxn"])
@pytest.mark.parametrize("name, params, seeds, most", CASES)
def test_the_solver_gives_plain_minimax_values(name, params, seeds, most, model):
    compared = 0
    for game in positions(name, params, seeds, most):
        compare(game, model)
        compared += 1
    assert compared >= 30


def test_hundreds_of_positions_are_compared():
    count = sum(1 for name, params, seeds, most in CASES for _ in positions(name, params, seeds, most))
    assert count >= 150  # (each model: the test above)


@pytest.mark.parametrize("asked", ["paranoid", "maxn"])
@pytest.mark.parametrize("name", ["brisca", "brisca_parejas"])
def test_teams_of_two_sides_are_searched_two_sided(name, asked):
    """Brisca in pairs (teams: parity, 4 players): partners maximise their side's value together, whatever model
    was asked; every player's side value equals plain minimax's over the last tricks of a deal (cut after 10
    moves: a deal drawn changes no one's deals won, and its lines go on into the next deal)."""
    players = 4 if name == "brisca" else None
    compared = decided = apart = 0
    for seed in range(12):
        game = Game(shipped_program(name), seed, players=players)
        game.start()
        rng = random.Random(seed)
        while not game.over and moves_left(game) > 8:
            game.apply(rng.choice(game.options()))
        if game.over or len(game.options()) < 2:
            continue
        for me in range(4):
            side = (me % 2, me % 2 + 2)
            expected = [(key, sum(v[s] for s in side) / 2)
                        for key, v in plain_root(game, "sides", me, depth=10, side=side)]
            solution = OpenSolver(asked, depth=10).solve(game, me)
            assert solution.model == "sides"
            assert [(option.key, value[me]) for option, value in solution.moves] == expected
            assert all(value[side[0]] == value[side[1]] for _, value in solution.moves)  # (partners: one value)
            decided += any(value for _, value in expected)
            alone = [(key, v[me]) for key, v in plain_root(game, "paranoid", me, depth=10)]
            apart += alone != expected
        compared += 1
    assert compared >= 8 and decided >= 8  # (positions where a side can win the deal)
    assert apart >= 1  # (positions where a player left alone by his partner would get less: not the same search)


def test_teams_at_a_table_of_two_keep_the_model_asked():
    game = Game(shipped_program("brisca"), 1, players=2)
    game.start()
    assert OpenSolver("maxn", depth=2).solve(game).model == "maxn"


@pytest.mark.parametrize("model", ["paranoid", "maxn"])
def test_every_players_paranoid_value_and_merged_cards_change_nothing(model):
    """The value for each player (paranoid: one search each); the solver without merging and ordering agrees."""
    for game in positions("wizard", {}, range(30, 45), 9):
        for me in range(len(game.memory.players)):
            compare(game, model, me, merge=False)


@pytest.mark.parametrize("turns", [False, True])
def test_a_depth_cut_scores_the_estimate_as_plain_minimax_does(turns):
    """Chinchón's hands are long: a line cut after `depth` moves (or turns: a draw and its discard are one) is
    scored by the change of its estimate."""
    compared = 0
    for game in positions("chinchon", {}, range(6), 10_000, skip=lambda game: game.decisions % 7):
        compare(game, "maxn", depth=3 if not turns else 2, turns=turns)
        compared += 1
        if compared >= 6:
            break
    assert compared >= 6


def test_a_depth_in_turns_never_cuts_a_line_between_a_draw_and_its_discard():
    """Searched one turn deep, a Chinchón draw is valued by the best discard after it (one move deep: by the
    estimate of a hand of eight cards, the discard not made), and the principal line is the whole turn."""
    game = next(positions("chinchon", {}, range(3), 10_000, skip=lambda game: "draw" not in
                          {option.move for option in game.options()}))
    mover = game.mover.index
    by_turn = OpenSolver("maxn", depth=1, turns=True).solve(game)
    by_move = OpenSolver("maxn", depth=1).solve(game)
    assert len(by_turn.line) == 2 and len(by_move.line) == 1
    start = standing(game)[mover]  # (a line is measured from the standing, the hand in progress not counted)
    for (option, turn_value), (_, move_value) in zip(by_turn.moves, by_move.moves):
        child = game.clone()
        child.apply(same(child, option))
        assert move_value[mover] == estimates(child)[mover] - start
        after = OpenSolver("maxn", depth=1).solve(child)  # the discards after that draw, one move each
        assert child.mover.index == mover and len(after.moves) > 1
        assert turn_value[mover] == max(value[mover] for _, value in after.moves) + standing(child)[mover] - start


def test_iterative_deepening_under_a_budget_ends_with_the_full_search_when_it_fits():
    game = next(positions("pocha", {"peak": "3", "random_seats": "false"}, range(3), 9))
    full = OpenSolver("maxn").solve(game)
    budgeted = OpenSolver("maxn", nodes=1_000_000).solve(game)
    assert budgeted.complete and [v for _, v in budgeted.moves] == [v for _, v in full.moves]
    tiny = OpenSolver("maxn", nodes=3).solve(game)
    assert not tiny.complete and tiny.depth is not None


def test_the_principal_line_is_played_with_the_best_moves():
    game = next(positions("pocha", {"peak": "2", "random_seats": "false"}, range(5), 5))
    solution = OpenSolver("maxn").solve(game)
    assert solution.line and solution.line[0].endswith(solution.best[0].label)


# ----------------------------------------------------------------- merged cards
def test_what_the_play_reads_of_a_card():
    # (Pocha's rank only makes the deck and names cards: its play reads a card's suit and its strength)
    assert read_attributes(shipped_program("pocha")) == ("suit", "strength")
    wizard = read_attributes(shipped_program("wizard"))
    assert "serial" not in wizard and {"kind", "suit", "strength"} <= set(wizard)
    # Leduc's suits decide nothing; Hold'em's names are read only in its announcements
    assert read_attributes(shipped_program("leduc_poker")) == ("rank", "strength")
    assert read_attributes(shipped_program("texas_holdem")) == ("suit", "rank")


HIGH_CARD = (ROOT / "examples" / "high_card.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("legal, reads", [
    ("max(table) is not None", None),  # cards ordered by themselves (their id): every card distinct
    ("sorted(player.hand)[0] is not None", None),
    ("c > table[0]", None),
    ("max(table, key=lambda t: t.rank) is not None", ("rank", "colour")),  # by a key: only what it reads
    ("str(c.rank) + c.colour != c.name", None),  # a card's name read in play
])
def test_what_the_play_reads_of_a_card_as_the_rules_say_it(tmp_path, legal, reads):
    text = HIGH_CARD.replace('any_card: "True"', f'any_card: "len(table) == 0 or {legal}"')
    text = text.replace("announce winner.name, 'takes the trick'",
                        "announce join([c.name for c in table], ' '), 'to', winner.name")  # (shown: not read)
    assert text.count(legal) == 1 and "join([c.name" in text
    path = tmp_path / "high_card_variant.yaml"
    path.write_text(text, encoding="utf-8")
    assert read_attributes(load_program(path)) == reads


def test_merged_cards_change_no_value_in_leduc():
    # Leduc's two cards of a rank are one for the search (no suit is read): the values stay those of every card
    program = shipped_program("leduc_poker")
    checked = 0
    for seed in range(12):
        game = Game(program, seed)
        game.start()
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 4)):
            if game.over:
                break
            game.apply(rng.choice(game.options()))
        if game.over:
            continue
        merged, whole = OpenSolver("paranoid").solve(game), OpenSolver("paranoid", merge=False).solve(game)
        assert merged.value == whole.value
        checked += 1
    assert checked >= 8


def test_wizards_in_one_hand_are_one_option_and_a_card_a_variable_names_is_not():
    for seed in range(40):
        game = Game(shipped_program("wizard"), seed)
        game.start()
        rng = random.Random(seed)
        while not game.over and not (game.memory.vars["phase"] == "play" and len(game.mover.hand) >= 2):
            game.apply(rng.choice(game.options()))
        memory = game.memory
        stock = [card for card in memory.vars["stock"] if card.kind == "wizard"]
        if len(stock) >= 2:
            break
    hand = game.mover.hand
    for i, wizard in enumerate(stock[:2]):  # two wizards into the mover's hand, two of its cards out
        j = memory.vars["stock"].index(wizard)
        hand[i], memory.vars["stock"][j] = wizard, hand[i]
        memory.where[wizard], memory.where[memory.vars["stock"][j]] = hand.slot, memory.vars["stock"].slot
    game._options = None
    distinct = Distinct(game.program, list(memory.where))
    wizards = [option for option in game.options() if option.arg.kind == "wizard"]
    assert len(wizards) == 2 and distinct.of(game, wizards[0]) == distinct.of(game, wizards[1])
    others = [option for option in game.options() if option.arg.kind == "number"]
    assert len({distinct.of(game, option) for option in others}) == len(others)
    memory.vars["trump_card"] = stock[0]  # a variable names one of them: they are no longer alike
    assert distinct.of(game, wizards[0]) != distinct.of(game, wizards[1])


# ------------------------------------------------------------------ the command
def naipes(*args: str):
    from click.testing import CliRunner

    from naipes.tools.cli import main
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("model", ["paranoid", "maxn"])
def test_solve_open_reports_what_the_solver_finds(model, tmp_path):
    # --after plays the rule file's AI: Pocha's strong level reaches the position its pimc reaches with this seed,
    # in a fraction of a second where pimc takes a second a decision
    rules = tmp_path / "pocha_strong.yaml"
    rules.write_text("extends: pocha\ngame: pocha_strong\nplayers: {min: 3, max: 8, default: 4, ai: strong}\n")
    result = naipes("solve", str(rules), "--open", "--seed", "3", "-p", "peak=3", "-p", "random_seats=false",
                    "--after", "12", "--model", model, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    game = Game(load_program(str(rules), {"peak": "3", "random_seats": "false"}), 3)
    from naipes.tools.solving import open_position
    game, origin = open_position(game.program, 3, after=12)
    expected = {option.key: value for option, value in OpenSolver(model).solve(game).moves}
    mover = game.mover.index
    assert data["position"] == origin == "seed 3, after 12 decisions"
    assert data["to_move"] == game.mover.name and data["model"] == model
    assert [entry["move"] for entry in data["moves"]] == [o.label for o in game.options()]
    for option, entry in zip(game.options(), data["moves"]):
        value = expected[option.key]
        assert entry["value"] == (value[mover] if model == "paranoid" else
                                  dict(zip([p.name for p in game.memory.players], value)))
    assert data["exact"] and data["line"] and set(data["best"]) <= {o.label for o in game.options()}
    if model == "paranoid":  # each player's value is his own search's
        for seat, name in enumerate(p.name for p in game.memory.players):
            assert data["values"][name] == OpenSolver("paranoid").solve(game, seat).value[seat]


def test_solve_open_a_logged_games_step(tmp_path):
    log = tmp_path / "game.jsonl"
    played = naipes("play", "tute_cabrero", "-p", "porotos_to_retire=1", "--seat", "random", "--seat", "random",
                    "--seat", "random", "--seed", "5", "--log", str(log))
    assert played.exit_code == 0, played.output
    result = naipes("solve", "tute_cabrero", str(log), "-p", "porotos_to_retire=1", "--open", "--to", "30")
    assert result.exit_code == 0, result.output
    assert f"{log}, step 30" in result.output and "model: paranoid" in result.output and "best:" in result.output


def test_solve_open_errors_are_clear():
    result = naipes("solve", "pocha", "--after", "3")
    assert result.exit_code == 1 and "for --open" in result.output
    result = naipes("solve", "pocha")
    assert result.exit_code == 1 and "--open" in result.output and "hides information" in result.output
    result = naipes("solve", "pocha", "--open", "--model", "best")
    assert result.exit_code == 2 and "best" in result.output
