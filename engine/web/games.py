"""The choose-game screen's games: a list read at once, and a game's details compiled when it is chosen.

Compiling a rule file takes a second or two (the twelve shipped ones, 13 s on an idle machine and 33 s
under load), and the list needs none of what compiling finds: each game's title and seats are read from
its YAML and its bases' (``extends``) without compiling (the twelve: about 30 ms). The params and AI levels
of the game a person chooses come from the compiled program (:func:`naipes.tools.catalogue.describe_file`,
compiled once per server).

    GET /api/games        [{"name", "title", "doc", "players": {"min", "max", "default"}}, ...]
    GET /api/games/NAME   the game described: params, AI levels, moves, phases (400: why it does not compile)
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from ..errors import NaipesError
from ..tools.catalogue import describe_file, glance
from .guard import JSONResponse


def glanced(name: str, path: Path) -> dict[str, Any]:
    """What the list shows of a rule file (naipes.tools.catalogue.glance), or why it cannot be read."""
    try:
        return {**glance(path).listed(), "name": name}
    except (OSError, yaml.YAMLError) as error:
        return {"name": name, "title": name, "error": f"{path}: {error}"}


async def games(request: Request) -> JSONResponse:
    return JSONResponse([glanced(name, path) for name, path in request.app.state.rulesets.items()])


async def game(request: Request) -> JSONResponse:
    name = request.path_params["name"]
    path = request.app.state.rulesets.get(name)
    if path is None:
        return JSONResponse({"error": f"no game '{name[:60]}' here"}, status_code=404)
    try:
        described = await run_in_threadpool(describe_file, str(path))
    except NaipesError as error:
        return JSONResponse({"name": name, "error": str(error)}, status_code=400)
    return JSONResponse({**described, "name": name})
