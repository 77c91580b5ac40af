"""What a page says once an action is done (``?done=`` on the address it goes back to): the address carries the
message's short code and its values, never a sentence; the page says it from the catalog in its own language.

A message's code is 8 hex digits of its hash (:func:`code`), known for every message of the catalogs (every
library and page message is in each of them). ``?done=`` is the code alone, or the code followed by the values
as JSON (``5c1e0f2a{"move":2,"points":24}``): a value that is a message is ``[code, {values}]``, a list of values
``{"list": […]}``. An old link's sentence (before the codes: the duplicate console's English, the anticipation
pages' already said) is read as the message it was made from when the page names it, else shown as it is (escaped,
like every value); a code no catalog knows says nothing.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Iterable
from typing import Any

from babel.messages.pofile import read_po

from arbitru.messages import LANGUAGES, LOCALES, Plural, Text, recognised

#: the longest ``?done=`` read (a slip's hints are the longest notice)
MAX = 2000
_CODED = re.compile(r"([0-9a-f]{8})(\{.*)?", re.DOTALL)


def code(message: str) -> str:
    """A message's short code: 8 hex digits of its hash."""
    return hashlib.blake2s(message.encode("utf-8"), digest_size=4).hexdigest()


@functools.cache
def known() -> dict[str, tuple[str, str | None]]:
    """Every message of the catalogs by its code: the message, and its plural when it is a count's."""
    found: dict[str, tuple[str, str | None]] = {}
    for lang in sorted(LANGUAGES):
        po = LOCALES / lang / "LC_MESSAGES" / "messages.po"
        if not po.is_file():
            continue
        with po.open("rb") as f:
            for m in read_po(f):
                if not m.id:
                    continue
                counted = isinstance(m.id, (tuple, list))
                singular, plural = (str(m.id[0]), str(m.id[1])) if counted else (str(m.id), None)
                found.setdefault(code(singular), (singular, plural))
    return found


class _Unknown(Exception):
    """A message no catalog has: it cannot go by its code."""


def carry(message: str) -> str:
    """``?done=``'s value for ``message``: its code and values when it is a catalog's message, else its text as it
    is (a text of no catalog has no other way to go)."""
    if not isinstance(message, Text):
        return message
    try:
        coded = _encode(message)
    except _Unknown:
        return str(message)
    assert isinstance(coded, list)
    head, *values = coded
    return str(head) + (json.dumps(values[0], ensure_ascii=False, separators=(",", ":")) if values else "")


def _encode(value: object) -> Any:
    if isinstance(value, Text):
        c = code(value.message)
        if known().get(c, ("", None))[0] != value.message:
            if not value.values:
                return str(value)  # a word of no catalog (a timer's name): said as it is in every language
            raise _Unknown(value.message)
        values = {k: _encode(v) for k, v in value.values.items()}
        return [c, values] if values else [c]
    if isinstance(value, list):
        return {"list": [_encode(v) for v in value]}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def said(done: str, old: Iterable[str] = ()) -> str:
    """The notice ``?done=`` carries as a message (said by the page in its language), or nothing. An old link's
    English sentence is the message of ``old`` it was made from, else as it is."""
    done = done[:MAX]
    if not done:
        return ""
    m = _CODED.fullmatch(done)
    if m is None:
        return recognised(done[:300], old)
    try:
        values = json.loads(m.group(2)) if m.group(2) else {}
        text = _decode([m.group(1), values])
    except (ValueError, TypeError, KeyError):
        return ""
    return text if isinstance(text, str) else ""


def _decode(value: Any) -> Any:
    if isinstance(value, list) and value and isinstance(value[0], str):
        message, plural = known()[value[0]]
        given = value[1] if len(value) > 1 else {}
        if not isinstance(given, dict):
            raise TypeError("values")
        values = {str(k): _decode(v) for k, v in given.items()}
        if plural is not None:
            n = values.pop("n", 2)
            return Plural(message, plural, n=n if isinstance(n, int) else 2, **values)
        return Text(message, **values) if values else Text(message)
    if isinstance(value, dict) and isinstance(value.get("list"), list):
        return [_decode(v) for v in value["list"]]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError("value")

