"""The draw of the letter groups (RO-1.1, RO-5.2.d–f, RO-8.1, RO-8.2, RO-8.4).

All 100 tiles are split into group 1 (2 letters) and groups 2–15 (7 letters each). Group 1 must form *both
words*
(RO-5.2.d: both orders of its two letters are words; a doubled letter needs one word). Each 7-letter group
holds at
least one vowel and one consonant (RO-5.2.e); a group that does not is put back and drawn again. When, near
the end,
the last group(s) cannot meet the condition, the letters of the smallest number of last, consecutively drawn
groups
for which it can be met go back into the bag, and those groups are drawn again one by one under supervision
(every draw must meet the condition *and* leave the rest able to meet it). Letters are shown sorted
alphabetically,
blanks last (RO-5.2.f).

>>> from arbitru.engine.lexicon import Lexicon
>>> from arbitru.engine.tiles import alphabet
>>> ro = alphabet("ro")
>>> lex = Lexicon.from_words(["AL", "LA", "AM", "MA", "AN", "NA", "AS", "SA", "EL", "LE", "II"], ro)
>>> rules = GroupRules(ro, lex)
>>> d = draw_groups(rules, seed=7)
>>> len(d.groups), [len(g) for g in d.groups][:3], sum(len(g) for g in d.groups)
(15, [2, 7, 7], 100)
>>> draw_groups(rules, seed=7).groups == d.groups   # a seeded draw is reproducible
True
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arbitru.engine.board import Board
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.movegen import generate
from arbitru.engine.tiles import BLANK, Alphabet, Bag, Rack
from arbitru.errors import ArbitruError, TileError
from arbitru.formats import payload
from arbitru.formats.anticipation.variants import GROUP1_SIZE, GROUP_SIZE, GROUPS, Settings
from arbitru.messages import Text
from arbitru.textinput import ascii_number, csv_rows

MAX_ATTEMPTS = 2000  # draws of one group before it is said not to meet the condition
ESCALATE = 5  # regroupings before one more group is returned
MAX_REGROUPS = 200


class DrawError(ArbitruError):
    """A draw that cannot be completed under its conditions."""


class GroupsError(ArbitruError):
    """Groups entered by hand that break the rules or do not match the tile set; lists every problem."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def sort_group(tiles: Iterable[int]) -> list[int]:
    """Alphabetical order, blanks last (RO-5.2.f)."""
    return sorted(tiles, key=lambda t: (t == BLANK, t))


def format_group(alpha: Alphabet, tiles: Iterable[int]) -> str:
    return alpha.format(sort_group(tiles))


def parse_group(alpha: Alphabet, text: str) -> list[int]:
    """``"ACEIRT?"`` → tiles (``?`` is a blank); letters are folded (Ă → A)."""
    cleaned = re.sub(r"[\s,;.\-]", "", text)
    return sort_group(alpha.parse_rack(cleaned.upper()).tiles())


