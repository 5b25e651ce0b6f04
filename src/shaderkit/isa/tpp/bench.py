"""What ``shaderkit bench -m tpp`` measures: 640×480 RGB frames per second of both emulators
and of a naive per-pixel Python interpreter, all in the same process, in alternating rounds
(best and median), each also as a ratio to the real chip's 60 frames/s.

Both emulators run their compiled paths: the simple model its lane kernel (which ``run``
does not use yet), the exact model its steady-line kernel (:mod:`.line_kernel`, as long
runs do), on the bench program and on a dependency-heavy one whose state runs on from line
to line, so that no line repeats the previous one. Every frame ends as RGB (:mod:`.rgb`),
the same work for both models; before timing, the bench checks that they give the same
frame. The first call of each compiled path (compiling it, or loading it from the cache) is
timed on its own.

The baseline interprets the program once per screen pixel in plain Python, as a
first attempt would; it is timed over some pixels per round and scaled to a whole frame.
"""

from __future__ import annotations

import itertools
import os
import time
from dataclasses import dataclass

import numpy as np

from ...core.diagnostics import ShaderkitError
from ...core.jit import first_call, thread_counts
from ...core.timing import measure_rounds
from . import TinyPixelProcessor
from .exact import RESET_PROGRAMS, ExactMachine, rt_of_frame
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
    figures: dict[str, float | int | str]

    def report(self) -> str:
        f = self.figures
        lines = [f"{'640x480 RGB frames':<42} {'best frames/s':>14} {'median':>10} {'x real time':>12}"]
        for key, label in (("simple_fps", "simple model, bench program"),
                           ("exact_fps", "exact model, bench program"),
                           ("exact_dependent_fps", "exact model, dependency-heavy program"),
                           ("baseline_fps", "naive per-pixel Python, bench program")):
            lines.append(f"{label:<42} {f[key]:14,.1f} {f[key + '_median']:10,.1f} {f[key] / CHIP_FPS:12,.2f}")
        for key, label, target in (("simple_fps", "simple", TARGET_FPS["simple_fps"]),
                                   ("exact_fps", "exact", TARGET_FPS["exact_fps"]),
                                   ("exact_dependent_fps", "exact, dependency-heavy", TARGET_FPS["exact_dependent_fps"])):
            verdict = "met" if f[key] >= target else "not met"
            lines.append(f"{label} / baseline {f[key] / f['baseline_fps']:10,.0f}x   "
                         f"(target at least {target:,} frames/s: {verdict})")
        lines.append("first call (compile, or load from the cache): " + "; ".join(
            f"{label} {f[key + '_compile_s']:.2f} s ({f[key + '_compile_state']})"
            for key, label in (("shared", "clock model and RGB converter"), ("simple", "simple, per program"),
                               ("exact", "exact, per program"), ("exact_dependent", "dependency-heavy"))))
        lines.append(f"best and median of {int(f['rounds'])} alternating rounds in {f['seconds']:.2f} s; "
                     f"{int(f['cpu_count'])} CPUs, {int(f['numba_threads'])} Numba threads, "
                     f"load average {f['load_average']:.2f}")
        return "\n".join(lines)


# What issue 15 asks of this machine (frames/s, the best round).
TARGET_FPS = {"simple_fps": 10_000, "exact_fps": 10_000, "exact_dependent_fps": 2_000}
BASELINE_PIXELS_PER_ROUND = 64


def dependent_program(rev: str) -> str:
    """:data:`DEPENDENT_PROGRAM`; on rev A, which has no ROM ops, wave ops stand in for them."""
    if rev == "A":
        return DEPENDENT_PROGRAM.replace("FH R3", "SAW R3 RY").replace("TT R3", "RAMP R3 RX")
    return DEPENDENT_PROGRAM


def _shared_first_call(rev: str) -> tuple[float, str]:
    """The first call of what every program shares: the clock model, the RGB converter."""
    from .exact import _run_clocks
    from .rgb import _convert
    machine = ExactMachine(RESET_PROGRAMS[rev], rev=rev)

    def call() -> None:
        machine.run_clocks(1)
        machine.run_frame_rgb()
    return first_call((_run_clocks, _convert), call)


