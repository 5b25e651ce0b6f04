"""The TPP reference manual: ``reference.md`` (prose) with one entry per instruction.

Syntax and bit diagram come from the rev-B description (:mod:`.spec`, which decodes every
mnemonic), the meaning from the docstrings in :mod:`.semantics`. NOP and OUT have no
semantics function (the machines handle them), so their meaning is written here.
"""

from __future__ import annotations

from functools import cache

from ...core.docs import InstructionEntry, Reference, docstring, form_entry, prose
from . import semantics
from .spec import description

MEANINGS_OUTSIDE_SEMANTICS = {
    "NOP": "Does nothing. The upstream flasher pads unused slots with the word 0x0000, a NOP "
           "with condition EQ, which is just as harmless.",
    "OUT": "ODR ← rs: the colour the pins show from now until the next OUT (6 bits, RRGGBB).\n\n"
           "Every program ends with the fixed `OUT R0` in slot 19; an OUT elsewhere changes the colour "
           "in the middle of a 10-pixel span (and needs the exact model). Rev B outputs the register in "
           "bits 7–5; rev A reads bits 10–8 instead. The assembler writes the register into bits 7–5 as "
           "the upstream flasher does; `.word` with the register number in both fields works on both "
           "revisions.",
}


def _flags(mnemonic: str) -> str:
    condition = "runs only when the flag equals its condition (suffix EQ, GT or LT; none: always)"
    if mnemonic == "COMP":
        return f"writes the flag; {condition}"
    return condition


def _meaning(mnemonic: str) -> str:
    return MEANINGS_OUTSIDE_SEMANTICS.get(mnemonic) or docstring(semantics.FUNCTIONS.get(mnemonic))


@cache
def documentation() -> Reference:
    rev_b = description("B")
    entries: tuple[InstructionEntry, ...] = tuple(
        form_entry(rev_b, form, _meaning(form.mnemonic), flags=_flags(form.mnemonic)) for form in rev_b.forms)
    return Reference("tpp", "TPP — Tiny Pixel Processor", prose(__package__), entries,
                     source="src/shaderkit/isa/tpp/reference.md")
