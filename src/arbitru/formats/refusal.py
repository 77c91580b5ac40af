"""A refusal that names its rule: what the order of a game (anticipation's turns, duplicate's moves) answers
when an action is not allowed now."""

from __future__ import annotations

from dataclasses import dataclass

from arbitru.errors import ArbitruError
from arbitru.messages import Text


@dataclass(frozen=True)
class Refusal:
    """Why an action is not allowed now, with the rule that says so."""

    rule: str
    reason: str  # a message (arbitru.messages.Text): said in the page's language

    def __str__(self) -> str:
        return Text("%(reason)s (%(rule)s)", reason=self.reason, rule=self.rule)


class OrderError(ArbitruError):
    """An action the order of the game does not allow now; ``rule`` names the rule that forbids it."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(str(refusal))
        self.rule = refusal.rule
        self.reason = refusal.reason
