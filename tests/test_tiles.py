"""Tile sets, folding, splitting, spelling names, racks and bags (RO-3.1, RO-5.2.f, G-6, GR-3, FISE)."""

from __future__ import annotations

import pytest

from arbitru.engine.tiles import BLANK, BLANK_BIT, LANGUAGES, Bag, Rack, alphabet, is_blank, letter_of
from arbitru.errors import TileError

# count, value per letter; "?" is the blank. Sources: docs/rules.md (ro: RO-3.1, el: GR-3, pl, es: FISE tile set);
# en and fr are the standard English and French sets.
DISTRIBUTIONS = {
    "ro": "A11·1 B2·9 C5·1 D4·2 E9·1 F2·8 G2·9 H1·10 I10·1 J1·10 L4·1 M3·4 N6·1 O5·1 P4·2 "
    "R7·1 S5·1 T7·1 U6·1 V2·8 X1·10 Z1·10 ?2·0",
    "el": "Α12·1 Β1·8 Γ2·4 Δ2·4 Ε8·1 Ζ1·10 Η7·1 Θ1·10 Ι8·1 Κ4·2 Λ3·3 Μ3·3 Ν6·1 Ξ1·10 Ο9·1 "
    "Π4·2 Ρ5·2 Σ7·1 Τ8·1 Υ4·2 Φ1·8 Χ1·8 Ψ1·10 Ω3·3 ?2·0",
    "pl": "A9·1 Ą1·5 B2·3 C3·2 Ć1·6 D3·2 E7·1 Ę1·5 F1·5 G2·3 H2·3 I8·1 J2·3 K3·2 L3·2 Ł2·3 "
    "M3·2 N5·1 Ń1·7 O6·1 Ó1·5 P3·2 R4·1 S4·1 Ś1·5 T3·2 U2·3 W4·1 Y4·2 Z5·1 Ź1·9 Ż1·5 "
    "?2·0",
    "es": "A12·1 B2·3 C4·3 CH1·5 D5·2 E12·1 F1·4 G2·2 H2·4 I6·1 J1·8 L4·1 LL1·8 M2·3 N5·1 "
    "Ñ1·8 O9·1 P2·3 Q1·5 R5·1 RR1·8 S6·1 T4·1 U5·1 V1·4 X1·8 Y1·4 Z1·10 ?2·0",
    "en": "A9·1 B2·3 C2·3 D4·2 E12·1 F2·4 G3·2 H2·4 I9·1 J1·8 K1·5 L4·1 M2·3 N6·1 O8·1 P2·3 "
    "Q1·10 R6·1 S4·1 T6·1 U4·1 V2·4 W2·4 X1·8 Y2·4 Z1·10 ?2·0",
    "fr": "A9·1 B2·3 C2·3 D3·2 E15·1 F2·4 G2·2 H2·4 I8·1 J1·8 K1·10 L5·1 M3·2 N6·1 O6·1 "
    "P2·3 Q1·8 R6·1 S6·1 T6·1 U6·1 V2·4 W1·10 X1·10 Y1·10 Z1·10 ?2·0",
}
VOWELS = {
    "ro": "A E I O U",
    "el": "Α Ε Η Ι Ο Υ Ω",
    "pl": "A Ą E Ę I O Ó U Y",
    "es": "A E I O U",
    "en": "A E I O U",
    "fr": "A E I O U Y",
}
# GR-3: the Greek set has 104 tiles; the standard French set 102 (100 letters and 2 blanks); the others 100
TOTALS = {"ro": 100, "el": 104, "pl": 100, "es": 100, "en": 100, "fr": 102}


def parse_distribution(text: str) -> dict[str, tuple[int, int]]:
    out = {}
    for item in text.split():
        head, value = item.split("·")
        label = head.rstrip("0123456789")
        out[label] = (int(head[len(label) :]), int(value))
    return out


def distribution(lang: str) -> dict[str, tuple[int, int]]:
    """The tile set as loaded: label -> (count, value) for every letter that has tiles, and the blank."""
    alpha = alphabet(lang)
    out = {
        alpha.labels[t]: (alpha.counts[t], alpha.values[t])
        for t in range(1, alpha.size + 1)
        if alpha.counts[t]
    }
    out["?"] = (alpha.counts[BLANK], alpha.values[BLANK])
    return out


