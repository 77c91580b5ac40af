"""The anticipation maximum: beam search against brute force, the bound, the line replayed through
the correction, where a player lost points, the computer player, the ``maximum`` event and the CLI."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from click.testing import CliRunner

from anticipation_support import RO, lexicon
from arbitru.cli import cli
from arbitru.engine.board import Board
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.movegen import CoreBoard
from arbitru.formats.anticipation.draw import parse_group
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.formats.anticipation.maximum import (
    Searcher,
    _place,
    _score,
    computer_game,
    line_slips,
    losses,
    maximum,
    upper_bound,
)
from arbitru.formats.anticipation.simulate import Simulation, simulate
from arbitru.formats.anticipation.variants import Settings
from arbitru.journal.store import Journal

TINY_WORDS = [
    "AL", "LA", "AI", "IA", "CAL", "CAI", "CALE", "LAC", "LACE", "ALE", "CEAI", "CE", "EL", "ELE", "ACEL",
    "ACELE", "LEAC", "ACE", "CA", "IE", "ICI",
]
TINY_GROUPS = ["AL", "ACEL", "CEI", "AEL"]  # short groups keep the brute force quick


@cache
def tiny() -> Lexicon:
    return Lexicon.from_words(TINY_WORDS, RO, name="tiny-ro")


def brute_force(lex: Lexicon, groups: list[list[int]], lots: list[int]) -> int:
    """Every placement of every turn, turn 1's three ways included (RO-5.3), and passing."""
    search = Searcher(lex, groups)
    seen: dict[tuple[bytes, int], int] = {}  # the same board reached by other placements: solved once

    def rest(core: Any, turn: int) -> int:
        if turn > len(lots):
            return 0
        key = (bytes(core.squares()), turn)
        if key in seen:
            return seen[key]
        best = rest(core, turn + 1)  # nothing placed: the letters are lost (RO-5.3)
        options: list[tuple[int, Any]] = []
        if turn == 1:
            options = [(score, after) for moves, score, after in search.turn_one(core, lots[0], 0) if moves]
        else:
            for rec in search.gen(core, lots[turn - 1], 0):
                after = core.copy()
                _place(after, rec)
                options.append((_score(rec), after))
        for score, after in options:
            best = max(best, score + rest(after, turn + 1))
        seen[key] = best
        return best

    return rest(CoreBoard(lex, Board(RO))._core, 1)


def test_ro_5_3_beam_finds_the_brute_force_optimum_on_a_tiny_game():
    lex = tiny()
    groups = [parse_group(RO, g) for g in TINY_GROUPS]
    for lots in ([2, 3, 4], [3, 4, 2], [4, 2]):
        optimum = brute_force(lex, groups, lots)
        found = maximum(lex, groups, lots, beam=300, branch=0, seed=1)
        assert found.total == optimum, lots
        assert sum(s.score for s in found.line.steps) == found.total
        assert upper_bound(RO, groups, lots) >= optimum
        # a narrow beam never claims more than the optimum
        assert maximum(lex, groups, lots, beam=1, lookahead=0, computer=False).total <= optimum


def test_ro_5_3_turn_one_is_group_one_then_its_group_or_one_alone():
    lex = tiny()
    groups = [parse_group(RO, g) for g in TINY_GROUPS]
    found = maximum(lex, groups, [2, 3], beam=200, branch=0)
    first = [s for s in found.line.steps if s.turn == 1]
    assert 1 <= len(first) <= 2
    if len(first) == 2:
        assert [s.group for s in first] == [1, 2]
    else:
        assert first[0].group in (1, 2)


def test_search_is_deterministic_for_a_seed():
    groups = [parse_group(RO, g) for g in TINY_GROUPS]
    a = maximum(tiny(), groups, [2, 3, 4], beam=3, seed=4)
    b = maximum(tiny(), groups, [2, 3, 4], beam=3, seed=4)
    assert a.line == b.line


@cache
def simulation() -> Simulation:
    return simulate(lexicon(), players=12, seed=7)


def _game(tmp_path: Any, sim: Simulation, extra: list[tuple[str, int, str]] = ()) -> AnticipationGame:  # type: ignore[assignment]
    journal = Journal(tmp_path / "max.db")
    game = AnticipationGame.create(
        journal, Settings(lexicon=lexicon().name, seed=7), sim.draw, lexicon=lexicon(),
        seating=[*sim.seating, *extra], game_id="g",
    )
    for turn, group in enumerate(sim.lots, 1):
        game.draw_lot(turn, group)
    for turn in sorted(sim.slips):
        game.enter_slips(sim.slips[turn])
    return game


