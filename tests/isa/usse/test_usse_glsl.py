"""The USSE decompiler (shaderkit.isa.usse.glsl) against the emulator, on Mesa's llvmpipe.

* glslangValidator (the Khronos reference compiler) accepts the GLSL of the nine golden suite
  programs and of every hand-made program here; a missing validator is a failure, not a skip.
* Each of the nine suites (tests/golden/usse/vectors/) run on llvmpipe over all its cases gives
  the emulator's o registers bit for bit (the dsy suite: both stop with the same "not modelled"
  error), and for the seven suites the emulator passes, the GLSL results pass the golden ±3
  comparison too.
* Hand-made programs for what the suites lack (every VBW operation, VMOVC/VMOVCU8, integer
  moves, VPCK formats, VTST/VTSTMSK operations, branches, per-lane loops, link and return,
  repeats, SMLSI, the end flag, the secondary program) agree with the emulator on random inputs
  (random bit patterns: NaN, infinities and denormals included) bit for bit, a NaN against a NaN
  counting as agreement (:func:`agree`) — except log2/exp2, which agree within
  :data:`TRANSCENDENTAL_ULPS` (the module docstring of glsl.py says why).
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from test_usse_semantics import END, NOP, br, limm, load_i, nmad, vmad2, vmov, vpck, vtstmsk, word
from usse_vectors import SUITES, TOLERANCE, corner_values, hex_array, load, to_unorm8, words

from shaderkit.core.diagnostics import InputError
from shaderkit.isa.usse.gl import run_glsl
from shaderkit.isa.usse.glsl import decompile
from shaderkit.isa.usse.machine import UsseMachine

TRANSCENDENTAL_ULPS = 2  # NumPy's float32 log2/exp2 are off by up to 1-2 ULP; the GLSL's are rounded once from double
UNKNOWN = ("vtstmsk_dsy_mask0", "vtstmsk_gt_mask0_reg")  # test_usse_vectors' xfail suites
LANES = 512
PA_COUNT, SA_COUNT = 36, 42
RET = (0x1F << 59) | (2 << 38)  # SPEC category 0, w1[8:6] = 2: a return through the link register


def validate(text: str, tmp_path) -> None:
    validator = shutil.which("glslangValidator")
    if validator is None:
        pytest.fail("glslangValidator is not installed (Debian/Ubuntu: apt install glslang-tools)")
    path = tmp_path / "shader.vert"
    path.write_text(text)
    run = subprocess.run([validator, str(path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, f"{run.stdout}{run.stderr}\n{text}"


# -- the golden suites ------------------------------------------------------------------------------
def suite_inputs(suite: str):
    data = load(suite)
    program, cases = data["program"], data["cases"]
    lanes = 4 * len(cases)
    pa = np.zeros((program["pa_count"], lanes), np.uint32)
    sa = np.zeros((program["sa_count"], lanes), np.uint32)
    for i, case in enumerate(cases):
        for vertex in range(4):
            pa[:, 4 * i + vertex] = hex_array(case["pa"][vertex])
            sa[:32, 4 * i + vertex] = hex_array(case["sa_uniforms"])
    for literal in program["literals"]:
        if literal["sa"] is not None:
            sa[literal["sa"]] = int(literal["value"], 16)
    return words(program["primary_words"]), words(program["secondary_words"]), pa, sa


def suite_source(suite: str, **kw) -> str:
    program = load(suite)["program"]
    primary, secondary = words(program["primary_words"]), words(program["secondary_words"])
    return decompile(primary, secondary, pa_count=program["pa_count"], sa_count=program["sa_count"], **kw)


def emulate(primary, secondary, pa, sa, **kw) -> np.ndarray:
    machine = UsseMachine(primary, secondary, lanes=pa.shape[1], **kw)
    machine.set_bank("pa", 0, pa)
    machine.set_bank("sa", 0, sa)
    machine.run()
    return machine.bank("o")


def golden_errors(suite: str, outputs: np.ndarray) -> np.ndarray:
    """(cases, 4 corners, 12) |got - expected| in 8-bit units for o4..o15 (unchecked ones 0)."""
    data = load(suite)
    program, cases = data["program"], data["cases"]
    values = outputs[4:16].view(np.float32)
    checked = np.array([f"o{4 + j}" in program["checked_outputs"] for j in range(12)])
    errors = []
    for i, case in enumerate(cases):
        got = to_unorm8(corner_values(values[:, 4 * i: 4 * i + 4].T))
        errors.append(np.where(checked, np.abs(got - np.array(case["expected_o4_o15"], np.int64)), 0))
    return np.array(errors)


@pytest.mark.parametrize("suite", SUITES)
def test_suite_program_validates(suite, tmp_path):
    validate(suite_source(suite, unmodelled="trap"), tmp_path)


@pytest.mark.parametrize("suite", [suite for suite in SUITES if suite != "vtstmsk_dsy_mask0"])
def test_suite_on_llvmpipe_is_the_emulator_bit_for_bit(suite):
    primary, secondary, pa, sa = suite_inputs(suite)
    expected = emulate(primary, secondary, pa, sa)
    got = run_glsl(suite_source(suite), pa, sa)
    assert got.shape == expected.shape
    differ = np.argwhere(got != expected)
    assert differ.size == 0, [(int(r), int(lane), hex(expected[r, lane]), hex(got[r, lane])) for r, lane in differ[:8]]


def test_dsy_suite_stops_with_the_emulators_error_on_both():
    primary, secondary, pa, sa = suite_inputs("vtstmsk_dsy_mask0")
    with pytest.raises(InputError) as emulator_error:
        emulate(primary, secondary, pa, sa)
    with pytest.raises(InputError) as decompile_error:  # reachable: decompile refuses it by default
        suite_source("vtstmsk_dsy_mask0")
    with pytest.raises(InputError) as gl_error:  # or traps when a vertex reaches it
        run_glsl(suite_source("vtstmsk_dsy_mask0", unmodelled="trap"), pa, sa)
    message = str(emulator_error.value)
    assert message.startswith("not modelled: VTSTMSK 78C08A82A053040A at instruction 3 (float test operation 12")
    assert str(decompile_error.value) == message == str(gl_error.value)


@pytest.mark.parametrize("suite", [suite for suite in SUITES if suite not in UNKNOWN])
def test_suite_on_llvmpipe_matches_the_hardware(suite):
    primary, secondary, pa, sa = suite_inputs(suite)
    errors = golden_errors(suite, run_glsl(suite_source(suite), pa, sa))
    assert errors.shape[0] == len(load(suite)["cases"])
    assert errors.max() <= TOLERANCE, f"worst case {int(errors.max())} (8-bit units)"


# -- hand-made programs -----------------------------------------------------------------------------
def vtst(**fields):
    return word("VTST", **fields)


def vbw(op1, op2, **fields):
    return word("VBW", op1=op1, op2=op2, **fields)


def vcomp(op2, **fields):
    return word("VCOMP", op2=op2, **fields)


def half_source(op2, **fields):
    return nmad(op2, "V16NMAD", **fields)


PER_LANE_LOOP = [  # r0 = (r0 << 1) | 1 until r0 == pa20 (per lane); lanes with pa21 odd end early
    limm(0, dest_num=0), limm(1, dest_num=1),
    vbw(4, 0, dest_bank=0, dest_n=0, src1_bank=0, src1_n=0, src2_bank=0, src2_n=1),
    vbw(2, 1, dest_bank=0, dest_n=0, src1_bank=0, src1_n=0, src2_bank=0, src2_n=1),
    vtst(alu_sel=1, alu_op=15, zero_test=0, sign_test=0, src1_bank=0, src1_n=0, src2_bank=2, src2_n=20, pdst_n=0),
    br(-3, pred=1),
    vbw(2, 1, dest_bank=1, dest_n=0, src1_bank=0, src1_n=0, src2_bank=0, src2_n=0),
    limm(1, dest_num=3),
    vbw(2, 0, dest_bank=0, dest_n=2, src1_bank=2, src1_n=21, src2_bank=0, src2_n=3),
    vtst(alu_sel=1, alu_op=15, zero_test=0, sign_test=0, src1_bank=0, src1_n=2, src2_bank=2, src2_ext=1, src2_n=0,
         pdst_n=1),
    br(2, pred=2),
    END,
    limm(0x77, dest_bank=1, dest_num=1),
]

# name -> (primary words, secondary words); the closing word is added to the primary program.
PROGRAMS = {
    "vmad2_f32": [vmad2(dest_bank=1, dest_n=0, src0_bank=1, src0_n=0, src1_bank=2, src1_n=1, src2_bank=2, src2_n=2,
                        dest_mask=0b1111)],
    "vmad2_f16_modifiers": [vmad2(dat_fmt=1, dest_bank=1, dest_n=1, src0_bank=1, src0_n=3, src0_abs=1, src1_bank=2,
                                  src1_n=4, src1_mod=3, src2_bank=2, src2_n=5, src2_mod=1, dest_mask=0b0101)],
    "vmad2_internal": [vmad2(dest_bank=0, dest_n=62, src0_bank=1, src1_bank=2, src1_n=1, src2_bank=2, src2_n=2,
                             dest_mask=0b1011),
                       vmad2(dest_bank=1, dest_n=2, src0_bank=0, src0_n=62, src1_bank=0, src1_n=62, src2_bank=2,
                             src2_n=3, dest_mask=0b1111, src0_swiz_bits2=0, src0_swiz_bits01=3)],
    **{f"v32nmad_op{op2}": [nmad(op2), nmad(op2, dest_n=2, src1_n=4, src2_n=6, src2_mod=1, src1_mod=2)]
       for op2 in (0, 1, 2, 5, 6, 7)},
    **{f"v16nmad_op{op2}": [half_source(op2), half_source(op2, dest_n=2, src1_n=4, src2_n=6, src1_mod=1)]
       for op2 in (0, 1, 2, 5, 6, 7)},
    "vmad_vdp": [load_i(0, 0), load_i(1, 2),
                 word("VMAD", opcode2=1, dest_bank=1, dest_n=0, src1_bank=2, src1_n=4, gpi0_n=0, gpi1_n=1,
                      gpi0_swiz=4, src1_swiz=4, gpi1_swiz=4, write_mask=0b1111, gpi0_neg=1, src1_abs=1),
                 word("VMAD", opcode2=0, dest_bank=1, dest_n=2, src1_bank=2, src1_n=0, gpi0_n=0, gpi1_n=1,
                      gpi0_swiz=0, src1_swiz=4, gpi1_swiz=6, gpi1_swiz_ext=1, write_mask=0b1111),
                 word("VDP", opcode2=0, dest_bank=1, dest_n=4, src1_bank=0, src1_n=61, gpi0_n=0, gpi0_swiz=4,
                      src1_swiz_x=0, src1_swiz_y=1, src1_swiz_z=2, src1_swiz_w=3, write_mask=0b0001),
                 word("VDP", opcode2=1, dest_bank=1, dest_n=5, src1_bank=2, src1_n=3, gpi0_n=1, gpi0_swiz=4,
                      src1_swiz_x=3, src1_swiz_y=5, src1_swiz_z=7, src1_swiz_w=0, write_mask=0b0010, src1_neg=1)],
    "vmad_vdp_repeats": [load_i(0, 0), load_i(1, 2),
                         word("VMAD", opcode2=1, dest_bank=1, dest_n=0, src1_bank=2, src1_n=0, gpi0_swiz=4,
                              src1_swiz=4, gpi1_swiz=4, write_mask=0b0011, repeat_mode=0, repeat_count=1),
                         word("VMAD", opcode2=1, dest_bank=1, dest_n=8, src1_bank=2, src1_n=1, gpi0_swiz=4,
                              src1_swiz=4, gpi1_swiz=4, gpi1_n=2, write_mask=0b0101, repeat_mode=2, repeat_count=1),
                         word("VDP", opcode2=1, dest_bank=1, dest_n=6, src1_bank=2, src1_n=2, gpi0_n=0, gpi0_swiz=4,
                              src1_swiz_x=0, src1_swiz_y=1, src1_swiz_z=2, src1_swiz_w=3, write_mask=0b0001,
                              repeat_mode=3, repeat_count=2)],
    "vcomp_rcp_rsq": [vcomp(0, dest_bank=1, dest_n=0, src1_bank=2, src1_n=0, src_comp=1, write_mask=0b0101),
                      vcomp(1, dest_bank=1, dest_n=2, src1_bank=2, src1_n=1, src_comp=0, write_mask=0b0011,
                            src1_mod=2),
                      vcomp(0, dest_bank=1, dest_n=4, src1_bank=2, src1_n=2, src_comp=2, src_type=1, dest_type=1,
                            write_mask=0b1111),
                      vcomp(1, dest_bank=1, dest_n=6, src1_bank=2, src1_n=3, src_comp=3, src_type=1,
                            write_mask=0b0011, src1_mod=1)],
    "vcomp_repeat_and_smlsi": [
        vcomp(0, dest_bank=1, dest_n=0, src1_bank=2, src1_n=0, write_mask=1, repeat_count=2),
        word("SMLSI", dest_inc=2, src1_inc=3),
        vcomp(1, dest_bank=1, dest_n=6, src1_bank=2, src1_n=0, write_mask=1, repeat_count=1),
        word("SMLSI", dest_inc_mode=1, src1_inc_mode=1, dest_inc=0b1100, src1_inc=0b1100),
        vcomp(0, dest_bank=1, dest_n=12, src1_bank=2, src1_n=0, write_mask=1, repeat_count=1)],
    "vmov_float_and_repeat": [vmov(src1_bank_sel=2, src1_n=0, src0_swiz=3),
                              vmov(src1_bank_sel=2, src1_n=1, src0_swiz=4, dest_n=2, dest_mask=0b0001,
                                   repeat_count=1),
                              vmov(move_data_type=4, src1_bank_sel=2, src1_n=4, src0_swiz=8, dest_n=4,
                                   dest_mask=0b0101)],
    **{f"vmovc_test{test}": [vmov(move_type=1, test_bit_2=test >> 1, test_bit_1=test & 1, src0_bank_sel=1,
                                  src0_n=0, src1_bank_sel=2, src1_n=1, src2_bank_sel=2, src2_n=2, dest_mask=0b0011),
                             vmov(move_type=1, move_data_type=4, test_bit_2=test >> 1, test_bit_1=test & 1,
                                  src0_bank_sel=1, src0_n=4, src0_comp_sel=1, src0_swiz=10, src1_bank_sel=2,
                                  src1_n=5, src2_bank_sel=2, src2_n=6, dest_n=2, dest_mask=0b0101)]
       for test in range(4)},
    "vmovcu8_and_integer_moves": [
        vmov(move_type=2, test_bit_1=1, src0_bank_sel=1, src0_n=0, src1_bank_sel=2, src1_n=1, src2_bank_sel=2,
             src2_n=2),
        vmov(move_type=2, test_bit_2=1, src0_bank_sel=1, src0_n=0, src0_comp_sel=1, src0_swiz=10,
             src1_bank_sel=2, src1_n=3, src2_bank_sel=2, src2_n=4, dest_n=2, dest_mask=0b0011),
        vmov(move_data_type=2, src1_bank_sel=2, src1_n=1, dest_n=5),
        vmov(move_type=1, move_data_type=0, test_bit_2=1, src0_bank_sel=1, src0_n=2, src1_bank_sel=2, src1_n=3,
             src2_bank_sel=2, src2_n=4, dest_n=6),
        vmov(move_type=1, move_data_type=1, test_bit_2=1, test_bit_1=1, src0_bank_sel=1, src0_n=3,
             src1_bank_sel=2, src1_n=5, src2_bank_sel=2, src2_n=6, dest_n=7)],
    "vpck_formats": [
        vpck(src_fmt=6, dest_fmt=5, dest_bank_sel=0, dest_n=8, src1_n=0, src2_n=1, dest_mask=0b1111),
        vpck(src_fmt=5, dest_fmt=6, dest_n=0, src1_n=4, dest_bank_sel=1, src1_bank_sel=0, dest_mask=0b0011),
        vpck(src_fmt=6, dest_fmt=6, dest_n=2, src1_n=0, src2_n=2, dest_mask=0b1111),
        vpck(src_fmt=0, dest_fmt=6, scale=1, dest_n=6, src1_n=5, src2_n=0, dest_mask=0b1111),
        vpck(src_fmt=6, dest_fmt=0, scale=1, dest_n=10, src1_n=1, src2_n=1, dest_mask=0b1111),
        vpck(src_fmt=6, dest_fmt=4, dest_n=11, src1_n=2, src2_n=2, dest_mask=0b0011),
        vpck(src_fmt=1, dest_fmt=5, scale=1, dest_n=12, src1_n=6, dest_mask=0b1111),
        vpck(src_fmt=2, dest_fmt=6, dest_n=14, src1_n=7, dest_mask=0b0111),
        vpck(src_fmt=6, dest_fmt=3, scale=1, dest_n=18, src1_n=3, src2_n=3, dest_mask=0b0011),
        vpck(src_fmt=3, dest_fmt=6, dest_n=19, src1_n=8, dest_mask=0b0011),
        vpck(src_fmt=4, dest_fmt=2, scale=1, dest_n=21, src1_n=8, dest_mask=0b0011),
        vpck(src_fmt=5, dest_fmt=1, dest_n=22, src1_n=9, src2_n=1, dest_mask=0b1111, pred=1)],
    "vbw_all_operations": [
        *[vbw(op1, op2, dest_bank=1, dest_n=k, src1_bank=2, src1_n=2 * k, src2_bank=2, src2_n=2 * k + 1)
          for k, (op1, op2) in enumerate([(2, 0), (2, 1), (3, 0), (4, 0), (4, 1), (5, 0), (5, 1)])],
        *[vbw(op1, op2, dest_bank=1, dest_n=7 + k, src1_bank=2, src1_n=2 * k + 1, src2_bank=2, src2_n=2 * k,
              bitwise_partial=1, src2_rot=5, src2_invert=k & 1)
          for k, (op1, op2) in enumerate([(2, 0), (2, 1), (3, 1), (4, 0), (4, 1), (5, 0), (5, 1)])],
        vbw(2, 0, dest_bank=1, dest_n=14, src1_bank=2, src1_n=3, src2_bank=2, src2_ext=1, src2_n=1, src2_sel=1,
            src2_rot=8, src2_invert=1),
        vbw(3, 0, dest_bank=1, dest_n=15, src1_bank=2, src1_n=4, src2_bank=2, src2_n=5, src2_rot=13)],
    "vbw_repeat_and_predicates": [
        vtst(alu_sel=0, prec=1, alu_op=2, sign_test=2, src1_bank=2, src1_n=0, src2_bank=2, src2_ext=1, src2_n=0,
             pdst_n=2),
        vbw(2, 1, dest_bank=1, dest_n=0, src1_bank=2, src1_n=2, src2_bank=2, src2_n=8, repeat_sel=1, repeat_count=3),
        vbw(3, 0, dest_bank=1, dest_n=4, src1_bank=2, src1_n=12, src2_bank=2, src2_n=13, pred=3),
        vbw(4, 0, dest_bank=1, dest_n=5, src1_bank=2, src1_n=12, src2_bank=2, src2_n=13, pred=6),
        limm(0xDEADBEEF, dest_bank=1, dest_num=6, pred=3)],
    "vtst_operations": [
        instruction
        for k, (sel, op, prec) in enumerate([(0, 2, 1), (0, 3, 1), (0, 4, 1), (0, 5, 0), (0, 8, 1), (0, 9, 1),
                                             (0, 10, 0), (0, 13, 1), (0, 14, 1), (0, 14, 0), (1, 6, 0), (1, 10, 0),
                                             (1, 12, 0), (1, 15, 0), (2, 2, 0), (2, 4, 0), (3, 1, 0), (3, 7, 0)])
        for instruction in (
            vtst(alu_sel=sel, prec=prec, alu_op=op, zero_test=k & 1, sign_test=(k >> 1) % 3, src1_bank=2,
                 src1_n=k, src2_bank=2, src2_n=k + 1, pdst_n=k % 4, chan_cc=(k * 3) % 4, src1_neg=(k >> 2) & 1,
                 src2_vscomp=(k >> 3) & 1),
            limm(k + 1, dest_bank=1, dest_num=k, pred=1 + k % 4))],
    "vtstmsk_operations": [
        vtstmsk(alu_op=14, sign_test=2, tst_mask_type=2, dest_bank=1, dest_n=0, src1_n=0, src2_n=2),
        vtstmsk(alu_op=14, sign_test=1, zero_test=1, tst_mask_type=0, dest_bank=1, dest_n=4, src1_n=1, src2_n=3),
        vtstmsk(alu_op=2, sign_test=0, tst_mask_type=1, dest_bank=1, dest_n=5, src1_n=2, src2_n=4, test_flag_2=1),
        vtstmsk(alu_op=8, sign_test=2, tst_mask_type=2, dest_bank=1, dest_n=6, src1_n=3, src2_n=5, prec=0),
        vtstmsk(alu_sel=1, alu_op=14, sign_test=1, tst_mask_type=0, dest_bank=1, dest_n=10, src1_n=8, src2_n=9),
        vtstmsk(alu_sel=1, alu_op=8, sign_test=2, tst_mask_type=0, dest_bank=1, dest_n=11, src1_n=10, src2_n=11),
        vtstmsk(alu_sel=1, alu_op=9, sign_test=0, zero_test=1, tst_mask_type=0, dest_bank=1, dest_n=12, src1_n=12,
                src2_n=13, test_flag_2=1),
        vtstmsk(alu_sel=1, alu_op=7, sign_test=1, tst_mask_type=0, dest_bank=1, dest_n=13, src1_n=14, src2_n=15,
                test_flag_2=1),
        vtstmsk(alu_sel=2, alu_op=1, sign_test=2, tst_mask_type=0, dest_bank=1, dest_n=14, src1_n=16, src2_n=17),
        vtstmsk(alu_sel=2, alu_op=6, sign_test=1, tst_mask_type=0, dest_bank=1, dest_n=15, src1_n=18, src2_n=19),
        *[vtstmsk(alu_sel=3, alu_op=op, sign_test=k % 3, tst_mask_type=0, dest_bank=1, dest_n=16 + k,
                  src1_n=20 + k, src2_n=21 + k)
          for k, op in enumerate((0, 1, 2, 3, 4, 5, 7))]],
    "branches_and_lanes_apart": [
        vtst(alu_sel=0, prec=1, alu_op=2, sign_test=2, src1_bank=2, src1_n=0, src2_bank=2, src2_ext=1, src2_n=0,
             pdst_n=0),
        br(2, pred=1),
        limm(0x11, dest_bank=1, dest_num=0),
        limm(0x22, dest_bank=1, dest_num=1),
        vtst(alu_sel=0, prec=1, alu_op=14, sign_test=1, src1_bank=2, src1_n=1, src2_bank=2, src2_n=2, pdst_n=3),
        br(3, pred=4),
        nmad(0, dest_n=2, dest_mask=0b0011),
        br(2),
        nmad(1, dest_n=2, dest_mask=0b0011),
        limm(0x33, dest_bank=1, dest_num=4, pred=7 - 2)],
    "per_lane_loop": PER_LANE_LOOP,
    "link_and_return": [br(3, save_link=1), limm(0x55, dest_bank=1, dest_num=1), END, limm(0x44, dest_bank=1), RET],
    "any_inst_uniform_predicate": [
        vtst(alu_sel=0, prec=1, alu_op=2, sign_test=2, src1_bank=2, src1_n=30, src2_bank=2, src2_ext=1, src2_n=0,
             pdst_n=0),
        br(2, pred=1, any_inst=1),
        limm(0x11, dest_bank=1, dest_num=0),
        br(2, pred=5, all_inst=1),
        limm(0x12, dest_bank=1, dest_num=1)],
    "literals_times_infinities": [  # 0 * inf is NaN: the compiler must not fold the zeros away
        limm(0, dest_num=0), limm(0, dest_num=1),
        nmad(0, src1_bank_sel=0, src1_n=0, src2_n=0, dest_n=0),
        nmad(1, src1_bank_sel=0, src1_n=0, src2_n=1, dest_n=2),
        vbw(2, 0, dest_bank=0, dest_n=4, src1_bank=2, src2_bank=2, src2_ext=1, src1_n=0, src2_n=0),
        nmad(0, src1_bank_sel=0, src1_n=2, src2_n=1, dest_n=4),
        vmad2(dest_bank=1, dest_n=3, src0_bank=1, src0_n=0, src1_bank=1, src1_bank_ext=1, src1_n=0,
              src2_bank=2, src2_n=2, dest_mask=0b1111)],
    "end_flags": [word("PHAS"), NOP, limm(7, dest_bank=1, end=1), limm(8, dest_bank=1, dest_num=1)],
    "end_flag_predicated_vmad": [
        vtst(alu_sel=0, prec=1, alu_op=2, sign_test=2, src1_bank=2, src1_n=0, src2_bank=2, src2_ext=1, src2_n=0,
             pdst_n=1),
        word("VMAD", opcode2=1, dest_bank=1, dest_n=0, src1_bank=2, src1_n=0, gpi0_swiz=4, src1_swiz=4,
             gpi1_swiz=4, write_mask=0b1111, pred=2, end=1),
        limm(9, dest_bank=1, dest_num=8)],
}
SECONDARY = {
    "secondary_writes_sa": ([limm(3, dest_bank=1, dest_num=0),
                             vbw(2, 1, dest_bank=1, dest_n=1, src1_bank=3, src1_n=4, src2_bank=3, src2_n=5),
                             nmad(0, dest_n=2, src1_bank_sel=3, src1_n=3, src2_bank_sel=3, src2_n=4), END],
                            [vbw(2, 1, dest_bank=1, src1_bank=3, src1_n=0, src2_bank=3, src2_n=0),
                             vbw(3, 0, dest_bank=1, dest_n=1, src1_bank=3, src1_n=1, src2_bank=2, src2_n=1),
                             nmad(1, dest_n=2, src1_bank_sel=3, src1_n=2, src2_bank_sel=2, src2_n=0)]),
}
TRANSCENDENTAL = {
    "vcomp_log_exp": [vcomp(2, dest_bank=1, dest_n=0, src1_bank=2, src1_n=0, src_comp=0, write_mask=0b0011),
                      vcomp(3, dest_bank=1, dest_n=2, src1_bank=2, src1_n=1, src_comp=1, write_mask=0b0011),
                      vcomp(2, dest_bank=1, dest_n=4, src1_bank=2, src1_n=2, src_comp=2, src_type=1,
                            write_mask=0b0011, src1_mod=2),
                      vcomp(3, dest_bank=1, dest_n=6, src1_bank=2, src1_n=3, src_comp=3, src_type=1, dest_type=1,
                            write_mask=0b0011)],
}


def all_programs():
    for name, primary in {**PROGRAMS, **TRANSCENDENTAL}.items():
        yield name, [*primary, END], []
    for name, (secondary, primary) in SECONDARY.items():
        yield name, [*primary, END], secondary


def agree(got: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Registers equal bit for bit, or NaN against NaN (read as F32, or as each F16 half): the
    sign and payload of a NaN that arithmetic makes depend on operand order, which the compiler
    may swap (x86 returns the first NaN operand)."""
    def f32_nan(bits):
        return ((bits & 0x7F800000) == 0x7F800000) & ((bits & 0x007FFFFF) != 0)

    def half_agree(a, b):
        a, b = a & 0xFFFF, b & 0xFFFF
        nan = lambda h: ((h & 0x7C00) == 0x7C00) & ((h & 0x03FF) != 0)  # noqa: E731
        return (a == b) | (nan(a) & nan(b))
    halves = half_agree(got, expected) & half_agree(got >> 16, expected >> 16)
    return (got == expected) | (f32_nan(got) & f32_nan(expected)) | halves