# --- distributions ------------------------------------------------------------------------------------------


def test_ro_3_1_romanian_distribution():
    ro = alphabet("ro")
    assert distribution("ro") == parse_distribution(DISTRIBUTIONS["ro"])
    # the Romanian alphabet also knows K, Q, W, Y, with no tiles (G-6)
    assert [ro.labels[t] for t in range(1, ro.size + 1)] == list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert ro.total_tiles == 100


@pytest.mark.parametrize("lang", ["el", "pl", "es", "en", "fr"])
def test_tile_set_distribution(lang):
    assert distribution(lang) == parse_distribution(DISTRIBUTIONS[lang])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_tile_set_totals(lang):
    alpha = alphabet(lang)
    assert alpha.total_tiles == sum(alpha.counts) == TOTALS[lang]
    assert sum(alpha.counts) == sum(c for c, _ in parse_distribution(DISTRIBUTIONS[lang]).values())


def test_gr_3_greek_set_has_104_tiles():
    assert alphabet("el").total_tiles == 104
    assert len(Bag(alphabet("el"), seed=1)) == 104


@pytest.mark.parametrize("lang", LANGUAGES)
def test_tile_set_vowels(lang):
    alpha = alphabet(lang)
    assert {alpha.labels[t] for t in alpha.vowels} == set(VOWELS[lang].split())
    assert not alpha.is_vowel(BLANK)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_codes_follow_the_alphabet_file(lang):
    alpha = alphabet(lang)
    assert alpha.labels[0] == "?"
    for t in range(1, alpha.size + 1):
        assert alpha.code(alpha.labels[t]) == t
        assert alpha.label(t) == alpha.labels[t]
        assert alpha.label(BLANK_BIT | t) == alpha.labels[t].lower()
    assert alpha.size <= 63  # fits the KWG's 6-bit tile field (docs/ENGINE.md)


def test_unknown_language_raises():
    with pytest.raises(TileError, match="unknown language"):
        alphabet("xx")


def test_alphabet_is_shared():
    assert alphabet("ro") is alphabet("ro")


# --- spelling names -----------------------------------------------------------------------------------------


def test_ro_5_2_f_spelling_table_annex_2_verbatim():
    # RO Annex 2, "Tabela de adresare a literelor la partida de anticipație", all 23 entries
    annex_2 = [
        ("A", "ANA"), ("B", "BARBU"), ("C", "CONSTANTIN"), ("D", "DUMITRU"), ("E", "ELENA"), ("F", "FLOREA"),
        ("G", "GHEORGHE"), ("H", "HARALAMBIE"), ("I", "ION"), ("J", "JIANU"), ("L", "LUCA"), ("M", "MARIN"),
        ("N", "NICOLAE"), ("O", "OPREA"), ("P", "PETRE"), ("R", "RADU"), ("S", "SANDU"), ("T", "TUDOR"),
        ("U", "UDREA"), ("V", "VASILE"), ("X", "XENIA"), ("Z", "ZAMFIR"), ("?", "JOKER"),
    ]  # fmt: skip
    ro = alphabet("ro")
    table = [(ro.labels[t], ro.spelling(t)) for t in range(1, ro.size + 1) if ro.has_tiles(t)]
    table.append(("?", ro.spelling(BLANK)))
    assert table == annex_2
    assert ro.spelling_official
    # a placed blank is announced by its letter's name; the spelling table has no entry for K, Q, W, Y
    assert ro.spelling(BLANK_BIT | ro.code("A")) == "ANA"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_tile_has_a_spelling_name(lang):
    alpha = alphabet(lang)
    for t in range(alpha.size + 1):
        assert alpha.spelling(t).strip()
    assert alpha.spelling_official == (lang == "ro")


def test_spanish_spelling_names_keep_spaces():
    es = alphabet("es")
    assert es.spelling(es.code("RR")) == "erre doble"
    assert es.spelling(BLANK) == "comodín"


# --- G-6: Romanian folding and letters without tiles --------------------------------------------------------


