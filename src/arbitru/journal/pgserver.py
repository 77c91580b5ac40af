"""A throw-away PostgreSQL server for tests and benchmarks: Debian's ``initdb`` and ``pg_ctl`` in a temporary
folder, listening on 127.0.0.1 and a Unix socket there, stopped at the end. When the server programs are missing
it says how to install them (``./arbitru test`` installs them). Not for a real event: see docs/deploy.md.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def bin_dir() -> Path:
    """Where ``initdb`` and ``pg_ctl`` are (Debian keeps them out of PATH)."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    if not candidates:
        raise RuntimeError(
            "PostgreSQL's server programs are missing: ./arbitru test installs them "
            "(apt-get install postgresql as root)"
        )
    return Path(candidates[-1]).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """``start()`` then ``dsn(database)``; ``new_database()`` gives each test its own empty database."""

    def __init__(self, *, durable: bool = True) -> None:
        #: whether its writes reach the disk before a commit is acknowledged (fsync); a test run's throw-away server
        #: needs it not: a killed server's acknowledged commits are in the WAL the system holds all the same, and
        #: only a machine that loses power loses them
        self.durable = durable
        self.bin = bin_dir()
        self.root = Path(tempfile.mkdtemp(prefix="arbitru-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.user = "arbitru"
        self._count = 0
        # PostgreSQL refuses to run as root: run it as the postgres user Debian's package creates
        self.run_as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _run(self, *args: str) -> None:
        subprocess.run([*self.run_as, *args], check=True, capture_output=True, timeout=120)

    def start(self) -> PostgresServer:
        if self.run_as:
            shutil.chown(self.root, "postgres", "postgres")
        self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-U", self.user, "-A", "trust", "-E", "UTF8",
            "--no-sync", "--locale=C",
        )
        # the free port is free when asked, not always when the server binds it (another process, a parallel test
        # worker, may take it in between): then the server starts again on another
        for attempt in range(5):
            options = (
                f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} -c max_connections=200 "
                f"-c fsync={'on' if self.durable else 'off'} -c synchronous_commit=on -c shared_buffers=32MB"
            )
            log = self.root / "log"
            try:
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(log),
                          "-w", "-t", "60", "start")
                return self
            except subprocess.CalledProcessError:
                said = log.read_text("utf-8", "replace") if log.exists() else ""
                if attempt == 4 or "could not bind" not in said:
                    raise
                log.unlink()
                self.port = _free_port()
        raise AssertionError("unreachable")

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        import psycopg

        self._count += 1
        name = f"t{os.getpid()}_{self._count}"
        with psycopg.connect(self.dsn(), autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)

    def new_schema(self) -> str:
        """A fresh schema in the server's database, as a URL whose search path starts there: much quicker
        than a database, for suites that open hundreds of journals."""
        import psycopg

        self._count += 1
        name = f"s{os.getpid()}_{self._count}"
        with psycopg.connect(self.dsn(), autocommit=True) as db:
            db.execute(f'CREATE SCHEMA "{name}"')
        return f"{self.dsn()}?options=-csearch_path%3D{name}"

    def stop(self) -> None:
        subprocess.run(
            [*self.run_as, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
            capture_output=True, timeout=60,
        )
        shutil.rmtree(self.root, ignore_errors=True)
