"""A player cannot flood a move with slips: at most ``MAX_SLIPS_PER_MOVE`` (20) handed in by him for one move
(duplicate, FISE-6: a slip names its move) or turn (anticipation, RO-3.3: a slip per turn), replacements and late
ones counted, from his phone and the API alike; the next is refused beside his slip form in the page's language or
answered 409 by the API, nothing stored. An idempotent resend is no new slip; a desk's typed slip is not counted; a
new move counts afresh; the count is the journal's (a fresh worker refuses the 21st too); a burst of 40 parallel
requests stores exactly 20. Real HTTP (Starlette's test client, uvicorn for the burst), a real SQLite journal."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from markupsafe import escape

from anticipation_support import groups_with, lexicon
from arbitru.formats.anticipation import training
from arbitru.formats.anticipation.draw import Draw
from arbitru.formats.anticipation.slips import Slip as AntSlip
from arbitru.formats.anticipation.slips import SlipRow
from arbitru.formats.anticipation.variants import Settings as AntSettings
from arbitru.formats.duplicate.game import Session
from arbitru.formats.duplicate.slips import Slip
from arbitru.formats.receipt import MAX_SLIPS_PER_MOVE, TooManySlips
from arbitru.journal.store import Event, Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.messages import gettext_for
from arbitru.web import auth, security
from arbitru.web.intake import SlipRequest
from test_web_anticipation import desk_client, lot, read_all, type_slip
from test_web_slips_round_trips import _Deaf, hall
from web_anticipation_support import GROUPS, create_game
from web_server import running_server
from web_support import LEXICON, csrf, join, login, make_game, make_site, post

SLIP = {"move": 1, "position": "H8", "word": "ABC", "score": 10}
TURN_1 = {"turn": 1, "placements": [{"position": "H7", "word": "AL", "score": 4}], "turn_total": 4}


def refusal(lang: str) -> str:
    """The cap's refusal as a page in ``lang`` shows it."""
    return str(escape(gettext_for(lang)(str(TooManySlips()))))


def bearer(site, gid: str, player: str, key: str = "") -> dict[str, str]:  # type: ignore[no-untyped-def]
    headers = {"Authorization": f"Bearer {site.code(gid, player)}"}
    return {**headers, "Idempotency-Key": key} if key else headers


def journal(site, gid: str) -> list[tuple[int, str, str]]:  # type: ignore[no-untyped-def]
    return [(e.seq, e.kind, e.actor) for e in site.events(gid)]


def handed_in(db: str, gid: str) -> dict[tuple[int, str], int]:
    """The counts as a fresh worker folds them from the journal."""
    with Journal(db) as j:
        return Session(j, gid).game.handed_in


def next_move(db: str, gid: str) -> None:
    with Journal(db, actor="arbiter") as j:
        s = Session(j, gid, load_lexicon(LEXICON, "en"))
        s.place_master()
        if s.game.phase == "rack":
            s.draw()


@pytest.fixture
def site(tmp_path):  # type: ignore[no-untyped-def]
    return make_site(tmp_path)


def test_the_cap_is_one_named_constant_of_20():
    assert MAX_SLIPS_PER_MOVE == 20 and TooManySlips().limit == 20
    assert str(TooManySlips()).startswith("you have handed in 20 slips, the most a player may")


def test_FISE_6_the_21st_slip_from_the_phone_is_refused_beside_its_form_in_english_and_romanian(site):
    gid = make_game(site, seconds=600)
    phone = site.client()
    join(phone, site, gid, "1")
    token = csrf(phone.get(f"/games/{gid}/play").text)
    for i in range(MAX_SLIPS_PER_MOVE):
        r = phone.post(f"/games/{gid}/slip", data={"csrf": token, "key": f"k{i}", "position": "H8",
                                                    "word": "ABC", "score": str(i)})
        assert r.status_code == 303, (i, r.text)
    before = journal(site, gid)
    assert len(site.events(gid, "slip")) == MAX_SLIPS_PER_MOVE
    for lang, query in (("en", ""), ("ro", "?lang=ro")):
        r = phone.post(f"/games/{gid}/slip{query}", data={"csrf": token, "key": f"new-{lang}", "position": "H7",
                                                           "word": "ABD", "score": "12"})
        assert r.status_code == 409, r.text
        form = r.text.split('<section id="slip-form">')[1].split("</section>")[0]
        said = form.split('id="move-error">')[1].split("</p>")[0]
        assert said == refusal(lang), said
        assert 'name="position"' in form and 'value="H7"' in form  # the form again, as typed
    assert "ați predat 20 de buletine, numărul maxim permis unui jucător" in refusal("ro")
    assert journal(site, gid) == before  # nothing stored, nothing else changed
    # the 20th sent again (its answer was lost): its receipt, not refused
    r = phone.post(f"/games/{gid}/slip", data={"csrf": token, "key": "k19", "position": "H8", "word": "ABC",
                                                "score": "19"})
    assert r.status_code == 303 and journal(site, gid) == before
    # his 20th slip counts
    counted = phone.get(f"/games/{gid}/play").text.split('id="receipt"')[1].split("</div>")[0]
    assert "ABC" in counted and "ABD" not in counted