@pytest.fixture(scope="module")
def played(tmp_path_factory: Any) -> tuple[AnticipationGame, Any, Any, Any]:
    sim = simulation()
    found = maximum(lexicon(), sim.draw.groups, sim.lots, beam=20, seed=0)
    robot = computer_game(lexicon(), sim.draw.groups, sim.lots, seed=0)
    game = _game(tmp_path_factory.mktemp("max"), sim, [("MAX", 100, "Maximum"), ("CPU", 101, "Computer")])
    game.enter_slips(line_slips(found.line, "MAX", 100) + line_slips(robot, "CPU", 101))
    return game, game.replay(), found, robot


def test_g_3_the_maximum_line_replays_through_the_correction_as_all_valid(played):
    _, state, found, robot = played
    for player, line in (("MAX", found.line), ("CPU", robot)):
        result = state.results[player]
        verdicts = [v for v in result.verdicts() if v.status != "void"]
        assert [(v.turn, v.status, v.position, v.score) for v in verdicts] == [
            (s.turn, "valid", s.position, s.score) for s in line.steps
        ]
        assert result.total == line.total


def test_the_maximum_is_never_below_a_corrected_player(played):
    _, state, found, _robot = played
    players = [r for r in state.ranking if r.player not in ("MAX", "CPU")]
    assert players and all(r.total <= found.total for r in players)
    assert found.bound >= found.total


def test_losses_best_on_the_players_own_board(played):
    _, state, _found, _ = played
    sim = simulation()
    lots = dict(enumerate(sim.lots, 1))
    for player in ("P001", "P002", "MAX"):
        rows = losses(lexicon(), sim.draw.groups, lots, state.results[player])
        assert len(rows) == 14
        for r in rows:
            assert r.best >= r.played, (player, r)
            assert r.best == sum(s.score for s in r.best_line)
    # the maximum line loses nothing in its first turn, where the boards are the same
    assert losses(lexicon(), sim.draw.groups, lots, state.results["MAX"])[0].lost == 0


def test_maximum_event_is_stored_and_results_show_percentages(played):
    game, state, found, _ = played
    assert state.maximum is None and "maximum" not in state.to_dict()  # old games are unchanged
    seq = game.record_maximum(found.to_payload())
    after = game.replay()
    summary = after.to_dict()["maximum"]
    assert summary["seq"] == seq and summary["total"] == found.total
    top = after.ranking[0]
    assert summary["percent"][top.player] == round(100 * top.total / found.total, 1)


def test_cli_maximum_results_losses_computer(tmp_path: Any):
    sim = simulation()
    _game(tmp_path, sim)
    runner = CliRunner()
    db = ["--db", str(tmp_path / "max.db")]

    def run(*args: str, code: int = 0) -> str:
        result = runner.invoke(cli, ["anticipation", *args, *db])
        assert result.exit_code == code, (result.output, result.exception)
        return result.output

    data = json.loads(run("maximum", "g", "--beam", "5", "--json"))
    assert data["total"] > 0 and data["bound"] >= data["total"] and len(data["line"]["steps"]) >= 14
    shown = run("results", "g")
    assert f"maximum: {data['total']}" in shown and " %" in shown
    rows = json.loads(run("losses", "g", "--player", "P001", "--json"))
    assert len(rows) == 14 and all(r["best"] >= r["played"] for r in rows)
    assert "lost in all" in run("losses", "g", "--player", "P001")
    assert json.loads(run("computer", "g", "--json"))["total"] > 0
    out = run("losses", "g", "--player", "nobody", code=2)
    assert "error:" in out


def test_ro_5_3_maximum_needs_every_lot_and_stores_nothing_without(tmp_path: Any):
    sim = simulation()
    journal = Journal(tmp_path / "half.db")
    game = AnticipationGame.create(
        journal, Settings(lexicon=lexicon().name, seed=7), sim.draw, lexicon=lexicon(), game_id="h"
    )
    for turn, group in enumerate(sim.lots[:5], 1):
        game.draw_lot(turn, group)
    before = len(journal.events("h"))
    result = CliRunner().invoke(cli, ["anticipation", "maximum", "h", "--db", str(tmp_path / "half.db")])
    assert result.exit_code == 2 and "error:" in result.output and "14 lots" in result.output
    assert len(journal.events("h")) == before
