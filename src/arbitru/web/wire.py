"""The server's connections as ``arbitru serve`` runs them: uvicorn's HTTP protocol with the limits a client must
keep before the app sees its request (:class:`Wire`).

- **Header size**: a request's line and headers together at most :attr:`Wire.max_header` bytes; beyond, 431 and
  the connection closed, whatever was sent (a 2 MB header costs its sender, not the server).
- **Header-read time**: a request's line and headers arrive within :attr:`Wire.header_timeout` seconds of the
  connection's opening (of the previous answer's end on a kept-alive connection); else it is closed (408). A
  client that trickles its headers a byte at a time holds nothing for long.
- **Connections per client address**: at most :attr:`Wire.per_client` open at once (every connection, live
  streams or not); beyond, 503 and closed at once. A trusted reverse proxy's connections are not counted (the
  proxy speaks for many clients: it keeps its own limits, see ``docs/deploy.md``).

The body's limit is the app's (:class:`arbitru.web.security.GuardMiddleware`): from its ``Content-Length`` or as it
arrives, in the page's language.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from arbitru.web.security import Limits, limits_from_env

#: where a request's head ends
_HEAD_END = b"\r\n\r\n"


@dataclass(frozen=True)
class Wire:
    """The limits on a client's connections (``arbitru serve`` options; docs/security.md lists them)."""

    #: a request's line and headers, in bytes (``--max-header``)
    max_header: int = 16 * 1024
    #: seconds to send a request's line and headers (``--header-timeout``)
    header_timeout: float = 10.0
    #: open connections per client address, per worker (``--connections-per-client``)
    per_client: int = 64

    def check(self, limits: Limits) -> None:
        """Limits that agree: a client's live streams are some of its connections, not more than all.

        :raises ValueError: naming the limits that disagree.
        """
        if limits.live_per_client >= self.per_client:
            raise ValueError(f"--live-per-client {limits.live_per_client} must be below --connections-per-client "
                             f"{self.per_client}: a client's live pages are some of its connections")


