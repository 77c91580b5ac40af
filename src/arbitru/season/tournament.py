"""A tournament: a named event (dates, place, organiser, rule set, format) holding games of either format.

Stored as one journal entry of format ``tournament``; its settings are the event's description, its events:

- ``enrolled``: ``players``: ``player`` (registry id), ``entry`` (his number in every game of the tournament),
  ``late`` (RO-5.1: came after the seating was fixed), ``before_game`` (games already created then);
- ``withdrawn``: ``player``, ``after_game``: he plays no game after it (a withdrawal carries forward);
- ``game``: ``number``, ``game`` (the id of a duplicate or anticipation game created in the tournament);
- ``recorded``: ``number``, ``title``, ``masters``, ``scores``, ``eliminated``: a game's result entered as such
  (:func:`arbitru.season.outcome.recorded`).

A game created in the tournament takes the players enrolled and not withdrawn, numbered by entry; anticipation
tables are seated by the registry's rating (RO-5.1).
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arbitru.errors import ArbitruError, JournalError
from arbitru.formats import ANTICIPATION, DUPLICATE, FORMATS, by_name, format_of, payload
from arbitru.journal.store import Journal
from arbitru.messages import Text
from arbitru.season import outcome
from arbitru.season.outcome import Lexicons, Outcome
from arbitru.season.registry import Entry, Registry, check_date, load, register
from arbitru.textinput import InputError, check_payload, check_text, csv_rows, parse_signed

FORMAT = "tournament"
GAME_FORMATS = tuple(FORMATS)
#: the general table's methods (FISE-15: each the other's tie-break; ``total`` for anticipation, RO-6.6)
METHODS = ("mean-place", "mean-percentage", "total")
#: rule sets a tournament may name: the duplicate ones and the Romanian anticipation rules
RULE_SETS = ("fise", "greek", "romanian", "ro-anticipation")
#: the pages' language when the tournament names none: the rule set's own (FISE's games are played in Spanish,
#: French, Polish…: such a tournament names its language)
RULES_LANGUAGE = {"fise": "es", "greek": "el", "romanian": "ro", "ro-anticipation": "ro"}


class TournamentError(ArbitruError):
    """A tournament action refused: nothing stored."""


@dataclass(frozen=True)
class Event:
    """What a tournament is: fixed when it is created."""

    name: str
    start: str
    end: str = ""
    place: str = ""
    organiser: str = ""
    rules: str = "fise"
    format: str = DUPLICATE.name
    #: FISE-15's multi-game method (mean-place, mean-percentage, total); RO-6.6 ranks anticipation by total
    method: str = ""
    #: the registry's rating system read for seating (RO-5.1) and expected places (FISE-21)
    rating_system: str = "elod"
    #: the language of its pages and games (``ro``, ``pl``, ``el``, ``es``, ``fr``, ``en``); empty: the rule set's
    lang: str = ""

    def __post_init__(self) -> None:
        if not " ".join(self.name.split()):
            raise TournamentError(Text("a tournament needs a name"))
        check_date(self.start, "start date")
        if self.end:
            check_date(self.end, "end date")
            if self.end < self.start:
                raise TournamentError(Text("the end date %(end)s is before the start %(start)s", end=self.end,
                                           start=self.start))
        if self.rules not in RULE_SETS:
            raise TournamentError(f"rule set {self.rules!r}; known: {', '.join(RULE_SETS)}")
        if self.format not in GAME_FORMATS:
            raise TournamentError(f"format {self.format!r}; known: {', '.join(GAME_FORMATS)}")
        if (self.rules == "ro-anticipation") != (by_name(self.format) is ANTICIPATION):
            raise TournamentError(f"the rule set {self.rules} is not for {self.format} games")
        if self.method and self.method not in METHODS:
            raise TournamentError(f"table method {self.method!r}; known: {', '.join(METHODS)}")
        for key in ("name", "place", "organiser"):
            check_text(getattr(self, key), key, "title")
        check_text(self.rating_system, "rating system", "rating")
        if self.lang:
            from arbitru.engine.tiles import LANGUAGES

            if self.lang not in LANGUAGES:
                raise TournamentError(f"language {self.lang!r}; known: {', '.join(LANGUAGES)}")

    @property
    def language(self) -> str:
        """The language its pages are shown in and its games are played in."""
        return self.lang or RULES_LANGUAGE[self.rules]

    @property
    def table_method(self) -> str:
        """The method written in the settings, else the rule set's: FISE-15 mean place, RO-6.6 total."""
        return self.method or ("mean-place" if self.rules in ("fise", "greek") else "total")

    @property
    def tie_breaks(self) -> tuple[str, ...]:
        """The rule set's single-game tie-breaks (FISE-15); none for RO-6.6 (ties share the place)."""
        from arbitru.formats.duplicate.rulesets import RULESETS

        r = RULESETS.get(self.rules)
        return r.tie_breaks if r is not None else ()

    @property
    def date(self) -> str:
        """The date its results count from in a rating list: the last day."""
        return self.end or self.start

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("name", "start", "end", "place", "organiser", "rules", "format",
                                              "method", "rating_system", "lang")}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        return cls(**{k: payload.text(d, k, "") for k in ("name", "start", "end", "place", "organiser", "rules",
                                                            "format", "method", "rating_system", "lang")})