def test_g_6_romanian_diacritics_fold():
    ro = alphabet("ro")
    assert ro.fold("ĂÂÎȘȚ") == "AAIST"
    assert ro.fold("ăâîșț") == "AAIST"
    assert ro.fold("  Țară ") == "TARA"
    assert ro.fold("înșiși") == "INSISI"


def test_g_6_cedilla_and_comma_below_fold_alike():
    ro = alphabet("ro")
    cedilla, comma = "\u015e\u0162", "\u0218\u021a"  # Ş Ţ (cedilla), Ș Ț (comma below)
    assert ro.fold(cedilla) == ro.fold(comma) == "ST"
    assert ro.fold(cedilla.lower()) == ro.fold(comma.lower()) == "ST"
    assert ro.split("ŞAŢĂ") == ro.split("ȘAȚĂ") == ro.split("SATA")
    # decomposed input (letter + combining mark) folds the same
    assert ro.fold("S\u0326T\u0327A\u0306") == "STA"


def test_g_6_folded_blanks_keep_lower_case():
    ro = alphabet("ro")
    assert ro.split("țară", blanks=True) == [BLANK_BIT | ro.code(c) for c in "TARA"]
    assert ro.split("ȚarĂ", blanks=True) == [ro.code("T"), BLANK_BIT | ro.code("A"), BLANK_BIT | ro.code("R"),
                                             ro.code("A")]  # fmt: skip


def test_g_6_romanian_k_q_w_y_only_via_a_blank():
    ro = alphabet("ro")
    for label in "KQWY":
        t = ro.code(label)
        assert not ro.has_tiles(t)
        assert ro.counts[t] == 0
        with pytest.raises(TileError, match="only a blank"):
            ro.parse_rack(label)
        # a blank may stand for it
        assert ro.split(label.lower(), blanks=True) == [BLANK_BIT | t]
    assert all(ro.has_tiles(ro.code(c)) for c in "ABCDEFGHIJLMNOPRSTUVXZ")
    assert BLANK_BIT | ro.code("K") not in Bag(ro, seed=0).tiles
    assert ro.code("K") not in Bag(ro, seed=0).tiles


# --- other languages' folding and splitting -----------------------------------------------------------------


def test_spanish_digraphs_are_single_tiles():
    es = alphabet("es")
    assert [es.label(t) for t in es.split("CHURRO")] == ["CH", "U", "RR", "O"]
    assert [es.label(t) for t in es.split("LLAMA")] == ["LL", "A", "M", "A"]
    assert [es.label(t) for t in es.split("calle")] == ["C", "A", "LL", "E"]
    assert [es.label(t) for t in es.split("AÑO")] == ["A", "Ñ", "O"]
    assert es.code("Ñ") != es.code("N")
    assert len(es.split("CHURRO")) == 4


def test_spanish_split_is_greedy():
    # Documented choice (Alphabet.split): C then H is always the tile CH, never C + H; the same for LL and RR.
    # A word that needs the separate tiles C and H cannot be written as text; it can only be given as codes.
    es = alphabet("es")
    c, h, ch, r, rr = (es.code(x) for x in ("C", "H", "CH", "R", "RR"))
    assert es.split("CH") == [ch]
    assert es.split("CHH") == [ch, h]
    assert es.split("CCH") == [c, ch]
    assert es.split("RRR") == [rr, r]
    assert es.format([c, h]) == "CH"
    assert es.split(es.format([c, h])) == [ch]  # so format is not inverted by split for such sequences


def test_spanish_digraph_blanks():
    es = alphabet("es")
    assert es.split("ch", blanks=True) == [BLANK_BIT | es.code("CH")]
    assert es.label(BLANK_BIT | es.code("CH")) == "ch"
    # mixed case is not a blank
    assert es.split("Ch", blanks=True) == [es.code("CH")]


def test_spanish_folds_accents_but_keeps_enye():
    es = alphabet("es")
    assert es.fold("canción") == "CANCION"
    assert es.fold("pingüino") == "PINGUINO"
    assert es.fold("niño") == "NIÑO"


