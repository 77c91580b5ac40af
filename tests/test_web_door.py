"""A bad request costs only its sender: every slip is checked completely at the door
before it joins a group commit, one that still fails inside is taken out alone, a retried slip is stored once,
and no input answers 500.
"""

from __future__ import annotations

import json
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from arbitru.journal.store import Journal
from test_web_anticipation import desk_client, lot, read_all, type_slip
from web_anticipation_support import create_game
from web_server import running_server
from web_support import csrf, document, join, login, make_game, make_site, post

VALID = {"move": 1, "position": "H8", "word": "ABC", "score": 10}
#: what clumsy or hostile phones send (raw JSON: ``1e400`` and a lone surrogate cannot come from json.dumps)
MALFORMED = [
    ("word", json.dumps({**VALID, "word": "A" * 150})),
    ("position", json.dumps({**VALID, "position": "H" * 100})),
    ("score", '{"move": 1, "position": "H8", "word": "ABC", "score": 1e20}'),
    ("word", '{"move": 1, "position": "H8", "word": "\\ud800", "score": 10}'),
    ("move", '{"move": 1e400, "position": "H8", "word": "ABC", "score": 10}'),
    ("move", '{"move": true, "position": "H8", "word": "ABC", "score": 10}'),
]


def anticipation_turn_1(site):  # type: ignore[no-untyped-def]
    """The arbiter and an anticipation game whose groups are read out and the lot of turn 1 drawn."""
    arbiter = site.client()
    login(arbiter)
    gid = create_game(site, arbiter)
    read_all(site, arbiter, gid)
    lot(arbiter, gid, 1, 2)
    return arbiter, gid


def bearer(code: str, key: str = "") -> dict[str, str]:
    headers = {"Authorization": f"Bearer {code}", "Content-Type": "application/json"}
    if key:
        headers["Idempotency-Key"] = key
    return headers


@pytest.fixture
def site(tmp_path):  # type: ignore[no-untyped-def]
    return make_site(tmp_path)


@pytest.fixture
def arbiter(site):  # type: ignore[no-untyped-def]
    """The arbiter, signed in."""
    c = site.client()
    login(c)
    return c


@pytest.fixture
def gid(site):
    return make_game(site, seconds=600)


def test_one_bad_slip_costs_others_theirs_300_valid_and_30_malformed_at_once(tmp_path):
    site = make_site(tmp_path)
    valid, bad = 300, 30
    gid = make_game(site, seconds=600, players=tuple((str(i), f"P{i}") for i in range(1, valid + bad + 1)))
    sends = [(str(i), json.dumps(VALID), "") for i in range(1, valid + 1)]
    sends += [(str(valid + 1 + i), MALFORMED[i % len(MALFORMED)][1], MALFORMED[i % len(MALFORMED)][0])
              for i in range(bad)]
    # the malformed ones among the valid ones, so that they share group commits
    sends = [s for pair in zip(sends[:bad], sends[valid:], strict=True) for s in pair] + sends[bad:valid]
    answers: dict[str, tuple[int, dict[str, object]]] = {}
    start = threading.Barrier(40)
    with running_server(site.db) as base, httpx.Client(base_url=base, timeout=60,
                                                       limits=httpx.Limits(max_connections=40)) as client:

        def send(item: tuple[str, str, str], index: int) -> None:
            player, body, _field = item
            if index < 40:
                start.wait()
            r = client.post(f"/api/games/{gid}/slips", content=body.encode("utf-8", "surrogatepass"),
                            headers=bearer(site.code(gid, player)))
            answers[player] = (r.status_code, r.json())

        with ThreadPoolExecutor(40) as pool:
            list(pool.map(send, sends, range(len(sends))))
    stored = {e.payload["player"]: e for e in site.events(gid, "slip")}
    for player, _body, field in sends:
        status, body = answers[player]
        if not field:
            assert status == 201, (player, status, body)
            assert stored[player].seq == body["seq"] and body["received"]
        else:
            assert status == 400 and body["field"] == field, (player, status, body)
            assert player not in stored
    assert len(stored) == valid and all(e.payload["move"] == 1 for e in stored.values())


def test_a_retried_slip_is_stored_once_with_the_same_key_after_a_restart(tmp_path):
    site = make_site(tmp_path)
    gid = make_game(site, seconds=600)
    key = str(uuid.uuid4())
    answers = []
    for _server in range(2):  # the second answer comes from another server process, over the same journal
        with running_server(site.db) as base:
            r = httpx.post(f"{base}/api/games/{gid}/slips", json=VALID, headers=bearer(site.code(gid, "1"), key))
            answers.append((r.status_code, r.json()))
    assert answers[0] == answers[1] and answers[0][0] == 201
    assert len(site.events(gid, "slip")) == 1
    # another player's key of the same text is his own; a new key stores a new slip (a replacement)
    c = site.client()
    assert c.post(f"/api/games/{gid}/slips", json=VALID, headers=bearer(site.code(gid, "2"), key)).status_code == 201
    r = c.post(f"/api/games/{gid}/slips", json={**VALID, "word": "ABD"}, headers=bearer(site.code(gid, "1"), "k2"))
    assert r.status_code == 201 and len(site.events(gid, "slip")) == 3


