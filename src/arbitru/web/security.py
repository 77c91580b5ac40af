"""The doors' guards: throttles on failed logins and player codes, the client's address, security headers and
limits on what a client sends (the body, :class:`GuardMiddleware`) and on its connections (:mod:`arbitru.web.door`).

Throttles count failures per key in the journal's database (``web_throttle``), so every worker sees the same
counts; each failure is recorded in ``web_attempt`` (when, which door, which account, from where, what) for the
arbiter's ``/security`` page. The keys that close a door are a client's: an account (or a game's codes) tried from
one client address, and that client at the door; a browser that got in before counts on its own (its device
cookie, as OWASP recommends against lock-out), so a stranger, even on the same network, never locks it out. An
account's (a game's) count over every client never closes its door: it alerts the arbiter on ``/security``
(:func:`alerts`). A key's first :attr:`Limits.free` failures cost nothing; each further one makes the key wait a
growing delay (``delay``, doubled each time, at most ``max_delay``) before it may try again; at
:attr:`Limits.lock_after` failures it is locked for ``lock`` seconds. A request while its key waits is refused
(429 with ``Retry-After``) without its password or code being looked at, and not counted. The check and the count
are one step (the throttle's lock, :data:`THROTTLE_LOCK`), so tries sent in parallel get no more looks than the
same tries one after another. Failures older than ``window`` are forgotten.
"""

from __future__ import annotations

import datetime
import functools
import ipaddress
import json
import os
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from starlette.exceptions import HTTPException

from arbitru.journal.store import Journal
from arbitru.messages import Text
from arbitru.web import auth, i18n

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: failed attempts are kept this long for the arbiter's page (seconds)
KEEP_ATTEMPTS = 30 * 86400
#: the doors: arbiter and desk logins, player codes (join page and API)
LOGIN, CODE = "login", "code"
#: the client addresses remembered (a hall's ten thousand phones; 4,096 were asked again and again)
_ADDRESSES = 16_384
#: the longest text that may be an address (IPv6 written in full, 45, with a zone's interface name): a longer hop of
#: ``X-Forwarded-For`` (any text up to ``--max-header``) is answered, never remembered
_WRITTEN = 64


@dataclass(frozen=True)
class Limits:
    """How hard the doors push back; tests shorten the times."""

    free: int = 5
    lock_after: int = 10
    delay: float = 1.0
    max_delay: float = 60.0
    lock: float = 900.0
    window: float = 3600.0
    #: a game's codes tried from every client alert the arbiter at this many times more failures than one
    #: client's lock (an account's at one client's lock); they never close the door
    game_factor: int = 10
    #: open live (SSE) connections per client address, per worker: a club's players behind one NAT address
    #: watching the same game stay under it; one client cannot take every file descriptor
    live_per_client: int = 32
    #: the largest request body any page takes, in bytes (``--max-body``): a registry import of 2,000,000
    #: characters sent as a form (:func:`arbitru.web.forms.form_budget`); each page takes no more than its own
    #: form needs, the API no more than a slip. Refused from its ``Content-Length``, or once that many bytes came
    max_body: int = 25 * 1024 * 1024
    #: reverse proxies whose ``X-Forwarded-For`` is believed (addresses or networks)
    trusted_proxies: tuple[str, ...] = ()
    #: the throttles' clock (tests move it instead of waiting)
    clock: Callable[[], float] = time.time
    _networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = field(init=False, repr=False,
                                                                                  compare=False)
    #: the addresses asked about and the answers (every request asks, behind a proxy several times)
    _trusted: dict[str, bool] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        nets = tuple(ipaddress.ip_network(a, strict=False) for a in self.trusted_proxies)
        object.__setattr__(self, "_networks", nets)
        object.__setattr__(self, "_trusted", {})

    def trusts(self, address: str) -> bool:
        if not self._networks:
            return False
        if len(address) > _WRITTEN:
            return False  # no address, and 16,384 of 16 KB each would hold 256 MB
        known = self._trusted.get(address)
        if known is None:
            if len(self._trusted) >= _ADDRESSES:  # a forwarded hop is any text a client sends: bounded
                self._trusted.clear()
            known = self._trusted[address] = _within(self._networks, address)
        return known

    def alert_at(self, key: str) -> int:
        """The failures over every client that alert the arbiter (an account's, a game's codes')."""
        return self.lock_after * (self.game_factor if key.startswith(f"{CODE}:") else 1)

    def wait_after(self, failures: int, scale: int = 1) -> float:
        """The wait a key earns by its ``failures``-th failure."""
        if failures >= self.lock_after * scale:
            return self.lock
        over = failures - self.free * scale
        return 0.0 if over <= 0 else min(self.delay * 2 ** (over - 1), self.max_delay)


