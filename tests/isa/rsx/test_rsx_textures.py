"""Tests for shaderkit.isa.rsx.textures: GL texel-centre conventions, nearest and bilinear
filtering, the three wrap modes, PNG loading (row 0 = bottom) and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from shaderkit.core.diagnostics import InputError
from shaderkit.isa.rsx.textures import Texture, load_texture, sample_2d

# A 4 x 2 texture (width 4, height 2); red = column, green = row, so a texel names itself.
ROWS, COLUMNS = 2, 4


def texture(filter: str = "nearest", wrap: str = "repeat") -> Texture:
    texels = np.zeros((ROWS, COLUMNS, 4), np.float32)
    texels[..., 0] = np.arange(COLUMNS)
    texels[..., 1] = np.arange(ROWS)[:, None]
    texels[..., 3] = 1
    return Texture(texels, filter, wrap)


def centre(column: float, row: float) -> tuple[float, float]:
    return (column + 0.5) / COLUMNS, (row + 0.5) / ROWS


def sample(tex: Texture, s, t) -> np.ndarray:
    return sample_2d(tex, np.asarray(s, np.float32), np.asarray(t, np.float32))


def test_nearest_reads_the_texel_that_covers_the_coordinate():
    tex = texture()
    # Texel i covers [i/W, (i+1)/W): its left edge belongs to it, its right edge does not.
    result = sample(tex, [0.0, 0.2499, 0.25, 0.99], [0.0, 0.0, 0.5, 0.99])
    np.testing.assert_array_equal(result[:, :2], [[0, 0], [0, 0], [1, 1], [3, 1]])
    assert result.shape == (4, 4) and result.dtype == np.float32


@pytest.mark.parametrize("wrap, expected_columns", [
    ("repeat", [3, 0, 1, 3]),
    ("clamp", [0, 0, 3, 3]),
    ("mirror", [0, 3, 2, 0]),  # period 8: -1 -> 0, -4 -> 3, 5 -> 2, 7 -> 0
])
def test_wrap_modes_on_texel_indexes(wrap, expected_columns):
    # Texel columns -1, -4, 5, 7 (s = (i + 0.5) / 4).
    s = [(i + 0.5) / COLUMNS for i in (-1, -4, 5, 7)]
    result = sample(texture("nearest", wrap), s, [0.25] * 4)
    assert result[:, 0].tolist() == expected_columns


def test_linear_at_a_texel_centre_is_that_texel():
    s, t = centre(2, 1)
    np.testing.assert_array_equal(sample(texture("linear", "clamp"), [s], [t]), [[2, 1, 0, 1]])


def test_linear_between_centres_blends_bilinearly():
    tex = texture("linear", "clamp")
    # A quarter of the way from column 1 to column 2, halfway between the rows.
    s = (1.5 + 0.25) / COLUMNS
    result = sample(tex, [s], [0.5])
    np.testing.assert_allclose(result, [[1.25, 0.5, 0, 1]], rtol=1e-6)


def test_linear_repeat_blends_across_the_edge():
    tex = texture("linear", "repeat")
    s, t = 0.0, centre(0, 0)[1]  # halfway between the last and the first column
    np.testing.assert_allclose(sample(tex, [s], [t])[0, 0], 1.5, rtol=1e-6)


def test_nan_and_infinite_coordinates_do_not_fail():
    result = sample(texture("linear"), [np.nan, np.inf, -np.inf], [np.nan, 0.5, 1e30])
    assert np.isfinite(result).all()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 3), st.integers(0, 1), st.sampled_from(["repeat", "clamp", "mirror"]),
       st.sampled_from(["nearest", "linear"]))
def test_any_texel_centre_samples_exactly(column, row, wrap, filter):
    s, t = centre(column, row)
    np.testing.assert_array_equal(sample(texture(filter, wrap), [s], [t]), [[column, row, 0, 1]])


def test_load_texture_flips_rows_so_row_zero_is_the_bottom(tmp_path):
    pixels = np.zeros((2, 3, 4), np.uint8)
    pixels[0] = (255, 0, 0, 255)  # the PNG's first (top) row is red
    pixels[1] = (0, 0, 255, 128)
    path = tmp_path / "image.png"
    Image.fromarray(pixels, "RGBA").save(path)
    tex = load_texture(path, filter="nearest", wrap="clamp")
    assert tex.texels.shape == (2, 3, 4) and tex.filter == "nearest" and tex.wrap == "clamp"
    np.testing.assert_array_equal(tex.texels[1, 0], [1, 0, 0, 1])
    np.testing.assert_allclose(tex.texels[0, 0], [0, 0, 1, 128 / 255])
    # t near 1 is the top of the image.
    np.testing.assert_array_equal(sample(tex, [0.5], [0.9])[0], [1, 0, 0, 1])


def test_load_texture_converts_other_modes_to_rgba(tmp_path):
    path = tmp_path / "grey.png"
    Image.fromarray(np.full((1, 1), 51, np.uint8), "L").save(path)
    np.testing.assert_allclose(load_texture(path).texels[0, 0], [0.2, 0.2, 0.2, 1])


@pytest.mark.parametrize("size, refused", [((4096, 1), False), ((1, 4096), False), ((4097, 1), True),
                                           ((1, 8192), True)])
def test_a_texture_is_at_most_4096_texels_a_side(tmp_path, size, refused):
    path = tmp_path / "strip.png"
    Image.new("RGB", size, (255, 0, 0)).save(path)
    if refused:
        with pytest.raises(InputError, match=f"{size[0]}x{size[1]} pixels is larger than a texture may be "
                                             r"\(at most 4096 a side\)"):
            load_texture(path)
    else:
        assert load_texture(path).texels.shape == (size[1], size[0], 4)


@pytest.mark.parametrize("content", [None, b"", b"\x89PNG\r\n\x1a\n garbage"])
def test_unreadable_files_raise_input_error(tmp_path, content):
    path = tmp_path / "broken.png"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(InputError, match="broken.png"):
        load_texture(path)


@pytest.mark.parametrize("arguments", [
    (np.zeros((2, 2, 3)),),
    (np.zeros((0, 2, 4)),),
    (np.zeros((2, 2, 4)), "cubic"),
    (np.zeros((2, 2, 4)), "linear", "border"),
])
def test_bad_texture_parameters_raise_input_error(arguments):
    with pytest.raises(InputError):
        Texture(*arguments)
