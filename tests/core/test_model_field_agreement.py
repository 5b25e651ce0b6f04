"""Two operands of one statement that set the same field must agree (the description model).

An instruction holds one value per field: when a statement's operands read the same field (two
sources through one input index, a suffix and a condition through one register bit), the parser
refuses values that differ instead of keeping the last one. An invented 16-bit ISA.
"""

from __future__ import annotations

import pytest

from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model import Description, Operand, Registers, SubTable, case, field, form

REGISTERS = Registers({number: (f"r{number}",) for number in range(8)})
PORTS = Registers({number: (f"p{number}",) for number in range(8)})

TOY = Description(
    "toy-agreement", word_bits=16, operand_separator=r"\s*,\s*",
    fields={"op": field("15:12"), "index": field("11:9"), "port": field("8:6"), "low": field("2:0")},
    operands={"a": Operand("index", REGISTERS, title="index register"),
              "b": Operand("index", REGISTERS, title="index register"),
              "p": Operand("port", PORTS), "q": Operand("port", PORTS),
              "w": SubTable((case(""), case(".p2", port=2)), title="port suffix"),
              "l": Operand("low", REGISTERS)},
    forms=[form("add {a}, {b}", op=1), form("out{w} {p}, {q}", op=2), form("fix {l}", op=3, low=5)])


def test_operands_reading_one_field_alike_read():
    assert TOY.parse("add r3, r3").fields["index"] == 3
    assert TOY.parse("out.p2 p2, p2").fields["port"] == 2


@pytest.mark.parametrize("text, column, named", [
    ("add r3, r4", 9, "one index register"),  # the field's operand has a title
    ("out p1, p2", 9, "one port field"),  # no title: the field's name
    ("out.p2 p2, p1", 12, "one port field"),  # against the mnemonic's suffix
    ("out.p2 p1, p1", 8, "one port field"),
])
def test_operands_reading_one_field_differently_are_refused(text, column, named):
    with pytest.raises(SourceError) as raised:
        TOY.parse(text)
    assert named in raised.value.message and "disagrees with an earlier part" in raised.value.message
    assert raised.value.col == column


def test_a_field_the_form_fixes_is_the_forms():
    """An operand over a field its form fixes is not a disagreement between operands."""
    assert TOY.parse("fix r1").fields["low"] == 1