def _within(networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...], address: str) -> bool:
    """Whether ``address`` is in one of ``networks``."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def _written(address: str) -> str | None:
    """``address`` as the standard library writes it; None: no address."""
    if len(address) > _WRITTEN:
        return None
    return _parsed(address)


@functools.lru_cache(maxsize=_ADDRESSES)
def _parsed(address: str) -> str | None:
    """:func:`_written`'s answers, remembered (every request behind a proxy asks)."""
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None


#: the environment that hands the limits to ``arbitru serve --workers N``'s processes: trusted proxies, live
#: connections per client, the largest body
ENV_LIMITS = ("ARBITRU_WEB_TRUST_PROXY", "ARBITRU_WEB_LIVE_PER_CLIENT", "ARBITRU_WEB_MAX_BODY")


def limits_to_env(limits: Limits) -> dict[str, str]:
    """The limits ``arbitru serve`` hands its worker processes (:func:`limits_from_env`)."""
    values = (",".join(limits.trusted_proxies), str(limits.live_per_client), str(limits.max_body))
    return dict(zip(ENV_LIMITS, values, strict=True))


def limits_from_env() -> Limits:
    proxies, live, body = (os.environ.get(name, "") for name in ENV_LIMITS)
    return Limits(trusted_proxies=tuple(p for p in proxies.split(",") if p),
                  live_per_client=int(live or Limits.live_per_client), max_body=int(body or Limits.max_body))


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
            return _written(hop) or address  # a proxy that forwards garbage: keep the proxy's own address
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
    """One throttled thing: an account or a game's codes tried from one client (or one known device), or a
    client at a door; ``scale`` multiplies the counts."""

    name: str
    scale: int = 1


#: the lock that makes a throttle's check and count one step (:meth:`Journal.transaction` takes it as a game's:
#: SQLite's write lock, PostgreSQL's advisory lock on this name)
THROTTLE_LOCK = "web_throttle"
#: a remembered device's name in its keys (``login:arbiter#<device>``), never a client address
DEVICE_MARK = "#"


def login_keys(account: str, client: str, device: str = "") -> list[Key]:
    """What a login is throttled by: the account tried from this client and the client at the login door; a
    device that logged in to the account before (:func:`arbitru.web.auth.known_device`) has a count of its own
    instead, so nobody on its network can lock it out (OWASP's device cookies)."""
    if device:
        return [Key(f"{LOGIN}:{account}{DEVICE_MARK}{device}")]
    return [Key(f"{LOGIN}:{account}@{client}"), Key(f"{LOGIN}@{client}")]


def code_keys(game: str, client: str, device: str = "") -> list[Key]:
    """What a player's code is throttled by: the game's codes tried from this client and the client at the code
    door (or the device that joined the game before)."""
    if device:
        return [Key(f"{CODE}:{game}{DEVICE_MARK}{device}")]
    return [Key(f"{CODE}:{game}@{client}"), Key(f"{CODE}@{client}")]


def alert_key(door: str, account: str, limits: Limits) -> Key:
    """The door's count over every client (an account's logins, a game's codes): never closes the door, it
    alerts the arbiter on ``/security`` once it reaches :meth:`Limits.alert_at`."""
    return Key(f"{door}:{account}", limits.game_factor if door == CODE else 1)


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


def _count(journal: Journal, limits: Limits, keys: list[Key], now: float, step: int = 1) -> float:
    """Inside the throttle's transaction: ``step`` failures more (-1: one less) against each key; the wait the
    keys earned by it (an alert key earns none: it never closes the door)."""
    earned = 0.0
    for key in keys:
        rows = journal.execute("SELECT failures, last FROM web_throttle WHERE key = ?", (key.name,))
        failures = int(rows[0][0]) if rows and now - float(rows[0][1]) <= limits.window else 0
        failures = max(0, failures + step)
        if failures == 0:
            journal.execute("DELETE FROM web_throttle WHERE key = ?", (key.name,))
            continue
        alert = "@" not in key.name and DEVICE_MARK not in key.name
        wait = 0.0 if alert else limits.wait_after(failures, key.scale)
        earned = max(earned, wait)
        journal.execute(
            "INSERT INTO web_throttle (key, failures, last, wait_until) VALUES (?, ?, ?, ?) ON CONFLICT (key) "
            "DO UPDATE SET failures = excluded.failures, last = excluded.last, wait_until = excluded.wait_until",
            (key.name, failures, now, now + wait),
        )
    return earned


def _waiting(journal: Journal, keys: list[Key], now: float) -> float:
    until = waits_until(journal, [k.name for k in keys])
    return max([0.0, *(u - now for u in until.values())])


