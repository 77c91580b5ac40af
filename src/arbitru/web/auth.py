"""Who is asking: the arbiter (password), a desk (an account the arbiter creates), a player (a code per game) or
the public; signed session cookies, server-side sessions and CSRF tokens.

Accounts and sessions live in tables of their own in the journal's database, beside the events and never among
them: they are not referee decisions. Passwords are stored only as salted scrypt hashes, computed at most
:data:`HASHERS` at a time (each takes 16 MB). A session is a random id in the signed cookie and a row of
``web_session`` (its id hashed): logout, a password reset and a secret rotation delete rows, so the cookie stops
working at once, in every worker. A player's code is derived from the secret, the game and the player's number,
so it can be printed again at any time (``arbitru duplicate codes GAME``) and needs no table.

The secret (:func:`server_secret`) is a file beside a SQLite journal (``games.db.secret``, mode 0600), never in
the journal file itself, so a copy of the journal carries no secret; with PostgreSQL it is the ``web_secret``
table (the database's own access rights guard it). Neither ``journal export`` nor ``journal copy`` reads it.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import hmac
import json
import os
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arbitru.errors import ArbitruError
from arbitru.formats import format_of
from arbitru.journal import sealed
from arbitru.journal.backends import APPEND_CURRENT, SqliteBackend
from arbitru.journal.store import Journal
from arbitru.messages import Text

#: the web's tables, by name (:meth:`Journal.ensure`)
SCHEMA = (
    ("web_secret", "CREATE TABLE IF NOT EXISTS web_secret (name TEXT PRIMARY KEY, value TEXT NOT NULL)"),
    ("web_account", "CREATE TABLE IF NOT EXISTS web_account (name TEXT PRIMARY KEY, role TEXT NOT NULL, "
     "salt TEXT NOT NULL, hash TEXT NOT NULL)"),
    ("web_session", "CREATE TABLE IF NOT EXISTS web_session (id TEXT PRIMARY KEY, role TEXT NOT NULL, "
     "name TEXT NOT NULL, game TEXT NOT NULL, player TEXT NOT NULL, created DOUBLE PRECISION NOT NULL, "
     "seen DOUBLE PRECISION NOT NULL)"),
    # the throttles of the login doors (arbitru.web.security), shared by every worker
    ("web_throttle", "CREATE TABLE IF NOT EXISTS web_throttle (key TEXT PRIMARY KEY, failures INTEGER NOT NULL, "
     "last DOUBLE PRECISION NOT NULL, wait_until DOUBLE PRECISION NOT NULL)"),
    ("web_attempt", "CREATE TABLE IF NOT EXISTS web_attempt (at DOUBLE PRECISION NOT NULL, door TEXT NOT NULL, "
     "account TEXT NOT NULL, client TEXT NOT NULL, what TEXT NOT NULL)"),
)
#: a group commit of slips as one statement (:meth:`Journal.at_once`), refused (-1, nothing stored)
#: while a sender's throttle key waits (:mod:`arbitru.web.security`)
HAND_IN = "arbitru_hand_in_slips"
PG_SCHEMA = (
    (HAND_IN, f"""CREATE OR REPLACE FUNCTION {HAND_IN}(p_keys text[], p_now double precision, p_game text,
    p_lock integer, p_last integer, p_rows text, p_notice text)
RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM web_throttle WHERE key = ANY(p_keys) AND wait_until > p_now) THEN
        RETURN -1;
    END IF;
    RETURN {APPEND_CURRENT}(p_game, p_lock, p_last, p_rows, p_notice);
