"""Messages of the generic parser and disassembler driver, on a toy ISA described here.

The toy has a condition suffix that may also be written as a last operand (as TPP's
datasheet form), one form that only a "big model" has, registers, immediates and jump
targets, so every message the core derives can be provoked without a real processor.
customasm style: the source and the expected ``col: message`` side by side.
"""

from __future__ import annotations

import pytest

from shaderkit.core.asm import Assembler
from shaderkit.core.bits import bits
from shaderkit.core.diagnostics import DiagnosticError
from shaderkit.core.disasm import disassemble, foreign_words, plausibility_warnings
from shaderkit.core.model import (Choice, CodeAddress, Description, Immediate, Operand, ParseContext, Registers,
                                 form)
from shaderkit.core.suggest import closest_name, did_you_mean

FIELDS = {"op": bits("15:12"), "a": bits("11:9"), "b": bits("8:6"), "imm": bits("8:2"), "cond": bits("1:0")}
REGISTERS = Registers({0: ("A",), 1: ("B",), 2: ("ACC",), 3: ("IDX",)})
OPERANDS = {
    "cond": Operand("cond", Choice({0: "", 1: "Z", 2: "NZ"}), title="condition"),
    "rd": Operand("a", REGISTERS),
    "rs": Operand("b", REGISTERS),
    "imm": Operand("imm", Immediate("#")),
    "target": Operand("imm", CodeAddress()),
}
TOY = Description(
    "toy", word_bits=16, fields=FIELDS, operands=OPERANDS, modifier_as_operand="cond",
    forms=[form("HALT{cond}", op=0), form("LOAD{cond} {rd} {imm}", op=1),
           form("MOVE{cond} {rd} {rs}", op=2), form("JUMP{cond} {target}", op=3)],
    unavailable=[(form("SWAP{cond} {rd} {rs}", op=4), "is only on the big model")])
ASSEMBLER = Assembler(TOY)


def only_error(source: str):
    with pytest.raises(DiagnosticError) as caught:
        ASSEMBLER.assemble(source, "toy.s")
    diagnostics = caught.value.diagnostics
    assert len(diagnostics) == 1, [d.render() for d in diagnostics]
    return diagnostics[0]


@pytest.mark.parametrize("source, col, length, message", [
    # An operand too many is counted, not read as a condition.
    ("MOVE A B ACC", 10, 3, "'MOVE' takes 2 operands (MOVE rd rs), got 3"),
    ("LOAD A #1 #2", 11, 2, "'LOAD' takes 2 operands (LOAD rd imm), got 3"),
    ("MOVE A B Z NZ", 10, 1, "'MOVE' takes 2 operands (MOVE rd rs), got 4"),
    ("HALT A", 6, 1, "'HALT' takes no operands, got 1"),
    ("JUMP 1 2", 8, 1, "'JUMP' takes 1 operand (JUMP target), got 2"),
    # Too few, also when the last token given is a condition.
    ("MOVE A", 1, 4, "'MOVE' takes 2 operands (MOVE rd rs), got 1"),
    ("MOVE A NZ", 1, 4, "'MOVE' takes 2 operands (MOVE rd rs), got 1"),
    # A last token that is no operand of any kind is a misspelt condition.
    ("MOVE A B NZZ", 10, 3, "unknown modifier 'NZZ' (did you mean NZ?)"),
    ("MOVE A B Q", 10, 1, "unknown modifier 'Q' (expected one of Z, NZ)"),
])
def test_operand_counts_and_conditions(source, col, length, message):
    error = only_error(source)
    assert (error.col, error.length, error.message) == (col, length, message)


def test_the_condition_may_still_be_a_last_operand():
    assert ASSEMBLER.assemble("MOVE A B NZ").words == ASSEMBLER.assemble("MOVENZ A B").words
    assert ASSEMBLER.assemble("HALT Z").words == ASSEMBLER.assemble("HALTZ").words