def test_greek_accents_and_final_sigma_fold():
    el = alphabet("el")
    assert el.fold("λέξεις") == "ΛΕΞΕΙΣ"
    assert el.fold("Άλφα") == "ΑΛΦΑ"
    assert el.fold("ΐ") == "Ι"
    assert el.fold("ϋ") == "Υ"
    assert el.fold("ώρα") == "ΩΡΑ"
    assert el.split("ς") == el.split("σ") == el.split("Σ") == [el.code("Σ")]
    assert el.split("λέξεις") == el.split("ΛΕΞΕΙΣ")


def test_polish_letters_stay_distinct():
    pl = alphabet("pl")
    assert pl.fold("zażółć gęślą jaźń".replace(" ", "")) == "ZAŻÓŁĆGĘŚLĄJAŹŃ"
    accented = pl.split("ĄĆĘŁŃÓŚŹŻ")
    plain = pl.split("ACELNOSZZ")
    assert len(set(accented)) == 9
    assert not set(accented) & set(plain)
    assert pl.code("Ź") != pl.code("Ż")


def test_french_ligatures_fold_to_two_letters():
    fr = alphabet("fr")
    assert fr.fold("cœur") == "COEUR"
    assert fr.fold("Æ") == "AE"
    assert fr.split("CŒUR") == fr.split("COEUR")
    assert fr.split("cœur", blanks=True) == [BLANK_BIT | t for t in fr.split("COEUR")]
    assert fr.fold("élève") == "ELEVE"


def test_foreign_letters():
    ro = alphabet("ro")
    assert ro.fold("ΑΒΓ") is None
    assert ro.fold("A1") is None
    with pytest.raises(TileError, match="not a letter"):
        ro.split("CAΣA")
    with pytest.raises(TileError):
        alphabet("el").split("CASA")
    with pytest.raises(TileError):
        ro.code("Ă")  # code() takes folded labels only


def test_format_round_trip():
    ro = alphabet("ro")
    tiles = ro.split("CaSa", blanks=True)
    assert ro.format(tiles) == "CaSa"
    assert ro.split(ro.format(tiles), blanks=True) == tiles
    assert is_blank(tiles[1]) and letter_of(tiles[1]) == ro.code("A")
    assert ro.label(BLANK) == "?"


# --- racks and bags -----------------------------------------------------------------------------------------


def test_rack_parse_and_counts():
    ro = alphabet("ro")
    rack = ro.parse_rack("casa??")
    assert len(rack) == 6
    assert rack.counts[BLANK] == 2
    assert rack.counts[ro.code("A")] == 2
    assert str(rack) == "AACS??"
    assert rack.vowels() == 2 and rack.consonants() == 2  # blanks count as neither
    assert rack == Rack(ro, [*ro.split("CASA"), BLANK, BLANK])
    assert hash(rack) == hash(rack.copy())
    assert repr(rack) == "Rack('ro', 'AACS??')"
    assert alphabet("es").parse_rack("CHE?").tiles() == [
        alphabet("es").code("CH"),
        alphabet("es").code("E"),
        0,
    ]


def test_rack_take():
    ro = alphabet("ro")
    rack = ro.parse_rack("CASA?")
    left = rack.take([ro.code("C"), BLANK_BIT | ro.code("K")])
    assert str(left) == "AAS"
    assert str(rack) == "AACS?"  # unchanged
    with pytest.raises(TileError, match="not on the rack"):
        rack.take([ro.code("T")])
    with pytest.raises(TileError):
        rack.take([BLANK_BIT | 1, BLANK_BIT | 2])


def test_bag_holds_the_whole_set_and_draws_reproducibly():
    ro = alphabet("ro")
    bag = Bag(ro, seed=42)
    assert len(bag) == 100
    assert bag.tiles.count(ro.code("A")) == 11 and bag.tiles.count(BLANK) == 2
    first = bag.draw(7)
    again = Bag(ro, seed=42).draw(7)
    assert first == again and len(bag) == 93
    bag.put_back(first)
    assert sorted(bag.tiles) == sorted(Bag(ro).tiles)
    bag.remove([ro.code("X")])
    with pytest.raises(TileError, match="not left in the bag"):
        bag.remove([ro.code("X")])
    assert len(Bag(ro, seed=1, tiles=[]).draw(7)) == 0
