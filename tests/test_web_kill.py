"""A server killed with SIGKILL in the middle of a storm of slips, then restarted on the same journal: every slip
it acknowledged is there, once, for its player (the commit comes before the receipt)."""

from __future__ import annotations

import asyncio
import signal
import sys
import threading
from pathlib import Path

import httpx

from web_server import free_port, start, stop

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from web_slips import check, make_hall, storm

PHONES = 240


def test_sigkill_during_a_storm_loses_no_acknowledged_slip(tmp_path):
    db = str(tmp_path / "storm.db")
    gid, codes = make_hall(db, PHONES)
    port = free_port()
    proc = start(db, port)
    killed = threading.Event()

    def kill_midway(acknowledged: int) -> None:
        if acknowledged >= PHONES // 3 and not killed.is_set():
            killed.set()
            proc.send_signal(signal.SIGKILL)

    try:
        result = asyncio.run(storm(f"http://127.0.0.1:{port}", gid, codes, 2.0, deadline=60, on_ack=kill_midway))
    finally:
        stop(proc)
    assert killed.is_set(), "the storm ended before the kill"
    assert PHONES // 3 <= len(result.acknowledged) < PHONES, "the kill did not cut the storm"
    assert result.failures, "no phone saw the server die"
    # restarted, the server answers from the same journal: every acknowledged slip is there, once
    proc = start(db, port)
    try:
        state = httpx.get(f"http://127.0.0.1:{port}/api/games/{gid}").json()
        assert state["seq"] >= max(result.acknowledged.values())
    finally:
        stop(proc)
    stored, lost, twice = check(db, gid, result.acknowledged)
    assert lost == [] and twice == []
    assert stored >= len(result.acknowledged)
