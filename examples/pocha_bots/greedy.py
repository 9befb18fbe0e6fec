"""A Pocha bot that reads its hand: bids its sure tricks, then plays to make exactly that.

Cards are named rank + suit initial ('1o' = as de oros, '12c' = rey de copas);
the view says the trump suit. Run it with:

    naipes competition examples/pocha_bots --ruleset pocha --static pocha_static
"""
from naipes.bots import Bot

# Trick strength in a Spanish suit: as > 3 > rey > caballo > sota > 7 > ... > 2
STRENGTH = {1: 10, 3: 9, 12: 8, 11: 7, 10: 6, 7: 5, 6: 4, 5: 3, 4: 2, 2: 1}


def rank(card: str) -> int:
    return int(card[:-1])


def suit(card: str) -> str:
    return card[-1]


class Greedy(Bot):
    def decide(self, view, options):
        if options[0].startswith("bid "):
            return self.bid(view, options)
        return self.play(view, options)

    def bid(self, view, options):
        me = view["players"][view["seat"]]
        trump = (view["state"].get("trump") or "?")[0]
        sure = sum(1 for c in me["hand"] if rank(c) in (1, 3) or (suit(c) == trump and STRENGTH[rank(c)] >= 7))
        wanted = f"bid {sure}"
        if wanted in options:
            return wanted
        return min(options, key=lambda o: abs(int(o.split()[1]) - sure))  # the nearest legal bid

    def play(self, view, options):
        me = view["players"][view["seat"]]
        trump = (view["state"].get("trump") or "?")[0]

        def power(card: str) -> int:
            return STRENGTH[rank(card)] + (100 if suit(card) == trump else 0)
        need_more = (me["bid"] or 0) > me["tricks"]
        return max(options, key=power) if need_more else min(options, key=power)
