"""The FISE ratings (FISE-21–22), recomputed from the journal: every tournament's games in date order.

(a) *Expected performance* (FISE-21, the ELOd). The rulebook says only that a player's expected place in the
general table is computed from the field's ratings (FISE keeps it in a spreadsheet). arbitru's method: each
game is a round robin of every pair in it, scored as Elo does, so

    E_i = 1 + Σ_{j ≠ i} 1 / (1 + 10^((R_i − R_j) / D))

is the expected place (1 plus the expected number of players finishing above him), and after the game

    R_i' = R_i + K · (E_i − P_i) / (N − 1)

with ``P_i`` his place, tied players taking the mean of the places they share (places 2 and 3 tied: 2.5 each),
``N`` the players placed. Σ E_i = N + N(N−1)/2 = N(N+1)/2 = Σ P_i, so the field's expected places add up to
its places and the changes add up to 0. A player far above the field has every term near 0: E near 1.
Constants: D = 400, K = 40 (:data:`D`, :data:`K`); a player without a rating starts at
:data:`START` or at his rating in the registry (a federation's list). Eliminated players
are not placed and their rating does not move.

(b) *Mean of percentages* (FISE-22): a player's percentage per game (his points over the master total, GR-7),
the best and the worst dropped; with fewer than three games nothing is dropped
(:func:`arbitru.formats.duplicate.results.rating_percentage`). Games without a master total (anticipation)
are not counted.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from arbitru.figures import percent
from arbitru.formats.duplicate.results import rating_percentage
from arbitru.formats.spreadsheet import writer
from arbitru.journal.store import Journal
from arbitru.season.outcome import Lexicons, Outcome
from arbitru.season.registry import Registry, load
from arbitru.season.tournament import Tournament, outcomes, replay, tournaments

D = 400.0
K = 40.0
START = 1500.0
SYSTEM = "elod"
#: FISE-22 figures from fewer games are marked (nothing is dropped from one or two games)
SURE_GAMES = 3


def expected_places(ratings: Sequence[float]) -> list[float]:
    """FISE-21 (a): each player's expected place from the field's ratings.

    >>> [round(e, 3) for e in expected_places([1500, 1500, 1500])]
    [2.0, 2.0, 2.0]
    """
    q = [10 ** (r / D) for r in ratings]
    return [1 + sum(qj / (qi + qj) for j, qj in enumerate(q) if j != i) for i, qi in enumerate(q)]


def shared_places(places: Sequence[int]) -> list[float]:
    """Places with ties spread over the places they take: 1, 2, 2, 4 -> 1, 2.5, 2.5, 4."""
    counts: dict[int, int] = {}
    for p in places:
        counts[p] = counts.get(p, 0) + 1
    return [p + (counts[p] - 1) / 2 for p in places]


@dataclass
class GameRecord:
    """One game in a player's history."""

    tournament: str
    tournament_name: str
    date: str
    number: int
    place: int | None
    field_size: int
    percentage: Fraction | None
    expected: float | None
    rating_before: float | None
    rating_after: float | None
    #: the rating system the game was rated in (its tournament's)
    system: str = SYSTEM

    def to_dict(self) -> dict[str, Any]:
        return {
            "tournament": self.tournament, "tournament_name": self.tournament_name, "date": self.date,
            "game": self.number, "place": self.place, "field": self.field_size,
            "percentage": None if self.percentage is None else round(float(self.percentage * 100), 2),
            "expected_place": None if self.expected is None else round(self.expected, 3),
            "rating_before": _round(self.rating_before), "rating_after": _round(self.rating_after),
            "system": self.system,
        }


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


