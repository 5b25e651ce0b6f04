"""The description model on its own (no processor of the project): sub-tables, conditional
operands, PC-relative fields, defaults, unclaimed bits, bundles, flag sets, prefixes, match
order and variable length.

The first toy is a slice of NVIDIA VP1 written from the facts of its envydis syntax (a
conditional ``$c`` operand, a mangled-source sub-table, ``$r31`` printed as ``0x0``, branch
targets relative to the 4-word group, bits 0–2 = 4 when no ``$c`` is given); its word/text
pairs are the hardware-test vectors listed in the VP1 reference. The second is an invented
64-bit ISA in the USSE style (predicate prefix, flags in any order, first-match table).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model import (Annotate, Choice, CodeAddress, Description, Immediate, Operand, ParseContext,
                                  Registers, SubTable, case, field, flags, form, in_word, rank_runs)

# --- a slice of VP1 -----------------------------------------------------------------------

VP1_FIELDS = {
    "op": field("31:24"), "dst": field("23:19"), "src1": field("18:14"), "src2": field("13:9"),
    "cond": field("4:3"), "slct": field("8:5"), "cdst": field("2:0", default=4),
    "imm19": field("18:0", signed=True), "imm16": field("15:0"),
    "btarg": field("23:9", signed=True, scale=4, relative_to=lambda address: address & ~3),
}
SCALAR = Registers({**{n: (f"$r{n}",) for n in range(31)}, 31: ("0x0", "$r31")})
PAIR = Registers({n: (f"$r{n}d",) for n in range(32)})
QUAD = Registers({n: (f"$r{n}q",) for n in range(32)})
FLAG_NAMES = Choice(dict(enumerate(["sf", "zf", "b19", "b20d", "b20", "b21", "b19a", "b18", "asf", "azf", "aef",
                                    "unk11", "unk12", "lzf", "false", "true"])))
VP1_OPERANDS = {
    "dst": Operand("dst", SCALAR), "src1": Operand("src1", SCALAR),
    "c": Operand("cdst", Registers({n: (f"$c{n}",) for n in range(4)}), title="$c destination"),
    "cond": Operand("cond", Immediate()), "flag": Operand("slct", FLAG_NAMES),
    "src2": Operand("src2", SCALAR), "src2d": Operand("src2", PAIR), "src2q": Operand("src2", QUAD),
    "src2m": SubTable((case("{src2}", slct=14), case("(slct $c{cond} b20 {src2q})", slct=4),
                       case("(slct $c{cond} {flag} {src2d})")), title="mangled source"),
    "imm19": Operand("imm19", Immediate(radix=16)), "code": Operand("imm16", Immediate(radix=16)),
    "target": Operand("btarg", CodeAddress(radix=16)),
}
UNIT_RANKS = ((0xc0, 0), (0x80, 2), (0x00, 1))  # address unit rank 0, vector 2, scalar 1; branch 3


def unit_rank(instruction) -> int:
    opcode = instruction.words[0] >> 24
    return 3 if opcode >= 0xe0 else next(rank for low, rank in UNIT_RANKS if opcode >= low)


VP1 = Description(
    "vp1-slice", word_bits=32, fields=VP1_FIELDS, operands=VP1_OPERANDS, unknown_bits=Annotate(mask=0xff),
    bundles=rank_runs(4, unit_rank),
    forms=[form("add {dst} {c if cdst & 4 == 0} {src1} {src2m}", op=0x4c),
           form("mov {dst} {imm19}", op=0x65),
           form("bra {c if cdst & 4 == 0} {target}", op=0xe0, cond=0, slct=15, name="bra short"),
           form("bra {c if cdst & 4 == 0} $c{cond} {flag} {target}", op=0xe0),
           form("snop", op=0x4f, ignore=0xffffff), form("bnop", op=0xef, ignore=0xffffff),
           form("exit {code}", op=0xff, ignore=0xff0000)])

VP1_VECTORS = [  # word, text at word address 0 (VP1 reference §14)
    (0x4c0003c0, "add $r0 $c0 $r0 $r1"),
    (0x4cffffc0, "add 0x0 $c0 0x0 0x0"),
    (0x4c108424, "add $r2 $r2 (slct $c0 zf $r2d)"),
    (0x65100001, "mov $r2 0x1"),
    (0xe00021e4, "bra 0x40"),
    (0xe00041e4, "bra 0x80"),
    (0xe00021a4, "bra $c0 lzf 0x40"),
    (0xff00dead, "exit 0xdead"),
]


@pytest.mark.parametrize("word, text", VP1_VECTORS)
def test_vp1_slice_prints_and_reads_the_reference_vectors(word, text):
    instruction = VP1.decode([word])
    assert VP1.format(instruction) == text
    assert VP1.encode(VP1.parse(text)) == (word,)


def test_an_absent_conditional_operand_is_written_as_its_field_default():
    # envyas writes 4 in bits 0-2 when no $c operand is given; with one, bit 2 is clear.
    assert VP1.encode(VP1.parse("add $r1 $r2 $r3")) == (0x4c0887c4,)
    assert VP1.parse("add $r1 $r2 $r3").fields["cdst"] == 4
    assert VP1.parse("add $r1 $c3 $r2 $r3").fields["cdst"] == 3


def test_sub_table_cases_read_and_print_their_own_text():
    quad = VP1.parse("add $r1 $r2 (slct $c2 b20 $r4q)")
    assert (quad.fields["slct"], quad.fields["cond"], quad.fields["src2"]) == (4, 2, 4)
    assert VP1.format(quad) == "add $r1 $r2 (slct $c2 b20 $r4q)"
    with pytest.raises(SourceError, match="is not a valid mangled source"):
        VP1.parse("add $r1 $r2 (slct $c2 $r4q)")


def test_the_case_whose_shape_the_text_has_says_what_is_wrong_in_it():
    # "(slct $c9 b20 $r4q)" has the quad case's shape; only its $c number is wrong.
    with pytest.raises(SourceError) as caught:
        VP1.parse("add $r1 $r2 (slct $c9 b20 $r4q)")
    assert (caught.value.message, caught.value.col) == ("9 is out of range (0 to 3)", len("add $r1 $r2 (slct $c") + 1)


def test_pc_relative_targets_print_absolute_and_must_be_reachable():
    # At word 6 the group starts at 4: bits 9-23 = 0x0f → 4 + 15*4 = 0x40.
    word = 0xe0001e04 | (0x3c << 3)
    assert VP1.format(VP1.decode([word], address=6)) == "bra 0x40"
    assert VP1.encode(VP1.parse("bra 0x40", ParseContext(address=6))) == (word,)
    with pytest.raises(SourceError, match="multiple of 4"):
        VP1.parse("bra 0x42", ParseContext(address=6))


def test_unclaimed_low_bits_are_annotated_not_turned_into_data():
    # SLCT = 14 (plain source): COND, bits 3-4, is not read, so set it is reported.
    instruction = VP1.decode([0x4c0003c0 | 0b11000])
    assert not instruction.is_data
    assert instruction.unknown_bits == 0b11000
    assert VP1.format(instruction) == "add $r0 $c0 $r0 $r1"
    # A mangled source reads COND: nothing to report; ignored bits of a nop are never reported.
    assert VP1.decode([0x4c108424 | 0b11000]).unknown_bits == 0
    assert VP1.decode([0x4fffffff]).unknown_bits == 0


def test_bundles_are_increasing_rank_runs_inside_aligned_groups():
    words = [0x4c0003c0, 0xe00021e4, 0x4c0003c0, 0x4c0003c0, 0xef000000, 0x4f000000]
    stream, address = [], 0
    for word in words:
        stream.append(VP1.decode([word], address))
        address += 1
    # scalar+branch | scalar | scalar (not a higher rank) | branch (a new group of 4) | scalar
    groups = [[instruction.address for instruction in bundle] for bundle in VP1.group(stream)]
    assert groups == [[0, 1], [2], [3], [4], [5]]


def test_an_operand_left_out_reads_back_at_its_default():
    decoded = VP1.decode([0x4c07b92d])  # cdst 5: no $c shown, which reads back as the default 4
    assert VP1.format(decoded) == "add $r0 $r30 (slct $c1 azf $r28d)" and decoded.unknown_bits == 0x1


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 0xffffffff))
def test_vp1_slice_round_trips_text_for_every_decodable_word(word):
    instruction = VP1.decode([word])
    text = VP1.format(instruction)
    again = VP1.parse(text)
    if instruction.unknown_bits:  # bits the text loses (a $c destination it cannot show)
        assert VP1.encode(again)[0] ^ word == instruction.unknown_bits
    else:
        assert again == instruction
    assert VP1.format(again) == text


# --- an invented USSE-style ISA --------------------------------------------------------------

WIDE_FIELDS = {
    "op": field(in_word(1, 31, 27, word_bits=32)), "pred": field(in_word(1, 26, 24, word_bits=32)),
    "skipinv": field(in_word(1, 23, word_bits=32)), "nosched": field(in_word(1, 11, word_bits=32)),
    "end": field(in_word(1, 18, word_bits=32)), "sub": field(in_word(1, 20, word_bits=32)),
    "dst": field(in_word(0, 13, 7, word_bits=32)), "src": field(in_word(0, 6, 0, word_bits=32)),
    "literal": field("95:64"),
}
WIDE_OPERANDS = {
    "pred": Operand("pred", Choice({0: "", 1: "p0", 2: "p1", 5: "!p0"})),
    "flags": flags(skipinv="skipinv", nosched="nosched", end="end"),
    "dst": Operand("dst", Registers({n: (f"r{n}",) for n in range(128)})),
    "src": SubTable((case("#{literal}", extra_words=1, src=127), case("{reg}")), title="source"),
    "reg": Operand("src", Registers({n: (f"r{n}",) for n in range(127)})),
    "literal": Operand("literal", Immediate(radix=16)),
}
WIDE = Description(
    "wide", word_bits=32, words_per_instruction=2, max_length=3, first_word_most_significant=False,
    operand_separator=r"\s*,\s*", fields=WIDE_FIELDS, operands=WIDE_OPERANDS, order="first",
    forms=[form("{pred?} vmov{flags} {dst}, {src}", op=1, sub=0), form("{pred?} vmov{flags} {dst}, {src}", op=1,
                                                                         name="vmov any", ignore=1 << 52),
           form("{pred?} nop{flags}", op=2)])


def test_prefix_flags_in_any_order_and_first_match():
    one = WIDE.parse("p1 vmov.nosched.skipinv r3, r4")
    other = WIDE.parse("p1 vmov.skipinv.nosched r3, r4")
    assert one == other and one.form == "{pred?} vmov{flags} {dst}, {src}"
    assert WIDE.format(one) == "p1 vmov.skipinv.nosched r3, r4"
    assert (one.fields["pred"], one.fields["skipinv"], one.fields["nosched"]) == (2, 1, 1)
    # First match in table order: the first vmov form wins where both match (sub = 0) …
    assert WIDE.decode(WIDE.encode(one)).form == one.form
    # … and the second takes what the first leaves (sub = 1).
    any_sub = WIDE.encode(one)[0], WIDE.encode(one)[1] | 1 << 20
    assert WIDE.decode(any_sub).form == "vmov any"
    assert WIDE.format(WIDE.parse("vmov r1, r2")) == "vmov r1, r2"
    with pytest.raises(SourceError, match=r"unknown instruction 'vmov.skipinb' \(did you mean vmov.skipinv\?\)"):
        WIDE.parse("vmov.skipinb r1, r2")
    with pytest.raises(SourceError, match="repeats"):
        WIDE.parse("nop.end.end")


def test_a_case_may_add_a_trailing_literal_word():
    with_literal = WIDE.parse("vmov r1, #0xdeadbeef")
    words = WIDE.encode(with_literal)
    assert with_literal.length == 3 and len(words) == 3 and words[2] == 0xdeadbeef
    decoded = WIDE.decode(list(words) + [0x1234])
    assert decoded.length == 3 and WIDE.format(decoded) == "vmov r1, #0xdeadbeef"
    assert WIDE.decode(words[:2]).is_data  # the literal word is missing: truncated
    plain = WIDE.parse("vmov r1, r2")
    assert plain.length == 2 and WIDE.decode(list(WIDE.encode(plain)) + [7]).length == 2


# --- a sub-table that reads more than it prints ---------------------------------------------

SPELLED = Description(
    "toy-spelled", word_bits=8, operand_separator=r"\s*,\s*",
    fields={"op": field("7:4"), "reg": field("3:0")},
    operands={"n": Operand("reg", Registers({n: (str(n),) for n in range(8)})),
              "dst": SubTable((case("R{n}"),), title="register", blanks=True,
                              read_only=(case("result", reg=0),),  # another name for R0
                              refusals=((r"R\d+\.\w+", "a register takes no mask here"),))},
    forms=[form("MOV {dst}", op=1)])


def test_read_only_cases_read_but_never_print():
    assert SPELLED.encode(SPELLED.parse("MOV result")) == SPELLED.encode(SPELLED.parse("MOV R0")) == (0x10,)
    assert SPELLED.format(SPELLED.decode([0x10])) == "MOV R0"


def test_blanks_count_for_nothing_and_refusals_say_why():
    assert SPELLED.encode(SPELLED.parse("MOV R 3")) == (0x13,)
    with pytest.raises(SourceError, match="a register takes no mask here"):
        SPELLED.parse("MOV R3.x")
    with pytest.raises(SourceError, match="'R9' is not a valid register"):
        SPELLED.parse("MOV R9")
