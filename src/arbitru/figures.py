"""Figures as a reader reads them: numbers, percentages and dates written as the language writes them, through
Babel's formats for the locale ("100,00" in Romanian, "1 234" in French, "26 lis 2026" in Polish). The pages (as
Jinja filters, :mod:`arbitru.web.house`), the PDFs and the CLI's printed results (``--lang``) all say them here.

Only figures shown to people go through here: what a player typed (a slip's score, a coordinate) is shown as
typed, and the files made for programs (CSV, JSON, GCG) keep the plain machine form (:func:`percent`).
"""

from __future__ import annotations

import datetime
import functools
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from babel.dates import format_date, format_datetime
from babel.numbers import get_decimal_symbol, get_group_symbol, get_minus_sign_symbol

from arbitru.messages import LANGUAGES

#: CLDR's minimum grouping digits where it is not 1 (Babel does not apply it): Spanish and Polish write 1234 but
#: 12 345, never 1 234
MIN_GROUPING = {"es": 2, "pl": 2}


def locale(lang: str) -> str:
    """The Babel locale of a language of the pages (any other reads as English)."""
    return lang if lang in LANGUAGES else "en"


def percent(x: Fraction, digits: int = 2) -> str:
    """A fraction as a percentage with fixed decimals, rounded half up (exact, no float), in the plain machine form
    ("66.67") of the files made for programs; :func:`percentage` is the same figure as a reader reads it."""
    scaled = x * 100 * 10**digits
    whole = (scaled.numerator * 2 + scaled.denominator) // (2 * scaled.denominator)
    text = str(whole).rjust(digits + 1, "0")
    return f"{text[:-digits]}.{text[-digits:]}" if digits else text


def plain(value: Fraction, digits: int = 2) -> str:
    """A fraction with fixed decimals, rounded half up as the pages round it, in the plain machine form ("28.13")."""
    return percent(value / 100, digits)


def number(value: int | Decimal | Fraction | float, lang: str, digits: int = 0) -> str:
    """A figure in ``lang``: its thousands grouped and its decimal sign as the language writes them, with exactly
    ``digits`` decimals (rounded half up: a :class:`~fractions.Fraction` exactly)."""
    if isinstance(value, Fraction):
        exact = Decimal(percent(value / 100, digits))
    else:  # a float as it is written (1512.25, not its binary neighbour), then rounded half up
        exact = Decimal(repr(value) if isinstance(value, float) else value).quantize(
            Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    lang = locale(lang)
    decimal_sign, group, minus = symbols(lang)
    grouped = abs(exact) >= 10 ** (3 + MIN_GROUPING.get(lang, 1) - 1)
    plain = format(abs(exact), f"{',' if grouped else ''}.{digits}f")
    said = plain.replace(",", "\0").replace(".", decimal_sign).replace("\0", group)
    return minus + said if exact < 0 else said


@functools.cache
def symbols(lang: str) -> tuple[str, str, str]:
    """The decimal sign, the thousands separator and the minus sign of ``lang`` (Babel's, from CLDR), asked once:
    a page of a thousand players writes thousands of figures."""
    return get_decimal_symbol(lang), get_group_symbol(lang), get_minus_sign_symbol(lang)


def percentage(x: Fraction, lang: str, digits: int = 2) -> str:
    """A fraction as a percentage in ``lang`` with ``digits`` decimals ("66,67"), without the % sign (the pages
    say it in the column's heading or after a space)."""
    return number(Decimal(percent(x, digits)), lang, digits)


def date(value: str | datetime.date | datetime.datetime, lang: str) -> str:
    """A day as ``lang`` writes it ("26 nov. 2026", "26 lis 2026"); a stored ISO text ("2026-11-26", "2026-11-26
    13:05:00") is read first; a text that is no date is shown as it is."""
    day = _read(value)
    if day is None:
        return str(value)
    return format_date(day.date() if isinstance(day, datetime.datetime) else day, format="medium",
                       locale=locale(lang))


def moment(value: str | datetime.datetime, lang: str, seconds: bool = False) -> str:
    """A day and its time to the minute (``seconds``: to the second, the day's month in words) as ``lang`` writes
    them; a stored ISO text is read first; a text that is no moment is shown as it is, and a day alone as
    :func:`date`."""
    when = _read(value)
    if when is None:
        return str(value)
    if not isinstance(when, datetime.datetime):
        return date(when, lang)
    return format_datetime(when, format="medium" if seconds else "short", locale=locale(lang))


def _read(value: object) -> datetime.date | datetime.datetime | None:
    if isinstance(value, datetime.date):
        return value
    text = str(value).strip()
    try:
        if len(text) <= 10:
            return datetime.date.fromisoformat(text)
        return datetime.datetime.fromisoformat(text).replace(tzinfo=None)
    except ValueError:
        return None
