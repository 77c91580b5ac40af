"""What the anticipation web tests share: a game created through the console's form, with hand-made groups."""

from __future__ import annotations

from anticipation_support import RO, groups_with, lexicon
from arbitru.formats.anticipation.draw import format_group
from web_support import Site, csrf

# group 1 AL; lots play groups 2, 3, 4... in turns 1, 2, 3... (the boards of test_anticipation_correction.py)
GROUPS = {1: "AL", 2: "BDEIOTU", 3: "ACEINRT", 4: "AEINSTV", 5: "ADEIORT", 6: "ACEILNO"}
SEATING = "Ana,1,Ana Popescu\nBo,2,Bogdan Ionescu\nCleo,3,Carmen Dima\n"


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


def form(client, url: str, data: dict[str, str], page: str):  # type: ignore[no-untyped-def]
    """A form POST carrying the CSRF token of ``page``."""
    return client.post(url, data={"csrf": csrf(client.get(page).text), **data})
