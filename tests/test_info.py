"""What a new player needs to know: `naipes info` and `naipes list`, what the card names mean, the running
count of a hand, why a hand was lost, and no bookkeeping on the terminal table."""
import io
import json
import re

import pytest
import yaml
from click.testing import CliRunner
from rich.console import Console

from naipes import RandomAgent
from naipes.agents.human import HumanAgent, cards_in_sight, hidden_variables, render_view
from naipes.agents.legend import card_legend, deck, full_name
from naipes.language.shipped import shipped_rulesets
from naipes.runtime.game import Game
from naipes.tools.cli import main

from helpers import shipped_program

# The Spanish deck's card points in Tute (docs/games/tute_cabrero.md): as 11, 3 10, rey 4, caballo 3, sota 2, others 0.
TUTE_POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}


def naipes(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


# ====================================================================== info
def test_info_lists_params_with_types_defaults_and_docs():
    result = naipes("info", "tute_cabrero")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("Tute Cabrero (tute_cabrero)\n  Tute Cabrero: 3 to 6 players")  # how to play (doc:)
    assert "\nplayers: 3 to 6, 3 by default; the AI: ismcts:iterations=1000" in out
    assert " those still in win.\n" in out.replace("\n  ", " ")   # the whole of it, wrapped
    assert "  porotos_to_retire (int, default 4; min 1, max 20): a player with this many porotos retires" in out
    assert "  sing: sing tute, las cuarenta or las veinte" in out          # moves, with their docs
    assert "phases:\n  deal: " in out
    assert "  strong (strategy): " in out and "  ismcts (built-in) [the default: ismcts:iterations=1000]: " in out
    assert "minimax" not in out                                            # hidden cards: no exhaustive search
    # the example: 10b is the sota de bastos, 11 the caballo, 12 the rey
    assert "cards: rank 1 as, 10 sota, 11 caballo, 12 rey" in out


def test_info_json_is_the_catalogue_entry():
    data = json.loads(naipes("info", "fichas", "-p", "count=5", "--json").output)
    assert data["players"] == {"min": 2, "max": 2, "default": 2, "ai": "exact"}
    count = next(p for p in data["params"] if p["name"] == "count")
    assert count["type"] == "int" and count["default"] == 12 and count["doc"]
    assert [m["name"] for m in data["moves"]] == ["take_colour", "take_value"]
    assert data["legend"]["values"]["colour"][0][1] in {"red", "blue", "green", "yellow", "white"}


def test_info_of_an_unknown_game_is_a_clean_error():
    result = naipes("info", "nosuchgame")
    assert result.exit_code == 1 and "no rule file 'nosuchgame'" in result.output and "Traceback" not in result.output


def test_list_names_every_shipped_game_and_its_strategies():
    out = naipes("list").output
    for path in shipped_rulesets():
        assert re.search(rf"^{path.stem}\s", out, re.M), path.stem
    pocha = next(line for line in out.splitlines() if line.startswith("pocha "))
    assert "3-8 players; AI pimc:worlds=100,nodes=0; strategies: baseline, strong" in pocha
    assert "ismcts" in out


@pytest.mark.parametrize("path", shipped_rulesets(), ids=lambda path: path.stem)
def test_a_glance_at_a_rule_file_says_what_compiling_it_says(path):
    """`naipes list` and the choose-game screen read title, seats, AI and strategies without compiling: the same
    as the compiled program's description (a variant's own keys, else its bases')."""
    from naipes.agents.levels import default_opponent, strategy_levels
    from naipes.tools.catalogue import describe, glance
    seen, described = glance(path), describe(shipped_program(path.stem))
    assert (seen.file, seen.name, seen.title, seen.doc) == \
        (described["name"], described["game"], described["title"], described["doc"])
    assert {**seen.players, "ai": default_opponent(seen)} == described["players"]
    assert strategy_levels(seen) == [level for level in described["levels"] if level["kind"] == "strategy"]


# ==================================================================== legend
@pytest.mark.slow
def test_card_names_in_words_follow_the_display_section():
    program = shipped_program("tute_cabrero")
    cards = {card.name: card for card in deck(program)}
    assert len(cards) == 40
    assert full_name(program, cards["10b"]) == "sota de bastos"
    assert full_name(program, cards["11c"]) == "caballo de copas"
    assert full_name(program, cards["12e"]) == "rey de espadas"
    assert full_name(program, cards["1o"]) == "as de oros"
    assert full_name(program, cards["7o"]) == "7 de oros"
    wizard = shipped_program("wizard")
    named = {card.name: full_name(wizard, card) for card in deck(wizard)}
    assert named["W1"] == "wizard" and named["J4"] == "jester" and named["13s"] == "13 of spades"


@pytest.mark.slow
@pytest.mark.parametrize("path", shipped_rulesets(), ids=lambda p: p.stem)
def test_every_legend_example_is_a_card_of_the_game(path):
    program = shipped_program(path.stem)
    legend = card_legend(program)
    cards = {card.name: card for card in deck(program)}
    assert legend["examples"], "every shipped game names its cards"
    for name, words in legend["examples"]:
        assert words == full_name(program, cards[name]) and words != name


def test_help_cards_names_the_cards_in_the_hand():
    program = shipped_program("tute_cabrero")
    game = Game(program, 4)
    game.start()
    while game.to_move.index != 0:
        game.apply(RandomAgent(0).choose(game.decision()))
    out = io.StringIO()
    answers = iter(["help cards", "1"])
    human = HumanAgent(ask=lambda prompt: next(answers), console=Console(file=out, width=120))
    decision = game.decision()
    human.choose(decision)
    text = out.getvalue()
    assert text.count("Cards: rank 1 as, 10 sota, 11 caballo, 12 rey") == 1
    cards = {card.name: card for card in deck(program)}
    hand = [c.name for c in game.memory.players[0].hand]
    assert set(hand) <= set(cards_in_sight(decision.view))
    for name in hand:
        assert f"  {name:<6} {full_name(program, cards[name])}" in text


# ========================================================= Tute: the hand's count
def test_tute_shows_the_card_points_taken_so_far_this_hand():
    program = shipped_program("tute_cabrero")
    game = Game(program, 7)
    game.start()
    agents = [RandomAgent(i) for i in range(3)]
    seen_points = False
    for _ in range(25):   # some tricks into the first hand
        game.apply(agents[game.to_move.index].choose(game.decision()))
        for player, entry in zip(game.memory.players, game.view(0)["players"]):
            expected = sum(TUTE_POINTS.get(card.rank, 0) for card in player.won)
            assert entry["taken"] == expected
            seen_points |= expected > 0
    assert seen_points


def loss_lines(seed: int, hands: int = 6) -> list[tuple[dict[str, int], dict[str, int], str, str]]:
    """For each loser of each hand: the hand's points and tricks by player, who lost, and the reason given."""
    program = shipped_program("tute_cabrero", porotos_to_retire="20")
    texts: list[str] = []
    game = Game(program, seed)
    game.observers.append(lambda r: texts.append(r["text"]) if r["type"] == "announce" else None)
    game.start()
    agents = [RandomAgent(seed + i) for i in range(3)]
    while not game.over and sum(t.startswith("Hand ") for t in texts) <= hands:
        game.apply(agents[game.to_move.index].choose(game.decision()))
    found, points, tricks = [], {}, {}
    for text in texts:
        took = re.match(r"(P\d) took (\d+) tricks?: (\d+) points", text)
        if took:
            tricks[took[1]], points[took[1]] = int(took[2]), int(took[3])
        lost = re.match(r"(P\d) loses the hand - (.*) - poroto \d+$", text)
        if lost:
            found.append((dict(points), dict(tricks), lost[1], lost[2]))
    return found


@pytest.mark.slow
def test_tute_says_why_a_hand_was_lost():
    found = [line for seed in range(1, 7) for line in loss_lines(seed)]
    assert len(found) > 10
    reasons = set()
    for points, tricks, loser, reason in found:
        takers = {p: n for p, n in points.items() if tricks[p] > 0}
        if "capote" in reason:
            reasons.add("capote")
            assert tricks[loser] == 0 and sum(1 for n in tricks.values() if n) == 1
        elif "the only other taker" in reason:
            reasons.add("two takers")
            other = next(p for p in takers if p != loser)
            assert len(takers) == 2 and takers[loser] <= takers[other]
            assert f"{points[loser]} to {points[other]}" in reason or "tied" in reason
        elif reason.startswith("neither the most nor the fewest"):
            reasons.add("middle")
            assert len(takers) == 3 and min(takers.values()) < takers[loser] < max(takers.values())
        elif reason.startswith("tied for the"):
            reasons.add("tie")
            assert list(takers.values()).count(takers[loser]) > 1
        else:
            assert "sang tute" in reason, reason
    assert "middle" in reasons   # the others are rare in random play: test_tute_cabrero sets each up


def test_the_terminal_table_hides_bookkeeping():
    program = shipped_program("tute_cabrero")
    game = Game(program, 1)
    game.start()
    out = io.StringIO()
    Console(file=out, width=200).print(render_view(game.view(0), hidden_variables(program)))
    header = out.getvalue().splitlines()
    table = next(line for line in header if line.startswith("player"))
    for column in ("porotos", "taken", "hand"):
        assert column in table
    # `points` is the last hand's count (the score sheet's, the announcements'): not a column during a hand;
    # `played` says who played each card of the trick, which the trick shows
    for bookkeeping in ("schedule", "tute_by", "last_table", "match_winners", "bid", "score ", "points", "played"):
        assert bookkeeping not in out.getvalue().replace("porotos", "")


def test_the_table_shown_after_quitting_hides_bookkeeping_too():
    result = naipes("play", "wizard", "--seed", "5", input="quit\n")
    after = result.output.split("You quit before the end.")[1]
    assert "score" in after and "trump:" in after
    for bookkeeping in ("schedule", "deck_size", "trump_card", "scores"):
        assert bookkeeping not in after


@pytest.mark.slow
def test_help_table_says_what_each_column_means_from_the_rule_file():
    result = naipes("play", "tute_cabrero", "--seed", "2", input="help table\nquit\n")
    answer = result.output.split("> ", 1)[1].split("> You quit")[0]
    assert "  taken: card points taken this hand so far" in answer
    assert "  porotos: hands lost" in answer and "  hand: each player's hand" in answer
    for hidden in ("schedule", "tute_by", "last_table", "bid:", "points:"):  # points: the score sheet's
        assert hidden not in answer


@pytest.mark.parametrize("path", shipped_rulesets(), ids=lambda p: p.stem)
def test_every_shipped_rule_file_says_how_to_play(path):
    """Its own `doc:` (a variant's included: it says what differs and the rest), a few lines long, saying who wins."""
    tree = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc = tree.get("doc")
    assert isinstance(doc, str) and 150 < len(doc) < 1600, f"{path.name}: doc: {doc!r}"
    assert re.search(r"\b(wins?|loses?)\b", doc), f"{path.name}: its doc does not say who wins"
    assert shipped_program(path.stem).doc == doc.strip()