@dataclass
class PlayerRating:
    player: str
    name: str
    club: str
    elod: float | None
    elod_games: int
    percentage: Fraction | None
    percentage_games: int
    history: list[GameRecord] = field(default_factory=list)
    licence: str = ""
    #: the rating system of ``elod``
    system: str = SYSTEM

    @property
    def percentage_kept(self) -> int:
        """FISE-22: the games the mean is taken over (the best and the worst dropped from three games on)."""
        return self.percentage_games - 2 if self.percentage_games >= 3 else self.percentage_games

    @property
    def provisional(self) -> bool:
        """A FISE-22 figure from fewer than :data:`SURE_GAMES` games (one or two: nothing dropped)."""
        return 0 < self.percentage_games < SURE_GAMES

    def to_dict(self, history: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {
            "player": self.player, "name": self.name, "club": self.club, "licence": self.licence,
            "system": self.system, "elod": _round(self.elod), "elod_games": self.elod_games,
            "percentage": None if self.percentage is None else round(float(self.percentage * 100), 2),
            "percentage_games": self.percentage_games, "percentage_kept": self.percentage_kept,
            "provisional": self.provisional,
        }
        if history:
            d["history"] = [g.to_dict() for g in self.history]
        return d


def season_games(journal: Journal, as_of: str | None = None, lexicons: Lexicons | None = None
                 ) -> list[tuple[Tournament, Outcome]]:
    """Every game of every tournament ending on or before ``as_of``, in date order (then creation order)."""
    ts = [replay(journal, tid) for tid in tournaments(journal)]
    ts = [t for t in ts if as_of is None or t.event.date <= as_of]
    ts.sort(key=lambda t: t.event.date)  # stable: tournaments of one day stay in creation order
    return [(t, o) for t in ts for o in outcomes(journal, t, lexicons)]


def rating_list(journal: Journal, as_of: str | None = None, lexicons: Lexicons | None = None,
                registry: Registry | None = None, system: str = SYSTEM) -> list[PlayerRating]:
    """Both ratings of every player who played a game (by ``system``'s rating, highest first), as of ``as_of``.

    FISE-21 "ELOd actual": a game is rated from the ratings in force on its date, in the rating system its
    tournament names: the latest rating list dated on or before it (:class:`RatingList`), then the games since;
    before any list, the record's own rating (registered, corrected), else :data:`START`. A list dated after
    ``as_of`` changes nothing in the list as of that date, whatever is imported afterwards."""
    registry = registry or load(journal)
    games = season_games(journal, as_of, lexicons)
    lists = registry.lists_until(as_of)
    ratings: dict[tuple[str, str], float] = {}
    counts: dict[str, int] = {}
    history: dict[str, list[GameRecord]] = {}
    percentages: dict[str, list[Fraction]] = {}
    applied = 0

    def lists_in_force(date: str | None) -> None:
        nonlocal applied
        while applied < len(lists) and (date is None or lists[applied].date <= date):
            listed = lists[applied]
            for p, value in listed.ratings.items():
                ratings[(listed.system, registry.resolve(p))] = value
            applied += 1

    for t, o in games:
        lists_in_force(t.event.date)
        rated_in = t.event.rating_system or SYSTEM
        placed = [(p, line.place) for p, line in o.lines.items() if line.place is not None]
        for p, _ in placed:
            if (rated_in, p) not in ratings:
                rec = registry.records.get(p)
                ratings[(rated_in, p)] = rec.own_ratings.get(rated_in, START) if rec else START
        field_ratings = [ratings[(rated_in, p)] for p, _ in placed]
        expected = expected_places(field_ratings) if len(placed) > 1 else [1.0] * len(placed)
        actual = shared_places([pl for _, pl in placed])
        n = len(placed)
        before = {p: ratings[(rated_in, p)] for p, _ in placed}
        if n > 1:
            for (p, _), e, a in zip(placed, expected, actual, strict=True):
                ratings[(rated_in, p)] += K * (e - a) / (n - 1)
                if rated_in == system:
                    counts[p] = counts.get(p, 0) + 1
        exp = {p: e for (p, _), e in zip(placed, expected, strict=True)}
        for p, line in o.lines.items():
            if line.percentage is not None:
                percentages.setdefault(p, []).append(line.percentage)
            history.setdefault(p, []).append(GameRecord(
                t.id, t.event.name, t.event.date, o.number, line.place, n, line.percentage, exp.get(p),
                before.get(p), ratings.get((rated_in, p)) if p in before else None, rated_in))
    lists_in_force(None)  # the lists dated after the last game (and on or before as_of)
    out = []
    for p, h in history.items():
        rec = registry.records.get(p)
        ps = percentages.get(p, [])
        out.append(PlayerRating(p, rec.name if rec else p, rec.club if rec else "", ratings.get((system, p)),
                                counts.get(p, 0), rating_percentage(ps) if ps else None, len(ps), h,
                                licence=rec.licence if rec else "", system=system))
    out.sort(key=lambda r: (-(r.elod if r.elod is not None else -1e9), r.name, r.player))
    return out


def rating_list_csv(rows: Sequence[PlayerRating]) -> str:
    """The rating list as CSV: per player the registry id, both values and the games each counts."""
    out = io.StringIO()
    w = writer(out)
    w.writerow(["registry id", "licence", "name", "club", "elod", "elod games", "percentage", "percentage games",
                "games kept"])
    for r in rows:
        d = r.to_dict()
        pct = "" if r.percentage is None else percent(r.percentage) + ("*" if r.provisional else "")
        w.writerow([d["player"], d["licence"], d["name"], d["club"], d["elod"], d["elod_games"], pct,
                    d["percentage_games"], d["percentage_kept"]])
    return out.getvalue()
