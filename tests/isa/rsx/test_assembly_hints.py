"""The ``#!`` hints read as raw field values (assembly_hints), ready for core's field overrides:
any field and value round-trip, literal words pack into the description's ``literal`` field,
errors point into the hint text, and applied by core's driver to a statement the description
parsed they give the words the RSX assembler gives the hinted statement."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shaderkit.core.asm import Assembler
from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model import ParseContext
from shaderkit.isa.rsx import face
from shaderkit.isa.rsx import fields as layout
from shaderkit.isa.rsx.assembly_hints import LITERAL, is_native, read_hints
from shaderkit.isa.rsx.description import literal_words
from shaderkit.isa.rsx.container import ProgramKind
from shaderkit.isa.rsx.description_fragment import FRAGMENT
from shaderkit.isa.rsx.description_vertex import VERTEX

LAYOUTS = {ProgramKind.VERTEX: layout.VP, ProgramKind.FRAGMENT: layout.FP}


@st.composite
def field_values(draw):
    kind = draw(st.sampled_from(list(ProgramKind)))
    fields_layout = LAYOUTS[kind]
    names = draw(st.lists(st.sampled_from(sorted(fields_layout.fields)), min_size=1, max_size=4, unique=True))
    return kind, {name: draw(st.integers(0, (1 << fields_layout.width(name)) - 1)) for name in names}


@given(field_values(), st.booleans())
def test_any_field_value_round_trips_through_hint_text(case, decimal):
    kind, values = case
    text = " ".join(f"{name}={value if decimal else hex(value)}" for name, value in values.items())
    assert read_hints(f" {text} native", kind) == values


@given(st.lists(st.integers(0, 0xFFFFFFFF), min_size=4, max_size=4))
def test_literal_words_pack_into_the_literal_field_and_back(words):
    value = read_hints("literal=" + ",".join(hex(word) for word in words), ProgramKind.FRAGMENT)[LITERAL]
    assert literal_words(value) == tuple(words)


def test_native_is_a_flag_not_a_field():
    assert read_hints("native", ProgramKind.FRAGMENT) == {}
    assert is_native(" end=1 native") and not is_native("end=1")


@pytest.mark.parametrize("text, column, message", [
    (" end=2", 2, "0x2 does not fit in the 1-bit field end"),
    ("  bogus=1", 3, "'bogus=1' is not a hint (field=value, literal=w,w,w,w or native)"),
    (" literal=1,2,3", 2, "literal= takes four 32-bit words, e.g. literal=0x3f800000,0,0,0"),
    (" literal=1,2,3,9999999999", 2, "literal words are 32-bit"),
])
def test_errors_point_into_the_hint_text(text, column, message):
    with pytest.raises(SourceError) as caught:
        read_hints(text, ProgramKind.FRAGMENT)
    assert (caught.value.col, caught.value.message) == (column, message)


@pytest.mark.parametrize("kind, description, statement, hint", [
    (ProgramKind.FRAGMENT, FRAGMENT, "MOVR R0, f[TEX0];", "end=1"),
    (ProgramKind.FRAGMENT, FRAGMENT, "ADDR R1.xy, R0, {1, 2, 3, 4};", "literal=0x1,0x2,0x3,0x4"),
    (ProgramKind.VERTEX, VERTEX, "MOV o[1], v[0];", "end=1 scalar_temp=5"),
])
def test_applied_by_cores_driver_they_give_the_rsx_assemblers_words(kind, description, statement, hint):
    parsed = description.parse(statement.rstrip(";"), ParseContext())
    overridden = Assembler(description).with_fields(parsed, read_hints(hint, kind))
    assert overridden.words == face.parse(kind, f"{statement} #! {hint}").words
