"""The web app over HTTP (Starlette's test client on the real app and a real journal): every route, every role,
refusals beside their fields, CSRF, hostile input, the JSON API and its status codes (FISE-5, FISE-6)."""

from __future__ import annotations

import asyncio
import base64
import json
import threading
import time

import pytest
from click.testing import CliRunner

from arbitru.cli import cli
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.store import Journal
from arbitru.journal.training import store_address
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.web import auth
from arbitru.web.live import LocalPublisher
from web_support import ARBITER_PASSWORD, confirmation, csrf, document, join, login, make_game, make_site, post


@pytest.fixture
def site(tmp_path):
    return make_site(tmp_path)


@pytest.fixture
def gid(site):
    return make_game(site)


@pytest.fixture
def arbiter(site):
    c = site.client()
    login(c)
    return c


def test_login_sets_a_signed_httponly_samesite_cookie_and_a_wrong_password_is_refused(site):
    c = site.client()
    token = csrf(c.get("/login").text)
    r = c.post("/login", data={"csrf": token, "name": "arbiter", "password": "wrong-password"})
    assert r.status_code == 401 and "wrong name or password" in r.text
    r = c.post("/login", data={"csrf": token, "name": "arbiter", "password": ARBITER_PASSWORD})
    assert r.status_code == 303
    cookie = r.headers["set-cookie"]
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    # a visitor's cookie with its role changed to arbiter, signature kept, is refused: a new public visitor
    public = site.client()
    public.get("/login")
    value = public.cookies[auth.COOKIE]
    body, _, mac = value.partition(".")
    data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    data["role"] = "arbiter"
    forged = base64.urlsafe_b64encode(json.dumps(data, sort_keys=True).encode()).decode().rstrip("=")
    public.cookies.set(auth.COOKIE, f"{forged}.{mac}")
    assert public.get("/games/new").status_code == 401
    public.cookies.set(auth.COOKIE, auth.sign(b"not the secret", auth.Identity("x", "arbiter")))
    assert public.get("/games/new").status_code == 401


def test_arbiter_password_is_stored_hashed_and_reset_by_the_cli(site):
    with Journal(site.db) as j:
        rows = j.execute("SELECT salt, hash FROM web_account WHERE name = 'arbiter'")
    assert ARBITER_PASSWORD not in str(rows)
    out = CliRunner().invoke(cli, ["arbiter", "password", "--db", site.db])
    assert out.exit_code == 0
    new = out.output.strip()
    with Journal(site.db) as j:
        assert auth.check_password(j, "arbiter", new) == "arbiter"
        with pytest.raises(auth.AuthError):
            auth.check_password(j, "arbiter", ARBITER_PASSWORD)


def test_public_reaches_screen_results_and_api_but_not_the_console(site, gid):
    c = site.client()
    for url in (f"/games/{gid}/screen", f"/games/{gid}/screen/live", f"/games/{gid}/results",
                f"/games/{gid}/results/live", f"/games/{gid}/play", f"/api/games/{gid}", "/api/openapi.json",
                "/api", "/", "/standings", f"/games/{gid}/download/game.gcg", "/static/app.css",
                "/static/vendor/htmx.min.js"):
        assert c.get(url).status_code == 200, url
    for url in (f"/games/{gid}", f"/games/{gid}/grid", f"/games/{gid}/codes", "/games/new"):
        assert c.get(url).status_code == 401, url
    token = csrf(c.get("/").text if "csrf" in c.get("/").text else c.get("/login").text)
    r = c.post(f"/games/{gid}/draw", data={"csrf": token})
    assert r.status_code == 401
    assert c.get("/games/nosuchgame/screen").status_code == 404
    assert c.get("/api/games/nosuchgame").status_code == 404


def test_htmx_is_served_locally_from_the_pinned_package(site):
    r = site.client().get("/static/vendor/htmx.min.js")
    assert r.status_code == 200 and "htmx" in r.text[:2000]
    page = site.client().get("/login").text
    assert 'src="/static/vendor/htmx.min.js"' in page and "//unpkg" not in page and "cdn" not in page.lower()