def test_FISE_6_the_21st_api_slip_is_409_and_nothing_else_changes_for_anyone(site):
    gid = make_game(site, seconds=600)
    arbiter = site.client()
    login(arbiter)
    c = site.client()
    url = f"/api/games/{gid}/slips"
    seqs = []
    for i in range(MAX_SLIPS_PER_MOVE):
        if i == 12:  # the move's time runs out: the late ones count too (FISE-5: stored, flagged)
            with Journal(site.db, actor="arbiter") as j:
                Session(j, gid).clock("start", time.time() - 601)
        r = c.post(url, json={**SLIP, "score": i}, headers=bearer(site, gid, "1", f"k{i}"))
        assert r.status_code == (201 if i < 12 else 409) and r.json()["stored"] is True, (i, r.json())
        seqs.append(r.json()["seq"])
    before = journal(site, gid)
    r = c.post(url, json={**SLIP, "word": "ABD"}, headers=bearer(site, gid, "1", "k-new"))
    assert r.status_code == 409
    assert r.json() == {"error": str(TooManySlips()), "field": "move", "limit": 20, "stored": False}
    r = c.post(f"{url}?lang=ro", json={**SLIP, "word": "ABD"}, headers=bearer(site, gid, "1", "k-new2"))
    assert r.status_code == 409 and r.json()["error"] == gettext_for("ro")(str(TooManySlips()))
    r = c.post(url, json={**SLIP, "word": "ABD"}, headers=bearer(site, gid, "1"))  # without a key: the same
    assert r.status_code == 409 and r.json()["stored"] is False
    assert journal(site, gid) == before
    # an idempotent resend of the 20th is its receipt, not a 21st slip
    r = c.post(url, json={**SLIP, "score": 19}, headers=bearer(site, gid, "1", "k19"))
    assert r.status_code == 409 and r.json()["stored"] is True and r.json()["seq"] == seqs[-1]  # late: 409 stored
    assert "limit" not in r.json() and journal(site, gid) == before
    # another player is not affected
    r = c.post(url, json=SLIP, headers=bearer(site, gid, "2", "b1"))
    assert r.json()["stored"] is True and r.json()["player"] == "2"
    # a desk still types the player's paper slip (a replacement, confirmed), not counted
    assert post(arbiter, "/desks", {"name": "desk1", "password": "desk-pass-1"}, "/").status_code == 303
    desk = site.client()
    login(desk, "desk1", "desk-pass-1")
    page = f"/games/{gid}"
    for word in ("CAB", "BAC"):
        r = post(desk, f"{page}/desk", {"player": "1", "position": "H8", "word": word, "score": "7"}, page)
        assert r.status_code == 303, r.text
    assert [(e.payload["word"], e.actor) for e in site.events(gid, "slip")[-2:]] == [("CAB", "desk:desk1"),
                                                                                    ("BAC", "desk:desk1")]
    assert handed_in(site.db, gid)[(1, "1")] == 20 and handed_in(site.db, gid)[(1, "2")] == 1
    assert c.post(url, json=SLIP, headers=bearer(site, gid, "1", "k-new3")).status_code == 409
    # the next move counts afresh
    next_move(site.db, gid)
    r = c.post(url, json={**SLIP, "move": 2}, headers=bearer(site, gid, "1", "m2"))
    assert r.status_code in (201, 409) and r.json()["stored"] is True and r.json()["move"] == 2, r.json()
    phone = site.client()
    join(phone, site, gid, "1")
    token = csrf(phone.get(f"/games/{gid}/play").text)
    r = phone.post(f"/games/{gid}/slip", data={"csrf": token, "key": "p2", "position": "H8", "word": "ABC"})
    assert r.status_code == 303
    assert handed_in(site.db, gid)[(2, "1")] == 2


