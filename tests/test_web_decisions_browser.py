"""After the close, in a real browser (issue 30): a paper event of 40 players whose clerks type move N's slips while
move N+1 is played, every slip landing in its move (FISE-8; the first and last slips typed at the keyboard, the
others sent by the same form over HTTP); the "all blanks?" question answered with one key; a
desk refused once the arbiter has closed the collection (FISE-17); a claim on move 2 corrected by the arbiter after
move 5, its reason and effect on the results (FISE-17, GR-5D). Each in two languages; screenshots in
``tests/output/``. A reason pasted past what a decision keeps is refused beside the decision form, the form and the
grid's find kept (the console refusals' audit)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect

from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.messages import gettext_for
from arbitru.web import auth
from test_web_browser import browser, new_page, no_horizontal_scroll, shot  # noqa: F401
from web_server import running_server
from web_support import ARBITER_PASSWORD, LEXICON

PLAYERS = 40
T0 = 1_000_000.0


def set_up(db: str) -> None:
    with Journal(db, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, ARBITER_PASSWORD, auth.ARBITER)
        auth.set_password(j, "clerk1", "clerk-pass-1", "desk")


@dataclass(frozen=True)
class Hall:
    """The module's journal (the arbiter's and the clerk's accounts) and its one server; each test plays its own
    game in it, and reads back only that game's events."""

    db: str
    base: str

    def serving(self) -> AbstractContextManager[str]:
        return nullcontext(self.base)


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    db = str(tmp_path_factory.mktemp("decisions") / "paper.db")
    set_up(db)
    with running_server(db) as base:
        yield Hall(db, base)


