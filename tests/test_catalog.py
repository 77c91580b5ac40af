"""The word-list catalog: import, build, list and load on small files in a temporary home, the fast folding
against :meth:`Lexicon.encode_words`, and the real installed lists (RO-2: every result names its list).

The last tests read the lists ``./arbitru`` installs under the real home (``$ARBITRU_HOME`` or
``~/.cache/arbitru``): a missing list fails them, it never skips.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbitru.engine.lexicon import Lexicon
from arbitru.engine.tiles import LANGUAGES, Alphabet, alphabet
from arbitru.errors import LexiconError, TileError
from arbitru.lexicons import catalog, sources

# awkward entries per language: diacritics folded or kept, digraphs, foreign letters, lengths 1 and 16+
AWKWARD = {
    "ro": [
        "casă",
        "CASA",
        "țară",
        "ţară",
        "şi",
        "ȘI",
        "a",
        "bingo-keno",
        "ångström",
        "curaçao",
        " zi ",
        "ß",
        "aboliționismului",
        "abracadabrant",
        "q",
        "kiwi",
        "x\u0306",
        "casa\u0301",
        "",
        "c a",
    ],
    "es": [
        "churro",
        "CHORRO",
        "llorar",
        "ñandú",
        "pingüino",
        "kiwi",
        "rr",
        "ch",
        "chch",
        "carro",
        "lll",
        "hacha",
        "walkman",
        "año",
        "n\u0303o",
    ],
    "pl": ["żółw", "źdźbło", "gęś", "ablativach", "zamek", "Ó", "quiz", "x"],
    "fr": ["cœur", "ŒUVRE", "æon", "naïve", "garçon", "élève", "straße", "a"],
    "el": ["σπίτι", "λόγος", "ΛΌΓΟΣ", "ΐ", "ϊα", "ή", "abc", "μέσα"],
    "en": ["naïve", "coöperate", "zebra", "qi", "façade", "x"],
}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh ``$ARBITRU_HOME``: the catalog reads it through ``sources.default_home``."""
    monkeypatch.setenv("ARBITRU_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def write(path: Path, text: str | bytes) -> Path:
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


# --- folding -----------------------------------------------------------------------------------------------


def _slow_encode(words: list[str], alpha: Alphabet) -> tuple[list[list[int]], list[str]]:
    """The definition: Alphabet.fold, then Alphabet.split, then 2–15 tiles."""
    kept, rejected = [], []
    for raw in words:
        folded = alpha.fold(raw)
        try:
            tiles = alpha.split(folded) if folded else None
        except TileError:
            tiles = None
        if tiles is not None and 2 <= len(tiles) <= 15:
            kept.append(tiles)
        else:
            rejected.append(raw)
    return kept, rejected


@pytest.mark.parametrize("lang", LANGUAGES)
def test_fast_folding_equals_lexicon_encode_words(lang: str) -> None:
    alpha = alphabet(lang)
    words = AWKWARD[lang] + [w.upper() for w in AWKWARD[lang]]
    assert Lexicon.encode_words(words, alpha) == _slow_encode(words, alpha)


def test_g_6_romanian_diacritics_fold_and_only_2_to_15_tiles_are_kept(home: Path, tmp_path: Path) -> None:
    src = write(tmp_path / "ro.txt", "țară\ntara\nși\na\naboliționismului\nbingo-keno\n")
    info = catalog.import_list(src, "ro", "mini")
    assert (info.words, info.entries, info.rejected, info.folded_duplicates) == (2, 6, 3, 1)
    assert info.rejected_by_reason == {"length": 2, "letters": 1}
    assert info.rejected_examples == {"length": ["a", "aboliționismului"], "letters": ["bingo-keno"]}
    lex = catalog.load("mini")
    assert "TARA" in lex and "ȚARĂ" in lex and "și" in lex and "A" not in lex


# --- import, record, list, load, build ---------------------------------------------------------------------


def test_import_tolerates_bom_crlf_blank_and_comment_lines(home: Path, tmp_path: Path) -> None:
    src = write(tmp_path / "loc7.txt", b"\xef\xbb\xbfcas\xc4\x83\r\n\r\n# comment\r\nmasa\r\nas")
    info = catalog.import_list(src, "ro", "loc-7.0", official=True)
    assert info.words == 3 and info.rejected == 0 and info.official
    kwg = home / "lexicons" / "loc-7.0.kwg"
    record = json.loads((home / "lexicons" / "loc-7.0.json").read_text("utf-8"))
    assert kwg.is_file() and info.path == str(kwg)
    assert record["name"] == "loc-7.0" and record["lang"] == "ro" and record["official"] is True
    assert record["source"]["kind"] == "file" and record["source"]["path"] == str(src.resolve())
    assert record["source"]["sha256"] and record["kwg_sha256"] and record["created"]
    assert record["words"] == 3 and record["build_seconds"] >= 0
    assert {"CASA", "MASA", "AS"} <= {w for w in ("CASA", "MASA", "AS") if w in catalog.load("loc-7.0")}


def test_import_names_the_line_that_is_not_utf8(home: Path, tmp_path: Path) -> None:
    # a list saved in the old Windows code page for Romanian (ţ with a cedilla is byte 0xfe there)
    src = write(tmp_path / "cp1250.txt", b"casa\nmasa\n" + "ţară\n".encode("cp1250"))
    with pytest.raises(LexiconError, match=r"line 3 is not UTF-8 \(byte 0xfe at column 1\)"):
        catalog.import_list(src, "ro", "bad")
    assert not (home / "lexicons" / "bad.kwg").exists()


@pytest.mark.parametrize(
    ("name", "lang", "message"),
    [
        ("loc-5.0", "ro", "built-in list"),
        ("../evil", "ro", "cannot name a word list"),
        ("", "ro", "cannot name a word list"),
        ("ok", "xx", "unknown language"),
    ],
)
def test_import_refuses_bad_names_and_languages(
    home: Path, tmp_path: Path, name: str, lang: str, message: str
) -> None:
    src = write(tmp_path / "w.txt", "casa\n")
    with pytest.raises(LexiconError, match=message):
        catalog.import_list(src, lang, name)


def test_import_of_a_file_without_a_usable_word_fails(home: Path, tmp_path: Path) -> None:
    with pytest.raises(LexiconError, match="no entry is a word"):
        catalog.import_list(write(tmp_path / "w.txt", "a\nb\n"), "ro", "empty")


def test_list_shows_builtin_lists_and_imported_ones(home: Path, tmp_path: Path) -> None:
    catalog.import_list(write(tmp_path / "w.txt", "casa\n"), "ro", "mine")
    listed = {i.name: i for i in catalog.list_lexicons()}
    assert set(sources.OFFICIAL_LISTS) < set(listed)
    assert listed["mine"].installed and listed["mine"].words == 1
    assert not listed["loc-5.0"].installed and listed["loc-5.0"].edition == "LOC 5.0"


def test_load_by_name_kwg_path_and_txt_path(home: Path, tmp_path: Path) -> None:
    src = write(tmp_path / "w.txt", "casa\nmasa\n")
    catalog.import_list(src, "ro", "mine")
    kwg = home / "lexicons" / "mine.kwg"
    by_name = catalog.load("mine")
    by_kwg = catalog.load(kwg)
    by_txt = catalog.load(src, "ro")
    assert by_name.name == by_kwg.name == "mine" and by_txt.name == "w"
    for lex in (by_name, by_kwg, by_txt):
        assert "CASA" in lex and "MASA" in lex and "CASE" not in lex


def test_load_errors_say_what_to_do(home: Path, tmp_path: Path) -> None:
    src = write(tmp_path / "w.txt", "casa\n")
    catalog.import_list(src, "ro", "mine")
    with pytest.raises(LexiconError, match=r"unknown word list 'nosuch'; known: loc-5\.0, .*mine"):
        catalog.load("nosuch")
    with pytest.raises(LexiconError, match="needs its language"):
        catalog.load(src)
    with pytest.raises(LexiconError, match="does not exist"):
        catalog.load(tmp_path / "gone.kwg")
    with pytest.raises(LexiconError, match="not 'es'"):
        catalog.load("mine", "es")
    with pytest.raises(LexiconError, match=r"not installed; run: arbitru lexicon install loc-5\.0"):
        catalog.load("loc-5.0")
    lone = tmp_path / "lone.kwg"
    lone.write_bytes((home / "lexicons" / "mine.kwg").read_bytes())
    with pytest.raises(LexiconError, match="--lang"):
        catalog.load(lone)
    assert "CASA" in catalog.load(lone, "ro")


def test_build_rebuilds_an_imported_list_from_its_file(home: Path, tmp_path: Path) -> None:
    src = write(tmp_path / "w.txt", "casa\n")
    first = catalog.import_list(src, "ro", "mine", official=True)
    write(src, "casa\nmasa\n")
    again = catalog.build("mine")
    assert again.words == 2 and again.official and again.source["sha256"] != first.source["sha256"]
    assert "MASA" in catalog.load("mine")
    src.unlink()
    with pytest.raises(LexiconError, match="which is gone"):
        catalog.build("mine")
    with pytest.raises(LexiconError, match="unknown word list"):
        catalog.build("nosuch")


def test_ro_2_the_arbiter_picks_the_default_list(home: Path, tmp_path: Path) -> None:
    assert catalog.default_name("ro") == "loc-5.0" and catalog.defaults() == catalog.DEFAULTS
    catalog.import_list(write(tmp_path / "w.txt", "casa\n"), "ro", "loc-7.0", official=True)
    catalog.set_default("loc-7.0")
    assert catalog.default_name("ro") == "loc-7.0" and catalog.default_name("es") == "fise-2"
    assert catalog.load(None).name == "loc-7.0" and catalog.load(None, "ro").name == "loc-7.0"
    assert json.loads((home / "lexicons" / "_defaults.json").read_text("utf-8")) == {"ro": "loc-7.0"}
    assert "_defaults" not in {i.name for i in catalog.list_lexicons()}
    with pytest.raises(LexiconError, match="not installed"):
        catalog.set_default("fise-2")


def test_install_builds_once_then_skips(
    home: Path, monkeypatch: pytest.MonkeyPatch, tiny_list_spec: sources.ListSpec
) -> None:
    spec = tiny_list_spec
    reads = []

    def raw_words(name: str, cache_dir: Path) -> list[str]:
        reads.append((name, cache_dir))
        return ["casă", "masă", "a"]

    monkeypatch.setattr(sources, "OFFICIAL_LISTS", {spec.name: spec})
    monkeypatch.setattr(sources, "raw_words", raw_words)
    said: list[str] = []
    [info] = catalog.install(echo=said.append)
    assert reads == [("tiny-1.0", home)] and info.words == 2 and info.official
    assert info.source == {
        "kind": "npm",
        "package": "tiny@1.0.0",
        "integrity": "sha512-x",
        "file": "tiny.txt",
    }
    assert info.gaddag == catalog.core_available()
    [again] = catalog.install(["tiny-1.0"], quiet=True, echo=said.append)
    assert len(reads) == 1 and again.kwg_sha256 == info.kwg_sha256
    assert len(said) == 2  # building, built; nothing for the skipped list when quiet
    catalog.install(echo=said.append)
    assert said[-1].endswith("already installed")
    with pytest.raises(LexiconError, match="unknown word list"):
        catalog.install(["nosuch"])


def test_install_rebuilds_a_list_without_gaddag_once_the_core_is_built(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog.import_list(write(tmp_path / "w.txt", "casa\n"), "ro", "mine")
    record = catalog._read_record(home / "lexicons" / "mine.json")
    assert record is not None
    record.gaddag = False
    monkeypatch.setattr(catalog, "core_available", lambda: True)
    assert not catalog._is_current(record)
    monkeypatch.setattr(catalog, "core_available", lambda: False)
    assert catalog._is_current(record)


# --- the real installed lists (RO-2): fail, never skip, when missing ----------------------------------------

KNOWN = {
    "ro": (["casă", "țară", "și", "zi", "anticipație", "jucător"], ["casz", "ztrq", "jucatorx"]),
    "es": (["churro", "llorar", "ñandú", "chorro", "niño", "cacho"], ["xyzzy", "casaz"]),
    "pl": (["żółw", "źdźbło", "gęś", "zamek"], ["zzzz", "żółwz"]),
}


@pytest.mark.parametrize("name", [n for n, spec in sources.OFFICIAL_LISTS.items() if spec.lang in KNOWN])
def test_installed_list_knows_words_and_rejects_non_words(name: str) -> None:
    try:
        info = catalog.info(name)
    except LexiconError as e:
        pytest.fail(f"{e} (./arbitru installs every list)")
    words, non_words = KNOWN[info.lang]
    lex = catalog.open_list(info)
    assert lex.name == name and info.words > 100_000 and info.kwg_sha256
    assert [w for w in words if w not in lex] == []
    assert [w for w in non_words if w in lex] == []
