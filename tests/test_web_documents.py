"""Long documents made in the background with their progress shown (arbitru.web.documents): the first request
starts the maker and, when the document is not made within the wait, answers 202 with a page saying how far it
is; asked again, the PDF comes; one maker per document, its file shared by every worker."""

from __future__ import annotations

import re
import time

from arbitru.web import documents
from web_anticipation_support import create_game, form
from web_support import login, make_game, make_site, post


def fetch(client, url: str):  # type: ignore[no-untyped-def]
    """Ask as the progress page does (every moment) until the document comes."""
    for _ in range(600):
        r = client.get(url)
        if r.status_code != 202:
            return r
        time.sleep(0.1)
    raise AssertionError(f"{url} was never made")


def test_a_long_pdf_shows_its_progress_then_downloads(tmp_path, monkeypatch):
    monkeypatch.setattr(documents, "WAIT", 0.0)  # every document is "long": the progress page comes first
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    gid = make_game(site)
    post(arbiter, f"/games/{gid}/close", {"choice": "1"}, f"/games/{gid}")
    url = f"/games/{gid}/download/results.pdf"
    first = arbiter.get(url)
    assert first.status_code == 202 and "Making the document" in first.text and 'http-equiv="refresh"' in first.text
    pdf = fetch(arbiter, url)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF-")
    assert f'filename="{gid}-results.pdf"' in pdf.headers["content-disposition"]
    made = list(documents.folder(site.db).glob("*.pdf"))
    assert len(made) == 1  # one maker, one file, served again without making it twice
    assert arbiter.get(url).content == pdf.content


def test_RO_5_5_j_the_annex_3_sheets_in_the_background_in_romanian(tmp_path, monkeypatch):
    monkeypatch.setattr(documents, "WAIT", 0.0)
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    gid = create_game(site, arbiter)
    url = f"/games/{gid}/forms/results.pdf"
    assert site.client().get(url).status_code == 403  # not published
    first = arbiter.get(url)
    assert first.status_code == 202 and "Se face documentul" in first.text
    assert fetch(arbiter, url).content.startswith(b"%PDF-")
    assert form(arbiter, f"/games/{gid}/publish", {"stage": "provisional", "deadline": "18:30"},
                f"/games/{gid}/review").status_code == 303
    assert fetch(site.client(), url).content.startswith(b"%PDF-")  # published: a new position, a new file


# --- every move on paper (FISE-17), every board on one page (RO-5.5.j) -------------------------------------------

FIRST = ("Ana", "Bogdan", "Carmen", "Dan", "Elena", "Florin", "Gina", "Horia")


def played_game(site, players: int, moves: int) -> str:  # type: ignore[no-untyped-def]
    """A game of ``players`` players and ``moves`` moves on the test list, each player writing another of the
    rack's placements each move (some none), so that every cell of the results differs from its neighbours."""
    from arbitru.engine.movegen import generate
    from arbitru.engine.tiles import Rack
    from arbitru.formats.duplicate.game import Player, Session, Settings
    from arbitru.formats.duplicate.rulesets import ruleset
    from arbitru.formats.duplicate.slips import Slip
    from arbitru.journal.store import Journal
    from arbitru.lexicons.synthetic import load_lexicon

    lex = load_lexicon("synthetic:2000", "en")
    settings = Settings(ruleset("fise", moves=moves, seconds=60), "en", "synthetic:2000", seed="7", racks="seed")
    roster = [Player(str(n), f"{FIRST[n % len(FIRST)]} Surname{n}") for n in range(1, players + 1)]
    with Journal(site.db, actor="arbiter") as j:
        s = Session.create(j, settings, lex, roster)
        for move in range(1, moves + 1):
            assert s.draw().kind == "rack"
            g = s.game
            found = generate(g.board, Rack(g.alphabet, g.rack), lex)
            slips = [Slip(move, p.number, found[(int(p.number) * 7 + move) % len(found)][0].coord.format(),
                          g.alphabet.format(found[(int(p.number) * 7 + move) % len(found)][0].word))
                     for p in roster if (int(p.number) + move) % 9]
            s.add_slips(slips)
            assert s.place_master().kind == "master"
        return s.id


