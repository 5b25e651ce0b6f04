"""Fuzz campaign: ``decompile`` (RSX), ``flash --dry-run`` (TPP) and ``doc`` for every
processor; the processors without ``decompile`` or ``flash`` must refuse them in one line."""

from __future__ import annotations

import functools
import re
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from .fuzz_corpus import (begin_case, misuse, ODD_NUMBERS, OUTPUT_CHOICES, PROCESSORS, TOKENS, campaign, numbers, output_path,
                         program_input, rarely)
from .fuzz_harness import Case, check
from shaderkit import isa as isas
from shaderkit.cli import main


def _not_offering(command: str) -> list[str]:
    return [name for name in PROCESSORS if name not in isas.names(command)]


@pytest.mark.parametrize("processor", isas.names("decompile"))
@campaign(max_examples=20)
@given(data=st.data())
def test_decompile(processor, data):
    draw = data.draw
    begin_case(draw)
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        kind, path, format_options = program_input(draw, workspace, processor)
        guarded: list[Path] = []
        outputs = output_path(workspace, draw(st.sampled_from(OUTPUT_CHOICES)), ".frag", guarded)
        args = ["decompile", "-m", processor, path, *format_options, *outputs]
        verdict = check(Case(processor, "decompile", kind, args, guarded, workspace))
        if verdict.outcome == "result" and not outputs:
            assert "#version 430" in verdict.stdout, verdict.stdout[:500]


@pytest.mark.parametrize("processor", isas.names("flash"))
@campaign(max_examples=40)
@given(data=st.data())
def test_flash_dry_run(processor, data):
    draw = data.draw
    begin_case(draw)
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        kind, path, format_options = program_input(draw, workspace, processor)
        program = [path]
        options = ["--dry-run"]
        if draw(st.booleans()):
            options += ["--time-divisor", draw(numbers(0, 63))]
            if rarely(draw, 4):
                program = []  # the divisor alone
        if misuse(draw, 8):
            options += ["--rev", draw(st.sampled_from(("A", "B", "a", "")))]
        guarded: list[Path] = []
        outputs = output_path(workspace, draw(st.sampled_from(OUTPUT_CHOICES)), ".uart", guarded)
        args = ["flash", "-m", processor, *program, *format_options, *options, *outputs]
        verdict = check(Case(processor, "flash --dry-run", kind, args, guarded, workspace))
        if verdict.outcome == "result":
            # The bytes are printed as hex, whatever else happens.
            assert re.search(r"\b[0-9a-fA-F]{2}\b", verdict.stdout), verdict.stdout[:500]


@pytest.mark.parametrize(("processor", "command"), [(name, command) for command in ("decompile", "flash")
                                                   for name in _not_offering(command)])
@campaign(max_examples=4)
@given(data=st.data())
def test_commands_a_processor_does_not_offer(processor, command, data):
    begin_case(data.draw)
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        kind, path, format_options = program_input(data.draw, workspace, processor)
        args = [command, "-m", processor, path, *format_options] + (["--dry-run"] if command == "flash" else [])
        verdict = check(Case(processor, "flash --dry-run" if command == "flash" else command, "not offered",
                             args, [], workspace))
        assert verdict.outcome == "clean error" and "has no" in verdict.stderr, verdict


@functools.cache
def mnemonics(processor: str) -> tuple[str, ...]:
    manual = CliRunner().invoke(main, ["doc", "-m", processor]).stdout
    # Instruction entries are headed "### NAME" or "### NAME (unit)" (VP1's are lowercase, "### add
    # (0x4c)"); "### WPOS: …" is prose.
    return tuple(sorted(set(re.findall(r"^### ([A-Za-z][A-Za-z0-9_.]*)(?: \(|$)", manual, re.MULTILINE))))


@pytest.mark.parametrize("processor", PROCESSORS)
def test_every_manual_names_instructions(processor):
    # The doc campaign draws from these names: an empty list would fuzz only nonsense.
    assert len(mnemonics(processor)) >= 5


@pytest.mark.parametrize("processor", PROCESSORS)
@campaign(max_examples=15)
@given(data=st.data())
def test_doc(processor, data):
    draw = data.draw
    begin_case(draw)
    kind = draw(st.sampled_from(("mnemonic", "mnemonic", "mangled mnemonic", "random text", "whole manual")))
    if kind == "mnemonic":
        name = draw(st.sampled_from(mnemonics(processor)))
        name = draw(st.sampled_from((name, name.lower(), name.title())))
    elif kind == "mangled mnemonic":
        name = draw(st.sampled_from(mnemonics(processor)))
        position = draw(st.integers(0, len(name)))
        name = name[:position] + draw(st.text(min_size=0, max_size=3)) + name[position + 1:]
    elif kind == "random text":
        name = draw(st.one_of(st.text(max_size=20), st.sampled_from(ODD_NUMBERS),
                              st.sampled_from(TOKENS).map(lambda token: token.decode("utf-8", "replace"))))
    else:
        name = None
    args = ["doc", "-m", processor] + ([] if name is None else [name])
    verdict = check(Case(processor, "doc", kind, args))
    # rsx-vp and rsx-fp know only their half of the RSX manual's instructions.
    if kind == "whole manual" or (kind == "mnemonic" and processor in ("tpp", "theia", "rsx")):
        assert verdict.outcome == "result" and verdict.stdout.strip(), verdict
