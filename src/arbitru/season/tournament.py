"""A tournament: a named event (dates, place, organiser, rule set, format) holding games of either format.

Stored as one journal entry of format ``tournament``; its settings are the event's description, its events:

- ``enrolled``: ``players``: ``player`` (registry id), ``entry`` (his number in every game of the tournament),
  ``late`` (RO-5.1: came after the seating was fixed), ``before_game`` (games already created then);
- ``withdrawn``: ``player``, ``after_game``: he plays no game after it (a withdrawal carries forward);
  ``withdrawal-undone``: ``player``: he plays again;
- ``game``: ``number``, ``game`` (the id of a duplicate or anticipation game created in the tournament),
  ``absent`` (the enrolled players not seated in it);
- ``recorded``: ``number``, ``title``, ``masters``, ``scores``, ``eliminated``, ``absent``: a game's result
  entered as such (:func:`arbitru.season.outcome.recorded`);
- ``absent``: ``number``, ``player``, ``reason``: the secretary marks a player absent from one game (no line of
  his counts there); ``absence-undone``: ``number``, ``player``;
- ``set-aside``: ``number``, ``reason``: a result that cannot be read (an old journal) left out by decision.

An absent player is not in that game's field (FISE-21), his percentage there is not in his FISE-22 history, and
the general table counts the game as its method says for a game not played (FISE-15: the last place).

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
    #: registry ids absent from this game (not seated when it was created, or marked absent) -> the reason
    absent: dict[str, str] = field(default_factory=dict)
    #: why its result cannot be read (an old journal, a damaged game), else empty; it is in no table
    unreadable: str = ""
    #: the secretary's reason for setting an unreadable result aside, else None
    set_aside: str | None = None
    #: a result entered as such (not a game in the journal)
    recorded: bool = False


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

    def players_of(self, number: int, registry: Registry | None = None) -> list[Enrolment]:
        """Who plays game ``number``: enrolled and not withdrawn before it (with ``registry``: one enrolment per
        person, the first, where two records of his were merged)."""
        out, seen = [], set()
        for e in self.enrolments:
            person = registry.resolve(e.player) if registry is not None else e.player
            if e.plays(number) and person not in seen:
                seen.add(person)
                out.append(e)
        return out

    @property
    def needs_master(self) -> bool:
        """A recorded duplicate game needs its master line (FISE-15's Mx, GR-7's percentage); an anticipation
        game has none."""
        return by_name(self.event.format) is not ANTICIPATION

    def slot(self, number: int) -> Slot:
        for s in self.games:
            if s.number == number:
                return s
        raise TournamentError(Text("%(name)s has no game %(n)s", name=self.event.name, n=number))


def replay(journal: Journal, tournament_id: str) -> Tournament:
    info = journal.game(tournament_id)
    if info.format != FORMAT:
        raise TournamentError(f"{tournament_id!r} is a {info.format}, not a tournament")
    try:
        t = Tournament(tournament_id, Event.from_dict(info.settings))
    except (ArbitruError, TypeError) as err:
        raise JournalError(f"tournament {tournament_id}: settings that cannot be read: {err}") from None
    for e in journal.iter_events(tournament_id):
        if e.kind == "recorded":
            _recorded(t, e.payload, e.seq)
        else:
            with payload.folding(tournament_id, e.seq, e.kind):
                _apply(t, payload.mapping(e.payload), e.kind)
        t.last_seq = e.seq
    return t


def _recorded(t: Tournament, p: Any, seq: int) -> None:
    """A recorded result; one that cannot be read (an old journal: no master line, points out of range) is
    kept as unreadable, named by its event, so the rest of the season is served."""
    number, game = len(t.games) + 1, f"{t.id}.{len(t.games) + 1}"
    try:
        with payload.folding(t.id, seq, "recorded"):
            p = payload.mapping(p)
            number = payload.integer(p, "number", low=1)
            game = payload.text(p, "game")
            absent = {a: "" for a in payload.texts(p, "absent", [])}
            result = outcome.recorded(number, game, p, t.event.tie_breaks, t.needs_master)
    except JournalError as err:
        t.games.append(Slot(number, game, unreadable=str(err), recorded=True))
        return
    t.games.append(Slot(number, game, result, absent, recorded=True))


def _apply(t: Tournament, p: Mapping[str, Any], kind: str) -> None:
    if kind == "enrolled":
        for item in payload.mappings(p, "players"):
            t.enrolments.append(Enrolment(payload.text(item, "player"), payload.text(item, "entry"),
                                          payload.boolean(item, "late", False),
                                          payload.integer(item, "before_game", 0, low=0)))
    elif kind == "withdrawn":
        t.enrolment(payload.text(p, "player")).withdrawn_after = payload.integer(p, "after_game", low=0)
    elif kind == "withdrawal-undone":
        t.enrolment(payload.text(p, "player")).withdrawn_after = None
    elif kind == "game":
        t.games.append(Slot(payload.integer(p, "number", low=1), payload.text(p, "game"),
                            absent={a: "" for a in payload.texts(p, "absent", [])}))
    elif kind == "absent":
        t.slot(payload.integer(p, "number", low=1)).absent[payload.text(p, "player")] = payload.text(p, "reason", "")
    elif kind == "absence-undone":
        t.slot(payload.integer(p, "number", low=1)).absent.pop(payload.text(p, "player"), None)
    elif kind == "set-aside":
        t.slot(payload.integer(p, "number", low=1)).set_aside = payload.text(p, "reason", "")
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
    """The player plays no game after ``after_game`` (default: the games created so far).

    :raises TournamentError: when he withdrew already, or has a result in a game after ``after_game`` (a
        withdrawal "after game 0" for a player with results would contradict the table)."""
    with journal.transaction(tournament_id):
        t = replay(journal, tournament_id)
        registry = load(journal)
        e = t.enrolment(registry.resolve(player))
        if e.withdrawn_after is not None:
            raise TournamentError(Text("%(player)s withdrew after game %(n)s already", player=e.player,
                                       n=e.withdrawn_after))
        after = len(t.games) if after_game is None else after_game
        played = [n for n in played_games(journal, t, e.player) if n > after]
        if played:
            raise TournamentError(Text(
                "%(player)s has a result in game %(game)s: he can withdraw after game %(game)s or later",
                player=f"{e.player} {registry.name(e.player)}", game=max(played)))
        journal.append(tournament_id, "withdrawn", {"player": e.player, "after_game": after})


def undo_withdrawal(journal: Journal, tournament_id: str, player: str) -> None:
    """A withdrawal undone: the player plays the tournament's next games again (the games created meanwhile
    stay without him: he was absent from them)."""
    with journal.transaction(tournament_id):
        t = replay(journal, tournament_id)
        e = t.enrolment(load(journal).resolve(player))
        if e.withdrawn_after is None:
            raise TournamentError(Text("%(player)s has not withdrawn", player=e.player))
        journal.append(tournament_id, "withdrawal-undone", {"player": e.player})


def played_games(journal: Journal, t: Tournament, player: str) -> list[int]:
    """The numbers of the games where ``player`` (a registry id, or a record merged into it) has a result."""
    group = load(journal).group(player)
    slots = {s.number: s for s in t.games}
    return [n for n, o in raw_outcomes(journal, t)
            if o is not None and group & (set(o.lines) - set(slots[n].absent))]


def _next_number(t: Tournament) -> int:
    return len(t.games) + 1


@dataclass
class Result:
    """A game's result as typed (a file, a form): the master moves, each player's points per move, the players
    marked absent, and the line each was read from (to name it in a refusal)."""

    masters: list[int] = field(default_factory=list)
    scores: dict[str, list[int]] = field(default_factory=dict)
    absent: list[str] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)


def record(
    journal: Journal, tournament_id: str, scores: Mapping[str, Sequence[int]], masters: Sequence[int] = (),
    *, title: str = "", eliminated: Sequence[str] = (), absent: Sequence[str] = (),
    lines: Mapping[str, int] | None = None,
) -> int:
    """Store a game's result as such (points per move per registry id); returns the game's number.

    Checked at the door, nothing stored on a refusal: the master line (one score per move, 0 or more), a line
    per player playing the game or his absence, each move's points from 0 to the master's. ``lines`` (player ->
    line of the file) names the line of a refusal.

    :raises TournamentError: naming the player (and his line) or the master line.
    """
    lines = lines or {}

    def where(player: str) -> str:
        return str(Text("line %(n)s: %(player)s", n=lines[player], player=player)) if player in lines \
            else player

    with journal.transaction(tournament_id):
        t = replay(journal, tournament_id)
        registry = load(journal)
        number = _next_number(t)
        master_where = str(Text("line %(n)s: master", n=lines["master"])) if "master" in lines else "master"
        if t.needs_master and not masters:
            raise TournamentError(Text("a recorded game needs its master line: master,<score of move 1>,…"))
        if any(m < 0 for m in masters):
            raise TournamentError(Text("%(where)s: a master move scores 0 or more", where=master_where))
        playing = {registry.resolve(e.player): e.player for e in t.players_of(number, registry)}
        stored: dict[str, list[int]] = {}
        gone: list[str] = []
        seen: dict[str, str] = {}
        for player in [*scores, *absent]:
            pid = registry.resolve(player)
            if pid not in playing:
                raise TournamentError(Text("%(player)s does not play game %(n)s of %(name)s", player=where(player),
                                           n=number, name=t.event.name))
            if pid in seen:
                raise TournamentError(Text("%(player)s is given twice (%(other)s)", player=where(player),
                                           other=where(seen[pid])))
            seen[pid] = player
        for player, moves in scores.items():
            if masters and len(moves) != len(masters):
                raise TournamentError(Text("%(player)s: %(n)s moves, the game has %(masters)s", player=where(player),
                                           n=len(moves), masters=len(masters)))
            for i, m in enumerate(moves, 1):
                top = masters[i - 1] if masters else max(m, 0)
                if not 0 <= m <= top:
                    raise TournamentError(Text(
                        "%(player)s: %(points)s points in move %(move)s, where the master scored %(top)s",
                        player=where(player), points=m, move=i, top=top))
            stored[playing[registry.resolve(player)]] = [int(m) for m in moves]
        for player in absent:
            gone.append(playing[registry.resolve(player)])
        missing = [raw for pid, raw in playing.items() if pid not in seen]
        if missing:
            raise TournamentError(Text(
                "no line for %(players)s: give his points, or mark him absent (a line %(example)s)",
                players=", ".join(f"{p} {registry.name(p)}" for p in missing), example=f"{missing[0]},absent"))
        data = {"number": number, "game": f"{tournament_id}.{number}", "title": title, "masters": list(masters),
                "scores": stored, "eliminated": [playing.get(registry.resolve(p), p) for p in eliminated],
                "absent": gone}
        check_payload(data, "recorded")
        journal.append(tournament_id, "recorded", data)
    return number


def read_result(text: str) -> Result:
    """A game's result as a CSV text: a line ``master,<score of move 1>,…``, a line per player ``<registry
    id>,<points of move 1>,…``, or ``<registry id>,absent`` for a player absent from the game.

    :raises InputError: for a cell that is not a number or a player given twice (with its line).
    """
    out = Result()
    for line, cells in csv_rows(text, "results file"):
        if not cells or not any(c.strip() for c in cells):
            continue
        who = cells[0].strip()
        rest = [c.strip() for c in cells[1:]]
        if who in out.lines or (who.lower() == "master" and "master" in out.lines):
            raise InputError(Text("results file: line %(line)s: %(who)s is given twice", line=line, who=who))
        if who.lower() != "master" and [c.lower() for c in rest if c] in (["absent"], ["abs"]):
            out.absent.append(who)
            out.lines[who] = line
            continue
        values = [parse_signed(c, str(Text("results file: line %(line)s: points", line=line))) for c in cells[1:]]
        if who.lower() == "master":
            out.masters = values
            out.lines["master"] = line
        else:
            out.scores[who] = values
            out.lines[who] = line
    return out


def _seated(t: Tournament, registry: Registry, number: int, absent: Sequence[str]) -> tuple[list[Enrolment], list[str]]:
    """The players seated in game ``number`` and the registry ids of the enrolled ones marked absent."""
    playing = t.players_of(number, registry)
    by_person = {registry.resolve(e.player): e.player for e in playing}
    gone = []
    for p in absent:
        pid = registry.resolve(p)
        if pid not in by_person:
            raise TournamentError(Text("%(player)s does not play game %(n)s of %(name)s", player=p, n=number,
                                       name=t.event.name))
        gone.append(by_person[pid])
    return [e for e in playing if e.player not in gone], gone


def create_duplicate_game(
    journal: Journal, tournament_id: str, settings: Any, lexicon: Any = None, game_id: str | None = None,
    absent: Sequence[str] = (),
) -> str:
    """A duplicate game of the tournament, its players the enrolled ones (entry numbers, registry names) but
    those marked ``absent`` (registry ids: not seated, absent from this game)."""
    from arbitru.formats.duplicate.game import Player, Session

    with journal.transaction(tournament_id):
        t = replay(journal, tournament_id)
        if by_name(t.event.format) is not DUPLICATE:
            raise TournamentError(f"{t.event.name} holds {t.event.format} games")
        registry = load(journal)
        number = _next_number(t)
        seated, gone = _seated(t, registry, number, absent)
        players = [Player(e.entry, registry.name(e.player)) for e in seated]
        session = Session.create(journal, settings, lexicon, players, game_id)
        journal.append(tournament_id, "game", {"number": number, "game": session.id, "absent": gone})
    return session.id


def seating(t: Tournament, registry: Registry, number: int, absent: Sequence[str] = ()
            ) -> list[tuple[str, int, str]]:
    """RO-5.1 for game ``number``: by the registry's rating, late entries at the last tables, clubs apart; the
    players marked ``absent`` are not seated."""
    from arbitru.formats.anticipation.seating import Entrant, seat

    entrants = []
    for e in _seated(t, registry, number, absent)[0]:
        r = registry.get(e.player)
        late = e.late and e.before_game + 1 == number  # late for the game being seated when he came
        entrants.append(Entrant(e.entry, r.ratings.get(t.event.rating_system, 0.0), r.club, late, r.name))
    return seat(entrants)


def create_anticipation_game(
    journal: Journal, tournament_id: str, settings: Any, draw: Any, lexicon: Any = None, game_id: str | None = None,
    absent: Sequence[str] = (),
    seal: Any = None,
) -> str:
    """An anticipation game of the tournament, seated by rating (RO-5.1), the players ``absent`` not seated;
    ``seal``: the secret its groups were drawn from (:func:`arbitru.formats.anticipation.game.secret_draw`)."""
    from arbitru.formats.anticipation.game import AnticipationGame

    with journal.transaction(tournament_id):
        t = replay(journal, tournament_id)
        if by_name(t.event.format) is not ANTICIPATION:
            raise TournamentError(f"{t.event.name} holds {t.event.format} games")
        number = _next_number(t)
        registry = load(journal)
        gone = _seated(t, registry, number, absent)[1]
        tables = seating(t, registry, number, gone)
        game = AnticipationGame.create(journal, settings, draw, lexicon=lexicon, seating=tables, game_id=game_id,
                                       seal=seal)
        journal.append(tournament_id, "game", {"number": number, "game": game.id, "absent": gone})
    return game.id


def mark_absent(journal: Journal, tournament_id: str, number: int, player: str, reason: str = "") -> None:
    """The secretary marks ``player`` absent from game ``number``: his line (a seat with no move) leaves that
    game. Refused for a player who scored in it, or one the game does not have."""
    with journal.transaction(tournament_id):
        t = replay(journal, tournament_id)
        registry = load(journal)
        slot = t.slot(number)
        group = registry.group(player)
        raw = dict(raw_outcomes(journal, t)).get(number)
        enrolled = {e.player for e in t.enrolments} & group
        if not enrolled:
            raise TournamentError(Text("%(player)s is not enrolled in %(name)s", player=player, name=t.event.name))
        if group & set(slot.absent):
            raise TournamentError(Text("%(player)s is absent from game %(n)s already", player=player, n=number))
        lines = {p: line for p, line in (raw.lines.items() if raw is not None else ()) if p in group}
        scored = [line for line in lines.values() if line.total]
        if scored:
            raise TournamentError(Text("%(player)s scored %(points)s points in game %(n)s: he played it",
                                       player=player, points=scored[0].total, n=number))
        who = next(iter(lines), None) or sorted(enrolled)[0]
        journal.append(tournament_id, "absent", {"number": number, "player": who,
                                                 "reason": check_text(reason, "reason")})


def undo_absence(journal: Journal, tournament_id: str, number: int, player: str) -> None:
    """An absence marked by the secretary undone: the player's line (if the game has one) counts again."""
    with journal.transaction(tournament_id):
        t = replay(journal, tournament_id)
        slot = t.slot(number)
        marked = [p for p in load(journal).group(player) if p in slot.absent]
        if not marked:
            raise TournamentError(Text("%(player)s is not absent from game %(n)s", player=player, n=number))
        journal.append(tournament_id, "absence-undone", {"number": number, "player": marked[0]})


