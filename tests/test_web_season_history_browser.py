"""A season's history through the pages in a real browser (Playwright driving Debian's chromium), as a
federation's secretary keeps it (issue 31): the registry uploaded as a file as Excel writes it in Romania
(semicolons, Windows-1250), a tournament of three games recorded from paper sheets with one absence (FISE-15:
last in the table; FISE-21: not in the field), two records of one person merged (the page names the game both
have a line in and asks whose line stands), the junior table viewed by mean percentage and downloaded as CSV and
PDF that hold what the page shows. Screenshots (the upload, the merge question, the junior table, the PDF's page,
the phone) go to ``tests/output/``."""

from __future__ import annotations

import csv
import io
import subprocess

from playwright.sync_api import Page, expect

from arbitru.journal.store import Journal
from arbitru.season import ratings, registry, tournament
from arbitru.web import auth
from test_web_browser import OUTPUT, PHONE, browser, new_page, no_horizontal_scroll, shot  # noqa: F401
from web_server import running_server
from web_support import ARBITER_PASSWORD

#: the registry as Excel saves it in a Romanian locale: semicolons, Windows-1250; Elena Stan is registered twice
REGISTRY = ("Licenta;Nume;Club;Federatie;ELO;Categorie\n"
            "1;Ana Popescu;CS Arad;ROU;1800;senior\n"
            "2;Bogdan Ionescu;Cluj;ROU;1700;senior\n"
            "3;Carmen Dumitrescu;CS Arad;ROU;1650;junior\n"
            "4;Dan Georgescu;Iaşi;ROU;1600;junior\n"
            "5;Elena Stan;Cluj;ROU;1550;junior\n"
            "55;Elena Stan;Cluj;ROU;1550;junior\n"
            "7;Florin Ţurcanu;Iaşi;ROU;1500;senior\n")
#: three paper sheets: A6 (Elena's second record) has a line of zeros in game 1; Dan (A4) is absent from game 2
GAMES = ("master,40,30,50\nA1,40,20,50\nA2,30,30,10\nA3,20,10,50\nA4,10,30,0\nA5,40,30,20\nA6,0,0,0\nA7,5,5,5\n",
         "master,60,20\nA1,60,0\nA2,10,20\nA3,30,20\nA4,absent\nA5,20,20\nA6,absent\nA7,0,0\n",
         "master,30,30,30\nA1,10,10,10\nA2,30,30,30\nA3,0,30,30\nA4,30,0,0\nA5,20,20,30\nA6,absent\nA7,5,0,0\n")


def submit(page: Page, button: str) -> None:
    with page.expect_navigation():
        page.click(button)


def page_rows(page: Page) -> list[list[str]]:
    """The general table as the page shows it: per row the place, the name and the mean percentage."""
    out = []
    for row in page.locator("table.general tr").all()[1:]:
        cells = [c.inner_text().strip() for c in row.locator("td").all()]
        out.append([cells[0], row.locator("td").nth(1).locator("a").inner_text().strip(), cells[-2]])
    return out


