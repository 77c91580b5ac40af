"""What the anticipation web tests share: a game created through the console's form, with hand-made groups."""

from __future__ import annotations

import re
from pathlib import Path

from anticipation_support import RO, groups_with, lexicon
from arbitru.formats.anticipation.draw import format_group
from web_support import Site, csrf, post

# group 1 AL; lots play groups 2, 3, 4... in turns 1, 2, 3... (the boards of test_anticipation_correction.py)
GROUPS = {1: "AL", 2: "BDEIOTU", 3: "ACEINRT", 4: "AEINSTV", 5: "ADEIORT", 6: "ACEILNO"}
SEATING = "Ana,1,Ana Popescu\nBo,2,Bogdan Ionescu\nCleo,3,Carmen Dima\n"


def imported_words(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The test list imported as ``test-ro-words`` into a home of this test (a list comes in by `arbitru lexicon
    import`; a page chooses it by name), so that a server started from here offers it too."""
    from anticipation_support import WORDS_RO
    from arbitru.lexicons import catalog

    words = tmp_path / "test-ro.txt"
    words.write_text("\n".join(WORDS_RO) + "\n", "utf-8")
    home = tmp_path / "home"
    catalog.import_list(words, "ro", "test-ro-words", home=home)
    (home / "npm").symlink_to(catalog.home_dir() / "npm")  # htmx, installed by the set-up
    monkeypatch.setenv("ARBITRU_HOME", str(home))


def groups_text() -> str:
    return "\n".join(format_group(RO, g) for g in groups_with(GROUPS))


def create_game(site: Site, client, *, seating: str = SEATING, variant: str = "classic") -> str:
    lexicon()  # registers "test-ro" in this process
    token = csrf(client.get("/anticipation/new").text)
    data = {"csrf": token, "variant": variant, "lexicon": "test-ro", "source": "hall", "groups": groups_text(),
            "seating": "tables", "players": seating}
    r = client.post("/anticipation/new", data=data)
    assert r.status_code == 303, r.text
    return str(r.headers["location"]).rsplit("/", 1)[1]


def form(client, url: str, data: dict[str, str], page: str, confirm: bool = True):  # type: ignore[no-untyped-def]
    """A form POST carrying the CSRF token of ``page``, confirmed when it asks (:func:`web_support.post`)."""
    return post(client, url, data, page, confirm)


WEB = Path(__file__).parent.parent / "src" / "arbitru" / "web"
MESSAGE = re.compile(r"""_\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")""")  # a template's _('…')
TEXT = re.compile(r"""Text\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""")  # a route's message


def messages(pattern: re.Pattern[str], paths: list[Path]) -> set[str]:
    found: set[str] = set()
    for path in paths:
        for m in pattern.finditer(path.read_text(encoding="utf-8")):
            found.add(m.group(1) if m.group(1) is not None else m.group(2))
    return found


def template_messages(anticipation: bool = False) -> set[str]:
    """Every ``_('…')`` of the templates: the anticipation pages' apart (checked with their routes' messages)."""
    paths = [p for p in (WEB / "templates").rglob("*.html") if ("anticipation" in p.parts) == anticipation]
    return messages(MESSAGE, paths)


def route_messages() -> set[str]:
    """The anticipation routes' confirmations and refusals (``Text("…")``)."""
    formats = WEB.parent / "formats" / "anticipation"
    return messages(TEXT, [WEB / "routes" / "anticipation.py", WEB / "routes" / "train_anticipation.py",
                           WEB / "anticipation_pages.py", WEB / "forms.py", formats / "hints.py",
                           formats / "notices.py", formats / "training.py"])
