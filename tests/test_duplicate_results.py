"""Results: FISE-11 bonuses, FISE-15 single-game and multi-game rankings, FISE-16 and GR-5D referee errors,
FISE-17 publication, FISE-19 sudden death, FISE-22 rating figure, GR-1 pairs, GR-7 percentages and
withdrawals."""

from __future__ import annotations

from fractions import Fraction

import pytest

from arbitru.engine.lexicon import Lexicon
from arbitru.engine.movegen import generate
from arbitru.engine.tiles import Rack, alphabet
from arbitru.figures import percent
from arbitru.formats.duplicate import export, racks, seats
from arbitru.formats.duplicate.game import GameError, Player, Session, Settings, pair
from arbitru.formats.duplicate.results import (
    GameResult,
    MasterLine,
    MoveLine,
    PlayerLine,
    compute,
    rank,
    rating_percentage,
    standings,
    sudden_death,
)
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal

ES = alphabet("es")
WORDS = ["CASA", "SACA", "AS", "CASAS", "ASA", "SE", "ES", "CASE", "SAXE", "EXAS"]


def tiles(text):
    return list(racks.parse_tiles(ES, text))


def session(rules=None, players=("1", "2", "3"), words=WORDS, **settings):
    lex = Lexicon.from_words(words, ES, name="tiny")
    s = Settings(rules or ruleset("fise"), "es", "tiny", racks="hand", **settings)
    return Session.create(Journal(":memory:"), s, lex, [Player(p, f"P{p}") for p in players])


def moves_now(s):
    """Every move for the rack on the stand, as slips would write them: (position, word, score), best
    first."""
    g = s.game
    found = generate(g.board, Rack(ES, g.rack), s.lexicon, engine="reference")
    return [(p.coord.format(), ES.format(p.word), score) for p, score in found]


def fill(s, preferred):
    """Draw by hand the first tiles of ``preferred`` that fill the rack legally."""
    import itertools

    need = 7 - len(s.game.rack)
    for combo in itertools.combinations(tiles(preferred), need):
        try:
            step = s.draw(list(combo))
        except racks.RackError:
            continue
        if step.kind == "rack":
            return step
    raise AssertionError("no legal fill")


def slip(move, player, position, word):
    return Slip(move, player, position, word)


# --- FISE-11: bonuses ---------------------------------------------------------------------------------------


def scripted():
    """Three moves: two players share the top in move 1; player 2 alone has it in move 2; nobody has it in
    move 3, where player 1 alone is best."""
    s = session()
    s.draw(tiles("CASAXYZ"))
    s.add_slips([slip(1, "1", "H5", "CASA"), slip(1, "2", "8E", "CASA"), slip(1, "3", "H7", "AS")])
    s.place_master()
    s.draw(tiles("SEEA"))
    ms = moves_now(s)
    top = ms[0]
    weaker = next(m for m in ms if m[2] < top[2])
    s.add_slips([slip(2, "2", top[0], top[1]), slip(2, "1", weaker[0], weaker[1])])
    s.place_master()
    fill(s, "SESAOCIT")
    ms = moves_now(s)
    below = [m for m in ms if m[2] < ms[0][2]]
    best, second = below[0], next(m for m in below if m[2] < below[0][2])
    s.add_slips([slip(3, "1", best[0], best[1]), slip(3, "3", second[0], second[1])])
    s.place_master()
    return s, compute(s.game, s.lexicon)


@pytest.fixture(scope="module")
def game3():
    return scripted()


def test_fise_11_automatic_ten_to_a_player_alone_matching_the_program(game3):
    _s, r = game3
    assert [(b.move, b.player, b.value) for b in r.bonuses if b.move in (1, 2)] == [(2, "2", 10)]


def test_fise_11_automatic_five_to_the_sole_best_when_nobody_matched(game3):
    _s, r = game3
    assert [(b.move, b.player, b.value) for b in r.bonuses if b.move == 3] == [(3, "1", 5)]


