"""Results: per move per player with bonuses, totals, percentages, single-game ranking and multi-game
standings (FISE-11, FISE-12, FISE-15, FISE-16, FISE-17, FISE-19, FISE-22, GR-5D, GR-7).

- A move counts the engine's score of the player's slip when it is valid, else 0 with the reasons (FISE-12,
  FISE-14, GR-6, GR-8.1); no slip is 0; a player who left gets 0 for the rest (GR-7), one disqualified too
  (FISE-18), a late entry 0 for the moves before his first (:mod:`.seats`).
- Bonuses (FISE-11), added at the end and listed (move, player, value): *automatic* — ``top`` to a player who
  alone matches (or beats, after a ruling) the program's top score; when nobody matched, ``best`` to a player
  who alone has the best score among the players, if that score is above 0; *manual* — ``manual`` to a player
  who alone reached the round's maximum among the players, if above 0.
- Percentage (GR-7): the player's points (bonuses apart) over the master total, the sum of the master moves
  placed on the board (a weaker master move counts as placed, FISE-16).
- Single-game ranking (FISE-15): total, then the rule set's tie-breaks: number of top moves (moves matching
  the program's top score), best single move; players still tied share the place and are flagged for a
  sudden-death playoff when the rule set lists it.
- Referee errors found later (FISE-16, GR-5D) are rulings on words: they change verdicts and totals, never the
  board; the results are recomputed from the journal (a close takes from the last results the moves no event
  since changed). The arbiter's decisions on closed moves' slips (claims, FISE-17; referee's errors, GR-5D:
  :mod:`.decisions`) are listed with their effect on the move's points.
- Multi-game standings (FISE-15): by mean place (a player absent from a game takes the last place, the number
  of players in the standings), or by mean percentage ``(p1/M1 + … + pn/Mn)/n`` where ``px`` is the player's
  points in move ``x``, ``Mx`` the best score of any player in that move and ``n`` the moves of all games
  (moves where nobody scored are left out: ``0/0`` says nothing), or by total; the other criteria break ties.
  Players of a tournament's games are matched by registry id, the others by name.
- FISE-22 (b) rating figure: the mean of the per-game percentages without the best and the worst.
- Sudden death (FISE-19): :func:`sudden_death` ranks by moves survived, then the score of the last move; it also
  breaks a single game's tie as a playoff (FISE-15).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from arbitru.engine.lexicon import Lexicon
from arbitru.formats.duplicate import seats
from arbitru.formats.duplicate.decisions import Effect, effects
from arbitru.formats.duplicate.game import End, Game, Player
from arbitru.formats.duplicate.racks import sort_tiles
from arbitru.formats.duplicate.rulesets import Bonus
from arbitru.formats.duplicate.slips import Verdict
from arbitru.messages import Text
from arbitru.textinput import number_order

STANDING_METHODS = ("mean-place", "mean-percentage", "total")
#: the rule sets whose rulebook defines a game's percentage as the points without bonuses over the master total:
#: only the Greek one (GR-7); the others' pages show the same figure without citing a rule for it
PERCENTAGE_RULES = {"greek": "GR-7"}


@dataclass
class MoveLine:
    """One player's move: the points counted, the bonus, the reasons for 0, whether it matched the top."""

    move: int
    score: int
    bonus: int = 0
    reasons: list[str] = field(default_factory=list)
    top: bool = False
    verdict: Verdict | None = None
    running: int = 0

    def written(self) -> str:
        """Position and word as the player wrote them."""
        if self.verdict is None:
            return ""
        return f"{self.verdict.slip.position} {self.verdict.slip.word}".strip()


@dataclass
class PlayerLine:
    player: Player
    moves: list[MoveLine]
    points: int
    bonus: int
    percentage: Fraction
    top_moves: int
    best_move: int
    place: int = 0
    playoff: bool = False

    @property
    def total(self) -> int:
        return self.points + self.bonus


@dataclass(frozen=True)
class BonusAward:
    move: int
    player: str
    value: int
    why: str


