"""The journal under concurrent writers, kills and damage (G-journal: one write path that checks and appends in
one transaction; every stored input replays; damage is one clear error naming the game and event).

Real processes on a real SQLite file: no mock anywhere.
"""

from __future__ import annotations

import functools
import json
import multiprocessing
import os
import random
import sqlite3
import sys
import traceback
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from arbitru.cli import cli
from arbitru.cli.journal import copy_games, export_lines, read_export, replay_game
from arbitru.errors import ArbitruError, JournalError
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.formats.anticipation.slips import Slip as AntSlip
from arbitru.formats.anticipation.slips import SlipRow
from arbitru.formats.anticipation.variants import Settings as AntSettings
from arbitru.formats.duplicate.game import GameError, Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Event, GameInfo, Journal
from arbitru.lexicons.synthetic import synthetic_lexicon

TESTS = Path(__file__).parent
sys.path.insert(0, str(TESTS))
import anticipation_support as ant  # noqa: E402
from kill_support import run_and_kill  # noqa: E402

DUP_PLAYERS = [str(n) for n in range(1, 9)]
ANT_PLAYERS = [f"P{n}" for n in range(1, 9)]
SYNTHETIC = "synthetic:4000"


@functools.cache
def dup_lexicon():
    return synthetic_lexicon("es", 4000)


def dup_settings(**kw) -> Settings:
    return Settings(ruleset("fise"), "es", SYNTHETIC, seed=kw.pop("seed", "7"), **kw)


def make_games(db: Path | str) -> tuple[str, str]:
    """A seeded duplicate game and an anticipation game with its groups, both in ``db``."""
    journal = Journal(db, actor="setup")
    dup = Session.create(journal, dup_settings(), dup_lexicon(), [Player(p, f"Player {p}") for p in DUP_PLAYERS],
                         game_id="dup")
    dup.draw()
    lex = ant.lexicon()
    AnticipationGame.create(
        journal,
        AntSettings(lexicon=lex.name),
        ant.Draw(ant.groups_with(ant.SCRIPT_GROUPS), "manual"),
        lexicon=lex,
        game_id="ant",
    )
    journal.close()
    return "dup", "ant"


# --- the concurrency storm ---------------------------------------------------------------------------------

ACTIONS = ("dup-slip", "dup-next", "dup-ruling", "ant-lot", "ant-slip", "ant-decision", "ant-correction")
WEIGHTS = (40, 8, 6, 6, 30, 6, 4)


def _worker(db: str, worker: int, count: int, out: str) -> None:
    """Run ``count`` random actions of every kind; write what was acknowledged and refused as JSON."""
    rng = random.Random(worker)
    dlex = dup_lexicon()
    alex = ant.lexicon()
    acked: list[dict[str, object]] = []
    refused: list[str] = []
    crashes: list[str] = []
    journal = Journal(db, actor=f"desk:{worker}")
    session: Session | None = None
    for i in range(count):
        kind = rng.choices(ACTIONS, WEIGHTS)[0]
        try:
            if kind.startswith("dup"):
                # half the actions on a long-lived session (it catches up inside its transaction), half fresh
                if session is None or rng.random() < 0.5:
                    session = Session(journal, "dup", dlex)
                if kind == "dup-slip":
                    move = max(1, session.game.move)
                    player = rng.choice(DUP_PLAYERS)
                    slip = Slip(move, player, "H8", f"W{worker}X{i}", rng.randrange(100))
                    session.store_slips([slip])
                    acked.append({"kind": kind, "payload": slip.to_payload()})
                elif kind == "dup-next":
                    steps = session.next()
                    acked.append({"kind": kind, "steps": [s.kind for s in steps]})
                else:
                    session.rule(rng.choice(["CASA", "ABC", "XYZ"]), rng.random() < 0.5, f"w{worker}")
                    acked.append({"kind": kind})
            else:
                game = AnticipationGame(journal, "ant", alex)
                if kind == "ant-lot":
                    lot = game.draw_lot()
                    acked.append({"kind": kind, "turn": lot.turn, "group": lot.group})
                elif kind == "ant-slip":
                    turn = rng.randrange(1, 15)
                    player = rng.choice(ANT_PLAYERS)
                    rows = [SlipRow(1, "1", str(turn), "H7", "AL", "4", "", f"w{worker} {i}")]
                    slip = AntSlip(player, turn, rows, f"desk{worker}", str(turn))
                    (seq,) = game.enter_slips([slip])
                    acked.append({"kind": kind, "seq": seq, "payload": slip.to_payload()})
                elif kind == "ant-decision":
                    seq = game.decide(rng.choice(ANT_PLAYERS), "total", "adjust", f"w{worker} {i}", points=1)
                    acked.append({"kind": kind, "seq": seq})
                else:
                    seq = game.record_correction(game.replay())
                    acked.append({"kind": kind, "seq": seq})
        except ArbitruError as e:
            refused.append(f"{kind}: {e}")
        except Exception:
            crashes.append(f"{kind}: {traceback.format_exc()}")
    journal.close()
    Path(out).write_text(json.dumps({"acked": acked, "refused": refused, "crashes": crashes}))


