"""Every CSV the program writes (rankings, results, standings; both formats) is safe to open in a spreadsheet:
a text cell starting with ``=``, ``+``, ``-`` or ``@`` is neutralised (FISE-17 and RO-5.5.j publish these
files)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from anticipation_support import play
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.tiles import alphabet
from arbitru.formats.anticipation.forms import ranking_csv
from arbitru.formats.duplicate import export, racks
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.results import compute, standings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.formats.spreadsheet import FORMULA_STARTS
from arbitru.journal.store import Journal

ES = alphabet("es")
GROUPS = {1: "AL", 2: "BDEIOTU", 3: "ACEINRT", 4: "AEINSTV", 5: "ADEIORT", 6: "ACEILNO"}
HOSTILE = ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)"]


def cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row]


def assert_no_formula(text: str) -> None:
    bad = [c for c in cells(text) if c.startswith(FORMULA_STARTS) and not _number(c)]
    assert not bad, bad


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def test_FISE_17_duplicate_csv_files_neutralise_formulas() -> None:
    lex = Lexicon.from_words(["CASA"], ES, name="tiny")
    players = [Player(str(i), name, name) for i, name in enumerate(HOSTILE, 1)]
    s = Session.create(Journal(":memory:"), Settings(ruleset("fise"), "es", "tiny", racks="hand"), lex, players)
    s.draw(racks.parse_tiles(ES, "CASAXYZ"))
    s.add_slips([Slip(1, "1", "=1+1", "@CASA", 12), Slip(1, "2", "H5", "CASA", 12), Slip(1, "3", "-H5", "+CASA")])
    s.place_master()
    result = compute(s.game, lex)
    for text in (export.summary_csv(result), export.moves_csv(result), export.standings_csv(standings([result]))):
        assert_no_formula(text)
        assert any(c == "'" + HOSTILE[0] for c in cells(text))  # the text itself is kept, after a quote
    assert "'@CASA" in cells(export.moves_csv(result)) and "'=1+1" in cells(export.moves_csv(result))


def test_RO_5_5_j_anticipation_ranking_csv_neutralises_formulas(tmp_path: Path) -> None:
    rows = [(name, 1, 1, "H7", "AL", 4, 4, "") for name in HOSTILE]
    _game, state = play(tmp_path, GROUPS, list(range(2, 16)), rows)
    text = ranking_csv(state)
    assert_no_formula(text)
    assert {"'" + name for name in HOSTILE} <= set(cells(text))
