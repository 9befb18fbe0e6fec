"""The web table's server: a Starlette application (run by uvicorn in ``naipes serve``).

    GET  /                    the page (choose a game, open tables); its assets under /static
    GET  /table/ID            the same page, at a table (?seat=N to sit, ?seat=watch to watch)
    GET  /api/games           the rule files: title, players (read at once: naipes.web.games)
    GET  /api/games/NAME      a rule file compiled: its params and AI levels
    GET  /api/tables          the open tables and their seats
    POST /api/tables          {"game", "params", "seats", "seed"} -> a new table {"id", "seat", "token"};
                              {"resume": LOG} -> a table going on with a saved game
    GET  /api/logs[/NAME]     the saved games; a finished game's log (naipes.web.logs)
    GET  /replay[?log=NAME]   a logged game, step by step (naipes replay LOG --web, or a finished game of
                              this server's; its API: naipes.web.replay)
    WS   /ws/ID?seat=N&token=T  one tab at one seat (T: the seat's key), or ?seat=watch: the table
                              once, then states and public records as they change; it sends
                              moves ({"serial", "label"} or {"serial", "card"}) and gets
                              {"type": "refused", "reason"} for a move that is not its to make
                              or not legal

Each human seat has a key (a random token) that its link carries: a tab sits only
with it, and whoever makes a table gets its first human seat's key and the others'
links. No tab is told the seed before the game is over. Requests to a host name not
the server's, and changes or WebSockets from another site's pages, are refused
before they reach a route (:mod:`naipes.web.guard`); so are large or deep bodies.

>>> app = create_app({"fichas": Path("rulesets/fichas.yaml")})   # doctest: +SKIP
"""
from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..agents.levels import ai_levels, default_opponent
from ..errors import NaipesError
from ..language.builder import load_program
from ..program import Program
from ..tools.replay import Replay
from .games import game, games
from .guard import LOCAL_HOSTS, Crowd, Guard, JSONResponse, NotUnicode, RequestError, parse_json, read_json
from .logs import Logs, download_log, finished, list_logs, served_rule_file
from .replay import replay_info, replay_step
from .table import HUMAN, Table, Tables, TablesFull, message_text

STATIC = Path(__file__).resolve().parent / "static"
MAX_MESSAGE = 4096  # characters of a message from a tab (a move is a few dozen)
SEED_BITS = 53  # a seed drawn for a table: too many to try them all against one's hand (and exact in JavaScript)
SEAT = re.compile(r"[0-9]{1,4}")


MAKING_AT_ONCE, MAKING_WAITING = 2, 8  # new tables made at once (each a rule file loaded), and requests waiting


class TableError(RequestError):
    """A request for a table that cannot be made (400, with the reason)."""


def create_app(rulesets: dict[str, Path], *, pause: float = 0.6, tables: Tables | None = None,
               hosts: list[str] | None = None, replay: Replay | None = None, logs: Path | None = None) -> Starlette:
    """The application serving `rulesets` (name -> rule file); AI seats wait `pause` seconds before moving.

    Each table's game is logged in the folder `logs` (else in a folder removed when the app stops). With
    `replay`, it also shows that logged game at /replay."""
    tables = tables or Tables()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        tables.close()
        for table in tables.all():  # (each closes its log)
            table.join(5)
        app.state.logs.close()

    allowed = list(dict.fromkeys([*LOCAL_HOSTS, *(hosts or [])]))
    app = Starlette(routes=[
        Route("/", page), Route("/table/{table_id}", page),
        Route("/api/games", games), Route("/api/games/{name}", game),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        WebSocketRoute("/ws/{table_id}", table_socket),
        Route("/replay", page), Route("/api/replay", replay_info), Route("/api/replay/{step:int}", replay_step),
        Route("/api/logs", list_logs), Route("/api/logs/{name}", download_log),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], middleware=[Middleware(Guard, hosts=allowed)], lifespan=lifespan)
    app.state.rulesets, app.state.tables, app.state.pause = dict(rulesets), tables, pause
    app.state.replay, app.state.logs = replay, Logs(logs)
    app.state.making = Crowd(MAKING_AT_ONCE, MAKING_WAITING)
    return app


