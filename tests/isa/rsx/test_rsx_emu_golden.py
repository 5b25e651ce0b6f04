"""The fragment emulator against the GL reference renders of golden/rsx/emu (llvmpipe, RGBA32F).

Each program is the cgcomp ucode of golden/rsx/asm run over the README's full-screen 64 x 64
inputs. Tolerances are the README's: a few ULP for arithmetic, ~1e-6 absolute for the
transcendental ops of fp_scalar_ops; discarded pixels must carry the sentinel exactly.
"""

from __future__ import annotations


import numpy as np
import pytest

from shaderkit.core.binfmt import read_words
from shaderkit.isa.rsx.container import ProgramKind, UCODE_BYTE_ORDER
from shaderkit.isa.rsx.fragment import (
    KILLED_SENTINEL,
    fragment_image,
    fullscreen_inputs,
    run_fragment_program,
)
from shaderkit.isa.rsx.instruction import decode_program
from conftest import golden_dir

GOLDEN = golden_dir("rsx")
SIZE = 64
EPS32 = float(np.finfo(np.float32).eps)
# (relative, absolute) tolerance per program.
TOLERANCES = {
    "fp_arith_const": (4 * EPS32, 0.0),
    "fp_frc_flr": (4 * EPS32, 0.0),
    "fp_if_else": (4 * EPS32, 0.0),
    "fp_kil": (4 * EPS32, 0.0),
    "fp_scalar_ops": (4 * EPS32, 1e-6),
}


def render(name: str) -> np.ndarray:
    words = read_words((GOLDEN / "asm" / f"{name}.fpo.bin").read_bytes(), "raw", word_bits=32,
                       byte_order=UCODE_BYTE_ORDER[ProgramKind.FRAGMENT])
    program = decode_program(words, ProgramKind.FRAGMENT, name)
    result = run_fragment_program(program, fullscreen_inputs(SIZE, SIZE), grid=(SIZE, SIZE))
    return fragment_image(result, SIZE, SIZE)


def test_every_emu_golden_has_a_tolerance():
    assert sorted(path.stem for path in (GOLDEN / "emu").glob("*.npy")) == sorted(TOLERANCES)


@pytest.mark.parametrize("name", sorted(TOLERANCES))
def test_program_matches_the_gl_render(name):
    expected = np.load(GOLDEN / "emu" / f"{name}.npy")
    image = render(name)
    assert image.shape == expected.shape == (SIZE, SIZE, 4)
    assert image.dtype == np.float32
    killed = np.all(expected == KILLED_SENTINEL, axis=2)
    np.testing.assert_array_equal(np.all(image == KILLED_SENTINEL, axis=2), killed)
    relative, absolute = TOLERANCES[name]
    np.testing.assert_allclose(image[~killed], expected[~killed], rtol=relative, atol=absolute)


def test_kil_golden_really_discards_half_the_pixels():
    # Guards the test above against a golden without any killed pixel.
    image = render("fp_kil")
    killed = np.all(image == KILLED_SENTINEL, axis=2)
    assert killed[:, :SIZE // 2].all() and not killed[:, SIZE // 2:].any()
