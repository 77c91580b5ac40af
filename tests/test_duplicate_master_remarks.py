"""FISE-16: a master move's remarks (a word not in the list, a move weaker than the top score: it stays) are stored
in its journal event as a code and its values, and said in the reader's language (the results page, the printed
results); an older journal's English remark reads as it was written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbitru.engine.lexicon import Lexicon
from arbitru.engine.tiles import alphabet
from arbitru.formats.duplicate import export, master, racks
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.results import compute
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.messages import gettext_for, reader
from web_support import LEXICON, login, make_site

FR = alphabet("fr")
WORDS = ["CASA", "SACA", "AS"]
WEAKER = "weaker than the top score 12: it stays (FISE-16)"


def weaker_master(db: str, lex: Lexicon | None = None) -> str:
    """A game whose first master move (H8 AS, 4) the referee announced weaker than the top (H5 CASA, 12 on the
    tiny list)."""
    lex = lex or Lexicon.from_words(WORDS, FR, name="tiny")
    with Journal(db, actor="arbiter") as j:
        s = Session.create(j, Settings(ruleset("fise"), "fr", lex.name, racks="hand"), lex, [Player("1", "Ana")])
        s.draw(list(racks.parse_tiles(FR, "CASAXYZ")))
        step = s.place_master(move_text="H8 AS")
        assert step.master is not None and step.master.weaker
        return s.id


def replayed(db: str, gid: str) -> Session:
    return Session.open_path(db, gid, Lexicon.from_words(WORDS, FR, name="tiny"))


def test_fise_16_a_weaker_master_moves_remark_is_stored_as_its_code(tmp_path: Path) -> None:
    db = str(tmp_path / "j.db")
    gid = weaker_master(db)
    with Journal(db) as j:
        (event,) = j.events(gid, "master")
    assert event.payload["remarks"] == [{"code": "weaker-than-top", "top": 12}]
    assert "weaker than" not in json.dumps(event.payload) and "stays" not in json.dumps(event.payload)
    (remark,) = replayed(db, gid).game.moves[0].master.remarks
    assert remark == WEAKER  # English as before ...
    said = gettext_for("fr")(remark)
    assert said == "plus faible que le top de 12\u00a0: il reste (FISE-16)"  # ... and said in the reader's
    for lang in ("ro", "es", "pl", "el"):
        assert gettext_for(lang)(remark) not in (WEAKER, said)


def test_fise_16_the_remarks_are_said_in_the_results_language(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    gid = weaker_master(site.db, load_lexicon(LEXICON, "fr"))  # a list the pages can load
    with Journal(site.db) as j:
        (event,) = j.events(gid, "master")
    top = event.payload["top"]
    assert {r["code"] for r in event.payload["remarks"]} >= {"weaker-than-top"}
    s = Session.open_path(site.db, gid, load_lexicon(LEXICON, "fr"))
    result = compute(s.game, s.lexicon)
    token = reader.set("fr")
    try:
        printed = export.text(result)
    finally:
        reader.reset(token)
    weaker = f"plus faible que le top de {top}\u00a0: il reste (FISE-16)"
    assert weaker in printed and "weaker" not in printed
    c = site.client()
    login(c)
    page = c.get(f"/games/{gid}/results").text
    assert '<td class="remarks">' in page and weaker in page and "weaker" not in page


def test_fise_16_an_older_journals_english_remark_reads_as_it_was_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A journal written before the codes holds the remark's English text: it replays, and reads unchanged."""
    db = str(tmp_path / "old.db")
    with monkeypatch.context() as m:
        m.setattr(master, "remark_stored", str)  # the writer of before: the English text
        gid = weaker_master(db)
    with Journal(db) as j:
        (event,) = j.events(gid, "master")
    assert event.payload["remarks"] == [WEAKER]
    (remark,) = replayed(db, gid).game.moves[0].master.remarks
    assert remark == WEAKER and gettext_for("fr")(remark) == WEAKER


@pytest.mark.parametrize("stored", [{"code": "nonsense"}, {"code": "weaker-than-top"}, 7,
                                    {"code": "weaker-than-top", "top": [1]}])
def test_fise_16_a_damaged_remark_is_a_journal_error(stored: object) -> None:
    with pytest.raises(ValueError):
        master.remark_read(stored)
