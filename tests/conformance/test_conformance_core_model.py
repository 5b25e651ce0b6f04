"""Core's description model on its own, through a toy instruction set defined here (no processor):
decode, encode, format and parse derived from one declaration, data items for words no form
takes, and the report of bits a form leaves unused.

The toy has 8-bit words and 2-word instructions, first word high: ``OOOO DD SS IIIIIIII``
(opcode, destination, source, immediate); ``JUMP`` takes a 12-bit code address over D, S and I.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.bits import bits
from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model import CodeAddress, Description, Immediate, Operand, ParseContext, Registers, form

REGISTERS = Registers({0: ("A",), 1: ("B",), 2: ("X", "IDX"), 3: ("Y",)})
TOY = Description(
    "toy", word_bits=8, words_per_instruction=2,
    fields={"op": bits("15:12"), "rd": bits("11:10"), "rs": bits("9:8"), "imm": bits("7:0"),
            "target": bits("11:0")},
    operands={"rd": Operand("rd", REGISTERS), "rs": Operand("rs", REGISTERS),
              "imm": Operand("imm", Immediate("#")), "target": Operand("target", CodeAddress(radix=16))},
    forms=[form("HALT", op=0), form("LOAD {rd} {imm}", op=1), form("MOVE {rd} {rs}", op=2),
           form("JUMP {target}", op=3)],
    describe_unknown=lambda value: f"opcode {value >> 12} is not a toy instruction")


def words(value: int) -> list[int]:
    return [value >> 8, value & 0xFF]


@pytest.mark.parametrize("value, form_name, fields, text", [
    (0x0000, "HALT", {"op": 0}, "HALT"),
    (0x182A, "LOAD", {"op": 1, "rd": 2, "imm": 0x2A}, "LOAD X #42"),
    (0x2D00, "MOVE", {"op": 2, "rd": 3, "rs": 1}, "MOVE Y B"),
    (0x3123, "JUMP", {"op": 3, "target": 0x123}, "JUMP 0x123"),
])
def test_each_form_decodes_prints_parses_and_encodes(value, form_name, fields, text):
    instruction = TOY.decode(words(value), address=7)
    assert not instruction.is_data
    assert (instruction.form, dict(instruction.fields), instruction.length) == (form_name, fields, 2)
    assert instruction.address == 7
    assert TOY.format(instruction) == text
    parsed = TOY.parse(text, ParseContext())
    assert parsed == instruction
    assert TOY.encode(parsed) == tuple(words(value))


def test_register_aliases_read_and_the_first_name_prints():
    assert TOY.format(TOY.parse("load idx #0x2a", ParseContext())) == "LOAD X #42"


def test_a_code_address_prints_as_its_label_and_reads_one():
    instruction = TOY.decode(words(0x3123))
    assert TOY.jump_targets(instruction) == [0x123]
    assert TOY.format(instruction, {0x123: "loop"}) == "JUMP loop"
    assert TOY.parse("JUMP loop", ParseContext({"loop": 0x123})) == instruction


def test_an_unknown_opcode_is_a_data_item_with_the_isas_note():
    item = TOY.decode(words(0x7001))
    assert item.is_data and item.length == 2
    assert item.note == "opcode 7 is not a toy instruction"
    assert TOY.format(item) == ".word 0x70 0x01"
    assert TOY.encode(TOY.parse(".word 0x70 0x01", ParseContext())) == (0x70, 0x01)


def test_bits_a_form_leaves_unused_are_reported():
    assert TOY.unused_bits("HALT") == 0x0FFF
    assert TOY.unused_bits("LOAD {rd} {imm}") == 0x0300
    assert TOY.unused_bits("MOVE {rd} {rs}") == 0x00FF
    assert TOY.unused_bits("JUMP {target}") == 0
    item = TOY.decode(words(0x192A))  # LOAD X #42 with source register B set
    assert item.is_data and TOY.encode(item) == (0x19, 0x2A)
    assert "LOAD X #42" in item.note and "unused bits" in item.note and "0x100" in item.note


def test_a_truncated_instruction_is_a_data_item():
    item = TOY.decode([0x18])
    assert item.is_data and item.length == 1 and "truncated" in item.note
    assert TOY.encode(item) == (0x18,)


@pytest.mark.parametrize("text, column, fragment", [
    ("LOAD X", 1, "'LOAD' takes 2 operands"),
    ("LOAD Q #1", 6, "unknown register 'Q'"),
    ("LOAD X #300", 8, "300 is out of range"),
    ("LAOD X #1", 1, "did you mean LOAD?"),
    ("JUMP nowhere", 6, "nowhere"),
])
def test_parse_errors_name_the_mistake_and_its_column(text, column, fragment):
    with pytest.raises(SourceError) as raised:
        TOY.parse(text, ParseContext())
    assert fragment in raised.value.message
    assert raised.value.col == column


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 0xFF), st.integers(0, 0xFF))
def test_every_word_pair_round_trips(high, low):
    instruction = TOY.decode([high, low])
    assert instruction.length == 2
    assert TOY.encode(instruction) == (high, low)
    if not instruction.is_data:
        parsed = TOY.parse(TOY.format(instruction), ParseContext())
        assert parsed == instruction and TOY.encode(parsed) == (high, low)
