"""The RSX example pairs of examples/rsx: they assemble, glslang accepts their GLSL, and each
fragment program gives the same picture in the emulator and on llvmpipe."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from shaderkit.isa.rsx.assembly import assemble
from shaderkit.isa.rsx.fragment import fragment_image, fullscreen_inputs, run_fragment_program
from shaderkit.isa.rsx.gl import render_fragment_fullscreen
from shaderkit.isa.rsx.glsl import decompile
from shaderkit.isa.rsx.textures import Texture

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "rsx"
PROGRAMS = sorted(EXAMPLES.glob("*.vp")) + sorted(EXAMPLES.glob("*.fp"))
# Inputs that make every example do real work: a unit normal and an eye-space position for
# phong, texture coordinates spanning several cells for holes.
INPUTS = {"TEX1": (0.3, 0.4, 0.866, 0.0), "TEX2": (0.2, -0.1, -4.0, 1.0), "COL0": (0.9, 0.7, 0.5, 1.0)}


def test_there_are_at_least_four_pairs():
    pairs = {path.stem for path in EXAMPLES.glob("*.fp")} & {path.stem for path in EXAMPLES.glob("*.vp")}
    assert len(pairs) >= 4


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_example_decompiles_to_glsl_that_glslang_accepts(tmp_path, path):
    program = assemble(path.read_text(), str(path)).program
    target = tmp_path / ("shader.vert" if path.suffix == ".vp" else "shader.frag")
    target.write_text(decompile(program))
    check = subprocess.run(["glslangValidator", str(target)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.fp")), ids=lambda p: p.name)
def test_example_fragment_program_agrees_with_llvmpipe(path):
    program = assemble(path.read_text(), str(path)).program
    ramp = np.linspace(0, 1, 8 * 8 * 4, dtype=np.float32).reshape(8, 8, 4)
    textures = {0: Texture(ramp, filter="linear", wrap="repeat")}
    size = 32
    emulated = fragment_image(run_fragment_program(program, fullscreen_inputs(size, size, INPUTS),
                                                   grid=(size, size), textures=textures), size, size)
    on_gl = render_fragment_fullscreen(decompile(program, fullscreen=True), size, size, overrides=INPUTS,
                                       textures=textures)
    # float32 on both sides; LG2/EX2/RSQ on llvmpipe are accurate to about 1e-6 (emu README).
    np.testing.assert_allclose(emulated, on_gl, rtol=1e-5, atol=2e-6)
    assert np.ptp(emulated[..., :3]) > 0 or path.stem == "gouraud"  # the picture is not flat
