"""Two independent implementations of the RSX semantics agree: the NumPy emulator and the
decompiled GLSL on Mesa llvmpipe.

* Every fragment program of golden/rsx/asm and golden/rsx/real, and the fragment programs built
  in test_rsx_glsl (H/R aliasing, modifiers, conditions, flow, packing, textures), runs over the
  emu README's 64 x 64 full-screen inputs in both; fp_tex2d and the texture program sample small
  synthetic textures (nearest and linear filtering).
* Every vertex program (the same corpora and the built ones) runs on 300 random vertices in both,
  the GLSL through transform feedback; constants come from the programs' ``#const`` lines (a tiny
  regex over asm/*.vp.txt) or the containers' defaults, uniforms (``#var``) get random values.

Tolerance: 4 float32 epsilons relative plus 1e-6 absolute, the emu README's bound for llvmpipe's
transcendental functions (SIN/COS/EX2/LG2) and dot products it may evaluate with fused
multiply-adds; NaN must match NaN, and killed pixels must match exactly. The programs that move
fp16 bits through R registers are compared bit for bit.
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rsx_glsl import (
    FRAGMENT_PROGRAMS,
    GOLDEN,
    VERTEX_PROGRAMS,
    fp,
    fp_program,
    golden_program,
    vp,
    vp_program,
)

from shaderkit.isa.rsx.assembly import assemble
from shaderkit.isa.rsx.container import FragmentProgramHeader, ProgramKind
from shaderkit.isa.rsx.fragment import fragment_image, fullscreen_inputs, run_fragment_program
from shaderkit.isa.rsx.gl import render_fragment_fullscreen, run_vertex_glsl
from shaderkit.isa.rsx.glsl import decompile
from shaderkit.isa.rsx.image import colour_in_h0, computed_header
from shaderkit.isa.rsx.limits import VP_CONSTANTS
from shaderkit.isa.rsx.textures import Texture
from shaderkit.isa.rsx.vertex import run_vertex_program

SIZE = 64
VERTICES = 300
RELATIVE = 4 * float(np.finfo(np.float32).eps)
ABSOLUTE = 1e-6
CONSTANT_RESOURCE = 2178
CONST_LINE = re.compile(r"^#const c\[(\d+)\] = (\S+) (\S+) (\S+) (\S+)$", re.MULTILINE)
VAR_LINE = re.compile(r"^#var \S+ \S+ : +: c\[(\d+)\](?:, (\d+))?", re.MULTILINE)
BIT_EXACT = ("h_write_r_read", "r_write_h_read", "h_lane_in_r")

CORPUS = sorted((GOLDEN / "asm").glob("*.bin")) + sorted((GOLDEN / "real").glob("*.?po"))
FRAGMENT_CORPUS = [path for path in CORPUS if golden_program(path)[0].kind is ProgramKind.FRAGMENT]
VERTEX_CORPUS = [path for path in CORPUS if golden_program(path)[0].kind is ProgramKind.VERTEX]


def textures(filter_mode: str, wrap: str = "repeat") -> dict[int, Texture]:
    random = np.random.default_rng(7)
    return {unit: Texture(random.random((8, 8, 4), dtype=np.float32), filter_mode, wrap)
            for unit in (0, 1)}


def assert_agree(gl: np.ndarray, emulated: np.ndarray, name: str) -> None:
    assert gl.shape == emulated.shape and gl.dtype == emulated.dtype == np.float32, name
    np.testing.assert_array_equal(np.isnan(gl), np.isnan(emulated), err_msg=name)
    np.testing.assert_allclose(gl, emulated, rtol=RELATIVE, atol=ABSOLUTE, err_msg=name)


def compare_fragment(program, parameters=None, header=None, units=None, name="") -> np.ndarray:
    units = units or {}
    # Bare ucode (no header) takes its colour register from the program, as the CLI does.
    output_from_h0 = bool(header.output_from_h0) if header is not None else colour_in_h0(program)
    glsl = decompile(program, parameters, header=header, fullscreen=True)
    gl = render_fragment_fullscreen(glsl, SIZE, SIZE, textures=units)
    result = run_fragment_program(program, fullscreen_inputs(SIZE, SIZE), grid=(SIZE, SIZE),
                                  textures=units, output_from_h0=output_from_h0)
    emulated = fragment_image(result, SIZE, SIZE)
    if name in BIT_EXACT:
        np.testing.assert_array_equal(gl.view(np.uint32), emulated.view(np.uint32), err_msg=name)
    assert_agree(gl, emulated, name)
    return gl


@pytest.mark.parametrize("path", FRAGMENT_CORPUS, ids=lambda path: path.name)
def test_corpus_fragment_program(path):
    program, parameters, header = golden_program(path)
    compare_fragment(program, parameters, header, textures("nearest"), path.name)


@pytest.mark.parametrize("filter_mode", ["nearest", "linear"])
def test_texture_fetch_with_a_synthetic_texture(filter_mode):
    program, _, _ = golden_program(GOLDEN / "asm" / "fp_tex2d.fpo.bin")
    image = compare_fragment(program, units=textures(filter_mode), name=f"fp_tex2d {filter_mode}")
    assert len(np.unique(image[..., 0])) > 8  # the texture really is sampled


@pytest.mark.parametrize("name", sorted(FRAGMENT_PROGRAMS))
def test_built_fragment_program(name):
    image = compare_fragment(FRAGMENT_PROGRAMS[name](), units=textures("linear"), name=name)
    assert np.ptp(image[image != -12345.0]) > 0  # not a constant picture


@pytest.mark.parametrize("wrap", ["clamp", "mirror"])
def test_wrap_modes(wrap):
    """The texture program's TXP reads s = 4 TEX1.x in (0, 4) and t = 4 TEX1.y in (0, 2)."""
    repeated = compare_fragment(FRAGMENT_PROGRAMS["textures"](), units=textures("nearest"), name="repeat")
    wrapped = compare_fragment(FRAGMENT_PROGRAMS["textures"](), units=textures("nearest", wrap), name=wrap)
    assert not np.array_equal(repeated, wrapped)


