"""The 200-player simulated game (arbitru.formats.anticipation.simulate, with the test word list) typed through the
web app's desk form by 4 desks at once against a real server on 127.0.0.1: every slip is stored (none refused)
and every verdict equals the library's correction of the same slips entered directly (RO-5.3: the web adds no
rule). The driver is the benchmark's (bench/web_anticipation.py), without its timings."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "web_anticipation.py"


def test_ro_5_3_four_desks_type_a_200_player_game_and_the_verdicts_are_the_librarys():
    spec = importlib.util.spec_from_file_location("bench_web_anticipation", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench
    spec.loader.exec_module(bench)
    lines: list[str] = []
    diffs = bench.run(200, 4, echo=lines.append, review=False)
    assert diffs == [], diffs
    assert lines[-1] == "verdicts: 200 players compared, 0 differ"
    assert sum(int(line.split()[2]) for line in lines[1:-1]) == 2586  # every slip of the simulation, typed
