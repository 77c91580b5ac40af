"""What each action that cannot be undone will do, said before it is done (:mod:`arbitru.web.confirm`): an empty
list when it needs no confirmation now (a move closed with every slip in, a final ranking after the deadline)."""

from __future__ import annotations

import time
from typing import Any

from arbitru.errors import ArbitruError
from arbitru.formats.duplicate import decisions, seats
from arbitru.formats.duplicate.game import Game, Session
from arbitru.formats.duplicate.order import SlipAction, Window
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.messages import Plural, Text
from arbitru.textinput import ascii_number, number_order
from arbitru.web.forms import Refused

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
            if not seats.absent_at(p, game.move) and (game.move, number) not in game.slips]


def new_rack(s: Session, f: dict[str, str]) -> list[Text]:
    g = s.game
    if f.get("new") != "1" and g.phase == "rack":
        return _draw_ends(s)
    if f.get("new") != "1" or g.phase != "play":
        return []
    if s.settings.racks != "seed" and not f.get("tiles", "").strip():
        # the program never draws a rack of a game whose racks are drawn in the hall: nothing to confirm
        raise Refused("tiles", Text("move %(move)s: enter the tiles drawn in the hall", move=g.move))
    written = sum(1 for m, _p in g.slips if m == g.move) + sum(1 for x in g.late_apart if x.move == g.move)
    return [
        Text("Move %(move)s: the rack %(rack)s goes back to the bag and a new rack is drawn (FISE-16).",
             move=g.move, rack=g.alphabet.format(g.rack)),
        Plural("%(n)s slip written for this rack is set aside: kept in the journal, not scored.",
               "%(n)s slips written for this rack are set aside: kept in the journal, not scored.", n=written),
        Text("The clock goes back to full time (%(time)s) and waits to be started.",
             time=minutes(g.rules.clock.seconds)),
        Text("Every phone and the projection say why the rack changed."),
    ]


def _draw_ends(s: Session) -> list[Text]:
    """The draw after the last planned move ends the game (FISE-13): asked when paper slips are still being typed,
    which the end leaves to the arbiter's decisions (FISE-17)."""
    g = s.game
    closed = sum(1 for m in g.moves if m.master)
    typing = list(range(g.collected + 1, closed + 1))
    if g.rules.moves is None or g.move < g.rules.moves or not typing:
        return []
    return [Text("The %(n)s planned moves are played: this ends the game.", n=g.rules.moves),
            Text("The paper slips of move(s) %(moves)s are still being typed: once the game is over, the desks cannot "
                 "type them; every change is then the arbiter's decision with a reason (FISE-17).",
                 moves=", ".join(map(str, typing)))]


def end_game(s: Session, f: dict[str, str]) -> list[Text]:
    g = s.game
    if g.phase == "over":
        return []
    closed = sum(1 for m in g.moves if m.master)
    said = [Text("The game ends now, after move %(n)s: no further rack is drawn and the results become final.",
                 n=closed)]
    if g.phase == "play":
        written = sum(1 for m, _p in g.slips if m == g.move)
        said.append(Plural("Move %(move)s is open: it is not scored; its %(n)s slip stays in the journal.",
                           "Move %(move)s is open: it is not scored; its %(n)s slips stay in the journal.",
                           move=g.move, n=written))
    typing = list(range(g.collected + 1, closed + 1))
    if typing:
        said.append(Text("The paper slips of move(s) %(moves)s are still being typed: once the game is over, the "
                         "desks cannot type them; every change is then the arbiter's decision with a reason "
                         "(FISE-17).", moves=", ".join(map(str, typing))))
    return said


