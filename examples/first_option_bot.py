"""The smallest competition bot: always the first legal option, remembering what it saw.

    naipes simulate fichas -n 10 --seat python:examples/first_option_bot.py:FirstOption --seat random
"""
from naipes.bots import Bot


class FirstOption(Bot):
    def __init__(self):
        self.games = 0
        self.moves_seen = 0

    def start_game(self, info):
        self.games += 1  # the same object plays every game: memory across games is allowed

    def observe(self, event):
        if event["type"] == "move":
            self.moves_seen += 1

    def decide(self, view, options):
        return 0
