"""Listings of whole uploads re-assemble to the same 20 words (issue 12): a devMode upload, whose
slot 19 the upstream flasher sends as NOP, and a standard one, whose slot-18 padding NOP the
listing writes out. The programs are ours."""

from __future__ import annotations

import pytest

from shaderkit.core.diagnostics import DiagnosticError
from shaderkit.isa import get

TPP = get("tpp")
PROGRAM = "MOV R0 RX\nXOR R0 RY\n"


def upload(words: list[int]) -> list[int]:
    return TPP.assemble(TPP.disassemble(words)).image


def test_a_standard_upload_listing_reassembles_without_a_warning():
    image = TPP.assemble(PROGRAM).image
    assembled = TPP.assemble(TPP.disassemble(image))
    assert assembled.image == image and len(image) == 20
    assert list(assembled.program.warnings) == []


def test_a_devmode_upload_keeps_its_nop_in_slot_19():
    image = TPP.assemble(PROGRAM).image[:19] + [0x0000]
    assert upload(image) == image
    assert TPP.disassembly_warnings(image) == []


def test_a_used_slot_18_is_still_warned_about():
    source = "".join(f"MOV R{n % 4} RX\n" for n in range(19))
    assembled = TPP.assemble(source)
    assert [w.message for w in assembled.program.warnings if "slot 18" in w.message]


def test_twenty_instructions_that_are_no_upload_are_still_too_long():
    with pytest.raises(DiagnosticError, match="program too long"):
        TPP.assemble("".join(f"MOV R{n % 4} RX\n" for n in range(20)))
