"""The VP1 example programs (examples/vp1/*.s) do the video work their headers describe.

Each program is assembled without a warning, run through the Python API
(``shaderkit.isa.get("vp1").machine()``) on its demo picture loaded in the layout of
:mod:`shaderkit.isa.vp1.pictures`, and its result is compared, byte for byte, with an
independent NumPy computation of the same integer maths. Every pipeline here is exact: the
vector unit's accumulator holds the weighted sums in full and the rounding constant is the
one the reference adds, and the saturating butterflies of the inverse transform are clipped
to signed bytes in the reference too, so no tolerance is needed. The picture the program read must be left
as it was, and the program must run the bundles its header states.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from shaderkit.isa import get
from shaderkit.isa.vp1 import pictures

from conftest import load_gallery

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "vp1"
PICTURES = EXAMPLES / "pictures"


def grey(name: str) -> np.ndarray:
    return np.asarray(Image.open(PICTURES / name).convert("L"), dtype=np.int64)


def colour(name: str) -> np.ndarray:
    return np.asarray(Image.open(PICTURES / name).convert("RGB"), dtype=np.int64)


def demo_picture(source: Path) -> Path:
    header = load_gallery().demo_header(source)
    arguments = list(header.arguments)
    return Path(arguments[arguments.index("--image-in") + 1])


def run_example(name: str, **choices):
    """(data store as 128×64 rows of program addresses, bundles run) after the example ran."""
    source = EXAMPLES / f"{name}.s"
    isa = get("vp1")
    program = isa.assemble(source.read_text(encoding="utf-8"), str(source))
    assert not program.warnings, [str(warning) for warning in program.warnings]
    machine = isa.machine(program.words, **choices)
    machine.data_store = pictures.load_picture(str(demo_picture(source)))
    result = machine.run(max_bundles=100_000)
    assert result.exit_code == 0
    rows = pictures.addresses_from_store(machine.data_store).reshape(128, 64).astype(np.int64)
    return rows, result.bundles


def stated_bundles(name: str) -> int:
    """The bundle count the header states: "(N bundles in all)"."""
    text = (EXAMPLES / f"{name}.s").read_text(encoding="utf-8")
    match = re.search(r"\(([\d,]+) bundles in all\)", text)
    assert match, f"{name}.s states how many bundles it runs"
    return int(match.group(1).replace(",", ""))


def test_there_are_at_least_four_examples_each_with_a_demo_picture():
    sources = sorted(EXAMPLES.glob("*.s"))
    assert len(sources) >= 5
    for source in sources:
        assert demo_picture(source).is_file(), source


def test_mc_average_is_the_rounded_average_of_two_motion_compensated_blocks():
    picture = grey("landscape.png")
    rows, bundles = run_example("mc_average")
    assert np.array_equal(rows[:64], picture)
    assert np.array_equal(rows[64:124], (picture[:60] + picture[4:64] + 1) >> 1)
    assert not rows[124:].any()
    assert bundles == stated_bundles("mc_average")


def test_smooth_is_the_vertical_1_2_1_filter():
    picture = grey("landscape.png")
    rows, bundles = run_example("smooth")
    assert np.array_equal(rows[:64], picture)
    expected = (picture[:-2] + 2 * picture[1:-1] + picture[2:] + 2) >> 2
    assert np.array_equal(rows[65:127], expected)
    assert not rows[64].any() and not rows[127].any()
    assert bundles == stated_bundles("smooth")


def test_luma_is_the_bt601_weighted_sum_of_the_planes():
    rgb = colour("landscape_rgb.png")
    rows, bundles = run_example("luma")
    for channel in range(3):
        assert np.array_equal(rows[32 * channel:32 * channel + 32], rgb[..., channel])
    red, green, blue = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    assert np.array_equal(rows[96:128], (77 * red + 150 * green + 29 * blue + 128) >> 8)
    assert bundles == stated_bundles("luma")


def test_deinterlace_doubles_the_field_lines_and_interpolates_between_them():
    field = grey("landscape_field.png")
    assert np.array_equal(field, grey("landscape.png")[0::2]), "the field is the even lines of the landscape"
    rows, bundles = run_example("deinterlace")
    assert np.array_equal(rows[:32], field) and not rows[32:64].any()
    frame = np.zeros((64, 64), dtype=np.int64)
    frame[0::2] = field
    frame[1:62:2] = (field[:-1] + field[1:] + 1) >> 1
    frame[63] = field[31]
    assert np.array_equal(rows[64:128], frame)
    assert bundles == stated_bundles("deinterlace")


def saturating_hadamard(values: np.ndarray, axis: int) -> np.ndarray:
    """The 4-point Walsh-Hadamard transform (rows of H = [[1,1,1,1],[1,-1,1,-1],[1,1,-1,-1],
    [1,-1,-1,1]]) over groups of 4 along ``axis``, as two stages of butterflies with every sum
    and difference clipped to a signed byte."""
    def sat(v):
        return np.clip(v, -128, 127)
    moved = np.moveaxis(values, axis, -1)
    t = moved.reshape(*moved.shape[:-1], -1, 4)
    a0, a1 = sat(t[..., 0] + t[..., 1]), sat(t[..., 0] - t[..., 1])
    a2, a3 = sat(t[..., 2] + t[..., 3]), sat(t[..., 2] - t[..., 3])
    y = np.stack([sat(a0 + a2), sat(a1 + a3), sat(a0 - a2), sat(a1 - a3)], axis=-1)
    return np.moveaxis(y.reshape(moved.shape), -1, axis)


def test_inverse_hadamard_decodes_the_coefficients_with_saturating_butterflies():
    coefficients = grey("landscape_hadamard.png") - 128
    rows, bundles = run_example("inverse_hadamard")
    assert np.array_equal(rows[:64], coefficients + 128)
    decoded = saturating_hadamard(saturating_hadamard(coefficients, 0), 1) + 128
    assert np.array_equal(rows[64:128], decoded)
    # H (H x H / 16) H = x: the decoded picture is the landscape up to the coefficients' rounding
    assert np.abs(decoded - grey("landscape.png")).max() <= 8
    assert bundles == stated_bundles("inverse_hadamard")


def test_deinterlace_relies_on_the_default_loop_rule():
    """Its inner loop is written for loop_taken="before" (the default, spec §13's hypothesis):
    under "after" each line runs one vector fewer, so the result differs."""
    default, _ = run_example("deinterlace")
    explicit, _ = run_example("deinterlace", loop_taken="before")
    other, _ = run_example("deinterlace", loop_taken="after")
    assert np.array_equal(default, explicit)
    assert not np.array_equal(default, other)


def test_the_pictures_are_what_their_script_makes():
    spec = importlib.util.spec_from_file_location("make_pictures", PICTURES / "make_pictures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    expected_grey = module.to_bytes(module.landscape(64, 64) @ np.array([0.299, 0.587, 0.114]))
    assert np.array_equal(grey("landscape.png"), expected_grey)
    assert np.array_equal(colour("landscape_rgb.png"), module.to_bytes(module.landscape(64, 32)))
    assert np.array_equal(grey("landscape_field.png"), expected_grey[0::2])
    assert np.array_equal(grey("landscape_hadamard.png"), module.hadamard_coefficients(expected_grey))


@pytest.mark.parametrize("machine_choice", [{}, {"chip": "nv41"}])
def test_the_examples_run_on_every_chip(machine_choice):
    rows, _ = run_example("luma", **machine_choice)
    assert rows[96:].any()