def _record(journal: Journal, limits: Limits, alert: Key, *, door: str, account: str, client: str, what: str,
            earned: float, now: float) -> None:
    """A failure for the arbiter's page, and one more against the door's count over every client."""
    _count(journal, limits, [alert], now)
    if earned >= limits.lock:
        what += f"; locked for {round(limits.lock)} s"
    elif earned:
        what += f"; next try in {round(earned, 1)} s"
    journal.execute("DELETE FROM web_attempt WHERE at < ?", (now - KEEP_ATTEMPTS,))
    # a key whose last failure is past the window and whose wait is over counts for nothing (:func:`_count`): it
    # goes, so that the names a stranger types at a door are not kept for ever
    journal.execute("DELETE FROM web_throttle WHERE last < ? AND wait_until <= ?", (now - limits.window, now))
    journal.execute("INSERT INTO web_attempt (at, door, account, client, what) VALUES (?, ?, ?, ?, ?)",
                    (now, door, account[:80], client[:80], what))


def failed(journal: Journal, limits: Limits, keys: list[Key], alert: Key, *, door: str, account: str, client: str,
           what: str, now: float | None = None) -> float:
    """Count a failure against each key, unless one of them waits already, and record it: one step (the
    throttle's lock held from the check to the count), so failures sent in parallel are counted as if sent one
    after another; returns the wait earned.

    :raises Throttled: when a key waits already (nothing counted: the attempt is refused unseen).
    """
    now = time.time() if now is None else now
    with journal.transaction(THROTTLE_LOCK):
        wait = _waiting(journal, keys, now)
        if wait > 0:
            raise Throttled(wait)
        earned = _count(journal, limits, keys, now)
        _record(journal, limits, alert, door=door, account=account, client=client, what=what, earned=earned,
                now=now)
    return earned


def succeeded(journal: Journal, key: Key) -> None:
    """Forget a key's failures."""
    with journal.transaction(THROTTLE_LOCK):
        journal.execute("DELETE FROM web_throttle WHERE key = ?", (key.name,))


def unlock(journal: Journal, account: str) -> None:
    """Lift an account's login throttles, on every client and device (a password reset from the terminal)."""
    with journal.transaction(THROTTLE_LOCK):
        journal.execute("DELETE FROM web_throttle WHERE key = ? OR key LIKE ? OR key LIKE ?",
                        (f"{LOGIN}:{account}", f"{LOGIN}:{account}@%", f"{LOGIN}:{account}{DEVICE_MARK}%"))


class Throttled(auth.AuthError):
    """Too many failures from this client or device: refused before anything is checked."""

    def __init__(self, wait: float) -> None:
        self.wait = max(1, round(wait))
        super().__init__(Text("too many failed attempts: try again in %(n)s s", n=self.wait))


def try_login(journal: Journal, limits: Limits, name: str, password: str, client: str, device: str = "") -> str:
    """The account's role when the password is right and this client (or this known ``device``) need not wait.

    The check and the count are one step: the try is counted as a failure before the password is looked at (the
    throttle's lock held from the check to the count) and given back when the password is right, so a burst of
    logins in parallel gets no more looks at a password than the same logins one after another. What other
    clients do against the account only alerts the arbiter: a right password from a client that is not itself
    failing gets in.

    :raises Throttled: while this client or device must wait (nothing is checked).
    :raises AuthError: for a wrong account or password (one message for both; the failure is recorded).
    """
    account = name[: auth.MAX_NAME]
    keys = login_keys(account, client, device)
    now = limits.clock()
    with journal.transaction(THROTTLE_LOCK):
        wait = _waiting(journal, keys, now)
        if wait > 0:
            raise Throttled(wait)
        earned = _count(journal, limits, keys, now)
    try:
        role = auth.check_password(journal, name, password)
    except auth.AuthError:
        with journal.transaction(THROTTLE_LOCK):
            _record(journal, limits, alert_key(LOGIN, account, limits), door=LOGIN, account=account, client=client,
                    what="wrong name or password", earned=earned, now=now)
        raise
    with journal.transaction(THROTTLE_LOCK):
        # the try is given back; the account's count from this client (or device) starts again
        journal.execute("DELETE FROM web_throttle WHERE key = ?", (keys[0].name,))
        _count(journal, limits, keys[1:], now, step=-1)
    return role


def try_code(journal: Journal, limits: Limits, game: str, client: str, find: Callable[[], str | None],
             device: str = "") -> str | None:
    """The player whose code ``find`` recognises, unless this client (or this known ``device``) must wait at
    the game's code door. ``find`` is cheap (a code derives from the secret): it runs first, then a right code
    is let in unless the client waits, and a wrong one is counted in one step with the check
    (:func:`code_failed`).

    :raises Throttled: while the client or device must wait (right code or not: the same answer).
    """
    player = find()
    if player is None:
        code_failed(journal, limits, game, client, device)
        return None
    wait = wait_for(journal, code_keys(game, client, device), limits.clock())
    if wait > 0:
        raise Throttled(wait)
    return player


