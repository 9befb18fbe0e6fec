"""A game's score sheet: the variables its rule file declares as scores (``score: true``), hand by hand.

A game says nothing of hands to the engine, but a hand's count changes the scores all at once, between two
decisions: so the sheet notes the scores as an onlooker sees them (``Game.view(None)``) before every
decision and at the end, and writes a row whenever they have changed. Its rows are then the scores after
each hand scored, and its last one the scores the game ended with. The web table shows it when a game
ends, and so does ``naipes play``.

>>> sheet = ScoreSheet(["score"])
>>> for totals in ([0, 0], [0, 0], [10, -5], [10, -5], [25, 0]):
...     sheet.note({"players": [{"name": "P1", "score": totals[0]}, {"name": "P2", "score": totals[1]}]})
>>> print("\\n".join(sheet.lines(["P2"])))
hand       P1      P2
   1       10      -5
   2       25       0
total      25       0  (P2 wins)
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..program import Program


def score_columns(program: Program) -> list[str]:
    """The player variables `program` declares as scores, in the order it declares them."""
    return [v.name for v in program.player_state if v.score]


def sheet_of(program: Program, views: Iterable[dict]) -> dict[str, Any] | None:
    """The sheet of a game seen through these onlookers' views, in order (a replay's steps)."""
    sheet = ScoreSheet(score_columns(program))
    for view in views:
        sheet.note(view)
    return sheet.data()


class ScoreSheet:
    """The scores after each hand that changed them (see the module's docstring)."""

    def __init__(self, columns: list[str]):
        self.columns = list(columns)
        self.players: list[str] = []
        self.rows: list[list[list[Any]]] = []  # a row: for each player, the value of each column
        self._last: list[list[Any]] | None = None

    def note(self, view: dict) -> None:
        """The scores in an onlooker's view; a new row if they changed since the last note (the first is the
        start: no row)."""
        if not self.columns:
            return
        values = [[player.get(column) for column in self.columns] for player in view["players"]]
        if self._last is None:
            self.players = [player["name"] for player in view["players"]]
        elif values != self._last:
            self.rows.append(values)
        self._last = values

    def data(self) -> dict[str, Any] | None:
        """The sheet as plain data (None if the game declares no scores): columns, players, rows."""
        if not self.columns or self._last is None:
            return None
        return {"columns": self.columns, "players": self.players, "rows": self.rows, "total": self._last}

    def lines(self, winners: list[str]) -> list[str]:
        """The sheet as text, a row per hand, then the totals and who won (nothing if there are no scores)."""
        data = self.data()
        if data is None:
            return []
        heads = [name if len(self.columns) == 1 else f"{name} {column}"
                 for name in self.players for column in self.columns]
        width = max(6, *(len(head) for head in heads))

        def row(label: str, values: list[list[Any]]) -> str:
            cells = [_text(value) for player in values for value in player]
            return f"{label:<5}" + "".join(f"  {cell:>{width}}" for cell in cells)
        lines = [f"{'hand':<5}" + "".join(f"  {head:>{width}}" for head in heads)]
        lines += [row(f"{number:>4}", values) for number, values in enumerate(data["rows"], 1)]
        won = f"  ({', '.join(winners)} {'wins' if len(winners) == 1 else 'win'})" if winners else ""
        return lines + [row("total", data["total"]) + won]


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "–" if value is None else str(value)
