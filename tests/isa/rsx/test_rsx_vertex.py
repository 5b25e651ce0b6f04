"""Tests for shaderkit.isa.rsx.vertex: the golden/rsx/asm vertex programs against NumPy
expectations written from their sources (constants from their #const lines), and small encoded
programs for dual issue, CC rules, address registers, branches, calls and bad input.

The assembler is written elsewhere; ``vp`` below encodes instructions from spec/rsx.md 2.2-2.6.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.binfmt import read_words
from shaderkit.core.diagnostics import InputError
from shaderkit.isa.rsx import semantics
from shaderkit.isa.rsx.container import ProgramKind, UCODE_BYTE_ORDER
from shaderkit.isa.rsx.instruction import Instruction, Program, decode_program
from shaderkit.isa.rsx.limits import CONDITION_NAMES
from shaderkit.isa.rsx.opcodes import VP_SCALAR, VP_VECTOR, by_name
from shaderkit.isa.rsx.textures import Texture
from shaderkit.isa.rsx.vertex import VertexMachine, run_vertex_program
from conftest import golden_dir

GOLDEN = golden_dir("rsx")
F32 = np.float32
VECTOR, SCALAR = by_name(VP_VECTOR), by_name(VP_SCALAR)
LANES = "xyzw"
DEFAULT_OUTPUT = np.array([0, 0, 0, 1], F32)


# --- a tiny encoder ----------------------------------------------------------------------------

def swizzle_bits(swizzle: str) -> int:
    letters = swizzle.ljust(4, swizzle[-1])
    return sum(LANES.index(letter) << (2 * (3 - n)) for n, letter in enumerate(letters))


def mask_bits(mask: str) -> int:
    return sum(1 << (3 - LANES.index(letter)) for letter in mask)


def src(file: str, index: int = 0, swizzle: str = "xyzw", negate: bool = False) -> int:
    kind = {"R": 1, "v": 2, "c": 3}[file]
    return kind | (index if file == "R" else 0) << 2 | swizzle_bits(swizzle) << 8 | negate << 16


UNUSED = src("v")


def vp(vector: str = "NOP", scalar: str = "NOP", sources=(UNUSED, UNUSED, UNUSED), *, input: int = 0,
       constant: int = 0, vector_temp: int | None = None, scalar_temp: int | None = None,
       output: int | None = None, vector_to_output: bool = False, vector_mask: str = "xyzw",
       scalar_mask: str = "xyzw", saturate: bool = False, condition: tuple | None = None,
       cc_update: bool = False, cc_register: int = 0, absolute: tuple = (), address=(0, 0),
       relative_constant: bool = False, relative_input: bool = False, target: int | None = None,
       branch_bit: tuple | None = None, end: bool = False) -> Instruction:
    sources = tuple(sources) + (UNUSED,) * (3 - len(sources))
    fields = {
        "vector_opcode": VECTOR[vector].value, "scalar_opcode": SCALAR[scalar].value,
        "source0": sources[0], "source1": sources[1], "source2": sources[2],
        "input": input, "constant": constant,
        "vector_temp": 0x3F if vector_temp is None else vector_temp,
        "scalar_temp": 0x3F if scalar_temp is None else scalar_temp,
        "output": 0x1F if output is None else output, "vector_to_output": vector_to_output,
        "vector_mask": mask_bits(vector_mask), "scalar_mask": mask_bits(scalar_mask),
        "saturate": saturate, "cc_update": cc_update, "cc_update_b": cc_update,
        "cc_register": cc_register, "cc_swizzle": 0x1B, "condition": 7,
        "address_register": address[0], "address_swizzle": address[1],
        "index_constant": relative_constant, "index_input": relative_input, "end": end,
    }
    for slot in absolute:
        fields[f"source{slot}_abs"] = 1
    if condition is not None:
        test, swizzle = condition[0], condition[1] if len(condition) > 1 else "xyzw"
        fields.update(condition_test=1, condition=CONDITION_NAMES.index(test),
                      cc_swizzle=swizzle_bits(swizzle))
    if target is not None:
        fields["source2_abs"] = target >> 9
        fields["source2"] = ((target >> 3) & 0x3F) << 11 | (target & 7) << 8
    if branch_bit is not None:
        fields["source2"] = fields.get("source2", 0) | branch_bit[0] << 2 | branch_bit[1] << 7
    return Instruction.from_fields(ProgramKind.VERTEX, {k: int(v) for k, v in fields.items()})


def program(*instructions: Instruction) -> Program:
    words = [word for instruction in instructions for word in instruction.words]
    words[-1] |= 1  # end bit (D3 bit 0) on the last instruction
    return decode_program(words, ProgramKind.VERTEX)


N = 6
RNG = np.random.default_rng(7)
ATTRIBUTES = {index: RNG.uniform(-2, 2, (N, 4)).astype(F32) for index in (0, 2, 3)}
# Exact values for the compare ops: zeros, halves, ones.
ATTRIBUTES[0][0] = (0.5, 0.5, 0.0, 1.0)
ATTRIBUTES[0][1] = (0.25, 0.75, 0.0, 2.0)
ATTRIBUTES[2][0] = (0.0, 0.0, -1.0, 3.0)
V0, V2, V3 = ATTRIBUTES[0], ATTRIBUTES[2], ATTRIBUTES[3]
NO_CONSTANTS = np.zeros((468, 4), F32)


def run(prog, attributes=ATTRIBUTES, constants=NO_CONSTANTS, **options) -> np.ndarray:
    return run_vertex_program(prog, attributes, constants, **options)


def golden(name: str) -> Program:
    words = read_words((GOLDEN / "asm" / f"{name}.vpo.bin").read_bytes(), "raw", word_bits=32,
                       byte_order=UCODE_BYTE_ORDER[ProgramKind.VERTEX])
    return decode_program(words, ProgramKind.VERTEX, name)


def golden_constants(name: str, **uniforms) -> np.ndarray:
    """c[] from the source's #const lines, plus the given uniforms (c index -> rows)."""
    table = np.zeros((468, 4), F32)
    text = (GOLDEN / "asm" / f"{name}.vp.txt").read_text()
    for match in re.finditer(r"#const c\[(\d+)\] = (.*)", text):
        table[int(match[1])] = np.array(match[2].split(), F32)
    for index, rows in uniforms.items():
        rows = np.atleast_2d(np.asarray(rows, F32))
        table[int(index[1:]):int(index[1:]) + len(rows)] = rows
    return table


