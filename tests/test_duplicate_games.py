"""Whole games: seeded automatic games per rule set and language, audited (every tile, every rack, the end,
the master moves, the tie order); the journal (replay, crash, corruption); GCG files.

The number of seeded games per rule set is ``ARBITRU_DUPLICATE_GAMES`` (default 1); set it to 1000, with the
compiled generator in, for the full run (``bench/duplicate_game.py --games 1000`` does the same with timings).
``ARBITRU_DUPLICATE_SAMPLE`` checks one master move in N against the reference generator (default 4).
"""

from __future__ import annotations

import os

import pytest

from arbitru.engine.lexicon import Lexicon
from arbitru.engine.tiles import alphabet
from arbitru.errors import JournalError, LexiconError
from arbitru.formats.duplicate import gcg
from arbitru.formats.duplicate.audit import audit, play_games, rack_is_legal
from arbitru.formats.duplicate.game import Session, Settings
from arbitru.formats.duplicate.prepared import read_prepared
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import synthetic_lexicon

GAMES = int(os.environ.get("ARBITRU_DUPLICATE_GAMES", "1"))
SAMPLE = int(os.environ.get("ARBITRU_DUPLICATE_SAMPLE", "4"))
ENGINE = os.environ.get("ARBITRU_DUPLICATE_ENGINE", "compiled")

#: (rule set, language, official list): Romanian practice on LOC, FISE on FISE-2 (Spanish digraphs) and on the
#: Polish list, the Greek rules on the Greek list
CONFIGS = [
    ("romanian", "ro", "loc-5.0"),
    ("fise", "es", "fise-2"),
    ("fise", "pl", "sjp-growy"),
    ("greek", "el", "el-hunspell"),
]


def official(name: str, lang: str) -> Lexicon:
    """An official list, installed by ``./arbitru`` (``arbitru lexicon install``); missing is a failure."""
    from arbitru.lexicons.catalog import load

    try:
        return load(name, lang)
    except LexiconError as e:
        pytest.fail(f"{e} (the test suite needs the official lists: run 'arbitru lexicon install')")


@pytest.fixture(scope="module", params=CONFIGS, ids=[c[2] for c in CONFIGS])
def games(request):
    rules, lang, name = request.param
    lex = official(name, lang)
    return rules, lang, play_games(rules, lang, lex, range(1, GAMES + 1), engine=ENGINE, sample=SAMPLE)


def test_seeded_games_every_tile_accounted_for_after_every_event(games):
    _rules, lang, played = games
    for session, report in played:
        assert report.of("tiles") == []
        assert session.game.tile_count() == alphabet(lang).total_tiles
        assert report.moves >= 10


def test_seeded_games_every_rack_legal_for_its_move_number(games):
    rules, lang, played = games
    for session, report in played:
        assert report.of("racks") == []
        rule = ruleset(rules).racks
        for state in session.game.moves:
            assert rack_is_legal(rule, alphabet(lang), state.number, state.rack, [*state.pool, *state.fixed])
            assert len(state.rack) == min(7, len(state.pool) + len(state.fixed))


def test_seeded_games_end_for_a_reason_that_holds(games):
    _rules, _lang, played = games
    for session, report in played:
        assert session.game.end is not None
        assert report.of("end") == []


def test_seeded_games_master_is_the_true_maximum_on_a_sample(games):
    _rules, _lang, played = games
    for _session, report in played:
        assert report.sampled >= 1
        assert report.of("master") == []


def test_seeded_games_tie_break_order_respected(games):
    _rules, _lang, played = games
    for _session, report in played:
        assert report.of("ties") == []


def test_spanish_games_draw_the_digraph_tiles():
    lex = official("fise-2", "es")
    ((session, report),) = play_games("fise", "es", lex, ["digraphs"], engine=ENGINE, sample=0)
    es = alphabet("es")
    drawn = {t for state in session.game.moves for d in state.draws for t in d.drawn}
    assert {es.code("CH"), es.code("LL"), es.code("RR")} & drawn
    assert report.ok


def test_fise_20_joker_game_stays_sound():
    lex = official("fise-2", "es")
    ((session, report),) = play_games(
        "fise", "es", lex, [5], engine=ENGINE, variant="joker", moves=6, sample=3
    )
    assert report.ok, report.problems
    assert all(0 in state.rack for state in session.game.moves[:1])


def test_fise_1_a_game_can_be_played_alone_with_any_word_list():
    # a stand-in list (no language): the machinery holds whatever ends the game
    lex = synthetic_lexicon("es", 600)
    ((session, report),) = play_games("fise", "es", lex, ["alone"], engine=ENGINE, sample=1)
    assert report.ok and session.game.end is not None


