"""What may change in a closed move, and how (FISE-8, FISE-11, FISE-17, GR-5D, GR-7): while a move is open its
slips are handed in; once closed, the paper slips collected at time are typed until the arbiter closes the
collection of that move; after that, and once the game is over, every change is the arbiter's decision, with a
reason, kept in the journal, listed on the results with its effect, and reversible by a later decision."""

from __future__ import annotations

from fractions import Fraction

import pytest

from arbitru.engine.tiles import alphabet
from arbitru.formats.duplicate.game import GameError, OrderError, Player, Session, Settings
from arbitru.formats.duplicate.order import SlipAction, Window
from arbitru.formats.duplicate.results import compute
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from test_duplicate_games import official

ES = alphabet("es")
T0 = 1_000_000.0
DESK = "desk:clerk1"


@pytest.fixture(scope="module")
def lex():
    return official("fise-2", "es")


def new_game(lex, path=":memory:", moves=8, players=("1", "2", "3")):
    settings = Settings(ruleset("fise", moves=moves), "es", "fise-2", seed="17")
    return Session.create(Journal(path, actor="arbiter"), settings, lex, [Player(p, f"P{p}") for p in players])


def top(s):
    """The master move as a slip writes it: position, word (blanks in lower case), score."""
    c = s.candidates()[0]
    return c.placement.coord.format(), ES.format(c.placement.word), c.score


def as_desk(s):
    s.journal.actor = DESK
    return s


def as_arbiter(s):
    s.journal.actor = "arbiter"
    return s


def play(s, n, slips=()):
    """``n`` moves: the rack, the clock, the slips (player → True: the top), the master move."""
    written = {}
    for _ in range(n):
        s.draw()
        move = s.game.move
        s.clock("start", T0 + move * 1000)
        position, word, score = top(s)
        written[move] = (position, word, score)
        for p in slips:
            s.hand_in(Slip(move, p, position, word, score), T0 + move * 1000 + 30)
        s.place_master()
    return written


def test_FISE_8_the_desk_types_move_n_while_move_n_plus_1_is_played_and_each_slip_lands_in_its_move(lex):
    s = new_game(lex)
    master1 = play(s, 1, slips=("1",))[1]
    s.draw()
    s.clock("start", T0 + 5000)
    assert s.game.collecting == 1  # the paper slips of move 1 are typed now
    assert s.game.slip_order(1).window is Window.TYPING and s.game.slip_order(2).window is Window.OPEN
    as_desk(s).store_slips([Slip(1, "2", master1[0], master1[1], master1[2])])
    assert s.game.slips[(1, "2")].move == 1 and (2, "2") not in s.game.slips
    assert not s.game.slips[(1, "2")].late  # collected at time: on time, though typed after the close
    with pytest.raises(OrderError) as refused:  # the rack of move 3 was never shown
        s.store_slips([Slip(3, "2", "H8", "CASA")])
    assert refused.value.rule == "FISE-8"
    with pytest.raises(OrderError):  # a desk never closes a collection
        s.close_collection(1)
    assert as_arbiter(s).close_collection() == 1 and s.game.collecting == 2
    with pytest.raises(OrderError) as closed:
        as_desk(s).store_slips([Slip(1, "3", master1[0], master1[1], master1[2])])
    assert closed.value.rule == "FISE-17" and "collection of move 1 is closed" in str(closed.value)
    s.place_master()
    r = compute(s.game, lex)
    assert r.line("2").moves[0].score == master1[2] and r.line("3").moves[0].reasons == ["no-slip"]
    again = Session(s.journal, s.id, lex).game  # the journal replays to the same
    assert again.collected == 1 and again.slips == s.game.slips


