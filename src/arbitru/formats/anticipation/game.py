"""A game as an append-only journal of events, and the state replayed from it.

Events (kind: payload):

- ``draw``: the 15 groups, how they were drawn (RO-5.2.d–f); not in the blind variant.
- ``seating``: players and their tables (RO-5.1), names as they should be written (RO-6.2a).
- ``blind_groups``: a player's own sealed 15 groups (RO-8.4).
- ``lot``: the group drawn for a turn and who drew it (RO-5.3).
- ``slip``: a slip exactly as written (RO-5.3); a later slip of the same player and turn is a re-entry that
  replaces it, the old one stays in the journal.
- ``decision``: a contest or appeal decision with its reason (RO-6.5); once results are published every change is
  one: a slip typed again (target ``slip``, the slip stored just before it, flagged ``decided``), ranking points
  (``points``), the provisional results withdrawn (``publication``), an earlier decision revoked (``decision``).
- ``sanction``: a disciplinary warning (RO-6.4) or an elimination for cheating (RO-7.1).
- ``correction``: the record that a correction was run and what it gave (the state itself is always replayed).
- ``publication``: provisional results with the deadline for contests, then the final ranking (RO-5.5.j).
- ``maximum``: the best line a search found for the game's groups and lots, with its bound (not a judgement:
  stored so the results need not search again; the latest one for the current lots is shown).
- ``clock``: a timer started, paused or resumed at the server's time (RO-4.3; :mod:`.clock`).
- ``announced``: the arbiter has read out a group, or the quick second reading (RO-5.2.f–g).

Boards, scores and rankings are never stored: :meth:`AnticipationGame.replay` derives them from the events,
the
same way every time. Every event is committed before anything is computed from it.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from arbitru.engine.lexicon import Lexicon
from arbitru.engine.tiles import Alphabet, alphabet
from arbitru.errors import ArbitruError, JournalError, LexiconError
from arbitru.formats import fairness, payload
from arbitru.formats.anticipation.clock import (
    Timer,
    announced_groups,
    check_timer,
    fold_timers,
    timer_seconds,
    timer_turn,
    turn_timer,
)
from arbitru.formats.anticipation.correction import Correction, Setup, SlipEntry
from arbitru.formats.anticipation.draw import (
    Draw,
    GroupRules,
    GroupsError,
    draw_groups,
    group_problems,
    parse_group,
)
from arbitru.formats.anticipation.order import Action, Change, HallOrder, OrderError, Published, why_not_change
from arbitru.formats.anticipation.ranking import rank, ranking_points
from arbitru.formats.anticipation.slips import Slip, SlipFileError, check_row, read_slips_csv
from arbitru.formats.anticipation.turns import Lot, TurnOrder
from arbitru.formats.anticipation.variants import GROUPS, TURNS, Settings
from arbitru.formats.anticipation.verdicts import Decision, PlayerResult, Sanction
from arbitru.formats.countdown import CLOCK_ACTIONS
from arbitru.formats.players import Seat, resolve
from arbitru.formats.receipt import MAX_SLIPS_PER_MOVE, KeyReused, Receipt, TooManySlips, check_key
from arbitru.formats.refusal import Refusal
from arbitru.journal import sealed
from arbitru.journal.store import Event, Journal, action, new_game_id
from arbitru.messages import Text
from arbitru.textinput import InputError, ascii_number, check_text, csv_rows

FORMAT = "anticipation"
DECISION_TARGETS = {
    "placement": ("valid", "invalid", "as"),
    "warning": ("cancel",),
    "penalty": ("cancel", "set"),
    "discipline": ("cancel",),
    "total": ("adjust",),
    "late": ("accept", "refuse"),  # a slip handed in after its turn's time (RO-6.5)
    "slip": ("replace",),  # a slip typed again once results are published: the slip event it names counts (RO-6.5)
    "points": ("set",),  # a player's ranking points of the final ranking (RO-5.5.j)
    "publication": ("withdraw",),  # the provisional results withdrawn: the game goes on (RO-5.5.j)
    "decision": ("revoke",),  # an earlier decision no longer applies (RO-6.5)
}
#: the decisions that change a player's result (the others: the publication, a revocation, ranking points)
RESULT_TARGETS = ("placement", "warning", "penalty", "discipline", "total", "late", "slip")

#: the most tables without a slip a turn's line of :meth:`AnticipationGame.unfinished` names
NAMED_ABSENT = 30

_LEXICONS: dict[str, Lexicon] = {}
_REGISTERED: dict[str, str] = {}


@dataclass(frozen=True)
class _Slips:
    """The slips of a game as :meth:`AnticipationGame.hand_in` needs them, folded from the journal: ``upto`` the
    seq up to which they were read; ``known`` (player, turn) -> the seq of the last slip stored; ``handed`` ->
    how many the player handed in himself; ``keyed`` (player, idempotency key) -> the seq of the slip first stored
    with that key and the seq of the slip it replaced then (None: none)."""

    upto: int = 0
    known: dict[tuple[str, int], int] = field(default_factory=dict)
    handed: dict[tuple[str, int], int] = field(default_factory=dict)
    keyed: dict[tuple[str, str], tuple[int, int | None]] = field(default_factory=dict)


#: per journal, game (and its creation time): its slips folded so far (:class:`_Slips`)
_STORED_SLIPS: dict[tuple[str, str, str], _Slips] = {}
_SLIPS_LOCK = threading.Lock()
#: per journal, game (and its creation time) and decision: its effect (a decision's effect never changes)
_EFFECTS: dict[tuple[str, str, str, int], Effect] = {}


@dataclass(frozen=True)
class Effect:
    """What a decision did to its player's result (RO-6.5): total, place and ranking points just before it and
    with it."""

    seq: int
    player: str
    total: tuple[int, int]
    place: tuple[int | None, int | None]
    points: tuple[int | None, int | None] = (None, None)

    @property
    def changed(self) -> bool:
        return self.total[0] != self.total[1] or self.place[0] != self.place[1] or self.points[0] != self.points[1]


def forget_game(journal_path: str, game_id: str) -> None:
    """Forget what this process keeps of game ``game_id`` of the journal ``journal_path`` (its slips read so far,
    its decisions' effects): read from the journal again when next needed (a server forgetting a training game it
    no longer keeps in memory)."""
    with _SLIPS_LOCK:
        for slips in [k for k in _STORED_SLIPS if k[0] == journal_path and k[1] == game_id]:
            del _STORED_SLIPS[slips]
        for effect in [k for k in _EFFECTS if k[0] == journal_path and k[1] == game_id]:
            del _EFFECTS[effect]


def register_lexicon(lexicon: Lexicon, name: str | None = None) -> None:
    """Make a word list known by name in this process (tests; lists built in memory)."""
    _LEXICONS[name or lexicon.name] = lexicon
    _REGISTERED[name or lexicon.name] = lexicon.alphabet.lang


def registered_names(lang: str) -> list[str]:
    """The lists of ``lang`` made known by :func:`register_lexicon` in this process (not the files cached)."""
    return [name for name, of in _REGISTERED.items() if of == lang]


def resolve_lexicon(spec: str, alpha: Alphabet | None = None) -> Lexicon:
    """The word list a game names: one registered in this process, a file (``.kwg`` or words), or an
    official list from the catalog (RO-2).

    :raises LexiconError: when it cannot be found.
    """
    alpha = alpha or alphabet("ro")
    if not spec:
        raise LexiconError("the game names no word list (RO-2): give --lexicon")
    if spec in _LEXICONS:
        return _LEXICONS[spec]
    path = Path(spec)
    if path.is_file():
        if path.suffix == ".kwg":
            lex = Lexicon.load(path, alpha)
        else:
            words = path.read_text("utf-8").split()
            lex = Lexicon.from_words(words, alpha, name=path.stem)
        _LEXICONS[spec] = lex
        return lex
    try:
        from arbitru.lexicons.catalog import load
    except ImportError:
        raise LexiconError(
            f"no word list {spec!r}: not a file, and the official lists are not installed"
        ) from None
    try:
        lex = load(spec)
    except ArbitruError:
        raise
    except Exception as e:  # the catalog's own errors, whatever they are
        raise LexiconError(f"cannot load the word list {spec!r}: {e}") from None
    _LEXICONS[spec] = lex
    return lex


# --- the replayed state -------------------------------------------------------------------------------------


def secret_draw(rules: GroupRules, game_id: str | None = None) -> tuple[fairness.Seal, Draw]:
    """The groups of a game about to be created (``game_id``, default a new id), drawn from a new secret
    (RO-5.2.d–e): pass both to :meth:`AnticipationGame.create`."""
    seal = fairness.Seal.new(game_id or new_game_id())
    return seal, draw_groups(rules, rng=seal.rng(fairness.GROUPS_LABEL))


def results_shown(stage: str, *, staff: bool) -> bool:
    """Whether results, ranking and sheets may be shown at this ``stage`` of publication: to the arbiter and the
    desks (``staff``, who correct them) always, to the players and the public only once provisional results are
    published (RO-5.5.j)."""
    return staff or stage != "in play"


@dataclass
class GameState:
    """Everything replayed from the journal; ``results`` per player, ``ranking`` in order."""

    game_id: str
    settings: Settings
    alpha: Alphabet
    lexicon_name: str
    draw: Draw | None
    order: TurnOrder
    seating: dict[str, int]
    names: dict[str, str]
    blind: dict[str, list[list[int]]]
    slips: dict[tuple[str, int], SlipEntry]
    unattributed: list[tuple[str, SlipEntry]]
    decisions: list[Decision]
    sanctions: list[Sanction]
    corrections: list[dict[str, Any]]
    publications: list[dict[str, Any]] = field(default_factory=list)
    maximum: dict[str, Any] | None = None  # the latest ``maximum`` event for these lots
    results: dict[str, PlayerResult] = field(default_factory=dict)
    ranking: list[PlayerResult] = field(default_factory=list)
    last_seq: int = 0
    #: slips handed in after their turn's time that the arbiter has not accepted (RO-6.5): kept, not counted
    late: list[SlipEntry] = field(default_factory=list)
    #: slips typed again once results were published, each counted when its decision (target ``slip``) stands
    decided: list[SlipEntry] = field(default_factory=list)
    #: the decisions a later one revoked: their seq -> the revoking decision's seq (RO-6.5)
    revoked: dict[int, int] = field(default_factory=dict)
    #: the publications a decision withdrew (RO-5.5.j)
    withdrawn: list[dict[str, Any]] = field(default_factory=list)

    def in_force(self) -> list[Decision]:
        """The decisions that apply: every one a later decision has not revoked."""
        return [d for d in self.decisions if d.seq not in self.revoked]

    def ranking_points(self) -> dict[str, int]:
        """The ranking points of the final ranking (RO-5.5.j), as corrected by the decisions since; none before it."""
        last = self.publications[-1] if self.publications else {}
        points = last.get("points") if last.get("stage") == "final" else None
        if not isinstance(points, dict):
            return {}
        out = {str(k): int(v) for k, v in points.items()}
        for d in self.in_force():
            if d.target == "points" and d.points is not None:
                out[d.player] = d.points
        return out

    def late_undecided(self) -> list[SlipEntry]:
        """Late slips the arbiter has not ruled on yet (RO-6.5)."""
        said = {(d.player, d.turn) for d in self.in_force() if d.target == "late"}
        return [e for e in self.late if (e.slip.player, e.slip.turn) not in said]

    def ranked(self) -> list[PlayerResult]:
        """The ranking as published: an eliminated player is not in it (RO-5.5.k: he leaves the hall and does not
        figure in the ranking; RO-6.4, RO-7.1)."""
        return [r for r in self.ranking if not r.eliminated]

    def eliminated(self) -> list[PlayerResult]:
        """The players eliminated (RO-5.5.k, RO-6.4, RO-7.1), each with why: listed apart, never ranked."""
        return [r for r in self.ranking if r.eliminated]

    def players(self) -> list[str]:
        found = dict.fromkeys(sorted(self.seating, key=lambda p: (self.seating[p], p)))
        for player, _turn in self.slips:
            found.setdefault(player)
        for player, _ in self.unattributed:
            found.setdefault(player)
        for player in self.blind:
            found.setdefault(player)
        for s in self.sanctions:
            found.setdefault(s.player)
        return list(found)

    @property
    def stage(self) -> str:
        """``in play``, ``provisional`` (contests until the deadline) or ``final`` (RO-5.5.j)."""
        return self.publications[-1]["stage"] if self.publications else "in play"

    def results_shown(self, *, staff: bool) -> bool:
        """Whether results, ranking and sheets may be shown (RO-5.5.j, :func:`results_shown`)."""
        return results_shown(self.stage, staff=staff)

    def groups_text(self) -> list[str]:
        return self.draw.labels(self.alpha) if self.draw else []

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain data (``results --json``); the same events always give the same data."""
        return {
            "game": self.game_id,
            "settings": self.settings.to_dict(),
            "lexicon": self.lexicon_name,
            "groups": self.groups_text(),
            "lots": [self.order.lots[t].to_payload() for t in sorted(self.order.lots)],
            "players": [
                self.results[r.player].to_dict() | {"name": self.names.get(r.player, r.player)}
                for r in self.ranking
            ],
            "decisions": [d.__dict__ for d in self.decisions],
            "corrections": self.corrections,
            "publications": self.publications,
            "stage": self.stage,
            "events": self.last_seq,
        } | ({"maximum": self.maximum_summary()} if self.maximum else {}) | (
            {"revoked": self.revoked, "withdrawn": self.withdrawn} if self.revoked or self.withdrawn else {})

    def maximum_summary(self) -> dict[str, Any]:
        """The stored maximum and each ranked player's total as a percentage of it."""
        assert self.maximum is not None
        top = self.maximum["total"]
        return {
            "seq": self.maximum["seq"],
            "total": top,
            "bound": self.maximum["bound"],
            "beam": self.maximum["beam"],
            "percent": {r.player: round(100 * r.total / top, 1) if top else None for r in self.ranking},
        }

    def digest(self) -> str:
        data = json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(data.encode()).hexdigest()[:16]


