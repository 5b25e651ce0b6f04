"""The public face every instruction set offers (core/face.py describes it), checked the same way
for each registered name that decodes bare words."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from conformance_support import INSTRUCTION_SETS, asm_cases, isa, table_rows

from shaderkit.core.diagnostics import InputError
from shaderkit.core.model import Description
from shaderkit.isa import get, names, registration

def first_row(name: str):
    return next(row for row in table_rows(name) if not isa(name).decode(list(row.words)).is_data)


def good_program(name: str):
    return next(case for case in asm_cases(name) if not case.errors)


def test_the_instruction_sets_are_the_registered_names_that_decode_words():
    assert INSTRUCTION_SETS, "no instruction set is registered"
    assert set(INSTRUCTION_SETS) <= set(names())
    for name in names():
        assert get(name).decodes_words is (name in INSTRUCTION_SETS), name


@pytest.mark.parametrize("name", sorted(set(names()) - set(INSTRUCTION_SETS)))
def test_a_name_that_decodes_no_words_refuses_in_one_line_naming_those_that_do(name):
    siblings = [other for other in INSTRUCTION_SETS if registration(other).package == registration(name).package]
    assert siblings, f"{name} decodes no words, and no instruction set of its package does"
    with pytest.raises(InputError) as raised:
        get(name).decode([0] * 8)
    message = str(raised.value)
    assert "\n" not in message
    for sibling in siblings:
        assert sibling in message


@pytest.mark.parametrize("name", INSTRUCTION_SETS)
def test_attributes(name):
    face = isa(name)
    assert face.name == name
    assert isinstance(face.word_bits, int) and face.word_bits > 0
    assert face.byte_order in ("big", "little")
    assert isinstance(face.max_instruction_words, int) and face.max_instruction_words >= 1
    assert isinstance(face.permissions, frozenset)
    for method in ("decode", "encode", "format", "parse", "assemble", "disassemble", "machine"):
        assert callable(getattr(face, method)), method


@pytest.mark.parametrize("name", INSTRUCTION_SETS)
def test_a_decoded_instruction_names_its_form_fields_length_and_address(name):
    face = isa(name)
    row = first_row(name)
    instruction = face.decode(list(row.words), address=5)
    assert isinstance(instruction.form, str) and instruction.form
    assert isinstance(instruction.fields, Mapping) and instruction.fields
    assert all(isinstance(field, str) and isinstance(value, int) and value >= 0
               for field, value in instruction.fields.items())
    assert instruction.length == len(row.words)
    assert instruction.is_data is False
    assert instruction.address == 5
    assert face.encode(instruction) == row.words
    assert face.format(instruction) == row.text
    assert face.parse(row.text, allow=face.permissions) == instruction


@pytest.mark.parametrize("name", INSTRUCTION_SETS)
def test_form_and_fields_tell_the_table_rows_apart(name):
    face = isa(name)
    seen: dict[tuple, tuple[int, ...]] = {}
    for row in table_rows(name):
        instruction = face.decode(list(row.words))
        if instruction.is_data:
            continue
        key = (instruction.form, tuple(sorted(instruction.fields.items())))
        assert seen.setdefault(key, row.words) == row.words, f"{row.text} reads like {seen[key]}"


@pytest.mark.parametrize("name", INSTRUCTION_SETS)
def test_the_description_is_an_instance_of_cores_model(name):
    assert isinstance(getattr(isa(name), "description", None), Description)


@pytest.mark.parametrize("name", INSTRUCTION_SETS)
def test_assemble_disassemble_and_machine(name):
    face = isa(name)
    case = good_program(name)
    assembled = face.assemble(case.source, case.path.name)
    assert list(assembled.words) == list(case.words)
    listing = face.disassemble(list(assembled.words))
    assert isinstance(listing, str)
    assert list(face.assemble(listing, "listing").words) == list(case.words)
    assert face.machine(assembled.image) is not None


@pytest.mark.parametrize("name", INSTRUCTION_SETS)
def test_a_machine_refuses_an_empty_image_in_one_line(name):
    with pytest.raises(InputError) as raised:
        isa(name).machine([])
    assert "\n" not in str(raised.value)