def test_FISE_11_a_desk_slip_typed_after_the_close_counts_as_the_close_said_a_phone_slip_is_late(lex):
    s = new_game(lex)
    s.draw()
    s.clock("start", T0)
    position, word, score = top(s)
    s.hand_in(Slip(1, "1", position, word, score), T0 + 60)
    s.place_master()  # player 1 alone has the top: +10, for now
    assert [(b.player, b.value) for b in compute(s.game, lex).bonuses] == [("1", 10)]
    late = s.hand_in(Slip(1, "3", position, word, score), T0 + 213)  # a phone, after the close: late
    assert late.late
    assert [(b.player, b.value) for b in compute(s.game, lex).bonuses] == [("1", 10)]
    # a paper slip collected at time, typed 33 s after the close: on time, as the close's words say
    as_desk(s).store_slips([Slip(1, "2", position, word, score)])
    r = compute(s.game, lex)
    assert r.bonuses == [] and r.line("2").moves[0].score == score and r.line("3").moves[0].reasons == ["late"]
    as_arbiter(s).close_collection(1)
    with pytest.raises(OrderError):  # the collection is closed: the desk cannot change the bonus any more
        as_desk(s).store_slips([Slip(1, "2", "H8", "XX")], replace=True)
    assert compute(s.game, lex).bonuses == []


def test_FISE_17_a_claim_on_move_2_corrected_by_the_arbiter_after_move_5_with_its_reason_then_reversed(lex, tmp_path):
    s = new_game(lex, str(tmp_path / "j.db"))
    written = play(s, 2, slips=("1",))
    position, word, score = written[2]
    as_desk(s).store_slips([Slip(2, "2", position[::-1], word, score)])
    as_desk(s).store_slips([Slip(1, "2", written[1][0], written[1][1], written[1][2])])
    as_arbiter(s).close_collection(2)
    play(s, 3)
    before = compute(s.game, lex).line("2")
    assert before.moves[1].score == 0  # the desk typed the position the wrong way round
    # the desk cannot decide; nor without a reason; nor on an open move
    with pytest.raises(OrderError):
        as_desk(s).decide(2, "2", "slip", "claim", slip=Slip(2, "2", position, word, score))
    as_arbiter(s)
    with pytest.raises(GameError, match="reason"):
        s.decide(2, "2", "slip", "  ", slip=Slip(2, "2", position, word, score))
    s.draw()
    with pytest.raises(OrderError):
        s.decide(6, "2", "void", "no")
    d = s.decide(2, "2", "slip", "claim: the slip reads " + position, slip=Slip(2, "2", position, word, score))
    assert d.rule == "FISE-17" and d.actor == "arbiter" and d.before is not None and d.after is not None
    after = compute(s.game, lex)
    assert after.line("2").moves[1].score == score and after.line("2").points == before.points + score
    effect = after.decisions[-1]
    assert (effect.points_before, effect.points_after, effect.decision.reason) == (0, score, d.reason)
    # kept in the journal, replayed the same, reversible by a later decision
    again = Session(s.journal, s.id, lex)
    assert [x.seq for x in again.game.decisions] == [d.seq] and again.game.slips == s.game.slips
    back = s.decide(0, "", "reverse", "the claim was lodged after the claim period", reverses=d.seq)
    assert back.after == d.before and s.game.decision(d.seq).reversed_by == back.seq
    assert compute(s.game, lex).line("2").moves[1].score == 0
    with pytest.raises(GameError, match="reversed already"):
        s.decide(0, "", "reverse", "again", reverses=d.seq)
    assert len(s.journal.events(s.id, "decision")) == 2


def test_GR_5D_a_referees_error_found_at_the_end_changes_the_score_never_the_board(lex):
    s = new_game(lex)
    written = play(s, 3, slips=("1", "2"))
    s.end_game("the referee ends the game")
    board = list(s.game.board.squares)
    total = s.game.master_total()
    # the game is over: the desk's replacement of a stored slip is refused; the arbiter decides
    with pytest.raises(OrderError, match="game is over"):
        as_desk(s).store_slips([Slip(3, "2", "H8", "XX")], replace=True)
    assert s.game.slip_order(3).why_not(SlipAction.DECIDE, DESK) is not None
    d = as_arbiter(s).decide(3, "2", "void", "the slip was handed in after time: a referee's error", rule="GR-5D")
    assert d.after is None and list(s.game.board.squares) == board and s.game.master_total() == total
    r = compute(s.game, lex)
    assert r.line("2").moves[2].score == 0 and r.line("1").moves[2].score == written[3][2]
    assert r.decisions[0].change == -written[3][2]


