"""A whole national game simulated: N phones × 15 moves against ``arbitru serve --workers 2`` over PostgreSQL on
127.0.0.1, every phone handing in its slip in the last ``--window`` seconds of each move; in the middle of move
``--kill-move`` one worker is SIGKILLed; the journal is checked at the end.

    .venv/bin/python bench/web_national.py                               # 10,000 phones, 30 s windows (~10 min)
    .venv/bin/python bench/web_national.py --phones 1000 --window 3      # compressed: a few minutes
    .venv/bin/python bench/web_national.py --phones 300 --moves 4 --window 2 --kill-move 2

The phones are Debian's ``wrk`` (C, one thread, ``--connections`` connections) with ``web_national.lua``: each
phone sends once per move at a random moment of the window, with the idempotency key ``m<move>-p<player>``.
Between moves the arbiter closes the move and draws the next rack through the library (``Session.next``),
as the console's "next" does. The worker killed is the one that answered most slips of the move so far; wrk's
connections to it break and reconnect to the port, where the other worker (and the one uvicorn starts again)
accepts them. A phone whose slip got no answer sends it again with the same key, as the phone page does: it is
stored once.

Checked at the end (exit status 1 otherwise): every acknowledged slip is in the journal under its seq and
player; every phone has exactly one slip per move; nothing is stored twice. Prints per move the rate, p50/p99,
the workers that answered and the slips resent; then the server's CPU per slip (app and database, from
/proc/PID/stat) and wrk's share of the machine.
"""

from __future__ import annotations

import argparse
import collections
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.pgserver import PostgresServer
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.web import auth
from web_capacity import CORES, all_workers_up, children_of, cpu_each, cpu_seconds, cpu_since, ensure_wrk, run_wrk
from web_slips import LEXICON, free_port, serve_workers

HERE = Path(__file__).resolve().parent


@dataclass
class Move:
    number: int
    requests: int = 0
    seconds: float = 0.0
    p50: float = 0.0
    p99: float = 0.0
    socket_errors: int = 0
    #: player -> seq of the acknowledged slip (201, or 409 stored late)
    acknowledged: dict[str, int] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    workers: collections.Counter[str] = field(default_factory=collections.Counter)
    resent: int = 0
    killed: str = ""
    client_cpu: float = 0.0


def make_national(db: str, phones: int, moves: int) -> tuple[str, dict[str, str], Session]:
    """A FISE game of ``phones`` players and ``moves`` moves, first rack drawn; each player's code."""
    lex = load_lexicon(LEXICON, "en")
    settings = Settings(ruleset("fise", moves=moves, seconds=3600), "en", LEXICON, seed="national")
    j = Journal(db, actor="arbiter")
    s = Session.create(j, settings, lex, [Player(str(i), f"Player {i}") for i in range(1, phones + 1)])
    s.draw()
    secret = auth.server_secret(j)
    return s.id, {str(i): auth.player_code(secret, s.id, str(i)) for i in range(1, phones + 1)}, s


def worker_pids(server: int) -> list[int]:
    return [p for p in children_of(server) if p != server and "spawn_main" in _cmdline(p)]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def play_move(wrk: str, base: str, gid: str, codes: dict[str, str], codes_file: Path, number: int,
              args: argparse.Namespace, tmp: Path, kill: bool, server: int) -> Move:
    move = Move(number)
    env = {"ARBITRU_CODES": str(codes_file), "ARBITRU_GAME": gid, "ARBITRU_MOVE": str(number),
           "ARBITRU_WINDOW": f"{args.window:g}", "ARBITRU_CONNECTIONS": str(args.connections)}
    killer = None
    if kill:
        def kill_one() -> None:
            # the worker with most CPU so far is the one taking connections: kill it mid-window
            pids = worker_pids(server)
            if pids:
                victim = max(pids, key=lambda p: cpu_seconds([p]))
                move.killed = str(victim)
                os.kill(victim, signal.SIGKILL)

        killer = threading.Timer(args.window / 2, kill_one)
    run = run_wrk(wrk, "web_national.lua", base, args.connections, args.window * 1.5 + 3, args.timeout, env,
                  tmp / f"move-{number}.txt", started=killer.start if killer else None)
    if killer is not None:
        killer.cancel()
    move.requests, move.seconds, move.socket_errors = run.requests, run.seconds, run.socket_errors
    move.p50, move.p99, move.client_cpu = run.p50, run.p99, run.cpu
    for line in run.lists.get("receipt", []):
        status, stored, seq, player, worker = line.split()
        if stored == "1":
            move.acknowledged[player] = int(seq)
            move.workers[worker] += 1
        else:
            move.refused.append(f"{player}: {status}")
    # the phones that got no answer (a connection cut by the kill, a timeout) send the same slip again
    unanswered = [p for p in codes if p not in move.acknowledged]
    with httpx.Client(base_url=base, timeout=30) as client:
        for player in unanswered:
            r = client.post(f"/api/games/{gid}/slips", json={"move": number, "position": "H8", "word": "AB"},
                            headers={"Authorization": f"Bearer {codes[player]}",
                                     "Idempotency-Key": f"m{number}-p{player}"})
            move.resent += 1
            body = r.json()
            if r.status_code in (201, 409) and body.get("stored"):
                move.acknowledged[player] = int(body["seq"])
                move.workers[r.headers.get("x-arbitru-worker", "-")] += 1
            else:
                move.refused.append(f"{player}: {r.status_code} {body.get('error')}")
    return move


