"""A Tute Cabrero bot: sings whenever it may, wins tricks worth points, else saves its strength.

Cards are named rank + suit initial ('1o' = as de oros); songs are labelled
'sing ...'. Seat it with:

    naipes simulate tute_cabrero -n 20 --seat python:examples/tute_bots/sensible.py:Sensible --seat random --seat random
"""
from naipes.bots import Bot

STRENGTH = {1: 10, 3: 9, 12: 8, 11: 7, 10: 6, 9: 5, 8: 4, 7: 3, 6: 2, 5: 1, 4: 0, 2: -1}
POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}


def rank(card: str) -> int:
    return int(card[:-1])


class Sensible(Bot):
    def decide(self, view, options):
        songs = [o for o in options if o.startswith("sing")]
        if songs:
            return songs[0]  # points are points: sing before leading
        trump = (view["state"].get("trump") or "?")[0]
        table = [card for _, card in view["state"].get("played", [])]

        def power(card: str) -> int:
            return STRENGTH[rank(card)] + (100 if card[-1] == trump else 0)
        at_stake = sum(POINTS.get(rank(c), 0) for c in table)
        best = max(options, key=power)
        if table and at_stake >= 10 and all(power(best) > power(c) for c in table):
            return best  # the trick is worth taking and this card takes it
        return min(options, key=lambda c: (POINTS.get(rank(c), 0), power(c)))  # throw the cheapest
