"""``shaderkit bench -m rsx``: the figures are there, consistent and stable in name (no timing is
asserted: the machine may be busy)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from shaderkit.isa.rsx import bench

KEYS = {"emulator_mpix_s", "emulator_mpix_s_median", "llvmpipe_mpix_s", "llvmpipe_mpix_s_median",
        "llvmpipe_1thread_mpix_s", "llvmpipe_1thread_mpix_s_median", "peak_memory_ratio_2048",
        "first_call_s", "cpu_count", "numba_threads", "llvmpipe_threads", "instructions", "ratio",
        "emulator_s", "llvmpipe_s", "max_difference", "rounds", "elapsed_s",
        "scan_spread", "scan_1thread_spread",
        *(f"{kind}_{size}_ns_per_pixel" for size in bench.SCAN_SIZES
          for kind in ("scan", "scan_1thread", "llvmpipe_scan"))}


@pytest.fixture(scope="module")
def results():
    return bench.run_benchmark(seconds=0.2)


def test_bench_reports_every_figure(results):
    figures = results.figures
    assert KEYS <= set(figures)
    assert all(figures[key] > 0 for key in KEYS if key != "max_difference")
    assert figures["emulator_mpix_s"] >= figures["emulator_mpix_s_median"]
    assert figures["llvmpipe_1thread_threads_seen"] == 1
    # The output image and tile buffers only: far below the 2x of the issue.
    assert figures["peak_memory_ratio_2048"] < 2
    report = results.report()
    assert "ns per pixel by size" in report and "on one thread" in report and "LP_NUM_THREADS=1" in report
    assert figures["scan_1thread_spread"] >= 1


def test_the_cli_prints_the_json_keys(monkeypatch, results):
    from shaderkit.cli import main
    monkeypatch.setattr(bench, "run_benchmark", lambda seconds=2.0: results)
    outcome = CliRunner().invoke(main, ["bench", "-m", "rsx", "--json", "--seconds", "0.2"])
    assert outcome.exit_code == 0, outcome.output
    assert KEYS <= set(json.loads(outcome.output))
