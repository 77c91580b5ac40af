"""What the library says to people (verdicts, statuses, refusals, notes, announcements) as messages with values:
a :class:`Text` is its English sentence as a ``str`` (the CLI, logs, the JSON API, the tests), and keeps its
message and values so that :func:`gettext_for` can say it in another language through the gettext catalogs
(Babel ``.po`` files under ``web/locales/``). English is the source language: a message is its English text with
``%(name)s`` for each value.
"""

from __future__ import annotations

import contextvars
import functools
import io
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LOCALES = Path(__file__).parent / "web" / "locales"
LANGUAGES = {"ro": "Română", "pl": "Polski", "el": "Ελληνικά", "es": "Español", "fr": "Français", "en": "English"}

Gettext = Callable[..., str]

#: what stands between the messages of a list where English writes "; " (in Greek ";" is the question mark)
LIST_SEPARATOR = {"el": "· "}
#: what stands between a label and its colon (French typography: a no-break space; ";", "?" and "!" take a narrow
#: one, written in the catalog's messages themselves)
BEFORE_COLON = {"fr": "\u00a0"}

#: the language a program prints in (the CLI's ``--lang``): a message put into an f-string is said in it
reader: contextvars.ContextVar[str] = contextvars.ContextVar("reader", default="en")


class Text(str):
    """A message with its named values: the English text as a ``str``; in another language through
    :func:`gettext_for` (the message is looked up before its values are filled in, and values that are messages
    too are said in the same language; a list of values is said one after another, separated by "; ")."""

    message: str
    values: dict[str, object]

    def __new__(cls, message: str, **values: object) -> Text:
        english = {k: "; ".join(map(str, v)) if isinstance(v, list) else v for k, v in values.items()}
        text = super().__new__(cls, message % english if values else message)
        text.message, text.values = message, values
        return text

    def __format__(self, spec: str) -> str:
        lang = reader.get()
        return format(gettext_for(lang)(self) if lang != "en" else str(self), spec)

    def __add__(self, other: str) -> str:  # a message followed by more text stays a message
        return Text("%(a)s%(b)s", a=self, b=other)

    def __radd__(self, other: str) -> str:
        return Text("%(a)s%(b)s", a=other, b=self)


class Plural(Text):
    """A message whose words follow a count ``n`` ("1 time", "26 times"): English picks the singular for 1 and the
    plural otherwise; another language picks among its catalog's plural forms (``msgid_plural``, ``msgstr[i]``),
    by the language's own rule (Romanian "de 19 ori" but "de 20 de ori")."""

    plural: str

    def __new__(cls, singular: str, plural: str, n: int, **values: object) -> Plural:
        text = super().__new__(cls, singular if n == 1 else plural, n=n, **values)
        assert isinstance(text, Plural)
        text.message, text.plural = singular, plural
        return text

    def __reduce__(self) -> tuple[Any, ...]:  # copied or pickled (dataclasses.asdict) as a plural again
        return (_plural, (self.message, self.plural, dict(self.values)))


def _plural(singular: str, plural: str, values: dict[str, Any]) -> Plural:
    n = values.pop("n")
    assert isinstance(n, int)
    return Plural(singular, plural, n=n, **values)


def recognised(english: str, messages: Iterable[str]) -> Text:
    """A sentence stored in English (a journal's event keeps the English text) as the message it was made from,
    its values read back, so that it can be said in another language; a sentence none of ``messages`` made is a
    message of its own (a catalog may still know it, else it stays as written)."""
    if isinstance(english, Text):
        return english
    for message in messages:
        names = re.findall(r"%\((\w+)\)s", message)
        pattern = "".join(
            f"(?P<{part}>.+?)" if i % 2 else re.escape(part) for i, part in enumerate(re.split(r"%\((\w+)\)s", message))
        )
        found = re.fullmatch(pattern, english) if names else None
        if found:
            return Text(message, **found.groupdict())
    return Text(english)


def joined(parts: Iterable[str], separator: str = "; ") -> str:
    """``parts`` one after another, each said in the reader's language."""
    parts = list(parts)
    if separator == "; ":
        return Text("%(parts)s", parts=parts)
    return Text(separator.join(["%(p" + str(i) + ")s" for i in range(len(parts))]),
                **{f"p{i}": p for i, p in enumerate(parts)})


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
        if isinstance(message, Plural) and not values:
            count = message.values.get("n")
            text = t.ngettext(message.message, message.plural, count if isinstance(count, int) else 2)
            return text % {k: said(v) for k, v in message.values.items()}
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
            return LIST_SEPARATOR.get(lang, "; ").join(str(said(v)) for v in value)
        return value

    return _


def say(text: str, lang: str) -> str:
    """``text`` in ``lang`` when it is a :class:`Text`; any other text as it is."""
    return gettext_for(lang)(text) if isinstance(text, Text) else text
