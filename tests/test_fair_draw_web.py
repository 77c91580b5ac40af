"""A running game serves nothing that gives its draws away (issue 28; RO-4.4, RO-5.3, FISE-10, FISE-16).

Each format's game is created through its web form with the seed left empty, played a little (racks, a new rack,
lots), and every page, fragment, API answer and export of it is collected while it runs, with the CLI's outputs
meant for others and the server's log: none holds the game's secret, nor any key or bits derived from it that
predict a draw. The commitment is on the results page and in the API; the journal download waits for the final
results. Once they are final the secret is there, and it is the one committed to.
"""

from __future__ import annotations

import hashlib
import json
import logging

from click.testing import CliRunner

from arbitru.cli import cli
from arbitru.formats import fairness
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.formats.duplicate.game import Session
from arbitru.journal import sealed
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from web_anticipation_support import SEATING, form, imported_words  # noqa: F401
from web_support import LEXICON, csrf, join, login, make_site, post


def needles(gid: str, secret: str, labels: list[str]) -> list[str]:
    """The secret and what is derived from it that predicts a draw: each draw's key and the first bits of its
    stream, in hex (and the secret in upper case, and as the decimal number it is)."""
    seal = fairness.Seal(gid, secret)
    found = [secret, secret.upper(), str(int(secret, 16))]
    for label in labels:
        key = seal.key(label)
        found.append(key.hex())
        found.append(fairness.HmacStream(key).getrandbits(256).to_bytes(32, "big").hex())
    return found


def labels_of(db: str, gid: str) -> list[str]:
    with Journal(db) as j:
        return [str(e.payload["label"]) for e in j.events(gid) if e.kind in ("draw", "lot") and e.payload.get("label")]