def test_FISE_6_past_the_cap_the_slip_counted_so_far_stays_the_in_time_one_not_the_last_sent(site):
    """What the refusal says is what happens: a player whose last slips were late (FISE-5: stored, kept apart) is
    refused his 21st, and the slip that counts is still his last one in time, which his phone's receipt shows; not
    the last he sent."""
    gid = make_game(site, seconds=600)
    c = site.client()
    url = f"/api/games/{gid}/slips"
    for i in range(MAX_SLIPS_PER_MOVE):
        if i == 2:  # two in time (the second replaces the first), then the move's time runs out
            with Journal(site.db, actor="arbiter") as j:
                Session(j, gid).clock("start", time.time() - 601)
        r = c.post(url, json={**SLIP, "score": i}, headers=bearer(site, gid, "1", f"k{i}"))
        assert r.json()["stored"] is True, (i, r.json())
    r = c.post(url, json={**SLIP, "score": 99}, headers=bearer(site, gid, "1", "k-past"))
    assert r.status_code == 409 and r.json()["error"] == str(TooManySlips()) and r.json()["stored"] is False
    assert "the slip counted so far stays" in r.json()["error"]
    with Journal(site.db) as j:
        counted = Session(j, gid).game.slips[(1, "1")]
    assert (counted.score, counted.late) == (1, False)  # the last in time, not the 20th (score 19, late)
    phone = site.client()
    join(phone, site, gid, "1")
    receipt = phone.get(f"/games/{gid}/play/live").text.split('id="receipt"', 1)[1].split("</div>", 1)[0]
    assert "H8 ABC 1" in receipt and "late, kept apart (not counted)" in receipt


def test_FISE_6_a_slip_taken_back_from_a_batch_is_uncounted(site):
    """The PostgreSQL batch decided before it is stored (:meth:`Game.fold_tentatively`): taken back, its slips
    leave the counts as they were."""
    gid = make_game(site)
    with Journal(site.db, actor="player:1") as j:
        s = Session(j, gid)
        s.hand_in(Slip(1, "1", "H8", "ABC", 10), time.time())
        g = s.game
        assert g.handed_in == {(1, "1"): 1}
        g.fold_tentatively()
        for seq in (g.last_seq + 1, g.last_seq + 2):
            g.apply(Event(seq, "slip", Slip(1, "1" if seq % 2 else "2", "H8", "ABD", 12).to_payload(), "",
                          "player:1" if seq % 2 else "player:2"))
        assert sum(g.handed_in.values()) == 3
        g.take_back()
        assert g.handed_in == {(1, "1"): 1}


def player_1s(w, gid: str, secret: bytes, n: int, key: str) -> list[SlipRequest]:  # type: ignore[no-untyped-def]
    """``n`` slips of player 1 as the JSON API queues them, each with its own key."""
    batch = []
    for i in range(n):
        req = SlipRequest(1, "H8", "ABC", i, code=auth.player_code(secret, gid, "1"), key=f"{key}-{i}")
        req.throttle = [k.name for k in security.code_keys(gid, "127.0.0.1")]
        req.asked = w.limits.clock()
        batch.append(req)
    return batch


def test_FISE_6_on_postgresql_a_batch_stores_20_and_one_taken_back_leaves_the_count_the_journals(pg_server):
    """The group commit on PostgreSQL: a batch of 25 of one player's slips stores 20; a batch decided at once on a
    state another worker moved on from is taken back (:meth:`Game.take_back`) and decided again the ordinary way:
    the counts are the journal's, and the player's slips stop at 20."""
    w, gid, secret = hall(pg_server.new_database())
    batch = player_1s(w, gid, secret, 25, "one")
    w.intake._run(gid, batch)
    assert [r.status for r in batch] == [201] * 20 + [409] * 5
    assert all(r.body["field"] == "move" and r.body["stored"] is False for r in batch[20:])
    dsn = pg_server.new_database()
    w, gid, secret = hall(dsn, _Deaf(dsn))
    first = player_1s(w, gid, secret, 10, "first")
    w.intake._run(gid, first)
    with Journal(dsn, actor="player:1") as other:  # another worker stores 5 the deaf one has not heard of
        s = Session(other, gid)
        for i in range(5):
            s.hand_in(Slip(1, "1", "H8", "ABC", 100 + i), time.time(), f"elsewhere-{i}")
    batch = player_1s(w, gid, secret, 10, "second")
    w.intake._run(gid, batch)
    assert [r.status for r in [*first, *batch]] == [201] * 15 + [409] * 5
    with w.journal("") as j, w.writer(j, gid) as mine:
        assert mine.game.handed_in == Session(j, gid).game.handed_in == {(1, "1"): 20}
    with Journal(dsn) as j:
        assert len(j.events(gid, "slip")) == 20


