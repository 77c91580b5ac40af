"""The doors' guards: throttles on failed logins and player codes, the client's address, security headers and
a limit on open live connections per client.

Throttles count failures per key in the journal's database (``web_throttle``), so every worker sees the same
counts; each failure is recorded in ``web_attempt`` (when, which door, which account, from where, what) for the
arbiter's ``/security`` page. A key's first :attr:`Limits.free` failures cost nothing; each further one makes the
key wait a growing delay (``delay``, doubled each time, at most ``max_delay``) before it may try again; at
:attr:`Limits.lock_after` failures it is locked for ``lock`` seconds. A request while its key waits is refused
(429 with ``Retry-After``) without its password or code being looked at. Failures older than ``window`` are
forgotten.
"""

from __future__ import annotations

import ipaddress
import json
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from arbitru.journal.store import Journal
from arbitru.messages import Text
from arbitru.web import auth

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: failed attempts are kept this long for the arbiter's page (seconds)
KEEP_ATTEMPTS = 30 * 86400
#: the doors: arbiter and desk logins, player codes (join page and API)
LOGIN, CODE = "login", "code"


@dataclass(frozen=True)
class Limits:
    """How hard the doors push back; tests shorten the times."""

    free: int = 5
    lock_after: int = 10
    delay: float = 1.0
    max_delay: float = 60.0
    lock: float = 900.0
    window: float = 3600.0
    #: a game's code door (every player's) tolerates this many times more failures than one client
    game_factor: int = 10
    #: open live (SSE) connections per client address, per worker: a club's players behind one NAT address
    #: watching the same game stay under it; one client cannot take every file descriptor
    live_per_client: int = 32
    #: reverse proxies whose ``X-Forwarded-For`` is believed (addresses or networks)
    trusted_proxies: tuple[str, ...] = ()
    #: the throttles' clock (tests move it instead of waiting)
    clock: Callable[[], float] = time.time
    _networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = field(init=False, repr=False,
                                                                                  compare=False)

    def __post_init__(self) -> None:
        nets = tuple(ipaddress.ip_network(a, strict=False) for a in self.trusted_proxies)
        object.__setattr__(self, "_networks", nets)

    def trusts(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self._networks)

    def wait_after(self, failures: int, scale: int = 1) -> float:
        """The wait a key earns by its ``failures``-th failure."""
        if failures >= self.lock_after * scale:
            return self.lock
        over = failures - self.free * scale
        return 0.0 if over <= 0 else min(self.delay * 2 ** (over - 1), self.max_delay)


def check_proxy(address: str) -> str:
    """A ``--trust-proxy`` value: an address or a network.

    :raises ValueError: for anything else.
    """
    ipaddress.ip_network(address, strict=False)
    return address


def _proxy_said(scope: Scope, limits: Limits, header: bytes) -> list[str] | None:
    """The values of ``header`` as a trusted proxy sent them, or None when the peer is no trusted proxy (what
    anyone else says in it is not believed)."""
    peer = scope.get("client")
    if not (peer and limits.trusts(str(peer[0]))):
        return None
    return [v.decode("latin-1") for k, v in scope.get("headers", []) if k == header]


def client_address(scope: Scope, limits: Limits) -> str:
    """Who is at the other end: the socket's peer, or, when that peer is a trusted proxy, the last address of
    ``X-Forwarded-For`` that is not itself a trusted proxy (the ones before it are the client's own claims)."""
    peer = scope.get("client")
    address = str(peer[0]) if peer else "unknown"
    forwarded = _proxy_said(scope, limits, b"x-forwarded-for")
    if forwarded is None:
        return address
    hops = [h.strip() for h in ",".join(forwarded).split(",") if h.strip()]
    for hop in reversed(hops):
        if not limits.trusts(hop):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return address  # a proxy that forwards garbage: keep the proxy's own address
    return address


def over_https(scope: Scope, limits: Limits) -> bool:
    """Whether this browser reached the app over HTTPS: the request's own scheme, or a trusted proxy's
    ``X-Forwarded-Proto``. Its session cookie is then sent back only over HTTPS (``Secure``). Not the published
    address (``--base-url``): an arbiter at the server itself may reach a worker over plain HTTP."""
    if scope.get("scheme") == "https":
        return True
    said = _proxy_said(scope, limits, b"x-forwarded-proto") or [""]
    return said[-1].split(",")[-1].strip().lower() == "https"


