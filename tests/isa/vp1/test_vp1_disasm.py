"""VP1 disassembly: envydis's text and flags for every golden word, listings that re-assemble, and
the text round trip (text → envyas's encoding → the same text) over random words and every form."""

from __future__ import annotations

import random

import pytest
from conftest import golden_dir
from hypothesis import given, settings
from hypothesis import strategies as st

import shaderkit.isa as isas
from shaderkit.core.model import ParseContext

GOLDEN = golden_dir("vp1")
STRATIFIED = [line.split("\t") for line in (GOLDEN / "stratified.tsv").read_text(encoding="utf-8").splitlines()]
VP1 = isas.get("vp1")


def envydis_text(word: int) -> str:
    return VP1.envydis_text(VP1.decode_envydis([word]))


def test_the_golden_table_is_complete():
    assert len(STRATIFIED) == 16384
    assert {int(word, 16) >> 24 for word, _, _ in STRATIFIED} == set(range(256))


def test_every_stratified_line_is_reproduced_text_and_flags():
    lines = VP1.plain_lines([int(word, 16) for word, _, _ in STRATIFIED])
    wrong = [(expected, got) for expected, got in zip(("\t".join(row) for row in STRATIFIED), lines) if expected != got]
    assert not wrong, f"{len(wrong)} lines differ, e.g. {wrong[:3]}"
    assert len(lines) == len(STRATIFIED)


@pytest.mark.parametrize("word, text, flags", [
    ("e0e691e9", "bra $c1 $c1 true 0xffffffffffffcd20", "ok"),  # a negative target: 64-bit two's complement
    ("04001175", "bvecmad $r0 $r8q $c2 unk11 $vc0 sf 0x4", "bits:00000004,operand"),
    ("41ff1e4e", "mul 0x0 $r28 (slct $c1 b19 $r15d)", "ok"),  # $r31 prints as 0x0
    ("e39281e0", "bra loop $l0 $c0 $l0 not $c0 true 0xffffffffffff2500", "ok"),  # not: P always printed
    ("6a1800a8", "mov $m35 $r0", "ok"),
    ("6bf84040", "mov 0x0 $sr1", "ok"),
    ("00d66488", "???", "bits:00000088,insn"),
    ("db000000", "???", "insn"),
])
def test_spec_examples(word, text, flags):
    assert VP1.plain_lines([int(word, 16)]) == [f"{word}\t{text}\t{flags}"]


def round_trip(word: int) -> None:
    """envydis's text of ``word`` assembles (envyas's canonical word) to a word with the same text
    and no unknown bits."""
    decoded = VP1.decode_envydis([word])
    if decoded.is_data:
        return
    text = VP1.envydis.format(decoded)
    canonical = VP1.envydis.encode(VP1.envydis.parse(text, ParseContext(address=0)))
    again = VP1.decode_envydis(list(canonical))
    assert VP1.envydis.format(again) == text, (hex(word), text)
    assert again.unknown_bits == 0
    # And the canonical word is an instruction of the listing reading, printing the same text.
    assert VP1.format(VP1.decode(list(canonical))) == text


def test_round_trip_of_every_golden_word():
    for word, _, _ in STRATIFIED:
        round_trip(int(word, 16))


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 0xffffffff))
def test_round_trip_of_random_words(word):
    round_trip(word)


FORMS = VP1.envydis._compiled


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(FORMS), st.integers(0, 0xffffffff))
def test_round_trip_over_the_form_table(compiled, noise):
    round_trip(compiled.match | noise & ~compiled.mask)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 0xffffffff))
def test_random_words_always_decode_and_encode_back(word):
    assert VP1.encode(VP1.decode([word])) == (word,)
    VP1.plain_lines([word])


def test_a_listing_reassembles_to_the_same_words():
    rng = random.Random(13)
    words = [int(rng.choice(STRATIFIED)[0], 16) for _ in range(300)] + [rng.getrandbits(32) for _ in range(100)]
    text = VP1.disassemble(words)
    assert VP1.assemble(text, "listing.s").words == words


def test_listing_layout_labels_bundles_and_envydis_annotations():
    program = VP1.assemble("top:\n  mov $r1 0x5\n  add $a1 $a2 $a3\n  vadd s $v1 $v2 $v3\n  bra #top\n"
                           "  bnop\n  exit 0x0\n", "p.s")
    text = VP1.disassemble(program.words + [0x0ada3234, 0x1e40459c])
    lines = text.splitlines()
    assert lines[0] == "L_00:"
    assert lines[1].split("//") == ["    mov $r1 0x5              ", " 00: 65080005"]
    assert lines[2] == ""  # mov (scalar) and the address-unit add are two bundles
    assert lines[3].startswith("    add $a1 $a2 $a3") and lines[5].startswith("    bra #L_00")
    # A word whose text assembles to another word is data, with its envydis text and annotations.
    assert ".word 0x0ada3234" in text and "= babs s $r27 $r8" in text and "[unknown: 00000030]" in text
    assert "(slct $c3 unk12 $r2d)" in text and "[unknown operand]" in text
    assert VP1.assemble(text).words == program.words + [0x0ada3234, 0x1e40459c]


def test_chips_print_alike():
    words = [int(word, 16) for word, _, _ in STRATIFIED[::97]]
    assert {chip: isas.get("vp1", chip=chip).plain_lines(words) for chip in ("nv41", "nv44")} == \
        {chip: VP1.plain_lines(words) for chip in ("nv41", "nv44")}


def test_decoding_one_word_is_cheap():
    import time
    words = [int(word, 16) for word, _, _ in STRATIFIED[::8]]
    start = time.perf_counter()
    VP1.plain_lines(words)
    per_word = (time.perf_counter() - start) / len(words)
    assert per_word < 400e-6, f"{per_word * 1e6:.0f} µs a word"
