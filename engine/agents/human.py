"""The human seat: a person playing at the terminal, drawn with rich.

Generic over every rule file: it shows what the player's view holds (state
variables, zones, each player's variables and zones, the player's own cards
sorted) but what the rule file marks as bookkeeping (``show: false``), and the
numbered legal options. The player answers with a number or an option's name;
an answer naming an illegal option is refused with the rule that forbids it.
``history`` prints the match so far, ``help rules`` how to play (the rule
file's ``doc:``), ``help`` the commands, ``quit`` ends the game.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Set
from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from ..program import Program
from ..runtime.game import Decision, Option, QuitGame, card_order
from ..runtime.memory import CardBase
from .legend import card_legend, deck, full_name, legend_line, table_docs

HELP = """Answer with the number of an option or its name (e.g. 'colour R').
  history     the match so far: every move and announcement
  help rules  how to play this game: the aim, a turn, who wins, the moves
  help cards  what the cards in your hand and on the table are called
  help table  what each thing the table shows means
  help        this text
  quit        stop the game (the totals so far are shown)"""


def plural(count: int, word: str) -> str:
    """'1 card', '2 cards'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        if value and all(isinstance(v, list) for v in value):
            return ", ".join(" ".join(map(str, v)) for v in value)
        return " ".join(map(str, value)) if value else "-"
    if isinstance(value, dict) and "count" in value:
        top = f", top {value['top']}" if value.get("top") else ""
        return f"{plural(value['count'], 'card')}{top}"
    return "-" if value is None else str(value)


def render_view(view: dict, hidden: Set[str] = frozenset(), labels: Mapping[str, str] | None = None) -> Group:
    """What a player sees: the table, the players, and the player's own zones.

    `hidden` names variables the rule file marks `show: false` (bookkeeping); `labels` maps a zone to the
    variable of (player, card) pairs that says who put each card there (the rule file's `display: labels`),
    so that a trick reads "P3 7b, P2 3b".
    """
    parts: list[Any] = []
    header = [f"[bold]{k}[/]: {_show(v)}" for k, v in view["state"].items() if k not in hidden]
    if view.get("phase"):
        header.insert(0, f"[bold]phase[/]: {view['phase']}")
    if header:
        parts.append(Text.from_markup("  ".join(header)))
    for name, zone in view["zones"].items():
        parts.append(Text.from_markup(f"[bold]{name}[/]: {_show(_labelled(zone, view, (labels or {}).get(name)))}"))
    players = view["players"]
    columns = [k for p in players for k in p if k not in ("name", "seat") and k not in hidden]
    columns = list(dict.fromkeys(columns))
    if columns:
        table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
        table.add_column("player")
        for column in columns:
            table.add_column(column)
        for p in players:
            you = p["seat"] == view["seat"]
            name = f"[reverse]{p['name']} (you)[/]" if you else p["name"]
            table.add_row(name, *(_show(p.get(c)) for c in columns))
        parts.append(table)
    elif view["seat"] is not None:
        parts.append(Text(f"You are {players[view['seat']]['name']}."))
    return Group(*parts)


def _labelled(zone: Any, view: dict, variable: str | None) -> Any:
    """A zone's cards, each with who put it there when the rule file says so (`display: labels`) and the
    labels are the zone's cards."""
    pairs = view["state"].get(variable) if variable else None
    if isinstance(zone, list) and zone and isinstance(pairs, list) and \
            sorted(str(p[-1]) for p in pairs if isinstance(p, list)) == sorted(map(str, zone)):
        return pairs
    return zone


def hidden_variables(program: Any) -> set[str]:
    """Variables the rule file keeps off the human's table: bookkeeping (`show: false`), and those that say who
    put each card in a zone (`display: labels`: the zone is shown with them)."""
    return {v.name for v in program.state + program.player_state if not v.show} | \
        set(program.display.get("labels", {}).values())


def labelled_zones(program: Any) -> dict[str, str]:
    """Zone -> the variable saying who put each of its cards there (`display: labels`)."""
    return dict(program.display.get("labels", {}))


