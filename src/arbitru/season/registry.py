"""The player registry: one record per person across games, tournaments and years.

Stored in the journal as the events of one entry of format ``registry`` (id ``registry``), never overwritten:

- ``registered``: ``players``: records (``id``, ``licence``, ``federation``, ``name``, ``club``, ``birth_year``,
  ``categories``, ``ratings``) registered together (one CSV file is one event: all or nothing);
- ``corrected``: ``player``, ``fields`` (the new values), ``reason``;
- ``merged``: ``player`` (the duplicate record), ``into`` (the record kept), ``reason``, ``kept`` (game id ->
  the registry id whose line stands, where both records have a result in one game: the secretary's decision):
  every result of the duplicate counts for the record kept;
- ``unmerged``: ``player``, ``reason``: a merge undone, the two records apart again as before it;
- ``rated``: ``system``, ``date``, ``source``, ``ratings`` (registry id -> rating): a federation's rating list,
  in force from its date (:class:`RatingList`): a list changes no rating before its date.

The licence id is unique within a federation; a player without one is known by arbitru's own id (``A12``),
which is also every record's key. Standings match players by this id, never by spelling.

>>> from arbitru.journal.store import Journal
>>> j = Journal(":memory:", actor="arbiter")
>>> ana = register(j, [Entry(name="Ana Pop", federation="ROU", licence="RO-1", club="Arad")])[0]
>>> correct(j, ana, {"name": "Ana Popa"}, "typo")
>>> load(j).get(ana).name, [c.fields for c in load(j).get(ana).history]
('Ana Popa', [{'name': 'Ana Popa'}])
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arbitru.errors import ArbitruError, JournalError
from arbitru.formats import payload
from arbitru.journal.store import Event, Journal
from arbitru.messages import Text
from arbitru.textinput import MAX_ITEMS, check_digits, check_text

FORMAT = "registry"
REGISTRY_ID = "registry"
#: the fields a correction may change
FIELDS = ("licence", "federation", "name", "club", "birth_year", "categories", "ratings")
#: the lowest and highest rating accepted (FISE-21 ratings, federation lists)
MIN_RATING, MAX_RATING = -10_000.0, 100_000.0
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class RegistryError(ArbitruError):
    """A registration, correction or merge refused: nothing is stored."""


@dataclass(frozen=True)
class Entry:
    """A record as typed or read from a file, before it has a registry id."""

    name: str
    licence: str = ""
    federation: str = ""
    club: str = ""
    birth_year: int | None = None
    categories: tuple[str, ...] = ()
    ratings: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Change:
    """One correction or merge of a record, as the journal holds it."""

    seq: int
    recorded: str
    actor: str
    kind: str
    fields: dict[str, Any]
    reason: str


@dataclass(frozen=True)
class RatingList:
    """A federation's rating list: the ratings in force from ``date`` on (FISE-21 "ELOd actual")."""

    seq: int
    system: str
    date: str
    source: str
    ratings: Mapping[str, float]


@dataclass
class Record:
    id: str
    name: str
    licence: str = ""
    federation: str = ""
    club: str = ""
    birth_year: int | None = None
    categories: tuple[str, ...] = ()
    #: the ratings in force now: the record's own (registered, corrected), a later-dated list's over them
    ratings: dict[str, float] = field(default_factory=dict)
    merged_into: str | None = None
    history: list[Change] = field(default_factory=list)
    #: the ratings the record was registered (or corrected) with: in force before any list
    own_ratings: dict[str, float] = field(default_factory=dict)
    #: the date of the list each rating in ``ratings`` comes from (system -> date)
    rated_on: dict[str, str] = field(default_factory=dict)
    #: while merged: game id -> the registry id whose line stands where both records have one
    kept: dict[str, str] = field(default_factory=dict)

    @property
    def licence_id(self) -> str:
        """The federation's licence id, or arbitru's own id when there is none."""
        return self.licence or self.id

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "licence": self.licence,
            "federation": self.federation,
            "name": self.name,
            "club": self.club,
            "birth_year": self.birth_year,
            "categories": list(self.categories),
            "ratings": dict(self.ratings),
            "merged_into": self.merged_into,
        }