# --- throttles --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Key:
    """One throttled thing: an account, a game's codes, a client at a door; ``scale`` multiplies the counts."""

    name: str
    scale: int = 1


def login_keys(account: str, client: str) -> list[Key]:
    return [Key(f"{LOGIN}:{account}"), Key(f"{LOGIN}@{client}")]


def code_keys(game: str, client: str, limits: Limits) -> list[Key]:
    return [Key(f"{CODE}:{game}", limits.game_factor), Key(f"{CODE}@{client}")]


def wait_for(journal: Journal, keys: list[Key], now: float | None = None) -> float:
    """Seconds before these keys may try again (0: now)."""
    now = time.time() if now is None else now
    until = waits_until(journal, [k.name for k in keys])
    return max([0.0, *(u - now for u in until.values())])


def waits_until(journal: Journal, names: list[str]) -> dict[str, float]:
    """The moment each of these keys may try again, for those that have failed (one statement for them all: a
    group commit asks once for its whole batch of slips)."""
    return ask_waits(journal, names)()


def ask_waits(journal: Journal, names: list[str]) -> Callable[[], dict[str, float]]:
    """:func:`waits_until`, asked now and read when called (:meth:`Journal.ask`: a group commit's question
    travels with its refresh); no statement at all for no keys."""
    names = sorted(set(names))
    if not names:
        return dict
    marks = ", ".join("?" * len(names))
    rows = journal.ask(f"SELECT key, wait_until FROM web_throttle WHERE key IN ({marks})", tuple(names))
    return lambda: {str(k): float(u) for k, u in rows()}


def hand_in_guard(names: list[str], asked: float) -> tuple[str, tuple[Any, ...]]:
    """A group commit sent at once (:meth:`Journal.at_once`) stores nothing if any of these keys waits at the
    throttles' clock ``asked`` (:data:`auth.HAND_IN`): the batch then goes the ordinary way, where each slip's
    sender is told how long (:func:`ask_waits`)."""
    return auth.HAND_IN, (sorted(set(names)), asked)


def failed(journal: Journal, limits: Limits, keys: list[Key], *, door: str, account: str, client: str,
           what: str, now: float | None = None) -> float:
    """Count a failure against each key and record it; returns the wait it earned."""
    now = time.time() if now is None else now
    earned = 0.0
    with journal.transaction():
        for key in keys:
            rows = journal.execute("SELECT failures, last FROM web_throttle WHERE key = ?", (key.name,))
            failures = int(rows[0][0]) if rows and now - float(rows[0][1]) <= limits.window else 0
            failures += 1
            wait = limits.wait_after(failures, key.scale)
            earned = max(earned, wait)
            journal.execute(
                "INSERT INTO web_throttle (key, failures, last, wait_until) VALUES (?, ?, ?, ?) ON CONFLICT (key) "
                "DO UPDATE SET failures = excluded.failures, last = excluded.last, wait_until = excluded.wait_until",
                (key.name, failures, now, now + wait),
            )
        if earned >= limits.lock:
            what += f"; locked for {round(limits.lock)} s"
        elif earned:
            what += f"; next try in {round(earned, 1)} s"
        journal.execute("DELETE FROM web_attempt WHERE at < ?", (now - KEEP_ATTEMPTS,))
        journal.execute("INSERT INTO web_attempt (at, door, account, client, what) VALUES (?, ?, ?, ?, ?)",
                        (now, door, account[:80], client[:80], what))
    return earned


def succeeded(journal: Journal, key: Key) -> None:
    """The account got in with its password: its own count starts again (its clients' counts stay)."""
    with journal.transaction():
        journal.execute("DELETE FROM web_throttle WHERE key = ?", (key.name,))


def unlock(journal: Journal, account: str) -> None:
    """Lift an account's login throttle (a password reset from the terminal)."""
    succeeded(journal, Key(f"{LOGIN}:{account}"))