def test_fise_1_every_player_has_the_same_rack_and_the_master_move_on_his_board(lex600):
    from arbitru.engine.movegen import generate
    from arbitru.engine.tiles import Rack
    from arbitru.formats.duplicate.game import Player
    from arbitru.formats.duplicate.slips import Slip

    s = Session.create(Journal(":memory:"), settings(seed="11"), lex600, [Player("1"), Player("2")])
    s.draw()
    g = s.game
    es = g.alphabet
    moves = generate(g.board, Rack(es, g.rack), lex600, engine="reference")
    top, other = moves[0][0], next(p for p, score in moves if score < moves[0][1])
    s.add_slips(
        [
            Slip(1, "1", top.coord.format(), es.format(top.word)),
            Slip(1, "2", other.coord.format(), es.format(other.word)),
        ]
    )
    s.place_master()
    s.draw()
    # move 2 is judged on the board with the master move for both players, whatever they played in move 1
    state = g.moves[1]
    expected = board_with(g.moves[0].board, g.moves[0].master.placement)
    assert state.board == expected
    same = generate(state.board, Rack(es, state.rack), lex600, engine="reference")[0][0]
    slips = [Slip(2, n, same.coord.format(), es.format(same.word)) for n in ("1", "2")]
    v1, v2 = s.add_slips(slips)
    assert v1.score == v2.score > 0 and v1.valid and v2.valid


def board_with(board, placement):
    after = board.copy()
    after.play(placement)
    return after


# --- the journal --------------------------------------------------------------------------------------------


def settings(seed="7", moves=None, lexicon="fise-2"):
    return Settings(ruleset("fise", moves=moves), "es", lexicon, seed=seed)


@pytest.fixture(scope="module")
def lex600():
    return official("fise-2", "es")


def test_journal_replays_to_the_same_state(tmp_path, lex600):
    path = tmp_path / "games.db"
    with Journal(path) as j:
        live = Session.create(j, settings(moves=5), lex600)
        live.play_auto()
        again = Session(j, live.id, lex600)
    for a, b in ((live.game, again.game),):
        assert a.board == b.board and a.bag.tiles == b.bag.tiles and a.rack == b.rack
        assert [m.master.score for m in a.moves] == [m.master.score for m in b.moves]
        assert a.end == b.end


def test_journal_a_crash_between_actions_loses_nothing_and_the_game_goes_on_the_same(tmp_path, lex600):
    with Journal(tmp_path / "a.db") as j:
        whole = Session.create(j, settings(moves=6), lex600)
        whole.play_auto()
    path = tmp_path / "b.db"
    j = Journal(path)
    first = Session.create(j, settings(moves=6), lex600)
    first.play_auto(max_moves=3)
    first.draw()  # a rack on the stand, then the program dies
    j.db.close()
    with Journal(path) as j2:
        resumed = Session(j2, first.id, lex600)
        assert resumed.game.phase == "play" and resumed.game.move == 4
        resumed.play_auto()
        assert [m.master.placement for m in resumed.game.moves] == [
            m.master.placement for m in whole.game.moves
        ]
        assert resumed.game.master_total() == whole.game.master_total()


def test_journal_a_crash_inside_an_action_writes_nothing_and_the_redo_is_identical(tmp_path, lex600):
    j = Journal(tmp_path / "c.db")
    s = Session.create(j, settings(), lex600)
    s.play_auto(max_moves=2)
    events = len(j.events(s.id))

    def boom(*_a, **_k):
        raise OSError("disk unplugged")

    real = j.append_many
    j.append_many = boom  # type: ignore[method-assign]
    with pytest.raises(OSError):
        s.draw()
    j.append_many = real  # type: ignore[method-assign]
    assert len(j.events(s.id)) == events
    fresh = Session(j, s.id, lex600)
    step = fresh.draw()
    other = Session.create(Journal(":memory:"), settings(), lex600)
    other.play_auto(max_moves=2)
    assert step.draws == other.draw().draws


def test_journal_refuses_events_that_do_not_fit_with_a_clear_reason(tmp_path, lex600):
    with Journal(tmp_path / "d.db") as j:
        s = Session.create(j, settings(), lex600)
        s.draw()
        j.append(s.id, "master", {"move": 1, "position": "A1", "word": ["Z", "Z"], "score": 3})
        with pytest.raises(JournalError, match="does not fit"):
            Session(j, s.id, lex600)
        bad = Session.create(j, settings(seed="9"), lex600)
        j.append(bad.id, "teleport", {})
        with pytest.raises(JournalError, match="unknown kind"):
            Session(j, bad.id, lex600)


