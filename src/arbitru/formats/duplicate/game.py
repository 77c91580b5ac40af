"""A duplicate game as journal events, replayed into its state; the referee's actions append new events.

Every decision is an event in the append-only journal (:mod:`arbitru.journal.store`), written before anything
is computed from it, so the game survives a crash at any moment and replays identically:

- ``player``: ``number``, ``name``, ``table``, ``members`` (a pair, GR-1);
- ``draw``: one attempt at a rack (:class:`~arbitru.formats.duplicate.racks.Draw`), legal or not;
- ``master``: the master move: ``move``, ``position``, ``word`` (labels, blanks in lower case), ``score``,
  ``top`` (the generator's top score), ``by`` (program, referee or prepared), ``ties`` (every tied move, in
  tie-break order), ``remarks``, ``joker`` (FISE-20);
- ``slip``: a slip as written (:class:`~arbitru.formats.duplicate.slips.Slip`);
- ``ruling``: ``word``, ``valid``, ``reason``, ``rule``: the referee's decision on a word (FISE-16, GR-5D); it
  changes verdicts and scores, never the board;
- ``withdraw``: ``player``, ``after_move``: the player left (GR-7);
- ``collected``: ``move``: the arbiter closed the collection of the paper slips of the moves up to ``move``
  (FISE-8); from then on their slips change only by a decision;
- ``decision``: ``move``, ``player``, ``action``, ``reason``, ``rule``, ``slip`` or ``reverses``: the arbiter's
  decision on a closed move's slip (FISE-17, GR-5D; :mod:`.decisions`);
- ``seat``: a late entry, a new name, a disqualification (FISE-18), a reinstatement (:mod:`.seats`);
- ``end``: ``after_move``, ``reason``, ``rules``;
- ``clock``: ``move``, ``action`` (start, pause, resume), ``at`` (the server's time, seconds since the epoch):
  the clock of the open move (FISE-5, GR-5C); time left is computed from these and the time asked about.

The game's settings (rule set, language, word list, seed, rack source, variant) are fixed when it is created
(FISE-3) and stored with it. Moves are numbered from 1; a move is *open* once its rack is drawn and *closed*
when its master move is placed.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbitru.engine.board import Board
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.notation import Coordinate
from arbitru.engine.placement import Placement
from arbitru.engine.tiles import BLANK, BLANK_BIT, Alphabet, Bag, Rack, alphabet, letter_of
from arbitru.errors import ArbitruError, JournalError, NotationError, TileError
from arbitru.formats import fairness, payload
from arbitru.formats.countdown import CLOCK_ACTIONS, ClockError, Countdown, refused, unknown_action
from arbitru.formats.duplicate import announce, decisions, master, racks, variants
from arbitru.formats.duplicate.decisions import Decision
from arbitru.formats.duplicate.master import Candidate
from arbitru.formats.duplicate.order import Action, MoveOrder, SlipAction, SlipOrder, collecting, move_clock
from arbitru.formats.duplicate.racks import Draw
from arbitru.formats.duplicate.rulesets import RuleSet, RuleSetError, cited, cites
from arbitru.formats.duplicate.slips import Slip, Verdict, checked, declared_score, judge, readable
from arbitru.formats.players import PlayerError, Seat, resolve
from arbitru.formats.receipt import MAX_SLIPS_PER_MOVE, Receipt, TooManySlips
from arbitru.formats.refusal import OrderError as RefusedByOrder
from arbitru.formats.refusal import Refusal
from arbitru.journal import sealed
from arbitru.journal.store import Event, Journal, action, new_game_id
from arbitru.messages import Text, recognised
from arbitru.textinput import (
    InputError,
    check_digits,
    check_payload,
    check_text,
    csv_rows,
    is_ascii_number,
    number_order,
)

FORMAT = "duplicate"
SOURCES = ("seed", "hand", "prepared")
VARIANTS = ("standard", "joker", "sudden-death")
ENGINES = ("compiled", "reference")


class GameError(ArbitruError):
    """An action that does not fit the game's state (a master before a rack, a slip for a future move...)."""


class OrderError(GameError, RefusedByOrder):
    """An action the order of the move does not allow now (:mod:`.order`); ``rule`` names the rule."""


# --- settings ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PreparedMove:
    """One move of a prepared game (FISE-7b): the whole rack, and the move to place (None: the program's)."""

    rack: tuple[str, ...]
    move: str | None = None


@dataclass(frozen=True)
class Settings:
    """What a game is played with, fixed at creation (FISE-3)."""

    rules: RuleSet
    lang: str
    lexicon: str
    seed: str = "0"
    racks: str = "seed"
    variant: str = "standard"
    engine: str = "compiled"
    new_order: str = "draw"
    prepared: tuple[PreparedMove, ...] = ()
    title: str = ""
    #: the commitment to the game's draw secret (:mod:`arbitru.formats.fairness`): racks drawn from the secret;
    #: "" for racks from a known ``seed`` (or drawn in the hall, or prepared)
    commitment: str = ""

    def __post_init__(self) -> None:
        if self.racks not in SOURCES:
            raise GameError(f"rack source {self.racks!r}; known: {', '.join(SOURCES)}")
        if self.variant not in VARIANTS:
            raise GameError(f"variant {self.variant!r}; known: {', '.join(VARIANTS)}")
        if self.engine not in ENGINES:
            raise GameError(f"engine {self.engine!r}; known: {', '.join(ENGINES)}")
        if self.new_order not in announce.NEW_ORDERS:
            raise GameError(f"new-tile order {self.new_order!r}; known: {', '.join(announce.NEW_ORDERS)}")
        if self.racks == "prepared" and not self.prepared:
            raise GameError("a prepared game (FISE-7b) needs its racks")
        try:
            alpha = alphabet(self.lang)
        except TileError as e:
            raise GameError(str(e)) from None
        if self.variant == "joker" and alpha.blank_count == 0:
            raise GameError("duplicate with a blank (FISE-20) needs a tile set with blanks")

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["rules"] = self.rules.to_dict()
        d["prepared"] = [{"rack": list(p.rack), "move": p.move} for p in self.prepared]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Settings:
        try:
            data = dict(payload.mapping(d, "the settings"))
            rules = RuleSet.from_dict(data.pop("rules"))
            prepared = tuple(PreparedMove(tuple(p["rack"]), p.get("move")) for p in data.pop("prepared", []))
            return cls(rules=rules, prepared=prepared, **data)
        except (KeyError, TypeError, payload.PayloadError) as e:
            raise GameError(f"malformed game settings: {e}") from None

    def announcement(self) -> list[str]:
        """Everything announced before the game (FISE-3)."""
        lines = self.rules.announcement()
        lines.insert(1, f"Language: {alphabet(self.lang).name}; word list: {self.lexicon}")
        if self.variant == "joker":
            lines.append("Variant: duplicate with a blank (FISE-20): every rack holds a blank")
        elif self.variant == "sudden-death":
            lines.append("Variant: sudden death (FISE-19): a player stays in while he has the best score")
        if self.racks == "prepared":
            lines.append("Racks prepared in advance (FISE-7b): the prepared move is always placed")
        elif self.racks == "hand":
            lines.append("Racks drawn by hand in the hall")
        elif self.commitment:
            lines.append(f"Racks drawn from a secret revealed after the game; commitment (SHA-256): {self.commitment}")
        else:
            lines.append(f"Racks: {fairness.KNOWN_SEED} (seed {self.seed})")
        return lines

    @property
    def secret_draws(self) -> bool:
        """Whether the program draws the racks from the game's secret."""
        return self.racks == "seed" and bool(self.commitment)

    @property
    def known_seed(self) -> bool:
        """Whether the program draws the racks from a seed anyone may know (typed, or a journal's short seed)."""
        return self.racks == "seed" and not self.commitment


# --- state -------------------------------------------------------------------------------------------------


@dataclass
class Player:
    number: str
    name: str = ""
    table: str = ""
    members: tuple[str, ...] = ()
    withdrawn_after: int | None = None
    #: a late entry's first move (None: seated from the start); a disqualification (FISE-18); the names he had
    #: (:mod:`.seats`)
    entered_at: int | None = None
    disqualified_after: int | None = None
    disqualified_reason: str = ""
    former_names: tuple[str, ...] = ()

    def label(self) -> str:
        name = self.name or " + ".join(self.members)
        return f"{self.number} {name}".strip()

    @property
    def seat_changed(self) -> bool:
        """Whether the seat changed mid-game (a late entry, a withdrawal, a disqualification, a new name)."""
        return (self.withdrawn_after is not None or self.entered_at is not None
                or self.disqualified_after is not None or bool(self.former_names))


