"""A worker forgets the training games it no longer needs, never a hall's game.

Anyone may start training games (``/train``, ``/train/anticipation``); a worker used to keep each one's state in
memory for ever. Now it keeps the :attr:`Web.training_kept` most recently used (``TRAINING_KEPT``) and forgets the
others in every per-game structure; a forgotten game is replayed from the training store on its next request, as a
restarted worker's first request replays it. Played over the real pages (Starlette's test client) on real SQLite
stores; the concurrency test drives the real :class:`~arbitru.web.house.Web` from threads.
"""

from __future__ import annotations

import re
import sys
import threading
import time
from typing import Any

import pytest

from arbitru.formats.anticipation import game as anticipation_game
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.formats.duplicate.game import Session
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.journal.training import store_address
from arbitru.web import house
from arbitru.web.app import SessionMiddleware, create_app
from arbitru.web.house import Web
from web_anticipation_support import create_game, form
from web_support import TEST_LISTS, Site, csrf, join, login, make_game, make_site, post

#: the bound the tests set (the constant, 200, would need 250 games per test)
KEPT = 4
START = {"rules": "fise", "lang": "en", "lexicon": "synthetic:100", "moves": "3"}


@pytest.fixture
def site(tmp_path):
    return make_site(tmp_path)


def web_of(site: Site) -> Web:
    w: Web = site.client_factory.state.web  # type: ignore[attr-defined]
    return w


def session_middleware(site: Site) -> SessionMiddleware:
    layer: Any = site.client_factory.middleware_stack  # type: ignore[attr-defined]
    while layer is not None and not isinstance(layer, SessionMiddleware):
        layer = getattr(layer, "app", None)
    assert layer is not None, "the app was not asked anything yet"
    return layer


def kept(site: Site, ids: set[str]) -> dict[str, set[str]]:
    """Which of ``ids`` each per-game structure of the worker keeps something of."""
    w = web_of(site)
    by_game = {"writers": w._writers, "read": w._read, "memo": w._memo, "positions": w._positions,
               "codes": w._codes, "asking": w._asking}
    out = {name: set(d) & ids for name, d in by_game.items()}
    out["kept"] = {k[0] for k in w._kept} & ids
    out["forward"] = {k[0] for k in w._forward} & ids
    # and any other dict of the worker keyed by game (or by game and something): a structure added later is counted
    for name, value in vars(w).items():
        if isinstance(value, dict) and name not in by_game:
            out[name] = {k if isinstance(k, str) else k[0] for k in value if isinstance(k, (str, tuple)) and k} & ids
    out["anticipation slips"] = {k[1] for k in anticipation_game._STORED_SLIPS} & ids
    out["sessions asked"] = set(session_middleware(site)._asking) & ids
    return out


def stranger(site: Site, n: int) -> Any:
    """A browser of its own at an address of its own (the throttle allows each its share of starts)."""
    from starlette.testclient import TestClient

    return TestClient(site.client_factory, follow_redirects=False,  # type: ignore[arg-type]
                      client=(f"198.51.{n // 250}.{n % 250 + 1}", 4000))


def start_training(client: Any, data: dict[str, str] = START) -> str:
    r = post(client, "/train", data, "/train")
    assert r.status_code == 303, r.text  # type: ignore[attr-defined]
    return str(r.headers["location"]).rsplit("/", 1)[1]  # type: ignore[attr-defined]


def play_a_move(client: Any, gid: str) -> str:
    """The trainee's move (any word: it is judged, and the master move placed), then his page."""
    page = client.get(f"/train/{gid}")
    assert page.status_code == 200
    r = client.post(f"/train/{gid}/move", data={"csrf": csrf(page.text), "position": "H8", "word": "ZZZ"})
    assert r.status_code == 303, r.text
    after = client.get(f"/train/{gid}")
    assert after.status_code == 200
    return str(after.text)


def without_tokens(html: str) -> str:
    return re.sub(r'name="csrf" value="[^"]*"', 'name="csrf"', html)