def test_fise_11_bonuses_are_added_at_the_end_and_listed(game3):
    _s, r = game3
    p2 = r.line("2")
    assert p2.bonus == 10 and p2.total == p2.points + 10
    assert p2.moves[1].bonus == 10
    text = export.text(r)
    assert "Bonuses (FISE-11)" in text and "move 2: player 2 +10" in text


def test_fise_11_manual_bonus_to_the_sole_player_with_the_round_maximum():
    s = session(ruleset("fise", bonus_mode="manual", bonus_manual=5))
    s.draw(tiles("CASAXYZ"))
    s.add_slips([slip(1, "1", "H7", "AS"), slip(1, "2", "H5", "CASA")])
    s.place_master()
    r = compute(s.game, s.lexicon)
    assert [(b.player, b.value) for b in r.bonuses] == [("2", 5)]


def test_fise_11_no_bonus_in_greek_rules():
    s = session(ruleset("greek"))
    s.draw(tiles("CASAXYZ"))
    s.add_slips([slip(1, "1", "H5 O", "CASA")])
    s.place_master()
    assert compute(s.game, s.lexicon).bonuses == []


# --- FISE-12, FISE-17: results move by move -----------------------------------------------------------------


def test_fise_17_results_move_by_move_per_player_with_bonuses(game3):
    _s, r = game3
    rows = export.moves_csv(r).splitlines()
    assert rows[0].startswith("move,player,name,position,word,declared,computed,score,bonus,reasons,running")
    assert len(rows) == 1 + 3 * 3
    p3_move2 = next(row for row in rows[1:] if row.startswith("2,3,"))
    assert p3_move2.split(",")[9] == "no-slip"
    p2_move2 = next(row for row in rows[1:] if row.startswith("2,2,"))
    assert p2_move2.split(",")[8] == "10"
    assert "<h2>Move by move (FISE-17)</h2>" in export.html_page(r)
    assert export.summary_csv(r).splitlines()[0].startswith("place,player,name")


def test_fise_12_running_totals_and_points(game3):
    _s, r = game3
    p1 = r.line("1")
    assert [m.running for m in p1.moves] == [sum(m.score for m in p1.moves[: i + 1]) for i in range(3)]
    assert p1.points == sum(m.score for m in p1.moves)


# --- GR-7: percentages, withdrawal --------------------------------------------------------------------------


def test_gr_7_percentage_of_the_master_total(game3):
    _s, r = game3
    p1 = r.line("1")
    assert p1.percentage == Fraction(p1.points, r.master_total)
    assert percent(Fraction(800, 1000)) == "80.00"
    assert percent(Fraction(2, 3)) == "66.67"


def test_gr_7_a_player_who_leaves_gets_zero_for_the_remaining_rounds():
    s = session(ruleset("greek"))
    s.draw(tiles("CASAXYZ"))
    s.add_slips([slip(1, "1", "H5 O", "CASA")])
    s.place_master()
    seats.withdraw(s, "1")
    s.draw(tiles("SEEA"))
    top = moves_now(s)[0]
    (v,) = s.add_slips([slip(2, "1", _gr(top[0]), top[1])])
    assert v.codes() == ["withdrawn"]
    s.place_master()
    r = compute(s.game, s.lexicon)
    assert [m.score for m in r.line("1").moves] == [12, 0]
    assert r.line("2").moves[1].reasons == ["no-slip"]
    with pytest.raises(GameError, match="no player 9"):
        seats.withdraw(s, "9")


def _gr(position):
    """A position in arbitru's notation (H5, 5H) written the Greek way (H5 O, H5 K)."""
    from arbitru.engine.notation import Coordinate

    return Coordinate.parse(position).format("gr")


# --- FISE-16, GR-5D: referee errors found afterwards --------------------------------------------------------


