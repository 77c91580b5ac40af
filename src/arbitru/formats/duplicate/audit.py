"""Checking whole games: the harness the tests run on a few seeded games and ``bench/duplicate_game.py`` runs
on a thousand once the compiled generator is in.

:func:`audit` replays a game's journal event by event and checks, independently of the code that played it:

- **tiles** — after every event, rejected draws included, bag + rack + board + set-aside blanks hold every
  tile of the set exactly (FISE-4, FISE-10, GR-5A);
- **racks** — every accepted rack is legal for its move number under the rule set, every rejected one illegal,
  every rack full (7 tiles, or all that were left) (FISE-4, GR-5A, GR-8.2, Romanian practice);
- **end** — the game ended for a reason that holds on the final state (FISE-13, GR-5B);
- **master** — on a sample of moves, the master's top score equals the reference generator's maximum, the move
  placed scores what the engine says, and among the tied moves the one placed is the first in the rule set's
  tie-break order (FISE-7, GR-5E).

:func:`arbitru.lexicons.synthetic.synthetic_lexicon` builds a small seeded word list for any tile set, for tests
and benchmarks to run before the official lists are installed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from arbitru.engine.lexicon import Lexicon
from arbitru.engine.movegen import generate
from arbitru.engine.rules import check
from arbitru.engine.tiles import Alphabet, Rack, alphabet
from arbitru.formats.duplicate import master as master_mod
from arbitru.formats.duplicate import racks
from arbitru.formats.duplicate.game import Game, MoveState, Session, Settings, replay
from arbitru.formats.duplicate.rulesets import Mix, RackRule, ruleset
from arbitru.journal.store import Event, Journal


@dataclass
class Report:
    """What an audit found: ``problems`` is empty for a sound game."""

    game_id: str
    moves: int = 0
    draws: int = 0
    rejected: int = 0
    sampled: int = 0
    ties: int = 0
    end: str = ""
    end_kind: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, kind: str, text: str) -> None:
        """Record a problem of one kind: ``tiles``, ``racks``, ``end``, ``master`` or ``ties``."""
        self.problems.append(f"{kind}: {text}")

    def of(self, kind: str) -> list[str]:
        return [p for p in self.problems if p.startswith(f"{kind}: ")]


def audit(session: Session, *, sample: int = 1, seed: int = 0, reference: str = "reference") -> Report:
    """Audit a game (see the module doc). ``sample``: check one master move in ``sample`` (1: every move, 0:
    none) against the ``reference`` generator."""
    s = session.settings
    alpha = alphabet(s.lang)
    report = Report(session.id)
    total = alpha.total_tiles
    rule = s.rules.racks

    # the rack and pool before each draw, kept while replaying
    before: dict[int, tuple[list[int], list[int], tuple[int, ...]]] = {}

    def observe(game: Game, event: Event) -> None:
        if game.tile_count() != total:
            report.add("tiles", f"event {event.seq} ({event.kind}): {game.tile_count()} tiles, not {total}")
        # each kind of tile, wherever it is: a blank on the board counts as a blank, whatever it stands for
        counts = Counter([*game.bag.tiles, *game.rack, *game.reserve])
        counts.update(0 if t & 0x80 else t for t in game.board.squares if t)
        for t, n in enumerate(alpha.counts):
            if counts[t] != n:
                report.add("tiles", f"event {event.seq}: {counts[t]} {alpha.label(t)} tiles, the set has {n}")
        before[event.seq + 1] = (list(game.bag.tiles), list(game.rack), game.fixed)

    events = list(session.journal.iter_events(session.id))
    fresh = replay(session.id, s, [], None)
    before[events[0].seq if events else 1] = (list(fresh.bag.tiles), list(fresh.rack), fresh.fixed)
    game = replay(session.id, s, events, observe)
    report.moves = sum(1 for m in game.moves if m.master)
    for event in events:
        if event.kind != "draw":
            continue
        report.draws += 1
        d = racks.Draw.from_payload(alpha, event.payload)
        bag, rack, fixed = before[event.seq]
        nonfixed = racks.subtract(rack, fixed) or ()
        pool = [*bag, *nonfixed]
        legal = rack_is_legal(rule, alpha, d.move, d.rack, [*pool, *fixed])
        if d.legal != legal:
            report.add(
                "racks",
                f"move {d.move} attempt {d.attempt}: rack {racks.labels(alpha, d.rack)} recorded "
                f"{'legal' if d.legal else 'illegal'}, the rule says {'legal' if legal else 'illegal'}",
            )
        if not d.legal:
            report.rejected += 1
        full = min(rule.size, len(bag) + len(rack))
        if len(d.rack) != full:
            report.add("racks", f"move {d.move} attempt {d.attempt}: {len(d.rack)} tiles, {full} were due")
    _check_end(game, report)
    if sample and session.lexicon is not None:
        rng = random.Random(seed)
        for state in game.moves:
            if state.master is None or (sample > 1 and rng.randrange(sample)):
                continue
            report.sampled += 1
            _check_master(game, state, session.lexicon, reference, report)
    return report


def rack_is_legal(
    rule: RackRule, alpha: Alphabet, move: int, rack: Sequence[int], left: Sequence[int]
) -> bool:
    """The rack rule restated on its own, to check the drawing code against (FISE-4, GR-5A, GR-8.2, Romanian
    practice): ``left`` are the tiles not on the board when the rack is drawn, the rack's among them."""

    def counts(tiles: Sequence[int]) -> tuple[int, int, int]:
        blanks = sum(1 for t in tiles if t == 0)
        vowels = sum(1 for t in tiles if t and alpha.is_vowel(t))
        return vowels, len(tiles) - vowels - blanks, blanks

    def meets(mix: Mix, v: int, c: int, b: int) -> bool:
        splits = {"neither": [(v, c)], "vowel": [(v + b, c)], "consonant": [(v, c + b)]}.get(
            rule.blanks, [(v + k, c + b - k) for k in range(b + 1)]
        )
        return any(
            x >= mix.min_vowels
            and y >= mix.min_consonants
            and (mix.max_vowels is None or x <= mix.max_vowels)
            and (mix.max_consonants is None or y <= mix.max_consonants)
            for x, y in splits
        )

    lv, lc, _ = counts(left)
    late = (rule.late_from is not None and move >= rule.late_from) or min(lv, lc) < rule.pool_switch
    return meets(rule.late if late else rule.early, *counts(rack))


