"""UsseMachine on hand-made words: each modelled operation, operand addressing (banks, doubling,
internal registers, constants, swizzles, masks, predicates), control flow, the budget and the
"not modelled" errors."""

from __future__ import annotations

import numpy as np
import pytest

from shaderkit.core.diagnostics import InputError
from shaderkit.core.model import bit_pattern, field
from shaderkit.isa.usse.encoding import VEC34_FORMS, form_fields
from shaderkit.isa.usse.machine import UsseMachine

FORMS = {name: (pattern, form_fields(layout)) for name, pattern, layout in VEC34_FORMS}
END = 0xFB275000A0200000
NOP = 0xF800014000000000


def word(form: str, **values) -> int:
    """A 64-bit word of ``form`` with the given raw fields (others 0)."""
    pattern, fields = FORMS[form]
    value = bit_pattern(pattern)[1]
    for name, raw in values.items():
        value = field(fields[name]).write(value, raw)
    return value


def f32(*values) -> np.ndarray:
    return np.array(values, np.float32).view(np.uint32)


def as_float(bits) -> np.ndarray:
    return np.asarray(bits, np.uint32).view(np.float32)


def half_pair(low: float, high: float) -> int:
    halves = np.array([low, high], np.float16).view(np.uint16).astype(np.uint32)
    return int(halves[0] | halves[1] << 16)


def run(primary, lanes=1, pa=None, sa=None, secondary=(), **kw):
    machine = UsseMachine([*primary, END], secondary, lanes=lanes, **kw)
    if pa is not None:
        machine.set_bank("pa", 0, pa)
    if sa is not None:
        machine.set_bank("sa", 0, sa)
    machine.run()
    return machine


def column(values) -> np.ndarray:
    return np.asarray(values, np.uint32).reshape(-1, 1)


# -- VMAD2 -------------------------------------------------------------------------------------
def vmad2(**fields):
    base = dict(src0_swiz_bits2=1, src1_swiz_bit2=1, src2_swiz=4)  # xyzw everywhere
    return word("VMAD2", **{**base, **fields})


def test_vmad2_f32_is_a_fused_multiply_add_and_keeps_mask_bits_0_1():
    # o0 = pa0 * pa2 + pa4 (register fields count pairs: 0, 1, 2 -> pa0, pa2, pa4), mask xyzw.
    program = [vmad2(dest_bank=1, dest_n=0, src0_bank=1, src0_n=0, src1_bank=2, src1_n=1, src2_bank=2, src2_n=2,
                     dest_mask=0b1111)]
    pa = column(f32(2, 3, 4, 5, 10, 20))
    o = as_float(run(program, pa=pa).bank("o")[:4, 0])
    assert list(o[:2]) == [2 * 4 + 10, 3 * 5 + 20]
    assert list(o[2:]) == [0, 0]  # F32 keeps only mask bits 0-1 for a non-internal destination


def test_vmad2_modifiers_and_swizzles():
    # o0.xy = pa0.yyyy * -c2.xxxx (c2.x = 1.0) + #0 with src0 swizzle yyyy (code 1)
    program = [vmad2(dest_bank=1, src0_bank=1, src0_swiz_bits2=0, src0_swiz_bits01=1, src1_bank=1, src1_bank_ext=1,
                     src1_n=2, src1_mod=1, src1_swiz_bit2=0, src2_bank=2, src2_bank_ext=1, src2_n=0, src2_swiz=0, dest_mask=0b11)]
    pa = column(f32(7, -3))
    o = as_float(run(program, pa=pa).bank("o")[:2, 0])
    assert list(o) == [3.0, 3.0]


def test_vmad2_f16_mask_0101_writes_all_four_channels_of_the_pair():
    pa = column([half_pair(1, 2), half_pair(3, 4), half_pair(2, 2), half_pair(2, 2)])
    program = [vmad2(dat_fmt=1, dest_bank=2, dest_n=4, src0_bank=1, src0_n=0, src1_bank=2, src1_n=1,
                     src2_bank=2, src2_n=1, dest_mask=0b0101)]
    out = run(program, pa=pa).bank("pa")[8:10, 0]
    halves = np.array([out[0] & 0xFFFF, out[0] >> 16, out[1] & 0xFFFF, out[1] >> 16], np.uint16).view(np.float16)
    assert list(halves.astype(float)) == [4.0, 6.0, 8.0, 10.0]


