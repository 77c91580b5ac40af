"""What each action that cannot be undone will do, said before it is done (:mod:`arbitru.web.confirm`): an empty
list when it needs no confirmation now (a move closed with every slip in, a final ranking after the deadline)."""

from __future__ import annotations

from typing import Any

from arbitru.errors import ArbitruError
from arbitru.formats.duplicate.game import Game, Session
from arbitru.journal.store import Journal
from arbitru.messages import Text
from arbitru.textinput import ascii_number, number_order

#: the most players without a slip a move's close confirmation names; the rest are counted
NAMED_MISSING = 30


def minutes(seconds: float) -> str:
    s = max(0, round(seconds))
    return f"{s // 60}:{s % 60:02d}"


# --- duplicate -------------------------------------------------------------------------------------------------


def missing(game: Game) -> list[Any]:
    """The players still in the game with no slip for the open move (none when no move is open), by number."""
    if game.phase != "play":
        return []
    return [p for number, p in sorted(game.players.items(), key=lambda kv: number_order(kv[0]))
            if p.withdrawn_after is None and (game.move, number) not in game.slips]


def new_rack(s: Session, f: dict[str, str]) -> list[Text]:
    g = s.game
    if f.get("new") != "1" or g.phase != "play":
        return []
    written = sum(1 for m, _p in g.slips if m == g.move) + sum(1 for x in g.late_apart if x.move == g.move)
    return [
        Text("Move %(move)s: the rack %(rack)s goes back to the bag and a new rack is drawn (FISE-16).",
             move=g.move, rack=g.alphabet.format(g.rack)),
        Text("%(n)s slip(s) written for this rack are set aside: kept in the journal, not scored.", n=written),
        Text("The clock goes back to full time (%(time)s) and waits to be started.",
             time=minutes(g.rules.clock.seconds)),
        Text("Every phone and the projection say why the rack changed."),
    ]


def end_game(s: Session, f: dict[str, str]) -> list[Text]:
    g = s.game
    if g.phase == "over":
        return []
    closed = sum(1 for m in g.moves if m.master)
    said = [Text("The game ends now, after move %(n)s: no further rack is drawn and the results become final.",
                 n=closed)]
    if g.phase == "play":
        written = sum(1 for m, _p in g.slips if m == g.move)
        said.append(Text("Move %(move)s is open: it is not scored; its %(n)s slip(s) stay in the journal.",
                         move=g.move, n=written))
    return said


def close_move(s: Session, f: dict[str, str]) -> list[Text]:
    g = s.game
    absent = missing(g)
    if not absent:
        return []
    names = ", ".join(p.label() for p in absent[:NAMED_MISSING])
    more = len(absent) - NAMED_MISSING
    return [
        Text("%(n)s player(s) have no slip for move %(move)s: %(names)s and %(more)s more.", n=len(absent),
             move=g.move, names=names, more=more) if more > 0 else
        Text("%(n)s player(s) have no slip for move %(move)s: %(names)s.", n=len(absent), move=g.move, names=names),
        Text("Closed now, the move scores 0 for them; a slip handed in afterwards is late."),
    ]


def replace_slip(s: Session, f: dict[str, str]) -> list[Text]:
    g = s.game
    try:
        player = s.seat(f.get("player", "")).number
    except ArbitruError:
        return []  # the action refuses it beside its field
    move = ascii_number(f.get("move", "")) or g.move
    old = g.slips.get((move, player))
    if old is None:
        return []
    new = " ".join(x for x in (f.get("position", ""), f.get("word", ""), f.get("score", "")) if x)
    return [
        Text("Player %(player)s has a slip for move %(move)s already: %(old)s.", player=player, move=move,
             old=" ".join(str(x) for x in (old.position, old.word, old.score) if x not in ("", None)) or "—"),
        Text("The new slip (%(new)s) replaces it; both stay in the journal and the receipt shows both.",
             new=new or "—"),
    ]


