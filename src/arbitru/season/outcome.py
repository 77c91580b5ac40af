"""One game of a tournament as its result per registered player.

A game is either *linked* (a duplicate or anticipation game created in the tournament: its result is recomputed
from its own journal, as the game's pages show it) or *recorded* (a result entered as such: each player's points
per move and the master moves' scores, for a game played elsewhere or on paper). Either way the players are
keyed by registry id: a game's player number is his entry number in the tournament.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from arbitru.engine.lexicon import Lexicon
from arbitru.formats import payload

#: (word list name, language) -> the word list, for replaying a duplicate game's verdicts
Lexicons = Callable[[str, str], Lexicon]


@dataclass
class GameLine:
    """A player's result in one game: ``place`` is None when he was eliminated (RO-6.4, RO-7.1)."""

    player: str
    place: int | None
    total: int
    moves: list[int] = field(default_factory=list)
    #: his points over the master total (GR-7), None where the format has no master total
    percentage: Fraction | None = None


@dataclass
class Outcome:
    number: int
    game_id: str
    title: str
    lines: dict[str, GameLine]
    #: the best score of any player in each move (FISE-15's Mx), empty where moves are not known
    best_by_move: list[int] = field(default_factory=list)
    #: the registry ids absent from the game (in no line; the table counts it as a game not played)
    absent: set[str] = field(default_factory=set)

    @property
    def size(self) -> int:
        return len(self.lines)


def competition_places(keys: Mapping[str, tuple[int, ...]]) -> dict[str, int]:
    """Equal keys share the higher place and the next place skips (1, 2, 2, 4): RO-6.6, FISE-15."""
    ordered = sorted(keys, key=lambda p: (keys[p], p))
    out: dict[str, int] = {}
    for i, p in enumerate(ordered, 1):
        out[p] = out[ordered[i - 2]] if i > 1 and keys[ordered[i - 2]] == keys[p] else i
    return out


def recorded(number: int, game_id: str, p: Mapping[str, Any], tie_breaks: tuple[str, ...],
             needs_master: bool = True) -> Outcome:
    """A recorded game: ``masters`` (the master moves' scores), ``scores`` (registry id -> points per move),
    ``eliminated`` (registry ids); placed by total then the rule set's single-game tie-breaks (FISE-15).

    :raises payload.PayloadError: for a result the door refuses now (an old journal): a duplicate game without
        its master line (``needs_master``), points below 0 or above the master's in a move.
    """
    masters = [payload.integer({"m": m}, "m", low=0) for m in payload.items(p, "masters", [])]
    if needs_master and not masters:
        raise payload.PayloadError("a result without its master line")
    scores: dict[str, list[int]] = {}
    for player, moves in payload.mapping(p["scores"], "scores").items():
        scores[player] = [payload.integer({"s": s}, "s") for s in payload.items({"m": moves}, "m")]
        if masters and len(scores[player]) != len(masters):
            raise payload.PayloadError(f"{player} has {len(scores[player])} moves, the game {len(masters)}")
        for i, m in enumerate(scores[player], 1):
            top = masters[i - 1] if masters else m
            if not 0 <= m <= top:
                raise payload.PayloadError(f"{player} has {m} points in move {i}, the master {top}")
    eliminated = set(payload.texts(p, "eliminated", []))
    best = [max((s[i] for s in scores.values()), default=0) for i in range(len(masters))]
    keys: dict[str, tuple[int, ...]] = {}
    for player, moves in scores.items():
        if player in eliminated:
            continue
        key = [-sum(moves)]
        if "top-moves" in tie_breaks:
            key.append(-sum(1 for m, top in zip(moves, masters, strict=True) if m > 0 and m >= top))
        if "best-move" in tie_breaks:
            key.append(-max(moves, default=0))
        keys[player] = tuple(key)
    places = competition_places(keys)
    total_master = sum(masters)
    lines = {
        player: GameLine(player, places.get(player), sum(moves), moves,
                         Fraction(sum(moves), total_master) if total_master else None)
        for player, moves in scores.items()
    }
    return Outcome(number, game_id, payload.text(p, "title", ""), lines, best)


def duplicate_game(number: int, journal: Any, game_id: str, entries: Mapping[str, str], lexicons: Lexicons) -> Outcome:
    """A linked duplicate game, its results recomputed (FISE-15 single-game places)."""
    from arbitru.formats.duplicate.game import Session
    from arbitru.formats.duplicate.results import compute

    session = Session(journal, game_id)
    lexicon = lexicons(session.settings.lexicon, session.settings.lang)
    result = compute(session.game, lexicon)
    lines = {}
    for line in result.lines:
        player = entries.get(line.player.number)
        if player is None:
            continue  # a player of the game not enrolled in the tournament (a guest): no place in its table
        lines[player] = GameLine(player, line.place, line.total, [m.score for m in line.moves],
                                 line.percentage if result.master_total else None)
    best = [result.best_by_move[m] for m in sorted(result.best_by_move)]
    return Outcome(number, game_id, result.title, lines, best)


def anticipation_game(number: int, journal: Any, game_id: str, entries: Mapping[str, str]) -> Outcome:
    """A linked anticipation game: its ranking (RO-6.6), the eliminated without a place."""
    from arbitru.formats.anticipation.game import AnticipationGame

    game = AnticipationGame(journal, game_id)
    state = game.replay()
    lines = {}
    for r in state.ranking:
        player = entries.get(r.player)
        if player is not None:
            lines[player] = GameLine(player, None if r.eliminated else r.place, r.total)
    return Outcome(number, game_id, game_id, lines)