def test_vmad2_to_an_internal_register_uses_the_mask_as_is():
    # i0 (field 60 -> 120) = pa0 * 1 + 0 with mask xyzw, then VPCK-free read back through VMOV.
    program = [vmad2(dest_bank=0, dest_n=60, src0_bank=1, src1_bank=1, src1_bank_ext=1, src1_n=2, src1_swiz_bit2=0,
                     src1_swiz_bits01=0, src2_bank=2, src2_bank_ext=1, src2_n=0, dest_mask=0b1111),
               # VMOV.f32 o0 <- i0 with mask 1111 to o (only x, y kept), then o2 <- i0.zw via swizzle zwzw (11)
               word("VMOV", move_data_type=5, dest_bank_sel=1, dest_n=0, src1_bank_sel=0, src1_n=60, src0_swiz=4,
                    dest_mask=0b1111),
               word("VMOV", move_data_type=5, dest_bank_sel=1, dest_n=1, src1_bank_sel=0, src1_n=60, src0_swiz=11,
                    dest_mask=0b0011)]
    # c2 is (1.0, 0.0): x reads bank0 = 1.0, so src1 swizzle xxxx gives 1.0 in every channel.
    pa = column(f32(1, 2, 3, 4))
    o = as_float(run(program, pa=pa).bank("o")[:4, 0])
    assert list(o) == [1, 2, 3, 4]


# -- V32NMAD / V16NMAD -----------------------------------------------------------------------------
def nmad(op2, form="V32NMAD", **fields):
    """A V32NMAD (or, by ``form``, V16NMAD) word: o0 = op(pa0.xyzw, pa2), unless ``fields`` say otherwise."""
    # source 1 swizzle xyzw: selectors 0,1,2,3 -> 0b011_010_001_000 = 0x688
    code = 0x688
    base = dict(op2=op2, src1_swiz_0_6=code & 0x7F, src1_swiz_7_8=code >> 7 & 3, src1_swiz_9=code >> 9 & 1,
                src1_swiz_10_11=code >> 10, src2_swiz=4, dest_bank_sel=1, src1_bank_sel=2, src2_bank_sel=2,
                src1_n=0, src2_n=2, dest_mask=0b1111)
    return word(form, **{**base, **fields})


@pytest.mark.parametrize(("op2", "expected"), [
    (0, [1.5 * 2, -2 * 4, 3.25 * 0.5, 4 * -1]),           # VMUL
    (1, [1.5 + 2, -2 + 4, 3.25 + 0.5, 4 - 1]),            # VADD
    (2, [1.5 - 2, -2 - 4, 3.25 - 0, 4 + 1]),              # VFRC: s1 - floor(s2)
    (5, [1.5, -2, 0.5, -1]),                              # VMIN
    (6, [2, 4, 3.25, 4]),                                 # VMAX
    (7, [3 - 8 + 1.625 - 4] * 4),                         # VDP (4 channels, scalar result)
])
def test_v32nmad_operations(op2, expected):
    pa = column(f32(1.5, -2, 3.25, 4, 2, 4, 0.5, -1))
    o = as_float(run([nmad(op2)], pa=pa).bank("o")[:4, 0])
    assert list(o) == expected


def test_v32nmad_full_swizzle_constants_and_src2_abs():
    # source 1 channels: w, 1, h, x (codes 3, 5, 7, 0) ; source 2 |pa4| read xyzw; VMUL
    code = 3 | 5 << 3 | 7 << 6 | 0 << 9
    program = [nmad(0, src1_swiz_0_6=code & 0x7F, src1_swiz_7_8=code >> 7 & 3, src1_swiz_9=code >> 9 & 1,
                    src1_swiz_10_11=code >> 10, src2_mod=1)]
    pa = column(f32(10, 20, 30, 40, -1, -2, -3, -4))
    assert list(as_float(run(program, pa=pa).bank("o")[:4, 0])) == [40, 2, 1.5, 40]


def test_v32nmad_dsx_is_not_modelled():
    with pytest.raises(InputError, match=r"not modelled: V32NMAD [0-9A-F]{16} at instruction 0 \(op2 3"):
        run([nmad(3)])


def test_v16nmad_adds_f16_channels():
    pa = column([half_pair(1, 2), half_pair(3, 4), half_pair(0.5, 0.5), half_pair(0.5, 0.5)])
    program = [word("V16NMAD", **{k: v for k, v in dict(
        op2=1, src1_swiz_0_6=0x688 & 0x7F, src1_swiz_7_8=0x688 >> 7 & 3, src1_swiz_9=0x688 >> 9 & 1,
        src1_swiz_10_11=0x688 >> 10, src2_swiz=4, dest_bank_sel=1, src1_bank_sel=2, src2_bank_sel=2,
        src1_n=0, src2_n=1, dest_mask=0b1111).items()})]
    out = run(program, pa=pa).bank("o")[:2, 0]
    halves = np.array([out[0] & 0xFFFF, out[0] >> 16, out[1] & 0xFFFF, out[1] >> 16], np.uint16).view(np.float16)
    assert list(halves.astype(float)) == [1.5, 2.5, 3.5, 4.5]