def set_aside(journal: Journal, tournament_id: str, number: int, reason: str) -> None:
    """The secretary's decision on a result that cannot be read: it is left out, with the reason, for good."""
    with journal.transaction(tournament_id):
        t = replay(journal, tournament_id)
        slot = t.slot(number)
        if not slot.unreadable:
            raise TournamentError(Text("game %(n)s has a result that can be read: nothing to set aside", n=number))
        if slot.set_aside is not None:
            raise TournamentError(Text("game %(n)s is set aside already", n=number))
        if not reason.strip():
            raise TournamentError(Text("a decision needs its reason"))
        journal.append(tournament_id, "set-aside", {"number": number, "reason": check_text(reason, "reason")})


def raw_outcomes(journal: Journal, t: Tournament, lexicons: Lexicons | None = None
                 ) -> list[tuple[int, Outcome | None]]:
    """Every game's result keyed by the registry id each line was stored under (merges not resolved, absences
    not taken out); None for a result that cannot be read, its slot marked ``unreadable`` with the reason."""
    entries = t.entries()
    out: list[tuple[int, Outcome | None]] = []
    for slot in t.games:
        o: Outcome | None = None
        if slot.result is not None:
            o = dataclasses.replace(slot.result)
        elif not slot.unreadable:
            try:
                if format_of(journal.game(slot.game_id)) is ANTICIPATION:
                    o = outcome.anticipation_game(slot.number, journal, slot.game_id, entries)
                else:
                    o = outcome.duplicate_game(slot.number, journal, slot.game_id, entries, lexicons or _catalog)
            except (ArbitruError, LookupError, TypeError, AttributeError, ArithmeticError) as err:
                slot.unreadable = str(err)  # a damaged game: shown as such, the rest of the season served
        out.append((slot.number, o))
    return out


