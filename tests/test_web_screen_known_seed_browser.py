"""The projection of a game drawn from a known seed says so (its notice, :mod:`arbitru.formats.fairness`) without
covering anything: under the side panel, beside the board, on a 1920x1080, a 1280x720 and a 1280x900 projection
(the walk's), the master move's line and the master total (the side panel's last lines) included. A real browser;
screenshots
``tests/output/known-seed-screen-<lang>-<width>x<height>.png``."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from test_web_anticipation_browser import OUTPUT, browser  # noqa: F401
from test_web_languages_browser import duplicate_game, site_on
from web_server import running_server
from web_support import login, post

SIZES = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720}, {"width": 1280, "height": 900})
#: what the projection shows: the board, and each line of the side panel
SHOWN = (".board", ".side .move", ".side .rack", ".side .cues", ".side .clock", ".side .master", ".side .total")


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] - 0.5 and b["x"] < a["x"] + a["width"] - 0.5
            and a["y"] < b["y"] + b["height"] - 0.5 and b["y"] < a["y"] + a["height"] - 0.5)


@pytest.mark.parametrize("lang", ["fr", "el"])
def test_fise_the_known_seeds_notice_covers_nothing_on_the_projection(
        browser: Browser, tmp_path: Path, lang: str) -> None:  # noqa: F811
    site = site_on(str(tmp_path / "hall.db"))
    gid = duplicate_game(site, lang, "fise")  # seed "3": a known seed; move 1 closed with its master move
    c = site.client()
    login(c)
    assert post(c, f"/games/{gid}/draw", {}, f"/games/{gid}").status_code == 303  # type: ignore[attr-defined]
    with running_server(site.db) as base:
        for size in SIZES:
            ctx = browser.new_context(base_url=base, viewport=size)
            page = ctx.new_page()
            page.goto(f"/games/{gid}/screen")
            page.wait_for_selector("#known-seed")
            page.wait_for_selector(".side .total")
            page.wait_for_load_state("networkidle")
            OUTPUT.mkdir(exist_ok=True)
            page.screenshot(path=str(OUTPUT / f"known-seed-screen-{lang}-{size['width']}x{size['height']}.png"))
            notice = page.locator("#known-seed").bounding_box()
            assert notice is not None and notice["height"] > 0
            view = {"x": 0, "y": 0, **{k: float(v) for k, v in size.items()}}
            assert notice["x"] >= 0 and notice["y"] >= 0
            assert notice["x"] + notice["width"] <= view["width"] + 0.5
            assert notice["y"] + notice["height"] <= view["height"] + 0.5
            side = page.locator(".side").bounding_box()
            assert side is not None
            for selector in SHOWN:
                for box in (e.bounding_box() for e in page.locator(selector).all()):
                    assert box is not None, selector
                    assert not overlap(box, notice), (size, selector, box, notice)
                    # and whole on the screen: no line of the side panel cut off under it
                    assert box["y"] + box["height"] <= view["height"] + 0.5, (size, selector, box)
                    if selector != ".board":
                        assert box["y"] + box["height"] <= side["y"] + side["height"] + 0.5, (size, selector, box)
            ctx.close()