class GroupRules:
    """The conditions a group must meet, for one variant and blank setting."""

    def __init__(
        self,
        alpha: Alphabet,
        lexicon: Lexicon | None,
        *,
        variant: str = "classic",
        blank_counts: str = "neither",
    ) -> None:
        self.alpha = alpha
        self.lexicon = lexicon
        self.variant = variant
        self.blank_counts = blank_counts

    @classmethod
    def for_settings(cls, settings: Settings, alpha: Alphabet, lexicon: Lexicon | None) -> GroupRules:
        return cls(alpha, lexicon, variant=settings.variant, blank_counts=settings.blank_counts)

    # --- letters --------------------------------------------------------------------------------------------

    def is_vowel(self, tile: int) -> bool:
        if tile == BLANK:
            return self.blank_counts == "vowel"
        return self.alpha.is_vowel(tile)

    def is_consonant(self, tile: int) -> bool:
        if tile == BLANK:
            return self.blank_counts == "consonant"
        return not self.alpha.is_vowel(tile)

    def counts(self, tiles: Iterable[int]) -> tuple[int, int]:
        """(vowels, consonants) under the blank setting."""
        tiles = list(tiles)
        return sum(map(self.is_vowel, tiles)), sum(map(self.is_consonant, tiles))

    # --- conditions -----------------------------------------------------------------------------------------

    def group1_problem(self, tiles: Sequence[int]) -> str | None:
        """Why group 1 fails its condition, or None (RO-5.2.d; RO-8.1 for avocalic)."""
        if len(tiles) != GROUP1_SIZE:
            return f"group 1 has {len(tiles)} letters, not {GROUP1_SIZE}"
        text = format_group(self.alpha, tiles)
        if self.variant == "avocalic":
            g, j = self.alpha.code("G"), self.alpha.code("J")
            if not any(self.is_consonant(t) and t not in (g, j) for t in tiles):
                return f"group 1 ({text}) needs a consonant other than G and J (RO-8.1)"
            return None
        if not self.both_words(tiles):
            return f"group 1 ({text}) does not form both words (RO-5.2.d)"
        return None

    def both_words(self, tiles: Sequence[int]) -> bool:
        """Both orders of the two letters are words (a doubled letter: one); a blank may be any letter."""
        if self.lexicon is None:
            raise DrawError(Text("the draw of group 1 needs the word list (RO-5.2.d)"))
        a, b = tiles
        letters = range(1, self.alpha.size + 1)
        for x in letters if a == BLANK else (a,):
            for y in letters if b == BLANK else (b,):
                if self.lexicon.contains_tiles((x, y)) and self.lexicon.contains_tiles((y, x)):
                    return True
        return False

    def group_problem(self, tiles: Sequence[int]) -> str | None:
        """Why a 7-letter group fails its condition, or None (RO-5.2.e; RO-8.1; RO-8.2)."""
        if len(tiles) != GROUP_SIZE:
            return f"{len(tiles)} letters, not {GROUP_SIZE}"
        if self.variant == "avocalic":
            return None
        vowels, consonants = self.counts(tiles)
        text = format_group(self.alpha, tiles)
        if not vowels:
            return f"{text} has no vowel (RO-5.2.e)"
        if not consonants:
            return f"{text} has no consonant (RO-5.2.e)"
        if self.variant == "endurance" and stand_alone_scrabble(self.alpha, self.lexicon, tiles) is None:
            return f"{text} forms no stand-alone 7-letter word (RO-8.2)"
        return None

    def feasible(self, pool: Sequence[int], groups: int) -> bool:
        """Can ``pool`` (7 × groups tiles) be split into ``groups`` groups meeting the letter-count condition?

        Exact for the vowel/consonant condition; for RO-8.2 a necessary condition (the words are tried by
        drawing).
        """
        if groups <= 0 or self.variant == "avocalic":
            return True
        vowels, consonants = self.counts(pool)
        return vowels >= groups and consonants >= groups


def stand_alone_scrabble(alpha: Alphabet, lexicon: Lexicon | None, tiles: Sequence[int]) -> list[int] | None:
    """The best word using all the tiles (blanks as any letter) on an empty board, or None (RO-8.2)."""
    if lexicon is None:
        raise DrawError(Text("checking stand-alone scrabbles needs the word list (RO-8.2)"))
    best = generate(Board(alpha), Rack(alpha, tiles), lexicon, use_all=True, top=1)
    return list(best[0][0].word) if tiles and best else None


def _words_with(
    alpha: Alphabet, lexicon: Lexicon, pool: Sequence[int], must: int, size: int, budget: int
) -> list[list[int]]:
    """Groups of ``size`` tiles from the pool that spell a word using the tile ``must`` (RO-8.2).

    Walks the GADDAG from ``must`` (every word through that letter), else the DAWG when the list has none.
    """
    counts = Rack(alpha, pool).counts
    found: list[list[int]] = []
    taken: list[int] = []
    steps = 0

    def walk(node: int, separated: bool, has_must: bool) -> None:
        nonlocal steps
        for tile, accepts, child in lexicon.arcs(node):
            steps += 1
            if steps > budget:
                return
            if tile == 0:  # the GADDAG separator: from the reversed prefix to the suffix
                if not separated and child:
                    walk(child, True, has_must)
                continue
            for key in (tile, BLANK):
                if not counts[key] or (key == BLANK and counts[tile]):
                    continue
                counts[key] -= 1
                taken.append(key)
                if len(taken) == size:
                    if accepts and (has_must or key == must):
                        found.append(list(taken))
                elif child:
                    walk(child, separated, has_must or key == must)
                taken.pop()
                counts[key] += 1

    if lexicon.gaddag_root and counts[must]:
        first = lexicon.follow(lexicon.gaddag_root, must)
        if first is not None:
            counts[must] -= 1
            taken.append(must)
            walk(first[1], False, True)
    else:
        walk(lexicon.dawg_root, True, False)
    return found


