"""Choosing and driving a TPP emulator: which frames to render, with which model.

The simple model (:mod:`.simple`) is used only where :mod:`.analysis` proves it gives
the hardware's picture; otherwise the exact cycle model (:mod:`.exact`) runs from reset.

Where the program starts: ``reset`` has it in instruction memory at reset (registers and
flag at their reset values); ``upload`` does what a chip does, running the revision's reset
program until the standard 60-byte UART upload (with the upstream regression's timing) has
replaced it, so a program that reads a register or the flag before setting it sees what the
reset program and the upload left there. ``auto`` uploads exactly such programs: for the
others both starts give the same frames once the program runs.

Frames are numbered from reset (frame 0 starts at reset); RT during frame k is
``floor(2k / (N + 1)) mod 64`` for time divisor N. After an upload, the program's first
frame is the one the upstream regression captures (frame 5): ``--rt`` looks from there, and
animations start there.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ...core.diagnostics import InputError
from ...render.images import checked_colours6, palette_rgb6, scale_nearest
from . import uart
from .analysis import prior_state_reads, simple_model_obstacles
from .exact import (CLOCKS_PER_FRAME, RESET_PROGRAMS, ExactMachine, UartEffect, first_frame_with_rt,
                    receive, rt_of_frame, upload_capture_frame, upload_schedule)
from .rgb import colours_to_rgb
from .simple import BLOCK, SimpleModel

MODELS = ("auto", "simple", "exact")
STARTS = ("auto", "reset", "upload")
# About a minute of emulation (4.5 ms a frame) and 2.8 minutes of chip time.
MAX_EXACT_FRAMES_WITHOUT_REPEAT = 10_000
# After this many exact frames in one session the rest run on the compiled line kernel
# (:mod:`.line_kernel`): compiling it for a program costs about as much as running this
# many frames on the clock model, so a long run never pays more than twice the best choice,
# and a short one (a picture, the test suite) never compiles.
LINE_KERNEL_AFTER_FRAMES = 200
DEFAULT_DIVISOR = 5
CHIP_FPS = 60.0
PALETTE = palette_rgb6()


@dataclass
class Choice:
    """What was chosen (a model, a start) and the facts about the program behind it."""

    chosen: str
    reasons: list[str]


def _choose(what: str, options: Sequence[str], requested: str, reasons: list[str], automatic: str) -> Choice:
    if requested not in options:
        raise InputError(f"unknown {what} '{requested}' (use {', '.join(options)})")
    return Choice(automatic if requested == "auto" else requested, reasons)


def choose_start(image: Sequence[int], rev: str, requested: str = "auto") -> Choice:
    """Where the program starts (``reset`` or ``upload``), and its reads of prior state."""
    reads = prior_state_reads(image, rev)
    return _choose("start", STARTS, requested, reads, "upload" if reads else "reset")


def choose_model(image: Sequence[int], rev: str, requested: str = "auto") -> Choice:
    """The emulator (``simple`` or ``exact``), and why the simple model may not be exact."""
    obstacles = simple_model_obstacles(image, rev)
    return _choose("model", MODELS, requested, obstacles, "exact" if obstacles else "simple")


class RunSession:
    """Renders frames of one program, each with the model that is right for it.

    With ``model="auto"`` a well-behaved program uses the simple model except for
    frame 0 after reset, which starts from the reset state, and the frames before an
    upload has put the program in place: those need the exact model.
    """

    def __init__(self, image: Sequence[int], rev: str = "B", model: str = "auto",
                 divisor: int = DEFAULT_DIVISOR, start: str = "auto"):
        if not 0 <= divisor <= 63:
            raise InputError(f"time divisor {divisor} out of range (0 to 63)")
        if rev == "A" and divisor != DEFAULT_DIVISOR:
            raise InputError("rev A has a fixed time divisor of 5")
        self.image, self.rev, self.divisor = list(image), rev, divisor
        self.requested = model
        self.choice = choose_model(self.image, rev, model)
        self.start = choose_start(self.image, rev, start)
        self.requested_start = start
        self.uploads = self.start.chosen == "upload"
        self._upload = uart.upload_bytes(self.image) if self.uploads else b""
        # The program's first frame: after an upload, the one the upstream regression captures.
        self.first_frame = upload_capture_frame(len(self._upload)) if self.uploads else 0
        self._simple = SimpleModel(self.image, rev) if self.choice.chosen == "simple" else None
        self._exact = None
        self._pending: list[UartEffect] = []

    @property
    def notes(self) -> list[str]:
        notes = []
        if self.requested_start == "auto" and self.uploads:
            notes.append(f"starting after an upload, as on the chip: {self.start.reasons[0]} "
                         "(--start reset preloads the program instead)")
        if self.requested == "auto" and self.choice.chosen == "exact":
            notes.append(f"using the exact model: {self.choice.reasons[0]}")
        if self.choice.chosen == "simple" and self.choice.reasons:
            notes += [f"the simple model may differ from the hardware: {reason}" for reason in self.choice.reasons]
        return notes

    def _uses_simple(self, frame: int) -> bool:
        if self._simple is None or self.requested != "auto":
            return self._simple is not None
        return frame != 0 and frame >= self.first_frame

    def model_for_frame(self, frame: int | None) -> str:
        """The model that renders ``frame`` after reset (None: a frame chosen by RT)."""
        return "simple" if self._simple is not None and (frame is None or self._uses_simple(frame)) else "exact"

    def frame_colours(self, frame: int) -> np.ndarray:
        """(480, 640) 6-bit colours of frame ``frame`` after reset."""
        return next(self.frames_colours([frame]))

    def frame_with_rt_colours(self, rt: int) -> np.ndarray:
        """The program's first frame whose RT is ``rt`` (for the simple model: any frame with that RT)."""
        if self._simple is not None:
            return self._simple.frame_colours(rt)
        return self.frame_colours(self.frame_with_rt_index(rt))

    def frame_with_rt_index(self, rt: int) -> int:
        """The number of the program's first frame whose RT is ``rt``."""
        return first_frame_with_rt(rt, self.divisor, self.first_frame)

    def animation_frames(self, count: int, fps: float) -> list[int]:
        """Chip frames an animation of ``count`` frames at ``fps`` shows, from the program's first."""
        return [self.first_frame + frame for frame in animation_frames(count, fps)]

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
                self._restart_exact()
            self._advance_exact_to(frame)
            self._receive_until((frame + 1) * CLOCKS_PER_FRAME)
            yield frame, self._run_exact_frame()

    def _restart_exact(self) -> None:
        """The exact model at reset: with the program preloaded, or with the revision's reset
        program and the upload's writes to come."""
        if self.uploads:
            self._exact = ExactMachine(RESET_PROGRAMS[self.rev], rev=self.rev, divisor=self.divisor)
            self._pending = upload_schedule(self._upload, self.rev)
        else:
            self._exact = ExactMachine(self.image, rev=self.rev, divisor=self.divisor)
        self._boundaries: dict[bytes, int] = {}
        self._period: int | None = None
        self._exact_frames_run = 0

    def _run_exact_frame(self) -> np.ndarray:
        """The exact model's next frame; a long run moves on to the compiled line kernel."""
        self._exact_frames_run += 1
        if self._exact_frames_run == LINE_KERNEL_AFTER_FRAMES:
            self._exact.use_line_kernel()
        return self._exact.run_frame()

    def _receive_until(self, update: int) -> None:
        """Apply the upload's writes that land by update ``update``, each at its clock."""
        receive(self._exact, self._pending, update)

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
            if self._pending:  # frames during the upload: the program is still changing
                self._receive_until((machine.frame_index + 1) * CLOCKS_PER_FRAME)
                self._run_exact_frame()
                continue
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
            self._run_exact_frame()

    # -- RGB, as the command line wants it ----------------------------------------------

    def frame(self, frame: int, scale: int = BLOCK) -> np.ndarray:
        return to_rgb(self.frame_colours(frame), scale)

    def frame_with_rt(self, rt: int, scale: int = BLOCK) -> np.ndarray:
        return to_rgb(self.frame_with_rt_colours(rt), scale)

    def animation(self, count: int, fps: float, scale: int = BLOCK) -> Iterator[np.ndarray]:
        """RGB frames of an animation; each a new array. Full-size frames of a long one are
        converted by the compiled converter (a compile, then ~40 µs a frame)."""
        compiled = scale == BLOCK and count >= LINE_KERNEL_AFTER_FRAMES
        for colours in self.frames_colours(self.animation_frames(count, fps)):
            yield to_rgb(colours, scale, compiled)


def to_rgb(colours: np.ndarray, scale: int = BLOCK, compiled: bool = False) -> np.ndarray:
    """6-bit colours → RGB; ``scale`` pixels per dekapixel (10 = the real 640×480 frame).

    Other scales sample each 10×10 block at its centre and repeat it ``scale`` times,
    so ``scale=1`` gives the 64×48 logical picture. ``compiled`` converts with
    :func:`.rgb.colours_to_rgb` (for many frames: it is compiled on first use).
    """
    if scale < 1:
        raise InputError(f"scale must be a positive whole number, got {scale}")
    if scale == BLOCK:
        if compiled:
            return colours_to_rgb(checked_colours6(colours))
        return np.take(PALETTE, checked_colours6(colours), axis=0)
    return scale_nearest(np.take(PALETTE, checked_colours6(colours[BLOCK // 2::BLOCK, BLOCK // 2::BLOCK]), axis=0), scale)




def animation_frames(count: int, fps: float) -> list[int]:
    """Chip frames shown by an animation of ``count`` frames played at ``fps``, in real time."""
    return [round(index * CHIP_FPS / fps) for index in range(count)]