END $$"""),
)
#: a session unused this long ends (seconds): a day's session at the desk survives its lunch break
SESSION_IDLE = 4 * 3600
#: a session ends this long after its login whatever its use (seconds): a tournament day
SESSION_MAX = 24 * 3600
#: the sessions one player's code keeps open at once (his phone, a spare, the tablet at his table…): the code
#: copied to a crowd opens no more
SESSIONS_PER_PLAYER = 4
#: a session's last use is written at most this often (seconds), not at every request
SESSION_TOUCH = 60
#: scrypt (n=2**14, r=8) takes 16 MB: at most this many at a time, whatever the number of logins at once
HASHERS = 2
#: the only threads that hash: a semaphore alone is not enough, as every thread that once hashed keeps its 16 MB
#: in its own malloc arena (40 logins on 40 pool threads: 500 MB)
_hashers = ThreadPoolExecutor(max_workers=HASHERS, thread_name_prefix="arbitru-scrypt")
ARBITER = "arbiter"
#: a code is read off paper and typed on a phone: no 0/O, 1/I/L
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
COOKIE = "arbitru_session"
MAX_NAME = 40


class AuthError(ArbitruError):
    """A wrong password, an unknown account, a bad code."""


@dataclass(frozen=True)
class Identity:
    """The signed content of a session cookie: ``role`` is arbiter, desk, player or public."""

    sid: str
    role: str = "public"
    name: str = ""
    game: str = ""
    player: str = ""

    @property
    def actor(self) -> str:
        """The journal's actor for what this identity does."""
        if self.role == "desk":
            return f"desk:{self.name}"
        if self.role == "player":
            return f"player:{self.player}"
        return self.role

    def can_run(self) -> bool:
        return self.role == ARBITER

    def can_enter_slips(self) -> bool:
        return self.role in (ARBITER, "desk")


def ensure_schema(journal: Journal) -> None:
    # the function serves the group commit sent at once, on the stores that have it
    # and the games' draw secrets (journal/sealed.py): made with the web's tables, so a role without CREATE serves
    journal.ensure([*SCHEMA, *sealed.SCHEMA, *(PG_SCHEMA if journal.backend.appends_at_once else ())])


def secret_file(journal: Journal) -> Path | None:
    """Where a SQLite journal's secret lives (``games.db.secret``); None for PostgreSQL (its table)."""
    backend = journal.backend
    if isinstance(backend, SqliteBackend) and str(backend.path) != ":memory:":
        return backend.path.with_name(backend.path.name + ".secret")
    return None


