"""The library's messages (``Text("…")`` in ``src/arbitru``, read from the source) and what a catalog says."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from babel.messages.pofile import read_po

from arbitru.messages import LOCALES

SRC = Path(__file__).parent.parent / "src" / "arbitru"
#: the anticipation game's routes: their messages are checked with the anticipation pages' in every catalog
#: (``web_anticipation_support.route_messages``)
ANTICIPATION_ROUTES = {SRC / "web" / "routes" / "anticipation.py", SRC / "web" / "routes" / "train_anticipation.py"}
#: messages made from a value rather than written out: the rule sets' start words, who chose, the premium squares,
#: the verdicts' and the results' codes (shown as they are in English), the tile sets' names
VALUES = (
    "tiempo", "start", "chief arbiter", "program", "TW", "DW", "TL", "DL", "none",
    "Romanian", "Spanish", "Polish", "Greek", "French", "English",
    "late", "unsigned", "unknown-player", "withdrawn", "illegible", "no-move", "bad-position", "bad-word",
    "wrong-position", "not-on-rack", "blank-unmarked", "not-in-list", "out", "no-slip",
    "valid", "corrected", "invalid", "cancelled", "void", "missing",
)
#: a message that is only values and punctuation needs no translation
_ONLY_VALUES = re.compile(r"^(?:%\(\w+\)s|[\s;,.:+()\-—])*$")


def library_messages(root: Path = SRC) -> set[str]:
    """Every ``Text("…")`` (or ``i18n.Text("…")``) of the library and of the web's modules and routes but the
    anticipation game's (:data:`ANTICIPATION_ROUTES`), with a module constant's text when the message is one
    (``Text(RACK_REFUSAL, …)``)."""
    found: set[str] = set()
    for path in root.rglob("*.py"):
        if path in ANTICIPATION_ROUTES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {
            t.id: node.value.value
            for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            for t in node.targets
            if isinstance(t, ast.Name)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _named(node.func, "Text") and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
                elif isinstance(arg, ast.Name) and arg.id in constants:
                    found.add(constants[arg.id])
    return {m for m in found if not _ONLY_VALUES.match(m)}


def _named(func: ast.expr, name: str) -> bool:
    """``name(…)`` or ``module.name(…)``."""
    return (isinstance(func, ast.Name) and func.id == name) or (isinstance(func, ast.Attribute) and func.attr == name)


def catalog(lang: str) -> dict[str, str]:
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return {m.id: m.string for m in read_po(f, locale=lang) if m.id and isinstance(m.id, str)}


def library_plurals(root: Path = SRC) -> set[tuple[str, str]]:
    """Every ``Plural("singular", "plural", …)`` of the library and the web: messages whose words follow a count."""
    found: set[tuple[str, str]] = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _named(node.func, "Plural") and len(node.args) >= 2:
                one, more = node.args[0], node.args[1]
                if isinstance(one, ast.Constant) and isinstance(more, ast.Constant):
                    found.add((str(one.value), str(more.value)))
    return found


def plural_catalog(lang: str) -> tuple[int, dict[tuple[str, str], list[str]]]:
    """A catalog's number of plural forms, and its plural messages with their forms."""
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        po = read_po(f, locale=lang)
    return po.num_plurals, {tuple(m.id): list(m.string) for m in po if m.id and not isinstance(m.id, str)}
