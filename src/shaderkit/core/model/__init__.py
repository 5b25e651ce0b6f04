"""The description model: one way to describe an instruction set, from which the
assembler, disassembler and documentation are derived.

An ISA package declares a :class:`Description`: named :func:`field` s (bit ranges with
their transforms: signed, scaled, PC-relative, default), operand bindings (an
:class:`Operand` reads one field through a kind — :class:`Registers`, :class:`Immediate`,
:class:`CodeAddress`, :class:`Choice` or its own :class:`OperandKind`; a :class:`SubTable`
is a table of :func:`case` s with their own bits and templates; :class:`Flags` is a set of
flags in any order; a :class:`Swizzle` picks channels from a table, shown at the channels a
write mask enables) and one :func:`form` per instruction, written the way it reads::

    form("add {dst} {c if cdst & 4 == 0} {src1} {src2m}", op=0x4c)

Modules: :mod:`.fields`, :mod:`.kinds`, :mod:`.operands`, :mod:`.templates`,
:mod:`.instruction`, :mod:`.channels`, :mod:`.description` (decoder, encoder, printer), :mod:`.parser`
(statement parser) and :mod:`.policies` (unclaimed bits, match order, bundles).
"""

from .channels import Swizzle, mask_names
from .description import Description
from .fields import Field, field, in_word
from .instruction import DATA, Form, Instruction, bit_pattern, data_item, form
from .kinds import Choice, CodeAddress, Immediate, OperandKind, ParseContext, Registers, suggest_for_undefined
from .operands import Binding, Case, Flags, Operand, Reading, SubTable, case, flags
from .policies import AS_DATA, FEWEST_LOST, FIRST_MATCH, MOST_SPECIFIC, Annotate, AsData, rank_runs
from .templates import compile_expression, split_operands, split_statement

__all__ = [
    "AS_DATA", "Annotate", "AsData", "Binding", "Case", "Choice", "CodeAddress", "DATA", "Description", "FEWEST_LOST",
    "FIRST_MATCH",
    "Field", "Flags", "Form", "Immediate", "Instruction", "MOST_SPECIFIC", "Operand", "OperandKind", "ParseContext",
    "Reading", "Registers", "SubTable", "Swizzle", "bit_pattern", "case", "mask_names", "data_item", "field", "flags", "form", "in_word", "rank_runs",
    "compile_expression", "split_operands", "split_statement", "suggest_for_undefined",
]
