"""Time an anticipation game entered through the web app: a simulated game's paper slips typed at 4 desks at once.

    .venv/bin/python bench/web_anticipation.py                    # 200 players, 4 desks, the test word list
    .venv/bin/python bench/web_anticipation.py --players 100 --desks 2

The game is simulated (arbitru.formats.anticipation.simulate, slips with a realistic mix of errors), created in a
fresh journal with its draw, seating and lots; then, turn by turn, every slip is posted to the desk form
(``POST /games/{id}/slips``, the desk's session and CSRF token) by ``--desks`` threads, each with its own HTTP
client and desk account, against a real uvicorn server on 127.0.0.1. After each turn the correction review
(``GET /games/{id}/review?turn=N``) is timed: it replays and corrects the whole game so far. At the end every
verdict is compared with the library's correction of the same slips entered directly; the exit status is 1 on
any difference. The server stops by itself.
"""

from __future__ import annotations

import argparse
import re
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from arbitru.formats.anticipation.correction import PlayerResult
from arbitru.formats.anticipation.game import AnticipationGame, GameState
from arbitru.formats.anticipation.simulate import Simulation, simulate
from arbitru.formats.anticipation.slips import Slip
from arbitru.formats.anticipation.variants import Settings
from arbitru.journal.store import Journal
from arbitru.textinput import is_ascii_number
from arbitru.web import auth


def desk_fields(slip: Slip, seating: dict[int, str]) -> dict[str, str]:
    """What a desk types for a paper slip: the placements, total, note exactly as written; the player's id
    only when the table written does not name him."""
    first = slip.rows[0]
    fields = {
        "collected": str(slip.turn) if slip.turn is not None else "?",
        "table": first.table,
        "turn": slip.written_turn,
        "total": first.turn_total,
        "note": first.note,
    }
    table = first.table.strip()
    if not (is_ascii_number(table) and seating.get(int(table)) == slip.player):
        fields["player"] = slip.player
    for i, row in enumerate(slip.rows[:2], 1):
        fields |= {f"position{i}": row.position, f"word{i}": row.word, f"score{i}": row.score}
    return fields


def verdicts(r: PlayerResult) -> list[Any]:
    """A player's correction without what depends on where the slips were stored (event numbers, lines)."""
    out: list[Any] = [r.total, r.place, r.eliminated, r.penalties, r.warning_costs]
    for turn in sorted(r.slips):
        sv = r.slips[turn]
        out.append((turn, sv.status, sv.reason, sv.points, sv.warning and sv.warning.to_dict(), sv.warning_cost,
                    sv.verifications, sv.cancellations, sv.notes, sv.passed,
                    [v.summary() | {"status": v.status, "penalty": v.penalty} for v in sv.placements]))
    out.append([(s.status, s.reason, [v.summary() for v in s.placements]) for s in r.unattributed])
    return out


def differences(web: GameState, library: GameState) -> list[str]:
    diffs = []
    if set(web.results) != set(library.results):
        diffs.append("players differ")
    for player, r in library.results.items():
        if player in web.results and verdicts(web.results[player]) != verdicts(r):
            diffs.append(player)
    return diffs


def create(db: str, sim: Simulation, lexicon: Any) -> str:
    with Journal(db, actor="arbiter") as j:
        game = AnticipationGame.create(j, Settings(lexicon=lexicon.name, seed=7), sim.draw, lexicon=lexicon,
                                       seating=sim.seating)
        for turn, group in enumerate(sim.lots, 1):
            game.draw_lot(turn, group)
        return game.id


def library_state(sim: Simulation, lexicon: Any, tmp: Path) -> GameState:
    with Journal(tmp / "library.db") as j:
        game = AnticipationGame.create(j, Settings(lexicon=lexicon.name, seed=7), sim.draw, lexicon=lexicon,
                                       seating=sim.seating)
        for turn, group in enumerate(sim.lots, 1):
            game.draw_lot(turn, group)
        for turn in sorted(sim.slips):
            game.enter_slips(sim.slips[turn])
        return game.replay()