def _write_secret(path: Path, value: str, replace: bool = False) -> None:
    """Write the secret readable by this user only; without ``replace`` an existing file wins (two processes
    starting at once agree on one secret)."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(value + "\n")
            f.flush()
            os.fsync(f.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _read_secret(path: Path) -> bytes | None:
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    if path.stat().st_mode & 0o077:
        os.chmod(path, 0o600)  # made by hand or restored from a backup: for this user's eyes only
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise AuthError(f"{path} is not an arbitru secret (64 hex digits): delete it to make a new one") from None


def server_secret(journal: Journal) -> bytes:
    """The secret that signs cookies and derives player codes, made on first use. A journal made before the
    secret file existed keeps its secret: it moves from the journal's table into the file (and out of the
    journal), so the codes already printed stay valid."""
    ensure_schema(journal)
    path = secret_file(journal)
    if path is not None:
        found = _read_secret(path)
        if found is not None:
            return found
    with journal.transaction():
        rows = journal.execute("SELECT value FROM web_secret WHERE name = 'server'")
        value = str(rows[0][0]) if rows else secrets.token_hex(32)
        if path is None:
            if not rows:
                journal.execute("INSERT INTO web_secret (name, value) VALUES ('server', ?)", (value,))
            return bytes.fromhex(value)
        _write_secret(path, value)
        journal.execute("DELETE FROM web_secret WHERE name = 'server'")
    found = _read_secret(path)
    assert found is not None
    return found


DEFAULT_ADDRESS = "http://127.0.0.1:8000"


def remember_address(journal: Journal, url: str) -> None:
    """Keep the address ``arbitru serve`` gives the phones, so that ``codes`` prints links that reach it."""
    ensure_schema(journal)
    with journal.transaction():
        journal.execute(
            "INSERT INTO web_secret (name, value) VALUES ('address', ?) "
            "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            (url.rstrip("/"),),
        )


def served_address(journal: Journal) -> str:
    """The address the server last served this journal at (:func:`remember_address`), else the default one."""
    ensure_schema(journal)
    rows = journal.execute("SELECT value FROM web_secret WHERE name = 'address'")
    return str(rows[0][0]) if rows else DEFAULT_ADDRESS


def codes_in_use(journal: Journal) -> list[str]:
    """The games whose players' codes still matter: not over (duplicate: no ``end``; anticipation: no final
    publication)."""
    out = []
    for info in journal.games():
        fmt = format_of(info)
        if fmt is None or not fmt.over(journal, info.id):
            out.append(info.id)
    return out


def rotate_secret(journal: Journal, force: bool = False) -> bytes:
    """A new secret; every session ends. Player codes derive from the secret, so a rotation while a game is
    not over is refused unless ``force`` (its printed codes stop working).

    :raises AuthError: naming the games whose codes are in use.
    """
    ensure_schema(journal)
    in_use = codes_in_use(journal)
    if in_use and not force:
        raise AuthError(
            f"the players' codes of {len(in_use)} game(s) not over derive from the secret "
            f"({', '.join(in_use[:5])}{', …' if len(in_use) > 5 else ''}): their printed codes would stop working; "
            "--force to rotate anyway"
        )
    value = secrets.token_hex(32)
    path = secret_file(journal)
    with journal.transaction():
        journal.execute("DELETE FROM web_session")
        journal.execute("DELETE FROM web_secret WHERE name = 'server'")
        if path is None:
            journal.execute("INSERT INTO web_secret (name, value) VALUES ('server', ?)", (value,))
        else:
            _write_secret(path, value, replace=True)
    return bytes.fromhex(value)


def _hash(password: str, salt: bytes) -> str:
    return _hashers.submit(lambda: hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1).hex()).result()


def set_password(journal: Journal, name: str, password: str, role: str) -> None:
    """Create or replace an account's password (only its salted hash is stored)."""
    check_name(name)
    if len(password) < 8:
        raise AuthError(Text("a password has at least 8 characters"))
    ensure_schema(journal)
    salt = secrets.token_bytes(16)
    hashed = _hash(password, salt)
    with journal.transaction():
        journal.execute("DELETE FROM web_account WHERE name = ?", (name,))
        journal.execute(
            "INSERT INTO web_account (name, role, salt, hash) VALUES (?, ?, ?, ?)",
            (name, role, salt.hex(), hashed),
        )
        # a new password ends the account's sessions: whoever knew the old one is out
        journal.execute("DELETE FROM web_session WHERE role = ? AND name = ?", (role, name))


def has_arbiter(journal: Journal) -> bool:
    ensure_schema(journal)
    return bool(journal.execute("SELECT 1 FROM web_account WHERE name = ?", (ARBITER,)))


def new_password() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(12)).lower()


def reset_arbiter(journal: Journal) -> str:
    """A new generated arbiter password, stored hashed; returned once to be printed."""
    password = new_password()
    set_password(journal, ARBITER, password, ARBITER)
    return password


def check_password(journal: Journal, name: str, password: str) -> str:
    """The account's role when the password is right.

    :raises AuthError: for an unknown account or a wrong password (the same message for both).
    """
    ensure_schema(journal)
    rows = journal.execute("SELECT role, salt, hash FROM web_account WHERE name = ?", (name[:MAX_NAME],))
    if not rows:
        _hash(password, b"0" * 16)  # the same work either way
        raise AuthError(Text("wrong name or password"))
    role, salt, stored = (str(x) for x in rows[0])
    if not hmac.compare_digest(_hash(password[:200], bytes.fromhex(salt)), stored):
        raise AuthError(Text("wrong name or password"))
    return role


def desks(journal: Journal) -> list[str]:
    ensure_schema(journal)
    return [str(r[0]) for r in journal.execute("SELECT name FROM web_account WHERE role = 'desk' ORDER BY name")]


def check_name(name: str) -> None:
    if not 1 <= len(name) <= MAX_NAME or not all(ch.isalnum() or ch in "-_." for ch in name):
        raise AuthError(Text("an account name has 1 to %(most)s letters, digits, '-', '_' or '.'", most=MAX_NAME))


