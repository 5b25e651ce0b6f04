"""The USSE benchmark (shaderkit.isa.usse.bench): the report's shape, its program being the
p4gvert1 golden one, and the emulator and llvmpipe paths agreeing on a small run. Nothing here
is timed against a threshold."""

from __future__ import annotations

import json
import math

import numpy as np
from usse_vectors import load, words

from shaderkit.isa.usse import bench
from shaderkit.isa.usse.description import fields_reading
from shaderkit.isa.usse.gl import GlslRun
from shaderkit.isa.usse.glsl import decompile
from shaderkit.isa.usse.machine import UsseMachine, form_name

KEYS = {"decode_words_per_s", "fields_decode_words_per_s", "lane_instructions_per_s",
        "llvmpipe_lane_instructions_per_s", "ratio", "target_ratio"}
ROUNDED = {"decode_words_per_s", "fields_decode_words_per_s", "lane_instructions_per_s",
           "llvmpipe_lane_instructions_per_s", "ratio", "emulator_s", "llvmpipe_s"}  # each with a _median
THREADS = {"cpu_count", "numba_threads", "llvmpipe_threads"}


def test_the_bench_program_is_the_p4gvert1_golden_program():
    program = load("p4gvert1")["program"]
    assert list(bench.BENCH_PRIMARY) == words(program["primary_words"])
    assert list(bench.BENCH_SECONDARY) == words(program["secondary_words"])
    assert (bench.BENCH_PA_COUNT, bench.BENCH_SA_COUNT) == (program["pa_count"], program["sa_count"])
    literals = {literal["sa"]: int(literal["value"], 16) for literal in program["literals"]}
    assert literals == {32 + k: value for k, value in enumerate(bench.BENCH_LITERALS)}


def test_one_vertex_executes_both_programs_to_their_ends():
    # 20 secondary words, 48 primary ones up to and with the closing word
    assert bench.executed_instructions(bench.BENCH_PRIMARY, bench.BENCH_SECONDARY) == 68
    assert bench.executed_instructions([0xF800014000000000, 0xFB275000A0200000, 0xF800014000000000]) == 2


def test_random_valid_words_decode_as_their_forms():
    chosen = bench.random_valid_words(300)
    assert len(chosen) == 300 and len(set(chosen)) > 290
    forms = {form_name(fields_reading().decode([word & 0xFFFFFFFF, word >> 32])) for word in chosen}
    assert {"VMAD2", "VPCK", "VBW", "VTSTMSK", "BR", "SMLSI"} <= forms
    assert ".word" not in forms


def test_emulator_and_llvmpipe_agree_on_a_small_run():
    pa, sa = bench.bench_inputs(lanes=700, seed=3)
    assert pa.shape == (36, 700) and sa.shape == (42,)
    machine = UsseMachine(bench.BENCH_PRIMARY, bench.BENCH_SECONDARY, lanes=700)
    expected = bench.emulator_run(machine, pa, sa)()
    run = GlslRun(decompile(bench.BENCH_PRIMARY, bench.BENCH_SECONDARY, pa_count=36, sa_count=42), pa, sa)
    try:
        got = run.run()
    finally:
        run.release()
    assert got.shape == expected.shape
    assert np.array_equal(got, expected)
    assert np.count_nonzero(expected[4:16]) > 0.9 * 12 * 700  # the outputs carry the attributes


def test_report_shape():
    results = bench.run_benchmark(seconds=0.2, lanes=2_000)
    figures = results.figures
    assert KEYS <= set(figures)
    assert all(isinstance(value, float) and math.isfinite(value) and value > 0 for value in figures.values())
    assert figures["target_ratio"] == 3.0
    assert math.isclose(figures["ratio"], figures["llvmpipe_lane_instructions_per_s"] / figures["lane_instructions_per_s"])
    assert math.isclose(figures["lane_instructions_per_s"], 2_000 * 68 / figures["emulator_s"])
    assert figures["instructions"] == 68 and figures["lanes"] == 2_000
    assert json.loads(json.dumps(figures, sort_keys=True)) == figures
    text = results.report()
    assert "lane instructions/s" in text and "llvmpipe / emulator" in text and "target: within 3x" in text
    assert "median" in text and "llvmpipe threads" in text


def test_figures_give_the_best_and_the_median_round_and_the_thread_counts():
    figures = bench.run_benchmark(seconds=0.1, lanes=1_000).figures
    assert {f"{key}_median" for key in ROUNDED} | THREADS <= set(figures)
    for key in ("emulator_s", "llvmpipe_s"):  # times: the best round is the shortest
        assert figures[key] <= figures[f"{key}_median"]
    for key in ("decode_words_per_s", "fields_decode_words_per_s", "lane_instructions_per_s",
                "llvmpipe_lane_instructions_per_s"):  # rates: the best round is the fastest
        assert figures[key] >= figures[f"{key}_median"]
    assert figures["rounds"] >= 3 and figures["decode_rounds"] >= 3
    assert all(figures[key] >= 1 and figures[key] == int(figures[key]) for key in THREADS)
