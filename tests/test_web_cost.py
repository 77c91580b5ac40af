"""Nothing an anonymous visitor asks costs more than a page (issue 29, item 2): over real HTTP (a uvicorn server
on 127.0.0.1 in this process, clients from several loopback addresses), the work each request causes is counted,
never timed: the API's answer is made once per journal position however long the game; identical documents
asked at once are made once and kept (the blank forms once per game); a superseded file is removed; the
registry is paged; the rating list and the standings are kept, and unknown ids cannot defeat their caches."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from arbitru.formats.duplicate.game import Game, Session
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.season import ratings, registry
from arbitru.web import anticipation_pages, documents
from arbitru.web.house import Web
from arbitru.web.routes import results as results_route
from web_anticipation_support import create_game, form
from web_server import free_port
from web_support import LEXICON, login, make_game, make_site, post

#: the loopback addresses the visitors come from (127.0.0.0/8)
ADDRESSES = [f"127.0.0.{n}" for n in range(2, 8)]


@contextmanager
def served(app: Any) -> Iterator[str]:
    """The app on a real uvicorn server on 127.0.0.1 in a thread of this process (so its work can be counted)."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def visitor(base: str, n: int) -> httpx.Client:
    """An anonymous visitor from loopback address number ``n`` (of :data:`ADDRESSES`)."""
    transport = httpx.HTTPTransport(local_address=ADDRESSES[n % len(ADDRESSES)])
    return httpx.Client(base_url=base, transport=transport, timeout=60)


def at_once(base: str, url: str, clients: int) -> list[httpx.Response]:
    """``clients`` anonymous visitors asking ``url`` at the same moment, each from its own address."""
    gate = threading.Barrier(clients)

    def one(n: int) -> httpx.Response:
        with visitor(base, n) as c:
            gate.wait(10)
            return c.get(url)

    with ThreadPoolExecutor(clients) as pool:
        return list(pool.map(one, range(clients)))


def until_made(base: str, url: str) -> httpx.Response:
    """Ask as the progress page does until the document comes (bounded)."""
    with visitor(base, 0) as c:
        for _ in range(600):
            r = c.get(url)
            if r.status_code != 202:
                return r
            time.sleep(0.1)
    raise AssertionError(f"{url} was never made")