def test_colour_from_h0():
    header = FragmentProgramHeader(4, 0, 0, 0, 0xFFFF, 0, 2, output_from_h0=1, depth_replace=0, pixel_kill=0)
    image = compare_fragment(FRAGMENT_PROGRAMS["h0_colour"](), header=header, name="h0_colour")
    expected = np.float32([0.8, 0.4, 0.2, 1.0]) * np.float32([0.3, 0.6, 0.9, 1.1])
    np.testing.assert_array_equal(image[3, 3], expected.astype(np.float16).astype(np.float32))


def test_colour_from_h0_sharing_storage_with_r0():
    program, parameters, header = golden_program(GOLDEN / "real" / "gs_gcm_cube_0x38f80.fpo")
    image = compare_fragment(program, parameters, dataclasses.replace(header, output_from_h0=1),
                             textures("nearest"), "gs_gcm_cube_0x38f80 from H0")
    # H0 = COL0 in fp16, then R0.xyz = H0.xyz overwrites H0's storage R0.xy with fp32 values,
    # so the exported H0 is the fp16 halves of fp32(fp16(0.8)) and fp32(fp16(0.4))
    storage = np.float32([np.float16(0.8), np.float16(0.4)]).view(np.uint32)
    halves = np.stack([storage & 0xFFFF, storage >> 16], axis=1).reshape(4).astype(np.uint16)
    np.testing.assert_array_equal(image[7, 9], halves.view(np.float16).astype(np.float32))


@pytest.mark.parametrize("destination, from_h0", [("o[COLH]", True), ("H0", True), ("o[COLR]", False), ("R0", False)])
def test_bare_ucode_takes_its_colour_register_from_the_program(destination, from_h0):
    """A program that writes its colour to H0 (o[COLH]) and never to R0 is read from H0 by the
    emulator and the decompiler alike, with no container to say so; its container says so too."""
    assembled = assemble(f"!!ARBfp1.0\nMOVH {destination}, {{0.25, 0.5, 0.75, 1}};\nEND\n")
    program = assembled.program
    assert colour_in_h0(program) is from_h0
    assert computed_header(program).output_from_h0 == int(from_h0)
    image = compare_fragment(program, name=f"colour in {destination}")
    np.testing.assert_array_equal(image[2, 5], np.float32([0.25, 0.5, 0.75, 1.0]))
    if from_h0:  # read from R0 instead, the packed halves are no colour (the failure the issue saw)
        wrong = run_fragment_program(program, fullscreen_inputs(SIZE, SIZE), grid=(SIZE, SIZE), output_from_h0=False)
        assert not np.array_equal(fragment_image(wrong, SIZE, SIZE)[2, 5], image[2, 5])


def test_h_write_read_as_r_round_trips_through_fp16():
    image = compare_fragment(FRAGMENT_PROGRAMS["h_write_r_read"](), name="h_write_r_read")
    coordinates = (np.arange(SIZE, dtype=np.float32) + 0.5) / SIZE
    np.testing.assert_array_equal(image[5, :, 0], coordinates.astype(np.float16).astype(np.float32))


