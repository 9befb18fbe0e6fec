"""A Chinchón bot: closes when it may, keeps cards that work together, throws the heaviest loner.

Cards are named rank + suit initial ('12c' = rey de copas). A card "works" with
another of the same rank, or of the same suit one or two steps away in the
order 1..7, sota, caballo, rey. Seat it with:

    naipes simulate chinchon -n 10 --seat python:examples/chinchon_bots/tidy.py:Tidy --seat random
"""
from naipes.bots import Bot

ORDER = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]


def parse(card: str) -> tuple[int, str]:
    return int(card[:-1]), card[-1]


def links(card: str, hand: list[str]) -> int:
    rank, suit = parse(card)
    count = 0
    for other in hand:
        if other == card:
            continue
        r, s = parse(other)
        if r == rank:
            count += 2
        elif s == suit and r in ORDER and rank in ORDER and abs(ORDER.index(r) - ORDER.index(rank)) <= 2:
            count += 1
    return count


class Tidy(Bot):
    def decide(self, view, options):
        closes = [o for o in options if o.startswith("close")]
        if closes:
            return closes[0]
        me = view["players"][view["seat"]]
        hand = me["hand"]
        if options[0] in ("draw stock",) or options[0].startswith("take"):
            takes = [o for o in options if o.startswith("take")]
            if takes and links(takes[0].split()[1], hand) >= 2:
                return takes[0]  # the discard top joins two of our cards
            return "draw stock" if "draw stock" in options else options[0]
        discards = [o for o in options if o.startswith("discard")]
        return max(discards, key=lambda o: (-links(o.split()[1], hand), parse(o.split()[1])[0]))
