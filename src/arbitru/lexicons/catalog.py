"""Where compiled word lists live, how they are built, and how a name or a path becomes a :class:`Lexicon`.

Every list lives in ``<home>/lexicons/`` (``home`` is :func:`arbitru.lexicons.sources.default_home`:
``$ARBITRU_HOME`` or ``~/.cache/arbitru``) as two files:

- ``<name>.kwg``: the compiled automaton (docs/ENGINE.md), memory-mapped on load;
- ``<name>.json``: its record: name, language, official flag, exact source (npm package and file with the
  registry's integrity hash, or an imported file's path and SHA-256), words kept, entries rejected at folding
  with examples, the KWG's own SHA-256, build time and date. Every command's result quotes this record, so a
  referee's decision always names the list it was checked against (RO-2).

The built-in lists are those of :data:`arbitru.lexicons.sources.OFFICIAL_LISTS`; :func:`install` fetches and
compiles them once. A new edition (say next year's LOC) comes in with :func:`import_list`.

>>> import tempfile, pathlib
>>> home = pathlib.Path(tempfile.mkdtemp())
>>> words = home / "mini.txt"
>>> _ = words.write_text("casă\\ncasa\\nas\\nx\\n", encoding="utf-8")
>>> info = import_list(words, "ro", "mini", home=home)
>>> info.words, info.rejected
(2, 1)
>>> lex = load("mini", home=home)
>>> "CASA" in lex, "CASE" in lex
(True, False)
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import re
import struct
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from arbitru.engine.lexicon import HEADER, MAGIC, Lexicon, WordEncoder, build_kwg, build_kwg_python
from arbitru.engine.movegen import core_available
from arbitru.engine.tiles import LANGUAGES, Alphabet, alphabet
from arbitru.errors import LexiconError
from arbitru.lexicons import sources

#: The list each language uses when none is named. Romanian: LOC 5.0, the last edition the FRS made official
#: (the package's LOC 6.0 is dexonline's working copy, see docs/wordlists-findings.md). Spanish: FISE-2, the
#: list of the federation whose duplicate rules arbitru carries out. Polish: the only Polish list there is.
#: English: TWL06 (arbitru has no English rulebook; CSW is ``csw``). Greek: the hunspell dictionary,
#: unofficial: there is no public Greek Scrabble list. French: ODS8.
DEFAULTS = {
    "ro": "loc-5.0",
    "es": "fise-2",
    "pl": "sjp-growy",
    "en": "twl",
    "el": "el-hunspell",
    "fr": "ods8",
}

#: Bumped when the record or the compiled form changes, so :func:`install` rebuilds older lists.
RECORD_FORMAT = 1
SUFFIX_KWG, SUFFIX_RECORD = ".kwg", ".json"
DEFAULTS_FILE = "_defaults.json"  # cannot clash with a list: names start with a letter or digit
EXAMPLES = 8
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")


@dataclass
class ListInfo:
    """The record of one word list (its ``.json`` sidecar), or of a built-in list not installed yet."""

    name: str
    lang: str
    official: bool
    edition: str = ""
    description: str = ""
    #: ``{"kind": "npm", "package": "name@version", "integrity": ..., "file": ...}`` or
    #: ``{"kind": "file", "path": ..., "sha256": ...}``
    source: dict[str, str] = field(default_factory=dict)
    installed: bool = False
    #: distinct words kept (2–15 tiles after folding)
    words: int = 0
    #: entries read from the source
    entries: int = 0
    #: entries not kept, by reason (``letters``: a character outside the tile set; ``length``: not 2–15 tiles)
    rejected: int = 0
    rejected_by_reason: dict[str, int] = field(default_factory=dict)
    rejected_examples: dict[str, list[str]] = field(default_factory=dict)
    #: entries that fold to a word already kept (Romanian ȚARĂ and TARA are both TARA: G-6)
    folded_duplicates: int = 0
    #: False when only the DAWG half was built (no compiled core: the reference generator needs no GADDAG)
    gaddag: bool = False
    builder: str = ""
    kwg_sha256: str = ""
    build_seconds: float = 0.0
    created: str = ""
    format: int = RECORD_FORMAT
    #: where the compiled list is (not stored in the record; filled in on reading)
    path: str = ""

    def summary(self) -> dict[str, object]:
        """What a command's result records about the list it used (RO-2)."""
        return {
            "name": self.name,
            "lang": self.lang,
            "edition": self.edition,
            "official": self.official,
            "source": self.source,
            "words": self.words,
            "kwg_sha256": self.kwg_sha256,
        }

    def label(self) -> str:
        """One line for people: ``loc-5.0 (LOC 5.0, official, 610,767 words)``; an import shows its file."""
        parts = []
        if self.edition and self.edition != self.name:
            parts.append(self.edition)
        elif self.source.get("path"):
            parts.append(self.source["path"])
        parts.append("official" if self.official else "unofficial")
        if self.words:
            parts.append(f"{self.words:,} words")
        return f"{self.name} ({', '.join(parts)})"