def pair(number: str, first: str, second: str, table: str = "") -> Player:
    """Two players sharing a board (GR-1)."""
    return Player(number, f"{first} + {second}", table, (first, second))


def player_of(number: str, name: str, table: str = "", where: str = "") -> Player:
    """A player from what was written: his number (letters and digits, at most 10), his name (a pair: ``A + B``,
    GR-1) and table; ``where`` says where it was written, for the refusal.

    :raises GameError: for a missing or malformed number.
    """
    number, name, table = number.strip(), name.strip(), table.strip()
    if not number or len(number) > 10 or not number.isalnum():
        raise GameError(Text("%(where)splayer number %(number)s: letters and digits, at most 10", where=where,
                             number=repr(number)))
    try:
        check_text(name, "name")
        check_text(table, "table")
    except InputError as e:
        raise GameError(Text("%(where)s%(why)s", where=where, why=e.said())) from None
    if "+" in name:
        first, _, second = name.partition("+")
        return pair(number, first.strip(), second.strip(), table)
    return Player(number, name, table)


def parse_player(text: str) -> Player:
    """``NUMBER:NAME[:TABLE]`` (a pair ``NUMBER:A+B``), as the CLI's ``--player`` takes it."""
    parts = text.split(":")
    if len(parts) < 2 or not parts[0].strip():
        raise GameError(f"{text!r}: write NUMBER:NAME[:TABLE] (a pair: NUMBER:NAME1+NAME2)")
    return player_of(parts[0], parts[1], parts[2] if len(parts) > 2 else "", f"{text!r}: ")


def read_players_csv(text: str, source: str = Text("players")) -> list[Player]:
    """Players from CSV: ``number,name[,table]`` per line (a header line is skipped; a pair: ``A + B``).

    :raises GameError: naming the line of a problem, or a number given twice.
    """
    out: list[Player] = []
    try:
        rows = csv_rows(text, source)
    except InputError as e:
        raise GameError(e.said()) from None
    for i, row in rows:
        cells = [c.strip() for c in row]
        if not cells or not any(cells):
            continue
        if i == 1 and not is_ascii_number(cells[0]) and cells[0].lower() in ("number", "no", "nr", "#", "player"):
            continue
        if len(cells) < 2 or not cells[0]:
            raise GameError(Text("%(source)s, line %(line)s: write number,name[,table]", source=source, line=i))
        out.append(player_of(cells[0], cells[1], cells[2] if len(cells) > 2 else "",
                             Text("%(source)s, line %(line)s: ", source=source, line=i)))
    numbers = [p.number for p in out]
    twice = sorted({n for n in numbers if numbers.count(n) > 1}, key=number_order)
    if twice:
        raise GameError(Text("%(source)s: player number %(numbers)s appears twice", source=source,
                             numbers=", ".join(twice)))
    return out


@dataclass
class Master:
    """The master move of a move, as recorded."""

    placement: Placement
    score: int
    top: int | None
    by: str
    ties: list[dict[str, Any]]
    remarks: list[str]
    new: list[tuple[int, int]]
    joker: dict[str, Any] | None = None

    @property
    def weaker(self) -> bool:
        """A weaker move than the top was placed (FISE-16: it stays)."""
        return self.top is not None and self.score < self.top


@dataclass
class MoveState:
    """One move: the board before it, every draw attempt, the rack played, the pool when it was drawn."""

    number: int
    board: Board
    draws: list[Draw] = field(default_factory=list)
    rack: tuple[int, ...] = ()
    fixed: tuple[int, ...] = ()
    master: Master | None = None
    #: tiles not yet on the board when the accepted rack was drawn (bag and rack, the fixed blank apart)
    pool: tuple[int, ...] = ()


#: why a game ended: the planned moves played, no tile left, no legal rack, no word with the tiles left (the
#: bag empty), no word after the rule set's number of new racks, the prepared racks used up, the referee
#: the events that move a game on: an action decided before one of them is stale
ADVANCING = ("draw", "master", "end")

END_KINDS = ("planned", "tiles-out", "no-legal-rack", "no-word", "no-word-redraws", "prepared-out", "referee")
#: the ends' sentences with values, to say a stored end in the reader's language (the others are messages as they are)
END_REASONS = ("the %(n)s planned moves are played", "no word after %(n)s new racks")


@dataclass
class MoveClock(Countdown):
    """The clock of one move (FISE-5, GR-5C): the countdown both formats share, numbered by its move."""

    move: int = 0


@dataclass
class End:
    after_move: int
    reason: str
    rules: tuple[str, ...]
    kind: str = "referee"