def _check_end(game: Game, report: Report) -> None:
    end = game.end
    if end is None:
        return
    report.end = end.reason
    report.end_kind = end.kind
    rules = game.settings.rules
    pool = game.pool()
    closed = sum(1 for m in game.moves if m.master)
    if end.after_move != closed:
        report.add("end", f"ended after move {end.after_move}, but {closed} moves were closed")
    if end.kind == "planned" and end.after_move != rules.moves:
        report.add("end", f"ended for the planned moves after {end.after_move}, planned {rules.moves}")
    if end.kind == "tiles-out" and pool:
        report.add("end", f"ended with the tiles run out, but {len(pool)} are left")
    if end.kind == "no-legal-rack":
        left = [*pool, *game.fixed]
        if _some_legal_rack(rules.racks, game.alphabet, end.after_move + 1, left):
            report.add("end", "ended with no legal rack, but one can be formed from the tiles left")
    if end.kind == "no-word" and game.bag.tiles:
        report.add("end", "ended with no word and an empty bag, but the bag holds tiles")


def _some_legal_rack(rule: RackRule, alpha: Alphabet, move: int, left: Sequence[int]) -> bool:
    """Does any rack drawn whole from ``left`` meet the rule? (by the vowel/consonant/blank make-up)"""
    vowels = [t for t in left if t and alpha.is_vowel(t)]
    blanks = [t for t in left if t == 0]
    consonants = [t for t in left if t and not alpha.is_vowel(t)]
    size = min(rule.size, len(left))
    for v in range(min(len(vowels), size) + 1):
        for c in range(min(len(consonants), size - v) + 1):
            b = size - v - c
            if b <= len(blanks) and rack_is_legal(
                rule, alpha, move, vowels[:v] + consonants[:c] + blanks[:b], left
            ):
                return True
    return False


def _check_master(game: Game, state: MoveState, lexicon: Lexicon, reference: str, report: Report) -> None:
    assert state.master is not None
    m = state.master
    rack = Rack(game.alphabet, state.rack)
    moves = generate(state.board, rack, lexicon, top=1, engine=reference)
    best = moves[0][1] if moves else None
    if m.top != best:
        report.add(
            "master",
            f"move {state.number}: top score {m.top} recorded, the {reference} generator finds {best}",
        )
    result = check(state.board, m.placement, lexicon, rack, bingo_bonus=game.settings.rules.bingo_bonus)
    if result.score != m.score:
        report.add(
            "master", f"move {state.number}: master recorded {m.score}, the engine scores {result.score}"
        )
    if m.by == "program":
        if best is not None and m.score != best:
            report.add(
                "master", f"move {state.number}: the program's master scores {m.score}, not the top {best}"
            )
        tied = [master_mod.candidate(state.board, rack, p, s) for p, s in moves if s == best]
        order = master_mod.ORDERS[game.settings.rules.master_order]
        first = min(tied, key=order) if tied else None
        if len(tied) > 1:
            report.ties += 1
        if first is not None and first.placement != m.placement:
            report.add(
                "ties",
                f"move {state.number}: placed {m.placement.format(game.alphabet)}, the "
                f"{game.settings.rules.master_order} order puts "
                f"{first.placement.format(game.alphabet)} first",
            )
        if len(m.ties) != len(tied):
            report.add("ties", f"move {state.number}: {len(m.ties)} ties listed, {len(tied)} exist")




def play_games(
    rules: str,
    lang: str,
    lexicon: Lexicon,
    seeds: Iterable[int | str],
    *,
    engine: str = "compiled",
    variant: str = "standard",
    moves: int | None = None,
    sample: int = 1,
    **overrides: object,
) -> list[tuple[Session, Report]]:
    """Play seeded automatic games in memory and audit each."""
    out = []
    for seed in seeds:
        journal = Journal(":memory:")
        rs = ruleset(rules, moves=moves, **overrides)
        settings = Settings(rs, lang, lexicon.name, seed=str(seed), engine=engine, variant=variant)
        session = Session.create(journal, settings, lexicon)
        session.play_auto()
        out.append((session, audit(session, sample=sample)))
    return out