# --- player codes ---------------------------------------------------------------------------------------------


def player_code(secret: bytes, game_id: str, player: str) -> str:
    """The player's personal code for a game: short, typed from paper, derived (never stored)."""
    digest = hmac.new(secret, f"player:{game_id}:{player}".encode(), hashlib.sha256).digest()
    n = int.from_bytes(digest[:10], "big")
    out = []
    for _ in range(CODE_LENGTH):
        n, i = divmod(n, len(CODE_ALPHABET))
        out.append(CODE_ALPHABET[i])
    return "".join(out)


def normalise_code(code: str) -> str:
    """What a player typed, as a code: case, spaces and dashes do not matter."""
    return "".join(ch for ch in code.upper() if ch.isalnum())[:32]


def player_for_code(secret: bytes, game_id: str, players: list[str], code: str) -> str | None:
    typed = normalise_code(code)
    for number in players:
        if hmac.compare_digest(player_code(secret, game_id, number), typed):
            return number
    return None


# --- cookies and CSRF --------------------------------------------------------------------------------------


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(secret: bytes, identity: Identity) -> str:
    body = _b64(json.dumps(identity.__dict__, sort_keys=True).encode())
    mac = _b64(hmac.new(secret, b"cookie:" + body.encode(), hashlib.sha256).digest())
    return f"{body}.{mac}"


def unsign(secret: bytes, value: str) -> Identity | None:
    """The identity in a cookie, or None when it is missing, forged or damaged."""
    body, _, mac = value.partition(".")
    expected = _b64(hmac.new(secret, b"cookie:" + body.encode(), hashlib.sha256).digest())
    if not mac or not hmac.compare_digest(mac, expected):
        return None
    try:
        data: dict[str, Any] = json.loads(_unb64(body))
        return Identity(**{k: str(v) for k, v in data.items()})
    except (ValueError, TypeError):
        return None


def csrf_token(secret: bytes, identity: Identity) -> str:
    """The token every form of this session carries (bound to the session's random id)."""
    return _b64(hmac.new(secret, f"csrf:{identity.sid}".encode(), hashlib.sha256).digest())


def check_csrf(secret: bytes, identity: Identity, token: str) -> bool:
    return hmac.compare_digest(csrf_token(secret, identity), token)


def new_sid() -> str:
    return secrets.token_hex(16)


# --- remembered devices (OWASP: device cookies against lock-out) --------------------------------------------

#: a browser that got in once carries this signed cookie: its tries at that door then count on their own,
#: apart from its network's (:func:`arbitru.web.security.login_keys`)
DEVICE_COOKIE = "arbitru_device"
#: the doors one device remembers (the latest ones)
DEVICE_DOORS = 8
#: how long a device is remembered (seconds)
DEVICE_MAX = 400 * 86400


def device_cookie(secret: bytes, device: str, doors: list[str]) -> str:
    """The signed cookie of a device (a random id) that got in at ``doors`` (``login:arbiter``, ``code:GAME``)."""
    body = _b64(json.dumps({"d": device, "k": doors[-DEVICE_DOORS:]}).encode())
    mac = _b64(hmac.new(secret, b"device:" + body.encode(), hashlib.sha256).digest())
    return f"{body}.{mac}"


def read_device(secret: bytes, value: str) -> tuple[str, list[str]]:
    """The device's id and the doors it got in at; ("", []) for a missing, forged or damaged cookie."""
    body, _, mac = value.partition(".")
    expected = _b64(hmac.new(secret, b"device:" + body.encode(), hashlib.sha256).digest())
    if not mac or not hmac.compare_digest(mac, expected):
        return "", []
    try:
        data = json.loads(_unb64(body))
        device, doors = str(data["d"]), [str(k) for k in data["k"]]
    except (ValueError, TypeError, KeyError):
        return "", []
    return (device, doors) if len(device) == 32 and device.isalnum() else ("", [])


