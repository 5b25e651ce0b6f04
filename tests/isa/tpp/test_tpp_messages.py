"""TPP messages a first-time user meets (issue 9 §3): operand counts, rev-B-only ROM ops,
near-miss suggestions, and disassembly warnings for images that are no TPP program.

Every example and golden program must disassemble without a plausibility warning, and
another processor's image must get one line naming the likely cause.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import golden_dir

from shaderkit.core.diagnostics import DiagnosticError
from shaderkit.isa import get
from shaderkit.isa.tpp import SLOT19_WORD, SLOTS, TinyPixelProcessor

REV_A, REV_B = TinyPixelProcessor("A"), TinyPixelProcessor("B")
EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "tpp").glob("*.s"))
GOLDEN_WORDS = sorted(golden_dir("tpp").glob("*.words"))
PLAUSIBILITY = "does not look like a TPP program"


def only_error(source: str, processor: TinyPixelProcessor = REV_B):
    with pytest.raises(DiagnosticError) as caught:
        processor.assemble(source + "\n", "t.s")
    (diagnostic,) = caught.value.diagnostics
    return diagnostic


@pytest.mark.parametrize("source, col, message", [
    ("ADD R0 R1 R2", 11, "'ADD' takes 2 operands (ADD rd rs), got 3"),
    ("ADDLT R0 R1 R2", 13, "'ADD' takes 2 operands (ADD rd rs), got 3"),
    ("SET R0 #1 #2", 11, "'SET' takes 2 operands (SET rd imm), got 3"),
    ("OUT R0 R1", 8, "'OUT' takes 1 operand (OUT rs), got 2"),
    ("NOP R0", 5, "'NOP' takes no operands, got 1"),
    ("ADD R0 LT", 1, "'ADD' takes 2 operands (ADD rd rs), got 1"),
    ("ADD R0 R1 LTE", 11, "unknown modifier 'LTE' (did you mean LT?)"),
    ("ADX R0 R1", 1, "unknown instruction 'ADX' (did you mean ADD?)"),
    ("ADXLT R0 R1", 1, "unknown instruction 'ADXLT' (did you mean ADDLT?)"),
    ("SUBB R0 R1", 1, "unknown instruction 'SUBB' (did you mean SUB?)"),
    ("MOV R0 RXX", 8, "unknown register 'RXX' (did you mean RX?)"),
    ("MOV R9 R0", 5, "unknown register 'R9' (expected one of R0, R1, R2, R3, RX, RY, RT, RR)"),
    ("STEP = 1\nSET R0 #STPE", 9, "undefined symbol 'STPE' (did you mean STEP?)"),
])
def test_messages_name_the_mistake(source, col, message):
    error = only_error(source)
    assert (error.col, error.message) == (col, message)


def test_the_datasheet_condition_still_reads_as_a_last_operand():
    assert REV_B.assemble("ADD R0 RT LT\n").words == REV_B.assemble("ADDLT R0 RT\n").words


@pytest.mark.parametrize("source, mnemonic", [("FH R0", "FH"), ("ttlt R1", "TT"), ("Credits R2 GT", "Credits")])
def test_rom_ops_on_rev_a_are_rev_b_only(source, mnemonic):
    program = REV_A.assemble(source + "\n", "t.s")
    warning, = program.program.warnings
    assert (warning.col, warning.message) == (1, f"'{mnemonic}' is rev B only: rev A has no ROM ops and runs its word as NOP")
    assert program.words == REV_B.assemble(source + "\n").words and len(program.words) == 1


# -- disassembly plausibility ---------------------------------------------------------------

def plausibility_lines(processor, words) -> list[str]:
    return [line for line in processor.disassembly_warnings(words) if PLAUSIBILITY in line]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_examples_disassemble_without_a_plausibility_warning(path):
    image = REV_B.assemble(path.read_text(), str(path)).image
    assert REV_B.disassembly_warnings(image) == []


@pytest.mark.parametrize("path", GOLDEN_WORDS, ids=lambda path: path.stem)
def test_golden_programs_look_like_programs_on_both_revisions(path):
    words = [int(token, 16) for token in path.read_text().split()]
    assert REV_B.disassembly_warnings(words) == []
    # On rev A a ROM op is worth a note per word, but the image is still a TPP program.
    assert plausibility_lines(REV_A, words) == []


def test_a_theia_image_is_named_implausible_in_one_line():
    theia = get("theia")
    image = theia.assemble((Path(__file__).resolve().parents[3] / "examples" / "theia" / "toon.s").read_text()).image
    data = b"".join(word.to_bytes(8, "big") for word in image)
    words = [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2)]
    (line,) = REV_B.disassembly_warnings(words)
    assert line.startswith(f"{PLAUSIBILITY}: {len(words)} words, where a TPP image has {SLOTS}")
    assert "another processor" in line


def test_slot_19_must_hold_out_r0():
    words = REV_B.assemble("SET R0 #1\n").image
    assert REV_B.disassembly_warnings(words) == []
    (line,) = REV_B.disassembly_warnings(words[:-1] + [0x0003])
    assert f"slot 19 holds 0x0003, where a TPP image has OUT R0 (0x{SLOT19_WORD:04x}), or NOP in a devMode upload" in line


def test_mostly_undecodable_words_are_counted():
    words = [0x7000] * 12 + [0x0003] * 7 + [SLOT19_WORD]  # opcode 14 is not decoded
    (line,) = REV_B.disassembly_warnings(words)
    assert "12 of 20 words are not instructions" in line
    few = [0x7000] * 2 + [0x0003] * 17 + [SLOT19_WORD]
    assert len(REV_B.disassembly_warnings(few)) == 2 and not plausibility_lines(REV_B, few)
