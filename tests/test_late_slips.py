"""Late and replaced slips handled openly: a slip after time is stored marked late and scored as the rule set
says (FISE-5, GR-5C: 0; RO-6.5: the arbiter accepts or refuses it, a decision with its reason); a replacement
keeps both slips in the journal and its receipt names the one it replaces."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from anticipation_support import WORDS_RO, new_game
from arbitru.cli import cli
from arbitru.engine.lexicon import Lexicon
from arbitru.formats.anticipation.slips import Slip as PaperSlip
from arbitru.formats.anticipation.slips import SlipRow
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.results import compute
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from test_anticipation_correction import GROUPS
from test_duplicate_slips import ES, LEX, tiles

T0 = 1_000_000.0
SEATING = [("Ana", 1, "Ana Pop"), ("Dan", 2, "Dan Ion")]


def duplicate(rules: str, lang: str = "es", lexicon: Lexicon = LEX, rack: str = "CASAXYZ") -> Session:
    s = Session.create(
        Journal(":memory:"),
        Settings(ruleset(rules, **({"seconds": 120} if rules == "greek" else {})), lang, "tiny", racks="hand"),
        lexicon,
        [Player("1", "Ana"), Player("2", "Ion")],
    )
    s.draw(tiles(ES, rack))
    return s


def test_FISE_5_a_late_slip_is_stored_marked_late_scores_0_and_never_replaces_one_in_time():
    s = duplicate("fise")
    s.clock("start", T0)
    first = s.hand_in(Slip(1, "1", "H5", "CASA", 12), T0 + 10)
    assert not first.late and first.replaces is None
    again = s.hand_in(Slip(1, "1", "H6", "CASA", 12), T0 + 20)  # on time: replaces the first, both kept
    assert again.replaces == first.seq and not again.kept_apart
    late = s.hand_in(Slip(1, "1", "H5", "SACA", 12), T0 + 181)
    assert late.late and late.kept_apart and late.replaces == again.seq
    alone = s.hand_in(Slip(1, "2", "H5", "CASA", 12), T0 + 190)
    assert alone.late and not alone.kept_apart
    assert [e.payload["late"] for e in s.journal.events(s.id, "slip")] == [False, False, True, True]
    s.place_master()
    r = compute(s.game, LEX)
    assert r.line("1").points == 12  # the slip in time counts; the late one is kept apart
    assert r.line("2").points == 0 and r.line("2").moves[0].reasons == ["late"]


def test_GR_5C_a_late_slip_scores_0():
    s = duplicate("greek")
    s.clock("start", T0)
    receipt = s.hand_in(Slip(1, "2", "H5 O", "CASA", 12), T0 + 120)  # its own notation: an unreadable one is refused
    assert receipt.late and "late" in receipt.text()
    s.place_master()
    assert compute(s.game, LEX).line("2").points == 0


def _slip(player: str, word: str = "AL", score: str = "4") -> PaperSlip:
    row = SlipRow(line=1, table="1", turn="1", position="H7", word=word, score=score)
    return PaperSlip(player, 1, [row], source="web", written_turn="1")


def test_RO_6_5_a_late_slip_counts_only_once_the_arbiter_accepts_it_with_a_reason(tmp_path):
    from test_anticipation_correction import AL

    game = new_game(tmp_path, GROUPS, [2], seating=SEATING)
    game.clock("turn 1", "start", T0)
    receipt = game.hand_in(_slip("Ana", AL[4], str(AL[5])), T0 + 8 * 60 + 1)
    assert receipt.late and receipt.replaces is None
    state = game.replay()
    assert state.results["Ana"].total == 0 and [e.seq for e in state.late_undecided()] == [receipt.seq]
    with pytest.raises(Exception, match=r"Dan handed in no slip after the time of turn 1 \(RO-6.5\)"):
        game.decide("Dan", "late", "accept", "the clock was wrong", turn=1)
    game.decide("Ana Pop", "late", "accept", "the hall clock was fast", turn=1)
    state = game.replay()
    assert state.results["Ana"].total == int(AL[5]) and state.late == [] and state.late_undecided() == []
    game.decide("Ana", "late", "refuse", "on review: the slip came after Stop", turn=1)
    state = game.replay()
    assert state.results["Ana"].total == 0 and [e.seq for e in state.late] == [receipt.seq]
    assert [d.action for d in state.decisions] == ["accept", "refuse"]  # every decision kept with its reason


def test_RO_6_5_a_late_slip_does_not_replace_the_one_in_time_and_the_receipt_names_it(tmp_path):
    game = new_game(tmp_path, GROUPS, [2], seating=SEATING)
    game.clock("turn 1", "start", T0)
    first = game.hand_in(_slip("Ana"), T0 + 60)
    second = game.hand_in(_slip("Ana", "LA"), T0 + 120)
    assert second.replaces == first.seq and not second.late
    late = game.hand_in(_slip("Ana", "ALA"), T0 + 9 * 60)
    assert late.late and late.kept_apart and late.replaces == second.seq
    state = game.replay()
    assert state.slips[("Ana", 1)].seq == second.seq and state.slips[("Ana", 1)].replaces == [first.seq]
    assert len(game.journal.events(game.id, "slip")) == 3


def test_RO_6_5_the_cli_decides_on_a_late_slip(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.txt").write_text(" ".join(WORDS_RO), "utf-8")
    game = new_game(tmp_path, GROUPS, [2], seating=SEATING)
    game.clock("turn 1", "start", T0)
    game.hand_in(_slip("Dan"), T0 + 8 * 60)
    db = str(tmp_path / "games.db")
    args = ["anticipation", "decide", game.id, "Dan Ion", "--target", "late", "--action", "accept", "--turn", "1"]
    result = CliRunner().invoke(cli, [*args, "--reason", "the bell rang late", "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["player"] == "Dan"


def test_RO_5_5_j_a_slip_handed_in_after_the_results_are_published_is_refused_and_the_results_stay(tmp_path):
    """The finding "a phone's slip is still taken after the results": a game played from phones with no hall
    clock (RO-4.4) keeps its last lot open, so a slip after the provisional results, or after the final ranking,
    was stored in time and counted (or replaced the one that did). Once results are published slips are over
    (RO-5.4.m, RO-5.5.j): a player's recourse is a contest to the chief arbiter (RO-6.5); the slip is refused,
    nothing is stored, the published totals stay."""
    from arbitru.errors import ArbitruError
    from arbitru.formats.anticipation.order import OrderError
    from test_anticipation_correction import AL

    game = new_game(tmp_path, GROUPS, [2], seating=SEATING)  # no timer: turn 1 stays open until published
    game.hand_in(_slip("Ana", AL[4], str(AL[5])), T0)
    game.publish("provisional", "18:30", now=T0 + 60, confirmed=True)
    totals = {r.player: r.total for r in game.replay().ranking}
    assert totals == {"Ana": int(AL[5]), "Dan": 0}
    for stage in ("provisional", "final"):
        if stage == "final":
            game.publish("final", confirmed=True, now=T0 + 120)
        for late in (_slip("Dan", AL[4], str(AL[5])), _slip("Ana", "ALA", "9")):  # a new slip, a replacement
            with pytest.raises(OrderError, match=r"the results are published.*\(RO-5\.5\.j\)") as refused:
                game.hand_in(late, T0 + 200)
            assert refused.value.rule == "RO-5.5.j", stage
        assert len(game.journal.events(game.id, "slip")) == 1, stage
        assert {r.player: r.total for r in game.replay().ranking} == totals, stage
    with pytest.raises(ArbitruError, match=r"a slip changes only by a decision .*\(RO-6\.5\)"):  # nor a desk, a file
        game.enter_slips([_slip("Dan", AL[4], str(AL[5]))], replace=True)
    assert len(game.journal.events(game.id, "slip")) == 1


def test_RO_5_4_m_a_slip_after_the_last_turns_stop_is_stored_late_until_the_results_are_published(tmp_path):
    """After the Stop of a turn (RO-5.4.m, RO-5.5.c) a slip is stored flagged late and counts only once the
    arbiter accepts it (RO-6.5); the same slip after the provisional results is refused (RO-5.5.j)."""
    from arbitru.formats.anticipation.order import OrderError

    game = new_game(tmp_path, GROUPS, [2], seating=SEATING)
    game.clock("turn 1", "start", T0)
    late = game.hand_in(_slip("Ana"), T0 + 8 * 60 + 5)
    assert late.late and [e.seq for e in game.replay().late_undecided()] == [late.seq]
    game.publish("provisional", "18:30", now=T0 + 900, confirmed=True)
    with pytest.raises(OrderError, match=r"RO-5\.5\.j"):
        game.hand_in(_slip("Dan"), T0 + 901)
    assert [e.payload["player"] for e in game.journal.events(game.id, "slip")] == ["Ana"]
