"""Issue 10 for TPP: far frames with the exact model, a Numba cache nowhere writable, and empty
images. Each ends in a result or a one-line error, quickly."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from shaderkit.core.diagnostics import InputError
from shaderkit.isa.tpp import TinyPixelProcessor
from shaderkit.isa.tpp import machine as machine_module
from shaderkit.isa.tpp.exact import ExactMachine
from shaderkit.isa.tpp.machine import RunSession, animation_frames, to_rgb

ROOT = Path(__file__).resolve().parents[3]
PLASMA = ROOT / "examples" / "tpp" / "plasma.s"


@pytest.fixture(scope="module")
def plasma() -> list[int]:
    return TinyPixelProcessor().assemble(PLASMA.read_text(), str(PLASMA)).image


def frame_by_running_every_frame(image: list[int], frame: int) -> np.ndarray:
    machine = ExactMachine(image)
    while machine.frame_index < frame:
        machine.run_frame()
    return machine.run_frame()


def test_a_far_frame_skips_whole_periods_of_a_repeating_state(plasma):
    # The state at frame boundaries repeats once RT has gone round (192 frames at N = 5),
    # so frame 10**20 is frame 1 + (10**20 - 1) % 192 of the same cycle.
    far = 10 ** 20
    started = time.perf_counter()
    colours = RunSession(plasma, model="exact").frame_colours(far)
    assert time.perf_counter() - started < 60  # hang guard: frame by frame this is 10**13 years
    assert np.array_equal(colours, frame_by_running_every_frame(plasma, 1 + (far - 1) % 192))


def test_skipping_gives_the_frames_a_full_run_gives(plasma):
    frames = [0, 5, 200, 450]
    session = RunSession(plasma, model="exact")
    for frame, colours in zip(frames, session.frames_colours(frames)):
        assert np.array_equal(colours, frame_by_running_every_frame(plasma, frame)), frame


def test_an_animation_at_a_tiny_fps_ends(plasma):
    chip_frames = animation_frames(3, 1e-9)  # a chip frame every 1.9 years of real time
    assert chip_frames[1] == 60 * 10 ** 9
    started = time.perf_counter()
    pictures = list(RunSession(plasma, model="exact").animation(3, 1e-9, scale=1))
    assert time.perf_counter() - started < 60  # hang guard
    for picture, chip_frame in zip(pictures, chip_frames):
        same_frame = chip_frame if chip_frame < 193 else 1 + (chip_frame - 1) % 192
        assert np.array_equal(picture, to_rgb(frame_by_running_every_frame(plasma, same_frame), 1))


def test_a_state_that_does_not_repeat_in_time_is_a_clear_error(plasma, monkeypatch):
    # Stand-in for a program whose state runs longer than the limit without repeating.
    monkeypatch.setattr(machine_module, "MAX_EXACT_FRAMES_WITHOUT_REPEAT", 50)
    with pytest.raises(InputError, match=r"frame 1,000,000 is out of reach: .* has not repeated in its "
                                         r"first 50 frames"):
        RunSession(plasma, model="exact").frame_colours(10 ** 6)
    # Frames within the limit are still rendered.
    assert RunSession(plasma, model="exact").frame_colours(40).shape == (480, 640)


def test_without_a_writable_numba_cache_the_kernel_compiles_in_memory(tmp_path):
    # As for a user who can write neither the installed package nor $HOME: Numba finds no
    # cache locator and, with cache=True, refuses to compile at import.
    environment = {**os.environ, "NUMBA_CACHE_LOCATOR_CLASSES": "UserProvidedCacheLocator",
                   "NUMBA_CACHE_DIR": "/dev/null/cache", "HOME": "/dev/null"}
    for private in ("SHADERKIT_CACHE_DIR", "XDG_CACHE_HOME"):
        environment.pop(private, None)
    # The clock model, and a generated line kernel (compiled from source held in memory).
    script = ("from shaderkit.isa.tpp.exact import ExactMachine\n"
              "frame = ExactMachine([0x0003] * 19).run_frame()\n"
              "fast = ExactMachine([0x0003] * 19, line_kernel=True)\n"
              "assert (fast.run_frame() == frame).all() and fast._line_kernel is not None\n"
              "print(frame.shape)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                            env=environment, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "(480, 640)" and result.stderr == ""


@pytest.mark.parametrize("rev", ["A", "B"])
def test_an_empty_image_is_an_error_not_an_empty_listing(rev):
    with pytest.raises(InputError, match="^empty image: no words to disassemble$"):
        TinyPixelProcessor(rev).disassemble([])
