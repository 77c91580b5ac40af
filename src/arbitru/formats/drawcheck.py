"""Where a game's draws come from, said openly, and checked draw by draw once its secret is revealed (RO-5.3,
FISE-10, FISE-16, GR-5A; :mod:`arbitru.formats.fairness`).

:func:`account` says it for the pages, the API and the exports: drawn from a secret (its commitment; the secret
itself only once the results are final, :attr:`arbitru.formats.Format.over`), from a known seed (anyone who
knows it knows the draws), or in the hall. :func:`verify` is ``arbitru journal verify-draw``: it replays the
game's events and, before each recorded draw the program made, draws again from the revealed secret (or the
known seed) what the program would have drawn there; each draw matches or not, the first that differs is named.
Draws typed from the hall (a hand-drawn rack, a new rack typed by the arbiter, a lot drawn in the hall) are
listed as such: the program did not draw them, there is nothing to recompute.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from arbitru.engine.lexicon import Lexicon
from arbitru.engine.tiles import Bag
from arbitru.errors import ArbitruError
from arbitru.formats import fairness
from arbitru.journal import sealed
from arbitru.journal.store import Event, GameInfo, Journal

#: the command a player runs to check a game (JOURNAL: the journal file, or the game's export)
COMMAND = "arbitru journal verify-draw JOURNAL {game}"


@dataclass(frozen=True)
class Account:
    """Where a game's draws come from: ``kind`` ``secret``, ``known-seed``, ``hall`` (the racks or groups and
    lots typed from the hall) or ``prepared`` (FISE-7b); ``what`` is drawn: ``racks`` or ``lots``."""

    game: str
    kind: str
    what: str
    commitment: str = ""
    seed: str = ""
    #: the secret, once the results are final ("" while it is sealed)
    secret: str = ""

    @property
    def known(self) -> bool:
        return self.kind == "known-seed"

    @property
    def note(self) -> str:
        """The marking of a known seed (:data:`fairness.KNOWN_SEED`), "" otherwise."""
        if not self.known:
            return ""
        return fairness.KNOWN_SEED if self.what == "racks" else fairness.KNOWN_SEED_LOTS

    @property
    def command(self) -> str:
        return COMMAND.format(game=self.game)

    def to_dict(self) -> dict[str, Any]:
        """For the API and ``--json``: never the secret while it is sealed."""
        return {
            "kind": self.kind,
            "drawn": self.what,
            "commitment": self.commitment or None,
            "secret": self.secret or None,
            "seed": self.seed if self.known else None,
            "note": self.note or None,
            "verify": self.command if self.secret or self.known else None,
        }


def account(journal: Journal, game_id: str) -> Account:
    """What :class:`Account` says of a game of ``journal``; its secret once the game is :attr:`~Format.over`."""
    from arbitru.formats import format_of

    info = journal.game(game_id)
    fmt = format_of(info)
    if fmt is None:
        raise ArbitruError(f"game {game_id} is not a game of a playable format")
    shown = account_of(info)
    if shown.commitment and fmt.over(journal, game_id):
        secret = sealed.secret_of(journal, game_id) or ""
        return Account(shown.game, shown.kind, shown.what, shown.commitment, shown.seed, secret)
    return shown


def account_of(info: GameInfo) -> Account:
    """What a game's record says of its draws (no secret)."""
    s = info.settings
    commitment = str(s.get("commitment") or "")
    if info.format == "duplicate":
        racks = s.get("racks", "seed")
        if racks in ("hand", "prepared"):
            return Account(info.id, "hall" if racks == "hand" else "prepared", "racks")
        if commitment:
            return Account(info.id, "secret", "racks", commitment)
        return Account(info.id, "known-seed", "racks", seed=str(s.get("seed", "0")))
    if commitment:
        return Account(info.id, "secret", "lots", commitment)
    seed = s.get("seed")
    # journals before secrets: a game without a seed drew its lots from its id
    return Account(info.id, "known-seed", "lots", seed=str(seed if seed is not None else info.id))


