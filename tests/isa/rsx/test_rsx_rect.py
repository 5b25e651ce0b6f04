"""RECT texture targets, which the fragment microcode cannot hold (spec/rsx.md 3.7): kept in the
container as a samplerRECT record, printed back by the disassembler, decompiled to
``sampler2DRect``, sampled at texel coordinates by the emulator and by llvmpipe alike, given to
bare microcode by ``--texture-target``, and one target per unit in a program.

The programs have the shape of cgc's output for ``texRECT(screen, uv * size)``: scaled texture
coordinates read through a RECT unit, in the older ``TEX0`` unit spelling and in the
``texture[1], RECT`` one, with a ``#var samplerRECT … : texunit N`` line naming the sampler.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rsx_gl_vs_emulator import SIZE, assert_agree, compare_fragment
from test_rsx_glslang import validate

from shaderkit.core.diagnostics import DiagnosticError, InputError
from shaderkit.isa.rsx import Rsx, make_isa
from shaderkit.isa.rsx import image as images
from shaderkit.isa.rsx.assembly import assemble
from shaderkit.isa.rsx.container import CgType, ProgramKind, read_container
from shaderkit.isa.rsx.fragment import fragment_image, fullscreen_inputs, run_fragment_program
from shaderkit.isa.rsx.gl import render_fragment_fullscreen
from shaderkit.isa.rsx.glsl import decompile
from shaderkit.isa.rsx.textures import Texture, as_rectangles, sample_2d

# texRECT(screen, f[TEX0].xy * (8, 6)): TEX0 is (X/64, Y/64) on the full-screen quad, so the
# coordinates cover an 8 x 6 rectangle texture and never fall on a texel edge.
SCREEN_RECT = """!!FP2.0
#var samplerRECT screen :  : texunit 0 : 1 : 1
MULR R1.xy, f[TEX0], {8, 6, 0, 0};
TEX R0, R1, TEX0, RECT;
END
"""
# A 2D decal on unit 0 plus texRECTproj(lut, …) on unit 1: TEX1 * (16, 12, 0, 2) projected by
# w = 2 reads (8 (1 - X/64), 3 Y/64) of an 8 x 4 lookup table.
DECAL_AND_LUT = """!!ARBfp1.0
OPTION NV_fragment_program2;
#var sampler2D decal :  : texunit 0 : 1 : 1
#var samplerRECT lut :  : texunit 1 : 2 : 1
MULR R1, fragment.texcoord[1], {16, 12, 0, 2};
TXP R0, R1, texture[1], RECT;
TEX R2, fragment.texcoord[0], texture[0], 2D;
MADR R0, R2, {0.25, 0.5, 0.75, 1}, R0;
END
"""
# Every texture op on one RECT unit (no mipmaps: the bias, LOD and gradients change nothing).
EVERY_OP = """!!ARBfp1.0
OPTION NV_fragment_program2;
MULR R1, fragment.texcoord[0], {8, 6, 0, 0};
TEX R2, R1, texture[2], RECT;
TXB R3, R1, texture[2], RECT;
TXL R4, R1, texture[2], RECT;
TXD R5, R1, R1, R1, texture[2], RECT;
ADDR R0, R2, R3;
ADDR R0, R0, R4;
ADDR R0, R0, R5;
END
"""
PROGRAMS = {"screen_rect": (SCREEN_RECT, {0}), "decal_and_lut": (DECAL_AND_LUT, {1}), "every_op": (EVERY_OP, {2})}
SIZES = {0: (6, 8), 1: (4, 8), 2: (6, 8)}  # (height, width) of each unit's texture


def assembled(text: str):
    return Rsx(None).assemble(text, "prog.fp").image


def container_bytes(image) -> bytes:
    return images.write_container_image(image, ProgramKind.FRAGMENT)


def unit_textures(filter_mode: str, rectangles) -> dict[int, Texture]:
    random = np.random.default_rng(12)
    textures = {unit: Texture(random.random((*size, 4), dtype=np.float32), filter_mode, "clamp")
                for unit, size in SIZES.items()}
    return as_rectangles(textures, rectangles)


# --- the container keeps RECT -------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_container_records_each_rect_unit_as_samplerRECT(name):
    text, rectangles = PROGRAMS[name]
    image = images.read_container_image(container_bytes(assembled(text)), "prog.fpo")
    assert images.rectangle_units(image.parameters) == rectangles
    assert {unit: type_code for unit, type_code in images.sampler_types(image.parameters).items()} == \
        {unit: CgType.SAMPLERRECT for unit in rectangles}


def test_the_samplerRECT_record_is_named_by_the_var_line():
    record, = read_container(container_bytes(assembled(SCREEN_RECT)), "screen.fpo").parameters
    assert (record.name, record.type, record.resource, record.resource_index, record.parameter_number) == \
        ("screen", 1068, 2048, -1, 1)
    unnamed, = assembled(EVERY_OP).parameters  # no #var line: named after its unit
    assert (unnamed.name, unnamed.resource) == ("texture2", 2050)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_container_listing_prints_rect_and_reassembles_to_the_same_container(name):
    original = container_bytes(assembled(PROGRAMS[name][0]))
    rsx = Rsx(None)
    listing = rsx.disassemble(images.read_container_image(original, "prog.fpo"))
    assert ", RECT;" in listing
    again = container_bytes(rsx.assemble(listing, "listing.fp").image)
    assert read_container(again, "again") == read_container(original, "original")


def test_disassembly_prints_rect_only_on_rect_units():
    listing = Rsx(None).disassemble(assembled(DECAL_AND_LUT), addresses=False)
    assert "TXPR R0, R1, texture[1], RECT;" in listing
    assert "TEXR R2, fragment.texcoord[0], texture[0], 2D;" in listing


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.integers(0, 15), st.sampled_from(["RECT", "2D", "SHADOWRECT", "CUBE", ""]),
                       min_size=1, max_size=6))
def test_any_units_and_targets_survive_a_container_round_trip(targets):
    lines = [f"TEX R{number}, f[TEX0], texture[{unit}]{', ' + target if target else ''};"
             for number, (unit, target) in enumerate(sorted(targets.items()))]
    text = "!!ARBfp1.0\nOPTION NV_fragment_program2;\n" + "\n".join(lines) + "\nEND\n"
    original = container_bytes(assembled(text))
    image = images.read_container_image(original, "prog.fpo")
    expected = {unit for unit, target in targets.items() if target in ("RECT", "SHADOWRECT")}
    assert images.rectangle_units(image.parameters) == expected
    listing = Rsx(None).disassemble(image)
    assert listing.count(", RECT;") == len(expected)
    again = container_bytes(Rsx(None).assemble(listing, "listing.fp").image)
    assert read_container(again, "again") == read_container(original, "original")


# --- one target per unit --------------------------------------------------------------------------


def test_sampling_a_unit_as_rect_and_as_2d_is_an_error_at_the_second_use():
    text = SCREEN_RECT.replace("END", "TEX R2, f[TEX0], texture[0], 2D;\nTEX R3, f[TEX0], texture[0];\nEND")
    with pytest.raises(DiagnosticError) as raised:
        assemble(text, "mixed.fp")
    first, second = raised.value.diagnostics
    assert (first.line, first.col, first.length) == (5, 30, 2)  # the 2D target
    assert (second.line, second.col, second.length) == (6, 1, 3)  # no target written: 2D, at TEX
    assert "texture unit 0 is sampled as 2D here but as RECT on line 4" in first.message
    rendered = raised.value.render().splitlines()
    assert rendered[:3] == [f"mixed.fp:5:30: error: {first.message}", "TEX R2, f[TEX0], texture[0], 2D;",
                            " " * 29 + "^~"]


def test_other_units_and_other_programs_may_differ():
    assemble(SCREEN_RECT.replace("END", "TEX R2, f[TEX0], texture[3], 2D;\nEND"))  # unit 3 is its own
    assemble(SCREEN_RECT.replace("END", "TEX R2, f[TEX0], TEX0, SHADOWRECT;\nEND"))  # both rectangles


def test_a_param_record_that_contradicts_the_text_is_a_clean_error():
    rsx = Rsx(None)
    listing = rsx.disassemble(images.read_container_image(container_bytes(assembled(SCREEN_RECT)), "s.fpo"))
    with pytest.raises(InputError, match="texture unit 0 is sampled as 2D, but its #param record is samplerRECT"):
        rsx.assemble(listing.replace(", RECT;", ", 2D;"), "edited.fp")
    sampler_2d = listing.replace("type=1068", "type=1066")
    with pytest.raises(InputError, match="texture unit 0 is sampled as RECT, but its #param record is sampler2D"):
        rsx.assemble(sampler_2d, "edited.fp")


# --- GLSL ----------------------------------------------------------------------------------------


def test_decompiled_glsl_samples_a_rectangle_at_texel_coordinates():
    image = assembled(SCREEN_RECT)
    glsl = Rsx(None).decompile(image)
    assert "layout(binding = 0) uniform sampler2DRect u_screen;" in glsl
    assert "r0 = texture(u_screen, r1.xy);" in glsl
    assert "sampler2D u_screen" not in glsl
    # TXP divides by q as textureProj does; the 2D unit stays a sampler2D.
    lut = Rsx(None).decompile(assembled(DECAL_AND_LUT))
    assert "textureProj(u_lut, r1)" in lut and "uniform sampler2D u_decal;" not in lut
    assert "layout(binding = 0) uniform sampler2D texture0;" in lut


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("fullscreen", [False, True])
def test_decompiled_rect_programs_pass_glslang(name, fullscreen, tmp_path):
    image = assembled(PROGRAMS[name][0])
    validate(decompile(image.program, image.parameters, fullscreen=fullscreen), ProgramKind.FRAGMENT, tmp_path)


@pytest.mark.parametrize("filter_mode", ["nearest", "linear"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_llvmpipe_samples_rect_units_as_the_emulator_does(name, filter_mode):
    text, rectangles = PROGRAMS[name]
    image = assembled(text)
    units = unit_textures(filter_mode, rectangles)
    picture = compare_fragment(image.program, image.parameters, image.header, units, f"{name} {filter_mode}")
    # The texel coordinates matter: the same texels sampled as a 2D texture give another picture.
    flat = run_fragment_program(image.program, fullscreen_inputs(SIZE, SIZE), grid=(SIZE, SIZE),
                                textures=unit_textures(filter_mode, ()))
    assert not np.array_equal(picture, fragment_image(flat, SIZE, SIZE))


def test_the_emulator_reads_texel_floor_s_floor_t_of_a_nearest_rectangle():
    units = unit_textures("nearest", {0})
    result = run_fragment_program(assembled(SCREEN_RECT).program, fullscreen_inputs(SIZE, SIZE),
                                  grid=(SIZE, SIZE), textures=units)
    picture = fragment_image(result, SIZE, SIZE)
    y, x = np.mgrid[0:SIZE, 0:SIZE]
    # s = 8 (x + 0.5) / 64, t = 6 (y + 0.5) / 64, in texels.
    expected = units[0].texels[((y + 0.5) * 6 / SIZE).astype(int), ((x + 0.5) * 8 / SIZE).astype(int)]
    np.testing.assert_array_equal(picture, expected)


# --- bare microcode: --texture-target -------------------------------------------------------------


def bare_words():
    return assembled(SCREEN_RECT).words


def test_bare_microcode_prints_2d_unless_a_texture_target_says_rect():
    assert ", 2D;" in make_isa("fragment").disassemble(bare_words())
    listing = make_isa("fragment", texture_target=("0=RECT",)).disassemble(bare_words())
    assert "TEXR R0, R1, texture[0], RECT;" in listing
    # The listing re-assembles to the same words.
    assert Rsx(ProgramKind.FRAGMENT).assemble(listing).words == bare_words()


def test_bare_microcode_decompiles_and_runs_as_rect_with_a_texture_target():
    rsx = make_isa("fragment", texture_target=("0=rect",))
    image = images.image_from_words(bare_words(), ProgramKind.FRAGMENT, "bare")
    assert rsx.rectangle_units(image) == {0}
    assert "uniform sampler2DRect texture0;" in rsx.decompile(image)
    assert "uniform sampler2D texture0;" in make_isa("fragment").decompile(image)
    rectangles = rsx.rectangle_units(image)
    units = unit_textures("nearest", rectangles)
    glsl = decompile(image.program, fullscreen=True, rectangle_units=rectangles)
    emulated = run_fragment_program(image.program, fullscreen_inputs(SIZE, SIZE), grid=(SIZE, SIZE), textures=units)
    assert_agree(render_fragment_fullscreen(glsl, SIZE, SIZE, textures=units), fragment_image(emulated, SIZE, SIZE),
                 "bare rect")


def test_gl_refuses_a_texture_of_the_other_kind_than_its_sampler():
    image = images.image_from_words(bare_words(), ProgramKind.FRAGMENT, "bare")
    glsl_2d = decompile(image.program, fullscreen=True)
    with pytest.raises(InputError, match="texture unit 0: the shader samples it as sampler2D, but a rectangle"):
        render_fragment_fullscreen(glsl_2d, 4, 4, textures=unit_textures("nearest", {0}))


@pytest.mark.parametrize("setting, message", [
    ("0", "--texture-target needs UNIT=RECT or UNIT=2D with a unit 0-15, not '0'"),
    ("16=RECT", "not '16=RECT'"),
    ("0=CUBE", "not '0=CUBE'"),
    ("²=RECT", "not '²=RECT'"),
])
def test_bad_texture_targets_are_clean_errors(setting, message):
    with pytest.raises(InputError, match=message):
        make_isa("fragment", texture_target=(setting,))


def test_a_texture_target_must_agree_with_the_container():
    image = images.read_container_image(container_bytes(assembled(SCREEN_RECT)), "screen.fpo")
    assert make_isa(texture_target=("0=RECT", "3=RECT")).rectangle_units(image) == {0, 3}
    with pytest.raises(InputError, match="records unit 0 as samplerRECT"):
        make_isa(texture_target=("0=2D",)).rectangle_units(image)
    with pytest.raises(InputError, match="unit 0 is given twice"):
        make_isa(texture_target=("0=RECT", "0=2D"))


def test_a_texture_target_for_a_vertex_program_is_refused():
    vertex = Rsx(None).assemble("!!ARBvp1.0\nMOV o[HPOS], v[0];\nEND\n").image
    with pytest.raises(InputError, match="this is a vertex program"):
        make_isa(texture_target=("0=RECT",)).disassemble(vertex)


# --- rectangle textures -------------------------------------------------------------------------


def test_a_rectangle_texture_clamps_to_its_edge():
    texels = np.zeros((2, 2, 4), np.float32)
    with pytest.raises(InputError, match="a rectangle texture clamps to its edge"):
        Texture(texels, wrap="repeat", rectangle=True)
    made, kept = as_rectangles({0: Texture(texels, wrap="mirror"), 1: Texture(texels)}, {0}).values()
    assert (made.rectangle, made.wrap, kept.rectangle, kept.wrap) == (True, "clamp", False, "repeat")


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 5), st.integers(0, 5), st.sampled_from(["nearest", "linear"]),
       st.lists(st.tuples(st.floats(-3, 40, width=32), st.floats(-3, 40, width=32)), min_size=1, max_size=20))
def test_a_rectangle_samples_at_s_t_what_a_2d_texture_samples_at_s_over_w_t_over_h(width_log, height_log,
                                                                                   filter_mode, points):
    # Power-of-two sizes make s / W exact, so both addressings name the same place.
    random = np.random.default_rng(width_log * 8 + height_log)
    texels = random.random((1 << height_log, 1 << width_log, 4), dtype=np.float32)
    flat = Texture(texels, filter_mode, "clamp")
    rectangle = Texture(texels, filter_mode, "clamp", rectangle=True)
    s, t = (np.array(values, np.float32) for values in zip(*points))
    np.testing.assert_array_equal(sample_2d(rectangle, s, t),
                                  sample_2d(flat, s / np.float32(flat.width), t / np.float32(flat.height)))
