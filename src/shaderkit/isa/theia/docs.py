"""The THEIA reference manual: ``reference.md`` (prose) with one entry per instruction.

Syntax and bit diagram come from :mod:`.spec`; what an ALU instruction computes is the
docstring of its function in :mod:`.semantics`; the compare-jumps are described from the
lane and test each mnemonic stands for (:data:`.semantics.JUMP_TESTS`). Instructions the
ALU does not compute (NOP, DEBUG_PRINT, JMP) are described here.
"""

from __future__ import annotations

from functools import cache

from ...core.docs import Reference, docstring, form_entry, prose
from . import semantics
from .fixedpoint import COMPARE_TESTS
from .spec import description

MEANINGS_OUTSIDE_SEMANTICS = {
    "NOP": "Does nothing. Upstream writes `NOP RT_FALSE` or `NOP RT_TRUE`; the value is ignored.",
    "DEBUG_PRINT": "Does nothing on the hardware (the upstream simulator printed its operands there).",
    "JMP": "Jump to `target` unconditionally. Upstream writes `JMP LABEL VOID VOID`: the two extra "
           "operands land in the S1 and S2 fields and are ignored.",
}

# How each compare test decides, in the terms of spec §4.6 (signed order, magnitude equality).
JUMP_CONDITIONS = {
    "G": "A > B (signed)",
    "L": "A ≤ B (signed; equality included, unlike the upstream manual's \"<\")",
    "EQ": "|A| = |B| (magnitudes only: 5 equals −5)",
    "NE": "|A| ≠ |B| (magnitudes only)",
    "GE": "A > B or |A| = |B| (so −5 ≥ 5 holds)",
    "LE": "A ≤ B or |A| = |B| (so 5 ≤ −5 holds)",
}
assert set(JUMP_CONDITIONS) == set(COMPARE_TESTS)


def _meaning(mnemonic: str) -> str:
    if mnemonic in semantics.JUMP_TESTS:
        lane, test = semantics.JUMP_TESTS[mnemonic]
        lane_name = "XYZ"[lane]
        return (f"Jump to `target` when, in lane {lane_name}, {JUMP_CONDITIONS[test]}, where A is the row "
                f"at s1 and B the row at s2. The other lanes are not compared.")
    function = semantics.OPERATIONS.get(mnemonic) or semantics.COMPLETE_ISA_OPERATIONS.get(mnemonic)
    return MEANINGS_OUTSIDE_SEMANTICS.get(mnemonic) or docstring(function)


def _flags(mnemonic: str) -> str:
    if mnemonic in semantics.JUMP_TESTS or mnemonic == "JMP":
        return "jumps; writes no row"
    if mnemonic == "RETURN":
        return "ends the routine; the control unit reads bit 0 of the value (RT_TRUE = 1)"
    if mnemonic in semantics.UNIMPLEMENTED_IN_V1:
        return "writes DST; V1 hangs on it: the emulator stops unless run with --complete-isa"
    if mnemonic in semantics.OPERATIONS:
        return "writes all three lanes of DST"
    return "writes nothing"


@cache
def documentation() -> Reference:
    theia = description()
    entries = tuple(form_entry(theia, form, _meaning(form.mnemonic), flags=_flags(form.mnemonic))
                    for form in theia.forms)
    return Reference("theia", "THEIA — ray-casting GPU (V1)", prose(__package__), entries,
                     source="src/shaderkit/isa/theia/reference.md")
