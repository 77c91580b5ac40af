"""Word lists on the web: chosen by name among the installed ones (``arbitru lexicon install/import``), never a
path or a file typed on a page. An empty choice is the language's default list (:mod:`arbitru.lexicons.catalog`).

Besides the catalog, a page offers the lists registered in the server's own process
(:func:`arbitru.formats.anticipation.game.register_lexicon`) and, behind the server-side test switch
(``create_app(test_lists=…)`` or ``$ARBITRU_WEB_TEST_LISTS``), stand-in lists such as ``synthetic:2000``.
"""

from __future__ import annotations

from arbitru.engine.tiles import LANGUAGES
from arbitru.errors import LexiconError
from arbitru.formats.anticipation.game import registered_names
from arbitru.lexicons import catalog
from arbitru.web.forms import Refused
from arbitru.web.house import Web
from arbitru.web.i18n import Text

#: the form field a word list is chosen in
FIELD = "lexicon"


def offered(w: Web, lang: str) -> list[str]:
    """The lists of ``lang`` a page offers, the language's default first."""
    try:
        names = catalog.installed_names(lang)
    except LexiconError:  # an unreadable defaults file: the catalog's own lists still count
        names = []
    names += [n for n in registered_names(lang) if n not in names]
    return names + [n for n in w.test_lists if n not in names]


def offered_by_language(w: Web) -> dict[str, list[str]]:
    """Every language's lists (for a form whose language is chosen beside the list)."""
    return {lang: names for lang in LANGUAGES if (names := offered(w, lang))}


def chosen(w: Web, name: str, lang: str) -> str:
    """The list a form chose for a game in ``lang``: an offered name, or the language's default when empty.

    :raises Refused: beside the field, for anything else (a path, an unknown name, another language's list).
    """
    name = name.strip()
    if not name:
        try:
            return catalog.default_name(lang)
        except LexiconError as e:
            raise Refused(FIELD, str(e)) from None
    if name in offered(w, lang):
        return name
    if len(name) <= 64 and any(name in offered(w, other) for other in LANGUAGES if other != lang):
        raise Refused(FIELD, Text("%(name)s is not a word list of this language", name=name))
    raise Refused(FIELD, Text("choose one of the installed word lists"))