def test_move_true_is_not_move_1(site, gid):
    r = site.client().post(f"/api/games/{gid}/slips", content=b'{"move": true, "position": "H8", "word": "ABC"}',
                           headers=bearer(site.code(gid, "1")))
    assert r.status_code == 400 and r.json()["field"] == "move"
    assert site.events(gid, "slip") == []


def test_phone_form_sends_a_key_per_render_and_a_retry_is_stored_once(site, gid):
    phone = site.client()
    join(phone, site, gid, "1")
    page = phone.get(f"/games/{gid}/play").text
    keys = [k for k in page.split('name="key" value="')[1:]]
    assert keys, "the phone's slip form carries a key"
    key = keys[0].split('"')[0]
    assert key not in phone.get(f"/games/{gid}/play").text  # a new one per render
    form = {"csrf": csrf(page), "key": key, "position": "H8", "word": "ABC"}
    assert phone.post(f"/games/{gid}/slip", data=form).status_code == 303
    assert phone.post(f"/games/{gid}/slip", data=form).status_code == 303  # the answer was lost: sent again
    assert len(site.events(gid, "slip")) == 1


def test_phone_refusal_names_the_field_in_the_games_language(tmp_path):
    site = make_site(tmp_path)
    from arbitru.formats.duplicate.game import Player, Session, Settings
    from arbitru.formats.duplicate.rulesets import ruleset
    from arbitru.lexicons.synthetic import load_lexicon

    with Journal(site.db, actor="arbiter") as j:
        s = Session.create(j, Settings(ruleset("fise", moves=3, seconds=600), "fr", "synthetic:2000", seed="1"),
                           load_lexicon("synthetic:2000", "fr"), [Player("1", "Ana")])
        s.draw()
    phone = site.client()
    join(phone, site, s.id, "1")
    r = post(phone, f"/games/{s.id}/slip", {"position": "H8", "word": "A" * 150}, f"/games/{s.id}/play")
    assert r.status_code == 422 and 'id="word-error"' in r.text and "au plus 60 caractères" in r.text
    assert site.events(s.id, "slip") == []


def test_desk_slip_with_score_superscript_two_is_refused(site, gid, arbiter):
    page = f"/games/{gid}"
    for score in ("²", "١٢", "1" * 12):
        r = post(arbiter, f"{page}/desk", {"player": "1", "position": "H8", "word": "ABC", "score": score}, page)
        assert r.status_code == 422, (score, r.status_code)
    r = post(arbiter, f"{page}/desk", {"player": "1", "position": "H8", "word": "AB\x00C"}, page)
    assert 400 <= r.status_code < 500
    assert site.events(gid, "slip") == []
    assert arbiter.get(page).status_code == 200


def test_api_openapi_shares_the_doors_limits(site):
    from arbitru.formats.anticipation.variants import TURNS
    from arbitru.textinput import LIMITS, MAX_INT

    spec = site.client().get("/api/openapi.json").json()
    post_ = spec["paths"]["/api/games/{id}/slips"]["post"]
    slips = {s["title"]: s for s in post_["requestBody"]["content"]["application/json"]["schema"]["oneOf"]}
    schema = slips["duplicate slip"]["properties"]
    assert slips["anticipation slip"]["properties"]["turn"]["maximum"] == TURNS
    assert schema["word"]["maxLength"] == LIMITS["word"] and schema["position"]["maxLength"] == LIMITS["position"]
    assert schema["move"]["maximum"] == MAX_INT and schema["score"]["maximum"] == MAX_INT
    assert any(p["name"] == "Idempotency-Key" for p in post_["parameters"])


# --- no 500 from input ---------------------------------------------------------------------------


def test_digits_that_are_not_digits_anticipation_routes_and_desk_score_superscript_two(site):

    arbiter, gid = anticipation_turn_1(site)
    desk = desk_client(site, arbiter)
    for url in (f"/games/{gid}/slips?turn=²", f"/games/{gid}?turn=²", f"/games/{gid}/review?turn=²",
                f"/games/{gid}/slips?turn=١"):
        assert desk.get(url).status_code < 500, url
    r = type_slip(desk, gid, 1, table="²", position1="H7", word1="AL", score1="4")
    assert r.status_code == 422
    r = type_slip(desk, gid, 1, table="1", position1="H7", word1="AL", score1="²")
    assert r.status_code == 422 and 'score1' in r.text
    r = type_slip(desk, gid, 1, table="1", position1="H7", word1="A\tL", score1="4")
    assert r.status_code == 422
    assert site.events(gid, "slip") == []
    for url in (f"/games/{gid}/slips?turn=1", f"/games/{gid}/review", f"/games/{gid}/results", f"/games/{gid}"):
        assert desk.get(url).status_code < 500, url


