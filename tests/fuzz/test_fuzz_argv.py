"""Fuzz campaign: command lines made of the CLI's own option names in random order and number,
with ordinary and odd values, for every command (bench included: with --help only, as it is
slow; flash always with --dry-run), with or without ``-m``, plus ``--help`` and ``--version``
anywhere."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click
from hypothesis import given
from hypothesis import strategies as st

from .fuzz_corpus import (ODD_NUMBERS, PROCESSORS, SOURCES, begin_case, campaign, faults_allowed, numbers,
                          sizes, vectors)
from .fuzz_harness import Case, check
from shaderkit.cli import main

COMMANDS = sorted(main.commands)


def _option_names(command: str) -> list[tuple[str, click.Parameter]]:
    return [(name, parameter) for parameter in main.commands[command].params
            if isinstance(parameter, click.Option) for name in parameter.opts + parameter.secondary_opts]


def _value(draw, parameter: click.Parameter, workspace: Path) -> list[str]:
    if isinstance(parameter, click.Option) and (parameter.is_flag or parameter.count):
        return []
    kind = parameter.type
    if isinstance(kind, click.Choice):
        return [draw(st.one_of(st.sampled_from(list(kind.choices)), st.sampled_from(("", "X", "é"))))]
    if isinstance(kind, (click.IntRange, click.FloatRange)) or kind in (click.INT, click.FLOAT):
        return [draw(numbers(0, 8))]
    return [draw(st.one_of(sizes(1, 16), vectors(3), st.sampled_from(ODD_NUMBERS),
                           st.just(str(workspace / "out.png")), st.just("0=" + str(workspace / "t.png"))))]


@campaign(max_examples=60)
@given(data=st.data())
def test_argument_soup(data):
    draw = data.draw
    begin_case(draw)
    command = draw(st.sampled_from(COMMANDS))
    processor = draw(st.sampled_from(PROCESSORS))
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        args = [command]
        if draw(st.sampled_from((True, True, True, False))):
            args += [draw(st.sampled_from(("-m", "--machine", "--machine="))) , processor]
            if args[-2] == "--machine=":
                args[-2:] = ["--machine=" + processor]
        options = _option_names(command)
        for _ in range(draw(st.integers(0, 5))):
            name, parameter = draw(st.sampled_from(options))
            args += [name, *_value(draw, parameter, workspace)]
        if command != "bench" and draw(st.booleans()):
            sources = SOURCES.get(processor, [])
            position = draw(st.integers(1, len(args)))
            args.insert(position, str(draw(st.sampled_from(sources))) if sources else "x.s")
        if command == "bench" or (faults_allowed() and draw(st.sampled_from((False,) * 5 + (True,)))):
            args.insert(draw(st.integers(0 if command != "bench" else 1, len(args))),
                        draw(st.sampled_from(("--help", "-h", "--version"))))
        if command == "bench" and "--help" not in args and "-h" not in args:
            args.append("--help")  # bench measures for seconds: only its help and argument checks
        if command == "flash" and "--dry-run" not in args:
            args.append("--dry-run")  # never open a serial port
        kind = "help" if any(flag in args for flag in ("--help", "-h", "--version")) else "options"
        label = {"flash": "flash --dry-run", "bench": "bench --help"}.get(command, command)
        check(Case(processor, label, f"argv {kind}", args, [workspace / "out.png"], workspace))
