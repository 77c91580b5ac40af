"""The registry as CSV, and a federation's rating list.

Reading: UTF-8 with or without a byte-order mark, a header line naming the columns. Columns are matched by name
(case and accents aside) through :data:`ALIASES`, or by an explicit mapping ``{"Nume": "name"}``; a column
``rating`` (or ``rating:<system>``) gives a rating. Categories are separated by ``;``. A licence id given twice
in one federation is refused with both lines, and nothing is stored from a refused file.

>>> rows = read_players("Licence,Name,Club,Rating\\nRO-1,Ana Pop,Arad,1850\\n", rating_system="elod")
>>> rows[0][0], rows[0][1].name, dict(rows[0][1].ratings)
(2, 'Ana Pop', {'elod': 1850.0})
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Mapping

from arbitru.formats.spreadsheet import FORMULA_STARTS, writer
from arbitru.journal.store import Journal
from arbitru.messages import Text
from arbitru.season.registry import Entry, Registry, RegistryError, rate, register
from arbitru.textinput import InputError, ascii_number, csv_rows, duplicate_columns

#: header names read without a mapping (lower case, accents removed) -> the record's field
ALIASES: dict[str, str] = {
    "name": "name", "nume": "name", "nom": "name", "nombre": "name", "player": "name", "jucator": "name",
    "licence": "licence", "license": "licence", "licence id": "licence", "licenta": "licence",
    "id": "licence", "fide id": "licence", "code": "licence",
    "federation": "federation", "country": "federation", "fed": "federation", "federatie": "federation",
    "club": "club", "birth year": "birth_year", "birth_year": "birth_year", "born": "birth_year",
    "year": "birth_year", "an nastere": "birth_year", "categories": "categories", "category": "categories",
    "categorie": "categories", "series": "categories", "serie": "categories", "rating": "rating",
    "elo": "rating", "elod": "rating", "arbitru id": "id",
    # Polish and Greek headers
    "imie i nazwisko": "name", "nazwisko": "name", "zawodnik": "name", "klub": "club", "rok urodzenia": "birth_year",
    "kategoria": "categories", "ranking": "rating", "ονομα": "name", "ονοματεπωνυμο": "name", "παικτης": "name",
    "συλλογος": "club", "ομιλος": "club", "ετος γεννησης": "birth_year", "κατηγορια": "categories",
    # the headers the registry page shows as its example in each language (the catalogs' translations of
    # REGISTRY_HEADER): Spanish, French, Polish and Greek words not above
    "licencia": "licence", "federacion": "federation", "ano de nacimiento": "birth_year", "categoria": "categories",
    "annee de naissance": "birth_year", "licencja": "licence", "federacja": "federation",
    "αριθμος μητρωου": "licence", "ομοσπονδια": "federation", "βαθμολογια": "rating",
}
#: the example header of a players' file, as the registry page shows it (in the page's language: each
#: catalog's translation is a header this module reads, tests/test_web_every_word_browser.py checks it)
REGISTRY_HEADER = "licence,name,club,federation,birth year,categories,rating"
#: what a refusal names: the file imported
PLAYERS_FILE = Text("players file")
RATING_LIST = Text("rating list")
#: the columns written by :func:`write_players`
EXPORT_COLUMNS = ("arbitru id", "licence", "federation", "name", "club", "birth year", "categories")


def _key(header: str) -> str:
    text = unicodedata.normalize("NFKD", header.strip().lower())
    return "".join(c for c in text if not unicodedata.combining(c)).replace("_", " ")


def _columns(header: list[str], mapping: Mapping[str, str], rating_system: str) -> dict[int, str]:
    mapped = {_key(k): v for k, v in mapping.items()}
    out: dict[int, str] = {}
    for i, name in enumerate(header):
        key = _key(name)
        field = mapped.get(key) or ALIASES.get(key)
        if field is None and key.startswith("rating:"):
            field = "rating:" + name.strip().split(":", 1)[1].strip()
        if field == "rating":
            field = f"rating:{rating_system}"
        if field is not None:
            out[i] = field
    return out


def read_players(
    text: str, *, mapping: Mapping[str, str] | None = None, rating_system: str = "elod", what: str = PLAYERS_FILE,
    map_option: str = "", delimiter: str | None = None,
) -> list[tuple[int, Entry]]:
    """(line, entry) for every player of a CSV file; nothing is stored. ``map_option``: how the caller maps a
    column (the CLI's ``--map``), suggested when no column holds the names; without it the refusal says what the
    file's header needs (a page has no mapping).

    ``delimiter``: the cells' separator, else the header line's (:func:`delimiter_of`: ``,``, ``;`` or a tab).

    :raises RegistryError: naming the line: no header with a name column, a row of another shape than the
        header, a year or rating that is not a number.
    """
    if delimiter is None:
        delimiter = delimiter_of(text)
    rows = [(n, [unguarded(c) for c in cells]) for n, cells in csv_rows(text, what, delimiter=delimiter)
            if any(c.strip() for c in cells)]
    if not rows:
        raise RegistryError(Text("%(what)s: empty", what=what))
    header_line, header = rows[0]
    for line, cells in rows[1:]:
        if len(cells) != len(header):  # a cell too many or missing: the columns would be read shifted
            raise RegistryError(Text(
                "%(what)s: line %(line)s: %(n)s cells, the header (line %(header)s) has %(columns)s: nothing "
                "registered", what=what, line=line, n=len(cells), header=header_line, columns=len(header)))
    twice = duplicate_columns([_key(h) for h in header])
    if twice:
        raise RegistryError(Text("%(what)s: line %(line)s: the column %(column)s is given twice", what=what,
                                 line=header_line, column=repr(twice[0])))
    columns = _columns(header, mapping or {}, rating_system)
    if "name" not in columns.values():
        if map_option:
            raise RegistryError(Text(
                "%(what)s: line %(line)s: no column for the player's name (columns: %(columns)s); call one %(name)s "
                "(or map one, e.g. %(example)s)", what=what, line=header_line, columns=", ".join(header),
                name="'name'", example=f"{map_option} 'Nume=name'"))
        raise RegistryError(Text(
            "%(what)s: line %(line)s: no column for the player's name (columns: %(columns)s); the file needs a "
            "header line with a column called %(name)s (or one of %(aliases)s)", what=what, line=header_line,
            columns=", ".join(header), name="'name'",
            aliases=", ".join(repr(a) for a, field in ALIASES.items() if field == "name" and a != "name")))
    out = []
    for line, cells in rows[1:]:
        values: dict[str, str] = {}
        for i, field in columns.items():
            values[field] = cells[i].strip() if i < len(cells) else ""
        year = values.get("birth_year", "")
        birth = ascii_number(year) if year else None
        if year and birth is None:
            raise RegistryError(Text("%(what)s: line %(line)s: birth year %(year)s is not a number", what=what,
                                     line=line, year=repr(year)))
        ratings = {}
        for field, value in values.items():
            if field.startswith("rating:") and value:
                ratings[field.split(":", 1)[1]] = _number(value, Text("%(what)s: line %(line)s: rating", what=what,
                                                                         line=line))
        out.append((line, Entry(
            name=values.get("name", ""),
            licence=values.get("licence", ""),
            federation=values.get("federation", ""),
            club=values.get("club", ""),
            birth_year=birth,
            categories=tuple(c for c in values.get("categories", "").split(";") if c.strip()),
            ratings=ratings,
        )))
    return out


#: the separators a registry file may use: a comma, Excel's semicolon (ro, pl, es, fr locales), a tab
DELIMITERS = (",", ";", "\t")
#: the legacy encodings a registry file may come in, besides UTF-8: Central European (ro, pl) and Greek Windows
ENCODINGS = ("utf-8", "cp1250", "cp1253")


def delimiter_of(text: str) -> str:
    """The separator of a CSV text: of ``,``, ``;`` and a tab, the one its header line holds most (a comma when
    none)."""
    header = text.lstrip("\ufeff").split("\n", 1)[0]
    counts = {d: header.count(d) for d in DELIMITERS}
    best = max(DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] else ","


def unguarded(cell: str) -> str:
    """A cell as written before the spreadsheet guard (:func:`arbitru.formats.spreadsheet.safe_cell` puts a
    ``'`` before a text a spreadsheet would read as a formula): an export imports back to the same records."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) else cell


def decode(data: bytes, encoding: str = "") -> str:
    """A file's bytes as text: ``encoding`` when given (``utf-8``, ``cp1250``, ``cp1253``), else UTF-8 (with
    or without a byte-order mark), else the legacy one its letters show: Greek text is written almost wholly
    with bytes above 127, Romanian or Polish text in cp1250 with one here and there.

    :raises RegistryError: when the bytes are not text in the encoding given, or in none of :data:`ENCODINGS`
        (the page then asks for the encoding).
    """
    if encoding:
        if encoding not in ENCODINGS:
            raise RegistryError(Text("encoding %(name)s; known: %(known)s", name=repr(encoding),
                                     known=", ".join(ENCODINGS)))
        try:
            return data.decode("utf-8-sig" if encoding == "utf-8" else encoding)
        except UnicodeDecodeError as e:
            raise RegistryError(Text("%(what)s: not %(encoding)s text (byte %(n)s): choose its encoding",
                                     what=PLAYERS_FILE, encoding=encoding, n=e.start + 1)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    words = re.findall(rb"[A-Za-z\x80-\xff]+", data)
    high = [w for w in words if re.search(rb"[\x80-\xff]", w)]
    letters = sum(len(w) for w in high)
    share = sum(1 for w in high for b in w if b >= 0x80) / letters if letters else 0.0
    for guess in (("cp1253", "cp1250") if share > 0.6 else ("cp1250", "cp1253")):
        try:
            text = data.decode(guess)
        except UnicodeDecodeError:
            continue
        if "\x00" not in text:
            return text
    raise RegistryError(Text("%(what)s: not UTF-8, cp1250 or cp1253 text: choose its encoding", what=PLAYERS_FILE))


def _number(text: str, what: str) -> float:
    cleaned = text.replace(",", ".")
    whole, _, frac = cleaned.lstrip("-").partition(".")
    digits = re.fullmatch(r"[0-9]+", whole) is not None and (not frac or re.fullmatch(r"[0-9]+", frac) is not None)
    if not digits or len(whole) > 6:
        raise RegistryError(Text("%(what)s %(text)s is not a number", what=what, text=repr(text)))
    return float(cleaned)


def import_players(journal: Journal, text: str, **options: str | Mapping[str, str]) -> list[str]:
    """Register every player of a CSV file, all or none; returns their registry ids."""
    mapping = options.get("mapping")
    system = options.get("rating_system", "elod")
    map_option = options.get("map_option", "")
    delimiter = options.get("delimiter")
    entries = read_players(text, mapping=mapping if isinstance(mapping, Mapping) else None,
                           rating_system=system if isinstance(system, str) else "elod",
                           map_option=map_option if isinstance(map_option, str) else "",
                           delimiter=delimiter if isinstance(delimiter, str) and delimiter else None)
    try:
        return register(journal, [e for _, e in entries], lines=[n for n, _ in entries])
    except InputError as e:
        raise RegistryError(Text("%(what)s: %(why)s: nothing registered", what=PLAYERS_FILE, why=str(e))) from None


def write_players(registry: Registry) -> str:
    """Every record not merged, one a line; a column per rating system."""
    systems = sorted({s for r in registry.active() for s in r.ratings})
    out = io.StringIO()
    w = writer(out)
    w.writerow([*EXPORT_COLUMNS, *(f"rating:{s}" for s in systems)])
    for r in registry.active():
        w.writerow([r.id, r.licence, r.federation, r.name, r.club, r.birth_year or "", ";".join(r.categories),
                    *(_shown(r.ratings.get(s)) for s in systems)])
    return out.getvalue()


def _shown(value: float | None) -> object:
    if value is None:
        return ""
    return int(value) if value == int(value) else round(value, 2)


def import_rating_list(
    journal: Journal, registry: Registry, text: str, *, system: str, date: str, federation: str = "",
    register_unknown: bool = False, source: str = "",
) -> tuple[list[str], list[str]]:
    """A federation's published rating list (CSV: licence, name, rating at least): each line's rating for the
    player with that licence in ``federation``. Lines for players not in the registry are registered when
    ``register_unknown`` is set, else refused with their lines. Returns (rated ids, newly registered ids).
    """
    entries = read_players(text, rating_system=system, what=RATING_LIST)
    missing = [n for n, e in entries if system not in e.ratings]
    if missing:
        raise RegistryError(f"rating list: line {missing[0]}: no rating")
    ratings: dict[str, float] = {}
    unknown: list[tuple[int, Entry]] = []
    seen: dict[str, int] = {}
    for line, e in entries:
        if not e.licence:
            raise RegistryError(f"rating list: line {line}: no licence id")
        if e.licence in seen:
            twice = f"lines {seen[e.licence]} and {line}"
            raise RegistryError(f"rating list: licence {e.licence!r} is given twice ({twice})")
        seen[e.licence] = line
        record = registry.by_licence(e.federation or federation, e.licence)
        if record is None:
            unknown.append((line, e))
        else:
            ratings[record.id] = e.ratings[system]
    if unknown and not register_unknown:
        lines = ", ".join(str(n) for n, _ in unknown[:10])
        raise RegistryError(f"rating list: lines {lines}: licence not in the registry (register them, or "
                            "import with registering): nothing stored")
    with journal.transaction():
        added = register(
            journal, [Entry(e.name, e.licence, e.federation or federation, e.club, e.birth_year, e.categories,
                            {system: e.ratings[system]}) for _, e in unknown],
            lines=[n for n, _ in unknown],
        ) if unknown else []
        if ratings:
            rate(journal, system, date, ratings, source)
    return list(ratings), added