@dataclass(frozen=True)
class MasterLine:
    move: int
    rack: str
    position: str
    word: str
    score: int
    top: int | None
    running: int
    by: str
    ties: int
    remarks: tuple[str, ...]


@dataclass
class GameResult:
    game_id: str
    title: str
    rules: str
    lexicon: str
    masters: list[MasterLine]
    master_total: int
    lines: list[PlayerLine]
    bonuses: list[BonusAward]
    end: End | None
    unattributed: list[Verdict]
    #: the best score of any player in each move (FISE-15's Mx)
    best_by_move: dict[int, int]
    #: the FISE-19 ranking of a sudden-death game (None for other variants)
    sudden_death: list[SuddenDeathLine] | None = None
    #: the arbiter's decisions on closed moves, each with its effect (FISE-17, GR-5D)
    decisions: list[Effect] = field(default_factory=list)
    #: the rule that defines the percentage shown (:data:`PERCENTAGE_RULES`), '' when the rule set defines none
    percentage_rule: str = ""
    _lines_by_player: dict[str, PlayerLine] = field(default_factory=dict, repr=False, compare=False)
    #: what the next results of the same game reuse (:func:`compute`): the state's lineage and journal position,
    #: and each closed move's bonuses, best score and slips of nobody's
    _made_from: tuple[int, int] = field(default=(0, 0), repr=False, compare=False)
    _moves: list[tuple[list[BonusAward], int, list[Verdict]]] = field(default_factory=list, repr=False,
                                                                       compare=False)

    def line(self, player: str) -> PlayerLine:
        # indexed once: every phone of a national game asks for its own line
        if len(self._lines_by_player) != len(self.lines):
            self._lines_by_player = {line.player.number: line for line in self.lines}
        return self._lines_by_player[player]