def _partition(
    rules: GroupRules, pool: list[int], n: int, rng: Any, budget: list[int]
) -> list[list[int]] | None:
    """Split the pool into n groups that each meet the condition, hardest tile first (a supervised redraw)."""
    if n == 0:
        return []
    if budget[0] <= 0 or not rules.feasible(pool, n):
        return None
    alpha = rules.alpha
    # the tile with the fewest words is usually the one worth most (X, Z, H, J, ...)
    must = max(pool, key=lambda t: (t != BLANK, alpha.values[t] if t != BLANK else -1, t))
    options = _words_with(alpha, rules.lexicon, pool, must, GROUP_SIZE, 20000) if rules.lexicon else []
    budget[0] -= 1
    rng.shuffle(options)
    # keep the letters left balanced: words with about the pool's share of vowels first
    share = sum(1 for t in pool if t != BLANK and alpha.is_vowel(t)) * GROUP_SIZE / len(pool)
    options.sort(key=lambda o: abs(sum(1 for t in o if t != BLANK and alpha.is_vowel(t)) - share))
    tried: set[tuple[int, ...]] = set()
    for option in options[:12]:
        key = tuple(sorted(option))
        if key in tried or rules.group_problem(option) is not None:
            continue
        tried.add(key)
        rest = list(pool)
        for t in option:
            rest.remove(t)
        found = _partition(rules, rest, n - 1, rng, budget)
        if found is not None:
            return [option, *found]
    return None


@dataclass
class Draw:
    """The groups (index 0 = group 1), each sorted, and how they were obtained."""

    groups: list[list[int]]
    method: str  # "seeded" (a known seed), "secret" (the game's secret) or "manual"
    seed: int | None = None
    #: redraws per group and every regrouping (RO-5.2.e), for the record
    log: list[dict[str, Any]] = field(default_factory=list)

    def labels(self, alpha: Alphabet) -> list[str]:
        return [format_group(alpha, g) for g in self.groups]

    def to_payload(self, alpha: Alphabet) -> dict[str, Any]:
        return {"groups": self.labels(alpha), "method": self.method, "seed": self.seed, "log": self.log}

    @classmethod
    def from_payload(cls, alpha: Alphabet, data: Mapping[str, Any]) -> Draw:
        """:raises PayloadError: for a field of the wrong type or not 15 groups."""
        groups = [parse_group(alpha, g) for g in payload.texts(data, "groups")]
        if len(groups) != GROUPS:
            raise payload.PayloadError(f"{len(groups)} groups, not {GROUPS}")
        log = [dict(entry) for entry in payload.mappings(data, "log", [])]
        return cls(groups, payload.text(data, "method"), payload.optional_integer(data, "seed"), log)


def groups_to_return(rules: GroupRules, drawn: Sequence[Sequence[int]], bag: Sequence[int], left: int) -> int:
    """How many of the last drawn 7-letter groups go back into the bag (RO-5.2.e).

    ``drawn`` are groups 2.. drawn so far, ``bag`` the tiles left, ``left`` the groups not yet drawn (their
    letters
    are in the bag). Returns the smallest ``k`` such that the last ``k`` drawn groups plus the bag can be
    split into
    ``k + left`` groups that each meet the condition. The RO-5.2.e example:

    >>> from arbitru.engine.tiles import alphabet
    >>> ro = alphabet("ro")
    >>> rules = GroupRules(ro, None)
    >>> g = lambda s: parse_group(ro, s)
    >>> drawn = [g("ABCDEFG")] * 11 + [g("AEBCDFG"), g("ABCDFGH")]   # groups 2..14: 13 has 2 vowels, 14 one
    >>> groups_to_return(rules, drawn, g("BCDFGHJ"), 1)             # group 15 would have no vowel
    2
    """
    pool = list(bag)
    for k in range(1, len(drawn) + 1):
        pool.extend(drawn[-k])
        if rules.feasible(pool, left + k):
            return k
    raise DrawError(Text("no regrouping of the 7-letter groups can meet the condition (RO-5.2.e)"))