def test_journal_events_cannot_be_changed_or_deleted(tmp_path, lex600):
    with Journal(tmp_path / "e.db") as j:
        s = Session.create(j, settings(), lex600)
        s.draw()
        with pytest.raises(JournalError, match="never deleted"):
            j.execute("DELETE FROM event WHERE game_id = ?", (s.id,))
        with pytest.raises(JournalError, match="never changed"):
            j.execute("UPDATE event SET payload = '{}' WHERE game_id = ?", (s.id,))


# --- GCG ----------------------------------------------------------------------------------------------------


def test_gcg_export_reads_back_and_replays_as_a_prepared_game(lex600):
    s = Session.create(Journal(":memory:"), settings(moves=6), lex600)
    s.play_auto()
    text = gcg.write(s.game)
    lines = text.splitlines()
    assert lines[0] == "#character-encoding UTF-8"
    assert lines[1].startswith("#player1 master")
    moves = [ln for ln in lines if ln.startswith(">master: ")]
    assert len(moves) == 6
    es = alphabet("es")
    back = gcg.read(text, es)
    assert [m.placement for m in back] == [m.master.placement for m in s.game.moves]
    assert back[-1].total == s.game.master_total()
    prepared = read_prepared(text, es)
    p = Session.create(
        Journal(":memory:"),
        Settings(ruleset("fise", moves=6), "es", "x", racks="prepared", prepared=prepared),
        lex600,
    )
    p.play_auto()
    assert [m.master.placement for m in p.game.moves] == [m.master.placement for m in s.game.moves]
    assert all(m.master.by == "prepared" for m in p.game.moves)


def test_gcg_positions_use_the_gcg_convention():
    es = alphabet("es")
    lex = Lexicon.from_words(["CASA"], es)
    s = Session.create(Journal(":memory:"), Settings(ruleset("fise"), "es", "x", racks="hand"), lex)
    s.draw(list(es.split("CASA")) + list(es.split("XYZ")))
    s.place_master(move_text="8E CASA")  # vertical, column 8 from row E
    text = gcg.write(s.game)
    # arbitru's 8E (column 8 down from row E) is GCG's H5 (column H, row 5)
    assert ">master: AACSXYZ H5 CASA +12 12" in text.splitlines()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#character-encoding UTF-8\n>m: AACSXYZ 8E CASA +99 99\n", "scores 12, the file says 99"),
        ("#character-encoding UTF-8\n>m: AACSXYZ 8E CASA +12 20\n", "running total"),
        ("#character-encoding UTF-8\n>m: AACSXYZ 8Z CASA +12 12\n", "line 2"),
        ("#character-encoding UTF-8\n>m: AACSXYZ -XYZ +0 0\n", "exchanges"),
        ("#character-encoding UTF-8\n>m: AACSXYZ 8E .ASA +12 12\n", "'.' on an empty square"),
        ("#character-encoding UTF-8\n>m: ACSXYZE 8E CASA +12 12\n", "not on the rack"),
        ("hello\n", "not a GCG line"),
        ("\x00\x01", "not a text file"),
        ("#character-encoding UTF-8\n", "no move"),
        ("#character-encoding UTF-8\n>m: AACSXYZ 1A CASA +12 12\n", "centre"),
    ],
)
def test_bad_gcg_files_are_refused_with_the_line_and_the_reason(text, message):
    with pytest.raises(gcg.GcgError, match=message):
        gcg.read(text, alphabet("es"))


def test_gcg_multi_letter_tiles_in_brackets():
    es = alphabet("es")
    lex = Lexicon.from_words(["CHURRO"], es)
    s = Session.create(Journal(":memory:"), Settings(ruleset("fise"), "es", "x", racks="hand"), lex)
    s.draw(list(es.split("CHURROAEI")[:7]))
    s.place_master()
    text = gcg.write(s.game)
    assert "[CH]U[RR]O" in text
    assert gcg.read(text, es)[0].placement == s.game.moves[0].master.placement


def test_audit_finds_a_tampered_journal(lex600):
    s = Session.create(Journal(":memory:"), settings(moves=3), lex600)
    s.play_auto()
    assert audit(s, sample=1).ok
    # a rack recorded as legal that breaks FISE-4 (six consonants at move 1): the audit says so
    es = alphabet("es")
    j = Journal(":memory:")
    t = Session.create(j, Settings(ruleset("fise"), "es", "x", racks="hand"), lex600)
    payload = {
        "move": 1,
        "attempt": 1,
        "kept": [],
        "drawn": ["B", "C", "D", "F", "G", "H", "A"],
        "fixed": [],
        "returned": [],
        "legal": True,
        "condition": "forged",
        "reason": "",
        "source": "hand",
    }
    j.append(t.id, "draw", payload)
    report = audit(Session(j, t.id, lex600), sample=0)
    assert report.of("racks") and "recorded legal" in report.of("racks")[0]
    assert es.total_tiles == 100