@dataclass
class Enrolment:
    player: str
    entry: str
    late: bool = False
    before_game: int = 0
    withdrawn_after: int | None = None

    def plays(self, number: int) -> bool:
        return self.withdrawn_after is None or number <= self.withdrawn_after


@dataclass
class Slot:
    """A game of the tournament: linked (``game_id`` of a game in the journal) or recorded (``result``)."""

    number: int
    game_id: str
    result: Outcome | None = None


@dataclass
class Tournament:
    id: str
    event: Event
    enrolments: list[Enrolment] = field(default_factory=list)
    games: list[Slot] = field(default_factory=list)
    last_seq: int = 0

    def enrolment(self, player: str) -> Enrolment:
        for e in self.enrolments:
            if e.player == player or e.entry == player:
                return e
        raise TournamentError(Text("%(player)s is not enrolled in %(name)s", player=player, name=self.event.name))

    def entries(self) -> dict[str, str]:
        """Entry number -> registry id."""
        return {e.entry: e.player for e in self.enrolments}

    def players_of(self, number: int) -> list[Enrolment]:
        """Who plays game ``number``: enrolled and not withdrawn before it."""
        return [e for e in self.enrolments if e.plays(number)]


def replay(journal: Journal, tournament_id: str) -> Tournament:
    info = journal.game(tournament_id)
    if info.format != FORMAT:
        raise TournamentError(f"{tournament_id!r} is a {info.format}, not a tournament")
    try:
        t = Tournament(tournament_id, Event.from_dict(info.settings))
    except (ArbitruError, TypeError) as err:
        raise JournalError(f"tournament {tournament_id}: settings that cannot be read: {err}") from None
    for e in journal.iter_events(tournament_id):
        with payload.folding(tournament_id, e.seq, e.kind):
            _apply(t, payload.mapping(e.payload), e.kind)
        t.last_seq = e.seq
    return t


def _apply(t: Tournament, p: Mapping[str, Any], kind: str) -> None:
    if kind == "enrolled":
        for item in payload.mappings(p, "players"):
            t.enrolments.append(Enrolment(payload.text(item, "player"), payload.text(item, "entry"),
                                          payload.boolean(item, "late", False),
                                          payload.integer(item, "before_game", 0, low=0)))
    elif kind == "withdrawn":
        t.enrolment(payload.text(p, "player")).withdrawn_after = payload.integer(p, "after_game", low=0)
    elif kind == "game":
        t.games.append(Slot(payload.integer(p, "number", low=1), payload.text(p, "game")))
    elif kind == "recorded":  # read now, so a damaged result names its event
        number = payload.integer(p, "number", low=1)
        game = payload.text(p, "game")
        t.games.append(Slot(number, game, outcome.recorded(number, game, p, t.event.tie_breaks)))
    else:
        raise JournalError(f"unknown kind {kind!r} in a tournament")


def tournaments(journal: Journal) -> list[str]:
    return [g.id for g in journal.games(FORMAT)]


# --- actions ---------------------------------------------------------------------------------------------