def outcomes(journal: Journal, t: Tournament, lexicons: Lexicons | None = None) -> list[Outcome]:
    """Every readable game's result, keyed by registry id (merged records resolved: where two records of one
    person both have a line, the one the merge kept stands), absent players taken out."""
    registry = load(journal)
    slots = {s.number: s for s in t.games}
    out = []
    for number, o in raw_outcomes(journal, t, lexicons):
        if o is None:
            continue  # unreadable: shown as such on the tournament's page, in no table
        absent = slots[number].absent
        people: dict[str, list[str]] = {}
        for p in o.lines:
            if p not in absent:
                people.setdefault(registry.resolve(p), []).append(p)
        lines = {}
        for pid, raw in people.items():
            chosen = raw[0] if len(raw) == 1 else registry.line_kept(o.game_id, raw)
            lines[pid] = dataclasses.replace(o.lines[chosen], player=pid)
        o.lines = lines
        o.absent = {registry.resolve(p) for p in absent} - set(lines)
        out.append(o)
    return out


@dataclass(frozen=True)
class SharedGame:
    """A game where two records of one person both have a line."""

    tournament: str
    tournament_name: str
    number: int
    game_id: str
    #: each record's line there: (registry id, points)
    totals: tuple[tuple[str, int], ...] = ()

    def said(self) -> Text:
        return Text("%(tournament)s game %(n)s (%(game)s)", tournament=self.tournament_name, n=self.number,
                    game=self.game_id)

    def __str__(self) -> str:
        return str(self.said())


