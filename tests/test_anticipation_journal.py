"""The game journal: every event stored before anything is computed from it; deterministic; crash-safe."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from anticipation_support import csv_text, lexicon, new_game, play, scripted_slips
from arbitru.errors import JournalError
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.journal.store import Journal
from kill_support import run_and_kill
from test_anticipation_correction import AL, CAL, GROUPS, LOTS, VEST

TESTS = Path(__file__).parent


def test_events_are_stored_as_written_before_the_correction(tmp_path):
    game = new_game(tmp_path, GROUPS, LOTS)
    game.import_slips_csv(csv_text([("Ana", " 1 ", 1, " h7", "al", "4 ", "", "Verificare")]))
    (slip,) = game.journal.events(game.id, "slip")
    row = slip.payload["rows"][0]
    assert (row["table"], row["position"], row["word"], row["score"]) == (" 1 ", " h7", "al", "4 ")
    assert [e.kind for e in game.journal.events(game.id)] == ["draw", *["lot"] * 14, "slip"]


def test_replay_is_deterministic(tmp_path):
    game, st = play(tmp_path, GROUPS, LOTS, [AL, CAL, VEST])
    again = AnticipationGame(Journal(tmp_path / "games.db"), game.id, lexicon()).replay()
    assert st.to_dict() == again.to_dict() and st.digest() == again.digest()


def test_replay_up_to_an_event(tmp_path):
    game, st = play(tmp_path, GROUPS, LOTS, [AL, CAL, VEST])
    first = game.journal.events(game.id, "slip")[0].seq
    early = game.replay(upto=first)
    assert early.results["Ana"].total == 4 and st.results["Ana"].total == 31


def test_re_entered_slip_replaces_the_old_one_which_stays(tmp_path):
    game, _ = play(tmp_path, GROUPS, LOTS, [AL, CAL])
    from arbitru.formats.anticipation.slips import SlipFileError

    with pytest.raises(SlipFileError, match="already stored"):
        game.import_slips_csv(csv_text([("Ana", 1, 2, "H6", "CAL", 3, "", "")]))
    game.import_slips_csv(csv_text([("Ana", 1, 2, "H5", "CAL", 3, "", "")]), replace=True)
    st = game.replay()
    slips = game.journal.events(game.id, "slip")
    assert len(slips) == 3
    assert st.results["Ana"].slips[2].replaces == [slips[1].seq]
    assert st.results["Ana"].slips[2].placements[0].written_position == "H5"


def test_unknown_event_kind(tmp_path):
    game = new_game(tmp_path, GROUPS, LOTS)
    game.journal.append(game.id, "mystery", {})
    with pytest.raises(JournalError, match="unknown kind 'mystery'"):
        game.replay()


def test_journal_refuses_changes(tmp_path):
    game = new_game(tmp_path, GROUPS, LOTS)
    with pytest.raises(JournalError, match="never changed"):
        game.journal.execute("UPDATE event SET payload = '{}'")


CHILD = """
import sys
sys.path.insert(0, {tests!r})
import anticipation_support
anticipation_support.run_scripted_game({db!r})
"""


def _rebuild(source: Journal, game_id: str, upto: int, path: Path) -> Journal:
    """A fresh journal holding the same events (what replay should see after the crash)."""
    copy = Journal(path)
    info = source.game(game_id)
    copy.create_game(info.format, info.settings, game_id)
    copy.append_many(game_id, [(e.kind, e.payload) for e in source.events(game_id) if e.seq <= upto])
    return copy


@pytest.mark.parametrize("attempt", range(4))
def test_crash_safety_sigkill_at_random_points(tmp_path, attempt, journal_store, request):
    rng = random.Random(attempt)
    # the child is another process: give it the store itself, a file or a PostgreSQL schema
    db = tmp_path / "crash.db" if journal_store == "sqlite" else request.getfixturevalue("pg_server").new_schema()
    lines, stderr = run_and_kill(CHILD.format(tests=str(TESTS), db=str(db)), rng)
    # a line is printed after its event is committed
    committed = [int(x) for x in lines if x.strip().isdigit()]
    assert committed, f"the child committed nothing before the kill: {stderr}"
    assert "done\n" not in lines, "the kill came after the end of the script"
    print(f"killed after {len(committed)} committed events")

    journal = Journal(db)
    events = journal.events("crash")
    seqs = [e.seq for e in events]
    assert set(committed) <= set(seqs), "an event reported committed is missing after the crash"
    assert seqs == list(range(1, len(seqs) + 1))  # no holes
    # the events are exactly the script's, in order
    slips = [e.payload for e in events if e.kind == "slip"]
    expected = [s.to_payload() for s in scripted_slips()[: len(slips)]]
    assert slips == expected
    # replaying the reopened journal gives the state a journal with the same events gives
    game = AnticipationGame(journal, "crash", lexicon())
    state = game.replay()
    rebuilt = _rebuild(journal, "crash", seqs[-1], tmp_path / "rebuilt.db")
    assert AnticipationGame(rebuilt, "crash", lexicon()).replay().to_dict() == state.to_dict()
    # and the journal takes new events after the crash
    game.journal.append("crash", "sanction", {"player": "P00", "kind": "disciplinary", "reason": "x"})
