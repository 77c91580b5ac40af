"""What a group commit of phones' slips says to PostgreSQL, read from libpq's own trace of the connection (a
real server): the finding was five round trips per batch (BEGIN with the lock, the throttle query, the refresh's
read, the appends, the notice with COMMIT), each statement waiting for the one before. Then two, whatever the
batch's size, with prepared statements. Now one when the worker's state of the game is the latest it has heard of
(one statement: the database stores the batch only if the game has not moved on and no sender waits), two when
another worker's appends are to be read first, and every slip still stored and committed before its receipt."""

from __future__ import annotations

import tempfile
from itertools import pairwise

from arbitru.formats.duplicate.game import Session
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.web import auth, security
from arbitru.web.app import create_app
from arbitru.web.house import Web
from arbitru.web.intake import SlipRequest
from arbitru.web.live import LocalPublisher, PostgresPublisher
from web_support import Site, make_game

PLAYERS = 40


def conversation(journal: Journal, run: object) -> list[tuple[str, str]]:
    """``(F or B, message type)`` of every message this connection sent (F) and received (B) while ``run()``
    ran, from libpq's trace."""
    from psycopg import pq

    pgconn = journal.db.pgconn  # type: ignore[attr-defined]
    with tempfile.TemporaryFile("w+") as out:
        pgconn.trace(out.fileno())
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        try:
            run()  # type: ignore[operator]
        finally:
            pgconn.untrace()
        out.seek(0)
        return [(f[0], f[2]) for f in (line.split("\t") for line in out.read().splitlines()) if len(f) > 2]


def round_trips(messages: list[tuple[str, str]]) -> int:
    """How many times the client sent and then waited for the server's answer (each turn from F to B)."""
    return sum(1 for a, b in pairwise(messages) if a[0] == "F" and b[0] == "B")


def slips(w: Web, gid: str, secret: bytes, players: range, key: str) -> list[SlipRequest]:
    """One slip per player as the JSON API queues it: by code, with its idempotency key and throttle keys."""
    batch = []
    for p in players:
        req = SlipRequest(1, "H8", "ABC", None, code=auth.player_code(secret, gid, str(p)), key=f"{key}-{p}")
        req.throttle = [k.name for k in security.code_keys(gid, "127.0.0.1")]
        req.asked = w.limits.clock()
        batch.append(req)
    return batch


def test_a_group_commit_of_many_slips_makes_two_round_trips_to_postgresql_with_prepared_statements(pg_server):
    dsn = pg_server.new_database()
    app = create_app(dsn, publisher=LocalPublisher())  # hears no other worker: always the ordinary way
    w: Web = app.state.web
    with Journal(dsn, actor="arbiter") as j:
        secret = auth.server_secret(j)
    gid = make_game(Site(dsn, secret, app), seconds=600,
                    players=tuple((str(i), f"P{i}") for i in range(1, PLAYERS + 1)))
    for warm in range(6):  # psycopg prepares a statement from its fifth use on a connection
        batch = slips(w, gid, secret, range(1, 3), f"warm{warm}")
        w.intake._run(gid, batch)
        assert [r.status for r in batch] == [201, 201]
    with w.journal("") as j:  # the connection this thread's batches use
        for size in (1, PLAYERS):
            batch = slips(w, gid, secret, range(1, size + 1), f"b{size}")
            messages = conversation(j, lambda b=batch: w.intake._run(gid, b))  # type: ignore[misc]
            assert round_trips(messages) == 2, messages
            assert {r.status for r in batch} == {201}
            # prepared: each statement is bound to a name, none parsed again; BEGIN, the lock, the throttle
            # query, the refresh's read, the appends, the notice, COMMIT
            assert ("F", "Parse") not in messages, messages
            assert messages.count(("F", "Execute")) == 6 + size
    with Journal(dsn) as j:
        stored = {e.payload["key"]: e.seq for e in j.events(gid, "slip")}
    assert all(r.body["seq"] == stored[r.key] for r in batch)
    assert len(stored) == 12 + 1 + PLAYERS


def hall(dsn: str, publisher: PostgresPublisher | None = None) -> tuple[Web, str, bytes]:
    app = create_app(dsn, publisher=publisher)
    w: Web = app.state.web
    assert isinstance(w.publisher, PostgresPublisher)
    w.publisher.start()  # listening: until then a worker knows nothing of others and goes the ordinary way
    with Journal(dsn, actor="arbiter") as j:
        secret = auth.server_secret(j)
    gid = make_game(Site(dsn, secret, app), seconds=600,
                    players=tuple((str(i), f"P{i}") for i in range(1, PLAYERS + 1)))
    return w, gid, secret


def stored_keys(dsn: str, gid: str) -> dict[str, int]:
    with Journal(dsn) as j:
        return {e.payload["key"]: e.seq for e in j.events(gid, "slip")}