# -- VMAD / VDP on GPI registers, VCOMP ----------------------------------------------------------------
def load_i(index, pa_pair):
    """VPCK.f32f32 i<index> <- pa(2*pa_pair).. (destination 124 + index, four channels)."""
    return word("VPCK", src_fmt=6, dest_fmt=6, dest_mask=0b1111, dest_bank_sel=0, dest_n=124 + index,
                src1_bank_sel=2, src1_n=pa_pair, src2_bank_sel=2, src2_n=pa_pair, comp_sel_1=1, comp_sel_2=2,
                comp_sel_3=3)


def test_vmad_vec4_and_vdp_vec3_on_internal_registers():
    pa = column(f32(1, 2, 3, 4, 5, 6, 7, 8, 0.5, 0.5, 0.5, 0.5))
    program = [load_i(0, 0), load_i(1, 2),
               # VMAD vec4: o0 = i0.xyzw * pa8.xyzw + i1.xyzw
               word("VMAD", opcode2=1, dest_bank=1, dest_n=0, src1_bank=2, src1_n=4, gpi0_n=0, gpi1_n=1,
                    gpi0_swiz=4, src1_swiz=4, gpi1_swiz=4, write_mask=0b1111),
               # VDP vec3: o4.x = dot(i0.xyz, i1.xyz) with src1 = r122 = i1 (field 61)
               word("VDP", opcode2=0, dest_bank=1, dest_n=2, src1_bank=0, src1_n=61, gpi0_n=0, gpi0_swiz=4,
                    src1_swiz_x=0, src1_swiz_y=1, src1_swiz_z=2, src1_swiz_w=3, write_mask=0b0001)]
    o = as_float(run(program, pa=pa).bank("o")[:5, 0])
    assert list(o[:4]) == [5.5, 7, 8.5, 10]
    assert o[4] == 1 * 5 + 2 * 6 + 3 * 7


def test_vmad_vec3_swizzle_constant_and_gpi_negate():
    pa = column(f32(1, 2, 3, 4, 5, 6, 7, 8))
    program = [load_i(0, 0), load_i(1, 2),
               # o0.xyz = -i0.xxx * pa0.xyz + i1 "000" (vec3 ext code 6)
               word("VMAD", opcode2=0, dest_bank=1, dest_n=0, src1_bank=2, src1_n=0, gpi0_n=0, gpi1_n=1,
                    gpi0_swiz=0, gpi0_neg=1, src1_swiz=4, gpi1_swiz=6, gpi1_swiz_ext=1, write_mask=0b1111)]
    o = as_float(run(program, pa=pa).bank("o")[:4, 0])
    assert list(o) == [-1, -2, -3, 0]  # vec3: channel w is never written


@pytest.mark.parametrize(("op2", "x", "expected"), [(0, 4.0, 0.25), (1, 16.0, 0.25), (2, 8.0, 3.0), (3, 3.0, 8.0)])
def test_vcomp(op2, x, expected):
    pa = column(f32(0, x))
    # src comp y (1) of pa0, result to o0.x and o0.z (write mask 0101)
    program = [word("VCOMP", op2=op2, dest_bank=1, dest_n=0, src1_bank=2, src1_n=0, src_comp=1, write_mask=0b0101)]
    o = as_float(run(program, pa=pa).bank("o")[:4, 0])
    assert list(o) == [expected, 0, expected, 0]


# -- VMOV, VMOVC, VMOVCU8 --------------------------------------------------------------------------
def vmov(**fields):
    return word("VMOV", **{**dict(move_data_type=5, dest_bank_sel=1, src0_swiz=4, dest_mask=0b0011), **fields})


def test_vmov_f32_swizzle():
    pa = column(f32(1, 2, 3, 4))
    o = as_float(run([vmov(src1_bank_sel=2, src1_n=0, src0_swiz=3)], pa=pa).bank("o")[:2, 0])
    assert list(o) == [4, 4]


