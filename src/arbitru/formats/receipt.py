"""The receipt of a slip handed in, the same in both formats: what was stored, whether it came after time, and
which earlier slip it replaces (that one stays in the journal)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from arbitru.messages import Text

S = TypeVar("S")


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
