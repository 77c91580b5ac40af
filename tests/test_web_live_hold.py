"""An arbiter's action is answered before the pages it wakes are told (issue 32: the close's POST answers fast at
any size), on both stores: SQLite, where the commit tells this process's pages, and PostgreSQL, where every
worker's listener hears the commit's NOTIFY, the committing worker's own as soon as the database sends it."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from arbitru.journal.store import EVERYONE, Journal
from arbitru.web import live
from arbitru.web.app import create_app
from arbitru.web.live import LocalPublisher, PostgresPublisher
from web_support import ARBITER_PASSWORD, Site, login, make_game, post


class _Recording(LocalPublisher):
    """A publisher that notes each notice it really delivers to the pages (after any hold)."""

    def __init__(self, log: list[tuple[str, Any]]) -> None:
        super().__init__()
        self.log = log

    def _deliver(self, game_id: str, seq: int, audience: str) -> None:
        self.log.append(("told", seq))
        super()._deliver(game_id, seq, audience)


class _SlowAnswer:
    """The app, whose answers to POSTs take half a second to start going out (a busy event loop's worth): a
    notice told meanwhile would reach the pages before the arbiter has his answer."""

    def __init__(self, app: Any, log: list[tuple[str, Any]]) -> None:
        self.app, self.log = app, log

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def slow(message: Any) -> None:
            if scope.get("method") == "POST" and message["type"] == "http.response.start":
                await asyncio.sleep(0.5)
                self.log.append(("answered", message["status"]))
            await send(message)

        await self.app(scope, receive, slow)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.app, name)


def _site(db: str, publisher: LocalPublisher | PostgresPublisher, log: list[tuple[str, Any]]) -> Site:
    from arbitru.web import auth

    app = create_app(db, publisher=publisher)
    with Journal(db, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, ARBITER_PASSWORD, auth.ARBITER)
        secret = auth.server_secret(j)
    return Site(db, secret, _SlowAnswer(app, log))


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_fise_5_the_arbiters_close_is_answered_before_any_page_is_told_of_it(store, tmp_path, request):
    log: list[tuple[str, Any]] = []
    recording = _Recording(log)
    if store == "sqlite":
        db = str(tmp_path / "hold.db")
        publisher: LocalPublisher | PostgresPublisher = recording
    else:
        db = request.getfixturevalue("pg_server").new_database()
        publisher = PostgresPublisher(db)
        publisher.local = recording  # the listener's deliveries, noted
        publisher.start()
    site = _site(db, publisher, log)
    gid = make_game(site, seconds=600)
    arbiter = site.client()
    login(arbiter)
    log.clear()
    r = post(arbiter, f"/games/{gid}/close", {}, f"/games/{gid}")
    assert getattr(r, "status_code", 0) == 303
    closed = site.events(gid)[-1].seq  # the last commit of the close
    deadline = time.monotonic() + 10
    while ("told", closed) not in log and time.monotonic() < deadline:  # PostgreSQL: the listener's thread
        time.sleep(0.02)
    assert ("told", closed) in log, log
    # the close's answer (the 303 of the confirmed request) went out before its notice reached any page
    assert log.index(("answered", 303)) < log.index(("told", closed)), log


@pytest.mark.parametrize("kind", ["local", "postgresql"])
def test_a_held_games_notices_wait_for_the_release_or_the_hold_s_limit(kind, monkeypatch):
    log: list[tuple[str, Any]] = []
    local = _Recording(log)
    if kind == "local":
        publisher: LocalPublisher | PostgresPublisher = local
        tell = local.publish
    else:
        publisher = PostgresPublisher("unused")
        publisher.local = local

        def tell(game_id: str, seq: int, audience: str = EVERYONE) -> None:  # as the listener hears a commit
            publisher._hear((game_id, seq, audience))

    release = publisher.hold("g")
    tell("g", 5)
    tell("other", 6)  # another game is not held
    assert log == [("told", 6)]
    second = publisher.hold("g")  # two actions at once: told when both have answered
    release()
    release()  # a second call does nothing
    tell("g", 7)
    assert log == [("told", 6)]
    second()
    assert log == [("told", 6), ("told", 5), ("told", 7)]
    # an answer never sent (its response dropped) does not silence the game for long
    monkeypatch.setattr(live, "HOLD_S", 0.2)
    publisher.hold("g")
    tell("g", 8)
    assert log[-1] == ("told", 7)
    done = threading.Event()
    threading.Timer(1.0, done.set).start()
    while ("told", 8) not in log and not done.is_set():
        time.sleep(0.02)
    assert log[-1] == ("told", 8)


class _Holding(_Recording):
    """A publisher that notes each hold asked of it."""

    def hold(self, game_id: str) -> Any:
        self.log.append(("hold", game_id))
        return super().hold(game_id)


def _hold_timers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if isinstance(t, threading.Timer) and t.is_alive()]


def test_a_stranger_holds_no_games_notices_and_an_answered_action_leaves_no_hold_timer(tmp_path):
    """Only an action its sender may do holds the game's notices: a stranger's POSTs to the console's doors
    (refused 401) hold nothing (a flood of them kept the game's pages waiting and started a thread each, living
    HOLD_S); an answered action's hold ends with its answer, its timer too."""
    log: list[tuple[str, Any]] = []
    site = _site(str(tmp_path / "hold.db"), _Holding(log), log)
    gid = make_game(site, seconds=600)
    stranger = site.client()
    for action in ("close", "draw", "clock", "desk"):
        assert stranger.post(f"/games/{gid}/{action}", data={"action": "start"}).status_code == 401
    assert ("hold", gid) not in log, log
    arbiter = site.client()
    login(arbiter)
    r = post(arbiter, f"/games/{gid}/clock", {"action": "start"}, f"/games/{gid}")
    assert getattr(r, "status_code", 0) == 303
    assert ("hold", gid) in log
    deadline = time.monotonic() + 1.0  # well within HOLD_S
    while _hold_timers() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _hold_timers() == []
