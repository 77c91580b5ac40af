"""Reading a stored event's payload with its types checked, so replay folds only what it can use.

Every format reads its events' fields through these: a field of the wrong type, missing, or out of range raises
:class:`PayloadError`, which the format's replay turns into a :class:`~arbitru.errors.JournalError` naming the
game and the event — never a ``TypeError`` or ``KeyError`` later, far from the event that caused it.

>>> integer({"move": 3}, "move"), text({}, "note", ""), texts({"rules": ["FISE-13"]}, "rules")
(3, '', ['FISE-13'])
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from arbitru.textinput import MAX_INT

_MISSING: Any = object()


class PayloadError(ValueError):
    """A stored field that replay cannot use; the format's replay names the event."""


def mapping(value: Any, what: str = "payload") -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise PayloadError(f"{what} is a {type(value).__name__}, not an object")
    return value


def _get(p: Mapping[str, Any], key: str, default: Any) -> Any:
    if key in p:
        return p[key]
    if default is _MISSING:
        raise PayloadError(f"field {key!r} is missing")
    return default


def text(p: Mapping[str, Any], key: str, default: Any = _MISSING) -> str:
    value = _get(p, key, default)
    if not isinstance(value, str):
        raise PayloadError(f"field {key!r} is {value!r}, not text")
    return value


def optional_text(p: Mapping[str, Any], key: str) -> str | None:
    value = p.get(key)
    return None if value is None else text(p, key)


def integer(
    p: Mapping[str, Any], key: str, default: Any = _MISSING, *, low: int = -MAX_INT, high: int = MAX_INT
) -> int:
    value = _get(p, key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PayloadError(f"field {key!r} is {_short(value)}, not a whole number from {low} to {high}")
    return value


def optional_integer(p: Mapping[str, Any], key: str, *, low: int = -MAX_INT, high: int = MAX_INT) -> int | None:
    return None if p.get(key) is None else integer(p, key, low=low, high=high)


def real(p: Mapping[str, Any], key: str, default: Any = _MISSING) -> float:
    """A finite number (a server time in seconds, say); whole numbers are accepted."""
    value = _get(p, key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise PayloadError(f"field {key!r} is {_short(value)}, not a number")
    return float(value)


def boolean(p: Mapping[str, Any], key: str, default: Any = _MISSING) -> bool:
    value = _get(p, key, default)
    if not isinstance(value, bool):
        raise PayloadError(f"field {key!r} is {_short(value)}, not true or false")
    return value


def items(p: Mapping[str, Any], key: str, default: Any = _MISSING) -> list[Any]:
    value = _get(p, key, default)
    if not isinstance(value, list | tuple):
        raise PayloadError(f"field {key!r} is {_short(value)}, not a list")
    return list(value)


def texts(p: Mapping[str, Any], key: str, default: Any = _MISSING) -> list[str]:
    values = items(p, key, default)
    if not all(isinstance(v, str) for v in values):
        raise PayloadError(f"field {key!r} holds something that is not text")
    return [str(v) for v in values]


def mappings(p: Mapping[str, Any], key: str, default: Any = _MISSING) -> list[Mapping[str, Any]]:
    return [mapping(v, f"an item of {key!r}") for v in items(p, key, default)]


def _short(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."