def test_a_form_without_its_csrf_token_is_refused_and_nothing_is_stored(site, gid, arbiter):
    before = len(site.events(gid))
    assert arbiter.post(f"/games/{gid}/clock", data={"action": "start"}).status_code == 403
    assert arbiter.post(f"/games/{gid}/clock", data={"action": "start", "csrf": "forged"}).status_code == 403
    # a token of another session does not fit either
    other = site.client()
    login(other)
    token = csrf(other.get(f"/games/{gid}").text)
    assert arbiter.post(f"/games/{gid}/clock", data={"action": "start", "csrf": token}).status_code == 403
    assert len(site.events(gid)) == before


def test_arbiter_console_draw_clock_close_with_every_tied_candidate(site, arbiter):
    gid = make_game(site, draw=False)
    page = f"/games/{gid}"
    r = post(arbiter, f"{page}/draw", {"new": "0"}, page)
    assert r.status_code == 303
    html = arbiter.get(page).text
    assert "Start the clock" in html and "Place the master move" in html
    for action in ("start", "pause", "resume"):
        assert post(arbiter, f"{page}/clock", {"action": action}, page).status_code == 303
    r = post(arbiter, f"{page}/clock", {"action": "resume"}, page)
    assert r.status_code == 422 and "it cannot resume" in r.text
    clocks = site.events(gid, "clock")
    assert [e.payload["action"] for e in clocks] == ["start", "pause", "resume"]
    assert {e.actor for e in clocks} == {"arbiter"}
    with Journal(site.db) as j:
        s = Session(j, gid)
        s.lexicon = load_lexicon("synthetic:2000", "en")
        cands = s.candidates()
    html = arbiter.get(page).text
    listed = html.split('<ol class="candidates">')[1].split("</ol>")[0]
    assert listed.count('type="radio"') == len(cands) >= 1
    # the referee picks the last tied move (FISE-16)
    r = post(arbiter, f"{page}/close", {"choice": str(len(cands))}, page)
    assert r.status_code == 303
    master = site.events(gid, "master")[-1].payload
    assert master["by"] == ("referee" if len(cands) > 1 else "program")
    assert len(master["ties"]) == len(cands)


def test_refusals_are_shown_beside_the_field_not_as_an_error_page(site, arbiter):
    gid = make_game(site, racks="hand", draw=False)
    page = f"/games/{gid}"
    r = post(arbiter, f"{page}/draw", {"new": "0", "tiles": "AB1"}, page)
    assert r.status_code == 422 and 'id="tiles-error"' in r.text
    before = len(site.events(gid))
    r = post(arbiter, f"{page}/draw", {"new": "0", "tiles": "AEIOUAE"}, page)
    assert r.status_code == 422 and "FISE-10" in r.text and 'id="tiles-error"' in r.text
    assert len(site.events(gid)) == before + 1  # the illegal attempt is journaled, as the rules want
    r = post(arbiter, f"{page}/close", {"choice": "1"}, page)
    assert r.status_code == 422 and "draw one first" in r.text
    r = post(arbiter, f"{page}/draw", {"new": "0", "tiles": "CATSDOG"}, page)
    assert r.status_code == 303
    r = post(arbiter, f"{page}/desk", {"player": "9", "position": "H8", "word": "CAT", "score": "5"}, page)
    assert r.status_code == 422 and 'id="player-error"' in r.text and "no player 9" in r.text


