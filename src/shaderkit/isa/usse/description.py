"""USSE's description in core's model: every form of :mod:`.encoding` with its own fields (the
names of spec §10), decoded in table order (:data:`~shaderkit.core.model.FIRST_MATCH`, as Vita3K
decodes), its text declared by the form modules (:mod:`.forms_vector`, …) through
:mod:`.syntax`. A form without a declaration of its own (its semantics are unknown, §9) prints
as its lower-case name and its non-zero raw fields (``sop2 count=0x3, cop=0x1``).

Every word a form's fixed bits match decodes as that form: fields the text does not show yet and
the pattern's free bits print as trailing ``name=value`` operands, so its text reads back as the
same words. Two readings:

* :func:`fields_reading` — reports bits as ``Instruction.unknown_bits`` instead of refusing;
* :func:`listing` — what a listing prints: only a word whose text assembles back to that word
  is an instruction; any other is a ``.word`` data item whose note holds the text.
"""

from __future__ import annotations

from functools import cache

from ...core.model import FIRST_MATCH, Annotate, AsData, Description
from . import forms_bitwise, forms_control, forms_move, forms_test, forms_vector
from .encoding import VEC34_FORMS, form_fields
from .syntax import FormSyntax

# Form name -> the declaration of its syntax (a generator of forms, given a FormSyntax).
DECLARED = {"VMAD2": forms_vector.vmad2, "V32NMAD": forms_vector.v32nmad, "V16NMAD": forms_vector.v16nmad,
            "VMAD": forms_vector.vmad, "VDP": forms_vector.vdp, "VCOMP": forms_vector.vcomp,
            "VMOV": forms_move.vmov, "VPCK": forms_move.vpck, "LIMM": forms_move.limm,
            "VTST": forms_test.vtst, "VTSTMSK": forms_test.vtstmsk, "VBW": forms_bitwise.vbw,
            "NOP": forms_control.nop, "BR": forms_control.br, "KILL": forms_control.kill,
            "SMLSI": forms_control.smlsi, "SMBO": forms_control.smbo}


def raw_form(syntax: FormSyntax):
    yield syntax.build(syntax.name.lower())


@cache
def declarations() -> tuple[list, dict]:
    """Every form in decoding order, and the operand bindings they name."""
    forms, operands = [], {}
    for name, pattern, layout in VEC34_FORMS:
        syntax = FormSyntax(name, pattern, form_fields(layout))
        forms.extend(DECLARED.get(name, raw_form)(syntax))
        operands.update(syntax.operands)
    return forms, operands


def describe_unknown(value: int) -> str:
    major = value >> 59
    if major in (0x16, 0x17, 0x18, 0x1B):
        return f"illegal major opcode 0x{major:02x}"
    return f"no form matches (major opcode 0x{major:02x})"


def _description(policy) -> Description:
    forms, operands = declarations()
    return Description("usse", word_bits=32, words_per_instruction=2, first_word_most_significant=False,
                       fields={}, operands=operands, forms=forms, order=FIRST_MATCH, operand_separator=r"\s*,\s*",
                       unknown_bits=policy, describe_unknown=describe_unknown, overlapping_operands="must agree",
                       data_separator=", ")


@cache
def fields_reading() -> Description:
    return _description(Annotate())


@cache
def listing() -> Description:
    return _description(AsData(verify=True))