@dataclass
class Registry:
    records: dict[str, Record] = field(default_factory=dict)
    last_seq: int = 0
    #: the rating lists, in journal order (each in force from its own date)
    lists: list[RatingList] = field(default_factory=list)

    def resolve(self, player: str) -> str:
        """The id of the record that stands for ``player`` (a merged record points at the one kept)."""
        seen = set()
        while player in self.records and self.records[player].merged_into and player not in seen:
            seen.add(player)
            player = self.records[player].merged_into or player
        return player

    def get(self, player: str) -> Record:
        record = self.records.get(self.resolve(player))
        if record is None:
            raise RegistryError(Text("no player %(player)s in the registry", player=repr(player)))
        return record

    def active(self) -> list[Record]:
        """The records not merged into another, in registration order."""
        return [r for r in self.records.values() if r.merged_into is None]

    def by_licence(self, federation: str, licence: str) -> Record | None:
        for r in self.active():
            if r.licence and r.licence == licence and r.federation == federation:
                return r
        return None

    def name(self, player: str) -> str:
        record = self.records.get(self.resolve(player))
        return record.name if record else player

    def group(self, player: str) -> set[str]:
        """Every record that stands for the same person as ``player`` (the one kept and those merged into it)."""
        kept = self.resolve(player)
        return {r for r in self.records if self.resolve(r) == kept}

    def line_kept(self, game_id: str, candidates: Sequence[str]) -> str:
        """Of two or more records of one person each with a line in game ``game_id``, the one whose line stands:
        the secretary's decision at the merge; without one (a journal from before decisions), the record kept."""
        for c in candidates:
            for r in self.group(c):
                chosen = self.records[r].kept.get(game_id)
                if chosen is not None and chosen in candidates:
                    return chosen
        kept = self.resolve(candidates[0])
        return kept if kept in candidates else candidates[0]

    def lists_until(self, date: str | None) -> list[RatingList]:
        """The rating lists dated on or before ``date`` (every one for None), by date, then journal order."""
        return sorted((x for x in self.lists if date is None or x.date <= date), key=lambda x: (x.date, x.seq))

    # --- folding -----------------------------------------------------------------------------------------

    def apply(self, e: Event) -> None:
        with payload.folding(REGISTRY_ID, e.seq, e.kind):
            p = payload.mapping(e.payload)
            if e.kind == "registered":
                for item in payload.mappings(p, "players"):
                    record = _record(item)
                    if record.id in self.records:
                        raise JournalError(f"player {record.id} registered twice")
                    self.records[record.id] = record
            elif e.kind == "corrected":
                record = self._record(payload.text(p, "player"))
                fields = dict(payload.mapping(p["fields"], "fields"))
                _apply_fields(record, fields)
                reason = payload.text(p, "reason", "")
                record.history.append(Change(e.seq, e.recorded, e.actor, "corrected", fields, reason))
            elif e.kind == "merged":
                record = self._record(payload.text(p, "player"))
                into = self._record(payload.text(p, "into"))
                record.merged_into = into.id
                record.kept = {str(k): payload.text({"v": v}, "v")
                               for k, v in payload.mapping(p.get("kept", {}), "kept").items()}
                change = Change(e.seq, e.recorded, e.actor, "merged",
                                {"player": record.id, "into": into.id} | ({"kept": dict(record.kept)}
                                                                         if record.kept else {}),
                                payload.text(p, "reason", ""))
                record.history.append(change)
                into.history.append(change)
            elif e.kind == "unmerged":
                record = self._record(payload.text(p, "player"))
                into = self._record(record.merged_into or payload.text(p, "player"))
                change = Change(e.seq, e.recorded, e.actor, "unmerged", {"player": record.id, "into": into.id},
                                payload.text(p, "reason", ""))
                record.merged_into, record.kept = None, {}
                record.history.append(change)
                if into is not record:
                    into.history.append(change)
            elif e.kind == "rated":
                system = payload.text(p, "system")
                date = payload.text(p, "date", "")
                values = {}
                for player, value in payload.mapping(p["ratings"], "ratings").items():
                    record = self._record(player)
                    values[record.id] = _rating(value)
                    if record.rated_on.get(system, "") <= date:  # the latest-dated list is the one in force
                        record.ratings[system] = values[record.id]
                        record.rated_on[system] = date
                self.lists.append(RatingList(e.seq, system, date, payload.text(p, "source", ""), values))
            else:
                raise JournalError(f"unknown kind {e.kind!r} in the registry")
        self.last_seq = e.seq

    def _record(self, player: str) -> Record:
        if player not in self.records:
            raise JournalError(f"no player {player!r}")
        return self.records[player]


