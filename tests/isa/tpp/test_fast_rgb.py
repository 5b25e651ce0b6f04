"""The fast frame → RGB path: the compiled converter, the simple model's compiled lanes, and
both models giving the same RGB frames."""

from __future__ import annotations

import numpy as np
import pytest

from shaderkit.isa.tpp import TinyPixelProcessor
from shaderkit.isa.tpp.bench import BENCH_PROGRAM, DEPENDENT_PROGRAM
from shaderkit.isa.tpp.exact import ExactMachine, rt_of_frame
from shaderkit.isa.tpp.rgb import colours_to_rgb
from shaderkit.isa.tpp.simple import SimpleModel
from shaderkit.render.images import colours6_to_rgb


@pytest.mark.parametrize("kind", ["random", "rows", "blocks", "partly"])
def test_the_converter_gives_the_palette_colours(kind):
    generator = np.random.default_rng(5)
    colours = generator.integers(0, 64, (480, 640), dtype=np.uint8)
    if kind == "rows":
        colours[:] = colours[:1]
    elif kind == "blocks":
        colours = np.repeat(np.repeat(colours[:48, :64], 10, axis=0), 10, axis=1)
    elif kind == "partly":  # lines equal to the one above except for a few groups of four pixels
        colours[1:] = colours[:1]
        colours[7, 3], colours[9, 600:610], colours[479, 639] = 1, 2, 3
    out = np.full((480, 640, 3), 77, dtype=np.uint8)
    assert colours_to_rgb(colours, out) is out
    assert np.array_equal(out, colours6_to_rgb(colours))
    assert np.array_equal(colours_to_rgb(colours[:, :20]), colours6_to_rgb(colours[:, :20]))  # the plain path


@pytest.fixture(scope="module")
def bench_image():
    return TinyPixelProcessor("B").assemble(BENCH_PROGRAM, "<bench>").image


@pytest.mark.parametrize("source", [BENCH_PROGRAM, DEPENDENT_PROGRAM])  # the second: ROM reads, conditions
def test_the_compiled_simple_model_matches_the_numpy_one(source):
    image = TinyPixelProcessor("B").assemble(source, "<bench>").image
    plain, fast = SimpleModel(image), SimpleModel(image, compiled=True)
    for rt in (0, 1, 17, 63):
        assert np.array_equal(plain.block_colours(rt), fast.block_colours(rt))
        assert np.array_equal(plain.frame_colours(rt), fast.frame_colours(rt))
        assert np.array_equal(plain.frame_rgb(rt), fast.frame_rgb(rt))


def test_both_models_give_the_same_rgb_frames(bench_image):
    exact = ExactMachine(bench_image)
    simple = SimpleModel(bench_image)
    exact.run_frame()  # frame 0 after reset is the exact model's alone
    for _ in range(4):
        rt = rt_of_frame(exact.frame_index)
        assert np.array_equal(exact.run_frame_rgb(), simple.frame_rgb(rt))
