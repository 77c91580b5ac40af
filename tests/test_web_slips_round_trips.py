"""What a group commit of phones' slips says to PostgreSQL, read from libpq's own trace of the connection (a
real server): the finding was five round trips per batch (BEGIN with the lock, the throttle query, the refresh's
read, the appends, the notice with COMMIT), each statement waiting for the one before. Now two, whatever the batch's
size, with prepared statements, and every slip still stored and committed before its receipt."""

from __future__ import annotations

import tempfile
from itertools import pairwise

from arbitru.journal.store import Journal
from arbitru.web import auth, security
from arbitru.web.app import create_app
from arbitru.web.house import Web
from arbitru.web.intake import SlipRequest
from arbitru.web.live import LocalPublisher
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
        req.throttle = [k.name for k in security.code_keys(gid, "127.0.0.1", w.limits)]
        req.asked = w.limits.clock()
        batch.append(req)
    return batch


def test_a_group_commit_of_many_slips_makes_two_round_trips_to_postgresql_with_prepared_statements(pg_server):
    dsn = pg_server.new_database()
    app = create_app(dsn, publisher=LocalPublisher())
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
