"""The real server for browser, kill and load tests: uvicorn in a child process on 127.0.0.1, a free port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

#: the seconds a stopped server gives its open responses (a browser's live stream never ends by itself) before it
#: cancels them and exits; uvicorn's default waits for ever, so every stop took ``stop``'s 10 s and a SIGKILL
SHUTDOWN = 1

SERVE = (
    f"import sys, uvicorn\nSHUTDOWN = {SHUTDOWN}\n"
    "from arbitru.web.app import create_app\n"
    "uvicorn.run(create_app(sys.argv[1]), host='127.0.0.1', port=int(sys.argv[2]), log_level='warning',\n"
    "            timeout_graceful_shutdown=SHUTDOWN)\n"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: str, port: int) -> subprocess.Popen[bytes]:
    from web_support import TEST_LISTS  # the server's test switch: the stand-in lists its pages offer

    env = {"ARBITRU_WEB_TEST_LISTS": ",".join(TEST_LISTS), **os.environ}
    proc = subprocess.Popen([sys.executable, "-c", SERVE, db, str(port)], env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with status {proc.returncode}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/static/app.css", timeout=1).close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start within 30 s")


def stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def running_server(db: str) -> Iterator[str]:
    # a free port is free when asked, not always when the server binds it (a test on another xdist worker, or any
    # other process, may take it in between): a server that exits at once is started again on another port
    for attempt in range(3):
        port = free_port()
        try:
            proc = start(db, port)
            break
        except RuntimeError:
            if attempt == 2:
                raise
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(proc)
