"""Seats that change mid-game (arbitru.formats.duplicate.seats): a late entry, a new name, a withdrawal from a
chosen move and its undo (GR-7), a disqualification and the reinstatement (FISE-18); the phone refuses the slips
of a seat that is out, the verdicts and the results say why a move scores 0."""

from __future__ import annotations

import time

import pytest

from arbitru.formats.duplicate import seats
from arbitru.formats.duplicate.game import GameError, Player, Session, Settings
from arbitru.formats.duplicate.results import compute
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon

LEX = load_lexicon("synthetic:2000", "en")


def game(tmp_path, players=(("1", "Ana"), ("2", "Bo"), ("3", "Cleo"))):  # type: ignore[no-untyped-def]
    settings = Settings(ruleset("fise", moves=6, seconds=60), "en", "synthetic:2000", seed="7")
    j = Journal(str(tmp_path / "g.db"), actor="arbiter")
    return Session.create(j, settings, LEX, [Player(n, name) for n, name in players])


def top(s: Session) -> Slip:
    c = s.candidates()[0]
    return Slip(s.game.move, "", c.placement.coord.format(), s.game.alphabet.format(c.placement.word))


def play_move(s: Session, numbers=("1", "2", "3")) -> int:  # type: ignore[no-untyped-def]
    """Draw, every player in ``numbers`` writes the top move, close: the master's score."""
    s.draw()
    t = top(s)
    s.add_slips([Slip(t.move, n, t.position, t.word) for n in numbers])
    return s.place_master().master.score  # type: ignore[union-attr]


def test_fise_18_a_player_who_leaves_without_telling_is_disqualified_and_his_phone_refused(tmp_path):
    s = game(tmp_path)
    first = play_move(s)
    seats.disqualify(s, "2", reason="left the hall during move 2 without telling the referee")
    s.draw()
    with pytest.raises(seats.SeatClosed, match="disqualified after move 1"):
        s.hand_in(Slip(2, "2", "H8", "AB"), time.time())
    assert (2, "2") not in s.game.slips  # refused: nothing stored
    # a desk still types a paper slip: stored, judged 0 with the reason
    t = top(s)
    (v,) = s.add_slips([Slip(2, "2", t.position, t.word)])
    assert v.codes() == ["disqualified"] and v.score == 0
    s.add_slips([Slip(2, "1", t.position, t.word)])
    s.place_master()
    r = compute(s.game, s.lexicon)
    line = r.line("2")
    assert [m.score for m in line.moves] == [first, 0] and line.moves[1].reasons == ["disqualified"]
    assert r.line("3").moves[1].reasons == ["no-slip"]
    # sole top in move 2 goes to player 1 alone: the disqualified player shares nothing (FISE-11)
    assert r.line("1").moves[1].bonus > 0
    events = [e for e in s.journal.events(s.id, "seat")]
    assert events[-1].actor == "arbiter" and events[-1].payload["change"] == "disqualify"
    assert events[-1].payload["reason"].startswith("left the hall")
    assert seats.status(s.game.players["2"]) == "disqualified"
    with pytest.raises(GameError, match="disqualified already"):
        seats.disqualify(s, "2")


def test_fise_18_reinstated_the_moves_count_again(tmp_path):
    s = game(tmp_path)
    play_move(s)
    seats.disqualify(s, "3", after_move=0)  # left during move 1: move 1 is 0 too
    assert compute(s.game, s.lexicon).line("3").moves[0].reasons == ["disqualified"]
    seats.reinstate(s, "3")
    r = compute(s.game, s.lexicon)
    assert r.line("3").moves[0].score > 0 and seats.status(s.game.players["3"]) == ""
    s.draw()
    assert s.hand_in(Slip(2, "3", "H8", "AB"), time.time()).slip.player == "3"  # his phone is heard again
    with pytest.raises(GameError, match="is in the game"):
        seats.reinstate(s, "3")


def test_gr_7_a_withdrawal_from_a_chosen_move_and_its_undo(tmp_path):
    s = game(tmp_path)
    play_move(s)
    second = play_move(s)
    # he told the referee he left after handing in his move-2 slip, the arbiter records it once move 3 is on
    s.draw()
    seats.withdraw(s, "1", after_move=2)
    r = compute(s.game, s.lexicon)
    assert r.line("1").moves[1].score == second  # the slip handed in before leaving counts
    with pytest.raises(seats.SeatClosed, match="withdrew after move 2"):
        s.hand_in(Slip(3, "1", "H8", "AB"), time.time())
    with pytest.raises(GameError, match="a move between 0 and 3"):
        seats.withdraw(s, "2", after_move=7)
    with pytest.raises(GameError, match="left the game already"):
        seats.withdraw(s, "1")
    seats.reinstate(s, "1")  # undone: he came back
    assert s.game.players["1"].withdrawn_after is None
    assert s.hand_in(Slip(3, "1", "H8", "AB"), time.time()).slip.move == 3
    kinds = [(e.kind, e.payload.get("change")) for e in s.journal.events(s.id) if e.kind in ("withdraw", "seat")]
    assert kinds == [("withdraw", None), ("seat", "reinstate")]


def test_a_late_entry_plays_from_his_first_move_and_scores_0_before(tmp_path):
    s = game(tmp_path)
    play_move(s)
    play_move(s)
    s.draw()  # move 3 is on the stand when he arrives
    p = seats.enter(s, "4", "Dan Late", table="2")
    assert p.entered_at == 3 and seats.status(p) == "late"
    with pytest.raises(seats.SeatClosed, match="you play from move 3"):
        s.hand_in(Slip(2, "4", "H8", "AB"), time.time())
    t = top(s)
    assert not s.hand_in(Slip(3, "4", t.position, t.word), time.time()).late
    s.place_master()
    r = compute(s.game, s.lexicon)
    line = r.line("4")
    assert [m.reasons for m in line.moves[:2]] == [["not-entered"], ["not-entered"]]
    assert line.moves[2].score > 0 and line.player.label() == "4 Dan Late"
    with pytest.raises(GameError, match="number 4 is taken"):
        seats.enter(s, "4", "Eve")
    with pytest.raises(GameError, match="a move between 1 and 4"):
        seats.enter(s, "5", "Eve", from_move=5)


def test_a_new_name_keeps_the_number_the_slips_and_the_old_name(tmp_path):
    s = game(tmp_path)
    first = play_move(s)
    seats.rename(s, "2", "Bogdan Ionescu")
    r = compute(s.game, s.lexicon)
    assert r.line("2").player.label() == "2 Bogdan Ionescu" and r.line("2").moves[0].score == first
    assert s.game.players["2"].former_names == ("2 Bo",)
    assert s.seat("Bogdan Ionescu").number == "2"
    with pytest.raises(GameError, match="the new name"):
        seats.rename(s, "2", "  ")
    # replayed from the journal, the same seats
    again = Session(s.journal, s.id, LEX)
    assert again.game.players == s.game.players