def paper_game(db: str, lang: str, moves: int = 8) -> str:
    rules = "greek" if lang == "el" else "fise"
    settings = Settings(ruleset(rules, moves=moves, seconds=120), lang, LEXICON, seed="5", title="Paper")
    with Journal(db, actor="arbiter") as j:
        seated = [Player(str(n), f"Player {n}", str((n - 1) // 4 + 1)) for n in range(1, PLAYERS + 1)]
        return Session.create(j, settings, load_lexicon(LEXICON, lang), seated).id


def arbiter_does(db: str, gid: str, *steps: str) -> None:
    """The arbiter's own steps, from his chair (the library the console calls): draw, clock, close."""
    with Journal(db, actor="arbiter") as j:
        s = Session(j, gid)
        s.lexicon = load_lexicon(s.settings.lexicon, s.settings.lang)
        for step in steps:
            if step == "draw":
                s.draw()
            elif step == "clock":
                s.clock("start", T0 + s.game.move * 1000)
            else:
                s.clock("stop", T0 + s.game.move * 1000 + 100)
                s.place_master()


def log_in(page: Page, name: str, password: str) -> None:
    page.goto("/login")
    if name:
        page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.press("input[name=password]", "Enter")


#: the slips typed at the desk's keyboard in the browser (the first ones and the last); the others are sent by
#: the same form over HTTP (its fields, token and session), so 40 slips per move land without 80 page loads
TYPED = (1, 2, 3, PLAYERS)
HANDED_IN = tuple(n for n in range(1, PLAYERS + 1) if n not in TYPED)


def post_slips(page: Page, base: str, gid: str, players: tuple[int, ...], move: int, word: str,
               score: str | None) -> None:
    """The desk form of ``page`` sent for each of ``players`` (move ``move``) as the browser sends it."""
    form = page.locator("form.desk")
    fields = {"csrf": form.locator("input[name=csrf]").input_value(),
              "shown": form.locator("input[name=shown]").input_value(), "move": str(move)}
    for n in players:
        slip = {"player": str(n), "position": "H8", "word": word, **({"score": score} if score is not None else {})}
        r = page.request.post(f"{base}/games/{gid}/desk", form={**fields, **slip}, max_redirects=0)
        assert r.status == 303, (n, r.status, r.text()[:300])


def slips_by_move(db: str, gid: str) -> dict[int, set[str]]:
    with Journal(db) as j:
        out: dict[int, set[str]] = {}
        for e in j.events(gid, "slip"):
            out.setdefault(e.payload["move"], set()).add(e.payload["player"])
        return out


def type_slip(page: Page, player: str, position: str, word: str, score: str | None) -> None:
    page.locator("#desk-player").focus()
    for text in (player, position, word):
        page.keyboard.type(text)
        page.keyboard.press("Enter")
    if score is not None:
        page.keyboard.type(score)
        page.keyboard.press("Enter")


@pytest.mark.parametrize("lang", ["ro", "el"])
def test_FISE_8_a_paper_event_of_40_where_the_clerks_type_move_n_during_move_n_plus_1(browser, hall, lang):  # noqa: F811
    _ = gettext_for(lang)
    db = hall.db
    gid = paper_game(db, lang)
    scored = lang != "el"  # GR-8.1: the Greek slip has no points
    arbiter_does(db, gid, "draw", "clock", "close", "draw", "clock")  # move 1 closed; move 2 played now
    with hall.serving() as base:
        desk = new_page(browser, base, {"width": 1280, "height": 900})
        log_in(desk, "clerk1", "clerk-pass-1")
        desk.goto(f"/games/{gid}")
        # the form says, large, which move its slips go to: move 1, closed, whose paper slips are typed now
        expect(desk.locator("#desk-move .big")).to_have_text(_("Move %(n)s", n=1))
        expect(desk.locator("#desk-move-field")).to_have_value("1")
        shot(desk, f"decisions-desk-move-1-during-2-{lang}")
        for n in TYPED:
            if n == TYPED[-1]:  # the others' slips sent as the same form sends them, then the last one typed
                post_slips(desk, base, gid, HANDED_IN, 1, "AB", "4" if scored else None)
            with desk.expect_navigation():
                type_slip(desk, str(n), "H8", "AB", "4" if scored else None)
            expect(desk.locator("#desk-player")).to_be_focused()
        assert slips_by_move(db, gid) == {1: {str(n) for n in range(1, PLAYERS + 1)}}
        expect(desk.locator("#desk-count")).to_have_text(
            _("%(n)s of %(total)s slips in for move %(move)s", n=PLAYERS, total=PLAYERS, move=1))
        # a slip for move 3, whose rack nobody has seen: refused beside the move field, nothing stored
        desk.fill("#desk-move-field", "3")
        with desk.expect_navigation():
            type_slip(desk, "7", "H8", "AB", "4" if scored else None)
        expect(desk.locator("#move-error")).to_contain_text("FISE-8")
        assert 3 not in slips_by_move(db, gid)
        # the arbiter closes the collection of move 1 from his console
        arbiter = new_page(browser, base, {"width": 1280, "height": 900})
        log_in(arbiter, "", ARBITER_PASSWORD)
        arbiter.goto(f"/games/{gid}")
        with arbiter.expect_navigation():
            arbiter.click("#close-collection")
        arbiter_does(db, gid, "close", "draw", "clock")  # move 2 closed, move 3 played
        desk.goto(f"/games/{gid}")
        expect(desk.locator("#desk-move .big")).to_have_text(_("Move %(n)s", n=2))
        # the "all blanks?" question takes one key, and the next slip's number never lands in this one's score
        desk.locator("#desk-player").focus()
        for text in ("1", "H8", "ab"):
            desk.keyboard.type(text)
            desk.keyboard.press("Enter")
        if scored:
            desk.keyboard.type("22")
            desk.keyboard.press("Enter")
        expect(desk.locator("form.desk [data-asked]")).to_be_visible()
        shot(desk, f"decisions-desk-all-blanks-{lang}")
        desk.keyboard.type("2")  # taken by the question, not by a field
        with desk.expect_navigation():
            desk.keyboard.press("Enter")  # yes: stored as typed
        with Journal(db) as j:
            first = [e.payload for e in j.events(gid, "slip") if e.payload["move"] == 2]
        assert [(p["player"], p["word"], p["score"]) for p in first] == [("1", "ab", 22 if scored else None)]
        for n in TYPED[1:]:
            if n == TYPED[-1]:
                post_slips(desk, base, gid, HANDED_IN, 2, "AB", "4" if scored else None)
            with desk.expect_navigation():
                type_slip(desk, str(n), "H8", "AB", "4" if scored else None)
            expect(desk.locator("#desk-player")).to_be_focused()
        by_move = slips_by_move(db, gid)
        assert by_move[1] == by_move[2] == {str(n) for n in range(1, PLAYERS + 1)} and 3 not in by_move
        # move 1's collection is closed: the desk is refused, nothing stored
        desk.fill("#desk-move-field", "1")
        with desk.expect_navigation():
            type_slip(desk, "5", "H8", "ABC", "9" if scored else None)
        expect(desk.locator("#move-error")).to_contain_text("FISE-17")
        shot(desk, f"decisions-desk-refused-collected-{lang}")
        with Journal(db) as j:
            assert len([e for e in j.events(gid, "slip") if e.payload["move"] == 1]) == PLAYERS
        # a slip for a closed move other than the one the form shows says which move it goes to first
        arbiter_does(db, gid, "close", "draw")  # move 3 closed; move 2 still being collected
        desk.goto(f"/games/{gid}")
        # a slip typed over one stored for a closed move is the arbiter's decision: refused before anything is
        # asked, what the clerk typed kept (the guard audit)
        with Journal(db) as j:
            before = len(j.events(gid))
        with desk.expect_navigation():
            type_slip(desk, "1", "H8", "ABD", "4" if scored else None)
        expect(desk.locator("#move-error")).to_contain_text(
            _("move %(move)s is closed: a slip stored for it changes only by the arbiter's decision with a reason, on "
              "the console's Claims and corrections card", move=2))
        expect(desk.locator("#confirmation")).to_have_count(0)
        expect(desk.locator("form.desk input[name=word]")).to_have_value("ABD")
        shot(desk, f"decisions-desk-closed-stored-refused-{lang}")
        with Journal(db) as j:
            assert len(j.events(gid)) == before
        desk.goto(f"/games/{gid}")
        desk.fill("#desk-move-field", "3")
        with desk.expect_navigation():
            type_slip(desk, "9", "H8", "AB", "4" if scored else None)
        expect(desk.locator("#confirmation")).to_contain_text(
            _("This slip goes to move %(move)s, which is closed: its master move %(master)s is placed; the desk form "
              "showed move %(shown)s.", move=3, master="", shown=2).split(":")[0])
        shot(desk, f"decisions-desk-closed-move-asked-{lang}")
        assert 3 not in slips_by_move(db, gid)
        with desk.expect_navigation():
            desk.click("#confirm-button")
        assert slips_by_move(db, gid)[3] == {"9"}


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_FISE_17_a_claim_on_move_2_corrected_by_the_arbiter_after_move_5_with_its_reason_on_the_results(
        browser, hall, lang):  # noqa: F811
    _ = gettext_for(lang)
    db = hall.db
    gid = paper_game(db, lang)
    lex = load_lexicon(LEXICON, lang)
    with Journal(db, actor="arbiter") as j:
        s = Session(j, gid, lex)
        for move in range(1, 6):
            s.draw()
            s.clock("start", T0 + move * 1000)
            c = s.candidates()[0]
            position = c.placement.coord.format(s.settings.rules.notation)
            word = s.game.alphabet.format(c.placement.word)
            if move == 2:
                top2 = (position, word, c.score)
            j.actor = "desk:clerk1"
            # player 7's move-2 slip typed with the position the wrong way round: 0
            s.store_slips([_slip(move, "7", position[::-1] if move == 2 else position, word, c.score)])
            j.actor = "arbiter"
            s.clock("stop", T0 + move * 1000 + 100)
            s.place_master()
        s.close_collection(5)
    with hall.serving() as base:
        arbiter = new_page(browser, base, {"width": 1280, "height": 900})
        log_in(arbiter, "", ARBITER_PASSWORD)
        results = arbiter.goto(f"/games/{gid}/results")
        assert results is not None
        arbiter.goto(f"/games/{gid}")
        reason = {"fr": "réclamation : le bulletin porte ", "es": "reclamación: la papeleta dice "}[lang] + top2[0]

        def decide(score: str) -> None:
            form = arbiter.locator("form.decide")
            form.locator("input[name=move]").fill("2")
            form.locator("input[name=player]").fill("7")
            form.locator("input[name=position]").fill(top2[0])
            form.locator("input[name=word]").fill(top2[1])
            form.locator("input[name=score]").fill(score)
            form.locator("select[name=rule]").select_option("FISE-17")
            form.locator("input[name=reason]").fill(reason)
            with arbiter.expect_navigation():
                form.locator("button").click()

        # a score no slip could hold is refused beside the decision's form, in the page's language
        decide("-5")
        expect(arbiter.locator("form.decide #decide-error")).to_have_text(
            _("%(text)s is not a whole number from %(low)s to %(high)s", text="'-5'", low=0, high=999_999_999))
        # what the arbiter typed stays, to be corrected rather than typed again
        kept = arbiter.locator("form.decide")
        expect(kept.locator("input[name=word]")).to_have_value(top2[1])
        expect(kept.locator("input[name=reason]")).to_have_value(reason)
        expect(kept.locator("input[name=score]")).to_have_value("-5")
        arbiter.locator("#decide").scroll_into_view_if_needed()
        shot(arbiter, f"decisions-score-refused-{lang}")
        with Journal(db) as j:
            assert not j.events(gid, "decision")
        # the arbiter looks player 7 up in the grid, then pastes a reason far longer than a decision keeps (a
        # report of 5,000 characters): refused beside the decision form in the page's language, never an error
        # page; what he typed comes back to be shortened, and the grid still finds player 7 (the console refusals'
        # audit)
        arbiter.fill("#grid-filter", "7")
        expect(arbiter.locator("#slip-1")).to_be_hidden()
        pasted = ((reason + " ") * 200).strip()
        assert len(pasted) > 5000
        kept.locator("input[name=score]").fill(str(top2[2]))
        kept.locator("input[name=reason]").fill(pasted)
        with arbiter.expect_navigation():
            kept.locator("button").click()
        expect(arbiter.locator("form.decide #decide-error")).to_have_text(
            _("too long: at most %(n)s characters", n=300))
        expect(kept.locator("input[name=reason]")).to_have_value(pasted[:300])
        expect(kept.locator("input[name=word]")).to_have_value(top2[1])
        expect(arbiter.locator("#grid-filter")).to_have_value("7")
        expect(arbiter.locator("#slip-7")).to_be_visible()
        expect(arbiter.locator("#slip-1")).to_be_hidden()
        arbiter.locator("#decide").scroll_into_view_if_needed()
        shot(arbiter, f"decisions-reason-too-long-{lang}")
        arbiter.locator("#grid-filter").scroll_into_view_if_needed()
        shot(arbiter, f"decisions-reason-too-long-find-kept-{lang}")
        with Journal(db) as j:
            assert not j.events(gid, "decision")
        arbiter.fill("#grid-filter", "")
        decide(str(top2[2]))
        # asked first, with the effect on the player's points
        expect(arbiter.locator("#confirmation")).to_contain_text(_(
            "Move %(move)s, player %(player)s: %(old)s (%(before)s points) becomes %(new)s (%(after)s points).",
            move=2, player="7", old=f"{top2[0][::-1]} {top2[1]} {top2[2]}", before=0,
            new=f"{top2[0]} {top2[1]} {top2[2]}", after=top2[2]))
        expect(arbiter.locator("#confirmation")).to_contain_text(reason)
        shot(arbiter, f"decisions-claim-asked-{lang}")
        with Journal(db) as j:
            assert not j.events(gid, "decision")
        with arbiter.expect_navigation():
            arbiter.click("#confirm-button")
        with Journal(db) as j:
            (d,) = j.events(gid, "decision")
            assert d.actor == "arbiter" and d.payload["reason"] == reason and d.payload["move"] == 2
        arbiter.goto(f"/games/{gid}/results")
        table = arbiter.locator("table.decisions")
        expect(table).to_contain_text(reason)
        expect(table).to_contain_text(f"0 → {top2[2]} (+{top2[2]})")
        arbiter.locator("#decisions").scroll_into_view_if_needed()
        shot(arbiter, f"decisions-claim-on-results-{lang}")
        # the decision is reversible by a later one, with its own reason
        arbiter.goto(f"/games/{gid}")
        reverse = arbiter.locator("form.reverse")
        reverse.locator("input[name=reason]").fill("—" + reason)
        with arbiter.expect_navigation():
            reverse.locator("button").click()
        with arbiter.expect_navigation():
            arbiter.click("#confirm-button")
        arbiter.goto(f"/games/{gid}")
        expect(arbiter.locator("#decisions li")).to_have_count(2)
        arbiter.locator("#decide").scroll_into_view_if_needed()
        shot(arbiter, f"decisions-console-card-{lang}")
        arbiter.goto(f"/games/{gid}/results")
        expect(arbiter.locator("table.decisions tr.reversed")).to_have_count(1)
        # the public results on a phone: no horizontal scroll in the decisions
        phone = new_page(browser, base, {"width": 360, "height": 740}, mobile=True)
        phone.goto(f"/games/{gid}/results")
        expect(phone.locator("table.decisions")).to_contain_text(reason)


def _slip(move: int, player: str, position: str, word: str, score: int):  # type: ignore[no-untyped-def]
    from arbitru.formats.duplicate.slips import Slip

    return Slip(move, player, position, word, score)


def test_a_desk_cannot_decide_nor_close_a_collection(browser, hall):  # noqa: F811
    db = hall.db
    gid = paper_game(db, "en")
    arbiter_does(db, gid, "draw", "clock", "close", "draw")
    with hall.serving() as base:
        desk = new_page(browser, base, {"width": 1280, "height": 900})
        log_in(desk, "clerk1", "clerk-pass-1")
        desk.goto(f"/games/{gid}")
        assert desk.locator("form.decide").count() == 0 and desk.locator("#close-collection").count() == 0
        token = desk.locator("form.desk input[name=csrf]").input_value()
        for url, data in ((f"/games/{gid}/decide", {"move": "1", "player": "1", "action": "void", "reason": "x"}),
                          (f"/games/{gid}/collected", {"move": "1"})):
            r = desk.request.post(f"{base}{url}", form={"csrf": token, **data}, max_redirects=0)
            assert r.status in (303, 401, 403), (url, r.status)
        with Journal(db) as j:
            assert not j.events(gid, "decision") and not j.events(gid, "collected")
