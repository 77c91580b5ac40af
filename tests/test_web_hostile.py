"""Every route and every form field driven with hostile values: no answer is a 5xx, nothing is
stored from a refused request, and the journal's events stored before stay as they were.

The routes come from the app's route table; the field names from the forms of its pages; each request is sent
as the visitor, a joined player, a desk or the arbiter, with that identity's CSRF token so that it reaches the
checks behind the token.
"""

from __future__ import annotations

import re
import sqlite3
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.routing import Route

from test_web_anticipation import desk_client
from test_web_door import anticipation_turn_1
from web_support import csrf, join, make_game, make_site

HOSTILE = [
    "", " ", "0", "-1", "1", "2", "²", "١٢", "①", "1e400", "1e20", "true", "null", "99999999999999999999",
    "A" * 150, "H" * 100, "x" * 3000, "\x00", "A\x00B", "\r", "\n", "1,Ana\r2,Bo", "line\r\nbreak", "\t",
    "<script>alert(1)</script>", "%(n)s", "{{7*7}}", "../../../../etc/passwd", "/etc/passwd", "H8", "8H", "ABC",
    "?", "turn 1", "table ²", "Ana", "arbiter", "fise", "en", "ro", "synthetic:100", "synthetic:99999999999",
    "\u202e", "\ufeff", "\U0001f600",
]
#: routes that stream (server-sent events) or end the session of the client sending them
#: who sends: the arbiter most often, since most forms are his
WHO = ["arbiter", "arbiter", "arbiter", "desk", "dup player", "ant player", "public"]
SKIPPED = ("/events", "/logout")


def _event_rows(db: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as c:
        return c.execute("SELECT game_id, seq, kind, payload, recorded, actor FROM event ORDER BY game_id, seq"
                         ).fetchall() + c.execute("SELECT id, 0, format, settings, created, '' FROM game").fetchall()


def test_hostile_values_in_every_route_and_form_field_no_5xx_nothing_stored_when_refused(tmp_path):
    site = make_site(tmp_path)
    dup = make_game(site, seconds=600)
    arbiter, ant = anticipation_turn_1(site)
    desk = desk_client(site, arbiter)
    dup_player, ant_player = site.client(), site.client()
    join(dup_player, site, dup, "1")
    token_page = csrf(ant_player.get(f"/games/{ant}/play").text)
    r = ant_player.post(f"/games/{ant}/join", data={"csrf": token_page, "code": site.code(ant, "Ana")})
    assert r.status_code == 303
    public = site.client()
    clients = {
        "public": (public, csrf(public.get("/login").text)),
        "arbiter": (arbiter, csrf(arbiter.get("/games/new").text)),
        "desk": (desk, csrf(desk.get(f"/games/{dup}").text)),
        "dup player": (dup_player, csrf(dup_player.get(f"/games/{dup}/play").text)),
        "ant player": (ant_player, csrf(ant_player.get(f"/games/{ant}/play").text)),
    }
    routes = [(method, route.path) for route in site.client_factory.routes if isinstance(route, Route)
              for method in sorted(route.methods or ()) if method in ("GET", "POST")
              and not route.path.endswith(SKIPPED) and not route.path.startswith("/static")]
    assert len(routes) > 60
    # the field names of every form the pages show, to each identity
    pages = [f"/games/{g}{p}" for g in (dup, ant) for p in ("", "/slips", "/review", "/play")]
    pages += ["/", "/games/new", "/anticipation/new", "/train", "/train/anticipation", "/login"]
    names = {n for c, _ in clients.values() for p in pages for n in re.findall(r'name="(\w+)"', c.get(p).text)}
    names -= {"csrf"}
    assert {"position", "word", "score", "players", "title", "table", "turn", "key"} <= names

    fields = st.dictionaries(st.sampled_from(sorted(names)), st.sampled_from(HOSTILE) | st.text(max_size=12),
                             max_size=6)

    @settings(max_examples=300, suppress_health_check=list(HealthCheck), deadline=None)
    @given(route=st.sampled_from(routes), who=st.sampled_from(WHO), game=st.sampled_from([dup, ant]),
           path_value=st.sampled_from([*HOSTILE[:20], "game.gcg", "results.csv", "results.pdf", "1", "Ana"]),
           data=fields)
    def send(route: tuple[str, str], who: str, game: str, path_value: str, data: dict[str, str]) -> None:
        method, path = route
        url = path.replace("{gid}", game)
        url = re.sub(r"\{\w+\}", quote(path_value, safe="") or "x", url)
        if method == "POST" and path.endswith(("/join", "/login")):
            who = "public"  # a joined or signed-in client that signs in again would become someone else
        client, token = clients[who]
        before = _event_rows(site.db)
        r = client.get(url, params=data) if method == "GET" else client.post(url, data={"csrf": token, **data})
        assert r.status_code < 500, (method, url, who, data, r.status_code, r.text[:300])
        after = _event_rows(site.db)
        if r.status_code >= 400:
            assert after == before, (method, url, who, data, r.status_code)
        else:
            assert set(before) <= set(after), (method, url, who, data)

    send()
