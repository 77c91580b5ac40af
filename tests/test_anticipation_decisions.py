"""After the provisional results every change is a decision (RO-5.5.j, RO-6.5): the states of
``formats/anticipation/order.py`` (:func:`why_not_change`, :class:`Published`) asked by the game's actions.

A publication while the game is not over names what is missing and ends the game only when confirmed; it can be
withdrawn by a decision (the game goes on); a slip typed after the publication is refused, the chief arbiter's
change is a decision with its reason, listed with its effect, and revoked by a later decision; the final ranking
carries its ranking points, corrected by a decision; the warnings are counted (RO-6.2)."""

from __future__ import annotations

import csv
import io

import pytest

from anticipation_support import csv_text, new_game
from arbitru.errors import ArbitruError
from arbitru.formats.anticipation.forms import ranking_csv
from arbitru.formats.anticipation.order import Change, OrderError, Phase, why_not_change
from arbitru.formats.anticipation.slips import Slip, SlipRow
from test_anticipation_correction import AL, CAL, GROUPS, row

T0 = 2_000_000.0
SEATING = [("Ana", 1, "Ana Pop"), ("Dan", 2, "Dan Ion"), ("Eva", 3, "Eva Lup")]


def slip(player: str, turn: int, position: str, word: str, score: str, table: str) -> Slip:
    return Slip(player, turn, [SlipRow(1, table, str(turn), position, word, score, score)], source="desk",
                written_turn=str(turn))


def two_turns(tmp_path):
    """Turns 1 and 2 drawn and timed; turn 2's time still runs; Dan has no slip for turn 2."""
    game = new_game(tmp_path, GROUPS, [2], seating=SEATING)
    game.clock("turn 1", "start", T0)
    game.import_slips_csv(csv_text([AL, row(1, "H7", "AL", 4, 4, player="Dan", table=2),
                                    row(1, "H7", "AL", 4, 4, player="Eva", table=3)]))
    game.draw_lot(2, 3, now=T0 + 8 * 60 + 1)
    game.clock("turn 2", "start", T0 + 8 * 60 + 2)
    game.import_slips_csv(csv_text([CAL, row(2, "H6", "CAL", 3, player="Eva", table=3)]))
    return game


def test_RO_5_5_j_provisional_results_at_turn_2_of_14_name_what_is_missing_and_end_the_game_only_confirmed(
        tmp_path):
    game = two_turns(tmp_path)
    now = T0 + 8 * 60 + 60  # turn 2's time runs
    said = [str(t) for t in game.unfinished(now)]
    assert said == ["turns 3 to 14 are not played (no lot drawn)", "the thinking time of turn 2 still runs",
                    "turn 2: 1 of 3 players have no slip (tables 2)"]
    with pytest.raises(ArbitruError, match=r"RO-5\.5\.j: the game is not over: turns 3 to 14 are not played"):
        game.publish("provisional", "18:30", now=now)
    assert game.published().stage == "in play" and not game.journal.events(game.id, "publication")

    seq = game.publish("provisional", "18:30", confirmed=True, now=now)
    published = game.published().last
    assert published is not None and published["seq"] == seq and published["unplayed"] == list(range(3, 15))
    assert game.timer("turn 2").state == "stopped"  # no clock runs behind the results
    hall = game.hall(now + 1)
    assert hall.phase is Phase.PUBLISHED
    for refused in (lambda: game.draw_lot(3, 4, now=now + 1), lambda: game.clock("turn 3", "start", now + 1),
                    lambda: game.hand_in(slip("Dan", 2, "H6", "CAL", "3", "2"), now + 1)):
        with pytest.raises(OrderError, match=r"RO-5\.5\.j") as e:
            refused()
        assert e.value.rule == "RO-5.5.j"
    assert len(game.journal.events(game.id, "lot")) == 2

    # withdrawn by a decision with its reason: the game goes on where it stood
    with pytest.raises(ArbitruError, match=r"a decision needs its reason"):
        game.decide("", "publication", "withdraw", " ")
    withdrawal = game.decide("", "publication", "withdraw", "published by mistake at turn 2")
    state = game.replay()
    assert state.stage == "in play" and state.publications == []
    assert state.withdrawn[0]["seq"] == seq and state.withdrawn[0]["withdrawn_by"] == withdrawal
    assert game.draw_lot(3, 4, now=now + 600).group == 4
    assert why_not_change("in play", Change.WITHDRAW) is not None  # nothing left to withdraw


