"""Shared helpers for the tests that write journals by hand: a small duplicate game and a small anticipation
game with every event kind, events copied into a new game, and raw events stored without the door's checks
(as a foreign tool, an old version or a damaged file would leave them)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from anticipation_support import csv_text, lexicon, new_game
from arbitru.engine.lexicon import Lexicon
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.formats.duplicate import seats
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import synthetic_lexicon
from test_anticipation_correction import CAL, GROUPS, LOTS

DUPLICATE_LIST = "synthetic:300"


def duplicate_lexicon() -> Lexicon:
    return synthetic_lexicon("es", 300, name=DUPLICATE_LIST)


def duplicate_game(journal: Journal) -> Session:
    """Two players, two moves closed, a third open; slips, a ruling, a withdrawal and the end: every kind."""
    settings = Settings(ruleset("fise"), "es", DUPLICATE_LIST, seed="7")
    session = Session.create(journal, settings, duplicate_lexicon(), [Player("1", "Ana", "1"), Player("2", "Bob")])
    session.draw()
    first = session.place_master()
    assert first.master is not None
    coord = first.master.placement.coord.format("fise")
    word = session.game.alphabet.format(first.master.placement.word)
    session.add_slips([Slip(1, "1", coord, word, first.master.score), Slip(1, "2", "H8", "ZZZ", 3, table="2")])
    session.draw()
    session.place_master()
    session.draw()
    session.add_slips([Slip(3, "1", "A1", "CASA", None, late=True, note="tarde")])
    session.rule("CASA", True, "diccionario")
    seats.withdraw(session, "2")
    session.end_game("time")
    return session


def anticipation_game(tmp_path: Path, db: str = "games.db") -> AnticipationGame:
    """Seated players, lots, slips with notes, a decision, a sanction, a correction and a publication."""
    game = new_game(tmp_path, GROUPS, LOTS, seating=[("Ana", 1, "Ana Pop"), ("Dan", 2, "")], db=db)
    game.import_slips_csv(
        csv_text([
            ("Ana", 1, 1, "H7", "AL", 4, 4, "Verificare AL"),
            CAL,
            ("Dan", 2, 1, "H7", "LA", 4, 4, "Anulez turul 3"),
            ("Dan", 2, 2, "", "PAS", "", "", ""),
        ])
    )
    game.decide("Dan", "placement", "valid", "contest upheld", turn=1, index=1)
    game.sanction("Dan", "disciplinary", "talking", 2)
    game.record_correction(game.replay(), 2)
    game.publish("provisional", "18:00", confirmed=True)  # turns not played: ended on purpose
    return game


def copy_game(journal: Journal, source: str, events: Iterable[tuple[str, Any]]) -> str:
    """A new game with the settings of ``source`` and these events (kind, payload: any JSON value), stored
    raw, without the checks :meth:`Journal.append` makes."""
    info = journal.game(source)
    gid = journal.create_game(info.format, info.settings)
    store_raw(journal, gid, events)
    return gid


def copy_game_with_settings(journal: Journal, source: str, settings: Any) -> str:
    """A new game with the events of ``source`` and these settings (any JSON value), stored raw."""
    info = journal.game(source)
    gid = uuid.uuid4().hex[:12]
    values = {"id": gid, "format": info.format, "created": "2026-01-01T00:00:00+00:00",
              "settings": json.dumps(settings, ensure_ascii=False)}
    _insert(journal, "game", values)
    store_raw(journal, gid, events_of(journal, source))
    return gid


def _insert(journal: Journal, table: str, values: dict[str, Any]) -> None:
    """Insert a row, filling columns a later schema may add (who acted...) with empty text."""
    if journal.store == "sqlite":
        columns = [(row[1], bool(row[3]), row[4]) for row in journal.execute(f"PRAGMA table_info({table})")]
    else:
        sql = "SELECT column_name, is_nullable = 'NO', column_default FROM information_schema.columns "
        columns = [(row[0], row[1], row[2]) for row in journal.execute(sql + "WHERE table_name = ?", (table,))]
    for name, notnull, default in columns:
        if name not in values and notnull and default is None:
            values[name] = ""
    journal.execute(
        f"INSERT INTO {table} ({', '.join(values)}) VALUES ({', '.join('?' * len(values))})",
        tuple(values.values()),
    )


def store_raw(journal: Journal, game_id: str, events: Iterable[tuple[str, Any]]) -> None:
    """Append events as a foreign writer would: any JSON, straight into the table."""
    ((last,),) = journal.execute("SELECT COALESCE(MAX(seq), 0) FROM event WHERE game_id = ?", (game_id,))
    for kind, payload in events:
        last += 1
        values: dict[str, Any] = {
            "game_id": game_id,
            "seq": last,
            "kind": kind,
            "payload": json.dumps(payload, ensure_ascii=False),
            "recorded": "2026-01-01T00:00:00+00:00",
        }
        _insert(journal, "event", values)


def events_of(journal: Journal, game_id: str) -> list[tuple[str, Mapping[str, Any]]]:
    return [(e.kind, e.payload) for e in journal.events(game_id)]


def anticipation_lexicon() -> Lexicon:
    return lexicon()
