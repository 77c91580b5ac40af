"""The hall's language: message catalogs (Babel, gettext ``.po`` files under ``locales/``) for the pages the hall
and the players read (projection screen, phone, announcements). A page is in its game's language; a phone may
choose another (``?lang=``). English is the source language.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from arbitru.messages import Text as Text  # a message with its values, said by the library and the pages
from arbitru.textinput import REASONS, InputError

LOCALES = Path(__file__).parent / "locales"
LANGUAGES = {"ro": "Română", "pl": "Polski", "el": "Ελληνικά", "es": "Español", "fr": "Français", "en": "English"}

Gettext = Callable[..., str]


@functools.cache
def translations(lang: str) -> NullTranslations:
    """The catalog of ``lang`` (compiled in memory from its ``.po`` file), or none for English or an unknown
    language."""
    po = LOCALES / lang / "LC_MESSAGES" / "messages.po"
    if lang not in LANGUAGES or not po.is_file():
        return NullTranslations()
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer)


def gettext_for(lang: str) -> Gettext:
    """``_("Move %(n)s", n=3)``: the message in ``lang``, with its named values filled in; ``_(Text(…))`` is the
    :class:`Text`'s message with its values (themselves said in ``lang`` when they are messages too)."""
    t = translations(lang)

    def _(message: str, **values: object) -> str:
        if isinstance(message, Text) and not values:
            values = message.values
            message = message.message
        values = {k: said(v) for k, v in values.items()}
        text = t.gettext(message)
        return text % values if values else text

    def said(value: object) -> object:
        if isinstance(value, Text):
            return _(value)
        if isinstance(value, list):  # a list of messages, one after another
            return "; ".join(str(said(v)) for v in value)
        return value

    return _


def pick(requested: str | None, default: str) -> str:
    """The language a phone asked for (``?lang=``), else the page's own."""
    return requested if requested in LANGUAGES else default


def keep(requested: str | None) -> str:
    """``?lang=…`` for a redirect that keeps a phone's chosen language, or nothing."""
    return f"?lang={requested}" if requested in LANGUAGES else ""


def refusal(e: InputError) -> Text:
    """A door's refusal (:class:`~arbitru.textinput.InputError`) as a page says it: why, in the page's
    language (:data:`~arbitru.textinput.REASONS`); any other as its English text."""
    return Text(e.reason, **e.values) if e.reason in REASONS else Text(str(e))


def shown(text: str, _: Gettext) -> str:
    """``text`` in a page's language when it is a :class:`Text`; any other text (a library's) as it is."""
    return _(text.message, **text.values) if isinstance(text, Text) else text
