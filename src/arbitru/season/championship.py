"""A championship: several tournaments (stages), ranking points per place, the best N of M stages.

Stored as one journal entry of format ``championship``; its settings: ``name``, ``points`` (the points of the
1st, 2nd, … place; places beyond the table get 0), ``best`` (how many stages count, 0: all). Events:

- ``stage``: ``tournament``: a tournament's general table is one stage;
- ``eliminated``: ``player``, ``stage``, ``reason``: no ranking points from that stage (RO-6.4, RO-7.1).

Tied players each get the points of the higher place (RO-6.6): with places 1, 2, 2, 4 both second players get
the 2nd place's points. A player absent from a stage gets 0 from it; a player eliminated from a game of the
stage (two disciplinary warnings, cheating) gets 0 from the stage.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arbitru.errors import ArbitruError, JournalError
from arbitru.formats import payload
from arbitru.journal.store import Journal
from arbitru.messages import Text
from arbitru.season import tournament
from arbitru.season.outcome import competition_places
from arbitru.season.registry import Registry, load
from arbitru.season.table import Row
from arbitru.season.tournament import FORMAT as TOURNAMENT
from arbitru.textinput import check_text

FORMAT = "championship"
#: arbitru's default points table (not from a rulebook; the organiser sets his own): 25, 20, 16, 13, 11, 10, …, 1
DEFAULT_POINTS = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)


class ChampionshipError(ArbitruError):
    pass


@dataclass
class Championship:
    id: str
    name: str
    points: tuple[int, ...]
    best: int
    stages: list[str] = field(default_factory=list)
    eliminated: dict[tuple[str, int], str] = field(default_factory=dict)


@dataclass
class Standing:
    player: str
    name: str
    club: str
    stage_points: list[int | None]
    counted: list[int]
    total: int
    place: int = 0
    licence: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"place": self.place, "player": self.player, "name": self.name, "club": self.club,
                "licence": self.licence,
                "stage_points": self.stage_points, "counted": self.counted, "total": self.total}


def create(journal: Journal, name: str, points: Sequence[int] = DEFAULT_POINTS, best: int = 0,
           championship_id: str | None = None) -> str:
    if not name.strip():
        raise ChampionshipError(Text("a championship needs a name"))
    if not points or any(p < 0 for p in points) or list(points) != sorted(points, reverse=True):
        raise ChampionshipError(Text("a points table is non-negative points, from the 1st place down, never rising"))
    if best < 0:
        raise ChampionshipError(Text("best N: N is 0 (every stage) or more"))
    import uuid

    check_text(name, "name", "title")
    return journal.create_game(FORMAT, {"name": name, "points": list(points), "best": best},
                               championship_id or "c-" + uuid.uuid4().hex[:10])


def replay(journal: Journal, championship_id: str) -> Championship:
    info = journal.game(championship_id)
    if info.format != FORMAT:
        raise ChampionshipError(f"{championship_id!r} is a {info.format}, not a championship")
    s = info.settings
    c = Championship(championship_id, payload.text(s, "name"),
                     tuple(payload.integer({"p": p}, "p", low=0) for p in payload.items(s, "points")),
                     payload.integer(s, "best", 0, low=0))
    for e in journal.iter_events(championship_id):
        with payload.folding(championship_id, e.seq, e.kind):
            p = payload.mapping(e.payload)
            if e.kind == "stage":
                c.stages.append(payload.text(p, "tournament"))
            elif e.kind == "eliminated":
                key = (payload.text(p, "player"), payload.integer(p, "stage", low=1))
                c.eliminated[key] = payload.text(p, "reason", "")
            else:
                raise JournalError(f"unknown kind {e.kind!r} in a championship")
    return c


def add_stage(journal: Journal, championship_id: str, tournament_id: str) -> int:
    with journal.transaction(championship_id):
        c = replay(journal, championship_id)
        if journal.game(tournament_id).format != TOURNAMENT:
            raise ChampionshipError(Text("%(id)s is not a tournament", id=repr(tournament_id)))
        if tournament_id in c.stages:
            raise ChampionshipError(Text("%(id)s is a stage already", id=tournament_id))
        journal.append(championship_id, "stage", {"tournament": tournament_id})
        return len(c.stages) + 1


def eliminable(journal: Journal, championship_id: str, player: str, stage: int) -> str:
    """The registry id of ``player`` when he may be eliminated from ``stage``: the stage exists, he is enrolled in
    its tournament, and not eliminated from it already (an elimination stands once; it cannot be undone)."""
    c = replay(journal, championship_id)
    if not 1 <= stage <= len(c.stages):
        raise ChampionshipError(Text("no stage %(n)s (stages: %(stages)s)", n=stage, stages=len(c.stages)))
    pid = load(journal).get(player).id
    stage_tournament = tournament.replay(journal, c.stages[stage - 1])
    if pid not in {e.player for e in stage_tournament.enrolments}:
        raise ChampionshipError(Text("%(player)s does not play stage %(n)s (%(name)s)", player=pid, n=stage,
                                      name=stage_tournament.event.name))
    if (pid, stage) in c.eliminated:
        raise ChampionshipError(Text("%(player)s is eliminated from stage %(n)s already", player=pid, n=stage))
    return pid


def eliminate(journal: Journal, championship_id: str, player: str, stage: int, reason: str) -> None:
    with journal.transaction(championship_id):
        pid = eliminable(journal, championship_id, player, stage)
        data = {"player": pid, "stage": stage, "reason": check_text(reason, "reason")}
        journal.append(championship_id, "eliminated", data)


def points_for(place: int, table: Sequence[int]) -> int:
    """The points of a place (RO-6.6: a shared place is the higher one, so tied players get its points)."""
    return table[place - 1] if 1 <= place <= len(table) else 0


def standings(c: Championship, registry: Registry, tables: Mapping[str, Sequence[Row]]) -> list[Standing]:
    """``tables``: each stage's general table (tournament id -> rows)."""
    players: list[str] = []
    per_stage: list[dict[str, int]] = []
    for n, tid in enumerate(c.stages, 1):
        got = {}
        for row in tables[tid]:
            pid = registry.resolve(row.player)
            if pid not in players:
                players.append(pid)
            if row.games == 0:
                continue  # enrolled, never played: absent
            out = row.eliminated or (pid, n) in c.eliminated
            got[pid] = 0 if out else points_for(row.place, c.points)
        per_stage.append(got)
    rows = []
    for pid in players:
        stage_points = [s.get(pid) for s in per_stage]
        scored = sorted((p for p in stage_points if p is not None), reverse=True)
        counted = scored[: c.best] if c.best else scored
        record = registry.records.get(pid)
        rows.append(Standing(pid, record.name if record else pid, record.club if record else "",
                             stage_points, counted, sum(counted), licence=record.licence if record else ""))
    places = competition_places({r.player: (-r.total,) for r in rows})
    for r in rows:
        r.place = places[r.player]
    rows.sort(key=lambda r: (r.place, r.name, r.player))
    return rows


def compute(journal: Journal, championship_id: str, table_of: Callable[[str], Sequence[Row]]) -> list[Standing]:
    c = replay(journal, championship_id)
    return standings(c, load(journal), {tid: table_of(tid) for tid in c.stages})
