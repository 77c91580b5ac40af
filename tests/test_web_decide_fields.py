"""The arbiter's decision form (FISE-17) refuses what a slip could not hold beside the form itself, before it asks
for a confirmation: a declared score below 0 (as the desk's form and the phone's read it), a move that is not a
number; nothing is stored."""

from __future__ import annotations

import pytest

from test_web_anticipation import arbiter, site  # noqa: F401  (the web tests' fixtures)
from test_web_decisions import collected_with_the_master
from web_support import confirmation, post


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


def test_FISE_17_what_the_session_would_refuse_is_refused_before_a_confirmation_is_asked(site, arbiter):  # noqa: F811
    """A reversal under a later standing decision, a reason holding a control character, an action that is none:
    each refused at once beside the form it was sent with (the reversal beside its decision's own reverse form, the
    others beside the decision form), never a confirmation asked and then refused; nothing stored."""
    gid, page, slip = collected_with_the_master(site, arbiter)
    taken = {**slip, "score": "12", "reason": "read again at the desk"}
    assert post(arbiter, f"{page}/decide", taken, page).status_code == 303
    first = site.events(gid, "decision")[-1].seq
    assert post(arbiter, f"{page}/decide", {**taken, "action": "void"}, page).status_code == 303
    stored = len(site.events(gid, "decision"))
    for sent, said, where in (
            ({"action": "reverse", "reverses": str(first), "reason": "wrong slip"}, "reverse it first",
             f"reverse-{first}"),
            ({**taken, "position": "H8", "reason": "read\x01again"}, "control characters", "decide"),
            ({**taken, "action": "strike"}, "slip, void, reverse", "decide")):
        r = post(arbiter, f"{page}/decide", sent, page, confirm=False)
        assert r.status_code == 422 and confirmation(r.text) is None, (sent, r.status_code)
        shown = r.text.split(f'id="{where}-error"', 1)
        assert len(shown) == 2 and said in shown[1].split("</p>", 1)[0], (sent, r.text[-2000:])
    assert len(site.events(gid, "decision")) == stored