def home_dir(home: Path | None = None) -> Path:
    return Path(home) if home is not None else sources.default_home()


def lexicon_dir(home: Path | None = None) -> Path:
    """``<home>/lexicons``, where the compiled lists and their records are."""
    return home_dir(home) / "lexicons"



# --- building ----------------------------------------------------------------------------------------------


def _compile(words: Sequence[Sequence[int]], alpha: Alphabet) -> tuple[bytes, bool, str]:
    """The ``.kwg`` file's bytes, whether the GADDAG half is in it, and which builder made it.

    With the compiled core: the full KWG. Without it only the DAWG half is built, in Python: the reference
    generator walks only the DAWG, and a pure-Python GADDAG of a 700,000-word list takes many minutes.
    """
    if core_available():
        try:
            kwg = build_kwg(words, alpha.size)
            return HEADER.pack(MAGIC, alpha.size, len(kwg) // 4) + kwg, True, "compiled"
        except ValueError as e:
            if "too large" not in str(e):
                raise LexiconError(f"cannot compile the word list: {e}") from None
    arcs = build_kwg_python(words, gaddag=False)
    return HEADER.pack(MAGIC, alpha.size, len(arcs)) + struct.pack(f"<{len(arcs)}I", *arcs), False, "python"


def _compile_entries(info: ListInfo, entries: Sequence[str]) -> bytes:
    """Fold and compile raw entries for ``info``'s language; fills in the record's counts and build time."""
    alpha = alphabet(info.lang)
    started = time.perf_counter()
    tiles, rejected = WordEncoder(alpha).encode(entries)
    distinct = sorted(set(tiles))
    if not distinct:
        raise LexiconError(f"{info.name}: no entry is a word of 2–15 {alpha.name} tiles")
    data, info.gaddag, info.builder = _compile(distinct, alpha)
    info.build_seconds = round(time.perf_counter() - started, 2)
    info.entries = len(entries)
    info.words = len(distinct)
    info.folded_duplicates = len(tiles) - len(distinct)
    info.rejected = len(rejected)
    info.rejected_by_reason, info.rejected_examples = {}, {}
    for entry, reason in rejected:
        info.rejected_by_reason[reason] = info.rejected_by_reason.get(reason, 0) + 1
        examples = info.rejected_examples.setdefault(reason, [])
        if len(examples) < EXAMPLES:
            examples.append(entry)
    info.kwg_sha256 = hashlib.sha256(data).hexdigest()
    return data


def _build(info: ListInfo, raw: Iterable[str], home: Path | None) -> ListInfo:
    """Fold, compile and save ``raw`` as the list ``info`` describes; returns the completed record.

    ``build_seconds`` covers reading the entries too (and so, on first use, fetching the package).
    """
    started = time.perf_counter()
    entries = list(raw)
    data = _compile_entries(info, entries)
    info.build_seconds = round(time.perf_counter() - started, 2)
    info.created = _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()
    info.installed = True
    folder = lexicon_dir(home)
    folder.mkdir(parents=True, exist_ok=True)
    kwg_path = folder / f"{info.name}{SUFFIX_KWG}"
    Lexicon(info.name, alphabet(info.lang), data).save(kwg_path)
    info.path = str(kwg_path)
    record = {k: v for k, v in asdict(info).items() if k not in ("installed", "path")}
    tmp = folder / f"{info.name}.json.tmp"
    tmp.write_text(json.dumps(record, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    tmp.replace(folder / f"{info.name}{SUFFIX_RECORD}")
    return info


def _builtin_info(spec: sources.ListSpec) -> ListInfo:
    return ListInfo(
        name=spec.name,
        lang=spec.lang,
        official=spec.official,
        edition=spec.edition,
        description=spec.description,
        source={
            "kind": "npm",
            "package": spec.package.pin,
            "integrity": spec.package.integrity,
            "file": spec.path,
        },
    )


def _read_record(path: Path) -> ListInfo | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        known = set(ListInfo.__dataclass_fields__)
        info = ListInfo(**{k: v for k, v in data.items() if k in known})
    except (OSError, ValueError, TypeError):
        return None
    kwg = path.with_suffix(SUFFIX_KWG)
    info.installed = kwg.is_file()
    info.path = str(kwg)
    return info


def _is_current(info: ListInfo | None) -> bool:
    """Built, in the current format, and with its GADDAG half whenever the compiled core could build it."""
    if info is None or not info.installed or info.format != RECORD_FORMAT:
        return False
    return info.gaddag or not core_available()


def _check_name(name: str) -> None:
    if not _NAME.fullmatch(name):
        raise LexiconError(
            f"{name!r} cannot name a word list: use letters, digits and . _ + - (at most 64), e.g. loc-7.0"
        )


def install(
    names: Iterable[str] | None = None,
    quiet: bool = False,
    *,
    home: Path | None = None,
    echo: Callable[[str], None] | None = None,
) -> list[ListInfo]:
    """Fetch and compile the built-in lists ``names`` (all of them by default), skipping those already built.

    Quick when everything is there: it reads the records and returns. ``echo`` gets progress lines; with
    ``quiet`` only the lists it actually has to build are reported.

    :raises LexiconError: for an unknown name, a failed fetch (npm missing, network, hash mismatch).
    """
    say = echo or (lambda _line: None)
    wanted = list(names) if names else list(sources.OFFICIAL_LISTS)
    specs = [sources.find_list(n) for n in wanted]
    done = []
    for spec in specs:
        current = _read_record(lexicon_dir(home) / f"{spec.name}{SUFFIX_RECORD}")
        if _is_current(current):
            assert current is not None
            if not quiet:
                say(f"{current.label()}: already installed")
            done.append(current)
            continue
        say(f"{spec.name}: building from {spec.package.pin} {spec.path} (first use only) ...")
        info = _build(_builtin_info(spec), sources.raw_words(spec.name, home_dir(home)), home)
        say(f"{info.label()}: built in {info.build_seconds:.1f} s, {info.rejected:,} entries rejected")
        done.append(info)
    return done


def read_word_file(path: Path) -> list[str]:
    """The entries of a one-word-per-line UTF-8 file: byte-order mark, CRLF, blank and ``#`` lines tolerated.

    :raises LexiconError: naming the first line that is not UTF-8.
    """
    data = Path(path).read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    words = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as e:
            raise LexiconError(
                f"{path}: line {number} is not UTF-8 (byte 0x{line[e.start]:02x} at column {e.start + 1}); "
                "save the list as UTF-8"
            ) from None
        text = text.strip()
        if text and not text.startswith("#"):
            words.append(text)
    return words


def _file_info(path: Path, lang: str, name: str) -> ListInfo:
    return ListInfo(
        name=name,
        lang=lang,
        official=False,
        edition=name,
        description=f"imported from {path.name}",
        source={
            "kind": "file",
            "path": str(path.resolve()),
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        },
    )


def import_list(
    path: Path | str, lang: str, name: str, *, home: Path | None = None, official: bool = False
) -> ListInfo:
    """Compile a one-word-per-line file into the catalog as ``name`` (e.g. next year's ``loc-7.0``).

    The record keeps the file's path and SHA-256. ``official`` marks a list the federation has published.

    :raises LexiconError: for a bad name or language, a built-in list's name, an undecodable line, or a file
        with no usable word.
    """
    path = Path(path)
    _check_name(name)
    if lang not in LANGUAGES:
        raise LexiconError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    if name in sources.OFFICIAL_LISTS:
        raise LexiconError(f"{name} is a built-in list; import under another name")
    words = read_word_file(path)
    info = _file_info(path, lang, name)
    info.official = official
    return _build(info, words, home)


def build(name: str, *, home: Path | None = None) -> ListInfo:
    """Rebuild a list: a built-in one from its package, an imported one from the file it came from.

    :raises LexiconError: for an unknown name, or an imported list whose file is gone.
    """
    if name in sources.OFFICIAL_LISTS:
        spec = sources.find_list(name)
        return _build(_builtin_info(spec), sources.raw_words(name, home_dir(home)), home)
    old = _read_record(lexicon_dir(home) / f"{name}{SUFFIX_RECORD}")
    if old is None:
        raise LexiconError(_unknown(name, home))
    source = Path(old.source.get("path", ""))
    if not source.is_file():
        raise LexiconError(f"{name} was imported from {source}, which is gone; import the list again")
    info = _file_info(source, old.lang, name)
    info.official, info.edition, info.description = old.official, old.edition, old.description
    return _build(info, read_word_file(source), home)


def list_lexicons(*, home: Path | None = None) -> list[ListInfo]:
    """Every built-in list (installed or not) and every imported one, built-in first."""
    folder = lexicon_dir(home)
    out = []
    for spec in sources.OFFICIAL_LISTS.values():
        found = _read_record(folder / f"{spec.name}{SUFFIX_RECORD}")
        out.append(found if found is not None and found.installed else _builtin_info(spec))
    if folder.is_dir():
        for record in sorted(folder.glob(f"*{SUFFIX_RECORD}")):
            if record.stem not in sources.OFFICIAL_LISTS and record.name != DEFAULTS_FILE:
                found = _read_record(record)
                if found is not None:
                    out.append(found)
    return out


def installed_names(lang: str, *, home: Path | None = None) -> list[str]:
    """The installed lists of ``lang`` by name, its default first (what a page offers to choose from)."""
    names = [i.name for i in list_lexicons(home=home) if i.installed and i.lang == lang]
    first = default_name(lang, home=home)
    return ([first] if first in names else []) + [n for n in names if n != first]


def _unknown(name: str, home: Path | None) -> str:
    known = ", ".join(i.name for i in list_lexicons(home=home))
    return f"unknown word list {name!r}; known: {known} (or give a path to a .kwg or .txt file)"


def info(name: str, *, home: Path | None = None) -> ListInfo:
    """The record of an installed list.

    :raises LexiconError: for an unknown name, or a built-in list not installed yet.
    """
    found = _read_record(lexicon_dir(home) / f"{name}{SUFFIX_RECORD}")
    if found is not None and found.installed:
        return found
    if name in sources.OFFICIAL_LISTS:
        raise LexiconError(f"word list {name} is not installed; run: arbitru lexicon install {name}")
    raise LexiconError(_unknown(name, home))


def defaults(*, home: Path | None = None) -> dict[str, str]:
    """The list each language uses when none is named: :data:`DEFAULTS`, overridden by the arbiter's choices
    in ``<home>/lexicons/defaults.json`` (:func:`set_default`)."""
    path = lexicon_dir(home) / DEFAULTS_FILE
    try:
        chosen = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        chosen = {}
    except (OSError, ValueError) as e:
        raise LexiconError(f"cannot read the default lists in {path}: {e}") from None
    out = dict(DEFAULTS)
    out.update({k: v for k, v in chosen.items() if k in LANGUAGES and isinstance(v, str)})
    return out


def default_name(lang: str, *, home: Path | None = None) -> str:
    """The list ``lang`` uses when none is named (see :func:`defaults`)."""
    if lang not in LANGUAGES:
        raise LexiconError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    return defaults(home=home)[lang]


def set_default(name: str, *, home: Path | None = None) -> ListInfo:
    """Make the installed list ``name`` its language's default (say, next year's LOC once it is official).

    :raises LexiconError: for a list that is unknown or not installed.
    """
    found = info(name, home=home)
    chosen = defaults(home=home)
    chosen[found.lang] = name
    changed = {k: v for k, v in chosen.items() if DEFAULTS.get(k) != v}
    folder = lexicon_dir(home)
    tmp = folder / f"{DEFAULTS_FILE}.tmp"
    tmp.write_text(json.dumps(changed, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(folder / DEFAULTS_FILE)
    return found


def resolve(
    name_or_path: str | Path | None, lang: str | None = None, *, home: Path | None = None
) -> ListInfo:
    """The record of a list given by catalog name, ``.kwg`` path or ``.txt`` path (None: ``lang``'s default).

    A ``.kwg`` with no record beside it, and a ``.txt``, need ``lang``; a ``.txt`` is not compiled here
    (:func:`load` does it).

    :raises LexiconError: for an unknown name, a missing file, a missing or contradicting ``lang``.
    """
    if name_or_path is None:
        return resolve(default_name(lang or "ro", home=home), lang, home=home)
    text = str(name_or_path)
    path = Path(text)
    if path.suffix in (SUFFIX_KWG, ".txt") or "/" in text or os.sep in text:
        if not path.is_file():
            raise LexiconError(f"word list file {text} does not exist")
        if path.suffix == SUFFIX_KWG:
            found = _read_record(path.with_suffix(SUFFIX_RECORD))
            if found is None:
                if lang is None:
                    raise LexiconError(f"{text} has no .json record beside it: say its language with --lang")
                found = ListInfo(
                    name=path.stem,
                    lang=lang,
                    official=False,
                    edition=path.stem,
                    installed=True,
                    source={"kind": "file", "path": str(path.resolve())},
                    path=str(path),
                )
        else:
            if lang is None:
                raise LexiconError(
                    f"a word list file like {text} needs its language: add --lang (ro, es, ...)"
                )
            found = _file_info(path, lang, path.stem)
            found.path = str(path)
    else:
        found = info(text, home=home)
    if lang is not None and lang != found.lang:
        raise LexiconError(f"{found.name} is a word list for {found.lang!r}, not {lang!r}")
    return found


def open_list(found: ListInfo) -> Lexicon:
    """Load the list a record describes: memory-map its ``.kwg``, or compile a ``.txt`` in memory."""
    alpha = alphabet(found.lang)
    path = Path(found.path)
    if path.suffix == SUFFIX_KWG:
        return Lexicon.load(path, alpha, name=found.name)
    return Lexicon(found.name, alpha, _compile_entries(found, read_word_file(path)), source=str(path))


def load(name_or_path: str | Path | None, lang: str | None = None, *, home: Path | None = None) -> Lexicon:
    """A word list by catalog name (``loc-5.0``), ``.kwg`` path or ``.txt`` path (compiled on the fly).

    ``None`` loads the default list of ``lang`` (Romanian when ``lang`` is None too).

    :raises LexiconError: for an unknown name (listing the known ones), a list not installed, a missing file,
        a ``.txt`` without ``lang``, or a list of another language than ``lang``.
    """
    return open_list(resolve(name_or_path, lang, home=home))
