"""Coordinates in every convention (RO-3.2.c, RO-6.1 c–d, RO-6.3, FISE-6, GR-4, English) and placements."""

from __future__ import annotations

import pytest

from arbitru.engine.layout import ROW_LETTERS, SIZE
from arbitru.engine.notation import CONVENTIONS, GREEK_ROWS, Coordinate
from arbitru.engine.placement import Placement
from arbitru.engine.tiles import BLANK_BIT, alphabet
from arbitru.errors import NotationError

ALL_COORDINATES = [Coordinate(r, c, d) for r in range(SIZE) for c in range(SIZE) for d in "HV"]


# --- the Romanian convention (RO-3.2.c), also FISE-6 --------------------------------------------------------


def test_ro_3_2_c_row_letter_first_is_horizontal():
    assert Coordinate.parse("H8") == Coordinate(7, 7, "H")
    assert Coordinate.parse("A1") == Coordinate(0, 0, "H")
    assert Coordinate.parse("O15") == Coordinate(14, 14, "H")
    assert Coordinate.parse("b12") == Coordinate(1, 11, "H")


def test_ro_3_2_c_column_number_first_is_vertical():
    assert Coordinate.parse("8H") == Coordinate(7, 7, "V")
    assert Coordinate.parse("1A") == Coordinate(0, 0, "V")
    assert Coordinate.parse("15O") == Coordinate(14, 14, "V")
    assert Coordinate.parse(" 12 b ") == Coordinate(1, 11, "V")


def test_fise_6_same_convention_as_romanian():
    # FISE-6: B3 (row first) is horizontal from row B, column 3; 3B (column first) vertical
    assert Coordinate.parse("B3") == Coordinate(1, 2, "H")
    assert Coordinate.parse("3B") == Coordinate(1, 2, "V")


def test_fise_6_alternative_direction_then_square():
    assert Coordinate.parse("H B3", "fise") == Coordinate(1, 2, "H")
    assert Coordinate.parse("V B3", "fise") == Coordinate(1, 2, "V")
    assert Coordinate.parse("v h8", "fise") == Coordinate(7, 7, "V")
    assert Coordinate.parse("H8 V", "fise") == Coordinate(7, 7, "V")
    # the row-first / column-first form is FISE's first notation too
    assert Coordinate.parse("B3", "fise") == Coordinate(1, 2, "H")
    assert Coordinate.parse("3B", "fise") == Coordinate(1, 2, "V")


@pytest.mark.parametrize("text", ["H B3", "V B3", "H8 V", "H8V"])
def test_ro_3_2_c_romanian_positions_are_only_row_first_or_column_first(text):
    # RO-3.2.c: a Romanian slip writes H8 or 8H; FISE's direction letter is not a Romanian position
    with pytest.raises(NotationError) as e:
        Coordinate.parse(text, "ro")
    assert e.value.kind == "syntax"


def test_ro_format():
    assert Coordinate(7, 7, "H").format() == "H8"
    assert Coordinate(7, 7, "V").format() == "8H"
    assert Coordinate(1, 11, "V").format("ro") == "12B"
    assert Coordinate(14, 0, "H").format() == "O1"


# --- the Greek convention (GR-4) ----------------------------------------------------------------------------


def test_gr_4_direction_sign_o_horizontal_k_vertical():
    assert Coordinate.parse("A5 O", "gr") == Coordinate(0, 4, "H")
    assert Coordinate.parse("A5 K", "gr") == Coordinate(0, 4, "V")
    assert Coordinate.parse("A5O", "gr") == Coordinate(0, 4, "H")
    assert Coordinate.parse("h8 k", "gr") == Coordinate(7, 7, "V")


def test_gr_4_greek_signs_and_greek_row_letters():
    # Greek Ο (omicron) and Κ (kappa) as direction signs
    assert Coordinate.parse("A5 \u039f", "gr") == Coordinate(0, 4, "H")
    assert Coordinate.parse("A5 \u039a", "gr") == Coordinate(0, 4, "V")
    # a Greek capital is the board's Latin letter it looks like (slips are written against boards labelled A-O)
    assert Coordinate.parse("Α5 Ο", "gr") == Coordinate(0, 4, "H")
    assert Coordinate.parse("Ο15 Ο", "gr") == Coordinate(14, 14, "H")
    assert Coordinate.parse("ι3 κ", "gr") == Coordinate(8, 2, "V")
    for greek, latin in GREEK_ROWS.items():
        assert Coordinate.parse(f"{greek}1 Ο", "gr") == Coordinate.parse(f"{latin}1 O", "gr")


def test_gr_4_latin_and_greek_look_alikes_are_the_same_row():
    # Latin H and Greek Η (eta) look the same on a slip: both are row H, the 8th
    assert Coordinate.parse("H8 O", "gr").row == 7
    assert Coordinate.parse("\u03978 O", "gr").row == 7


@pytest.mark.parametrize("letter", ["Γ", "Δ", "Θ", "Λ", "Ξ", "Π", "Ω"])
def test_gr_4_greek_letters_without_a_latin_twin_name_no_row(letter):
    with pytest.raises(NotationError) as e:
        Coordinate.parse(f"{letter}5 O", "gr")
    assert e.value.kind == "unknown-row"


def test_gr_format():
    assert Coordinate(0, 4, "H").format("gr") == "A5 O"
    assert Coordinate(0, 4, "V").format("gr") == "A5 K"


# --- the English convention ---------------------------------------------------------------------------------


