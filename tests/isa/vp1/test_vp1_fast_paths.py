"""The fast paths give exactly what the reference paths give: ``--plain`` lines by
:mod:`shaderkit.isa.vp1.fast_text` against the description path (core's ``annotated_lines`` on
envydis's description), on every golden word and on random words, word by word and column-wise."""

from __future__ import annotations

import random

from conftest import golden_dir
from hypothesis import given, settings
from hypothesis import strategies as st

import shaderkit.isa as isas
from shaderkit.core.disasm import annotated_lines
from shaderkit.isa.vp1 import description as described
from shaderkit.isa.vp1.fast_text import FastPlain

GOLDEN = golden_dir("vp1")
GOLDEN_WORDS = [int(line.split("\t")[0], 16)
                for line in (GOLDEN / "stratified.tsv").read_text(encoding="utf-8").splitlines()]
WORDS = st.integers(min_value=0, max_value=0xFFFFFFFF)


def reference(words: list[int]) -> list[str]:
    envydis = described.envydis()
    lines = []
    for start in range(0, len(words), 512):  # chunks: the reference slices what is left per word
        lines += annotated_lines(envydis, words[start:start + 512], address=0, unknown_text=described.UNKNOWN_TEXT)
    return lines


def test_every_golden_word_column_wise_and_word_by_word():
    expected = reference(GOLDEN_WORDS)
    fast = FastPlain()
    assert fast.lines(GOLDEN_WORDS) == expected
    assert [fast.line(word) for word in GOLDEN_WORDS] == expected


def test_random_words_and_their_neighbours():
    generator = random.Random(1313)
    words = [generator.getrandbits(32) for _ in range(20_000)]
    # Neighbours differ in one bit: the memoised pieces must not carry a value across.
    words += [word ^ (1 << generator.randrange(32)) for word in words[:5000]]
    assert FastPlain().lines(words) == reference(words)


@settings(max_examples=40, deadline=None)
@given(st.lists(WORDS, min_size=256, max_size=600))
def test_random_arrays_match_the_description(words):
    assert FastPlain().lines(words) == reference(words)


@settings(max_examples=300, deadline=None)
@given(WORDS)
def test_single_words_match_the_description(word):
    fast = FastPlain()
    assert fast.line(word) == reference([word])[0]
    assert fast.lines([word]) == reference([word])


def test_the_isa_uses_the_fast_path_and_keeps_the_reference_for_odd_input():
    vp1 = isas.get("vp1")
    assert vp1.plain_lines(GOLDEN_WORDS[:300]) == reference(GOLDEN_WORDS[:300])
    assert vp1.plain_lines([]) == []
