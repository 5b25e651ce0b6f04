"""Tests for the TPP assembler and text forms (shaderkit.isa.tpp), against spec/tpp.md
sections 2-3 and the choices documented in the ``shaderkit.isa.tpp`` module docstring.

Mesa-isaspec style: tables of ``(text, word)`` checked in both directions
(parse → encode == word, decode → format == canonical text); customasm style for
errors: tiny sources with the expected line:col and message inline.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shaderkit.core.diagnostics import DiagnosticError, InputError
from shaderkit.isa.tpp import SLOT19_WORD, SLOTS, TinyPixelProcessor
from conftest import golden_dir

GOLDEN = golden_dir("tpp")

REV_A = TinyPixelProcessor("A")
REV_B = TinyPixelProcessor("B")
WRITTEN = TinyPixelProcessor("B", slots="written")


def assemble(source: str, rev: TinyPixelProcessor = REV_B, filename: str = "t.s"):
    return rev.assemble(source, filename)


def errors_of(source: str, rev: TinyPixelProcessor = REV_B, filename: str = "t.s"):
    with pytest.raises(DiagnosticError) as caught:
        rev.assemble(source, filename)
    return caught.value.diagnostics


def only_error(source: str, rev: TinyPixelProcessor = REV_B, filename: str = "t.s"):
    diagnostics = errors_of(source, rev, filename)
    assert len(diagnostics) == 1, [d.render() for d in diagnostics]
    return diagnostics[0]


# --------------------------------------------------------------------------------------
# spec 2.4 worked encodings and the canonical examples of section 3, both directions

WORKED_ENCODINGS = [
    ("MOV R0 RX", 0x1083),
    ("MOV R0 RT", 0x10C3),
    ("ADD R0 RT", 0x18C3),
    ("ADDLT R0 RT", 0x18C2),
    ("XOR R0 R1", 0x5823),
    ("SET R1 #60", 0x09F3),
    ("COMP R1 R0", 0x8903),
    ("FH R0", 0x9003),
    ("OUT R0", 0x6003),
    ("OUT R1", 0x6023),
    ("NOP", 0x0003),
    ("NOPEQ", 0x0000),
    # section 3 canonical printed examples
    ("SETEQ R0 #48", 0x08C0),
    ("COMP RY R2", 0x8D43),
    ("NOPGT", 0x0001),
    ("TT R0", 0xA003),
    # one of every other mnemonic (rev B)
    ("SUB R2 R3", 0x2263),
    ("SL R3 #63", 0x2BFF),
    ("SRGT R1 #1", 0x3105),
    ("AND R0 R2", 0x3843),
    ("NAND R1 RR", 0x41E3),
    ("OR R3 RY", 0x4BA3),
    ("NORLT R0 R0", 0x5002),
    ("SIN R1 R0", 0x6903),
    ("RAMP R0 R1", 0x7823),
    ("SAW R3 R1", 0x8323),
    ("HSD R1", 0x9903),
    ("Credits R0", 0xA803),
    ("FlagP R1", 0xB103),
    ("ESEEQ R2", 0xBA00),
    ("OUT RR", 0x60E3),
    ("COMPGT RX RT", 0x8CC1),
]


@pytest.mark.parametrize("text, word", WORKED_ENCODINGS)
def test_parse_then_encode_gives_the_word(text, word):
    assert REV_B.encode(REV_B.parse(text)) == (word,)


@pytest.mark.parametrize("text, word", WORKED_ENCODINGS)
def test_decode_then_format_gives_the_canonical_text(text, word):
    instruction = REV_B.decode([word])
    assert not instruction.is_data, instruction.note
    assert REV_B.format(instruction) == text
    assert REV_B.decode([word]) == REV_B.parse(text)


@pytest.mark.parametrize("text, word", WORKED_ENCODINGS)
def test_worked_encodings_through_the_assembler(text, word):
    program = assemble(text)
    assert program.words == [word]


def test_nop_words():
    assert assemble("NOP").words == [0x0003]
    assert assemble("NOPEQ").words == [0x0000]
    assert assemble("NOP EQ").words == [0x0000]
    assert REV_B.format(REV_B.decode([0x0002])) == "NOPLT"


# --------------------------------------------------------------------------------------
# suffix form and datasheet (trailing condition) form


@pytest.mark.parametrize("suffix, trailing, word", [
    ("ADDLT R0 RT", "ADD R0 RT LT", 0x18C2),
    ("SETEQ R0 #48", "SET R0 #48 EQ", 0x08C0),
    ("NOPEQ", "NOP EQ", 0x0000),
    ("NOPGT", "NOP GT", 0x0001),
    ("FHEQ R0", "FH R0 EQ", 0x9000),
    ("COMPLT R1 R0", "COMP R1 R0 LT", 0x8902),
    ("OUTGT R2", "OUT R2 GT", 0x6041),
    ("MOVGT R0 R2", "MOV R0 R2 GT", 0x1041),
])
def test_suffix_and_trailing_condition_give_the_same_word(suffix, trailing, word):
    assert assemble(suffix).words == [word]
    assert assemble(trailing).words == [word]
    assert REV_B.parse(suffix) == REV_B.parse(trailing)
    # the printed form is always the suffix form
    assert REV_B.format(REV_B.parse(trailing)) == suffix


@pytest.mark.parametrize("source, col", [
    ("ADDLT R0 RT LT", 13),
    ("ADDEQ R0 RT GT", 13),
    ("NOPGT EQ", 7),
    ("SETLT R0 #1 LT", 13),
])
def test_suffix_and_trailing_condition_together_is_an_error(source, col):
    error = only_error(source)
    assert error.col == col
    assert "already carries a condition" in error.message
    assert "either as a suffix or as a last operand" in error.message


@pytest.mark.parametrize("source, col, message", [
    ("ADD R0 RT XX", 11, "unknown modifier 'XX' (expected one of EQ, GT, LT)"),
    ("ADDNE R0 RT", 1, "unknown instruction 'ADDNE' (did you mean ADDEQ?)"),
    ("FOO", 1, "unknown instruction 'FOO'"),
    ("ADD R0", 1, "'ADD' takes 2 operands (ADD rd rs), got 1"),
    ("SET R0 #1 EQ GT", 11, "'SET' takes 2 operands (SET rd imm), got 4"),
    ("MOV R0 R8", 8, "unknown register 'R8' (expected one of R0, R1, R2, R3, RX, RY, RT, RR)"),
    ("MOV R0, R1", 5, "unknown register 'R0,' (did you mean R0?)"),
    ("SET R0 48", 8, "expected an immediate starting with '#', got '48'"),
])
def test_malformed_lines(source, col, message):
    error = only_error(source)
    assert (error.line, error.col, error.message) == (1, col, message)


# --------------------------------------------------------------------------------------
# case, aliases


@pytest.mark.parametrize("text, word", [
    ("addlt r0 rt", 0x18C2),
    ("Add R0 Rt lt", 0x18C2),
    ("AddLt r0 r6", 0x18C2),
    ("credits r0", 0xA803),
    ("CREDITS R0", 0xA803),
    ("flagp r1", 0xB103),
    ("nopeq", 0x0000),
    ("set r1 #60", 0x09F3),
    ("comp ry r2", 0x8D43),
])
def test_mnemonics_registers_and_conditions_are_case_insensitive(text, word):
    assert assemble(text).words == [word]


@pytest.mark.parametrize("number, letter", [("R4", "RX"), ("R5", "RY"), ("R6", "RT"), ("R7", "RR")])
def test_numbered_and_letter_register_names_are_the_same_register(number, letter):
    assert assemble(f"MOV R0 {number}").words == assemble(f"MOV R0 {letter}").words
    assert assemble(f"COMP {number} R1").words == assemble(f"COMP {letter} R1").words
    # the letter name is the canonical printed one
    assert REV_B.format(REV_B.parse(f"COMP {number} {number}")) == f"COMP {letter} {letter}"


# --------------------------------------------------------------------------------------
# writes to RX/RY/RT/RR


@pytest.mark.parametrize("source, register", [
    ("MOV RX R0", "RX"), ("SET RY #1", "RY"), ("ADD RT R1", "RT"), ("SIN RR R0", "RR"),
    ("SL R4 #1", "R4"), ("TT R7", "R7"), ("XOREQ R5 R5", "R5"),
])
def test_writes_to_hardware_registers_are_rejected(source, register):
    error = only_error(source)
    assert error.col == source.index(register) + 1
    assert error.length == len(register)
    assert error.message.startswith(f"'{register}' is a hardware register: destinations are R0-R3")
    assert ".allow special-writes" in error.message and "##devMode##" in error.message


@pytest.mark.parametrize("source, word", [
    ("MOV RX R0", 0x1403), ("SET RY #1", 0x0D07), ("ADD RT R1", 0x1E23), ("TT R7", 0xA703),
])
def test_writes_to_hardware_registers_after_allow_or_devmode(source, word):
    assert assemble(f".allow special-writes\n{source}").words == [word]
    assert assemble(f"##devMode##\n{source}").words == [0x0000, word]
    assert assemble(f".slots written\n##devMode##\n{source}").words == [word]
    assert REV_B.encode(REV_B.parse(source, special_writes=True)) == (word,)


def test_devmode_line_takes_a_slot_and_keeps_the_outs_after_it_as_upstream_does():
    program = assemble("OUT R1\nNOP\n  ##devMode##  \nMOV RT R0\nOUT R2")
    # The flasher sends word 0x0000 for the line, drops the OUT before it, keeps the one
    # after it and sends NOP (0x0000) to slot 19.
    assert program.image == [0x0003, 0x0000, 0x1603, 0x6043] + [0x0000] * 16
    assert [(w.line, w.col) for w in program.program.warnings] == [(3, 3), (1, 1)]
    assert "'##devMode##' takes slot 1 (word 0x0000)" in program.program.warnings[0].message
    assert "'OUT R1' is left out of the upload" in program.program.warnings[1].message


def test_devmode_line_is_a_directive_not_a_word_with_slots_written():
    program = assemble(".slots written\nNOP\n  ##devMode##  \nMOV RT R0")
    assert program.words == [0x0003, 0x1603]
    assert program.image[:3] == [0x0003, 0x1603, 0x0000] and program.image[19] == 0x6003
    assert program.program.warnings == []


def test_permission_applies_only_after_the_line():
    error = only_error("MOV RX R0\n##devMode##\nMOV RX R0")
    assert error.line == 1


def test_comp_and_sources_may_name_hardware_registers():
    assert assemble("COMP RX RY\nMOV R0 RR\nOUT RT").words == [0x8CA3, 0x10E3, 0x60C3]


# --------------------------------------------------------------------------------------
# immediates


@pytest.mark.parametrize("source, col, message", [
    ("SET R1 #64", 8, "64 is out of range (0 to 63)"),
    ("SET R1 #-1", 8, "-1 is out of range (0 to 63)"),
    ("SL R0 #(8*8)", 7, "64 is out of range (0 to 63)"),
    ("SR R0 #x", 8, "undefined symbol 'x'"),
    ("SET R0 #", 9, "expected an expression"),
    ("SET R0 #1.5", 9, "only integer arithmetic is allowed in expressions"),
])
def test_bad_immediates(source, col, message):
    error = only_error(source)
    assert (error.col, error.message) == (col, message)


@pytest.mark.parametrize("source, value", [
    ("SET R0 #(2*3)", 6), ("SET R0 #0x3f", 63), ("SET R0 #0b11", 3), ("SET R0 #63", 63),
    ("SET R0 #0", 0), ("SET R0 #( 70 - 10 )", 60), (".equ N 7\nSET R0 #N*2", 14),
    ("SET R0 #end\nNOP\nend:", 2),
])
def test_immediates_are_expressions(source, value):
    assert assemble(source).words[0] == 0x0803 | value << 2


# --------------------------------------------------------------------------------------
# comments, OUT lines, program length and the image


def test_comments_take_no_slot_with_slots_written():
    program = assemble("// header\n; other style\nMOV R0 RX // why\n\n   \nOUT R0 ; trailing\n.slots written")
    assert program.words == [0x1083, 0x6003]
    assert program.image[:3] == [0x1083, 0x6003, 0x0000]


def test_upstream_reading_gives_a_comment_line_a_nop_slot_and_drops_out_lines():
    # The shape of the upstream demo programs: a comment header, code with trailing
    # comments, and OUT R0 after blank lines, which the author expects to vanish.
    source = "// stripes\n  //by hand\nMOV R0 RX // why\n; other style\n\n\nOUT R0\n"
    program = assemble(source)
    assert program.image == [0x0003, 0x0003, 0x1083] + [0x0000] * 16 + [0x6003]
    first, dropped = program.program.warnings
    assert (first.line, first.col) == (1, 1) and (dropped.line, dropped.col) == (7, 1)
    assert "takes slot 0 as a NOP" in first.message and "(2 comment lines in all)" in first.message
    assert "'OUT R0' is left out of the upload" in dropped.message
    assert "'.slots written' keeps it in slot 1" in dropped.message


def test_out_lines_are_kept_where_they_stand_with_slots_written():
    program = assemble(".slots written\nMOV R1 RX\nOUT R1\nMOV R0 RY")
    assert program.words == [0x1183, 0x6023, 0x10A3]
    assert program.image[:4] == [0x1183, 0x6023, 0x10A3, 0x0000]


def body(count: int) -> list[str]:
    return [f"SET R{index % 4} #{index}" for index in range(count)]


def test_image_is_padded_with_nop_eq_and_ends_with_out_r0():
    program = assemble("MOV R0 RX\nADD R0 RT")
    assert len(program.image) == SLOTS == 20
    assert program.image == [0x1083, 0x18C3] + [0x0000] * 17 + [SLOT19_WORD]
    assert SLOT19_WORD == 0x6003
    assert assemble("").image == [0x0000] * 19 + [0x6003]


def test_eighteen_instructions_no_warning():
    program = assemble("\n".join(body(18)))
    assert program.program.warnings == []
    assert program.image[18] == 0x0000 and program.image[19] == 0x6003


def test_nineteen_instructions_warn_about_slot_18():
    lines = body(19)
    source = "\n".join([".slots written // comment lines do not count"] + lines)
    program = assemble(source)
    assert len(program.program.warnings) == 1
    warning = program.program.warnings[0]
    assert warning.severity == "warning"
    assert (warning.file, warning.line, warning.col) == ("t.s", 20, 1)
    assert "slot 18" in warning.message
    assert warning.render().startswith("t.s:20:1: warning: slot 18 is used")
    assert program.image == program.words + [0x6003]


def test_twenty_instructions_ending_in_out_r0_are_accepted():
    program = assemble("\n".join(body(19) + ["OUT R0"]))
    assert len(program.words) == 20
    assert program.image == program.words
    assert program.image[19] == 0x6003


@pytest.mark.parametrize("last", ["OUT R1", "NOP", "OUTEQ R0", "MOV R0 RX"])
def test_twenty_instructions_otherwise_point_at_the_twentieth(last):
    lines = body(19) + [last]
    source = "\n".join([".slots written"] + lines[:5] + ["", "// a comment"] + lines[5:])  # line = instruction + 3
    error = only_error(source)
    assert (error.line, error.col) == (23, 1)
    assert error.message.startswith("program too long: 20 instructions")
    assert "slot 19 is fixed to OUT R0" in error.message
    assert error.render().splitlines()[1] == last


def test_more_than_twenty_instructions_point_at_the_twentieth():
    error = only_error("\n".join(body(19) + ["OUT R0", "OUT R0", ".slots written"]))
    assert error.line == 20
    assert error.message.startswith("program too long: 21 instructions")


# --------------------------------------------------------------------------------------
# golden programs


def golden_sources() -> list[Path]:
    return sorted(GOLDEN.glob("*.s"))


def test_golden_folder_is_found():
    assert len(golden_sources()) >= 10, f"expected golden sources in {GOLDEN.resolve()}"


@pytest.mark.parametrize("source", golden_sources(), ids=lambda path: path.stem)
def test_golden_program_assembles_to_its_words(source):
    # The golden images keep OUT lines where they stand (tests/golden/tpp/README.md).
    expected = [int(line, 16) for line in source.with_suffix(".words").read_text().split()]
    assert len(expected) == 20
    program = WRITTEN.assemble(source.read_text(), str(source))
    assert program.image == expected
    assert program.program.warnings == []
    upstream = REV_B.assemble(source.read_text(), str(source))
    if "OUT" in source.read_text():
        # The upstream flasher's upload of the same source leaves its OUT lines out, and says so.
        assert upstream.image == [word for word in expected[:19] if word >> 11 != 12] + [0] * (
            sum(word >> 11 == 12 for word in expected[:19])) + [0x6003]
        assert all("left out of the upload" in w.message for w in upstream.program.warnings)
    else:
        assert upstream.image == expected and upstream.program.warnings == []


@pytest.mark.parametrize("source", golden_sources(), ids=lambda path: path.stem)
def test_golden_program_disassembles_to_its_source(source):
    expected = [int(line, 16) for line in source.with_suffix(".words").read_text().split()]
    lines = [line for line in source.read_text().splitlines() if line.strip()]
    listing = REV_B.disassemble(expected[:len(lines)], addresses=False)
    # A listing holding OUTs says how its lines take slots, so that it re-assembles.
    assert listing.splitlines() == ([".slots written"] if "OUT" in source.read_text() else []) + lines


# --------------------------------------------------------------------------------------
# revisions


def test_out_outputs_what_its_text_says_on_each_revision():
    # Rev B reads the register from bits 7-5 (the upstream word); rev A from bits 10-8, so
    # its OUT carries the register in both fields and outputs the same on rev B.
    assert REV_B.assemble(".slots written\nOUT R1").words == [0x6023]
    assert REV_A.assemble(".slots written\nOUT R1").words == [0x6123]
    assert REV_A.assemble(".slots written\nOUTLT RT").words == [0x66C2]
    assert REV_A.assemble(".slots written\nOUT R0").words == REV_B.assemble(".slots written\nOUT R0").words == [0x6003]
    assert REV_B.format(REV_B.decode([0x6123])) == ".word 0x6123"  # portable, but not rev B's own word


def test_rev_a_out_runs_as_written(tmp_path):
    # The same text shows the same picture on both revisions: OUT R1 mid-program on rev A.
    source = ".slots written\nMOV R1 RX\nOUT R1\nSET R1 #0\nMOV R0 RY"
    assert REV_A.assemble(source).program.warnings == []
    frames = [rev.run_session(rev.assemble(source).image, model="exact").frame(0) for rev in (REV_A, REV_B)]
    assert (frames[0] == frames[1]).all()
    upstream_word = REV_A.run_session(REV_B.assemble(source).image, model="exact").frame(0)
    assert (upstream_word != frames[1]).any()  # rev A runs the upstream word as OUT R0


def test_rev_a_disassembly_says_what_rev_b_outputs():
    upstream_word = REV_A.decode([0x6023])
    assert upstream_word.is_data and REV_A.format(upstream_word) == ".word 0x6023"
    assert upstream_word.note == "= OUT R0, unused bits set (0x20); rev B outputs R1 (it reads bits 7-5)"
    assert REV_A.format(REV_A.decode([0x6123])) == "OUT R1" and REV_A.decode([0x6123]).note == ""
    assert REV_B.decode([0x6023]).note == ""
    other = REV_A.decode([0x6103])
    assert other.is_data and "= OUT R1, unused bits set" in other.note and "rev B outputs R0" in other.note


def test_the_other_field_of_out_is_unused_bits_on_rev_b():
    instruction = REV_B.decode([0x6103])
    assert instruction.is_data and "unused bits" in instruction.note and "OUT R0" in instruction.note


@pytest.mark.parametrize("mnemonic", ["FH", "HSD", "TT", "Credits", "FlagP", "ESE"])
def test_rom_mnemonics_are_rev_b_only(mnemonic):
    assert len(REV_B.assemble(f"{mnemonic} R0").words) == 1
    # Rev A reads it as the upstream flasher does, and says its word runs as NOP there.
    program = REV_A.assemble(f"{mnemonic} R0", "t.s")
    assert program.words == REV_B.assemble(f"{mnemonic} R0").words
    warning, = program.program.warnings
    assert (warning.col, warning.message) == (1, f"'{mnemonic}' is rev B only: rev A has no ROM ops and runs its word as NOP")


def test_revision_names():
    assert TinyPixelProcessor().rev == "B"
    assert TinyPixelProcessor("a").rev == "A"
    with pytest.raises(InputError, match="unknown TPP revision"):
        TinyPixelProcessor("C")


def test_worked_encodings_without_out_and_rom_are_the_same_on_rev_a():
    for text, word in WORKED_ENCODINGS:
        if text.startswith(("OUT", "FH", "HSD", "TT", "Credits", "FlagP", "ESE")):
            continue
        assert REV_A.assemble(text).words == [word], text
        assert REV_A.format(REV_A.decode([word])) == text
