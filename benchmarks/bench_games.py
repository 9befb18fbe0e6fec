"""Random games and hands per second for every shipped card game.

Each game is played to its end by RandomAgent seats from consecutive seeds, the
rule file loaded beforehand. "Hands" are the rounds a match deals (Pocha 19
with 4 players, Wizard 15 with 4, Tute until fewer than 3 players remain), read
from the game's `round_number` state variable; decisions are every bid, card,
song and choice.

    .venv/bin/python benchmarks/bench_games.py [--json FILE]
"""
from __future__ import annotations

import sys

from common import ROOT, best_of, header, rate, table, write_summary

GAMES = [  # (rule file, params, seats, games per timing)
    ("pocha.yaml", {}, 4, 6),
    ("pocha_static.yaml", {"rounds": "20"}, 4, 4),
    ("tute_cabrero.yaml", {}, 3, 6),
    ("wizard.yaml", {}, 4, 6),
    ("chinchon.yaml", {}, 2, 6),
]


def play(program, seats: int, games: int) -> tuple[int, int, int]:
    """(games, hands, decisions) of `games` random games."""
    from naipes import Game, RandomAgent
    from naipes.runtime.game import play_game
    hands = decisions = 0
    for seed in range(games):
        game = Game(program, seed, players=seats)
        result = play_game(program, [RandomAgent(seed * 10 + i) for i in range(seats)], seed, game=game)
        hands += game.memory.vars.get("round_number") or game.memory.vars.get("hand_number") or 0
        decisions += result.decisions
    return games, hands, decisions


def main() -> None:
    from naipes import load_program
    header("bench_games", "random games, hands and decisions per second, every card game", repeat=3)
    rows, summary = [], {}
    for name, params, seats, games in GAMES:
        path = ROOT / "rulesets" / name
        if not path.exists():
            continue
        program = load_program(path, params)
        seconds, (count, hands, decisions) = best_of(
            lambda program=program, seats=seats, games=games: play(program, seats, games), repeat=3)
        rows.append([name, seats, count, hands, rate(count, seconds), rate(hands, seconds), rate(decisions, seconds)])
        summary[name] = {"games_per_s": rate(count, seconds), "hands_per_s": rate(hands, seconds),
                         "decisions_per_s": rate(decisions, seconds)}
    table(["rule file", "players", "games", "hands", "games/s", "hands/s", "decisions/s"], rows)
    write_summary(sys.argv, summary)


if __name__ == "__main__":
    main()