def render_table(program: Any, view: dict) -> Group:
    """A view as the rule file means it shown: its bookkeeping hidden, its labelled zones labelled, its hands in
    the order the web table shows them."""
    return render_view(in_display_order(program, view), hidden_variables(program), labelled_zones(program))


def in_display_order(program: Program, view: dict) -> dict:
    """`view` with the cards of each unordered zone (a hand) in the rule file's display order: by each attribute
    of `display: order`, its values in the order `display: values` lists them where it lists them all
    (President's 2 after its ace), else in their own; the view as it is where the file gives no order."""
    order, looks = program.display.get("order") or [], program.display.get("values", {})
    unordered = {zone.name for zone in program.zones if not zone.ordered}
    if not order or not unordered:
        return view
    cards = {card.name: card for card in deck(program)}
    places = {a: {value: i for i, (value, _) in enumerate(looks.get(a, []))} for a in order}
    for a in order:  # (a list of some values, to name them, is no order: Chinchón names its figures only)
        if not {card.get(a) for card in cards.values()} - {None} <= places[a].keys():  # (a joker has no suit)
            places[a] = {}

    def key(name: Any) -> tuple:
        card = cards.get(name)
        values = [card.get(a) if card is not None else None for a in order]
        return tuple((2, 0, "") if v is None else (0, places[a][v], "") if v in places[a] else
                     (1, v, "") if isinstance(v, (int, float)) else (1, 0, str(v)) for a, v in zip(order, values))

    def sort(zones: dict) -> dict:
        return {name: sorted(cards_, key=key) if name in unordered and isinstance(cards_, list) else cards_
                for name, cards_ in zones.items()}
    return {**view, "zones": sort(view["zones"]), "players": [sort(p) for p in view["players"]]}


def rules_words(program: Any) -> str:
    """`help rules`: how to play, from the rule file (its `doc:`), and what each move does."""
    moves = [f"  {name}: {move.doc}" for name, move in program.moves.items() if move.doc]
    doc = program.doc or f"The rule file of {program.title} says nothing of how to play ('naipes info' describes it)."
    return "\n".join([f"{program.title}", doc] + (["Moves:"] + moves if moves else []))


def cards_in_sight(view: dict) -> list[str]:
    """The names of the cards a view shows: the table's zones, then each player's, once each."""
    zones = list(view["zones"].values()) + [v for p in view["players"] for v in p.values() if isinstance(v, list)]
    names = [n for zone in zones if isinstance(zone, list) for n in zone if isinstance(n, str)]
    return list(dict.fromkeys(names))


def card_words(program: Any, view: dict) -> str:
    """`help cards`: each card in sight with its name in words ("10s  ten of stars")."""
    cards = {card.name: card for card in deck(program)}
    lines = [f"  {name:<6} {full_name(program, cards[name])}" for name in cards_in_sight(view) if name in cards]
    return "\n".join(lines) if lines else "No card is in sight."


def table_words(program: Any, view: dict, hidden: set[str]) -> str:
    """`help table`: what each variable, zone and column in the view means, from the rule file's docs."""
    docs = table_docs(program)
    shown = list(view["state"]) + list(view["zones"]) + [k for p in view["players"] for k in p]
    names = [n for n in dict.fromkeys(shown) if n not in hidden and n in docs]
    return "\n".join(f"  {name}: {docs[name]}" for name in names) or "The rule file says nothing more."


def display_order(options: list[Option]) -> list[Option]:
    """Options as a person wants them listed: cards sorted within each move, moves in their order."""
    moves = list(dict.fromkeys(o.move for o in options))
    return sorted(options, key=lambda o: (moves.index(o.move),
                                          card_order(o.arg) if isinstance(o.arg, CardBase) else ()))


HELP_TOPICS: dict[str, Callable[[Any, dict], str]] = {
    "help rules": lambda program, view: rules_words(program),
    "help cards": card_words,
    "help table": lambda program, view: table_words(program, view, hidden_variables(program)),
}