def vertex_constants(path, parameters, random) -> np.ndarray:
    constants = np.zeros((VP_CONSTANTS, 4), dtype=np.float32)
    if parameters is None:
        text = (GOLDEN / "asm" / path.name.replace(".vpo.bin", ".vp.txt")).read_text()
        for match in VAR_LINE.finditer(text):  # uniforms: random values
            first, count = int(match.group(1)), int(match.group(2) or 1)
            constants[first:first + count] = random.uniform(-2, 2, (count, 4))
        for match in CONST_LINE.finditer(text):
            constants[int(match.group(1))] = [float(value) for value in match.groups()[1:]]
        return constants
    for parameter in parameters:
        if parameter.resource == CONSTANT_RESOURCE and parameter.resource_index >= 0:
            value = parameter.default_value
            constants[parameter.resource_index] = random.uniform(-2, 2, 4) if value is None else value
    return constants


def compare_vertex(program, constants, random, name) -> np.ndarray:
    attributes = {index: random.uniform(-2, 2, (VERTICES, 4)).astype(np.float32) for index in range(16)}
    gl = run_vertex_glsl(decompile(program), attributes, constants)
    emulated = run_vertex_program(program, attributes, constants)
    assert_agree(gl, emulated, name)
    return gl


@pytest.mark.parametrize("path", VERTEX_CORPUS, ids=lambda path: path.name)
def test_corpus_vertex_program(path):
    random = np.random.default_rng(11)
    program, parameters, _ = golden_program(path)
    outputs = compare_vertex(program, vertex_constants(path, parameters, random), random, path.name)
    assert not np.all(outputs[0] == outputs[0][0])  # the position depends on the vertex


def test_corpus_constants_are_read_from_the_sources():
    random = np.random.default_rng(0)
    constants = vertex_constants(GOLDEN / "asm" / "vp_vec_arith.vpo.bin", None, random)
    np.testing.assert_array_equal(constants[1], [0.5, 2, -1, 4])
    assert np.all(constants[0] != 0)  # #var scale


@pytest.mark.parametrize("name", sorted(VERTEX_PROGRAMS))
def test_built_vertex_program(name):
    random = np.random.default_rng(5)
    # positive constants keep the "loop" program's counter rising to its bound c[2].x; c[3]
    # spreads the "relative" program's address register over -18..17 (reads outside the files)
    constants = random.uniform(0.25, 2.0, (VP_CONSTANTS, 4)).astype(np.float32)
    constants[2] = 3.0
    constants[3] = 9.0
    outputs = compare_vertex(VERTEX_PROGRAMS[name](), constants, random, name)
    assert np.ptp(outputs[7]) > 0


# --- random programs -----------------------------------------------------------------------------
# Ops whose results both sides round identically (no dot products, no transcendental functions),
# on values that are short binary fractions: the two implementations must then agree exactly,
# whatever masks, swizzles, conditions, precisions and writes the program mixes. Equal means
# equal as floats: Mesa's optimiser does not keep the sign of zero (it folds 0 + x to x), so
# ops that turn -0 and +0 into different values are left out: packing (whose results, often
# denormal, llvmpipe also flushes to zero), UPB, RCP, and reading R storage as H (H0..H5 here
# never share storage with R0..R2; the built programs test that crossing bit for bit).

EXACT_FP_OPS = {"MOV": 1, "MUL": 2, "ADD": 2, "MAD": 3, "MIN": 2, "MAX": 2, "SLT": 2, "SGE": 2,
                "SLE": 2, "SGT": 2, "SNE": 2, "SEQ": 2, "FRC": 1, "FLR": 1, "DST": 2, "UP2": 1}
EXACT_VP_VECTOR = {"MOV": 1, "MUL": 2, "ADD": 2, "MAD": 3, "MIN": 2, "MAX": 2, "SLT": 2, "SGE": 2,
                   "SEQ": 2, "SGT": 2, "SLE": 2, "SNE": 2, "FRC": 1, "FLR": 1, "SSG": 1, "DST": 2}
EXACT_VP_SCALAR = ("MOV",)
CONDITIONS = ("LT", "EQ", "LE", "GT", "NE", "GE")
swizzles = st.text("xyzw", min_size=4, max_size=4)
masks = st.lists(st.booleans(), min_size=4, max_size=4).filter(any).map(
    lambda flags: "".join(letter for letter, flag in zip("xyzw", flags) if flag))
fractions = st.integers(-32, 32).map(lambda n: n / 8.0)