def new_table(app: Starlette, game: str, params: dict[str, str], seats: list[str] | None, seed: int | None,
              checked: bool = True) -> Table:
    """A table of one of the app's rule files, started.

    `checked` (a request from a page): every seat is named, human or an AI level the game lists.
    Otherwise (the command line, whose naipes.tools.seating fills the table) any agent may sit.
    """
    path = app.state.rulesets.get(game)
    if path is None:
        raise TableError(f"no game '{game[:60]}' here: choose one of {', '.join(app.state.rulesets)}")
    # a page's params are any the browser sends: each would be a compile to C (seconds, and a file in the cache)
    program = load_program(path, params, to_c=not (checked and params))
    low, high, default = program.players
    seats = list(seats or [HUMAN] + [default_opponent(program)] * (default - 1))
    if not low <= len(seats) <= high:
        raise TableError(f"{program.title} seats {low} to {high} players, not {len(seats)}")
    if checked:
        _check_seats(program, seats)
    chosen = seed is not None
    seed = seed if seed is not None else secrets.randbits(SEED_BITS)
    spec = {"game": game, "params": dict(params), "seats": seats}
    table = Table(program, seats, seed, pause=app.state.pause, spec=spec, seed_chosen=chosen,
                  typed=not checked)  # (the command line's seats are the person's words; a page's are not)
    table.log = app.state.logs.new(game, table.id)
    return app.state.tables.add(table)


def _check_seats(program: Program, seats: list[str]) -> None:
    """Every seat a person, an AI level the game lists, or the rule file's own default AI with the options the file
    gives it (`ismcts:iterations=1000`): never a bot, a file or options a request names."""
    levels = {level["name"] for level in ai_levels(program)} | {HUMAN, default_opponent(program)}
    for name in seats:
        if name not in levels:
            raise TableError(f"unknown player '{str(name)[:60]}': choose {', '.join(sorted(levels))}")


def resume_table(app: Starlette, name: str) -> Table:
    """A table going on with a saved game that stopped before its end: its logged decisions are made again, then
    its seats (people, or the AI levels it had) play on; its log goes on in the same file."""
    logs, tables = app.state.logs, app.state.tables
    path = logs.find(name)
    with tables.claim_log(path.name):  # (until the table is added, when its own log holds it)
        return tables.add(_resumed(app, path))


def _resumed(app: Starlette, path: Path) -> Table:
    if finished(path):
        raise TableError("this game is over: replay it instead")
    rule_file = served_rule_file(path, app.state.rulesets)
    replay = Replay.load(path, rule_file)
    seats = list(replay.header["seats"])
    _check_seats(replay.program, seats)
    game = next(game for game, served in app.state.rulesets.items() if served == rule_file)
    spec = {"game": game, "params": dict(replay.header["params"]), "seats": seats}
    table = Table(replay.program, seats, replay.header["seed"], pause=app.state.pause, spec=spec, seed_chosen=False,
                  script=replay.decisions)
    table.log = path
    return table


# ---------------------------------------------------------------- HTTP
async def page(request: Request) -> FileResponse:
    return FileResponse(STATIC / "index.html")


async def list_tables(request: Request) -> JSONResponse:
    return JSONResponse([table.summary() for table in request.app.state.tables.all() if not table.closed])


async def create_table(request: Request) -> JSONResponse:
    """A new table; the answer has the key of its first human seat (whoever asked sits there)."""
    try:
        body = await read_json(request)
        async with request.app.state.making.admitted("making other tables"):
            if isinstance(body, dict) and isinstance(body.get("resume"), str):
                table = await run_in_threadpool(resume_table, request.app, body["resume"])
            else:
                game, params, seats, seed = _table_request(body)
                table = await run_in_threadpool(new_table, request.app, game, params, seats, seed)
    except RequestError as error:
        return JSONResponse({"error": str(error)}, status_code=error.status)
    except TablesFull as error:
        return JSONResponse({"error": str(error)}, status_code=503)
    except NaipesError as error:  # the rule file's own (a param out of range, a file that does not compile)
        return JSONResponse({"error": str(error)}, status_code=400)
    seat = table.host
    return JSONResponse({"id": table.id, "seat": seat, "token": None if seat is None else table.tokens[seat]})