# --- the game -----------------------------------------------------------------------------------------------


class AnticipationGame:
    """One anticipation game in a journal: record events, replay state."""

    def __init__(self, journal: Journal, game_id: str, lexicon: Lexicon | None = None) -> None:
        info = journal.game(game_id)
        if info.format != FORMAT:
            raise JournalError(f"game {game_id!r} is a {info.format} game, not an anticipation game")
        self.journal = journal
        self.id = game_id
        try:
            self.settings = Settings.from_dict(dict(payload.mapping(info.settings, "the settings")))
            self.alpha = alphabet(self.settings.lang)
        except (ValueError, TypeError) as e:
            raise JournalError(f"game {game_id}: settings that cannot be read: {e}") from None
        self._lexicon = lexicon

    def refresh(self) -> None:
        """Nothing to fold in: every action reads the journal afresh inside its transaction."""

    def reload(self) -> None:
        """Nothing cached to rebuild after a failed action."""

    @property
    def lexicon(self) -> Lexicon:
        if self._lexicon is None:
            self._lexicon = resolve_lexicon(self.settings.lexicon, self.alpha)
        return self._lexicon

    @classmethod
    def create(
        cls,
        journal: Journal,
        settings: Settings,
        draw: Draw | None,
        *,
        lexicon: Lexicon | None = None,
        seating: Sequence[tuple[str, int, str]] = (),
        game_id: str | None = None,
        seal: fairness.Seal | None = None,
    ) -> AnticipationGame:
        """Register the game with its draw (checked again against the rules) and, optionally, its seating.

        A game without a known seed draws its lots (and, method ``secret``, drew its groups) from a secret: the
        ``seal`` the groups were drawn from (:func:`secret_draw`), or a new one; its commitment goes into the
        settings and the secret into the store (:mod:`arbitru.journal.sealed`), in one transaction."""
        alpha = alphabet(settings.lang)
        if settings.commitment:
            raise GroupsError(["a game's commitment is made when it is created, not given"])
        if draw is not None and draw.method == "secret" and seal is None:
            raise GroupsError(["groups drawn from a secret come with it (secret_draw)"])
        if settings.seed is None:
            seal = seal or fairness.Seal.new(game_id or new_game_id())
            if game_id is not None and game_id != seal.game_id:
                raise GroupsError([f"the draw's secret is for game {seal.game_id}, not {game_id}"])
            settings, game_id = replace(settings, commitment=seal.commitment), seal.game_id
        elif seal is not None:
            raise GroupsError(["a game drawn from a known seed has no secret"])
        if settings.variant == "blind":
            if draw is not None:
                raise GroupsError(
                    ["the blind variant has no common draw: each player hands in his own groups (RO-8.4)"]
                )
        else:
            if draw is None:
                raise GroupsError(["a game needs its groups: a seeded draw or groups entered by hand"])
            lex = lexicon or resolve_lexicon(settings.lexicon, alpha)
            problems = group_problems(GroupRules.for_settings(settings, alpha, lex), draw.groups)
            if problems:
                raise GroupsError(problems)
        events: list[tuple[str, dict[str, Any]]] = []
        if draw is not None:
            events.append(("draw", draw.to_payload(alpha)))
        if seating:
            events.append(("seating", _seating_payload(seating)))
        with journal.transaction():
            gid = journal.create_game(FORMAT, settings.to_dict(), game_id)
            if seal is not None:
                sealed.keep(journal, gid, seal.secret)
            if events:
                journal.append_many(gid, events)
        return cls(journal, gid, lexicon)

    def draw_source(self) -> fairness.Source:
        """Where the lots the program draws come from: the game's secret, its known seed, or (journals before
        secrets) its id.

        :raises ArbitruError: when the secret is not in this journal's store (a game copied without it).
        """
        if self.settings.commitment:
            secret = sealed.secret_of(self.journal, self.id)
            if secret is None:
                raise ArbitruError(Text("the secret of game %(game)s is not in this journal: its lots cannot be "
                                        "drawn here", game=self.id))
            return fairness.Seal(self.id, secret)
        return fairness.KnownSeed(self.settings.seed if self.settings.seed is not None else self.id)

    # --- recording ------------------------------------------------------------------------------------------

    def _events(self) -> list[Event]:
        return self.journal.events(self.id)

    def draw(self) -> Draw | None:
        """The game's groups (None in the blind variant)."""
        for e in self.journal.iter_events(self.id, "draw"):
            return Draw.from_payload(self.alpha, e.payload)
        return None

    def order(self) -> TurnOrder:
        order = TurnOrder()
        for e in self.journal.iter_events(self.id, "lot"):
            order.add(Lot.from_payload(e.payload))
        return order

    def hall(self, now: float | None = None) -> HallOrder:
        """Where the game stands in the hall at the server time ``now`` (default: now): what is allowed."""
        groups, recap = self.announced()
        return HallOrder(
            self.settings.variant == "blind",
            groups,
            recap,
            self.timers(),
            frozenset(self.order().lots),
            time.time() if now is None else now,
            own_pace=self.settings.training,
            stage=self.published().stage,
        )

    def published(self) -> Published:
        """The publications in force (RO-5.5.j): those a decision withdrew left out."""
        out = Published()
        # only these two kinds, read by kind (every slip asks this: the game's other events are not decoded)
        events = [*self.journal.iter_events(self.id, "publication"), *self.journal.iter_events(self.id, "decision")]
        for e in sorted(events, key=lambda e: e.seq):
            out.fold(e.kind, e.seq, e.payload)
        return out

    def refuse(self, change: Change) -> None:
        """:raises OrderError: when ``change`` is not allowed at the game's stage of publication (RO-5.5.j, RO-6.5)."""
        refusal = why_not_change(self.published().stage, change)
        if refusal is not None:
            raise OrderError(refusal)

    def check(self, act: Action, timer: str = "", now: float | None = None) -> None:
        """:raises OrderError: when the order of the game does not allow ``act`` now, naming the rule."""
        refusal = self.hall(now).why_not(act, timer)
        if refusal is not None:
            raise OrderError(refusal)

    @action
    def draw_lot(
        self, turn: int | None = None, group: int | None = None, drawn_by: str | None = None, now: float | None = None
    ) -> Lot:
        """Record a lot: ``group`` as drawn in the hall, or drawn now from the game's seed (RO-5.3); not while
        the analysis or the previous turn's time runs (RO-4.3, :mod:`.order`)."""
        self.check(Action.LOT, now=now)
        order = self.order()
        turn = turn if turn is not None else order.next_turn()
        if turn is None:
            raise ArbitruError(f"all {TURNS} lots are drawn")
        by = drawn_by or f"table {turn}"
        if group is None and self.settings.lots_from:
            group = self._past_lot(turn, order)
        if group is None:
            lot = order.draw(turn, self.draw_source(), by)
        else:
            order.check(turn, group)
            lot = Lot(turn, group, by)
        self.journal.append(self.id, "lot", lot.to_payload())
        return lot

    def _past_lot(self, turn: int, order: TurnOrder) -> int | None:
        """The group the game named in ``lots_from`` drew in ``turn`` (None when it has no such lot left)."""
        if self.settings.past_lots:
            kept = self.settings.past_lots[turn - 1] if turn <= len(self.settings.past_lots) else None
            return kept if kept in order.remaining() else None
        try:
            past = AnticipationGame(self.journal, self.settings.lots_from).order().lots.get(turn)
        except JournalError:
            return None
        return past.group if past is not None and past.group in order.remaining() else None

    @action
    def draw_all_lots(self, drawn_by: str | None = None) -> list[Lot]:
        """Every remaining lot at once (games whose groups are sent ahead, RO-4.4; never in a timed game)."""
        self.check(Action.ALL_LOTS)
        lots = []
        while self.order().next_turn() is not None:
            lots.append(self.draw_lot(drawn_by=drawn_by))
        return lots

    @action
    def add_seating(self, seating: Sequence[tuple[str, int, str]]) -> int:
        return self.journal.append(self.id, "seating", _seating_payload(seating))

    def last_table(self) -> int:
        """The last table taken (0 before any seating): a late entry sits at the next one (RO-5.1)."""
        return max((t for s in self.seats() if (t := ascii_number(s.table)) is not None), default=0)

    @action
    def enter_late(self, player: str, name: str = "") -> tuple[str, int, str]:
        """RO-5.1: a late entry sits at the last tables: the table after the last one taken (a ``seating`` event
        of his own). The turns played before he came have no slip of his: they score 0. Refused once results are
        published (RO-5.5.j).

        :raises ArbitruError: for a player seated already, or results published.
        """
        player, name = player.strip(), name.strip()
        if not player:
            raise ArbitruError(Text("a seated player needs a name or id"))
        check_text(player, "player")
        check_text(name, "name")
        if any(True for _ in self.journal.iter_events(self.id, "publication")):
            raise OrderError(Refusal("RO-5.5.j", Text("the results are published: nobody enters the game now")))
        taken = {s.number: s.table for s in self.seats()}
        if player in taken:
            raise ArbitruError(Text("%(player)s is seated already, at table %(table)s", player=player,
                                    table=taken[player]))
        table = self.last_table() + 1
        self.journal.append(self.id, "seating", _seating_payload([(player, table, name)]) | {"late": True})
        return player, table, name or player

    @action
    def set_blind_groups(self, player: str, groups: Sequence[Sequence[int]]) -> int:
        """A player's sealed groups (RO-8.4), checked against the rules and the tile set."""
        return self.hand_in_blind_groups({player: groups})[0]

    @action
    def hand_in_blind_groups(self, sets: Mapping[str, Sequence[Sequence[int]]]) -> list[int]:
        """The sealed groups of one or more players (RO-8.4), each set checked against the rules and the tile
        set; one bad set stores none (one transaction). Sealed groups are handed in before the game: once a lot
        is drawn, or for a player whose groups are in already, they are refused.

        :raises GroupsError: naming every problem of every set.
        """
        if self.settings.variant != "blind":
            raise ArbitruError("only the blind variant has players' own groups (RO-8.4)")
        lots = self.order().lots
        if lots:
            raise ArbitruError(
                f"RO-8.4: sealed groups are handed in before the game starts; the lot of turn {min(lots)} is "
                "drawn already"
            )
        handed_in = {e.payload.get("player") for e in self.journal.iter_events(self.id, "blind_groups")}
        rules = GroupRules.for_settings(self.settings, self.alpha, self.lexicon)
        problems = []
        for player, groups in sets.items():
            if player in handed_in:
                problems.append(f"{player}: sealed groups are handed in already (RO-8.4)")
            problems.extend(group_problems(rules, groups, who=player))
        if problems:
            raise GroupsError(problems)
        events = [
            ("blind_groups", {"player": player, "groups": [self.alpha.format(g) for g in groups]})
            for player, groups in sets.items()
        ]
        return self.journal.append_many(self.id, events)

    @action
    def enter_slips(self, slips: Sequence[Slip], *, replace: bool = False) -> list[int]:
        """Store slips exactly as written, all in one transaction; nothing is computed before they are stored.

        :raises SlipFileError: when a slip of the same player and turn is already stored and ``replace`` is
        not set.
        :raises OrderError: once results are published: a slip then changes only by a decision of the chief
            arbiter (:meth:`decide_slip`, RO-6.5).
        """
        self.refuse(Change.SLIP)
        if not replace:
            stored = self._stored_slips()
            for s in slips:
                key = (s.player, s.turn)
                if s.turn is not None and key in stored:
                    line = s.rows[0].line if s.rows else "?"
                    raise SlipFileError(Text(
                        "line %(line)s: a slip of %(player)s for turn %(turn)s is already stored (event #%(seq)s); "
                        "%(how)s", line=line, player=s.player, turn=s.turn, seq=stored[key],
                        how=Text("use %(option)s to re-enter it", option="--replace")))
        for s in slips:
            for row in s.rows:
                check_row(row)
        return self.journal.append_many(self.id, [("slip", s.to_payload()) for s in slips])

    @action
    def decide_slip(self, slip: Slip, reason: str, *, by: str = "chief arbiter") -> int:
        """Once results are published, a slip typed again is a decision of the chief arbiter on a contest (RO-6.5):
        the slip is stored exactly as typed, flagged ``decided``, and the decision naming it with its reason right
        after it, in one transaction; the slip counts while the decision stands (a later decision may revoke it).
        Returns the decision's seq.

        :raises OrderError: once the ranking is final (RO-5.5.j).
        :raises ArbitruError: without a reason, a turn, or for a player not seated.
        """
        if not reason.strip():
            raise ArbitruError(Text("a decision needs its reason (RO-6.5)"))
        if slip.turn is None or not 1 <= slip.turn <= TURNS:
            raise ArbitruError(f"turns are 1 to {TURNS}")
        self.refuse(Change.DECISION)
        for row in slip.rows:
            check_row(row)
        player = self.seat(slip.player).number
        with self.journal.transaction(self.id):
            seq = self.journal.append(self.id, "slip", slip.to_payload() | {"player": player, "decided": True})
            return self._decision({"player": player, "target": "slip", "action": "replace", "reason": reason,
                                   "by": by, "turn": slip.turn, "event": seq})

    def _decision(self, data: dict[str, Any]) -> int:
        full = {"turn": None, "index": None, "position": None, "word": None, "points": None, "event": None} | data
        try:  # what replay reads back, checked before it is stored
            Decision.from_payload(0, full)
        except payload.PayloadError as e:
            raise ArbitruError(f"decision: {e}") from None
        return self.journal.append(self.id, "decision", full)

    def _stored_slips(self) -> dict[tuple[str, int], int]:
        """(player, turn) -> seq of the slips stored (:meth:`_slips_read`)."""
        return self._slips_read().known

    def _slips_read(self) -> _Slips:
        """The slips stored (:class:`_Slips`): (player, turn) -> seq of the last one, -> how many the player handed
        in himself (the event's actor ``player:…``: his browser, the API; not a desk's nor a decision's), and the
        idempotency keys his slips were sent with, folded incrementally: desks enter thousands of slips a game one
        by one, and each entry must not decode every earlier one again (nor a keyed slip read every slip event)."""
        info = self.journal.game(self.id)
        key = (self.journal.path, self.id, info.created)
        with _SLIPS_LOCK:
            read = _STORED_SLIPS.get(key, _Slips())
        upto = read.upto
        if upto > self.journal.last_seq(self.id):  # another journal in the same place: start again
            read = _Slips()
            upto = 0
        known, handed, keyed = dict(read.known), dict(read.handed), dict(read.keyed)
        for e in self.journal.iter_events(self.id, "slip", after=upto):
            if e.payload.get("turn") is not None and not e.payload.get("decided"):
                slot = (e.payload["player"], e.payload["turn"])
                sent_with = e.payload.get("key")
                if isinstance(sent_with, str) and sent_with and (slot[0], sent_with) not in keyed:
                    keyed[(slot[0], sent_with)] = (e.seq, known.get(slot))
                known[slot] = e.seq
                if e.actor.startswith("player:"):
                    handed[slot] = handed.get(slot, 0) + 1
            upto = e.seq
        read = _Slips(upto, known, handed, keyed)
        with _SLIPS_LOCK:
            _STORED_SLIPS[key] = read
        return read

    @action
    def import_slips_csv(
        self, text: str, *, turn: int | None = None, replace: bool = False, source: str = ""
    ) -> list[int]:
        seating = self._seating_players()
        slips = read_slips_csv(text, turn=turn, players=seating or None, source=source)
        if not slips:
            raise SlipFileError("the file holds no slip")
        return self.enter_slips(slips, replace=replace)

    def seats(self) -> list[Seat]:
        """The seated players, by table (RO-5.1)."""
        seats: dict[str, Seat] = {}
        for e in self.journal.iter_events(self.id, "seating"):
            for p in e.payload.get("players", ()):
                if isinstance(p, dict):
                    player = str(p.get("player"))
                    seats[player] = Seat(player, str(p.get("name") or ""), str(p.get("table") or ""))

        def by_table(s: Seat) -> tuple[int, str]:
            table = ascii_number(s.table)
            return (10**9 if table is None else table, s.number)

        return sorted(seats.values(), key=by_table)

    def seat(self, who: str) -> Seat:
        """The seated player ``who`` names (his id, or a name that is his alone); in a game with no seating,
        ``who`` as given.

        :raises PlayerError: for anyone else, with the seating.
        """
        seats = self.seats()
        return resolve(who, seats) if seats else Seat(who.strip())

    def _seating_players(self) -> list[str]:
        players: list[str] = []
        for e in self.journal.iter_events(self.id, "seating"):
            players.extend(str(p.get("player")) for p in e.payload.get("players", ()) if isinstance(p, dict))
        return players

    @action
    def decide(
        self,
        player: str,
        target: str,
        action: str,
        reason: str,
        *,
        by: str = "chief arbiter",
        turn: int | None = None,
        index: int | None = None,
        position: str | None = None,
        word: str | None = None,
        points: int | None = None,
        event: int | None = None,
    ) -> int:
        """Record a contest or appeal decision with its reason (RO-6.5); the verdict it changes stays.

        Besides the verdicts: ``points`` sets a player's ranking points once the ranking is final (RO-5.5.j);
        ``publication`` withdraws the provisional results (``player`` may be empty; the game goes on);
        ``decision`` revokes the earlier decision ``event``. A slip typed again is :meth:`decide_slip`.
        """
        if target not in DECISION_TARGETS:
            raise ArbitruError(f"unknown decision target {target!r}; known: {', '.join(DECISION_TARGETS)}")
        if action not in DECISION_TARGETS[target]:
            raise ArbitruError(
                f"a {target} decision is one of {', '.join(DECISION_TARGETS[target])}, not {action!r}"
            )
        if not reason.strip():
            raise ArbitruError(Text("a decision needs its reason (RO-6.5)"))
        if target == "slip":
            raise ArbitruError("a slip decision carries the slip typed again: decide_slip")
        if target == "publication":
            self.refuse(Change.WITHDRAW)
            last = self.published().last
            assert last is not None
            return self._decision({"player": "", "target": target, "action": action, "reason": reason, "by": by,
                                   "event": int(last["seq"])})
        if target == "decision":
            self.refuse(Change.DECISION)
            return self._decision(self._revocation(event, reason, by))
        player = self.seat(player).number
        if target == "points":
            self.refuse(Change.POINTS)
            if points is None or points < 0:
                raise ArbitruError(Text("ranking points are 0 or more"))
            return self._decision({"player": player, "target": target, "action": action, "reason": reason,
                                   "by": by, "points": points})
        self.refuse(Change.DECISION)
        if target in ("placement", "warning", "penalty", "late") and turn is None:
            raise ArbitruError(f"a {target} decision names the turn")
        if target == "placement" and index is None:
            index = 1
        if target == "placement" and action == "as" and not (position or word):
            raise ArbitruError("an 'as' decision gives the position and/or word the player meant")
        if target == "discipline" and event is None:
            raise ArbitruError("a discipline decision names the sanction's event number")
        if target == "late" and not any(
            e.payload.get("late") and e.payload.get("player") == player and e.payload.get("turn") == turn
            for e in self.journal.iter_events(self.id, "slip")
        ):
            raise ArbitruError(Text("%(player)s handed in no slip after the time of turn %(turn)s (RO-6.5)",
                                    player=player, turn=turn))
        data = {
            "player": player,
            "target": target,
            "action": action,
            "reason": reason,
            "by": by,
            "turn": turn,
            "index": index,
            "position": position,
            "word": word,
            "points": points,
            "event": event,
        }
        return self._decision(data)

    def _revocation(self, event: int | None, reason: str, by: str) -> dict[str, Any]:
        """The decision revoking decision ``event``: one that changes a result, not revoked already."""
        decisions = {e.seq: e.payload for e in self.journal.iter_events(self.id, "decision")}
        said = decisions.get(event) if event is not None else None
        if said is None or said.get("target") not in (*RESULT_TARGETS, "points"):
            raise ArbitruError(Text("no decision #%(n)s that changes a result to revoke (RO-6.5)", n=event or "?"))
        if any(p.get("target") == "decision" and p.get("event") == event for p in decisions.values()):
            raise ArbitruError(Text("decision #%(n)s is revoked already", n=event))
        return {"player": str(said.get("player", "")), "target": "decision", "action": "revoke", "reason": reason,
                "by": by, "turn": said.get("turn"), "event": event}

    def _final(self) -> int | None:
        return self.published().final()

    def finished(self) -> bool:
        """Whether the ranking is final (RO-5.5.j)."""
        return self._final() is not None

    @action
    def publish(
        self,
        stage: str,
        deadline: str = "",
        *,
        title: str = "",
        date: str = "",
        points: Sequence[int] = (),
        confirmed: bool = False,
        now: float | None = None,
    ) -> int:
        """Provisional results with the deadline for contests, then the final ranking with the ranking points
        (``points``: the organiser's scale, place 1 first) (RO-5.5.j). ``title`` and ``date`` are printed on the
        forms (Annex 3); the final ranking keeps the provisional ones unless given.

        The final ranking comes after the deadline for contests; before it (or when the deadline cannot be read
        as a time, or with no provisional results) only when ``confirmed``.

        The first publication ends the game (RO-5.5.j: results come after the game and its correction): while
        turns are not played, a turn's time runs or slips of a played turn are missing (:meth:`unfinished`), it
        is refused unless ``confirmed``; confirmed, it records the turns not played (``unplayed``), stops the
        running timers, and the hall plays nothing more (:class:`~.order.HallOrder`) until a decision withdraws
        the provisional results.
        """
        if stage not in ("provisional", "final"):
            raise ArbitruError("results are published 'provisional' or 'final'")
        if stage == "provisional" and not deadline.strip():
            raise ArbitruError("provisional results state the deadline for contests (RO-5.5.j)")
        if any(p < 0 for p in points):
            raise ArbitruError(Text("ranking points are 0 or more"))
        self.refuse(Change.PROVISIONAL if stage == "provisional" else Change.FINAL)
        now = time.time() if now is None else now
        data: dict[str, Any] = {"stage": stage, "deadline": deadline}
        if stage == "final":
            standing = self.published().last
            last = standing if standing is not None and standing.get("stage") == "provisional" else None
            if not confirmed:
                _check_deadline(last, int(last["seq"]) if last else None, now)
            title = title or (str(last.get("title", "")) if last else "")
            date = date or (str(last.get("date", "")) if last else "")
        if self.published().stage == "in play":
            gaps = self.unfinished(now)
            if gaps and not confirmed:
                raise ArbitruError(Text(
                    "RO-5.5.j: the game is not over: %(gaps)s; confirm to end it now and publish",
                    gaps="; ".join(gaps)))
            unplayed = [t for t in range(1, TURNS + 1) if t not in self.order().lots]
            if unplayed:
                data["unplayed"] = unplayed
            for timer in self.timers().values():
                if timer.running(now) or timer.state == "paused":
                    self.journal.append(self.id, "clock", {"timer": timer.name, "action": "stop", "at": now})
        state = self.replay()
        data |= {"at": now, "title": title, "date": date or _day(now)}
        data |= {"digest": state.digest(), "totals": {r.player: r.total for r in state.ranking}}
        if stage == "final":
            data["points"] = ranking_points(state.ranking, points) if points else {}
        return self.journal.append(self.id, "publication", data)

    def final_too_early(self, now: float | None = None) -> tuple[str, int | None] | None:
        """Why the final ranking would need a confirmation now (RO-5.5.j): the provisional results' deadline and
        event (``("", None)`` when none were published); None when the period for contests is over."""
        last = self.published().last
        try:
            _check_deadline(last, int(last["seq"]) if last else None, time.time() if now is None else now)
        except ArbitruError:
            return (str(last.get("deadline", "")), int(last["seq"])) if last else ("", None)
        return None

    def unfinished(self, now: float | None = None) -> list[Text]:
        """What is not over yet, said (RO-5.5.j): the turns not played, a turn whose time still runs, the seated
        players with no slip for a played turn (tables named); empty when the game is played and collected."""
        now = time.time() if now is None else now
        lots = self.order().lots
        said: list[Text] = []
        unplayed = [t for t in range(1, TURNS + 1) if t not in lots]
        if unplayed:
            said.append(Text("turns %(first)s to %(last)s are not played (no lot drawn)", first=unplayed[0],
                             last=unplayed[-1]) if len(unplayed) > 1 else
                        Text("turn %(turn)s is not played (no lot drawn)", turn=unplayed[0]))
        running = [t for t in sorted(lots) if self.timer(turn_timer(t)).running(now)]
        if running:
            said.append(Text("the thinking time of turn %(turn)s still runs", turn=running[-1]))
        seats = self.seats()
        stored = self._stored_slips()
        for turn in sorted(lots):
            absent = [s for s in seats if (s.number, turn) not in stored]
            if absent:
                tables = ", ".join(s.table or s.number for s in absent[:NAMED_ABSENT])
                said.append(Text("turn %(turn)s: %(n)s of %(m)s players have no slip (tables %(tables)s)",
                                 turn=turn, n=len(absent), m=len(seats),
                                 tables=tables + (" …" if len(absent) > NAMED_ABSENT else "")))
        return said

    @action
    def sanction(self, player: str, kind: str, reason: str, turn: int | None = None) -> int:
        """A disciplinary warning (RO-6.4) or elimination for cheating (RO-7.1)."""
        if kind not in ("disciplinary", "cheating"):
            raise ArbitruError("a sanction is 'disciplinary' (RO-6.4) or 'cheating' (RO-7.1)")
        if not reason.strip():
            raise ArbitruError("a sanction needs its reason (RO-5.5.k)")
        player = self.seat(player).number
        if turn is not None and not 1 <= turn <= TURNS:
            raise ArbitruError(f"turn {turn}: turns are 1 to {TURNS}")
        return self.journal.append(
            self.id, "sanction", {"player": player, "kind": kind, "reason": reason, "turn": turn}
        )

    @action
    def record_correction(self, state: GameState, turn: int | None = None) -> int:
        totals = {r.player: r.total for r in state.ranking}
        return self.journal.append(
            self.id,
            "correction",
            {"turn": turn, "digest": state.digest(), "totals": totals, "events": state.last_seq},
        )

    def effects(self, state: GameState) -> dict[int, Effect]:
        """Each decision's effect on its player's result (RO-6.5), by the decision's seq: the game replayed up to
        just before it and up to it (a slip typed again sits just before its decision and counts only with it).
        Computed once per decision in this process: what came before a decision never changes."""
        info = self.journal.game(self.id)
        out: dict[int, Effect] = {}
        for d in state.decisions:
            if d.target == "publication" or not d.player:
                continue
            key = (self.journal.path, self.id, info.created, d.seq)
            with _SLIPS_LOCK:
                known = _EFFECTS.get(key)
            if known is None:
                before, after = self.replay(upto=d.seq - 1), self.replay(upto=d.seq)
                b, a = before.results.get(d.player), after.results.get(d.player)
                known = Effect(d.seq, d.player, (b.total if b else 0, a.total if a else 0),
                               (b.place if b else None, a.place if a else None),
                               (before.ranking_points().get(d.player), after.ranking_points().get(d.player)))
                with _SLIPS_LOCK:
                    _EFFECTS[key] = known
            out[d.seq] = known
        return out

    @action
    def record_maximum(self, payload: dict[str, Any]) -> int:
        """Store a computed maximum (``maximum.MaximumResult.to_payload()``) so results show it."""
        lots = [lot.group for _, lot in sorted(self.order().lots.items())]
        if payload.get("lots") != lots:
            raise ArbitruError("the maximum was computed for other lots than the game's")
        return self.journal.append(self.id, "maximum", payload)
    # --- the hall: reading the draw, the chronometer, slips handed in ------------------------------------

    def timers(self) -> dict[str, Timer]:
        """Every timer started so far, folded from the ``clock`` events."""
        return fold_timers(e.payload for e in self.journal.iter_events(self.id, "clock"))

    def timer(self, name: str) -> Timer:
        check_timer(name)
        return self.timers().get(name) or Timer(name, timer_seconds(name))

    def announced(self) -> tuple[int, bool]:
        """(groups read out so far, whether the second reading is done) (RO-5.2.f–g)."""
        return announced_groups(e.payload for e in self.journal.iter_events(self.id, "announced"))

    @action
    def announce_next(self) -> dict[str, Any]:
        """The next step of reading the draw: group 1, 2, ... 15, then the quick second reading (RO-5.2.f–g)."""
        self.check(Action.ANNOUNCE)
        groups, _recap = self.announced()
        step: dict[str, Any] = {"step": "recap"} if groups >= GROUPS else {"step": "group", "group": groups + 1}
        self.journal.append(self.id, "announced", step)
        return step

    @action
    def clock(self, timer: str, act: str, now: float) -> Timer:
        """Start, pause or resume a timer at the server time ``now`` (RO-4.3, RO-5.2.h).

        A turn's timer starts once its lot is drawn; the analysis once the draw is read again (RO-5.2.g).
        """
        check_timer(timer)
        if act == "start":
            self.check(Action.START_ANALYSIS if timer_turn(timer) is None else Action.START_TURN, timer, now)
        timers = self.timers()
        current = timers.get(timer) or Timer(timer, timer_seconds(timer))
        current.apply(act, now)  # refuses what the state does not allow, before anything is stored
        self.journal.append(self.id, "clock", {"timer": timer, "action": act, "at": now})
        return current

    @action
    def hand_in(self, slip: Slip, now: float, key: str = "") -> Receipt[Slip]:
        """A slip from a player's browser at the server time ``now``: stored exactly as written; late when its
        turn's time is up or the next lot is drawn, and then flagged, never refused. A late slip counts only
        when the arbiter accepts it (a ``late`` decision with its reason, RO-6.5), and never replaces one
        handed in in time. Returns the receipt (the slip it replaces, if any).

        Once results are published (provisional or final) the game is over for the players: a slip is refused
        and nothing stored, so published results cannot move (RO-5.4.m, RO-5.5.j); what a player still has to say
        is a contest to the chief arbiter (RO-6.5).

        ``key``: the sender's idempotency key (the API's ``Idempotency-Key``, the phone form's ``key``): the same
        slip sent again with the key of a slip of the same player already stored (its first answer lost) gets that
        slip's receipt as it was given then, and nothing is stored; another slip (another turn, other placements,
        another total or note: :meth:`Slip.written`) with that key is refused, nothing stored, so that the sender
        never believes in a slip that is not in. A new slip past the
        :data:`~arbitru.formats.receipt.MAX_SLIPS_PER_MOVE` the player handed in for the turn is refused, nothing
        stored (the slip counted so far stays; a change is the arbiter's).

        :raises KeyReused: for another slip sent with the key of a stored one (field ``key``).
        :raises InputError: for a key that is none (:func:`~arbitru.formats.receipt.check_key`).
        :raises OrderError: for a turn whose lot is not drawn yet, or once results are published (naming the rule).
        :raises TooManySlips: past the player's slips for the turn.
        :raises ArbitruError: for a player not seated.
        """
        if key:
            check_key(key)
            first = self._sent_with(slip, key)
            if first is not None:
                return first
        if slip.turn is None or not 1 <= slip.turn <= TURNS:
            raise ArbitruError(f"turns are 1 to {TURNS}")
        for row in slip.rows:
            check_row(row)
        if self.published().stage != "in play":
            raise OrderError(Refusal("RO-5.5.j", Text(
                "the results are published: slips are no longer handed in; a contest goes to the chief arbiter")))
        self.check(Action.HAND_IN, turn_timer(slip.turn), now)
        self.seat(slip.player)  # only a seated player hands in a slip
        read = self._slips_read()
        if read.handed.get((slip.player, slip.turn), 0) >= MAX_SLIPS_PER_MOVE:
            raise TooManySlips()
        lots = self.order().lots
        late = self.timer(turn_timer(slip.turn)).over(now) or (slip.turn + 1) in lots
        earlier = read.known.get((slip.player, slip.turn))
        payload = slip.to_payload() | {"late": late, "received": now} | ({"key": key} if key else {})
        seq = self.journal.append(self.id, "slip", payload)
        return Receipt(slip, seq, late, earlier, kept_apart=late and earlier is not None)

    def _sent_with(self, slip: Slip, key: str) -> Receipt[Slip] | None:
        """The receipt, as it was given then, of the slip of ``slip``'s player first stored with idempotency
        ``key`` when it is ``slip`` as written; None when no slip of his was sent with that key. Found in the
        folded slips (:meth:`_slips_read`): one event read, not every slip of the game.

        :raises KeyReused: when the slip stored with that key is another one.
        """
        found = self._slips_read().keyed.get((slip.player, key))
        if found is None:
            return None
        seq, earlier = found
        event = next(self.journal.iter_events(self.id, "slip", after=seq - 1))
        first = Slip.from_payload(event.payload)
        if first.written() != slip.written():
            raise KeyReused(seq)
        late = bool(event.payload.get("late"))
        return Receipt(first, seq, late, earlier, kept_apart=late and earlier is not None)

    # --- replay ---------------------------------------------------------------------------------------------

    def replay(self, upto: int | None = None, events: Iterable[Event] | None = None) -> GameState:
        """Derive the whole state from the events (up to seq ``upto``), deterministically."""
        state = GameState(
            self.id,
            self.settings,
            self.alpha,
            self.settings.lexicon,
            None,
            TurnOrder(),
            {},
            {},
            {},
            {},
            [],
            [],
            [],
            [],
        )
        for e in events if events is not None else self.journal.iter_events(self.id):
            if upto is not None and e.seq > upto:
                break
            state.last_seq = e.seq
            with payload.folding(self.id, e.seq, e.kind):
                self._apply(state, payload.mapping(e.payload), e)
        _settle_late(state)
        _settle_decided(state)
        lexicon = self.lexicon
        state.lexicon_name = lexicon.name
        setup = Setup(
            self.settings,
            self.alpha,
            lexicon,
            state.draw.groups if state.draw else [],
            {t: lot.group for t, lot in state.order.lots.items()},
            state.seating,
            state.names,
            state.blind,
        )
        correction = Correction(setup, state.players(), state.in_force(), state.sanctions)
        for player, entry in state.unattributed:
            correction.add_unattributed(player, entry)
        for turn in range(1, TURNS + 1):
            entries = {p: e for (p, t), e in state.slips.items() if t == turn}
            correction.correct_turn(turn, entries)
        state.results = correction.finish()
        state.ranking = rank(state.results, self.settings.variant)
        return state

    def _apply(self, state: GameState, p: Mapping[str, Any], e: Event) -> None:
        if e.kind == "draw":
            state.draw = Draw.from_payload(self.alpha, p)
        elif e.kind == "seating":
            for entry in payload.mappings(p, "players"):
                player = payload.text(entry, "player")
                state.seating[player] = payload.integer(entry, "table", low=1)
                if payload.text(entry, "name", ""):
                    state.names[player] = payload.text(entry, "name")
        elif e.kind == "blind_groups":
            groups = [parse_group(self.alpha, g) for g in payload.texts(p, "groups")]
            if len(groups) != GROUPS:
                raise JournalError(f"{len(groups)} sealed groups, not {GROUPS}")
            state.blind[payload.text(p, "player")] = groups
        elif e.kind == "lot":
            state.order.add(Lot.from_payload(p))
        elif e.kind == "slip":
            slip = Slip.from_payload(p)
            if p.get("decided") and slip.turn is not None:  # counts while its decision stands (RO-6.5)
                state.decided.append(SlipEntry(e.seq, slip))
            elif p.get("late") and slip.turn is not None:  # counts once the arbiter accepts it (RO-6.5)
                state.late.append(SlipEntry(e.seq, slip))
            elif slip.turn is None:
                state.unattributed.append((slip.player, SlipEntry(e.seq, slip)))
            else:
                key = (slip.player, slip.turn)
                old = state.slips.get(key)
                replaces = [*old.replaces, old.seq] if old and old.seq is not None else []
                state.slips[key] = SlipEntry(e.seq, slip, replaces)
        elif e.kind == "decision":
            decision = Decision.from_payload(e.seq, p)
            if decision.action not in DECISION_TARGETS.get(decision.target, ()):
                raise JournalError(f"a {decision.target!r} decision cannot be {decision.action!r}")
            state.decisions.append(decision)
            if decision.target == "decision" and decision.event is not None:
                state.revoked[decision.event] = e.seq
            elif decision.target == "publication":
                state.withdrawn += [x | {"withdrawn_by": e.seq, "reason": decision.reason}
                                    for x in state.publications if x["seq"] == decision.event]
                state.publications = [x for x in state.publications if x["seq"] != decision.event]
        elif e.kind == "sanction":
            kind = payload.text(p, "kind")
            if kind not in ("disciplinary", "cheating"):
                raise JournalError(f"a sanction of kind {kind!r}")
            turn = payload.optional_integer(p, "turn", low=1, high=TURNS)
            player = payload.text(p, "player")
            # RO-6.4: without a turn, the warning stops the correction after the slips already stored
            after = max((t for who, t in state.slips if who == player), default=0)
            state.sanctions.append(Sanction(e.seq, player, kind, payload.text(p, "reason"), turn, after))
        elif e.kind == "correction":
            state.corrections.append({**p, "seq": e.seq})
        elif e.kind == "publication":
            stage = payload.text(p, "stage")
            if stage not in ("provisional", "final"):
                raise JournalError(f"a publication of stage {stage!r}")
            state.publications.append({**p, "seq": e.seq, "stage": stage, "deadline": payload.text(p, "deadline", "")})
        elif e.kind == "maximum":
            lots = [state.order.lots[t].group for t in sorted(state.order.lots)]
            if payload.items(p, "lots") == lots:  # a maximum for other lots says nothing about this game
                payload.integer(p, "total", low=0)
                state.maximum = {"seq": e.seq, **p}
        elif e.kind == "clock":  # the chronometer: no effect on the correction, but it must read
            check_timer(payload.text(p, "timer"))
            if payload.text(p, "action") not in CLOCK_ACTIONS:
                raise JournalError(f"a clock action {p.get('action')!r}")
            payload.real(p, "at")
        elif e.kind == "announced":  # how far the draw is read out (RO-5.2.f-g)
            if payload.text(p, "step") not in ("group", "recap"):
                raise JournalError(f"an announcement step {p.get('step')!r}")
            if p["step"] == "group":
                payload.integer(p, "group", low=1, high=GROUPS)
        else:
            raise JournalError(f"unknown kind {e.kind!r} in an anticipation game")


