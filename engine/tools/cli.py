"""The ``naipes`` command: a thin layer over the public API.

    naipes play RULESET [--seat AGENT]... [--players N] [--opponents LEVEL] [-p k=v]... [--seed N] [--log FILE]
                [--log-seat SEAT FILE]...
    naipes play --resume LOG [--seat AGENT|SEAT=AGENT]... [--log FILE | --no-log]
    naipes replay LOG [--seat all|watch|P2] [--to STEP] [--web]
    naipes simulate RULESET -n N [--seat AGENT]... [--players N] [--opponents LEVEL] [--jobs J] [--json FILE]
    naipes info RULESET [-p k=v]... [--json]
    naipes list
    naipes check RULESET...
    naipes solve RULESET [LOG] [-p k=v]... [--seed N] [--open] [--after N] [--to STEP] [--model M] [--json]
    naipes serve [RULESET] [--seat AGENT]... [--players N] [--opponents LEVEL] [-p k=v]... [--port N]
    naipes schema [rules|strategy]

RULESET is a path to a rule file, or the name of one in ``rulesets/``.
Errors in rule files, params and agent names are printed as located messages
with exit status 1 (never a traceback); a malformed command line (an unknown
option, a missing argument, an output file that cannot be written) is a usage error with exit status 2.
"""
from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import re
import sys
import textwrap
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Any, TextIO

import click
from rich.console import Console

from ..agents.bot_process import BotLimits
from ..agents.human import plural, render_table
from ..agents.levels import default_opponent
from ..agents.registry import AGENTS, checking, load_strategy, python_bots, shipped_agent
from ..agents.search import Solver
from ..agents.solver import MODELS
from ..errors import Location, NaipesError, ParamError, RuleError, RuleErrors
from ..language.builder import load_program
from ..language.shipped import ruleset_path, shipped_rulesets
from ..language.strategies import is_strategy_file, strategy_game_at
from ..program import Program
from ..runtime.game import Game, GameResult, QuitGame, play_game
from . import solving
from .gamelog import LogError, LogHeader, attach_log, attach_seat_log, digest
from .replay import Replay, browse, full_view, ruleset_reference, scripted, seat_named, show_step
from .scoresheet import ScoreSheet, score_columns
from .seating import close_agents, seat_agents, seat_list, seat_plan, typed_seats


def find_ruleset(name: str) -> Path:
    """A rule file from a path or a short name (``mygame`` -> rulesets/mygame.yaml, here or shipped)."""
    path = Path(name)
    if path.is_file():
        return path
    local = Path("rulesets") / (name if name.endswith((".yaml", ".yml")) else f"{name}.yaml")
    found = local if local.is_file() else ruleset_path(name)
    if found is not None:  # (a folder called `mus` where the command runs does not hide the shipped game)
        return found
    if path.exists():
        what = "a folder" if path.is_dir() else "a device, a pipe or a socket"
        raise ParamError(f"'{name}' is {what}, not a rule file")
    known = [p.stem for p in shipped_rulesets()]
    raise ParamError(f"no rule file '{name}'" + (f" (known: {', '.join(known)})" if known else ""))


def parse_params(pairs: tuple[str, ...]) -> dict[str, str]:
    params = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise ParamError(f"-p '{pair}' is not NAME=VALUE")
        params[name.strip()] = value
    return params


def load(ruleset: str, params: tuple[str, ...]) -> Program:
    return load_program(find_ruleset(ruleset), parse_params(params))


def fail(error: Exception | str, code: int = 1) -> None:
    click.echo(str(error), err=True)
    sys.exit(code)


