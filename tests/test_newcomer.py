"""A newcomer's first minutes: the console address ``serve --demo`` prints takes an arbiter who is not logged in
to the login form, in the game's language, and back to the console after it; the demo game is made once and
named in its language; ``codes`` prints the address the server was started with; the secret beside the journal
is ignored by git."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from click.testing import CliRunner

from arbitru.cli import cli
from arbitru.cli.web import DEMO_GAME, make_demo
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.web import auth
from web_support import ARBITER_PASSWORD, LEXICON, csrf, make_game, make_site

ROOT = Path(__file__).resolve().parent.parent


def romanian_game(site) -> str:  # type: ignore[no-untyped-def]
    lex = load_lexicon(LEXICON, "ro")
    settings = Settings(ruleset("romanian", moves=5), "ro", LEXICON, seed="7")
    with Journal(site.db, actor="arbiter") as j:
        return Session.create(j, settings, lex, [Player("1", "Ana")]).id


def test_the_console_address_asks_a_visitor_to_log_in_in_the_games_language_then_comes_back(tmp_path):
    site = make_site(tmp_path)
    gid = romanian_game(site)
    c = site.client()
    page = c.get(f"/games/{gid}")
    assert page.status_code == 401  # still refused: the body is the way in, not the console
    assert "Autentificare" in page.text and "Log in" not in page.text
    assert f'name="next" value="/games/{gid}"' in page.text
    r = c.post(re.search(r'<form method="post" action="([^"]+)"', page.text).group(1),  # type: ignore[union-attr]
               data={"csrf": csrf(page.text), "name": "arbiter", "password": ARBITER_PASSWORD,
                     "next": f"/games/{gid}"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/games/{gid}"
    assert c.get(f"/games/{gid}").status_code == 200


def test_a_wrong_password_on_the_way_in_keeps_the_page_to_come_back_to(tmp_path):
    site = make_site(tmp_path)
    gid = romanian_game(site)
    c = site.client()
    page = c.get(f"/games/{gid}")
    form = re.search(r'<form method="post" action="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
    wrong = c.post(form, data={"csrf": csrf(page.text), "name": "arbiter", "password": "nope-nope-nope",
                               "next": f"/games/{gid}"})
    assert wrong.status_code == 401 and f'name="next" value="/games/{gid}"' in wrong.text
    assert "nume sau parolă greșită" in wrong.text  # the game's language survives the refusal
    r = c.post(form, data={"csrf": csrf(wrong.text), "name": "arbiter", "password": ARBITER_PASSWORD,
                           "next": f"/games/{gid}"}, follow_redirects=False)
    assert r.headers["location"] == f"/games/{gid}"


def test_a_login_never_sends_the_arbiter_to_another_site(tmp_path):
    site = make_site(tmp_path)
    for hostile in ("//evil.example/", "https://evil.example/", "/\\evil.example", "/x\r\nSet-Cookie: a=b",
                    "javascript:alert(1)"):
        c = site.client()
        token = csrf(c.get("/login").text)
        r = c.post("/login", data={"csrf": token, "name": "arbiter", "password": ARBITER_PASSWORD,
                                   "next": hostile}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/", hostile


def test_the_api_still_answers_401_as_json_not_a_form(tmp_path):
    site = make_site(tmp_path)
    gid = make_game(site)
    r = site.client().post(f"/api/games/{gid}/slips", json={"move": 1})
    assert r.status_code == 401 and r.headers["content-type"].startswith("application/json")


def test_serve_demo_makes_the_demo_game_once_titled_in_its_language(tmp_path):
    db = str(tmp_path / "demo.db")
    first = make_demo(db, "synthetic:500")
    again = make_demo(db, "synthetic:500")
    assert first == again == DEMO_GAME
    with Journal(db) as j:
        games = j.games()
    assert [g.id for g in games] == [DEMO_GAME]
    assert games[0].settings["title"] == "Partidă demonstrativă" and games[0].settings["lang"] == "ro"


def test_codes_print_the_address_the_server_was_started_with(tmp_path):
    site = make_site(tmp_path)
    gid = make_game(site)
    runner = CliRunner()
    default = runner.invoke(cli, ["duplicate", "codes", gid, "--db", site.db])
    assert default.exit_code == 0 and "http://127.0.0.1:8000/games/" in default.output
    with Journal(site.db) as j:
        auth.remember_address(j, "http://192.168.1.20:8080/")
    served = runner.invoke(cli, ["duplicate", "codes", gid, "--db", site.db])
    assert served.exit_code == 0, served.output
    assert f"http://192.168.1.20:8080/games/{gid}/play?code=" in served.output
    given = runner.invoke(cli, ["duplicate", "codes", gid, "--db", site.db, "--base-url", "https://s.example.org"])
    assert f"https://s.example.org/games/{gid}/play?code=" in given.output


def test_the_secret_beside_the_default_journal_is_ignored_by_git():
    for name in ("arbitru.db", "arbitru.db.secret", "hall.db.secret"):
        r = subprocess.run(["git", "check-ignore", "-q", name], cwd=ROOT)
        assert r.returncode == 0, f"{name} is not ignored by git"


def test_a_new_duplicate_game_says_how_to_draw_and_ties_before_a_rack_says_it_too(tmp_path):
    db = str(tmp_path / "d.db")
    runner = CliRunner()
    new = runner.invoke(cli, ["duplicate", "new", "--db", db, "--lexicon", "synthetic:500", "--seed", "1"])
    assert new.exit_code == 0 and "'arbitru duplicate next' draws the first one" in new.output
    ties = runner.invoke(cli, ["duplicate", "ties", "--db", db])
    assert ties.exit_code == 2 and "'arbitru duplicate next' draws it" in ties.output
    assert runner.invoke(cli, ["duplicate", "next", "--db", db]).exit_code == 0
    assert runner.invoke(cli, ["duplicate", "ties", "--db", db]).exit_code == 0


def test_anticipation_correct_and_results_of_a_game_without_slips_say_so(tmp_path):
    db = str(tmp_path / "a.db")
    runner = CliRunner()
    assert runner.invoke(cli, ["anticipation", "new", "--seed", "7", "--id", "h2", "--db", db]).exit_code == 0
    for command in ("correct", "results"):
        out = runner.invoke(cli, ["anticipation", command, "h2", "--db", db])
        assert out.exit_code == 0 and "no slips yet: 'arbitru anticipation slips h2 FILE.csv'" in out.output


def test_next_years_list_imported_into_a_new_home_builds_that_list_only(tmp_path):
    """The README's "Next year's list" through the real launcher (``./arbitru``, whose set-up installs the nine
    built-in lists into a new home before any other command): a ``lexicon`` command builds its own list and nothing
    else, so importing into a new home takes a second, not minutes."""
    import os
    import sys

    words = tmp_path / "loc-7.0.txt"
    words.write_text("șah\nșa\nșahul\nx\n", encoding="utf-8")
    home = tmp_path / "home"
    env = {**os.environ, "ARBITRU_HOME": str(home), "ARBITRU_VENV": str(Path(sys.executable).parent.parent)}
    done = subprocess.run([str(ROOT / "arbitru"), "lexicon", "import", str(words), "--lang", "ro", "--name",
                           "loc-7.0", "--official", "--default"], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"loc-7.0 ({words}, official, 3 words): 4 entries")
    assert "building from" not in done.stderr  # no built-in list was fetched or compiled
    assert sorted(p.name for p in home.iterdir()) == ["lexicons"]  # no word packages, no htmx fetched either
    assert sorted(p.name for p in (home / "lexicons").iterdir()) == ["_defaults.json", "loc-7.0.json", "loc-7.0.kwg"]
    listed = subprocess.run([str(ROOT / "arbitru"), "lexicon", "list"], env=env, capture_output=True, text=True,
                            timeout=120).stdout
    assert re.search(r"^loc-7\.0\s+ro\s+yes\s+yes\s+3\s", listed, re.M) and listed.count("(not installed)") == 9
