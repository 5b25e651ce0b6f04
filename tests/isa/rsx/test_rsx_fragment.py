"""Tests for shaderkit.isa.rsx.fragment: the golden/rsx/asm fragment programs against NumPy
expectations written from their sources, and small encoded programs for H/R aliasing, conditional
writes, KIL, modifiers, precisions, flow control, derivatives, textures and bad input.

The assembler is written elsewhere; ``op`` and the flow helpers below encode instructions from
spec/rsx.md sections 3.2-3.5 and 3.9 directly.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.binfmt import read_words
from shaderkit.core.diagnostics import InputError
from shaderkit.isa.rsx.container import ProgramKind, UCODE_BYTE_ORDER
from shaderkit.isa.rsx.fragment import (
    FP_INPUTS,
    KILLED_SENTINEL,
    FragmentMachine,
    fragment_image,
    fullscreen_inputs,
    run_fragment_program,
)
from shaderkit.isa.rsx.instruction import decode_program, floats_to_words
from shaderkit.isa.rsx.limits import CONDITION_NAMES
from shaderkit.isa.rsx.opcodes import FP, by_name
from shaderkit.isa.rsx.textures import Texture
from conftest import golden_dir

GOLDEN = golden_dir("rsx")
F32 = np.float32
OPCODES = by_name(FP)
LANES = "xyzw"
PRECISIONS = {"R": 0, "H": 1, "X": 2, "B": 3}


# --- a tiny encoder ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Src:
    file: str  # R, H, f (input), c (the instruction's literal)
    index: int = 0
    swizzle: str = "xyzw"
    negate: bool = False
    absolute: bool = False
    clamp: int = 0

    def __neg__(self) -> Src:
        return Src(self.file, self.index, self.swizzle, not self.negate, self.absolute, self.clamp)

    def bits(self) -> int:
        letters = self.swizzle.ljust(4, self.swizzle[-1])
        swizzle = sum(LANES.index(letter) << (2 * n) for n, letter in enumerate(letters))
        kind = {"R": 0, "H": 0, "f": 1, "c": 2}[self.file]
        index = self.index if self.file in "RH" else 0
        return kind | index << 2 | (self.file == "H") << 8 | swizzle << 9 | self.negate << 17


def R(index, swizzle="xyzw"):
    return Src("R", index, swizzle)


def H(index, swizzle="xyzw"):
    return Src("H", index, swizzle)


def f(name, swizzle="xyzw"):
    return Src("f", FP_INPUTS.index(name), swizzle)


def c(swizzle="xyzw"):
    return Src("c", swizzle=swizzle)


def absolute(source: Src, clamp: int = 0) -> Src:
    return Src(source.file, source.index, source.swizzle, source.negate, True, clamp)


def condition_bits(condition: str, swizzle: str = "xyzw", register: int = 0) -> int:
    letters = swizzle.ljust(4, swizzle[-1])
    lanes = sum(LANES.index(letter) << (2 * n) for n, letter in enumerate(letters))
    return CONDITION_NAMES.index(condition) << 18 | lanes << 21 | register << 31


def op(name: str, dst: str | None, *sources: Src, mask: str = "xyzw", literal=None,
       precision: str = "R", saturate: bool = False, set_cc: int | None = None,
       condition: tuple = ("TR",), scale: int = 0, unit: int = 0, expand: bool = False,
       displacement: int | None = None) -> list[int]:
    """Words of one instruction (plus its literal slot). ``dst`` "R3"/"H2", or None for RC.
    Also encodes KIL (``dst`` None, no sources, a condition)."""
    opcode = OPCODES[name].value
    inputs = {s.index for s in sources if s.file == "f"}
    assert len(inputs) <= 1
    words = [0, 0, 0, 0]
    if dst is None:
        words[0] |= 1 << 30 | 63 << 1
    else:
        words[0] |= int(dst[1:]) << 1 | (dst[0] == "H") << 7
    words[0] |= sum(1 << (9 + LANES.index(letter)) for letter in mask)
    words[0] |= (inputs.pop() if inputs else 0) << 13 | unit << 17 | expand << 21
    words[0] |= PRECISIONS[precision] << 22 | (opcode & 0x3F) << 24 | saturate << 31
    words[0] |= (set_cc is not None) << 8
    words[1] = condition_bits(*condition) | (set_cc or 0) << 30
    words[2] = (opcode >> 6) << 31 | scale << 28
    for n, source in enumerate(sources):
        words[1 + n] |= source.bits()
        if source.absolute:
            words[1 + n] |= 1 << (29 if n == 0 else 18)
        words[2] |= source.clamp << (19 + 3 * n)
    for n in range(len(sources), 3):
        words[1 + n] |= R(0).bits()
    if displacement is not None:
        words[3] |= 1 << 30 | (displacement & 0x7FF) << 19
    if literal is not None:
        words += list(floats_to_words(tuple(float(v) for v in literal)))
    return words


def flow(name: str, condition: str = "TR", swizzle: str = "xyzw", *, else_slot: int = 0,
         end_slot: int = 0, count: int = 0, start: int = 0, increment: int = 0) -> list[int]:
    opcode = OPCODES[name].value
    block = name in ("IFE", "LOOP", "REP")
    words = [1 << 30 | (opcode & 0x3F) << 24 | block << 22, condition_bits(condition, swizzle),
             (opcode >> 6) << 31, end_slot * 4]
    if name == "IFE":
        words[2] |= else_slot * 4
    elif name in ("LOOP", "REP"):
        words[2] |= count << 2 | start << 10 | increment << 19
    return words


def program(*parts: list[int]):
    """Concatenate instructions; the end bit goes on the last one."""
    words = [word for part in parts for word in part]
    last = len(words) - 4 - (4 if len(parts[-1]) == 8 else 0)
    words[last] |= 1
    return decode_program(words, ProgramKind.FRAGMENT)


WIDTH, HEIGHT = 4, 4
INPUTS = fullscreen_inputs(WIDTH, HEIGHT)
TEX0 = INPUTS["TEX0"]
TEX1 = INPUTS["TEX1"]
COL0 = np.array([0.8, 0.4, 0.2, 1.0], F32)


def run(prog, inputs=INPUTS, **options):
    return run_fragment_program(prog, inputs, grid=(HEIGHT, WIDTH), **options)


def color(prog, **options) -> np.ndarray:
    return run(prog, **options).color


def bits(values) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=F32).view(np.uint32)


def pack_half2x16(low: float, high: float) -> int:
    low_bits, high_bits = struct.unpack("<2H", struct.pack("<2e", low, high))
    return low_bits | high_bits << 16


# --- the golden/rsx/asm programs ----------------------------------------------------------------

def golden(name: str):
    words = read_words((GOLDEN / "asm" / f"{name}.fpo.bin").read_bytes(), "raw", word_bits=32,
                       byte_order=UCODE_BYTE_ORDER[ProgramKind.FRAGMENT])
    return decode_program(words, ProgramKind.FRAGMENT, name)


def constants(name: str) -> dict[int, np.ndarray]:
    text = (GOLDEN / "asm" / f"{name}.fp.txt").read_text()
    return {int(m[1]): np.array(m[2].split(), F32)
            for m in re.finditer(r"#const c\[(\d+)\] = (.*)", text)}


def test_fp_mov_color():
    np.testing.assert_array_equal(color(golden("fp_mov_color")), np.broadcast_to(COL0, (16, 4)))


def test_fp_dots():
    c0 = constants("fp_dots")[0]
    expected = np.stack([
        TEX0[:, 0] * c0[0] + TEX0[:, 1] * c0[1],
        TEX0[:, 0] * TEX0[:, 2] + TEX0[:, 1] * TEX0[:, 1] + TEX0[:, 2] * TEX0[:, 0],
        TEX0 @ c0,
        np.full(16, c0[2]),
    ], axis=1)
    np.testing.assert_allclose(color(golden("fp_dots")), expected, rtol=2e-7)


def test_fp_minmax():
    c0 = constants("fp_minmax")[0]
    expected = np.minimum(np.maximum(TEX0, c0[0]), c0[1])
    expected[:, 3] = c0[3]
    np.testing.assert_array_equal(color(golden("fp_minmax")), expected)


def test_fp_nrm():
    c0 = constants("fp_nrm")[0]
    direction = (TEX0 - c0[[0, 1, 2, 2]])[:, :3]
    normal = direction / np.linalg.norm(direction, axis=1, keepdims=True)
    expected = np.concatenate([normal * c0[0] + c0[0], np.full((16, 1), c0[3])], axis=1)
    np.testing.assert_allclose(color(golden("fp_nrm")), expected, rtol=1e-6)


def test_fp_half_regs_rounds_through_fp16():
    c0 = constants("fp_half_regs")[0]

    def half(values):
        return np.asarray(values, F32).astype(np.float16).astype(F32)
    # MOVH H2, tc; MULH H2.xy, H2, c0; ADDH H2.zw, H2.xxxy, c0.zzzw; MOVR R0, H2.
    xy = half(half(TEX0)[:, :2] * c0[:2])
    zw = half(xy + c0[2:])
    expected = np.concatenate([xy, zw], axis=1)
    np.testing.assert_array_equal(color(golden("fp_half_regs")), expected)


def test_fp_pack_unpack_round_trips():
    tc = TEX0.astype(np.float16).astype(F32)
    unorm8 = np.rint(COL0 * 255) / 255
    snorm8 = np.rint(TEX0 * 127) / 127
    unorm16 = np.rint(COL0[:2] * 65535) / 65535
    # R0 = (UP2H(PK2H(tc)).xy, UP4B(PK4B(tc)).zw); R2 = (UP2US(PK2US(col0)).xy, UP4UB(PK4UB(col0)).zw).
    expected = np.stack([tc[:, 0] + unorm16[0], tc[:, 1] + unorm16[1],
                         snorm8[:, 2] + unorm8[2], snorm8[:, 3] + unorm8[3]], axis=1)
    np.testing.assert_allclose(color(golden("fp_pack_unpack")), expected, rtol=2e-7)


def test_fp_tex2d_samples_unit_zero():
    texels = np.random.default_rng(5).uniform(0, 1, (HEIGHT, WIDTH, 4)).astype(F32)
    result = color(golden("fp_tex2d"), textures={0: Texture(texels, "nearest")})
    # Pixel centres sample their own texel (same size, GL conventions).
    np.testing.assert_array_equal(result, texels.reshape(-1, 4) * COL0)
    unbound = color(golden("fp_tex2d"))
    np.testing.assert_array_equal(unbound, np.broadcast_to(np.array([0, 0, 0, 1], F32) * COL0, (16, 4)))


def test_fp_depth_out_writes_r1_z():
    result = run(golden("fp_depth_out"))
    np.testing.assert_array_equal(result.depth, TEX0[:, 0] * F32(0.5))
    np.testing.assert_array_equal(result.color, np.broadcast_to(COL0, (16, 4)))


def test_fp_loop_runs_three_times():
    c1 = constants("fp_loop")[1]
    np.testing.assert_array_equal(color(golden("fp_loop")),
                                  np.broadcast_to(COL0 + c1 + c1 + c1, (16, 4)))


# --- H/R aliasing -----------------------------------------------------------------------------

def test_writing_h_registers_fills_r_with_packed_halves():
    prog = program(
        op("MOV", "H0", c(), literal=(1, 2, -0.5, 65504), precision="H"),
        op("MOV", "H1", c(), mask="xy", literal=(0.25, -3, 0, 0), precision="H"),
        op("MOV", "R2", R(0)),
    )
    result = bits(run(prog).mrt[0][0])
    assert result.tolist() == [pack_half2x16(1, 2), pack_half2x16(-0.5, 65504),
                               pack_half2x16(0.25, -3), 0]


def test_reading_h_registers_unpacks_r():
    words = (pack_half2x16(2, 1), pack_half2x16(-4, 0.5), pack_half2x16(8, 16), pack_half2x16(0, -1))
    literal = np.array(words, np.uint32).view(F32)
    prog = program(
        op("MOV", "R2", c(), literal=literal),
        op("MOV", "R0", H(5, "wzyx")),
        op("MOV", "R3", H(4)),
    )
    result = run(prog)
    np.testing.assert_array_equal(result.color[0], [-1, 0, 16, 8])
    np.testing.assert_array_equal(result.mrt[1][0], [2, 1, -4, 0.5])


def test_output_from_h0_exports_the_halves():
    prog = program(op("MOV", "H0", c(), literal=(1.5, -2, 3, 4), precision="H"),
                   op("MOV", "H4", c(), literal=(5, 6, 7, 8), precision="H"))
    result = run(prog, output_from_h0=True)
    np.testing.assert_array_equal(result.color[0], [1.5, -2, 3, 4])
    np.testing.assert_array_equal(result.mrt[0][0], [5, 6, 7, 8])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(width=16, allow_nan=False, allow_infinity=False), min_size=4, max_size=4))
def test_h_write_then_r_read_matches_pack_half(values):
    prog = program(op("MOV", "H2", c(), literal=values, precision="H"), op("MOV", "R0", R(1)))
    result = bits(color(prog)[0])
    assert result[:2].tolist() == [pack_half2x16(*values[:2]), pack_half2x16(*values[2:])]


def test_r_precision_value_written_to_h_overflows_to_infinity_but_h_precision_clamps():
    prog = program(op("MOV", "H0", c(), mask="x", literal=(70000, 0, 0, 0)),
                   op("MOV", "H0", c(), mask="y", literal=(0, 70000, 0, 0), precision="H"),
                   op("MOV", "R2", H(0)))
    assert run(prog).mrt[0][0, :2].tolist() == [np.inf, 65504]


# --- conditional writes, set_cond and KIL ------------------------------------------------------

SET_CC_FROM_TEX0 = op("ADD", None, f("TEX0"), -c(), literal=(0.5, 0.5, 0.5, 0.5), set_cc=0)


def test_conditional_write_tests_the_cc_lane_named_by_each_destination_lane():
    # Spec 3.8: MOVR R0.zw(GE.xyxy) tests CC.x for z and CC.y for w; R0.yw(LT.xxzz) tests CC.x
    # for y and CC.z for w.
    cc = TEX0 - F32(0.5)
    prog = program(
        SET_CC_FROM_TEX0,
        op("MOV", "R0", c(), literal=(9, 9, 9, 9)),
        op("MOV", "R0", c(), mask="zw", condition=("GE", "xyxy"), literal=(1, 2, 3, 4)),
        op("MOV", "R2", c(), literal=(9, 9, 9, 9)),
        op("MOV", "R2", c(), mask="yw", condition=("LT", "xxzz"), literal=(1, 2, 3, 4)),
    )
    result = run(prog)
    np.testing.assert_array_equal(result.color[:, 2], np.where(cc[:, 0] >= 0, 3, 9))
    np.testing.assert_array_equal(result.color[:, 3], np.where(cc[:, 1] >= 0, 4, 9))
    np.testing.assert_array_equal(result.color[:, :2], np.full((16, 2), 9))
    np.testing.assert_array_equal(result.mrt[0][:, 1], np.where(cc[:, 0] < 0, 2, 9))
    np.testing.assert_array_equal(result.mrt[0][:, 3], np.full(16, 4))  # CC.z = -0.5 < 0
    np.testing.assert_array_equal(result.mrt[0][:, [0, 2]], np.full((16, 2), 9))


def test_set_cond_updates_only_the_masked_cc_lanes():
    prog = program(
        op("MOV", "R1", c(), mask="xy", literal=(-1, 1, -1, 1), set_cc=1),
        op("MOV", "R0", c(), condition=("LT", "xyzw", 1), literal=(1, 1, 1, 1)),
        op("MOV", "R2", c(), condition=("EQ", "xyzw", 1), literal=(1, 1, 1, 1)),
        op("MOV", "R3", c(), condition=("EQ", "xyzw", 0), literal=(1, 1, 1, 1)),
    )
    result = run(prog)
    assert result.color[0].tolist() == [1, 0, 0, 0]  # CC1 = (-1, 1, 0, 0)
    assert result.mrt[0][0].tolist() == [0, 0, 1, 1]
    assert result.mrt[1][0].tolist() == [1, 1, 1, 1]  # CC0 untouched


def test_set_cond_under_a_condition_updates_the_lanes_it_writes():
    prog = program(
        op("MOV", None, c(), literal=(-1, 1, 0, 0), set_cc=0),
        op("MOV", None, c(), condition=("GT", "xyzw"), literal=(5, 5, 5, 5), set_cc=0),
        op("MOV", "R0", c(), condition=("LT", "xyzw"), literal=(1, 1, 1, 1)),
    )
    assert color(prog)[0].tolist() == [1, 0, 0, 0]  # CC = (-1, 5, 0, 0)


def test_kil_discards_if_any_swizzled_lane_passes():
    set_cc = op("ADD", None, f("TEX0"), -c(), literal=(0.5, 0.5, -1, -1), set_cc=0)
    any_lane = run(program(set_cc, op("KIL", None, mask="", condition=("LT",)), op("MOV", "R0", f("COL0"))))
    expected = (TEX0[:, 0] < 0.5) | (TEX0[:, 1] < 0.5)
    np.testing.assert_array_equal(any_lane.killed, expected)
    only_y = run(program(set_cc, op("KIL", None, mask="", condition=("LT", "y")), op("MOV", "R0", f("COL0"))))
    np.testing.assert_array_equal(only_y.killed, TEX0[:, 1] < 0.5)
    image = fragment_image(only_y, WIDTH, HEIGHT)
    assert (image[:2] == KILLED_SENTINEL).all() and (image[2:] == COL0).all()


# --- modifiers and precisions --------------------------------------------------------------------

def test_saturate_flushes_nan():
    prog = program(op("MOV", "R0", c(), literal=(np.nan, -1, 2, 0.5), saturate=True))
    assert color(prog)[0].tolist() == [0, 0, 1, 0.5]


@pytest.mark.parametrize("precision, expected", [
    ("H", [65504, float(np.float16(1 / 3)), -65504, float(np.float16(0.1))]),
    ("X", [2 - 2 ** -10, float(F32(1 / 3)), -2, float(F32(0.1))]),
    ("B", [1, float(F32(1 / 3)), -1, float(F32(0.1))]),
])
def test_operation_precision(precision, expected):
    prog = program(op("MOV", "R0", c(), literal=(1e5, 1 / 3, -1e6, 0.1), precision=precision))
    assert color(prog)[0].tolist() == expected


def test_source_modifiers_apply_abs_then_clamp_then_negate():
    prog = program(op("MOV", "R0", -absolute(c(), clamp=2), literal=(-3, 3, 1.5, -0.25)))
    assert color(prog)[0].tolist() == [-(2 - 2 ** -10), -(2 - 2 ** -10), -1.5, -0.25]


@pytest.mark.parametrize("scale, factor", [(1, 2), (2, 4), (3, 8), (5, 0.5), (6, 0.25), (7, 0.125)])
def test_dst_scale(scale, factor):
    prog = program(op("MUL", "R0", f("TEX0"), c(), literal=(3, 3, 3, 3), scale=scale))
    np.testing.assert_array_equal(color(prog), TEX0 * F32(3) * F32(factor))


def test_dst_scale_applies_before_saturate():
    prog = program(op("MOV", "R0", c(), literal=(0.75, -0.25, 0.25, 0.5), scale=1, saturate=True))
    assert color(prog)[0].tolist() == [1, 0, 0.5, 1]


def test_col0_is_clamped_on_read():
    inputs = fullscreen_inputs(WIDTH, HEIGHT, {"COL0": (2, -1, 0.5, 1)})
    assert color(program(op("MOV", "R0", f("COL0"))), inputs=inputs)[0].tolist() == [1, 0, 0.5, 1]


def test_scalar_and_divide_ops_read_x_of_the_swizzled_source():
    prog = program(op("RCP", "R0", c("wzyx"), literal=(1, 2, 4, 8)),
                   op("DIV", "R2", c(), c("z"), literal=(1, 2, 4, 8)))
    result = run(prog)
    assert result.color[0].tolist() == [0.125] * 4
    assert result.mrt[0][0].tolist() == [0.25, 0.5, 1, 2]


# --- flow control --------------------------------------------------------------------------------

# Programs the tests below check by their meaning; test_rsx_fragment_compiled runs them compiled too.
FLOW_PROGRAMS = {
    # slot 0-1 MOV; 2 LOOP {10, 0, 1}; 3-4 ADD; 5-6 MADC; 7 BRK; 8-9 ADD; 10 ENDLOOP; 10-11 ADD.
    "loop with break": program(
        op("MOV", "R0", c(), literal=(0, 0, 0, 0)),
        flow("LOOP", count=10, start=0, increment=1, end_slot=10),
        op("ADD", "R0", R(0), c(), mask="x", literal=(1, 1, 1, 1)),
        op("MAD", None, f("TEX0", "x"), c(), R(0, "x"), mask="x", literal=(-8, -8, -8, -8), set_cc=0),
        flow("BRK", "GT", "x"),
        op("ADD", "R0", R(0), c(), mask="z", literal=(1, 1, 1, 1)),
        op("ADD", "R0", R(0), c(), mask="y", literal=(100, 100, 100, 100)),
    ),
    # 0-1 ADDC; 2 LOOP {3}; 3 IFE else 6 end 8; 4-5 ADD x; 6-7 ADD y; 8 ENDLOOP.
    "if else in a loop": program(
        op("ADD", None, f("TEX0", "x"), -c(), mask="x", literal=(0.5, 0, 0, 0), set_cc=0),
        flow("LOOP", count=3, start=0, increment=1, end_slot=8),
        flow("IFE", "GT", "x", else_slot=6, end_slot=8),
        op("ADD", "R0", R(0), c(), mask="x", literal=(1, 1, 1, 1)),
        op("ADD", "R0", R(0), c(), mask="y", literal=(1, 1, 1, 1)),
    ),
    # 0-1 ADDC; 2 LOOP {3} end 7; 3-4 ADD; 5 IFE else=end=7; 6 RET; 7-8 MOV y.
    "ret in a loop": program(
        op("ADD", None, f("TEX0", "x"), -c(), mask="x", literal=(0.5, 0, 0, 0), set_cc=0),
        flow("LOOP", count=3, start=0, increment=1, end_slot=7),
        op("ADD", "R0", R(0), c(), mask="x", literal=(1, 1, 1, 1)),
        flow("IFE", "GT", "x", else_slot=7, end_slot=7),
        flow("RET"),
        op("MOV", "R0", c(), mask="y", literal=(5, 5, 5, 5)),
    ),
}


def test_loop_with_per_lane_break():
    result = color(FLOW_PROGRAMS["loop with break"])
    # 8 * TEX0.x is 1, 3, 5, 7 by column; the lane breaks once R0.x exceeds it.
    iterations = np.floor(TEX0[:, 0] * 8) + 1
    np.testing.assert_array_equal(result[:, 0], iterations)
    np.testing.assert_array_equal(result[:, 1], np.full(16, 100))  # every lane rejoins
    np.testing.assert_array_equal(result[:, 2], iterations - 1)


def test_rep_runs_count_times():
    prog = program(flow("REP", count=4, start=4, increment=4, end_slot=3),
                   op("ADD", "R0", R(0), c(), literal=(0.25, 0.5, 1, 2)))
    assert color(prog)[0].tolist() == [1, 2, 4, 8]


def test_loop_with_count_zero_skips_its_body():
    prog = program(flow("LOOP", count=0, end_slot=3), op("MOV", "R0", c(), literal=(1, 1, 1, 1)),
                   op("MOV", "R2", c(), literal=(2, 2, 2, 2)))
    result = run(prog)
    assert result.color[0].tolist() == [0, 0, 0, 0] and result.mrt[0][0].tolist() == [2, 2, 2, 2]


def test_if_else_nested_in_a_loop():
    result = color(FLOW_PROGRAMS["if else in a loop"])
    right = TEX0[:, 0] > 0.5
    np.testing.assert_array_equal(result[:, 0], np.where(right, 3, 0))
    np.testing.assert_array_equal(result[:, 1], np.where(right, 0, 3))


def test_if_without_else_and_an_empty_branch():
    # 0-1 ADDC; 2 IFE else=end=5; 3-4 MOV; 5-6 ADD.  Lanes with TEX0.x < 0.5 skip the MOV.
    prog = program(
        op("ADD", None, f("TEX0", "x"), -c(), mask="x", literal=(2, 0, 0, 0), set_cc=0),
        flow("IFE", "GT", "x", else_slot=5, end_slot=5),
        op("MOV", "R0", c(), literal=(1, 1, 1, 1)),
        op("ADD", "R0", R(0), c(), literal=(1, 1, 1, 1)),
    )
    np.testing.assert_array_equal(color(prog), np.full((16, 4), 1))  # TEX0.x - 2 > 0 nowhere


def test_ret_ends_lanes_for_good_even_inside_blocks():
    result = color(FLOW_PROGRAMS["ret in a loop"])
    right = TEX0[:, 0] > 0.5
    np.testing.assert_array_equal(result[:, 0], np.where(right, 1, 3))
    np.testing.assert_array_equal(result[:, 1], np.where(right, 0, 5))


def test_indexed_input_uses_the_loop_counter_and_rep_keeps_it():
    # 0 LOOP {2, 0, 1} end 3... 1 REP {2} end 3; 2 ADD R0, R0, f[TEX(counter + 0)]; 3 end.
    prog = program(
        flow("LOOP", count=2, start=0, increment=1, end_slot=3),
        flow("REP", count=2, start=2, increment=2, end_slot=3),
        op("ADD", "R0", R(0), f("TEX0"), displacement=0),
    )
    np.testing.assert_allclose(color(prog), 2 * (TEX0 + TEX1), rtol=1e-7)


def test_budget_exhaustion_names_the_slot():
    with pytest.raises(InputError, match=r"budget of 3 .* slot \d+"):
        run(golden("fp_loop"), budget=3)


# --- derivatives and textures ---------------------------------------------------------------------

def test_ddx_ddy_of_window_position():
    prog = program(op("DDX", "R0", f("WPOS")), op("DDY", "R2", f("TEX0")))
    result = run(prog)
    np.testing.assert_array_equal(result.color, np.broadcast_to([1, 0, 0, 0], (16, 4)))
    np.testing.assert_array_equal(result.mrt[0], np.broadcast_to([0, 1 / HEIGHT, 0, 0], (16, 4)))


def test_derivatives_need_a_grid():
    with pytest.raises(InputError, match="grid"):
        run_fragment_program(program(op("DDX", "R0", f("WPOS"))), INPUTS)


def test_txp_divides_by_q_and_bx2_expands():
    texels = np.zeros((2, 2, 4), F32)
    texels[1, 0] = (1, 0.5, 0.25, 0.75)  # top-left texel: s < 0.5, t >= 0.5
    textures = {3: Texture(texels, "nearest")}
    prog = program(op("TXP", "R0", c(), literal=(0.5, 1.5, 9, 2), unit=3),
                   op("TEX", "R2", c(), literal=(0.25, 0.75, 0, 0), unit=3, expand=True))
    result = run(prog, textures=textures)
    np.testing.assert_array_equal(result.color[0], [1, 0.5, 0.25, 0.75])
    np.testing.assert_array_equal(result.mrt[0][0], [1, 0, -0.5, 0.5])


# --- bad input ----------------------------------------------------------------------------------

def raw(*words: int):
    return decode_program(list(words), ProgramKind.FRAGMENT)


@pytest.mark.parametrize("prog, message", [
    (raw(0x1E000001, 0x1C9DC801, 0x0001C800, 0x0001C800), "LIT"),  # unimplemented opcode
    (raw(0x30000001, 0, 0, 0), "unknown fragment opcode 0x30"),
    (raw(0x41000001, 0, 0x80000000, 0), "CAL"),
    (raw(0x40000001, 0, 0x80000000, 0), "BRK outside"),
    (raw(0x42400001, 0x001C0000, 0x80000000 | 0x20, 0x10), "offsets"),  # else after end
    (raw(0x01003E01, 0x1C9DC803, 0x0001C800, 0x0001C800), "invalid register type"),
    (raw(0x0101FE01, 0x1C9DC801, 0x0001C800, 0x0001C800), "input attribute index 15"),
    (raw(0x01003E01, 0x1C9DC801, 0x4001C800, 0x0001C800), "scale code 4"),
    (raw(0x01003E01, 0x1C9DC8C8, 0x0001C800, 0x0001C800), "R50 is beyond R47"),
    (raw(0x01003E01, 0x1C9DC801, 0x0029C800, 0x0001C800), "clamp code 5"),
])
def test_programs_the_machine_cannot_run(prog, message):
    with pytest.raises(InputError, match=message):
        FragmentMachine(prog).run(INPUTS)


def test_a_vertex_program_is_refused():
    with pytest.raises(InputError):
        FragmentMachine(decode_program([0, 0, 0, 1], ProgramKind.VERTEX))


@pytest.mark.parametrize("inputs, grid", [
    ({"TEX9X": np.zeros((4, 4))}, None),
    ({"TEX0": np.zeros((4, 3))}, None),
    ({"TEX0": np.zeros((4, 4))}, (3, 3)),
    ({}, None),
    ({"TEX0": np.zeros((4, 4)), "TEX1": np.zeros((5, 4))}, None),
    ({"TEX0": [["a"] * 4] * 4}, None),
])
def test_bad_inputs_raise_input_error(inputs, grid):
    with pytest.raises(InputError):
        run_fragment_program(golden("fp_mov_color"), inputs, grid=grid)


def test_fullscreen_inputs_definition():
    inputs = fullscreen_inputs(2, 3, {"SSA": (1, 1, 1, 1)})
    assert set(inputs) == set(FP_INPUTS)
    np.testing.assert_array_equal(inputs["WPOS"][:3], [[0.5, 0.5, 0.5, 1], [1.5, 0.5, 0.5, 1],
                                                       [0.5, 1.5, 0.5, 1]])
    np.testing.assert_array_equal(inputs["TEX1"][5], [1 - 1.5 / 2, F32(2.5) / F32(6), 0.25, 1])
    np.testing.assert_array_equal(inputs["SSA"][4], [1, 1, 1, 1])
    np.testing.assert_array_equal(inputs["FOGC"], np.zeros((6, 4)))
    with pytest.raises(InputError):
        fullscreen_inputs(0, 3)
    with pytest.raises(InputError):
        fullscreen_inputs(2, 2, {"COL0": (1, 2)})


def with_known_opcode(words: list[int], opcode: int) -> list[int]:
    """Steer a random slot to a real opcode so that fuzzing reaches the semantics."""
    return [words[0] & ~(0x3F << 24) | (opcode & 0x3F) << 24, words[1],
            words[2] & 0x7FFFFFFF | (opcode >> 6) << 31, words[3]]


WORD = st.integers(0, 2 ** 32 - 1)
SLOT = st.lists(WORD, min_size=4, max_size=4)
STEERED_SLOT = st.builds(with_known_opcode, SLOT, st.sampled_from(sorted(FP)))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(SLOT, STEERED_SLOT), min_size=1, max_size=6))
def test_random_programs_only_raise_input_errors(slots):
    words = [word for slot in slots for word in slot]
    try:
        prog = decode_program(words, ProgramKind.FRAGMENT)
        run_fragment_program(prog, fullscreen_inputs(2, 2), grid=(2, 2), budget=5000,
                             textures={0: Texture(np.ones((2, 2, 4), F32))})
    except InputError:
        pass
