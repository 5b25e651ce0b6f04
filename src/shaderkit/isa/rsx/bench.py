"""What ``shaderkit bench -m rsx`` measures: fragment-program throughput at 640×480.

One fragment program (:data:`BENCH_PROGRAM`, 20 instructions: texture-coordinate arithmetic,
a dot product, RSQ, SIN/COS, LG2/EX2, FRC, a conditional write under a CC test and a saturated
MAD) runs over a full-screen quad with the input definition of the emulation goldens:

* **emulator**: the compiled fragment path (:func:`.fragment_compiled.run_image`, what
  :func:`.fragment.run_fullscreen` runs for a big picture) rendering the 640×480 image; the
  program is decoded, prepared and compiled once, outside the timing, like a compiled shader.
  The first call's seconds (compiling, or loading from the kernel cache) are reported apart;
* **llvmpipe**: the decompiled GLSL (:func:`.glsl.decompile`, ``fullscreen=True``) drawn by Mesa's
  llvmpipe through moderngl into an RGBA32F framebuffer and read back (``llvmpipe_mpix_s``; the
  draw alone, to ``glFinish``, is ``llvmpipe_draw_mpix_s``), with its default threads; and again
  in a child process started with ``LP_NUM_THREADS=1`` (``llvmpipe_1thread_mpix_s``; the child
  reports how many llvmpipe threads it saw, so the setting is known to have taken effect).

Emulator and llvmpipe are timed alternately in the same process, round after round
(:func:`shaderkit.core.timing.measure_rounds`); each figure is the best round, ``*_median`` the
median. Before timing, the run checks that both give the same picture (within the tolerance the
tests use), so the figures measure the same work. Then the emulator's cost per pixel is scanned
from 64² to 2048², with its default threads (``scan_<size>_ns_per_pixel``) and on one thread
(``scan_1thread_<size>_ns_per_pixel``), next to llvmpipe's on the same sizes
(``llvmpipe_scan_<size>_ns_per_pixel``). ``scan_spread`` and ``scan_1thread_spread`` (largest
over smallest) say whether a pixel costs the same whatever the picture's size: no fixed cost
per tile or per frame that a small picture would feel. The bench program is one kernel per
tile, and its tiles run in one parallel call on Numba's pool, which hands a share of even a
64² picture (about 30 µs of work) to the other threads in a few microseconds. The peak memory
of one 2048² render is taken with :mod:`tracemalloc` (NumPy reports its buffers there) as a
multiple of the image's bytes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from shaderkit.core.diagnostics import ShaderkitError
from shaderkit.core.timing import measure_rounds

WIDTH, HEIGHT = 640, 480
MINIMUM_ROUNDS = 3
# Emulator and GL agree to this (absolute, per channel) on the bench program; SIN/COS/LG2/EX2
# on llvmpipe are accurate to about 1e-6 (golden/rsx/emu/README.md).
AGREEMENT = 1e-4
SCAN_SIZES = (64, 128, 256, 512, 1024, 2048)
MEMORY_SIZE = 2048
# The issue 15 target: at least this fraction of llvmpipe's throughput (default threads).
TARGET_FRACTION = 0.67

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
    notes: dict[str, str] = field(default_factory=dict)

    def report(self) -> str:
        f = self.figures
        def scan(key: str) -> str:
            return "  ".join(f"{size}²: {f[key.format(size=size)]:.2f}" for size in SCAN_SIZES)
        return "\n".join([
            f"fragment program: {int(f['instructions'])} instructions at {WIDTH}x{HEIGHT}",
            f"emulator (compiled kernels): {f['emulator_mpix_s']:8.2f} Mpixel/s best, "
            f"{f['emulator_mpix_s_median']:.2f} median ({f['emulator_s'] * 1e3:.2f} ms per frame)",
            f"llvmpipe (decompiled GLSL, {int(f['llvmpipe_threads'])} threads): {f['llvmpipe_mpix_s']:8.2f} "
            f"Mpixel/s best, {f['llvmpipe_mpix_s_median']:.2f} median "
            f"(draw alone: {f['llvmpipe_draw_mpix_s']:.2f})",
            f"llvmpipe, LP_NUM_THREADS=1 ({int(f['llvmpipe_1thread_threads_seen'])} thread seen): "
            f"{f['llvmpipe_1thread_mpix_s']:8.2f} Mpixel/s best, {f['llvmpipe_1thread_mpix_s_median']:.2f} median",
            f"emulator / llvmpipe: {f['llvmpipe_fraction']:.2f}x of its throughput (target: at least "
            f"{TARGET_FRACTION}x); against one llvmpipe thread: {f['llvmpipe_1thread_fraction']:.2f}x",
            f"first call: {f['first_call_s']:.2f} s ({self.notes.get('first_call', '?')}); "
            f"interpreter: {f['interpreter_mpix_s']:.2f} Mpixel/s",
            f"ns per pixel by size, emulator: {scan('scan_{size}_ns_per_pixel')} "
            f"(largest / smallest: {f['scan_spread']:.2f})",
            f"  on one thread: {scan('scan_1thread_{size}_ns_per_pixel')} "
            f"(largest / smallest: {f['scan_1thread_spread']:.2f})",
            f"  llvmpipe: {scan('llvmpipe_scan_{size}_ns_per_pixel')}",
            f"peak memory of a {MEMORY_SIZE}² render: {f['peak_memory_ratio_2048']:.2f}x the image",
            f"threads: {int(f['cpu_count'])} CPUs, {int(f['numba_threads'])} Numba; load average "
            f"{f['load_average']:.2f}; {int(f['rounds'])} rounds in {f['elapsed_s']:.1f} s",
        ])


def bench_program():
    from .assembly import assemble
    return assemble(BENCH_PROGRAM, "<bench>").program


def run_benchmark(seconds: float = 2.0) -> BenchResults:
    from shaderkit.core.jit import first_call, thread_counts

    from .fragment import FragmentMachine, run_fullscreen
    from .fragment_compiled import compiled_program, fullscreen_layout, run_image
    from .gl import prepare_fullscreen
    from .glsl import decompile

    program = bench_program()
    machine = FragmentMachine(program)
    glsl = decompile(program, fullscreen=True)
    gl_frame = prepare_fullscreen(glsl, WIDTH, HEIGHT)

    started = time.perf_counter()
    compiled = compiled_program(machine, fullscreen_layout({}, False))
    if compiled is None:
        raise ShaderkitError("bench: the bench program does not compile")
    _seconds, state = first_call(compiled.dispatchers, lambda: run_image(machine, 64, 64))
    first_seconds = time.perf_counter() - started

    def emulate() -> np.ndarray:
        return run_image(machine, WIDTH, HEIGHT)[0]

    def draw() -> None:
        gl_frame.draw()
        gl_frame.context.finish()

    image = emulate()
    difference = float(np.max(np.abs(image - gl_frame.render())))
    if not difference <= AGREEMENT:
        raise ShaderkitError(f"bench: emulator and llvmpipe disagree by {difference:g} (more than {AGREEMENT:g})")
    interpreted = run_fullscreen(program, WIDTH, HEIGHT, compiled=False)[0]
    if not np.array_equal(interpreted.view(np.uint32), image.view(np.uint32)):
        raise ShaderkitError("bench: the compiled path and the interpreter disagree")
    measured = measure_rounds({"emulator": emulate, "llvmpipe": gl_frame.render, "llvmpipe_draw": draw}, seconds)
    interpreter = measure_rounds({"interpreter": lambda: run_fullscreen(program, WIDTH, HEIGHT, compiled=False)},
                                 min(seconds, 1.0), minimum=2)
    single = _llvmpipe_single_thread(seconds)
    megapixels = WIDTH * HEIGHT / 1e6
    best, median = measured.best, measured.median
    figures = {
        "instructions": float(len(program.instructions)),
        "emulator_s": best["emulator"],
        "llvmpipe_s": best["llvmpipe"],
        "emulator_mpix_s": megapixels / best["emulator"],
        "emulator_mpix_s_median": megapixels / median["emulator"],
        "llvmpipe_mpix_s": megapixels / best["llvmpipe"],
        "llvmpipe_mpix_s_median": megapixels / median["llvmpipe"],
        "llvmpipe_draw_mpix_s": megapixels / best["llvmpipe_draw"],
        "llvmpipe_draw_mpix_s_median": megapixels / median["llvmpipe_draw"],
        "llvmpipe_1thread_mpix_s": single["best"],
        "llvmpipe_1thread_mpix_s_median": single["median"],
        "llvmpipe_1thread_threads_seen": float(single["threads_seen"]),
        "interpreter_mpix_s": megapixels / interpreter.best["interpreter"],
        "ratio": best["emulator"] / best["llvmpipe"],
        "llvmpipe_fraction": best["llvmpipe"] / best["emulator"],
        "llvmpipe_1thread_fraction": megapixels / best["emulator"] / single["best"],
        "max_difference": difference,
        "rounds": float(measured.rounds),
        "elapsed_s": measured.elapsed,
        "first_call_s": first_seconds,
        "first_call_compiled": float(state == "compiled"),
        "load_average": os.getloadavg()[0],
        **{key: float(value) for key, value in thread_counts().items()},
    }
    figures.update(cost_per_pixel_scan(machine, glsl, min(seconds, 0.5)))
    figures["peak_memory_ratio_2048"] = peak_memory_ratio(machine, MEMORY_SIZE)
    gl_frame.release()
    return BenchResults(figures, {"first_call": state})


def cost_per_pixel_scan(machine, glsl: str, seconds: float) -> dict[str, float]:
    """Nanoseconds per pixel of the emulator (default threads, then one) and of llvmpipe, by size."""
    import numba

    from .fragment_compiled import run_image
    from .gl import prepare_fullscreen

    figures = {}
    threads = numba.get_num_threads()
    for size in SCAN_SIZES:
        pixels = size * size
        # Each measured on its own: llvmpipe's threads, still busy after a render, would slow
        # the emulator's next round.
        emulator = measure_rounds({"run": lambda size=size: run_image(machine, size, size)}, seconds, minimum=3)
        numba.set_num_threads(1)  # the compiled path splits a picture over get_num_threads() threads
        try:
            single = measure_rounds({"run": lambda size=size: run_image(machine, size, size)}, seconds, minimum=3)
        finally:
            numba.set_num_threads(threads)
        frame = prepare_fullscreen(glsl, size, size)
        try:
            frame.render()
            llvmpipe = measure_rounds({"render": frame.render}, seconds, minimum=3)
        finally:
            frame.release()
        figures[f"scan_{size}_ns_per_pixel"] = emulator.best["run"] / pixels * 1e9
        figures[f"scan_1thread_{size}_ns_per_pixel"] = single.best["run"] / pixels * 1e9
        figures[f"llvmpipe_scan_{size}_ns_per_pixel"] = llvmpipe.best["render"] / pixels * 1e9
    for kind in ("scan", "scan_1thread"):
        costs = [figures[f"{kind}_{size}_ns_per_pixel"] for size in SCAN_SIZES]
        figures[f"{kind}_spread"] = max(costs) / min(costs)
    return figures


def peak_memory_ratio(machine, size: int) -> float:
    """Peak bytes allocated while rendering a ``size``² image, over the image's bytes."""
    from .fragment_compiled import run_image

    run_image(machine, size, size)  # kernels and thread pool ready beforehand
    tracemalloc.start()
    try:
        image = run_image(machine, size, size)[0]
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / image.nbytes