# --- anticipation ----------------------------------------------------------------------------------------------


def all_lots(game: Any, f: dict[str, str], j: Journal) -> list[Text]:
    from arbitru.formats.anticipation.order import Action
    from arbitru.formats.anticipation.variants import TURNS

    if f.get("all") != "1" or game.hall().why_not(Action.ALL_LOTS, "") is not None:
        return []
    turns = [t for t in range(1, TURNS + 1) if t not in game.order().lots]
    if not turns:
        return []
    return [
        Text("Every remaining lot is drawn now by the arbiter (RO-4.4): %(n)s lots, turns %(first)s to %(last)s.",
             n=len(turns), first=turns[0], last=turns[-1]),
        Text("Lots cannot be drawn again: the tables no longer draw them in the hall."),
    ]


def publish(game: Any, f: dict[str, str], j: Journal) -> list[Text]:
    """Results published while the game is not over end it (RO-5.5.j): the turns not played, a running time and
    the missing slips are named, and what ending means; the final ranking before the deadline asks too."""
    from arbitru.formats.anticipation.variants import TURNS

    said: list[Text] = []
    if game.published().stage == "in play" and f.get("stage") in ("provisional", "final"):
        gaps = game.unfinished()
        if gaps:
            lots = game.order().lots
            said += [Text("The game is not over (RO-5.5.j):"), *gaps]
            if len(lots) < TURNS:
                said.append(Text("Published now, the game ends after turn %(n)s: no further lot is drawn, no timer "
                                 "runs, every phone says the game is over and takes no more slips.", n=len(lots)))
            else:
                said.append(Text("Published now, the game ends: every phone says so and takes no more slips; a "
                                 "slip still missing is then a contest for the chief arbiter (RO-6.5)."))
            said.append(Text("The provisional results may be withdrawn by a decision: the game then goes on."))
    return said + publish_early(game, f, j)


def publish_early(game: Any, f: dict[str, str], j: Journal) -> list[Text]:
    if f.get("stage") != "final":
        return []
    early = game.final_too_early()
    if early is None:
        return []
    deadline, seq = early
    return [
        Text("The final ranking is published before the period for contests is over (RO-5.5.j).")
        if seq is not None else
        Text("No provisional results with a deadline for contests were published (RO-5.5.j)."),
        *([Text("Contests may be lodged until %(deadline)s (provisional results, no. %(seq)s).",
                deadline=deadline, seq=seq)] if seq is not None else []),
        Text("A final ranking cannot be withdrawn."),
    ]


def desk_slip(game: Any, f: dict[str, str], j: Journal) -> list[Text]:
    """A slip typed once results are published is the chief arbiter's decision (RO-6.5): said before it is stored;
    otherwise a stored slip replaced (:func:`replace_desk_slip`)."""
    if game.published().stage == "in play":
        return replace_desk_slip(game, f, j)
    if j.actor != "arbiter" or not f.get("reason", "").strip():
        return []  # the action refuses it beside its field
    table = f.get("table", "").strip()
    seated = next((seat.label() for seat in game.seats() if table and seat.table == table), None)
    who = f.get("player") or seated or Text("table %(n)s", n=table or "?")
    return [
        Text("The results are published: this slip of %(who)s, turn %(turn)s, is a decision of the chief arbiter "
             "(RO-6.5), with the reason: %(reason)s.", who=who, turn=f.get("collected") or "?",
             reason=f["reason"].strip()),
        Text("It changes the results; the decisions list shows its effect; a later decision may revoke it."),
    ]


def replace_desk_slip(game: Any, f: dict[str, str], j: Journal) -> list[Text]:
    if f.get("replace") != "1":
        return []
    who = f.get("player") or Text("table %(n)s", n=f.get("table", "?"))
    return [Text("The slip stored for %(who)s, turn %(turn)s, is replaced by this one; both stay in the journal.",
                 who=who, turn=f.get("collected") or "?")]