def test_gr_5d_referee_errors_change_scores_not_the_board():
    s = session(ruleset("greek"))
    s.draw(tiles("CASAXYZ"))
    s.add_slips([slip(1, "1", "H5 O", "CASA"), slip(1, "2", "H5 O", "SACA")])
    s.place_master()
    board = bytes(s.game.board.squares)
    s.rule("SACA", valid=False, reason="accepted by mistake", rule="GR-5D")
    r = compute(s.game, s.lexicon)
    assert r.line("2").points == 0 and r.line("1").points == 12
    s.rule("SACA", valid=True, reason="wrongly refused after all", rule="GR-5D")
    assert compute(s.game, s.lexicon).line("2").points == 12
    assert bytes(s.game.board.squares) == board
    rulings = [e.payload for e in s.journal.events(s.id, "ruling")]
    assert [r["valid"] for r in rulings] == [False, True] and rulings[0]["reason"] == "accepted by mistake"


def test_gr_5d_only_a_top_move_of_nine_letters_or_more_can_be_challenged():
    s = session(ruleset("greek"), words=["CASA", "AS"])
    s.draw(tiles("CASASCA"))
    s.place_master(move_text="H5 O CASA")  # the referee places it across (any tied move will do)
    s.draw(tiles("SAXY"))
    s.add_slips([slip(2, "1", "H5 O", "CASASCASA"), slip(2, "2", "H5 O", "CASAS")])
    verdict = s.challenge(2, "1")
    assert verdict.codes() == ["not-in-list"] and verdict.computed >= s.candidates()[0].score
    with pytest.raises(GameError, match="GR-5D"):
        s.challenge(2, "2")  # CASAS: 5 letters
    s.place_master()
    s.rule("CASASCASA", valid=True, reason="in the dictionary", rule="GR-5D")
    r = compute(s.game, s.lexicon)
    assert r.line("1").moves[1].score == verdict.computed
    assert "CASASCASA" not in s.game.board.to_text()  # the board keeps the master move


# --- FISE-15: single game -----------------------------------------------------------------------------------


def line(number, scores, top=(), bonus=0):
    moves = [MoveLine(i + 1, s, top=i in top) for i, s in enumerate(scores)]
    return PlayerLine(
        Player(number, f"P{number}"),
        moves,
        sum(scores),
        bonus,
        Fraction(0),
        sum(1 for m in moves if m.top),
        max(scores),
    )


def test_fise_15_single_game_total_then_top_moves_then_best_move_then_playoff():
    a = line("1", [20, 20, 20], top=(0, 1))  # 60, 2 tops, best 20
    b = line("2", [30, 15, 15], top=(0,))  # 60, 1 top, best 30
    c = line("3", [25, 25, 10], top=(0,))  # 60, 1 top, best 25
    d = line("4", [25, 10, 25], top=(0,))  # 60, 1 top, best 25: tied with c on everything
    e = line("5", [50, 20, 0])  # 70
    lines = [a, b, c, d, e]
    rank(lines, ("top-moves", "best-move", "playoff"))
    assert [(ln.player.number, ln.place, ln.playoff) for ln in lines] == [
        ("5", 1, False),
        ("1", 2, False),
        ("2", 3, False),
        ("3", 4, True),
        ("4", 4, True),
    ]


def test_fise_15_without_tie_breaks_tied_players_share_the_place():
    lines = [line("1", [10, 10]), line("2", [20, 0]), line("3", [5, 5])]
    rank(lines, ())
    assert [(ln.player.number, ln.place, ln.playoff) for ln in lines] == [
        ("1", 1, False),
        ("2", 1, False),
        ("3", 3, False),
    ]


# --- FISE-15: several games ---------------------------------------------------------------------------------


