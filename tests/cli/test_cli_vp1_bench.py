"""``shaderkit bench -m vp1``: it runs and prints the named figures (no timing asserts)."""

from __future__ import annotations

import json

from conftest import invoke_cli

FIGURES = {"disasm_words_per_s", "baseline_disasm_words_per_s", "disasm_ratio", "bundles_per_s",
           "interpreter_bundles_per_s", "emulator_ratio"}


def test_bench_json_has_the_named_figures():
    result = invoke_cli("bench", "-m", "vp1", "--json", "--seconds", "0.1")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert FIGURES <= figures.keys()
    assert all(figures[key] > 0 for key in FIGURES)
    assert figures["program_bundles"] > 500  # the loop-heavy program runs its loop


def test_bench_prints_a_report():
    result = invoke_cli("bench", "-m", "vp1", "--seconds", "0.1")
    assert result.exit_code == 0, result.output
    assert "words/s" in result.stdout and "bundles/s" in result.stdout
