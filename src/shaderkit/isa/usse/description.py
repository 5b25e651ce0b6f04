"""USSE's description in core's model: every form of :mod:`.encoding` with its own fields (the
names of spec §10), decoded in table order (:data:`~shaderkit.core.model.FIRST_MATCH`, as Vita3K
decodes), in two readings:

* :func:`fields_reading` — every word a form's fixed bits match is that form, whatever its free
  bits hold (bits no field covers are reported as ``Instruction.unknown_bits``): what
  ``decode`` gives for the spec's form and raw fields;
* :func:`listing` — what a listing may print as an instruction: only a word whose text assembles
  back to that word; any other is a ``.word`` data item whose note holds the text.
"""

from __future__ import annotations

from functools import cache

from ...core.model import FIRST_MATCH, Annotate, AsData, Description, Immediate, Operand, bit_pattern, field, form
from .encoding import VEC34_FORMS, form_fields

RAW_NUMBER = Immediate(radix=16)
# A form's free bits that no field names (its pattern's "-"), kept in the text where they stand
# (``unused=0x40000000000000``) so that every word a form matches reads back as itself; the
# name's "_" keeps them out of an instruction's fields.
UNUSED = "_unused"


def raw_template(name: str, fields: dict[str, str]) -> str:
    """The text of a form printed as its raw fields: ``name field=value ...`` (the spelling of
    forms whose semantics the public knowledge does not give)."""
    return " ".join([name.lower(), *(f"{field_name}={{{field_name}}}" for field_name in fields)])


def unused_bits(pattern: str, fields: dict[str, str]) -> str:
    """The layout of the bits of ``pattern`` that are neither fixed nor in a field ('' if none)."""
    mask, _ = bit_pattern(pattern)
    for layout in fields.values():
        mask |= field(layout).mask
    free = [63 - index for index in range(64) if not mask >> (63 - index) & 1]
    return ",".join(str(bit) for bit in free)


def forms():
    for name, pattern, layout in VEC34_FORMS:
        fields = form_fields(layout)
        template = raw_template(name, fields)
        unused = unused_bits(pattern, fields)
        if unused:
            fields[UNUSED] = field(unused, in_place=True)
            template += f" {{{UNUSED}?}}"
        yield form(template, name=name, pattern=bit_pattern(pattern), fields=fields)


def operands(described_forms) -> dict[str, Operand]:
    """One raw-number operand per field name any form has (each reads its form's field)."""
    names = dict.fromkeys(name for declared in described_forms for name, _ in declared.fields if name != UNUSED)
    return {**{name: Operand(name, RAW_NUMBER) for name in names},
            UNUSED: Operand(UNUSED, Immediate(prefix="unused=", radix=16))}


def describe_unknown(value: int) -> str:
    major = value >> 59
    if major in (0x16, 0x17, 0x18, 0x1B):
        return f"illegal major opcode 0x{major:02x}"
    return f"no form matches (major opcode 0x{major:02x})"


def _description(policy) -> Description:
    described = list(forms())
    return Description("usse", word_bits=32, words_per_instruction=2, first_word_most_significant=False,
                       fields={}, operands=operands(described), forms=described, order=FIRST_MATCH,
                       unknown_bits=policy, describe_unknown=describe_unknown)


@cache
def fields_reading() -> Description:
    return _description(Annotate())


@cache
def listing() -> Description:
    return _description(AsData(verify=True))