def test_GR_7_a_decision_changes_the_players_points_and_percentage_not_the_master_total(lex):
    s = new_game(lex)
    written = play(s, 2, slips=("1",))
    as_arbiter(s).close_collection(2)
    before = compute(s.game, lex)
    s.decide(1, "3", "slip", "claim: slip found under the table, collected at time",
             slip=Slip(1, "3", *written[1]))
    after = compute(s.game, lex)
    assert after.master_total == before.master_total
    line = after.line("3")
    assert line.points == written[1][2] and line.percentage == Fraction(line.points, after.master_total)
    assert before.line("3").percentage == 0


def test_FISE_17_the_cli_closes_a_collection_and_decides_with_a_reason_listed_with_its_effect(lex, tmp_path):
    import json

    from click.testing import CliRunner

    from arbitru.cli import cli

    path = str(tmp_path / "cli.db")
    s = new_game(lex, path)
    written = play(s, 2, slips=("1",))
    s.journal.close()
    runner = CliRunner()

    def run(*args):
        result = runner.invoke(cli, ["duplicate", *args, "--journal", path, "--json"], catch_exceptions=False)
        return result.exit_code, result.output

    code, out = run("collect", "--move", "2")
    assert code == 0 and json.loads(out) == {"collected": 2}
    code, out = run("slips", "--move", "1", "--player", "2", "--position", written[1][0], "--word", written[1][1])
    assert code == 2 and "collection of move 1 is closed" in out
    code, out = run("decide", "--move", "1", "--player", "2", "--position", written[1][0], "--word", written[1][1],
                    "--reason", "claim: the slip was collected at time", "--rule", "FISE-17")
    decided = json.loads(out)
    assert code == 0 and (decided["points_before"], decided["points_after"]) == (0, written[1][2])
    code, out = run("decide", "--reverse", str(decided["event"]), "--reason", "claim withdrawn")
    assert code == 0 and json.loads(out)["points_after"] == 0


def _every_event_that_changes_a_move(lex):
    """A 12-move game with typed slips of a closed move, a collection closed, a claim on move 2 and its reversal, a
    ruling, a late entry, a withdrawal, a disqualification and the end."""
    from arbitru.formats.duplicate import seats

    s = new_game(lex, moves=12, players=("1", "2", "3", "4"))
    written = play(s, 2, slips=("1", "3"))
    position, word, score = written[2]
    as_desk(s).store_slips([Slip(2, "2", position[::-1], word, score), Slip(1, "4", "H8", "ZZZ", 3)])
    as_arbiter(s).close_collection(2)
    play(s, 2, slips=("1", "2"))
    d = s.decide(2, "2", "slip", "claim: the slip reads " + position, slip=Slip(2, "2", position, word, score))
    play(s, 1, slips=("2", "4"))
    s.rule(written[1][1].upper(), False, "not in the list")
    seats.enter(s, "5", "Late")
    play(s, 1, slips=("1", "5"))
    s.decide(0, "", "reverse", "lodged after the claim period", reverses=d.seq)
    seats.withdraw(s, "3")
    play(s, 1, slips=("2",))
    seats.disqualify(s, "4", reason="cheating")
    play(s, 2, slips=("1", "2", "5"))
    s.end_game("the arbiter ends it")
    return s


def _folded(s):
    """The game's one state after each of its events from the first close on, folded event by event."""
    from arbitru.formats.duplicate.game import replay

    events = s.journal.events(s.id)
    state = replay(s.id, s.settings, events[:1])
    for e in events[1:]:
        state.apply(e)
        if any(m.master for m in state.moves):
            yield e, state


def _quiet_close(e, state, last):
    """Whether event ``e`` closes a move and no event since the results ``last`` changed an earlier one."""
    since = last._made_from[1] if last is not None else 0
    return e.kind == "master" and last is not None and state.first_changed_since(since) == e.payload["move"]


