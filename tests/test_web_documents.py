"""Long documents made in the background with their progress shown (arbitru.web.documents): the first request
starts the maker and, when the document is not made within the wait, answers 202 with a page saying how far it
is; asked again, the PDF comes; one maker per document, its file shared by every worker."""

from __future__ import annotations

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