@pytest.fixture
def folds(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Every event folded into a duplicate game's state, counted by game."""
    counted: Counter[str] = Counter()
    apply = Game.apply

    def counting(self: Game, event: Any) -> None:
        counted[self.id] += 1
        apply(self, event)

    monkeypatch.setattr(Game, "apply", counting)
    return counted


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every part of a document laid out by WeasyPrint."""
    made: list[str] = []
    render = documents.render

    def counting(html: str) -> object:
        made.append(html)
        return render(html)

    monkeypatch.setattr(documents, "render", counting)
    return made


def play(db: str, gid: str, moves: int) -> None:
    """``moves`` more moves of the game: each its rack drawn (unless it is) and its master move placed."""
    with Journal(db, actor="arbiter") as j:
        s = Session(j, gid, load_lexicon(LEXICON, "en"))
        for _ in range(moves):
            if s.game.phase != "play":
                s.draw()
            s.place_master()


def test_the_api_answer_is_made_once_per_journal_position_whatever_the_game_s_length(tmp_path, folds):
    site = make_site(tmp_path)
    gid = make_game(site, moves=12)
    with served(site.client_factory) as base:
        url = f"/api/games/{gid}"
        costs = []
        for _ in range(3):  # the game grows; what the API costs does not
            play(site.db, gid, 3)
            with Journal(site.db) as j:
                seq = j.last_seq(gid)
            before = folds[gid]
            answers = at_once(base, url, 12)
            assert all(r.status_code == 200 and r.json()["seq"] == seq for r in answers)
            assert len({r.content.rpartition(b', "clock"')[0] for r in answers}) == 1  # the kept answer
            assert all(r.json()["clock"]["state"] == "idle" for r in answers)  # and the clock of this moment
            costs.append(folds[gid] - before)
            again = folds[gid]
            for n in range(20):  # nothing changed: nothing folded, nothing made
                with visitor(base, n) as c:
                    assert c.get(url).json()["seq"] == seq
            assert folds[gid] == again
        # the first look folds the game once; later only the events appended since (one move's few), never a
        # replay from the start per request
        assert costs[1] <= 8 and costs[2] <= 8, costs


def test_the_anticipation_api_reads_a_position_once_for_every_visitor(tmp_path, monkeypatch):
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    gid = create_game(site, arbiter)
    read: list[int] = []
    hall_state = anticipation_pages.hall_state

    def counting(j: Journal, game: Any) -> Any:
        read.append(1)
        return hall_state(j, game)

    monkeypatch.setattr(anticipation_pages, "hall_state", counting)
    with served(site.client_factory) as base:
        answers = at_once(base, f"/api/games/{gid}", 16)
        assert all(r.status_code == 200 for r in answers) and len({r.json()["seq"] for r in answers}) == 1
        assert len(read) == 1
        for n in range(10):
            with visitor(base, n) as c:
                assert c.get(f"/api/games/{gid}").status_code == 200
        assert len(read) == 1


def test_identical_documents_asked_at_once_are_made_once_and_the_blank_forms_once_per_game(tmp_path, renders):
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    gid = create_game(site, arbiter)
    with served(site.client_factory) as base:
        url = f"/games/{gid}/forms/slips.pdf"
        answers = at_once(base, url, 12)
        assert {r.status_code for r in answers} <= {200, 202}
        pdf = until_made(base, url)
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF-")
        parts = len(renders)
        assert parts == 1  # three players' slips: one part, laid out once for twelve visitors
        # the journal moves on (results published): the blank forms are the same, served from the same file
        assert form(arbiter, f"/games/{gid}/publish", {"stage": "provisional", "deadline": "18:30"},
                    f"/games/{gid}/review").status_code == 303
        for r in at_once(base, url, 6):
            assert r.status_code == 200 and r.content == pdf.content
        assert len(renders) == parts
        assert len(list(documents.folder(site.db).glob("*.pdf"))) == 1


def test_a_superseded_document_is_removed_once_the_new_one_is_made(tmp_path, renders):
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    gid = make_game(site, moves=6)
    post(arbiter, f"/games/{gid}/close", {"choice": "1"}, f"/games/{gid}")
    with served(site.client_factory) as base:
        url = f"/games/{gid}/download/results.pdf"
        first = until_made(base, url)
        assert first.status_code == 200 and first.content.startswith(b"%PDF-")
        made = list(documents.folder(site.db).glob("*.pdf"))
        assert len(made) == 1
        with Journal(site.db, actor="arbiter") as j:  # a slip for the open move: the results stay as they were
            Session(j, gid, load_lexicon(LEXICON, "en")).draw()
        assert until_made(base, url).content == first.content and len(renders) == 1
        play(site.db, gid, 1)  # a move closed: new results, a new file; the old one goes
        second = until_made(base, url)
        assert second.status_code == 200 and second.content != first.content and len(renders) == 2
        now = list(documents.folder(site.db).glob("*.pdf"))
        assert len(now) == 1 and now != made


def test_a_public_results_page_is_drawn_once_per_position_for_every_visitor(tmp_path, monkeypatch):
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    gid = make_game(site, moves=6)
    post(arbiter, f"/games/{gid}/close", {"choice": "1"}, f"/games/{gid}")
    drawn: Counter[str] = Counter()
    render_text = Web.render_text

    def counting(self: Web, request: Any, name: str, **context: Any) -> str:
        drawn[name] += 1
        return render_text(self, request, name, **context)

    monkeypatch.setattr(Web, "render_text", counting)
    with served(site.client_factory) as base:
        pages = at_once(base, f"/games/{gid}/results", 16)
        assert all(r.status_code == 200 and 'id="ranking"' in r.text for r in pages)
        assert drawn["duplicate/results.html"] == 1
        assert "log out" in arbiter.get(f"/games/{gid}/results").text  # staff get theirs drawn for them
        assert "log out" not in pages[0].text
        play(site.db, gid, 1)
        with visitor(base, 1) as c:
            assert c.get(f"/games/{gid}/results").status_code == 200
        assert drawn["duplicate/results.html"] == 3  # the arbiter's, then the new position's


def test_the_registry_is_paged(tmp_path):
    site = make_site(tmp_path)
    with Journal(site.db, actor="arbiter") as j:
        registry.register(j, [registry.Entry(f"Player {n:03d}", licence=f"L{n}") for n in range(1, 251)])
    with served(site.client_factory) as base, visitor(base, 3) as c:
        first = c.get("/registry")
        assert first.status_code == 200 and first.text.count('href="/players/') == 100
        assert "page 1 of 3" in first.text and 'href="?page=2"' in first.text and "Player 001" in first.text
        last = c.get("/registry?page=3&lang=fr")
        assert last.text.count('href="/players/') == 50 and "page 3 sur 3" in last.text
        assert 'href="?page=2&amp;lang=fr"' in last.text and "Player 250" in last.text
        assert c.get("/registry?page=999").text.count('href="/players/') == 50  # beyond the last: the last
        assert c.get("/registry?page=x²").text.count('href="/players/') == 100
        assert c.get("/registry.csv").text.count("\n") == 251  # the CSV holds them all


def test_player_pages_are_served_from_a_kept_rating_list(tmp_path, monkeypatch):
    site = make_site(tmp_path)
    with Journal(site.db, actor="arbiter") as j:
        ids = registry.register(j, [registry.Entry(f"Player {n}", licence=f"L{n}") for n in range(1, 31)])
    lists: list[int] = []
    rating_list = ratings.rating_list

    def counting(*args: Any, **kwargs: Any) -> Any:
        lists.append(1)
        return rating_list(*args, **kwargs)

    monkeypatch.setattr(ratings, "rating_list", counting)
    with served(site.client_factory) as base:
        for n, pid in enumerate(ids):
            with visitor(base, n) as c:
                assert c.get(f"/players/{pid}").status_code == 200
        with visitor(base, 0) as c:
            for day in ("2020-01-01", "2021-05-06", "2030-12-31"):  # no date makes a new list
                assert c.get(f"/ratings?as_of={day}").status_code == 200
            assert c.get("/players/nobody").status_code == 404
        assert len(lists) <= 2  # the list (and the list before every tournament, when a date is before them)
        with Journal(site.db, actor="arbiter") as j:  # the registry changes: the list is made again, once
            registry.register(j, [registry.Entry("Newcomer", licence="L999")])
        for n, pid in enumerate(ids[:5]):
            with visitor(base, n) as c:
                assert c.get(f"/players/{pid}").status_code == 200
        assert len(lists) <= 3


def counting_standings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A 1 for each standings computed from now on."""
    computed: list[int] = []
    standings_of = results_route._standings_of

    def counting(*args: Any) -> Any:
        computed.append(1)
        return standings_of(*args)

    monkeypatch.setattr(results_route, "_standings_of", counting)
    return computed


def test_unknown_ids_do_not_defeat_the_standings_cache(tmp_path, monkeypatch):
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    gid = make_game(site, moves=6)
    post(arbiter, f"/games/{gid}/close", {"choice": "1"}, f"/games/{gid}")
    computed = counting_standings(monkeypatch)
    with served(site.client_factory) as base:
        assert {r.status_code for r in at_once(base, f"/standings?game={gid}&game=nothing", 12)} == {200}
        assert len(computed) == 1  # twelve at once: one computation, the others wait for it
        for n in range(3 * results_route.MAX_STANDINGS):
            with visitor(base, n) as c:
                r = c.get(f"/standings?game={gid}&game=nothing-{n}&game={gid}")
                assert r.status_code == 200
        assert len(computed) == 1
        with visitor(base, 1) as c:
            assert c.get(f"/games/nothing-{time.time_ns()}/results").status_code == 404
        assert len(results_route._standings) <= results_route.MAX_STANDINGS


def test_the_order_of_the_games_asked_makes_no_new_standings(tmp_path, monkeypatch):
    """Every order of the same games was a new key of the standings' cache (computed again, pushing out the
    public's): the games chosen are taken in the journal's order, so the page and its key are one per choice."""
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    first, second = make_game(site, moves=3), make_game(site, moves=3)
    computed = counting_standings(monkeypatch)
    with served(site.client_factory) as base, visitor(base, 0) as c:
        one = c.get(f"/standings?game={first}&game={second}")
        other = c.get(f"/standings?game={second}&game={first}")
    assert one.status_code == other.status_code == 200
    assert len(computed) == 1
    assert one.text == other.text
