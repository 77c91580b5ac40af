"""Kill a writer at a random moment: the crash tests of both formats' journals share this."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time


def run_and_kill(script: str, rng: random.Random) -> tuple[list[str], str]:
    """Run ``script`` (Python source) in a child that prints one line per committed entry; SIGKILL it at a
    random moment after its first commit (a loaded machine may take seconds to start it). Returns the whole
    lines it printed (a torn last line is not counted) and its stderr."""
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    lines: list[str] = []
    assert child.stdout is not None and child.stderr is not None
    stdout = child.stdout
    reader = threading.Thread(target=lambda: lines.extend(stdout), daemon=True)
    reader.start()
    deadline = time.monotonic() + 60
    while not lines and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(rng.uniform(0.3, 2.0))
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    reader.join(5)
    return [line for line in lines if line.endswith("\n")], child.stderr.read()
