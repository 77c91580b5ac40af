"""The append-only game journal shared by every format."""

from arbitru.journal.store import Event, GameInfo, Journal

__all__ = ["Event", "GameInfo", "Journal"]