def result(lines_, best, game_id="g"):
    rank(lines_, ())
    masters = [MasterLine(i + 1, "", "H8", "X", m, m, 0, "program", 1, ()) for i, m in enumerate(best)]
    return GameResult(
        game_id,
        game_id,
        "FISE",
        "x",
        masters,
        sum(best),
        lines_,
        [],
        None,
        [],
        {i + 1: max(ln.moves[i].score for ln in lines_) for i in range(len(best))},
    )


def test_fise_15_multi_game_mean_place_an_absent_player_takes_the_last_place():
    g1 = result([line("1", [10, 10]), line("2", [20, 5]), line("3", [1, 1])], [20, 20])  # places 2, 1, 3
    g2 = result([line("1", [10, 10]), line("2", [0, 5])], [20, 20])  # 1, 2; P3 absent
    rows = standings([g1, g2], "mean-place")
    by_name = {s.name: s for s in rows}
    assert by_name["P3"].places == [3, None]
    assert by_name["P3"].mean_place == Fraction(3 + 3, 2)  # absent = last = 3 players
    assert by_name["P1"].mean_place == Fraction(3, 2) and by_name["P2"].mean_place == Fraction(3, 2)
    assert [s.name for s in rows][-1] == "P3"


def test_fise_15_multi_game_mean_percentage_over_every_move_against_the_best_player_score():
    g1 = result([line("1", [10, 10]), line("2", [20, 5])], [30, 30])  # Mx = 20, 10 (best *player* score)
    g2 = result([line("1", [6, 0]), line("2", [3, 0])], [10, 10])  # Mx = 6, 0: the 0/0 move is left out
    rows = standings([g1, g2], "mean-percentage")
    by_name = {s.name: s for s in rows}
    assert by_name["P1"].mean_percentage == (Fraction(10, 20) + Fraction(10, 10) + Fraction(6, 6)) / 3
    assert by_name["P2"].mean_percentage == (Fraction(20, 20) + Fraction(5, 10) + Fraction(3, 6)) / 3
    assert rows[0].name == "P1"


def test_fise_22_rating_figure_drops_the_best_and_the_worst_game():
    assert rating_percentage([Fraction(1, 2), Fraction(9, 10), Fraction(7, 10), Fraction(1, 10)]) == Fraction(
        6, 10
    )
    assert rating_percentage([Fraction(1, 2), Fraction(1, 4)]) == Fraction(3, 8)


# --- FISE-19: sudden death ----------------------------------------------------------------------------------


def test_fise_19_sudden_death_moves_survived_then_last_move_score():
    lines = [
        line("1", [20, 30, 10]),
        line("2", [20, 25, 40]),
        line("3", [15, 40, 40]),
        line("4", [20, 30, 40]),
    ]
    r = result(lines, [20, 30, 40])
    ranking = sudden_death(r)
    # move 1: best 20 -> player 3 out (1 move, 15); move 2: best 30 -> player 2 out (2 moves, 25);
    # move 3: best 40 -> player 1 out (3 moves, 10); player 4 survives (3 moves, 40)
    assert [(x.player, x.moves, x.last_score, x.place) for x in ranking] == [
        ("4", 3, 40, 1),
        ("1", 3, 10, 2),
        ("2", 2, 25, 3),
        ("3", 1, 15, 4),
    ]


def test_fise_19_sudden_death_as_a_playoff_between_tied_players():
    lines = [line("1", [20, 30]), line("2", [20, 25]), line("3", [50, 0])]
    ranking = sudden_death(result(lines, [50, 30]), among=["1", "2"])
    assert [x.player for x in ranking] == ["1", "2"]


# --- GR-1: pairs --------------------------------------------------------------------------------------------


def test_gr_1_pairs_share_a_board_and_a_slip():
    lex = Lexicon.from_words(WORDS, ES, name="tiny")
    s = Session.create(
        Journal(":memory:"),
        Settings(ruleset("greek"), "es", "tiny", racks="hand"),
        lex,
        [pair("1", "Eleni", "Nikos"), Player("2", "Maria")],
    )
    s.draw(tiles("CASAXYZ"))
    s.add_slips([slip(1, "1", "H5 O", "CASA")])
    s.place_master()
    r = compute(s.game, s.lexicon)
    assert r.lines[0].player.members == ("Eleni", "Nikos") and r.lines[0].points == 12
    assert "Eleni + Nikos" in export.text(r)