def cli_output(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def assert_nothing_gives_it_away(served: dict[str, str], gid: str, secret: str, labels: list[str]) -> None:
    assert labels, "the game has draws the program made"
    for what, text in served.items():
        for needle in needles(gid, secret, labels):
            assert needle not in text, f"{what} gives the secret away ({needle[:12]}…)"


def test_ro_4_4_fise_16_nothing_served_while_a_duplicate_game_runs_holds_its_secret(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    r = post(arbiter, "/games/new", {"players": "1,Ana\n2,Bo", "lexicon": LEXICON, "rules": "fise", "lang": "en",
                                     "moves": "6", "seconds": "60", "seed": ""}, "/games/new")
    assert r.status_code == 303, getattr(r, "text", "")
    gid = str(r.headers["location"]).rsplit("/", 1)[1]  # type: ignore[attr-defined]
    console = f"/games/{gid}"
    assert post(arbiter, f"{console}/draw", {"new": "0"}, console).status_code == 303  # type: ignore[attr-defined]
    assert post(arbiter, f"{console}/draw", {"new": "1"}, console).status_code == 303  # type: ignore[attr-defined]
    assert post(arbiter, f"{console}/close", {}, console).status_code == 303  # type: ignore[attr-defined]
    assert post(arbiter, f"{console}/draw", {"new": "0"}, console).status_code == 303  # type: ignore[attr-defined]
    with Journal(site.db) as j:
        secret = sealed.secret_of(j, gid)
        commitment = j.game(gid).settings["commitment"]
        assert secret is not None and Session(j, gid).game.phase == "play"
    sources = [e.payload["source"] for e in site.events(gid, "draw")]
    assert "new-rack" in sources  # FISE-16: the new rack came from the secret too

    phone = site.client()
    join(phone, site, gid, "1")
    public = site.client()
    served: dict[str, str] = {}
    for path in ("", "/screen", "/screen/live", "/grid", "/results", "/results/live", "/download/results.csv",
                 "/download/moves.csv", "/download/game.gcg", "/codes"):
        got = arbiter.get(console + path)
        assert got.status_code == 200, (path, got.status_code)
        served["arbiter " + path] = got.text
    for path in ("/play", "/play/live"):
        got = phone.get(console + path)
        assert got.status_code == 200, path
        served["phone " + path] = got.text
    for path in (f"/games/{gid}/results", f"/games/{gid}/screen", f"/api/games/{gid}", "/", "/standings",
                 f"/games/{gid}/journal.jsonl"):
        got = public.get(path)
        served["public " + path] = got.text
    assert public.get(f"/games/{gid}/journal.jsonl").status_code == 404  # published once the results are final
    db = site.db
    served["cli show"] = cli_output("duplicate", "show", "-j", db, "-g", gid, "--json")
    served["cli results"] = cli_output("duplicate", "results", "-j", db, "-g", gid, "--json")
    served["cli export"] = cli_output("journal", "export", db, "--game", gid)
    served["cli verify"] = CliRunner().invoke(cli, ["journal", "verify-draw", db, gid]).output
    served["log"] = caplog.text
    assert_nothing_gives_it_away(served, gid, secret, labels_of(db, gid))

    # the commitment is published while it runs: on the results page and in the API
    assert commitment in served[f"public /games/{gid}/results"]
    draw = json.loads(served[f"public /api/games/{gid}"])["draw"]
    assert draw == {"kind": "secret", "drawn": "racks", "commitment": commitment, "secret": None, "seed": None,
                    "note": None, "verify": None}

    # the game ends: the secret is shown, and it is the one committed to
    with Journal(db, actor="arbiter") as j:
        s = Session(j, gid, load_lexicon(LEXICON, "en"))
        s.end_game("done")
    draw = public.get(f"/api/games/{gid}").json()["draw"]
    assert draw["secret"] == secret
    assert hashlib.sha256(f"{gid}:{draw['secret']}".encode()).hexdigest() == commitment
    page = public.get(f"/games/{gid}/results").text
    assert secret in page and f"arbitru journal verify-draw {gid}.jsonl {gid}" in page
    journal = public.get(f"/games/{gid}/journal.jsonl")
    assert journal.status_code == 200 and json.loads(journal.text.splitlines()[0])["secret"] == secret
    (tmp_path / f"{gid}.jsonl").write_text(journal.text, "utf-8")
    out = CliRunner().invoke(cli, ["journal", "verify-draw", str(tmp_path / f"{gid}.jsonl"), gid]).output
    assert "every draw the program made matches" in out, out


def test_ro_4_4_ro_5_3_nothing_served_while_an_anticipation_game_runs_holds_its_secret(tmp_path, caplog):
    from anticipation_support import lexicon

    caplog.set_level(logging.DEBUG)
    lexicon()  # registers "test-ro" in this process
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    token = csrf(arbiter.get("/anticipation/new").text)
    r = arbiter.post("/anticipation/new", data={"csrf": token, "variant": "classic", "lexicon": "test-ro",
                                                "source": "seed", "seed": "", "seating": "tables",
                                                "players": SEATING})
    assert r.status_code == 303, r.text
    gid = str(r.headers["location"]).rsplit("/", 1)[1]
    console = f"/games/{gid}"
    for _ in range(3):  # RO-4.4: an untimed game's lots, drawn one by one by the program
        assert form(arbiter, f"{console}/lot", {}, console).status_code == 303
    with Journal(site.db) as j:
        game = AnticipationGame(j, gid)
        secret = sealed.secret_of(j, gid)
        assert secret is not None and game.settings.seed is None and not game.finished()
        assert game.draw().method == "secret"  # type: ignore[union-attr]
        commitment = game.settings.commitment
        seat = next(iter(game.replay().seating))

    served: dict[str, str] = {}
    for path in ("", "/screen", "/screen/live", "/results", "/slips", "/review", f"/board/{seat}",
                 f"/sheet/{seat}", "/forms/ranking.html", "/forms/ranking.csv", "/forms/results.html", "/codes"):
        got = arbiter.get(console + path)
        served["arbiter " + path] = got.text
    public = site.client()
    for path in (f"/games/{gid}/results", f"/games/{gid}/screen", f"/api/games/{gid}", "/anticipation",
                 f"/games/{gid}/play", f"/games/{gid}/journal.jsonl"):
        served["public " + path] = public.get(path).text
    assert public.get(f"/games/{gid}/journal.jsonl").status_code == 404
    db = site.db
    served["cli show"] = cli_output("anticipation", "show", gid, "--db", db, "--json")
    served["cli export"] = cli_output("journal", "export", db, "--game", gid)
    served["log"] = caplog.text
    labels = [*labels_of(db, gid), fairness.GROUPS_LABEL]
    assert_nothing_gives_it_away(served, gid, secret, labels)
    assert commitment in served[f"public /games/{gid}/results"]
    assert json.loads(served[f"public /api/games/{gid}"])["draw"]["commitment"] == commitment

    with Journal(db, actor="arbiter") as j:
        g = AnticipationGame(j, gid)
        g.draw_all_lots()
        assert public.get(f"/api/games/{gid}").json()["draw"]["secret"] is None  # every lot out, not final yet
        g.publish("final", confirmed=True)
    draw = public.get(f"/api/games/{gid}").json()["draw"]
    assert draw["secret"] == secret and fairness.commitment(gid, secret) == commitment
    assert secret in public.get(f"/games/{gid}/results").text


def test_ro_5_3_a_typed_seed_is_marked_on_the_console_the_projection_and_the_results(tmp_path):
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    r = post(arbiter, "/games/new", {"players": "1,Ana", "lexicon": LEXICON, "rules": "fise", "lang": "es",
                                     "seed": "2026"}, "/games/new")
    gid = str(r.headers["location"]).rsplit("/", 1)[1]  # type: ignore[attr-defined]
    said = "sorteo con una semilla conocida: quien la conozca conoce los atriles"  # the game's language
    for path in ("", "/screen", "/results"):
        page = arbiter.get(f"/games/{gid}{path}").text
        assert said in page, path
    assert site.client().get(f"/api/games/{gid}").json()["draw"]["note"] == fairness.KNOWN_SEED


def test_fise_16_a_hall_games_new_rack_with_no_tiles_is_refused_beside_the_field(tmp_path):
    """Issue 30, item 7: the program never draws a hand-drawn game's rack."""
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    r = post(arbiter, "/games/new", {"players": "1,Ana", "lexicon": LEXICON, "rules": "fise", "lang": "en",
                                     "racks": "hand"}, "/games/new")
    gid = str(r.headers["location"]).rsplit("/", 1)[1]  # type: ignore[attr-defined]
    console = f"/games/{gid}"
    assert post(arbiter, f"{console}/draw", {"new": "0", "tiles": "AEINRST"}, console).status_code == 303  # type: ignore[attr-defined]
    got = post(arbiter, f"{console}/draw", {"new": "1", "tiles": ""}, console, confirm=False)
    assert got.status_code == 422, got.status_code  # type: ignore[attr-defined]
    assert 'id="tiles-error"' in got.text and "enter the tiles drawn in the hall" in got.text  # type: ignore[attr-defined]
    assert 'name="confirm"' not in got.text  # type: ignore[attr-defined]
    assert len(site.events(gid, "draw")) == 1  # nothing drawn
