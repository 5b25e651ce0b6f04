"""Every word of the golden field splits (tests/golden/usse/fieldsplit_*.jsonl: the nine test
programs' 68 words and 667 random ones) decodes to its listed form and raw fields, and reads back
from its text as the same words; the form table agrees with its own bit patterns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shaderkit.core.model import bit_pattern, field
from shaderkit.isa.usse.description import listing
from shaderkit.isa.usse.encoding import VEC34_FORMS, form_fields, layout

GOLDEN = Path(__file__).parents[2] / "golden" / "usse"
SPLITS = [json.loads(line) for name in ("fieldsplit_programs.jsonl", "fieldsplit_random.jsonl")
          for line in (GOLDEN / name).read_text().splitlines()]


def halves(entry) -> list[int]:
    return [int(entry["w0"], 16), int(entry["w1"], 16)]


def test_the_golden_files_hold_all_735_splits():
    assert len(SPLITS) == 68 + 667
    assert all(int(entry["word"], 16) == halves(entry)[1] << 32 | halves(entry)[0] for entry in SPLITS)


@pytest.mark.parametrize("entry", SPLITS, ids=[entry["word"] for entry in SPLITS])
def test_each_golden_word_decodes_to_its_form_and_fields_and_reads_back(entry):
    description = listing()
    instruction = description.decode(halves(entry))
    assert instruction.form == entry["form"]
    assert dict(instruction.fields) == entry["fields"]
    assert description.encode(description.parse(description.format(instruction))) == tuple(halves(entry))


def test_w0_w1_notation_reads_as_bit_positions():
    assert layout("w1[26:24]") == "58:56"
    assert layout("w0[5]") == "5"
    assert layout("w1[3:0]:w0[31:24]") == "35:32,31:24"
    with pytest.raises(ValueError):
        layout("bits 3 to 5")


@pytest.mark.parametrize("name, pattern, fields", VEC34_FORMS, ids=[name for name, _, _ in VEC34_FORMS])
def test_fields_cover_exactly_the_lettered_bits_of_the_pattern(name, pattern, fields):
    fixed, _ = bit_pattern(pattern)
    lettered = sum(1 << (63 - index) for index, character in enumerate(pattern) if character not in "01-")
    covered = 0
    for field_layout in form_fields(fields).values():
        mask = field(field_layout).mask
        assert not mask & (fixed | covered)
        covered |= mask
    assert covered == lettered


def test_illegal_major_opcodes_are_data_that_says_so():
    instruction = listing().decode([0, 0x16 << 27])
    assert instruction.is_data and "illegal major opcode 0x16" in instruction.note


@st.composite
def form_words(draw):
    """A word of one form of the table: its pattern's fixed bits, the rest random."""
    _, pattern, _ = draw(st.sampled_from(VEC34_FORMS))
    fixed, value = bit_pattern(pattern)
    return draw(st.integers(0, (1 << 64) - 1)) & ~fixed | value


@given(st.one_of(st.integers(0, (1 << 64) - 1), form_words()))
def test_any_words_and_every_form_s_words_read_back_through_their_text(value):
    description = listing()
    words = [value & 0xFFFFFFFF, value >> 32]
    instruction = description.decode(words)
    assert description.encode(instruction) == tuple(words)
    if not instruction.is_data:
        text = description.format(instruction)
        assert description.parse(text) == instruction, text
        assert description.encode(description.parse(text)) == tuple(words), text