def random_registers(rng, rows: int, lanes: int) -> np.ndarray:
    """Float inputs of every kind: random bit patterns (NaN, infinities, denormals, F16 pairs),
    plain numbers, small integers, zeros of both signs and denormals."""
    bits = rng.integers(0, 1 << 32, (rows, lanes), dtype=np.uint64).astype(np.uint32)
    plain = rng.uniform(-8, 8, (rows, lanes)).astype(np.float32).view(np.uint32)
    small = rng.integers(-3, 4, (rows, lanes)).astype(np.float32).view(np.uint32)
    special = rng.choice(np.array([0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x807FFFFF,
                                   0x3F800000, 0x00800000, 0x3C003C00, 0x7C00FC00], np.uint32), (rows, lanes))
    kind = rng.integers(0, 4, (rows, lanes))
    return np.choose(kind, [bits, plain, small, special]).astype(np.uint32)


def program_inputs(name: str, seed: int = 14):
    rng = np.random.default_rng([seed, len(name)])
    pa = random_registers(rng, PA_COUNT, LANES)
    sa = random_registers(rng, SA_COUNT, LANES)
    if name == "per_lane_loop":
        pa[20] = (np.uint32(1) << rng.integers(1, 12, LANES).astype(np.uint32)) - np.uint32(1)
    if name == "literals_times_infinities":
        pa[:8] = rng.choice(np.array([0x7F800000, 0xFF800000, 0x7FC00000, 0x3F800000, 0x80000000], np.uint32),
                            (8, LANES))
    if name == "any_inst_uniform_predicate":
        pa[30] = np.float32(rng.choice([-1.0, 1.0])).view(np.uint32)
    return pa, sa