class HumanAgent:
    """A person at the terminal. `ask` and `console` are injectable for tests."""

    name = "human"
    wants_history = True

    def __init__(self, ask: Callable[[str], str] = input, console: Console | None = None):
        self.ask = ask
        self.console = console or Console(highlight=False, soft_wrap=True)
        self.legend_shown = False

    def show_legend(self, program: Any) -> None:
        """Once, before the first move: what the card names mean (from the rule file's display:)."""
        self.legend_shown = True
        legend = legend_line(card_legend(program))
        if legend:
            self.say(f"Cards: {legend}. ('help cards' names the ones in sight.)")
        self.say("'help rules' says how to play, 'help' lists the commands.")

    def say(self, message: Any) -> None:
        self.console.print(message, markup=False) if isinstance(message, str) else self.console.print(message)

    def choose(self, decision: Decision) -> Option:
        program = decision.game.program
        if not self.legend_shown:
            self.show_legend(program)
        self.say(render_table(program, decision.view))
        if decision.view.get("answered"):  # (asked with others at once: their answers are not shown yet)
            self.say(f"Already answered, not shown until all have: {', '.join(decision.view['answered'])}.")
        if decision.view.get("choosing"):  # (a compound move begun: its next part is asked)
            self.say(begun_text(program, decision.view["choosing"]))
        self.console.print(f"[bold]{decision.player_name}[/], your move:")
        options = display_order(decision.options)
        for i, option in enumerate(options, 1):
            self.console.print(f"  [cyan]{i:>2}.[/] {option.label}", highlight=False)
        while True:
            try:
                answer = self.ask("> ").strip()
            except EOFError:
                raise QuitGame() from None
            if answer.lower() == "history":
                self.say("\n".join(decision.history) or "Nothing has happened yet.")
                continue
            asked = HELP_TOPICS.get(" ".join(answer.lower().split()))
            if asked is not None:
                self.say(asked(program, decision.view))
                continue
            choice = self.interpret(answer, decision, options)
            if isinstance(choice, Option):
                return choice
            self.say(choice)

    @staticmethod
    def interpret(answer: str, decision: Decision, options: list[Option] | None = None) -> Option | str:
        """The option an answer names (numbers count in the order shown), or why it names none."""
        options = decision.options if options is None else options
        lowered = answer.lower()
        if lowered in ("quit", "exit", "q"):
            raise QuitGame()
        if lowered in ("help", "?", "h"):
            return HELP
        if not answer:
            return "Type the number or the name of an option ('help' for help)."
        if answer.isascii() and answer.isdigit():
            number = int(answer)
            if 1 <= number <= len(options):
                return options[number - 1]
            return f"There is no option {number}: choose 1 to {len(options)}."
        exact = [o for o in options if o.label.lower() == lowered]
        prefix = [o for o in options if o.label.lower().startswith(lowered)]
        if exact or len(prefix) == 1:
            return (exact or prefix)[0]
        if len(prefix) > 1:
            return f"'{answer}' could be {', '.join(o.label for o in prefix)}: be more precise."
        reason = decision.explain_illegal_label(answer)
        return f"'{answer}' is not a legal move{': ' + reason if reason else ''}. ('help' for help)"


def begun_text(program: Program, begun: dict) -> str:
    """What a compound move begun holds so far, each value by the name the rule file gives its part ("claim: chosen
    so far n 2; put 2c, 7h; now the next part": a part chosen again and again by its values so far), where the
    values alone read alike ("2, 2, 7h")."""
    spec = program.moves.get(begun["move"])
    names = [spec.arg, *(part.name for part in spec.parts)] if spec is not None else []
    chosen = []
    for i, value in enumerate(begun["chosen"]):
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        chosen.append(f"{names[i]} {shown}" if i < len(names) and names[i] else shown)
    return f"{begun['move']}: chosen so far {'; '.join(chosen)}; now the next part."
