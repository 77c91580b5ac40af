"""Late and replaced slips shown openly: the anticipation review accepts or refuses a late slip with a reason
(RO-6.5) from selects, no English keyword or event number typed; a duplicate replacement shows both slips on the
console and the phone's receipt; a late slip is said late in the phone's language (FISE-5, GR-5C)."""

from __future__ import annotations

import time

from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.journal.store import Journal
from test_web_anticipation import arbiter, site  # noqa: F401  (the web tests' fixtures)
from web_anticipation_support import create_game, form
from web_support import join, make_game, post


def test_RO_6_5_a_late_slip_is_accepted_or_refused_on_the_review_with_its_reason(site, arbiter):  # noqa: F811
    gid = create_game(site, arbiter)
    for _ in range(16):
        form(arbiter, f"/games/{gid}/announce", {}, f"/games/{gid}")
    form(arbiter, f"/games/{gid}/lot", {"turn": "1", "group": "2", "by": "table", "table": "1"}, f"/games/{gid}")
    AnticipationGame(Journal(site.db, actor="arbiter"), gid).clock("turn 1", "start", time.time() - 8 * 60 - 1)
    body = {"turn": 1, "placements": [{"position": "H7", "word": "AL", "score": 4}], "turn_total": 4}
    r = site.client().post(f"/api/games/{gid}/slips", json=body,
                           headers={"Authorization": f"Bearer {site.code(gid, 'Cleo')}"})
    assert r.status_code == 201 and r.json()["late"] is True
    review = arbiter.get(f"/games/{gid}/review?turn=1").text
    assert 'id="late"' in review and "Carmen Dima" in review and "H7 AL 4" in review
    assert "valid|invalid" not in review and 'name="event" size' not in review  # no keywords, no raw numbers
    assert 'value="Cleo"' in review and "masa 3" in review  # the seated players, by table
    r = form(arbiter, f"/games/{gid}/decide", {"player": "Cleo", "target": "late", "turn": "1", "action": "accept",
                                               "reason": "ceasul sălii a întârziat"}, f"/games/{gid}/review?turn=1")
    assert r.status_code == 303
    (d,) = site.events(gid, "decision")
    assert d.payload["target"] == "late" and d.payload["action"] == "accept"
    assert "Carmen Dima" not in arbiter.get(f"/games/{gid}/review?turn=1").text.split('id="late"')[1].split(
        "</section>")[0]


def test_FISE_5_a_replacement_shows_both_slips_on_the_console_and_the_receipt(site, arbiter):  # noqa: F811
    gid = make_game(site)
    page = f"/games/{gid}"
    phone = site.client()
    join(phone, site, gid, "1")
    post(phone, f"/games/{gid}/slip", {"position": "H8", "word": "ABC", "score": "10", "key": "k1"},
         f"/games/{gid}/play")
    post(phone, f"/games/{gid}/slip", {"position": "H7", "word": "ABD", "score": "12", "key": "k2"},
         f"/games/{gid}/play")
    receipt = phone.get(f"/games/{gid}/play").text.split('id="receipt"')[1].split("</div>")[0]
    assert "ABD" in receipt and "replaced" in receipt and "ABC" in receipt
    row = arbiter.get(f"{page}/grid").text.split('id="slip-1"')[1].split("</tr>")[0]
    assert "ABD" in row and "replaced" in row and "ABC" in row


def test_FISE_5_the_phone_says_a_late_slip_is_late_in_its_language(site):  # noqa: F811
    from arbitru.formats.duplicate.game import Player, Session, Settings
    from arbitru.formats.duplicate.rulesets import ruleset
    from arbitru.lexicons.synthetic import load_lexicon

    settings = Settings(ruleset("fise", moves=3, seconds=60), "ro", "synthetic:2000", seed="1")
    with Journal(site.db, actor="arbiter") as j:
        s = Session.create(j, settings, load_lexicon("synthetic:2000", "ro"), [Player("1", "Ana")])
        s.draw()
        s.clock("start", time.time() - 600)  # the move's minute ran out long ago
        gid = s.id
    phone = site.client()
    join(phone, site, gid, "1")
    assert post(phone, f"/games/{gid}/slip", {"position": "H8", "word": "ABC", "score": "10", "key": "k1"},
                f"/games/{gid}/play").status_code == 303
    receipt = phone.get(f"/games/{gid}/play").text.split('id="receipt"')[1].split("</div>")[0]
    assert "întârziat: predat după timpul mutării, primește 0 puncte" in receipt and "FISE-5" in receipt



def test_RO_5_5_j_a_phone_or_api_slip_after_the_results_is_refused_where_the_form_was_and_nothing_moves(
        site, arbiter):  # noqa: F811
    """The finding "a slip is still taken after the results": a game played from phones keeps its last turn open
    (no hall clock, RO-4.4), so a phone left open, or the API, handed in a slip after the provisional results and
    after the final ranking (303/201, stored, counted). Now each is refused (RO-5.5.j: a contest goes to the chief
    arbiter, RO-6.5), said where the slip form was in the page's language, nothing stored, the totals as published."""
    from web_support import csrf

    gid = create_game(site, arbiter)
    for _ in range(16):
        form(arbiter, f"/games/{gid}/announce", {}, f"/games/{gid}")
    form(arbiter, f"/games/{gid}/lot", {"turn": "1", "group": "2", "by": "table", "table": "1"}, f"/games/{gid}")
    ana, bo = site.client(), site.client()
    join(ana, site, gid, "Ana")
    join(bo, site, gid, "Bo")
    slip = {"turn": "1", "position1": "H7", "word1": "AL", "score1": "4", "total": "4"}
    assert form(ana, f"/games/{gid}/slip", slip, f"/games/{gid}/play").status_code == 303
    # the pages left open on the form of turn 1
    left_open = {bo: csrf(bo.get(f"/games/{gid}/play").text), ana: csrf(ana.get(f"/games/{gid}/play").text)}
    api = {"turn": 1, "placements": [{"position": "H7", "word": "AL", "score": 4}], "turn_total": 4}
    for stage, data in (("provisional", {"deadline": "2099-05-01 18:30"}), ("final", {})):
        r = form(arbiter, f"/games/{gid}/publish", {"stage": stage, **data}, f"/games/{gid}/review")
        assert r.status_code == 303, r.text
        (published,) = [e for e in site.events(gid, "publication") if e.payload["stage"] == stage]
        for phone in (bo, ana):  # a new slip, and a replacement of the one that counts
            r = phone.post(f"/games/{gid}/slip", data={"csrf": left_open[phone], **slip, "word1": "LA"})
            assert r.status_code == 409, (stage, r.status_code)
            said = r.text.split('<section id="slip-form">')[1].split("</section>")[0]
            assert "rezultatele sunt publicate: nu se mai predau fluturași" in said and "RO-5.5.j" in said, stage
            assert 'name="position1"' not in r.text  # no form to hand in again
        for player in ("Bo", "Ana", "Cleo"):
            r = site.client().post(f"/api/games/{gid}/slips", json=api,
                                   headers={"Authorization": f"Bearer {site.code(gid, player)}"})
            assert r.status_code == 409 and r.json()["stored"] is False and "RO-5.5.j" in r.json()["error"], stage
        assert len(site.events(gid, "slip")) == 1, stage
        state = AnticipationGame(Journal(site.db, actor="arbiter"), gid).replay()
        assert {r.player: r.total for r in state.ranking} == published.payload["totals"], stage