def test_RO_5_5_j_the_last_turns_missing_slips_are_named_before_the_results(tmp_path):
    game = new_game(tmp_path, GROUPS, list(range(2, 16)), seating=SEATING)  # a paper game: every lot, no timer
    rows = [row(t, "", "", "", "", "PAS", player=p, table=n) for t in range(1, 14) for p, n, _ in SEATING]
    game.import_slips_csv(csv_text([*rows, row(14, "", "", "", "", "PAS")]))
    assert [str(t) for t in game.unfinished()] == ["turn 14: 2 of 3 players have no slip (tables 2, 3)"]
    game.import_slips_csv(csv_text([row(14, "", "", "", "", "PAS", player=p, table=n) for p, n, _ in SEATING[1:]]))
    assert game.unfinished() == []
    seq = game.publish("provisional", "18:30")  # played and collected: no question
    assert "unplayed" not in game.published().standing[0] and game.published().last["seq"] == seq


def test_RO_6_5_after_the_results_a_desk_slip_is_refused_and_the_chief_arbiters_change_is_a_decision(tmp_path):
    game = two_turns(tmp_path)
    game.publish("provisional", "18:30", confirmed=True, now=T0 + 3600)
    before = game.replay()
    ana = before.results["Ana"].total
    with pytest.raises(OrderError, match=r"a slip changes only by a decision of the chief arbiter") as e:
        game.enter_slips([slip("Ana", 1, "H7", "LA", "4", "1")], replace=True)  # the clerk re-types table 1
    assert e.value.rule == "RO-6.5" and game.replay().digest() == before.digest()

    with pytest.raises(ArbitruError, match=r"a decision needs its reason"):
        game.decide_slip(slip("Ana", 1, "H7", "XL", "9", "1"), "")
    seq = game.decide_slip(slip("Ana", 1, "H7", "XL", "9", "1"), "contest: the slip was typed wrong", by="Radu")
    after = game.replay()
    decision = next(d for d in after.decisions if d.seq == seq)
    assert (decision.target, decision.action, decision.reason, decision.by) == (
        "slip", "replace", "contest: the slip was typed wrong", "Radu")
    assert after.slips[("Ana", 1)].seq == decision.event  # the slip typed again counts, the old one stays
    assert before.slips[("Ana", 1)].seq in after.slips[("Ana", 1)].replaces
    assert after.results["Ana"].total < ana
    effect = game.effects(after)[seq]
    assert effect.player == "Ana" and effect.total == (ana, after.results["Ana"].total) and effect.changed

    revoked = game.decide("", "decision", "revoke", "the slip was right after all", event=seq)
    again = game.replay()
    assert again.revoked == {seq: revoked} and again.results["Ana"].total == ana
    assert game.effects(again)[revoked].total == (after.results["Ana"].total, ana)
    with pytest.raises(ArbitruError, match=r"decision #\d+ is revoked already"):
        game.decide("", "decision", "revoke", "twice", event=seq)
    with pytest.raises(ArbitruError, match=r"no decision #\d+ that changes a result"):
        game.decide("", "decision", "revoke", "a publication is not a decision", event=1)


def test_RO_5_5_j_ranking_points_with_the_final_ranking_and_corrected_by_a_decision(tmp_path):
    game = two_turns(tmp_path)
    game.publish("provisional", "18:30", confirmed=True, now=T0 + 3600)
    game.publish("final", points=[25, 20, 16], title="Cupa", date="2026-05-01", confirmed=True, now=T0 + 7200)
    state = game.replay()
    places = {r.player: r.place for r in state.ranking}
    assert state.ranking_points() == {p: [25, 20, 16][n - 1] for p, n in places.items()}
    with pytest.raises(OrderError, match=r"the ranking is final already: its ranking points are corrected by a "):
        game.publish("final", points=[30, 20, 10], confirmed=True)
    with pytest.raises(OrderError, match=r"a final ranking cannot be withdrawn"):
        game.decide("", "publication", "withdraw", "too late")
    with pytest.raises(OrderError, match=r"only its ranking points may still be corrected"):
        game.decide("Dan", "total", "adjust", "too late", points=5)
    with pytest.raises(OrderError, match=r"the ranking is final"):
        game.decide_slip(slip("Dan", 2, "H6", "CAL", "3", "2"), "too late")
    with pytest.raises(OrderError, match=r"a slip changes only by a decision"):
        game.enter_slips([slip("Dan", 2, "H6", "CAL", "3", "2")])
    last = min(state.ranking, key=lambda r: -(r.place or 0)).player
    seq = game.decide(last, "points", "set", "the organiser's scale gives 18 to the third", points=18)
    state = game.replay()
    assert state.ranking_points()[last] == 18
    assert game.effects(state)[seq].points == (16, 18)
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(ranking_csv(state)))}
    assert rows[last]["ranking_points"] == "18"
    assert why_not_change("provisional", Change.POINTS) is not None