def check(db: str, gid: str, moves: list[Move], phones: int) -> list[str]:
    """Every acknowledged slip stored under its seq; one slip per phone per move; nothing twice."""
    with Journal(db) as j:
        slips = j.events(gid, "slip")
    by_seq = {e.seq: (int(e.payload["move"]), str(e.payload["player"])) for e in slips}
    per_move = collections.Counter((int(e.payload["move"]), str(e.payload["player"])) for e in slips)
    problems = []
    for m in moves:
        lost = [p for p, seq in m.acknowledged.items() if by_seq.get(seq) != (m.number, p)]
        twice = [p for p in map(str, range(1, phones + 1)) if per_move[(m.number, p)] > 1]
        missing = [p for p in map(str, range(1, phones + 1)) if per_move[(m.number, p)] == 0]
        if lost or twice or missing:
            problems.append(f"move {m.number}: {len(lost)} acknowledged but not stored, {len(twice)} stored twice, "
                            f"{len(missing)} phones without a slip")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=15)
    parser.add_argument("--window", type=float, default=30.0,
                        help="seconds at the end of each move in which the slips arrive (less: a compressed run)")
    parser.add_argument("--kill-move", type=int, default=None, help="the move in whose middle a worker is killed "
                        "(default: the middle move; 0: none)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--connections", type=int, default=64, help="wrk's connections (the phones share them)")
    parser.add_argument("--timeout", type=float, default=10.0, help="wrk's request timeout, s")
    args = parser.parse_args()
    kill_move = (args.moves + 1) // 2 if args.kill_move is None else args.kill_move
    wrk = ensure_wrk()
    print(f"{args.phones} phones x {args.moves} moves, slips within the last {args.window:g} s of each move, "
          f"PostgreSQL, {args.workers} workers; {CORES} cores, load average {os.getloadavg()[0]:.1f}", flush=True)
    pg = PostgresServer().start()
    ok = True
    try:
        postmaster = int((pg.data / "postmaster.pid").read_text().split()[0])
        db = pg.new_database()
        t0 = time.perf_counter()
        gid, codes, arbiter = make_national(db, args.phones, args.moves)
        print(f"game {gid} created with {args.phones} players in {time.perf_counter() - t0:.1f} s", flush=True)
        port = free_port()
        proc = serve_workers(db, port, args.workers)
        base = f"http://127.0.0.1:{port}"
        all_workers_up(base, args.workers)
        moves: list[Move] = []
        with tempfile.TemporaryDirectory() as tmpdir:
            tmp = Path(tmpdir)
            codes_file = tmp / "codes"
            codes_file.write_text("".join(f"{p} {c}\n" for p, c in codes.items()))
            app_before = cpu_each(children_of(proc.pid))
            db_before = cpu_each(children_of(postmaster))
            app_cpu = 0.0  # the killed worker's, up to the move it dies in
            client_cpu = 0.0
            began = time.perf_counter()
            try:
                for number in range(1, args.moves + 1):
                    if number == kill_move:  # what the worker to be killed has taken so far still counts
                        app_cpu += cpu_since(proc.pid, app_before)
                        app_before = cpu_each(children_of(proc.pid))
                    if arbiter.game.phase != "play":
                        print(f"the game is over after move {number - 1} ({arbiter.game.phase})")
                        break
                    move = play_move(wrk, base, gid, codes, codes_file, number, args, tmp, number == kill_move,
                                     proc.pid)
                    client_cpu += move.client_cpu
                    moves.append(move)
                    answered = ", ".join(f"{w}: {n}" for w, n in sorted(move.workers.items()))
                    print(f"move {number:>2}: {len(move.acknowledged)} stored, "
                          f"{len(move.acknowledged) / args.window:.0f} slips/s over the window, "
                          f"p50 {move.p50 * 1000:.0f} ms, p99 {move.p99 * 1000:.0f} ms; answered by {answered}; "
                          f"{move.socket_errors} socket errors, {move.resent} resent, {len(move.refused)} refused"
                          + (f"; worker {move.killed} SIGKILLed mid-move" if move.killed else ""), flush=True)
                    for r in move.refused[:3]:
                        print(f"    refused: {r}")
                    t = time.perf_counter()
                    arbiter.next()  # the arbiter closes the move (master move) and draws the next rack
                    print(f"          arbiter's next: {time.perf_counter() - t:.2f} s", flush=True)
            finally:
                app_cpu += cpu_since(proc.pid, app_before)
                db_cpu = cpu_since(postmaster, db_before)
                wall = time.perf_counter() - began
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
        problems = check(db, gid, moves, args.phones)
        stored = sum(len(m.acknowledged) for m in moves)
        killed = [m for m in moves if m.killed]
        per = 1000 / max(1, stored)
        print(f"{stored} slips acknowledged over {len(moves)} moves in {wall:.0f} s; server CPU "
              f"{(app_cpu + db_cpu) * per:.2f} ms per slip (app {app_cpu * per:.2f} + database {db_cpu * per:.2f}; "
              f"the killed worker's CPU in its last move is not counted); wrk {client_cpu / wall / CORES * 100:.1f}% "
              "of the machine")
        if killed:
            m = killed[0]
            print(f"kill: worker {m.killed} SIGKILLed in move {m.number}: {m.socket_errors} connections broke, "
                  f"{m.resent} phones resent their slip, every one of the {len(m.acknowledged)} acknowledged is "
                  f"stored" if not problems else "kill: see the problems below")
        for p in problems:
            print(f"  PROBLEM {p}")
            ok = False
        print(f"journal check: {'0 lost, 0 duplicated, one slip per phone per move' if not problems else 'FAILED'}; "
              f"load average {os.getloadavg()[0]:.1f}")
    finally:
        pg.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