# --- checking ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """One recorded draw: ``origin`` ``program`` (recomputed: ``ok``), ``hall``, ``prepared`` or ``past`` (a
    past game's, training): nothing to recompute, ``ok`` None."""

    seq: int
    what: str
    origin: str
    recorded: str
    expected: str = ""
    ok: bool | None = None
    note: str = ""


@dataclass
class Report:
    game: str
    format: str
    #: ``secret`` or ``known-seed`` (what the program's draws were recomputed from), ``hall`` or ``prepared``
    source: str
    #: whether the revealed secret is the one committed to (None: no secret)
    commitment_ok: bool | None = None
    checks: list[Check] = field(default_factory=list)
    #: where the replay of the journal itself broke ("" when it did not)
    problem: str = ""

    @property
    def first_difference(self) -> Check | None:
        return next((c for c in self.checks if c.ok is False), None)

    @property
    def ok(self) -> bool:
        return self.commitment_ok is not False and not self.problem and self.first_difference is None

    def to_dict(self) -> dict[str, Any]:
        first = self.first_difference
        return {
            "game": self.game,
            "format": self.format,
            "source": self.source,
            "commitment_ok": self.commitment_ok,
            "ok": self.ok,
            "problem": self.problem or None,
            "first_difference": None if first is None else first.__dict__,
            "draws": [c.__dict__ for c in self.checks],
        }


def verify(info: GameInfo, events: Sequence[Event], secret: str | None,
           lexicon: Callable[[], Lexicon] | None = None) -> Report:
    """Check every recorded draw of a game (``info`` and its ``events``) against ``secret`` (the revealed one; a
    game with a known seed needs none). ``lexicon`` gives the word list the anticipation groups were drawn under.

    :raises ArbitruError: for a game whose draws came from a secret when none is given.
    """
    shown = account_of(info)
    if shown.kind == "secret" and not secret:
        raise ArbitruError(f"game {info.id} drew from a secret that is not revealed yet: it is shown once the "
                           "results are final")
    source: fairness.Source | None = None
    report = Report(info.id, info.format, shown.kind)
    if shown.kind == "secret":
        assert secret is not None
        source = fairness.Seal(info.id, secret)
        report.commitment_ok = fairness.commitment(info.id, secret) == shown.commitment
    elif shown.kind == "known-seed":
        source = fairness.KnownSeed(shown.seed)
    if info.format == "duplicate":
        _verify_duplicate(info, events, source, report)
    else:
        _verify_anticipation(info, events, source, report, lexicon)
    return report


def _verify_duplicate(info: GameInfo, events: Sequence[Event], source: fairness.Source | None,
                      report: Report) -> None:
    from arbitru.formats.duplicate import racks
    from arbitru.formats.duplicate.game import Game, Settings

    settings = Settings.from_dict(info.settings)
    game = Game(info.id, settings)
    alpha, rule = game.alphabet, settings.rules.racks
    labelled = any("label" in e.payload for e in events if e.kind == "draw")

    def shown(tiles: Sequence[int]) -> str:
        return " ".join(racks.labels(alpha, tiles))

    for e in events:
        try:
            if e.kind == "draw":
                d = racks.Draw.from_payload(alpha, e.payload)
                new = d.source == "new-rack"
                what = f"move {d.move}, {'new rack (FISE-16), ' if new else ''}attempt {d.attempt}"
                recorded = shown(d.drawn) + ("" if d.legal else " (illegal: redrawn, FISE-10)")
                program = source is not None and d.source in ("seed", "new-rack") and (
                    bool(d.label) or d.source == "seed" or not labelled)
                if not program:
                    origin = "prepared" if d.source == "prepared" else "hall"
                    report.checks.append(Check(e.seq, what, origin, recorded))
                else:
                    assert source is not None
                    label = fairness.rack_label(d.move, d.attempt, new=new)
                    before = [*game.bag.tiles, *d.returned]
                    drawn = racks.attempt_tiles(Bag(alpha, tiles=before), d.kept, d.fixed, rule, source.rng(label))
                    legal, _, _ = racks.judge(rule, alpha, d.move, [*d.fixed, *d.kept, *drawn], [*before, *d.kept],
                                              d.fixed)
                    notes = []
                    if d.attempt != game.attempt + 1:
                        notes.append(f"attempt {game.attempt + 1} was due: a draw is missing or renumbered")
                    if d.label and d.label != label:
                        notes.append(f"recorded as {d.label!r}, not {label!r}")
                    if legal != d.legal:
                        notes.append("recorded as " + ("legal" if d.legal else "illegal"))
                    ok = drawn == d.drawn and not notes
                    if not ok and not d.label and not labelled and new:
                        # journals before labels do not say whether a new rack was typed in the hall
                        report.checks.append(Check(e.seq, what, "hall", recorded, shown(drawn), None,
                                                   "not the seed's: typed in the hall (this journal does not say)"))
                    else:
                        report.checks.append(Check(e.seq, what, "program", recorded, shown(drawn), ok,
                                                   "; ".join(notes)))
            game.apply(e)
        except (ArbitruError, ValueError, KeyError, TypeError) as err:
            report.problem = f"event {e.seq} ({e.kind}): {err}"
            return


