"""Issue 10 for THEIA: extreme option values, oversized textures, extreme model coordinates and
empty images. Each ends in a result or a one-line error with exit code 2."""

from __future__ import annotations

import struct
import time
import zlib
from pathlib import Path

import numpy as np
import pytest

from shaderkit.core.diagnostics import InputError
from shaderkit.isa.theia import Theia
from shaderkit.isa.theia.fixedpoint import to_fixed
from shaderkit.isa.theia.scene import scene_from_obj
from conftest import assert_one_line_error, invoke_cli as invoke

ROOT = Path(__file__).resolve().parents[3]
CUBE = ROOT / "examples" / "theia" / "models" / "cube.obj"


# --- the fixed-point range --------------------------------------------------------------------

@pytest.mark.parametrize("value", [1e308, -1e308, 1.7976931348623157e308, 16384.0, -16384.00001])
def test_to_fixed_refuses_values_out_of_range_with_value_error(value):
    # 1e308 * 2**17 is infinite: math.floor raised OverflowError, which nobody caught.
    with pytest.raises(ValueError, match="outside the fixed-point range"):
        to_fixed(value)


def test_to_fixed_keeps_the_edges():
    assert to_fixed(-16384.0) == 0x8000_0000
    assert to_fixed((2 ** 31 - 1) / 2 ** 17) == 0x7FFF_FFFF


@pytest.mark.parametrize("option, value, message", [
    ("--window", "-1e308,0,1,1", "window coordinate -1e+308 is outside the fixed-point range"),
    ("--window", "-1e300,-1e300,1e300,1e300", "window coordinate -1e+300 is outside the fixed-point range"),
    ("--window", "0,0,1e-300,1e-300", "narrower than THEIA's fixed-point step"),
    ("--camera", "1e200,1e200,1e200", "camera coordinate 1e+200 is outside the fixed-point range"),
    ("--camera", "0,0,1e308", "camera coordinate 1e+308 is outside the fixed-point range"),
    ("--camera", "0,0,1e999", "--camera needs 3 numbers"),
    ("--resolution", "²x2", "--resolution needs WIDTHxHEIGHT"),
    ("--resolution", "9" * 5000 + "x2", "--resolution needs WIDTHxHEIGHT"),
])
def test_extreme_scene_options_are_one_line_errors(tmp_path, option, value, message):
    result = invoke("run", "-m", "theia", "--obj", CUBE, f"{option}={value}", "-o", tmp_path / "out.png")
    assert_one_line_error(result, message)
    assert not (tmp_path / "out.png").exists()


@pytest.mark.parametrize("frames, fps", [(200, "0.01"), (20000, "1")])
def test_an_animation_longer_than_the_time_register_is_refused_before_rendering(tmp_path, frames, fps):
    started = time.perf_counter()
    result = invoke("run", "-m", "theia", "--obj", CUBE, "--resolution", "8x8", "--frames", frames,
                    "--fps", fps, "-o", tmp_path / "out.mp4")
    assert time.perf_counter() - started < 30  # refused up front, not after 16,384 frames
    assert_one_line_error(result, f"--frames {frames} at --fps {float(fps):g} lasts",
                          "THEIA's time (C7, fixed point) only reaches 16384 s")


@pytest.mark.parametrize("fps", ["1e-300", "0.0001"])
def test_a_frame_rate_below_the_option_range_is_refused_at_the_option(tmp_path, fps):
    result = invoke("run", "-m", "theia", "--obj", CUBE, "--frames", "3", "--fps", fps, "-o", tmp_path / "out.gif")
    assert_one_line_error(result, "--fps", "0.01<=x<=60")


def test_an_animation_up_to_the_last_representable_time_is_accepted():
    from shaderkit.isa.theia.command import _check_animation_time
    _check_animation_time(2, 1 / 16383)  # the second frame at t = 16383 s, which C7 holds
    scene = scene_from_obj(CUBE, resolution=(4, 4))
    assert Theia().machine().render(scene, time=16383.0).image.shape[:2] == (4, 4)


# --- textures --------------------------------------------------------------------------------

def png_header(width: int, height: int) -> bytes:
    """A PNG that claims ``width`` × ``height`` pixels but holds no image data."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("side, message", [
    (20000, "cannot read the image (Image size (400000000 pixels) exceeds limit"),  # Pillow's bomb error
    (10000, "cannot read the image (Image size (100000000 pixels) exceeds limit"),  # Pillow only warned
    (5000, "5000x5000 pixels is larger than a texture may be (at most 16,777,216 pixels, 4096x4096)"),
])
def test_a_texture_claiming_too_many_pixels_is_refused_before_decoding(tmp_path, side, message):
    texture = tmp_path / "huge.png"
    texture.write_bytes(png_header(side, side))
    with pytest.raises(InputError) as caught:
        scene_from_obj(CUBE, texture)
    assert str(caught.value).startswith(f"{texture}: ") and message in str(caught.value)


def test_a_decompression_bomb_texture_is_one_line_on_the_command_line(tmp_path):
    texture = tmp_path / "bomb.png"
    texture.write_bytes(png_header(20000, 20000))
    result = invoke("run", "-m", "theia", "--obj", CUBE, "--texture", texture, "-o", tmp_path / "out.png")
    assert_one_line_error(result, f"{texture}: cannot read the image")


def test_a_fifo_as_texture_is_refused(tmp_path):
    import os
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        scene_from_obj(CUBE, fifo)


# --- extreme model coordinates ---------------------------------------------------------------

@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("scale", [2.0 ** 1000, 2.0 ** -1000])
def test_the_scene_of_a_model_does_not_depend_on_its_scale(tmp_path, scale):
    # The model is normalised anyway; at 2**1000 its extent overflowed (NumPy warnings, then
    # an error), at 2**-1000 it underflowed to "all face vertices coincide".
    lines = []
    for line in CUBE.read_text().splitlines():
        if line.startswith("v "):
            lines.append("v " + " ".join(repr(float(value) * scale) for value in line.split()[1:]))
        else:
            lines.append(line)
    scaled = tmp_path / "scaled.obj"
    scaled.write_text("\n".join(lines) + "\n")
    plain_scene, scaled_scene = scene_from_obj(CUBE), scene_from_obj(scaled)
    assert np.array_equal(plain_scene.vertex_memory, scaled_scene.vertex_memory)
    assert np.array_equal(plain_scene.config, scaled_scene.config)


# --- empty images ----------------------------------------------------------------------------

def test_an_empty_image_is_an_error_not_a_listing():
    with pytest.raises(InputError, match="^empty image: no words to disassemble$"):
        Theia().disassemble([])


# --- what the options promise ------------------------------------------------------------------

def test_a_resolution_past_the_pixel_limit_is_refused_before_rendering(tmp_path):
    # 4096x4096 took 1.8 GiB and over a minute; 2048x2048 is the largest THEIA renders.
    result = invoke("run", "-m", "theia", "--obj", CUBE, "--resolution", "4096x4096", "-o", tmp_path / "out.png")
    assert_one_line_error(result, "--resolution 4096x4096 is more than THEIA renders (4,194,304 pixels")
    assert not (tmp_path / "out.png").exists()


def test_a_bare_register_run_refuses_an_output_file_it_would_not_write(tmp_path):
    program = ROOT / "examples" / "theia" / "unit" / "vector_math.s"
    result = invoke("run", "-m", "theia", "--program", program, "--registers", "-o", tmp_path / "out.npy")
    assert_one_line_error(result, "--program --registers prints the registers and writes no file: drop -o")
    assert invoke("run", "-m", "theia", "--program", program, "--registers").exit_code == 0
