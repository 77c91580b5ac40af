"""Shared fixtures of the engine suite: tile sets, small lexicons built in the test, and a large English list.

Lexicons here are built with the pure-Python KWG builder (:func:`build_kwg_python`), whatever is compiled, so
the engine's Python layer is tested on its own; the compiled core is tested against it elsewhere.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import pytest
from hypothesis import settings

from arbitru.engine.lexicon import HEADER, MAGIC, MAX_WORD, MIN_WORD, Lexicon, build_kwg_python
from arbitru.engine.tiles import Alphabet, alphabet
from arbitru.lexicons.sources import english_words_path

# Deterministic property tests: the same examples on every run and machine, no example database on disk.
settings.register_profile("arbitru", deadline=None, derandomize=True, database=None, print_blob=True)
settings.load_profile("arbitru")

def python_lexicon(
    words: Iterable[str | Sequence[int]], alpha: Alphabet, name: str = "test", *, gaddag: bool = True
) -> Lexicon:
    """A lexicon compiled by the pure-Python builder; words as text (folded and split) or as tile codes."""
    tiles: list[Sequence[int]] = []
    texts: list[str] = []
    for w in words:
        (texts if isinstance(w, str) else tiles).append(w)
    if texts:
        encoded, _rejected = Lexicon.encode_words(texts, alpha)
        tiles.extend(encoded)
    arcs = build_kwg_python(tiles, gaddag=gaddag)
    data = HEADER.pack(MAGIC, alpha.size, len(arcs)) + struct.pack(f"<{len(arcs)}I", *arcs)
    return Lexicon(name, alpha, data)


@pytest.fixture(scope="session")
def make_lexicon() -> Callable[..., Lexicon]:
    """``make_lexicon(words, alpha, name="test", gaddag=True)``: see :func:`python_lexicon`."""
    return python_lexicon


@pytest.fixture(scope="session")
def ro() -> Alphabet:
    return alphabet("ro")


@pytest.fixture(scope="session")
def en() -> Alphabet:
    return alphabet("en")


@pytest.fixture(scope="session")
def es() -> Alphabet:
    return alphabet("es")


@pytest.fixture(scope="session")
def english_path() -> Path:
    """The large English word file the set-up installs (npm ``word-list``, pinned and hash-checked); fetched
    here if the cache lacks it, so a clone alone passes."""
    return english_words_path()


@pytest.fixture(scope="session")
def english_words(english_path: Path) -> list[tuple[int, ...]]:
    """The English list's words of 2–15 letters as English tile codes (A=1 … Z=26), sorted."""
    words = english_path.read_text("ascii").split()
    # the list is plain lower-case ASCII, so the English codes are the letters' places in the alphabet; the
    # test suite checks this shortcut against Lexicon.encode_words on a sample (test_lexicon.py)
    return sorted(tuple(ord(c) - 96 for c in w) for w in words if MIN_WORD <= len(w) <= MAX_WORD)


@pytest.fixture(scope="session")
def english(english_words: list[tuple[int, ...]]) -> Lexicon:
    """The English list as a DAWG-only lexicon: its pure-Python GADDAG takes ~30 s, and the reference generator
    and the membership tests only walk the DAWG."""
    return python_lexicon(english_words, alphabet("en"), "English", gaddag=False)


@pytest.fixture
def tiny_list_spec():
    """A made-up official list the catalog can 'install' (tests replace fetching with a stub)."""
    from arbitru.lexicons import sources

    return sources.ListSpec(
        name="tiny-1.0",
        lang="ro",
        edition="Tiny 1.0",
        description="a test list",
        official=True,
        package=sources.NpmPackage("tiny", "1.0.0", "sha512-x"),
        path="tiny.txt",
    )


# --- the journal's two stores ----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def pg_server():
    """A real PostgreSQL server for the whole run (arbitru.journal.pgserver), stopped at the end; no fsync (a
    killed server still keeps every acknowledged commit; only a power cut would not)."""
    from arbitru.journal.pgserver import PostgresServer

    server = PostgresServer(durable=False).start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def journal_spec(request, tmp_path) -> str:
    """A fresh, empty journal on each store: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "journal.db")
    return request.getfixturevalue("pg_server").new_database()


#: the suites that run on both stores: every journal they open is a SQLite file, then a PostgreSQL schema
BOTH_STORES = ("test_duplicate_", "test_anticipation_")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "journal_store" in metafunc.fixturenames and metafunc.module.__name__.startswith(BOTH_STORES):
        metafunc.parametrize("journal_store", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture(autouse=True)
def journal_store(request, monkeypatch):
    """Under ``postgresql``, each journal a test opens by path (``:memory:`` included) is a schema of the
    real test server instead: the same path opens the same schema again, so reopening works."""
    store = getattr(request, "param", "sqlite")
    if store == "postgresql":
        from arbitru.journal import backends
        from arbitru.journal import store as journal_store_module

        server = request.getfixturevalue("pg_server")
        schemas: dict[str, str] = {}

        def backend_for(spec):
            text = str(spec)
            if text.startswith(("postgresql://", "postgres://")):
                return backends.backend_for(text)
            if text == ":memory:" or text not in schemas:
                dsn = server.new_schema()
                if text != ":memory:":
                    schemas[text] = dsn
            else:
                dsn = schemas[text]
            return backends.backend_for(dsn)

        def journal_exists(spec):
            return str(spec) in schemas or backends.journal_exists(spec)

        monkeypatch.setattr(journal_store_module, "backend_for", backend_for)
        for module in ("arbitru.cli.duplicate", "arbitru.cli.anticipation", "arbitru.cli.journal"):
            monkeypatch.setattr(f"{module}.journal_exists", journal_exists)
    return store
