"""What ``shaderkit bench -m vp1`` measures, all in the same process:

* **disassembly**: random words (1,000,000 with the default time budget, fewer with a smaller
  one) to ``--plain`` text (``WORD<TAB>TEXT<TAB>FLAGS``) by :meth:`Vp1.plain_lines` (the fast
  path, :mod:`.fast_text`), against the baseline: the description-based path
  (:func:`~shaderkit.core.disasm.annotated_lines` on envydis's description) over as many words
  as fit in the time budget. Both produce the same lines (checked on the first words).
* **emulator**: bundles per second of :meth:`Vp1Machine.run` on :data:`BENCH_PROGRAM`, a loop
  of 256 iterations over address, scalar, vector and branch work (772 bundles per run), run
  again and again from a fresh machine: the compiled loop (:mod:`.compiled`, every bundle of
  the program compiled, compiled before the timing) against the interpreter (``Vp1Machine.run``).

Figures: ``disasm_words_per_s``, ``baseline_disasm_words_per_s``, ``disasm_ratio``,
``bundles_per_s``, ``interpreter_bundles_per_s``, ``emulator_ratio`` and the counts behind them.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ...core.disasm import annotated_lines
from . import Vp1
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
TARGET_WORDS_PER_S = 200_000
TARGET_BUNDLES_PER_S = 1_000_000


@dataclass
class BenchResults:
    figures: dict[str, float]

    def report(self) -> str:
        f = self.figures
        return "\n".join([
            f"disassembly ({int(f['disasm_words']):,} random words to --plain text):",
            f"  fast path             {f['disasm_words_per_s']:12,.0f} words/s  (target {TARGET_WORDS_PER_S:,})",
            f"  description baseline  {f['baseline_disasm_words_per_s']:12,.0f} words/s",
            f"  fast / baseline       {f['disasm_ratio']:12.1f}x",
            f"emulator (loop-heavy program, {int(f['program_bundles'])} bundles per run):",
            f"  emulator              {f['bundles_per_s']:12,.0f} bundles/s  (target {TARGET_BUNDLES_PER_S:,})",
            f"  interpreter baseline  {f['interpreter_bundles_per_s']:12,.0f} bundles/s",
            f"  emulator / baseline   {f['emulator_ratio']:12.1f}x",
        ])


def random_words(count: int, seed: int = 13) -> list[int]:
    generator = random.Random(seed)
    return [generator.getrandbits(32) for _ in range(count)]


def _baseline_lines(words: list[int]) -> list[str]:
    return annotated_lines(described.envydis(), words, address=0, unknown_text=described.UNKNOWN_TEXT)


def _baseline_rate(words: list[int], seconds: float) -> float:
    """Words per second of the description path, over as many words as fit in ``seconds``."""
    done, chunk = 0, 200
    start = time.perf_counter()
    while done < len(words) and (done < 1000 or time.perf_counter() - start < seconds):
        _baseline_lines(words[done:done + chunk])
        done += chunk
    return done / (time.perf_counter() - start)


def _bundle_rate(run, seconds: float) -> tuple[float, int]:
    """Bundles per second of ``run`` (which returns the bundles it executed), over ``seconds``."""
    bundles = runs = 0
    start = time.perf_counter()
    while runs < 3 or time.perf_counter() - start < seconds:
        bundles += run()
        runs += 1
    return bundles / (time.perf_counter() - start), bundles // runs


def run_benchmark(seconds: float = 2.0) -> BenchResults:
    isa = Vp1(plain=True)
    count = DISASM_WORDS if seconds >= 2.0 else max(10_000, int(DISASM_WORDS * seconds / 2.0))
    words = random_words(count)
    if isa.plain_lines(words[:2000]) != _baseline_lines(words[:2000]):
        raise AssertionError("VP1 bench: the fast disassembly path disagrees with the description path")

    start = time.perf_counter()
    isa.plain_lines(words)
    fast = count / (time.perf_counter() - start)
    baseline = _baseline_rate(words, seconds)

    image = Vp1().assemble(BENCH_PROGRAM, "<bench>").image

    def interpreted() -> int:
        return Vp1Machine(image).run().bundles

    interpreter, per_run = _bundle_rate(interpreted, seconds)
    emulator = _emulator_rate(image, seconds)
    if emulator is None:
        emulator = interpreter

    return BenchResults({
        "disasm_words": count, "disasm_words_per_s": fast, "baseline_disasm_words_per_s": baseline,
        "disasm_ratio": fast / baseline,
        "program_bundles": per_run, "bundles_per_s": emulator, "interpreter_bundles_per_s": interpreter,
        "emulator_ratio": emulator / interpreter,
    })


def _emulator_rate(image: list[int], seconds: float) -> float | None:
    """Bundles per second of the compiled emulator (:func:`.compiled.run_compiled`), compiled
    outside the timing; None where Numba is missing."""
    try:
        from . import compiled
        compiled.kernel()
    except ImportError:
        return None
    reference = Vp1Machine(image)
    reference.run()
    check = Vp1Machine(image)
    compiled.run_compiled(check)
    if check.dump_state() != reference.dump_state() or check.data_store != reference.data_store:
        raise AssertionError("VP1 bench: the compiled emulator disagrees with the interpreter")

    def run() -> int:
        return compiled.run_compiled(Vp1Machine(image)).bundles

    return _bundle_rate(run, seconds)[0]
