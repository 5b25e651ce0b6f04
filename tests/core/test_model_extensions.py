"""Extensions of the description model, on an invented two-unit ISA (no processor of the project):
implied field values, carried fields, stand-ins, value names, alternative spellings chosen by
fewest lost fields, co-issued operations, conditional expressions, fallback readings, cases
sharing a spelling and implied values that override an operand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model import (FEWEST_LOST, Annotate, Choice, Description, Immediate, Operand, ParseContext, Registers,
                                  SubTable, case, compile_expression, field, form)

FIELDS = {"vop": field("31:28"), "sop": field("27:24"), "dst": field("23:20"), "src": field("19:16"),
          "pad": field("15:12"), "tag": field("11:8"), "end": field("0")}
REG = Registers({n: (f"r{n}",) for n in range(8)})
OPERANDS = {"dst": Operand("dst", REG, stand_in=0), "src": Operand("src", REG, stand_in=0),
            "tag": Operand("tag", Immediate())}
PARTITION = ("vop", "sop", "dst", "src", "pad", "tag", "end")
TOY = Description(
    "toy", word_bits=32, fields=FIELDS, operands=OPERANDS, order=FEWEST_LOST, issue_separator="+",
    unknown_bits=Annotate(fields=PARTITION),
    forms=[form("mov {dst}, {src}", vop=1, sop=0, implied={"pad": "src + 1 if src < 7 else 0", "tag": 0},
                carries=("end",)),
           form("neg {dst}", vop=2, sop=0, implied={"src": "dst", "pad": 0, "tag": 0}, carries=("end",)),
           form("neg {dst}, {src}", vop=2, sop=0, implied={"pad": 0, "tag": 0}, carries=("end",)),
           form("mov {dst}, {src} + tag {tag}", vop=1, sop=3, implied={"pad": 0}, carries=("end",))],
    operand_separator=r"\s*,\s*")


def words_of(text: str, context: ParseContext | None = None) -> tuple[int, ...]:
    return TOY.encode(TOY.parse(text, context))


def test_implied_fields_are_written_and_checked():
    assert words_of("mov r2, r3") == (0x10234000,)  # pad = src + 1
    assert TOY.decode([0x10234000]).unknown_bits == 0
    lost = TOY.decode([0x10235000])
    assert TOY.format(lost) == "mov r2, r3" and lost.unknown_bits == 0x1000


def test_carried_fields_are_kept_and_set_by_a_driver():
    decoded = TOY.decode([0x10234001])
    assert decoded.unknown_bits == 0 and decoded.fields["end"] == 1
    parsed = TOY.parse("mov r2, r3")
    assert TOY.encode(TOY.instance(parsed.declaration, {**parsed.fields, "end": 1})) == (0x10234001,)


def test_a_value_the_kind_cannot_write_shows_its_stand_in():
    decoded = TOY.decode([0x10923000])  # dst 9 has no name
    assert TOY.format(decoded) == "mov r0, r2" and decoded.unknown_bits == 0x00900000


def test_alternative_spellings_lose_the_fewest_fields():
    assert TOY.format(TOY.decode([0x20440000])) == "neg r4"  # src = dst: the short spelling
    assert TOY.format(TOY.decode([0x20450000])) == "neg r4, r5"
    assert words_of("neg r4") == (0x20440000,)


def test_co_issued_operations_share_one_instruction():
    assert words_of("mov r1, r2 + tag 5") == (0x13120500,)
    assert TOY.format(TOY.decode([0x13120500])) == "mov r1, r2 + tag 5"
    with pytest.raises(SourceError, match="cannot issue together|unknown instruction"):
        TOY.parse("neg r1 + tag 5")


def test_values_print_and_read_by_name():
    decoded = TOY.decode([0x13120500])
    assert TOY.format(decoded, names={"tag": {5: "FIVE"}}) == "mov r1, r2 + tag FIVE"
    assert words_of("mov r1, r2 + tag FIVE", ParseContext(value_names={"tag": {"FIVE": 5}})) == (0x13120500,)


def test_conditional_expressions():
    expression = compile_expression("a * 2 if a < 3 else b", {"a", "b"})
    assert expression({"a": 1, "b": 9}) == 2 and expression({"a": 4, "b": 9}) == 9
    assert expression.fields == frozenset({"a", "b"})


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 0xffffffff))
def test_decoded_words_reencode_exactly_and_text_keeps_the_rest(word):
    decoded = TOY.decode([word])
    if decoded.is_data:
        return
    again = TOY.encode(TOY.parse(TOY.format(decoded)))[0]
    end = FIELDS["end"].mask
    assert (word ^ again) & ~end == decoded.unknown_bits & ~end


# --- fallback forms, shared spellings, overrides -------------------------------------------------

UNITS_FIELDS = {"vop": field("31:28"), "sop": field("27:24"), "dst": field("23:20"), "src": field("19:16"),
                "kind": field("15:14"), "pad": field("13:8"), "tag": field("7:0")}
UNITS_PARTITION = ("vop", "sop", "dst", "src", "kind", "pad", "tag")
UNITS_OPERANDS = {
    "dst": Operand("dst", REG, stand_in=0), "src": Operand("src", REG, stand_in=0), "tag": Operand("tag", Immediate()),
    # "q" is written one way whether kind is 1 or 3: the text reads back as kind 1.
    "where": SubTable((case("p", kind=0), case("q", kind=1), case("q", kind=3), case("s", kind=2)), title="where"),
}
UNITS = Description(
    "units", word_bits=32, fields=UNITS_FIELDS, operands=UNITS_OPERANDS, order=FEWEST_LOST,
    unknown_bits=Annotate(fields=UNITS_PARTITION), operand_separator=r"\s*,\s*", issue_separator="+",
    first_word_most_significant=False, max_length=2,
    forms=[
        # An unknown operation reads as nop, and an idle unit is implied, so both are fallbacks.
        form("nop", ignore=0xFFFFFFFF, fallback=True),
        form("mov {dst}, {src}", vop=1, implied={"sop": 0}, ignore=0xFFFF, fallback=True),
        form("tag {tag}", sop=3, implied={"vop": 0, "dst": 0, "src": 0}, ignore=0xFF00, fallback=True),
        form("mov {dst}, {src} + tag {tag}", vop=1, sop=3, implied={"pad": 0, "kind": 0}),
        form("put {dst}, {where}", vop=2, sop=0, implied={"src": 0, "pad": 0, "tag": 0}),
        # The tag overlays src: the assembler writes src = 0 after the operands.
        form("mix {dst}, {src} + tag {tag}", vop=4, sop=3, implied={"src": 0, "pad": 0, "kind": 0},
             overrides=("src",)),
        # A load with a tag takes a second word; without one, the tag is lost.
        form("load {dst}, {tag}", vop=5, sop=0, implied={"src": 0, "kind": 0, "pad": 0}, extra_words=1),
        # Another name for load, read but never printed (though declared first).
        form("fetch {dst}", vop=5, sop=0, implied={"src": 0, "kind": 0, "pad": 0, "tag": 0}, spelling_only=True),
        form("load {dst}", vop=5, sop=0, implied={"src": 0, "kind": 0, "pad": 0, "tag": 0}),
    ])


def test_a_form_that_names_the_bits_beats_a_fallback_that_loses_less():
    decoded = UNITS.decode([0x13120a05])  # pad and kind set: the co-issued form loses them, "mov" only sop
    assert UNITS.format(decoded) == "mov r1, r2 + tag 5" and decoded.unknown_bits == 0x00000a00


def test_among_fallbacks_the_one_fixing_most_bits_is_read():
    decoded = UNITS.decode([0x73000005])  # unknown vop 7: "nop" would lose nothing, "tag 5" keeps sop
    assert UNITS.format(decoded) == "tag 5" and decoded.unknown_bits == 0x70000000
    assert UNITS.format(UNITS.decode([0x70000000])) == "nop"


def test_a_truncated_reading_loses_to_one_that_fits():
    assert UNITS.format(UNITS.decode([0x50100007, 0])) == "load r1, 7"
    alone = UNITS.decode([0x50100007])
    assert UNITS.format(alone) == "load r1" and alone.unknown_bits == 0x7


def test_a_case_sharing_an_earlier_spelling_reports_the_difference():
    first, second = UNITS.decode([0x20504000]), UNITS.decode([0x2050c000])
    assert UNITS.format(first) == UNITS.format(second) == "put r5, q"
    assert first.unknown_bits == 0 and second.unknown_bits == 0x00008000  # kind 3 reads back as 1
    assert UNITS.encode(UNITS.parse("put r5, q")) == (0x20504000,)


def test_an_overriding_implied_value_wins_over_the_text():
    assert UNITS.encode(UNITS.parse("mix r1, r2 + tag 5")) == (0x43100005,)
    decoded = UNITS.decode([0x43120005])
    assert UNITS.format(decoded) == "mix r1, r2 + tag 5" and decoded.unknown_bits == 0x00020000


def test_a_spelling_only_form_is_read_and_never_printed():
    assert UNITS.encode(UNITS.parse("fetch r3")) == UNITS.encode(UNITS.parse("load r3")) == (0x50300000,)
    assert UNITS.format(UNITS.decode([0x50300000])) == "load r3"


SIZED = Description(
    "sized", word_bits=32, fields={"op": field("31:28"), "size": field("27:26"), "dst": field("23:20")},
    operands={"size": Operand("size", Choice({0: "b", 1: "w"}), title="size"), "dst": Operand("dst", REG)},
    forms=[form("ld{size} {dst}", op=1)], operand_separator=r"\s*,\s*")


def test_a_known_mnemonic_missing_its_suffix_is_named_as_such():
    assert SIZED.encode(SIZED.parse("ldw r2")) == (0x14200000,)
    with pytest.raises(SourceError) as caught:
        SIZED.parse("ld r2")
    assert caught.value.message == "'ld' is missing its size (ld{size})" and caught.value.col == 1
    with pytest.raises(SourceError, match=r"unknown instruction 'ldx' \(did you mean ld[bw]\?\)"):
        SIZED.parse("ldx r2")


PARTS = Description(
    "parts", word_bits=32,
    fields={"op": field("31:28"), "copy": field("27:16"), "word": field("11:0"), "high": field("11:8"),
            "low": field("7:0")},
    operands={"high": Operand("high", Immediate()), "low": Operand("low", Immediate())},
    forms=[form("put {high}, {low}", op=1, implied={"copy": "word + 1"})], operand_separator=r"\s*,\s*")


def test_an_implied_value_reads_a_field_the_text_set_through_its_parts():
    assert PARTS.encode(PARTS.parse("put 3, 0x45")) == (0x13460345,)  # copy = word 0x345 + 1


OVERLAID = Description(
    "overlaid", word_bits=32, fields={"op": field("31:28"), "mode": field("27"), "wide": field("11:0"),
                                      "tag": field("3:0")},
    operands={"src": SubTable((case("n", mode=0), case("w{wide}", mode=1)), title="source"),
              "wide": Operand("wide", Immediate()), "tag": Operand("tag", Immediate())},
    forms=[form("put {src}, {tag}", op=1)], operand_separator=r"\s*,\s*")


def test_a_field_left_at_its_default_does_not_overwrite_an_overlapping_one_the_text_set():
    assert OVERLAID.encode(OVERLAID.parse("put n, 5")) == (0x10000005,)  # the unused wide stays under tag


# -- which alternative's error is reported --------------------------------------------------

BRANCHY = Description(
    "branchy", word_bits=16, fields={"op": field("15:12"), "c": field("11:10"), "target": field("9:0", scale=4)},
    operands={"c": Operand("c", Registers({n: (f"c{n}",) for n in range(4)})),
              "target": Operand("target", Immediate())},
    forms=[form("jmp {target}", op=1), form("jmp {c} {target}", op=2), form("jmp loop {c} {c} {target}", op=3)])


@pytest.mark.parametrize("text, col, message", [
    # The count differs from the short forms': the form that takes three operands reports.
    ("jmp loop c1 c1 6", 16, "6 is not reachable: the value must be a multiple of 4"),
    # Both two-operand forms fail: the one that read further into the text reports.
    ("jmp c1 6", 8, "6 is not reachable: the value must be a multiple of 4"),
    # Nothing but counts differ: the first form's count is the message.
    ("jmp 4 4 4 4 4", 7, "'jmp' takes 1 operand (jmp target), got 5"),
])
def test_the_alternative_that_read_the_most_reports_its_error(text, col, message):
    with pytest.raises(SourceError) as caught:
        BRANCHY.parse(text)
    assert (caught.value.col, caught.value.message) == (col, message)