def test_desk_account_enters_paper_slips_but_cannot_run_the_game(site, gid, arbiter):
    r = post(arbiter, "/desks", {"name": "desk1", "password": "desk-pass-1"}, "/")
    assert r.status_code == 303
    desk = site.client()
    login(desk, "desk1", "desk-pass-1")
    page = f"/games/{gid}"
    assert desk.get(page).status_code == 200
    assert "Start the clock" not in desk.get(page).text
    r = post(desk, f"{page}/desk", {"player": "3", "position": "H8", "word": "ABC", "score": "12"}, page)
    assert r.status_code == 303
    slip = site.events(gid, "slip")[-1]
    assert slip.actor == "desk:desk1" and slip.payload["player"] == "3"
    assert "desk desk1" in arbiter.get(f"{page}/grid").text  # who entered it, as the page says it
    for url, data in ((f"{page}/clock", {"action": "start"}), (f"{page}/close", {}), (f"{page}/end", {}),
                      (f"{page}/rule", {"word": "ABC", "valid": "1"})):
        assert post(desk, url, data, page).status_code == 403, url
    # a second slip for the same player replaces the first only once confirmed (a second request)
    second = {"player": "3", "position": "H8", "word": "ABD", "score": "12"}
    r = post(desk, f"{page}/desk", second, page, confirm=False)
    assert r.status_code == 200 and confirmation(r.text) and "ABD" in r.text
    assert len(site.events(gid, "slip")) == 1
    assert post(desk, f"{page}/desk", second, page).status_code == 303
    assert len(site.events(gid, "slip")) == 2


def test_player_joins_with_code_and_cannot_reach_arbiter_actions(site, gid):
    phone = site.client()
    token = csrf(phone.get(f"/games/{gid}/play").text)
    r = phone.post(f"/games/{gid}/join", data={"csrf": token, "code": "WRONGCODE"})
    assert r.status_code == 401 and 'id="code-error"' in r.text
    join(phone, site, gid, "1")
    page = f"/games/{gid}/play"
    assert "Your slip" in phone.get(page).text
    for url in (f"/games/{gid}", f"/games/{gid}/grid", f"/games/{gid}/codes", "/games/new"):
        assert phone.get(url).status_code == 403, url
    for url in ("draw", "clock", "close", "desk", "rule", "withdraw", "end"):
        assert post(phone, f"/games/{gid}/{url}", {"player": "2", "action": "start"}, page).status_code == 403
    # the code of one game does not open another
    other = make_game(site)
    token = csrf(phone.get(f"/games/{other}/play").text)
    r = phone.post(f"/games/{other}/join", data={"csrf": token, "code": site.code(gid, "1")})
    assert r.status_code == 401


def test_player_form_stores_only_his_own_slip_with_a_receipt(site, gid):
    phone = site.client()
    join(phone, site, gid, "2")
    page = f"/games/{gid}/play"
    r = post(phone, f"/games/{gid}/slip", {"position": "H8", "word": "ABc", "score": "7", "player": "1"}, page)
    assert r.status_code == 303
    slip = site.events(gid, "slip")[-1]
    assert slip.payload["player"] == "2" and slip.actor == "player:2" and slip.payload["word"] == "ABc"
    html = phone.get(page).text
    assert 'id="receipt"' in html and "ABc" in html and f"no. {slip.seq}" in html


def test_player_cannot_read_others_slips_before_the_move_closes(site, gid, arbiter):
    one, two = site.client(), site.client()
    join(one, site, gid, "1")
    join(two, site, gid, "2")
    post(two, f"/games/{gid}/slip", {"position": "H8", "word": "SECRETW", "score": "9"}, f"/games/{gid}/play")
    for url in (f"/games/{gid}/play", f"/games/{gid}/play/live", f"/api/games/{gid}", f"/games/{gid}/results",
                f"/games/{gid}/screen"):
        assert "SECRETW" not in one.get(url).text, url
    assert one.get(f"/games/{gid}/grid").status_code == 403
    assert "SECRETW" in arbiter.get(f"/games/{gid}/grid").text
    # after the close, the results show what everyone wrote, and each phone its own verdict
    post(arbiter, f"/games/{gid}/close", {"choice": "1"}, f"/games/{gid}")
    assert "SECRETW" in one.get(f"/games/{gid}/results").text
    assert 'id="verdicts"' in two.get(f"/games/{gid}/play").text


