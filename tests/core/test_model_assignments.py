"""Raw ``name=value`` assignments for fields a form gives no syntax (core.model.assignments), the
separator before the first operand shown when earlier ones are left out, and the refusal of a
text whose operands disagree about bits they share; on an invented 16-bit ISA."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model import Description, Immediate, Operand, Registers, field, form
from shaderkit.core.model.assignments import Assignments

FIELDS = {"op": field("15:12"), "mode": field("11:9"), "level": field("8:6"), "_spare": field("5:4", in_place=True),
          "reg": field("3:0"), "low": field("1:0")}
OPERANDS = {"reg": Operand("reg", Registers({n: (f"r{n}",) for n in range(16)})),
            "low": Operand("low", Immediate(prefix="#")),
            "raw": Assignments(("mode", "level", "_spare")),
            "level": Operand("level", Immediate(prefix="#"))}
TOY = Description("toy", word_bits=16, fields=FIELDS, operands=OPERANDS, operand_separator=r"\s*,\s*",
                  overlapping_operands="must agree",
                  forms=[form("odd {reg}, {raw?}", op=1), form("pair {reg}, {low}", op=2),
                         form("lvl {level if level}, {reg}", op=3)])


def test_nonzero_fields_print_as_assignments_in_declaration_order_and_read_in_any():
    instruction = TOY.decode([0x1A93])
    assert TOY.format(instruction) == "odd r3, mode=0x5 level=0x2 spare=0x10"
    assert TOY.parse("odd r3, spare=0x10 level=2 mode=5") == instruction
    assert TOY.format(TOY.decode([0x1003])) == "odd r3"


@pytest.mark.parametrize("text, message", [
    ("odd r3, mode=9", "mode: 9 is out of range"),
    ("odd r3, mood=1", "no field 'mood' to assign here (did you mean mode?)"),
    ("odd r3, mode=1 mode=2", "'mode' is assigned twice"),
    ("odd r3, spare=0x8", "sets bits outside 0x30"),
    ("odd r3, mode=x", "'x' is not a number"),
])
def test_bad_assignments_say_what_is_wrong(text, message):
    with pytest.raises(SourceError, match=re.escape(message)):
        TOY.parse(text)


def test_the_first_operand_shown_follows_the_mnemonic_with_a_blank():
    assert TOY.format(TOY.decode([0x3005])) == "lvl r5"
    assert TOY.format(TOY.decode([0x3085])) == "lvl #2, r5"


def test_operands_that_disagree_about_shared_bits_are_refused_where_they_must_agree():
    assert TOY.encode(TOY.parse("pair r6, #2")) == (0x2006,)
    with pytest.raises(SourceError, match="operands disagree about bits 0x3"):
        TOY.parse("pair r6, #1")
    last_wins = Description("toy", word_bits=16, fields=FIELDS, operands=OPERANDS, operand_separator=r"\s*,\s*",
                            forms=[form("pair {reg}, {low}", op=2)])
    assert last_wins.encode(last_wins.parse("pair r6, #1")) == (0x2005,)


@given(st.integers(0, 0xFFF))
def test_any_odd_word_reads_back(low):
    instruction = TOY.decode([0x1000 | low])
    assert TOY.encode(TOY.parse(TOY.format(instruction))) == (0x1000 | low,)