def test_english_row_number_first_is_horizontal():
    assert Coordinate.parse("8H", "en") == Coordinate(7, 7, "H")
    assert Coordinate.parse("H8", "en") == Coordinate(7, 7, "V")
    assert Coordinate.parse("8D", "en") == Coordinate(7, 3, "H")
    assert Coordinate.parse("D8", "en") == Coordinate(7, 3, "V")
    assert Coordinate(7, 3, "H").format("en") == "8D"
    assert Coordinate(7, 3, "V").format("en") == "D8"


# --- round trips --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_round_trip_all_450_coordinates(convention):
    texts = set()
    for c in ALL_COORDINATES:
        text = c.format(convention)
        texts.add(text)
        assert Coordinate.parse(text, convention) == c, text
    assert len(texts) == 450


def test_round_trip_greek_row_letters():
    twin = {latin: greek for greek, latin in GREEK_ROWS.items()}
    for c in ALL_COORDINATES:
        row = twin.get(ROW_LETTERS[c.row], ROW_LETTERS[c.row])
        text = f"{row}{c.col + 1} {'Ο' if c.horizontal else 'Κ'}"
        assert Coordinate.parse(text, "gr") == c


def test_round_trip_fise_alternative():
    for c in ALL_COORDINATES:
        assert Coordinate.parse(f"{c.direction} {ROW_LETTERS[c.row]}{c.col + 1}", "fise") == c


def test_coordinate_helpers():
    c = Coordinate.parse("8H")
    assert c.square == 112 and not c.horizontal and c.step() == SIZE
    assert c.squares(3) == [112, 127, 142]
    assert c.transposed() == Coordinate(7, 7, "H")
    assert repr(c) == "Coordinate(7, 7, 'V')"
    assert Coordinate.parse("H8").squares(3) == [112, 113, 114]


# --- parse errors (RO-6.1 c, d; RO-6.3 b) -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "convention", "kind"),
    [
        ("H", "ro", "missing-sign"),
        ("8", "ro", "missing-sign"),
        ("Z8", "ro", "unknown-row"),
        ("P3", "ro", "unknown-row"),
        ("8Z", "ro", "unknown-row"),
        ("H16", "ro", "column-out-of-range"),
        ("H0", "ro", "column-out-of-range"),
        ("0H", "ro", "column-out-of-range"),
        ("", "ro", "empty"),
        ("   ", "ro", "empty"),
        ("H-8", "ro", "syntax"),
        ("H8H8", "ro", "syntax"),
        ("HH", "ro", "missing-sign"),  # one token: the number is missing
        ("88", "ro", "missing-sign"),
        ("A5", "gr", "missing-direction"),
        ("Α5", "gr", "missing-direction"),
        ("A", "gr", "missing-sign"),
        ("5", "gr", "missing-sign"),
        ("5 O", "gr", "missing-sign"),
        ("A O", "gr", "missing-sign"),
        ("A5 X", "gr", "syntax"),
        ("Z5 O", "gr", "unknown-row"),
        ("A16 K", "gr", "column-out-of-range"),
        ("8", "en", "missing-sign"),
        ("16H", "en", "row-out-of-range"),
        ("8Z", "en", "unknown-column"),
    ],
)
def test_parse_errors_name_the_fault(text, convention, kind):
    with pytest.raises(NotationError) as err:
        Coordinate.parse(text, convention)
    assert err.value.kind == kind


def test_parse_error_messages():
    with pytest.raises(NotationError, match="unknown row 'Z' in 'Z8': rows are A to O"):
        Coordinate.parse("Z8")
    with pytest.raises(NotationError, match="column 16 out of range"):
        Coordinate.parse("H16")
    with pytest.raises(NotationError, match="unknown convention"):
        Coordinate.parse("H8", "xx")
    with pytest.raises(NotationError, match="unknown convention"):
        Coordinate(0, 0, "H").format("xx")


# --- placements as written ----------------------------------------------------------------------------------


def test_placement_parse_and_format():
    ro = alphabet("ro")
    p = Placement.parse("8H casA", ro)
    assert p.coord == Coordinate(7, 7, "V")
    assert p.word == (BLANK_BIT | 3, BLANK_BIT | 1, BLANK_BIT | 19, 1)
    assert p.format(ro) == "8H casA"
    assert Placement.parse("H8\tCASA", ro) == Placement.parse("  H8   CASA ", ro)
    greek = Placement.parse("A5 K ΛΕΞΗ", alphabet("el"), "gr")
    assert greek.coord == Coordinate(0, 4, "V")
    assert greek.format(alphabet("el"), "gr") == "A5 K ΛΕΞΗ"
    assert Placement.parse("H B3 CASA", ro, "fise").coord == Coordinate(1, 2, "H")
    assert Placement.parse("8H WORD", alphabet("en"), "en").coord == Coordinate(7, 7, "H")
    assert p.squares() == [112, 127, 142, 157]
    assert p.fits() and Placement.parse("L8 CASA", ro).fits()
    assert not Placement.parse("8M CASA", ro).fits()
    assert not Placement.parse("H13 CASA", ro).fits()


def test_placement_parse_errors():
    ro = alphabet("ro")
    with pytest.raises(NotationError) as err:
        Placement.parse("CASA", ro)
    assert err.value.kind == "syntax"
    with pytest.raises(NotationError) as err:
        Placement.parse("Z8 CASA", ro)
    assert err.value.kind == "unknown-row"
    with pytest.raises(NotationError) as err:
        Placement.of("H8", "  ", ro)
    assert err.value.kind == "empty-word"
