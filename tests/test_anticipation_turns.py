"""Turn order (RO-5.3): turn 1 is group 1 and a 7-letter group drawn by lot, then a group a turn, 14 turns."""

from __future__ import annotations

import pytest

from anticipation_support import new_game
from arbitru.formats.anticipation.turns import Lot, LotError, TurnOrder
from test_anticipation_correction import GROUPS


def test_ro_5_3_turn_order_from_a_seed_is_reproducible():
    a, b = TurnOrder(), TurnOrder()
    lots_a = [a.draw(t, seed=42).group for t in range(1, 15)]
    lots_b = [b.draw(t, seed=42).group for t in range(1, 15)]
    assert lots_a == lots_b and sorted(lots_a) == list(range(2, 16))
    assert a.groups_of(1) == [1, lots_a[0]] and a.groups_of(2) == [lots_a[1]]
    c = TurnOrder()
    assert [c.draw(t, seed=43).group for t in range(1, 15)] != lots_a


def test_ro_5_3_lot_drawn_by_the_player_at_table_k_or_the_arbiter(tmp_path):
    game = new_game(tmp_path, GROUPS)
    assert game.draw_lot(1, 7).drawn_by == "table 1"
    assert game.draw_lot(2, 3, drawn_by="arbiter").drawn_by == "arbiter"
    assert game.draw_lot(drawn_by="table 4").turn == 3  # table 3 refused: the next player drew
    st = game.replay()
    assert [st.order.lots[t].drawn_by for t in (1, 2, 3)] == ["table 1", "arbiter", "table 4"]


def test_ro_5_3_lots_entered_by_hand_are_checked():
    order = TurnOrder()
    order.add(Lot(1, 5, "table 1"))
    with pytest.raises(LotError, match="group 5 was already played in turn 1"):
        order.add(Lot(2, 5, "table 2"))
    with pytest.raises(LotError, match="among groups 2 to 15"):
        order.add(Lot(2, 1, "table 2"))
    with pytest.raises(LotError, match="the lot of turn 2 comes before turn 3"):
        order.add(Lot(3, 6, "table 3"))
    with pytest.raises(LotError, match="turn 15 does not exist"):
        order.check(15, 6)
    for t, g in zip(range(2, 15), [g for g in range(2, 16) if g != 5], strict=True):
        order.add(Lot(t, g, f"table {t}"))
    assert order.next_turn() is None and order.remaining() == []
