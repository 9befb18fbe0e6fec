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
from starlette.responses import JSONResponse

from ..errors import NaipesError
from ..language.shipped import RULESETS
from ..tools.catalogue import describe_file

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # (libyaml's parser where PyYAML has it)
BASES = 10  # bases followed through `extends` at most


def glance(name: str, path: Path) -> dict[str, Any]:
    """What the list shows of a rule file: its title, how to play and its seats (a variant's, from its base when it
    gives none)."""
    title, doc, players = None, None, None
    try:
        for tree in _chain(path):
            title = title if title is not None else tree.get("title")
            doc = doc if doc is not None else tree.get("doc")
            players = players if players is not None else tree.get("players")
    except (OSError, yaml.YAMLError) as error:
        return {"name": name, "title": name, "error": f"{path}: {error}"}
    return {"name": name, "title": str(title or name), "doc": str(doc).strip() if isinstance(doc, str) else "",
            "players": _seats(players)}


def _chain(path: Path) -> list[dict]:
    """A rule file's tree and its bases', the file first (as far as they read as mappings)."""
    chain: list[dict] = []
    while len(chain) < BASES:
        tree = yaml.load(path.read_text(encoding="utf-8"), Loader=LOADER)
        if not isinstance(tree, dict):
            break
        chain.append(tree)
        base = tree.get("extends")
        if not isinstance(base, str):
            break
        path = _base_path(path, base)
    return chain


def _base_path(path: Path, base: str) -> Path:
    """The file `extends: base` names, found as the loader finds it (beside the file, else a shipped one)."""
    given = path.parent / base
    if base.isidentifier() and not given.is_file():
        beside = path.parent / f"{base}.yaml"
        return beside if beside.is_file() else RULESETS / f"{base}.yaml"
    return given


def _seats(players: Any) -> dict[str, int | None]:
    if isinstance(players, int):
        return {"min": players, "max": players, "default": players}
    found = players if isinstance(players, dict) else {}
    low, high = found.get("min"), found.get("max")
    return {"min": low, "max": high, "default": found.get("default", low)}


async def games(request: Request) -> JSONResponse:
    return JSONResponse([glance(name, path) for name, path in request.app.state.rulesets.items()])


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
