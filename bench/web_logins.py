"""Memory of the server under 40 logins at once (89 MB → 632 MB before password hashing was bounded).

    .venv/bin/python bench/web_logins.py                # 40 concurrent wrong-password logins, one server
    .venv/bin/python bench/web_logins.py --logins 80

A real uvicorn server on 127.0.0.1 over a fresh journal; its resident memory (VmRSS, and the peak VmHWM) is read
from /proc before and after ``--logins`` threads post a login at once, each from its own HTTP client. Each
login's scrypt takes 16 MB; at most ``auth.HASHERS`` run at a time, so the peak stays bounded. The throttles are
set wide here (every attempt reaches the password check).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from arbitru.journal.store import Journal
from arbitru.web import auth
from web_server import free_port, stop

SERVE = (
    "import sys, uvicorn\n"
    "from arbitru.web.app import create_app\n"
    "from arbitru.web.security import Limits\n"
    "app = create_app(sys.argv[1], limits=Limits(free=10**6, lock_after=10**6))\n"
    "uvicorn.run(app, host='127.0.0.1', port=int(sys.argv[2]), log_level='warning')\n"
)


def memory(pid: int) -> dict[str, int]:
    status = Path(f"/proc/{pid}/status").read_text()
    return {k: int(re.search(rf"{k}:\s+(\d+) kB", status).group(1)) // 1024 for k in ("VmRSS", "VmHWM")}  # type: ignore[union-attr]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logins", type=int, default=40)
    args = parser.parse_args()
    db = str(Path(tempfile.mkdtemp()) / "logins.db")
    with Journal(db, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, "the-right-pass", auth.ARBITER)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", SERVE, db, str(port)])
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(f"{base}/login", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        httpx.get(f"{base}/login")
        before = memory(proc.pid)
        statuses: list[int] = []
        start = threading.Barrier(args.logins)

        def one(i: int) -> None:
            with httpx.Client(base_url=base, timeout=120) as c:
                token = re.search(r'name="csrf" value="([^"]+)"', c.get("/login").text).group(1)  # type: ignore[union-attr]
                start.wait()
                statuses.append(c.post("/login", data={"csrf": token, "password": f"wrong-{i}"}).status_code)

        threads = [threading.Thread(target=one, args=(i,)) for i in range(args.logins)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - t0
        after = memory(proc.pid)
        print(f"{args.logins} logins at once ({auth.HASHERS} hashed at a time): answered {sorted(set(statuses))} "
              f"in {elapsed:.1f} s")
        print(f"server RSS before {before['VmRSS']} MB, after {after['VmRSS']} MB, peak {after['VmHWM']} MB")
    finally:
        stop(proc)


if __name__ == "__main__":
    main()
