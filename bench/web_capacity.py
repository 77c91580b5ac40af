"""The server's capacity for slips, measured with a load generator that costs little: Debian's ``wrk`` (C, one
thread) drives ``arbitru serve`` on 127.0.0.1 with a Lua script (``web_capacity.lua``) that gives every request
its own player code, slip and idempotency key.

    .venv/bin/python bench/web_capacity.py                        # SQLite 1 worker, PostgreSQL 1 and 2 workers
    .venv/bin/python bench/web_capacity.py --duration 3 --max-connections 32 --players 2000
    .venv/bin/python bench/web_capacity.py --setups sqlite:1 postgresql:2

For each set-up the phones are a closed loop of C connections (wrk has no fixed-rate mode in Debian): C = 1, 2,
4, ... each for ``--duration`` seconds against a fresh game; the sustained rate is the most slips per second
stored at a C whose p99 latency stays under ``--p99`` (500 ms), and the search stops after two C in a row past
it (a single one may be another job's noise on a shared machine).
Each step prints its rate, p50/p99, the server's CPU per slip (the app's processes and, on PostgreSQL, the
database's, from /proc/PID/stat before and after), wrk's own CPU as a share of the machine, and the journal
checked against the receipts: every acknowledged slip stored under its seq and player, no seq acknowledged
twice, nothing stored that was not sent (exit status 1 otherwise).

``wrk`` is installed when missing (``apt-get install -y wrk``, as root). Bounded: every step has a duration
and wrk a request timeout, at most ``--max-connections``; 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import collections
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from arbitru.journal.pgserver import PostgresServer
from arbitru.journal.store import Journal
from web_slips import free_port, make_hall, serve_workers

HERE = Path(__file__).resolve().parent
TICKS = os.sysconf("SC_CLK_TCK")
CORES = os.cpu_count() or 1


def ensure_wrk() -> str:
    """The path of ``wrk``, installed from Debian when missing (root only)."""
    found = shutil.which("wrk")
    if found:
        return found
    if os.geteuid() != 0:
        raise SystemExit("error: wrk is missing and this is not root: run 'apt-get install -y wrk' as root first")
    print("installing wrk: apt-get install -y wrk", flush=True)
    subprocess.run(["apt-get", "install", "-y", "wrk"], check=True, env={**os.environ,
                   "DEBIAN_FRONTEND": "noninteractive"}, stdout=subprocess.DEVNULL)
    found = shutil.which("wrk")
    if not found:
        raise SystemExit("error: apt-get install wrk did not give a wrk program")
    return found


def cpu_seconds(pids: list[int]) -> float:
    """utime + stime of these processes (those gone meanwhile count 0)."""
    return sum(cpu_each(pids).values())


def cpu_each(pids: list[int]) -> dict[int, float]:
    """Each live process's utime + stime so far."""
    out = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[pid] = (int(fields[11]) + int(fields[12])) / TICKS
    return out


def cpu_since(root: int, before: dict[int, float]) -> float:
    """The CPU the processes under ``root`` took since ``before`` (:func:`cpu_each` of them then): those started
    meanwhile (a database backend for a new connection, a worker started again) count whole; those gone meanwhile
    are missed."""
    now = cpu_each(children_of(root))
    return sum(t - before.get(pid, 0.0) for pid, t in now.items())


