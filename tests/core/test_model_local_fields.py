"""Forms with fields of their own (Mesa isaspec's per-bitset fields), on an invented 16-bit ISA:
two forms name their predicate and destination alike at different bit positions, one shadows a
field of the description; decoding, printing, parsing, encoding and ``with_fields`` each read a
name in the form's own namespace first."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import pytest

from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model import Choice, Description, Immediate, Operand, Registers, field, form

# op 15:14 for both forms; "load" keeps pred in 13:12 and dst in 11:8, "move" pred in 1:0 and
# dst in 5:2. "imm" is the description's 7:0 in "load"; "move" shadows it with its own 13:10 (a
# form's field wins over the description's of the same name).
FIELDS = {"op": field("15:14"), "imm": field("7:0")}
PRED = Choice({0: "", 1: "p0", 2: "p1", 3: "!p0"})
OPERANDS = {"pred": Operand("pred", PRED), "dst": Operand("dst", Registers({n: (f"r{n}",) for n in range(16)})),
            "imm": Operand("imm", Choice({n: f"#{n}" for n in range(256)}))}
FORMS = [form("{pred?} load {dst} {imm}", op=1, fields={"pred": "13:12", "dst": "11:8"}),
         form("{pred?} move {dst} {imm}", op=2, fields={"pred": "1:0", "dst": "5:2", "imm": "13:10"})]
TOY = Description("toy", word_bits=16, fields=FIELDS, operands=OPERANDS, forms=FORMS)


def test_each_form_reads_its_fields_where_it_keeps_them():
    load = TOY.decode([0b01_10_0101_00000111])
    assert (load.form, dict(load.fields)) == ("load", {"op": 1, "pred": 2, "dst": 5, "imm": 7})
    assert TOY.format(load) == "p1 load r5 #7"
    move = TOY.decode([0b10_1001_0000_1011_11])
    assert (move.form, dict(move.fields)) == ("move", {"op": 2, "pred": 3, "dst": 11, "imm": 9})
    assert TOY.format(move) == "!p0 move r11 #9"


def test_parsing_writes_each_form_s_own_bits():
    assert TOY.encode(TOY.parse("p0 load r3 #200")) == (0b01_01_0011_11001000,)
    assert TOY.encode(TOY.parse("p0 move r3 #15")) == (0b10_1111_0000_0011_01,)


def test_with_fields_and_unused_bits_follow_the_form_s_fields():
    move = TOY.parse("move r1 #2")
    assert TOY.encode(TOY.with_fields(move, {"dst": 7})) == (0b10_0010_0000_0111_00,)
    assert TOY.unused_bits("{pred?} move {dst} {imm}") == 0b0000_0011_1100_0000
    assert TOY.unused_bits("{pred?} load {dst} {imm}") == 0


@given(st.integers(0, 0xFFFF))
def test_any_word_round_trips_through_text(word):
    instruction = TOY.decode([word])
    again = TOY.parse(TOY.format(instruction))
    assert again == instruction or instruction.is_data


# A form that keeps bits without a meaning: its "_spare" bits (13:12 and 9) print where they stand,
# so any word reads back, and are not among the instruction's fields.
SPARE = Description("spare", word_bits=16, fields={"op": field("15:14"), "dst": field("3:0"),
                                                   "_spare": field("13:12,9", in_place=True)},
                    operands={"dst": Operand("dst", Registers({n: (f"r{n}",) for n in range(16)})),
                              "_spare": Operand("_spare", Immediate(prefix="spare=", radix=16))},
                    forms=[form("clear {dst} {_spare?}", op=3)])


def test_bits_kept_without_meaning_print_where_they_stand_and_are_no_field():
    cleared = SPARE.decode([0b11_10_0010_0000_0101])
    assert SPARE.format(cleared) == "clear r5 spare=0x2200"
    assert dict(cleared.fields) == {"op": 3, "dst": 5}
    assert SPARE.encode(SPARE.parse("clear r5 spare=0x2200")) == (0b11_10_0010_0000_0101,)
    assert SPARE.format(SPARE.decode([0b11_00_0000_0000_0101])) == "clear r5"


def test_an_in_place_value_outside_the_field_is_refused():
    with pytest.raises(SourceError, match="sets bits outside 0x3200"):
        SPARE.parse("clear r5 spare=0x100")
