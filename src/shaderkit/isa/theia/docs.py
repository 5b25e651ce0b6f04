"""The THEIA reference manual: ``reference.md`` (prose) with one entry per instruction.

Syntax and bit diagram come from :mod:`.spec`; the meaning of every instruction from the
semantics registry (:data:`.semantics.SEMANTICS`): the docstring of its function (the
compare-jumps' are written from the lane and test each mnemonic stands for), or for NOP,
DEBUG_PRINT and JMP, which the machine carries out itself, the sentence registered with them.
"""

from __future__ import annotations

from functools import cache

from ...core.docs import Reference, form_entry, prose
from .semantics import JUMP_TESTS, SEMANTICS, UNIMPLEMENTED_IN_V1
from .spec import description


def _flags(mnemonic: str) -> str:
    if mnemonic in JUMP_TESTS or mnemonic == "JMP":
        return "jumps; writes no row"
    if mnemonic == "RETURN":
        return "ends the routine; the control unit reads bit 0 of the value (RT_TRUE = 1)"
    if mnemonic in UNIMPLEMENTED_IN_V1:
        return "writes DST; V1 hangs on it: the emulator stops unless run with --complete-isa"
    if SEMANTICS.has_function(mnemonic):
        return "writes all three lanes of DST"
    return "writes nothing"


@cache
def documentation() -> Reference:
    theia = description()
    entries = tuple(form_entry(theia, form, SEMANTICS.meaning(form.mnemonic), flags=_flags(form.mnemonic))
                    for form in theia.forms)
    return Reference("theia", "THEIA — ray-casting GPU (V1)", prose(__package__), entries,
                     source="src/shaderkit/isa/theia/reference.md")