def children_of(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parents[int(entry)] = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, todo = [pid], [pid]
    while todo:
        parent = todo.pop()
        kids = [p for p, pp in parents.items() if pp == parent]
        found += kids
        todo += kids
    return found


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine since boot, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return float(sum(values) - idle), float(sum(values))


@dataclass
class Step:
    connections: int
    requests: int = 0
    seconds: float = 0.0
    p50: float = 0.0
    p99: float = 0.0
    worst: float = 0.0
    socket_errors: int = 0
    stored: int = 0  # acknowledged as stored (201, or 409 stored late)
    refused: int = 0
    #: the refusals by HTTP status ("503: 12, 429: 3")
    refusals: str = ""
    server_cpu: float = 0.0
    database_cpu: float = 0.0
    client_cpu: float = 0.0
    machine_share: float = 0.0
    lost: int = 0
    twice: int = 0
    unsent: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.stored / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        per = (self.server_cpu + self.database_cpu) / max(1, self.stored) * 1000
        db = f" (app {self.server_cpu / max(1, self.stored) * 1000:.2f} + database " \
             f"{self.database_cpu / max(1, self.stored) * 1000:.2f})" if self.database_cpu else ""
        return (
            f"  {self.connections:>4} conn: {self.rate:7.0f} slips/s, p50 {self.p50 * 1000:5.0f} ms, "
            f"p99 {self.p99 * 1000:5.0f} ms, max {self.worst * 1000:5.0f} ms; server CPU {per:.2f} ms/slip{db}; "
            f"wrk {self.client_cpu / max(self.seconds, 1e-9) / CORES * 100:.0f}% of the machine, machine busy "
            f"{self.machine_share * 100:.0f}%; {self.stored} stored, {self.refused} refused"
            f"{' (' + self.refusals + ')' if self.refusals else ''}, "
            f"{self.socket_errors} socket errors, {self.lost} lost, {self.twice} duplicated"
        )


@dataclass
class WrkRun:
    """What a wrk run printed (``wrk_report.lua``) and the CPU it took."""

    requests: int = 0
    seconds: float = 0.0
    socket_errors: int = 0
    p50: float = 0.0
    p99: float = 0.0
    worst: float = 0.0
    cpu: float = 0.0
    #: the script's lists, by name: one item per line
    lists: dict[str, list[str]] = field(default_factory=dict)


def run_wrk(wrk: str, script: str, base: str, connections: int, duration: float, timeout: float,
            env: dict[str, str], out: Path, started: Callable[[], None] | None = None) -> WrkRun:
    """One thread of wrk with ``connections`` for at most ``duration`` seconds, the script in bench/ given
    ``env``; ``started`` is called once wrk runs."""
    with out.open("w") as sink:
        proc = subprocess.Popen(
            # wrk takes whole seconds only
            [wrk, "-t1", f"-c{connections}", f"-d{math.ceil(duration)}s", f"--timeout={math.ceil(timeout)}s",
             "-s", str(HERE / script), base],
            stdout=sink, stderr=subprocess.STDOUT, env={**os.environ, "ARBITRU_LUA": str(HERE), **env},
        )
        if started is not None:
            started()
        _, status, usage = os.wait4(proc.pid, 0)
    text = out.read_text()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"error: wrk failed:\n{text[-2000:]}")
    run = WrkRun(cpu=usage.ru_utime + usage.ru_stime)
    for line in text.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "summary":
            req, dur, *errors = (int(v) for v in rest.split())
            run.requests, run.seconds = req, dur / 1e6
            run.socket_errors = errors[0] + errors[1] + errors[2] + errors[4]  # connect, read, write, timeout
        elif kind == "latency":
            run.p50, _p90, run.p99, run.worst, _mean = (int(v) / 1e6 for v in rest.split())
        elif rest:
            run.lists.setdefault(kind, []).append(rest)
    return run


def all_workers_up(base: str, workers: int, timeout: float = 60.0) -> None:
    """Return once ``workers`` distinct worker processes have answered new connections (each worker binds its own
    socket when it starts: until then the kernel gives every connection to those already up)."""
    seen: set[str] = set()
    deadline = time.monotonic() + timeout
    while len(seen) < workers and time.monotonic() < deadline:
        with httpx.Client(base_url=base, timeout=5) as fresh:  # a new connection each time
            seen.add(fresh.get("/static/app.css").headers.get("x-arbitru-worker", ""))
        time.sleep(0.05)
    if len(seen) < workers:
        raise SystemExit(f"error: only {len(seen)} of {workers} workers answered within {timeout:g} s")


