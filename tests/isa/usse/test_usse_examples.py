"""The example programs of examples/usse: they assemble, list and re-assemble to the same words,
compute what their comments say (checked against NumPy on random inputs, within the rounding of
one fused multiply-add: a relative 2**-22), and draw as the hardware suites draw (a triangle strip
with the vertices' colours at the corners)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from shaderkit.isa.usse import make_isa

EXAMPLES = Path(__file__).parents[3] / "examples" / "usse"
ISA = make_isa()


def test_lerp_lists_and_reassembles_to_the_same_words():
    words = ISA.assemble((EXAMPLES / "lerp.s").read_text(), "lerp.s").words
    assert len(words) == 12
    assert ISA.assemble(ISA.disassemble(words), "again.s").words == words


def test_lerp_mixes_two_attributes_by_a_uniform():
    rng = np.random.default_rng(14)
    lanes = 1000
    a, b = rng.uniform(-4, 4, (2, 4, lanes)).astype(np.float32)
    t = np.float32(rng.uniform(0, 1))
    machine = ISA.machine(ISA.assemble((EXAMPLES / "lerp.s").read_text()).image, lanes=lanes)
    machine.set_bank("pa", 4, a.view(np.uint32))
    machine.set_bank("pa", 8, b.view(np.uint32))
    machine.set_bank("sa", 0, np.full((1, lanes), t).view(np.uint32))
    machine.run()
    result = machine.bank("o")[4:8].view(np.float32)
    expected = a + (b - a) * t
    assert np.allclose(result, expected, rtol=2.0 ** -22, atol=2.0 ** -22)


def test_the_lerp_inputs_file_gives_the_values_in_its_comments():
    printed = []
    inputs = str(EXAMPLES / "lerp.json")
    ISA.run_command("lerp.s", None, {"inputs": inputs}, echo=printed.append, warn=print,
                    load=lambda path: ISA.assemble((EXAMPLES / "lerp.s").read_text()).image)
    outputs = json.loads(printed[0])["outputs"]
    # mix(a, b, 0.25) of the file's colours, and the position passed through.
    assert outputs["o4"] == [0.75, 0.0, 0.0, 1.0] and outputs["o5"] == [0.0, 0.75, 0.0, 0.875]
    assert outputs["o6"] == [0.0, 0.0, 0.75, 0.75] and outputs["o7"] == [1.0] * 4
    assert outputs["o0"] == [-1.0, 1.0, -1.0, 1.0] and outputs["o1"] == [-1.0, -1.0, 1.0, 1.0]


def test_the_strip_picture_has_each_vertex_colour_at_its_corner(tmp_path):
    target = tmp_path / "lerp.png"
    ISA.run_command("lerp.s", str(target), {"inputs": str(EXAMPLES / "lerp.json"), "resolution": "96x54"},
                    echo=print, warn=print, load=lambda path: ISA.assemble((EXAMPLES / "lerp.s").read_text()).image)
    from PIL import Image
    picture = np.asarray(Image.open(target))
    assert picture.shape == (54, 96, 3)
    corners = {"bottom left": picture[-1, 0], "bottom right": picture[-1, -1], "top left": picture[0, 0],
               "top right": picture[0, -1]}
    expected = {"bottom left": (191, 0, 0), "bottom right": (0, 191, 0), "top left": (0, 0, 191),
                "top right": (255, 223, 191)}
    for corner, colour in expected.items():  # within the interpolation to the corner pixel centre
        assert np.abs(corners[corner].astype(int) - colour).max() <= 6, (corner, corners[corner])

