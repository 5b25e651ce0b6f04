"""Decompiled fragment programs on Mesa llvmpipe against the GL reference renders (golden/rsx/emu),
and the GL runner itself (errors, linking, timing).

For each of the five emu programs, ``asm/NAME.fpo.bin`` is decompiled with ``fullscreen=True``,
drawn at 64 x 64 and compared with ``emu/NAME.npy``. Tolerance, from the emu README: a few ULP
(4 float32 epsilons relative) for arithmetic, plus 1e-6 absolute for fp_scalar_ops (RSQ, EX2,
LG2 on llvmpipe); discarded pixels must hold the sentinel -12345.0 exactly. Without GL the tests
fail with :class:`GlUnavailable`'s message, they do not skip.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
from test_rsx_glsl import GOLDEN, golden_program

from shaderkit.core.diagnostics import InputError
from shaderkit.isa.rsx.gl import (
    GlUnavailable,
    gl_context,
    render_fragment_fullscreen,
    renderer,
    run_vertex_glsl,
    time_fragment_fullscreen,
)
from shaderkit.isa.rsx.glsl import decompile

SIZE = 64
SENTINEL = -12345.0
EPS32 = float(np.finfo(np.float32).eps)
TOLERANCES = {  # (relative, absolute)
    "fp_arith_const": (4 * EPS32, 0.0),
    "fp_frc_flr": (4 * EPS32, 0.0),
    "fp_if_else": (4 * EPS32, 0.0),
    "fp_kil": (4 * EPS32, 0.0),
    "fp_scalar_ops": (4 * EPS32, 1e-6),
}


def render(name: str, **options) -> np.ndarray:
    program, _, _ = golden_program(GOLDEN / "asm" / f"{name}.fpo.bin")
    return render_fragment_fullscreen(decompile(program, fullscreen=True), SIZE, SIZE, **options)


def test_the_context_is_mesa_llvmpipe_with_gl_4_3():
    assert "llvmpipe" in renderer()
    assert gl_context().version_code >= 430


def test_every_emu_golden_is_compared():
    assert sorted(path.stem for path in (GOLDEN / "emu").glob("*.npy")) == sorted(TOLERANCES)


@pytest.mark.parametrize("name", sorted(TOLERANCES))
def test_decompiled_program_matches_the_reference_render(name):
    expected = np.load(GOLDEN / "emu" / f"{name}.npy")
    image = render(name)
    assert image.shape == expected.shape == (SIZE, SIZE, 4) and image.dtype == np.float32
    killed = np.all(expected == SENTINEL, axis=2)
    np.testing.assert_array_equal(image[killed], expected[killed])
    assert not np.any(image[~killed] == SENTINEL)
    relative, absolute = TOLERANCES[name]
    np.testing.assert_allclose(image[~killed], expected[~killed], rtol=relative, atol=absolute)


def test_kil_discards_the_left_half():
    image = render("fp_kil")
    assert np.all(image[:, :32] == SENTINEL) and not np.any(image[:, 32:] == SENTINEL)


def test_rows_start_at_the_bottom():
    """Row y holds TEX0.y = (y + 0.5) / 64 (fp_if_else: COL0 above TEX0.y = 0.5, 0.25 below)."""
    image = render("fp_if_else")
    np.testing.assert_array_equal(image[0, 0], [0.25, 0.25, 0.25, 1.0])
    np.testing.assert_array_equal(image[-1, 0], np.float32([0.8, 0.4, 0.2, 1.0]))


def test_an_override_replaces_an_input():
    image = render("fp_arith_const", overrides={"TEX0": (1.0, 1.0, 1.0, 1.0)})
    # R0 = (TEX0 * c0 + c1) * COL0 + c0.wzyx with TEX0 = 1 everywhere
    c0, c1 = np.float32([0.5, 0.25, 2, 1]), np.float32([0.125, 0.375, -0.5, 0])
    expected = (c0 + c1) * np.float32([0.8, 0.4, 0.2, 1.0]) + c0[::-1]
    np.testing.assert_allclose(image.reshape(-1, 4), np.broadcast_to(expected, (SIZE * SIZE, 4)), rtol=4 * EPS32)


# --- the runner ----------------------------------------------------------------------------------


def test_missing_moderngl_is_reported_as_gl_unavailable(monkeypatch):
    monkeypatch.setitem(sys.modules, "moderngl", None)  # makes "import moderngl" fail
    with pytest.raises(GlUnavailable, match="moderngl is not installed"):
        gl_context.__wrapped__()
    assert issubclass(GlUnavailable, InputError)


def test_impossible_viewports_are_input_errors():
    program, _, _ = golden_program(GOLDEN / "asm" / "fp_mov_color.fpo.bin")
    glsl = decompile(program, fullscreen=True)
    for width, height in ((0, 4), (4, -1), (1 << 20, 4)):
        with pytest.raises(InputError, match="viewport"):
            render_fragment_fullscreen(glsl, width, height)


def test_glsl_that_does_not_compile_is_an_input_error():
    with pytest.raises(InputError, match="does not compile"):
        render_fragment_fullscreen("#version 430\nout vec4 c;\nvoid main() { c = r9; }\n", 4, 4)


def test_vertex_attributes_must_have_one_shape():
    program, _, _ = golden_program(GOLDEN / "asm" / "vp_mvp_color.vpo.bin")
    glsl = decompile(program)
    constants = np.zeros((468, 4), dtype=np.float32)
    with pytest.raises(InputError, match=r"v\[3\] has shape \(5, 4\), expected \(4, 4\)"):
        run_vertex_glsl(glsl, {0: np.zeros((4, 4)), 3: np.zeros((5, 4))}, constants)
    with pytest.raises(InputError, match="at least one attribute"):
        run_vertex_glsl(glsl, {}, constants)


def test_unwritten_vertex_outputs_are_0001():
    program, _, _ = golden_program(GOLDEN / "asm" / "vp_mvp_color.vpo.bin")
    outputs = run_vertex_glsl(decompile(program), {0: np.ones((3, 4), np.float32)},
                              np.zeros((468, 4), dtype=np.float32))
    assert outputs.shape == (16, 3, 4)
    np.testing.assert_array_equal(outputs[7:], np.broadcast_to([0, 0, 0, 1], (9, 3, 4)))
    np.testing.assert_array_equal(outputs[1], np.broadcast_to([0, 0, 0, 1], (3, 4)))  # v[3] missing


def test_decompiled_vertex_and_fragment_programs_link():
    """The real cube pair: the VP's outputs feed the FP's inputs by name."""
    vertex, vertex_parameters, _ = golden_program(GOLDEN / "real" / "gs_gcm_cube_0x208dc.vpo")
    fragment, fragment_parameters, header = golden_program(GOLDEN / "real" / "gs_gcm_cube_0x38f80.fpo")
    program = gl_context().program(vertex_shader=decompile(vertex, vertex_parameters),
                                   fragment_shader=decompile(fragment, fragment_parameters, header=header))
    assert "vc" in program and "u_letterTex" in program
    program.release()


def test_timing_gives_a_throughput():
    program, _, _ = golden_program(GOLDEN / "asm" / "fp_arith_const.fpo.bin")
    assert time_fragment_fullscreen(decompile(program, fullscreen=True), 64, 64, 0.05) > 0.0