def test_FISE_6_a_burst_of_40_parallel_api_slips_stores_exactly_20_and_a_fresh_worker_refuses_the_21st(tmp_path):
    site = make_site(tmp_path)
    gid = make_game(site, seconds=600)
    sends = [("1", f"burst-{i}") for i in range(40)] + [("2", f"other-{i}") for i in range(5)]
    answers: list[tuple[str, str, int, dict[str, object]]] = []
    start = threading.Barrier(len(sends))
    with running_server(site.db) as base, httpx.Client(base_url=base, timeout=60,
                                                       limits=httpx.Limits(max_connections=len(sends))) as client:

        def send(item: tuple[str, str]) -> None:
            player, key = item
            start.wait()
            r = client.post(f"/api/games/{gid}/slips", json=SLIP, headers=bearer(site, gid, player, key))
            answers.append((player, key, r.status_code, r.json()))

        with ThreadPoolExecutor(len(sends)) as pool:
            list(pool.map(send, sends))
    mine = [(status, body) for player, _, status, body in answers if player == "1"]
    assert sorted(status for status, _ in mine) == [201] * 20 + [409] * 20
    assert all(body == {"error": str(TooManySlips()), "field": "move", "limit": 20, "stored": False}
               for status, body in mine if status == 409)
    assert [status for player, _, status, _ in answers if player == "2"] == [201] * 5
    stored = [e for e in site.events(gid, "slip") if e.payload["player"] == "1"]
    assert len(stored) == 20
    assert sorted(e.seq for e in stored) == sorted(int(str(b["seq"])) for s, b in mine if s == 201)
    # another server process over the same journal: it folds the count from the journal and refuses the 21st
    with running_server(site.db) as base:
        r = httpx.post(f"{base}/api/games/{gid}/slips", json=SLIP, headers=bearer(site, gid, "1", "after"))
        assert r.status_code == 409 and r.json()["field"] == "move"
        # a stored slip sent again with its key: its receipt, never refused by the cap
        key, first = next((k, b) for p, k, s, b in answers if p == "1" and s == 201)
        r = httpx.post(f"{base}/api/games/{gid}/slips", json=SLIP, headers=bearer(site, gid, "1", key))
        assert r.status_code == 201 and r.json() == first
    assert len([e for e in site.events(gid, "slip") if e.payload["player"] == "1"]) == 20


# --- anticipation: the same cap per turn (RO-3.3: a slip per turn) ----------------------------------------------


def test_RO_3_3_the_21st_slip_of_a_turn_is_refused_on_the_phone_and_the_api_and_a_desk_still_types(site):
    arbiter = site.client()
    login(arbiter)
    gid = create_game(site, arbiter)
    read_all(site, arbiter, gid)
    lot(arbiter, gid, 1, 2)
    c = site.client()
    url = f"/api/games/{gid}/slips"
    seqs = []
    for i in range(MAX_SLIPS_PER_MOVE):
        r = c.post(url, json={**TURN_1, "note": str(i)}, headers=bearer(site, gid, "Ana", f"k{i}"))
        assert r.status_code == 201, (i, r.json())
        seqs.append(r.json()["seq"])
    before = journal(site, gid)
    r = c.post(url, json=TURN_1, headers=bearer(site, gid, "Ana", "k-new"))
    assert r.status_code == 409  # said in the game's language, Romanian
    assert r.json() == {"error": gettext_for("ro")(str(TooManySlips())), "field": "turn", "limit": 20,
                        "stored": False}
    r = c.post(f"{url}?lang=en", json=TURN_1, headers=bearer(site, gid, "Ana", "k-new2"))
    assert r.status_code == 409 and r.json()["error"] == str(TooManySlips())
    # his phone: the refusal beside the slip form, in the page's language
    phone = site.client()
    join(phone, site, gid, "Ana")
    token = csrf(phone.get(f"/games/{gid}/play").text)
    for lang, query in (("ro", ""), ("en", "?lang=en")):
        r = phone.post(f"/games/{gid}/slip{query}", data={"csrf": token, "turn": "1", "position1": "H7",
                                                           "word1": "LA", "score1": "4", "total": "4"})
        assert r.status_code == 409
        said = r.text.split('id="slip-error">')[1].split("</p>")[0]
        assert said == refusal(lang), said
    assert journal(site, gid) == before
    # an idempotent resend of the 20th: its receipt
    r = c.post(url, json={**TURN_1, "note": "19"}, headers=bearer(site, gid, "Ana", "k19"))
    assert r.status_code == 201 and r.json()["seq"] == seqs[-1] and journal(site, gid) == before
    # another player, and a desk typing Ana's paper slip, are not refused
    assert c.post(url, json=TURN_1, headers=bearer(site, gid, "Bo", "b")).status_code == 201
    desk = desk_client(site, arbiter)
    r = type_slip(desk, gid, 1, table="1", position1="H7", word1="AL", score1="4", total="4", replace="1")
    assert r.status_code == 303, r.text
    assert site.events(gid, "slip")[-1].actor == "desk:desk1"
    assert c.post(url, json=TURN_1, headers=bearer(site, gid, "Ana", "k-new3")).status_code == 409
    # the next turn counts afresh
    lot(arbiter, gid, 2, 3)
    r = c.post(url, json={**TURN_1, "turn": 2}, headers=bearer(site, gid, "Ana", "t2"))
    assert r.status_code == 201 and r.json()["turn"] == 2