def test_a_players_csv_with_cr_answers_4xx_not_500(site, arbiter):
    for players in ("1,Ana\r2,Bo\n", '1,"A\rna"\n2,Bo\n', "1,Ana\n2,B\x01o\n", "²,Ana\n2,Bo\n"):
        r = post(arbiter, "/games/new", {"players": players, "lexicon": "synthetic:100"}, "/games/new")
        assert r.status_code in (303, 400, 422), (players, r.status_code)
        if r.status_code == 303:
            gid = r.headers["location"].rsplit("/", 1)[-1]
            assert [e.payload["name"] for e in site.events(gid, "player")] == ["Ana", "Bo"]


def test_play_live_without_having_joined_answers_403_not_500(site, gid):
    assert site.client().get(f"/games/{gid}/play/live").status_code == 403
    phone = site.client()
    join(phone, site, gid, "1")
    assert phone.get(f"/games/{gid}/play/live").status_code == 200


def test_a_newline_in_a_games_title_is_refused_and_never_injects_a_line_into_the_gcg_export(site, gid, arbiter):
    title = "Cup\n>x: AB 8H AB +99 99"
    r = post(arbiter, "/games/new", {"players": "1,Ana", "lexicon": "synthetic:100", "title": title}, "/games/new")
    assert 400 <= r.status_code < 500
    # a title stored by an older version: the export still has one record per line
    forged = _forged_copy(site, gid, title=title)
    post(arbiter, f"/games/{forged}/close", {"choice": "1"}, f"/games/{forged}")
    gcg = arbiter.get(f"/games/{forged}/download/game.gcg").text
    assert not any(line.startswith(">x") for line in gcg.splitlines()), gcg
    assert "#title Cup\\n>x" in gcg