def draw_groups(
    rules: GroupRules,
    seed: int | None = None,
    bag: Bag | None = None,
    *,
    max_attempts: int = MAX_ATTEMPTS,
    rng: random.Random | None = None,
) -> Draw:
    """Draw the 15 groups the way the arbiter does in the hall (RO-5.2.d–e), reproducibly from ``seed`` (a known
    seed) or ``rng`` (the game's secret, :mod:`arbitru.formats.fairness`: method ``secret``)."""
    alpha = rules.alpha
    bag = bag if bag is not None else Bag(alpha, seed)
    method = "seeded"
    if rng is not None:
        bag.random, method = rng, "secret"
    log: list[dict[str, Any]] = []

    g1: list[int] | None = None
    for attempt in range(1, max_attempts + 1):
        tiles = bag.draw(GROUP1_SIZE)
        if rules.group1_problem(tiles) is None:
            g1 = tiles
            log.append({"group": 1, "redraws": attempt - 1})
            break
        bag.put_back(tiles)
    if g1 is None:
        raise DrawError(Text("no group 1 meeting the condition in %(n)s draws", n=max_attempts))
    groups: list[list[int]] = [sort_group(g1)]
    supervised_from: int | None = None
    regroups = 0
    if rules.variant == "endurance":
        # RO-8.2: random draws rarely leave letters that still form 7-letter words at the end, so the 14
        # groups
        # are chosen by a seeded search: each at random among the words of the letters left that use the
        # hardest letter left (the vowel/consonant condition holds as well)
        for _ in range(5):
            parts = _partition(rules, list(bag.tiles), GROUPS - 1, bag.random, [300])
            if parts is not None:
                for tiles in parts:
                    bag.remove(tiles)
                    groups.append(sort_group(tiles))
                log.append({"searched": list(range(2, GROUPS + 1))})
                return Draw(groups, method, seed, log)
        raise DrawError(
            Text("no split of the letters into 14 groups that each form a 7-letter word was found (RO-8.2)")
        )

    while len(groups) < GROUPS:
        number = len(groups) + 1
        left = GROUPS - len(groups)
        supervised = supervised_from is not None and number >= supervised_from
        accepted: list[int] | None = None
        if _can_meet(rules, bag.tiles, left, supervised):
            forced = len(bag) == GROUP_SIZE
            for attempt in range(1, (1 if forced else max_attempts) + 1):
                tiles = bag.draw(GROUP_SIZE)
                ok = rules.group_problem(tiles) is None
                if ok and supervised and not rules.feasible(bag.tiles, left - 1):
                    ok = False
                if ok:
                    accepted = tiles
                    log.append({"group": number, "redraws": attempt - 1})
                    break
                bag.put_back(tiles)
        if accepted is not None:
            groups.append(sort_group(accepted))
            continue
        # RO-5.2.e: the last group(s) cannot meet the condition: regroup. The smallest number that can meet
        # the
        # letter-count condition is returned; when the draws keep failing there (RO-8.2: no 7-letter word),
        # one
        # more group goes back every few tries.
        drawn = groups[1:]
        regroups += 1
        k = min(len(drawn), groups_to_return(rules, drawn, bag.tiles, left) + (regroups - 1) // ESCALATE)
        if regroups > MAX_REGROUPS:
            raise DrawError(
                Text("the draw cannot be completed under its conditions after %(n)s regroupings", n=MAX_REGROUPS)
            )
        back = list(range(number - k, GROUPS + 1))
        log.append(
            {
                "regroup": back,
                "why": f"group {number} cannot meet the condition with the letters left "
                f"({format_group(alpha, bag.tiles)})",
            }
        )
        for tiles in groups[-k:]:
            bag.put_back(tiles)
        del groups[-k:]
        supervised_from = number - k
    return Draw(groups, method, seed, log)


def _can_meet(rules: GroupRules, bag: Sequence[int], left: int, supervised: bool) -> bool:
    if supervised:
        return rules.feasible(bag, left)
    if rules.variant == "avocalic":
        return True
    if len(bag) == GROUP_SIZE:
        return rules.feasible(bag, 1)
    vowels, consonants = rules.counts(bag)
    return vowels > 0 and consonants > 0


# --- groups entered by hand ---------------------------------------------------------------------------------


_LINE = re.compile(r"^\s*(?:(?:grupa\s*)?([0-9]+)\s*[:.)=]\s*|([0-9]+)\s+)?(.*?)\s*$", re.IGNORECASE)


def parse_groups(alpha: Alphabet, text: str) -> list[list[int]]:
    """Read groups written one per line: ``AL``, ``2: ACEIRT?``, ``3 BDEIMOR``; ``#`` starts a comment.

    :raises GroupsError: naming the line of a letter that is not in the tile set or a number out of order.
    """
    groups: list[list[int]] = []
    problems: list[str] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0]
        if not line.strip():
            continue
        m = _LINE.match(line)
        assert m is not None
        number = m.group(1) or m.group(2)
        letters = m.group(3)
        if number is not None and ascii_number(number) != len(groups) + 1:
            problems.append(f"line {lineno}: group number {number}, expected {len(groups) + 1}")
        try:
            groups.append(parse_group(alpha, letters))
        except TileError as e:
            problems.append(f"line {lineno}: {e}")
            groups.append([])
    if problems:
        raise GroupsError(problems)
    return groups


