"""The VP1 benchmark (shaderkit.isa.vp1.bench): its figures, best and median rounds beside each
other, the compiled loop's first call and the machine's thread counts. Nothing here is timed
against a threshold."""

from __future__ import annotations

import json
import math

from shaderkit.isa.vp1 import bench

RATES = ("disasm_words_per_s", "baseline_disasm_words_per_s", "bundles_per_s", "interpreter_bundles_per_s")
RATIOS = ("disasm_ratio", "emulator_ratio")
THREADS = ("cpu_count", "numba_threads", "llvmpipe_threads")


def test_figures_give_the_best_and_the_median_round():
    results = bench.run_benchmark(seconds=0.1)
    figures = results.figures
    assert json.loads(json.dumps(figures, sort_keys=True)) == figures
    for key in RATES:  # rates: the best round is the fastest
        assert math.isfinite(figures[key]) and figures[key] >= figures[f"{key}_median"] > 0
    for key in RATIOS:
        assert figures[key] > 0 and figures[f"{key}_median"] > 0
    assert math.isclose(figures["emulator_ratio"], figures["bundles_per_s"] / figures["interpreter_bundles_per_s"])
    assert figures["program_bundles"] == 772
    assert figures["disasm_rounds"] >= 3 and figures["emulator_rounds"] >= 3


def test_the_first_call_and_the_thread_counts_are_reported():
    results = bench.run_benchmark(seconds=0.1)
    figures = results.figures
    assert figures["first_call_state"] in ("compiled", "cache", "ready")
    assert figures["first_call_s"] > 0
    assert all(figures[key] >= 1 and figures[key] == int(figures[key]) for key in THREADS)
    text = results.report()
    for words in ("median", "bundles/s", "words/s", "first call of the compiled loop", "Numba threads"):
        assert words in text
