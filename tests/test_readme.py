"""Every command of the README's Usage section runs as written, and prints what the README shows.

A ``$ COMMAND`` line is followed by the output the README promises, up to the next ``$`` line or the block's end
(``...`` stands for any lines; an ``error:`` line is a refusal: stderr, exit status 2); a block without ``$`` lines
lists commands that must succeed, in order, one after another over one journal. ``./arbitru`` runs as
``python -m arbitru`` (the launcher has already set the environment up), in a fresh folder that holds only the
repository's ``src`` and ``docs`` (the paths the README names), so no earlier run leaves anything behind. The
scratch folder ``/tmp/arbiter`` of the word-list example becomes a folder of the test's own; timings
(``built in 0.0 s``) are compared as numbers of any value.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text("utf-8")
USAGE = README[README.index("\n## Usage"):]
SCRATCH = "/tmp/arbiter"


@dataclass
class Command:
    line: str
    expected: list[str] | None  # None: only success is asked
    block: int


@dataclass
class Block:
    number: int
    commands: list[Command] = field(default_factory=list)


def blocks() -> list[Block]:
    """The fenced blocks of the Usage section that run arbitru, with their commands."""
    found = []
    for number, body in enumerate(re.findall(r"^```[a-z]*\n(.*?)^```", USAGE, re.M | re.S)):
        lines = body.splitlines()
        block = Block(number)
        if any(line.startswith("$ ") for line in lines):
            for line in lines:
                if line.startswith("$ "):
                    block.commands.append(Command(line[2:], [], number))
                elif block.commands:
                    expected = block.commands[-1].expected
                    assert expected is not None
                    expected.append(line)
        else:
            for line in lines:
                command = line.split("  #", 1)[0].strip()
                if command.startswith(("./arbitru ", "arbitru ")):
                    block.commands.append(Command(command, None, number))
        if block.commands:
            found.append(block)
    return found


def run(command: str, cwd: Path, scratch: Path) -> subprocess.CompletedProcess[str]:
    """``command`` as a shell line (redirections, ``&&``, ``VAR=value`` prefixes), arbitru run as a module."""
    line = command.replace(SCRATCH, str(scratch))
    arbitru = f"{shlex.quote(sys.executable)} -m arbitru"
    line = re.sub(r"(^|&& |\s)(\./)?arbitru ", lambda m: f"{m.group(1)}{arbitru} ", line)
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def normal(lines: list[str], scratch: Path) -> list[str]:
    out = []
    for line in lines:
        line = line.replace(str(scratch), SCRATCH).rstrip()
        out.append(re.sub(r"\b\d+\.\d+ s\b", "N s", line))
    while out and not out[-1]:
        out.pop()
    return out


def matches(expected: list[str], got: list[str]) -> bool:
    """``got`` as ``expected`` says it, ``...`` standing for any run of lines (none included)."""
    if not expected:
        return not got
    if expected[0] == "...":
        return any(matches(expected[1:], got[i:]) for i in range(len(got) + 1))
    return bool(got) and expected[0] == got[0] and matches(expected[1:], got[1:])


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    here = tmp_path / "clone"
    here.mkdir()
    (here / "src").symlink_to(ROOT / "src")
    (here / "docs").symlink_to(ROOT / "docs")
    return here


def test_the_usage_section_has_commands_with_output_and_command_lists():
    found = blocks()
    with_output = [c for b in found for c in b.commands if c.expected is not None]
    listed = [c for b in found for c in b.commands if c.expected is None]
    assert len(with_output) >= 8 and len(listed) >= 10, (len(with_output), len(listed))


@pytest.mark.parametrize("block", blocks(), ids=lambda b: f"block{b.number}-{b.commands[0].line.split()[1]}")
def test_every_readme_usage_command_runs_as_written(block: Block, folder: Path, tmp_path: Path):
    scratch = tmp_path / "arbiter"
    for command in block.commands:
        done = run(command.line, folder, scratch)
        refused = bool(command.expected) and command.expected[0].startswith("error: ")
        # bad input, as the README shows it: one error line on stderr, exit status 2
        assert done.returncode == (2 if refused else 0), f"{command.line}\n{done.stdout}\n{done.stderr}"
        if command.expected is None:
            assert done.stdout.strip(), f"{command.line} printed nothing"
            continue
        want = normal(command.expected, scratch)
        got = normal((done.stderr if refused else done.stdout).splitlines(), scratch)
        shown = "\n".join(want) + "\n--- printed\n" + "\n".join(got)
        assert matches(want, got), f"{command.line}\n--- README\n{shown}"