def test_api_slip_status_codes_and_receipt(site, gid):
    c = site.client()
    url = f"/api/games/{gid}/slips"
    body = {"move": 1, "position": "H8", "word": "ABC", "score": 10}
    assert c.post(url, json=body).status_code == 401
    assert c.post(url, json=body, headers={"Authorization": "Bearer NOTACODE"}).status_code == 401
    auth1 = {"Authorization": f"Bearer {site.code(gid, '1')}"}
    assert c.post(url, json={**body, "player": "2"}, headers=auth1).status_code == 403
    r = c.post(url, json=body, headers=auth1)
    assert r.status_code == 201
    receipt = r.json()
    assert receipt["player"] == "1" and receipt["late"] is False and receipt["received"]
    stored = site.events(gid, "slip")
    assert [e.seq for e in stored] == [receipt["seq"]]
    r = c.post(url, json={**body, "move": 2}, headers=auth1)
    assert r.status_code == 409 and r.json()["stored"] is False
    assert c.post(url, content=b'{"move": 1, "word": "\xff\xfe"}', headers=auth1).status_code == 400
    assert c.post(url, content=b"[1,2]", headers=auth1).status_code == 400
    assert c.post(url, json={**body, "word": "A" * 5000}, headers=auth1).status_code == 413
    assert c.post(url, json={**body, "word": "A" * 300}, headers=auth1).status_code == 400
    assert len(site.events(gid, "slip")) == 1


def test_FISE_6_a_slip_after_time_is_stored_flagged_late_never_refused(site, gid):
    with Journal(site.db, actor="arbiter") as j:
        Session(j, gid).clock("start", time.time() - 61)  # the 60 s of the move ran out a second ago
    c = site.client()
    auth2 = {"Authorization": f"Bearer {site.code(gid, '2')}"}
    r = c.post(f"/api/games/{gid}/slips", json={"move": 1, "position": "H8", "word": "ABC"}, headers=auth2)
    assert r.status_code == 409 and r.json()["stored"] is True and r.json()["late"] is True
    assert site.events(gid, "slip")[-1].payload["late"] is True
    # the phone's form says so on the receipt
    phone = site.client()
    join(phone, site, gid, "3")
    post(phone, f"/games/{gid}/slip", {"position": "H8", "word": "ABC"}, f"/games/{gid}/play")
    assert site.events(gid, "slip")[-1].payload["late"] is True
    assert "late" in phone.get(f"/games/{gid}/play").text


def test_FISE_5_a_slip_for_a_closed_move_is_stored_late(site, gid, arbiter):
    post(arbiter, f"/games/{gid}/close", {"choice": "1"}, f"/games/{gid}")
    r = site.client().post(f"/api/games/{gid}/slips", json={"move": 1, "position": "H8", "word": "ABC"},
                           headers={"Authorization": f"Bearer {site.code(gid, '1')}"})
    assert r.status_code == 409 and r.json()["late"] is True


