"""SOP2, SOP2M, SOP3, I8MAD, I16MAD, I32MAD and I32MAD2 in our syntax (forms_integer): words of
the golden field splits (tests/golden/usse/fieldsplit_random.jsonl) read as text checked by hand
against their raw fields (spec/usse.md §3.1 banks, §3.2 no doubling, §4 predicates and repeats),
random words of each form read back as themselves, and bad texts refused with a clear reason."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model import bit_pattern
from shaderkit.isa.usse.description import listing
from shaderkit.isa.usse.encoding import VEC34_FORMS

FORMS = ("SOP2", "SOP2M", "SOP3", "I8MAD", "I16MAD", "I32MAD", "I32MAD2")
PATTERNS = {name: pattern for name, pattern, _ in VEC34_FORMS}
GOLDEN = Path(__file__).parents[2] / "golden" / "usse" / "fieldsplit_random.jsonl"
SPLITS = {entry["word"]: entry for entry in map(json.loads, GOLDEN.read_text().splitlines())}


def words_of(value: int) -> list[int]:
    return [value & 0xFFFFFFFF, value >> 32]


# (word, form, text). Each text was checked by hand against the word's raw fields (in the comment):
# predicate table, flags, repeat count - 1, bank + extension per operand table, number not doubled,
# special numbers with bit 6 as g(n & 0x3F), indexed numbers as bank (bits 6:5) + offset (4:0).
EXAMPLES = [
    # pred 3 (!p0), skipinv, end, count 4; dest bank 0/ext 0 r31; src1 bank 1/ext 1 special 84 = g20;
    # src2 bank 1/ext 1 special 93 = g29; non-zero selectors/modifiers as assignments.
    ("86a7407053f5ea5d", "SOP2", "!p0 sop2.skipinv.end.rpt5 r31, g20, g29, asel1=0x2 csel1=0x1 csel2=0x6 "
                                 "src1_mod=0x1 cop=0x1 aop=0x1 asrc1_mod=0x1 dest_mod=0x1"),
    # pred 2 (p1), skipinv, count 5; dest bank 3/ext 0 indexed1, 116 = sa (11) + 20; src1 r118; src2 bank 3 sa110.
    ("8480d5eb3e8ebb6e", "SOP2", "p1 sop2.skipinv.rpt6 sa[idx1+20], r118, sa110, cmod2=0x1 asel2=0x2 csel1=0x7 "
                                 "csel2=0x5 cop=0x3 aop=0x2 asrc1_mod=0x1"),
    # pred 1 (p0), skipinv, end; dest r72 with wmask 0b1011; src1, src2 bank 3 sa89, sa8; free bit w0[18] set.
    ("93a4daf8f9042c88", "SOP2M", "p0 sop2m.skipinv.end r72.xy-w, sa89, sa8, mod1=0x1 cop=0x2 mod2=0x1 aop=0x1 "
                                  "sel1=0x3 sel2=0x7 unused=0x40000"),
    # dest bank 3/ext 1 indexed2, 71 = pa (10) + 7, wmask 0b1110; src1/src2 bank 0/ext 1 indexed1 r + 21, r + 13.
    ("928ff10f08e94a8d", "SOP2M", "p0 sop2m.skipinv.end pa[idx2+7].-yzw, r[idx1+21], r[idx1+13], mod2=0x1 "
                                  "sel1=0x4 sel2=0x1 unused=0x400094000"),
    # pred 1 (p0); dest bank 2/ext 1 idx76; src0 bank 1 pa7; src1 bank 1/ext 1 c2; src2 bank 3/ext 1
    # indexed2, 55 = o (01) + 23.
    ("8b0b76d67981c137", "SOP3", "p0 sop3 idx76, pa7, c2, o[idx2+23], cmod1=0x1 amod1=0x1 asel1=0x3 aop=0x3 "
                                 "csel1=0x3 csel2=0x2"),
    # pred 3 (!p0), skipinv, nosched, end; dest r115; src0 bank 1 pa104; src1 bank 1 o29; src2 bank 3 sa82.
    ("8fe4a90c7e7a0ed2", "SOP3", "!p0 sop3.skipinv.nosched.end r115, pa104, o29, sa82, cmod1=0x1 cop=0x2 "
                                 "cmod2=0x1 asel1=0x2 dmod=0x1 csel1=0x4 csel2=0x1"),
    # pred 2 (p1), skipinv, end, repeat 0; dest bank 1 o69; src0_neg, bank 1 -pa50; src1, src2 special c36, c18.
    ("9c87829d58ac9212", "I8MAD", "p1 ima8.skipinv.end o69, -pa50, c36, c18, cmod2=0x1 asel0=0x1 amod1=0x1 "
                                  "csel2=0x1"),
    # pred 3 (!p0), nosched, end, saturated, repeat 6; dest bank 3/ext 1 indexed2, 104 = sa + 8; src0 pa77;
    # src1 bank 3/ext 1 indexed2, 86 = pa + 22; src2 r17.
    ("9f6ee8d7cd136b11", "I8MAD", "!p0 ima8.nosched.end.sat.rpt7 sa[idx2+8], pa77, pa[idx2+22], r17, cmod1=0x1 "
                                  "csel0=0x2 cmod2=0x1 amod1=0x1 amod0=0x1 csel2=0x1"),
    # pred 0, repeat 4; dest indexed2 86 = pa + 22; src0 r78; src1 special 124 = g60; src2_neg, bank 2 -pa14.
    ("a03a4c4b6ad3be0e", "I16MAD", "ima16.rpt5 pa[idx2+22], r78, g60, -pa14, sel1h_upper8=0x1 mode=0x3 "
                                   "src1_format=0x1 or_shift=0x1"),
    # pred 1 (p0), nosched; dest special c14; src0 pa69; src1 special 74 = g10; src2 special c51.
    ("a24b075551d16533", "I16MAD", "p0 ima16.nosched c14, pa69, g10, c51, mode=0x1 src2_format=0x3 "
                                   "src1_format=0x1 or_shift=0x2"),
    # pred 1 (p0), is_signed, repeat 3; dest pa10; src0 pa77; src1 c0; src2 bank 0/ext 1 indexed1, 47 = o + 15.
    ("aa2338864153402f", "I32MAD", "p0 ima32.signed.rpt4 pa10, pa77, c0, o[idx1+15], src1_high=0x1 src2_type=0x2"),
    # pred 2 (p1), end, is_sat, repeat 4; dest special c51; src0 r60; src1 o15; src2 special 69 = g5;
    # free bit w1[23] set.
    ("ad9d4441566f07c5", "I32MAD", "p1 ima32.end.sat.rpt5 c51, r60, o15, g5, src0_high=0x1 src2_high=0x1 "
                                   "src2_type=0x1 unused=0x80000000000000"),
    # extended pred 2 (p1), nosched, end, is_signed, count 2; dest indexed2 32 = o + 0; src0 r77;
    # negative_src1 bank 1 -o37; negative_src2 bank 2/ext 1 immediate -#55.
    ("d24d2383641352b7", "I32MAD2", "p1 ima32b.nosched.end.signed.rpt3 o[idx2+0], r77, -o37, -#55"),
    # extended pred 5 (!p0), end, count 1; dest bank 1 o127; src0 r97; negative_src1 -r60; src2 o111.
    ("d59411011ff85e6f", "I32MAD2", "!p0 ima32b.end.rpt2 o127, r97, -r60, o111, sn=0x1 unused=0x80000000000000"),
    # extended pred 6 (!p1) - a value the short table has no room for; count 6; negative_src2 -o38.
    ("d65862831b4826a6", "I32MAD2", "!p1 ima32b.nosched.signed.rpt7 pa[idx2+26], r32, r77, -o38, sn=0x1"),
]


@pytest.mark.parametrize("word, form, text", EXAMPLES, ids=[word for word, _, _ in EXAMPLES])
def test_golden_words_read_as_hand_checked_text(word, form, text):
    assert SPLITS[word]["form"] == form
    description = listing()
    instruction = description.decode(words_of(int(word, 16)))
    assert instruction.form == form
    assert description.format(instruction) == text
    assert description.encode(description.parse(text)) == tuple(words_of(int(word, 16)))


def test_every_golden_word_of_these_forms_reads_back_without_raw_operands():
    description = listing()
    checked = 0
    for word, entry in SPLITS.items():
        if entry["form"] in FORMS:
            instruction = description.decode(words_of(int(word, 16)))
            text = description.format(instruction)
            assert not instruction.is_data, text
            # banks, numbers, predicates and flags are operands now, never assignments
            assert not any(f"{name}=" in text for name in ("pred", "dest_n", "src1_n", "bank", "skipinv", "end",
                                                           "count", "neg"))
            assert description.encode(description.parse(text)) == tuple(words_of(int(word, 16)))
            checked += 1
    assert checked > 100


def test_i32mad2_reads_its_source_0_extension_bit():
    # d24d2383641352b7 with w1[15] (src0_bank_ext) set: source 0 bank 0/ext 1 is o (spec §3.1)
    description = listing()
    words = words_of(0xD24DA383641352B7)
    assert description.format(description.decode(words)) == "p1 ima32b.nosched.end.signed.rpt3 o[idx2+0], o77, -o37, -#55"


@pytest.mark.parametrize("form", FORMS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_random_words_of_each_form_read_back_as_themselves(form, data):
    mask, fixed = bit_pattern(PATTERNS[form])
    value = fixed | data.draw(st.integers(0, (1 << 64) - 1)) & ~mask
    description = listing()
    words = words_of(value)
    instruction = description.decode(words)
    assert instruction.form == form and not instruction.is_data
    text = description.format(instruction)
    assert description.encode(description.parse(text)) == tuple(words)


@pytest.mark.parametrize("text, message", [
    ("p3 ima8 r1, r2, r3, r4", "p3"),                          # I8MAD has the short predicate
    ("!p2 sop2 r1, r2, r3", "!p2"),
    ("ima32b.rpt9 r1, r2, r3, r4", "rpt9"),                    # 3-bit repeat: rpt2..rpt8
    ("sop2.sat r1, r2, r3", "sop2.sat"),                       # no such flag on SOP2
    ("ima8 r1, o2, r3, r4", "'o2' is not a valid source"),     # source 0 without extension: r or pa
    ("sop2 r1, r2", "takes 3 to 4 operands"),
    ("ima16 r1, r2, -r3, r4", "-r3"),                          # only I16MAD's source 2 has a negate bit
    ("ima32 r1, r2, r3, r4, cop=0x1", "no field 'cop'"),
    ("sop2 r1, r2, r3, cop=0x4", "cop"),                       # 2-bit field
    ("ima8 r1, r2, r3, r200", "r200"),                         # 7-bit register numbers
    ("sop2m r1, r2, r3", "'r1' is not a valid register"),      # SOP2M's destination needs its mask
])
def test_bad_texts_say_what_is_wrong(text, message):
    with pytest.raises(SourceError, match=re.escape(message)):
        listing().parse(text)
