"""Running the web table's application with uvicorn: in the foreground (``naipes serve``) or in a thread.

The listening socket is bound here, so that a port in use is a clear error
before anything starts, and port 0 (any free port) still gives an address.

>>> with serving(create_app({...}), port=0) as url:     # doctest: +SKIP
...     print(url)
http://127.0.0.1:40123/
"""
from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import uvicorn
from starlette.applications import Starlette

from ..errors import NaipesError


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to host:port (a located error if it cannot be)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise NaipesError(f"cannot listen on {host}:{port}: {error.strerror or error}; "
                          f"choose another port with --port (0: any free port)") from None
    sock.listen(128)
    return sock


def host_names(host: str) -> list[str]:
    """The names a server listening on `host` answers to (besides this machine's own local names): the host, or,
    for every address (0.0.0.0, ::), this machine's name and addresses."""
    if host not in ("0.0.0.0", "::", ""):
        return [host]
    names = {socket.gethostname(), socket.getfqdn()}
    for name in list(names):
        with suppress(OSError):  # a name the resolver does not know
            names.update(str(info[4][0]) for info in socket.getaddrinfo(name, None))
    return sorted(names)


def address(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def _server(app: Starlette) -> uvicorn.Server:
    return uvicorn.Server(uvicorn.Config(app, log_level="warning", ws_max_size=1 << 16, lifespan="on"))


def run(app: Starlette, sock: socket.socket) -> None:
    """Serve until interrupted (Ctrl-C)."""
    _server(app).run(sockets=[sock])


@contextmanager
def serving(app: Starlette, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve in a background thread for the duration of a with block; yields the address."""
    sock = listen(host, port)
    server = _server(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started and thread.is_alive():
            time.sleep(0.02)
        yield address(sock)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
