"""Training alone: one player, the 15 groups shown at once, the lots drawn one by one with each turn's
timer (RO-4.3), every slip corrected as soon as it is handed in; at the end his game beside the computer player's
and the maximum's, turn by turn.

A training game is an ordinary anticipation game in the journal (``Settings.training``) with one seated player,
:data:`TRAINEE`; its draw is a new seeded one, or a past game's groups whose lots come again turn by turn
(``Settings.lots_from``, ``Settings.past_lots``) of a game that is :func:`over`. The web keeps training games
apart from the hall's (:mod:`arbitru.journal.training`). The correction, the maximum and the computer player are
the library's own.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from arbitru.engine.lexicon import Lexicon
from arbitru.errors import ArbitruError
from arbitru.formats.anticipation.clock import ANALYSIS, turn_timer
from arbitru.formats.anticipation.draw import Draw, GroupRules, draw_groups, format_group
from arbitru.formats.anticipation.game import AnticipationGame, GameState
from arbitru.formats.anticipation.hall import HallState
from arbitru.formats.anticipation.maximum import Line, Loss, Step, computer_game, game_inputs, losses, maximum
from arbitru.formats.anticipation.turns import Lot
from arbitru.formats.anticipation.variants import TURNS, Settings
from arbitru.formats.anticipation.verdicts import SlipVerdict
from arbitru.formats.fairness import Seal
from arbitru.journal.store import Journal
from arbitru.messages import Text

TRAINEE = "1"
#: the beam of the maximum computed when a training game ends (about a second on the official list)
BEAM = 100
#: the seed of the computer player and of the maximum's search: the same game always gets the same reference
SEED = 0
#: what a training game can be played as: the variants with one common draw (RO-8.4's blind game has none)
TRAINING_VARIANTS = ("classic", "avocalic", "endurance", "total")


class TrainingError(ArbitruError):
    """A training game that cannot be started or played on as asked."""


def new_draw(settings: Settings, lexicon: Lexicon) -> Draw:
    """A fresh draw from the settings' seed (RO-5.2)."""
    if settings.seed is None:
        raise TrainingError("a new draw needs its seed")
    return draw_groups(GroupRules.for_settings(settings, lexicon.alphabet, lexicon), settings.seed)


def over(game: AnticipationGame) -> bool:
    """Whether a hall's game may be played again for training: over, every lot played and the final results
    published (RO-5.5.j). A game in progress never is: its lots to come would be told to anyone."""
    return not game.settings.training and game.finished() and game.order().next_turn() is None


def past_draw(journal: Journal, past_id: str) -> tuple[Settings, Draw]:
    """The settings, groups and lots of a past game that is :func:`over`, for a training game whose lots come
    again as that game's did.

    :raises TrainingError: for a game not over (or a training game), or one without a common draw.
    """
    past = AnticipationGame(journal, past_id)
    if not over(past):
        raise TrainingError(f"game {past_id} is not over: only a finished game (every lot played, the final "
                            "results published) can be played again")
    draw = past.draw()
    if draw is None:
        raise TrainingError(f"game {past_id} has no common draw (RO-8.4's blind game): nothing to train on")
    if past.settings.variant not in TRAINING_VARIANTS:
        raise TrainingError(f"game {past_id} is a {past.settings.variant} game: it cannot be played alone")
    lots = tuple(lot.group for _, lot in sorted(past.order().lots.items()))
    # the groups are the past game's, not drawn here: this game's own secret (if any) draws only lots it lacks
    return (replace(past.settings, training=True, lots_from=past_id, past_lots=lots, commitment=""),
            replace(draw, method="past"))


def start(journal: Journal, settings: Settings, draw: Draw, lexicon: Lexicon, now: float,
          name: str = "trainee", seal: Seal | None = None) -> AnticipationGame:
    """Create the game: the trainee seated, every group shown (as groups sent ahead, RO-4.4) and read again, the
    analysis timer started (RO-4.3, RO-5.2.h). ``seal``: the secret a new draw came from
    (:func:`~arbitru.formats.anticipation.game.secret_draw`)."""
    if settings.variant not in TRAINING_VARIANTS:
        raise TrainingError(f"a training game is one of {', '.join(TRAINING_VARIANTS)}")
    settings = replace(settings, training=True)
    with journal.transaction():
        game = AnticipationGame.create(journal, settings, draw, lexicon=lexicon, seating=[(TRAINEE, 1, name)],
                                       game_id=seal.game_id if seal else None, seal=seal)
        while not game.announced()[1]:
            game.announce_next()
        game.clock(ANALYSIS, "start", now)
    return game


