"""USSE's description in core's model: every form of :mod:`.encoding` with its own fields (the
names of spec §10), decoded in table order (:data:`~shaderkit.core.model.FIRST_MATCH`, as Vita3K
decodes), its text declared by the form modules (every ``forms_*`` module's ``DECLARED`` table:
:mod:`.forms_vector`, …) through :mod:`.syntax`. A form without a declaration of its own (its
semantics are unknown, §9) prints as its lower-case name and its non-zero raw fields
(``spec category=0x2 unused=0x3075000a0200000``).

Every word a form's fixed bits match decodes as that form: fields the text does not show yet and
the pattern's free bits print as trailing ``name=value`` operands, so its text reads back as the
same words. Two readings:

* :func:`fields_reading` — reports bits as ``Instruction.unknown_bits`` instead of refusing;
* :func:`listing` — what a listing prints: only a word whose text assembles back to that word
  is an instruction; any other is a ``.word`` data item whose note holds the text.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from pathlib import Path

from ...core.model import FIRST_MATCH, Annotate, AsData, Description
from .encoding import VEC34_FORMS, form_fields
from .syntax import FormSyntax


@cache
def form_modules() -> tuple:
    """Every ``forms_*`` module of this package: each declares the syntax of some forms
    (``DECLARED``) and may give the meaning of its mnemonics (``MEANINGS``, for the manual)."""
    names = sorted(info.name for info in pkgutil.iter_modules(_package_path()) if info.name.startswith("forms_"))
    return tuple(importlib.import_module(f"{__package__}.{name}") for name in names)


@cache
def declared_syntax() -> dict:
    """Form name -> the declaration of its syntax (a generator of forms, given a FormSyntax): the
    ``DECLARED`` tables of every form module."""
    return {name: declare for module in form_modules() for name, declare in module.DECLARED.items()}


def _package_path() -> list[str]:
    return [str(Path(__file__).parent)]


def raw_form(syntax: FormSyntax):
    yield syntax.build(syntax.name.lower())


@cache
def declarations() -> tuple[list, dict]:
    """Every form in decoding order, and the operand bindings they name."""
    forms, operands = [], {}
    declared = declared_syntax()
    for name, pattern, layout in VEC34_FORMS:
        syntax = FormSyntax(name, pattern, form_fields(layout))
        forms.extend(declared.get(name, raw_form)(syntax))
        operands.update(syntax.operands)
    return forms, operands


def describe_unknown(value: int) -> str:
    major = value >> 59
    if major in (0x16, 0x17, 0x18, 0x1B):
        return f"illegal major opcode 0x{major:02x}"
    return f"no form matches (major opcode 0x{major:02x})"


def usse_description(name: str, forms, operands, policy, describe) -> Description:
    """A description of 64-bit USSE instructions (two 32-bit words, ``w0`` first) with forms of
    their own fields, decoded first match wins, operands separated by commas: this family's
    (:func:`listing`) and the older one's (:mod:`.sgx540`)."""
    return Description(name, word_bits=32, words_per_instruction=2, first_word_most_significant=False,
                       fields={}, operands=operands, forms=forms, order=FIRST_MATCH, operand_separator=r"\s*,\s*",
                       unknown_bits=policy, describe_unknown=describe, overlapping_operands="must agree",
                       data_separator=", ")


@cache
def fields_reading() -> Description:
    return usse_description("usse", *declarations(), Annotate(), describe_unknown)


@cache
def listing() -> Description:
    return usse_description("usse", *declarations(), AsData(verify=True), describe_unknown)
