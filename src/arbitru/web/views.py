"""What the pages show, built from a session's game state: board cells, rack tiles, the clock, the slip grid.

Plain data for the templates; every value comes from the library (the game, its verdicts, its results).
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from arbitru.engine.layout import ROW_LETTERS, SIZE
from arbitru.engine.tiles import BLANK, Alphabet, is_blank, letter_of
from arbitru.formats.duplicate import announce, results, seats
from arbitru.formats.duplicate.game import Game, Master, Session
from arbitru.formats.duplicate.slips import Slip, Verdict
from arbitru.journal.store import Journal
from arbitru.textinput import number_order
from arbitru.web.house import Web
from arbitru.web.i18n import Gettext


@dataclass(frozen=True)
class Cell:
    square: int
    premium: str
    label: str = ""
    value: int = 0
    blank: bool = False
    last: bool = False
    centre: bool = False


def tile_value(alpha: Alphabet, tile: int) -> int:
    return 0 if tile == BLANK or is_blank(tile) else alpha.values[letter_of(tile)]


def board_rows(game: Game) -> list[list[Cell]]:
    board = game.board
    last = last_master(game)
    highlight = {sq for sq, _ in last.new} if last else set()
    rows = []
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            sq = r * SIZE + c
            t = board.squares[sq]
            row.append(
                Cell(
                    sq,
                    board.layout.premium_name(sq),
                    game.alphabet.label(t) if t else "",
                    tile_value(game.alphabet, t) if t else 0,
                    bool(t) and is_blank(t),
                    sq in highlight,
                    sq == board.layout.centre,
                )
            )
        rows.append(row)
    return rows


def row_letters() -> str:
    return ROW_LETTERS


def last_master(game: Game) -> Master | None:
    for m in reversed(game.moves):
        if m.master is not None:
            return m.master
    return None


def rack_tiles(game: Game) -> list[dict[str, Any]]:
    """The rack on the stand (empty between moves)."""
    if game.phase != "play":
        return []
    return [{"label": game.alphabet.label(t), "value": tile_value(game.alphabet, t)} for t in game.moves[-1].rack]


def clock(game: Game, now: float | None = None, _: Gettext | None = None) -> dict[str, Any]:
    """The clock of the open move as the pages count it down: time left at ``now`` and the timed cues (in the
    page's language when ``_`` is given)."""
    now = time.time() if now is None else now
    move = game.move if game.phase == "play" else 0
    c = game.clock_for(move)
    cues = []
    for q in announce.clock_schedule(game.rules):
        text = _(q.text) if _ is not None else str(q.text)
        cues.append({"at": q.at, "text": text, "kind": q.kind})
    return {
        "move": move,
        "state": c.state if move else "idle",
        "seconds": game.rules.clock.seconds,
        "remaining": round(c.remaining(now), 2),
        "over": c.over(now),
        "cues": cues,
        "server_time": now,
    }


def rack_cues(game: Game, _: Gettext | None = None) -> list[str]:
    """What is read out for the rack on the stand (FISE-8): the leave, the new tiles spelled, the rack."""
    if game.phase != "play":
        return []
    state = game.moves[-1]
    d = state.draws[-1]
    a = announce.rack_announcement(
        game.alphabet,
        state.number,
        d.kept,
        d.drawn,
        game.rules,
        new_order=game.settings.new_order,
        exchanges=len(state.draws) - 1,
        fixed=d.fixed,
    )
    out = []
    if d.source == "new-rack":  # FISE-16, said to the hall in its language: why the rack changed
        why = ("New rack (FISE-16): the slips written for the old rack are set aside, not scored; "
               "the clock starts again at full time.")
        out.append(_(why) if _ is not None else why)
    for q in a.cues:
        if q.at is not None:
            continue
        out.append(_(q.text) if _ is not None else str(q.text))
    return out


def master_view(game: Game) -> dict[str, Any] | None:
    """The last master move, as announced (FISE-7a), with the running master total."""
    for m in reversed(game.moves):
        if m.master is not None:
            mm = m.master
            return {
                "move": m.number,
                "word": game.alphabet.format(mm.placement.word),
                "position": mm.placement.coord.format(game.rules.notation),
                "score": mm.score,
                "total": sum(x.master.score for x in game.moves[: m.number] if x.master),
                "ties": mm.ties,
                "by": mm.by,
                "spelled": announce.spell(game.alphabet, mm.placement.word),
            }
    return None


#: (move, player) -> (seq, recorded, actor) of the slip that counts (the last one entered)
SlipEvents = dict[tuple[int, str], tuple[int, str, str]]
#: (move, player) -> every slip entered for it, in order, with its event: a replacement shows the slip it replaced,
#: a late slip kept apart the one that counts
SlipHistory = dict[tuple[int, str], list[tuple[int, Slip]]]
Entered = tuple[SlipEvents, SlipHistory]


def slips_entered(w: Web, journal: Journal, game_id: str, at: int) -> Entered:
    """The game's slips as the journal stored them, up to journal position ``at``: read once per position in this
    worker, and only the slip events since the position read last (a close at a national game reads none again)."""

    def advance(after: int, known: Entered | None) -> Entered:
        events: SlipEvents = dict(known[0]) if known else {}
        history: SlipHistory = dict(known[1]) if known else {}
        for e in journal.iter_events(game_id, "slip", after=after):
            if e.seq > at:
                break
            s = Slip.from_payload(e.payload)
            events[(int(e.payload["move"]), str(e.payload.get("player") or ""))] = (e.seq, e.recorded, e.actor)
            key = (s.move, s.player.strip())
            history[key] = [*history.get(key, ()), (e.seq, s)]  # a new list: the one read before is shared
        return events, history

    return w.at_seq(game_id, at, "slips_entered", lambda: w.forward(game_id, "slips_entered", at, advance))


def grid(session: Session, slips: Entered) -> list[dict[str, Any]]:
    """One row per player for the open (or last) move: the slip, who entered it, its verdict (``slips``:
    :func:`slips_entered` at the session's position)."""
    g = session.game
    move = g.move
    entered, history = slips
    lex = session.lexicon
    alike: dict[Hashable, Verdict] = {}  # the same slip written by many players is judged once
    rows = []
    for number, p in sorted(g.players.items(), key=lambda kv: number_order(kv[0])):
        slip = g.slips.get((move, number))
        counted = g.slip_seqs.get((move, number))
        others = [s for seq, s in history.get((move, number), []) if seq != counted and s not in g.set_aside]
        row: dict[str, Any] = {"player": p, "slip": slip, "by": "", "verdict": None, "others": others,
                               "plays": not seats.absent_at(p, move)}  # a seat out of this move is not missing
        if slip is not None:
            row["by"] = entered.get((move, number), (0, "", ""))[2]
            if lex is not None:
                row["verdict"] = g.verdict(slip, lex, alike)
        rows.append(row)
    return rows


def grid_at(w: Web, session: Session, slips: Entered) -> list[dict[str, Any]]:
    """:func:`grid` at the session's journal position, computed once in this worker: the console's page and its
    grid's refetch on the same change share it (ten thousand rows, every slip judged)."""
    return w.at_seq(session.id, session.game.last_seq, ("grid", session.lexicon is not None),
                    lambda: grid(session, slips))


def result(session: Session) -> results.GameResult | None:
    if session.lexicon is None or not any(m.master for m in session.game.moves):
        return None
    return results.compute(session.game, session.lexicon)


def result_at(w: Web, s: Session) -> results.GameResult | None:
    """The game's results at the session's journal position, computed once in this worker for each event that can
    change them (``results_seq``: a draw or a slip for the open move keeps them)."""
    return w.at_seq(s.id, s.game.last_seq, "result",
                    lambda: w.kept(s.id, "result", s.game.results_seq, lambda: result(s)))