class Game:
    """The state of one duplicate game, rebuilt by folding its events in order (:meth:`apply`)."""

    def __init__(self, game_id: str, settings: Settings) -> None:
        self.id = game_id
        self.settings = settings
        self.rules = settings.rules
        self.alphabet = alphabet(settings.lang)
        alpha = self.alphabet
        self.board = Board(alpha)
        all_tiles = [t for t, n in enumerate(alpha.counts) for _ in range(n)]
        self.reserve: list[int] = []
        self.fixed: tuple[int, ...] = ()
        if settings.variant == "joker":
            # FISE-20: one blank sits on every rack, the other waits; neither is ever drawn from the bag
            all_tiles = [t for t in all_tiles if t != BLANK]
            self.fixed = (BLANK,)
            self.reserve = [BLANK] * (alpha.blank_count - 1)
        self.bag = Bag(alpha, tiles=all_tiles)
        self.rack: list[int] = list(self.fixed)
        self.moves: list[MoveState] = []
        self.players: dict[str, Player] = {}
        self.slips: dict[tuple[int, str], Slip] = {}
        #: the event of each slip handed in with an idempotency key, by (player, key): a retry is answered from it
        self.slip_keys: dict[tuple[str, str], int] = {}
        #: the event that stored each counted slip, and late slips kept apart from one handed in in time
        self.slip_seqs: dict[tuple[int, str], int] = {}
        self.late_apart: list[Slip] = []
        #: how many slips each player handed in himself (event actor ``player:N``: his phone, the API) per
        #: (move, player), replacements and late ones counted, for the moves whose collection is still open: at
        #: :data:`~arbitru.formats.receipt.MAX_SLIPS_PER_MOVE` :meth:`Session.hand_in` refuses the next
        self.handed_in: dict[tuple[int, str], int] = {}
        #: slips written for a rack replaced by a new one (FISE-16): kept in the journal, never scored
        self.set_aside: list[Slip] = []
        self._folding = 0
        #: while slips are folded before they are stored (:meth:`fold_tentatively`): how to take each back
        self._undo: list[Callable[[], None]] | None = None
        self.rulings: dict[str, tuple[bool, str, str]] = {}
        self.end: End | None = None
        self.attempt = 0
        self.no_move_redraws = 0
        self.last_seq = 0
        #: the last event that can change the results (:mod:`.results`): any but a draw, the clock, or a slip for
        #: the move still open, which count only once its master move is placed
        self.results_seq = 0
        #: the events that changed the results, with the first move each may change (``(seq, move)``, the latest
        #: :data:`RESULTS_LOG` of them; before ``results_log_from`` none is known): the results of a close reuse
        #: the rows of the moves no event since the last ones touched (:func:`~.results.compute`)
        self.results_log: list[tuple[int, int]] = []
        self.results_log_from = 0
        #: this state and the copies folded on from it (one replay of the journal): results are reused only
        #: within it
        self.lineage = next(_LINEAGES)
        self.clock = MoveClock()
        #: illegal attempts of the move being drawn, waiting for the legal one
        self._pending: list[Draw] = []
        self._init_decisions()

    # --- derived -----------------------------------------------------------------------------------------

    @property
    def move(self) -> int:
        """The number of the last move opened (0 before the first rack)."""
        return len(self.moves)

    @property
    def phase(self) -> str:
        """``over``, ``play`` (a rack is on the stand, no master yet) or ``rack`` (the next rack is due)."""
        if self.end is not None:
            return "over"
        if self.moves and self.moves[-1].master is None:
            return "play"
        return "rack"

    def pool(self) -> list[int]:
        """The tiles not yet on the board, the fixed blank apart: bag and rack."""
        return [*self.bag.tiles, *(racks.subtract(self.rack, self.fixed) or ())]

    def tile_count(self) -> int:
        """Every tile of the set, wherever it is: must always equal the set's total."""
        return len(self.bag) + len(self.rack) + self.board.tile_count() + len(self.reserve)

    def master_total(self) -> int:
        return sum(m.master.score for m in self.moves if m.master)

    def order(self, now: float) -> MoveOrder:
        """Where the move stands at the server time ``now``: rack → clock → close (:mod:`.order`)."""
        time_rule = "GR-5C" if self.rules.name == "greek" else "FISE-5"
        return MoveOrder(self.phase, self.move, self.clock_for(self.move), now, time_rule)

    def rulings_map(self) -> dict[str, bool]:
        return {w: valid for w, (valid, _, _) in self.rulings.items()}

    # --- what may change in a closed move (FISE-8, FISE-17, GR-5D: :class:`.order.SlipOrder`) ----------------

    def _init_decisions(self) -> None:
        #: the moves 1 to ``collected`` have their paper slips' collection closed by the arbiter (FISE-8)
        self.collected = 0
        #: the arbiter's decisions on closed moves' slips, in order (:mod:`.decisions`)
        self.decisions: list[Decision] = []
        self._event: Event | None = None

    def slip_order(self, move: int) -> SlipOrder:
        """How move ``move``'s slips may change now: handed in, typed, or only by the arbiter's decision."""
        closed = 1 <= move <= len(self.moves) and self.moves[move - 1].master is not None
        return SlipOrder(move, self.move, closed, self.collected, self.phase == "over")

    @property
    def collecting(self) -> int | None:
        """The move whose slips are being collected and typed now (:func:`.order.collecting`)."""
        return collecting(self.move, self.collected, self.phase == "over")

    def decision(self, seq: int) -> Decision | None:
        return next((d for d in self.decisions if d.seq == seq), None)

    def _on_collected(self, p: Mapping[str, Any]) -> None:
        move = payload.integer(p, "move", low=1)
        closed = sum(1 for m in self.moves if m.master is not None)
        if move > closed or move <= self.collected:
            raise JournalError(f"the collection of move {move} closed while moves 1–{closed} are closed and "
                               f"1–{self.collected} collected")
        self.collected = move
        # a collected move's slips are no longer handed in: their counts are forgotten
        for slot in [k for k in self.handed_in if k[0] <= move]:
            del self.handed_in[slot]

    def _on_decision(self, p: Mapping[str, Any]) -> None:
        move, player, act, reason, rule, slip, reverses = decisions.read(p)
        if move > len(self.moves) or self.moves[move - 1].master is None:
            raise JournalError(f"a decision on move {move}, which is not closed")
        event = self._event
        slot = (move, player)
        before, before_seq = self.slips.get(slot), self.slip_seqs.get(slot)
        after: Slip | None = slip
        after_seq: int | None = self._folding
        if act == "void":
            after, after_seq = None, None
        elif act == "reverse":
            target = self.decision(reverses or 0)
            if target is None or not target.standing or target.slot != slot:
                raise JournalError(f"a reversal of event {reverses}, no standing decision on move {move}, player "
                                   f"{player}")
            target.reversed_by = self._folding
            after, after_seq = target.before, target.before_seq
        if after is None:
            self.slips.pop(slot, None)
            self.slip_seqs.pop(slot, None)
        else:
            self.slips[slot] = after
            self.slip_seqs[slot] = after_seq if after_seq is not None else self._folding
        self.decisions.append(Decision(
            self._folding, move, player, act, reason, rule, event.actor if event else "",
            event.recorded if event else "", before, before_seq, after, reverses))

    # --- folding events ----------------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Fold one event into the state.

        :raises JournalError: when the event does not fit the state (a corrupt or foreign journal).
        """
        handler = getattr(self, f"_on_{event.kind.replace('-', '_')}", None)
        if handler is None:
            raise JournalError(f"game {self.id}: event {event.seq}: unknown kind {event.kind!r} in a duplicate game")
        if self._undo is not None:
            if event.kind != "slip":
                raise JournalError(f"game {self.id}: only slips are folded before they are stored, not {event.kind}")
            counters = (self.last_seq, self.results_seq, self._folding)
            self._undo.append(lambda: self._set_counters(*counters))
        self._folding = event.seq
        self._event = event
        open_move = self.move if self.phase == "play" else 0
        with payload.folding(self.id, event.seq, event.kind):
            p = payload.mapping(event.payload)
            handler(p)
        if event.kind not in ("draw", "clock") and not (event.kind == "slip" and p.get("move") == open_move):
            self.results_seq = event.seq
            self._results_changed(event.seq, event.kind, p)
        self.last_seq = event.seq

    def _results_changed(self, seq: int, kind: str, p: Mapping[str, Any]) -> None:
        """Notes the first move whose results the event folded may change: a slip's, a decision's or a master
        move's own move; the close of a collection and the game's end none (they change what may be entered, not
        what a move counts); anything else (a ruling, a player, a seat) every move."""
        if kind in ("collected", "end"):
            return
        first = payload.integer(p, "move", low=1) if kind in ("slip", "decision", "master") else 1
        self.results_log.append((seq, first))
        if len(self.results_log) > RESULTS_LOG:
            self.results_log_from = self.results_log.pop(0)[0]

    def first_changed_since(self, seq: int) -> int:
        """The first move whose results an event after ``seq`` may have changed (past the last move: none)."""
        if seq < self.results_log_from:
            return 1
        return min((first for at, first in self.results_log if at > seq), default=len(self.moves) + 1)

    def fold_tentatively(self) -> None:
        """From now on, remember how to take back each slip folded in (a batch decided before the journal says it
        is stored: :meth:`take_back` if it is not, :meth:`keep` if it is). Any other event is refused meanwhile."""
        self._undo = []

    def keep(self) -> None:
        """The slips folded tentatively are stored: forget how to take them back."""
        self._undo = None

    def take_back(self) -> None:
        """The slips folded tentatively were not stored: the state is again what it was before them."""
        undo, self._undo = self._undo or [], None
        for step in reversed(undo):
            step()
        # results computed meanwhile saw slips that are no more: none of them is reused from now on
        self.lineage = next(_LINEAGES)

    def _set_counters(self, last_seq: int, results_seq: int, folding: int) -> None:
        self.last_seq, self.results_seq, self._folding = last_seq, results_seq, folding

    def _undo_slip(self, slot: tuple[int, str], sent: tuple[str, str] | None) -> Callable[[], None]:
        """How to take back the slip about to be folded into ``slot`` (sent with the key ``sent``)."""
        slip, seq = self.slips.get(slot), self.slip_seqs.get(slot)
        keyed = self.slip_keys.get(sent) if sent else None
        apart = len(self.late_apart)
        count = self.handed_in.get(slot)

        def back() -> None:
            _restore(self.slips, slot, slip)
            _restore(self.slip_seqs, slot, seq)
            _restore(self.handed_in, slot, count)
            if sent:
                _restore(self.slip_keys, sent, keyed)
            del self.late_apart[apart:]

        return back

    def _on_player(self, p: Mapping[str, Any]) -> None:
        number = payload.text(p, "number")
        self.players[number] = Player(
            number, payload.text(p, "name", ""), payload.text(p, "table", ""), tuple(payload.texts(p, "members", ()))
        )

    def _on_withdraw(self, p: Mapping[str, Any]) -> None:
        number = payload.text(p, "player")
        after = payload.integer(p, "after_move", low=0)
        self.players.setdefault(number, Player(number)).withdrawn_after = after

    def _on_seat(self, p: Mapping[str, Any]) -> None:
        """One ``seat`` event: a late entry, a new name, a disqualification, a reinstatement (:mod:`.seats`)."""
        change = payload.text(p, "change")
        if change not in CHANGES:
            raise JournalError(f"a seat change {change!r}; known: {', '.join(CHANGES)}")
        number = payload.text(p, "player")
        if change == "enter":
            self.players[number] = Player(number, payload.text(p, "name", ""), payload.text(p, "table", ""),
                                          entered_at=payload.integer(p, "from_move", low=1))
            return
        seat = self.players.get(number)
        if seat is None:
            raise JournalError(f"a seat change for player {number}, who has no seat")
        if change == "rename":
            seat.former_names = (*seat.former_names, seat.label())
            seat.name = payload.text(p, "name")
            seat.members = ()
        elif change == "disqualify":
            seat.disqualified_after = payload.integer(p, "after_move", low=0)
            seat.disqualified_reason = payload.text(p, "reason", "")
        else:  # reinstate
            seat.withdrawn_after = seat.disqualified_after = None
            seat.disqualified_reason = ""

    def _on_draw(self, p: Mapping[str, Any]) -> None:
        if self.end is not None:
            raise JournalError("a draw after the end of the game")
        d = Draw.from_payload(self.alphabet, p)
        replacing = self.phase == "play"
        expected = self.move if replacing else self.move + 1
        if d.move != expected:
            raise JournalError(f"a draw for move {d.move} while move {expected} is due")
        pool = tuple(self.pool())
        racks.apply(self.bag, self.rack, d)
        if replacing:
            state = self.moves[-1]
        elif d.legal:
            state = MoveState(d.move, self.board.copy())
            self.moves.append(state)
        else:
            self._pending.append(d)
            self.attempt = d.attempt
            return
        state.draws.extend(self._pending)
        state.draws.append(d)
        self._pending = []
        self.attempt = d.attempt
        if d.legal:
            state.rack = d.rack
            state.fixed = d.fixed
            state.pool = pool
        if replacing and d.legal:
            self.no_move_redraws += 1
            self._set_aside(d.move)

    def _set_aside(self, move: int) -> None:
        """FISE-16: a new rack voids what was written for the old one; its slips are set aside (still in the
        journal, shown, not scored) and the move's clock goes back to full time, to be started again."""
        for key in [k for k in self.slips if k[0] == move]:
            self.set_aside.append(self.slips.pop(key))
            self.slip_seqs.pop(key, None)
        for key in [k for k in self.handed_in if k[0] == move]:  # the new rack's slips are counted afresh
            del self.handed_in[key]
        self.set_aside += [s for s in self.late_apart if s.move == move]
        self.late_apart = [s for s in self.late_apart if s.move != move]
        self.clock = MoveClock(f"move {move}", self.rules.clock.seconds, move=move)

    def _on_master(self, p: Mapping[str, Any]) -> None:
        move = payload.integer(p, "move")
        if self.phase != "play" or move != self.move:
            raise JournalError(f"a master move for move {move} while the game is at {self.phase} {self.move}")
        state = self.moves[-1]
        word = _word_from_labels(self.alphabet, payload.texts(p, "word"))
        placement = Placement(Coordinate.parse(payload.text(p, "position")), word)
        new = self.board.play(placement)
        rack = Rack(self.alphabet, self.rack)
        left = rack.take([t for _, t in new])  # raises TileError when the move is not on the rack
        self.rack = left.tiles()
        joker = self._joker(new) if self.settings.variant == "joker" else None
        recorded = p.get("joker")
        if recorded is not None:
            payload.mapping(recorded, "field 'joker'")
        if recorded is not None and joker != recorded:
            raise JournalError(
                f"move {self.move}: FISE-20 blank handling {recorded} does not replay ({joker})"
            )
        state.master = Master(
            placement,
            payload.integer(p, "score"),
            payload.optional_integer(p, "top"),
            payload.text(p, "by", "program"),
            [_tie(t) for t in payload.mappings(p, "ties", [])],
            _remarks(p),
            new,
            joker,
        )
        self.attempt = 0
        self.no_move_redraws = 0

    def _joker(self, new: list[tuple[int, int]]) -> dict[str, Any] | None:
        """FISE-20 after the master move (:func:`~arbitru.formats.duplicate.variants.joker_after_master`)."""
        action = variants.joker_after_master(self.alphabet, new, self.bag.tiles, len(self.reserve))
        if action is None:
            return None
        sq = Coordinate.parse(action["square"]).square
        if action["replaced"]:
            letter = letter_of(self.board.squares[sq])
            self.bag.remove([letter])
            self.board.squares[sq] = letter
        elif self.reserve:
            self.reserve.pop()
        if action["blank_on_rack"]:
            self.rack.append(BLANK)
            self.fixed = (BLANK,)
        else:
            self.fixed = ()
        return action

    def _on_slip(self, p: Mapping[str, Any]) -> None:
        slip = Slip.from_payload(p)
        if slip.move > self.move or slip.move < 1:
            raise JournalError(f"a slip for move {slip.move}, which is not open")
        # one slip per player and move: the number as written, spaces apart (the slip keeps them); a late
        # slip never replaces one handed in in time (FISE-5, GR-5C: it would score 0 anyway)
        key = (slip.move, slip.player.strip())
        earlier = self.slips.get(key)
        sent_with = payload.text(p, "key", "")
        if self._undo is not None:
            self._undo.append(self._undo_slip(key, (slip.player.strip(), sent_with) if sent_with else None))
        if sent_with:
            self.slip_keys[(slip.player.strip(), sent_with)] = self.last_seq + 1  # this event's seq: numbered in order
        if self._event is not None and self._event.actor.startswith("player:"):  # handed in by the player himself
            self.handed_in[key] = self.handed_in.get(key, 0) + 1
        if slip.late and earlier is not None and not earlier.late:
            self.late_apart.append(slip)
            return
        self.slips[key] = slip
        self.slip_seqs[key] = self._folding

    def _on_ruling(self, p: Mapping[str, Any]) -> None:
        self.rulings[payload.text(p, "word").upper()] = (
            payload.boolean(p, "valid"),
            payload.text(p, "reason", ""),
            payload.text(p, "rule", ""),
        )

    def _on_clock(self, p: Mapping[str, Any]) -> None:
        act, move, at = payload.text(p, "action"), payload.integer(p, "move", low=1), payload.real(p, "at")
        if self.phase != "play" or move != self.move:
            raise JournalError(f"a clock {act} for move {move} while the game is at {self.phase} {self.move}")
        clock = self.clock_for(move)
        try:
            clock.apply(act, at)
        except ClockError:
            raise JournalError(f"clock {act} while the clock of move {move} is {clock.state}") from None
        self.clock = clock

    def clock_for(self, move: int) -> MoveClock:
        """The clock of ``move`` (idle when it never started)."""
        if self.clock.move == move:
            return self.clock
        return MoveClock(f"move {move}", self.rules.clock.seconds, move=move)

    def _on_end(self, p: Mapping[str, Any]) -> None:
        kind = payload.text(p, "kind", "referee")
        if kind not in END_KINDS:
            raise JournalError(f"an end of kind {kind!r}; known: {', '.join(END_KINDS)}")
        rules = tuple(payload.texts(p, "rules", ()))
        reason = recognised(payload.text(p, "reason"), END_REASONS)
        self.end = End(payload.integer(p, "after_move", low=0), reason, rules, kind)

    # --- judging -----------------------------------------------------------------------------------------

    def verdict(self, slip: Slip, lexicon: Lexicon, alike: dict[Hashable, Verdict] | None = None) -> Verdict:
        """The verdict on a slip against the board and rack of its move. ``alike``: verdicts already given in
        this judging (same rulings): a slip of a registered player written as another one was (move, square,
        word, score, marks) is judged once, and its verdict shared but for the slip (a hall's phones write the
        same few moves)."""
        verdict = self.judged(slip, lexicon, alike)
        return verdict if verdict.slip is slip else verdict.for_slip(slip)  # another slip's: a copy of its own

    def judged(self, slip: Slip, lexicon: Lexicon, alike: dict[Hashable, Verdict] | None) -> Verdict:
        """:meth:`verdict`, but a slip written as another one was in this judging (``alike``) gets that slip's
        verdict itself, not a copy: to read its judgement only (valid, reasons, score), its ``slip`` being the
        first of them (the console's grid of ten thousand rows)."""
        state = self.moves[slip.move - 1]
        player = self.players.get(slip.player.strip())
        absent = absent_at(player, slip.move) if player else ""
        key: Hashable = None
        if alike is not None and player is not None:
            key = (slip.move, slip.position, slip.word, slip.score, slip.late, slip.illegible, absent)
            seen = alike.get(key)
            if seen is not None:
                return seen
        known = self.players.keys() if self.players else None  # looked in, never copied (a slip each)
        verdict = judge(
            slip,
            state.board,
            Rack(self.alphabet, state.rack),
            lexicon,
            self.rules,
            self.rulings_map(),
            players=known,
            absent=absent,
        )
        if key is not None and alike is not None:
            alike[key] = verdict
        return verdict

    def verdicts(self, lexicon: Lexicon, move: int | None = None) -> list[Verdict]:
        """The verdicts on the slips that count (the last one entered per player and move)."""
        out = []
        alike: dict[Hashable, Verdict] = {}
        for (m, _player), slip in sorted(self.slips.items(), key=lambda kv: (kv[0][0], number_order(kv[0][1]))):
            if move is None or m == move:
                out.append(self.verdict(slip, lexicon, alike))
        return out



