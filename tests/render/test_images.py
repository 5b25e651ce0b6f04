"""Tests for shaderkit.render.images: files read back with Pillow / imageio."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageSequence

from shaderkit.core.diagnostics import InputError
from shaderkit.render import colours6_to_rgb, palette_rgb6, save_animation, save_image, scale_nearest

# MP4 (H.264, yuv420p) is lossy. For flat blocks aligned to the 2x2 chroma grid
# in the 64 saturated palette colours, the mean absolute error per channel value
# measures about 3; the limit leaves room for encoder differences.
MP4_MEAN_ABS_ERROR_LIMIT = 8


def random_colours6(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    return rng.integers(0, 64, size=shape, dtype=np.uint8)


def palette_frames(count: int, shape: tuple[int, int], block: int = 1, seed: int = 0) -> list[np.ndarray]:
    """Distinct frames using only the 64-colour palette (exact in a GIF)."""
    rng = np.random.default_rng(seed)
    frames = []
    for index in range(count):
        colours = random_colours6(rng, shape)
        colours[0, 0] = index  # consecutive frames always differ (Pillow merges equal ones)
        frames.append(scale_nearest(colours6_to_rgb(colours), block))
    return frames


def directory_entries(path) -> list[str]:
    return sorted(entry.name for entry in path.iterdir())


# --- palette and scaling ---------------------------------------------------------------


def test_palette_rgb6_maps_each_two_bit_channel_to_85_times_c():
    palette = palette_rgb6()
    assert palette.shape == (64, 3) and palette.dtype == np.uint8
    assert palette[0].tolist() == [0, 0, 0]
    assert palette[63].tolist() == [255, 255, 255]
    assert palette[0b110000].tolist() == [255, 0, 0]
    assert palette[0b001000].tolist() == [0, 170, 0]
    assert palette[0b000001].tolist() == [0, 0, 85]
    assert palette[0b011011].tolist() == [85, 170, 255]
    assert len({tuple(row) for row in palette.tolist()}) == 64


def test_palette_rgb6_returns_a_private_copy():
    palette = palette_rgb6()
    palette[:] = 7
    assert palette_rgb6()[63].tolist() == [255, 255, 255]


def test_colours6_to_rgb_uses_the_palette():
    colours = np.array([[0, 63], [0b110000, 0b000011]], dtype=np.uint8)
    rgb = colours6_to_rgb(colours)
    assert rgb.shape == (2, 2, 3) and rgb.dtype == np.uint8
    assert rgb.tolist() == [[[0, 0, 0], [255, 255, 255]], [[255, 0, 0], [0, 0, 255]]]


def test_colours6_to_rgb_rejects_values_above_63():
    with pytest.raises(InputError, match="0..63"):
        colours6_to_rgb(np.array([[64]], dtype=np.uint8))


def test_scale_nearest_repeats_pixels():
    rgb = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    scaled = scale_nearest(rgb, 3)
    assert scaled.shape == (6, 9, 3)
    for y in range(6):
        for x in range(9):
            assert scaled[y, x].tolist() == rgb[y // 3, x // 3].tolist()
    assert np.array_equal(scale_nearest(rgb, 1), rgb)


@pytest.mark.parametrize("factor", [0, -2, 1.5])
def test_scale_nearest_rejects_bad_factors(factor):
    with pytest.raises(InputError):
        scale_nearest(np.zeros((2, 2, 3), np.uint8), factor)


# --- PNG --------------------------------------------------------------------------------


def test_png_round_trip_is_exact(tmp_path):
    rng = np.random.default_rng(7)
    rgb = rng.integers(0, 256, size=(37, 53, 3), dtype=np.uint8)
    path = tmp_path / "picture.png"
    save_image(path, rgb)
    with Image.open(path) as image:
        assert image.format == "PNG"
        assert image.mode == "RGB"  # colour type 2: 8-bit RGB, no alpha
        assert np.array_equal(np.asarray(image), rgb)
    assert directory_entries(tmp_path) == ["picture.png"]


def test_save_image_rejects_a_non_rgb_array(tmp_path):
    with pytest.raises(InputError, match=r"\(H, W, 3\)"):
        save_image(tmp_path / "x.png", np.zeros((4, 4), np.uint8))
    assert directory_entries(tmp_path) == []


def test_save_image_into_a_missing_directory_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="cannot write"):
        save_image(tmp_path / "missing" / "x.png", np.zeros((2, 2, 3), np.uint8))


# --- GIF --------------------------------------------------------------------------------


def test_gif_frames_read_back_exactly(tmp_path):
    frames = palette_frames(6, (9, 13), block=2)
    path = tmp_path / "anim.gif"
    save_animation(path, (frame for frame in frames), fps=20)
    with Image.open(path) as image:
        assert image.format == "GIF"
        assert image.n_frames == len(frames)
        assert image.info["loop"] == 0  # loop forever
        for index, frame in enumerate(ImageSequence.Iterator(image)):
            assert frame.info["duration"] == 50  # 1000 / 20 ms
            assert np.array_equal(np.asarray(frame.convert("RGB")), frames[index]), index
    assert directory_entries(tmp_path) == ["anim.gif"]


def test_gif_suffix_is_case_insensitive(tmp_path):
    save_animation(tmp_path / "ANIM.GIF", palette_frames(2, (4, 4)), fps=5)
    with Image.open(tmp_path / "ANIM.GIF") as image:
        assert image.n_frames == 2


def test_progress_bar_goes_to_stderr(tmp_path, capsys):
    save_animation(tmp_path / "a.gif", iter(palette_frames(3, (4, 4))), fps=10, count=3, progress=True)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "3/3" in captured.err


# --- MP4 --------------------------------------------------------------------------------


def read_mp4(path) -> list[np.ndarray]:
    import imageio.v2 as imageio

    with imageio.get_reader(path, format="FFMPEG") as reader:
        return [np.asarray(frame) for frame in reader]


def mean_abs_error(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.int16) - b.astype(np.int16)).mean())


def test_mp4_has_the_right_frame_count_shape_and_content(tmp_path):
    # 40 x 56: even, but not a multiple of 16.
    frames = palette_frames(7, (5, 7), block=8, seed=3)
    path = tmp_path / "anim.mp4"
    save_animation(path, (frame for frame in frames), fps=12.5)
    decoded = read_mp4(path)
    assert len(decoded) == len(frames)
    for original, frame in zip(frames, decoded):
        assert frame.shape == original.shape
        assert mean_abs_error(frame, original) < MP4_MEAN_ABS_ERROR_LIMIT
    assert directory_entries(tmp_path) == ["anim.mp4"]


def test_mp4_with_odd_size_is_padded_by_one_edge_pixel(tmp_path):
    # Colour edges on even coordinates so that chroma subsampling does not blur them.
    frames = [frame[:45, :63] for frame in palette_frames(3, (3, 4), block=16, seed=5)]
    path = tmp_path / "odd.mp4"
    save_animation(path, frames, fps=24)
    decoded = read_mp4(path)
    assert len(decoded) == 3
    for original, frame in zip(frames, decoded):
        assert frame.shape == (46, 64, 3)
        assert mean_abs_error(frame[:45, :63], original) < MP4_MEAN_ABS_ERROR_LIMIT


# --- errors and atomicity ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["anim.gif", "anim.mp4"])
def test_nothing_is_written_when_the_generator_raises(tmp_path, name):
    frames = palette_frames(4, (8, 8), block=2)

    def failing():
        yield frames[0]
        yield frames[1]
        raise RuntimeError("renderer broke")

    with pytest.raises(RuntimeError, match="renderer broke"):
        save_animation(tmp_path / name, failing(), fps=10, count=4, progress=True)
    assert directory_entries(tmp_path) == []


def test_a_failed_write_keeps_the_previous_file(tmp_path):
    path = tmp_path / "anim.gif"
    path.write_bytes(b"old")

    def failing():
        yield palette_frames(1, (4, 4))[0]
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        save_animation(path, failing(), fps=10)
    assert path.read_bytes() == b"old"
    assert directory_entries(tmp_path) == ["anim.gif"]


def test_unknown_extension_is_an_input_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError) as excinfo:
        save_animation("x.avi", palette_frames(1, (4, 4)), fps=10)
    assert str(excinfo.value) == "cannot write animation to 'x.avi': use .gif or .mp4"
    assert directory_entries(tmp_path) == []


@pytest.mark.parametrize("fps", [0, -1, float("nan")])
def test_non_positive_fps_is_an_input_error(tmp_path, fps):
    with pytest.raises(InputError, match="frame rate"):
        save_animation(tmp_path / "a.gif", palette_frames(1, (4, 4)), fps=fps)
    assert directory_entries(tmp_path) == []


def test_frames_of_different_sizes_are_an_input_error(tmp_path):
    frames = [np.zeros((4, 4, 3), np.uint8), np.zeros((4, 5, 3), np.uint8)]
    with pytest.raises(InputError, match="frame 1 has shape"):
        save_animation(tmp_path / "a.mp4", frames, fps=10)
    assert directory_entries(tmp_path) == []


def test_no_frames_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="no frames"):
        save_animation(tmp_path / "a.gif", [], fps=10)
    assert directory_entries(tmp_path) == []
