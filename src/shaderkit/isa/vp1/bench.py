"""What ``shaderkit bench -m vp1`` measures, all in the same process, in rounds (each work
timed in turn, round after round: :func:`~shaderkit.core.timing.measure_rounds`), each figure
the best round and the median one:

* **disassembly**: random words to ``--plain`` text (``WORD<TAB>TEXT<TAB>FLAGS``) by
  :meth:`Vp1.plain_lines` (the fast path, :mod:`.fast_text`), :data:`DISASM_BATCH` words a round
  (each round the next batch of 1,000,000 seeded random words, fewer with a smaller time budget),
  against the baseline: the description-based path (:func:`~shaderkit.core.disasm.annotated_lines`
  on envydis's description), :data:`BASELINE_BATCH` words a round. Both produce the same lines
  (checked on the first words). The fast path memoises what words share, so its rounds after
  the first run with most pieces already rendered.
* **emulator**: bundles per second of :meth:`Vp1Machine.run` on :data:`BENCH_PROGRAM`, a loop
  of 256 iterations over address, scalar, vector and branch work (772 bundles per run), run
  from a fresh machine each round: the compiled loop (:mod:`.compiled`, every bundle of the
  program compiled) against the interpreter (``Vp1Machine.run``). The compiled loop's first
  call (writing the kernel for the program's opcodes, :mod:`.compiled_codegen`, and compiling
  it, or loading it from the disk cache, :mod:`shaderkit.core.jit`) is timed on its own,
  outside the rounds, on the run that checks it against the interpreter.

Figures: ``disasm_words_per_s``, ``baseline_disasm_words_per_s``, ``disasm_ratio``,
``bundles_per_s``, ``interpreter_bundles_per_s``, ``emulator_ratio`` (from the best rounds) and
each with ``_median`` (from the median rounds); ``first_call_s`` and ``first_call_state``
(``"compiled"``, ``"cache"`` or ``"ready"``); ``rounds`` and ``elapsed_s`` of each part; the
machine's thread counts (:func:`~shaderkit.core.jit.thread_counts`); and the counts behind them.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ...core.disasm import annotated_lines
from ...core.jit import first_call, thread_counts
from ...core.timing import measure_rounds
from . import Vp1, compiled
from . import description as described
from .machine import Vp1Machine

BENCH_PROGRAM = """\
// bench: a loop of 256 iterations over vector, scalar and address work
    mov $l1 $c1 0xffff
    vadd u $v1 $vc0 $v1 0x1
    bnop
    bnop
loop:
    ldvv $v11 $c0 $a14 0x10
    add $r1 $r1 0x1
    vadd u $v13 $vc0 $v13 0x3
    bnop
    stvh $v13 $c1 $a7 0x20
    xor $r2 $r2 $r1
    vxor $v14 $v13 0x71
    bra loop $l1 $c1 $l1 $c1 true #loop
    sar $r3 $c0 $r1 0x3
    vmax u $v2 $vc2 $v14 0x3b
    bnop
    exit 0x0