@pytest.mark.parametrize(("test", "expected"), [(0, [10, 21]), (1, [20, 11]), (2, [20, 21]), (3, [10, 21])])
def test_vmovc_compares_source_0_with_zero(test, expected):
    # s0 = pa0 (0, 5) ; s1 = pa2 (10, 11) ; s2 = pa4 (20, 21) ; test == != < <=
    pa = column(f32(0, 5, 10, 11, 20, 21))
    program = [vmov(move_type=1, test_bit_2=test >> 1, test_bit_1=test & 1, src0_bank_sel=1, src0_n=0,
                    src1_bank_sel=2, src1_n=1, src2_bank_sel=2, src2_n=2)]
    if test == 2:
        pa = column(f32(-1, 5, 10, 11, 20, 21))
        expected = [10, 21]
    assert list(as_float(run(program, pa=pa).bank("o")[:2, 0])) == expected


def test_vmovcu8_tests_the_bytes_of_source_0():
    # s0 register pa0 = 0x0000FF00: byte 0 is 0, byte 1 is 0xFF ; test != 0
    pa = column([0x0000FF00, 0, 10, 11, 20, 21])
    pa = pa.copy()
    pa[2:] = column(f32(10, 11, 20, 21))
    program = [vmov(move_type=2, test_bit_1=1, src0_bank_sel=1, src0_n=0, src1_bank_sel=2, src1_n=1,
                    src2_bank_sel=2, src2_n=2)]
    assert list(as_float(run(program, pa=pa).bank("o")[:2, 0])) == [20, 11]


def test_vmov_integer_moves_the_register():
    pa = column([0xDEADBEEF, 0x12345678])
    program = [vmov(move_data_type=2, src1_bank_sel=2, src1_n=1, dest_n=3)]
    assert run(program, pa=pa).bank("o")[3, 0] == 0x12345678


# -- VPCK -------------------------------------------------------------------------------------------
def vpck(**fields):
    base = dict(dest_bank_sel=1, src1_bank_sel=2, src2_bank_sel=2, comp_sel_1=1, comp_sel_2=2, comp_sel_3=3)
    return word("VPCK", **{**base, **fields})


def test_vpck_f32_to_f16_and_back():
    pa = column(f32(1.5, -2, 0.25, 8))
    program = [vpck(src_fmt=6, dest_fmt=5, dest_bank_sel=2, dest_n=8, src1_n=0, src2_n=1, dest_mask=0b1111),
               vpck(src_fmt=5, dest_fmt=6, dest_n=0, src1_n=4, dest_mask=0b0011),
               vpck(src_fmt=5, dest_fmt=6, dest_n=2, src1_n=4, src2_n=1, comp_sel_1=3, dest_mask=0b0011)]
    machine = run(program, pa=pa)
    assert list(machine.bank("pa")[8:10, 0]) == [half_pair(1.5, -2), half_pair(0.25, 8)]
    assert list(as_float(machine.bank("o")[:4, 0])) == [1.5, -2, 0.25, 8]


def test_vpck_f32_split_sources_take_two_registers_of_each():
    pa = column(f32(1, 2, 3, 4, 5, 6, 7, 8))
    # sources pa0 and pa4 (different registers): channels (pa0, pa1, pa4, pa5)
    program = [vpck(src_fmt=6, dest_fmt=6, dest_n=0, src1_n=0, src2_n=2, dest_mask=0b1111)]
    assert list(as_float(run(program, pa=pa).bank("o")[:4, 0])) == [1, 2, 5, 6]


def test_vpck_u8_scaled_to_f32_and_f32_to_u8():
    pa = column([0x80FF3300, 0, *f32(0.5, 1.0, 0.0, 2.0)])
    # U8 source register pa0: number src1_n << 1 | comp0_sel_bit1 = 0; F32 source pa2..pa5
    program = [vpck(src_fmt=0, dest_fmt=6, scale=1, dest_n=0, src1_n=0, src2_n=0, dest_mask=0b1111),
               vpck(src_fmt=6, dest_fmt=0, scale=1, dest_n=4, src1_n=1, src2_n=1, dest_mask=0b1111)]
    machine = run(program, pa=pa)
    assert list(as_float(machine.bank("o")[:4, 0])) == pytest.approx([0, 0x33 / 255, 1, 0x80 / 255])
    assert machine.bank("o")[4, 0] == 0xFF_00_FF_80  # 0.5 -> 128, 1.0 -> 255, 0 -> 0, 2.0 clamps to 255


def test_vpck_s16_unscaled_from_f32():
    pa = column(f32(-3.0, 40000.0))
    program = [vpck(src_fmt=6, dest_fmt=4, dest_n=0, src1_n=0, src2_n=0, dest_mask=0b0011)]
    out = run(program, pa=pa).bank("o")[0, 0]
    assert out == (0x7FFF << 16 | 0xFFFD)