def test_RO_3_3_a_training_game_caps_the_trainees_slips_of_a_turn_the_same_way(tmp_path):
    """Training alone goes through the same :meth:`AnticipationGame.hand_in` (actor ``player:1``): the same cap."""

    def slip(turn: int) -> AntSlip:
        row = SlipRow(1, "", str(turn), "H7", "AL", "4", "4", "")
        return AntSlip(training.TRAINEE, turn, [row], source="web", written_turn=str(turn))

    with Journal(str(tmp_path / "t.db"), actor=f"player:{training.TRAINEE}") as j:
        game = training.start(j, AntSettings(lexicon="test-ro", seed=3), Draw(groups_with(GROUPS), "manual"),
                              lexicon(), time.time())
        training.next_lot(game, time.time())
        for _ in range(MAX_SLIPS_PER_MOVE):
            game.hand_in(slip(1), time.time())
        before = len(j.events(game.id))
        with pytest.raises(TooManySlips):
            game.hand_in(slip(1), time.time())
        assert len(j.events(game.id)) == before
        training.next_lot(game, time.time())
        assert game.hand_in(slip(2), time.time()).slip.turn == 2


def test_RO_3_3_a_burst_of_40_parallel_api_slips_of_a_turn_stores_exactly_20(site):
    """Anticipation's cap is checked inside the slip's own journal transaction (``@action``): 40 slips of a turn
    sent at once with distinct keys, on a real server (uvicorn's threads), store exactly 20, the rest refused with
    nothing stored; each refused key sent again is still refused and each stored one gets its receipt."""
    arbiter = site.client()
    login(arbiter)
    gid = create_game(site, arbiter)
    read_all(site, arbiter, gid)
    lot(arbiter, gid, 1, 2)
    keys = [f"burst-{i}" for i in range(40)]
    start = threading.Barrier(len(keys))
    answers: dict[str, tuple[int, dict[str, object]]] = {}
    with running_server(site.db) as base, httpx.Client(base_url=base, timeout=60,
                                                       limits=httpx.Limits(max_connections=len(keys))) as client:

        def send(key: str) -> None:
            start.wait()
            r = client.post(f"/api/games/{gid}/slips", json={**TURN_1, "note": key},
                            headers=bearer(site, gid, "Ana", key))
            answers[key] = (r.status_code, r.json())

        with ThreadPoolExecutor(len(keys)) as pool:
            list(pool.map(send, keys))
        assert sorted(status for status, _ in answers.values()) == [201] * 20 + [409] * 20, answers
        stored = [e for e in site.events(gid, "slip") if e.actor.startswith("player:")]
        assert len(stored) == 20
        for key, (status, body) in answers.items():
            r = client.post(f"/api/games/{gid}/slips", json={**TURN_1, "note": key},
                            headers=bearer(site, gid, "Ana", key))
            assert r.status_code == status and (status == 409 or r.json() == body), (key, r.json())
    assert len([e for e in site.events(gid, "slip") if e.actor.startswith("player:")]) == 20
