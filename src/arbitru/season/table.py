"""A tournament's general table (FISE-15 for several games; RO-6.6 for anticipation), per category, per club.

FISE-15 offers the tournament director two methods, each the other's tie-break:

- *mean place*: the mean of a player's places over the games, a game he did not play counted as the last place
  (the number of players in the table);
- *mean percentage*: ``(p1/M1 + … + pn/Mn) / n`` with ``px`` his points in move ``x``, ``Mx`` the best score of
  any player in that move and ``n`` the moves of every game of the tournament (a move he did not play counts
  0; a move where nobody scored is left out, as ``0/0`` says nothing);

and ``total`` (the sum of the games' totals, RO-6.6: ties are not broken, tied players share the higher place).
Players are matched across games by registry id: the name shown is the registry's current one.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from arbitru import figures
from arbitru.formats.spreadsheet import writer
from arbitru.season.outcome import Outcome
from arbitru.season.registry import Registry
from arbitru.season.tournament import METHODS, Tournament

#: what each method ranks by, in order, as written on the table
TIE_ORDER = {
    "mean-place": ("mean place (a game not played: last place)", "mean percentage", "shared place"),
    "mean-percentage": ("mean percentage", "mean place (a game not played: last place)", "shared place"),
    "total": ("total points", "shared place (RO-6.6: ties are not broken)"),
}


@dataclass
class Row:
    player: str
    name: str
    club: str
    categories: tuple[str, ...]
    places: list[int | None]
    totals: list[int | None]
    mean_place: Fraction
    mean_percentage: Fraction
    total: int
    games: int
    withdrawn_after: int | None = None
    eliminated: list[int] = field(default_factory=list)
    place: int = 0
    licence: str = ""
    #: the numbers of the games he was absent from (counted as games not played)
    absent: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "place": self.place, "player": self.player, "name": self.name, "club": self.club,
            "categories": list(self.categories), "places": self.places, "totals": self.totals,
            "mean_place": float(self.mean_place), "mean_percentage": float(self.mean_percentage * 100),
            "total": self.total, "games": self.games, "withdrawn_after": self.withdrawn_after,
            "eliminated_in": self.eliminated, "licence": self.licence, "absent_from": self.absent,
        }


def _key(method: str, r: Row) -> tuple[object, ...]:
    out = bool(r.eliminated)
    if method == "mean-place":
        return (out, r.mean_place, -r.mean_percentage)
    if method == "mean-percentage":
        return (out, -r.mean_percentage, r.mean_place)
    return (out, -r.total)


def general_table(
    t: Tournament, registry: Registry, results: Sequence[Outcome], method: str | None = None,
    *, category: str | None = None, club: str | None = None,
) -> list[Row]:
    """The general table, optionally of one category or one club (places counted within it)."""
    method = method or t.event.table_method
    if method not in METHODS:
        raise ValueError(f"unknown table method {method!r}; known: {', '.join(METHODS)}")
    ids = list(dict.fromkeys([registry.resolve(e.player) for e in t.enrolments]
                             + [p for o in results for p in o.lines]))
    last = len(ids)
    moves = sum(1 for o in results for best in o.best_by_move if best > 0)
    rows = []
    for pid in ids:
        record = registry.records.get(pid)
        places: list[int | None] = []
        totals: list[int | None] = []
        ratio = Fraction(0)
        eliminated = []
        for o in results:
            line = o.lines.get(pid)
            places.append(line.place if line else None)
            # an eliminated player's points do not count (RO-6.4, RO-7.1); he is ranked after everyone
            totals.append(line.total if line and line.place is not None else None)
            if line and line.place is None:
                eliminated.append(o.number)
            if line:
                for score, best in zip(line.moves, o.best_by_move, strict=False):
                    if best > 0:
                        ratio += Fraction(score, best)
        counted = [p if p is not None else last for p in places]
        enrolment = next((e for e in t.enrolments if registry.resolve(e.player) == pid), None)
        rows.append(Row(
            pid, record.name if record else pid, record.club if record else "",
            record.categories if record else (), places, totals,
            Fraction(sum(counted), len(results) or 1), ratio / moves if moves else Fraction(0),
            sum(x for x in totals if x is not None), sum(1 for o in results if pid in o.lines),
            enrolment.withdrawn_after if enrolment else None, eliminated,
            licence=record.licence if record else "", absent=[o.number for o in results if pid in o.absent],
        ))
    if category is not None:
        rows = [r for r in rows if category in r.categories]
    if club is not None:
        rows = [r for r in rows if r.club == club]
    rows.sort(key=lambda r: (_key(method, r), r.name, r.player))
    for i, r in enumerate(rows):
        r.place = rows[i - 1].place if i and _key(method, rows[i - 1]) == _key(method, r) else i + 1
    return rows


def view_line(method: str, category: str | None = None, club: str | None = None) -> list[str]:
    """What a table shows, as its downloads carry it: the order it is ranked by, its category and club."""
    return [f"ranked by: {', then '.join(TIE_ORDER[method])}",
            *([f"category: {category}"] if category else []), *([f"club: {club}"] if club else [])]


def table_csv(rows: Sequence[Row], results: Sequence[Outcome], method: str, *, category: str | None = None,
              club: str | None = None) -> str:
    """The table as on the page: a first line saying its view (the order it is ranked by, the category, the
    club), then the header and a row per player, the figures rounded as on the page; a game's cell is the
    place, ``absent`` or empty (not played)."""
    out = io.StringIO()
    w = writer(out)
    w.writerow(view_line(method, category, club))
    w.writerow(["place", "registry id", "licence", "name", "club", "categories",
                *(f"game {o.number}" for o in results), "mean place", "mean percentage", "total"])
    for r in rows:
        w.writerow([r.place, r.player, r.licence, r.name, r.club, ";".join(r.categories),
                    *(_cell(r, o.number, p) for o, p in zip(results, r.places, strict=True)),
                    figures.plain(r.mean_place), figures.percent(r.mean_percentage), r.total])
    return out.getvalue()


def _cell(r: Row, number: int, place: int | None) -> str:
    if place is not None:
        return str(place)
    return "absent" if number in r.absent else ""


def table_text(rows: Sequence[Row], method: str, results: Sequence[Outcome] = ()) -> str:
    lines = [f"ranked by: {', then '.join(TIE_ORDER[method])}"]
    if results:
        lines.append(f"games: {' '.join(str(o.number) for o in results)}")
    for r in rows:
        places = " ".join("-" if p is None else str(p) for p in r.places)
        gone = f"  (withdrew after game {r.withdrawn_after})" if r.withdrawn_after is not None else ""
        lines.append(f"{r.place:>4}  {r.player:<6} {r.name:<30} {r.club:<16} [{places}]  "
                     f"{figures.plain(r.mean_place):>6}  {figures.percent(r.mean_percentage):>6}%  {r.total:>6}{gone}")
    return "\n".join(lines) + "\n"
