"""The README's quick tour runs exactly as pasted from the repository root.

The commands are taken from the first ``sh`` block under "A quick tour" and run in order, in a
scratch folder that sees the repository's ``examples/`` and ``tests/`` (so outputs do not land in
the checkout), each through the interpreter running this suite.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PREFIX = ".venv/bin/shaderkit"
PLACEHOLDERS = re.compile(r"\bprog\.s\b|\bDIR\b|\[--|…|\bPROGRAM\b|\bWxH\b")


def tour_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## A quick tour", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL).group(1)
    return [line for line in block.splitlines() if line.strip()]


def arguments(line: str) -> list[str]:
    return shlex.split(line, comments=True)


def test_the_tour_is_long_enough_to_cover_every_processor():
    commands = [arguments(line) for line in tour_commands()]
    machines = {command[command.index("-m") + 1] for command in commands}
    assert {"tpp", "theia", "rsx"} <= machines
    assert len(commands) >= 20


@pytest.mark.parametrize("line", tour_commands())
def test_each_line_is_a_shaderkit_command_without_placeholders(line):
    command = arguments(line)
    assert command[0] == PREFIX, line
    assert not PLACEHOLDERS.search(" ".join(command)), line


def test_the_tour_runs_in_order(tmp_path):
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    for line in tour_commands():
        command = [sys.executable, "-m", "shaderkit.cli", *arguments(line)[1:]]
        result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"{line}\n{result.stderr}"
        assert "Traceback" not in result.stderr, line
        assert "warning" not in result.stderr.lower(), f"{line}\n{result.stderr}"
        for output in re.findall(r"-o (\S+)", line):
            assert (tmp_path / output).stat().st_size > 0, line