def next_lot(game: AnticipationGame, now: float) -> Lot:
    """The next turn's lot, drawn by the trainee, and its timer started (RO-4.3, RO-5.3)."""
    with game.journal.transaction(game.id):
        if game.finished():
            raise TrainingError("the game is over")
        _stop_running(game, now)
        lot = game.draw_lot(drawn_by="trainee", now=now)
        game.clock(turn_timer(lot.turn), "start", now)
    return lot


def slip_turn(game: AnticipationGame, hall: HallState) -> int:
    """The turn the trainee's slip is for now: that of the last lot drawn.

    :raises TrainingError: before the lot of turn 1 is drawn (RO-5.3), or once the game is over.
    """
    if not hall.current_turn:
        raise TrainingError(Text("draw the lot of turn 1 first (RO-5.3)"))
    if game.finished():
        raise TrainingError(Text("the game is over"))
    return hall.current_turn


def _stop_running(game: AnticipationGame, now: float) -> None:
    """The trainee goes on at his own pace: the analysis or the turn he is done with ends now (RO-4.3)."""
    for timer in game.timers().values():
        if timer.running(now):
            game.clock(timer.name, "stop", now)


def finish(game: AnticipationGame, *, beam: int = BEAM) -> int:
    """End the game: the lots not drawn yet are drawn (the maximum is over the whole game), the ranking is made
    final, and the maximum is computed and stored where the variant has one. Returns the publication's seq."""
    with game.journal.transaction(game.id):
        if game.finished():
            raise TrainingError("the game is over already")
        _stop_running(game, time.time())
        game.draw_all_lots("trainee")
        seq = game.publish("final", confirmed=True)  # a training game has no contests
    try:
        groups, lots, use_all = game_inputs(game.replay())
    except ArbitruError:
        return seq  # a variant without a maximum (RO-8.1, RO-8.2): the report says so
    # searched outside the transaction: a second of search must not hold the journal's lock
    result = maximum(game.lexicon, groups, lots, beam=beam, seed=SEED, use_all=use_all)
    game.record_maximum(result.to_payload())
    return seq


# --- the report ---------------------------------------------------------------------------------------------


@dataclass
class TurnReport:
    """One turn: the group(s) played, the trainee's corrected slip, the best on his own board, and the turn of
    the computer player and of the maximum line."""

    turn: int
    groups: list[str]
    slip: SlipVerdict | None
    points: int
    best: Loss | None
    computer: list[Step] = field(default_factory=list)
    maximum: list[Step] = field(default_factory=list)

    @property
    def computer_points(self) -> int:
        return sum(s.score for s in self.computer)

    @property
    def maximum_points(self) -> int:
        return sum(s.score for s in self.maximum)


@dataclass
class Report:
    total: int
    turns: list[TurnReport]
    computer: Line | None = None
    maximum: int | None = None
    bound: int | None = None
    beam: int | None = None
    #: why there is no computer player or maximum for this game ('' when there is)
    missing: str = ""

    def percent(self, of: int | None) -> float | None:
        return round(100 * self.total / of, 1) if of else None


def report(game: AnticipationGame, state: GameState, *, seed: int = SEED) -> Report:
    """The trainee's game turn by turn; the computer player and the maximum once every lot is drawn."""
    result = state.results[TRAINEE]
    lots = {t: lot.group for t, lot in state.order.lots.items()}
    groups = [list(g) for g in state.draw.groups] if state.draw else []
    use_all = state.settings.exclusive
    best = {loss.turn: loss for loss in losses(game.lexicon, groups, lots, result, use_all=use_all)}
    computer: Line | None = None
    missing = ""
    steps: dict[str, dict[int, list[Step]]] = {"computer": {}, "maximum": {}}
    try:
        all_groups, all_lots, use_all = game_inputs(state)
        computer = computer_game(game.lexicon, all_groups, all_lots, seed=seed, use_all=use_all)
        _by_turn(steps["computer"], computer.steps)
        if state.maximum:
            stored = state.maximum["line"]["steps"]
            _by_turn(steps["maximum"], [Step(**s) for s in stored])
    except ArbitruError as e:
        missing = str(e)
    turns = []
    for turn in range(1, TURNS + 1):
        if turn not in lots:
            continue
        sv = result.slips.get(turn)
        numbers = [1, lots[turn]] if turn == 1 else [lots[turn]]
        turns.append(TurnReport(
            turn, [format_group(state.alpha, groups[n - 1]) for n in numbers], sv, sv.points if sv else 0,
            best.get(turn), steps["computer"].get(turn, []), steps["maximum"].get(turn, []),
        ))
    m = state.maximum
    return Report(result.total, turns, computer, m["total"] if m else None, m["bound"] if m else None,
                  m["beam"] if m else None, missing)


def _by_turn(out: dict[int, list[Step]], steps: Sequence[Step]) -> None:
    for s in steps:
        out.setdefault(s.turn, []).append(s)