def test_FISE_17_a_close_reuses_the_moves_no_event_changed_and_equals_the_results_computed_afresh(lex, monkeypatch):
    """A close late in a national game judged every closed move's slips again (fifteen moves of ten thousand); it
    now takes from the last results the moves no event since changed (:meth:`Game.first_changed_since`). Folded
    event by event on one state, with typed slips of a closed move, a collection closed, a claim on move 2 and
    its reversal, a ruling, a late entry, a withdrawal and a disqualification, the results reused from the last
    position equal those computed afresh at every position; and a close judges only its own move's slips."""
    from arbitru.formats.duplicate.game import Game, replay

    s = _every_event_that_changes_a_move(lex)
    events = s.journal.events(s.id)
    kinds = {e.kind for e in events}
    assert {"decision", "ruling", "seat", "withdraw", "collected", "master", "slip", "end"} <= kinds

    judged: list[int] = []
    verdict = Game.verdict

    def counting(self, slip, lexicon, alike=None):
        judged.append(slip.move)
        return verdict(self, slip, lexicon, alike)

    monkeypatch.setattr(Game, "verdict", counting)
    last = None
    reused = 0
    for e, state in _folded(s):
        judged.clear()
        now = compute(state, lex, last)
        moves_judged = {m for m in judged}
        judged.clear()
        afresh = compute(state, lex)
        assert now == afresh, f"event {e.seq} ({e.kind})"
        assert [line.moves for line in now.lines] == [line.moves for line in afresh.lines]
        if _quiet_close(e, state, last):
            # a close with nothing changed since: only its own move's slips (and the decisions') are judged
            assert moves_judged <= {e.payload["move"], *(x.move for x in state.decisions)}
            reused += 1
        last = now
    assert reused >= 4
    # the game's end changes no move: the final results reuse every move
    assert events[-1].kind == "end" and state.first_changed_since(events[-2].seq) > len(state.moves)
    # slips folded tentatively and taken back: nothing computed meanwhile is reused
    lineage = state.lineage
    state.fold_tentatively()
    state.take_back()
    assert state.lineage != lineage
    # another state of the game (replayed again) reuses nothing of this one's
    other = replay(s.id, s.settings, events)
    assert other.lineage != state.lineage and compute(other, lex, last) == compute(other, lex)


def test_FISE_17_a_phones_rows_of_the_moves_no_event_changed_are_reused_and_equal_the_rows_drawn_afresh(lex,
                                                                                                     monkeypatch):
    """A phone's part late in a national game drew its eleven old rows again at every close (ten thousand phones);
    the rows drawn at the last position are now reused for the moves whose results' lines are the same objects
    (:func:`arbitru.web.phone_lines.own_html` with ``drawn``). Folded event by event with every kind of event that
    changes an earlier move (a claim and its reversal, a ruling, seats), in two languages: the rows drawn with
    reuse equal the rows drawn afresh at every position, and a close with nothing changed draws one row a phone."""
    from arbitru.formats.duplicate.game import replay
    from arbitru.messages import gettext_for
    from arbitru.web import phone_lines
    from arbitru.web.routes.duplicate import own_lines

    s = _every_event_that_changes_a_move(lex)
    events = s.journal.events(s.id)

    drawn_rows: list[int] = []
    row = phone_lines._row

    def counting(words, m, mm):
        drawn_rows.append(m.move)
        return row(words, m, mm)

    monkeypatch.setattr(phone_lines, "_row", counting)
    words = {lang: phone_lines.Words(gettext_for(lang), lang) for lang in ("en", "ro")}
    drawn: dict[str, phone_lines.Drawn] = {lang: {} for lang in words}
    last = None
    closes = 0
    for e, state in _folded(s):
        now = compute(state, lex, last)
        afresh = compute(state, lex)
        quiet_close = _quiet_close(e, state, last)
        for lang, said in words.items():
            new_rows: list[int] = []
            for p in state.players:
                drawn_rows.clear()
                reused = phone_lines.own_html(said, state, own_lines(state, p, now, None), drawn[lang])
                new_rows += drawn_rows
                assert reused == phone_lines.own_html(said, state, own_lines(state, p, afresh, None)), (e.seq, p)
            if quiet_close and lang == "en":
                # every phone drew its rows at the position before: only the new move's row is drawn
                assert new_rows == [e.payload["move"]] * len(state.players), (e.seq, new_rows)
                closes += 1
        last = now
    assert closes >= 4
    # another replay's results share no line with these: every row is drawn again, and right
    other = replay(s.id, s.settings, events)
    again, afresh = compute(other, lex, last), compute(other, lex)
    new_rows = []
    for p in other.players:
        drawn_rows.clear()
        reused = phone_lines.own_html(words["en"], other, own_lines(other, p, again, None), drawn["en"])
        new_rows += drawn_rows
        assert reused == phone_lines.own_html(words["en"], other, own_lines(other, p, afresh, None))
    assert len(new_rows) == sum(len(line.moves) for line in again.lines)
