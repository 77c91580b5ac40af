"""A duplicate phone's own lines: who its player is, his slip's receipt, his verdicts.

They are drawn here in Python rather than through the template engine because a close draws them once for every
phone (ten thousand in an online game) while the hall around them is drawn once for all: a template's rendering
cost about 0.4 ms a phone, these lines about 20 µs. Their words are said once per journal position and language
(:class:`Words`), the player's values escaped one by one (a value with nothing to escape is itself).
``duplicate/_play.html`` draws the same lines through :func:`own_html`, so the page and its live part never differ.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from markupsafe import Markup, escape

from arbitru import figures
from arbitru.formats.duplicate.game import Game
from arbitru.messages import LIST_SEPARATOR, Gettext
from arbitru.textinput import showable, shown_raw

#: what of a page's context the own lines are drawn from (:func:`arbitru.web.routes.duplicate.own_lines`)
LINES = ("player", "receipt", "own", "line", "seat_closed")


class Words:
    """The words of the phones' own lines in one language, each said and escaped once (the same for every phone of
    a position): ``words("total")``, ``words("move %(n)s", n=3)``."""

    def __init__(self, _: Gettext, lang: str) -> None:
        self._ = _
        self.lang = lang
        self._said: dict[Hashable, Markup] = {}
        self._raw: dict[str, str] = {}
        self._figures: dict[int, str] = {}

    def __call__(self, message: Any, **values: Any) -> Markup:
        if not values and type(message) is str:  # the common case first: a word said already
            said = self._said.get(message)
            if said is not None:
                return said
        if type(message) is not str or any(type(v) not in (str, int) for v in values.values()):
            return Markup(_e(self._(message, **values)))  # a message with values of its own (a Text): said each time
        key: Hashable = (message, *values.items()) if values else message
        said = self._said.get(key)
        if said is None:
            said = self._said[key] = Markup(_e(self._(message, **values)))
        return said

    def raw(self, message: str) -> str:
        """A message with named values of its own in this language, said once and not yet filled in nor escaped
        (``words.raw("move %(n)s") % {"n": 3}``)."""
        said = self._raw.get(message)
        if said is None:
            said = self._raw[message] = self._(message)  # kept as it is: filled, then escaped, by the caller
        return said

    def block(self, key: str, make: Callable[[], str]) -> str:
        """Markup made of this language's words only (a table's head): made once, the same for every phone."""
        said = self._said.get(("block", key))
        if said is None:
            said = self._said[("block", key)] = Markup(make())
        return said

    def figure(self, value: int) -> str:
        """A total as the language writes figures (:func:`arbitru.figures.number`), each written once."""
        said = self._figures.get(value)
        if said is None:
            said = self._figures[value] = figures.number(value, self.lang)
        return said

    def each(self, values: Iterable[Any], separator: str | None = None) -> str:
        """A list of messages (or message codes) said one by one (the templates' ``said`` filter), separated as the
        language separates a list."""
        between = LIST_SEPARATOR.get(self.lang, "; ") if separator is None else separator
        return between.join(self._(v) if isinstance(v, str) else str(v) for v in values)


#: what markupsafe's escape changes in a text
_HTML = re.compile("[&<>\"']")


def _e(value: Any) -> str:
    """A value the page shows, escaped; a stored text with a control character is shown raw and flagged, as the
    templates' finalize does (:func:`arbitru.web.house._shown`). A number, or a text with nothing to escape (most
    of a phone's values: positions, words, names), is itself: ten thousand phones' lines a close."""
    kind = type(value)
    if kind is int:
        return str(value)
    if kind is str and _HTML.search(value) is None and showable(value):
        return str(value)
    return escape(shown_raw(value) if isinstance(value, str) else value)


#: each phone's rows of his moves as last drawn in one language, by player: the results' lines they were drawn from
#: (the objects themselves), the master's score beside each, and the rows' markup (:func:`own_html`)
Drawn = dict[str, tuple[tuple[Any, ...], tuple[int, ...], str]]


def own_html(words: Words, game: Game, lines: dict[str, Any], drawn: Drawn | None = None
             ) -> tuple[Markup, Markup]:
    """A player's own lines around the hall (``lines`` as :func:`arbitru.web.routes.duplicate.own_lines` gives
    them): what comes before the hall (his name, the move, his total, a closed seat) and after it (his receipt, his
    moves). ``drawn``: the rows of his moves drawn at an earlier position, in the language of ``words``, reused
    for the moves whose results are the same objects (:func:`arbitru.formats.duplicate.results.compute` keeps the
    moves no event changed), and updated."""
    player = lines.get("player")
    line = lines.get("line")
    head: list[str] = []
    if player is not None:
        if game.phase == "play":
            status = words("move %(n)s", n=game.move)
        elif game.phase == "over":
            status = words("game over")
        else:
            status = words("waiting for move %(n)s", n=game.move + 1)
        head.append(f"<p><strong>{_e(player.label())}</strong> · {status}\n")
        if line is not None:
            head.append(f"· {words('total')} {_e(words.figure(line.total))}")
        head.append("</p>\n")
    if lines.get("seat_closed"):
        head.append(f'<p class="error" id="seat-closed"><b>{words(lines["seat_closed"])}</b></p>\n')
    tail: list[str] = []
    receipt = lines.get("receipt")
    if receipt:
        tail.append(_receipt(words, game, receipt))
    own = lines.get("own")
    if own:
        tail.append(words.block("verdicts", lambda: (
            f"<h2>{words('Your moves')}</h2>\n"
            f"<table id=\"verdicts\"><tr><th>{words('move')}</th><th>{words('you wrote')}</th>"
            f"<th>{words('points')}</th><th>{words('bonus')}</th><th>{words('master')}</th></tr>\n")))
        tail.append(_rows(words, own, player.number if player is not None else "", drawn))
        tail.append("\n</table>")
    return Markup("".join(head)), Markup("".join(tail))


def _rows(words: Words, own: list[tuple[Any, Any]], player: str, drawn: Drawn | None) -> str:
    """The rows of a player's moves, the last first. Late in a game most of them were drawn at the close before:
    when the results' lines of his first moves are the very objects drawn then, with the same master's scores,
    only the moves after them are drawn (ten thousand phones' eleven old rows, a close)."""
    start, old = 0, ""
    known = drawn.get(player) if drawn is not None and player else None
    if known is not None:
        was, scores, html = known
        if len(was) <= len(own) and all(
            line is m and score == mm.score for line, score, (m, mm) in zip(was, scores, own, strict=False)
        ):
            start, old = len(was), html
    new = [_row(words, m, mm) for m, mm in reversed(own[start:])]
    html = "".join(new) + old if new else old
    if drawn is not None and player:
        drawn[player] = (tuple(m for m, _ in own), tuple(mm.score for _, mm in own), html)
    return html


def _row(words: Words, m: Any, mm: Any) -> str:
    reasons = f" <small>({_e(words.each(m.reasons))})</small>" if m.reasons else ""
    return (f"<tr><td>{_e(m.move)}</td><td>{_e(m.written())}{reasons}</td><td>{_e(m.score)}</td>"
            f"<td>{_e(m.bonus or '')}</td><td>{_e(mm.score)}</td></tr>")


def _receipt(words: Words, game: Game, receipt: dict[str, Any]) -> str:
    slip = receipt["slip"]
    received = words.raw("Received %(time)s UTC (no. %(seq)s)") % {"time": receipt["recorded"][11:19],
                                                                   "seq": receipt["seq"]}
    out = [f'<div class="receipt" id="receipt">{_e(received)}'
           f":\n{words('move')} {_e(slip.move)} {_e(slip.position)} {_e(slip.word)}"]
    if slip.score is not None:
        out.append(f" {_e(slip.score)}")
    for o in receipt["others"]:
        said = words("late, kept apart (not counted)") if o.late and not slip.late else words("replaced")
        score = f" {_e(o.score)}" if o.score is not None else ""
        out.append(f'<br><small class="aside-note">{_e(said)}: <span class="aside">{_e(o.position)} {_e(o.word)}'
                   f"{score}</span></small>")
    if slip.late:
        rule = "GR-5C" if game.rules.name == "greek" else "FISE-5"
        out.append(f' — <b class="late-mark">{words("late: handed in after the time of the move, it scores 0")}'
                   f"</b> ({rule})")
    out.append("</div>")
    return "".join(out)
