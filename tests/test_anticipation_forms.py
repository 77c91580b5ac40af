"""The Annex 3 forms (RO-3.3): slips, annotation form, results sheet, ranking; printable HTML and CSV."""

from __future__ import annotations

import csv
import io

from anticipation_support import play
from arbitru.formats.anticipation.forms import write_forms
from test_anticipation_correction import AL, CAL, GROUPS, LOTS, row


def test_ro_3_3_forms(tmp_path):
    rows = [AL, CAL, row(3, "G9", "VEST", 24), ("Dan", 2, *AL[2:]), ("Dan", 2, 2, "H6", "CAX", 3, "", "")]
    _, st = play(tmp_path, GROUPS, LOTS, rows, seating=[("Ana", 1, "Ana Pop"), ("Dan", 2, "Dan Ion")])
    files = {p.name: p.read_text("utf-8") for p in write_forms(st, tmp_path / "forms", with_groups=True)}
    slips = files["slips.html"]
    assert slips.count('class="slip"') == 2 * 16  # at least 16 per player (14 turns and 2 spare)
    assert slips.count("<td>Tur</td><td>Punctaj</td><td>Masa</td>") == 32 and "Depunere" in slips
    annotation = files["annotation.html"]
    assert "CONCURENT: <b>Ana Pop</b>" in annotation and "MASA: <b>1</b>" in annotation
    assert "<th>A</th>" in annotation and "<th>O</th>" in annotation and "<th>15</th>" in annotation
    assert "<td>AL</td>" in annotation  # the groups, filled on request
    for head in ("Tur", "Grupa", "Poz", "Depunere", "Pct", "Total"):
        assert f"<th>{head}</th>" in annotation
    assert "TOTAL:" in annotation and "LOC:" in annotation
    results = files["results.html"]
    assert "Rezultate — Ana Pop" in results and "RO-6.3a" in results and "<td>penalizare tehnică</td>" in results
    assert "technical penalty" not in results  # the sheets are in Romanian (RO-3.1)
    assert "RO-6.1a" in results  # Dan's CAX
    assert "TOTAL: <b>11</b>" in results and "LOC: <b>1</b>" in results
    assert all(
        text.startswith("<!DOCTYPE html>") and "@page { size: A4" in text
        for name, text in files.items()
        if name.endswith(".html")
    )
    ranking = list(csv.DictReader(io.StringIO(files["ranking.csv"])))
    assert [(r["place"], r["player"], r["total"]) for r in ranking] == [("1", "Ana", "11"), ("2", "Dan", "4")]
