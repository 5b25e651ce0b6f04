"""The invariants of spec/design.md, as hypothesis properties over every instruction set: words
round-trip through decode and encode, the decoder is total, printed text parses back to the same
instruction, the assembler only ever reports errors, and a disassembly assembles to its words."""

from __future__ import annotations

import os

import pytest
from conformance_support import (INSTRUCTION_SETS, any_word, instruction_words, isa, mutated_sources, programs,
                                 without_includes)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from shaderkit.core.diagnostics import DiagnosticError, InputError, SourceError

# Examples per instruction set and property: enough to reach every form family through the
# table-seeded words, few enough to keep the whole conformance suite within seconds. Longer hunts
# set SHADERKIT_CONFORMANCE_EXAMPLES.
EXAMPLES = int(os.environ.get("SHADERKIT_CONFORMANCE_EXAMPLES", "120"))
PROPERTY = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", INSTRUCTION_SETS)
@PROPERTY
@given(data=st.data())
def test_encode_of_decode_gives_the_words_back(name, data):
    face = isa(name)
    words = data.draw(instruction_words(name), label="words")
    instruction = face.decode(words)
    assert 1 <= instruction.length <= len(words)
    assert face.encode(instruction) == tuple(words[:instruction.length])


@pytest.mark.parametrize("name", INSTRUCTION_SETS)
@PROPERTY
@given(data=st.data())
def test_the_decoder_is_total(name, data):
    face = isa(name)
    words = data.draw(st.lists(any_word(name), max_size=face.max_instruction_words + 2), label="words")
    instruction = face.decode(words)
    assert instruction.length <= len(words)
    assert face.encode(instruction) == tuple(words[:instruction.length])
    # Every part of a whole instruction cut short is a data item holding what is there.
    whole = data.draw(instruction_words(name), label="whole")
    for cut in range(face.decode(whole).length):
        part = face.decode(whole[:cut])
        assert part.is_data, (whole[:cut], part)
        assert face.encode(part) == tuple(whole[:cut])


@pytest.mark.parametrize("name", INSTRUCTION_SETS)
@PROPERTY
@given(data=st.data())
def test_parse_of_format_is_the_instruction(name, data):
    face = isa(name)
    words = data.draw(instruction_words(name), label="words")
    instruction = face.decode(words)
    assume(not instruction.is_data)
    text = face.format(instruction)
    parsed = face.parse(text, allow=face.permissions)
    assert parsed == instruction, text
    assert face.encode(parsed) == tuple(words[:instruction.length]), text
    assert face.format(parsed) == text


@pytest.mark.parametrize("name", INSTRUCTION_SETS)
@PROPERTY
@given(data=st.data())
def test_the_assembler_only_reports_errors(name, data):
    text = data.draw(st.one_of(st.text(max_size=200), mutated_sources(name)), label="source")
    try:
        assembled = isa(name).assemble(without_includes(text), "fuzz.s")
    except (DiagnosticError, SourceError, InputError) as error:
        assert str(error).strip()
    else:
        assert all(isinstance(word, int) and 0 <= word < 1 << isa(name).word_bits for word in assembled.words)


@pytest.mark.parametrize("name", INSTRUCTION_SETS)
@PROPERTY
@given(data=st.data())
def test_a_disassembly_assembles_to_the_same_words(name, data):
    face = isa(name)
    words = data.draw(programs(name), label="program")
    listing = face.disassemble(words)
    assert list(face.assemble(listing, "listing").words) == words, listing
