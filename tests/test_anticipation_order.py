"""The order of the game in the hall as a state machine (RO-4.3, RO-4.4, RO-5.2.g–h, RO-5.3), and the one
countdown both formats share."""

from __future__ import annotations

import time

import pytest

from anticipation_support import new_game
from arbitru.formats.anticipation.order import Action, OrderError, Phase
from arbitru.formats.countdown import Countdown
from test_anticipation_correction import GROUPS

T0 = 1_000_000.0


def read_out(game) -> None:
    for _ in range(16):
        game.announce_next()


def test_RO_4_3_no_lot_while_the_analysis_runs_and_the_screen_then_shows_the_turn(tmp_path):
    game = new_game(tmp_path, GROUPS)
    assert game.hall(T0).phase is Phase.UNTIMED
    game.announce_next()
    assert game.hall(T0).phase is Phase.READING
    with pytest.raises(OrderError, match=r"read again \(RO-5.2.g-h\)"):
        game.clock("analysis", "start", T0)
    for _ in range(15):
        game.announce_next()
    assert game.hall(T0).phase is Phase.ANALYSIS_DUE
    game.clock("analysis", "start", T0)
    assert game.hall(T0 + 60).phase is Phase.ANALYSIS and game.hall(T0 + 60).timer() == "analysis"
    with pytest.raises(OrderError, match=r"analysis time still runs.*\(RO-4.3\)") as refused:
        game.draw_lot(1, 2, now=T0 + 60)
    assert refused.value.rule == "RO-4.3" and game.order().lots == {}
    # 45 minutes later the analysis is over: the first lot is due, and the screen shows turn 1's clock
    after = T0 + 45 * 60
    assert game.hall(after).phase is Phase.LOT_DUE
    game.draw_lot(1, 2, now=after)
    hall = game.hall(after)
    assert hall.phase is Phase.TURN_DUE and hall.timer() == "turn 1"
    with pytest.raises(OrderError, match=r"turn 1 is not played yet.*\(RO-4.3\)"):
        game.draw_lot(2, 3, now=after)
    game.clock("turn 1", "start", after)
    with pytest.raises(OrderError, match=r"the analysis comes before the first lot \(RO-4.3\)"):
        game.clock("analysis", "start", after)
    assert game.hall(after + 1).phase is Phase.TURN


def test_RO_4_3_no_lot_while_the_previous_turns_time_runs(tmp_path):
    game = new_game(tmp_path, GROUPS)
    read_out(game)
    game.clock("analysis", "start", T0 - 45 * 60)
    game.draw_lot(1, 2, now=T0)
    game.clock("turn 1", "start", T0)
    with pytest.raises(OrderError, match=r"thinking time of turn 1 still runs \(RO-4.3\)"):
        game.draw_lot(now=T0 + 8 * 60 - 1)
    # collection: turn 1's 8 minutes are up, the next lot may be drawn (RO-5.3)
    assert game.hall(T0 + 8 * 60).phase is Phase.COLLECTION
    assert game.draw_lot(now=T0 + 8 * 60).turn == 2
    with pytest.raises(OrderError, match=r"RO-5.3"):
        game.clock("turn 3", "start", T0 + 9 * 60)


def test_RO_4_4_every_lot_at_once_not_while_a_time_runs(tmp_path):
    game = new_game(tmp_path, GROUPS)
    read_out(game)
    game.clock("analysis", "start", time.time())
    with pytest.raises(OrderError, match=r"analysis time still runs.*\(RO-4.3\)"):
        game.draw_all_lots()
    game.clock("analysis", "stop", time.time())  # the arbiter ends the analysis early
    assert game.hall().phase is Phase.LOT_DUE
    other = new_game(tmp_path, GROUPS, db="other.db")  # groups and lots sent ahead (RO-4.4): no time kept
    assert len(other.draw_all_lots()) == 14 and other.hall().phase is Phase.OVER


def test_RO_5_3_a_slip_for_a_turn_whose_lot_is_not_drawn_names_the_rule(tmp_path):
    game = new_game(tmp_path, GROUPS)
    refusal = game.hall(T0).why_not(Action.HAND_IN, "turn 1")
    assert refusal is not None and refusal.rule == "RO-5.3"


def test_the_countdown_is_one_for_both_formats():
    from arbitru.formats.anticipation.clock import Timer
    from arbitru.formats.duplicate.game import MoveClock

    assert Timer is Countdown and issubclass(MoveClock, Countdown)
    c = MoveClock("move 3", 180, move=3)
    c.apply("start", T0)
    c.apply("pause", T0 + 100)
    assert c.remaining(T0 + 500) == 80 and c.running(T0 + 500) and not c.over(T0 + 500)
    assert c.why_not("pause") == "the move 3 timer is paused: it cannot pause"


def test_RO_4_3_the_cli_shows_where_the_game_stands(tmp_path):
    import json

    from click.testing import CliRunner

    from arbitru.cli import cli

    game = new_game(tmp_path, GROUPS)
    read_out(game)
    game.clock("analysis", "start", time.time())
    db = str(tmp_path / "games.db")
    out = CliRunner().invoke(cli, ["anticipation", "show", game.id, "--db", db]).output
    assert "  in the hall: analysis (the analysis timer)" in out
    result = CliRunner().invoke(cli, ["anticipation", "lot", game.id, "1", "--group", "2", "--db", db])
    assert result.exit_code == 2 and result.output.startswith("error: the analysis time still runs")
    assert "(RO-4.3)" in result.output
    data = json.loads(CliRunner().invoke(cli, ["anticipation", "show", game.id, "--json", "--db", db]).output)
    assert (data["phase"], data["timer"], data["lots"]) == ("analysis", "analysis", [])
