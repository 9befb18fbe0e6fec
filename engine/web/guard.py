"""What the web table lets in: requests to its own host names, changes from its own pages, small bodies.

:class:`Guard` wraps the application (ASGI middleware) and refuses, before any
route sees it:

- a request whose ``Host`` is not a name of this server (a page elsewhere
  whose name was pointed at this address, DNS rebinding: 400);
- a state-changing request (any method but GET and HEAD) or a WebSocket from a
  page of another origin, by its ``Origin`` or ``Sec-Fetch-Site`` header
  (cross-site requests: 403); a client that is not a browser sends neither and
  is let in, since it could reach the server directly anyway;
- a body announced larger than :data:`MAX_BODY` (413).

:class:`Crowd` keeps slow work (a new table's rule file loaded and compiled: seconds, and memory) to a few
requests at once and a few more waiting; beyond those, a request is refused at once (503), so that a flood of
requests costs the server no more than that.

Every answer it lets through carries headers that keep the pages from being
framed by another site (clickjacking), sniffed or told where they came from.
:func:`read_json` reads a body within the same limit and parses it no deeper
than :data:`MAX_DEPTH`; :func:`parse_json` does the same for a WebSocket
message. Both refuse text that is not Unicode (a lone UTF-16 surrogate, which
JSON's escapes let in as ``"\\ud800"``), so that no route ever sees any: an
answer quoting it could not be sent. :class:`JSONResponse` answers in ASCII, so
that any text it quotes is sent.
"""
from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

from starlette import responses
from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect, Request
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import NaipesError

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
MAX_BODY = 16 * 1024  # bytes of a request body (a new table's request is a few hundred)
MAX_DEPTH = 8  # nesting of a JSON request (a new table's is 3 deep)
SAFE_METHODS = ("GET", "HEAD")
HEADERS = [  # on every answer
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
                                 b"form-action 'self'; frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
BRACKETS = re.compile(r"[\[\]{}]")
HOST = re.compile(r"(?:(?P<name>[A-Za-z0-9.-]+)|\[(?P<ipv6>[0-9A-Fa-f:.]+)\])(?::(?P<port>[0-9]{1,5}))?")


class RequestError(NaipesError):
    """A request the server will not take, with the HTTP status that says why."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


class NotUnicode(RequestError):
    """A request holding text that is not Unicode: a tab is told so, not what a move is."""


class Crowd:
    """Room for slow work: at most `at_once` requests in it, at most `waiting` more waiting for their turn, and
    any further request refused at once (503). Used on the event loop alone (no lock)."""

    def __init__(self, at_once: int, waiting: int):
        self._turns = asyncio.Semaphore(at_once)
        self._room = at_once + waiting
        self._inside = 0  # running or waiting

    @property
    def inside(self) -> int:
        """How many requests are in it, running or waiting."""
        return self._inside

    @asynccontextmanager
    async def admitted(self, busy: str) -> AsyncIterator[None]:
        """Wait for a turn, or refuse the request (`busy`: what the server is busy with) if none is in sight."""
        if self._inside >= self._room:
            raise RequestError(f"the server is busy {busy}: try again in a moment", 503)
        self._inside += 1
        try:
            async with self._turns:
                yield
        finally:
            self._inside -= 1


class JSONResponse(responses.JSONResponse):
    """Starlette's, in ASCII (``\\u`` escapes): text no UTF-8 holds (a file name's undecodable bytes) is still
    sent, and the rest the same."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, allow_nan=False, separators=(",", ":")).encode("ascii")


