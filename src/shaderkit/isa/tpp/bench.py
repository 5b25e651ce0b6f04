"""What ``shaderkit bench -m tpp`` measures: frames per second of both emulators and of a
naive per-pixel Python interpreter, all in the same process, each also as a ratio to
the real chip's 60 frames/s.

The baseline interprets the program once per screen pixel in plain Python, as a
first attempt would; it is timed over as many pixels as fit in the time budget and
scaled to a whole 640×480 frame.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from . import TinyPixelProcessor
from .hardware import slot_operations
from .machine import CHIP_FPS
from .semantics import FUNCTIONS, Flag, Target, lfsr_step
from .simple import HEIGHT, SLOT_WHERE_RX_ADVANCES, WIDTH, SimpleModel

# A well-behaved program that exercises most of the ALU (18 instructions).
BENCH_PROGRAM = """
MOV R0 RX
ADD R0 RT
SIN R1 R0
MOV R2 RY
SUB R2 RT
RAMP R2 R2
XOR R1 R2
SR R1 #4
SL R1 #4
MOV R3 RX
ADD R3 RY
SAW R3 R3
SR R3 #2
AND R3 R1
COMP R3 R1
SETEQ R0 #63
MOVLT R0 R3
OR R0 R1
"""

# A program whose state runs on from run to run and line to line (R1 and R2 are read before
# they are written), with long chains of conditional ALU ops, flag changes and ROM reads:
# no two lines start alike, so the exact model's line kernel runs every line.
DEPENDENT_PROGRAM = """
ADD R1 R0
COMP R1 R2
ADDGT R2 R1
SUBLT R2 RX
XOR R0 R2
FH R3
ADDEQ R0 R3
SIN R1 R1
COMP R0 R3
RAMPLT R0 R1
SAWGT R0 R2
ADD R2 RR
TT R3
XOREQ R0 R3
SR R1 #1
ADD R1 R2
COMP R2 R1
MOVGT R0 R1
"""


def naive_pixel(operations, x: int, y: int, rt: int) -> int:
    """One pixel, interpreted slot by slot (the baseline)."""
    registers = [0] * 8
    registers[4], registers[5], registers[6] = x // 10, y // 10, rt
    value = (y // 10 + 1) % 64
    for _ in range(x // 10):
        value = lfsr_step(value)
    registers[7] = value
    flag = Flag.ALWAYS
    for operation in operations:
        if operation.slot == SLOT_WHERE_RX_ADVANCES:
            registers[4] = (x // 10 + 1) % 64
            registers[7] = lfsr_step(registers[7])
        if operation.target in (Target.NOTHING, Target.OUTPUT) or (operation.conditional and operation.cond != flag):
            continue
        result = int(FUNCTIONS[operation.mnemonic](registers[operation.a], registers[operation.b], operation.imm,
                                                   registers[4], registers[5]))
        if operation.target == Target.FLAG:
            flag = result
        else:
            registers[operation.a] = result
    return registers[0]


@dataclass
class BenchResults:
    figures: dict[str, float]

    def report(self) -> str:
        lines = []
        for key, label in (("simple_fps", "simple model (640x480 RGB)"), ("exact_fps", "exact cycle model"),
                           ("baseline_fps", "naive per-pixel Python")):
            fps = self.figures[key]
            lines.append(f"{label:<28} {fps:12.2f} frames/s  {fps / CHIP_FPS:10.3f}x real time")
        lines.append(f"{'simple / baseline':<28} {self.figures['simple_fps'] / self.figures['baseline_fps']:12.0f}x")
        lines.append(f"{'exact / baseline':<28} {self.figures['exact_fps'] / self.figures['baseline_fps']:12.0f}x")
        return "\n".join(lines)


def _rate(work, seconds: float, minimum: int = 3) -> float:
    """Calls of ``work`` per second over about ``seconds``."""
    count = 0
    start = time.perf_counter()
    while count < minimum or time.perf_counter() - start < seconds:
        work(count)
        count += 1
    return count / (time.perf_counter() - start)


def run_benchmark(rev: str = "B", seconds: float = 2.0) -> BenchResults:
    processor = TinyPixelProcessor(rev)
    image = processor.assemble(BENCH_PROGRAM, "<bench>").image

    simple = SimpleModel(image, rev)
    simple.frame_rgb(0)
    simple_fps = _rate(lambda k: simple.frame_rgb(k & 63), seconds)

    machine = processor.machine(image)
    machine.run_frame()  # compile outside the timing
    exact_fps = _rate(lambda k: machine.run_frame(), seconds)

    operations = slot_operations(image, rev)[:SLOT_WHERE_RX_ADVANCES + 1]
    pixels_per_second = _rate(lambda k: naive_pixel(operations, k % WIDTH, (k // WIDTH) % HEIGHT, 1), seconds, 100)
    baseline_fps = pixels_per_second / (WIDTH * HEIGHT)

    return BenchResults({
        "simple_fps": simple_fps, "exact_fps": exact_fps, "baseline_fps": baseline_fps,
        "simple_ratio_to_chip": simple_fps / CHIP_FPS, "exact_ratio_to_chip": exact_fps / CHIP_FPS,
        "baseline_ratio_to_chip": baseline_fps / CHIP_FPS,
    })
