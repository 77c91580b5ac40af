"""One term per thing per language: every catalog against ``docs/glossary.md`` (its two tables)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from arbitru.messages import LOCALES

GLOSSARY = (Path(__file__).resolve().parent.parent / "docs" / "glossary.md").read_text("utf-8")
LANGS = ("ro", "es", "fr", "pl", "el")


def table(heading: str) -> list[list[str]]:
    """The rows of the table under ``## heading``, as cells (the header row and the rule left out)."""
    section = GLOSSARY.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in section.splitlines()
            if line.startswith("|")]
    return rows[2:]


def said(lang: str, thing: str, unless: str = "") -> list[tuple[str, str]]:
    """Each message of ``lang``'s catalog whose English names ``thing`` (and not ``unless``), with its text."""
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    found = []
    for m in catalog:
        english = " ".join(m.id) if isinstance(m.id, tuple) else m.id
        text = " ".join(m.string) if isinstance(m.string, tuple | list) else m.string
        if not english or not text:
            continue
        names = re.search(rf"\b{thing}s?\b", english, re.IGNORECASE)
        if names and not (unless and re.search(rf"\b{unless}", english, re.IGNORECASE)):
            found.append((english, text))
    return found


TERMS = table("Terms")
AVOIDED = table("Avoided")


def test_the_glossary_has_its_tables():
    assert {row[0] for row in TERMS} >= {"slip", "lot", "turn", "move", "rack", "placement"}
    assert len(AVOIDED) >= 5


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("row", TERMS, ids=lambda r: r[0])
def test_each_thing_is_named_with_the_languages_term(lang, row):
    """Most messages that name the thing use the language's term (a message may say it with a pronoun)."""
    stems = [s.strip().lower() for s in row[1 + LANGS.index(lang)].split("/")]
    messages = said(lang, row[0])
    assert messages, (lang, row[0])
    using = [m for m in messages if any(stem in m[1].lower() for stem in stems)]
    assert len(using) >= len(messages) // 2, (lang, row[0], [m for m in messages if m not in using][:10])


@pytest.mark.parametrize("row", AVOIDED, ids=lambda r: f"{r[0]}-{r[1]}-{r[2]}")
def test_no_message_uses_an_avoided_term(row):
    lang, thing, avoided, unless = row
    wrong = [m for m in said(lang, thing, unless) if avoided.lower() in m[1].lower()]
    assert not wrong, wrong
