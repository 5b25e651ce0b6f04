"""The TPP reference manual: ``reference.md`` (prose) with one entry per instruction.

Syntax and bit diagram come from the rev-B description (:mod:`.spec`, which decodes every
mnemonic), the meaning from the semantics registry (:data:`.semantics.SEMANTICS`): the
docstring of a mnemonic's function, or for NOP and OUT, which the machines carry out
themselves, the sentence registered with them.
"""

from __future__ import annotations

from functools import cache

from ...core.docs import InstructionEntry, Reference, form_entry, prose
from .semantics import SEMANTICS
from .spec import description


def _flags(mnemonic: str) -> str:
    condition = "runs only when the flag equals its condition (suffix EQ, GT or LT; none: always)"
    if mnemonic == "COMP":
        return f"writes the flag; {condition}"
    return condition


@cache
def documentation() -> Reference:
    rev_b = description("B")
    entries: tuple[InstructionEntry, ...] = tuple(
        form_entry(rev_b, form, SEMANTICS.meaning(form.mnemonic), flags=_flags(form.mnemonic))
        for form in rev_b.forms)
    return Reference("tpp", "TPP — Tiny Pixel Processor", prose(__package__), entries,
                     source="src/shaderkit/isa/tpp/reference.md")
