"""The blind variant (RO-8.4): each player's sealed groups are handed in before the game, whole, once."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from anticipation_support import RO, WORDS_RO, groups_with, new_game
from arbitru.cli import cli
from arbitru.errors import ArbitruError
from arbitru.formats.anticipation.draw import GroupsError

GROUPS = {1: "AL"}
ANA = groups_with({1: "AL", 2: "ACEINRT"})
DAN = groups_with({1: "NU", 2: "BDEIOTU"})


def test_RO_8_4_sealed_groups_after_the_first_lot_are_refused(tmp_path: Path) -> None:
    game = new_game(tmp_path, GROUPS, variant="blind")
    game.set_blind_groups("Ana", ANA)
    game.draw_lot(1, 2)
    with pytest.raises(ArbitruError, match="before the game starts"):
        game.set_blind_groups("Dan", DAN)
    assert set(game.replay().blind) == {"Ana"}


def test_RO_8_4_sealed_groups_are_handed_in_once(tmp_path: Path) -> None:
    game = new_game(tmp_path, GROUPS, variant="blind")
    game.set_blind_groups("Ana", ANA)
    with pytest.raises(GroupsError, match="Ana: sealed groups are handed in already"):
        game.set_blind_groups("Ana", DAN)
    assert game.replay().blind["Ana"] == ANA


def test_RO_8_4_one_bad_set_stores_none(tmp_path: Path) -> None:
    game = new_game(tmp_path, GROUPS, variant="blind")
    bad = [list(g) for g in DAN]
    bad[1] = bad[1][:6]  # group 2 of 6 letters
    with pytest.raises(GroupsError, match="Dan"):
        game.hand_in_blind_groups({"Ana": ANA, "Dan": bad})
    assert game.replay().blind == {}


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[CliRunner, Path]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.txt").write_text(" ".join(WORDS_RO), "utf-8")
    runner = CliRunner()
    result = runner.invoke(cli, ["anticipation", "new", "--variant", "blind", "--lexicon", "words.txt", "--id", "g"])
    assert result.exit_code == 0, result.output
    return runner, tmp_path


def blind(run: tuple[CliRunner, Path], rows: list[tuple[str, int, str]]) -> Result:
    runner, tmp = run
    text = "player,group,letters\n" + "".join(f"{p},{n},{letters}\n" for p, n, letters in rows)
    (tmp / "blind.csv").write_text(text, "utf-8")
    return runner.invoke(cli, ["anticipation", "blind", "g", "blind.csv"])


def rows(player: str, groups: list[list[int]]) -> list[tuple[str, int, str]]:
    return [(player, n, RO.format(g)) for n, g in enumerate(groups, 1)]


def test_RO_8_4_a_blind_file_refused_for_one_player_stores_nothing_for_the_others(run: tuple[CliRunner, Path]) -> None:
    bad = rows("Dan", DAN)
    bad[3] = ("Dan", 4, "AEIOUAE")  # no consonant (RO-5.2.e)
    result = blind(run, [*rows("Ana", ANA), *bad])
    assert result.exit_code == 2 and result.output.startswith("error: ") and "Dan" in result.output
    # nothing stored: Ana's valid set can be handed in again, alone
    result = blind(run, rows("Ana", ANA))
    assert result.exit_code == 0, result.output
    assert result.output == "Ana: 15 groups stored\n"


def test_RO_8_4_a_group_number_given_twice_is_refused(run: tuple[CliRunner, Path]) -> None:
    twice = [*rows("Ana", ANA), ("Ana", 2, RO.format(DAN[1]))]
    result = blind(run, twice)
    assert result.exit_code == 2
    assert "Ana: group 2 is given twice" in result.output and result.output.count("\n") == 1
    assert blind(run, rows("Ana", ANA)).exit_code == 0  # nothing was stored


def test_RO_8_4_the_cli_refuses_sealed_groups_after_the_first_lot(run: tuple[CliRunner, Path]) -> None:
    runner, _ = run
    assert blind(run, rows("Ana", ANA)).exit_code == 0
    assert runner.invoke(cli, ["anticipation", "lot", "g", "1", "--group", "2"]).exit_code == 0
    result = blind(run, rows("Dan", DAN))
    assert result.exit_code == 2 and "before the game starts" in result.output