def test_a_secretary_uploads_records_merges_and_downloads_the_junior_table(browser, tmp_path):  # noqa: F811
    db = str(tmp_path / "season.db")
    with Journal(db, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, ARBITER_PASSWORD, auth.ARBITER)
    with running_server(db) as base:
        sec = new_page(browser, base, {"width": 1280, "height": 900})
        sec.goto("/login")
        sec.fill("input[name=password]", ARBITER_PASSWORD)
        submit(sec, "button:has-text('Log in')")

        # the registry uploaded as a file: the separator and the encoding found from it
        sec.goto("/registry?lang=ro")
        sec.set_input_files("#import input[type=file]", files=[
            {"name": "legitimati.csv", "mimeType": "text/csv", "buffer": REGISTRY.encode("cp1250")}])
        shot(sec, "season-history-upload")
        submit(sec, "#import button")
        expect(sec.locator("table.stack tr")).to_have_count(8)
        expect(sec.locator("table.stack")).to_contain_text("Florin Ţurcanu")
        expect(sec.locator("table.stack")).to_contain_text("Iaşi")

        sec.goto("/tournaments")
        sec.fill("#new-tournament input[name=name]", "Cupa Aradului")
        sec.fill("#new-tournament input[name=start]", "2026-03-07")
        sec.select_option("#new-tournament select[name=rules]", "romanian")
        sec.select_option("#new-tournament select[name=method]", "mean-place")
        submit(sec, "#new-tournament button")
        tid = sec.url.rsplit("/", 1)[1].split("?")[0]
        sec.goto(f"/tournaments/{tid}")
        for pid in ("A1", "A2", "A3", "A4", "A5", "A6", "A7"):
            sec.check(f"#enrol input[name=player][value={pid}]")
        submit(sec, "#enrol button:has-text('Înscrie')")

        # a sheet without its master line is refused beside the form, nothing stored
        sec.locator("#record summary").click()
        sec.fill("#record textarea[name=result]", "A1,40\nA2,30\n")
        submit(sec, "#record button")
        expect(sec.locator("#record-error")).to_contain_text("rândul ei master")
        for n, sheet in enumerate(GAMES, 1):
            sec.goto(f"/tournaments/{tid}")
            sec.locator("#record summary").click()
            sec.fill("#record input[name=title]", f"Partida {n}")
            sec.fill("#record textarea[name=result]", sheet)
            submit(sec, "#record button")
            expect(sec.locator("#record-error")).to_have_count(0)
        expect(sec.locator("#absent .absences")).to_contain_text("Dan Georgescu")
        # the homonyms are told apart by their licence
        expect(sec.locator("table.general")).to_contain_text("55 · Cluj")

        # Elena's two records merged: the page names the game both have a line in and asks whose line stands
        sec.goto("/players/A6")
        sec.select_option("#merge select[name=into]", "A5")
        sec.fill("#merge input[name=reason]", "o persoană, două legitimații")
        submit(sec, "#merge button")
        expect(sec.locator("#merge-error")).to_contain_text("Cupa Aradului, partida 1")  # in the page's language
        expect(sec.locator("#merge-error")).to_contain_text("alegeți al cui rând rămâne")
        sec.check(f"#merge input[name='keep:{tid}.1'][value=A5]")
        shot(sec, "season-history-merge-question")
        submit(sec, "#merge button")
        assert sec.url.split("?")[0].endswith("/players/A5")
        expect(sec.locator("ul.changes")).to_contain_text("A6 Elena Stan")
        assert "{'" not in sec.content()  # the history is read, not a Python dict

        with Journal(db) as j:
            reg = registry.load(j)
            assert reg.resolve("A6") == "A5"
            t = tournament.replay(j, tid)
            first = tournament.outcomes(j, t)[0]
            assert first.lines["A5"].total == 90 and "A6" not in first.lines  # her 90 points kept
            listed = {r.player: r for r in ratings.rating_list(j)}
            assert "A4" in listed and len(listed["A4"].history) == 2  # absent from game 2: not in its field
            assert [g.field_size for g in listed["A1"].history] == [6, 5, 6]  # one person once in game 1

        # the junior table, by mean percentage: the page, then its CSV and PDF
        sec.goto(f"/tournaments/{tid}?category=junior&method=mean-percentage")
        shown = page_rows(sec)
        assert [r[1] for r in shown] == ["Elena Stan", "Carmen Dumitrescu", "Dan Georgescu"], shown
        expect(sec.locator("table.general tr", has_text="Dan Georgescu")).to_contain_text("abs.")
        shot(sec, "season-history-junior-table")
        with sec.expect_download() as got:
            sec.click("#download-csv")
        data = got.value.path().read_text(encoding="utf-8")
        lines = list(csv.reader(io.StringIO(data)))
        assert lines[0][0].startswith("ranked by: mean percentage") and "category: junior" in lines[0]
        header, rows = lines[1], lines[2:]
        pct = header.index("mean percentage")
        # the file holds the figures in the plain form programs read, rounded as the page rounds them
        assert [[r[0], r[3], r[pct].replace(".", ",")] for r in rows] == shown
        assert rows[-1][header.index("game 2")] == "absent"
        assert got.value.suggested_filename.endswith("-table-junior-mean-percentage.csv")
        with sec.expect_download() as got:
            sec.click("#download-pdf")
        pdf = tmp_path / "junior.pdf"
        got.value.save_as(pdf)
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
        assert "log" not in text.lower() and "arbitru" not in text.lower()  # no page chrome, no login link
        for _, name, mean in shown:
            assert name in text and mean in text
        assert "Bogdan" not in text and "junior" in text and "procentaj" in text.lower()
        subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(pdf),
                        str(OUTPUT / "season-history-junior-pdf")], check=True)

        phone = new_page(browser, base, PHONE, mobile=True)
        phone.goto(f"/tournaments/{tid}?category=junior&method=mean-percentage")
        assert no_horizontal_scroll(phone)
        shot(phone, "season-history-junior-phone")
