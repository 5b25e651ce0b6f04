"""SMP, VLDST, DEPTHF and PHAS in our syntax (shaderkit.isa.usse.forms_memory).

The examples are words of the golden field splits (tests/golden/usse/fieldsplit_*.jsonl), each
text checked by hand against the word's raw fields under spec/usse.md §3 (banks, doubling), §4
(predicates), §5 and §6.2 (flags, assignments); random words of each form (its fixed bits, the
rest random) read back through their text; and bad texts say what is wrong.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model import bit_pattern
from shaderkit.isa.usse.description import listing
from shaderkit.isa.usse.encoding import VEC34_FORMS

GOLDEN = Path(__file__).parents[2] / "golden" / "usse"
SPLITS = {entry["word"]: entry for name in ("fieldsplit_programs.jsonl", "fieldsplit_random.jsonl")
          for entry in map(json.loads, (GOLDEN / name).read_text().splitlines())}
PATTERNS = {name: pattern for name, pattern, _ in VEC34_FORMS}
FORMS = ("SMP", "VLDST", "DEPTHF", "PHAS")

# word -> text, each checked field by field (the comments give the fields that decide the text).
EXAMPLES = {
    # PHAS of the test programs (p4gvert1 and others): imm 1, wait_cond 7, every other field 0.
    "fa44070000000000": "phas.imm wait_cond=0x7",
    # imm 1, rate_lo_or_nosched 1 as flags; src2_bank_ext 1, wait_cond 2, temp_count 163, src1_bank 1,
    # src2_bank 3, exe_addr_high 46, src1_n_or_exe_addr_mid 101, src2_n_or_exe_addr_low 110 as assignments;
    # free bits w1[15:14] = 10 and w0[27:20] = 0x67 as unused.
    "fa458aa3767bb2ee": "phas.imm.rate_lo_or_nosched src2_bank_ext=0x1 wait_cond=0x2 temp_count=0xa3 "
                        "src1_bank=0x1 src2_bank=0x3 exe_addr_high=0x2e src1_n_or_exe_addr_mid=0x65 "
                        "src2_n_or_exe_addr_low=0x6e unused=0x800006700000",
    # pred 1 (p0); dim 0; lod_mode 2; src0_type 2 (C10); nosched, syncstart; dest_use_pa 1, dest_n 68;
    # src0 r (bank 0, ext 0) 52 doubled; src1 sa (3, 0) 97 doubled; src2 special (1, 1) 90 = 0x40|26: g26,
    # not doubled; drc_sel 1; sb_mode 3.
    "e15102f1d88d30da": "p0 smp1d.replace.coord_c10.nosched.syncstart pa68, r104, sa194, g26, drc1, sb_mode=0x3",
    # dim 3 (smp4d); src0_type 3, fconv_type 1; dest r19; src0 pa (1, 0) 85 doubled; src1 r (0, 0) 73
    # doubled; src2 immediate (2, 1) 7, not doubled; mask_count 2, sb_mode 3; free bit w1[21] set.
    "e0316c7d22756487": "smp4d.coord_type3.fconv1.syncstart r19, pa170, r146, #7, drc1, mask_count=0x2 sb_mode=0x3 "
                        "unused=0x20000000000000",
    # op1 2 (store); pred 4 (p3); data_type 1; moe_expand, increment_or_decrement, cache_by_pass12;
    # mask_count 0 (count 1, no flag); dest_bank_primattr 1: pa20; src0 sa (1, 1) 28; src1 o (1, 0) 95;
    # src2 pa (2, 0) 104 (no doubling); drc_sel 0; addr_mode 3, mode 1.
    "f4240d9e62872fe8": "p3 st.b16.moe_expand.increment_or_decrement.cache_by_pass12 pa20, sa28, o95, pa104, drc0, "
                        "addr_mode=0x3 mode=0x1",
    # op1 1 (load); pred 7 (pN); data_type 0; skipinv, nosched, moe_expand, cache_ext,
    # increment_or_decrement; mask_count 11 (count 12); dest pa94; src0 sa (1, 1) 80; src1 immediate
    # (2, 1) 47; src2 sa (3, 0) 21; drc_sel 1; mode 1.
    "efeeb18dbbd41795": "pN ld.b32.skipinv.nosched.count12.moe_expand.cache_ext.increment_or_decrement pa94, sa80, "
                        "#47, sa21, drc1, mode=0x1",
    # pred 3 (short table: !p0); sync, end, nosched; src0 sa (1, 1) 2 doubled; src1 indexed 2 (3, 1)
    # 52 = bank 1 (o) offset 20; src2 o (1, 0) 3 not doubled; feedback 2, dest_n 5; free bits
    # w1[15:12] = 1101 and w1[8] = 1.
    "fbbedf14d0a09a03": "!p0 depthf.sync.end.nosched sa4, o[idx2+20], o3, feedback=0x2 dest_n=0x5 "
                        "unused=0xd10000000000",
    # pred 2 (p1); nosched, two_sided; src0 pa (1, 0) 58 doubled; src1 and src2 immediates 112 and 23.
    "fb730c64a6eeb817": "p1 depthf.nosched.two_sided pa116, #112, #23, dest_n=0x37 unused=0x40004000000000",
}


def halves(word: str) -> list[int]:
    value = int(word, 16)
    return [value & 0xFFFFFFFF, value >> 32]


@pytest.mark.parametrize("word, text", EXAMPLES.items(), ids=list(EXAMPLES))
def test_golden_words_print_as_checked_by_hand_and_read_back(word, text):
    description = listing()
    instruction = description.decode(halves(word))
    assert instruction.form == SPLITS[word]["form"]
    assert dict(instruction.fields) == SPLITS[word]["fields"]
    assert description.format(instruction) == text
    assert description.encode(description.parse(text)) == tuple(halves(word))


def test_the_examples_cover_every_form():
    assert {SPLITS[word]["form"] for word in EXAMPLES} == set(FORMS)


# VLDST's pattern leaves op1 free, but op1 0 and 3 are SMP's and 0x1F's major opcodes (matched first):
# its random words take op1 1 (load) or 2 (store).
SELECTORS = {"VLDST": (1 << 59, 2 << 59)}


@pytest.mark.parametrize("name", FORMS)
@given(rest=st.integers(0, (1 << 64) - 1), choice=st.integers(0, 1))
def test_random_words_of_each_form_read_back_through_their_text(name, rest, choice):
    fixed_mask, fixed_value = bit_pattern(PATTERNS[name])
    selectors = SELECTORS.get(name, (0,))
    if name in SELECTORS:
        fixed_mask |= 3 << 59
    value = fixed_value | selectors[choice % len(selectors)] | (rest & ~fixed_mask)
    words = [value & 0xFFFFFFFF, value >> 32]
    description = listing()
    instruction = description.decode(words)
    assert instruction.form == name
    text = description.format(instruction)
    parsed = description.parse(text)
    assert parsed == instruction
    assert description.encode(parsed) == tuple(words)


def test_mnemonics_follow_the_selectors():
    description = listing()
    for dim, mnemonic in enumerate(("smp1d", "smp2d", "smp3d", "smp4d")):
        assert description.format(description.decode([0, 0xE0000000 | dim << 10])) == f"{mnemonic} r0, r0, r0, r0, drc0"
    for op1, mnemonic in ((1, "ld"), (2, "st")):
        for data_type, size in enumerate(("b32", "b16", "b8", "t3")):
            word = 0xE0000000 | op1 << 27 | data_type << 4
            assert description.format(description.decode([0, word])) == f"{mnemonic}.{size} r0, r0, r0, r0, drc0"


@pytest.mark.parametrize("text, message", [
    ("smp2d r0, r3, r0, r0, drc0", "count 64-bit pairs: give an even number"),
    ("smp2d r0, r2, r0, r0, drc4", "unknown modifier 'drc4'"),
    ("smp2d o0, r2, r0, r0, drc0", "'o0' is not a valid register"),
    ("smp2d.bias.gradient r0, r0, r0, r0, drc0", "'gradient' repeats or contradicts an earlier flag"),
    ("smp2d r0, r0, r0, r0", "takes 5 to 6 operands"),
    ("ld.b64 r0, r0, r0, r0, drc0", "unknown instruction 'ld.b64'"),
    ("ld.b32 r0, r0, r0, r0, drc2", "unknown modifier 'drc2'"),
    ("p3 depthf r0, r0, r0", r"unknown modifier 'p3' \(expected one of p0, p1, !p0\)"),
    ("phas.imm wait_cond=0x8", r"wait_cond: 8 is out of range \(0 to 7\)"),
])
def test_bad_texts_say_what_is_wrong(text, message):
    with pytest.raises(SourceError, match=message):
        listing().parse(text)


def test_odd_numbers_are_fine_where_numbers_are_not_doubled():
    description = listing()
    words = description.encode(description.parse("depthf r2, r3, o5"))
    assert description.format(description.decode(list(words))) == "depthf r2, r3, o5"
    words = description.encode(description.parse("st.b8.count16 r1, r3, o5, #7, drc1"))
    assert description.format(description.decode(list(words))) == "st.b8.count16 r1, r3, o5, #7, drc1"