def test_vpck_c10_is_not_modelled():
    with pytest.raises(InputError, match=r"not modelled: VPCK [0-9A-F]{16} at instruction 0 \(VPCK with format C10"):
        run([vpck(src_fmt=7, dest_fmt=6, dest_mask=1)])


# -- LIMM, VBW ----------------------------------------------------------------------------------------
def limm(value, dest_bank=0, dest_num=0, **fields):
    return word("LIMM", imm_value_first_21bits=value & 0x1FFFFF, imm_value_bits21to25=value >> 21 & 0x1F,
                imm_value_bits26to31=value >> 26, dest_bank=dest_bank, dest_num=dest_num, **fields)


def test_limm_loads_32_bits():
    assert run([limm(0xDEADBEEF, dest_bank=1, dest_num=5)]).bank("o")[5, 0] == 0xDEADBEEF


@pytest.mark.parametrize(("op1", "op2", "a", "b", "expected"), [
    (2, 0, 0xF0F0FFFF, 0x0FF0000F, 0x00F0000F),   # AND
    (2, 1, 0xF0F00000, 0x0000000F, 0xF0F0000F),   # OR
    (3, 0, 0xFFFF0000, 0x0F0F0F0F, 0xF0F00F0F),   # XOR
    (4, 0, 0x00000003, 4, 0x00000030),            # SHL
    (4, 1, 0xF0000001, 4, 0x0000001F),            # ROL
    (5, 0, 0x80000000, 4, 0x08000000),            # SHR
    (5, 1, 0x80000000, 4, 0xF8000000),            # ASR
])
def test_vbw_operations(op1, op2, a, b, expected):
    major = 0x08 | op1
    program = [limm(a, dest_num=0), limm(b, dest_num=1),
               word("VBW", op1=op1, op2=op2, dest_bank=1, dest_n=0, src1_bank=0, src1_n=0, src2_bank=0, src2_n=1)]
    assert program[2] >> 59 == major
    assert run(program).bank("o")[0, 0] == expected


def test_vbw_immediate_with_rotation_and_inversion():
    # s2 immediate 0x0001 | sel << 7: value 0x81, rotated left by 8 = 0x8100, inverted
    program = [limm(0xFFFFFFFF, dest_num=0),
               word("VBW", op1=2, op2=0, dest_bank=1, src1_bank=0, src1_n=0, src2_bank=2, src2_ext=1, src2_n=1,
                    src2_sel=1, src2_rot=8, src2_invert=1)]
    assert run(program).bank("o")[0, 0] == 0xFFFF7EFF


# -- VTST, VTSTMSK, predicates -----------------------------------------------------------------------
def test_vtst_sets_a_predicate_per_lane_and_predicated_writes_select_lanes():
    lanes = 3
    pa = np.stack([f32(1, 5, -2), f32(0, 0, 0)])  # pa0 per lane, pa1 zero
    # VTST float F32 sub: p1 = pa0.x > pa2.x ... use add with s2 = 0: p1 = (pa0 + 0) > 0
    program = [word("VTST", alu_sel=0, prec=1, alu_op=2, zero_test=0, sign_test=2, src1_bank=2, src1_n=0,
                    src2_bank=2, src2_ext=1, src2_n=0, pdst_n=1, chan_cc=0),
               limm(0x11, dest_bank=1, dest_num=0, pred=2),      # p1 lanes
               limm(0x22, dest_bank=1, dest_num=1, pred=6)]      # !p1 lanes
    o = run(program, lanes=lanes, pa=pa).bank("o")
    assert list(o[0]) == [0x11, 0x11, 0]
    assert list(o[1]) == [0, 0, 0x22]


def vtstmsk(**fields):
    base = dict(test_wben=1, alu_sel=0, prec=1, src1_bank=2, src2_bank=2)
    return word("VTSTMSK", **{**base, **fields})


def test_vtstmsk_mask_type_2_writes_one_or_zero_per_channel():
    pa = column(f32(1, 5, 3, 0, 2, 2, 2, 2))
    # float sub, sign_test 2 zero_test 0: s1 > s2 per channel, into o0..o3
    program = [vtstmsk(alu_op=14, sign_test=2, tst_mask_type=2, dest_bank=1, dest_n=0, src1_n=0, src2_n=2)]
    assert list(as_float(run(program, pa=pa).bank("o")[:4, 0])) == [0, 1, 1, 0]