"""

DISASM_WORDS = 1_000_000
DISASM_BATCH = 250_000  # each fast-path call has a fixed cost (about 0.1 s here): large batches
BASELINE_BATCH = 1_000
MINIMUM_ROUNDS = 3
TARGET_WORDS_PER_S = 200_000
TARGET_BUNDLES_PER_S = 1_000_000


@dataclass
class BenchResults:
    figures: dict[str, float | str]

    def report(self) -> str:
        f = self.figures
        return "\n".join([
            f"disassembly (random words to --plain text, {int(f['disasm_batch_words']):,} a round; "
            f"{int(f['disasm_rounds'])} rounds in {f['disasm_elapsed_s']:.1f} s):",
            f"{'':24}{'best':>12} {'median':>12}",
            f"  fast path             {f['disasm_words_per_s']:12,.0f} {f['disasm_words_per_s_median']:12,.0f} words/s"
            f"  (target {TARGET_WORDS_PER_S:,})",
            f"  description baseline  {f['baseline_disasm_words_per_s']:12,.0f} "
            f"{f['baseline_disasm_words_per_s_median']:12,.0f} words/s",
            f"  fast / baseline       {f['disasm_ratio']:12.1f} {f['disasm_ratio_median']:12.1f}x",
            f"emulator (loop-heavy program, {int(f['program_bundles'])} bundles per run; "
            f"{int(f['emulator_rounds'])} rounds in {f['emulator_elapsed_s']:.1f} s):",
            f"  emulator              {f['bundles_per_s']:12,.0f} {f['bundles_per_s_median']:12,.0f} bundles/s"
            f"  (target {TARGET_BUNDLES_PER_S:,})",
            f"  interpreter baseline  {f['interpreter_bundles_per_s']:12,.0f} "
            f"{f['interpreter_bundles_per_s_median']:12,.0f} bundles/s",
            f"  emulator / baseline   {f['emulator_ratio']:12.1f} {f['emulator_ratio_median']:12.1f}x",
            f"  first call of the compiled loop: {f['first_call_s']:.2f} s ({FIRST_CALL[f['first_call_state']]})",
            f"machine: {int(f['cpu_count'])} CPUs, {int(f['numba_threads'])} Numba threads, "
            f"{int(f['llvmpipe_threads'])} llvmpipe threads",
        ])


FIRST_CALL = {"compiled": "compiled: no kernel in the cache", "cache": "loaded from the kernel cache",
              "ready": "already compiled in this process"}


def random_words(count: int, seed: int = 13) -> list[int]:
    generator = random.Random(seed)
    return [generator.getrandbits(32) for _ in range(count)]


def _baseline_lines(words: list[int]) -> list[str]:
    return annotated_lines(described.envydis(), words, address=0, unknown_text=described.UNKNOWN_TEXT)


def _batches(words: list[int], size: int):
    """A work rendering the next ``size`` words of ``words`` at each call (round), cyclically."""
    starts = iter(range(0, 1 << 62, size))

    def next_batch() -> list[int]:
        start = next(starts) % max(1, len(words) - size + 1)
        return words[start:start + size]
    return next_batch


def run_benchmark(seconds: float = 2.0) -> BenchResults:
    isa = Vp1(plain=True)
    count = DISASM_WORDS if seconds >= 2.0 else max(10_000, int(DISASM_WORDS * seconds / 2.0))
    words = random_words(count)
    if isa.plain_lines(words[:2000]) != _baseline_lines(words[:2000]):
        raise AssertionError("VP1 bench: the fast disassembly path disagrees with the description path")
    fast_batch, baseline_batch = min(DISASM_BATCH, count), min(BASELINE_BATCH, count)
    fast_words, baseline_words = _batches(words, fast_batch), _batches(words, baseline_batch)
    disasm = measure_rounds({"fast": lambda: isa.plain_lines(fast_words()),
                             "baseline": lambda: _baseline_lines(baseline_words())}, seconds, MINIMUM_ROUNDS)

    image = Vp1().assemble(BENCH_PROGRAM, "<bench>").image
    reference = Vp1Machine(image)
    per_run = reference.run().bundles
    check = Vp1Machine(image)
    writing = time.perf_counter()  # the kernel for the program's opcodes: its source written
    program_kernel = compiled.kernel_covering(compiled.compiled_program(check).features)
    writing = time.perf_counter() - writing
    first_s, first_state = first_call((program_kernel,), lambda: compiled.run_compiled(check))
    first_s += writing
    if check.dump_state() != reference.dump_state() or check.data_store != reference.data_store:
        raise AssertionError("VP1 bench: the compiled emulator disagrees with the interpreter")
    emulator = measure_rounds({"interpreter": lambda: Vp1Machine(image).run(),
                               "compiled": lambda: compiled.run_compiled(Vp1Machine(image))}, seconds, MINIMUM_ROUNDS)

    figures: dict[str, float | str] = {"disasm_words": float(count), "disasm_batch_words": float(fast_batch),
                                       "baseline_batch_words": float(baseline_batch),
                                       "program_bundles": float(per_run)}
    for suffix, times in (("", disasm.best), ("_median", disasm.median)):
        fast, baseline = fast_batch / times["fast"], baseline_batch / times["baseline"]
        figures |= {f"disasm_words_per_s{suffix}": fast, f"baseline_disasm_words_per_s{suffix}": baseline,
                    f"disasm_ratio{suffix}": fast / baseline}
    for suffix, times in (("", emulator.best), ("_median", emulator.median)):
        rate, interpreter = per_run / times["compiled"], per_run / times["interpreter"]
        figures |= {f"bundles_per_s{suffix}": rate, f"interpreter_bundles_per_s{suffix}": interpreter,
                    f"emulator_ratio{suffix}": rate / interpreter}
    figures |= {"disasm_rounds": float(disasm.rounds), "disasm_elapsed_s": disasm.elapsed,
                "emulator_rounds": float(emulator.rounds), "emulator_elapsed_s": emulator.elapsed,
                "first_call_s": first_s, "first_call_state": first_state,
                **{name: float(value) for name, value in thread_counts().items()}}
    return BenchResults(figures)