def _day(at: float) -> str:
    return datetime.datetime.fromtimestamp(at).date().isoformat()


def contest_deadline(text: str, published: float | None) -> float | None:
    """The deadline for contests as a server time: ``2026-05-01 18:30`` (ISO), or ``18:30`` on the day the
    provisional results were published; None when it cannot be read so."""
    text = text.strip()
    try:
        return datetime.datetime.fromisoformat(text).timestamp()
    except ValueError:
        pass
    match = re.fullmatch(r"(\d{1,2})[:.h](\d{2})", text)
    if match is None or published is None:
        return None
    try:
        at = datetime.time(int(match[1]), int(match[2]))
    except ValueError:
        return None
    return datetime.datetime.combine(datetime.datetime.fromtimestamp(published).date(), at).timestamp()


def _check_deadline(provisional: Mapping[str, Any] | None, seq: int | None, now: float) -> None:
    """RO-5.5.j: the final ranking is shown once the period for contests is over."""
    if provisional is None:
        raise ArbitruError(Text(
            "RO-5.5.j: provisional results with the deadline for contests come first; confirm to publish the final "
            "ranking without them"
        ))
    deadline = str(provisional.get("deadline", ""))
    at = provisional.get("at")
    ends = contest_deadline(deadline, float(at) if isinstance(at, (int, float)) else None)
    if ends is None:
        raise ArbitruError(Text(
            "RO-5.5.j: contests may be lodged until %(deadline)s (provisional results, event #%(seq)s), which is not "
            "a time arbitru can check; confirm that the period for contests is over", deadline=repr(deadline), seq=seq
        ))
    if now < ends:
        raise ArbitruError(Text(
            "RO-5.5.j: contests may be lodged until %(deadline)s (provisional results, event #%(seq)s): publish the "
            "final ranking after it, or confirm", deadline=deadline, seq=seq
        ))