# --- the golden/rsx/asm programs -----------------------------------------------------------------

def test_vp_mvp_color():
    mvp = RNG.uniform(-1, 1, (4, 4)).astype(F32)
    out = run(golden("vp_mvp_color"), constants=golden_constants("vp_mvp_color", c0=mvp))
    np.testing.assert_allclose(out[0], V0 @ mvp.T, rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(out[1], V3)
    np.testing.assert_array_equal(out[2:], np.broadcast_to(DEFAULT_OUTPUT, (14, N, 4)))


def test_vp_vec_arith():
    scale = np.array([2, -1, 0.5, 3], F32)
    constants = golden_constants("vp_vec_arith", c0=scale)
    c1 = constants[1]
    out = run(golden("vp_vec_arith"), constants=constants)
    r0 = V2 * c1[0] + (V0 * scale + c1)
    np.testing.assert_array_equal(out[0], V0)
    np.testing.assert_array_equal(out[7], r0)
    np.testing.assert_array_equal(out[8], r0 - V0)


def test_vp_dots():
    plane = np.array([0.5, -1, 2, 0.25], F32)
    out = run(golden("vp_dots"), constants=golden_constants("vp_dots", c0=plane))
    expected_r0 = np.stack([V2[:, :3] @ plane[:3], V0[:, :3] @ plane[:3] + plane[3], V0 @ plane,
                            np.zeros(N)], axis=1)
    np.testing.assert_allclose(out[7], expected_r0, rtol=1e-6, atol=1e-6)
    expected_r1 = np.stack([np.ones(N), V2[:, 1] * V3[:, 1], V2[:, 2], V3[:, 3]], axis=1)
    np.testing.assert_array_equal(out[8], expected_r1)


def test_vp_minmax_set():
    out = run(golden("vp_minmax_set"), constants=golden_constants("vp_minmax_set"))
    np.testing.assert_array_equal(out[0], np.maximum(np.minimum(V0, 0.5), -1))
    np.testing.assert_array_equal(out[7], np.stack([V0[:, 0] < 0.5, V0[:, 1] >= 0.5, V0[:, 2] == 0,
                                                    V0[:, 3] > 1], axis=1).astype(F32))
    np.testing.assert_array_equal(out[8], np.stack([V2[:, 0] <= 0, V2[:, 1] != 0, np.zeros(N),
                                                    np.ones(N)], axis=1).astype(F32))
    # The exact rows really exercise both outcomes.
    assert set(out[7][:, 2].tolist()) == {0.0, 1.0} and set(out[8][:, 0].tolist()) == {0.0, 1.0}


def test_vp_scalar_rcp_rsq():
    out = run(golden("vp_scalar_rcp_rsq"))
    with np.errstate(all="ignore"):
        expected = np.stack([1 / V0[:, 3], 1 / np.sqrt(np.abs(V2[:, 0])),
                             semantics.i_RCC(V2[np.newaxis, :, 1])[0], np.exp2(V2[:, 2])], axis=1)
        np.testing.assert_allclose(out[7], expected, rtol=1e-6)
        expected[:, 0] = np.log2(V3[:, 0])  # NaN for negative colours, like the machine
        np.testing.assert_allclose(out[8], expected, rtol=1e-6)


def test_vp_cond_codes_updates_cc_alongside_the_register_write():
    out = run(golden("vp_cond_codes"), constants=golden_constants("vp_cond_codes"))
    # SLTC R1, v2, 0 writes R1 and CC; then NE.x, EQ.y and NE.zzww conditional writes. The CC
    # swizzle is indexed by destination lane: lanes z and w of (NE.zzww) both test CC.w.
    negative = V2 < 0
    expected = np.stack([np.where(negative[:, 0], 1, 0), np.where(~negative[:, 1], 0.5, 0),
                         np.where(negative[:, 3], -1, 0), np.where(negative[:, 3], -1, 0)], axis=1)
    assert (negative[:, 2] != negative[:, 3]).any()  # the lane indexing matters for this data
    np.testing.assert_array_equal(out[7], expected)
    # MOVC CC.x, v3.w; MOV o[8](GT.x), v3: every lane of o[8] tests CC.x.
    np.testing.assert_array_equal(out[8], np.where(V3[:, 3:] > 0, V3, DEFAULT_OUTPUT))
    assert (V3[:, 3] > 0).any() and (V3[:, 3] <= 0).any()


def test_vp_write_masks():
    out = run(golden("vp_write_masks"))
    reversed_v0 = V0[:, ::-1]
    # o[7].zw = v3.xxyy: the swizzle is indexed by destination lane, so z and w both get v3.y.
    np.testing.assert_array_equal(out[7], np.stack([reversed_v0[:, 2], reversed_v0[:, 3], V3[:, 1],
                                                    V3[:, 1]], axis=1))
    np.testing.assert_array_equal(out[8], np.stack([reversed_v0[:, 1], reversed_v0[:, 1], V2[:, 2],
                                                    reversed_v0[:, 1]], axis=1))


def test_vp_branch_diverges_per_lane():
    out = run(golden("vp_branch"), constants=golden_constants("vp_branch"))
    # Lanes with normal.x <= 0 skip the MUL by c[0].z = 2.
    np.testing.assert_array_equal(out[1], np.where(V2[:, :1] <= 0, V3, V3 * 2))
    np.testing.assert_array_equal(out[0], V0)
    assert (V2[:, 0] <= 0).any() and (V2[:, 0] > 0).any()


# --- dual issue and write rules -----------------------------------------------------------------

def test_vector_and_scalar_ops_read_before_either_writes():
    # R0 = v0, R1 = v3; then one instruction: MOV R1, R0 (vector) and MOV R0.x, R1.y (scalar).
    prog = program(
        vp("MOV", sources=[src("v")], input=0, vector_temp=0),
        vp("MOV", sources=[src("v")], input=3, vector_temp=1),
        vp("MOV", "MOV", [src("R", 0), UNUSED, src("R", 1, "y")], vector_temp=1, scalar_temp=0,
           scalar_mask="x"),
        vp("MOV", sources=[src("R", 0)], output=7, vector_to_output=True),
        vp("MOV", sources=[src("R", 1)], output=8, vector_to_output=True),
    )
    out = run(prog)
    np.testing.assert_array_equal(out[7], np.concatenate([V3[:, 1:2], V0[:, 1:]], axis=1))
    np.testing.assert_array_equal(out[8], V0)


def test_one_instruction_tests_the_cc_once_before_either_op_writes():
    # CC.w = 0 passes EQ; the vector op sets CC.w to 1 on the way, the scalar write still happens.
    ones = {0: np.ones((N, 4), F32)}
    prog = program(vp("MOV", "MOV", [src("v"), UNUSED, src("v", swizzle="w")], input=0, vector_temp=0,
                      vector_mask="w", scalar_mask="w", output=7, condition=("EQ", "w"),
                      cc_update=True))
    np.testing.assert_array_equal(run(prog, ones)[7][:, 3], np.ones(N))


def test_vector_result_goes_to_temp_and_output_and_scalar_to_the_other_output():
    prog = program(
        vp("MOV", "RCP", [src("v"), UNUSED, src("v", swizzle="w")], input=3, vector_temp=2,
           output=7, vector_to_output=True, scalar_temp=None),
        vp("MOV", "EX2", [src("R", 2, "zyxw"), UNUSED, src("v", swizzle="x")], input=3, output=8,
           scalar_mask="yz"),
        vp("MOV", sources=[src("R", 2)], output=9, vector_to_output=True),
    )
    out = run(prog)
    np.testing.assert_array_equal(out[7], V3)  # the scalar RCP had nowhere to go (D0[30] set)
    np.testing.assert_array_equal(out[9], V3)
    # Vector MOV writes no temp and no output; the scalar EX2 writes o[8].yz.
    expected = np.broadcast_to(DEFAULT_OUTPUT, (N, 4)).copy()
    expected[:, 1] = expected[:, 2] = np.exp2(V3[:, 0].astype(np.float64)).astype(F32)  # nearest float32
    np.testing.assert_array_equal(out[8], expected)


def test_saturate_abs_and_negate():
    prog = program(vp("MOV", sources=[src("c", negate=True)], absolute=(0,), saturate=True,
                      vector_temp=0, output=7, vector_to_output=True))
    constants = NO_CONSTANTS.copy()
    constants[0] = (-0.5, 2, np.nan, 0)
    out = run(prog, constants=constants)
    np.testing.assert_array_equal(out[7], np.zeros((N, 4)))  # -|x| <= 0, NaN -> 0


def test_cc_update_with_only_a_scalar_op_and_conditional_write_with_cc1():
    prog = program(
        # No destination, C bit: CC1.xz = v2.x (the scalar mask), CC1.yw stay 0.
        vp("NOP", "MOV", [UNUSED, UNUSED, src("v", swizzle="x")], input=2, cc_update=True,
           cc_register=1, scalar_mask="xz"),
        vp("MOV", sources=[src("v")], input=3, output=7, vector_to_output=True,
           condition=("GT", "xyzw"), cc_register=1),
        vp("MOV", sources=[src("v")], input=3, output=8, vector_to_output=True,
           condition=("FL",)),
    )
    out = run(prog)
    positive = V2[:, 0] > 0
    expected = np.broadcast_to(DEFAULT_OUTPUT, (N, 4)).copy()
    expected[positive, 0] = V3[positive, 0]
    expected[positive, 2] = V3[positive, 2]
    np.testing.assert_array_equal(out[7], expected)
    np.testing.assert_array_equal(out[8], np.broadcast_to(DEFAULT_OUTPUT, (N, 4)))
    assert positive.any() and not positive.all()


# --- address registers and relative addressing ---------------------------------------------------

def test_arl_floors_and_relative_constants_and_inputs_follow_it():
    constants = np.arange(468 * 4, dtype=F32).reshape(468, 4)
    attributes = {0: np.array([[1.5, 0.2, 0, 0], [-1.5, 2.9, 0, 0], [400, -7, 0, 0]], F32),
                  3: np.full((3, 4), 3, F32), 5: np.full((3, 4), 5, F32)}
    prog = program(
        vp("ARL", sources=[src("v")], input=0, vector_temp=0, vector_mask="xy"),
        vp("MOV", sources=[src("c")], constant=2, relative_constant=True, address=(0, 0),
           output=7, vector_to_output=True),
        vp("MOV", sources=[src("v")], input=3, relative_input=True, address=(0, 1), output=8,
           vector_to_output=True),
    )
    out = run(prog, attributes, constants)
    # A0.x = floor(1.5, -1.5, 400) = 1, -2, 400 -> c[3], c[0], c[402]
    np.testing.assert_array_equal(out[7], constants[[3, 0, 402]])
    # A0.y = 0, 2, -7 -> v[3], v[5], v[-4] (outside: 0)
    np.testing.assert_array_equal(out[8], [[3] * 4, [5] * 4, [0] * 4])


def test_relative_constant_outside_the_file_reads_zero():
    constants = np.ones((468, 4), F32)
    attributes = {0: np.array([[500, 0, 0, 0], [-3, 0, 0, 0]], F32)}
    prog = program(vp("ARL", sources=[src("v")], input=0, vector_temp=1, vector_mask="x"),
                   vp("MOV", sources=[src("c")], constant=0, relative_constant=True,
                      address=(1, 0), output=7, vector_to_output=True))
    np.testing.assert_array_equal(run(prog, attributes, constants)[7], np.zeros((2, 4)))


# --- branches and calls --------------------------------------------------------------------------

def test_backward_branch_loops_a_different_number_of_times_per_lane():
    attributes = {0: np.array([[1, 0, 0, 0], [3, 0, 0, 0], [2, 0, 0, 0]], F32)}
    constants = NO_CONSTANTS.copy()
    constants[0] = (1, 1, 1, 1)
    prog = program(
        vp("MOV", sources=[src("v")], input=0, vector_temp=0),                       # 0
        vp("ADD", sources=[src("R", 1), UNUSED, src("c")], vector_temp=1),           # 1 loop:
        vp("ADD", sources=[src("R", 0), UNUSED, src("c", negate=True)], vector_temp=0,
           vector_mask="x", cc_update=True),                                         # 2
        vp("NOP", "BRI", condition=("GT", "x"), target=1),                           # 3
        vp("MOV", sources=[src("R", 1)], output=7, vector_to_output=True),           # 4
    )
    np.testing.assert_array_equal(run(prog, attributes, constants)[7][:, 0], [1, 3, 2])


def test_conditional_call_and_return():
    constants = NO_CONSTANTS.copy()
    constants[0] = (7, 7, 7, 7)
    prog = program(
        vp("MOV", sources=[src("v", swizzle="x")], input=2, cc_update=True, vector_mask="x"),  # 0
        vp("NOP", "CLI", condition=("GT", "x"), target=4),                                  # 1
        vp("MOV", sources=[src("R", 0)], output=7, vector_to_output=True),                  # 2
        vp("NOP", "RET"),                                                                   # 3
        vp("MOV", sources=[src("c")], vector_temp=0),                                       # 4 sub:
        vp("NOP", "RET"),                                                                   # 5
    )
    out = run(prog, constants=constants)
    np.testing.assert_array_equal(out[7], np.where(V2[:, :1] > 0, 7, 0).repeat(4, axis=1))


def test_ret_in_the_main_program_ends_the_lane():
    prog = program(
        vp("MOV", sources=[src("v", swizzle="x")], input=2, cc_update=True, vector_mask="x"),
        vp("NOP", "RET", condition=("LE", "x")),
        vp("MOV", sources=[src("v")], input=3, output=7, vector_to_output=True),
    )
    np.testing.assert_array_equal(run(prog)[7], np.where(V2[:, :1] > 0, V3, DEFAULT_OUTPUT))


@pytest.mark.parametrize("bits, taken", [(0b1000, True), (0b0111, False)])
def test_brb_tests_a_branch_bit(bits, taken):
    prog = program(
        vp("NOP", "BRB", target=2, branch_bit=(3, 1)),
        vp("MOV", sources=[src("v")], input=3, output=7, vector_to_output=True),
        vp("MOV", sources=[src("v")], input=0, output=8, vector_to_output=True),
    )
    out = run(prog, branch_bits=bits)
    np.testing.assert_array_equal(out[7], np.broadcast_to(DEFAULT_OUTPUT, (N, 4)) if taken else V3)
    np.testing.assert_array_equal(out[8], V0)


def test_endless_loop_exhausts_the_budget_naming_the_slot():
    prog = program(vp("MOV", sources=[src("v")], input=0, vector_temp=0),
                   vp("NOP", "BRI", target=1))
    with pytest.raises(InputError, match="budget of 50 lane-instructions ran out at slot 1"):
        run(prog, budget=50)


def test_calls_nested_too_deep_raise_input_error():
    prog = program(vp("NOP", "CLI", target=0))
    with pytest.raises(InputError, match="deeper"):
        run(prog)


def test_branch_through_the_address_register():
    attributes = {0: np.array([[1, 0, 0, 0], [0, 0, 0, 0]], F32)}
    prog = program(
        vp("ARL", sources=[src("v")], input=0, vector_temp=0, vector_mask="x"),      # 0
        vp("NOP", "BRA", target=2, address=(0, 0)),                                 # 1: to 2 + A0.x
        vp("MOV", sources=[src("v")], input=0, output=7, vector_to_output=True),    # 2
        vp("MOV", sources=[src("v")], input=0, output=8, vector_to_output=True),    # 3
    )
    out = run(prog, attributes)
    np.testing.assert_array_equal(out[7][:, 0], [0, 0])
    np.testing.assert_array_equal(out[7][:, 3], [1, 0])  # lane 0 skipped slot 2
    np.testing.assert_array_equal(out[8], attributes[0])


# --- scalar-unit vectors and textures --------------------------------------------------------------

def test_exp_log_lit_write_their_components_under_the_scalar_mask():
    constants = NO_CONSTANTS.copy()
    constants[0] = (2.5, -12, 0.25, 3)  # LIT reads (x, y, -, w) = (0.5, 0.25, -, 3) below
    constants[1] = (0.5, 0.25, 0, 3)
    prog = program(
        vp("NOP", "EXP", [UNUSED, UNUSED, src("c", swizzle="x")], constant=0, output=7,
           scalar_mask="xyzw"),
        vp("NOP", "LOG", [UNUSED, UNUSED, src("c", swizzle="y")], constant=0, output=8,
           scalar_mask="xyw"),
        vp("NOP", "LIT", [UNUSED, UNUSED, src("c")], constant=1, output=9, scalar_mask="xyzw"),
    )
    out = run(prog, constants=constants)
    np.testing.assert_array_equal(out[7][0], [4, 0.5, np.exp2(F32(2.5)), 1])
    np.testing.assert_array_equal(out[8][0], [3, 1.5, 0, 1])
    np.testing.assert_array_equal(out[9][0], [1, 0.5, 0.25 ** 3, 1])


def test_txl_samples_the_unit_named_by_d2_bits_8_9():
    texels = np.zeros((1, 2, 4), F32)
    texels[0, 1] = (1, 2, 3, 4)
    attributes = {8: np.array([[0.75, 0.5, 0, 0], [0.25, 0.5, 0, 0]], F32)}
    prog = program(vp("TXL", sources=[src("v"), src("R", 1)], input=8, output=7,
                      vector_to_output=True))
    out = run(prog, attributes, textures={1: Texture(texels, "nearest")})
    np.testing.assert_array_equal(out[7], [[1, 2, 3, 4], [0, 0, 0, 0]])
    np.testing.assert_array_equal(run(prog, attributes)[7], [[0, 0, 0, 1]] * 2)  # unbound unit


# --- bad input -----------------------------------------------------------------------------------

def test_a_fragment_program_is_refused():
    with pytest.raises(InputError):
        VertexMachine(decode_program([0x01003E01, 0x1C9DC801, 0x0001C800, 0x0001C800],
                                     ProgramKind.FRAGMENT))


@pytest.mark.parametrize("instruction, message", [
    (vp("MOV", sources=[0], vector_temp=0), "invalid register type"),
    (vp("MOV", sources=[src("R", 40)], vector_temp=0), "R40"),
    (vp("MOV", sources=[src("c")], constant=600, vector_temp=0), "c\\[600\\]"),
    (vp("MOV", sources=[src("v")], vector_temp=40), "R40"),
    (vp("NOP", "PSH"), "PSH"),
    (vp("NOP", "BRI", target=9), "beyond the program"),
    (Instruction.from_fields(ProgramKind.VERTEX, {"vector_opcode": 0x17, "end": 1}), "0x17"),
])
def test_programs_the_machine_cannot_run(instruction, message):
    with pytest.raises(InputError, match=message):
        run(program(instruction))


@pytest.mark.parametrize("attributes, constants", [
    ({}, NO_CONSTANTS),
    ({16: V0}, NO_CONSTANTS),
    ({0: V0, 2: V2[:3]}, NO_CONSTANTS),
    ({0: V0[:, :3]}, NO_CONSTANTS),
    ({0: [["x"] * 4]}, NO_CONSTANTS),
    ({0: V0}, np.zeros((469, 4))),
    ({0: V0}, np.zeros(4)),
])
def test_bad_run_arguments_raise_input_error(attributes, constants):
    with pytest.raises(InputError):
        run(golden("vp_mvp_color"), attributes, constants)


def test_fewer_constants_are_padded_with_zeros():
    out = run(golden("vp_mvp_color"), constants=np.eye(4, dtype=F32))
    np.testing.assert_array_equal(out[0], V0)


def with_known_opcodes(words: list[int], vector: int, scalar: int) -> list[int]:
    """Steer a random slot to real opcodes so that fuzzing reaches the semantics."""
    return [words[0], words[1] & ~(0x3FF << 22) | vector << 22 | scalar << 27, words[2], words[3]]


WORD = st.integers(0, 2 ** 32 - 1)
SLOT = st.lists(WORD, min_size=4, max_size=4)
STEERED_SLOT = st.builds(with_known_opcodes, SLOT, st.sampled_from(sorted(VP_VECTOR)),
                         st.sampled_from(sorted(VP_SCALAR)))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(SLOT, STEERED_SLOT), min_size=1, max_size=6))
def test_random_programs_only_raise_input_errors(slots):
    words = [word for slot in slots for word in slot]
    try:
        run(decode_program(words, ProgramKind.VERTEX), budget=2000,
            textures={unit: Texture(np.ones((1, 1, 4), F32)) for unit in range(4)})
    except InputError:
        pass