def close_move(s: Session, f: dict[str, str], now: float | None = None) -> list[Text]:
    """Asked when the clock of the move still runs or never started (FISE-5, GR-5C), or when slips are missing;
    its words about late slips are what the game then does (:class:`~.order.SlipOrder`)."""
    g = s.game
    if g.phase != "play":
        return []
    said: list[Text] = []
    absent = missing(g)
    if absent:
        names = ", ".join(p.label() for p in absent[:NAMED_MISSING])
        more = len(absent) - NAMED_MISSING
        said.append(
            Plural("%(n)s player has no slip for move %(move)s: %(names)s and %(more)s more.",
                   "%(n)s players have no slip for move %(move)s: %(names)s and %(more)s more.", n=len(absent),
                   move=g.move, names=names, more=more) if more > 0 else
            Plural("%(n)s player has no slip for move %(move)s: %(names)s.",
                   "%(n)s players have no slip for move %(move)s: %(names)s.", n=len(absent), move=g.move,
                   names=names))
    clock = g.clock_for(g.move)
    at = time.time() if now is None else now
    if clock.state == "idle":
        said.append(Text("The clock of move %(move)s never started: the players may still be looking for their "
                         "move.", move=g.move))
    elif clock.running(at) or clock.state == "paused":
        said.append(Text("The clock of move %(move)s still runs: %(left)s left; players may still change their "
                         "slips.", move=g.move, left=minutes(clock.remaining(at))))
    if not said:
        return []
    said.append(Text("Closed now, a phone's slip for move %(move)s is late and scores 0; the desks may still type "
                     "the paper slips collected at time until you close the collection of move %(move)s.",
                     move=g.move))
    return said


def shown_move(f: dict[str, str]) -> int | None:
    """The move a desk's form showed when it was drawn (its hidden ``shown``); None: it showed none, or the form
    does not say (a stale page, a form sent without it)."""
    return ascii_number(f.get("shown", "")) or None


def desk_move(g: Game, f: dict[str, str]) -> int | None:
    """The move a desk's slip goes to: the one typed; else the one its form showed (a slip lands in the move the
    clerk saw, never in the next one: a move whose collection closed since refuses it); else the one being
    collected. None: no move, or one typed that is no number (the action refuses it beside the move field)."""
    if f.get("move"):
        return ascii_number(f["move"])
    return shown_move(f) or g.collecting


def unshown_closed_move(g: Game, f: dict[str, str], move: int) -> bool:
    """Whether a desk's slip goes to a closed move (its master move placed) other than the one its form showed,
    by a form that does not say which move it showed: asked of nobody (the question would name no move), refused
    as a stale page or an incomplete form."""
    return shown_move(f) is None and 1 <= move <= len(g.moves) and g.moves[move - 1].master is not None


def desk_slip(s: Session, f: dict[str, str]) -> list[Text]:
    """A desk's slip for a closed move other than the one its form showed says which move it goes to (FISE-8);
    a slip replacing a stored one says so (:func:`replace_slip`)."""
    g = s.game
    move = desk_move(g, f)
    shown = shown_move(f)
    if move is None or g.slip_order(move).why_not(SlipAction.TYPE) is not None:
        return []  # the action refuses it beside the move field
    said: list[Text] = []
    if shown is not None and move != shown:  # none shown: refused beside the form (unshown_closed_move)
        state = g.moves[move - 1]
        if state.master is not None:
            said.append(Text("This slip goes to move %(move)s, which is closed: its master move %(master)s is "
                             "placed; the desk form showed move %(shown)s.", move=move,
                             master=state.master.placement.coord.format(g.rules.notation), shown=shown))
    return said + replace_slip(s, f)


def _points(s: Session, slip: Slip | None) -> int:
    if slip is None or s.lexicon is None:
        return 0
    return s.game.verdict(slip, s.lexicon).score