def _settle_late(state: GameState) -> None:
    """RO-6.5: a slip handed in after its turn's time counts when the arbiter's last decision on it accepts it
    (it then replaces the one in time); refused or not decided yet, it stays apart in ``state.late``."""
    said = {(d.player, d.turn): d.action for d in state.in_force() if d.target == "late"}
    apart = []
    for entry in state.late:
        key = (entry.slip.player, entry.slip.turn or 0)
        if said.get(key) == "accept":
            old = state.slips.get(key)
            replaces = [*old.replaces, old.seq] if old and old.seq is not None else []
            state.slips[key] = SlipEntry(entry.seq, entry.slip, replaces)
        else:
            apart.append(entry)
    state.late = apart


def _settle_decided(state: GameState) -> None:
    """RO-6.5: a slip typed again once results were published counts while the decision naming it stands."""
    typed = {entry.seq: entry for entry in state.decided}
    for d in state.in_force():
        entry = typed.get(d.event) if d.target == "slip" and d.event is not None else None
        if entry is None:
            continue
        key = (entry.slip.player, entry.slip.turn or 0)
        old = state.slips.get(key)
        replaces = [*old.replaces, old.seq] if old and old.seq is not None else []
        state.slips[key] = SlipEntry(entry.seq, entry.slip, replaces)