class Throttled(auth.AuthError):
    """Too many failures from this client or against this account: refused before anything is checked."""

    def __init__(self, wait: float) -> None:
        self.wait = max(1, round(wait))
        super().__init__(Text("too many failed attempts: try again in %(n)s s", n=self.wait))


#: a login's throttle check, password check and failure count run as one step, at most HASHERS at a time in a
#: worker (so a burst in parallel cannot all pass the check before the first failure counts)
_login_door = threading.BoundedSemaphore(auth.HASHERS)


def try_login(journal: Journal, limits: Limits, name: str, password: str, client: str) -> str:
    """The account's role when the password is right and neither the account nor the client must wait.

    :raises Throttled: while they must wait (nothing is checked).
    :raises AuthError: for a wrong account or password (one message for both; the failure is counted).
    """
    keys = login_keys(name[: auth.MAX_NAME], client)
    with _login_door:
        wait = wait_for(journal, keys, limits.clock())
        if wait > 0:
            raise Throttled(wait)
        try:
            role = auth.check_password(journal, name, password)
        except auth.AuthError:
            failed(journal, limits, keys, door=LOGIN, account=name[: auth.MAX_NAME], client=client,
                   what="wrong name or password", now=limits.clock())
            raise
        succeeded(journal, keys[0])
        return role


def try_code(journal: Journal, limits: Limits, game: str, client: str, find: Callable[[], str | None]) -> str | None:
    """The player whose code ``find`` recognises, unless this client or this game's code door must wait.

    :raises Throttled: while they must wait (the code is not looked at).
    """
    keys = code_keys(game, client, limits)
    wait = wait_for(journal, keys, limits.clock())
    if wait > 0:
        raise Throttled(wait)
    player = find()
    if player is None:
        code_failed(journal, limits, game, client)
    return player


def code_failed(journal: Journal, limits: Limits, game: str, client: str) -> float:
    return failed(journal, limits, code_keys(game, client, limits), door=CODE, account=f"game {game}",
                  client=client, what="not a player's code", now=limits.clock())


def attempts(journal: Journal, limit: int = 200) -> list[dict[str, Any]]:
    """The latest failed attempts, newest first."""
    rows = journal.execute(
        "SELECT at, door, account, client, what FROM web_attempt ORDER BY at DESC LIMIT ?", (limit,)
    )
    return [{"at": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(at))), "door": door,
             "account": account, "client": client, "what": what} for at, door, account, client, what in rows]


def waiting(journal: Journal, now: float | None = None) -> list[dict[str, Any]]:
    """The keys that must wait now, and how long."""
    now = time.time() if now is None else now
    rows = journal.execute(
        "SELECT key, failures, wait_until FROM web_throttle WHERE wait_until > ? ORDER BY wait_until DESC", (now,)
    )
    return [{"key": key, "failures": int(n), "seconds": round(float(until) - now)} for key, n, until in rows]


# --- middleware --------------------------------------------------------------------------------------------

#: no inline script anywhere (app.js and htmx are files); inline style attributes stay (no script in them)
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]


class GuardMiddleware:
    """For every HTTP request: the client's address into ``scope["arbitru.client"]``, the security headers on
    every answer, and at most :attr:`Limits.live_per_client` open live connections (``…/events``) per client
    address in this worker (429 beyond)."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits
        self.live: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope["arbitru.client"] = client_address(scope, self.limits)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *(h for h in HEADERS if h[0] not in names)]
            await send(message)

        if not is_live(scope["path"]):
            await self.app(scope, receive, send_with_headers)
            return
        if self.live.get(client, 0) >= self.limits.live_per_client:
            await too_many(send_with_headers, 5, "too many live connections from this address")
            return
        self.live[client] = self.live.get(client, 0) + 1
        try:
            await self.app(scope, receive, send_with_headers)
        finally:
            self.live[client] -= 1
            if not self.live[client]:
                del self.live[client]


def is_live(path: str) -> bool:
    """The live (SSE) endpoints: ``/games/{id}/events``."""
    return path.startswith("/games/") and path.endswith("/events")


async def too_many(send: Send, retry: float, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": 429, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(max(1, round(retry))).encode())]})
    await send({"type": "http.response.body", "body": body})