def known_device(secret: bytes, value: str, door: str) -> str:
    """The id of the device whose cookie ``value`` says it got in at ``door`` before, else ""."""
    device, doors = read_device(secret, value)
    return device if door in doors else ""


# --- server-side sessions ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=32768)
def _sid_key(sid: str) -> str:
    # stored hashed: reading the database gives no live session (remembered: a hall's phones each ask at every
    # change)
    return hashlib.sha256(sid.encode()).hexdigest()


def open_session(journal: Journal, ident: Identity, now: float | None = None) -> None:
    """Record a logged-in identity's session (expired ones are swept at the same time); a player's code opens at
    most :data:`SESSIONS_PER_PLAYER` at once, the oldest ending when one more opens."""
    now = time.time() if now is None else now
    with journal.transaction():
        journal.execute("DELETE FROM web_session WHERE seen < ? OR created < ?",
                        (now - SESSION_IDLE, now - SESSION_MAX))
        if ident.role == "player":
            rows = journal.execute("SELECT id FROM web_session WHERE role = 'player' AND game = ? AND player = ? "
                                   "ORDER BY created DESC, id", (ident.game, ident.player))
            for (old,) in rows[SESSIONS_PER_PLAYER - 1:]:
                journal.execute("DELETE FROM web_session WHERE id = ?", (old,))
        journal.execute(
            "INSERT INTO web_session (id, role, name, game, player, created, seen) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (_sid_key(ident.sid), ident.role, ident.name, ident.game, ident.player, now, now),
        )


def live_session(journal: Journal, ident: Identity, now: float | None = None) -> bool:
    """Whether the cookie's session is still open on the server (not logged out, reset, rotated or expired);
    its last use is noted (at most every :data:`SESSION_TOUCH` seconds)."""
    now = time.time() if now is None else now
    key = _sid_key(ident.sid)
    rows = journal.execute("SELECT role, name, game, player, created, seen FROM web_session WHERE id = ?", (key,))
    if not rows:
        return False
    role, name, game, player, created, seen = rows[0]
    if (role, name, game, player) != (ident.role, ident.name, ident.game, ident.player):
        return False
    if now - float(seen) > SESSION_IDLE or now - float(created) > SESSION_MAX:
        close_session(journal, ident)
        return False
    if now - float(seen) > SESSION_TOUCH:
        with journal.transaction():
            journal.execute("UPDATE web_session SET seen = ? WHERE id = ?", (now, key))
    return True


def live_player_sessions(journal: Journal, game: str, now: float | None = None) -> dict[str, tuple[str, str]]:
    """A game's players' sessions still open on the server (:func:`live_session` for each, in one question): each
    one's key and (name, player); their last use noted in one statement. A hall's phones refetching after a quiet
    minute cost one read and one write, not one of each per phone."""
    now = time.time() if now is None else now
    rows = journal.execute("SELECT id, name, player FROM web_session WHERE role = 'player' AND game = ? "
                           "AND seen >= ? AND created >= ?", (game, now - SESSION_IDLE, now - SESSION_MAX))
    if rows:
        with journal.transaction():
            journal.execute("UPDATE web_session SET seen = ? WHERE role = 'player' AND game = ? AND seen < ? "
                            "AND seen >= ? AND created >= ?",
                            (now, game, now - SESSION_TOUCH, now - SESSION_IDLE, now - SESSION_MAX))
    return {str(key): (str(name), str(player)) for key, name, player in rows}


def session_key(ident: Identity) -> str:
    """The key a session is stored under (:func:`live_player_sessions` answers with them)."""
    return _sid_key(ident.sid)


def trust_key(key: str, name: str, player: str) -> str:
    """Where a worker remembers a player's session found open: its stored key and who it is."""
    return f"{key}:{name}:{player}"


def trusted_as(ident: Identity) -> str:
    """:func:`trust_key` of the session in a cookie."""
    return trust_key(session_key(ident), ident.name, ident.player)


def close_session(journal: Journal, ident: Identity) -> None:
    with journal.transaction():
        journal.execute("DELETE FROM web_session WHERE id = ?", (_sid_key(ident.sid),))