def guarded(func: Callable) -> Callable:
    """Run a command, turning Naipes errors into located messages and exit 1."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except NaipesError as error:
            fail(error)
        except OSError as error:  # a file that could not be read or written after all (a full disk, ...)
            fail(f"{error.strerror or error}: {error.filename}" if error.filename else str(error))
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            sys.exit(130)
    wrapper.__name__, wrapper.__doc__ = func.__name__, func.__doc__
    return wrapper


def print_faults(rows: Iterable[tuple[str, int, list[str]]]) -> None:
    """After a table: who faulted, how often, and the first reasons (label, count, reasons)."""
    for label, count, reasons in rows:
        if count:
            click.echo(f"{label}: {plural(count, 'fault')}" + (", the first:" if reasons else ""))
            for reason in reasons[:3]:
                click.echo(f"    {reason}")


def pick_seed(seed: int | None) -> int:
    return seed if seed is not None else random.SystemRandom().randrange(1 << 31)


def trace_printer(record: dict) -> None:
    if record["type"] == "strategy":
        click.echo(f"[trace] {record['player']} ({record['strategy']}): rule {record['rule']} chose "
                   f"{record['choice']}", err=True)
    if record["type"] == "step":
        click.echo(f"[trace]    step {record['step']} (entering {record['phase']})", err=True)
    if record["type"] != "fire":
        return
    binding = ", ".join(f"{k}={v}" for k, v in record["binding"].items())
    click.echo(f"[trace] fire {record['rule']}{' {' + binding + '}' if binding else ''} "
               f"({'entering the phase' if record['priority'] == 'entry' else 'priority ' + str(record['priority'])})",
               err=True)
    for other in record["over"]:
        click.echo(f"[trace]    over {other}", err=True)


def table_printer(program: Program, quiet: Callable[[], bool] = lambda: False) -> Callable[[dict], None]:
    """What a person at the table is told (a game observer): announcements, each move once as the others see
    it, in its own words ('P1 bids 3': the move's `verb:`), the end. Nothing while `quiet()` (a resumed game
    catching up)."""
    def tell(record: dict) -> None:
        kind = record["type"]
        if quiet():
            return
        if kind == "announce":
            click.echo(f"* {record['text']}")
        elif kind == "decision":
            told = program.told(record["move"], record["player"], record["choice"])
            if told:  # (an empty public form tells nothing)
                click.echo(told)
        elif kind == "end":
            if record.get("cut_off"):
                click.echo(f"Game {record['cut_off']}: nobody wins.")
                return
            winners = ", ".join(record["winners"]) or "nobody"
            click.echo(f"Game over. Winner: {winners}.")
    return tell


def output_file(context: click.Context, parameter: click.Parameter, value: str | None) -> str | None:
    """Check that an output file can be written before any work starts (a usage error naming the flag)."""
    if value is None:
        return None
    path = Path(value)
    if path.is_dir():
        raise click.BadParameter(f"'{value}' is a folder; name a file")
    if not path.parent.is_dir():
        raise click.BadParameter(f"cannot write '{value}': the folder '{path.parent}' does not exist")
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise click.BadParameter(f"cannot write '{value}': permission denied")
    if parameter.name == "plot_path":
        from matplotlib.figure import Figure
        formats = Figure().canvas.get_supported_filetypes()
        if path.suffix.lstrip(".").lower() not in formats:
            raise click.BadParameter(f"'{value}': a plot is written as one of .{', .'.join(sorted(formats))}")
    return value


def output_option(flag: str, name: str, text: str) -> Callable:
    return click.option(flag, name, metavar="FILE", callback=output_file, help=text)


params_option = click.option("-p", "--param", "params", multiple=True, metavar="NAME=VALUE",
                             help="Override a rule-file param (repeatable).")
AGENT_HELP = (f"{', '.join(AGENTS)} (options: ismcts:iterations=200,seconds=0.5,policy=LEVEL), a strategy level "
              "of the game (strong, expert, ...: 'naipes info GAME' lists them) or a strategy file's path, "
              "or python:FILE.py:CLASS")


seat_option = click.option("--seat", "seats", multiple=True, metavar="AGENT",
                           help=f"An agent (repeatable, one per seat): {AGENT_HELP}.")


def seat_options(command: Callable) -> Callable:
    """--seat (repeatable), --players and --opponents: who sits where (naipes.tools.seating)."""
    for option in reversed([
            click.option("--seat", "seats", multiple=True, metavar="AGENT",
                         help=f"Agent for the next seat, in seat order (repeatable): {AGENT_HELP}."),
            click.option("--players", type=click.IntRange(min=1), default=None,
                         help="Number of players (default: the rule file's, or as many as --seat names)."),
            click.option("--opponents", metavar="LEVEL", default=None,
                         help="Agent for every seat not named with --seat (default: the rule file's AI, "
                              "its strongest level).")]):
        command = option(command)
    return command


def seated(program: Program, seats: tuple[str, ...], players: int | None, opponents: str | None, seed: int,
           limits: BotLimits, person_first: bool, typed: Collection[int] | None = None) -> tuple[list, list[str], str]:
    """The agents of the table, their names as given (what a log records), and the lines saying who sits where.
    `typed`: the seats whose names the person typed (by default those --seat and --opponents name)."""
    names = seat_plan(program, seats, players, opponents, person_first)
    typed = typed_seats(names, seats, opponents) if typed is None else typed
    agents = seat_agents(program, names, len(seats), seed, limits, typed)
    return agents, names, seat_list(program, names, [agent.name for agent in agents], len(seats))


seed_option = click.option("--seed", type=int, default=None, help="Seed of the game (a run is reproducible from it).")


def bot_limit_options(command: Callable) -> Callable:
    """--time-limit, --game-time-limit and --memory-limit for Python bots, passed on as `limits`."""
    @click.option("--time-limit", type=click.FloatRange(min=0.001), default=BotLimits.decision, show_default=True,
                  help="Seconds a Python bot may take per call (a decision, an event); past it, its process is "
                       "ended.")
    @click.option("--game-time-limit", type=click.FloatRange(min=0.001), default=BotLimits.game, show_default=True,
                  help="Seconds a Python bot may take in all of one game.")
    @click.option("--memory-limit", type=click.IntRange(min=64), default=BotLimits.memory_mb, show_default=True,
                  help="MiB of memory a Python bot's process may use.")
    @functools.wraps(command)
    def with_limits(*args: Any, time_limit: float, game_time_limit: float, memory_limit: int, **kwargs: Any) -> Any:
        return command(*args, limits=BotLimits(time_limit, game_time_limit, memory_limit), **kwargs)
    return with_limits


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="naipes")
def main() -> None:
    """Naipes: card games as declarative rule files, run by one rules engine."""


def seat_log_files(context: click.Context, parameter: click.Parameter, value: tuple) -> tuple:
    """--log-seat SEAT FILE (repeatable): each FILE checked as an output file (SEAT, against the game, later)."""
    return tuple((seat, output_file(context, parameter, file)) for seat, file in value)


@main.command()
@click.argument("ruleset", required=False)
@seat_options
@params_option
@seed_option
@output_option("--log", "log_path", "Write the game as JSON lines (to replay it with 'naipes replay', or resume it "
                                    "with --resume): every card, the seed, each seat's options, so not for the "
                                    "players' eyes before the game is over. Each record says who may see it "
                                    "(visibility: public, a player, or full).")
@click.option("--no-log", is_flag=True, help="With --resume: do not log the rest of the game (by default it is "
                                             "logged to the resumed log, or to --log FILE).")
@click.option("--log-seat", "seat_logs", type=(str, str), multiple=True, metavar="SEAT FILE", callback=seat_log_files,
              help="Write what SEAT (P2, or its number: 2) saw as JSON lines: the public records, the "
                   "others' moves as the table heard them, its own options and cards; no seed. Safe to give that "
                   "player (repeatable, a seat each; it cannot be replayed).")
@click.option("--trace", is_flag=True, help="Print each rule firing and why it won over the others pending, and which "
                   "strategy rule chose each AI move.")
@click.option("--resume", "resume_path", type=click.Path(exists=True, dir_okay=False),
              help="Continue the game saved in this log (written by --log): its moves are made again, then the "
                   "seats play on: the log's, but a Python bot or a file only if the command line names it (--seat "
                   "P2=AGENT replaces one seat's agent; --seat AGENT... all of them). The whole game is logged "
                   "again to the same file (--log FILE: to another; --no-log: not at all). RULESET, if given, "
                   "replaces the rule file the log names (which must be given if the log names one that is not "
                   "shipped).")
@bot_limit_options
@guarded
def play(ruleset: str | None, seats: tuple[str, ...], players: int | None, opponents: str | None,
         params: tuple[str, ...], seed: int | None, log_path: str | None, no_log: bool,
         seat_logs: tuple[tuple[str, str], ...], trace: bool, resume_path: str | None, limits: BotLimits) -> None:
    """Play one game of RULESET (by default: you at seat 1 against the rule file's AI, its strongest level),
    or resume a logged one.

    'naipes info RULESET' lists its params, AI levels and what the card names mean.
    """
    if no_log and (log_path or not resume_path):
        raise click.UsageError("--no-log is for --resume (without --log): a new game is logged only with --log")
    if resume_path:
        resumed = resume_from(resume_path, ruleset, params, seed)
        program, seed, rule_file, overrides = resumed.program, resumed.header["seed"], resumed.rule_file, \
            resumed.header["params"]
        seats, typed = resumed_names(resumed, seats)  # as many seats as the log's game
        log_path = None if no_log else log_path or writable_log(resume_path)
    elif ruleset is None:
        raise click.UsageError("name a RULESET to play, or a log to continue with --resume LOG")
    else:
        resumed, rule_file, overrides, typed = None, find_ruleset(ruleset), parse_params(params), None
        program, seed = load_program(rule_file, overrides), pick_seed(seed)
    agents, names, seating = seated(program, seats, players, opponents, seed, limits, person_first=resumed is None,
                                    typed=typed)
    count = len(agents)
    game = Game(program, seed, players=count)
    with contextlib.ExitStack() as cleanup:
        log = cleanup.enter_context(GameLog(log_path, resumed))
        if resumed is not None:
            agents = resumed_seats(resumed, agents, log.caught_up)
        cleanup.callback(close_agents, agents)
        header = LogHeader(ruleset_reference(rule_file), digest(rule_file), overrides, seed, names)
        for seat, path in seat_logs:
            attach_seat_log(game, cleanup.enter_context(open(path, "w", encoding="utf-8")), header,
                            seat_number(game, seat))
        click.echo(f"{program.title} — seed {seed}\n{seating}")
        if trace:
            game.listeners.append(trace_printer)
        if log.stream is not None:
            attach_log(game, log.stream, header)
        game.observers.append(table_printer(program, quiet=lambda: log.catching_up))
        sheet = ScoreSheet(score_columns(program))
        try:
            result = play_game(program, agents, seed, game=game, on_decision=lambda _: sheet.note(game.view(None)))
            sheet.note(game.view(None))
            report(game, result, sheet)
            print_faults(seat_faults(agents))
        except QuitGame:
            click.echo("You quit before the end. The game so far:")
            print_table(game)
            if log_path:
                click.echo(f"Continue it with: naipes play --resume {log_path}")


class GameLog:
    """The file `play` logs a game to (None: no log). A resumed game whose log is written to the file it was
    resumed from is written beside it (FILE.part) until its logged decisions are made again, then takes the old
    log's place: a failure meanwhile loses nothing."""

    def __init__(self, path: str | None, resumed: Replay | None):
        self.path = Path(path) if path else None
        self.catching_up = resumed is not None and resumed.steps > 0
        same = resumed is not None and self.path is not None and self.path.resolve() == resumed.path.resolve()
        self.writing = self.path.with_name(self.path.name + ".part") if same and self.path else self.path
        self.stream: TextIO | None = None

    def __enter__(self) -> GameLog:
        self.stream = self.writing.open("w", encoding="utf-8") if self.writing else None
        return self

    def caught_up(self) -> None:
        """The resumed game's logged decisions are made: its log takes the old one's place."""
        self.catching_up = False
        if self.writing != self.path and self.path and self.writing and self.writing.exists():
            os.replace(self.writing, self.path)
            self.writing = self.path

    def __exit__(self, *exc: object) -> None:
        if self.stream is not None:
            self.stream.close()
        if self.writing != self.path and self.writing is not None:  # stopped before catching up: the old log stays
            self.writing.unlink(missing_ok=True)


def writable_log(path: str) -> str:
    """The resumed log, which its continuation is written to (beside it, then in its place): checked first."""
    folder = Path(path).resolve().parent
    if not os.access(path, os.W_OK) or not os.access(folder, os.W_OK):
        raise click.UsageError(f"cannot write '{path}' (the rest of the game is logged to it): name another file "
                               "with --log FILE, or --no-log")
    return path


def seat_number(game: Game, seat: str) -> int:
    """A seat named on the command line as the table numbers them: a player's name (P2, any case) or its
    number from 1."""
    try:
        return seat_named(seat, [p.name for p in game.memory.players])
    except NaipesError as error:
        raise click.BadParameter(str(error), param_hint="--log-seat") from None


def resume_from(log: str, ruleset: str | None, params: tuple[str, ...], seed: int | None) -> Replay:
    """The logged game to continue, run again and checked; its rule file, params and seed are the log's."""
    if params or seed is not None:
        raise click.UsageError("a resumed game keeps the log's params and seed: leave out -p and --seed")
    resumed = Replay.load(log, find_ruleset(ruleset) if ruleset else None)
    if resumed.game.over:
        raise NaipesError(f"the game in {log} is over: nothing to resume (naipes replay {log} shows it)")
    click.echo(f"Resuming {log}: {resumed.steps} moves made again, then {resumed.game.mover.name} to move.")
    return resumed


def resumed_names(resumed: Replay, seats: tuple[str, ...]) -> tuple[tuple[str, ...], set[int]]:
    """The agents of a resumed game: the command line's (--seat AGENT... for every seat, or --seat SEAT=AGENT for
    some), else the log's; and the seats whose agent the person typed. A seat the log gives a Python bot or a file
    by its path (a log chooses nothing that runs) must be named on the command line; the error says how."""
    replaced = [seat for seat in seats if SEAT_AGENT.fullmatch(seat)]
    if replaced and len(replaced) < len(seats):
        raise click.BadParameter("give every seat's agent (--seat AGENT, in seat order) or replace some "
                                 "(--seat SEAT=AGENT), not both", param_hint="--seat")
    if seats and not replaced:
        return seats, set(range(len(seats)))
    names = list(resumed.header["seats"])
    players = [p.name for p in resumed.game.memory.players]
    if len(names) != len(players):
        raise LogError(f"the log names {len(names)} seats for a game of {len(players)} players",
                       Location(str(resumed.path), 1, 1))
    named: set[int] = set()
    for text in replaced:
        seat, _, agent = text.partition("=")
        number = resumed.seat(seat)
        if not isinstance(number, int):
            raise click.BadParameter(f"'{text}': name a seat (P1, or its number: 1) before '='", param_hint="--seat")
        names[number] = agent
        named.add(number)
    refused = [(player, name) for number, (player, name) in enumerate(zip(players, names))
               if number not in named and not shipped_agent(name)]
    if refused:
        lines = [f"the log names {'the bot' if name.startswith('python:') else 'the agent'} {name} for {player}; "
                 f"pass --seat {player}={name} to use it" for player, name in refused]
        raise NaipesError("a log does not choose what runs: " + "; ".join(lines)
                          + " (or another agent: --seat SEAT=AGENT)")
    return tuple(names), named


SEAT_AGENT = re.compile(r"[A-Za-z]*[0-9]+=.+")  # --seat P2=AGENT, or 1=AGENT: one seat's agent replaced


def resumed_seats(resumed: Replay, agents: list, caught_up: Callable[[], None]) -> list:
    """The agents, making the log's moves first (then `caught_up()`); the log's game must have as many seats."""
    players = len(resumed.game.memory.players)
    if len(agents) != players:
        close_agents(agents)
        raise click.BadParameter(f"the game in {resumed.path} has {players} players, not {len(agents)}",
                                 param_hint="--seat")
    return scripted(agents, resumed.decisions, caught_up)


@main.command()
@click.argument("log", type=click.Path(exists=True, dir_okay=False))
@click.option("--ruleset", default=None, help="The rule file to replay with (a path or a name), if not the one the "
                                              "log names.")
@click.option("--seat", "seat", default="all", show_default=True,
              help="Whose view: all (every card face up, every shuffle and card movement), watch (an onlooker), or "
                   "a player: P2, or its number as the table numbers them (2).")
@click.option("--to", "to_step", type=click.IntRange(min=0), default=None,
              help="Print step N (0: the position at the first decision; N: after the N-th) and exit.")
@click.option("--web", is_flag=True, help="Step through the game in the browser (needs the web extra).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="With --web: the port to listen on (0: any free port).")
@guarded
def replay(log: str, ruleset: str | None, seat: str, to_step: int | None, web: bool, port: int) -> None:
    """Step through a game saved with 'play --log': forward, back, any seat's view, or every card face up.

    The rule file is run again with the logged moves and checked against the
    log record by record: a log of another rule file, or of one changed since,
    is an error at the first line that differs. Interactive commands: Enter or
    n (next), b (back), a step number, seat all|watch|N, q (quit).
    """
    replayed = Replay.load(log, find_ruleset(ruleset) if ruleset else None)
    seat_shown = replayed.seat(seat)
    if replayed.changed_rule_file:
        click.echo(f"note: {replayed.rule_file} has changed since the log was written, but this game replays the "
                   f"same", err=True)
    if replayed.cut_short:
        click.echo(f"note: the log stops in the middle of step {replayed.steps}; the rest of it is the rule file's",
                   err=True)
    if web:
        serve_replay(replayed, port)
    elif to_step is not None:
        show_step(replayed, to_step, seat_shown)
    else:
        browse(replayed, seat_shown)


def serve_replay(replayed: Replay, port: int) -> None:
    try:
        from ..web.app import create_app
        from ..web.server import address, listen, run
    except ImportError as error:
        raise NaipesError(f"'naipes replay --web' needs the web extra ({error.name} is missing): "
                          f"pip install 'naipes[web]'") from None
    app = create_app({path.stem: path for path in shipped_rulesets()}, replay=replayed)  # New game: the lobby
    sock = listen("127.0.0.1", port)
    click.echo(f"Replaying {replayed.path} at {address(sock)}replay (Ctrl-C to stop)")
    run(app, sock)


def seat_faults(agents: list) -> list[tuple[str, int, list[str]]]:
    faults = [getattr(agent, "faults", []) for agent in agents]
    return [(f"P{i + 1} {agent.name}", len(f), f) for i, (agent, f) in enumerate(zip(agents, faults))]


def report(game: Game, result: GameResult, sheet: ScoreSheet) -> None:
    """The game's score sheet (its scores after each hand, and the totals), or each player's payoff if it
    declares no scores. A game cut off before its end (max_decisions) without a score sheet shows the table as
    it stood, with its running totals; its payoffs are then the rule file's `result:` as things stood, and
    without one (the winners score 1) nobody won and they say nothing: they are left out."""
    lines = sheet.lines([result.names[i] for i in result.winners])
    if not lines and result.cut_off:
        click.echo("The table as it stood:")
        print_table(game)
        if game.program.result is None:
            return
        click.echo("Payoffs as things stood (the rule file's result):")
    for line in lines or [f"{name}: {payoff}" for name, payoff in zip(result.names, result.payoffs)]:
        click.echo(f"  {line}")


def print_table(game: Game) -> None:
    """The table as an onlooker sees it (the variables marked `show: false` left out)."""
    Console(highlight=False).print(render_table(game.program, game.view(None)))


@main.command()
@click.argument("ruleset")
@click.option("-n", "--games", type=click.IntRange(min=1), required=True, help="Number of games.")
@seat_options
@params_option
@seed_option
@click.option("--jobs", type=click.IntRange(min=0), default=1, show_default=True,
              help="Worker processes (0: one per core). With 1, each seat is one agent for the whole run "
                   "(agents that learn across games keep what they learnt); the results do not depend on it.")
@output_option("--json", "json_path", "Write the results as JSON.")
@bot_limit_options
@guarded
def simulate(ruleset: str, games: int, seats: tuple[str, ...], players: int | None, opponents: str | None,
             params: tuple[str, ...], seed: int | None, jobs: int, json_path: str | None, limits: BotLimits) -> None:
    """Play N games AI against AI; wins (95% Wilson interval), mean result and faults per seat.

    Seats not named with --seat get --opponents (default: the rule file's AI).
    """
    from .simulation import run_simulation
    program = load(ruleset, params)
    seed = pick_seed(seed)
    if "human" in seats or opponents == "human":
        raise click.BadParameter("simulate is for AI seats; use 'play' to play", param_hint="--seat")
    names = seat_plan(program, seats, players, opponents)
    agents = seat_agents(program, names, len(seats), seed, limits,  # made once to check every name before the run
                         typed_seats(names, seats, opponents))
    close_agents(agents)
    labels = [agent.name for agent in agents]
    click.echo(seat_list(program, names, labels, len(seats)))
    with click.progressbar(length=games, label=f"{plural(games, 'game')} of {program.ruleset}", file=sys.stderr) as bar:
        summary = run_simulation(program, names, games, seed, jobs, bar.update, limits)
    print_simulation(summary, labels, program.max_decisions)
    write_json(summary, json_path)
    if summary["interrupted"]:
        sys.exit(130)


def print_simulation(summary: dict, labels: list[str], max_decisions: int) -> None:
    games, seed = summary["games"], summary["seed"]
    if summary["interrupted"]:
        click.echo(f"interrupted: the results of the first {plural(games, 'game')} of {summary['requested']}",
                   err=True)
    click.echo(f"{summary['title']}: {plural(games, 'game')}, seeds {seed}..{seed + games - 1}")
    if summary["cut_off"]:
        click.echo(f"{summary['cut_off']} of them cut off after {max_decisions:,} decisions (max_decisions): "
                   "nobody won those")
    width = max(12, *(len(label) + 2 for label in labels))
    click.echo(f"{'seat':<6}{'agent':<{width}}{'wins':>8}{'win %':>9}  {'95% CI':<15}{'mean result':>12}{'faults':>8}")
    for row, label in zip(summary["seats"], labels):
        low, high = row["win_ci"]
        click.echo(f"{row['seat']:<6}{label:<{width}}{row['wins']:>8}{100 * row['win_rate']:>8.1f}%  "
                   f"[{100 * low:>4.1f}, {100 * high:>5.1f}]{row['mean_result']:>12.3f}{row['faults']:>8}")
    print_faults((f"{row['seat']} {label}", row["faults"], row["fault_reasons"])
                 for row, label in zip(summary["seats"], labels))


def write_json(summary: dict, path: str | None) -> None:
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(summary, out, indent=2, default=str)


@main.command()
@click.argument("ruleset")
@click.option("-n", "--deals", type=click.IntRange(min=1), required=True,
              help="Number of deals; each is played once per rotation of the seats.")
@seat_option
@params_option
@seed_option
@click.option("--jobs", type=click.IntRange(min=0), default=0, show_default=True,
              help="Worker processes (0: one per core; 1 for agents that learn across games).")
@click.option("--cluster", metavar="ADDRESS", default=None,
              help="Play the deals on a Dask distributed cluster (its scheduler's address, e.g. tcp://host:8786; "
                   "needs the [cluster] extra); --jobs is then ignored.")
@output_option("--json", "json_path", "Write the results as JSON.")
@output_option("--plot", "plot_path", "Write a plot (a PNG, or .svg, .pdf, ...) of each agent's mean payoff with its "
               "95% interval.")
@bot_limit_options
@guarded
def tournament(ruleset: str, deals: int, seats: tuple[str, ...], params: tuple[str, ...], seed: int | None,
               jobs: int, cluster: str | None, json_path: str | None, plot_path: str | None,
               limits: BotLimits) -> None:
    """Play N deals with the agents in every seating; win rates and payoffs with 95% intervals.

    Win rates get Wilson intervals; Ctrl-C stops the run and reports the deals played so far.
    """
    from .tournament import plot, run_tournament
    if len(seats) < 2:
        raise ParamError("name the agents with --seat, one per seat (at least two)")
    path = str(find_ruleset(ruleset))
    seed = pick_seed(seed)
    with click.progressbar(length=deals, label=f"{deals} deals × {len(seats)} seatings", file=sys.stderr) as bar:
        summary = run_tournament(path, list(seats), deals, seed, parse_params(params), jobs, bar.update, cluster,
                                 limits)
    if summary["interrupted"]:
        click.echo(f"interrupted: the results of the first {plural(summary['deals'], 'deal')} of {deals}", err=True)
    click.echo(f"{summary['ruleset']}: {plural(summary['deals'], 'deal')}, {plural(summary['games'], 'game')}, "
               f"seed {seed}")
    if summary["cut_off"]:
        click.echo(f"{plural(summary['cut_off'], 'game')} cut off (max_decisions): nobody won those")
    click.echo(f"{'agent':<28}{'win rate':>10}  {'95% CI':<17}{'mean payoff':>12}  {'95% CI':<19}{'faults':>7}")
    for a in summary["agents"]:
        click.echo(f"{a['seat_label']:<28}{a['win_rate']:>10.3f}  [{a['win_ci'][0]:.3f}, {a['win_ci'][1]:.3f}]"
                   f"{a['mean_payoff']:>12.3f}  [{a['payoff_ci'][0]:.3f}, {a['payoff_ci'][1]:.3f}]{a['faults']:>7}")
    print_faults((a["seat_label"], a["faults"], a["fault_reasons"]) for a in summary["agents"])
    write_json(summary, json_path)
    if plot_path:
        plot(summary, plot_path)
    if summary["interrupted"]:
        sys.exit(130)


@main.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--ruleset", "rulesets", multiple=True, metavar="RULESET",
              help="A rule file whose games get a new deal each (repeatable).")
@click.option("--static", "statics", multiple=True, metavar="RULESET",
              help="A rule file played as a static environment: one deal and table for the whole block "
                   "(repeatable).")
@click.option("-n", "--games", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games per rule file (per block for static ones).")
@seed_option
@output_option("--json", "json_path", "Write the results as JSON.")
@bot_limit_options
@guarded
def competition(folder: str, rulesets: tuple[str, ...], statics: tuple[str, ...], games: int, seed: int | None,
                json_path: str | None, limits: BotLimits) -> None:
    """Run every Bot class in FOLDER's .py files through the given rule files; a league table.

    A competition with a changing and a static environment:
    naipes competition BOTS --ruleset GAME --static GAME_STATIC
    """
    from .competition import run_competition
    if not rulesets and not statics:
        raise ParamError("name the rule files to play with --ruleset (a new deal each game) "
                         "and/or --static (one deal for the whole block)")
    dynamic = [str(find_ruleset(r)) for r in rulesets]
    static = [str(find_ruleset(r)) for r in statics]
    seed = pick_seed(seed)
    with click.progressbar(length=games * (len(dynamic) + len(static)), label="competition", file=sys.stderr) as bar:
        summary = run_competition(dynamic + static, folder, games, seed, tuple(static), limits, bar.update)
    click.echo(f"Competition: {plural(len(summary['entrants']), 'bot')}, {plural(games, 'game')} per rule file, "
               f"seed {seed}")
    names = list(summary["standings"])
    click.echo(f"{'#':<4}{'bot':<24}{'games':>7}{'points/game':>13}{'wins':>8}{'faults':>8}"
               + "".join(f"{n:>16}" for n in names))
    for rank, row in enumerate(summary["table"], 1):
        click.echo(f"{rank:<4}{row['entrant']:<24}{row['games']:>7}{row['mean_points']:>13.2f}{row['wins']:>8.1f}"
                   f"{row['faults']:>8}" + "".join(f"{'-':>16}" if row["by_ruleset"][n] is None else
                                                   f"{row['by_ruleset'][n]:>16.2f}" for n in names))
    print_faults((row["entrant"], row["faults"], row["fault_reasons"]) for row in summary["table"])
    write_json(summary, json_path)


@main.command()
@click.argument("ruleset", required=False)
@seat_options
@params_option
@seed_option
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; the default lets only this machine in. Pages are served to this "
                   "name and this machine's local names only (0.0.0.0: also its host name and addresses).")
@click.option("--pause", type=click.FloatRange(min=0), default=0.6, show_default=True,
              help="Seconds an AI waits before moving, so that people can follow the play.")
@click.option("--log", "log_folder", type=click.Path(file_okay=False), default=None,
              help="Keep every table's game in this folder (a log per table, as 'play --log' writes): finished "
                   "games can be replayed and downloaded, stopped ones resumed from the page, after a restart too.")
@guarded
def serve(ruleset: str | None, seats: tuple[str, ...], players: int | None, opponents: str | None,
          params: tuple[str, ...], seed: int | None, port: int, host: str, pause: float,
          log_folder: str | None) -> None:
    """Play in the browser: a local web table of RULESET (or a choose-game screen), for one or more people.

    Seats as in 'play' (default: you, then the rule file's AI, its strongest level); a 'human' seat
    is taken by a browser tab. Every shipped game can also be started from
    the page.
    """
    try:
        from ..web.app import create_app, new_table
        from ..web.server import address, host_names, listen, run
    except ImportError as error:
        raise NaipesError(f"'naipes serve' needs the web extra ({error.name} is missing): "
                          f"pip install 'naipes[web]'") from None
    rulesets = {path.stem: path for path in shipped_rulesets()}
    name = None
    if ruleset is not None:
        path = find_ruleset(ruleset)
        name = path.stem if rulesets.get(path.stem, path).resolve() == path.resolve() else f"{path.stem} ({path})"
        rulesets[name] = path
    elif seats or params or players or opponents:
        raise click.UsageError("--seat, --players, --opponents and -p need a RULESET")
    app = create_app(rulesets, pause=pause, hosts=host_names(host), logs=Path(log_folder) if log_folder else None)
    names = None
    if name is not None:  # (the seats are checked before the port is taken)
        names = seat_plan(load_program(rulesets[name], parse_params(params)), seats, players, opponents,
                          person_first=True)
    with contextlib.closing(listen(host, port)) as sock:
        url = address(sock)
        table = None if name is None else new_table(app, name, parse_params(params), names, seed, checked=False)
        click.echo(f"Naipes is serving at {url} (Ctrl-C to stop)")
        if log_folder:
            click.echo(f"Games are kept in {log_folder}")
        if table is not None:
            click.echo(f"{table.program.title}" + (f", seed {table.seed}" if seed is not None else
                                                     " (its seed is shown when the game is over)"))
            click.echo(seat_list(table.program, table.seat_specs, table.seat_specs, len(seats)))
            for seat in table.humans:
                who = "you" if seat == table.host else "another person: send them this link"
                click.echo(f"  {table.names[seat]} ({who}): {url}{table.link(seat)}")
            if not table.humans:
                click.echo(f"  watch: {url}table/{table.id}?seat=watch")
        run(app, sock)


@main.command()
@click.argument("ruleset")
@params_option
@click.option("--json", "as_json", is_flag=True, help="Print the description as JSON.")
@guarded
def info(ruleset: str, params: tuple[str, ...], as_json: bool) -> None:
    """Describe RULESET: players, params (type, default, what each does), moves, phases, AI levels, card names."""
    from ..agents.legend import legend_line
    from .catalogue import describe
    entry = describe(load(ruleset, params))
    if as_json:
        click.echo(json.dumps(entry, indent=2, ensure_ascii=False, default=str))
        return
    players = entry["players"]
    click.echo(f"{entry['title']} ({entry['name']})")
    for line in entry["doc"].splitlines():
        click.echo(textwrap.fill(line, width=100, initial_indent="  ", subsequent_indent="  "))
    click.echo(f"players: {players['min']} to {players['max']}, {players['default']} by default; "
               f"the AI: {players['ai']}")
    click.echo("params (-p NAME=VALUE):" if entry["params"] else "params: none")
    for p in entry["params"]:
        limits = ", ".join(filter(None, [f"min {p['min']}" if p["min"] is not None else "",
                                         f"max {p['max']}" if p["max"] is not None else "",
                                         f"one of {', '.join(map(str, p['choices']))}" if p["choices"] else ""]))
        click.echo(f"  {p['name']} ({p['type']}, default {json.dumps(p['default'], ensure_ascii=False)}"
                   f"{'; ' + limits if limits else ''})" + (f": {p['doc']}" if p["doc"] else ""))
    for title, rows in (("moves", entry["moves"]), ("phases", entry["phases"])):
        if rows:
            click.echo(f"{title}:")
            for row in rows:
                click.echo(f"  {row['name']}" + (f": {row['doc']}" if row["doc"] else ""))
    click.echo("AI levels (--seat LEVEL, --opponents LEVEL):")
    agent, _, options = players["ai"].partition(":")  # (a built-in agent may be the default with options)
    for level in entry["levels"]:
        marked = f" [the default: {players['ai']}]" if options else " [the default]"
        default = marked if level["name"] == agent else ""
        click.echo(f"  {level['name']} ({level['kind']}){default}: {level['about']}")
    legend = legend_line(entry["legend"])
    if legend:
        click.echo(f"cards: {legend}")


@main.command(name="list")
def list_games() -> None:
    """List the shipped games (rule files) and the strategies (AI levels) of each."""
    import yaml

    from ..agents.levels import strategy_levels
    from ..language.shipped import STRATEGIES
    from .catalogue import glance
    for path in shipped_rulesets():  # (read, not compiled: 'naipes info' compiles one)
        try:
            game = glance(path)
        except (OSError, yaml.YAMLError) as error:
            click.echo(f"{path.stem}: cannot be read: {error}", err=True)
            continue
        low, high = game.players["min"], game.players["max"]
        seats = f"{low}" if low == high else f"{low}-{high}"
        levels = [level["name"] for level in strategy_levels(game)]
        click.echo(f"{game.file:<20}{game.title} ({seats} players; AI {default_opponent(game)}"
                   + (f"; strategies: {', '.join(levels)}" if levels else "") + ")")
    click.echo(f"Strategies are in {STRATEGIES}; built-in agents: {', '.join(AGENTS)}. "
               "'naipes info GAME' describes one game.")


@main.command()
@click.argument("rulesets", nargs=-1, required=True)
@params_option
@click.option("--games", type=click.IntRange(min=0), default=4, show_default=True,
              help="games of random players to play each rule file to its end, going through the numbers of "
                   "players it seats (0: load and start only)")
@click.option("--search", type=click.IntRange(min=0), default=0, show_default=True,
              help="games of search guided by the file's evaluation against random play, in the same deals "
                   "(whole games: seconds each); a warning if the search does clearly worse")
@click.option("--seed", type=int, default=1, show_default=True, help="the first game's seed")
def check(rulesets: tuple[str, ...], params: tuple[str, ...], games: int, search: int, seed: int) -> None:
    """Validate rule files and strategy files; report every error (exit 1 if any).

    A strategy is checked against the rule file its 'game:' names: one given before it (naipes check mygame.yaml
    mybot.yaml), else GAME.yaml beside it, else the shipped one. A rule file is also played as the table plays it:
    a few games of random players to their end, at each number of players it seats in turn (an error if one
    fails, with the command that replays it), with
    warnings for a game that does not end, for moves the bridges cannot number (no 'space:') and for a text
    compared with that nothing makes (a near miss of one the file makes: a misspelling); with
    --search N, also whether search under its 'evaluation' does worse than random play.
    """
    failed, checked = False, dict[str, Program]()
    for name in rulesets:
        try:
            if Path(name).is_file() and is_strategy_file(name):
                with checking() as bots:  # a Python bot it names is read as text, never run
                    strategy = load_strategy(name, _played_by(name, params, checked))
                click.echo(f"{name}: ok (a strategy for {strategy.game.name}: {len(strategy.program.rules)} "
                           f"decision rules, {sum(map(len, strategy.observations.values()))} observation rules)")
                for bot in bots:
                    click.echo(f"  note: it names the Python bot {bot} (checked as text, not run); a file cannot "
                               f"start one: a game refuses it (seat it with --seat {bot})")
                continue
            program = load(name, params)
            checked[program.name] = program
            Game(program, 0).start()  # the setup and first rules must run too
            warnings = _tried(name, program, games, search, seed, params)
            if warnings is None:
                failed = True
                continue
            click.echo(f"{name}: ok ({len(program.rules)} rules, {len(program.moves)} moves)")
            for warning in warnings:
                click.echo(f"  warning: {warning}")
            for bot in python_bots(program.default_ai):
                click.echo(f"  note: players.ai names the Python bot {bot}, which a file cannot start: its seats "
                           f"get {default_opponent(program)} (seat the bot with --seat {bot})")
        except RuleErrors as errors:
            failed = True
            click.echo(str(errors), err=True)
            click.echo(f"{name}: {len(errors.errors)} error(s)", err=True)
        except NaipesError as error:
            failed = True
            click.echo(str(error), err=True)
            click.echo(f"{name}: 1 error", err=True)
    sys.exit(1 if failed else 0)


def _played_by(strategy: str, params: tuple[str, ...], checked: dict[str, Program]) -> Program:
    """The rule file a strategy file plays (its `game:`), to check it with: one checked before it in the same
    command, else GAME.yaml beside it, else the rule file of that name (in ./rulesets, or shipped)."""
    game, where = strategy_game_at(strategy)
    beside = Path(strategy).with_name(f"{game}.yaml")
    if game in checked:
        return checked[game]
    try:
        return load(str(beside) if beside.is_file() else game, params)
    except ParamError as error:
        raise RuleError(f"{error}", where, hint=f"check it with its rule file: naipes check RULES.yaml {strategy} "
                                                f"(or put {game}.yaml beside it)") from None


def _tried(name: str, program: Program, games: int, search: int, seed: int,
           params: tuple[str, ...]) -> list[str] | None:
    """Play `program` as `check --games --search` say: what the trials warn of, or None (said) if a game failed."""
    from .trials import moves_without_space, random_games, search_against_random
    found = random_games(program, games, seed, "".join(f" -p {pair}" for pair in params))
    if found.errors:
        click.echo("\n".join(found.errors), err=True)
        click.echo(f"{name}: 1 error", err=True)
        return None
    warning = search_against_random(program, search, seed)
    return [*program.warnings, *found.warnings, *moves_without_space(program), *([warning] if warning else [])]


@main.command()
@click.argument("kind", type=click.Choice(["rules", "strategy"]), default="rules")
def schema(kind: str) -> None:
    """Print the JSON Schema of rule files (KIND rules, the default) or strategy files (KIND strategy).

    Point an editor at it for completion and checks as you type, e.g. with
    yaml-language-server: naipes schema > rules.schema.json, then put
    '# yaml-language-server: $schema=rules.schema.json' on a rule file's first line.
    """
    from .schema import SCHEMAS
    click.echo(json.dumps(SCHEMAS[kind](), indent=2, ensure_ascii=False))


@main.command()
@click.argument("ruleset")
@click.argument("position", required=False, metavar="[LOG]")
@params_option
@seed_option
@click.option("--open", "open_hand", is_flag=True,
              help="Any rule file, with every card shown: each player's value, every move's, the best line "
                   "(to the end of the hand; a position: --after, or a logged game's step).")
@click.option("--after", type=click.IntRange(min=0), default=0,
              help="--open: play this many decisions with the rule file's AI first.")
@click.option("--to", "step", type=click.IntRange(min=0), default=None,
              help="--open with a LOG: the step to solve (default: the last).")
@click.option("--model", type=click.Choice(list(MODELS)), default="paranoid", show_default=True,
              help="--open with more than two players: paranoid (the others play together against each "
                   "player) or maxn (each plays for himself).")
@click.option("--depth", type=click.IntRange(min=1), default=None,
              help="--open: moves searched before a line is scored by the rule file's estimate (default: to the "
                   "end of the hand).")
@click.option("--json", "as_json", is_flag=True,
              help='Print the result as JSON ({"outcome": "win"|"loss", "winning_moves": [...]}; with --open: '
                   'values, moves, best, line).')
@guarded
def solve(ruleset: str, position: str | None, params: tuple[str, ...], seed: int | None, open_hand: bool,
          after: int, step: int | None, model: str, depth: int | None, as_json: bool) -> None:
    """Solve a position: with --open, any rule file with every card shown (naipes.agents.solver); without it,
    the start of a perfect-information game, won or lost for the player to move, and every winning move."""
    program = load(ruleset, params)
    if open_hand:
        solve_with_every_card_shown(program, find_ruleset(ruleset), position, pick_seed(seed), after, step, model,
                                    depth, as_json)
        return
    if position is not None or after or step is not None:
        raise NaipesError("a LOG, --after and --to choose a position for --open")
    if not program.perfect_information:
        raise NaipesError(f"{program.name} hides information; solve it with every card shown: --open")
    if program.result is not None:
        raise NaipesError(f"{program.name} has a custom 'result'; 'solve' reports win/loss games only (--open "
                          "gives values)")
    seed = pick_seed(seed)
    game = Game(program, seed)
    game.start()
    if game.over:
        raise NaipesError("the game is over before anyone moves: there is nothing to solve")
    mover = game.mover.index
    solver = Solver()
    winning = [option.label for option, value in solver.evaluate(game) if value[mover] >= 1]
    outcome = "win" if winning else "loss"
    if as_json:
        click.echo(json.dumps({"outcome": outcome, "winning_moves": winning}))
        return
    click.echo(f"seed {seed}")
    Console(highlight=False).print(render_table(program, game.view(None)))
    click.echo(f"{game.mover.name} to move: {outcome.upper()}"
               + (f"; winning moves: {', '.join(winning)}" if winning else " against perfect play"))
    click.echo(f"({solver.nodes} positions searched)", err=True)


def solve_with_every_card_shown(program: Program, path: Path, log: str | None, seed: int, after: int,
                                step: int | None, model: str, depth: int | None, as_json: bool) -> None:
    """`solve --open`: the position, then what naipes.tools.solving finds in it."""
    game, origin = solving.open_position(program, seed, after, log, path, step)
    solution, values = solving.solve_open(game, model, depth)
    data = solving.report(game, solution, values)
    if as_json:
        click.echo(json.dumps({"position": origin, **data}))
        return
    click.echo(origin)
    Console(highlight=False).print(render_table(program, full_view(game)))
    for line in solving.report_lines(data):
        click.echo(line)
    click.echo(f"({data['positions']} positions searched)", err=True)


if __name__ == "__main__":  # pragma: no cover
    main()
