"""Extensions of the description model and the drivers for disassemblers that annotate rather than
refuse (envydis's style), on an invented bundled ISA (no processor of the project): unknown bits
reported as only the bits no field covers, words whose text reads back as other words turned into
data by reading the text back, operand values marked unknown, two's complement numbers, label
prefixes, one address for every statement, bundle separators and remarks in listings, the
annotated ``WORD TEXT FLAGS`` lines, and the warning where lines written as one bundle split."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.asm import Assembler
from shaderkit.core.asm_hooks import bundle_check
from shaderkit.core.diagnostics import DiagnosticError
from shaderkit.core.disasm import annotated_lines, disassemble, jump_labels, listing
from shaderkit.core.model import (Annotate, AsData, Choice, CodeAddress, Description, Immediate, Operand, ParseContext,
                                  Registers, field, form, rank_runs)

# 16-bit words: unit 15:14 (0 = load, 1 = alu, 2 = branch), op 13:12, dst 11:9, src 8:6, tag 5:3,
# cdst 2:0 (written iff bit 2 is 0; 4 when absent). A jump's target is 11:0 words, absolute.
FIELDS = {"unit": field("15:14"), "op": field("13:12"), "dst": field("11:9"), "src": field("8:6"),
          "sel": field("5:3"), "cdst": field("2:0", default=4), "imm": field("8:0", signed=True),
          "target": field("11:0")}
REG = Registers({**{n: (f"r{n}",) for n in range(7)}, 7: ("0x0", "r7")})  # r7 reads 0, prints 0x0
SEL = Choice({0: "lo", 1: "hi", 2: "odd", 3: "even", 4: "x", 5: "y", 6: "z", 7: "any"}, unknown=frozenset({6}))
OPERANDS = {"dst": Operand("dst", REG), "src": Operand("src", REG), "sel": Operand("sel", SEL),
            "c": Operand("cdst", Registers({n: (f"c{n}",) for n in range(4)})),
            "imm": Operand("imm", Immediate(radix=16, twos_complement=64)),
            "target": Operand("target", CodeAddress(radix=16, label_prefix="#"))}
C = "{c if cdst & 4 == 0}"
FORMS = [form(f"ld {{dst}} {C} {{src}}", unit=0, op=0),
         form(f"add {{dst}} {C} {{src}} {{sel}}", unit=1, op=0),
         form(f"add {{dst}} {C} {{src}} {{sel}}", unit=1, op=1),  # a duplicate opcode
         form(f"add {{dst}} {C} {{imm}}", unit=1, op=2),  # "add r1 0x0" reads as the register form? no: 2 operands
         form("mov {dst} {imm}", unit=1, op=3),
         form("nop", unit=2, op=0, ignore=0xfff),
         form("jmp {target}", unit=2, op=1)]


def rank(instruction):
    return instruction.words[0] >> 14 if instruction.words else 0


def toy(policy) -> Description:
    return Description("toy", word_bits=16, fields=FIELDS, operands=OPERANDS, forms=FORMS, unknown_bits=policy,
                       bundles=rank_runs(4, rank))


ENVYDIS = toy(Annotate(mask=0xff, unclaimed_only=True))
VERIFIED = toy(AsData(verify=True))


def word(text: str, address: int = 0) -> int:
    return ENVYDIS.encode(ENVYDIS.parse(text, ParseContext(address=address)))[0]


def test_unclaimed_only_reports_bits_no_field_covers_not_fields_the_text_shows_otherwise():
    assert word("ld r1 r2") == 0x0284
    # cdst 5: bit 2 set, so no condition is printed; envydis still counts bits 0-2 as used.
    decoded = ENVYDIS.decode([0x0285])
    assert ENVYDIS.format(decoded) == "ld r1 r2" and decoded.unknown_bits == 0
    # sel (5:3) is no field of ld: reported, within the mask.
    assert ENVYDIS.decode([0x02a4]).unknown_bits == 0x20
    # Ignored bits are not reported.
    assert ENVYDIS.decode([0x8fff]).unknown_bits == 0
    # Without unclaimed_only, the cdst that differs from its default is reported too.
    assert toy(Annotate(mask=0xff)).decode([0x0285]).unknown_bits == 0x1


def test_verified_data_keeps_only_words_whose_text_reads_back_as_them():
    assert not VERIFIED.decode([0x0284]).is_data
    for different in (0x0285, 0x02a4, 0x8fff, 0x5284):  # cdst, unclaimed, ignored, duplicate opcode
        decoded = VERIFIED.decode([different])
        assert decoded.is_data, hex(different)
        assert decoded.note.startswith("= ")
    assert "assembles to 0x4284" in VERIFIED.decode([0x5284]).note
    # Without verify, the duplicate opcode and the ignored bits pass as instructions.
    assert not toy(AsData()).decode([0x5284]).is_data and not toy(AsData()).decode([0x8fff]).is_data


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 0xffff))
def test_a_verified_instruction_round_trips_and_every_word_encodes_back(value):
    decoded = VERIFIED.decode([value])
    assert VERIFIED.encode(decoded) == (value,)
    if not decoded.is_data:
        assert VERIFIED.parse(VERIFIED.format(decoded), ParseContext(address=0)) == decoded


def test_an_operand_value_marked_unknown_is_reported():
    assert ENVYDIS.decode([word("add r1 r2 z")]).unknown_operand
    assert not ENVYDIS.decode([word("add r1 r2 y")]).unknown_operand


def test_twos_complement_numbers_read_and_print():
    assert ENVYDIS.format(ENVYDIS.decode([word("mov r1 -0x2")])) == "mov r1 -0x2"
    assert word("mov r1 0xfffffffffffffffe") == word("mov r1 -0x2")
    wide = Immediate(radix=16, twos_complement=64, prints_twos_complement=True)
    assert wide.format(-0x2c) == "0xffffffffffffffd4" and wide.format(5) == "0x5"


def test_a_label_reads_with_or_without_its_prefix_and_prints_with_it():
    assembler = Assembler(ENVYDIS)
    assert assembler.assemble("top: nop\njmp #top\njmp top\n").words == [0x8000, 0x9000, 0x9000]
    instructions = disassemble(ENVYDIS, [0x8000, 0x9000])
    labels = jump_labels(ENVYDIS, instructions)
    assert "jmp #L_00" in listing(ENVYDIS, instructions, labels=labels)


def test_every_statement_at_one_address():
    assembler = Assembler(ENVYDIS, statement_address=0)
    program = assembler.assemble("nop\njmp 0x0\n")
    assert [instruction.address for instruction in program.instructions] == [0, 0]


def test_listing_separates_bundles_and_adds_remarks():
    words = [word("ld r1 r2"), word("add r1 r2 lo"), word("nop"), word("nop")]
    text = listing(ENVYDIS, disassemble(ENVYDIS, words), addresses=False, bundles=True,
                   remark=lambda instruction: "!" if instruction.mnemonic == "nop" else "")
    assert text.split("\n")[:5] == ["ld r1 r2", "add r1 r2 lo", "nop                      // !", "",
                                    "nop                      // !"]


def test_annotated_lines():
    lines = annotated_lines(ENVYDIS, [0x02a4, word("add r1 r2 z"), 0xc0ff], unknown_text="???")
    assert lines == ["02a4\tld r1 r2\tbits:0020", f"{word('add r1 r2 z'):04x}\tadd r1 r2 z\toperand",
                     "c0ff\t???\tbits:00ff,insn"]


def test_lines_written_as_one_bundle_warn_where_they_split():
    assembler = Assembler(ENVYDIS, check=bundle_check(ENVYDIS, ("load", "alu", "branch")))
    program = assembler.assemble("nop\nnop\nnop\n\nld r1 r2\nadd r1 r2 lo\n", "t.s")
    assert [w.message for w in program.warnings] == [
        "this starts a new bundle, although written as one with the line above: address 0x4 begins an aligned "
        "group of 4 words, which a bundle never crosses"]
    assert program.warnings[0].line == 6 and program.warnings[0].severity == "warning"
    program = assembler.assemble("add r1 r2 lo\nld r1 r2\n", "t.s")
    assert "a load instruction cannot follow an alu one" in program.warnings[0].message
    # Sequential code (a unit repeated, or a block longer than a bundle) and separate blocks are not warned about.
    assert not assembler.assemble("add r1 r2 lo\nadd r1 r2 lo\n").warnings
    assert not assembler.assemble("add r1 r2 lo\n\nld r1 r2\n").warnings


def test_errors_still_come_with_their_place():
    with pytest.raises(DiagnosticError) as raised:
        Assembler(ENVYDIS).assemble("ld r1 r9\n", "t.s")
    assert raised.value.diagnostics[0].col == 7