def test_nul_characters_in_a_word_never_reach_the_html_csv_or_pdf(site, gid, arbiter):
    r = site.client().post(f"/api/games/{gid}/slips", json={**VALID, "word": "A\x00B"},
                           headers=bearer(site.code(gid, "1")))
    assert r.status_code == 400 and r.json()["field"] == "word"
    page = f"/games/{gid}"
    assert post(arbiter, f"{page}/desk", {"player": "2", "position": "H8", "word": "A\x00B"}, page).status_code == 400
    assert site.events(gid, "slip") == []
    # one stored by an older version: shown raw and flagged, never passed on
    _raw_slip(site, gid, "1", word="A\x00B", position="H\n8")
    post(arbiter, f"{page}/close", {"choice": "1"}, page)
    for url in (page, f"{page}/results", f"/games/{gid}/download/moves.csv", f"/games/{gid}/download/results.csv"):
        r = arbiter.get(url)
        assert r.status_code == 200 and "\x00" not in r.text, url
    assert "A\\x00B\u26a0" in arbiter.get(f"/games/{gid}/download/moves.csv").text
    pdf = document(arbiter, f"/games/{gid}/download/results.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_an_event_already_stored_that_a_page_cannot_show_is_shown_raw_and_flagged(site, gid, arbiter):
    _raw_slip(site, gid, "²", word="AB\x07C", position="H8")
    _raw_slip(site, gid, "1", word="ABC\x1b", position="H8")
    for url in _get_routes(site, gid):
        r = arbiter.get(url)
        assert r.status_code < 500, url
    assert "ABC\\x1b\u26a0" in arbiter.get(f"/games/{gid}").text


# --- helpers: journals written by an older version, the app's routes ------------------------------------------


def _raw_slip(site, gid: str, player: str, **fields: object) -> None:
    """A slip stored behind the door's back, as an older version could have."""
    payload = {"move": 1, "player": player, "position": "", "word": "", "score": None, "late": False,
               "illegible": False, "table": "", "note": "", **fields}
    with Journal(site.db, actor="old") as j:
        seq = j.last_seq(gid) + 1
        j.execute("INSERT INTO event (game_id, seq, kind, payload, recorded, actor) VALUES (?, ?, ?, ?, ?, ?)",
                  (gid, seq, "slip", json.dumps(payload), "2026-01-01T00:00:00+00:00", "old"))


def _forged_copy(site, gid: str, **settings: object) -> str:
    """A copy of the game whose settings an older version stored without the door's checks."""
    new = gid[:8] + "old"
    with Journal(site.db, actor="old") as j:
        info = j.game(gid)
        j.execute("INSERT INTO game (id, format, created, settings) VALUES (?, ?, ?, ?)",
                  (new, info.format, info.created, json.dumps({**info.settings, **settings})))
        j.execute("INSERT INTO event (game_id, seq, kind, payload, recorded, actor) "
                  "SELECT ?, seq, kind, payload, recorded, actor FROM event WHERE game_id = ?", (new, gid))
    return new


def _get_routes(site, gid: str) -> list[str]:
    """Every page of the app a GET reaches for this game (the app's route table), live streams apart."""
    from starlette.routing import Route

    urls = []
    for route in site.client_factory.routes:
        if isinstance(route, Route) and "GET" in (route.methods or ()) and not route.path.endswith("/events"):
            path = route.path.replace("{gid}", gid)
            if "{" not in path:
                urls.append(path)
    return urls


def test_anticipation_api_slip_with_score_superscript_two_or_a_control_character_is_refused_naming_the_field(site):

    _arbiter, gid = anticipation_turn_1(site)
    url, code = f"/api/games/{gid}/slips", site.code(gid, "Ana")
    for place, field in (({"position": "H7", "word": "AL", "score": "²"}, "score"),
                         ({"position": "H7", "word": "A\x00L", "score": 4}, "word")):
        r = site.client().post(url, json={"turn": 1, "placements": [place], "turn_total": 4},
                               headers={"Authorization": f"Bearer {code}"})
        assert r.status_code == 400 and r.json()["field"] == field, r.text
    assert site.events(gid, "slip") == []


#: a rule the database itself holds (as a federation's DBA might add one): it refuses one word, so that a slip
#: passes the door and the session and still fails once its event is on its way inside a group commit
REFUSE_QXQ = {
    "sqlite": ["""CREATE TRIGGER refuse_qxq BEFORE INSERT ON event WHEN NEW.payload LIKE '%"QXQ"%'
BEGIN SELECT RAISE(ABORT, 'the hall refuses QXQ'); END"""],
    "postgresql": [
        """CREATE FUNCTION refuse_qxq() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF strpos(NEW.payload, '"QXQ"') > 0 THEN RAISE EXCEPTION 'the hall refuses QXQ'; END IF; RETURN NEW; END $$""",
        "CREATE TRIGGER refuse_qxq BEFORE INSERT ON event FOR EACH ROW EXECUTE FUNCTION refuse_qxq()",
    ],
}


def test_a_slip_the_database_refuses_inside_a_group_commit_sent_together_fails_alone(journal_spec):
    """The batch's appends are sent together (one executemany); when one fails there, the batch is
    handed in again one slip at a time: that slip is answered 503 alone, every other one is stored once."""
    from arbitru.formats.duplicate.game import Player, Session, Settings
    from arbitru.formats.duplicate.rulesets import ruleset
    from arbitru.lexicons.synthetic import load_lexicon
    from arbitru.web import auth
    from web_support import LEXICON

    players = 60
    settings = Settings(ruleset("fise", moves=5, seconds=600), "en", LEXICON, seed="7")
    with Journal(journal_spec, actor="arbiter") as j:
        s = Session.create(j, settings, load_lexicon(LEXICON, "en"),
                           [Player(str(i), f"P{i}") for i in range(1, players + 1)])
        s.draw()
        secret = auth.server_secret(j)
        for statement in REFUSE_QXQ[j.store]:
            j.execute(statement)
    refused = {"7", "31", "52"}
    answers: dict[str, tuple[int, dict[str, object]]] = {}
    start = threading.Barrier(players)
    with running_server(journal_spec) as base, httpx.Client(base_url=base, timeout=60,
                                                            limits=httpx.Limits(max_connections=players)) as client:

        def send(player: str) -> None:
            body = {**VALID, "word": "QXQ" if player in refused else "ABC"}
            start.wait()
            r = client.post(f"/api/games/{s.id}/slips", json=body,
                            headers=bearer(auth.player_code(secret, s.id, player), f"k-{player}"))
            answers[player] = (r.status_code, r.json())

        with ThreadPoolExecutor(players) as pool:
            list(pool.map(send, [str(i) for i in range(1, players + 1)]))
    with Journal(journal_spec) as j:
        stored = [e for e in j.events(s.id, "slip")]
    by_player = {str(e.payload["player"]): e for e in stored}
    assert len(stored) == len(by_player) == players - len(refused)
    for player, (status, body) in answers.items():
        if player in refused:
            assert status == 503 and body["stored"] is False and "QXQ" in str(body["error"]), (player, body)
            assert player not in by_player
        else:
            assert status == 201 and by_player[player].seq == body["seq"] and body["received"], (player, body)
            assert by_player[player].recorded == body["received"]