#: the results-changing events a state remembers (:attr:`Game.results_log`): a paper hall's desks type hundreds of
#: slips into a closed move; older than these, a close computes every move again
RESULTS_LOG = 256
#: each state replayed from the journal, numbered (:attr:`Game.lineage`)
_LINEAGES = itertools.count(1)


def _remarks(p: Mapping[str, Any]) -> list[str]:
    """A master event's remarks (:func:`master.remark_read`): codes with values, or an older journal's texts."""
    try:
        return [master.remark_read(r) for r in payload.items(p, "remarks", [])]
    except ValueError as e:
        raise payload.PayloadError(str(e)) from None


def _tie(t: Mapping[str, Any]) -> dict[str, Any]:
    """A tied move as recorded with its master move (position, word labels, score, why it came behind)."""
    tie: dict[str, Any] = {
        "position": payload.text(t, "position"),
        "score": payload.integer(t, "score"),
        "word": payload.texts(t, "word"),
    }
    if "behind" in t:
        tie["behind"] = payload.text(t, "behind")
    return {**t, **tie}


def _word_from_labels(alpha: Alphabet, items: Sequence[str]) -> tuple[int, ...]:
    out = []
    for label in items:
        blank = label != label.upper()
        out.append(alpha.code(label.upper()) | (BLANK_BIT if blank else 0))
    return tuple(out)


