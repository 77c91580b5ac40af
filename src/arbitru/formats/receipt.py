"""The receipt of a slip handed in, the same in both formats: what was stored, whether it came after time, and
which earlier slip it replaces (that one stays in the journal); the most slips a player hands in for one move
or turn (:data:`MAX_SLIPS_PER_MOVE`); and the sender's idempotency key (the API's ``Idempotency-Key``, a phone
form's ``key``): what one is (:func:`check_key`), and the refusal of a key sent with another slip than the one
first stored with it (:class:`KeyReused`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from arbitru.errors import ArbitruError
from arbitru.messages import Plural, Text
from arbitru.textinput import LIMITS, InputError

S = TypeVar("S")

#: the most slips a player hands in himself (his phone, the API) for one move (duplicate) or turn (anticipation),
#: replacements and late ones counted: a player who changes his mind does so two or three times, and 20 leaves him
#: plenty, while every slip is a journal event that every worker keeps a trace of, so a script (or anyone holding
#: his code) sending thousands would grow the journal and every worker's memory without bound and load the server
#: for the whole hall. A retry of a slip already stored (its idempotency key) is not a new slip; the desks' typed
#: paper slips and the arbiter's decisions are never counted. Counted from the journal (the events' actor
#: ``player:N``), so every worker and a restarted one agree.
MAX_SLIPS_PER_MOVE = 20


@dataclass(frozen=True)
class Receipt(Generic[S]):
    """``slip`` as stored at event ``seq``; ``late`` after its time (FISE-5, GR-5C: scores 0; RO-6.5: the
    arbiter accepts or refuses it); ``replaces`` the seq of the player's earlier slip for the same move or turn
    that this one replaces (None: nothing replaced); ``kept_apart``: a late slip that does not replace the one
    handed in in time."""

    slip: S
    seq: int
    late: bool
    replaces: int | None = None
    kept_apart: bool = False

    def text(self) -> Text:
        """The receipt in words (the CLI; the pages translate the same facts)."""
        words = [Text("slip stored (event #%(seq)s)", seq=self.seq)]
        if self.late:
            words.append(Text("late"))
        if self.kept_apart:
            words.append(Text("kept apart: the slip handed in in time counts"))
        elif self.replaces is not None:
            words.append(Text("replaces the slip of event #%(seq)s, which stays in the journal", seq=self.replaces))
        return Text("%(words)s", words=words)


#: the refusal of a slip sent with the idempotency key of another slip (a retry sends the same slip again)
KEY_REUSED = ("this idempotency key was sent with another slip (stored as event #%(seq)s): a retry sends the same "
              "slip again; a new slip needs a new key")
#: what an idempotency key is: the sender makes it up (a UUID, say), the phone's form gets one per rendering
KEY_FORM = "an idempotency key is printable ASCII without spaces, at most %(n)s characters"


def check_key(key: str) -> str:
    """An idempotency key as it may be stored and compared: printable ASCII without spaces, at most
    ``LIMITS["key"]`` characters ("" is no key).

    :raises InputError: naming the field ``key``, why a page says in its language.
    """
    if key and not (len(key) <= LIMITS["key"] and key.isascii() and key.isprintable() and " " not in key):
        raise InputError(Text(KEY_FORM, n=LIMITS["key"]), field="key")
    return key


class KeyReused(InputError):
    """A slip sent with the idempotency key of another slip of the same player (another move or turn, other
    placements, another total or note): refused, nothing stored. Answering it with the first slip's receipt would
    tell the sender that a slip is in that is not. ``seq``: the slip first stored with that key."""

    def __init__(self, seq: int) -> None:
        super().__init__(Text(KEY_REUSED, seq=seq), field="key")
        self.seq = seq


class TooManySlips(ArbitruError):
    """A player's slip past :data:`MAX_SLIPS_PER_MOVE` for its move or turn: refused, nothing stored. The message
    says that the slip counted so far stays counted (his last one in time, or one a desk entered: not always the
    last he sent) and that a change is the arbiter's."""

    limit = MAX_SLIPS_PER_MOVE

    def __init__(self) -> None:
        super().__init__(Plural("you have handed in %(n)s slip, the most a player may: the slip counted so far "
                                "stays; for a change, ask the arbiter",
                                "you have handed in %(n)s slips, the most a player may: the slip counted so far "
                                "stays; for a change, ask the arbiter", MAX_SLIPS_PER_MOVE))