def create(journal: Journal, event: Event, tournament_id: str | None = None) -> str:
    return journal.create_game(FORMAT, event.to_dict(), tournament_id or "t-" + uuid.uuid4().hex[:10])


def enrol(
    journal: Journal, tournament_id: str, players: Sequence[str] = (), *, new: Sequence[Entry] = (), late: bool = False
) -> list[str]:
    """Enrol registered players (by registry id) and players registered on the spot (``new``), all or none;
    returns their registry ids. Entry numbers follow the enrolment order."""
    with journal.transaction(tournament_id):
        t = replay(journal, tournament_id)
        registry = load(journal)
        ids = [registry.get(p).id for p in players]
        if new:
            ids += register(journal, new)
            registry = load(journal)
        enrolled = {e.player for e in t.enrolments}
        for pid in ids:
            if pid in enrolled:
                raise TournamentError(Text("%(player)s is enrolled already", player=f"{pid} {registry.name(pid)}"))
            enrolled.add(pid)
        if len(set(ids)) != len(ids):
            raise TournamentError(Text("a player is given twice"))
        first = len(t.enrolments) + 1
        items = [{"player": pid, "entry": str(first + i), "late": late, "before_game": len(t.games)}
                 for i, pid in enumerate(ids)]
        if items:
            journal.append(tournament_id, "enrolled", {"players": items})
    return ids


def withdraw(journal: Journal, tournament_id: str, player: str, after_game: int | None = None) -> None:
    """The player plays no game after ``after_game`` (default: the games created so far)."""
    with journal.transaction(tournament_id):
        t = replay(journal, tournament_id)
        e = t.enrolment(load(journal).resolve(player))
        if e.withdrawn_after is not None:
            raise TournamentError(Text("%(player)s withdrew after game %(n)s already", player=e.player,
                                       n=e.withdrawn_after))
        after = len(t.games) if after_game is None else after_game
        journal.append(tournament_id, "withdrawn", {"player": e.player, "after_game": after})


def _next_number(t: Tournament) -> int:
    return len(t.games) + 1


def record(
    journal: Journal, tournament_id: str, scores: Mapping[str, Sequence[int]], masters: Sequence[int] = (),
    *, title: str = "", eliminated: Sequence[str] = (),
) -> int:
    """Store a game's result as such (points per move per registry id); returns the game's number.

    :raises TournamentError: for a player not enrolled or withdrawn, or moves that do not match the masters.
    """
    with journal.transaction(tournament_id):
        t = replay(journal, tournament_id)
        registry = load(journal)
        number = _next_number(t)
        if any(m < 0 for m in masters):
            raise TournamentError(Text("a master move scores 0 or more"))
        playing = {e.player for e in t.players_of(number)}
        stored: dict[str, list[int]] = {}
        for player, moves in scores.items():
            pid = registry.resolve(player)
            if pid not in playing:
                raise TournamentError(Text("%(player)s does not play game %(n)s of %(name)s", player=player, n=number,
                                           name=t.event.name))
            if masters and len(moves) != len(masters):
                raise TournamentError(Text("%(player)s: %(n)s moves, the game has %(masters)s", player=player,
                                           n=len(moves), masters=len(masters)))
            stored[pid] = [int(m) for m in moves]
        data = {"number": number, "game": f"{tournament_id}.{number}", "title": title, "masters": list(masters),
                "scores": stored, "eliminated": [registry.resolve(p) for p in eliminated]}
        check_payload(data, "recorded")
        journal.append(tournament_id, "recorded", data)
    return number


def read_result(text: str) -> tuple[list[int], dict[str, list[int]]]:
    """A game's result as a CSV text: a line ``master,<score of move 1>,…`` and a line per player ``<registry
    id>,<points of move 1>,…``; returns the master moves and each player's points.

    :raises InputError: for a cell that is not a number or a player given twice (with its line).
    """
    masters: list[int] = []
    scores: dict[str, list[int]] = {}
    for line, cells in csv_rows(text, "results file"):
        if not cells or not any(c.strip() for c in cells):
            continue
        values = [parse_signed(c, f"results file: line {line}: points") for c in cells[1:]]
        who = cells[0].strip()
        if who.lower() == "master":
            masters = values
        elif who in scores:
            raise InputError(f"results file: line {line}: {who} is given twice")
        else:
            scores[who] = values
    return masters, scores