def test_vtstmsk_mask_type_0_writes_an_all_ones_mask():
    pa = column(f32(3, 0, 2, 0))
    program = [vtstmsk(alu_op=14, sign_test=2, tst_mask_type=0, dest_bank=1, dest_n=0, src1_n=0, src2_n=1),
               vtstmsk(alu_op=14, sign_test=1, tst_mask_type=0, dest_bank=1, dest_n=1, src1_n=0, src2_n=1)]
    o = run(program, pa=pa).bank("o")
    assert (o[0, 0], o[2, 0]) == (0xFFFFFFFF, 0)


def test_vtstmsk_log_is_scalar_and_integer_tests_write_the_type_maximum():
    pa = column(f32(8, 0.5, 0.5, 0.5, 0, 0, 0, 0))
    program = [vtstmsk(alu_op=6, sign_test=2, tst_mask_type=2, dest_bank=1, dest_n=0, src1_n=0, src2_n=2),
               limm(7, dest_num=0), limm(9, dest_num=1),
               # isub32 (sel 1, op 14): 7 < 9 with zero_test 0 sign_test 1 -> 0x7FFFFFFF
               vtstmsk(alu_sel=1, alu_op=14, sign_test=1, tst_mask_type=0, dest_bank=1, dest_n=8,
                       src1_bank=0, src1_n=0, src2_bank=0, src2_n=1)]
    o = run(program, pa=pa).bank("o")
    assert list(as_float(o[:4, 0])) == [1, 1, 1, 1]  # log2(8) = 3 > 0 in every channel
    assert o[8, 0] == 0x7FFFFFFF


def test_vtstmsk_dsy_is_not_modelled():
    with pytest.raises(InputError, match=r"not modelled: VTSTMSK [0-9A-F]{16} at instruction 0 \(float test operation 12"):
        run([vtstmsk(alu_op=12, dest_bank=1)])


# -- control -------------------------------------------------------------------------------------------
def br(offset, **fields):
    return word("BR", br_off=offset & 0xFFFFF, br_type=1, **fields)


def test_branch_loop_counts_with_a_predicate():
    # r0 = 0 ; loop: r0 += 1 (VBW OR? use I-free: r0 = r0 + ... ) -> count with shifts: r0 = r0 << 1 | 1
    program = [limm(0, dest_num=0), limm(1, dest_num=1),
               word("VBW", op1=4, op2=0, dest_bank=0, dest_n=0, src1_bank=0, src1_n=0, src2_bank=0, src2_n=1),  # r0 <<= 1
               word("VBW", op1=2, op2=1, dest_bank=0, dest_n=0, src1_bank=0, src1_n=0, src2_bank=0, src2_n=1),  # r0 |= 1
               # p0 = (r0 - 0xFF) != 0 via isubu32 (sel 1 op 15) compared with r2 = 0xFF
               limm(0xFF, dest_num=2),
               word("VTST", alu_sel=1, alu_op=15, zero_test=0, sign_test=0, src1_bank=0, src1_n=0, src2_bank=0,
                    src2_n=2, pdst_n=0),
               br(-4, pred=1),
               word("VBW", op1=2, op2=1, dest_bank=1, dest_n=0, src1_bank=0, src1_n=0, src2_bank=0, src2_n=0)]
    assert run(program, lanes=2).bank("o")[0, 0] == 0xFF


def test_the_budget_stops_a_loop():
    with pytest.raises(InputError, match="instruction budget of 50 exhausted at instruction 0"):
        run([br(0)], budget=50)


def test_lanes_part_at_a_branch_and_meet_again():
    pa = np.stack([f32(1, -1, 2)])
    program = [word("VTST", alu_sel=0, prec=1, alu_op=2, sign_test=2, src1_bank=2, src1_n=0, src2_bank=2,
                    src2_ext=1, src2_n=0, pdst_n=0),                # p0 = pa0 > 0
               br(2, pred=1),                                       # p0 lanes skip the next write
               limm(0x11, dest_bank=1, dest_num=0),
               limm(0x22, dest_bank=1, dest_num=1)]                 # every lane again
    o = run(program, lanes=3, pa=pa).bank("o")
    assert list(o[0]) == [0, 0x11, 0]
    assert list(o[1]) == [0x22, 0x22, 0x22]


