"""Choosing and driving a TPP emulator: which frames to render, with which model.

The simple model (:mod:`.simple`) is used only where :mod:`.analysis` proves it gives
the hardware's picture; otherwise the exact cycle model (:mod:`.exact`) runs from reset
with the program preloaded. Frames are numbered from reset (frame 0 starts at reset);
RT during frame k is ``floor(2k / (N + 1)) mod 64`` for time divisor N.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ...core.diagnostics import InputError
from ...render.images import colours6_to_rgb, scale_nearest
from .analysis import simple_model_obstacles
from .exact import ExactMachine, first_frame_with_rt, rt_of_frame
from .simple import BLOCK, SimpleModel

MODELS = ("auto", "simple", "exact")
# About a minute of emulation (4.5 ms a frame) and 2.8 minutes of chip time.
MAX_EXACT_FRAMES_WITHOUT_REPEAT = 10_000
DEFAULT_DIVISOR = 5
CHIP_FPS = 60.0


@dataclass
class ModelChoice:
    model: str
    reasons: list[str]


def choose_model(image: Sequence[int], rev: str, requested: str = "auto") -> ModelChoice:
    if requested not in MODELS:
        raise InputError(f"unknown model '{requested}' (use {', '.join(MODELS)})")
    reasons = simple_model_obstacles(image, rev)
    if requested != "auto":
        return ModelChoice(requested, reasons)
    return ModelChoice("simple" if not reasons else "exact", reasons)


class RunSession:
    """Renders frames of one program, each with the model that is right for it.

    With ``model="auto"`` a well-behaved program uses the simple model except for
    frame 0 after reset, which starts from the reset state and so needs the exact model.
    """

    def __init__(self, image: Sequence[int], rev: str = "B", model: str = "auto",
                 divisor: int = DEFAULT_DIVISOR):
        if not 0 <= divisor <= 63:
            raise InputError(f"time divisor {divisor} out of range (0 to 63)")
        if rev == "A" and divisor != DEFAULT_DIVISOR:
            raise InputError("rev A has a fixed time divisor of 5")
        self.image, self.rev, self.divisor = list(image), rev, divisor
        self.requested = model
        self.choice = choose_model(self.image, rev, model)
        self._simple = SimpleModel(self.image, rev) if self.choice.model == "simple" else None
        self._exact = None

    @property
    def notes(self) -> list[str]:
        if self.requested == "auto" and self.choice.model == "exact":
            return [f"using the exact model: {self.choice.reasons[0]}"]
        if self.choice.model == "simple" and self.choice.reasons:
            return [f"the simple model may differ from the hardware: {reason}" for reason in self.choice.reasons]
        return []

    def _uses_simple(self, frame: int) -> bool:
        return self._simple is not None and not (self.requested == "auto" and frame == 0)

    def model_for_frame(self, frame: int | None) -> str:
        """The model that renders ``frame`` after reset (None: a frame chosen by RT)."""
        return "simple" if self._simple is not None and (frame is None or self._uses_simple(frame)) else "exact"

    def frame_colours(self, frame: int) -> np.ndarray:
        """(480, 640) 6-bit colours of frame ``frame`` after reset."""
        return next(self.frames_colours([frame]))

    def frame_with_rt_colours(self, rt: int) -> np.ndarray:
        """The first frame whose RT is ``rt`` (for the simple model: any frame with that RT)."""
        if self._simple is not None:
            return self._simple.frame_colours(rt)
        return self.frame_colours(first_frame_with_rt(rt, self.divisor))

    def frames_colours(self, frames: Sequence[int]) -> Iterator[np.ndarray]:
        """Colours of each requested frame; ``frames`` ascending (repeats allowed)."""
        exact = self._exact_frames([f for f in frames if not self._uses_simple(f)])
        index, colours = -1, None
        for frame in frames:
            if self._uses_simple(frame):
                yield self._simple.frame_colours(rt_of_frame(frame, self.divisor))
                continue
            while index != frame:
                index, colours = next(exact)
            yield colours

    def _exact_frames(self, frames: Sequence[int]) -> Iterator[tuple[int, np.ndarray]]:
        """Run the exact model forward from reset through the requested frames."""
        for frame in sorted(set(frames)):
            if self._exact is None or self._exact.frame_index > frame:
                self._exact = ExactMachine(self.image, rev=self.rev, divisor=self.divisor)
                self._boundaries: dict[bytes, int] = {}
                self._period: int | None = None
            self._advance_exact_to(frame)
            yield frame, self._exact.run_frame()

    def _advance_exact_to(self, frame: int) -> None:
        """Bring the exact model to the start of ``frame``.

        Running every frame from reset would take hours for a far frame (``--frame`` 10**9, or
        an animation at a tiny ``--fps``). Once the machine's state at a frame boundary repeats,
        every later frame repeats with that period and whole periods are skipped; a program
        whose state has not repeated within :data:`MAX_EXACT_FRAMES_WITHOUT_REPEAT` frames
        cannot reach a frame past that.
        """
        machine = self._exact
        while machine.frame_index < frame:
            if self._period is None:
                key = hashlib.blake2b(machine.periodic_state(), digest_size=16).digest()
                earlier = self._boundaries.setdefault(key, machine.frame_index)
                if earlier != machine.frame_index:
                    # The first repeat: boundaries are recorded in order, so this is the shortest period.
                    self._period = machine.frame_index - earlier
                    self._boundaries.clear()
            if self._period is not None:
                machine.skip_frames((frame - machine.frame_index) // self._period * self._period)
                if machine.frame_index == frame:
                    return
            elif machine.frame_index >= MAX_EXACT_FRAMES_WITHOUT_REPEAT:
                raise InputError(
                    f"frame {frame:,} is out of reach: the exact model runs every frame from reset, and this "
                    f"program's state has not repeated in its first {MAX_EXACT_FRAMES_WITHOUT_REPEAT:,} frames "
                    "(choose an earlier frame, or a higher --fps for an animation)")
            machine.run_frame()

    # -- RGB, as the command line wants it ----------------------------------------------

    def frame(self, frame: int, scale: int = BLOCK) -> np.ndarray:
        return to_rgb(self.frame_colours(frame), scale)

    def frame_with_rt(self, rt: int, scale: int = BLOCK) -> np.ndarray:
        return to_rgb(self.frame_with_rt_colours(rt), scale)

    def animation(self, count: int, fps: float, scale: int = BLOCK) -> Iterator[np.ndarray]:
        for colours in self.frames_colours(animation_frames(count, fps)):
            yield to_rgb(colours, scale)


def to_rgb(colours: np.ndarray, scale: int = BLOCK) -> np.ndarray:
    """6-bit colours → RGB; ``scale`` pixels per dekapixel (10 = the real 640×480 frame).

    Other scales sample each 10×10 block at its centre and repeat it ``scale`` times,
    so ``scale=1`` gives the 64×48 logical picture.
    """
    if scale < 1:
        raise InputError(f"scale must be a positive whole number, got {scale}")
    if scale == BLOCK:
        return colours6_to_rgb(colours)
    return scale_nearest(colours6_to_rgb(colours[BLOCK // 2::BLOCK, BLOCK // 2::BLOCK]), scale)


def animation_frames(count: int, fps: float) -> list[int]:
    """Chip frames shown by an animation of ``count`` frames played at ``fps``, in real time."""
    return [round(index * CHIP_FPS / fps) for index in range(count)]
