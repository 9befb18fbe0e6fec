"""The web table's saved games: a log per table (``naipes serve --log DIR``), listed, downloaded, replayed, resumed.

Every table writes its game to a log in the server's folder (``--log DIR``; without it a folder of its own,
removed when the server stops), the same log ``naipes play --log`` writes. A log names every card of every
hand, so a log is given out (downloaded, or replayed at /replay?log=NAME) only once its game is over; a
game that stopped before its end (the server stopped, or the table was let go) can be resumed from the
choose-game screen instead, and is never shown.

A log is only ever named by its file name in the folder, and only a log the folder lists is read: its
rule file must be one the server serves (the log's choice of a file by path is never followed) and its
seats people or AI levels the game lists (never a bot the log names).

    GET /api/logs          the saved games, newest first: name, title, seats, when, finished, in play
    GET /api/logs/NAME     a finished game's log, to download
"""
from __future__ import annotations

import json
import re
import shutil
import tempfile
import threading
import time
from collections import OrderedDict
from contextlib import suppress
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse

from ..errors import NaipesError
from ..tools.replay import Replay, ruleset_reference
from .guard import JSONResponse, RequestError

NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,120}\.jsonl")
LISTED = 50  # saved games the choose-game screen lists
REPLAYS = 4  # replays kept loaded
TAIL = 4096  # bytes read from a log's end to see whether its game ended
NOT_OVER = "this game is not over: its log, which shows every hand, is given once it is"


class Logs:
    """The folder of a server's logs, and the replays of its finished games."""

    def __init__(self, folder: Path | None):
        self.kept = folder is not None  # a folder the user named (else one of our own, made when first needed)
        self._folder = folder
        if folder is not None:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise NaipesError(f"cannot keep games in {folder}: {error.strerror or error}") from None
        self._replays: OrderedDict[tuple[str, float], Replay] = OrderedDict()
        self._lock = threading.Lock()  # (replays are loaded in the server's threads)

    @property
    def folder(self) -> Path:
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="naipes-tables-"))
        return self._folder

    def new(self, game: str, table_id: str) -> Path:
        """The path of a new table's log (the game's name made safe for a file's: a rule file given by path on
        the command line is served as 'name (path)')."""
        safe = re.sub(r"[^A-Za-z0-9_-]", "_", game)[:40]
        return self.folder / f"{time.strftime('%Y%m%d-%H%M%S')}-{safe}-{table_id}.jsonl"

    def find(self, name: str) -> Path:
        """The log of this name in the folder (a RequestError if there is none: the name is never a path)."""
        path = self.folder / name
        if not NAME.fullmatch(name) or not path.is_file():
            raise RequestError(f"no saved game '{name[:80]}' here", 404)
        return path

    def listing(self, in_play: set[str]) -> list[dict[str, Any]]:
        """The saved games, newest first: each log's header and whether its game ended."""
        found = []
        for when, path in sorted(_dated(self.folder), reverse=True)[:LISTED]:
            header = first_record(path)
            if header is not None:
                found.append({"name": path.name, "ruleset": Path(str(header.get("ruleset"))).stem,
                              "seats": header.get("seats"), "when": when, "finished": finished(path),
                              "in_play": path.name in in_play})
        return found

    def replay(self, name: str, rule_files: dict[str, Path]) -> Replay:
        """The finished game of a log, run again (the last few are kept)."""
        path = self.find(name)
        if not finished(path):
            raise RequestError(NOT_OVER, 403)
        key = (name, path.stat().st_mtime)
        with self._lock:
            replay = self._replays.get(key)
        if replay is None:
            replay = Replay.load(path, served_rule_file(path, rule_files))
        with self._lock:
            self._replays[key] = replay
            self._replays.move_to_end(key)
            while len(self._replays) > REPLAYS:
                self._replays.popitem(last=False)
        return replay

    def close(self) -> None:
        """The end of the server: a folder of our own is removed."""
        if not self.kept and self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None


def _dated(folder: Path) -> list[tuple[float, Path]]:
    """The logs of a folder with the time each was last written (one removed meanwhile is left out)."""
    dated = []
    for path in folder.glob("*.jsonl"):
        if NAME.fullmatch(path.name):
            with suppress(OSError):
                dated.append((path.stat().st_mtime, path))
    return dated


def first_record(path: Path) -> dict | None:
    """A log's first line (its header), or None if it is not a log's."""
    try:
        with path.open(encoding="utf-8") as stream:
            record = json.loads(stream.readline(1 << 16))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and record.get("type") == "log" else None


def finished(path: Path) -> bool:
    """Whether the log's game ended (its last record is the end)."""
    try:
        with path.open("rb") as stream:
            stream.seek(max(0, path.stat().st_size - TAIL))
            lines = stream.read().decode("utf-8", "replace").strip().splitlines()
        return bool(lines) and json.loads(lines[-1]).get("type") == "end"
    except (OSError, ValueError, AttributeError):
        return False


def served_rule_file(path: Path, rule_files: dict[str, Path]) -> Path:
    """The served rule file a log was played with (never a file the log names that the server does not serve)."""
    header = first_record(path) or {}
    wanted = header.get("ruleset")
    for rule_file in rule_files.values():
        if ruleset_reference(rule_file) == wanted:
            return rule_file
    raise RequestError(f"this game was played with {str(wanted)[:120]!r}, a rule file this server does not serve")


# ---------------------------------------------------------------- HTTP
async def list_logs(request: Request) -> JSONResponse:
    app = request.app
    return JSONResponse(app.state.logs.listing(app.state.tables.logs_in_play()))


async def download_log(request: Request) -> FileResponse | JSONResponse:
    try:
        path = request.app.state.logs.find(request.path_params["name"])
    except RequestError as error:
        return JSONResponse({"error": str(error)}, status_code=error.status)
    if not finished(path) or path.name in request.app.state.tables.logs_in_play():  # (a table still writes it)
        return JSONResponse({"error": NOT_OVER}, status_code=403)
    return FileResponse(path, media_type="application/x-ndjson", filename=f"naipes-{path.name}")


async def replay_of(request: Request, name: str) -> Replay:
    """The replay of a saved game (a RequestError, or the NaipesError of a log that does not replay)."""
    app = request.app
    try:
        return await run_in_threadpool(app.state.logs.replay, name, app.state.rulesets)
    except RequestError:
        raise
    except NaipesError as error:
        raise RequestError(str(error)) from None