def test_per_lane_loops_and_an_end_reached_by_some_lanes():
    # r0 = (r0 << 1) | 1 until r0 == pa0 (per lane 0x3 or 0xFF); lanes with pa1 != 0 end early.
    pa = np.stack([np.array([0x3, 0xFF, 0xFF], np.uint32), np.array([0, 0, 1], np.uint32)])
    program = [limm(0, dest_num=0), limm(1, dest_num=1),
               word("VBW", op1=4, op2=0, dest_bank=0, dest_n=0, src1_bank=0, src1_n=0, src2_bank=0, src2_n=1),
               word("VBW", op1=2, op2=1, dest_bank=0, dest_n=0, src1_bank=0, src1_n=0, src2_bank=0, src2_n=1),
               word("VTST", alu_sel=1, alu_op=15, zero_test=0, sign_test=0, src1_bank=0, src1_n=0, src2_bank=2,
                    src2_n=0, pdst_n=0),                            # p0 = r0 != pa0
               br(-3, pred=1),
               word("VBW", op1=2, op2=1, dest_bank=1, dest_n=0, src1_bank=0, src1_n=0, src2_bank=0, src2_n=0),
               word("VTST", alu_sel=1, alu_op=15, zero_test=0, sign_test=0, src1_bank=2, src1_n=1, src2_bank=2,
                    src2_ext=1, src2_n=0, pdst_n=1),                # p1 = pa1 != 0
               br(2, pred=2),
               END,
               limm(0x77, dest_bank=1, dest_num=1)]
    o = run(program, lanes=3, pa=pa).bank("o")
    assert list(o[0]) == [0x3, 0xFF, 0xFF]
    assert list(o[1]) == [0, 0, 0x77]


def test_any_inst_branch_is_taken_by_every_lane():
    pa = np.stack([f32(1, -1)])
    program = [word("VTST", alu_sel=0, prec=1, alu_op=2, sign_test=2, src1_bank=2, src1_n=0, src2_bank=2,
                    src2_ext=1, src2_n=0, pdst_n=0),
               br(2, pred=1, any_inst=1),
               limm(0x11, dest_bank=1, dest_num=0)]
    assert list(run(program, lanes=2, pa=pa).bank("o")[0]) == [0, 0]


def test_save_link_and_return():
    ret = (0x1F << 59) | (2 << 38)  # SPEC, category 0, w1[8:6] = 2
    program = [br(3, save_link=1), limm(0x55, dest_bank=1, dest_num=1), END, limm(0x44, dest_bank=1), ret]
    o = run(program).bank("o")
    assert (o[0, 0], o[1, 0]) == (0x44, 0x55)


def test_the_closing_word_ends_the_program_before_unmodelled_words():
    smp = word("SMP")
    machine = UsseMachine([limm(1, dest_bank=1), END, smp], lanes=1)
    machine.run()
    assert machine.bank("o")[0, 0] == 1


@pytest.mark.parametrize(("form", "value"), [
    ("SMP", word("SMP", dim=1)),
    ("VDUAL", word("VDUAL")),
    ("KILL", word("KILL")),
    ("SMBO", word("SMBO")),
    (".word", 0x16 << 59),
    ("SPEC", (0x1F << 59) | (2 << 52)),
])
def test_unmodelled_words_stop_with_the_form_word_and_index(form, value):
    with pytest.raises(InputError) as caught:
        run([NOP, NOP, value])
    assert str(caught.value).startswith(f"not modelled: {form} {value:016X} at instruction 2")


def test_nop_phas_and_end_flag():
    phas = 0xFA44070000000000
    program = [phas, NOP, limm(7, dest_bank=1, end=1), limm(8, dest_bank=1, dest_num=1)]
    o = run(program).bank("o")
    assert (o[0, 0], o[1, 0]) == (7, 0)


def test_secondary_program_writes_the_sa_bank_and_runs_first():
    # secondary: "o0" = 3 (redirected to sa0) ; primary: o0 = sa0 OR 0
    secondary = [limm(3, dest_bank=1, dest_num=0), END]
    primary = [word("VBW", op1=2, op2=1, dest_bank=1, src1_bank=3, src1_n=0, src2_bank=3, src2_n=0)]
    machine = run(primary, lanes=2, secondary=secondary)
    assert list(machine.bank("sa")[0]) == [3, 3]
    assert list(machine.bank("o")[0]) == [3, 3]


def test_set_bank_broadcasts_and_rejects_unknown_banks():
    machine = UsseMachine([END], lanes=3)
    machine.set_bank("pa", 2, [[5], [6]])
    assert machine.bank("pa")[2:4].tolist() == [[5, 5, 5], [6, 6, 6]]
    with pytest.raises(InputError, match="unknown USSE bank 'q'"):
        machine.set_bank("q", 0, [[1]])


def test_many_lanes_in_one_run():
    lanes = 100_000
    values = np.arange(lanes, dtype=np.float32)
    pa = np.stack([values.view(np.uint32), np.full(lanes, 2.0, np.float32).view(np.uint32)])
    program = [nmad(0, src1_n=0, src2_n=0, src2_swiz=1, dest_mask=0b0001)]  # o0.x = pa0.x * pa0.y
    o = as_float(run(program, lanes=lanes, pa=pa).bank("o")[0])
    assert np.array_equal(o, values * 2)