def test_journal_four_writers_200_actions_each_no_broken_game_no_lost_or_replaced_entry(tmp_path, journal_spec):
    db = journal_spec
    make_games(db)
    ctx = multiprocessing.get_context("fork")
    outs = [tmp_path / f"w{n}.json" for n in range(4)]
    procs = [ctx.Process(target=_worker, args=(str(db), n, 200, str(outs[n]))) for n in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(300)
        assert p.exitcode == 0
    reports = [json.loads(o.read_text()) for o in outs]
    crashes = [c for r in reports for c in r["crashes"]]
    assert not crashes, crashes[0]
    acked = [a for r in reports for a in r["acked"]]
    refused = [x for r in reports for x in r["refused"]]
    assert len(acked) + len(refused) == 800
    print(f"{len(acked)} acknowledged, {len(refused)} refused: {Counter(x.split(':')[0] for x in refused)}")

    with Journal(db) as j:
        # no broken game: both replay to the end, results included
        assert replay_game(j, "dup").events == j.last_seq("dup")
        assert replay_game(j, "ant").events == j.last_seq("ant")
        events = {g: j.events(g) for g in ("dup", "ant")}
        assert {e.actor for e in events["dup"]} >= {"setup", "desk:0", "desk:1", "desk:2", "desk:3"}

        # no lost entry: every acknowledged slip is stored exactly once, as written
        dup_slips = [e.payload for e in events["dup"] if e.kind == "slip"]
        for a in acked:
            if a["kind"] == "dup-slip":
                assert dup_slips.count(a["payload"]) == 1
        ant_slips = {e.seq: e.payload for e in events["ant"] if e.kind == "slip"}
        for a in acked:
            if a["kind"] == "ant-slip":
                assert ant_slips[a["seq"]] == a["payload"]
        # no silently replaced entry: one slip per player and move/turn, since nobody asked to replace
        assert max(Counter((p["move"], p["player"]) for p in dup_slips).values()) == 1
        assert max(Counter((p["player"], p["turn"]) for p in ant_slips.values()).values()) == 1
        assert len(dup_slips) == sum(1 for a in acked if a["kind"] == "dup-slip")
        assert len(ant_slips) == sum(1 for a in acked if a["kind"] == "ant-slip")

        # lots: each acknowledged one stored, 14 at most, turns and groups distinct
        lots = [e.payload for e in events["ant"] if e.kind == "lot"]
        assert len(lots) == sum(1 for a in acked if a["kind"] == "ant-lot") <= 14
        assert len({lot["turn"] for lot in lots}) == len(lots) == len({lot["group"] for lot in lots})

        # the duplicate game went forward one move per acknowledged master, never two at once
        dup = Session(j, "dup", dup_lexicon())
        masters = [e.payload["move"] for e in events["dup"] if e.kind == "master"]
        assert masters == list(range(1, len(masters) + 1))
        closed = sum(a["steps"].count("master") for a in acked if a["kind"] == "dup-next")
        assert closed == len(masters)
        assert dup.game.phase in ("play", "over")
    # every refusal is a clear message, and it says why
    for text in refused:
        _kind, _, message = text.partition(": ")
        assert message and "Traceback" not in message


def _open_then_next(db: str, barrier, out: str) -> None:
    session = Session(Journal(db, actor=f"desk:{os.getpid()}"), "dup", dup_lexicon())
    barrier.wait()
    try:
        steps = session.next()
        Path(out).write_text("ok " + " ".join(s.kind for s in steps))
    except GameError as e:
        Path(out).write_text(f"refused {e}")


def test_journal_two_duplicate_next_at_once_close_one_move_and_draw_one_rack(tmp_path, journal_spec):
    db = journal_spec
    make_games(db)
    ctx = multiprocessing.get_context("fork")
    for _round in range(3):
        barrier = ctx.Barrier(2)
        outs = [tmp_path / f"n{k}.txt" for k in range(2)]
        with Journal(db) as j:
            before = j.events("dup")
        procs = [ctx.Process(target=_open_then_next, args=(str(db), barrier, str(o))) for o in outs]
        for p in procs:
            p.start()
        for p in procs:
            p.join(60)
        results = sorted(o.read_text() for o in outs)
        assert results[0] == "ok master rack", results
        assert results[1].startswith("refused the game changed"), results
        with Journal(db) as j:
            new = [e.kind for e in j.events("dup")[len(before):]]
        assert new.count("master") == 1
        assert new.count("draw") >= 1 and new[-1] == "draw"


# --- kills ---------------------------------------------------------------------------------------------------

NEXT_CHILD = """
import sys
sys.path.insert(0, {tests!r})
from test_journal_integrity import next_forever
next_forever({db!r})
"""


def next_forever(db: str) -> None:
    """``duplicate next`` again and again on fresh seeded games, printing each committed game and step."""
    journal = Journal(db)
    n = 0
    while True:
        n += 1
        session = Session.create(journal, dup_settings(seed=str(n)), dup_lexicon(), game_id=f"g{n}")
        while session.game.phase != "over":
            session.next()
            print(f"{session.id} {session.game.move} {session.game.phase}", flush=True)


@pytest.mark.parametrize("attempt", range(3))
def test_journal_kill_during_duplicate_next_leaves_master_and_rack_both_or_neither(tmp_path, attempt, journal_spec):
    rng = random.Random(attempt)
    db = journal_spec
    lines, stderr = run_and_kill(NEXT_CHILD.format(tests=str(TESTS), db=str(db)), rng)
    committed = [line.split() for line in lines]
    assert committed, stderr
    with Journal(db) as j:
        last = j.game_ids()[-1]
        # PostgreSQL may still be finishing the killed client's last transaction (commit or rollback): the
        # game's lock is free once it has
        with j.transaction(last):
            pass
        games = {gid: Session(j, gid, dup_lexicon()).game for gid in j.game_ids()}
        for gid, game in games.items():
            # a rack is on the stand (master and next rack both written) or the game is over: never a master
            # move with no rack after it
            # (a game killed right after its creation has no rack yet: move 0)
            assert game.phase in ("play", "over") or game.move == 0, (gid, game.move, game.phase)
        assert replay_game(j, last).events == j.last_seq(last)
        for gid, move, _phase in committed:
            assert games[gid].move >= int(move)


# --- transactions and actors ---------------------------------------------------------------------------------


def test_journal_a_failed_action_stores_nothing_and_the_session_stays_right(journal_spec):
    db = journal_spec
    make_games(db)
    session = Session(Journal(db), "dup", dup_lexicon())
    before = session.journal.last_seq("dup")
    with pytest.raises(GameError):
        session.store_slips([Slip(1, "1", "H8", "A"), Slip(9, "2", "H8", "B")])
    assert session.journal.last_seq("dup") == before
    assert session.game.slips == {} and session.game.last_seq == before


def test_a_deep_check_calls_its_pace_every_500_events_read(journal_spec):
    """A deep damage check reads every event (a national game's 150,000 take most of a second of Python): a
    reader that shares its process with an event loop is given a place to sleep every PACE_EVENTS events."""
    from arbitru.journal.store import PACE_EVENTS

    j = Journal(journal_spec)
    g = j.create_game("duplicate", {})
    j.append_many(g, [("x", {"n": n}) for n in range(2 * PACE_EVENTS + 7)])
    calls: list[int] = []
    assert j.game_damage(g, deep=True, pace=lambda: calls.append(1)) is None
    assert PACE_EVENTS == 500 and len(calls) == 2
    assert j.game_damage(g) is None and len(calls) == 2  # an index walk reads no event: nothing to pace


def test_finding_a_sound_game_is_called_damaged_when_another_writer_commits_during_its_check(
        journal_spec, monkeypatch):
    """Under a second web worker's slips, the deep check counted the index, then read every event: events committed
    between the two reads made a sound game 'damaged' and its slips were refused with 503 for 10 s. Likewise the
    start's two passes (table and index) of a worker started while another writes."""
    j, other = Journal(journal_spec), Journal(journal_spec)
    g = j.create_game("duplicate", {})
    for n in range(5):
        j.append(g, "x", {"n": n})
    real = Journal.iter_events

    def iter_events(self, game_id, *args, **kw):
        if self is j:
            other.append(g, "x", {"n": "committed by another worker meanwhile"})
        return real(self, game_id, *args, **kw)

    monkeypatch.setattr(Journal, "iter_events", iter_events)
    assert j.game_damage(g, deep=True) is None
    assert j.game_damage(g, deep=True) is None and j.last_seq(g) == 7
    real_all = Journal._all

    def all_rows(self, statement, *args):
        rows = real_all(self, statement, *args)
        if self is j:
            other.append(g, "x", {"n": "between the table's pass and the index's"})
        return rows

    monkeypatch.setattr(Journal, "_all", all_rows)
    assert j.games_short_of_their_table() == {}


def test_journal_nested_transactions_join_the_outer_one(journal_spec):
    j = Journal(journal_spec)
    g = j.create_game("duplicate", {})
    with pytest.raises(RuntimeError), j.transaction():
        j.append(g, "x", {})
        with j.transaction():
            j.append(g, "y", {})
        raise RuntimeError("the outer action fails")
    assert j.events(g) == []


def test_journal_every_event_has_its_actor(journal_spec, monkeypatch):
    monkeypatch.setenv("ARBITRU_ACTOR", "desk:Ana")
    j = Journal(journal_spec)
    g = j.create_game("duplicate", {})
    j.append(g, "x", {})
    j.actor = "player:3"
    j.append(g, "y", {})
    assert [e.actor for e in j.events(g)] == ["desk:Ana", "player:3"]
    monkeypatch.delenv("ARBITRU_ACTOR")
    assert Journal(journal_spec).actor.startswith("cli:")
    with pytest.raises(JournalError):
        Journal(journal_spec, actor="x" * 200)
    with pytest.raises(JournalError):
        Journal(journal_spec, actor="bad\udcff")


def test_journal_an_older_journal_gains_the_actor_column_and_keeps_its_events(tmp_path):
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript(
        """CREATE TABLE game (id TEXT PRIMARY KEY, format TEXT NOT NULL, created TEXT NOT NULL, settings TEXT NOT NULL);
        CREATE TABLE event (game_id TEXT NOT NULL REFERENCES game(id), seq INTEGER NOT NULL, kind TEXT NOT NULL,
            payload TEXT NOT NULL, recorded TEXT NOT NULL, PRIMARY KEY (game_id, seq));
        INSERT INTO game VALUES ('g', 'duplicate', '2026-01-01', '{}');
        INSERT INTO event VALUES ('g', 1, 'x', '{"a": 1}', '2026-01-01');"""
    )
    db.commit()
    db.close()
    j = Journal(path, actor="arbiter")
    j.append("g", "y", {})
    assert [(e.kind, e.actor) for e in j.events("g")] == [("x", ""), ("y", "arbiter")]
    with pytest.raises(sqlite3.DatabaseError):
        j.db.execute("DELETE FROM event")


def test_journal_optimistic_append_refused_when_the_game_changed(journal_spec):
    j = Journal(journal_spec)
    g = j.create_game("duplicate", {})
    j.append(g, "x", {})
    with pytest.raises(JournalError, match="changed"):
        j.append_many(g, [("y", {})], expected_last=0)
    assert j.append_many(g, [("y", {})], expected_last=1) == [2]


# --- damage ----------------------------------------------------------------------------------------------------


def _raw_insert(db: Path, game: str, kind: str, payload: bytes | str) -> None:
    con = sqlite3.connect(db)
    (last,) = con.execute("SELECT COALESCE(MAX(seq), 0) FROM event WHERE game_id = ?", (game,)).fetchone()
    con.execute(
        "INSERT INTO event (game_id, seq, kind, payload, recorded, actor) VALUES (?, ?, ?, ?, '2026', 'x')",
        (game, last + 1, kind, payload),
    )
    con.commit()
    con.close()


@pytest.mark.parametrize(
    ("game", "kind", "payload", "message"),
    [
        ("dup", "slip", b"\xff\xfe{}", "not UTF-8"),
        ("dup", "slip", "{not json", "not JSON"),
        ("dup", "slip", "[1, 2]", "not a JSON object"),
        ("ant", "lot", '{"turn": 1}', "event"),
        ("dup", "master", '{"move": 1}', "event"),
    ],
    ids=["non-utf8", "bad-json", "not-object", "missing-field-group", "missing-field-master"],
)
def test_journal_damaged_event_is_one_clear_error_naming_game_and_event(tmp_path, game, kind, payload, message):
    db = tmp_path / "d.db"
    make_games(db)
    _raw_insert(db, game, kind, payload)
    with Journal(db) as j:
        seq = j.last_seq(game)
        with pytest.raises(JournalError, match=message) as e:
            replay_game(j, game)
        assert f"game {game}" in str(e.value) and str(seq) in str(e.value)
        other = "ant" if game == "dup" else "dup"
        assert replay_game(j, other).events == j.last_seq(other)  # the other game stays readable
    result = CliRunner().invoke(cli, ["journal", "check", str(db)])
    assert result.exit_code == 1 and "DAMAGED" in result.output and "Traceback" not in result.output
    assert f"game {other} " in result.output and "1 of 2 games replay" in result.output
    args = ["duplicate", "results", "-j", str(db)]
    if game == "ant":
        args = ["anticipation", "results", "ant", "--db", str(db)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and result.output.startswith("error: ") and f"game {game}" in result.output


@pytest.mark.parametrize("damage", ["zeroed-page", "flipped-bytes"])
def test_journal_damaged_pages_are_reported_not_a_traceback(tmp_path, damage):
    db = tmp_path / "p.db"
    make_games(db)
    with Journal(db) as j:
        session = Session(j, "dup", dup_lexicon())
        for n in range(300):
            session.store_slips([Slip(1, str(n + 100), "H8", "X" * 50, n)])
        j.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(db.read_bytes())
    page = 4096
    pages = len(data) // page
    target = pages // 2
    if damage == "zeroed-page":
        data[target * page:(target + 1) * page] = bytes(page)
    else:
        for k in range(0, page, 97):
            data[target * page + k] ^= 0x5A
    db.write_bytes(bytes(data))
    result = CliRunner().invoke(cli, ["journal", "check", str(db)])
    assert result.exit_code == 1, result.output
    assert "SQLite integrity FAILED" in result.output
    assert "game dup: DAMAGED: game dup: the journal is damaged" in result.output
    assert "game ant (anticipation): 1 events replay" in result.output  # the other game stays readable
    result = CliRunner().invoke(cli, ["duplicate", "results", "-j", str(db), "--game", "dup"])
    assert result.exit_code == 2 and result.output.startswith("error: game dup: the journal is damaged after event")


# --- export, import, copy ---------------------------------------------------------------------------------------


def test_journal_export_import_round_trip_keeps_every_event_as_stored(tmp_path, journal_spec):
    db = journal_spec
    make_games(db)
    with Journal(db, actor="desk:1") as j:
        Session(j, "dup", dup_lexicon()).store_slips([Slip(1, "1", " H8 ", "casa ", 12, note="a\rb")])
        lines = export_lines(j, "dup")
        original = j.events("dup")
        before = replay_game(j, "dup")
    info, events = read_export("\n".join(lines))
    assert events == original and info.id == "dup"
    runner = CliRunner()
    out = tmp_path / "dup.jsonl"
    assert runner.invoke(cli, ["journal", "export", str(db), "-g", "dup", "--out", str(out)]).exit_code == 0
    target = tmp_path / "t.db"
    result = runner.invoke(cli, ["journal", "import", str(target), str(out)])
    assert result.exit_code == 0, result.output
    with Journal(target) as j:
        assert j.events("dup") == original
        assert replay_game(j, "dup").digest == before.digest
    again = runner.invoke(cli, ["journal", "import", str(target), str(out)])
    assert again.exit_code == 2 and "exists already" in again.output


def test_journal_import_of_a_game_that_does_not_replay_stores_nothing(tmp_path, journal_spec):
    db = journal_spec
    make_games(db)
    with Journal(db) as j:
        info, events = j.game("dup"), j.events("dup")
    broken = [*events, Event(len(events) + 1, "master", {"move": 7}, "2026", "x")]
    target = Journal(tmp_path / "t.db")
    from arbitru.cli.journal import import_game

    with pytest.raises(JournalError, match="game dup"):
        import_game(target, info, broken)
    assert target.game_ids() == []
    with pytest.raises(JournalError, match="event 3 where event 2"):
        target.import_game(GameInfo("z", "duplicate", "2026", {}), [events[0], Event(3, "x", {}, "", "")])
    assert target.game_ids() == []


def test_journal_import_keeps_the_doors_limits(tmp_path, journal_spec):
    """An export edited by hand cannot carry what the door refuses: a 5,000-digit note, a kind of
    10,000 characters; one error line, nothing stored."""
    db = journal_spec
    make_games(db)
    runner = CliRunner()
    out = tmp_path / "dup.jsonl"
    assert runner.invoke(cli, ["journal", "export", str(db), "-g", "dup", "--out", str(out)]).exit_code == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    for edit in ({"payload": {"note": "Anulez turul " + "9" * 5000}}, {"kind": "k" * 10_000},
                 {"recorded": "2" * 100_000}):
        changed = [records[0], *({**r, **edit} if r["seq"] == 1 else r for r in records[1:])]
        out.write_text("\n".join(json.dumps(r) for r in changed))
        target = tmp_path / "t.db"
        result = runner.invoke(cli, ["journal", "import", str(target), str(out)])
        assert result.exit_code == 2 and result.output.startswith("error: event 1"), result.output
        assert len(result.output.strip().splitlines()) == 1
        with Journal(target) as j:
            assert j.game_ids() == []


@pytest.mark.parametrize(
    "text",
    ["", "not json", "[1]", '{"kind": "other"}', '{"kind": "arbitru-journal-game", "version": 1}',
     '{"kind": "arbitru-journal-game", "version": 1, "id": "g", "format": "duplicate", "created": "x", '
     '"settings": {}}\n{"seq": "1"}'],
)
def test_journal_a_broken_export_file_is_one_clear_error(tmp_path, text):
    src = tmp_path / "bad.jsonl"
    src.write_text(text)
    result = CliRunner().invoke(cli, ["journal", "import", str(tmp_path / "t.db"), str(src)])
    assert result.exit_code == 2 and result.output.startswith("error: "), result.output
    with Journal(tmp_path / "t.db") as j:
        assert j.game_ids() == []


def test_journal_copy_replays_identically_on_both_sides(tmp_path, journal_spec):
    db = journal_spec
    make_games(db)
    with Journal(db) as src, Journal(tmp_path / "copy.db") as dst:
        pairs = copy_games(src, dst)
        assert [(a.digest, a.events) for a, _ in pairs] == [(b.digest, b.events) for _, b in pairs]
        assert sorted(dst.game_ids()) == ["ant", "dup"]


def _simulated_anticipation_game(journal: Journal) -> str:
    from arbitru.formats.anticipation.simulate import simulate

    sim = simulate(ant.lexicon(), players=200, seed=7)
    game = AnticipationGame.create(
        journal, AntSettings(lexicon=ant.lexicon().name, seed=7), sim.draw, lexicon=ant.lexicon(),
        seating=sim.seating, game_id="sim200",
    )
    for turn, group in enumerate(sim.lots, 1):
        game.draw_lot(turn, group)
    for turn in sorted(sim.slips):
        game.enter_slips(sim.slips[turn])
    return game.id


def test_journal_copy_sqlite_to_postgresql_and_back_replays_identically(tmp_path, pg_server):
    """The 200-player simulated anticipation game and a sample of seeded duplicate games, copied SQLite →
    PostgreSQL → SQLite: every replay (results included) has the same digest on the three stores."""
    first = Journal(tmp_path / "first.db")
    _simulated_anticipation_game(first)
    for n in range(12):
        Session.create(first, dup_settings(seed=str(n)), dup_lexicon(), game_id=f"d{n}").play_auto()
    middle = Journal(pg_server.new_database())
    there = copy_games(first, middle)
    back = copy_games(middle, Journal(tmp_path / "back.db"))
    assert [b.digest for _, b in there] == [b.digest for _, b in back] == [a.digest for a, _ in there]
    assert len(there) == 13 and sum(a.events for a, _ in there) > 2800


def test_journal_postgresql_commits_are_announced_to_listeners_in_other_processes(pg_server):
    from arbitru.journal.backends import listen

    dsn = pg_server.new_database()
    writer = Journal(dsn, actor="desk:1")
    g = writer.create_game("duplicate", {})
    notes = listen(dsn, timeout=0.2)
    assert next(notes) is None  # listening, nothing yet
    writer.append(g, "x", {})
    with pytest.raises(RuntimeError), writer.transaction(g):
        writer.append(g, "rolled back", {})
        raise RuntimeError("never committed: never announced")
    writer.append_many(g, [("y", {}), ("z", {})])
    seen = []
    for note in notes:
        if note is None:
            break
        seen.append(note)
    assert seen == [(g, 1, "*"), (g, 3, "*")]


def test_journal_check_on_postgresql_names_its_store_and_hides_the_password(pg_server):
    """Finding of trying docs/deploy.md end to end: the check of a PostgreSQL journal said "SQLite integrity ok"
    and printed the address with its password (the tests' server trusts 127.0.0.1, so any password connects)."""
    url = pg_server.new_database().replace("@127.0.0.1", ":hunter2@127.0.0.1", 1)
    make_games(url)
    result = CliRunner().invoke(cli, ["journal", "check", "--db", url])
    assert result.exit_code == 0, result.output
    assert "hunter2" not in result.output and "SQLite" not in result.output
    assert result.output.startswith(f"journal {url.replace(':hunter2', '')}: PostgreSQL ok")
    assert "2 of 2 games replay" in result.output
    report = json.loads(CliRunner().invoke(cli, ["journal", "check", url, "--json"]).output)
    assert report["ok"] and "hunter2" not in report["journal"]
