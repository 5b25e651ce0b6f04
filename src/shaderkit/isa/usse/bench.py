"""What ``shaderkit bench -m usse`` measures, all in the same process:

* **decoding**: random valid instruction words (each form's fixed bits with random free bits,
  kept when they decode as that form) decoded through the description, each over as many words
  as fit in half the time budget: :func:`~.description.listing` (what a listing prints, with its
  text round trip) and :func:`~.description.fields_reading` (the raw fields the emulator and the
  decompiler use).
* **emulator**: :class:`~.machine.UsseMachine` running the p4gvert1 golden program
  (tests/golden/usse/vectors/p4gvert1.json: secondary and primary program, :data:`BENCH_PRIMARY`)
  over 100,000 vertices with seeded attributes and uniforms like the golden cases'
  (:func:`bench_inputs`); the machine is built (every word
  decoded and prepared) outside the timing, each timed run sets the PA/SA banks, runs and reads
  the o bank.
* **llvmpipe**: the same program decompiled (:func:`.glsl.decompile`) and run by Mesa's llvmpipe
  over the same 100,000 vertices with transform feedback (:class:`.gl.GlslRun`: compiled and
  uploaded outside the timing; each timed run draws and reads the o registers back).

Both count lanes × instructions executed (the instructions the emulator runs for one vertex,
counted once; a repeated instruction counts once) per second; each figure is the best of several
rounds within the time budget, the two timed alternately. Before timing, the run checks that both
give the same o registers (bit for bit).

Figures: ``decode_words_per_s`` (listing), ``fields_decode_words_per_s``, ``lane_instructions_per_s``
(emulator), ``llvmpipe_lane_instructions_per_s``, ``ratio`` (llvmpipe / emulator) and
``target_ratio`` (the issue's target: the emulator within 3x of llvmpipe), with the counts
behind them.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np

from ...core.diagnostics import ShaderkitError
from ...core.model import bit_pattern
from ...core.timing import best_times
from .description import fields_reading, listing
from .encoding import VEC34_FORMS
from .machine import UsseMachine, form_name

LANES = 100_000
DECODE_WORDS = 20_000
TARGET_RATIO = 3.0
MINIMUM_ROUNDS = 3
BENCH_SUITE = "p4gvert1"


@dataclass
class BenchResults:
    figures: dict[str, float]

    def report(self) -> str:
        f = self.figures
        within = "yes" if f["ratio"] <= f["target_ratio"] else "no"
        return "\n".join([
            "decoding random valid words:",
            f"  listing          {f['decode_words_per_s']:14,.0f} words/s ({int(f['listing_decode_words']):,} words)",
            f"  fields reading   {f['fields_decode_words_per_s']:14,.0f} words/s ({int(f['decode_words']):,} words)",
            f"vertex program {BENCH_SUITE} ({int(f['instructions'])} instructions per vertex) over "
            f"{int(f['lanes']):,} vertices:",
            f"  emulator (NumPy lanes)      {f['lane_instructions_per_s']:14,.0f} lane instructions/s "
            f"({f['emulator_s'] * 1e3:.1f} ms per run)",
            f"  llvmpipe (decompiled GLSL)  {f['llvmpipe_lane_instructions_per_s']:14,.0f} lane instructions/s "
            f"({f['llvmpipe_s'] * 1e3:.1f} ms per run)",
            f"  llvmpipe / emulator         {f['ratio']:14.2f}x  (target: within {f['target_ratio']:g}x: {within})",
            f"{int(f['rounds'])} rounds in {f['elapsed_s']:.1f} s",
        ])


def random_valid_words(count: int, seed: int = 14) -> list[int]:
    """``count`` valid instruction words: a form's fixed bits with random free bits, forms drawn
    evenly; a word that decodes as another form (an earlier one whose fixed bits it also matches)
    is drawn again."""
    generator = random.Random(seed)
    description = fields_reading()
    patterns = [(name, *bit_pattern(pattern)) for name, pattern, _ in VEC34_FORMS]
    words: list[int] = []
    attempts = 0
    while len(words) < count:
        attempts += 1
        if attempts > 50 * count:
            raise ShaderkitError("bench: too few random words decode as their form")
        name, mask, value = patterns[generator.randrange(len(patterns))]
        word = (generator.getrandbits(64) & ~mask) | value
        if form_name(description.decode([word & 0xFFFFFFFF, word >> 32])) == name:
            words.append(word)
    return words


def decode_rate(description, words: list[int], seconds: float, minimum: int = 200) -> tuple[float, int]:
    """Words per second decoded by ``description``, over as many of ``words`` as fit in
    ``seconds`` (at least ``minimum``); and how many were decoded."""
    for word in words[:20]:  # the first decodes build the description's tables: not timed
        description.decode([word & 0xFFFFFFFF, word >> 32])
    done = 0
    start = time.perf_counter()
    while done < len(words) and (done < minimum or time.perf_counter() - start < seconds):
        for word in words[done:done + 100]:
            description.decode([word & 0xFFFFFFFF, word >> 32])
        done = min(done + 100, len(words))
    return done / (time.perf_counter() - start), done


# The p4gvert1 golden program (tests/golden/usse/vectors/p4gvert1.json; test_usse_bench checks
# that it is the same), kept here so that the benchmark runs without the test tree.
_NOP, _NOP_FIRST, _NOP_LAST, _CLOSING = 0xF800014000000000, 0xF800094000000000, 0xF804014000000000, 0xFB275000A0200000
BENCH_SECONDARY = (_NOP_FIRST, 0x40880D8CF4998002, 0x40880D8CF4D98104, *[_NOP] * 16, _NOP_LAST)
BENCH_PRIMARY = (
    0xFA44070000000000, 0x08A5118590040001, 0x0883118190568001, 0x40C00D9CAF818002, 0x40C00D9CAFA18206,
    0x18E18B80DF818108, 0x18B18B80DF85210A, 0x18B18B80DF49210C, 0x188188821011A23D, 0x30800A0280000001,
    0x18E18B809F518000, 0x18818882D011A212, 0x40C00D9CFFC18E1E, 0x18B18B80CF812108, 0x18B18B80CF85210A,
    0x18B18981C189210C, 0x40810B8DA0998D00, 0x40810B8DA0DB8D82, 0x40800D8DA1198D1C, 0x40800D8DA1598D1C,
    0x40800D8DA1D98D1C, *[_NOP] * 26, _CLOSING)
BENCH_PA_COUNT, BENCH_SA_COUNT = 36, 42
# sa32..sa41: the program's literals
BENCH_LITERALS = (0x42040000, 0x41200000, 0x41400000, 0x40400000, 0x40E00000, 0x41500000, 0x41600000, 0x40C00000,
                  0x40A00000, 0x40800000)


def bench_inputs(lanes: int = LANES, seed: int = 14) -> tuple[np.ndarray, np.ndarray]:
    """(pa (36, lanes), sa (42,)) uint32: like the golden cases, the position's x and y at -1 or
    1 and every other attribute and uniform in [0, 1) (seeded); the literals in sa32..sa41."""
    rng = np.random.default_rng(seed)
    pa = rng.random((BENCH_PA_COUNT, lanes), dtype=np.float32)
    pa[:2] = rng.choice(np.array([-1.0, 1.0], np.float32), (2, lanes))
    sa = np.zeros(BENCH_SA_COUNT, np.float32)
    sa[:32] = rng.random(32, dtype=np.float32)
    sa = sa.view(np.uint32)
    sa[32:] = BENCH_LITERALS
    return pa.view(np.uint32), sa


def executed_instructions(primary, secondary=()) -> int:
    """Instructions one vertex executes (both programs; a repeat counts once), by running the
    emulator on one lane with every prepared instruction counted."""
    machine = UsseMachine(primary, secondary, lanes=1)
    count = 0

    def counted(run):
        def call(state):
            nonlocal count
            count += 1
            return run(state)
        return call
    machine.primary = [counted(run) for run in machine.primary]
    machine.secondary = [counted(run) for run in machine.secondary]
    machine.run()
    return count


def emulator_run(machine: UsseMachine, pa: np.ndarray, sa: np.ndarray):
    def run() -> np.ndarray:
        machine.set_bank("pa", 0, pa)
        machine.set_bank("sa", 0, sa.reshape(-1, 1))
        machine.run()
        return machine.bank("o")
    return run


def run_benchmark(seconds: float = 2.0, lanes: int = LANES) -> BenchResults:
    from .gl import GlslRun
    from .glsl import decompile

    words = random_valid_words(DECODE_WORDS if seconds >= 2.0 else max(2_000, int(DECODE_WORDS * seconds / 2.0)))
    listing_rate, listed = decode_rate(listing(), words, seconds / 2)
    fields_rate, count = decode_rate(fields_reading(), words, seconds / 2)

    primary, secondary = BENCH_PRIMARY, BENCH_SECONDARY
    pa, sa = bench_inputs(lanes)
    pa_count, sa_count = BENCH_PA_COUNT, BENCH_SA_COUNT
    instructions = executed_instructions(primary, secondary)
    machine = UsseMachine(primary, secondary, lanes=lanes)
    emulate = emulator_run(machine, pa, sa)
    gl_run = GlslRun(decompile(primary, secondary, pa_count=pa_count, sa_count=sa_count), pa, sa)
    try:
        expected, got = emulate(), gl_run.run()
        if expected.shape != got.shape or not np.array_equal(expected, got):
            differ = int(np.count_nonzero(expected != got)) if expected.shape == got.shape else -1
            raise ShaderkitError(f"bench: the emulator and llvmpipe disagree ({differ} registers differ)")
        best, rounds, elapsed = best_times({"emulator": emulate, "llvmpipe": gl_run.run}, seconds, MINIMUM_ROUNDS)
    finally:
        gl_run.release()
    work = lanes * instructions
    emulator_rate, llvmpipe_rate = work / best["emulator"], work / best["llvmpipe"]
    return BenchResults({
        "decode_words": float(count),
        "listing_decode_words": float(listed),
        "decode_words_per_s": listing_rate,
        "fields_decode_words_per_s": fields_rate,
        "lanes": float(lanes),
        "instructions": float(instructions),
        "emulator_s": best["emulator"],
        "llvmpipe_s": best["llvmpipe"],
        "lane_instructions_per_s": emulator_rate,
        "llvmpipe_lane_instructions_per_s": llvmpipe_rate,
        "ratio": llvmpipe_rate / emulator_rate,
        "target_ratio": TARGET_RATIO,
        "rounds": float(rounds),
        "elapsed_s": elapsed,
    })