# -- repeats (§4, without SMLSI) -------------------------------------------------------------------
def test_vcomp_repeat_steps_registers_by_two():
    pa = column(f32(4, 0, 2, 0, 8, 0))
    # rcp of pa0.x, pa2.x, pa4.x into o0, o2, o4 (x only)
    program = [word("VCOMP", op2=0, dest_bank=1, dest_n=0, src1_bank=2, src1_n=0, write_mask=1, repeat_count=2)]
    o = as_float(run(program, pa=pa).bank("o")[:6, 0])
    assert list(o) == [0.25, 0, 0.5, 0, 0.125, 0]


def test_vmad_external_repeat_steps_storage_by_four_and_vdp_rotates_its_mask():
    pa = column(f32(1, 1, 1, 1, 2, 2, 2, 2))
    program = [load_i(0, 0), load_i(1, 2),
               # repeat mode 0 (external), 2 iterations: o0 = i0 * pa0 + i0 ; o4 = i0 * pa4 + i0 (x only)
               word("VMAD", opcode2=1, dest_bank=1, dest_n=0, src1_bank=2, src1_n=0, gpi0_swiz=4, src1_swiz=4,
                    gpi1_swiz=4, write_mask=0b0001, repeat_mode=0, repeat_count=1),
               # VDP vec4 to o8 with mask x, 2 iterations in mode 3: storage steps by 2, internal by 1
               word("VDP", opcode2=1, dest_bank=1, dest_n=4, src1_bank=2, src1_n=2, gpi0_n=0, gpi0_swiz=4,
                    src1_swiz_x=0, src1_swiz_y=1, src1_swiz_z=2, src1_swiz_w=3, write_mask=0b0001,
                    repeat_mode=3, repeat_count=1)]
    o = as_float(run(program, pa=pa).bank("o")[:16, 0])
    assert (o[0], o[4]) == (2, 3)
    # iteration 0: o8.x = dot(i0 = 1111, pa4..7 = 2222) = 8 ; iteration 1, mask rotated to y:
    # o10.y (register o11) = dot(i1 = 2222, pa6..9 = 2 2 0 0) = 8, o10 itself untouched
    assert (o[8], o[9], o[10], o[11]) == (8, 0, 0, 8)


def test_vmov_repeat():
    pa = column(f32(1, 2, 3, 4))
    program = [vmov(src1_bank_sel=2, src1_n=0, src0_swiz=4, dest_mask=0b0001, repeat_count=1)]
    o = as_float(run(program, pa=pa).bank("o")[:4, 0])
    assert list(o) == [1, 0, 3, 0]


def test_smlsi_sets_the_repeat_increments_of_later_instructions():
    pa = column(f32(*range(1, 17)))
    program = [
        # dest increment 2, src1 increment 3 (signed bytes): float forms step storage by 2 * inc
        word("SMLSI", dest_inc=2, src1_inc=3),
        word("VCOMP", op2=0, dest_bank=1, dest_n=0, src1_bank=2, src1_n=0, write_mask=1, repeat_count=1),
        # swizzle mode for dest and src1: entries (k=0) 0, (k=1) 3 -> byte 0b1100
        word("SMLSI", dest_inc_mode=1, src1_inc_mode=1, dest_inc=0b1100, src1_inc=0b1100),
        word("VCOMP", op2=0, dest_bank=1, dest_n=10, src1_bank=2, src1_n=0, write_mask=1, repeat_count=1),
    ]
    o = as_float(run(program, pa=pa).bank("o")[:28, 0])
    # first VCOMP: o0 = 1/pa0 ; iteration 1: o(0 + 4) = 1/pa(0 + 6)
    assert (o[0], o[4]) == (1.0, np.float32(1 / 7))
    # second: o20 = 1/pa0 ; iteration 1: o(20 + 6) = 1/pa(0 + 6)
    assert (o[20], o[26]) == (1.0, np.float32(1 / 7))
    assert o[2] == 0 and o[22] == 0


@pytest.mark.parametrize("form", ["VCOMP", "VMAD", "VDP"])
def test_the_end_flag_of_vector_forms_ends_the_program(form):
    first = word(form, end=1, dest_bank=1, write_mask=1)
    after = limm(9, dest_bank=1, dest_num=8)
    assert run([first, after]).bank("o")[8, 0] == 0
    assert run([word(form, dest_bank=1, write_mask=1), after]).bank("o")[8, 0] == 9
