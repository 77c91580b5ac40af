"""The desk's hints on a slip as typed (RO-6.2): what looks wrong in what was written, said to the desk clerk and
the arbiter, never a refusal (the slip is stored as written and the correction judges it). The web desk and the
CLI's ``slips`` show the same hints."""

from __future__ import annotations

from arbitru.formats.anticipation.positions import read_position
from arbitru.formats.anticipation.slips import Slip, parse_notes
from arbitru.messages import Plural, Text
from arbitru.textinput import ascii_number

#: the notes a player may write on a slip, as he writes them in Romanian whatever the page's language (RO-6.2)
NOTES = "Anulez turul X, Verificare, PAS"


def slip_hints(slip: Slip, turn: int | None) -> list[Text]:
    """Format problems of what was written: hints for the desk, never a refusal (the correction judges)."""
    hints: list[Text] = []
    places = slip.placements()
    want = 2 if turn == 1 else 1
    notes = [n.kind for r in slip.rows for n in parse_notes(r.note)]
    if "pass" not in notes and not any(n.kind == "pass" for n in slip.notes()) and len(places) != want:
        expected = Plural("turn %(turn)s has %(n)s placement", "turn %(turn)s has %(n)s placements", n=want, turn=turn)
        hints.append(Text("%(expected)s; this slip has %(n)s", expected=expected, n=len(places)))
    for i, r in enumerate(places, 1):
        where = read_position(r.position)
        if where.coord is None:
            hints.append(Text("placement %(i)s: %(problem)s", i=i, problem=where.problem
                                  or Text("position %(p)s cannot be read", p=repr(r.position))))
        if r.score.strip() and ascii_number(r.score) is None:
            hints.append(Text("placement %(i)s: score %(s)s is not a number", i=i, s=repr(r.score)))
        if not r.score.strip():
            hints.append(Text("placement %(i)s: no score written", i=i))
    total = slip.first("turn_total").strip()
    scores = [n for n in (ascii_number(r.score) for r in places) if n is not None]
    total_value = ascii_number(total)
    if total_value is not None and len(scores) == len(places) and scores and total_value != sum(scores):
        hints.append(Text("turn total %(total)s is not the sum of the scores (%(sum)s)", total=total, sum=sum(scores)))
    if not slip.first("table").strip():
        hints.append(Text("no table number written (RO-6.2)"))
    if turn is None:
        hints.append(Text("collected in an unknown turn: the slip stays unattributed (RO-6.2b)"))
    elif slip.written_turn.strip() != str(turn):
        hints.append(Text("turn written %(written)s, collected in turn %(turn)s",
                              written=repr(slip.written_turn.strip() or "—"), turn=turn))
    for n in slip.notes():
        if n.kind == "other":
            hints.append(Text("note %(note)s is not one of %(notes)s", note=repr(n.raw), notes=NOTES))
    return hints