def compute(game: Game, lexicon: Lexicon, before: GameResult | None = None) -> GameResult:
    """The results of a game as its journal stands (closed moves only). ``before``: the results of an earlier
    position of the same state (:attr:`Game.lineage`): the moves no event since may have changed
    (:meth:`Game.first_changed_since`) are taken from it, not judged again (a close late in a national game
    judges its own move's slips, not fifteen moves' ten thousand each)."""
    rules = game.rules
    closed = [m for m in game.moves if m.master is not None]
    players = dict(game.players)
    if not players:
        for _, number in game.slips:
            if number.strip():
                players.setdefault(number, Player(number))
    # FISE-19: in a sudden-death game a player is out after the first move he scores below the best of those
    # still in; nothing he scores after it counts
    sudden = game.settings.variant == "sudden-death"
    order = sorted(
        players.values(), key=lambda p: number_order(p.number)
    )
    kept = _reusable(game, before, len(closed), order) if not sudden else 0
    verdicts: dict[tuple[int, str], Verdict] = {}
    unattributed: dict[int, list[Verdict]] = {}
    alike: dict[Hashable, Verdict] = {}  # slips written alike judged once (Game.verdict)
    for (move, number), slip in game.slips.items():
        if move > len(closed) or move <= kept:
            continue
        verdict = game.verdict(slip, lexicon, alike)
        if number in players:
            verdicts[(move, number)] = verdict
        else:
            unattributed.setdefault(move, []).append(verdict)
    lines: dict[str, list[MoveLine]] = {p.number: [] for p in order}
    bonuses: list[BonusAward] = []
    best_by_move: dict[int, int] = {}
    made: list[tuple[list[BonusAward], int, list[Verdict]]] = []
    #: the lines taken from ``before`` whose totals are over exactly the moves kept: carried forward, not summed again
    carried: dict[str, PlayerLine] = {}
    if kept:
        assert before is not None
        for p in order:
            was = before.line(p.number)
            lines[p.number] = was.moves[:kept]
            if len(was.moves) == kept:
                carried[p.number] = was
        for n, (awarded, best, nobodys) in enumerate(before._moves[:kept], start=1):
            bonuses.extend(awarded)
            best_by_move[n] = best
            unattributed[n] = nobodys
        made = before._moves[:kept]
    alive = {p.number for p in order}
    for state in closed[kept:]:
        m = state.master
        assert m is not None
        top = m.top if m.top is not None else m.score
        row: dict[str, MoveLine] = {}
        for p in order:
            v = verdicts.get((state.number, p.number))
            absent = seats.absent_at(p, state.number)
            if sudden and p.number not in alive:
                line = MoveLine(state.number, 0, reasons=["out"], verdict=v)
            elif v is None:
                line = MoveLine(state.number, 0, reasons=[absent or "no-slip"])
            else:
                line = MoveLine(state.number, v.score, reasons=v.codes(), verdict=v)
            line.top = line.score > 0 and line.score >= top
            row[p.number] = line
            lines[p.number].append(line)
        # a seat that does not play the move (not yet entered, withdrawn, disqualified) takes no bonus and is
        # nobody's best (FISE-11, FISE-15's Mx)
        active = [n for n, line in row.items() if _SAT_OUT.isdisjoint(line.reasons)]
        best_by_move[state.number] = max((row[n].score for n in active), default=0)
        if sudden:
            alive -= {n for n in alive if row[n].score < best_by_move[state.number]}
        awarded = _bonuses(rules.bonus, state.number, {n: row[n].score for n in active}, top)
        for award in awarded:
            row[award.player].bonus += award.value
            bonuses.append(award)
        made.append((awarded, best_by_move[state.number], unattributed.get(state.number, [])))
    result_lines = []
    total_master = game.master_total()
    for p in order:
        ms = lines[p.number]
        carry = carried.get(p.number)
        if carry is None:
            start = running = points = bonus = top_moves = 0
            best_move: int | None = None
        else:  # the moves kept: their totals as ``before`` summed them (their lines' running totals are set)
            start, running, points, bonus = kept, ms[kept - 1].running, carry.points, carry.bonus
            top_moves, best_move = carry.top_moves, carry.best_move
        for line in ms[start:]:
            running += line.score
            line.running = running
            points += line.score
            bonus += line.bonus
            top_moves += line.top
            best_move = line.score if best_move is None or line.score > best_move else best_move
        result_lines.append(
            PlayerLine(
                player=p,
                moves=ms,
                points=points,
                bonus=bonus,
                percentage=Fraction(points, total_master) if total_master else Fraction(0),
                top_moves=top_moves,
                best_move=best_move if best_move is not None else 0,
            )
        )
    rank(result_lines, rules.tie_breaks)
    masters = []
    running = 0
    for state in closed:
        m = state.master
        assert m is not None
        running += m.score
        masters.append(
            MasterLine(
                state.number,
                _rack_text(game, state.rack),
                m.placement.coord.format(rules.notation),
                game.alphabet.format(m.placement.word),
                m.score,
                m.top,
                running,
                m.by,
                len(m.ties),
                tuple(m.remarks),
            )
        )
    result = GameResult(
        game.id,
        game.settings.title or game.id,
        Text(rules.title),  # a shipped rule set's title is a message of the catalogs
        game.settings.lexicon,
        masters,
        total_master,
        result_lines,
        bonuses,
        game.end,
        [v for n in sorted(unattributed) for v in unattributed[n]],
        best_by_move,
    )
    result._made_from, result._moves = (game.lineage, game.last_seq), made
    result.percentage_rule = PERCENTAGE_RULES.get(rules.name, "")
    if game.settings.variant == "sudden-death":
        result.sudden_death = sudden_death(result)
    result.decisions = effects(game.decisions, lambda slip: game.verdict(slip, lexicon).score)
    return result


#: a move line's reasons that say its seat did not play the move: no bonus, nobody's best (FISE-11, FISE-15's Mx)
_SAT_OUT = frozenset({"out", *seats.ABSENCES})


def _reusable(game: Game, before: GameResult | None, closed: int, order: Sequence[Player]) -> int:
    """How many moves, from the first, :func:`compute` takes from ``before``: those no event since changed, of
    the same state's lineage and the same players (a game without players, whose lines come from its slips,
    reuses none)."""
    if before is None or not game.players:
        return 0
    lineage, seq = before._made_from
    if lineage != game.lineage or seq > game.last_seq:
        return 0
    kept = min(game.first_changed_since(seq) - 1, len(before._moves), closed)
    if kept <= 0 or len(before.lines) != len(order):
        return 0
    known = {line.player.number for line in before.lines}
    return kept if all(p.number in known for p in order) else 0