@pytest.mark.parametrize("source, col, message", [
    ("MOVX A B", 1, "unknown instruction 'MOVX' (did you mean MOVE?)"),
    ("LAOD A #1", 1, "unknown instruction 'LAOD' (did you mean LOAD?)"),
    ("JUMPNX 0", 1, "unknown instruction 'JUMPNX' (did you mean JUMPNZ?)"),
    ("move A B", 0, ""),  # mnemonics are case-insensitive: no error
    ("FROB A", 1, "unknown instruction 'FROB'"),
    (".wrod 1", 1, "unknown instruction '.wrod' (did you mean .word?)"),
    ("MOVE A ACX", 8, "unknown register 'ACX' (did you mean ACC?)"),
    ("MOVE Q A", 6, "unknown register 'Q' (expected one of A, B, ACC, IDX)"),
    ("COUNT = 3\nLOAD A #COUNTT", 9, "undefined symbol 'COUNTT' (did you mean COUNT?)"),
    ("start: JUMP strat", 13, "undefined symbol 'strat' (did you mean start?)"),
    ("JUMP nowhere", 6, "undefined symbol 'nowhere'"),
])
def test_near_misses_are_suggested(source, col, message):
    if not message:
        ASSEMBLER.assemble(source)
        return
    error = only_error(source)
    assert (error.col, error.message) == (col, message)


@pytest.mark.parametrize("source", ["SWAP A B", "SWAPZ A B", "swap A B"])
def test_a_form_of_another_model_names_the_reason(source):
    error = only_error(source)
    assert (error.col, error.message) == (1, "'SWAP' is only on the big model")


def test_a_lenient_description_reads_missing_operands_as_zero_and_drops_extras():
    lenient = Description("lenient", word_bits=16, fields=FIELDS, operands=OPERANDS,
                          forms=[form("MOVE {rd} {rs}", op=2)], missing_operands="zero", extra_operands="ignore")
    context = ParseContext()
    assert lenient.parse("MOVE B", context) == lenient.parse("MOVE B A", context)
    assert lenient.parse("MOVE B ACC IDX", context) == lenient.parse("MOVE B ACC", context)


# -- the suggestion rule itself ------------------------------------------------------------

@pytest.mark.parametrize("word, candidates, expected", [
    ("ADX", ["AND", "ADD"], "ADD"),      # equally similar: the longer shared start wins
    ("ADX", ["ADD", "AND"], "ADD"),
    ("ADXLT", ["ANDLT", "ADDLT"], "ADDLT"),
    ("credit", ["Credits", "FH"], "Credits"),  # case-insensitive, returned as spelled
    ("zzz", ["ADD", "AND"], None),
])
def test_closest_name(word, candidates, expected):
    assert closest_name(word, candidates) == expected


def test_did_you_mean_is_empty_without_a_near_miss():
    assert did_you_mean("ADX", ["ADD"]) == " (did you mean ADD?)"
    assert did_you_mean("ADX", []) == ""


# -- plausibility of disassembled words ------------------------------------------------------

def test_foreign_words_counts_only_a_majority():
    program = [0x2000, 0x1004, 0x0000, 0xF000]  # MOVE, LOAD, HALT and one undecodable word
    garbage = [0xF000, 0xE000, 0x2000]
    assert foreign_words(disassemble(TOY, program)) == ""
    assert foreign_words(disassemble(TOY, garbage)) == "2 of 3 words are not instructions"
    assert foreign_words(disassemble(TOY, garbage), lambda i: False) == ""


def test_plausibility_warnings_name_the_reasons_or_list_the_data_words():
    garbage = disassemble(TOY, [0xF000, 0xE000, 0x2000])
    (summary,) = plausibility_warnings("TOY", ["", "2 of 3 words are not instructions", "odd size"], garbage)
    assert summary.startswith("does not look like a TOY program: 2 of 3 words are not instructions; odd size")
    assert "another processor" in summary
    per_word = plausibility_warnings("TOY", [""], garbage)
    assert len(per_word) == 2 and per_word[0].startswith("0x0: ")
