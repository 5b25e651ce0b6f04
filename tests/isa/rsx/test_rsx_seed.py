"""The seed article's vertex listing (form B, https://rcebits.com/ps3emu/shaders.html).

Only the listing lines that spec/rsx.md 5.2 quotes could be retrieved (see the data file's
header), so they stand in for the 44-instruction listing: they assemble as a form-B listing (the
slot numbers 19 and 35 are the article's, the three lines assemble to slots 0-2, which the
assembler reports as warnings), our form B listing reproduces each instruction's text, and the
form A disassembly reassembles to the same words. The article's Cg source is kept beside it for
the decompiler's tests.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from shaderkit.isa.rsx.assembly import assemble
from shaderkit.isa.rsx.container import ProgramKind
from shaderkit.isa.rsx.disassembler import disassemble
from shaderkit.isa.rsx.listing import listing

DATA = Path(__file__).resolve().parent / "data"
LINE = re.compile(r"(\d{3}): (.*?;)(?: # .*)?$")


def instructions(text: str) -> list[tuple[int, str]]:
    return [(int(match.group(1)), match.group(2)) for match in map(LINE.match, text.splitlines()) if match]


def test_seed_listing_assembles_and_lists_back():
    source = (DATA / "seed_vertex_listing.txt").read_text()
    seed = instructions(source)
    assert [slot for slot, _ in seed] == [0, 19, 35]
    assembled = assemble(source, "seed_vertex_listing.txt")
    assert assembled.program.kind is ProgramKind.VERTEX
    assert [diagnostic.message for diagnostic in assembled.warnings] == [
        "listed as slot 19, assembled to slot 1", "listed as slot 35, assembled to slot 2"]
    listed = instructions(listing(assembled.program))
    assert [text for _, text in listed] == [text for _, text in seed]
    assert listing(assembled.program).splitlines()[-1].endswith("# last instruction")


def test_seed_listing_reads_back_exactly_through_form_a():
    program = assemble((DATA / "seed_vertex_listing.txt").read_text()).program
    text = disassemble(program)
    assert "MOV result.texcoord[1], vertex.color;" in text.splitlines()
    assert "DP4 result.fogcoord.y, R0, c[467];" in text.splitlines()  # o[5].y: user clip plane 0
    assert assemble(text).program == program


def test_seed_cg_source_is_kept_for_the_decompiler():
    cg = (DATA / "seed_vertex_cg.txt").read_text()
    assert "https://rcebits.com/ps3emu/shaders.html" in cg
    assert "oClip0 = dot(vertexEye, clipPlane);" in cg


# --- the article's Cg vertex shader, by hand ---------------------------------------------------
# The 44-instruction listing itself is missing, so its semantics are checked through a hand
# translation of the article's Cg source (data/seed_vertex_by_hand.vp): the program must
# assemble, round-trip, and compute what the Cg source says, both in our emulator and as
# decompiled GLSL on llvmpipe.

def seed_reference(positions, normals, colours, view_projection, model, clip_plane):
    """The Cg source of data/seed_vertex_cg.txt, evaluated in float64 (matrices as the rows the
    shader multiplies with after its transpose)."""
    homogeneous = np.hstack([positions, np.ones((len(positions), 1))])
    eye = homogeneous @ model.T
    return {0: eye @ view_projection.T, 7: normals, 8: colours, 9: positions, "clip0": eye @ clip_plane}


def test_seed_cg_shader_by_hand_matches_the_cg_source_in_emulator_and_glsl():
    from shaderkit.isa.rsx.gl import run_vertex_glsl
    from shaderkit.isa.rsx.glsl import decompile
    from shaderkit.isa.rsx.vertex import run_vertex_program

    assembled = assemble((DATA / "seed_vertex_by_hand.vp").read_text(), "seed_vertex_by_hand.vp")
    program = assembled.program
    again = assemble(disassemble(program), "again")
    assert again.program.words() == program.words()

    generator = np.random.default_rng(7)
    count = 200
    positions, normals = generator.uniform(-2, 2, (count, 3)), generator.uniform(-1, 1, (count, 3))
    colours = generator.uniform(0, 1, (count, 4))
    view_projection, model = generator.uniform(-1, 1, (4, 4)), generator.uniform(-1, 1, (4, 4))
    clip_plane = generator.uniform(-1, 1, 4)
    constants = np.zeros((468, 4), dtype=np.float32)
    constants[256:260], constants[260:264], constants[264] = view_projection, model, clip_plane
    constants[467] = (1, 0, 0, 0)
    attributes = {0: np.hstack([positions, np.ones((count, 1))]).astype(np.float32),
                  2: np.hstack([normals, np.zeros((count, 1))]).astype(np.float32),
                  3: colours.astype(np.float32)}
    expected = seed_reference(*(a.astype(np.float32).astype(np.float64) for a in
                                (positions, normals, colours, view_projection, model, clip_plane)))
    emulated = run_vertex_program(program, attributes, constants)
    on_gl = run_vertex_glsl(decompile(program), attributes, constants)
    for outputs in (emulated, on_gl):
        # float32 arithmetic against a float64 reference: values up to ~10, two chained DP4s.
        np.testing.assert_allclose(outputs[0], expected[0], rtol=1e-5, atol=1e-5)  # HPOS
        np.testing.assert_array_equal(outputs[7, :, :3], attributes[2][:, :3])    # TEXCOORD0 = normal
        np.testing.assert_array_equal(outputs[8], attributes[3])                  # TEXCOORD1 = colour
        np.testing.assert_array_equal(outputs[9, :, :3], attributes[0][:, :3])    # TEXCOORD2 = position
        np.testing.assert_allclose(outputs[5, :, 1], expected["clip0"], rtol=1e-5, atol=1e-5)  # CLP0
    np.testing.assert_allclose(on_gl, emulated, rtol=4 * np.finfo(np.float32).eps, atol=1e-6)
