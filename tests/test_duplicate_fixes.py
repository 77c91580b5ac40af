"""Fixes found while judging real duplicate games: each test is named after the rule it keeps."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arbitru.cli import cli
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.tiles import BLANK, alphabet
from arbitru.formats.duplicate.game import Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.store import Journal

ES = alphabet("es")


def hand_session(words: list[str], rules: str = "fise") -> Session:
    lex = Lexicon.from_words(words, ES, name="tiny")
    return Session.create(Journal(":memory:"), Settings(ruleset(rules), "es", "tiny", racks="hand"), lex)


def test_FISE_13_hand_racks_end_when_no_legal_rack() -> None:
    # the referee places every rack whole, row after row, until the vowels are gone: the master move that
    # places the last vowels ends the game (FISE-13, GR-5B), no hall draw is asked for
    s = hand_session(["CASA"])
    g = s.game
    rows = "HIJKLMNOG"
    prev = ""
    for i, row in enumerate(rows):
        vowels = [t for t in g.bag.tiles if ES.is_vowel(t)]
        consonants = [t for t in g.bag.tiles if t != BLANK and not ES.is_vowel(t) and ES.label(t).isalpha()]
        n = min(5, len(vowels))
        tiles = vowels[:n] + consonants[: 7 - n]
        if i == 0:
            s.draw(tiles)
        else:
            steps = s.next(tiles, move_text=prev)
            assert [st.kind for st in steps] == ["master", "rack"]
        word = "".join(ES.label(t) for t in g.rack)
        prev = f"{row}2 {word}"
    # the last vowels are on the stand, none in the bag
    assert not any(ES.is_vowel(t) for t in g.bag.tiles) and any(ES.is_vowel(t) for t in g.rack)
    steps = s.next(move_text=prev)
    assert [st.kind for st in steps] == ["master", "end"]
    assert g.phase == "over" and g.end is not None and g.end.kind == "no-legal-rack"
    assert "FISE-13" in g.end.rules and "GR-5B" in g.end.rules


@pytest.fixture
def run(tmp_path: Path) -> Callable[..., Result]:
    runner = CliRunner()
    db = str(tmp_path / "t.db")

    def invoke(*args: str, ok: bool = True) -> Result:
        result = runner.invoke(cli, ["duplicate", args[0], "-j", db, *args[1:]])
        if ok:
            assert result.exit_code == 0, result.output
        return result

    return invoke


def test_FISE_6_a_slip_without_move_after_the_move_is_closed_is_refused(
    run: Callable[..., Result], tmp_path: Path
) -> None:
    run("new", "--lexicon", "fise-2", "--racks", "hand", "--player", "1:Ana", "--player", "2:Ion")
    run("next", "--draw", "CASAXYZ")
    run("slips", "--player", "1", "--position", "H4", "--word", "CASA", "--score", "12")
    run("next")  # move 1 is closed, no rack yet
    result = run("slips", "--player", "1", "--position", "H8", "--word", "AS", ok=False)
    assert result.exit_code == 2
    assert result.output.strip() == "error: move 1 is closed; give --move 1 to re-enter"
    assert Session.open_path(tmp_path / "t.db", None).game.slips[(1, "1")].word == "CASA"  # nothing replaced
    # the referee says which move: it is re-entered
    run("slips", "--move", "1", "--player", "1", "--position", "H8", "--word", "AS")
    assert Session.open_path(tmp_path / "t.db", None).game.slips[(1, "1")].word == "AS"