def test_RO_6_2_the_warnings_are_counted_and_the_fourth_costs_5(tmp_path):
    game = new_game(tmp_path, GROUPS, [2, 3, 4, 5, 6], seating=SEATING)
    # four slips without their table number (RO-6.2b): four warnings, the first 3 free, the 4th −5
    rows = [AL] + [row(t, "", "", "", "", "PAS", table="") for t in (2, 3, 4, 5)]
    game.import_slips_csv(csv_text(rows))
    state = game.replay()
    ana = state.results["Ana"]
    assert sum(1 for sv in ana.slips.values() if sv.warning) == 4 and ana.warning_costs == 5
    assert ana.to_dict()["technical_warnings"] == 4
    line = next(r for r in csv.DictReader(io.StringIO(ranking_csv(state))) if r["player"] == "Ana")
    assert (line["warnings"], line["warning_costs"]) == ("4", "5")


def test_RO_6_2a_a_wrong_name_on_the_turn_1_slip_as_typed_is_a_warning(tmp_path):
    game = new_game(tmp_path, GROUPS, [2], seating=SEATING)
    typed = Slip("Ana", 1, [SlipRow(1, "1", "1", "H7", "AL", "4", "4", name="Ana Popa")], source="desk",
                 written_turn="1")
    game.enter_slips([typed])
    sv = game.replay().results["Ana"].slips[1]
    assert sv.warning is not None and sv.warning.rule == "RO-6.2a" and "Ana Popa" in sv.warning.text


def test_RO_4_4_every_lot_at_once_is_refused_where_the_hall_keeps_time_before_it_is_offered(tmp_path):
    from arbitru.formats.anticipation.order import Action

    game = new_game(tmp_path, GROUPS, [2], seating=SEATING)
    assert game.hall(T0).why_not(Action.ALL_LOTS) is None  # no timer: every lot at once (RO-4.4)
    game.clock("turn 1", "start", T0)
    refusal = game.hall(T0 + 9 * 60).why_not(Action.ALL_LOTS)
    assert refusal is not None and "each lot is drawn in its turn" in refusal.reason
    with pytest.raises(OrderError):
        game.draw_all_lots()
    assert len(game.journal.events(game.id, "lot")) == 1


def test_RO_6_5_RO_5_5_j_the_cli_decides_a_slip_withdraws_and_corrects_points(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from arbitru.cli import cli

    game = two_turns(tmp_path)
    db = str(tmp_path / "games.db")

    def run(*args: str) -> tuple[int, str]:
        result = CliRunner().invoke(cli, ["anticipation", *args, "--db", db])
        return result.exit_code, result.output

    code, out = run("publish", game.id, "--provisional", "--deadline", "18:30")
    assert code == 2 and "the game is not over: turns 3 to 14 are not played" in out and "confirm" in out
    assert run("publish", game.id, "--provisional", "--deadline", "18:30", "--confirm")[0] == 0
    (tmp_path / "slip.csv").write_text(csv_text([row(2, "H6", "CAL", 3, 3, player="Dan", table=2)]), "utf-8")
    code, out = run("slips", game.id, str(tmp_path / "slip.csv"))
    assert code != 0 and "a slip changes only by a decision" in out
    code, out = run("decide", game.id, "Dan", "--target", "slip", "--action", "replace", "--file",
                    str(tmp_path / "slip.csv"), "--reason", "contest: handed in on paper in time")
    assert code == 0 and "decision #" in out and "Dan" in out
    assert game.replay().results["Dan"].slips[2].placements[0].word == "CAL"
    code, out = run("decide", game.id, "--target", "publication", "--action", "withdraw", "--reason", "too early")
    assert code == 0 and game.published().stage == "in play"
    assert run("publish", game.id, "--provisional", "--deadline", "2000-01-01 10:00", "--confirm")[0] == 0
    assert run("publish", game.id, "--final", "--points", "25,20,16", "--title", "Cupa")[0] == 0
    code, out = run("publish", game.id, "--final", "--points", "30,20,10", "--confirm")
    assert code != 0 and "its ranking points are corrected by a decision" in out
    code, out = run("decide", game.id, "Eva", "--target", "points", "--action", "set", "--points", "19",
                    "--reason", "the organiser's scale")
    assert code == 0 and game.replay().ranking_points()["Eva"] == 19
