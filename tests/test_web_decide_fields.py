"""The arbiter's decision form (FISE-17) refuses what a slip could not hold beside the form itself, before it asks
for a confirmation: a declared score below 0 (as the desk's form and the phone's read it), a move that is not a
number; nothing is stored."""

from __future__ import annotations

import pytest

from test_web_anticipation import arbiter, site  # noqa: F401  (the web tests' fixtures)
from test_web_decisions import collected_with_the_master
from web_support import post


@pytest.mark.parametrize("field, typed, said", [
    ("score", "-5", "from 0"),
    ("move", "x", "whole number"),
    ("move", "-1", "move"),
])
def test_FISE_17_a_decision_refuses_a_field_no_slip_could_hold_beside_its_form(site, arbiter, field, typed, said):  # noqa: F811
    gid, page, slip = collected_with_the_master(site, arbiter)
    # refused at once, beside the form: never a confirmation asked of a decision that would be refused
    r = post(arbiter, f"{page}/decide", {**slip, "score": "12", "reason": "read again at the desk", field: typed}, page,
             confirm=False)
    assert r.status_code == 422, r.status_code
    shown = r.text.split('id="decide-error"', 1)
    assert len(shown) == 2 and said in shown[1].split("</p>", 1)[0], r.text[-2000:]
    assert not site.events(gid, "decision")
