"""Swizzles chosen from a table and shown at the channels a write mask enables, and write masks
spelled by channel (core.model.channels), on an invented 16-bit vector ISA: op 15:12, mask 11:8,
swizzle code 7:4 (a table with an entry missing), register 3:0."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model import Choice, Description, Operand, Registers, field, form
from shaderkit.core.model.channels import Swizzle, mask_names, masked

TABLE = ("xxxx", "yyyy", "xyzw", "xyxy", "wzyx", "xy01", None, "xxyy") + (None,) * 8
VECTOR = Description("vector", word_bits=16,
                     fields={"op": field("15:12"), "mask": field("11:8"), "swz": field("7:4"), "reg": field("3:0")},
                     operands={"mask": Operand("mask", Choice(mask_names())),
                               "reg": Operand("reg", Registers({n: (f"r{n}",) for n in range(16)})),
                               "swz": Swizzle("swz", TABLE, "mask")},
                     forms=[form("mov r0.{mask}, {reg}.{swz}", op=1)])


def text(mask: int, code: int) -> str:
    return VECTOR.format(VECTOR.decode([0x1000 | mask << 8 | code << 4 | 3]))


def test_masks_and_swizzles_show_the_enabled_channels_with_dashes_between():
    assert mask_names()[0b0101] == "x-z" and mask_names()[0] == "-" and mask_names()[0b1000] == "---w"
    assert masked("wzyx", 0b0110) == "-zy"
    assert text(0b0011, 2) == "mov r0.xy, r3.xy"
    assert text(0b0101, 4) == "mov r0.x-z, r3.w-y"


def test_a_code_that_is_not_the_first_with_its_shown_channels_prints_its_whole_entry():
    assert text(0b0011, 3) == "mov r0.xy, r3.xyxy"  # "xy" reads back as code 2 (xyzw)
    assert text(0b0000, 1) == "mov r0.-, r3.yyyy"  # no channel enabled: the whole entry


def test_a_code_without_an_entry_prints_and_reads_as_its_number():
    assert text(0b1111, 6) == "mov r0.xyzw, r3.sw6"
    assert VECTOR.encode(VECTOR.parse("mov r0.xyzw, r3.sw6")) == (0x1F63,)
    with pytest.raises(SourceError, match="does not fit"):
        VECTOR.parse("mov r0.x, r3.sw16")


def test_reading_needs_no_other_field_and_refuses_what_no_entry_has():
    assert VECTOR.encode(VECTOR.parse("mov r0.x-z, r3.w-y")) == (0x1543,)
    with pytest.raises(SourceError, match="'zz' is not a swizzle this operand can select"):
        VECTOR.parse("mov r0.xy, r3.zz")


@given(st.integers(0, 0xFFF))
def test_every_word_reads_back_from_its_text(low):
    instruction = VECTOR.decode([0x1000 | low])
    assert VECTOR.encode(VECTOR.parse(VECTOR.format(instruction))) == (0x1000 | low,)
