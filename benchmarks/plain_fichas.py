"""The chip game solved by a plain bitmask search: the reference contender of issue 11.

The rules of rulesets/fichas.yaml: two players alternate; a move takes every
chip in play of one colour or every chip in play of one value; whoever takes
the last chip wins (so the player to move on an empty table has lost).  Every
reachable position is the start's chips restricted to the surviving colours
and values, so a position is a pair of bitmasks; it is keyed by the colours and
values that still have a chip (equal keys are equal chip sets).  Like
`naipes solve`, every root move is scored (no cut at the root).

    solver = PlainSolver([("R", 1), ("B", 2), ...])
    solver.winning_moves()   # ["colour R", "value 3", ...]; empty: the mover loses
"""
from __future__ import annotations


class PlainSolver:
    def __init__(self, chips: list[tuple[str, int]]):
        self.colours = sorted({c for c, _ in chips})
        self.values = sorted({v for _, v in chips})
        # rows[i]: the values of colour i, as a bitmask over self.values
        self.rows = [0] * len(self.colours)
        for colour, value in chips:
            self.rows[self.colours.index(colour)] |= 1 << self.values.index(value)
        self.memo: dict[int, bool] = {}
        self.nodes = 0

    def present(self, colours: int, values: int) -> tuple[int, int]:
        """The colours and values that still have a chip, of those surviving."""
        have_c = have_v = 0
        for i, row in enumerate(self.rows):
            if colours >> i & 1 and row & values:
                have_c |= 1 << i
                have_v |= row & values
        return have_c, have_v

    def wins(self, colours: int, values: int) -> bool:
        """Does the player to move win?  `colours`, `values`: the present ones (see present)."""
        key = colours << 32 | values
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        won = any(not self.wins(*self.present(c, v)) for c, v in self.children(colours, values))
        self.memo[key] = won
        return won

    @staticmethod
    def children(colours: int, values: int) -> list[tuple[int, int]]:
        """The surviving (colours, values) after each move: colours first, then values, in order."""
        out = []
        bits = colours
        while bits:
            low = bits & -bits
            out.append((colours & ~low, values))
            bits ^= low
        bits = values
        while bits:
            low = bits & -bits
            out.append((colours, values & ~low))
            bits ^= low
        return out

    def winning_moves(self) -> list[str]:
        """The labels (as the rule file writes them) of every root move that wins."""
        colours, values = self.present((1 << len(self.colours)) - 1, (1 << len(self.values)) - 1)
        labels = [f"colour {c}" for i, c in enumerate(self.colours) if colours >> i & 1]
        labels += [f"value {v}" for i, v in enumerate(self.values) if values >> i & 1]
        return [label for label, (c, v) in zip(labels, self.children(colours, values))
                if not self.wins(*self.present(c, v))]