def _table_request(body: Any) -> tuple[str, dict[str, str], list[str] | None, int | None]:
    if not isinstance(body, dict) or not isinstance(body.get("game"), str):
        raise TableError('a new table is {"game": NAME, "params": {...}, "seats": [...], "seed": N}')
    params = body.get("params") or {}
    if not isinstance(params, dict) or not all(isinstance(v, (str, int, float, bool)) for v in params.values()):
        raise TableError("params is a mapping of names to plain values")
    seats = body.get("seats")
    if seats is not None and (not isinstance(seats, list) or not all(isinstance(s, str) for s in seats)):
        raise TableError("seats is a list of player kinds (human, or an AI level)")
    seed = body.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 63):
        raise TableError("seed is a whole number from 0 (or null: a random deal)")
    return body["game"], {str(k): _param_text(v) for k, v in params.items()}, seats, seed


def _param_text(value: str | int | float | bool) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


# ----------------------------------------------------------- WebSocket
async def table_socket(websocket: WebSocket) -> None:
    """One tab at one seat (or watching): the table, then every change; its moves, answered."""
    await websocket.accept()
    table = websocket.app.state.tables.get(websocket.path_params["table_id"])
    seat_text = websocket.query_params.get("seat", "watch")
    seat = int(seat_text) if SEAT.fullmatch(seat_text) else None
    if table is None:
        problem = "there is no such table (it may have ended when the server restarted): start a new game"
    elif seat is None and seat_text != "watch":
        problem = f"seat={seat_text[:20]!r}: a seat is its number from 0, or 'watch'"
    else:
        problem = table.sit(seat, websocket.query_params.get("token"))
    if problem is not None or table is None:
        await _send(websocket, {"type": "error", "message": problem})
        await websocket.close()
        return
    changed = asyncio.Event()
    loop = asyncio.get_running_loop()

    def watcher() -> None:
        loop.call_soon_threadsafe(changed.set)
    table.watchers.append(watcher)
    sender = None
    try:
        await _send(websocket, table.info(seat))
        sender = asyncio.create_task(_send_changes(websocket, table, seat, changed))
        while (message := await websocket.receive())["type"] != "websocket.disconnect":
            refusal = await _answer(table, seat, message.get("text"))
            if refusal is not None:
                await _send(websocket, {"type": "refused", "reason": refusal})
    except WebSocketDisconnect:
        pass
    finally:
        if sender is not None:
            sender.cancel()
        table.watchers.remove(watcher)
        table.leave(seat)


async def _answer(table: Table, seat: int | None, text: str | None) -> str | None:
    """Why a tab's message is refused (None: the move is made)."""
    try:
        request = _parse(text)
    except NotUnicode as error:
        return str(error)
    return await asyncio.wrap_future(table.submit(seat, request))


def _parse(text: str | None) -> Any:
    """A tab's message as JSON (None if it is not text, too long, too deep, or not JSON: refused as a move; a
    :class:`NotUnicode` if it holds text that is not Unicode, which no move may quote)."""
    if text is None or len(text) > MAX_MESSAGE:
        return None
    try:
        return parse_json(text)
    except NotUnicode:
        raise
    except RequestError:
        return None


async def _send(websocket: WebSocket, data: Any) -> None:
    """`data` as JSON in ASCII (like :class:`JSONResponse`): any text it quotes is sent."""
    await websocket.send_text(message_text(data))


async def _send_changes(websocket: WebSocket, table: Table, seat: int | None, changed: asyncio.Event) -> None:
    """The public records as they come, then the seat's latest state, whenever the table changes; and who is at
    the table whenever a tab comes or goes. (The state is sent as its game thread encoded it.)"""
    cursor, sent, seats = 0, None, table.seats()
    try:
        while True:
            changed.clear()
            records = table.records_for(seat, cursor)
            if records:
                await _send(websocket, {"type": "records", "start": cursor, "records": records})
                cursor += len(records)
            shown = table.shown(seat)
            if shown is not None and (shown.state["serial"], shown.state["over"]) != sent:
                await websocket.send_text(shown.text)
                sent = (shown.state["serial"], shown.state["over"])
            if (now := table.seats()) != seats:
                await _send(websocket, {"type": "seats", "seats": now})
                seats = now
            await changed.wait()
    except WebSocketDisconnect:  # the tab is gone: the receiving side ends too
        pass