def _seating_payload(seating: Sequence[tuple[str, int, str]]) -> dict[str, Any]:
    players = []
    tables: dict[int, str] = {}
    for player, table, name in seating:
        if not player.strip():
            raise ArbitruError("a seated player needs a name or id")
        if table in tables and tables[table] != player:
            raise ArbitruError(f"table {table} is given to both {tables[table]} and {player}")
        tables[table] = player
        players.append({"player": player, "table": int(table), "name": name or player})
    return {"players": players}


def read_seating_csv(text: str) -> list[tuple[str, int, str]]:
    """``player,table[,name]`` per line (a header line is allowed).

    :raises SlipFileError: naming the line and field of a problem.
    """
    out: list[tuple[str, int, str]] = []
    try:
        rows = csv_rows(text, "seating file")
    except InputError as e:
        raise SlipFileError(str(e)) from None
    for lineno, cells in rows:
        if not cells or not any(c.strip() for c in cells):
            continue
        if lineno == 1 and cells[0].strip().lower() == "player":
            continue
        if not 2 <= len(cells) <= 3:
            raise SlipFileError(f"line {lineno}: expected player,table[,name]")
        player, table = cells[0].strip(), cells[1].strip()
        name = cells[2].strip() if len(cells) > 2 else ""
        if not player:
            raise SlipFileError(f"line {lineno}, field 'player': empty")
        number = ascii_number(table)
        if number is None or number < 1:
            raise SlipFileError(f"line {lineno}, field 'table': {table!r} is not a table number")
        try:
            check_text(player, f"line {lineno}, field 'player'", "player")
            check_text(name, f"line {lineno}, field 'name'", "name")
        except InputError as e:
            raise SlipFileError(str(e)) from None
        out.append((player, number, name))
    return out
