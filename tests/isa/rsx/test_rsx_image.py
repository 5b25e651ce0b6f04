"""RSX program images: formats, computed sub-headers, #param/#header lines."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shaderkit.core.diagnostics import InputError
from shaderkit.isa.rsx import Rsx
from shaderkit.isa.rsx import image as images
from shaderkit.isa.rsx.container import ProgramKind, read_container, write_container
from conftest import golden_dir

GOLDEN = golden_dir("rsx")
REAL = sorted((GOLDEN / "real").glob("*.?po"))


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_sub_header_computed_from_ucode_and_parameters_matches_sce_cgc(path):
    image = images.read_container_image(path.read_bytes(), str(path))
    assert images.computed_header(image.program, image.parameters) == image.header


def test_texcoords_2d_follows_the_declared_component_count():
    fp = images.read_container_image((GOLDEN / "real" / "gs_gcm_cube_0x2074c.fpo").read_bytes(), "cube")
    assert images.computed_header(fp.program, fp.parameters).tex_coords_2d == 0xFFFE  # float4 TEXCOORD0
    assert images.computed_header(fp.program, ()).tex_coords_2d == 0xFFFF


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_param_and_header_lines_carry_a_container_through_text(path):
    image = images.read_container_image(path.read_bytes(), str(path))
    text = "\n".join(images.parameter_line(p) for p in image.parameters) + "\n" + images.header_line(image.header)
    parameters, header_values = images.split_metadata(text, "t.txt", image.kind)
    assert parameters == image.parameters
    assert images.header_for(image.program, header_values, parameters) == image.header
    rebuilt = replace(image, container=None, parameters=parameters,
                      header=images.header_for(image.program, header_values, parameters))
    again = read_container(write_container(images.build_container(rebuilt)), "again")
    original = read_container(path.read_bytes(), "original")
    assert again == original  # same ucode, parameters and sub-header (layout may differ)


# A vertex program of ours with the outputs of sce-cgc's gs_gcm_cube_0x208dc.vpo: o[HPOS],
# o[COL0], o[TEX0].
POSITION_COLOUR_TEXCOORD = """!!ARBvp1.0
OPTION NV_vertex_program3;
DP4 o[HPOS].x, v[0], c[0];
DP4 o[HPOS].y, v[0], c[1];
DP4 o[HPOS].z, v[0], c[2];
DP4 o[HPOS].w, v[0], c[3];
MOV o[COL0], v[3];
MOV o[TEX0], v[8];
END
"""


def test_attribute_output_mask_sets_one_bit_per_output_as_sce_cgc_does():
    """sce-cgc records 0x4001 (COL0 bit 0 + TEX0 bit 14) for these outputs; cgcomp's later
    compilervp.cpp would write 0x4005 into its own 'VP' container, which we do not write."""
    real = images.read_container_image((GOLDEN / "real" / "gs_gcm_cube_0x208dc.vpo").read_bytes(), "cube")
    assert real.header.attribute_output_mask == 0x4001
    ours = Rsx(None).assemble(POSITION_COLOUR_TEXCOORD).image
    written = read_container(images.write_container_image(ours, ProgramKind.VERTEX), "ours.vpo")
    assert written.program_header.attribute_output_mask == 0x4001
    # Only a write of the back colour itself sets its bit 2.
    back = POSITION_COLOUR_TEXCOORD.replace("MOV o[TEX0]", "MOV o[BFC0], v[3];\nMOV o[TEX0]")
    assert Rsx(None).assemble(back).image.header.attribute_output_mask == 0x4005


def test_unchanged_container_is_written_back_byte_exactly():
    path = GOLDEN / "real" / "gs_gcm_cube_0x38c70.vpo"
    image = images.read_container_image(path.read_bytes(), str(path))
    assert images.write_container_image(image, ProgramKind.VERTEX) == path.read_bytes()


def test_vertex_constants_come_from_internal_constants():
    path = GOLDEN / "real" / "gs_gcm_cube_0x38c70.vpo"
    image = images.read_container_image(path.read_bytes(), str(path))
    memory = image.constant_memory()
    assert memory[467].tolist() == pytest.approx([2.0, 1.0, 0.00390625, 0.003921568859368563])
    assert memory[466].tolist() == [65280.0, 0.0, 0.0, 0.0]
    assert not memory[:466].any()


@pytest.mark.parametrize("line, message", [
    ("#param", "needs a name"),
    ("#param x type=1", "missing resource="),
    ("#param x type=q resource=1", "type must be an integer"),
    ("#param 'x", "closing quotation"),
    ("#header register_count", "not key=value"),
])
def test_bad_metadata_lines_are_one_line_errors(line, message):
    with pytest.raises(InputError, match=message):
        images.split_metadata(line, "t.txt", ProgramKind.VERTEX)


def test_hex_words_round_trip_in_the_words_txt_layout():
    text = (GOLDEN / "asm" / "fp_arith_const.fpo.words.txt").read_bytes()
    image = images.read_hex(text, ProgramKind.FRAGMENT, "x")
    assert images.write_hex(image) == text
    raw = (GOLDEN / "asm" / "fp_arith_const.fpo.bin").read_bytes()
    assert images.read_raw(raw, ProgramKind.FRAGMENT, "x").words == image.words


def test_truncated_raw_ucode_and_bad_hex_are_refused():
    raw = (GOLDEN / "asm" / "vp_dots.vpo.bin").read_bytes()
    with pytest.raises(InputError, match="16-byte slots"):
        images.read_raw(raw[:-3], ProgramKind.VERTEX, "t.bin")
    with pytest.raises(InputError, match="t.hex:1: expected hex words"):
        images.read_hex(b"000: zz\n", ProgramKind.VERTEX, "t.hex")


def test_container_of_the_wrong_kind_is_refused():
    data = (GOLDEN / "real" / "gs_gcm_cube_0x208dc.vpo").read_bytes()
    with pytest.raises(InputError, match="holds a vertex program"):
        images.read_container_image(data, "x.vpo", ProgramKind.FRAGMENT)
    with pytest.raises(InputError, match="cannot be written as .fpo"):
        images.write_container_image(images.read_container_image(data, "x"), ProgramKind.FRAGMENT)


def test_container_kind_detection():
    assert images.container_kind((GOLDEN / "real" / "gs_gcm_cube_0x208dc.vpo").read_bytes()) is ProgramKind.VERTEX
    assert images.container_kind((GOLDEN / "real" / "gs_gcm_cube_0x38f80.fpo").read_bytes()) is ProgramKind.FRAGMENT
    assert images.container_kind((GOLDEN / "asm" / "vp_dots.vpo.bin").read_bytes()) is None