def check(db: str, gid: str, receipts: list[tuple[int, bool, int, str]], warm: int, step: Step) -> None:
    """The journal against the receipts: each acknowledged seq holds that player's slip; no seq twice; no slip
    stored beyond what was sent (wrk's requests, plus the warm-up slip)."""
    with Journal(db) as j:
        slips = {e.seq: str(e.payload["player"]) for e in j.iter_events(gid, "slip")}
    acked = [(seq, player) for status, stored, seq, player in receipts if stored]
    step.lost = sum(1 for seq, player in acked if slips.get(seq) != player)
    seqs = [seq for seq, _ in acked]
    step.twice = len(seqs) - len(set(seqs))
    # a request in flight at wrk's end (one per connection) or cut by its timeout may be stored without its
    # receipt; never more than were sent
    sent = step.requests + warm + step.connections + step.socket_errors
    step.unsent = max(0, len(slips) - sent)
    if step.lost or step.twice or step.unsent:
        step.problems.append(f"{step.lost} lost, {step.twice} duplicated, {step.unsent} stored beyond the requests")


def one_step(wrk: str, db: str, base: str, server: int, database: int | None, connections: int, duration: float,
             players: int, timeout: float, tmp: Path) -> Step:
    gid, codes = make_hall(db, players)
    codes_file = tmp / f"codes-{gid}"
    codes_file.write_text("".join(f"{p} {c}\n" for p, c in codes.items()))
    # warm-up: the worker(s) learn the game and its codes (the first slip of a game costs a replay)
    for _ in range(4):
        r = httpx.post(f"{base}/api/games/{gid}/slips", json={"move": 1, "position": "H8", "word": "AB"},
                       headers={"Authorization": f"Bearer {codes['1']}"}, timeout=30)
        if r.status_code != 201:
            raise SystemExit(f"error: the warm-up slip got {r.status_code} {r.text}")
    warm = 4
    step = Step(connections)
    app_before = cpu_each(children_of(server))
    db_before = cpu_each(children_of(database)) if database else {}
    busy_before = machine_busy()
    env = {"ARBITRU_CODES": str(codes_file), "ARBITRU_GAME": gid, "ARBITRU_THREADS": "1",
           "ARBITRU_RUN": uuid.uuid4().hex[:8]}
    t0 = time.perf_counter()
    run = run_wrk(wrk, "web_capacity.lua", base, connections, duration, timeout, env, tmp / f"wrk-{gid}.txt")
    wall = time.perf_counter() - t0
    step.server_cpu = cpu_since(server, app_before)
    step.database_cpu = cpu_since(database, db_before) if database else 0.0
    busy_after = machine_busy()
    step.requests, step.seconds, step.socket_errors = run.requests, run.seconds, run.socket_errors
    step.p50, step.p99, step.worst = run.p50, run.p99, run.worst
    receipts: list[tuple[int, bool, int, str]] = []
    for line in run.lists.get("receipt", []):
        code, stored, seq, player = line.split()
        receipts.append((int(code), stored == "1", int(seq) if seq != "-" else 0, player))
    step.stored = sum(1 for r in receipts if r[1])
    step.refused = len(receipts) - step.stored
    by_status = collections.Counter(code for code, stored, _, _ in receipts if not stored)
    step.refusals = ", ".join(f"{code}: {n}" for code, n in by_status.most_common())
    step.client_cpu = run.cpu
    busy, total = busy_after[0] - busy_before[0], busy_after[1] - busy_before[1]
    step.machine_share = busy / total if total else 0.0
    step.seconds = step.seconds or wall
    # the warm-up slips are in the journal too: count them among the receipts for the check
    check(db, gid, receipts + [(201, True, s, "1") for s in _warm_seqs(db, gid, warm)], warm, step)
    return step


def _warm_seqs(db: str, gid: str, count: int) -> list[int]:
    """The seqs of the warm-up slips: the game's first ``count`` slip events (all player 1's)."""
    with Journal(db) as j:
        return [e.seq for e in j.events(gid, "slip")[:count] if str(e.payload["player"]) == "1"]


