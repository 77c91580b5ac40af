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
    """``_("Move %(n)s", n=3)``: the message in ``lang``, with its named values filled in."""
    t = translations(lang)

    def _(message: str, **values: object) -> str:
        text = t.gettext(message)
        return text % values if values else text

    return _


def pick(requested: str | None, default: str) -> str:
    return requested if requested in LANGUAGES else default