@pytest.mark.parametrize(("name", "primary", "secondary"), list(all_programs()), ids=lambda v: v if isinstance(v, str) else "")
def test_hand_made_program_validates(name, primary, secondary, tmp_path):
    validate(decompile(primary, secondary, pa_count=PA_COUNT, sa_count=SA_COUNT), tmp_path)


@pytest.mark.parametrize(("name", "primary", "secondary"),
                         [case for case in all_programs() if case[0] not in TRANSCENDENTAL],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_hand_made_program_on_llvmpipe_is_the_emulator_bit_for_bit(name, primary, secondary):
    pa, sa = program_inputs(name)
    expected = emulate(primary, secondary, pa, sa)
    got = run_glsl(decompile(primary, secondary, pa_count=PA_COUNT, sa_count=SA_COUNT), pa, sa)
    assert got.shape == expected.shape
    assert expected.any(), "the program writes nothing: the comparison would prove nothing"
    differ = np.argwhere(~agree(got, expected))
    assert differ.size == 0, (f"{len(differ)} of {expected.size} registers differ: "
                              + str([(int(r), int(lane), hex(expected[r, lane]), hex(got[r, lane])) for r, lane in differ[:8]]))


def float_ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance in F32 units in the last place (NaN against NaN: 0; NaN against a number: huge)."""
    def ordered(bits):
        bits = bits.astype(np.int64)
        return np.where(bits & 0x80000000, 0x80000000 - bits, bits)
    distance = np.abs(ordered(a) - ordered(b))
    a_nan, b_nan = np.isnan(a.view(np.float32)), np.isnan(b.view(np.float32))
    return np.where(a_nan & b_nan, 0, np.where(a_nan | b_nan, 1 << 40, distance))


def test_log2_and_exp2_agree_within_the_stated_ulps():
    primary = [*TRANSCENDENTAL["vcomp_log_exp"], END]
    pa, sa = program_inputs("vcomp_log_exp")
    rng = np.random.default_rng(7)
    wide = np.concatenate([rng.uniform(-160, 130, LANES // 2), 2.0 ** rng.uniform(-140, 120, LANES // 2)])
    pa[0] = np.abs(wide).astype(np.float32).view(np.uint32)  # log2 of pa0.x, exp2 of pa3 (pa2.y)
    pa[3] = wide.astype(np.float32).view(np.uint32)
    expected = emulate(primary, [], pa, sa)
    got = run_glsl(decompile(primary, pa_count=PA_COUNT, sa_count=SA_COUNT), pa, sa)
    f32_rows = [0, 1, 2, 3, 4, 5]
    ulps = float_ulps(got[f32_rows], expected[f32_rows])
    assert ulps.max() <= TRANSCENDENTAL_ULPS, f"max {int(ulps.max())} ULP"
    halves = lambda bits: np.stack([bits & 0xFFFF, bits >> 16]).astype(np.uint16).view(np.float16).astype(np.float32)  # noqa: E731
    got_h, expected_h = halves(got[6:8]), halves(expected[6:8])
    assert np.allclose(got_h, expected_h, rtol=2e-3, equal_nan=True)
    assert np.count_nonzero(got[f32_rows] != expected[f32_rows]) < got[f32_rows].size  # mostly exact anyway


# -- errors and traps -----------------------------------------------------------------------------
def test_unmodelled_reachable_words_raise_the_emulators_error():
    program = [NOP, NOP, word("SMP", dim=1), END]
    with pytest.raises(InputError) as emulator_error:
        emulate(program, [], np.zeros((1, 1), np.uint32), np.zeros((1, 1), np.uint32))
    with pytest.raises(InputError) as glsl_error:
        decompile(program, pa_count=4, sa_count=4)
    assert str(glsl_error.value) == str(emulator_error.value)
    assert str(glsl_error.value).startswith("not modelled: SMP ")


def test_words_after_the_end_are_not_touched():
    program = [limm(1, dest_bank=1), END, word("SMP", dim=1)]
    source = decompile(program, pa_count=4, sa_count=0)
    assert run_glsl(source, np.zeros((4, 3), np.uint32))[0].tolist() == [1, 1, 1]


def test_the_budget_and_a_return_without_link_trap_at_run_time():
    pa = np.zeros((4, 2), np.uint32)
    with pytest.raises(InputError, match=r"^instruction budget of 50 exhausted at instruction 0 \(a loop\?\)$"):
        run_glsl(decompile([br(0), END], pa_count=4, sa_count=0, budget=50), pa)
    with pytest.raises(InputError) as emulator_error:
        emulate([RET, END], [], pa, np.zeros((1, 2), np.uint32))
    with pytest.raises(InputError) as glsl_error:
        run_glsl(decompile([RET, END], pa_count=4, sa_count=0), pa)
    assert str(glsl_error.value) == str(emulator_error.value)


def test_uniforms_per_lane_are_drawn_per_distinct_column():
    # o0 = sa0 | pa0 with three different SA columns over five lanes
    program = [vbw(2, 1, dest_bank=1, src1_bank=3, src1_n=0, src2_bank=2, src2_n=0), END]
    pa = np.array([[1, 2, 4, 8, 16]], np.uint32)
    sa = np.array([[0x100, 0x200, 0x100, 0x300, 0x200]], np.uint32)
    got = run_glsl(decompile(program, pa_count=4, sa_count=1), pa, sa)
    assert got[0].tolist() == [0x101, 0x202, 0x104, 0x308, 0x210]


# -- random programs ---------------------------------------------------------------------------------
FUZZED_FORMS = ("VMAD2", "V32NMAD", "V16NMAD", "VMAD", "VDP", "VCOMP", "VMOV", "VPCK", "LIMM", "VTST", "VTSTMSK",
                "VBW", "SMLSI")
FUZZ_CHUNKS, FUZZ_PROGRAMS = 6, 12


def random_program(generator, length: int = 4) -> list[int]:
    """``length`` random words of modelled forms (each one the decompiler accepts alone), now and
    then a forward or backward branch (per-lane: no any_inst/all_inst), and the closing word."""
    from shaderkit.core.model import bit_pattern
    from shaderkit.isa.usse.description import fields_reading
    from shaderkit.isa.usse.encoding import VEC34_FORMS
    from shaderkit.isa.usse.machine import form_name

    patterns = [(name, *bit_pattern(pattern)) for name, pattern, _ in VEC34_FORMS if name in FUZZED_FORMS]
    description = fields_reading()
    program = []
    while len(program) < length:
        if program and generator.random() < 0.15:
            program.append(br(generator.randrange(-len(program), 3), pred=generator.randrange(7),
                              save_link=generator.randrange(2)))
            continue
        name, mask, value = generator.choice(patterns)
        candidate = (generator.getrandbits(64) & ~mask) | value
        if form_name(description.decode([candidate & 0xFFFFFFFF, candidate >> 32])) != name:
            continue
        try:
            decompile([candidate], pa_count=PA_COUNT, sa_count=SA_COUNT)
        except InputError:
            continue
        program.append(candidate)
    return [*program, END]


@pytest.mark.parametrize("chunk", range(FUZZ_CHUNKS))
def test_random_programs_on_llvmpipe_are_the_emulator(chunk, tmp_path):
    import random
    generator = random.Random(1400 + chunk)
    rng = np.random.default_rng(chunk)
    compared = stopped = 0
    for _ in range(FUZZ_PROGRAMS):
        program = random_program(generator)
        try:
            source = decompile(program, pa_count=PA_COUNT, sa_count=SA_COUNT, budget=300)
        except InputError:  # e.g. a repeat that SMLSI steps below register 0
            continue
        validate(source, tmp_path)
        pa, sa = random_registers(rng, PA_COUNT, 64), random_registers(rng, SA_COUNT, 64)
        try:
            with np.errstate(all="ignore"):
                expected = emulate(program, [], pa, sa, budget=300)
        except InputError as error:  # a loop: both stop on the budget
            with pytest.raises(InputError, match="^instruction budget of 300 exhausted") as caught:
                run_glsl(source, pa, sa)
            assert str(error).startswith("instruction budget of 300"), (str(error), str(caught.value))
            stopped += 1
            continue
        got = run_glsl(source, pa, sa)
        differ = np.argwhere(~agree(got, expected))
        assert differ.size == 0, ([f"{word:016X}" for word in program],
                                  [(int(r), int(lane), hex(expected[r, lane]), hex(got[r, lane])) for r, lane in differ[:4]])
        compared += 1
    assert compared >= FUZZ_PROGRAMS // 2, (compared, stopped)


def test_more_than_sixty_o_registers_are_captured_in_windows():
    program = [limm(0x1234, dest_bank=1, dest_num=3), limm(0xABCD, dest_bank=1, dest_num=80),
               vbw(2, 1, dest_bank=1, dest_n=61, src1_bank=2, src1_n=0, src2_bank=2, src2_n=1), END]
    pa = random_registers(np.random.default_rng(1), 4, 9)
    expected = emulate(program, [], pa, np.zeros((1, 9), np.uint32))
    assert expected.shape[0] == 84
    source = decompile(program, pa_count=4, sa_count=0)
    assert source.count("flat out uvec4 usse_o") == 15
    got = run_glsl(source, pa)
    assert np.array_equal(got, expected)
    assert got[80].tolist() == [0xABCD] * 9 and got[3].tolist() == [0x1234] * 9
    fewer = run_glsl(decompile(program, pa_count=4, sa_count=0, outputs=8), pa)
    assert np.array_equal(fewer, expected[:8])