def _rating(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not MIN_RATING <= value <= MAX_RATING:
        raise payload.PayloadError(f"a rating {value!r}")
    return float(value)


def _record(p: Mapping[str, Any]) -> Record:
    record = Record(payload.text(p, "id"), "")
    _apply_fields(record, {k: p[k] for k in FIELDS if k in p})
    return record


def _apply_fields(record: Record, fields: Mapping[str, Any]) -> None:
    for key in fields:
        if key not in FIELDS:
            raise payload.PayloadError(f"a field {key!r} that a record does not have")
    if "name" in fields:
        record.name = payload.text(fields, "name")
    for key in ("licence", "federation", "club"):
        if key in fields:
            setattr(record, key, payload.text(fields, key))
    if "birth_year" in fields:
        record.birth_year = payload.optional_integer(fields, "birth_year", low=1850, high=2200)
    if "categories" in fields:
        record.categories = tuple(payload.texts(fields, "categories"))
    if "ratings" in fields:
        record.own_ratings = {str(k): _rating(v) for k, v in payload.mapping(fields["ratings"], "ratings").items()}
        record.ratings = dict(record.own_ratings)
        record.rated_on = {}


def load(journal: Journal) -> Registry:
    """The registry as its events stand (empty when none was ever stored)."""
    registry = Registry()
    if journal.execute("SELECT 1 FROM game WHERE id = ?", (REGISTRY_ID,)):
        for e in journal.iter_events(REGISTRY_ID):
            registry.apply(e)
    return registry


def _ensure(journal: Journal) -> None:
    if not journal.execute("SELECT 1 FROM game WHERE id = ?", (REGISTRY_ID,)):
        journal.create_game(FORMAT, {}, REGISTRY_ID)


def _fresh(journal: Journal) -> Registry:
    """Inside a transaction: the registry with every committed event (the lock is held)."""
    _ensure(journal)
    return load(journal)


# --- checks at the door ------------------------------------------------------------------------------------


def check_entry(entry: Entry, what: str = "player") -> dict[str, Any]:
    """The fields of a record as they will be stored.

    :raises RegistryError: naming ``what`` for a missing name, a bad year or rating.
    """
    name = " ".join(entry.name.split())
    if not name:
        raise RegistryError(Text("%(what)s: a player needs a name", what=what))
    fields: dict[str, Any] = {
        "name": check_text(name, Text("%(what)s: name", what=what), "name"),
        "licence": check_digits(check_text(entry.licence.strip(), Text("%(what)s: licence", what=what), "number"),
                                Text("%(what)s: licence", what=what)),
        "federation": check_text(entry.federation.strip(), Text("%(what)s: federation", what=what), "club"),
        "club": check_text(entry.club.strip(), Text("%(what)s: club", what=what), "club"),
        "birth_year": entry.birth_year,
        "categories": [check_text(c.strip(), Text("%(what)s: category", what=what), "club")
                       for c in entry.categories if c.strip()],
        "ratings": {check_text(k, Text("%(what)s: rating system", what=what), "rating"): float(v)
                    for k, v in entry.ratings.items()},
    }
    if entry.birth_year is not None and not 1850 <= entry.birth_year <= 2200:
        raise RegistryError(Text("%(what)s: birth year %(year)s is not a year from 1850 to 2200", what=what,
                                 year=entry.birth_year))
    for system, value in fields["ratings"].items():
        if not MIN_RATING <= value <= MAX_RATING or value != value:
            raise RegistryError(Text("%(what)s: rating %(value)s for %(system)s is out of range", what=what,
                                     value=value, system=repr(system)))
    return fields


def check_date(text: str, what: str) -> str:
    """A date as ``YYYY-MM-DD``."""
    from datetime import date

    if not _DATE.fullmatch(text):
        raise RegistryError(f"{what} {text!r} is not a date written YYYY-MM-DD")
    try:
        date.fromisoformat(text)
    except ValueError:
        raise RegistryError(f"{what} {text!r} is not a date") from None
    return text


# --- actions -----------------------------------------------------------------------------------------------


def register(journal: Journal, entries: Sequence[Entry], *, lines: Sequence[int] | None = None) -> list[str]:
    """Register players, all or none; returns their registry ids.

    :raises RegistryError: when a licence id is given twice (with the lines of both, when ``lines`` are the
        entries' lines in a file) or is already registered in its federation.
    """
    where = list(lines) if lines is not None else list(range(1, len(entries) + 1))
    one = lines is None and len(entries) == 1  # one player typed in: no number to name him by

    def label(n: int) -> Text:
        return Text("line %(n)s", n=n) if lines is not None else Text("player %(n)s", n=n)

    checked = [check_entry(e, Text("player") if one else label(n)) for e, n in zip(entries, where, strict=True)]
    seen: dict[tuple[str, str], int] = {}
    for fields, n in zip(checked, where, strict=True):
        if not fields["licence"]:
            continue
        key = (fields["federation"], fields["licence"])
        if key in seen:
            raise RegistryError(Text(
                "licence %(licence)s of federation %(federation)s is given twice (%(where)s): nothing registered",
                licence=repr(fields["licence"]), federation=fields["federation"] or "-",
                where=Text("lines %(a)s and %(b)s" if lines is not None else "players %(a)s and %(b)s",
                           a=seen[key], b=n)))
        seen[key] = n
    with journal.transaction(REGISTRY_ID):
        registry = _fresh(journal)
        for (federation, licence), n in seen.items():
            known = registry.by_licence(federation, licence)
            if known is not None:
                already = Text("licence %(licence)s of federation %(federation)s is %(id)s %(name)s already: "
                               "nothing registered", licence=repr(licence), federation=federation or "-", id=known.id,
                               name=known.name)
                raise RegistryError(already if one else Text("%(where)s: %(why)s", where=label(n), why=already))
        first = len(registry.records) + 1
        ids = [f"A{first + i}" for i in range(len(checked))]
        records = [{"id": i} | f for i, f in zip(ids, checked, strict=True)]
        # an event holds at most MAX_ITEMS players: a larger file (the import's 2,000,000 characters hold some
        # 30,000) is several events, in one transaction (all or none)
        for start in range(0, len(records), MAX_ITEMS):
            journal.append(REGISTRY_ID, "registered", {"players": records[start:start + MAX_ITEMS]})
    return ids


def correct(journal: Journal, player: str, fields: Mapping[str, Any], reason: str = "") -> None:
    """Correct a record (a new event; the old values stay in the journal)."""
    unknown = [k for k in fields if k not in FIELDS]
    if unknown:
        raise RegistryError(f"a record has no field {unknown[0]!r}; fields: {', '.join(FIELDS)}")
    with journal.transaction(REGISTRY_ID):
        registry = _fresh(journal)
        record = registry.get(player)
        merged = record.to_dict() | dict(fields)
        entry = Entry(
            merged["name"], merged["licence"], merged["federation"], merged["club"], merged["birth_year"],
            tuple(merged["categories"]), merged["ratings"],
        )
        checked = check_entry(entry)
        if checked["licence"]:
            known = registry.by_licence(checked["federation"], checked["licence"])
            if known is not None and known.id != record.id:
                raise RegistryError(f"licence {checked['licence']!r} is {known.id} {known.name} already")
        changed = {k: checked[k] for k in fields}
        journal.append(REGISTRY_ID, "corrected", {"player": record.id, "fields": changed,
                                                 "reason": check_text(reason, "reason")})


def merge(journal: Journal, player: str, into: str, reason: str = "", kept: Mapping[str, str] | None = None
          ) -> None:
    """Two records of one person: ``player``'s results count for ``into`` from now on, in every table.

    This stores the merge as asked; :func:`arbitru.season.tournament.merge` first refuses one that would lose a
    result (both records with a line in one game) unless ``kept`` says whose line stands in that game."""
    with journal.transaction(REGISTRY_ID):
        registry = _fresh(journal)
        a, b = registry.get(player), registry.get(into)
        if a.id == b.id:
            raise RegistryError(Text("%(a)s and %(b)s are one record already", a=player, b=into))
        data: dict[str, Any] = {"player": a.id, "into": b.id, "reason": check_text(reason, "reason")}
        if kept:
            both = registry.group(a.id) | registry.group(b.id)
            for k in kept.values():
                if k not in both:
                    raise RegistryError(Text("%(player)s is neither %(a)s nor %(b)s", player=k, a=a.id, b=b.id))
            data["kept"] = {check_text(g, "game", "title"): k for g, k in kept.items()}
        journal.append(REGISTRY_ID, "merged", data)


def unmerge(journal: Journal, player: str, reason: str = "") -> None:
    """A merge undone: ``player`` (the record merged into another) stands for himself again; every table shows
    both records' results as before the merge."""
    with journal.transaction(REGISTRY_ID):
        registry = _fresh(journal)
        record = registry.records.get(player)
        if record is None:
            raise RegistryError(Text("no player %(player)s in the registry", player=repr(player)))
        if record.merged_into is None:
            raise RegistryError(Text("%(player)s is not merged into another record", player=player))
        if any(r.merged_into == record.id for r in registry.records.values()):
            raise RegistryError(Text("undo first the merges into %(player)s", player=player))
        journal.append(REGISTRY_ID, "unmerged", {"player": record.id, "reason": check_text(reason, "reason")})


def rate(journal: Journal, system: str, date: str, ratings: Mapping[str, float], source: str = "") -> None:
    """Store a rating list (a federation's published one, say) as one event."""
    check_text(system, "rating system", "rating")
    if not system.strip():
        raise RegistryError("a rating list needs its rating system")
    check_date(date, "rating list date")
    with journal.transaction(REGISTRY_ID):
        registry = _fresh(journal)
        values: dict[str, float] = {}
        for player, value in ratings.items():
            if not MIN_RATING <= value <= MAX_RATING or value != value:
                raise RegistryError(f"rating {value} of {player} is out of range")
            values[registry.get(player).id] = float(value)
        journal.append(REGISTRY_ID, "rated", {"system": system, "date": date, "source": check_text(source, "source"),
                                              "ratings": values})


def players(registry: Registry, ids: Iterable[str]) -> list[Record]:
    return [registry.get(i) for i in ids]
