"""What ``shaderkit bench -m rsx`` measures: fragment-program throughput at 640×480.

One fragment program (:data:`BENCH_PROGRAM`, 20 instructions: texture-coordinate arithmetic,
a dot product, RSQ, SIN/COS, LG2/EX2, FRC, a conditional write under a CC test and a saturated
MAD) runs over a full-screen quad with the input definition of the emulation goldens:

* **emulator**: :func:`.fragment.run_fragment_program` on 307,200 lanes (the program is decoded
  and prepared once, outside the timing, like a compiled shader);
* **llvmpipe**: the decompiled GLSL (:func:`.glsl.decompile`, ``fullscreen=True``) drawn by Mesa's
  llvmpipe through moderngl into an RGBA32F framebuffer, timed to ``glFinish``.

Both are timed alternately in the same process; each figure is the best of several rounds
within the time budget. Before timing, the run checks that both give the same picture (within
the tolerance the tests use), so the two figures measure the same work.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shaderkit.core.diagnostics import ShaderkitError
from shaderkit.core.timing import best_times

WIDTH, HEIGHT = 640, 480
MINIMUM_ROUNDS = 3
# Emulator and GL agree to this (absolute, per channel) on the bench program; SIN/COS/LG2/EX2
# on llvmpipe are accurate to about 1e-6 (golden/rsx/emu/README.md).
AGREEMENT = 1e-4

BENCH_PROGRAM = """\
!!ARBfp1.0
OPTION NV_fragment_program2;
# shaderkit bench: rings, a lit bump and a checker from the texture coordinates
#const c[0] = 0.5 12 6.28318548 1
#const c[1] = 0.300000012 0.600000024 0.899999976 0.25
TEMP R0, R1, R2, R3;
ADDR R1.xy, fragment.texcoord[0], -c[0].x;
DP2R R1.z, R1, R1;
RSQR R1.w, R1.z;
MULR R2.x, R1.z, c[0].y;
FRCR R2.y, R2.x;
MULR R2.z, R2.y, c[0].z;
SINR R2.w, R2.z;
COSR R3.x, R2.z;
MULR R3.yz, R1.xxyy, R1.w;
MADR R3.w, R3.y, R3.z, R2.w;
LG2R R0.x, R1.w;
EX2R R0.y, -R1.z;
MULR R2.xy, fragment.texcoord[0], c[0].y;
FLRR R2.xy, R2;
ADDR R2.z, R2.x, R2.y;
MULR R2.w, R2.z, c[0].x;
FRCRC R2.w, R2.w;
MOVR R0.z(GT.w), R3.x;
MADR_SAT R0.xyz, R0, c[1], R3.w;
MOVR R0.w, c[0].w;
END
"""


@dataclass
class BenchResults:
    figures: dict[str, float]

    def report(self) -> str:
        f = self.figures
        return "\n".join([
            f"fragment program: {int(f['instructions'])} instructions at {WIDTH}x{HEIGHT}",
            f"emulator (NumPy lanes): {f['emulator_mpix_s']:8.2f} Mpixel/s ({f['emulator_s'] * 1e3:.1f} ms per frame)",
            f"llvmpipe (decompiled GLSL): {f['llvmpipe_mpix_s']:8.2f} Mpixel/s "
            f"({f['llvmpipe_s'] * 1e3:.1f} ms per frame)",
            f"ratio llvmpipe / emulator: {f['ratio']:.2f}x (target: within 10x)",
            f"{int(f['rounds'])} rounds in {f['elapsed_s']:.1f} s",
        ])


def bench_program():
    from .assembly import assemble
    return assemble(BENCH_PROGRAM, "<bench>").program


def run_benchmark(seconds: float = 2.0) -> BenchResults:
    from .fragment import fragment_image, fullscreen_inputs, run_fragment_program
    from .gl import prepare_fullscreen
    from .glsl import decompile

    program = bench_program()
    inputs = fullscreen_inputs(WIDTH, HEIGHT)
    gl_frame = prepare_fullscreen(decompile(program, fullscreen=True), WIDTH, HEIGHT)

    def emulate() -> np.ndarray:
        return fragment_image(run_fragment_program(program, inputs, grid=(HEIGHT, WIDTH)), WIDTH, HEIGHT)

    difference = float(np.max(np.abs(emulate() - gl_frame.render())))
    if not difference <= AGREEMENT:
        raise ShaderkitError(f"bench: emulator and llvmpipe disagree by {difference:g} (more than {AGREEMENT:g})")
    best, rounds, elapsed = best_times({"emulator": emulate, "llvmpipe": gl_frame.render}, seconds,
                                       MINIMUM_ROUNDS)
    megapixels = WIDTH * HEIGHT / 1e6
    figures = {
        "instructions": float(len(program.instructions)),
        "emulator_s": best["emulator"],
        "llvmpipe_s": best["llvmpipe"],
        "emulator_mpix_s": megapixels / best["emulator"],
        "llvmpipe_mpix_s": megapixels / best["llvmpipe"],
        "ratio": best["emulator"] / best["llvmpipe"],
        "max_difference": difference,
        "rounds": float(rounds),
        "elapsed_s": elapsed,
    }
    return BenchResults(figures)
