"""Who is asking: the arbiter (password), a desk (an account the arbiter creates), a player (a code per game) or
the public; signed session cookies and CSRF tokens.

Accounts and the server's secret live in tables of their own in the journal's database, beside the events and
never among them: they are not referee decisions. Passwords are stored only as salted scrypt hashes. A player's
code is derived from the secret, the game and the player's number, so it can be printed again at any time
(``arbitru duplicate codes GAME``) and needs no table.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any

from arbitru.errors import ArbitruError
from arbitru.journal.store import Journal

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS web_secret (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS web_account (name TEXT PRIMARY KEY, role TEXT NOT NULL, salt TEXT NOT NULL, "
    "hash TEXT NOT NULL)",
)
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
    with journal.transaction():
        for statement in SCHEMA:
            journal.execute(statement)


def server_secret(journal: Journal) -> bytes:
    """The secret that signs cookies and derives player codes, made on first use."""
    ensure_schema(journal)
    with journal.transaction():
        rows = journal.execute("SELECT value FROM web_secret WHERE name = 'server'")
        if rows:
            return bytes.fromhex(str(rows[0][0]))
        value = secrets.token_hex(32)
        journal.execute("INSERT INTO web_secret (name, value) VALUES ('server', ?)", (value,))
        return bytes.fromhex(value)


def _hash(password: str, salt: bytes) -> str:
    return hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1).hex()


def set_password(journal: Journal, name: str, password: str, role: str) -> None:
    """Create or replace an account's password (only its salted hash is stored)."""
    check_name(name)
    if len(password) < 8:
        raise AuthError("a password has at least 8 characters")
    ensure_schema(journal)
    salt = secrets.token_bytes(16)
    with journal.transaction():
        journal.execute("DELETE FROM web_account WHERE name = ?", (name,))
        journal.execute(
            "INSERT INTO web_account (name, role, salt, hash) VALUES (?, ?, ?, ?)",
            (name, role, salt.hex(), _hash(password, salt)),
        )


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
        raise AuthError("wrong name or password")
    role, salt, stored = (str(x) for x in rows[0])
    if not hmac.compare_digest(_hash(password[:200], bytes.fromhex(salt)), stored):
        raise AuthError("wrong name or password")
    return role


def desks(journal: Journal) -> list[str]:
    ensure_schema(journal)
    return [str(r[0]) for r in journal.execute("SELECT name FROM web_account WHERE role = 'desk' ORDER BY name")]


def check_name(name: str) -> None:
    if not 1 <= len(name) <= MAX_NAME or not all(ch.isalnum() or ch in "-_." for ch in name):
        raise AuthError(f"an account name has 1 to {MAX_NAME} letters, digits, '-', '_' or '.'")


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