def _rack_text(game: Game, rack: tuple[int, ...]) -> str:
    return "".join(
        game.alphabet.label(t) if len(game.alphabet.label(t)) == 1 else f"[{game.alphabet.label(t)}]"
        for t in sort_tiles(rack)
    )


def _bonuses(bonus: Bonus, move: int, scores: dict[str, int], top: int) -> list[BonusAward]:
    """FISE-11 for one move."""
    if bonus.mode == "none" or not scores:
        return []
    if bonus.mode == "automatic":
        matched = [n for n, s in scores.items() if s > 0 and s >= top]
        if len(matched) == 1:
            return [BonusAward(move, matched[0], bonus.top, Text("alone matched the program's top score"))]
        if matched:
            return []
        best = max(scores.values())
        leaders = [n for n, s in scores.items() if s == best]
        if best > 0 and len(leaders) == 1:
            return [BonusAward(move, leaders[0], bonus.best, Text("alone had the best score among the players"))]
        return []
    best = max(scores.values())
    leaders = [n for n, s in scores.items() if s == best]
    if best > 0 and len(leaders) == 1:
        return [BonusAward(move, leaders[0], bonus.manual, Text("alone reached the round's maximum"))]
    return []


def tie_key(line: PlayerLine, tie_breaks: tuple[str, ...]) -> tuple[int, ...]:
    """A line's place key (FISE-15): its total, then the tie-breaks in order, the best first."""
    k = [-line.total]
    if "top-moves" in tie_breaks:
        k.append(-line.top_moves)
    if "best-move" in tie_breaks:
        k.append(-line.best_move)
    return tuple(k)


def rank(lines: list[PlayerLine], tie_breaks: tuple[str, ...]) -> None:
    """Sort and place players (FISE-15): total, then the tie-breaks in order; equal players share the place,
    and are flagged for a playoff when ``playoff`` is among the tie-breaks."""
    # each line's key made once: a national game's 10,000 lines must not compare every pair, nor make keys anew
    keys = {id(line): tie_key(line, tie_breaks) for line in lines}
    lines.sort(key=lambda line: (keys[id(line)], number_order(line.player.number)))
    for i, line in enumerate(lines):
        line.place = lines[i - 1].place if i and keys[id(lines[i - 1])] == keys[id(line)] else i + 1
    if "playoff" in tie_breaks:
        shared = Counter(keys.values())
        for line in lines:
            line.playoff = shared[keys[id(line)]] > 1



# --- sudden death (FISE-19) -------------------------------------------------------------------------------------------


@dataclass
class SuddenDeathLine:
    player: str
    name: str
    moves: int
    last_score: int
    out_at: int | None
    place: int = 0


def sudden_death(result: GameResult, among: Sequence[str] | None = None) -> list[SuddenDeathLine]:
    """Rank players by FISE-19: moves survived, then the score of the last move. ``among`` limits it to some
    players (a playoff between tied players, FISE-15)."""
    lines = [ln for ln in result.lines if among is None or ln.player.number in among]
    alive = {ln.player.number for ln in lines}
    out: dict[str, SuddenDeathLine] = {}
    moves = len(result.masters)
    for i in range(moves):
        scores = {ln.player.number: ln.moves[i].score for ln in lines if ln.player.number in alive}
        if not scores:
            break
        best = max(scores.values())
        for number, score in scores.items():
            if score < best:
                alive.discard(number)
                ln = next(x for x in lines if x.player.number == number)
                out[number] = SuddenDeathLine(number, ln.player.label(), i + 1, score, i + 1)
    for ln in lines:
        if ln.player.number in alive:
            last = ln.moves[moves - 1].score if moves else 0
            out[ln.player.number] = SuddenDeathLine(ln.player.number, ln.player.label(), moves, last, None)
    ranked = sorted(out.values(), key=lambda s: (-s.moves, -s.last_score, s.player))
    for i, s in enumerate(ranked):
        prev = ranked[i - 1] if i else None
        s.place = prev.place if prev and (prev.moves, prev.last_score) == (s.moves, s.last_score) else i + 1
    return ranked


