"""The ``naipes`` command: a thin layer over the public API.

    naipes play RULESET [--seat AGENT]... [-p k=v]... [--seed N] [--log FILE] [--trace]
    naipes play --resume LOG [--seat AGENT]... [--log FILE]
    naipes replay LOG [--seat all|watch|N] [--to STEP] [--web]
    naipes simulate RULESET -n N [--seat AGENT]... [-p k=v]... [--seed N]
    naipes check RULESET...
    naipes solve RULESET [-p k=v]... [--seed N] [--json]
    naipes serve [RULESET] [--seat AGENT]... [-p k=v]... [--port N]
    naipes schema [rules|strategy]

RULESET is a path to a rule file, or the name of one in ``rulesets/``.
Errors in rule files, params and agent names are printed as located messages
with exit status 1 (never a traceback); a malformed command line (an unknown
option, a missing argument) is a usage error with exit status 2.
"""
from __future__ import annotations

import contextlib
import functools
import json
import random
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from ..agents.bot_process import BotLimits
from ..agents.human import render_view
from ..agents.registry import load_strategy, make_agent
from ..agents.search import Solver
from ..errors import NaipesError, ParamError, RuleErrors
from ..language.builder import load_program
from ..language.shipped import ruleset_path, shipped_rulesets
from ..language.strategies import is_strategy_file, strategy_game
from ..program import Program
from ..runtime.game import Game, GameResult, QuitGame, play_game
from .gamelog import LogHeader, attach_log, digest
from .replay import Replay, browse, ruleset_reference, scripted, show_step


def find_ruleset(name: str) -> Path:
    """A rule file from a path or a short name (``mygame`` -> rulesets/mygame.yaml, here or shipped)."""
    path = Path(name)
    if path.exists():
        return path
    local = Path("rulesets") / (name if name.endswith((".yaml", ".yml")) else f"{name}.yaml")
    found = local if local.is_file() else ruleset_path(name)
    if found is not None:
        return found
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


def fail(error: Exception, code: int = 1) -> None:
    click.echo(str(error), err=True)
    sys.exit(code)


