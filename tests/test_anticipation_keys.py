"""An anticipation slip sent twice is one slip, and a key never hides a different slip (RO-3.3: a slip per turn).

A slip handed in with the sender's idempotency key (the API's ``Idempotency-Key``, the phone form's hidden ``key``,
one per rendering of the form) and sent again with it, its first answer lost, gets its first receipt and stores
nothing; the same key with another slip (another turn, other placements, another total or note) is refused,
naming the field ``key``, nothing stored: the first receipt would tell the sender that a slip is in that is not.
The core, on a real journal (SQLite, then PostgreSQL) and on a fresh game object, as after a restart; the API and
the phone's form: ``test_web_anticipation_keys.py``.
"""

from __future__ import annotations

import pytest

from anticipation_support import new_game
from arbitru.formats.anticipation import game as anticipation_game
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.formats.anticipation.slips import Slip, SlipRow
from arbitru.formats.receipt import KEY_FORM, KEY_REUSED, KeyReused
from arbitru.journal.store import Journal
from arbitru.messages import Text
from arbitru.textinput import LIMITS, InputError
from test_anticipation_correction import GROUPS

T0 = 1_000_000.0
SEATING = [("Ana", 1, "Ana Pop"), ("Dan", 2, "Dan Ion")]
#: turn 1 of Ana's, as her phone writes it: group 1's placement, the 7-letter group's, the total and a note
PLACED = (("H7", "AL", "4"), ("7G", "BAT", "21"))


def slip(turn: int = 1, placements: tuple[tuple[str, str, str], ...] = PLACED, total: str = "25", note: str = "",
         player: str = "Ana") -> Slip:
    """A slip as :func:`arbitru.web.anticipation_pages.browser_slip` makes it (a new object each time)."""
    rows = placements or (("", "", ""),)
    return Slip(player, turn, [
        SlipRow(line=i, table="1", turn=str(turn), position=p, word=w, score=s,
                turn_total=total if i == 1 else "", note=note if i == 1 else "")
        for i, (p, w, s) in enumerate(rows, 1)
    ], source="web", written_turn=str(turn))


def slips(game: AnticipationGame) -> list[tuple[int, object]]:
    return [(e.seq, e.payload) for e in game.journal.events(game.id, "slip")]


@pytest.fixture
def game(tmp_path):  # type: ignore[no-untyped-def]
    """Turn 1 drawn, its time running (8 minutes, RO-4.3)."""
    g = new_game(tmp_path, GROUPS, [2], seating=SEATING)
    g.clock("turn 1", "start", T0)
    return g


# --- the core: AnticipationGame.hand_in ------------------------------------------------------------------------


def test_RO_3_3_the_same_slip_sent_again_with_its_key_gets_its_first_receipt_and_stores_nothing(game):
    first = game.hand_in(slip(), T0 + 60, "phone-ana-1")
    before = slips(game)
    again = game.hand_in(slip(), T0 + 70, "phone-ana-1")
    assert again == first and slips(game) == before and len(before) == 1
    assert game.replay().slips[("Ana", 1)].seq == first.seq


@pytest.mark.parametrize("other", [
    slip(turn=2, placements=(("H6", "CAL", "3"),), total="3"),  # another turn
    slip(placements=(("H7", "AL", "4"), ("7G", "BAT", "22"))),  # another score
    slip(placements=(("H7", "AL", "4"), ("G7", "BAT", "21"))),  # another position
    slip(placements=(("H7", "AL", "4"), ("7G", "BUT", "21"))),  # another word
    slip(placements=(("H7", "AL", "4"),), total="4"),  # a placement fewer
    slip(total="26"),  # another total
    slip(note="Verificare"),  # another note
], ids=["turn", "score", "position", "word", "placements", "total", "note"])
def test_RO_3_3_the_key_of_a_stored_slip_sent_with_another_slip_is_refused_and_nothing_is_stored(game, other):
    first = game.hand_in(slip(), T0 + 60, "phone-ana-1")
    before = slips(game)
    with pytest.raises(KeyReused) as refused:
        game.hand_in(other, T0 + 70, "phone-ana-1")
    assert refused.value.field == "key" and refused.value.seq == first.seq
    assert str(refused.value) == Text(KEY_REUSED, seq=first.seq)
    assert slips(game) == before
    assert game.replay().slips[("Ana", 1)].slip.written() == slip().written()  # the first counts, unchanged


def test_RO_3_3_another_key_stores_the_slip_and_another_players_key_is_his_own(game):
    first = game.hand_in(slip(), T0 + 60, "k1")
    second = game.hand_in(slip(total="26"), T0 + 70, "k2")
    assert second.seq > first.seq and second.replaces == first.seq
    dan = game.hand_in(slip(player="Dan"), T0 + 80, "k1")  # the same key, another player: his own slip
    assert dan.seq > second.seq and dan.slip.player == "Dan"
    assert len(slips(game)) == 3


def test_RO_3_3_a_key_that_is_none_is_refused_naming_it(game):
    for key in ("two words", "é", "x" * (LIMITS["key"] + 1), "tab\there"):
        with pytest.raises(InputError) as refused:
            game.hand_in(slip(), T0 + 60, key)
        assert refused.value.field == "key" and str(refused.value) == Text(KEY_FORM, n=LIMITS["key"])
    assert slips(game) == []


@pytest.mark.parametrize("forget", [False, True], ids=["fresh-game", "restarted-process"])
def test_RO_3_3_a_key_holds_across_a_fresh_game_object_each_receipt_as_it_was_given(game, forget):
    """The key lives in the slip's event: a new :class:`AnticipationGame` on the same journal (and one whose
    process forgot what it had folded, as after a restart) answers a resend with the first receipt, as it was
    given then (the slip it replaced then, not the last one), and refuses another slip with that key."""
    a = game.hand_in(slip(), T0 + 60, "k-a")
    b = game.hand_in(slip(total="26"), T0 + 70, "k-b")
    c = game.hand_in(slip(note="Verificare"), T0 + 80, "k-c")
    assert (b.replaces, c.replaces) == (a.seq, b.seq)
    late = game.hand_in(slip(note="late"), T0 + 9 * 60, "k-late")  # after turn 1's 8 minutes: kept apart
    assert late.late and late.kept_apart and late.replaces == c.seq
    path = str(game.journal.path)
    before = slips(game)
    if forget:
        anticipation_game.forget_game(path, game.id)
    fresh = AnticipationGame(Journal(path), game.id)
    assert fresh.hand_in(slip(total="26"), T0 + 90, "k-b") == b
    assert fresh.hand_in(slip(note="late"), T0 + 95, "k-late") == late
    with pytest.raises(KeyReused) as refused:
        fresh.hand_in(slip(total="27"), T0 + 100, "k-b")
    assert refused.value.seq == b.seq
    assert slips(fresh) == before
    d = fresh.hand_in(slip(total="27"), T0 + 9 * 60, "k-d")  # a new key: a new slip
    assert d.seq == before[-1][0] + 1 and len(slips(fresh)) == len(before) + 1