def create_duplicate_game(
    journal: Journal, tournament_id: str, settings: Any, lexicon: Any = None, game_id: str | None = None
) -> str:
    """A duplicate game of the tournament, its players the enrolled ones (entry numbers, registry names)."""
    from arbitru.formats.duplicate.game import Player, Session

    with journal.transaction(tournament_id):
        t = replay(journal, tournament_id)
        if by_name(t.event.format) is not DUPLICATE:
            raise TournamentError(f"{t.event.name} holds {t.event.format} games")
        registry = load(journal)
        number = _next_number(t)
        players = [Player(e.entry, registry.name(e.player)) for e in t.players_of(number)]
        session = Session.create(journal, settings, lexicon, players, game_id)
        journal.append(tournament_id, "game", {"number": number, "game": session.id})
    return session.id


def seating(t: Tournament, registry: Registry, number: int) -> list[tuple[str, int, str]]:
    """RO-5.1 for game ``number``: by the registry's rating, late entries at the last tables, clubs apart."""
    from arbitru.formats.anticipation.seating import Entrant, seat

    entrants = []
    for e in t.players_of(number):
        r = registry.get(e.player)
        late = e.late and e.before_game + 1 == number  # late for the game being seated when he came
        entrants.append(Entrant(e.entry, r.ratings.get(t.event.rating_system, 0.0), r.club, late, r.name))
    return seat(entrants)


def create_anticipation_game(
    journal: Journal, tournament_id: str, settings: Any, draw: Any, lexicon: Any = None, game_id: str | None = None,
    seal: Any = None,
) -> str:
    """An anticipation game of the tournament, seated by rating (RO-5.1); ``seal``: the secret its groups were
    drawn from (:func:`arbitru.formats.anticipation.game.secret_draw`)."""
    from arbitru.formats.anticipation.game import AnticipationGame

    with journal.transaction(tournament_id):
        t = replay(journal, tournament_id)
        if by_name(t.event.format) is not ANTICIPATION:
            raise TournamentError(f"{t.event.name} holds {t.event.format} games")
        number = _next_number(t)
        tables = seating(t, load(journal), number)
        game = AnticipationGame.create(journal, settings, draw, lexicon=lexicon, seating=tables, game_id=game_id,
                                       seal=seal)
        journal.append(tournament_id, "game", {"number": number, "game": game.id})
    return game.id


def outcomes(journal: Journal, t: Tournament, lexicons: Lexicons | None = None) -> list[Outcome]:
    """Every game's result, keyed by registry id (merged records resolved)."""
    registry = load(journal)
    entries = t.entries()
    out = []
    for slot in t.games:
        if slot.result is not None:
            o = dataclasses.replace(slot.result)  # re-keyed below; the folded state stays as read
        elif format_of(journal.game(slot.game_id)) is ANTICIPATION:
            o = outcome.anticipation_game(slot.number, journal, slot.game_id, entries)
        else:
            o = outcome.duplicate_game(slot.number, journal, slot.game_id, entries, lexicons or _catalog)
        o.lines = {registry.resolve(p): dataclasses.replace(line, player=registry.resolve(p))
                   for p, line in o.lines.items()}
        out.append(o)
    return out


def registered_players(journal: Journal, game_ids: Sequence[str]) -> list[dict[str, tuple[str, str]]]:
    """For each game: its players' numbers -> (registry id, registry name) when it was created in a tournament
    (its numbers are entries), else nothing; what :func:`results.standings` matches players by."""
    registry = load(journal)
    found: dict[str, dict[str, tuple[str, str]]] = {}
    for tid in tournaments(journal):
        t = replay(journal, tid)
        entries = {entry: registry.resolve(pid) for entry, pid in t.entries().items()}
        for slot in t.games:
            if slot.result is None:
                found[slot.game_id] = {entry: (pid, registry.name(pid)) for entry, pid in entries.items()}
    return [found.get(gid, {}) for gid in game_ids]


def _catalog(name: str, lang: str) -> Any:
    from arbitru.lexicons.synthetic import load_lexicon

    return load_lexicon(name, lang)
