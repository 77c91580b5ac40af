"""A message with its named values, said in English by the library (logs, the CLI, the JSON API) and in a
page's language by the web app (:mod:`arbitru.web.i18n` looks the message up before filling its values in)."""

from __future__ import annotations


class Text(str):
    """A page's message with its named values: the English text as a ``str`` (logs, the JSON API), in the page's
    language through :func:`arbitru.web.i18n.shown` (the message is looked up before its values are filled in)."""

    message: str
    values: dict[str, object]

    def __new__(cls, message: str, **values: object) -> Text:
        english = {k: "; ".join(v) if isinstance(v, list) else v for k, v in values.items()}
        text = super().__new__(cls, message % english if values else message)
        text.message, text.values = message, values
        return text
