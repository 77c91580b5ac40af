"""What the anticipation pages show and share (the hall's, the training's, the API's): the game opened for a page,
its replayed state computed once per journal position, the projected grid, the chronometer, the announcement
script, a player's board, and a player's own slip handed in from his browser or the API. Part of the web's
house: it imports no route; the rules stay in :mod:`arbitru.formats.anticipation`.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request

from arbitru.errors import GameNotFound, JournalError
from arbitru.formats.anticipation.announce import announced_tiles
from arbitru.formats.anticipation.clock import Timer, timer_cues, timer_seconds
from arbitru.formats.anticipation.draw import format_group, parse_group
from arbitru.formats.anticipation.game import AnticipationGame, GameState
from arbitru.formats.anticipation.hall import HallState as Light
from arbitru.formats.anticipation.hall import hall_state
from arbitru.formats.anticipation.slips import Slip, SlipRow
from arbitru.formats.anticipation.variants import GROUPS
from arbitru.formats.anticipation.verdicts import PlayerResult
from arbitru.journal.store import Journal
from arbitru.web import i18n
from arbitru.web.house import Web

#: anticipation is played in Romanian only (RO-3.1): its pages without a game are in Romanian too
LANG = "ro"

_states: dict[tuple[str, str], tuple[int, GameState]] = {}
_lights: dict[tuple[str, str], Light] = {}
_lock = threading.Lock()
_makers: dict[tuple[str, str, str], threading.Lock] = {}


def open_game(j: Journal, gid: str) -> AnticipationGame:
    try:
        return AnticipationGame(j, gid)
    except GameNotFound:
        raise HTTPException(404, i18n.no_game(gid)) from None
    except JournalError as e:
        raise HTTPException(404, i18n.unreadable(e, gid)) from None


def _maker(key: tuple[str, str, str]) -> threading.Lock:
    """The lock of whoever computes ``key`` (what, journal, game): the first asker of a new position computes,
    the others asking meanwhile wait for it and take what it computed (never a computation each)."""
    with _lock:
        return _makers.setdefault(key, threading.Lock())


def replayed(w: Web, j: Journal, game: AnticipationGame) -> GameState:
    """The replayed state, computed once per journal position (every page of a turn reads the same one)."""
    seq = j.last_seq(game.id)
    key = (w.db, game.id)
    with _lock:
        cached = _states.get(key)
    if cached is not None and cached[0] == seq:
        return cached[1]
    with _maker(("replayed", *key)):
        with _lock:
            cached = _states.get(key)
        if cached is not None and cached[0] == seq:
            return cached[1]
        state = game.replay()
        with _lock:
            known = _states.get(key)
            if known is None or known[0] < state.last_seq:
                _states[key] = (state.last_seq, state)
    return state


# --- what the pages show --------------------------------------------------------------------------------


def light(j: Journal, game: AnticipationGame) -> Light:
    """What the pages show at the journal's latest position (:func:`hall_state`), read once per position in this
    worker."""
    seq = j.last_seq(game.id)
    key = (j.path, game.id)
    with _lock:
        cached = _lights.get(key)
    if cached is None or cached.last_seq != seq:
        with _maker(("light", *key)):
            with _lock:
                cached = _lights.get(key)
            if cached is None or cached.last_seq != seq:
                cached = hall_state(j, game)
                with _lock:
                    known = _lights.get(key)
                    if known is None or known.last_seq < cached.last_seq:
                        _lights[key] = cached
    # shared by every request of that position, each with its own game (and its own journal connection)
    return dataclasses.replace(cached, game=game)


def ticking(lt: Light) -> int:
    """While a timer counts down, the second a fragment was drawn in (its countdown starts there), else 0 (a timer
    whose time is up shows 0:00 whatever the second: kept once, not once a second)."""
    now = time.time()
    clock = clock_view(lt, now=now)
    return int(now) if clock["state"] == "running" and not clock["over"] else 0


def groups_of(lt: Light, turn: int) -> list[int]:
    lot = lt.lots.get(turn)
    if lot is None:
        return []
    return [1, int(lot["group"])] if turn == 1 else [int(lot["group"])]


def grid_rows(lt: Light, show_all: bool = False) -> list[dict[str, Any]]:
    """The 15 groups of the projected grid: those read out so far (letters alphabetical, blanks last)."""
    played = {g: t for t in lt.lots for g in groups_of(lt, t)}
    alpha = lt.game.alpha
    rows = []
    for number in range(1, GROUPS + 1):
        shown = number <= lt.announced or show_all or lt.recap
        text = lt.groups[number - 1] if shown and number <= len(lt.groups) else ""
        tiles = parse_group(alpha, text) if text else []
        said = announced_tiles(alpha, tiles, lt.game.settings.variant)
        rows.append({
            "number": number,
            "letters": [alpha.label(t) for t in said],
            "blanks": [alpha.label(t) == "?" for t in said],
            "spelled": ", ".join(alpha.spelling(t) for t in said),
            "turn": played.get(number),
            "shown": bool(text),
        })
    return rows


def clock_view(lt: Light, timer: str | None = None, now: float | None = None) -> dict[str, Any]:
    """The chronometer a page counts down: the current turn's timer once started, else the analysis."""
    now = time.time() if now is None else now
    if timer is None:  # the clock of the game's current state only (RO-4.3)
        timer = lt.order(now).timer()
    t = lt.timers.get(timer) or Timer(timer, timer_seconds(timer))
    cues = [c.to_dict() for c in timer_cues(timer, lt.game.settings.clock_visible)]
    return {
        "move": timer,
        "timer": timer,
        "state": t.state,
        "seconds": t.seconds,
        "remaining": round(t.remaining(now), 2),
        "over": t.over(now),
        "cues": cues,
        "server_time": now,
    }


