"""A whole simulated game: 200 players whose slips carry a realistic mix of errors, corrected through the
journal, and every verdict, warning and total checked against what the generator meant."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

from anticipation_support import lexicon
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.formats.anticipation.simulate import Simulation, simulate
from arbitru.formats.anticipation.variants import Settings
from arbitru.journal.store import Journal

PLAYERS = 200


@cache
def simulation() -> Simulation:
    return simulate(lexicon(), players=PLAYERS, seed=7)


@pytest.fixture(scope="module")
def corrected(tmp_path_factory):
    sim = simulation()
    journal = Journal(tmp_path_factory.mktemp("sim") / "sim.db")
    game = AnticipationGame.create(
        journal, Settings(lexicon=lexicon().name, seed=7), sim.draw, lexicon=lexicon(), seating=sim.seating
    )
    for turn, group in enumerate(sim.lots, 1):
        game.draw_lot(turn, group)
    for turn in sorted(sim.slips):  # one file per turn, as the arbiters enter them
        game.enter_slips(sim.slips[turn])
    return sim, game.replay()


def test_the_mix_of_errors_is_realistic():
    kinds = simulation().stats
    for kind in (
        "bad-word",
        "one-sign",
        "inverted",
        "both-signs",
        "missing-sign",
        "unmarked-blank",
        "wrong-score",
        "missing-score",
        "foreign-letters",
        "nonsense-position",
        "empty-word",
        "no-table",
        "no-turn",
        "cancel",
        "unattributed",
    ):
        assert kinds[kind] >= 3, (kind, kinds)
    placements = sum(
        n for k, n in kinds.items() if k not in ("cancel", "no-play", "no-table", "no-turn", "unattributed")
    )
    assert placements > 2000 and kinds["ok"] / placements > 0.6


def test_every_placement_verdict_is_what_the_generator_meant(corrected):
    sim, state = corrected
    wrong = []
    for (player, turn, index), expected in sim.placements.items():
        v = next(v for v in state.results[player].slips[turn].placements if v.index == index)
        got = (v.status, v.rule, v.points, v.penalty)
        want = (expected.status, expected.rule, expected.points, expected.penalty)
        if got != want:
            wrong.append((player, turn, index, expected.kind, want, got, v.reason))
    assert wrong == []
    statuses = Counter(e.status for e in sim.placements.values())
    assert statuses["corrected"] > 50 and statuses["invalid"] > 100
    # cancellations cascade (more placements cancelled than cancelling notes), some placements are rescored,
    # some penalties are capped by the placement's value and its dependents (RO-5.3, RO-6.3)
    assert statuses["cancelled"] > sim.stats["cancel"] + 20
    assert any(e.status == "valid" and e.points != e.score for e in sim.placements.values())
    assert sum(1 for e in sim.placements.values() if e.status == "corrected" and e.penalty < 20) > 10


def test_every_slip_warning_is_what_the_generator_meant(corrected):
    sim, state = corrected
    wrong = []
    for (player, turn), expected in sim.slip_warnings.items():
        if expected.unattributed:
            continue
        sv = state.results[player].slips[turn]
        got = sv.warning.rule if sv.warning else None
        if got != expected.warning:
            wrong.append((player, turn, expected.warning, got, [f.text for f in sv.faults]))
    assert wrong == []


def test_every_total_is_what_the_generator_meant(corrected):
    sim, state = corrected
    assert {p: r.total for p, r in state.results.items()} == sim.totals
    unattributed = sum(len(r.unattributed) for r in state.results.values())
    assert unattributed == sim.stats["unattributed"]
    places = [r.place for r in state.ranking]
    assert places == sorted(places) and places[0] == 1 and len(state.ranking) == PLAYERS