# --- several games -----------------------------------------------------------------------------------------


@dataclass
class Standing:
    name: str
    places: list[int | None]
    mean_place: Fraction
    mean_percentage: Fraction
    total: int
    games: int
    place: int = 0
    #: the registry id the player is matched by across games (empty: an unregistered player, matched by name)
    player: str = ""


def _identity(p: Player) -> str:
    return p.name or " + ".join(p.members) or p.number


#: who a game's player is: number -> (registry id, name in the registry)
Registered = Mapping[str, tuple[str, str]]


def _lines_by_person(r: GameResult, registered: Registered) -> dict[tuple[str, str], PlayerLine]:
    """A game's lines keyed by (registry id, name): a registered player by his registry id, never his spelling;
    an unregistered one by name, two of one name in a game kept apart by their numbers."""
    names = Counter(_identity(ln.player) for ln in r.lines if ln.player.number not in registered)
    out: dict[tuple[str, str], PlayerLine] = {}
    for ln in r.lines:
        if ln.player.number in registered:
            out[registered[ln.player.number]] = ln
        else:
            name = _identity(ln.player)
            out[("", name if names[name] == 1 else f"{name} ({ln.player.number})")] = ln
    return out


def standings(
    results: list[GameResult], method: str = "mean-place", registered: Sequence[Registered] = ()
) -> list[Standing]:
    """Multi-game standings (FISE-15): ``mean-place``, ``mean-percentage`` or ``total``. ``registered[i]`` names
    the registered players of ``results[i]`` (a game of a tournament): they are matched across games by registry
    id, so a typo does not split a person and two people of one name stay two; the others by name."""
    if method not in STANDING_METHODS:
        raise ValueError(f"unknown standings method {method!r}; known: {', '.join(STANDING_METHODS)}")
    # each game's lines by person, indexed once (a national game's standings must not search every line per name)
    by_game = [_lines_by_person(r, registered[i] if i < len(registered) else {}) for i, r in enumerate(results)]
    known: dict[tuple[str, str], None] = {}  # in order of first appearance
    for lines in by_game:
        for person in lines:
            known.setdefault(person)
    people = list(known)
    last = len(people)
    out = []
    for person in people:
        places: list[int | None] = []
        ratio = Fraction(0)
        n = 0
        total = 0
        games = 0
        for r, lines in zip(results, by_game, strict=True):
            line = lines.get(person)
            places.append(line.place if line else None)
            if line:
                games += 1
                total += line.total
            for move, best in r.best_by_move.items():
                if best <= 0:
                    continue
                n += 1
                if line:
                    ratio += Fraction(line.moves[move - 1].score, best)
        mean_place = Fraction(sum(p if p is not None else last for p in places), len(results) or 1)
        out.append(Standing(person[1], places, mean_place, ratio / n if n else Fraction(0), total, games,
                            player=person[0]))

    def key(s: Standing) -> tuple[object, ...]:
        if method == "mean-place":
            return (s.mean_place, -s.mean_percentage)
        if method == "mean-percentage":
            return (-s.mean_percentage, s.mean_place)
        return (-s.total, s.mean_place)

    out.sort(key=lambda s: (key(s), s.name, s.player))
    for i, s in enumerate(out):
        s.place = out[i - 1].place if i and key(out[i - 1]) == key(s) else i + 1
    return out


def rating_percentage(percentages: list[Fraction]) -> Fraction:
    """FISE-22 (b): the mean of a player's per-game percentages without the best and the worst (with fewer
    than three games nothing is dropped)."""
    if not percentages:
        return Fraction(0)
    kept = sorted(percentages)[1:-1] if len(percentages) >= 3 else list(percentages)
    return sum(kept, Fraction(0)) / len(kept)