def _exact_machine(processor, image):
    """An exact machine on the compiled line path, and its kernel's first call (frame 0)."""
    machine = ExactMachine(image, rev=processor.rev, line_kernel=True)
    start = time.perf_counter()
    kernel = machine.line_kernel()  # writes the source (tens of ms), counted with the compile
    generate_seconds = time.perf_counter() - start
    seconds, state = first_call(kernel.dispatchers, machine.run_frame_rgb)
    return machine, generate_seconds + seconds, state


def run_benchmark(rev: str = "B", seconds: float = 2.0) -> BenchResults:
    """Frames per second of the simple model (``simple_fps``), the exact model on the bench
    program (``exact_fps``) and on a dependency-heavy program (``exact_dependent_fps``), and
    of a naive per-pixel interpreter (``baseline_fps``), all as 640x480 RGB frames, measured
    in alternating rounds: the keys are the best round, ``<key>_median`` the median one.
    Also each compiled path's first call (``<model>_compile_s``, ``<model>_compile_state``:
    compiled, cache or ready; ``shared_*`` for the clock model and the RGB converter, which
    every program uses, the others per program), thread counts, the load average, ``rounds`` and ``seconds``.
    """
    processor = TinyPixelProcessor(rev)
    image = processor.assemble(BENCH_PROGRAM, "<bench>").image
    dependent_image = processor.assemble(dependent_program(rev), "<bench>").image

    shared_seconds, shared_state = _shared_first_call(rev)
    simple = SimpleModel(image, rev, compiled=True)
    simple_seconds, simple_state = first_call(simple.dispatchers, lambda: simple.frame_rgb(0))
    exact, exact_seconds, exact_state = _exact_machine(processor, image)
    dependent, dependent_seconds, dependent_state = _exact_machine(processor, dependent_image)
    # The models must agree before their speeds mean anything (frame 1 on: frame 0 is exact-only).
    if not np.array_equal(exact.run_frame_rgb(), simple.frame_rgb(rt_of_frame(exact.frame_index - 1))):
        raise ShaderkitError("benchmark: the simple and exact models give different RGB frames")

    frames = itertools.count()
    pixels = itertools.count()
    operations = slot_operations(image, rev)[:SLOT_WHERE_RX_ADVANCES + 1]

    def baseline() -> None:
        for _ in range(BASELINE_PIXELS_PER_ROUND):
            k = next(pixels)
            naive_pixel(operations, k % WIDTH, (k // WIDTH) % HEIGHT, 1)

    measured = measure_rounds({
        # The simple model draws the frames the exact machine draws, RT as the exact one steps it.
        "simple": lambda: simple.frame_rgb(rt_of_frame(next(frames))),
        "exact": exact.run_frame_rgb,
        "exact_dependent": dependent.run_frame_rgb,
        "baseline": baseline,
    }, seconds)
    per_frame = {"simple": 1.0, "exact": 1.0, "exact_dependent": 1.0,
                 "baseline": WIDTH * HEIGHT / BASELINE_PIXELS_PER_ROUND}
    figures: dict[str, float | int | str] = {}
    for work, scale in per_frame.items():
        figures[f"{work}_fps"] = 1.0 / (measured.best[work] * scale)
        figures[f"{work}_fps_median"] = 1.0 / (measured.median[work] * scale)
    for work in ("simple", "exact", "baseline"):
        figures[f"{work}_ratio_to_chip"] = figures[f"{work}_fps"] / CHIP_FPS
    figures.update({
        "exact_dependent_ratio_to_chip": figures["exact_dependent_fps"] / CHIP_FPS,
        "shared_compile_s": shared_seconds, "shared_compile_state": shared_state,
        "simple_compile_s": simple_seconds, "simple_compile_state": simple_state,
        "exact_compile_s": exact_seconds, "exact_compile_state": exact_state,
        "exact_dependent_compile_s": dependent_seconds, "exact_dependent_compile_state": dependent_state,
        **thread_counts(),
        "load_average": os.getloadavg()[0],
        "rounds": measured.rounds,
        "seconds": measured.elapsed,
    })
    return BenchResults(figures)
