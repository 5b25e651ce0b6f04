"""The per-instruction face of rsx-vp / rsx-fp reads statements through the descriptions: the
standalone conventions (L<slot> targets, inline literals and loop counts, ``#!`` hints written
over the built instruction) and the statements it refuses (one that expands to several)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shaderkit.core.diagnostics import SourceError
from shaderkit.isa.rsx import face
from shaderkit.isa.rsx.container import ProgramKind

FP, VP = ProgramKind.FRAGMENT, ProgramKind.VERTEX


def words(kind, text):
    return face.parse(kind, text).words


def test_a_bare_fp_name_is_r_precision():
    assert words(FP, "ADD R1, R0, R1;") == words(FP, "ADDR R1, R0, R1;")


def test_an_fp_target_label_is_a_word_offset():
    assert face.parse(FP, "CAL L3;").fields["source1"] == 12  # else_offset: the word offset of slot 3
    assert face.parse(FP, "CAL L3;").program_instruction.view.else_slot == 3


def test_a_statement_that_expands_is_refused_unless_native():
    with pytest.raises(SourceError, match="LRP expands to several instructions"):
        face.parse(FP, "LRPR R0, R1, R2, R3;")
    assert face.parse(FP, "LRPR R0, R1, R2, R3;  #! native").form == "LRP"
    assert face.parse(FP, "DDXR R0.xy, R1;").length == 4  # x and y only: one instruction


def test_native_belongs_to_the_expanded_fp_opcodes_only():
    with pytest.raises(SourceError, match="'native' applies only to fragment"):
        face.parse(FP, "ADDR R0, R1, R2;  #! native")


def test_a_hint_wins_over_the_fields_it_overlaps():
    hinted = face.parse(FP, "ADDR R0, R1, R2;  #! source1=0x1c802")  # a whole source over its parts
    assert hinted.fields["source1"] == 0x1C802
    literal = face.parse(FP, "NOP;  #! source0=0x2 literal=1,2,3,4")  # source 0 now reads the literal slot
    assert literal.words[4:] == (1, 2, 3, 4)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from([VP, FP]), raw=st.lists(st.integers(0, 0xFFFFFFFF), min_size=8, max_size=8))
def test_format_then_parse_gives_the_words_back(kind, raw):
    instruction = face.decode(kind, raw)
    assert words(kind, face.format_instruction(instruction)) == instruction.words
