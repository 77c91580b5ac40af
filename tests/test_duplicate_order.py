"""The order of a duplicate move as a state machine: rack → clock → close (FISE-5, FISE-7, FISE-16, GR-5C)."""

from __future__ import annotations

import pytest

from arbitru.engine.lexicon import Lexicon
from arbitru.engine.tiles import alphabet
from arbitru.formats.duplicate.game import OrderError, Session, Settings
from arbitru.formats.duplicate.order import Action, Phase
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.store import Journal

T0 = 1_000_000.0


def session(rules: str = "fise", lang: str = "es", **kw) -> Session:
    lex = Lexicon.from_words(["CASA", "COSA", "SACO"], alphabet(lang), name="tiny")
    return Session.create(Journal(":memory:"), Settings(ruleset(rules, **kw), lang, "tiny", seed="1"), lex)


def test_FISE_5_rack_then_clock_then_close_each_refusal_names_its_rule():
    s = session()
    assert s.game.order(T0).phase is Phase.RACK_DUE
    with pytest.raises(OrderError, match=r"draw one first \(FISE-7\)"):
        s.clock("start", T0)
    s.draw()
    assert s.game.order(T0).phase is Phase.CLOCK_DUE
    with pytest.raises(OrderError, match=r"has its rack already.*\(FISE-7\)") as refused:
        s.draw()
    assert refused.value.rule == "FISE-7"
    s.clock("start", T0)
    assert s.game.order(T0 + 10).phase is Phase.PLAY
    with pytest.raises(OrderError, match=r"it cannot start \(FISE-5\)"):
        s.clock("start", T0 + 10)
    assert s.game.order(T0 + 180).phase is Phase.TIME_UP
    assert s.game.order(T0 + 180).why_not(Action.CLOSE) is None


def test_FISE_16_no_new_rack_while_the_moves_time_runs():
    s = session()
    s.draw()
    rack, draws = list(s.game.rack), len(s.game.moves[-1].draws)
    s.clock("start", T0)
    with pytest.raises(OrderError, match=r"nobody found a valid move on.*\(FISE-16\)"):
        s.new_rack(now=T0 + 30)
    assert s.game.rack == rack and len(s.game.moves[-1].draws) == draws
    assert s.new_rack(now=T0 + 181).kind in ("rack", "illegal-rack")


def test_GR_5C_the_greek_clock_refusal_cites_the_greek_rule():
    g = Session.create(
        Journal(":memory:"),
        Settings(ruleset("greek", seconds=120), "el", "tiny", seed="1"),
        Lexicon.from_words(["ΑΛΦΑ"], alphabet("el"), name="tiny"),
    )
    g.draw()
    g.clock("start", T0)
    refusal = g.game.order(T0 + 60).why_not(Action.NEW_RACK)
    assert refusal is not None and refusal.rule == "FISE-16" and "GR-5C" in refusal.reason
    assert g.game.order(T0 + 60).why_not(Action.START_CLOCK).rule == "GR-5C"
