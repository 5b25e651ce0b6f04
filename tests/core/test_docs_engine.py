"""core.docs: entries derived from a description, the rendered manual, and mnemonic look-up."""

from __future__ import annotations

import pytest

from shaderkit.core.bits import bits, combine_words
from shaderkit.core.diagnostics import InputError
from shaderkit.core.docs import (INSTRUCTIONS_MARKER, InstructionEntry, Reference, form_bit_ranges, form_entry,
                                 form_syntax)
from shaderkit.core.model import Description, Immediate, Operand, Registers, form
from shaderkit.isa.theia.spec import description as theia_description
from shaderkit.isa.tpp.spec import description as tpp_description

TOY = Description(
    "toy", word_bits=8,
    fields={"op": bits("7:5"), "r": bits("4:3"), "imm": bits("2:0"), "split": bits("7:6,1:0")},
    operands={"r": Operand("r", Registers({0: ("A",), 1: ("B",), 2: ("C",), 3: ("D",)})),
              "imm": Operand("imm", Immediate("#"))},
    forms=[form("LD {r} {imm}", op=1), form("NOP", op=0), form("ODD {r?}", split=0b1011)],
)


def test_bit_diagram_names_fixed_bits_operands_and_unused_bits():
    load, nop, odd = TOY.forms
    assert [piece.render() for piece in form_bit_ranges(TOY, load)] == ["op=001 (7–5)", "r (4–3)", "imm (2–0)"]
    assert [piece.render() for piece in form_bit_ranges(TOY, nop)] == ["op=000 (7–5)", "unused (4–0)"]
    # A fixed field in two pieces shows each piece's own bits.
    assert [piece.render() for piece in form_bit_ranges(TOY, odd)] == [
        "split=10 (7–6)", "unused (5)", "r (4–3)", "unused (2)", "split=11 (1–0)"]


def test_syntax_drops_braces_and_brackets_optional_operands():
    assert form_syntax(TOY.forms[0]) == "LD r imm"
    assert form_syntax(TOY.forms[2]) == "ODD [r]"
    assert form_syntax(form("ADD{cond} {rd} {rs}", op=3)) == "ADD{cond} rd rs"


@pytest.mark.parametrize("description", [tpp_description("A"), tpp_description("B"), theia_description()],
                         ids=lambda d: d.name)
def test_every_diagram_agrees_with_the_encoder(description):
    """The fixed bits a diagram shows are the bits the encoder writes, and the ranges tile the word."""
    for declared in description.forms:
        word = combine_words(description.encode(description.instance(declared)),
                             description.word_bits, description.first_word_most_significant)
        ranges = form_bit_ranges(description, declared)
        assert ranges[0].high == description.instruction_bits - 1 and ranges[-1].low == 0
        assert all(upper.low == lower.high + 1 for upper, lower in zip(ranges, ranges[1:]))
        for piece in ranges:
            if piece.value is not None:
                assert (word >> piece.low) & ((1 << (piece.high - piece.low + 1)) - 1) == piece.value, declared.template


def _reference(**changes) -> Reference:
    entries = (form_entry(TOY, TOY.forms[0], "Load the immediate, i.e. a small number. More text."),
               InstructionEntry("ADD", "ADD a b", "`op=1`", "Add.", group="vector", aliases=("PLUS",)),
               InstructionEntry("ADD", "ADD a", "`op=2`", "Add (scalar).", group="scalar"))
    fields = dict(stem="toy", title="Toy", prose=f"# Toy\n\nintro\n\n{INSTRUCTIONS_MARKER}\n\n## Files\n",
                  entries=entries)
    return Reference(**{**fields, **changes})


def test_render_puts_the_overview_and_entries_where_the_marker_is():
    text = _reference().render()
    intro, files = text.index("intro"), text.index("## Files")
    overview = text.index("| LD | `LD r imm` | Load the immediate, i.e. a small number |")
    entry = text.index("### LD\n")
    assert intro < overview < entry < files
    assert INSTRUCTIONS_MARKER not in text
    assert "### ADD (vector)" in text and "### ADD (scalar)" in text


def test_prose_without_the_marker_is_refused():
    with pytest.raises(ValueError):
        _reference(prose="# Toy\n")


def test_find_is_case_insensitive_accepts_aliases_and_respects_the_scope():
    reference = _reference()
    assert [entry.group for entry in reference.find("add")] == ["vector", "scalar"]
    assert reference.find("plus")[0].syntax == "ADD a b"
    assert [entry.group for entry in _reference(scope=("scalar",)).find("ADD")] == ["scalar"]
    with pytest.raises(InputError, match=r"did you mean LD\?"):
        reference.find("LDD")
    # Out of scope, LD is neither found nor suggested.
    with pytest.raises(InputError, match=r"did you mean ADD\?"):
        _reference(scope=("scalar",)).find("LDD")


def test_a_mnemonic_without_its_dotted_variant_finds_every_variant():
    entries = (InstructionEntry("MOV.F32", "MOV.F32 a", "`op=3`", "Move floats."),
               InstructionEntry("MOV.I8", "MOV.I8 a", "`op=4`", "Move bytes."),
               InstructionEntry("MOVC", "MOVC a", "`op=5`", "Conditional move."))
    reference = _reference(entries=entries)
    assert [entry.mnemonic for entry in reference.find("mov")] == ["MOV.F32", "MOV.I8"]
    assert [entry.mnemonic for entry in reference.find("mov.i8")] == ["MOV.I8"]
