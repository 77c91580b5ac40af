"""Draws nobody can foresee, and anyone can check afterwards (RO-5.3, FISE-10, FISE-16, GR-5A).

Every draw the program makes for a game (a duplicate rack and its redraws, a new rack; the anticipation groups
and each lot) comes from one of two *draw sources*:

- :class:`Seal`: the game's **secret**, 32 bytes from the operating system's randomness (:mod:`secrets`), made
  when the game is created without a seed and kept by the server apart from the journal's public record
  (:mod:`arbitru.journal.sealed`). The game publishes its **commitment** at creation, the SHA-256 of
  ``"<game id>:<secret in hex>"``; the secret is shown once the results are final, and anyone can then
  recompute every draw (``arbitru journal verify-draw``) and check the commitment (``sha256sum``).
- :class:`KnownSeed`: a seed typed by the arbiter (a prepared game, a test) or, in journals written before
  secrets, the game's short random seed. Anyone who knows it knows the draws: it is said so wherever the game is
  shown.

Each draw has a *label* that names it (``3:1``: move 3, first attempt; ``new:3:2``: a new rack of move 3, second
attempt; ``lot:4:2,5,9``: the lot of turn 4 among groups 2, 5 and 9; ``groups``: the anticipation draw). A
source turns a label into a generator the draw consumes:

- a known seed ``S``: Python's ``random.Random("S:<label>")`` (as every journal before secrets drew);
- a secret: a stream of bits, the blocks ``HMAC-SHA256(K, counter)`` for counter 0, 1, 2… (8 bytes, big-endian),
  where ``K = HMAC-SHA256(secret, "<game id>:<label>")``. A number below ``n`` takes ``n.bit_length()`` bits of
  the stream, again until it is below ``n`` (rejection: no bias); a draw from a bag takes tile number ``r`` of
  the tiles left in alphabet order, one tile after the other.

No draw reveals anything about another: each has its own key, and the keys come from the secret through HMAC.

>>> seal = Seal("g1", "00" * 32)
>>> seal.commitment == commitment("g1", "00" * 32)
True
>>> seal.rng("1:1").randrange(100) == Seal("g1", "00" * 32).rng("1:1").randrange(100)
True
>>> KnownSeed("7").rng("1:1").random() == __import__("random").Random("7:1:1").random()
True
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from dataclasses import dataclass
from typing import Any

#: bytes of the operating system's randomness in a game's secret (256 bits)
SECRET_BYTES = 32
#: what a known seed's marking says, on the console, the projection, the results and the commitment's place
KNOWN_SEED = "draw from a known seed: anyone who knows it knows the racks"
KNOWN_SEED_LOTS = "draw from a known seed: anyone who knows it knows the lots"


def new_secret() -> str:
    """A fresh secret: :data:`SECRET_BYTES` bytes of the OS's randomness, in hex."""
    return secrets.token_hex(SECRET_BYTES)


def commitment(game_id: str, secret: str) -> str:
    """The commitment a game publishes at its creation: SHA-256 of ``"<game id>:<secret>"`` (hex)."""
    return hashlib.sha256(f"{game_id}:{secret}".encode()).hexdigest()


def well_formed(secret: str) -> bool:
    """Whether ``secret`` looks like one: :data:`SECRET_BYTES` bytes in lower-case hex."""
    return len(secret) == 2 * SECRET_BYTES and all(c in "0123456789abcdef" for c in secret)


class HmacStream(random.Random):
    """A generator whose every bit comes from ``HMAC-SHA256(key, counter)`` blocks (module docstring): the same
    key always gives the same numbers, on any machine; without the key nothing about them can be told."""

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._bits = 0
        self._nbits = 0
        super().__init__()

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Nothing to seed: the key is the seed."""

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._nbits < k:
            block = hmac.new(self._key, self._counter.to_bytes(8, "big"), hashlib.sha256).digest()
            self._counter += 1
            self._bits = (self._bits << 256) | int.from_bytes(block, "big")
            self._nbits += 256
        self._nbits -= k
        out = self._bits >> self._nbits
        self._bits &= (1 << self._nbits) - 1
        return out

    def random(self) -> float:
        return self.getrandbits(53) * 2.0**-53


@dataclass(frozen=True)
class Seal:
    """A game's secret: the source of its draws until the results are final, then shown."""

    game_id: str
    secret: str

    @classmethod
    def new(cls, game_id: str) -> Seal:
        return cls(game_id, new_secret())

    @property
    def commitment(self) -> str:
        return commitment(self.game_id, self.secret)

    def key(self, label: str) -> bytes:
        """The key of one draw: ``HMAC-SHA256(secret, "<game id>:<label>")``."""
        return hmac.new(bytes.fromhex(self.secret), f"{self.game_id}:{label}".encode(), hashlib.sha256).digest()

    def rng(self, label: str) -> random.Random:
        return HmacStream(self.key(label))

    known = False


@dataclass(frozen=True)
class KnownSeed:
    """A seed anyone may know (typed by the arbiter, or a journal's short seed from before secrets)."""

    seed: int | str

    def rng(self, label: str) -> random.Random:
        return random.Random(f"{self.seed}:{label}")

    known = True


#: where a game's draws come from
Source = Seal | KnownSeed


def source_of(value: Source | int | str) -> Source:
    """A draw source, a bare seed read as a :class:`KnownSeed`."""
    return value if isinstance(value, (Seal, KnownSeed)) else KnownSeed(value)


def rack_label(move: int, attempt: int, *, new: bool = False) -> str:
    """The label of one attempt at a duplicate rack (``new``: a new rack, FISE-16)."""
    return f"{'new:' if new else ''}{move}:{attempt}"


def lot_label(turn: int, left: list[int]) -> str:
    """The label of an anticipation lot: its turn and the groups it is drawn among (RO-5.3)."""
    return f"lot:{turn}:{','.join(map(str, left))}"


#: the label of an anticipation game's groups drawn from its secret (RO-5.2.d–e)
GROUPS_LABEL = "groups"