def script_steps(lt: Light) -> list[dict[str, Any]]:
    """The announcement script of the draw, step by step (RO-5.2.f–h): what is said, and what is done."""
    alpha = lt.game.alpha
    steps = []
    for number, text in enumerate(lt.groups, 1):
        said = announced_tiles(alpha, parse_group(alpha, text), lt.game.settings.variant)
        steps.append({
            "key": f"group {number}",
            "say": f"Grupa {number}: " + ", ".join(alpha.spelling(t) for t in said) + ".",
            "show": format_group(alpha, said),
            "done": number <= lt.announced,
        })
    if lt.groups:
        variant = lt.game.settings.variant
        recap = " ".join(f"{i}: {format_group(alpha, announced_tiles(alpha, parse_group(alpha, g), variant))}"
                         for i, g in enumerate(lt.groups, 1))
        steps.append({"key": "recap", "say": "Recapitulare (în ritm alert).", "show": recap, "done": lt.recap})
    return steps


def board_cells(r: PlayerResult) -> list[list[str]]:
    text = r.board.to_text() if r.board is not None else ""
    rows = text.splitlines()
    return [[(rows[i][c] if rows and rows[i][c] != "." else "") for c in range(15)] for i in range(15)]


def phone_language(request: Request, game: AnticipationGame) -> dict[str, Any]:
    """A player's page is in the game's language, or the one his phone asked for (``?lang=``)."""
    return {"lang": i18n.pick(request.query_params.get("lang"), game.settings.lang), "languages": i18n.LANGUAGES}


def browser_slip(lt: Light, player: str, turn: int, placements: list[tuple[str, str, str]], total: str,
                 note: str) -> Slip:
    table = str(lt.seating.get(player, ""))
    rows = placements or [("", "", "")]
    return Slip(player, turn, [
        SlipRow(line=i, table=table, turn=str(turn), position=p, word=wd, score=s,
                turn_total=total if i == 1 else "", note=note if i == 1 else "")
        for i, (p, wd, s) in enumerate(rows, 1)
    ], source="web", written_turn=str(turn))


def hand_in(w: Web, gid: str, player: str, turn: int, placements: list[tuple[str, str, str]], total: str,
            note: str, key: str = "") -> dict[str, Any]:
    """Store a player's slip from his browser or the API; late by the server clock (stored, flagged). ``key``: the
    sender's idempotency key: a retry gets the first receipt and stores nothing."""
    with w.journal(f"player:{player}") as j:
        game = open_game(j, gid)
        lt = light(j, game)
        slip = browser_slip(lt, player, turn, placements, total, note)
        now = time.time()
        receipt = game.hand_in(slip, now, key)
        seq, late = receipt.seq, receipt.late
        recorded = next(j.iter_events(gid, after=seq - 1)).recorded
    stored = receipt.slip
    return {"stored": True, "seq": seq, "received": recorded, "late": late, "turn": stored.turn, "player": player,
            "table": stored.rows[0].table if stored.rows else "", "replaces": receipt.replaces,
            "kept_apart": receipt.kept_apart}
