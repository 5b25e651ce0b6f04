"""Fuzz campaign: ``asm`` and ``disasm`` for every processor, on mutated seed sources, mutated
images in every container, random bytes and odd paths, with random formats, byte orders and
output paths."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from .fuzz_corpus import (begin_case, misuse, ALL_FORMATS, IMAGE_SUFFIX, OUTPUT_CHOICES, PROCESSORS, campaign, formats, output_path,
                         program_input)
from .fuzz_harness import Case, check


def _common_options(draw, processor: str) -> list[str]:
    options = []
    if draw(st.booleans()):
        options += ["--byte-order", draw(st.sampled_from(("big", "little")))]
    if misuse(draw, 10):  # --rev is TPP's; the others must refuse it in one line
        options += ["--rev", draw(st.sampled_from(("A", "B", "b", "C")))]
    return options


@pytest.mark.parametrize("processor", PROCESSORS)
@campaign(max_examples=30)
@given(data=st.data())
def test_asm(processor, data):
    draw = data.draw
    begin_case(draw)
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        kind, path, _ = program_input(draw, workspace, processor, images=False)
        fmt = draw(st.sampled_from(formats(processor) * 3 + ALL_FORMATS))
        guarded: list[Path] = []
        outputs = output_path(workspace, draw(st.sampled_from(OUTPUT_CHOICES)), IMAGE_SUFFIX[fmt], guarded)
        args = ["asm", "-m", processor, path, "-f", fmt, *_common_options(draw, processor), *outputs]
        check(Case(processor, "asm", kind, args, guarded, workspace))


@pytest.mark.parametrize("processor", PROCESSORS)
@campaign(max_examples=30)
@given(data=st.data())
def test_disasm(processor, data):
    draw = data.draw
    begin_case(draw)
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        kind, path, format_options = program_input(draw, workspace, processor, sources=False)
        options = _common_options(draw, processor)
        if draw(st.booleans()):
            options.append("--no-addresses")
        if misuse(draw, 3 if processor.startswith("rsx") else 12):  # RSX only
            options += ["--style", "rpcs3"]
        guarded: list[Path] = []
        outputs = output_path(workspace, draw(st.sampled_from(OUTPUT_CHOICES)), ".s", guarded)
        args = ["disasm", "-m", processor, path, *format_options, *options, *outputs]
        check(Case(processor, "disasm", kind, args, guarded, workspace))