def _response(status: bytes, message: str, retry: int = 0) -> bytes:
    body = message.encode()
    head = [b"HTTP/1.1 " + status, b"content-type: text/plain; charset=utf-8",
            b"content-length: " + str(len(body)).encode(), b"connection: close"]
    if retry:
        head.append(b"retry-after: " + str(retry).encode())
    return b"\r\n".join(head) + b"\r\n\r\n" + body


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol keeping :attr:`wire`'s limits; the counts of open connections are this
    process's (one worker's). A subclass names its limits (:func:`protocol`, :class:`EnvProtocol`)."""

    wire: ClassVar[Wire] = Wire()
    limits: ClassVar[Limits] = Limits()
    open_by_client: ClassVar[dict[str, int]] = {}
    _counted = ""
    _head = 0
    _in_head = True
    _tail = b""
    #: when this connection's request head is due (loop time; 0: none awaited)
    _due = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else ""
        counts = self.open_by_client
        if address and not self.limits.trusts(address):
            if counts.get(address, 0) >= self.wire.per_client:
                transport.write(_response(b"503 Service Unavailable", "too many connections from this address\n", 5))
                transport.close()
                return
            counts[address] = counts.get(address, 0) + 1
            self._counted = address
        self._start_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        if self._counted:
            left = self.open_by_client.get(self._counted, 1) - 1
            if left > 0:
                self.open_by_client[self._counted] = left
            else:
                self.open_by_client.pop(self._counted, None)
            self._counted = ""
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            seen = self._tail + data
            end = seen.find(_HEAD_END)
            self._head += len(data) if end < 0 else end + len(_HEAD_END) - len(self._tail)
            self._tail = seen[-(len(_HEAD_END) - 1):]
            if self._head > self.wire.max_header:
                self._refuse(b"431 Request Header Fields Too Large",
                             f"the request's headers are larger than {self.wire.max_header} bytes\n")
                return
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._stop_timer()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        # what follows on this connection is the next request's head, timed from the answer's end
        self._in_head, self._head, self._tail = True, 0, b""

    def on_response_complete(self) -> None:
        if self.cycle is not None and self.cycle.more_body and not self.transport.is_closing():
            # answered before its body had all come (a body refused as too large): nothing more of it is read
            self._stop_timer()
            self.transport.close()
        super().on_response_complete()
        if self._in_head and not self.transport.is_closing():
            self._start_head()

    def _start_head(self) -> None:
        self._due = self.loop.time() + self.wire.header_timeout
        _await_head(self.loop, self)

    def _stop_timer(self) -> None:
        if self._due:
            self._due = 0.0
            heads = _heads.get(self.loop)
            if heads is not None:
                heads.pop(self, None)

    def _too_slow(self) -> None:
        self._due = 0.0
        if self._in_head and not self.transport.is_closing():
            self._refuse(b"408 Request Timeout",
                         f"the request's headers did not arrive within {self.wire.header_timeout:g} s\n")

    def _refuse(self, status: bytes, message: str) -> None:
        self._stop_timer()
        if self.cycle is None or self.cycle.response_complete:  # no answer under way: say why
            self.transport.write(_response(status, message))
        self.transport.close()


#: seconds between two looks at the connections whose request head is awaited (one look per event loop, not a
#: timer armed and cancelled for each of the thousands of connections a hall's phones open)
HEAD_SWEEP_S = 0.25
#: per event loop: the connections whose request head is awaited, and when it is due
_heads: dict[asyncio.AbstractEventLoop, dict[GuardedProtocol, float]] = {}


def _await_head(loop: asyncio.AbstractEventLoop, connection: GuardedProtocol) -> None:
    heads = _heads.get(loop)
    if heads is None:
        heads = _heads[loop] = {}
        loop.call_later(HEAD_SWEEP_S, _sweep_heads, loop)
    heads[connection] = connection._due


def _sweep_heads(loop: asyncio.AbstractEventLoop) -> None:
    """In ``loop``: the connections whose head did not come in time are answered 408 and closed; again in
    :data:`HEAD_SWEEP_S` while the loop awaits any head."""
    heads = _heads.get(loop)
    if not heads:
        _heads.pop(loop, None)
        return
    now = loop.time()
    for connection in [c for c, due in heads.items() if due <= now]:
        heads.pop(connection, None)
        connection._too_slow()
    loop.call_later(HEAD_SWEEP_S, _sweep_heads, loop)


def protocol(wire: Wire, limits: Limits) -> type[GuardedProtocol]:
    """The protocol class keeping these limits (``uvicorn.Config(http=…)``), with its own counts."""
    made: type[GuardedProtocol] = type("GuardedProtocol", (GuardedProtocol,),
                                       {"wire": wire, "limits": limits, "open_by_client": {}})
    return made


ENV_MAX_HEADER = "ARBITRU_WEB_MAX_HEADER"
ENV_HEADER_TIMEOUT = "ARBITRU_WEB_HEADER_TIMEOUT"
ENV_PER_CLIENT = "ARBITRU_WEB_CONNECTIONS_PER_CLIENT"


def to_env(wire: Wire) -> dict[str, str]:
    """The limits for the worker processes (:class:`EnvProtocol`)."""
    return {ENV_MAX_HEADER: str(wire.max_header), ENV_HEADER_TIMEOUT: str(wire.header_timeout),
            ENV_PER_CLIENT: str(wire.per_client)}


def from_env() -> Wire:
    return Wire(int(os.environ.get(ENV_MAX_HEADER) or Wire.max_header),
                float(os.environ.get(ENV_HEADER_TIMEOUT) or Wire.header_timeout),
                int(os.environ.get(ENV_PER_CLIENT) or Wire.per_client))


class EnvProtocol(GuardedProtocol):
    """The protocol of each worker process of ``arbitru serve --workers N``: its limits from the environment the
    command set (uvicorn names the class by its import path)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        if "wire" not in cls.__dict__:
            cls.wire, cls.limits, cls.open_by_client = from_env(), limits_from_env(), {}
        super().__init__(*args, **kwargs)


def uvicorn_options(wire: Wire, limits: Limits, workers: int = 1) -> dict[str, Any]:
    """What ``arbitru serve`` gives ``uvicorn.Config`` besides the app, host and port: the guarded protocol (by
    its import path for worker processes, which read the limits from the environment), uvicorn's own
    ``X-Forwarded-For`` handling off (the app decides whom to believe: ``--trust-proxy``); several workers are
    asked whether they live within :data:`WORKER_HEALTHCHECK_S` rather than uvicorn's 5 s."""
    http: Any = f"{__name__}:EnvProtocol" if workers > 1 else protocol(wire, limits)
    return {"http": http, "log_level": "warning", "proxy_headers": False,
            "timeout_worker_healthcheck": WORKER_HEALTHCHECK_S, "timeout_graceful_shutdown": GRACEFUL_S}


#: seconds a stopping server gives the requests under way before it closes what is still open: the phones' live
#: streams never end by themselves (they reconnect to the server started again), so without it a stop waits for
#: every phone to go
GRACEFUL_S = 5


#: seconds a worker may take to answer the supervisor's ping before it is killed and started again: a worker
#: pushing ten thousand verdicts on a loaded machine is busy, not hung, and killing it drops all its phones'
#: streams at the moment they wait for their verdicts
WORKER_HEALTHCHECK_S = 60