UNKNOWN_THREADS = -1


def _llvmpipe_single_thread(seconds: float) -> dict[str, float]:
    """llvmpipe's figures in a child process with LP_NUM_THREADS=1 (read when Mesa starts)."""
    environment = dict(os.environ, LP_NUM_THREADS="1")
    package = str(Path(__file__).resolve().parents[3])
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [package, environment.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, "-m", "shaderkit.isa.rsx.bench", "llvmpipe", str(seconds)],
                          capture_output=True, text=True, env=environment, timeout=120 + 10 * seconds)
    if done.returncode != 0:
        raise ShaderkitError(f"bench: the LP_NUM_THREADS=1 run failed: {done.stderr.strip()[-500:]}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    if figures["threads_seen"] not in (1, UNKNOWN_THREADS):  # unknown where /proc is not Linux's
        raise ShaderkitError(f"bench: LP_NUM_THREADS=1 did not take effect ({figures['threads_seen']} threads)")
    return figures


def llvmpipe_threads() -> int:
    """How many llvmpipe rasteriser threads this process runs (Linux names them llvmpipe-N)."""
    tasks = Path("/proc/self/task")
    if not tasks.is_dir():
        return UNKNOWN_THREADS
    names = []
    for task in tasks.iterdir():
        try:
            names.append((task / "comm").read_text().strip())
        except OSError:
            continue
    return sum(name.startswith("llvmpipe-") for name in names)


def measure_llvmpipe(seconds: float) -> dict[str, float]:
    """The bench program drawn and read back by llvmpipe as configured in this process."""
    from .gl import prepare_fullscreen
    from .glsl import decompile

    frame = prepare_fullscreen(decompile(bench_program(), fullscreen=True), WIDTH, HEIGHT)
    frame.render()
    measured = measure_rounds({"llvmpipe": frame.render}, seconds)
    frame.release()
    megapixels = WIDTH * HEIGHT / 1e6
    return {"best": megapixels / measured.best["llvmpipe"], "median": megapixels / measured.median["llvmpipe"],
            "threads_seen": llvmpipe_threads()}


if __name__ == "__main__" and len(sys.argv) == 3 and sys.argv[1] == "llvmpipe":
    print(json.dumps(measure_llvmpipe(float(sys.argv[2]))))