def pdf_pages(content: bytes) -> list[str]:
    import io

    import pypdf

    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(content)).pages]


def test_fise_17_the_results_pdf_of_25_moves_and_40_players_holds_all_1000_scores(tmp_path):
    from arbitru.formats.duplicate.game import Session
    from arbitru.formats.duplicate.results import compute
    from arbitru.journal.store import Journal
    from arbitru.lexicons.synthetic import load_lexicon

    site = make_site(tmp_path)
    gid = played_game(site, players=40, moves=25)
    with Journal(site.db) as j:
        result = compute(Session(j, gid).game, load_lexicon("synthetic:2000", "en"))
    assert len(result.masters) == 25 and len(result.lines) == 40
    pdf = fetch(site.client(), f"/games/{gid}/download/results.pdf")
    assert pdf.status_code == 200
    # every table of moves: its heading names its moves; each row is the place, the player, his scores, his total
    printed: dict[str, dict[int, str]] = {}
    moves: list[int] = []
    for text in pdf_pages(pdf.content):
        for row in text.splitlines():
            header = re.fullmatch(r"place player ((?:\d+ )+)total", row)
            if header:
                moves = [int(m) for m in header.group(1).split()]
                continue
            cells = re.fullmatch(r"(\d+) (\d+) (\w+ Surname\d+) ((?:\d+(?:\+\d+)? )+)(\d+)", row)
            if moves and cells:
                scores = cells.group(4).split()
                assert len(scores) == len(moves), row  # no cell cut, none run off the page
                printed.setdefault(cells.group(2), {}).update(zip(moves, scores, strict=True))
                assert cells.group(3).endswith(f"Surname{cells.group(2)}")
    found = 0
    for line in result.lines:
        for m in line.moves:
            expected = f"{m.score}+{m.bonus}" if m.bonus else str(m.score)
            assert printed[line.player.number][m.move] == expected, (line.player.number, m.move)
            found += 1
    assert found == 1000
    assert any("+" in s for row in printed.values() for s in row.values())  # bonuses printed whole ("47+10")
    assert len({s for row in printed.values() for s in row.values()}) > 20  # the scores differ: a real check


def test_ro_5_5_j_every_annex_3_results_sheet_on_one_page_its_board_whole(tmp_path):
    from anticipation_support import lexicon
    from arbitru.formats.anticipation.game import AnticipationGame
    from arbitru.formats.anticipation.simulate import simulate
    from arbitru.formats.anticipation.variants import Settings
    from arbitru.journal.store import Journal

    site = make_site(tmp_path)
    lex = lexicon()
    sim = simulate(lex, players=30, seed=7)
    with Journal(site.db, actor="arbiter") as j:
        game = AnticipationGame.create(j, Settings(lexicon=lex.name, seed=7), sim.draw, lexicon=lex,
                                       seating=sim.seating)
        for turn, group in enumerate(sim.lots, 1):
            game.draw_lot(turn, group)
        for turn in sorted(sim.slips):
            game.enter_slips(sim.slips[turn])
        game.publish("provisional", "18:30", confirmed=True)
        state = game.replay()
        names = [state.names.get(r.player, r.player) for r in state.ranking]
    pdf = fetch(site.client(), f"/games/{game.id}/forms/results.pdf")
    pages = pdf_pages(pdf.content)
    assert len(pages) == len(names) == 30  # a page per player: no sheet runs onto a second page
    for text, name in zip(pages, names, strict=True):
        assert text.count("CONCURENT:") == 1 and f"Rezultate — {name}" in text, text[:200]
        assert "TOTAL:" in text and "LOC:" in text
        # the board's 15 columns and 15 rows are on the sheet's page
        assert re.search(r"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", text), text