def test_fise_19_a_sudden_death_game_is_ranked_by_moves_survived():
    s = session(variant="sudden-death", players=("1", "2"))
    s.draw(tiles("CASAXYZ"))
    s.add_slips([slip(1, "1", "H5", "CASA"), slip(1, "2", "H7", "AS")])
    s.place_master()
    r = compute(s.game, s.lexicon)
    assert [(x.player, x.moves, x.out_at) for x in r.sudden_death] == [("1", 1, None), ("2", 1, 1)]
    assert "Sudden death (FISE-19)" in export.text(r)
    assert compute(session().game, s.lexicon).sudden_death is None


def test_results_change_only_with_the_events_results_seq_names_a_draw_the_clock_and_open_slips_keep_them():
    """The web keeps a game's results by ``results_seq`` across journal positions: at every position of a game
    with slips, rulings, a withdrawal, the clock and late slips, the results equal those at that seq."""
    s, _ = scripted()
    s.rule("SAXE", False, "not in the list")
    seats.withdraw(s, "3")
    fill(s, "CASAXEO")
    s.clock("start", 1000.0)
    s.add_slips([slip(4, "1", "A1", "ZZ"), slip(4, "2", "H1", "CASA")])
    s.clock("pause", 1010.0)
    s.place_master()
    events = s.journal.events(s.id)
    from arbitru.formats.duplicate.game import replay

    def at(k):
        return replay(s.id, s.settings, events[:k])

    seen = set()
    for k in range(1, len(events) + 1):
        g = at(k)
        kept = next(i for i, e in enumerate(events, 1) if e.seq == g.results_seq) if g.results_seq else 0
        seen.add(kept == k)
        if not any(m.master for m in g.moves):
            continue
        now, then = compute(g, s.lexicon), compute(at(kept), s.lexicon)
        assert (now.lines, now.masters, now.bonuses, now.end) == (then.lines, then.masters, then.bonuses, then.end)
    assert seen == {True, False}  # some positions kept the results of an earlier one


def test_fise_12_a_move_written_alike_by_many_players_is_judged_once_each_verdict_its_own():
    """A hall's phones write the same few moves: one judging of a move (``alike``) judges each once. Every slip
    still gets a verdict of its own (its slip, lists not shared), as the results hand them on; the console's grid
    reads the shared one (``Game.judged``), whose slip is the first written."""
    s = session(players=("1", "2", "3", "4"))
    s.draw(tiles("CASAXYZ"))
    s.add_slips([slip(1, "1", "H5", "CASA"), slip(1, "2", "H5", "CASA"), slip(1, "3", "H5", "CASAS"),
                 slip(1, "4", "H5", "CASAS")])
    g, alike = s.game, {}
    one, two, bad, worse = (g.verdict(g.slips[(1, n)], s.lexicon, alike) for n in ("1", "2", "3", "4"))
    assert len(alike) == 2  # two moves written, two judgings
    assert (one.slip.player, two.slip.player, bad.slip.player, worse.slip.player) == ("1", "2", "3", "4")
    assert one.valid and two.valid and one.score == two.score > 0 and two is not one
    assert not bad.valid and worse.codes() == bad.codes() and worse.reasons is not bad.reasons
    shared = g.judged(g.slips[(1, "4")], s.lexicon, alike)
    assert shared is bad and shared.slip.player == "3"
    s.place_master()
    lines = {line.player.number: line for line in compute(s.game, s.lexicon).lines}
    assert [lines[n].moves[0].score for n in "1234"] == [one.score, one.score, 0, 0]