@st.composite
def fragment_instruction(draw):
    op = draw(st.sampled_from(sorted(EXACT_FP_OPS)))
    sources = []
    input_name = draw(st.sampled_from(["TEX0", "TEX1", "COL0"]))
    for _ in range(EXACT_FP_OPS[op]):
        kind = draw(st.sampled_from(["R", "H", "f", "c"]))
        name = {"R": f"R{draw(st.integers(0, 2))}", "H": f"H{draw(st.integers(6, 9))}",
                "f": f"f[{input_name}]", "c": "c"}[kind]
        text = f"{name}.{draw(swizzles)}"
        if draw(st.booleans()):
            text = f"|{text}|"
        sources.append(("-" if draw(st.booleans()) else "") + text)
    register = draw(st.sampled_from(["R", "H"]))
    index = draw(st.integers(0, 2) if register == "R" else st.integers(6, 9))
    destination = f"{register}{index}.{draw(masks)}"
    condition = None
    if draw(st.booleans()):
        condition = f"{draw(st.sampled_from(CONDITIONS))}{draw(st.sampled_from(['', '1']))}.{draw(swizzles)}"
    return fp(op, destination, *sources, precision=draw(st.sampled_from("RHXB")),
              saturate=draw(st.booleans()), scale=draw(st.sampled_from([0, 1, 5])),
              cc=draw(st.sampled_from([None, 0, 1])), condition=condition,
              literal=tuple(draw(fractions) for _ in range(4)))


@settings(max_examples=20, deadline=None)
@given(st.lists(fragment_instruction(), min_size=2, max_size=7))
def test_random_fragment_programs_agree_exactly(instructions):
    program = fp_program(*instructions, fp("MOV", "R0", "R0"))
    gl = render_fragment_fullscreen(decompile(program, fullscreen=True), 16, 16)
    emulated = fragment_image(run_fragment_program(program, fullscreen_inputs(16, 16), grid=(16, 16)), 16, 16)
    np.testing.assert_array_equal(gl, emulated)


@st.composite
def vertex_instruction(draw):
    input_index, constant_index = draw(st.integers(0, 3)), draw(st.integers(0, 3))

    def source() -> str:
        name = draw(st.sampled_from([f"R{draw(st.integers(0, 2))}", f"v[{input_index}]", f"c[{constant_index}]"]))
        text = f"{name}.{draw(swizzles)}"
        if draw(st.booleans()):
            text = f"|{text}|"
        return ("-" if draw(st.booleans()) else "") + text

    scalar = ("NOP",)
    op = draw(st.sampled_from(sorted(EXACT_VP_VECTOR)))
    targets = draw(st.sampled_from(["R", "o", "R+o"]))
    writes_output = "o" in targets
    destination = "+".join({"R": f"R{draw(st.integers(0, 2))}", "o": f"o[{draw(st.integers(7, 9))}]"}[t]
                           for t in targets.split("+"))
    vector = (op, f"{destination}.{draw(masks)}", *(source() for _ in range(EXACT_VP_VECTOR[op])))
    if draw(st.booleans()) and op not in ("ADD", "MAD"):  # the scalar op's source is slot 2
        destination = f"R{draw(st.integers(0, 2))}" if writes_output or draw(st.booleans()) else \
            f"o[{draw(st.integers(7, 9))}]"
        scalar = (draw(st.sampled_from(EXACT_VP_SCALAR)), f"{destination}.{draw(masks)}", source())
    condition = None
    if draw(st.booleans()):
        condition = f"{draw(st.sampled_from(CONDITIONS))}{draw(st.sampled_from(['', '1']))}.{draw(swizzles)}"
    return vp(vector, scalar, condition=condition, cc_update=draw(st.booleans()), saturate=draw(st.booleans()))


@settings(max_examples=20, deadline=None)
@given(st.lists(vertex_instruction(), min_size=1, max_size=7), st.integers(0, 2 ** 32 - 1))
def test_random_vertex_programs_agree_exactly(instructions, seed):
    program = vp_program(*instructions, vp(("MOV", "o[0]", "v[0]")))
    random = np.random.default_rng(seed)
    attributes = {index: (random.integers(-32, 33, (64, 4)) / 8).astype(np.float32) for index in range(4)}
    constants = (random.integers(-32, 33, (VP_CONSTANTS, 4)) / 8).astype(np.float32)
    gl = run_vertex_glsl(decompile(program), attributes, constants)
    emulated = run_vertex_program(program, attributes, constants)
    np.testing.assert_array_equal(gl, emulated)


def test_dual_issue_tests_the_cc_once():
    """DSTC R0.w(EQ.w) with MOV o[7].w(EQ.w): CC.w = 0 passes EQ before the instruction, so both
    writes happen, although the vector op sets CC.w to v[0].w = 1 on the way."""
    program = vp_program(vp(("DST", "R0.w", "R0", "v[0]"), ("MOV", "o[7].w", "R0.w"),
                            condition="EQ.w", cc_update=True),
                         vp(("MOV", "o[0]", "v[0]")))
    attributes = {0: np.ones((4, 4), dtype=np.float32)}
    constants = np.zeros((VP_CONSTANTS, 4), dtype=np.float32)
    assert np.all(run_vertex_glsl(decompile(program), attributes, constants)[7][:, 3] == 0.0)
    assert np.all(run_vertex_program(program, attributes, constants)[7][:, 3] == 0.0)
