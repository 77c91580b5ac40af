"""The hall's language: message catalogs (Babel, gettext ``.po`` files under ``locales/``) for the pages the hall
and the players read (projection screen, phone, announcements). A page is in its game's language; a phone may
choose another (``?lang=``). English is the source language. The messages and catalogs themselves are the library's
(:mod:`arbitru.messages`): the CLI says them too.
"""

from __future__ import annotations

from arbitru.engine.tiles import NAMES
from arbitru.errors import GameNotFound
from arbitru.messages import LANGUAGES, LOCALES, Gettext, Text, gettext_for, translations
from arbitru.textinput import InputError

__all__ = ["LANGUAGES", "LOCALES", "Gettext", "Text", "accepted", "actor", "gettext_for", "keep", "no_game", "option",
           "pick", "refusal",
           "shown", "translations"]


#: the words of the forms' lists (rule sets, variants, blanks in the draw conditions, general tables, decisions'
#: actions) as messages;
#: a language is shown by its own name; any other value (FISE, a word list, a tournament) is a name, shown as it is
OPTIONS: dict[str, str] = {
    "fise": "FISE", "greek": NAMES["Greek"], "romanian": NAMES["Romanian"],
    "ro-anticipation": Text("Romanian anticipation"), "classic": Text("classic"), "avocalic": Text("avocalic"),
    "endurance": Text("endurance"), "total": Text("total"), "blind": Text("blind"), "neither": Text("neither"),
    "vowel": Text("vowel"), "consonant": Text("consonant"), "mean-place": Text("mean place"),
    "mean-percentage": Text("mean percentage"),
    # a decision's action (RO-6.5) as the review's form offers it and its list of decisions says it
    "as": Text("as the player meant (position, word)"), "set": Text("set the points"),
    "adjust": Text("adjust the total by the points"),
} | LANGUAGES


def option(value: str) -> str:
    """A form list's value as the list shows it, in the page's language (:data:`OPTIONS`)."""
    return OPTIONS.get(value, value)


def pick(requested: str | None, default: str) -> str:
    """The language a phone asked for (``?lang=``), else the page's own."""
    return requested if requested in LANGUAGES else default


def accepted(header: str) -> str:
    """The language of a browser's ``Accept-Language`` (``fr-CH, fr;q=0.9, en;q=0.8``) the pages speak: the first
    by its weight (``q``, 1 when not given; 0 refuses it), by its primary tag (``fr-CH`` is French); English when
    none is spoken here."""
    weighted: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")[:32]):
        tag, *params = (p.strip() for p in part.split(";"))
        weight = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        code = tag.split("-")[0].lower()
        if code in LANGUAGES and 0 < weight <= 1:
            weighted.append((-weight, i, code))
    return min(weighted)[2] if weighted else "en"


def keep(requested: str | None) -> str:
    """``?lang=…`` for a redirect that keeps a phone's chosen language, or nothing."""
    return f"?lang={requested}" if requested in LANGUAGES else ""


def shown(text: str, _: Gettext) -> str:
    """``text`` in a page's language when it is a :class:`Text`; any other text (a library's) as it is."""
    return _(text) if isinstance(text, Text) else text


def refusal(e: InputError) -> Text:
    """A door's refusal (:class:`~arbitru.textinput.InputError`) as a page says it: why, in the page's
    language (:data:`~arbitru.textinput.REASONS`); any other as its English text."""
    said = e.said()
    return said if isinstance(said, Text) else Text(said)


def unreadable(e: Exception, gid: str) -> Text:
    """A journal's refusal of game ``gid``, for a page: the game's id, never the journal's file (the library's
    messages name it: a visitor has no business knowing where the server keeps its journal)."""
    if isinstance(e, GameNotFound):
        return no_game(gid)
    return Text("game %(game)s cannot be read now: try again", game=repr(gid))


def no_game(gid: str) -> Text:
    """The refusal of a game id that names no game (the journal's own message names its file: not for a page)."""
    return Text("no game %(game)s", game=repr(gid))


def actor(who: str) -> str:
    """Who entered something, as a page says it (``arbiter``, ``desk:maria``, ``player:1``): a message, so that the
    page says it in its language; any other actor (``cli:ana``) as it is."""
    kind, _, name = who.partition(":")
    if who == "arbiter":
        return Text("the arbiter")
    if kind == "desk" and name:
        return Text("desk %(name)s", name=name)
    if kind == "player" and name:
        return Text("player %(n)s", n=name)
    return who