def guarded(func: Callable) -> Callable:
    """Run a command, turning Naipes errors into located messages and exit 1."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except NaipesError as error:
            fail(error)
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            sys.exit(130)
    wrapper.__name__, wrapper.__doc__ = func.__name__, func.__doc__
    return wrapper


def seat_agents(program: Program, seats: tuple[str, ...], default: list[str], seed: int, limits: BotLimits) -> list:
    names = list(seats) or default
    if len(names) > program.players[1]:
        raise click.BadParameter(f"{program.name} seats at most {program.players[1]} players", param_hint="--seat")
    while len(names) < max(program.players[0], 1 if seats else program.players[2]):
        names.append(default[len(names)] if len(names) < len(default) else "random")
    agents: list = []
    try:
        for i, name in enumerate(names):
            agents.append(make_agent(name, seed=seed * 1009 + i, program=program, bot_limits=limits))
    except BaseException:
        close_agents(agents)
        raise
    return agents


def close_agents(agents: list) -> None:
    """End the worker processes of the Python bots among `agents`."""
    for agent in agents:
        if hasattr(agent, "close"):
            agent.close()


def print_faults(rows: Iterable[tuple[str, int, list[str]]]) -> None:
    """After a table: who faulted, how often, and the first reasons (label, count, reasons)."""
    for label, count, reasons in rows:
        if count:
            click.echo(f"{label}: {count} fault{'s' if count > 1 else ''}" + (", the first:" if reasons else ""))
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
               f"(priority {record['priority']})", err=True)
    for other in record["over"]:
        click.echo(f"[trace]    over {other}", err=True)


def table_printer(record: dict) -> None:
    """What a person at the table is told (a game observer): announcements, moves as others see them, the end."""
    kind = record["type"]
    if kind == "announce":
        click.echo(f"* {record['text']}")
    elif kind == "decision":
        click.echo(f"{record['player']} plays {record['choice']}")
    elif kind == "end":
        if record.get("cut_off"):
            click.echo(f"Game {record['cut_off']}: nobody wins.")
            return
        winners = ", ".join(record["winners"]) or "nobody"
        click.echo(f"Game over. Winner: {winners}.")


params_option = click.option("-p", "--param", "params", multiple=True, metavar="NAME=VALUE",
                             help="Override a rule-file param (repeatable).")
seat_option = click.option("--seat", "seats", multiple=True, metavar="AGENT",
                           help="Agent for the next seat: random, minimax, human, a strategy file (a path, "
                                "or its name in strategies/GAME/, e.g. expert), or python:FILE.py:CLASS "
                                "(repeatable, in seat order).")
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


@main.command()
@click.argument("ruleset", required=False)
@seat_option
@params_option
@seed_option
@click.option("--log", "log_path", type=click.Path(dir_okay=False, writable=True),
              help="Write the game as JSON lines (to replay it with 'naipes replay', or resume it with --resume).")
@click.option("--trace", is_flag=True, help="Print each rule firing and why it won over the others pending, and which "
                   "strategy rule chose each AI move.")
@click.option("--resume", "resume_path", type=click.Path(exists=True, dir_okay=False),
              help="Continue the game saved in this log (written by --log): its moves are made again, then the "
                   "seats (by default the log's) play on. RULESET, if given, replaces the rule file the log names.")
@bot_limit_options
@guarded
def play(ruleset: str | None, seats: tuple[str, ...], params: tuple[str, ...], seed: int | None,
         log_path: str | None, trace: bool, resume_path: str | None, limits: BotLimits) -> None:
    """Play one game of RULESET (by default: you at seat 1 against the rule file's AI), or resume a logged one."""
    if resume_path:
        resumed = resume_from(resume_path, ruleset, params, seed)
        program, seed, rule_file, overrides = resumed.program, resumed.header["seed"], resumed.rule_file, \
            resumed.header["params"]
        default = resumed.header["seats"]
        seats = seats or tuple(default)  # as many seats as the log's game, not the rule file's default number
    elif ruleset is None:
        raise click.UsageError("name a RULESET to play, or a log to continue with --resume LOG")
    else:
        resumed, rule_file, overrides = None, find_ruleset(ruleset), parse_params(params)
        program, seed = load_program(rule_file, overrides), pick_seed(seed)
        default = ["human"] + [program.default_ai] * (program.players[2] - 1)
    agents = seat_agents(program, seats, default, seed, limits)
    players = len(agents)
    if resumed is not None:
        agents = resumed_seats(resumed, agents)
    game = Game(program, seed, players=players)
    with contextlib.ExitStack() as cleanup:
        cleanup.callback(close_agents, agents)
        if trace:
            game.listeners.append(trace_printer)
        if log_path:
            attach_log(game, cleanup.enter_context(open(log_path, "w", encoding="utf-8")),
                       LogHeader(ruleset_reference(rule_file), digest(rule_file), overrides, seed,
                                 [a.name for a in agents]))
        click.echo(f"{program.title} — seed {seed}; seats: " +
                   ", ".join(f"P{i + 1} {a.name}" for i, a in enumerate(agents)))
        game.observers.append(table_printer)
        try:
            result = play_game(program, agents, seed, game=game)
            report(result)
            print_faults(seat_faults(agents))
        except QuitGame:
            click.echo("You quit before the end. The game so far:")
            Console(highlight=False).print(render_view(game.view(None)))
            if log_path:
                click.echo(f"Continue it with: naipes play --resume {log_path}")


def resume_from(log: str, ruleset: str | None, params: tuple[str, ...], seed: int | None) -> Replay:
    """The logged game to continue, run again and checked; its rule file, params and seed are the log's."""
    if params or seed is not None:
        raise click.UsageError("a resumed game keeps the log's params and seed: leave out -p and --seed")
    resumed = Replay.load(log, find_ruleset(ruleset) if ruleset else None)
    if resumed.game.over:
        raise NaipesError(f"the game in {log} is over: nothing to resume (naipes replay {log} shows it)")
    click.echo(f"Resuming {log}: {resumed.steps} moves made again, then {resumed.game.mover.name} to move.")
    return resumed


def resumed_seats(resumed: Replay, agents: list) -> list:
    """The agents, making the log's moves first; the log's game must have as many seats."""
    players = len(resumed.game.memory.players)
    if len(agents) != players:
        close_agents(agents)
        raise click.BadParameter(f"the game in {resumed.path} has {players} players, not {len(agents)}",
                                 param_hint="--seat")
    return scripted(agents, resumed.decisions)


@main.command()
@click.argument("log", type=click.Path(exists=True, dir_okay=False))
@click.option("--ruleset", default=None, help="The rule file to replay with (a path or a name), if not the one the "
                                              "log names.")
@click.option("--seat", "seat", default="all", show_default=True,
              help="Whose view: all (every card face up, every shuffle and card movement), watch (an onlooker), or "
                   "a seat: its number from 0 or its name (P1).")
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


def report(result: GameResult) -> None:
    for name, payoff in zip(result.names, result.payoffs):
        click.echo(f"  {name}: {payoff}")


@main.command()
@click.argument("ruleset")
@click.option("-n", "--games", type=click.IntRange(min=1), required=True, help="Number of games.")
@seat_option
@params_option
@seed_option
@bot_limit_options
@guarded
def simulate(ruleset: str, games: int, seats: tuple[str, ...], params: tuple[str, ...], seed: int | None,
             limits: BotLimits) -> None:
    """Play N games AI against AI; print wins and mean result per seat."""
    program = load(ruleset, params)
    seed = pick_seed(seed)
    seats = seats or tuple(["random"] * program.players[2])
    if "human" in seats:
        raise click.BadParameter("simulate is for AI seats; use 'play' to play", param_hint="--seat")
    agents = seat_agents(program, seats, list(seats), seed, limits)  # one per seat: bots keep memory across games
    try:
        wins, totals, cut_off = play_many(program, agents, games, seed)
    finally:
        close_agents(agents)
    click.echo(f"{program.title}: {games} games, seeds {seed}..{seed + games - 1}")
    if cut_off:
        click.echo(f"{cut_off} of them cut off after {program.max_decisions:,} decisions (max_decisions): "
                   "nobody won those")
    click.echo(f"{'seat':<6}{'agent':<12}{'wins':>8}{'win %':>9}{'mean result':>14}{'faults':>8}")
    for i, agent in enumerate(agents):
        faults = len(getattr(agent, "faults", ()))
        click.echo(f"P{i + 1:<5}{agent.name:<12}{wins[i]:>8}{100 * wins[i] / games:>8.1f}%{totals[i] / games:>14.3f}"
                   f"{faults:>8}")
    print_faults(seat_faults(agents))


def play_many(program: Program, agents: list, games: int, seed: int) -> tuple[list[int], list[float], int]:
    """Games seed, seed + 1, ...: wins and total payoff per seat, and how many games were cut off."""
    wins, totals, cut_off = [0] * len(agents), [0.0] * len(agents), 0
    with click.progressbar(range(games), label=f"{games} games of {program.name}", file=sys.stderr) as bar:
        for i in bar:
            for seat, agent in enumerate(agents):
                if hasattr(agent, "reseed"):
                    agent.reseed((seed + i) * 1009 + seat)
            result = play_game(program, agents, seed + i)
            for seat in result.winners:
                wins[seat] += 1
            totals = [t + p for t, p in zip(totals, result.payoffs)]
            cut_off += result.cut_off is not None
    return wins, totals, cut_off


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
@click.option("--json", "json_path", type=click.Path(dir_okay=False, writable=True), help="Write the results as JSON.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, writable=True),
              help="Write a PNG of each agent's mean payoff with its 95% interval.")
@bot_limit_options
@guarded
def tournament(ruleset: str, deals: int, seats: tuple[str, ...], params: tuple[str, ...], seed: int | None,
               jobs: int, cluster: str | None, json_path: str | None, plot_path: str | None,
               limits: BotLimits) -> None:
    """Play N deals with the agents in every seating; win rates and payoffs with 95% intervals."""
    from .tournament import plot, run_tournament
    if len(seats) < 2:
        raise ParamError("name the agents with --seat, one per seat (at least two)")
    path = str(find_ruleset(ruleset))
    seed = pick_seed(seed)
    with click.progressbar(length=deals, label=f"{deals} deals × {len(seats)} seatings", file=sys.stderr) as bar:
        summary = run_tournament(path, list(seats), deals, seed, parse_params(params), jobs, bar.update, cluster,
                                 limits)
    click.echo(f"{summary['game']}: {summary['deals']} deals, {summary['games']} games, seed {seed}")
    if summary["cut_off"]:
        click.echo(f"{summary['cut_off']} games cut off (max_decisions): nobody won those")
    click.echo(f"{'agent':<28}{'win rate':>10}  {'95% CI':<17}{'mean payoff':>12}  {'95% CI':<19}{'faults':>7}")
    for a in summary["agents"]:
        click.echo(f"{a['seat_label']:<28}{a['win_rate']:>10.3f}  [{a['win_ci'][0]:.3f}, {a['win_ci'][1]:.3f}]"
                   f"{a['mean_payoff']:>12.3f}  [{a['payoff_ci'][0]:.3f}, {a['payoff_ci'][1]:.3f}]{a['faults']:>7}")
    print_faults((a["seat_label"], a["faults"], a["fault_reasons"]) for a in summary["agents"])
    if json_path:
        with open(json_path, "w", encoding="utf-8") as out:
            json.dump(summary, out, indent=2, default=str)
    if plot_path:
        plot(summary, plot_path)


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
@click.option("--json", "json_path", type=click.Path(dir_okay=False, writable=True), help="Write the results as JSON.")
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
    click.echo(f"Competition: {len(summary['entrants'])} bots, {games} games per rule file, seed {seed}")
    names = list(summary["standings"])
    click.echo(f"{'#':<4}{'bot':<24}{'games':>7}{'points/game':>13}{'wins':>8}{'faults':>8}"
               + "".join(f"{n:>16}" for n in names))
    for rank, row in enumerate(summary["table"], 1):
        click.echo(f"{rank:<4}{row['entrant']:<24}{row['games']:>7}{row['mean_points']:>13.2f}{row['wins']:>8.1f}"
                   f"{row['faults']:>8}" + "".join(f"{row['by_ruleset'][n]:>16.2f}" for n in names))
    print_faults((row["entrant"], row["faults"], row["fault_reasons"]) for row in summary["table"])
    if json_path:
        with open(json_path, "w", encoding="utf-8") as out:
            json.dump(summary, out, indent=2, default=str)


@main.command()
@click.argument("ruleset", required=False)
@seat_option
@params_option
@seed_option
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; the default lets only this machine in.")
@click.option("--pause", type=click.FloatRange(min=0), default=0.6, show_default=True,
              help="Seconds an AI waits before moving, so that people can follow the play.")
@guarded
def serve(ruleset: str | None, seats: tuple[str, ...], params: tuple[str, ...], seed: int | None, port: int,
          host: str, pause: float) -> None:
    """Play in the browser: a local web table of RULESET (or a choose-game screen), for one or more people.

    Seats as in 'play' (default: you, then the rule file's AI); a 'human' seat
    is taken by a browser tab. Every shipped game can also be started from
    the page.
    """
    try:
        from ..web.app import create_app, new_table
        from ..web.server import address, listen, run
    except ImportError as error:
        raise NaipesError(f"'naipes serve' needs the web extra ({error.name} is missing): "
                          f"pip install 'naipes[web]'") from None
    rulesets = {path.stem: path for path in shipped_rulesets()}
    name = None
    if ruleset is not None:
        path = find_ruleset(ruleset)
        name = path.stem if rulesets.get(path.stem, path).resolve() == path.resolve() else f"{path.stem} ({path})"
        rulesets[name] = path
    elif seats or params:
        raise click.UsageError("--seat and -p need a RULESET")
    app = create_app(rulesets, pause=pause, hosts=[host])
    table = new_table(app, name, parse_params(params), list(seats) or None, seed, checked=False) if name else None
    sock = listen(host, port)
    url = address(sock)
    click.echo(f"Naipes is serving at {url} (Ctrl-C to stop)")
    if table is not None:
        click.echo(f"{table.program.title}, seed {table.seed}; seats: " +
                   ", ".join(f"{n} {a}" for n, a in zip(table.names, table.seat_specs)))
        for seat in table.humans:
            who = "you" if seat == table.humans[0] else "another person, in another tab"
            click.echo(f"  {table.names[seat]} ({who}): {url}table/{table.id}?seat={seat}")
        if not table.humans:
            click.echo(f"  watch: {url}table/{table.id}?seat=watch")
    run(app, sock)


@main.command()
@click.argument("rulesets", nargs=-1, required=True)
@params_option
def check(rulesets: tuple[str, ...], params: tuple[str, ...]) -> None:
    """Validate rule files and strategy files; report every error (exit 1 if any)."""
    failed = False
    for name in rulesets:
        try:
            if Path(name).is_file() and is_strategy_file(name):
                strategy = load_strategy(name, load(str(strategy_game(name)), params))
                click.echo(f"{name}: ok (a strategy for {strategy.game.name}: {len(strategy.program.rules)} "
                           f"decision rules, {sum(map(len, strategy.observations.values()))} observation rules)")
                continue
            program = load(name, params)
            Game(program, 0).start()  # the setup and first rules must run too
            click.echo(f"{name}: ok ({len(program.rules)} rules, {len(program.moves)} moves)")
        except RuleErrors as errors:
            failed = True
            click.echo(str(errors), err=True)
            click.echo(f"{name}: {len(errors.errors)} error(s)", err=True)
        except NaipesError as error:
            failed = True
            click.echo(str(error), err=True)
            click.echo(f"{name}: 1 error", err=True)
    sys.exit(1 if failed else 0)


@main.command()
@click.argument("kind", type=click.Choice(["rules", "strategy"]), default="rules")
def schema(kind: str) -> None:
    """Print the JSON Schema of rule files (KIND rules, the default) or strategy files (KIND strategy).

    Point an editor at it for completion and checks as you type, e.g. with
    yaml-language-server: naipes schema > naipes.tools.schema.json, then put
    '# yaml-language-server: $schema=naipes.tools.schema.json' on a rule file's first line.
    """
    from .schema import SCHEMAS
    click.echo(json.dumps(SCHEMAS[kind](), indent=2, ensure_ascii=False))


@main.command()
@click.argument("ruleset")
@params_option
@seed_option
@click.option("--json", "as_json", is_flag=True, help='Print {"outcome": "win"|"loss", "winning_moves": [...]}.')
@guarded
def solve(ruleset: str, params: tuple[str, ...], seed: int | None, as_json: bool) -> None:
    """Evaluate the start position for the player to move: won or lost, and every winning move."""
    program = load(ruleset, params)
    if not program.perfect_information:
        raise NaipesError(f"{program.name} hides information; 'solve' needs a perfect-information game")
    if program.result is not None:
        raise NaipesError(f"{program.name} has a custom 'result'; 'solve' reports win/loss games only")
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
    Console(highlight=False).print(render_view(game.view(None)))
    click.echo(f"{game.mover.name} to move: {outcome.upper()}"
               + (f"; winning moves: {', '.join(winning)}" if winning else " against perfect play"))
    click.echo(f"({solver.nodes} positions searched)", err=True)


if __name__ == "__main__":  # pragma: no cover
    main()