def word_labels(alpha: Alphabet, word: Iterable[int]) -> list[str]:
    return [alpha.label(t) for t in word]


def replay(
    game_id: str,
    settings: Settings,
    events: Iterable[Event],
    observer: Callable[[Game, Event], None] | None = None,
) -> Game:
    """Rebuild a game from its events; ``observer`` sees the state after each one (audits use it)."""
    game = Game(game_id, settings)
    for event in events:
        game.apply(event)
        if observer is not None:
            observer(game, event)
    return game


# --- the referee's actions ---------------------------------------------------------------------------------


@dataclass
class Step:
    """What an action did, for the CLI and the web app to show."""

    kind: str
    move: int
    announcement: announce.Announcement | None = None
    master: Master | None = None
    candidates: list[Candidate] = field(default_factory=list)
    draws: list[Draw] = field(default_factory=list)
    end: End | None = None
    message: str = ""


class Session:
    """A game in a journal: replays it on opening, and appends each action's events before applying them."""

    def __init__(
        self,
        journal: Journal,
        game_id: str,
        lexicon: Lexicon | None = None,
        state: Game | None = None,
        fold: bool = True,
        *,
        refresh: bool = True,
    ) -> None:
        """``state``: the game as folded earlier by this process (a server keeps it between requests); only
        the events after it are folded in (``refresh=False``: by the caller, inside its own transaction), and
        it is not to be used elsewhere meanwhile. ``fold=False``: the state is taken as it is (a snapshot that
        readers share, never changed: a session only to read)."""
        info = journal.game(game_id)
        if info.format != FORMAT:
            raise GameError(f"game {game_id} is a {info.format} game, not duplicate")
        self.journal = journal
        try:
            self.settings = Settings.from_dict(info.settings)
        except RuleSetError as e:
            raise GameError(f"game {game_id}: {e}") from None
        if lexicon is not None and lexicon.alphabet.lang != self.settings.lang:
            raise GameError(
                f"word list {lexicon.name} is for {lexicon.alphabet.lang!r}, the game is "
                f"{self.settings.lang!r}"
            )
        self.lexicon = lexicon
        self._moved_on: Event | None = None
        if state is not None and state.id == game_id:
            self.game = state
            if fold and refresh:
                self.refresh()
            self._moved_on = None
        else:
            self.game = replay(game_id, self.settings, journal.iter_events(game_id))

    def refresh(self) -> None:
        """Fold in what other writers appended since this session last looked (inside the action's
        transaction, so the checks that follow see the latest state)."""
        self._moved_on = None
        for event in self.journal.iter_events(self.id, after=self.game.last_seq):
            self.game.apply(event)
            if event.kind in ADVANCING:
                self._moved_on = event

    def _check_not_moved_on(self) -> None:
        """A rack, master move or end decided on a state another writer has moved on from is refused: two
        desks pressing "next" at once close one move, not two."""
        event = self._moved_on
        if event is not None:
            where = f"move {self.game.move} ({self.game.phase})"
            by = f" by {event.actor}" if event.actor else ""
            raise GameError(f"the game changed (event {event.seq}, {event.kind}{by}; now at {where}): try again")

    def reload(self) -> None:
        """After a failed action: its events were rolled back, so rebuild the state from the journal."""
        self.game = replay(self.id, self.settings, self.journal.iter_events(self.id))

    @classmethod
    def create(
        cls,
        journal: Journal,
        settings: Settings,
        lexicon: Lexicon | None = None,
        players: Sequence[Player] = (),
        game_id: str | None = None,
    ) -> Session:
        """Register a new game with its settings (FISE-3) and players. A game whose racks the program draws and
        that has no seed (``seed=""``) gets its secret here: its commitment goes into the settings, the secret
        into the store (:mod:`arbitru.journal.sealed`), in one transaction."""
        registered = [("player", _player_payload(p)) for p in players]  # checked before anything is stored
        for _, data in registered:
            check_payload(data, "player")
        seal = None
        if settings.racks == "seed" and not settings.seed:
            if settings.commitment:
                raise GameError("a game's commitment is made when it is created, not given")
            seal = fairness.Seal.new(game_id or new_game_id())
            settings, game_id = dataclasses.replace(settings, commitment=seal.commitment), seal.game_id
        with journal.transaction():
            gid = journal.create_game(FORMAT, settings.to_dict(), game_id)
            if seal is not None:
                sealed.keep(journal, gid, seal.secret)
            if registered:
                journal.append_many(gid, registered)
        return cls(journal, gid, lexicon)

    @classmethod
    def open_path(cls, path: Path | str, game_id: str | None, lexicon: Lexicon | None = None) -> Session:
        journal = Journal(path)
        return cls(journal, game_id or latest_game(journal), lexicon)

    @property
    def id(self) -> str:
        return self.game.id

    def draw_source(self) -> fairness.Source:
        """Where the program's racks come from: the game's secret, or its known seed.

        :raises GameError: when the secret is not in this journal's store (a game copied without it).
        """
        if not self.settings.commitment:
            return fairness.KnownSeed(self.settings.seed)
        secret = sealed.secret_of(self.journal, self.id)
        if secret is None:
            raise GameError(Text("the secret of game %(game)s is not in this journal: its racks cannot be drawn here",
                                 game=self.id))
        return fairness.Seal(self.id, secret)

    def _lexicon(self) -> Lexicon:
        if self.lexicon is None:
            raise GameError(f"this action needs the word list {self.settings.lexicon}")
        return self.lexicon

    def _append(self, events: list[tuple[str, dict[str, Any]]]) -> None:
        """Write the events (one transaction), then fold them in."""
        seqs = self.journal.append_many(self.id, events)
        for seq, (kind, data) in zip(seqs, events, strict=True):
            self.game.apply(Event(seq, kind, data, "", self.journal.actor))

    # --- players, slips, rulings -------------------------------------------------------------------------

    def seat(self, who: str) -> Seat:
        """The registered player ``who`` names: his number, or a name that is his alone.

        :raises PlayerError: for anyone else, with the players listed.
        """
        seats = [Seat(p.number, p.name, p.table) for p in self.game.players.values()]
        try:
            return resolve(who, sorted(seats, key=lambda s: number_order(s.number)))
        except PlayerError as e:
            raise GameError(str(e)) from None

    def add_slips(self, slips: Sequence[Slip], *, replace: bool = False) -> list[Verdict]:
        """Store slips as written (one transaction), then judge them. A slip for a move not yet open is
        refused (nothing stored); a bad slip is stored and judged 0 with its reasons. A player's second slip
        for a move is refused unless ``replace`` is set (then it counts, and the first stays in the journal).
        """
        self.store_slips(slips, replace=replace)
        lexicon = self._lexicon()
        alike: dict[Hashable, Verdict] = {}
        return [self.game.verdict(s, lexicon, alike) for s in slips]

    def check_slips(self, slips: Sequence[Slip], *, replace: bool = False, act: SlipAction = SlipAction.TYPE
                    ) -> None:
        """What :meth:`store_slips` checks before it stores anything, for a form to ask before it confirms: each
        slip's move against the latest state (a move not shown yet, or one whose slips change only by a decision:
        FISE-8, FISE-17), its declared score (from 0: :func:`~.slips.declared_score`), a second slip of a player
        for a move without ``replace``, and a paper slip typed over one stored for a closed move (``act`` TYPE:
        after the close a result changes only by the arbiter's decision, FISE-17; a phone's late slip is stored
        apart, ``act`` HAND_IN).

        :raises GameError: naming what is wrong (an :class:`OrderError` for the move's window).
        """
        for s in slips:
            self._check_slip_window(s.move, act)
            declared_score(s.score)
        seen: set[tuple[int, str]] = set()
        for s in slips:
            slot = (s.move, s.player.strip())  # a number as written, spaces apart, as the game keys slips
            stored = slot in self.game.slips
            if not replace and (stored or slot in seen):
                raise GameError(
                    f"player {s.player or '?'} has a slip for move {s.move} already; "
                    "re-enter it as a replacement to change it"
                )
            if stored and act is SlipAction.TYPE:
                self._check_slip_window(s.move, SlipAction.REPLACE)
            seen.add(slot)

    @action
    def store_slips(self, slips: Sequence[Slip], *, replace: bool = False, key: str = "",
                    act: SlipAction = SlipAction.TYPE) -> None:
        """Store slips as written, all or none, after checking them against the latest state
        (:meth:`check_slips`); the commit comes before anything is computed from them. ``key``: the idempotency
        key the last slip was sent with (a phone's or the API's), stored in its event so that a retry finds it."""
        self.check_slips(slips, replace=replace, act=act)
        events = [("slip", checked(s).to_payload()) for s in slips]
        if key and events:
            events[-1][1]["key"] = check_text(key, "key")
        self._append(events)

    @action
    def hand_in(self, slip: Slip, now: float, key: str = "") -> Receipt[Slip]:
        """A slip handed in by its player at the server time ``now`` (his phone, the API): late when the move's
        clock has run out or its master move is placed, and then stored flagged, never refused: it scores 0
        (FISE-5, GR-5C) and never replaces a slip handed in in time (it is kept apart). On time it replaces the
        player's earlier slip for the move (both stay in the journal). Returns the receipt.

        A slip that cannot be read (:func:`~.slips.readable`: a position that is none, no word, a character
        that is no letter, a score below 0) is refused, nothing stored: its sender writes it again. So is a slip
        past the :data:`~arbitru.formats.receipt.MAX_SLIPS_PER_MOVE` the player handed in for the move
        (:attr:`Game.handed_in`): the slip counted so far stays, a change is the arbiter's.

        :raises GameError: for a move not open; :raises InputError: for a slip that cannot be read, naming the
            field; :raises TooManySlips: past the player's slips for the move.
        """
        g = self.game
        if not 1 <= slip.move <= g.move:
            raise GameError(Text("move %(move)s is not open", move=slip.move))
        self._check_slip_window(slip.move, SlipAction.HAND_IN)
        seat = g.players.get(slip.player.strip())
        closed = refusal(seat, slip.move) if seat is not None else None
        if closed is not None:
            raise SeatClosed(closed)
        slot = (slip.move, slip.player.strip())
        if g.handed_in.get(slot, 0) >= MAX_SLIPS_PER_MOVE:  # the slips of the batch before it are folded in
            raise TooManySlips()
        readable(slip, g.alphabet, g.rules)  # his phone tells him, and he writes it again
        state = g.moves[slip.move - 1]
        late = slip.late or state.master is not None or g.clock_for(slip.move).over(now)
        earlier, earlier_seq = g.slips.get(slot), g.slip_seqs.get(slot)
        stored = dataclasses.replace(slip, late=late)
        self.store_slips([stored], replace=True, key=key, act=SlipAction.HAND_IN)
        kept_apart = late and earlier is not None and not earlier.late
        return Receipt(stored, g.last_seq, late, earlier_seq, kept_apart)

    # --- closed moves: the collection, then the arbiter's decisions (FISE-8, FISE-17, GR-5D) ------------------

    def _check_slip_window(self, move: int, act: SlipAction) -> None:
        refusal = self.game.slip_order(move).why_not(act, self.journal.actor)
        if refusal is not None:
            raise OrderError(refusal)

    @action
    def close_collection(self, move: int | None = None) -> int:
        """The arbiter closes the collection of the paper slips of ``move`` (default: the move being collected)
        and of every move before it: from then on their slips change only by a decision (FISE-8, FISE-17).
        Returns the move."""
        g = self.game
        target = g.collecting if move is None else move
        if target is None:
            raise GameError(Text("no move's slips are being collected"))
        if self.journal.actor.startswith("desk:"):
            raise OrderError(Refusal("FISE-17", Text("the arbiter closes a collection: a desk cannot")))
        self._check_slip_window(target, SlipAction.CLOSE_COLLECTION)
        self._append([("collected", {"move": target})])
        return target

    @action
    def decide(
        self,
        move: int,
        player: str,
        act: str,
        reason: str,
        rule: str = "FISE-17",
        slip: Slip | None = None,
        reverses: int | None = None,
    ) -> Decision:
        """The arbiter's decision on a closed move's slip (:mod:`.decisions`): ``act`` ``slip`` (``slip`` counts
        from now on), ``void`` (no slip counts) or ``reverse`` (the decision of event ``reverses`` is undone;
        ``move`` and ``player`` are its own), under ``rule`` FISE-17 (a claim) or GR-5D (a referee's error), with
        its ``reason``. A desk never decides; nothing is stored when it is refused.

        :raises GameError: naming what is wrong (no reason, an open move, nothing to change...).
        """
        self._append([("decision", self.decision_event(move, player, act, reason, rule, slip, reverses))])
        return self.game.decisions[-1]

    def decision_event(self, move: int, player: str, act: str, reason: str, rule: str = "FISE-17",
                       slip: Slip | None = None, reverses: int | None = None) -> dict[str, Any]:
        """The decision event :meth:`decide` would store, checked and not stored: what a form asks a confirmation
        of is refused first here (:raises GameError: as :meth:`decide`)."""
        g = self.game
        why = " ".join(reason.split())
        if not why:
            raise GameError(Text("a decision keeps its reason: write it"))
        if len(why) > decisions.MAX_REASON:
            raise GameError(Text("the reason: at most %(n)s characters", n=decisions.MAX_REASON))
        check_text(why, "reason")
        if rule not in decisions.RULES:
            raise GameError(Text("a decision is taken under %(rules)s", rules=", ".join(decisions.RULES)))
        if act not in decisions.ACTIONS:
            raise GameError(Text("a decision: %(acts)s", acts=", ".join(decisions.ACTIONS)))
        data: dict[str, Any] = {"action": act, "reason": why, "rule": rule}
        if act == "reverse":
            if reverses is None:
                raise GameError(Text("say which decision is reversed: its no. in the list of decisions"))
            target = g.decision(reverses)
            if target is None:
                raise GameError(Text("no decision was taken at event %(seq)s", seq=reverses))
            if not target.standing:
                raise GameError(Text("the decision of event %(seq)s is reversed already", seq=target.seq))
            later = [d for d in g.decisions if d.slot == target.slot and d.standing and d.seq > target.seq]
            if later:
                raise GameError(Text("a later decision (event %(seq)s) stands on this slip: reverse it first",
                                     seq=later[-1].seq))
            move, number = target.slot
            data["reverses"] = target.seq
        else:
            number = self.seat(player).number if g.players else player.strip()
        self._check_slip_window(move, SlipAction.DECIDE)
        slot = (move, number)
        if act == "void" and slot not in g.slips:
            raise GameError(Text("no slip of player %(player)s counts for move %(move)s: nothing to strike out",
                                 player=number, move=move))
        if act == "slip":
            if slip is None:
                raise GameError(Text("the slip decided: its position and word"))
            decided = checked(dataclasses.replace(slip, move=move, player=number))
            if g.slips.get(slot) == decided:
                raise GameError(Text("this is the slip that counts already: nothing changes"))
            data["slip"] = decided.to_payload()
        return {"move": move, "player": number, **data}

    @action
    def clock(self, act: str, now: float) -> MoveClock:
        """Start, pause or resume the clock of the open move at the server time ``now`` (FISE-5, GR-5C)."""
        g = self.game
        if act not in CLOCK_ACTIONS:
            raise GameError(unknown_action(act))
        order = g.order(now)
        refusal = order.why_not(Action.START_CLOCK if act == "start" else Action.PAUSE_CLOCK)
        if refusal is not None:
            raise OrderError(refusal)
        if order.clock.why_not(act):
            raise GameError(refused(act, order.clock.state, move_clock(g.move)))
        self._append([("clock", {"move": g.move, "action": act, "at": now})])
        return g.clock

    @action
    def rule(self, word: str, valid: bool, reason: str = "", rule: str = "FISE-16") -> None:
        """The referee's decision on a word: scores change, the board does not (FISE-16, GR-5D)."""
        alpha = self.game.alphabet
        try:
            key = alpha.format(letter_of(t) for t in alpha.split(word)).upper()
        except TileError as e:
            raise GameError(str(e)) from None
        self._append([("ruling", {"word": key, "valid": valid, "reason": reason, "rule": rule})])

    def challenge(self, move: int, player: str) -> Verdict:
        """GR-5D: a player may challenge only when his move makes a word of nine letters or more that is not
        in the program's list and would have scored at least the top; returns the verdict to rule on.

        :raises GameError: when the challenge is not admissible, with the reason.
        """
        slip = self.game.slips.get((move, player))
        if slip is None:
            raise GameError(f"no slip of player {player} for move {move}")
        verdict = self.game.verdict(slip, self._lexicon())
        state = self.game.moves[move - 1]
        top = state.master.top if state.master and state.master.top is not None else None
        missing = [
            w for w in verdict.words if len(self.game.alphabet.split(w)) >= 9 and w not in self._lexicon()
        ]
        if verdict.codes() != ["not-in-list"] or not missing:
            raise GameError(
                "GR-5D: only a move whose only fault is a word of 9+ letters missing from the list "
                "can be challenged"
            )
        if top is not None and (verdict.computed or 0) < top:
            raise GameError(f"GR-5D: the move scores {verdict.computed}, below the top {top}: no challenge")
        return verdict

    @action
    def end_game(self, reason: str, rules: Sequence[str] = ("FISE-13",)) -> End:
        """The referee ends the game (FISE-13: a technical problem, time, the players' wish)."""
        self._check_not_moved_on()
        if self.game.end is not None:
            raise GameError("the game is over already")
        closed = sum(1 for m in self.game.moves if m.master)
        return self._record_end(closed, reason, rules, "referee")

    # --- racks -------------------------------------------------------------------------------------------

    def _end_if_due(self) -> End | None:
        """Before a new rack: the planned number of moves, the tiles run out, no legal rack (FISE-1, FISE-4,
        FISE-13, GR-5B, GR-8.2)."""
        g = self.game
        closed = g.move
        r = self.settings.rules
        if r.moves is not None and closed >= r.moves:
            return self._record_end(
                closed, Text("the %(n)s planned moves are played", n=r.moves), cites(r, "planned"), "planned"
            )
        pool = g.pool()
        if not pool:
            return self._record_end(closed, Text("the tiles have run out"), cites(r, "tiles-out"), "tiles-out")
        if (
            racks.condition_for(
                r.racks, g.alphabet, closed + 1, g.bag.tiles, racks.subtract(g.rack, g.fixed) or (), g.fixed
            )
            is None
        ):
            v, c, _b = racks.mix_of(g.alphabet, pool)
            return self._record_end(
                closed,
                Text("no legal rack can be formed: the vowels have run out")
                if not v
                else Text("no legal rack can be formed: the consonants have run out")
                if not c
                else Text("no legal rack can be formed: the vowels or consonants have run out"),
                cites(r, "no-legal-rack"),
                "no-legal-rack",
            )
        return None

    def _record_end(self, after: int, reason: str, rules: Sequence[str], kind: str) -> End:
        payload = {"after_move": after, "reason": reason, "rules": list(rules), "kind": kind}
        self._append([("end", payload)])
        assert self.game.end is not None
        return self.game.end

    @action
    def draw(self, tiles: Sequence[int] | None = None) -> Step:
        """Open the next move: draw its rack from the seed, take the tiles the referee drew (``tiles``, hand
        racks), or the prepared rack; every attempt is journaled. In a hand game an illegal rack is recorded
        and the referee is told to draw 7 again (FISE-10).

        :raises GameError: when a rack is already on the stand or the game is over.
        :raises RackError: for tiles not in the bag or the wrong number of tiles (nothing is recorded).
        """
        self._check_not_moved_on()
        g = self.game
        refusal = g.order(time.time()).why_not(Action.DRAW)
        if refusal is not None:
            raise OrderError(refusal)
        end = self._end_if_due()
        if end is not None:
            return Step("end", g.move, end=end, message=end.reason)
        move = g.move + 1
        source = self.settings.racks
        nonfixed = list(racks.subtract(g.rack, g.fixed) or ())
        if source == "seed" and tiles is None:
            scratch = Bag(g.alphabet, tiles=g.bag.tiles)
            draws = racks.draw_seeded(
                scratch,
                nonfixed,
                g.fixed,
                move,
                self.settings.rules.racks,
                self.draw_source(),
                first_attempt=g.attempt + 1,
            )
        elif source == "prepared":
            if move > len(self.settings.prepared):
                end = self._record_end(
                    g.move, Text("the prepared racks are used up"), ("FISE-7b", "FISE-13"), "prepared-out"
                )
                return Step("end", g.move, end=end, message=end.reason)
            prepared = racks.from_labels(g.alphabet, self.settings.prepared[move - 1].rack)
            draws = [
                racks.prepared_draw(
                    g.bag, g.rack, g.fixed, move, self.settings.rules.racks, prepared, g.attempt + 1
                )
            ]
        else:
            if tiles is None:
                raise GameError(Text("move %(move)s: enter the tiles drawn in the hall", move=move))
            draws = [
                racks.hand_draw(g.bag, g.rack, g.fixed, move, self.settings.rules.racks, tiles, g.attempt + 1)
            ]
        self._append([("draw", d.to_payload(g.alphabet)) for d in draws])
        last = draws[-1]
        if not last.legal:
            return Step(
                "illegal-rack",
                move,
                draws=draws,
                message=Text(
                    "illegal rack (%(why)s): put every tile back and draw %(n)s again (%(rules)s)",
                    why=last.reason,
                    n=len(last.rack),
                    rules=cited(self.settings.rules, "redraw"),
                ),
            )
        state = g.moves[-1]
        rejected = len(state.draws) - 1
        a = announce.rack_announcement(
            g.alphabet,
            move,
            last.kept,
            last.drawn,
            self.settings.rules,
            new_order=self.settings.new_order,
            exchanges=rejected,
            fixed=last.fixed,
        )
        return Step("rack", move, announcement=a, draws=draws)

    @action
    def new_rack(
        self,
        tiles: Sequence[int] | None = None,
        reason: str = Text("the referee gives a new rack"),
        *,
        now: float | None = None,
    ) -> Step:
        """FISE-16: replace the rack of the open move (nobody, or the program, can play it). The whole rack
        goes back and a new one is drawn (from the seed, or ``tiles`` from the hall); never while the move's
        time runs (:mod:`.order`)."""
        self._check_not_moved_on()
        g = self.game
        if g.phase != "play":
            raise GameError("no rack is on the stand")
        refusal = g.order(time.time() if now is None else now).why_not(Action.NEW_RACK)
        if refusal is not None:
            raise OrderError(refusal)
        move = g.move
        r = self.settings.rules.racks
        attempt = max(d.attempt for d in g.moves[-1].draws) + 1
        if tiles is None and self.settings.racks != "seed":
            # the program never draws a rack of a game whose racks come from the hall (or are prepared)
            raise GameError(Text("move %(move)s: enter the tiles drawn in the hall", move=move))
        if tiles is None:
            returned = racks.subtract(g.rack, g.fixed) or ()
            scratch = Bag(g.alphabet, tiles=[*g.bag.tiles, *returned])
            draws = racks.draw_seeded(
                scratch,
                [],
                g.fixed,
                move,
                r,
                self.draw_source(),
                first_attempt=attempt,
                source="new-rack",
            )
            # the old rack goes back with the first attempt
            draws[0] = dataclasses.replace(draws[0], returned=tuple(returned))
        else:
            draws = [
                dataclasses.replace(
                    racks.hand_draw(g.bag, g.rack, g.fixed, move, r, tiles, attempt, replace=True),
                    source="new-rack",
                )
            ]
        self._append([("draw", d.to_payload(g.alphabet)) for d in draws])
        last = draws[-1]
        if not last.legal:
            return Step(
                "illegal-rack", move, draws=draws, message=Text("illegal rack (%(why)s): draw again", why=last.reason)
            )
        a = announce.rack_announcement(
            g.alphabet,
            move,
            last.kept,
            last.drawn,
            self.settings.rules,
            new_order=self.settings.new_order,
            exchanges=0,
            fixed=last.fixed,
        )
        return Step("rack", move, announcement=a, draws=draws, message=reason)

    # --- the master move ---------------------------------------------------------------------------------

    def candidates(self) -> list[master.Candidate]:
        """The tied top moves for the rack on the stand, in tie-break order (FISE-7 / GR-5E)."""
        g = self.game
        if g.phase != "play":
            raise GameError("no rack is on the stand")
        return master.top_moves(
            g.board,
            Rack(g.alphabet, g.rack),
            self._lexicon(),
            engine=self.settings.engine,
            order=self.settings.rules.master_order,
        )

    @action
    def place_master(
        self,
        choice: int | None = None,
        move_text: str | None = None,
        candidates: list[master.Candidate] | None = None,
    ) -> Step:
        """Close the open move with its master move: the first of the tied top moves, or the tied move number
        ``choice`` (1-based), or a move the referee announces (``move_text``, FISE-16: a weaker one stays). In
        a prepared game the prepared move is placed (FISE-7b). When the rack cannot be played, a new rack is
        drawn (seed racks) or asked for (hand racks); with an empty bag the game ends (FISE-13, GR-5B).
        """
        self._check_not_moved_on()
        g = self.game
        if g.phase != "play":
            raise GameError(
                Text("no rack is on the stand: draw one first") if g.phase == "rack" else Text("the game is over")
            )
        lexicon = self._lexicon()
        cands = self.candidates() if candidates is None else candidates
        move = g.move
        prepared = None
        if self.settings.racks == "prepared" and move <= len(self.settings.prepared):
            prepared = self.settings.prepared[move - 1].move
        if not cands and prepared is None and move_text is None:
            if not g.bag.tiles:
                end = self._record_end(
                    move - 1,
                    Text("no word can be formed with the tiles left"),
                    cites(self.settings.rules, "no-word"),
                    "no-word",
                )
                return Step("end", move, end=end, message=end.reason)
            if g.no_move_redraws >= self.settings.rules.no_move_redraws:
                end = self._record_end(
                    move - 1,
                    Text("no word after %(n)s new racks", n=g.no_move_redraws),
                    ("FISE-13",),
                    "no-word-redraws",
                )
                return Step("end", move, end=end, message=end.reason)
            if self.settings.racks == "seed":
                step = self.new_rack(reason=Text("the rack cannot be played: a new rack (FISE-16)"))
                if step.kind != "rack":
                    return step
                return self.place_master(choice, move_text)
            return Step("no-move", move, message=Text("the rack cannot be played: draw a new rack (FISE-16)"))
        top = cands[0].score if cands else None
        remarks: list[str] = []
        if prepared is not None or move_text is not None:
            text = move_text if move_text is not None else prepared
            assert text is not None
            convention = self.settings.rules.notation if move_text is not None else "ro"
            try:
                placement = Placement.parse(text, g.alphabet, convention)
            except (NotationError, TileError) as e:
                raise GameError(Text("cannot read the master move %(text)s: %(why)s", text=repr(text),
                                     why=str(e))) from None
            chosen, remarks = master.referee_choice(g.board, Rack(g.alphabet, g.rack), lexicon, placement)
            by = "prepared" if move_text is None else "referee"
        else:
            index = 0 if choice is None else choice - 1
            if not 0 <= index < len(cands):
                raise GameError(Text("choose a tied move between 1 and %(n)s", n=len(cands)))
            chosen = cands[index]
            by = "program" if index == 0 else "referee"
        if top is not None and chosen.score < top:
            remarks.append(master.weaker(top))
        order = self.settings.rules.master_order
        ties = []
        for i, c in enumerate(cands):
            entry = {
                "position": c.placement.coord.format(),
                "word": word_labels(g.alphabet, c.placement.word),
                "score": c.score,
            }
            if i:
                entry["behind"] = master.deciding_criterion(cands[i - 1], c, order)
            ties.append(entry)
        payload = {
            "move": move,
            "position": chosen.placement.coord.format(),
            "word": word_labels(g.alphabet, chosen.placement.word),
            "score": chosen.score,
            "top": top,
            "by": by,
            "ties": ties,
            "remarks": [master.remark_stored(r) for r in remarks],  # codes: said in the reader's language
        }
        if self.settings.variant == "joker":
            payload["joker"] = _preview_joker(g, chosen)
        self._append([("master", payload)])
        m = g.moves[-1].master
        assert m is not None
        a = announce.master_announcement(
            g.alphabet,
            move,
            chosen.placement.coord.format(self.settings.rules.notation),
            chosen.placement.word,
            chosen.score,
            ties=len(cands),
            by=by,
        )
        return Step("master", move, announcement=a, master=m, candidates=cands)

    @action
    def next(
        self, tiles: Sequence[int] | None = None, choice: int | None = None, move_text: str | None = None
    ) -> list[Step]:
        """One step forward: close the open move with its master (if a rack is on the stand), then open the
        next one (in a hand game only when ``tiles`` are given; when no legal rack can follow, the game ends
        with the master move, FISE-13, GR-5B)."""
        self._check_not_moved_on()
        steps = []
        g = self.game
        if g.phase == "over":
            raise GameError("the game is over")
        if g.phase == "play":
            step = self.place_master(choice, move_text)
            steps.append(step)
            if step.kind != "master":
                return steps
            if self.settings.racks == "hand" and tiles is None:
                # no hall draw is asked for when no legal rack can follow: the game ends now (FISE-13, GR-5B)
                end = self._end_if_due()
                if end is not None:
                    steps.append(Step("end", g.move, end=end, message=end.reason))
                return steps
        steps.append(self.draw(tiles))
        return steps

    def play_auto(self, on_step: Callable[[Step], None] | None = None, max_moves: int | None = None) -> Game:
        """Play the game alone to its end (seed or prepared racks): draw, master, draw... (FISE-1)."""
        if self.settings.racks == "hand":
            raise GameError("a hand-drawn game cannot play itself")
        played = 0
        while self.game.phase != "over":
            if max_moves is not None and played >= max_moves and self.game.phase == "rack":
                break
            step = self.draw() if self.game.phase == "rack" else self.place_master()
            if step.kind == "master":
                played += 1
            if on_step is not None:
                on_step(step)
        return self.game


