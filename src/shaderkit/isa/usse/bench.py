"""What ``shaderkit bench -m usse`` measures, all in the same process, in rounds (each work
timed in turn, round after round: :func:`~shaderkit.core.timing.measure_rounds`), each figure
the best round and the median one:

* **decoding**: random valid instruction words (each form's fixed bits with random free bits,
  kept when they decode as that form) decoded through the description, the two alternately for
  half the time budget, each round the next batch of words: :func:`~.description.listing` (what a
  listing prints, with its text round trip; :data:`LISTING_BATCH` words a round) and
  :func:`~.description.fields_reading` (the raw fields the emulator and the decompiler use;
  :data:`FIELDS_BATCH` words a round).
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
counted once; a repeated instruction counts once) per second, the two timed alternately for the
time budget. Before timing, the run checks that both give the same o registers (bit for bit).

Figures (from the best rounds; each with ``_median`` beside it, from the median rounds):
``decode_words_per_s`` (listing), ``fields_decode_words_per_s``, ``lane_instructions_per_s``
(emulator), ``llvmpipe_lane_instructions_per_s``, ``ratio`` (llvmpipe / emulator), ``emulator_s``
and ``llvmpipe_s``; ``target_ratio`` (the issue's target: the emulator within 3x of llvmpipe);
``rounds``/``elapsed_s`` (emulator and llvmpipe) and ``decode_rounds``/``decode_elapsed_s``; the
machine's thread counts (:func:`~shaderkit.core.jit.thread_counts`: ``cpu_count``,
``numba_threads``, ``llvmpipe_threads``); and the counts behind them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from ...core.diagnostics import ShaderkitError
from ...core.model import bit_pattern
from ...core.jit import thread_counts
from ...core.timing import measure_rounds
from .description import fields_reading, listing
from .encoding import VEC34_FORMS
from .machine import UsseMachine, form_name

LANES = 100_000
DECODE_WORDS = 20_000
LISTING_BATCH = 20
FIELDS_BATCH = 500
WARM_UP = 20
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
            f"decoding random valid words ({int(f['decode_rounds'])} rounds in {f['decode_elapsed_s']:.1f} s):",
            f"{'':19}{'best':>14} {'median':>14}",
            f"  listing          {f['decode_words_per_s']:14,.0f} {f['decode_words_per_s_median']:14,.0f} words/s "
            f"({int(f['listing_decode_words']):,} words)",
            f"  fields reading   {f['fields_decode_words_per_s']:14,.0f} {f['fields_decode_words_per_s_median']:14,.0f}"
            f" words/s ({int(f['decode_words']):,} words)",
            f"vertex program {BENCH_SUITE} ({int(f['instructions'])} instructions per vertex) over "
            f"{int(f['lanes']):,} vertices ({int(f['rounds'])} rounds in {f['elapsed_s']:.1f} s):",
            f"{'':30}{'best':>14} {'median':>14}",
            f"  emulator (NumPy lanes)      {f['lane_instructions_per_s']:14,.0f} "
            f"{f['lane_instructions_per_s_median']:14,.0f} lane instructions/s "
            f"({f['emulator_s'] * 1e3:.1f} / {f['emulator_s_median'] * 1e3:.1f} ms per run)",
            f"  llvmpipe (decompiled GLSL)  {f['llvmpipe_lane_instructions_per_s']:14,.0f} "
            f"{f['llvmpipe_lane_instructions_per_s_median']:14,.0f} lane instructions/s "
            f"({f['llvmpipe_s'] * 1e3:.1f} / {f['llvmpipe_s_median'] * 1e3:.1f} ms per run)",
            f"  llvmpipe / emulator         {f['ratio']:14.2f} {f['ratio_median']:14.2f}x  "
            f"(target: within {f['target_ratio']:g}x: {within})",
            f"machine: {int(f['cpu_count'])} CPUs, {int(f['numba_threads'])} Numba threads, "
            f"{int(f['llvmpipe_threads'])} llvmpipe threads",
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


def decode_batches(description, words: list[int], size: int):
    """A work decoding the next ``size`` of ``words`` by ``description`` at each call (round),
    cyclically. The last :data:`WARM_UP` words are decoded once first, untimed (building the
    description's tables), and the batches begin with the words before them: the listing
    memoises what it decoded, and a word decoded again is about ten times cheaper than a new one."""
    for word in words[-WARM_UP:]:
        description.decode([word & 0xFFFFFFFF, word >> 32])
    fresh = words[:-WARM_UP] if len(words) > WARM_UP + size else words
    starts = iter(range(0, 1 << 62, size))

    def decode_next() -> None:
        start = next(starts) % max(1, len(fresh) - size + 1)
        for word in fresh[start:start + size]:
            description.decode([word & 0xFFFFFFFF, word >> 32])
    return decode_next


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
    listing_batch, fields_batch = min(LISTING_BATCH, len(words)), min(FIELDS_BATCH, len(words))
    decoding = measure_rounds({"listing": decode_batches(listing(), words, listing_batch),
                               "fields": decode_batches(fields_reading(), words, fields_batch)},
                              seconds / 2, MINIMUM_ROUNDS)

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
        measured = measure_rounds({"emulator": emulate, "llvmpipe": gl_run.run}, seconds, MINIMUM_ROUNDS)
    finally:
        gl_run.release()
    work = lanes * instructions
    figures = {
        "decode_words": float(decoding.rounds * fields_batch),
        "listing_decode_words": float(decoding.rounds * listing_batch),
        "lanes": float(lanes),
        "instructions": float(instructions),
        "target_ratio": TARGET_RATIO,
        "rounds": float(measured.rounds),
        "elapsed_s": measured.elapsed,
        "decode_rounds": float(decoding.rounds),
        "decode_elapsed_s": decoding.elapsed,
        **{name: float(count) for name, count in thread_counts().items()},
    }
    for suffix, decoded, timed in (("", decoding.best, measured.best), ("_median", decoding.median, measured.median)):
        emulator_rate, llvmpipe_rate = work / timed["emulator"], work / timed["llvmpipe"]
        figures |= {
            f"decode_words_per_s{suffix}": listing_batch / decoded["listing"],
            f"fields_decode_words_per_s{suffix}": fields_batch / decoded["fields"],
            f"emulator_s{suffix}": timed["emulator"],
            f"llvmpipe_s{suffix}": timed["llvmpipe"],
            f"lane_instructions_per_s{suffix}": emulator_rate,
            f"llvmpipe_lane_instructions_per_s{suffix}": llvmpipe_rate,
            f"ratio{suffix}": llvmpipe_rate / emulator_rate,
        }
    return BenchResults(figures)
