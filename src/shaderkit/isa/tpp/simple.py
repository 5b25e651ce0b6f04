"""The simple per-block model (spec 7.1), data-parallel over every block with NumPy.

One lane per 10×10 block (64 × 48), plus 47 lanes for block 0 of the first scan line
of each block row from row 1 on, whose RR differs (spec 5.3). The program is decoded
once into a list of bound operations; a frame is 19 NumPy steps over 3 119 lanes,
then the block colours are spread over the 640×480 picture. Exact for well-behaved
programs (see :mod:`.analysis`) on every frame but frame 0 after reset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ...render.images import palette_rgb6
from .hardware import SlotOperation, slot_operations
from .semantics import SEMANTICS, Flag, Target, lfsr_step

BLOCK = 10
COLUMNS, ROWS = 64, 48
WIDTH, HEIGHT = COLUMNS * BLOCK, ROWS * BLOCK
SLOT_WHERE_RX_ADVANCES = 18
REGISTERS = 8
RX, RY, RT, RR = 4, 5, 6, 7


def lfsr_powers(seeds: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """step^steps(seed) per lane."""
    values = seeds.copy()
    for count in range(int(steps.max(initial=0))):
        values = np.where(steps > count, lfsr_step(values), values)
    return values


def lane_inputs() -> dict[str, np.ndarray]:
    """RX, RY and RR (before and from slot 18 on) of every lane."""
    block_row, block_column = np.divmod(np.arange(ROWS * COLUMNS), COLUMNS)
    first_line_rows = np.arange(1, ROWS)
    ry = np.concatenate([block_row, first_line_rows])
    bx = np.concatenate([block_column, np.zeros(ROWS - 1, dtype=int)])
    seed = (ry + 1) % 64
    # Block 0 sees what the previous scan line left: step^2(RYprev + 1).
    previous_row_seed = np.concatenate([seed[:ROWS * COLUMNS], first_line_rows])
    rr = np.where(bx == 0, lfsr_powers(previous_row_seed, np.full_like(bx, 2)), lfsr_powers(seed, bx))
    return {
        "rx": bx.astype(np.uint8), "ry": ry.astype(np.uint8), "rr": rr.astype(np.uint8),
        "rx_late": ((bx + 1) % 64).astype(np.uint8), "rr_late": lfsr_powers(seed, bx + 1).astype(np.uint8),
    }


Step = Callable[[np.ndarray, np.ndarray], None]


def bind(operation: SlotOperation) -> Step | None:
    """The operation as a function of (registers, flag) updating them in place."""
    if operation.target in (Target.NOTHING, Target.OUTPUT):
        return None  # slot 19's OUT R0 is the frame's output; other OUTs are outside this model
    function = SEMANTICS.function(operation.mnemonic)
    a, b, imm, cond = operation.a, operation.b, operation.imm, operation.cond
    target_is_flag = operation.target == Target.FLAG

    def step(registers: np.ndarray, flag: np.ndarray) -> None:
        result = function(registers[a], registers[b], imm, registers[RX], registers[RY])
        destination = flag if target_is_flag else registers[a]
        if cond == Flag.ALWAYS:
            destination[...] = result
        else:
            destination[...] = np.where(flag == cond, result, destination)

    return step


class SimpleModel:
    """Renders frames of a well-behaved program; each frame depends only on RT."""

    def __init__(self, image: Sequence[int], rev: str = "B"):
        operations = slot_operations(image, rev)[:SLOT_WHERE_RX_ADVANCES + 1]
        self.early = [s for s in map(bind, operations[:SLOT_WHERE_RX_ADVANCES]) if s]
        self.late = [s for s in map(bind, operations[SLOT_WHERE_RX_ADVANCES:]) if s]
        self.inputs = lane_inputs()
        lanes = len(self.inputs["rx"])
        self.registers = np.zeros((REGISTERS, lanes), dtype=np.uint8)
        self.flag = np.full(lanes, Flag.ALWAYS, dtype=np.uint8)
        self.palette = palette_rgb6()
        self.picture = np.empty((HEIGHT, WIDTH, 3), dtype=np.uint8)
        self.block_lines = np.empty((ROWS, WIDTH, 3), dtype=np.uint8)

    def block_colours(self, rt: int) -> np.ndarray:
        """R0 after slot 18, per lane (6-bit colours)."""
        registers, flag, inputs = self.registers, self.flag, self.inputs
        registers[:4] = 0
        registers[RX], registers[RY], registers[RR] = inputs["rx"], inputs["ry"], inputs["rr"]
        registers[RT] = rt & 63
        flag[:] = Flag.ALWAYS
        for step in self.early:
            step(registers, flag)
        registers[RX], registers[RR] = inputs["rx_late"], inputs["rr_late"]
        for step in self.late:
            step(registers, flag)
        return registers[0]

    def frame_colours(self, rt: int) -> np.ndarray:
        """(480, 640) 6-bit colours."""
        lanes = self.block_colours(rt)
        blocks = lanes[:ROWS * COLUMNS].reshape(ROWS, COLUMNS)
        colours = np.repeat(np.repeat(blocks, BLOCK, axis=0), BLOCK, axis=1)
        colours[BLOCK::BLOCK, :BLOCK] = lanes[ROWS * COLUMNS:, None]
        return colours

    def frame_rgb(self, rt: int) -> np.ndarray:
        """(480, 640, 3) RGB, each 2-bit channel as 85·c. Returns an internal buffer."""
        lanes = self.block_colours(rt)
        rgb = self.palette[lanes]
        # Two copies with long contiguous runs: widen each block row to one scan line,
        # then repeat that line ten times (a single 5-D broadcast is ~10x slower).
        lines = self.block_lines
        lines.reshape(ROWS, COLUMNS, BLOCK, 3)[...] = rgb[:ROWS * COLUMNS].reshape(ROWS, COLUMNS, 1, 3)
        picture = self.picture
        picture.reshape(ROWS, BLOCK, WIDTH * 3)[...] = lines.reshape(ROWS, 1, WIDTH * 3)
        picture[BLOCK::BLOCK, :BLOCK] = rgb[ROWS * COLUMNS:, None, :]
        return picture

    def block_rgb(self, rt: int) -> np.ndarray:
        """(48, 64, 3) RGB of the logical 64×48 picture (one pixel per block)."""
        return self.palette[self.block_colours(rt)[:ROWS * COLUMNS].reshape(ROWS, COLUMNS)]