def test_a_worker_keeps_at_most_its_bound_of_training_games_and_every_hall_game(site):
    w = web_of(site)
    w.training_kept = KEPT
    # a hall game, its console, a phone and a write: its state in every structure it uses
    hall = make_game(site)
    arbiter = site.client()
    login(arbiter)
    assert arbiter.get(f"/games/{hall}").status_code == 200
    phone = site.client()
    join(phone, site, hall, "1")
    assert phone.get(f"/games/{hall}/play").status_code == 200
    assert post(arbiter, f"/games/{hall}/close", {}, f"/games/{hall}").status_code == 303  # type: ignore[attr-defined]
    hall_kept = {name for name, ids in kept(site, {hall}).items() if ids}
    assert {"writers", "read", "memo", "positions"} <= hall_kept
    # an anticipation game of the hall, over: strangers train on its draw again
    past = create_game(site, arbiter)
    with Journal(site.db, actor="arbiter") as j:
        g = AnticipationGame(j, past)
        g.draw_all_lots()
        g.publish("final", confirmed=True)

    trained: list[str] = []
    for n in range(KEPT + 50):
        client = stranger(site, n)
        if n % 10 == 9:  # an anticipation training game: the lot of turn 1, then a slip
            r = form(client, "/train/anticipation", {"source": "past", "past": past}, "/train/anticipation")
            assert r.status_code == 303, r.text
            url = r.headers["location"]
            assert form(client, f"{url}/lot", {}, url).status_code == 303
            r = form(client, f"{url}/slip", {"turn": "1", "position1": "H8", "word1": "BOT", "score1": "22"}, url)
            assert r.status_code == 303, r.text
            assert client.get(url).status_code == 200
            trained.append(url.rsplit("/", 1)[1])
        else:
            gid = start_training(client)
            play_a_move(client, gid)
            trained.append(gid)

    now = kept(site, set(trained))
    assert all(len(ids) <= KEPT for ids in now.values()), {k: len(v) for k, v in now.items()}
    # those kept are the most recently used, and the structures used by training were used
    assert now["read"] and now["read"] <= set(trained[-KEPT:]) and now["writers"] <= set(trained[-KEPT:])
    assert len(w._training) <= KEPT
    # the hall's games are never forgotten so
    assert {name for name, ids in kept(site, {hall}).items() if ids} >= hall_kept
    assert hall not in w._training
    assert house.TRAINING_KEPT == 200  # a worker's bound, not the tests'


def test_a_forgotten_training_game_answers_as_before_and_plays_on(site, tmp_path):
    w = web_of(site)
    w.training_kept = KEPT
    me = stranger(site, 0)
    gid = start_training(me)
    first = play_a_move(me, gid)
    assert gid in w._read and gid in w._writers
    # other strangers train meanwhile: this game is pushed out of the worker's memory
    for n in range(1, KEPT + 1):
        other = stranger(site, n)
        play_a_move(other, start_training(other))
    assert all(gid not in ids for ids in kept(site, {gid}).values()), kept(site, {gid})
    w.players_seen.clear()  # the trainee's session is asked of the journal again too
    # its page as before (his session still his), then its next move, as a fresh worker replaying it shows it
    again = me.get(f"/train/{gid}")
    assert again.status_code == 200 and without_tokens(again.text) == without_tokens(first)
    second = play_a_move(me, gid)
    assert second != first
    fresh = create_app(site.db, test_lists=TEST_LISTS)  # a restarted worker: every game replayed from its store
    from starlette.testclient import TestClient

    restarted = TestClient(fresh, follow_redirects=False)  # type: ignore[arg-type]
    restarted.cookies.update(me.cookies)
    replayed = restarted.get(f"/train/{gid}")
    assert replayed.status_code == 200 and without_tokens(replayed.text) == without_tokens(second)
    with Journal(store_address(site.db)) as j:
        slips = [e for e in j.events(gid) if e.kind == "slip"]
    assert [(e.payload["move"], e.payload["word"]) for e in slips] == [(1, "ZZZ"), (2, "ZZZ")]


def test_writers_of_a_training_game_while_others_forget_it_lose_nothing_and_never_meet(site):
    w = web_of(site)
    w.training_kept = 1
    me = stranger(site, 0)
    gid, other = start_training(me, {**START, "moves": "20"}), start_training(stranger(site, 1))
    writers, rounds = 6, 40
    inside, most, written = [0], [0], [0]
    failures: list[BaseException] = []
    count = threading.Lock()
    done = threading.Event()

    def write(k: int) -> None:
        try:
            for i in range(rounds):
                with w.training("player:1", gid) as j, w.writer(j, gid) as s:
                    with count:
                        inside[0] += 1
                        most[0] = max(most[0], inside[0])
                    time.sleep(0.002)  # long enough for another writer to come in, were it let in
                    s.store_slips([Slip(s.game.move, "1", "H8", f"W{k}X{i}", None)], replace=True)
                    with count:
                        inside[0] -= 1
                        written[0] += 1
        except BaseException as e:
            failures.append(e)

    def forget() -> None:
        try:
            while not done.is_set():
                w.forget(gid)  # skipped while a writer holds it
                with w.training("", other) as j:  # another training game used: the bound pushes gid out
                    w.session(j, other)
        except BaseException as e:
            failures.append(e)

    threads = [threading.Thread(target=write, args=(k,)) for k in range(writers)]
    forgetters = [threading.Thread(target=forget) for _ in range(2)]
    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # threads switched every few bytecodes: a writer is often cut off between taking
    try:  # the game's lock object and acquiring it, which is when a forgetting can slip in
        for t in threads + forgetters:
            t.start()
        for t in threads:
            t.join(120)
        done.set()
        for t in forgetters:
            t.join(30)
    finally:
        sys.setswitchinterval(switching)
    assert not failures, failures
    assert most[0] == 1 and written[0] == writers * rounds
    with Journal(store_address(site.db)) as j:
        words = {e.payload["word"] for e in j.events(gid) if e.kind == "slip"}
        replayed = Session(j, gid).game
    assert words == {f"W{k}X{i}" for k in range(writers) for i in range(rounds)}
    # what the worker keeps (or replays) of the game is the journal's
    with w.training("", gid) as j:
        assert w.session(j, gid).game.slips == replayed.slips
