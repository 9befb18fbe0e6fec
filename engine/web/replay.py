"""The web table replaying a game log: the page at /replay, step by step.

The log is the one ``naipes replay LOG --web`` names, or, with ``log=NAME``, a finished game of the
server's own (:mod:`naipes.web.logs`).

    GET /api/replay?seat=S[&log=NAME]     what the page needs once (as a table's first message), and the
                                          number of steps
    GET /api/replay/N?seat=S[&log=NAME]   step N as seat S saw it: the records so far and the position

S is ``all`` (every card face up, the shuffles and card movements in the history; the default), ``watch``
(an onlooker), or a seat's number from 0. The page draws a step as it draws a table's state, with buttons to
go forward and back and a choice of whose view; nothing can be played.

A step's views run the rule file's code: they are made in the server's threads, never on its event loop.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from ..errors import NaipesError
from ..tools.replay import EVERYTHING, Replay
from ..tools.scoresheet import sheet_of
from .guard import JSONResponse, RequestError
from .logs import replay_of
from .table import game_facts, result_outcome

_VIEWING = threading.Lock()  # a step's game is one object: two views of it at once would spend one step budget


async def replay_info(request: Request) -> JSONResponse:
    found = await _replay_and_seat(request)
    if isinstance(found, JSONResponse):
        return found
    return JSONResponse(await _off_the_loop(_info, *found))


def _info(replay: Replay, seat: int | str | None) -> dict[str, Any]:
    names = [p.name for p in replay.game.memory.players]
    agents = replay.header["seats"]
    seats = [{"seat": i, "name": name, "agent": agents[i] if i < len(agents) else "?", "human": False, "taken": False}
             for i, name in enumerate(names)]
    return {"type": "table", "id": "replay", "seat": seat if isinstance(seat, int) else None,
            "seed": replay.header["seed"], "spec": {}, "seats": seats, **game_facts(replay.game),
            "replay": {"steps": replay.steps, "seat": _seat_name(seat), "log": replay.path.name}}


async def replay_step(request: Request) -> JSONResponse:
    found = await _replay_and_seat(request)
    if isinstance(found, JSONResponse):
        return found
    replay, seat = found
    number = request.path_params["step"]
    try:
        replay.step(number)  # (one the log has)
    except NaipesError as error:
        return JSONResponse({"error": str(error)}, status_code=404)
    return JSONResponse(await _off_the_loop(_step, replay, seat, number))


def _step(replay: Replay, seat: int | str | None, number: int) -> dict[str, Any]:
    game = replay.step(number).game
    view = replay.view(number, seat)
    state = {"type": "state", "serial": number, "view": view, "to_move": view["to_move"], "your_turn": False,
             "moves": [], "options": [], "refused": [], "over": game.over,
             "outcome": result_outcome(game.result(), _sheet(replay, number)) if game.over else None}
    return {"step": number, "steps": replay.steps,
            "records": {"type": "records", "start": 0, "records": replay.records_for(number, seat)}, "state": state}


async def _off_the_loop(make: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """`make(*args)` in a thread of the server's, one at a time (:data:`_VIEWING`)."""
    def viewing() -> dict[str, Any]:
        with _VIEWING:
            return make(*args)
    return await run_in_threadpool(viewing)


async def _replay_and_seat(request: Request) -> tuple[Replay, int | str | None] | JSONResponse:
    """The replay asked for (a saved game's, or the server's) and the seat, or the error to answer with."""
    name = request.query_params.get("log")
    try:
        replay = request.app.state.replay if name is None else await replay_of(request, name)
    except RequestError as error:
        return JSONResponse({"error": str(error)}, status_code=error.status)
    if replay is None:
        return JSONResponse({"error": "this server replays no log (naipes replay LOG --web)"}, status_code=404)
    text = request.query_params.get("seat", EVERYTHING)
    try:  # the web's seats are numbered from 0, as its tables number them; a person's (P2, 2) are not
        return replay, replay.seat(int(text) if text.isascii() and text.isdigit() else text)
    except NaipesError as error:
        return JSONResponse({"error": str(error)}, status_code=400)


def _sheet(replay: Replay, number: int) -> dict | None:
    """The score sheet of the game up to step `number` (noted from an onlooker's view of each step)."""
    return sheet_of(replay.program, (replay.step(step).game.view(None) for step in range(number + 1)))


def _seat_name(seat: int | str | None) -> str:
    return "watch" if seat is None else str(seat)