def measure(wrk: str, db: str, workers: int, args: argparse.Namespace, tmp: Path, database: int | None) -> bool:
    store = "PostgreSQL" if db.startswith("postgres") else "SQLite"
    print(f"{store}, {workers} worker{'s' if workers > 1 else ''}:", flush=True)
    port = free_port()
    proc = serve_workers(db, port, workers)
    base = f"http://127.0.0.1:{port}"
    all_workers_up(base, workers)
    steps: list[Step] = []
    ok = True
    try:
        connections = 1
        while connections <= args.max_connections:
            step = one_step(wrk, db, base, proc.pid, database, connections, args.duration, args.players,
                            args.timeout, tmp)
            steps.append(step)
            print(step.line(), flush=True)
            for p in step.problems:
                print(f"    {p}")
                ok = False
            over = [s.p99 >= args.p99 / 1000 or s.socket_errors for s in steps[-2:]]
            if len(over) == 2 and all(over):  # two steps in a row: one alone may be another job's noise
                break
            connections *= 2
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
    good = [s for s in steps if s.p99 < args.p99 / 1000 and not s.socket_errors]
    if good:
        best = max(good, key=lambda s: s.rate)
        per = (best.server_cpu + best.database_cpu) / max(1, best.stored) * 1000
        print(f"  => {store} {workers} worker{'s' if workers > 1 else ''}: sustained {best.rate:.0f} slips/s "
              f"with p99 {best.p99 * 1000:.0f} ms ({best.connections} connections); server CPU {per:.2f} ms per "
              f"slip", flush=True)
        first = steps[0]  # one connection: one slip at a time, a batch of one
        alone = (first.server_cpu + first.database_cpu) / max(1, first.stored) * 1000
        # the whole machine's CPU per slip there (the server, the database, wrk, anything else running)
        machine = best.machine_share * CORES * best.seconds / max(1, best.stored) * 1000
        SUMMARY.append((f"{store} {workers}w", best.rate, per, alone, machine))
    else:
        print(f"  => {store} {workers} workers: no step kept p99 under {args.p99:g} ms")
    return ok


#: per set-up: its sustained rate, its CPU per slip there and at one connection, the machine's CPU per slip there
#: (ms)
SUMMARY: list[tuple[str, float, float, float, float]] = []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--setups", nargs="+", default=["sqlite:1", "postgresql:1", "postgresql:2"],
                        help="store:workers, in order (store: sqlite or postgresql, a throw-away server)")
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per step")
    parser.add_argument("--max-connections", type=int, default=512)
    parser.add_argument("--players", type=int, default=5000,
                        help="players per step's game (past them, players send replacements)")
    parser.add_argument("--p99", type=float, default=500.0, help="the latency target, ms")
    parser.add_argument("--timeout", type=float, default=10.0, help="wrk's request timeout, s")
    args = parser.parse_args()
    wrk = ensure_wrk()
    print(f"wrk {wrk}, {CORES} cores, load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    ok = True
    pg: PostgresServer | None = None
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        try:
            for setup in args.setups:
                store, _, count = setup.partition(":")
                workers = int(count or 1)
                if store == "sqlite":
                    ok = measure(wrk, str(tmp / f"capacity-{workers}.db"), workers, args, tmp, None) and ok
                elif store == "postgresql":
                    if pg is None:
                        pg = PostgresServer().start()
                    postmaster = int((pg.data / "postmaster.pid").read_text().split()[0])
                    ok = measure(wrk, pg.new_database(), workers, args, tmp, postmaster) and ok
                else:
                    raise SystemExit(f"error: unknown store {store!r}: sqlite or postgresql")
        finally:
            if pg is not None:
                pg.stop()
    print("summary:")
    one = {name: (rate, machine) for name, rate, _, _, machine in SUMMARY}
    for name, rate, per, alone, machine in SUMMARY:
        extra = ""
        if name == "PostgreSQL 2w" and "PostgreSQL 1w" in one:
            rate1, machine1 = one["PostgreSQL 1w"]
            # more workers cannot make a slip cost the machine less than one worker's slips did: all the cores
            # at that cost is the most two workers could reach
            ceiling = CORES / machine1 * 1000
            extra = (f" ({rate / rate1:.2f}x one worker; the machine's {CORES} cores at one worker's {machine1:.2f} "
                     f"ms of machine CPU per slip take at most {ceiling:.0f} slips/s, {ceiling / rate1:.2f}x)")
        print(f"  {name:<14} {rate:7.0f} slips/s, {per:.2f} ms server CPU per slip there, {alone:.2f} ms at 1 "
              f"connection, {machine:.2f} ms of machine CPU per slip there{extra}")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