def _verify_anticipation(info: GameInfo, events: Sequence[Event], source: fairness.Source | None, report: Report,
                         lexicon: Callable[[], Lexicon] | None) -> None:
    from arbitru.engine.tiles import alphabet
    from arbitru.formats.anticipation.draw import Draw, GroupRules, draw_groups
    from arbitru.formats.anticipation.turns import Lot, TurnOrder
    from arbitru.formats.anticipation.variants import Settings

    settings = Settings.from_dict(info.settings)
    alpha = alphabet(settings.lang)
    order = TurnOrder()
    labelled = bool(settings.commitment) or any("label" in e.payload for e in events if e.kind == "lot")
    for e in events:
        try:
            if e.kind == "draw":
                d = Draw.from_payload(alpha, e.payload)
                recorded = " ".join(d.labels(alpha))
                if d.method not in ("secret", "seeded") or source is None:
                    report.checks.append(Check(e.seq, "groups", "past" if d.method == "past" else "hall", recorded))
                    continue
                if lexicon is None:
                    report.checks.append(Check(e.seq, "groups", "program", recorded, "", None,
                                               "not recomputed: the word list is not at hand"))
                    continue
                rules = GroupRules.for_settings(settings, alpha, lexicon())
                if d.method == "secret" and isinstance(source, fairness.Seal):
                    again = draw_groups(rules, rng=source.rng(fairness.GROUPS_LABEL))
                else:
                    again = draw_groups(rules, d.seed if d.seed is not None else settings.seed)
                report.checks.append(Check(e.seq, "groups", "program", recorded, " ".join(again.labels(alpha)),
                                           again.groups == d.groups))
            elif e.kind == "lot":
                lot = Lot.from_payload(e.payload)
                left = order.remaining()
                what = f"lot of turn {lot.turn}"
                program = source is not None and (bool(lot.label) or not labelled) and not settings.lots_from
                if not program or not left:
                    origin = "past" if settings.lots_from else "hall"
                    report.checks.append(Check(e.seq, what, origin, f"group {lot.group}"))
                else:
                    assert source is not None
                    label = fairness.lot_label(lot.turn, left)
                    group = source.rng(label).choice(left)
                    expected = f"group {group}"
                    ok = group == lot.group and (not lot.label or lot.label == label)
                    if not ok and not lot.label:
                        report.checks.append(Check(e.seq, what, "hall", f"group {lot.group}", expected, None,
                                                   "not the seed's: drawn in the hall (this journal does not say)"))
                    else:
                        report.checks.append(Check(e.seq, what, "program", f"group {lot.group}", expected, ok))
                order.add(lot)
        except (ArbitruError, ValueError, KeyError, TypeError) as err:
            report.problem = f"event {e.seq} ({e.kind}): {err}"
            return