def _preview_joker(g: Game, chosen: master.Candidate) -> dict[str, Any] | None:
    """What FISE-20 will do with the blank of this master move (recorded with it, checked on replay)."""
    return variants.joker_after_master(g.alphabet, chosen.new, g.bag.tiles, len(g.reserve))


def _player_payload(p: Player) -> dict[str, Any]:
    check_digits(p.number, "player number")
    check_digits(p.table, "table")
    return {"number": p.number, "name": p.name, "table": p.table, "members": list(p.members)}


def latest_game(journal: Journal) -> str:
    games = journal.games(FORMAT)
    if not games:
        raise GameError(f"no duplicate game in {journal.path}")
    return games[-1].id


def _restore(table: dict[Any, Any], key: Any, old: Any) -> None:
    """``table[key]`` as it was: ``old``, or no entry when it was None."""
    if old is None:
        table.pop(key, None)
    else:
        table[key] = old


# --- seats (what a seat's state says; the changes themselves are :mod:`.seats`') -----------------------

CHANGES = ("enter", "rename", "disqualify", "reinstate")
#: why a seat does not play a move, as the verdicts and the results name it
ABSENCES = ("not-entered", "withdrawn", "disqualified")


def absent_at(player: Player, move: int) -> str:
    """Why ``player`` does not play ``move`` (one of :data:`ABSENCES`), or "" when he plays it."""
    if player.entered_at is not None and move < player.entered_at:
        return "not-entered"
    if player.disqualified_after is not None and move > player.disqualified_after:
        return "disqualified"
    if player.withdrawn_after is not None and move > player.withdrawn_after:
        return "withdrawn"
    return ""


def status(player: Player) -> str:
    """The seat's standing for the pages: ``disqualified``, ``withdrawn``, ``late`` or "" (seated from the
    start)."""
    if player.disqualified_after is not None:
        return "disqualified"
    if player.withdrawn_after is not None:
        return "withdrawn"
    if player.entered_at is not None:
        return "late"
    return ""


class SeatClosed(Exception):
    """A slip handed in (phone, API) for a move the player does not play: refused, nothing stored."""

    def __init__(self, message: str) -> None:
        super().__init__(message)


def refusal(player: Player, move: int) -> Text | None:
    """Why a slip of ``player`` for ``move`` is refused at the phone, None when it is his to hand in."""
    why = absent_at(player, move)
    if why == "not-entered":
        return Text("you play from move %(move)s: this move is not yours", move=player.entered_at)
    if why == "disqualified":
        return Text("you were disqualified after move %(move)s (FISE-18): slips are no longer taken",
                    move=player.disqualified_after)
    if why == "withdrawn":
        return Text("you withdrew after move %(move)s: slips are no longer taken", move=player.withdrawn_after)
    return None