def shared_games(journal: Journal, a: str, b: str) -> list[SharedGame]:
    """The games where records ``a`` and ``b`` (or records merged into them) both have a line."""
    registry = load(journal)
    ga, gb = registry.group(a), registry.group(b)
    found = []
    for tid in tournaments(journal):
        t = replay(journal, tid)
        slots = {s.number: s for s in t.games}
        for number, o in raw_outcomes(journal, t):
            if o is None:
                continue
            present = set(o.lines) - set(slots[number].absent)
            if present & ga and present & gb:
                totals = tuple((p, o.lines[p].total) for p in sorted(present & (ga | gb)))
                found.append(SharedGame(t.id, t.event.name, number, o.game_id, totals))
    return found


def merge(journal: Journal, player: str, into: str, reason: str = "", kept: Mapping[str, str] | None = None
          ) -> list[SharedGame]:
    """Two records of one person merged, losing nothing: where both have a result in one game, the merge is
    refused with the games named, unless ``kept`` (game id -> registry id) says whose line stands in each (the
    secretary's decision, kept in the history). Returns the games so decided.

    :raises TournamentError: naming the games without a decision, or a decision for a game they do not share.
    """
    from arbitru.season.registry import REGISTRY_ID
    from arbitru.season.registry import merge as store_merge

    kept = dict(kept or {})
    with journal.transaction(REGISTRY_ID):
        registry = load(journal)
        a, b = registry.get(player).id, registry.get(into).id
        shared = shared_games(journal, a, b)
        undecided = [g for g in shared if g.game_id not in kept]
        if undecided:
            raise TournamentError(Text(
                "%(a)s and %(b)s both have a result in %(games)s: say whose line stands in each, or the merge "
                "would lose one", a=a, b=b,
                games=[g.said() for g in undecided]))
        extra = sorted(set(kept) - {g.game_id for g in shared})
        if extra:
            raise TournamentError(Text("%(a)s and %(b)s do not both play game %(game)s", a=a, b=b, game=extra[0]))
        store_merge(journal, a, b, reason, kept)
    return shared


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