def test_hostile_input_is_escaped_or_refused_with_a_message(site, arbiter):
    gid = make_game(site, players=(("1", "<script>alert(1)</script>"), ("2", 'B"><img src=x onerror=1>')))
    for url in (f"/games/{gid}", f"/games/{gid}/results", f"/games/{gid}/codes"):
        html = arbiter.get(url).text
        assert "<script>alert" not in html and "<img src=x" not in html, url
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html or url.endswith("results"), url
    page = f"/games/{gid}"
    r = post(arbiter, f"{page}/desk", {"player": "1", "position": "H8", "word": "A" * 10_000}, page)
    assert r.status_code == 400 and "too long" in r.text
    token = csrf(arbiter.get(page).text)
    r = arbiter.post(f"{page}/desk", content=f"csrf={token}&player=1&word=%FF%FE".encode(),
                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 400 and "UTF-8" in r.text
    r = post(arbiter, f"{page}/desk", {"player": "1", "position": "<b>H8</b>", "word": "<script>", "score": "x"},
             page)
    assert r.status_code == 422 and "is not a whole number" in r.text and "<script>" not in r.text.split("<main>")[1]
    r = post(arbiter, "/games/new", {"players": "1,Ana\n1,Bo", "lexicon": "synthetic:100"}, "/games/new")
    assert r.status_code == 422 and 'id="players-error"' in r.text
    assert len(site.events(gid, "slip")) == 0


def test_create_game_from_the_form_with_players_csv(site, arbiter):
    r = post(arbiter, "/games/new", {"rules": "fise", "lang": "en", "lexicon": "synthetic:2000", "moves": "3",
                                     "seconds": "90", "racks": "seed", "title": "Club night",
                                     "players": "number,name,table\n1,Ana,1\n2,Bo + Cy,2"}, "/games/new")
    assert r.status_code == 303
    gid = r.headers["location"].rsplit("/", 1)[1]
    with Journal(site.db) as j:
        s = Session(j, gid)
    assert s.settings.rules.clock.seconds == 90 and s.settings.rules.moves == 3 and s.settings.title == "Club night"
    assert s.game.players["2"].members == ("Bo", "Cy") and s.game.players["1"].table == "1"


def test_rulings_withdrawals_and_end(site, gid, arbiter):
    page = f"/games/{gid}"
    assert post(arbiter, f"{page}/rule", {"word": "zzq", "valid": "1", "reason": "in the list"}, page).status_code \
        == 303
    assert post(arbiter, f"{page}/withdraw", {"player": "3"}, page).status_code == 303
    r = post(arbiter, f"{page}/withdraw", {"player": "99"}, page)
    assert r.status_code == 422 and "no player 99" in r.text
    assert post(arbiter, f"{page}/end", {"reason": "hall closes"}, page).status_code == 303
    kinds = [e.kind for e in site.events(gid)]
    assert kinds[-3:] == ["ruling", "withdraw", "end"]
    assert "Game over" in arbiter.get(page).text


def test_results_downloads_and_standings(site, gid, arbiter):
    c = site.client()
    c.post(f"/api/games/{gid}/slips", json={"move": 1, "position": "H8", "word": "ABC", "score": 1},
           headers={"Authorization": f"Bearer {site.code(gid, '1')}"})
    assert c.get(f"/games/{gid}/download/results.csv").status_code == 404  # nothing closed yet
    post(arbiter, f"/games/{gid}/close", {"choice": "1"}, f"/games/{gid}")
    csv_text = c.get(f"/games/{gid}/download/results.csv").text
    assert "Ana" in csv_text and "Cleo" in csv_text
    assert c.get(f"/games/{gid}/download/moves.csv").status_code == 200
    assert "#character-encoding UTF-8" in c.get(f"/games/{gid}/download/game.gcg").text or \
        ">master" in c.get(f"/games/{gid}/download/game.gcg").text
    assert c.get(f"/games/{gid}/download/other").status_code == 404
    html = c.get(f"/games/{gid}/results").text
    assert 'id="ranking"' in html and 'id="masters"' in html
    assert "Ana" in c.get("/standings").text
    assert c.get("/standings?method=nonsense").status_code == 400


def test_codes_cli_prints_the_same_codes_as_the_sheet(site, gid, arbiter):
    out = CliRunner().invoke(cli, ["duplicate", "codes", "--db", site.db, gid])
    assert out.exit_code == 0, out.output
    lines = [ln.split("\t") for ln in out.output.splitlines()]
    assert [(n, code) for n, code, *_ in lines] == [(n, site.code(gid, n)) for n in ("1", "2", "3")]
    listed = json.loads(CliRunner().invoke(cli, ["duplicate", "codes", "--db", site.db, "--json", gid]).output)
    assert [(p["player"], p["code"]) for p in listed] == [(n, site.code(gid, n)) for n in ("1", "2", "3")]
    sheet = arbiter.get(f"/games/{gid}/codes").text
    assert all(site.code(gid, n) in sheet for n in ("1", "2", "3")) and "<svg" in sheet


def test_api_game_state_is_public_and_shows_board_rack_clock_and_master_total(site, gid):
    data = site.client().get(f"/api/games/{gid}").json()
    assert data["move"] == 1 and data["phase"] == "play" and len(data["rack"]) == 7
    assert len(data["board"]) == 15 and data["clock"]["state"] == "idle" and data["master_total"] == 0
    spec = site.client().get("/api/openapi.json").json()
    assert {"/api/games/{id}", "/api/games/{id}/slips"} <= set(spec["paths"])


def test_live_publisher_reaches_subscribers_from_any_thread():
    pub = LocalPublisher()

    async def listen() -> list[int | None]:
        sub = pub.subscribe("g")
        threading.Thread(target=lambda: [pub.publish("other", 6), pub.publish("g", 5)]).start()
        got = [await sub.next(2), await sub.next(0.05)]
        sub.close()
        return got

    assert asyncio.run(listen()) == [5, None]
    assert pub.subscribers("g") == 0


def test_training_alone_master_move_and_percentage(site):
    c = site.client()
    r = post(c, "/train", {"rules": "fise", "lang": "en", "lexicon": "synthetic:2000", "moves": "2"}, "/train")
    assert r.status_code == 303
    gid = r.headers["location"].rsplit("/", 1)[1]
    with Journal(store_address(site.db)) as j:  # the training store, not the hall's journal
        s = Session(j, gid)
        s.lexicon = load_lexicon("synthetic:2000", "en")
        top = s.candidates()[0]
        position, word = top.placement.coord.format("fise"), s.game.alphabet.format(top.placement.word)
    r = post(c, f"/train/{gid}/move", {"position": position, "word": word}, f"/train/{gid}")
    assert r.status_code == 303
    html = c.get(f"/train/{gid}").text
    assert 'id="master"' in html and "100.00 %" in html and "move 2" in html
    assert 'id="percent-note"' in html and "without bonuses" in html  # one percentage, said what it is
    r = post(c, f"/train/{gid}/move", {"position": "A1", "word": "QQQ"}, f"/train/{gid}")
    html = c.get(f"/train/{gid}").text
    assert "game over" in html and "100.00 %" not in html
    assert site.client().get(f"/train/{gid}").status_code == 403


def test_hall_pages_in_the_games_language_and_a_phone_may_choose_another(site):
    lex = load_lexicon("synthetic:2000", "ro")
    settings = Settings(ruleset("romanian", moves=3, seconds=120), "ro", "synthetic:2000", seed="1")
    with Journal(site.db, actor="arbiter") as j:
        s = Session.create(j, settings, lex, [Player("1", "Ana")])
        s.draw()
        gid = s.id
    c = site.client()
    screen = c.get(f"/games/{gid}/screen").text
    assert "Mutarea 1" in screen and "suportul:" in screen and "mai este un minut" in screen
    join(c, site, gid, "1")
    assert "Buletinul tău" in c.get(f"/games/{gid}/play").text
    phone = c.get(f"/games/{gid}/play?lang=fr").text
    assert "Votre bulletin" in phone and "Buletinul tău" not in phone
    assert "Your slip" in c.get(f"/games/{gid}/play?lang=en").text


def test_message_catalogs_are_complete_in_every_language():
    from babel.messages.pofile import read_po

    from arbitru.web.i18n import LANGUAGES, LOCALES

    ids = {}
    for lang in LANGUAGES:
        if lang == "en":
            continue
        with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
            catalog = read_po(f, locale=lang)
        ids[lang] = {m.id for m in catalog if m.id}
        assert all(m.string for m in catalog if m.id), lang
    # the same messages in every catalog: the anticipation pages' too, for a player who picks his phone's language
    assert len({frozenset(v) for v in ids.values()}) == 1, {lang: len(v) for lang, v in ids.items()}


def test_results_as_pdf(site, gid, arbiter):
    post(arbiter, f"/games/{gid}/close", {"choice": "1"}, f"/games/{gid}")
    r = document(site.client(), f"/games/{gid}/download/results.pdf")
    assert r.status_code == 200 and r.content.startswith(b"%PDF-") and r.headers["content-type"] == "application/pdf"


def test_serve_demo_prints_password_and_addresses_then_serves_them(tmp_path):
    import contextlib
    import signal
    import subprocess
    import sys
    import threading

    import httpx

    from arbitru.web.wire import GRACEFUL_S
    from web_server import free_port

    port = free_port()
    cmd = [sys.executable, "-m", "arbitru", "serve", "--demo", "--demo-lexicon", "synthetic:500", "--json",
           "--db", str(tmp_path / "demo.db"), "--port", str(port)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    try:
        info = json.loads(proc.stdout.readline())
        assert len(info["password"]) >= 8 and info["url"] == f"http://127.0.0.1:{port}/"
        for _ in range(100):
            try:
                screen = httpx.get(info["demo"]["screen"])
                break
            except httpx.ConnectError:
                time.sleep(0.1)
        assert screen.status_code == 200 and "Mutarea 1" in screen.text
        player = info["demo"]["players"][0]["url"]
        assert httpx.get(player).status_code == 200
        with Journal(str(tmp_path / "demo.db")) as j:
            assert auth.check_password(j, "arbiter", info["password"]) == "arbiter"
        # a projection's live stream stays open (it never ends by itself): a stop does not wait for it for ever
        opened = threading.Event()

        def listen() -> None:
            with contextlib.suppress(httpx.HTTPError), httpx.stream(
                    "GET", info["demo"]["screen"].rsplit("/", 1)[0] + "/events", timeout=None) as r:
                opened.set()
                for _ in r.iter_lines():
                    pass

        threading.Thread(target=listen, daemon=True).start()
        assert opened.wait(10)
        began = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(GRACEFUL_S + 10)
        assert time.monotonic() - began < GRACEFUL_S + 5
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            proc.wait(10)


def test_serve_base_url_puts_the_proxys_address_in_the_players_links(tmp_path):
    """Finding of trying docs/deploy.md end to end: behind a reverse proxy the codes sheet's links (and QR codes)
    carried the workers' own http://127.0.0.1:PORT, which no phone reaches; ``--base-url`` names the public one."""
    import re
    import signal
    import subprocess
    import sys

    import httpx

    from web_server import free_port

    port = free_port()
    public = "https://scrabble.example.org"
    cmd = [sys.executable, "-m", "arbitru", "serve", "--demo", "--demo-lexicon", "synthetic:500", "--json",
           "--db", str(tmp_path / "demo.db"), "--port", str(port), "--base-url", public + "/"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    try:
        info = json.loads(proc.stdout.readline())
        assert info["url"] == f"{public}/" and info["listening"] == f"http://127.0.0.1:{port}/"
        gid = info["demo"]["game"]
        assert info["demo"]["players"][0]["url"].startswith(f"{public}/games/{gid}/play?code=")
        local = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=local) as arbiter:
            for _ in range(100):
                try:
                    page = arbiter.get("/login")
                    break
                except httpx.ConnectError:
                    time.sleep(0.1)
            token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
            arbiter.post("/login", data={"csrf": token, "name": "arbiter", "password": info["password"]})
            sheet = arbiter.get(f"/games/{gid}/codes").text
        assert f"{public}/games/{gid}/play?code=" in sheet and f"{local}/games/" not in sheet
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(10)


def test_serve_refuses_a_base_url_that_is_not_http(tmp_path):
    result = CliRunner().invoke(cli, ["serve", "--db", str(tmp_path / "g.db"), "--base-url", "scrabble.example.org"])
    assert result.exit_code == 2 and "--base-url" in result.output and "is not an http:// or https://" in result.output
    assert not (tmp_path / "g.db").exists()
