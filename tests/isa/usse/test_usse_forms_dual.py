"""VDUAL in our syntax (shaderkit.isa.usse.forms_dual): golden words printed as hand-checked text,
random VDUAL words read back through their text, and bad texts refused with a clear message."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model import bit_pattern
from shaderkit.isa.usse.description import listing
from shaderkit.isa.usse.encoding import VEC34_FORMS

VDUAL_PATTERN = next(pattern for name, pattern, _ in VEC34_FORMS if name == "VDUAL")
FIXED_MASK, FIXED_BITS = bit_pattern(VDUAL_PATTERN)


def halves(value: int) -> list[int]:
    return [value & 0xFFFFFFFF, value >> 32]


# Words of tests/golden/usse/fieldsplit_random.jsonl, each text checked by hand against the raw fields:
GOLDEN = [
    # comp_count_type 0 -> vdual3; op1 = ext 1, dual_op1 6 -> 14; op2 = ext 1, dual_op2 4 -> 12; skipinv;
    # sv_pred 0; dest bank 0 (r), prim_dest_num 112 -> r224; write_mask_non_gpi 2 -> .-y; gpi0 slot 3,
    # swizz 7 (vec3 std xyx); gpi1 slot 0, ext 0, swizz 2 (zzz); unified bank 2 (pa), 127 -> pa254,
    # swizz 15 (222); prim_dest_num_gpi_case 1 and gpi2_slot_num_bit_1 1 stay assignments.
    ("20cf69c89e108d7f", "vdual3.op1_14.op2_12.skipinv r224.-y, i3.xyx, i0.zzz, pa254.222, "
                         "prim_dest_num_gpi_case=0x1 gpi2_slot_num_bit_1=0x1"),
    # sv_pred 1 -> p0; op1 2, op2 8|6 = 14; dest pa 98 -> pa196, mask 7 -> xyz; gpi0 i2 swizz 10 (zxy);
    # gpi1 -i3 with ext 1 code 11: ext entry zwzw reads as std code 11 already -> sw27; unified neg,
    # bank 1 (o) 4 -> o8, swizz 9 (yyz); gpi2 bit 0 stays an assignment.
    ("2519aaae4c587b84", "p0 vdual3.op1_2.op2_14 pa196.xyz, i2.zxy, -i3.sw27, -o8.yyz, "
                         "gpi2_slot_num_bit_0_or_unified_store_abs=0x1"),
    # comp_count_type 1 -> vdual4; sv_pred 2 -> p1; op1 = dual_op1 6; op2 0; has_w 0 + mask 6 -> -yz;
    # dest pa 69 -> pa138; gpi0 i0 swizz 9 (xywz); gpi1 i0 swizz 5 (yzww); unified sa 85 -> sa170,
    # swizz 14 (VDUAL vec4 std 1111).
    ("2a8e6256f8a38355", "p1 vdual4.op1_6.op2_0.skipinv pa138.-yz, i0.xywz, i0.yzww, sa170.1111, "
                         "prim_dest_num_gpi_case=0x3 src_config=0x3 gpi2_slot_num_bit_1=0x1"),
    # vdual4: has_w 1 + mask 1 -> x--w; type_f16 -> .f16; op1 3; op2 8|2 = 10; dest r 70 -> r140;
    # gpi0 i2 swizz 10 (zxyw); gpi1 -i2 ext 11 -> sw27; unified -sa 89 -> sa178, swizz 6 (xyzz).
    ("2ef6beace8c9e8d9", "p1 vdual4.op1_3.op2_10.f16.skipinv r140.x--w, i2.zxyw, -i2.sw27, -sa178.xyzz, "
                         "prim_ustore=0x1 prim_dest_num_gpi_case=0x2 src_config=0x1 gpi2_slot_num_bit_1=0x1 "
                         "gpi2_slot_num_bit_0_or_unified_store_abs=0x1"),
    # vdual3, op1 = 8|5 = 13; gpi1 ext 1 code 10 -> vec3 ext xy1; unified r 39 -> r78, swizz 2 (zzz);
    # mask 4 -> --z.
    ("215257a820f00627", "p0 vdual3.op1_13.op2_4 r14.--z, i1.111, i0.xy1, r78.zzz, prim_ustore=0x1 "
                         "prim_dest_num_gpi_case=0x2"),
    # sv_pred 3 -> p2; dest bank 3 (indexed through idx1), number 100 = bank 3 (sa) offset 4; gpi1 ext 1
    # code 8 -> vec3 ext zyx; unified -o 7 -> o14, swizz 10 (zxy); gpi0 swizz 12 -> VDUAL vec3 std 000.
    ("23baab236c9a6b07", "p2 vdual3.op1_2.op2_14.f16.skipinv sa[idx1+4].-yz, i2.000, i2.zyx, -o14.zxy, "
                         "prim_dest_num_gpi_case=0x2 src_config=0x2 gpi2_slot_num_bit_0_or_unified_store_abs=0x1"),
    # gpi1 ext 1 code 15: the vec3 ext table has no entry -> sw31.
    ("23d0427d8682a9d7", "p2 vdual3.op1_12.op2_0.skipinv o104.xy, i2.yyz, i2.sw31, pa174.xxx, "
                         "src_config=0x2 gpi2_slot_num_bit_1=0x1"),
]


@pytest.mark.parametrize("word, text", GOLDEN, ids=[word for word, _ in GOLDEN])
def test_golden_vdual_words_print_as_hand_checked_text(word, text):
    description = listing()
    instruction = description.decode(halves(int(word, 16)))
    assert instruction.form == "VDUAL" and not instruction.is_data
    assert description.format(instruction) == text
    assert description.encode(description.parse(text)) == tuple(halves(int(word, 16)))


def test_internal_registers_and_doubling_of_the_unified_store():
    description = listing()
    # Temporary numbers count pairs; fields 124-127 (numbers 248-254) are i0-i3 (8-bit check after doubling).
    text = "vdual4.op1_1.op2_0 i3.xyzw, i0.xyzw, i1.xxxx, i1.xxxx"
    instruction = description.parse(text)
    fields = dict(description.decode(list(description.encode(instruction))).fields)
    assert fields["prim_dest_num"] == 127 and fields["prim_dest_bank"] == 0
    assert fields["unified_store_slot_num"] == 125 and fields["unified_store_slot_bank"] == 0
    assert fields["comp_count_type"] == 1 and fields["dual_op1_ext_vec3_or_has_w_vec4"] == 1
    assert description.format(instruction) == text
    fields = dict(description.parse("vdual3.op1_9.op2_15 o246.x-z, i0.xxx, i0.xxx, sa2.xxx").fields)
    assert fields["prim_dest_num"] == 123 and fields["unified_store_slot_num"] == 1
    assert fields["dual_op1_ext_vec3_or_has_w_vec4"] == 1 and fields["dual_op1"] == 1
    assert fields["dual_op2_ext"] == 1 and fields["dual_op2"] == 7


@given(st.integers(0, (1 << 64) - 1))
def test_random_vdual_words_read_back_through_their_text(value):
    value = value & ~FIXED_MASK | FIXED_BITS
    description = listing()
    words = halves(value)
    instruction = description.decode(words)
    assert instruction.form == "VDUAL" and not instruction.is_data
    text = description.format(instruction)
    assert text.split()[0].startswith("vdual") or text.split()[1].startswith("vdual")
    assert description.encode(description.parse(text)) == tuple(words)


@pytest.mark.parametrize("text, message", [
    ("vdual3.op1_16.op2_0 r0.x, i0.xxx, i0.xxx, r0.xxx", "unknown instruction 'vdual3.op1_16.op2_0'"),
    ("vdual4.op1_9.op2_0 r0.x, i0.xxxx, i0.xxxx, r0.xxxx", "unknown instruction 'vdual4.op1_9.op2_0'"),
    ("vdual3.op1_1 r0.x, i0.xxx, i0.xxx, r0.xxx", "did you mean vdual3.op1_1.op2_0"),
    ("vdual3.op1_1.op2_0 r1.x, i0.xxx, i0.xxx, r0.xxx", "count 64-bit pairs: give an even number"),
    ("vdual3.op1_1.op2_0 r0.x, i0.xxx, i0.xxx, pa3.xxx", "count 64-bit pairs: give an even number"),
    ("vdual3.op1_1.op2_0 r0.xyzw, i0.xxx, i0.xxx, r0.xxx", "'r0.xyzw' is not a valid register"),
    ("vdual3.op1_1.op2_0 r0.x, i4.xxx, i0.xxx, r0.xxx", "'i4.xxx' is not a valid register"),
    ("vdual3.op1_1.op2_0 r0.x, -i0.xxx, i0.xxx, r0.xxx", "'-i0.xxx' is not a valid register"),
    ("vdual3.op1_1.op2_0 r0.x, i0.xxx, i0.xxx, c3.xxx", "'c3.xxx' is not a valid source"),
])
def test_bad_vdual_texts_are_refused_with_a_clear_message(text, message):
    with pytest.raises(SourceError, match=re.escape(message)):
        listing().parse(text)