def group_problems(rules: GroupRules, groups: Sequence[Sequence[int]], who: str = "") -> list[str]:
    """Every way these 15 groups break RO-1.1, RO-3.1 or the group conditions (empty when they are right)."""
    alpha = rules.alpha
    prefix = f"{who}: " if who else ""
    problems: list[str] = []
    if len(groups) != GROUPS:
        problems.append(f"{prefix}{len(groups)} groups, not {GROUPS} (RO-1.1)")
    for i, tiles in enumerate(groups, 1):
        size = GROUP1_SIZE if i == 1 else GROUP_SIZE
        if len(tiles) != size:
            problems.append(
                f"{prefix}group {i} ({format_group(alpha, tiles)}) has {len(tiles)} letters, not {size} "
                "(RO-1.1)"
            )
            continue
        problem = rules.group1_problem(tiles) if i == 1 else rules.group_problem(tiles)
        if problem:
            problems.append(f"{prefix}group {i}: {problem}" if i > 1 else f"{prefix}{problem}")
    used = Counter(t for g in groups for t in g)
    for t in range(alpha.size + 1):
        have, want = used.get(t, 0), alpha.counts[t]
        name = alpha.label(t)
        if have > want:
            problems.append(f"{prefix}{name} is used {have} times, the tile set has {want} (RO-3.1)")
        elif have < want:
            problems.append(f"{prefix}{want - have} × {name} missing from the groups (RO-3.1)")
    return problems


def manual_draw(rules: GroupRules, groups: Sequence[Sequence[int]]) -> Draw:
    """Groups drawn in the hall and entered by hand, checked against the rules and the bag.

    :raises GroupsError: listing every problem.
    """
    problems = group_problems(rules, groups)
    if problems:
        raise GroupsError(problems)
    return Draw([sort_group(g) for g in groups], "manual")


def read_sealed_groups_csv(alpha: Alphabet, text: str, source: str = "the sealed groups") -> dict[str, list[list[int]]]:
    """The players' sealed groups of the blind variant (RO-8.4) from CSV ``player,group,letters``, 15 rows a
    player (a header line ``player,…`` is allowed), each player's groups in order. Checked against the rules
    only when handed in (:meth:`~arbitru.formats.anticipation.game.AnticipationGame.hand_in_blind_groups`).

    :raises GroupsError: naming the line of every problem found.
    """
    by_player: dict[str, dict[int, str]] = {}
    for lineno, cells in csv_rows(text, source):
        if not cells or not any(c.strip() for c in cells) or (lineno == 1 and cells[0].strip() == "player"):
            continue
        number = ascii_number(cells[1]) if len(cells) == 3 else None
        if number is None or not 1 <= number <= GROUPS:
            raise GroupsError([f"{source}, line {lineno}: expected player,group,letters (group 1 to {GROUPS})"])
        groups = by_player.setdefault(cells[0].strip(), {})
        if number in groups:  # a sealed group is written once: a second one would silently replace the first
            raise GroupsError([f"{source}, line {lineno}: {cells[0].strip()}: group {number} is given twice"])
        groups[number] = cells[2]
    if not by_player:
        raise GroupsError([f"{source}: no sealed group given: player,group,letters per line"])
    sets = {}
    for player, groups in by_player.items():
        if sorted(groups) != list(range(1, len(groups) + 1)):
            raise GroupsError([f"{player}: groups are numbered {sorted(groups)}, not 1 to {GROUPS}"])
        try:
            sets[player] = [parse_group(alpha, groups[i]) for i in sorted(groups)]
        except TileError as e:
            raise GroupsError([f"{player}: {e}"]) from None
    return sets