Post = Callable[[dict[str, str]], int]


def enter_turn(posters: list[Post], slips: list[Slip], seating: dict[int, str]) -> tuple[float, list[int]]:
    """Post one turn's slips, split among the desks, all at once; (seconds, statuses)."""
    statuses: list[int] = []
    lock = threading.Lock()

    def work(i: int) -> None:
        for slip in slips[i :: len(posters)]:
            status = posters[i](desk_fields(slip, seating))
            with lock:
                statuses.append(status)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(posters))]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - started, statuses


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A real uvicorn server on 127.0.0.1 in a thread of this process, stopped on exit."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def desk_poster(base: str, gid: str, name: str) -> tuple[httpx.Client, Post]:
    client = httpx.Client(base_url=base, timeout=60)
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text)
    assert token
    r = client.post("/login", data={"csrf": token.group(1), "name": name, "password": "desk-pass-" + name})
    assert r.status_code == 303, r.text
    page = client.get(f"/games/{gid}/slips").text
    m = re.search(r'name="csrf" value="([^"]+)"', page)
    assert m
    csrf = m.group(1)

    def post(fields: dict[str, str]) -> int:
        return client.post(f"/games/{gid}/slips", data={"csrf": csrf, "desk_name": name, **fields}).status_code

    return client, post


def run(players: int, desks: int, echo: Callable[[str], None] = print, review: bool = True) -> list[str]:
    """The whole bench; returns the players whose verdicts differ (none when the web adds no rule)."""
    from anticipation_support import lexicon as test_lexicon
    from arbitru.web.app import create_app

    lexicon = test_lexicon()
    diffs_refused: list[str] = []
    started = time.perf_counter()
    sim = simulate(lexicon, players=players, seed=7)
    echo(f"simulated {players} players: {sum(len(v) for v in sim.slips.values())} slips "
         f"({time.perf_counter() - started:.1f} s)")
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "web.db")
        app = create_app(db)
        with Journal(db, actor="arbiter") as j:
            for i in range(desks):
                auth.set_password(j, f"d{i}", f"desk-pass-d{i}", "desk")
        gid = create(db, sim, lexicon)
        seating = {table: player for player, table, _ in sim.seating}
        with Server(app) as base:
            clients = [desk_poster(base, gid, f"d{i}") for i in range(desks)]
            reviewer = clients[0][0]
            for turn in sorted(sim.slips):
                slips = sim.slips[turn]
                seconds, statuses = enter_turn([p for _, p in clients], slips, seating)
                bad = [s for s in statuses if s != 303]
                shown = ""
                if review:
                    t0 = time.perf_counter()
                    r = reviewer.get(f"/games/{gid}/review?turn={max(1, turn)}")
                    shown = f"; correction review {time.perf_counter() - t0:.2f} s (status {r.status_code})"
                echo(f"turn {turn:2}: {len(slips)} slips entered by {desks} desks in {seconds:.2f} s "
                     f"({1000 * seconds / max(1, len(slips)):.1f} ms a slip"
                     + (f", {len(bad)} refused: {sorted(set(bad))}" if bad else "") + ")" + shown)
                if bad:
                    diffs_refused.extend(f"turn {turn}: status {s}" for s in bad)
            for client, _ in clients:
                client.close()
        with Journal(db) as j:
            web_state = AnticipationGame(j, gid).replay()
        library = library_state(sim, lexicon, Path(tmp))
    diffs = differences(web_state, library)
    echo(f"verdicts: {len(library.results)} players compared, {len(diffs)} differ" +
         (f": {diffs[:10]}" if diffs else ""))
    return diffs_refused + diffs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--desks", type=int, default=4)
    args = parser.parse_args()
    diffs = run(args.players, args.desks, echo=print)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
