"""Racks by the rules: drawn from the bag under the condition of the move number, redrawn whole when illegal,
every tile accounted for (FISE-4, FISE-10, FISE-13, GR-5A, GR-5B, GR-8.2).

A rack is drawn in *attempts*. The first attempt of a move keeps the previous leave and fills it up to 7; when
the rack is illegal, every tile on it goes back to the bag and 7 are drawn whole, again and again, until one
is legal (FISE-10, GR-5A: "changes all 7 letters"; there is no limit on the number of exchanges — FISE-10
warns against a program that has one). The condition is chosen once per move from the tiles not yet on the
board (:meth:`RackRule.condition`); when no legal rack can be formed from them, the game ends (FISE-4,
FISE-13). Because the existence of a legal rack is checked exactly before any attempt, the redraws end with
probability 1.

Three sources give the tiles: the program (each attempt draws with its own generator, named by the attempt's
label, from the game's secret or a known seed: :mod:`arbitru.formats.fairness`; the label is recorded with the
draw), the referee's hand (the tiles drawn in the hall, checked against the bag), or a prepared list (FISE-7b).
Every draw is recorded whole, so a game replays and resumes after a crash identically without its secret.

>>> from arbitru.engine.tiles import Bag, alphabet
>>> from arbitru.formats.duplicate.rulesets import ruleset
>>> es = alphabet("es")
>>> bag = Bag(es)
>>> draws = draw_seeded(bag, [], [], 1, ruleset("fise").racks, seed=7)
>>> draws[-1].legal, len(draws[-1].rack), len(bag) + len(draws[-1].rack)
(True, 7, 100)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arbitru.engine.tiles import BLANK, Alphabet, Bag
from arbitru.errors import ArbitruError, TileError
from arbitru.formats import fairness, payload
from arbitru.formats.duplicate.rulesets import RackRule
from arbitru.messages import Plural, Text, recognised

Tiles = tuple[int, ...]

#: why a rack is refused (FISE-4, GR-5A): its mix and what the move needs
RACK_REFUSAL = "%(v)s vowel(s), %(c)s consonant(s), %(b)s blank(s): needs %(needs)s"


class RackError(ArbitruError):
    """A rack that cannot be used: tiles not in the bag, the wrong number of tiles, an illegal prepared
    rack."""


def mix_of(alpha: Alphabet, tiles: Iterable[int]) -> tuple[int, int, int]:
    """(vowels, consonants, blanks) of some tiles."""
    v = c = b = 0
    for t in tiles:
        if t == BLANK:
            b += 1
        elif alpha.is_vowel(t):
            v += 1
        else:
            c += 1
    return v, c, b


def labels(alpha: Alphabet, tiles: Iterable[int]) -> list[str]:
    """Tiles as a list of labels (``?`` a blank): unambiguous even for Spanish C + H versus CH."""
    return [alpha.label(t) for t in tiles]


def from_labels(alpha: Alphabet, items: Sequence[str]) -> Tiles:
    """The inverse of :func:`labels`.

    :raises TileError: for a label that is not a tile of the set.
    """
    return tuple(BLANK if x == "?" else alpha.code(x) for x in items)


def parse_tiles(alpha: Alphabet, text: str) -> Tiles:
    """Tiles typed by a referee: ``"CASA?"``; Spanish digraphs are read longest first (``CH``); a digraph's
    letters as separate tiles are written in brackets or with spaces (``"C H"``, ``"[C][H]"``).

    :raises TileError: for a character that is not a tile of the set.
    """
    out: list[int] = []
    for part in text.replace("[", " ").replace("]", " ").split():
        for chunk in part.split("?"):
            if chunk:
                out.extend(alpha.split(chunk.upper()))
        out.extend([BLANK] * part.count("?"))
    return tuple(out)


def sort_tiles(tiles: Iterable[int]) -> Tiles:
    """Alphabet order, blanks last (how a leave is read out, FISE-8)."""
    return tuple(sorted(tiles, key=lambda t: (t == BLANK, t)))


def subtract(whole: Iterable[int], part: Iterable[int]) -> Tiles | None:
    """``whole`` minus ``part`` as multisets, or None when ``part`` is not inside ``whole``."""
    left = Counter(whole)
    for t in part:
        if not left[t]:
            return None
        left[t] -= 1
    return tuple(t for t in sorted(left.elements()))


@dataclass(frozen=True)
class Draw:
    """One attempt at the rack of a move.

    The tiles in ``returned`` go back to the bag first (a rack the referee replaces, FISE-16; a prepared rack
    that does not keep the leave); ``kept`` stay on the rack; ``drawn`` come out of the bag in draw order;
    ``fixed`` is FISE-20's blank, always on the rack. An illegal rack goes back to the bag whole (but
    ``fixed``). ``label`` names a draw the program made (:func:`arbitru.formats.fairness.rack_label`); "" for
    tiles typed from the hall or prepared.
    """

    move: int
    attempt: int
    kept: Tiles
    drawn: Tiles
    legal: bool
    condition: str
    reason: str = ""
    source: str = "seed"
    returned: Tiles = ()
    fixed: Tiles = ()
    label: str = ""

    @property
    def rack(self) -> Tiles:
        return self.fixed + self.kept + self.drawn

    def to_payload(self, alpha: Alphabet) -> dict[str, Any]:
        labelled = {"label": self.label} if self.label else {}
        return labelled | {
            "move": self.move,
            "attempt": self.attempt,
            "kept": labels(alpha, self.kept),
            "drawn": labels(alpha, self.drawn),
            "fixed": labels(alpha, self.fixed),
            "returned": labels(alpha, self.returned),
            "legal": self.legal,
            "condition": self.condition,
            "reason": self.reason,
            "source": self.source,
        }

    @classmethod
    def from_payload(cls, alpha: Alphabet, p: Mapping[str, Any]) -> Draw:
        return cls(
            move=payload.integer(p, "move", low=1),
            attempt=payload.integer(p, "attempt", low=0),
            kept=from_labels(alpha, payload.texts(p, "kept")),
            drawn=from_labels(alpha, payload.texts(p, "drawn")),
            legal=payload.boolean(p, "legal"),
            condition=payload.text(p, "condition"),
            reason=recognised(payload.text(p, "reason", ""), (RACK_REFUSAL,)) if p.get("reason") else "",
            source=payload.text(p, "source", "seed"),
            returned=from_labels(alpha, payload.texts(p, "returned", [])),
            fixed=from_labels(alpha, payload.texts(p, "fixed", [])),
            label=payload.text(p, "label", ""),
        )


def condition_for(
    rule: RackRule,
    alpha: Alphabet,
    move: int,
    bag: Sequence[int],
    rack: Sequence[int],
    fixed: Sequence[int] = (),
) -> str | None:
    """The description of the condition for ``move`` given the bag and the tiles on the rack (``fixed``
    apart), or None when no legal rack exists (the game ends, FISE-4, FISE-13, GR-5B, GR-8.2)."""
    mix = rule.condition(move, mix_of(alpha, [*bag, *rack]), mix_of(alpha, fixed))
    return None if mix is None else mix.describe()


def judge(
    rule: RackRule,
    alpha: Alphabet,
    move: int,
    rack: Sequence[int],
    pool: Sequence[int],
    fixed: Sequence[int] = (),
) -> tuple[bool, str, str]:
    """Is ``rack`` legal at ``move``, the tiles not yet on the board being ``pool`` (bag and rack, ``fixed``
    apart)? Returns (legal, condition, reason)."""
    mix = rule.condition(move, mix_of(alpha, pool), mix_of(alpha, fixed))
    if mix is None:
        return False, "none", Text("no legal rack can be formed from the tiles left")
    v, c, b = mix_of(alpha, rack)
    if rule.holds(mix, v, c, b):
        return True, mix.describe(), ""
    needs = mix.describe()
    return False, needs, Text(RACK_REFUSAL, v=v, c=c, b=b, needs=needs)


def apply(bag: Bag, rack: list[int], draw: Draw) -> None:
    """Carry a draw out on the bag and the rack (the rack list is changed in place): what the draw returns
    goes back, what it draws comes out; an illegal rack goes back whole but its fixed blank.

    :raises TileError: when a tile drawn is not in the bag or a tile returned or kept is not on the rack.
    """
    current = Counter(rack)
    for t in (*draw.returned, *draw.kept, *draw.fixed):
        if not current[t]:
            raise TileError(Text("%(tile)s is not on the rack %(rack)s", tile=bag.alphabet.label(t),
                                  rack=labels(bag.alphabet, rack)))
        current[t] -= 1
    if any(current.values()):
        raise TileError(f"draw {draw.move}.{draw.attempt} leaves rack tiles unaccounted for")
    bag.put_back(draw.returned)
    bag.remove(draw.drawn)
    if draw.legal:
        rack[:] = draw.rack
    else:
        bag.put_back([*draw.kept, *draw.drawn])
        rack[:] = draw.fixed


def need(rule: RackRule, kept: Sequence[int], fixed: Sequence[int], bag: Bag) -> int:
    return min(rule.size - len(kept) - len(fixed), len(bag))


def draw_seeded(
    bag: Bag,
    leave: Sequence[int],
    fixed: Sequence[int],
    move: int,
    rule: RackRule,
    seed: fairness.Source | int | str,
    *,
    first_attempt: int = 1,
    source: str = "seed",
) -> list[Draw]:
    """Every attempt at the rack of ``move``, the last one legal; the bag loses the tiles of that rack. Each
    attempt draws from ``seed`` (a game's secret, or a known seed) under its label (a new rack's when ``source``
    is ``new-rack``).

    :raises RackError: when no legal rack can be formed (check :func:`condition_for` first).
    """
    alpha = bag.alphabet
    rack = [*fixed, *leave]
    pool = [*bag.tiles, *leave]
    if rule.condition(move, mix_of(alpha, pool), mix_of(alpha, fixed)) is None:
        raise RackError(Text("move %(move)s: no legal rack can be formed from the tiles left", move=move))
    draws = []
    attempt = first_attempt
    origin = fairness.source_of(seed)
    while True:
        kept = tuple(rack[len(fixed) :])
        label = fairness.rack_label(move, attempt, new=source == "new-rack")
        drawn = attempt_tiles(bag, kept, fixed, rule, origin.rng(label))
        legal, cond, reason = judge(rule, alpha, move, [*fixed, *kept, *drawn], pool, fixed)
        d = Draw(move, attempt, kept, drawn, legal, cond, reason, source, (), tuple(fixed), label)
        apply(bag, rack, d)
        draws.append(d)
        if legal:
            return draws
        attempt += 1


def attempt_tiles(bag: Bag, kept: Sequence[int], fixed: Sequence[int], rule: RackRule, rng: random.Random) -> Tiles:
    """The tiles one attempt draws with ``rng`` to fill the rack up (the bag is left as it was)."""
    bag.random = rng
    drawn = tuple(bag.draw(need(rule, kept, fixed, bag)))
    bag.put_back(drawn)
    return drawn


def hand_draw(
    bag: Bag,
    rack: Sequence[int],
    fixed: Sequence[int],
    move: int,
    rule: RackRule,
    drawn: Sequence[int],
    attempt: int,
    *,
    source: str = "hand",
    replace: bool = False,
) -> Draw:
    """Judge the tiles a referee drew in the hall (not yet applied: pass the result to :func:`apply`).

    ``rack`` holds the tiles on the rack now (``fixed`` included); with ``replace`` they go back first (a new
    rack, FISE-16) and ``drawn`` is a whole rack.

    :raises RackError: when the number of tiles is wrong or a tile is not left in the bag.
    """
    alpha = bag.alphabet
    nonfixed = subtract(rack, fixed)
    if nonfixed is None:
        raise RackError(Text("the fixed blank is not on the rack"))
    returned = nonfixed if replace else ()
    kept = () if replace else nonfixed
    in_bag = Counter([*bag.tiles, *returned])
    for t, n in Counter(drawn).items():
        if in_bag[t] < n:
            left = in_bag[t]
            raise RackError(Plural("%(tile)s drawn %(n)s time but only %(left)s left in the bag",
                                   "%(tile)s drawn %(n)s times but only %(left)s left in the bag",
                                   tile=alpha.label(t), n=n, left=left))
    want = min(rule.size - len(kept) - len(fixed), len(bag) + len(returned))
    if len(drawn) != want:
        raise RackError(Text("move %(move)s: %(want)s tile(s) must be drawn, not %(n)s", move=move, want=want,
                              n=len(drawn)))
    pool = [*bag.tiles, *nonfixed]
    legal, cond, reason = judge(rule, alpha, move, [*fixed, *kept, *drawn], pool, fixed)
    return Draw(
        move, attempt, tuple(kept), tuple(drawn), legal, cond, reason, source, tuple(returned), tuple(fixed)
    )


def prepared_draw(
    bag: Bag,
    rack: Sequence[int],
    fixed: Sequence[int],
    move: int,
    rule: RackRule,
    prepared: Sequence[int],
    attempt: int,
) -> Draw:
    """The draw that gives a prepared rack (FISE-7b): the leave is kept when the prepared rack holds it, else
    it goes back and the prepared rack comes out of the bag whole.

    :raises RackError: when the prepared tiles are not available or the rack is illegal for its move.
    """
    nonfixed = subtract(rack, fixed) or ()
    rest = subtract(prepared, [*fixed])
    if rest is None:
        raise RackError(Text("prepared rack of move %(move)s lacks the blank every rack holds (FISE-20)", move=move))
    new = subtract(rest, nonfixed)
    if new is not None:
        d = hand_draw(bag, rack, fixed, move, rule, new, attempt, source="prepared")
    else:
        d = hand_draw(bag, rack, fixed, move, rule, rest, attempt, source="prepared", replace=True)
    if not d.legal:
        raise RackError(Text("prepared rack of move %(move)s is illegal: %(why)s", move=move, why=d.reason))
    return d
