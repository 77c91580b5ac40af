"""Slips from phones, many at once: group commit.

Each request queues its slip; whichever request thread gets the game's writer lock takes every queued slip and
hands them all in inside one journal transaction (one commit, one disk flush), each checked on its own by the
format's session (a refused slip stores nothing and does not stop the others). Every slip is committed before
its receipt is sent, so an acknowledged slip survives a crash of the server at any later moment.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from arbitru.errors import ArbitruError
from arbitru.formats.duplicate.game import GameError, Session
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import check_actor

if TYPE_CHECKING:
    from arbitru.web.app import Web


@dataclass
class SlipRequest:
    """One slip as sent: by code (API) or by a signed-in player (``player``); ``claimed``: the player number the
    sender wrote, if any (it must be his own)."""

    move: int
    position: str
    word: str
    score: int | None
    code: str = ""
    player: str = ""
    claimed: str | None = None
    received: float = field(default_factory=time.time)
    status: int = 0
    body: dict[str, Any] = field(default_factory=dict)
    done: threading.Event = field(default_factory=threading.Event)


class Intake:
    """The queue of slips waiting to be handed in, per game."""

    def __init__(self, web: Web) -> None:
        self.web = web
        self._lock = threading.Lock()
        self._queued: dict[str, list[SlipRequest]] = {}

    def hand_in(self, game_id: str, request: SlipRequest) -> SlipRequest:
        """Queue the slip and return once it is decided (stored and committed, or refused): ``status`` and
        ``body`` say how (201 stored in time; 409 stored late, or refused; 401, 403, 404)."""
        with self._lock:
            self._queued.setdefault(game_id, []).append(request)
        lock = self.web.writer_lock(game_id)
        while not request.done.is_set():
            if lock.acquire(timeout=0.02):
                try:
                    with self._lock:
                        batch = self._queued.pop(game_id, [])
                    if batch:
                        self._run(game_id, batch)
                finally:
                    lock.release()
        return request

    def _run(self, game_id: str, batch: list[SlipRequest]) -> None:
        w = self.web
        stored: list[SlipRequest] = []
        try:
            with w.journal("") as j:
                try:
                    with w.writer(j, game_id, locked=True) as s, j.transaction(game_id):
                        s._refresh()
                        for req in batch:
                            if self._one(j, s, req):
                                stored.append(req)
                except ArbitruError as e:
                    for req in batch:
                        _decide(req, 404 if "no game" in str(e) else 503, {"error": str(e), "stored": False})
                    stored = []
                    return
                if stored:
                    first = min(int(r.body["seq"]) for r in stored)
                    recorded = {e.seq: e.recorded for e in j.iter_events(game_id, after=first - 1)}
                    for req in stored:
                        req.body["received"] = recorded.get(int(req.body["seq"]), "")
        finally:
            for req in batch:
                req.done.set()

    def _one(self, j: Any, s: Session, req: SlipRequest) -> bool:
        number = req.player or self.web.player_for_code(s.game, req.code)
        if not number:
            _decide(req, 401, {"error": "this code is not one of this game's players' codes"})
            return False
        if req.claimed is not None and req.claimed != number:
            _decide(req, 403, {"error": f"this code is player {number}'s: a player sends only his own slip"})
            return False
        j.actor = check_actor(f"player:{number}")
        try:
            slip, seq = s.hand_in(Slip(req.move, number, req.position, req.word, req.score), req.received)
        except GameError as e:
            _decide(req, 409, {"error": str(e), "stored": False})
            return False
        body = {"stored": True, "seq": seq, **slip.to_payload()}
        if slip.late:
            _decide(req, 409, {"error": "late: stored and flagged (FISE-6)", **body})
        else:
            _decide(req, 201, body)
        return True


def _decide(req: SlipRequest, status: int, body: dict[str, Any]) -> None:
    req.status = status
    req.body = body