class Guard:
    """ASGI middleware: refuses what the module's docstring lists; adds :data:`HEADERS` to every answer."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str]):
        self.app = app
        self.hosts = {h.lower() if ":" in h and not h.startswith("[") else host_name(h) or h for h in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope, Headers(scope=scope))
        if refusal is not None:
            await refuse(scope, receive, send, refusal)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)
        await self.app(scope, receive, send_with_headers)

    def refusal(self, scope: Scope, headers: Headers) -> RequestError | None:
        """Why this request is refused (None: it is let in)."""
        host = headers.get("host", "")
        if host_name(host) not in self.hosts:
            return RequestError(f"this server does not answer to the name '{host[:100]}': open it as "
                                f"{' or '.join(sorted(self.hosts))} (naipes serve --host NAME to add one)")
        if scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS:
            origin, site = headers.get("origin"), headers.get("sec-fetch-site")
            if origin is not None and not same_origin(origin, host):
                return RequestError(f"a page of another site ({origin[:100]}) may not play or make tables here", 403)
            if site is not None and site not in ("same-origin", "none"):
                return RequestError(f"a request from another site ({site[:20]}) may not play or make tables here",
                                    403)
        length = headers.get("content-length")
        if length is not None and (not length.isdecimal() or int(length) > MAX_BODY):
            return RequestError(f"the request's body is larger than {MAX_BODY} bytes", 413)
        return None


async def refuse(scope: Scope, receive: Receive, send: Send, error: RequestError) -> None:
    """Answer with the refusal: an HTTP response; for a WebSocket, a close before it opens (the handshake
    fails with 403: a browser tells a page no more)."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008, "reason": str(error)[:120]})
        return
    await PlainTextResponse(str(error), status_code=error.status, headers=dict(
        (k.decode(), v.decode()) for k, v in HEADERS))(scope, receive, send)


def host_name(host: str) -> str | None:
    """The name in a Host header, lower case and without its port or an IPv6 address's brackets (None if it
    is not a name and port)."""
    found = HOST.fullmatch(host)
    return None if found is None else (found["name"] or found["ipv6"]).lower()


def authority(netloc: str, scheme: str) -> tuple[str, int] | None:
    """The name and port of a Host header or an origin's authority, the port filled in from the scheme."""
    found = HOST.fullmatch(netloc)
    if found is None:
        return None
    port = found["port"] or {"http": "80", "https": "443"}[scheme]
    return (found["name"] or found["ipv6"]).lower(), int(port)


def same_origin(origin: str, host: str) -> bool:
    """Whether a page of `origin` (scheme://name:port) is this server's, reached as `host` (name:port).

    'null' (a sandboxed frame, a file) and anything but an http(s) origin is another site."""
    scheme, _, netloc = origin.partition("://")
    if scheme not in ("http", "https"):
        return False
    mine = authority(netloc, scheme)
    return mine is not None and mine == authority(host, scheme)


def parse_json(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """JSON nested no deeper than `max_depth` (a :class:`RequestError` if it is not, or is not JSON)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise RequestError("the request is not UTF-8 text") from None
    depth = deepest = 0
    for bracket in BRACKETS.findall(STRINGS.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(depth, deepest)
    if deepest > max_depth:
        raise RequestError(f"the request's JSON is nested {deepest} deep; at most {max_depth} is taken")
    try:
        value = json.loads(text)
    except ValueError as error:  # (also a number of over 4,300 digits)
        raise RequestError(f"the request is not JSON: {error}") from None
    _refuse_surrogates(value)
    return value


def _refuse_surrogates(value: Any) -> None:
    """A :class:`RequestError` if a string of `value` (a key or a value, at any depth) holds a lone UTF-16
    surrogate: UTF-8 holds none, so an answer quoting it would fail as it is sent."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise NotUnicode("the request holds text that is not valid Unicode") from None


async def read_json(request: Request, max_depth: int = MAX_DEPTH) -> Any:
    """A request's JSON body, read no further than :data:`MAX_BODY` bytes."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise RequestError("the request's body must be JSON (Content-Type: application/json)", 415)
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise RequestError(f"the request's body is larger than {MAX_BODY} bytes", 413)
    except ClientDisconnect:
        raise RequestError("the request was cut off") from None
    return parse_json(bytes(body), max_depth)