def decide(s: Session, f: dict[str, str]) -> list[Text]:
    """A decision on a closed move says its effect on the player's points before it is taken (FISE-17, GR-5D)."""
    g = s.game
    try:
        act = f.get("action") or "slip"
        if act == "reverse":
            target = g.decision(ascii_number(f.get("reverses", "")) or 0)
            if target is None or not target.standing:
                return []
            move, player = target.slot
            old, new = g.slips.get(target.slot), target.before
        else:
            move = ascii_number(f.get("move", "")) or 0
            if not 1 <= move <= g.move:
                return []
            player = s.seat(f.get("player", "")).number
            old = g.slips.get((move, player))
            if act == "slip" and not (f.get("position") or f.get("word")):
                return []
            new = (Slip(move, player, f.get("position", ""), f.get("word", ""), ascii_number(f.get("score", "")))
                   if act == "slip" else None)
            if new == old or (act == "void" and old is None) or f.get("rule", "FISE-17") not in decisions.RULES:
                return []  # the action refuses it beside its field
        if not f.get("reason", "").strip() or g.slip_order(move).window not in (Window.DECIDED, Window.TYPING):
            return []
        said = [Text("Move %(move)s, player %(player)s: %(old)s (%(before)s points) becomes %(new)s (%(after)s "
                     "points).", move=move, player=player, old=decisions.written(old), before=_points(s, old),
                     new=decisions.written(new), after=_points(s, new))]
    except ArbitruError:
        return []  # the action refuses it beside its field
    said.append(Text("Reason: %(reason)s (%(rule)s). The decision is kept in the journal and listed on the results; "
                     "a later decision can reverse it.", reason=" ".join(f.get("reason", "").split()),
                     rule=f.get("rule") or "FISE-17"))
    return said


def replace_slip(s: Session, f: dict[str, str]) -> list[Text]:
    g = s.game
    try:
        player = s.seat(f.get("player", "")).number
    except ArbitruError:
        return []  # the action refuses it beside its field
    move = desk_move(g, f) or g.move
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


def seat_change(s: Session, f: dict[str, str]) -> list[Text]:
    """A seat that changes mid-game (:mod:`arbitru.formats.duplicate.seats`): what it does to the player's moves,
    his phone and the results; nothing when the change is refused (the action says why, beside the card)."""
    what, typed = f.get("change", ""), f.get("from", "")
    move = ascii_number(typed) if typed else None
    if typed and move is None:
        return []
    try:
        p = seats.change(s, what, f.get("player", ""), name=f.get("name", ""), table=f.get("table", ""),
                         move=move, reason=f.get("reason", ""), dry=True)
    except ArbitruError:
        return []
    phone = Text("His phone says so and refuses his slips; the results mark him. Reinstating him undoes it.")
    if what == "enter":
        assert p.entered_at is not None
        said = [Text("Player %(who)s takes a seat and plays from move %(move)s.", who=p.label(), move=p.entered_at)]
        if p.entered_at > 1:
            said.append(Text("Moves 1 to %(last)s score 0 for him; nobody else's score or bonus changes.",
                             last=p.entered_at - 1))
        return [*said, Text("His phone's code is on the players' codes sheet.")]
    if what == "rename":
        return [Text("Player %(number)s, %(old)s, is called %(new)s from now on: his number, slips and results "
                     "stay his; the old name stays in the journal.", number=p.number, old=p.name or "—",
                     new=f.get("name", "").strip())]
    if what == "withdraw":
        after = seats.last_played(s, move)
        return [Text("Player %(who)s withdraws after move %(after)s: every later move scores 0 for him (GR-7); his "
                     "slips up to move %(after)s count.", who=p.label(), after=after), phone]
    if what == "disqualify":
        after = seats.last_played(s, move)
        return [Text("Player %(who)s is disqualified after move %(after)s (FISE-18: he left his seat without "
                     "telling the referee): every later move scores 0 for him.", who=p.label(), after=after),
                Text("Reason: %(reason)s", reason=f.get("reason", "").strip() or "FISE-18"), phone]
    left = p.disqualified_after if p.disqualified_after is not None else p.withdrawn_after
    return [Text("Player %(who)s is back in the game: the moves after move %(after)s count for him again.",
                 who=p.label(), after=left),
            Text("Slips his phone could not hand in meanwhile were never stored: a desk types his paper slips.")]


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


def late_entry(game: Any, f: dict[str, str], j: Journal) -> list[Text]:
    """RO-5.1: where the latecomer sits and what his missed turns score."""
    player = f.get("player", "").strip()
    if not player or player in {s.number for s in game.seats()}:
        return []  # the action refuses it beside its field
    return [
        Text("%(player)s sits at table %(table)s, after the last (RO-5.1: late entries at the last tables).",
             player=f.get("name", "").strip() or player, table=game.last_table() + 1),
        Text("The turns played before he came have no slip of his: they score 0."),
    ]


def anticipation_desk_slip(game: Any, f: dict[str, str], j: Journal) -> list[Text]:
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
