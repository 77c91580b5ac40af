"""Replay never raises on a stored event: every event kind of both formats, with hostile payloads (wrong types,
missing keys, huge numbers, digits that are not ASCII, nested junk) stored straight into a journal, replays to
the game or to one clear :class:`~arbitru.errors.JournalError` naming the game and the event — never a
``TypeError``, ``KeyError``, ``ValueError``, ``IndexError``, ``AttributeError`` or ``RecursionError``. And
whatever replays, ``results`` and ``export`` show."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from anticipation_support import groups_with
from arbitru.cli import cli
from arbitru.errors import ArbitruError, JournalError
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.formats.duplicate import export, gcg, results
from arbitru.formats.duplicate.game import Session
from arbitru.journal.store import Journal
from journal_support import (
    anticipation_game,
    anticipation_lexicon,
    copy_game,
    copy_game_with_settings,
    duplicate_game,
    duplicate_lexicon,
    events_of,
)
from test_anticipation_correction import GROUPS


def _nested(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value, {"k": value}] if depth < 5 else [value]
    return value


#: values put in place of a field: wrong types, out of range, digits that are not ASCII, junk
HOSTILE: list[Any] = [
    None,
    True,
    -1,
    0,
    10**30,
    1.5,
    "",
    "²",
    "١٢",
    "①",
    "9" * 5000,
    "Anulez turul " + "7" * 5000,
    [],
    {},
    ["²", None],
    [{"a": [1, {"b": None}]}],
    _nested(200),
]
#: what a payload may be instead of an object
NOT_OBJECTS: list[Any] = [[], "x", 5, None, [{"move": 1}]]


def mutations(payload: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """(what was changed, the hostile payload): each field missing or replaced, and one level inside lists."""
    for value in NOT_OBJECTS:
        yield f"payload={value!r}", value
    for key in payload:
        broken = dict(payload)
        del broken[key]
        yield f"no {key}", broken
        for value in HOSTILE:
            yield f"{key}={_short(value)}", {**payload, key: value}
        inner = payload[key]
        if isinstance(inner, list) and inner:
            first = inner[0]
            if isinstance(first, dict):
                for sub in first:
                    for value in HOSTILE[::3]:
                        changed = copy.deepcopy(inner)
                        changed[0] = {**first, sub: value}
                        yield f"{key}[0].{sub}={_short(value)}", {**payload, key: changed}
            else:
                for value in HOSTILE[::2]:
                    changed = copy.deepcopy(inner)
                    changed[0] = value
                    yield f"{key}[0]={_short(value)}", {**payload, key: changed}
        elif isinstance(inner, dict) and inner:
            sub = next(iter(inner))
            for value in HOSTILE[::3]:
                yield f"{key}.{sub}={_short(value)}", {**payload, key: {**inner, sub: value}}


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 30 else text[:27] + "..."


def hostile_cases(events: list[tuple[str, Mapping[str, Any]]]) -> Iterator[tuple[str, list[tuple[str, Any]]]]:
    """For the first event of each kind, every mutation of it, in place, the other events as they were."""
    seen: set[str] = set()
    for index, (kind, payload) in enumerate(events):
        if kind in seen:
            continue
        seen.add(kind)
        for what, broken in mutations(payload):
            changed: list[tuple[str, Any]] = list(events)
            changed[index] = (kind, broken)
            yield f"{kind} #{index + 1}: {what}", changed


def check_cases(
    journal: Journal, source: str, show: Callable[[str], None], sample: Callable[[str], None]
) -> tuple[int, int, list[str]]:
    """Replay every hostile case; returns (cases, refused, problems); ``sample`` runs the CLI on a few."""
    cases = refused = 0
    problems: list[str] = []
    for n, (what, events) in enumerate(hostile_cases(events_of(journal, source))):
        gid = copy_game(journal, source, events)
        cases += 1
        try:
            show(gid)
        except JournalError as e:
            refused += 1
            if gid not in str(e):
                problems.append(f"{what}: the error does not name the game: {e}")
        except ArbitruError:
            refused += 1
        except Exception as e:  # the test is that nothing else escapes (RecursionError included)
            problems.append(f"{what}: {type(e).__name__}: {e}"[:300])
        if n % 25 == 0:
            sample(gid)
    return cases, refused, problems


def _cli_sample(journal: Journal, commands: list[list[str]]) -> Callable[[str], None]:
    runner = CliRunner()

    def run(gid: str) -> None:
        for args in commands:
            full = [a.replace("GAME", gid).replace("JOURNAL", str(journal.path)) for a in args]
            result = runner.invoke(cli, full)
            assert result.exit_code in (0, 2), f"{full}: {result.output}"
            assert not result.exception or isinstance(result.exception, SystemExit), (full, result.exception)
            if result.exit_code == 2:
                assert result.output.strip().count("\n") == 0 and "error:" in result.output, result.output

    return run


def test_journal_duplicate_replay_never_raises_on_a_stored_event(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "games.db")
    lexicon = duplicate_lexicon()
    source = duplicate_game(journal).id

    def show(gid: str) -> None:
        session = Session(journal, gid, lexicon)
        result = results.compute(session.game, lexicon)
        for fmt in export.FORMATS:
            export.render(result, fmt)
        for line in result.lines:
            export.player_sheet(result, line)
        gcg.write(session.game)

    sample = _cli_sample(journal, [
        ["duplicate", "results", "-j", "JOURNAL", "-g", "GAME"],
        ["duplicate", "export", "-j", "JOURNAL", "-g", "GAME"],
    ])
    cases, refused, problems = check_cases(journal, source, show, sample)
    assert not problems, f"{len(problems)} of {cases} cases:\n" + "\n".join(problems[:30])
    assert cases > 500 and 0 < refused < cases


@pytest.mark.parametrize("variant", ["classic", "blind"])
def test_journal_anticipation_replay_never_raises_on_a_stored_event(tmp_path: Path, variant: str) -> None:
    game = anticipation_game(tmp_path)
    journal = game.journal
    if variant == "blind":
        from anticipation_support import new_game

        blind = new_game(tmp_path, GROUPS, None, variant="blind", db="games.db")
        blind.set_blind_groups("Ana", groups_with(GROUPS))
        blind.draw_lot(1, 2)
        source = blind.id
    else:
        source = game.id
    lexicon = anticipation_lexicon()

    def show(gid: str) -> None:
        state = AnticipationGame(journal, gid, lexicon).replay()
        state.to_dict()
        state.digest()

    sample = _cli_sample(journal, [
        ["anticipation", "results", "GAME", "--db", "JOURNAL"],
        ["anticipation", "results", "GAME", "--db", "JOURNAL", "--json"],
        ["anticipation", "show", "GAME", "--db", "JOURNAL"],
    ])
    cases, refused, problems = check_cases(journal, source, show, sample)
    assert not problems, f"{len(problems)} of {cases} cases:\n" + "\n".join(problems[:30])
    assert cases > 100 and 0 < refused < cases


def test_journal_game_settings_that_cannot_be_read_are_one_clear_error(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "games.db")
    duplicate = duplicate_game(journal).id
    anticipation = anticipation_game(tmp_path).id
    openers: dict[str, Callable[[str], object]] = {
        duplicate: lambda gid: Session(journal, gid, duplicate_lexicon()),
        anticipation: lambda gid: AnticipationGame(journal, gid, anticipation_lexicon()).replay(),
    }
    problems, refused, cases = [], 0, 0
    for source, open_game in openers.items():
        for what, settings in mutations(journal.game(source).settings):
            gid = copy_game_with_settings(journal, source, settings)
            cases += 1
            try:
                open_game(gid)
            except ArbitruError:
                refused += 1
            except Exception as e:  # the test is that nothing else escapes
                problems.append(f"{journal.game(source).format} settings {what}: {type(e).__name__}: {e}"[:300])
    assert not problems, "\n".join(problems[:30])
    assert cases > 100 and refused > 10
