"""FISE-16: a new rack sets the old rack's slips aside (kept in the journal, shown, not scored) and puts the
move's clock back to full time, to be started again; a replay from the journal folds to the same state."""

from __future__ import annotations

from arbitru.engine.lexicon import Lexicon
from arbitru.engine.tiles import alphabet
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal

T0 = 1_000_000.0


def test_FISE_16_a_new_rack_sets_the_slips_aside_and_restarts_the_clock(tmp_path):
    lex = Lexicon.from_words(["CASA", "COSA", "SACO"], alphabet("es"), name="tiny")
    j = Journal(str(tmp_path / "g.db"))
    s = Session.create(j, Settings(ruleset("fise", seconds=60), "es", "tiny", seed="1"), lex,
                       [Player("1", "Ana"), Player("2", "Bo")])
    s.draw()
    s.clock("start", T0)
    s.store_slips([Slip(1, "1", "H8", "CASA", 10)])
    s.hand_in(Slip(1, "2", "H8", "COSA", 10), T0 + 120)  # after Time!: late, scores 0 (FISE-5)
    s.clock("stop", T0 + 60)
    old = list(s.game.rack)
    s.new_rack(now=T0 + 200)
    g = s.game
    assert g.rack != old or len(g.moves[-1].draws) > 1
    assert not [k for k in g.slips if k[0] == 1]
    assert sorted(x.player for x in g.set_aside) == ["1", "2"]
    assert g.clock.state == "idle" and g.clock.remaining(T0 + 300) == 60  # full time, not started
    assert len(j.events(s.id, "slip")) == 2  # kept in the journal
    again = Session(j, s.id).game
    assert sorted(x.player for x in again.set_aside) == ["1", "2"] and again.clock.state == "idle"
    s.clock("start", T0 + 400)  # the new rack's time runs from full
    s.store_slips([Slip(1, "1", "H8", "SACO", 10)])
    assert g.slips[(1, "1")].word == "SACO"