def test_a_current_worker_hands_in_a_batch_of_any_size_in_one_round_trip_one_prepared_statement(pg_server):
    dsn = pg_server.new_database()
    w, gid, secret = hall(dsn)
    for warm in range(6):
        batch = slips(w, gid, secret, range(1, 3), f"warm{warm}")
        w.intake._run(gid, batch)
        assert [r.status for r in batch] == [201, 201]
    with w.journal("") as j:
        for size in (1, PLAYERS):
            batch = slips(w, gid, secret, range(1, size + 1), f"b{size}")
            messages = conversation(j, lambda b=batch: w.intake._run(gid, b))  # type: ignore[misc]
            assert round_trips(messages) == 1, messages
            assert messages.count(("F", "Execute")) == 1 and ("F", "Parse") not in messages, messages
            assert {r.status for r in batch} == {201}
    stored = stored_keys(dsn, gid)
    assert all(r.body["seq"] == stored[r.key] for r in batch)
    assert len(stored) == 12 + 1 + PLAYERS


class _Deaf(PostgresPublisher):
    """A worker whose listener has not heard yet of another worker's commit (a notice on its way)."""

    def heard(self, game_id: str) -> int | None:
        return 0


def test_a_batch_decided_on_a_state_another_worker_moved_on_from_is_not_stored_and_goes_again_the_ordinary_way(
        pg_server):
    dsn = pg_server.new_database()
    w, gid, secret = hall(dsn, _Deaf(dsn))
    first = slips(w, gid, secret, range(1, 4), "first")
    w.intake._run(gid, first)
    assert [r.status for r in first] == [201] * 3
    # another worker stores slips the deaf one has not heard of: players 2 and 5 (2 replaces his first slip)
    with Journal(dsn, actor="player:other") as other:
        s = Session(other, gid)
        s.hand_in(Slip(1, "2", "H8", "AB"), 0.0, "elsewhere-2")
        s.hand_in(Slip(1, "5", "H8", "AB"), 0.0, "elsewhere-5")
        theirs = s.game.last_seq
    assert theirs == first[-1].body["seq"] + 2
    batch = slips(w, gid, secret, range(1, 8), "second")
    with w.journal("") as j:
        messages = conversation(j, lambda: w.intake._run(gid, batch))
    # one statement refused by the database (the game ends past the worker's state), then the ordinary way:
    # the other's events read under the game's lock, the batch decided again and committed (two round trips)
    assert round_trips(messages) == 3, messages
    assert {r.status for r in batch} == {201}
    stored = stored_keys(dsn, gid)
    assert [r.body["seq"] for r in batch] == [stored[r.key] for r in batch] == list(range(theirs + 1, theirs + 8))
    # what the refused batch folded into the worker's state was taken back: it is the journal's, replayed
    with w.journal("") as j, w.writer(j, gid) as mine:
        fresh = Session(j, gid).game
        assert (mine.game.slips, mine.game.slip_seqs, mine.game.slip_keys, mine.game.last_seq) == (
            fresh.slips, fresh.slip_seqs, fresh.slip_keys, fresh.last_seq)
        assert mine.game.slip_seqs[(1, "2")] == stored["second-2"]


def test_a_sender_whose_throttle_key_waits_is_refused_429_when_the_batch_would_go_at_once(pg_server):
    dsn = pg_server.new_database()
    w, gid, secret = hall(dsn)
    with w.journal("") as j:
        for _ in range(w.limits.free + 1):
            security.code_failed(j, w.limits, gid, "127.0.0.1")
    batch = slips(w, gid, secret, range(1, 3), "throttled")
    w.intake._run(gid, batch)
    assert [r.status for r in batch] == [429, 429] and all(r.waited > 0 for r in batch)
    assert stored_keys(dsn, gid) == {}


def test_a_role_with_no_create_right_serves_and_hands_in_at_once_once_the_owner_made_the_schema(pg_server):
    """docs/deploy.md: the application's role needs CREATE the first time only. The web's function for a group
    commit in one statement is made with the tables, never again at a worker's start."""
    import psycopg

    dsn = pg_server.new_database()
    hall(dsn)  # the owner's first start: tables, triggers, functions
    database = dsn.rsplit("/", 1)[1]
    role = f"hall_{database}"
    with psycopg.connect(dsn, autocommit=True) as owner:
        owner.execute(f'CREATE ROLE "{role}" LOGIN')
        owner.execute(f'REVOKE CREATE ON SCHEMA public FROM PUBLIC; GRANT USAGE ON SCHEMA public TO "{role}"')
        owner.execute(f'REVOKE CREATE ON DATABASE "{database}" FROM PUBLIC')
        owner.execute(f'GRANT SELECT, INSERT ON game, event TO "{role}"')
        owner.execute(f'GRANT SELECT, INSERT, UPDATE, DELETE ON web_secret, web_account, web_session, web_throttle, '
                      f'web_attempt TO "{role}"')
    limited = dsn.replace(f"//{pg_server.user}@", f"//{role}@")
    with Journal(limited) as j:
        assert j.execute("SELECT has_schema_privilege('public', 'CREATE')") == [(False,)]
    w, gid, secret = hall(limited)
    first = slips(w, gid, secret, range(1, 2), "first")  # the worker reads the game in
    w.intake._run(gid, first)
    batch = slips(w, gid, secret, range(1, 4), "limited")
    with w.journal("") as j:
        messages = conversation(j, lambda: w.intake._run(gid, batch))
    assert round_trips(messages) == 1 and {r.status for r in [*first, *batch]} == {201}, messages
    assert sorted(stored_keys(dsn, gid)) == sorted(r.key for r in [*first, *batch])
