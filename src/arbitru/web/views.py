"""What the pages show, built from a session's game state: board cells, rack tiles, the clock, the slip grid.

Plain data for the templates; every value comes from the library (the game, its verdicts, its results).
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from arbitru.engine.layout import ROW_LETTERS, SIZE
from arbitru.engine.tiles import BLANK, Alphabet, is_blank, letter_of
from arbitru.formats.duplicate import announce, results, seats
from arbitru.formats.duplicate.game import Game, Master, Player, Session
from arbitru.formats.duplicate.slips import Slip, Verdict
from arbitru.journal.store import Journal
from arbitru.messages import Plural, Text
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


def slips_entered(w: Web, journal: Journal, game_id: str, at: int, move: int) -> Entered:
    """The game's slips of ``move`` (the open or last move: the only one the pages show) and later as the journal
    stored them, up to journal position ``at``: read once per position in this worker, and only the slip events
    since the position read last (a close at a national game reads none again). The moves before are let go: late
    in a national game they were eleven moves of ten thousand slips copied at every position and kept."""

    def advance(after: int, known: Entered | None) -> Entered:
        events: SlipEvents = {k: v for k, v in known[0].items() if k[0] >= move} if known else {}
        history: SlipHistory = {k: v for k, v in known[1].items() if k[0] >= move} if known else {}
        for e in journal.iter_events(game_id, "slip", after=after):
            if e.seq > at:
                break
            s = Slip.from_payload(e.payload)
            if s.move < move:
                continue
            events[(s.move, str(e.payload.get("player") or ""))] = (e.seq, e.recorded, e.actor)
            key = (s.move, s.player.strip())
            history[key] = [*history.get(key, ()), (e.seq, s)]  # a new list: the one read before is shared
        return events, history

    return w.at_seq(game_id, at, "slips_entered", lambda: w.forward(game_id, "slips_entered", at, advance))


def grid(session: Session, slips: Entered) -> list[dict[str, Any]]:
    """One row per player for the open (or last) move: the slip, who entered it, its verdict (``slips``:
    :func:`slips_entered` at the session's position). The rows whose slips were written alike share one verdict
    (:meth:`~arbitru.formats.duplicate.game.Game.judged`): read it, never hand it on as a row's own."""
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
                row["verdict"] = g.judged(slip, lex, alike)  # read only: ten thousand rows share a few verdicts
        rows.append(row)
    return rows


def grid_at(w: Web, session: Session, slips: Entered) -> list[dict[str, Any]]:
    """:func:`grid` at the session's journal position, computed once in this worker: the console's page and its
    grid's refetch on the same change share it, and each find (ten thousand rows, every slip judged)."""
    return w.at_seq(session.id, session.game.last_seq, ("grid", session.lexicon is not None),
                    lambda: grid(session, slips))


#: the most rows the console's grid draws: a national game's ten thousand rows are read by no arbiter, and they hold
#: up the hall (drawn again on every change) and the browser; a game of more players shows those that need a look
#: first (:func:`grid_view`), and the find box asks the server for any other
GRID_ROWS = 300
#: the most names of players without a slip the console's counts line names; the rest are counted
MISSING_NAMED = 50
#: the longest find text the console takes (a longer one is cut there)
FIND_LONGEST = 100


def found(words: str, find: str) -> bool:
    """Whether the row whose words are ``words`` (a player's "number name table N") is one that ``find`` asks
    for: a number whole, a name from the start of one of its words, case and runs of spaces aside; an empty find
    finds every row. The one rule of the console's find: the server finds by it in a capped grid
    (:func:`grid_view`), and app.js's ``gridFilter`` applies the same rule to the rows on the page.

    >>> [found("17 Ana Pop table 2", q) for q in ("1", "17", "PO", "table 2", "op", "ana  pop", "table 2 ana", "")]
    [False, True, True, True, False, True, False, True]
    """
    q = _spaced(find.lower())
    if not q:
        return True
    needle = " " + q + (" " if q[-1] in "0123456789" else "")  # JavaScript's \d: the ASCII digits
    return needle in " " + _spaced(words.lower()) + " "


#: JavaScript's ``\s``, where app.js's gridFilter splits words (Python's ``str.split`` also splits at U+001C-U+001F
#: and U+0085, and not at U+FEFF, the zero-width no-break space a name pasted from elsewhere may carry)
_JS_SPACES = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")


def _spaced(text: str) -> str:
    """``text``'s words one space apart, split where app.js's gridFilter splits them."""
    return " ".join(w for w in _JS_SPACES.split(text) if w)


def needs_look(row: dict[str, Any]) -> bool:
    """A grid row the arbiter looks at first: a slip judged invalid, a late slip, a slip with others (one it
    replaced, a late one kept apart), a seat changed."""
    slip, verdict = row["slip"], row["verdict"]
    return bool(row["player"].seat_changed or row["others"]
                or (slip is not None and (slip.late or (verdict is not None and not verdict.valid))))


@dataclass(frozen=True)
class GridView:
    """What the console's grid draws of :func:`grid`'s rows (every player's): ``rows``, in player-number order;
    the counts of all players (slips in, missing); the missing players it names (:data:`MISSING_NAMED`), and
    ``more`` (how many more it counts); ``note``: why fewer rows than players are drawn (None: every row is)."""

    rows: list[dict[str, Any]]
    slips_in: int
    missing: int
    named: list[Player]
    more: Text | None
    note: Text | None


def grid_view(rows: list[dict[str, Any]], find: str = "", table: str = "table") -> GridView:
    """The rows the console draws of the grid's ``rows`` (one per player, by number): every one in a game of at
    most :data:`GRID_ROWS` players (the page's own find hides the others); in a bigger game, the rows that need a
    look first (:func:`needs_look`), then the others by number, up to :data:`GRID_ROWS`; with ``find`` (the
    find box's text, at most :data:`FIND_LONGEST` characters taken), the rows it finds (:func:`found`, ``table``:
    the word the page's rows say before a table's number), up to :data:`GRID_ROWS`. Drawn by number."""
    absent = [r["player"] for r in rows if r["slip"] is None and r["plays"]]
    more = len(absent) - MISSING_NAMED
    view = GridView(rows, sum(1 for r in rows if r["slip"] is not None), len(absent), absent[:MISSING_NAMED],
                    Plural("and %(n)s more", "and %(n)s more", n=more) if more > 0 else None, None)
    find = _spaced(find[:FIND_LONGEST])
    if find:
        hits = [r for r in rows
                if found(f"{r['player'].number} {r['player'].name} {table} {r['player'].table}", find)]
        note = (Plural("%(n)s player found for “%(find)s”.", "%(n)s players found for “%(find)s”.", n=len(hits),
                       find=find) if len(hits) <= GRID_ROWS else
                Plural("%(n)s player found for “%(find)s”; the first %(shown)s are shown.",
                       "%(n)s players found for “%(find)s”; the first %(shown)s are shown.", n=len(hits),
                       find=find, shown=GRID_ROWS))
        return dataclasses.replace(view, rows=hits[:GRID_ROWS], note=note)
    if len(rows) <= GRID_ROWS:
        return view
    first = [i for i, r in enumerate(rows) if needs_look(r)][:GRID_ROWS]
    drawn = set(first)
    for i in range(len(rows)):
        if len(drawn) >= GRID_ROWS:
            break
        drawn.add(i)
    note = Plural("%(shown)s of %(n)s player shown: first the slips that need a look (invalid, late, replaced, "
                  "seat changed), then by number. Find any player or table above.",
                  "%(shown)s of %(n)s players shown: first the slips that need a look (invalid, late, replaced, "
                  "seat changed), then by number. Find any player or table above.", n=len(rows), shown=GRID_ROWS)
    return dataclasses.replace(view, rows=[rows[i] for i in sorted(drawn)], note=note)


def result(session: Session, before: results.GameResult | None = None) -> results.GameResult | None:
    if session.lexicon is None or not any(m.master for m in session.game.moves):
        return None
    return results.compute(session.game, session.lexicon, before)


def result_at(w: Web, s: Session) -> results.GameResult | None:
    """The game's results at the session's journal position, computed once in this worker for each event that can
    change them (``results_seq``: a draw or a slip for the open move keeps them), from the last ones kept: the
    moves no event since changed are taken from them (:func:`results.compute`)."""

    def make() -> results.GameResult | None:
        last = w.last_kept(s.id, "result")
        return result(s, last if isinstance(last, results.GameResult) else None)

    return w.at_seq(s.id, s.game.last_seq, "result", lambda: w.kept(s.id, "result", s.game.results_seq, make))