def code_failed(journal: Journal, limits: Limits, game: str, client: str, device: str = "") -> float:
    """A code of no player of the game, counted against this client (or device) unless it waits already.

    :raises Throttled: when it waits (nothing counted)."""
    return failed(journal, limits, code_keys(game, client, device), alert_key(CODE, game, limits), door=CODE,
                  account=f"game {game}", client=client, what="not a player's code", now=limits.clock())


def _local(at: object) -> datetime.datetime:
    """A stored moment (seconds since the epoch) as the server's clock reads it: the page writes it in its language
    (the ``moment`` filter)."""
    return datetime.datetime.fromtimestamp(float(str(at)))


def attempts(journal: Journal, limit: int = 200) -> list[dict[str, Any]]:
    """The latest failed attempts, newest first."""
    rows = journal.execute(
        "SELECT at, door, account, client, what FROM web_attempt ORDER BY at DESC LIMIT ?", (limit,)
    )
    return [{"at": _local(at), "door": door,
             "account": account, "client": client, "what": what} for at, door, account, client, what in rows]


def alerts(journal: Journal, limits: Limits, now: float | None = None) -> list[dict[str, Any]]:
    """The accounts and games whose doors failed often, from every client, within the window: someone may be
    guessing from many addresses (the door stays open for the clients that are not failing)."""
    now = time.time() if now is None else now
    rows = journal.execute(
        "SELECT key, failures, last FROM web_throttle WHERE last >= ? AND key NOT LIKE ? AND key NOT LIKE ? "
        "ORDER BY failures DESC", (now - limits.window, "%@%", f"%{DEVICE_MARK}%"))
    return [{"key": str(key), "failures": int(n),
             "last": _local(last)}
            for key, n, last in rows if int(n) >= limits.alert_at(str(key))]


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


class BodyTooLarge(HTTPException):
    """A request body beyond what the page (or the server) takes: 413, said in the page's language."""

    def __init__(self, most: int) -> None:
        super().__init__(413, Text("the request is larger than this page takes (at most %(n)s bytes)", n=most))


def declared_length(scope: Scope) -> int | None:
    """The body's ``Content-Length``, or None when the request says none (chunked) or something unreadable."""
    for k, v in scope.get("headers", []):
        if k == b"content-length":
            # ASCII digits only, said outright (the header is bytes: 0x30-0x39)
            return int(v) if 0 < len(v) <= 18 and all(0x30 <= c <= 0x39 for c in v) else None
    return None


def limited(receive: Receive, most: int) -> Receive:
    """``receive`` that stops a body once more than ``most`` bytes came (:class:`BodyTooLarge`): nothing beyond is
    read, whatever the request declared."""
    got = 0

    async def receive_limited() -> Message:
        nonlocal got
        message = await receive()
        if message["type"] == "http.request":
            got += len(message.get("body", b""))
            if got > most:
                raise BodyTooLarge(most)
        return message

    return receive_limited


class GuardMiddleware:
    """For every HTTP request: the client's address into ``scope["arbitru.client"]``, the security headers on
    every answer, a body of at most :attr:`Limits.max_body` bytes (413 from its ``Content-Length`` before a byte of
    it is read, or as soon as it passes the limit), and at most :attr:`Limits.live_per_client` open live
    connections (``…/events``) per client address in this worker (429 beyond)."""

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

        declared = declared_length(scope)
        if declared is not None and declared > self.limits.max_body:
            await too_large(scope, send_with_headers, self.limits.max_body)
            return
        receive = limited(receive, self.limits.max_body)
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


async def too_large(scope: Scope, send: Send, most: int) -> None:
    """413 for a body declared larger than the server takes, unread: JSON under ``/api/``, else a line of text in
    the language the page asked for (``?lang=``); the connection is closed after it (the body is never read)."""
    refusal = BodyTooLarge(most)
    if scope["path"].startswith("/api/"):
        body, kind = json.dumps({"error": str(refusal.detail)}).encode(), b"application/json"
    else:
        asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [""])[0]
        said = i18n.shown(refusal.detail, i18n.gettext_for(i18n.pick(asked, "en")))
        body, kind = (said + "\n").encode(), b"text/plain; charset=utf-8"
    await send({"type": "http.response.start", "status": 413, "headers": [
        (b"content-type", kind), (b"content-length", str(len(body)).encode()), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


async def too_many(send: Send, retry: float, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": 429, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(max(1, round(retry))).encode())]})
    await send({"type": "http.response.body", "body": body})
