"""The GXP container (spec/usse.md §7): the nine golden files read to exactly the facts their JSON
lists, write back byte for byte, rebuild around other instruction words, summarise for listings,
and every malformed input is an InputError naming its source."""

from __future__ import annotations

import json
import struct
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.diagnostics import InputError
from shaderkit.isa.usse.gxp import (GxpContainer, GxpLayout, GxpProgram, describe_gxp, read_gxp,
                                    write_gxp)

VECTORS = Path(__file__).parents[2] / "golden" / "usse" / "vectors"
SUITES = sorted(path.stem for path in VECTORS.glob("*.gxp"))
PATCHED_FIRST_LITERAL = {"vtstmsk_always", "vtstmsk_gt_mask2_reg", "vtstmsk_log_mask2"}


def golden(suite: str) -> tuple[bytes, dict]:
    return ((VECTORS / f"{suite}.gxp").read_bytes(),
            json.loads((VECTORS / f"{suite}.json").read_text())["program"])


P4GVERT1 = golden("p4gvert1")[0]


def test_the_nine_suites_are_there():
    assert SUITES == ["p4gfrag1", "p4gvert1", "vmad16", "vtstmsk_always", "vtstmsk_dsy_mask0",
                      "vtstmsk_gt_mask0", "vtstmsk_gt_mask0_reg", "vtstmsk_gt_mask2_reg",
                      "vtstmsk_log_mask2"]


@pytest.mark.parametrize("suite", SUITES)
def test_golden_container_holds_the_json_facts(suite):
    data, facts = golden(suite)
    program = read_gxp(data, f"{suite}.gxp")
    assert [f"{word:016x}" for word in program.primary] == facts["primary_words"]
    assert [f"{word:016x}" for word in program.secondary] == facts["secondary_words"]
    assert len(program.secondary) == 20
    assert (program.pa_count, program.sa_count) == (facts["pa_count"], facts["sa_count"])
    attributes = [p for p in program.parameters if p.category == "attribute"]
    uniforms = [p for p in program.parameters if p.category == "uniform"]
    assert len(attributes) + len(uniforms) == len(program.parameters)
    assert [{"name": p.name, "pa": p.register, "count": p.component_count} for p in attributes] \
        == facts["attribute_params"]
    assert [{"name": p.name, "sa": p.register, "count": p.component_count} for p in uniforms] \
        == facts["uniform_params"]
    assert all(p.register_bank == "pa" for p in attributes) and all(p.register_bank == "sa" for p in uniforms)
    assert [{"sa": lit.register, "raw_offset": lit.raw_offset, "value": f"{lit.value:08x}"}
            for lit in program.literals] == facts["literals"]


@pytest.mark.parametrize("suite", SUITES)
def test_golden_container_header_and_tables(suite):
    data, _ = golden(suite)
    program = read_gxp(data)
    assert program.kind == "vertex"  # p4gfrag1 too, as the README says
    assert program.flags == 0x00190004
    assert program.version == (1, 5)
    assert (program.declared_size, len(data)) == (1177, 1180)
    assert program.layout == GxpLayout(primary=0x160, secondary=0xBC, parameters=0x340,
                                       literals=0x2E0, containers=0x330)
    assert program.containers == (GxpContainer(14, 0, 0, 32), GxpContainer(19, 0, 32, 10))
    assert program.container(19) == GxpContainer(19, 0, 32, 10) and program.container(16) is None
    first = program.parameters[0]
    assert (first.name, first.category_code, first.type_code, first.container_index, first.semantic,
            first.semantic_index, first.array_size, first.resource_index, first.name_offset) \
        == ("pos", 0, 0, 0, 0, 0, 1, 0, 0x110)
    last = program.parameters[-1]
    assert (last.name, last.category_code, last.container_index, last.resource_index, last.register) \
        == ("sa28", 1, 14, 28, 28)


def test_the_patched_first_literal_has_no_register():
    for suite in SUITES:
        literal = read_gxp(golden(suite)[0]).literals[0]
        if suite in PATCHED_FIRST_LITERAL:
            assert (literal.raw_offset, literal.value, literal.register) == (0xA0200000, 0xFB275000, None)
        else:
            assert (literal.raw_offset, literal.value, literal.register) == (0, 0x42040000, 32)


@pytest.mark.parametrize("suite", SUITES)
def test_golden_container_writes_back_byte_identically(suite):
    data, _ = golden(suite)
    assert write_gxp(read_gxp(data)) == data


def test_write_gxp_writes_the_fields_not_the_image():
    program = read_gxp(P4GVERT1)
    edited = replace(program, pa_count=7, version=(2, 9),
                     literals=(replace(program.literals[0], value=0x3F800000),) + program.literals[1:])
    data = write_gxp(edited)
    changed = [i for i in range(len(data)) if data[i] != P4GVERT1[i]]
    assert changed == [4, 5, 48, 0x2E4 + 2, 0x2E4 + 3]
    again = read_gxp(data)
    assert (again.pa_count, again.version, again.literals[0].value) == (7, (2, 9), 0x3F800000)


def test_write_gxp_rejects_a_name_that_does_not_fit_its_slot():
    program = read_gxp(P4GVERT1)
    renamed = replace(program, parameters=(replace(program.parameters[0], name="position"),)
                      + program.parameters[1:])
    with pytest.raises(ValueError, match="does not fit"):
        write_gxp(renamed)
    same_length = replace(program, parameters=(replace(program.parameters[0], name="POS"),)
                          + program.parameters[1:])
    assert read_gxp(write_gxp(same_length)).parameters[0].name == "POS"


def unchanged_facts(program: GxpProgram):
    return (program.version, program.flags, program.kind, program.pa_count, program.sa_count,
            program.parameters, program.literals, program.containers, program.layout.parameters,
            program.layout.literals, program.layout.containers)


@pytest.mark.parametrize("primary_count, secondary_count", [(48, 20), (10, 3), (0, 0), (49, 20), (60, 33)])
def test_with_code_rebuilds_the_container(primary_count, secondary_count):
    program = read_gxp(P4GVERT1)
    primary = tuple((0x1234_5678_0000_0000 + i) * 3 & (1 << 64) - 1 for i in range(primary_count))
    secondary = tuple(0xFB27_5000_A020_0000 ^ i for i in range(secondary_count))
    rebuilt = program.with_code(primary=primary, secondary=secondary)
    data = write_gxp(rebuilt)
    again = read_gxp(data)
    assert (again.primary, again.secondary) == (primary, secondary)
    assert again == rebuilt
    assert unchanged_facts(again) == unchanged_facts(program)
    grows = primary_count > 48 or secondary_count > 20
    if grows:
        assert again.declared_size == len(data) > len(P4GVERT1)
    else:
        assert (again.declared_size, len(data)) == (1177, 1180)
        assert again.layout == program.layout
        # Outside the two code regions not a byte moved.
        code = set(range(0x160, 0x160 + 48 * 8)) | set(range(0xBC, 0xBC + 20 * 8))
        header_counts = set(range(60, 64)) | set(range(68, 72)) | set(range(76, 80))
        assert [i for i in range(len(data)) if data[i] != P4GVERT1[i] and i not in code | header_counts] == []


def test_with_code_keeps_what_it_is_not_given():
    program = read_gxp(P4GVERT1)
    rebuilt = program.with_code(secondary=(5, 6))
    assert rebuilt.primary == program.primary and rebuilt.secondary == (5, 6)
    assert write_gxp(program.with_code()) == P4GVERT1


def test_with_code_rejects_words_that_are_not_64_bit():
    program = read_gxp(P4GVERT1)
    for bad in (1 << 64, -1, "0x1"):
        with pytest.raises(ValueError, match="64-bit"):
            program.with_code(primary=(bad,))


def test_describe_gxp():
    data, _ = golden("vtstmsk_always")
    lines = describe_gxp(read_gxp(data))
    assert lines[:4] == ["vertex program, GXP 1.5, 48 primary + 20 secondary instructions",
                         "registers: 36 PA, 42 SA",
                         "attribute pos: pa0..pa3 (float4)",
                         "attribute va0: pa4..pa7 (float4)"]
    assert "attribute va7: pa32..pa35 (float4)" in lines
    assert "uniform sa0: sa0..sa3 (float4)" in lines and "uniform sa28: sa28..sa31 (float4)" in lines
    assert lines[19:23] == ["container 14: sa0..sa31", "container 19: sa32..sa41",
                            "literal (offset 0xa0200000, no register) = 0xfb275000 (-8.687362e+35)",
                            "literal sa33 = 0x41200000 (10.0)"]
    assert lines[-1] == "literal sa41 = 0x40800000 (4.0)"
    assert len(lines) == 2 + 17 + 2 + 10
    assert describe_gxp(read_gxp(P4GVERT1))[21] == "literal sa32 = 0x42040000 (33.0)"


def test_describe_gxp_names_other_categories_and_types():
    program = read_gxp(P4GVERT1)
    odd = replace(program.parameters[0], category_code=3, type_code=5, array_size=2, register=None)
    lines = describe_gxp(replace(program, parameters=(odd,), literals=(), containers=()))
    assert lines[2:] == ["parameter (category 3) pos: no register (resource index 0) (type 5, 4 components, array of 2)"]


# --- bad input ---------------------------------------------------------------------------------

def expect_input_error(data: bytes, source: str = "bad.gxp") -> str:
    with pytest.raises(InputError) as caught:
        read_gxp(data, source)
    message = str(caught.value)
    assert message.startswith(f"{source}: ") and "\n" not in message
    return message


def patched(offset: int, fmt: str, *values, data: bytes = P4GVERT1) -> bytes:
    image = bytearray(data)
    struct.pack_into(fmt, image, offset, *values)
    return bytes(image)


@pytest.mark.parametrize("data, fragment", [
    (b"", "the header needs 152 bytes, only 0 present"),
    (b"GX", "the header needs 152 bytes, only 2 present"),
    (b"DXBC" + P4GVERT1[4:], "not a GXP container: it starts with b'DXBC'"),
    (P4GVERT1[:151], "the header needs 152 bytes, only 151 present"),
    (P4GVERT1[:1176], "declared size 1177, only 1176 bytes present"),
    (patched(8, "<I", 100), "declared size 100 is smaller than the 152-byte header"),
    (patched(40, "<I", 0x318 + 0x200),
     "truncated GXP container: the parameter table (17 entries of 16 bytes) at offset 0x540 runs past the end "
     "(1177 bytes)"),
    (patched(36, "<I", 0xFFFFFFFF), "the parameter table (4294967295 entries of 16 bytes) at offset 0x340 runs"),
    (patched(64, "<I", 0), "the primary program (48 entries of 8 bytes) at offset 0x40 overlaps the header"),
    (patched(76, "<I", 0x110 - 8), "the secondary program runs from 0xbc to 0x154 (152 bytes) but declares "
                                   "20 instructions"),
    (patched(68, "<I", 21), "but declares 21 instructions"),
    (patched(76, "<I", 0), "the secondary program ends at 0x4c, before it starts at 0xbc"),
    (patched(116, "<I", 0x160 - 116), "the literal table at offset 0x160 overlaps the primary program at "
                                      "offset 0x160"),
    (patched(112, "<I", 11), "the literal table at offset 0x2e0 overlaps the container table at offset 0x330"),
    (patched(8, "<I", 1176), "the name of parameter 16 at offset 0x494 has no terminating NUL"),
    (patched(0x450, "<B", 0xFF), "the name of parameter 0 at offset 0x450 is not UTF-8"),
    (patched(0x340, "<i", -0x400), "the name of parameter 0 at offset -0xc0 lies outside the data"),
    (patched(0x340, "<i", 0x200), "the name of parameter 0 at offset 0x540 lies outside the data (1177 bytes)"),
])
def test_bad_input_names_source_and_fault(data, fragment):
    assert fragment in expect_input_error(data)


def test_every_truncation_of_a_golden_file_is_an_input_error():
    for length in range(1177):
        expect_input_error(P4GVERT1[:length], f"cut{length}.gxp")
    # The three padding bytes past the declared size are not needed.
    for length in (1177, 1178, 1179):
        assert read_gxp(P4GVERT1[:length]).primary == read_gxp(P4GVERT1).primary


def read_or_input_error(data: bytes) -> None:
    """The contract for any input: a program that writes back as the same bytes, or an InputError."""
    try:
        program = read_gxp(data, "fuzz.gxp")
    except InputError as error:
        message = str(error)
        assert message.startswith("fuzz.gxp: ") and "\n" not in message
        return
    assert write_gxp(program) == data


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes(data):
    read_or_input_error(data)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 1180), st.binary(max_size=1300))
def test_a_golden_file_with_a_random_tail(keep, tail):
    read_or_input_error(P4GVERT1[:keep] + tail)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(SUITES), st.integers(0, 1179), st.integers(0, 255))
def test_single_byte_corruptions(suite, offset, value):
    read_or_input_error(patched(offset, "<B", value, data=golden(suite)[0]))


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 1176 // 4), st.one_of(st.integers(0, 0xFFFFFFFF), st.integers(0, 0x600),
                                            st.integers(-0x600, -1).map(lambda v: v & 0xFFFFFFFF)))
def test_32_bit_field_corruptions(field_index, value):
    read_or_input_error(patched(field_index * 4, "<I", value))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 152 // 4 - 1), min_size=2, max_size=4),
       st.lists(st.integers(0, 0x600), min_size=4, max_size=4))
def test_several_header_field_corruptions(field_indexes, values):
    data = P4GVERT1
    for field_index, value in zip(field_indexes, values):
        data = patched(field_index * 4, "<I", value, data=data)
    read_or_input_error(data)


def test_describe_gxp_float_arrays_and_single_registers():
    program = read_gxp(P4GVERT1)
    array = replace(program.parameters[9], array_size=2)
    scalar = replace(program.parameters[0], component_count=1)
    lines = describe_gxp(replace(program, parameters=(array, scalar), literals=(), containers=()))
    assert lines[2:] == ["uniform sa0: sa0..sa7 (float4[2])", "attribute pos: pa0 (float1)"]


def test_program_flags_bit_0_makes_a_fragment_program():
    program = read_gxp(patched(20, "<I", 0x00190005))
    assert program.kind == "fragment" and program.flags == 0x00190005
    assert describe_gxp(program)[0].startswith("fragment program, GXP 1.5,")


def test_every_single_byte_and_32_bit_field_corruption_of_a_golden_file():
    """Exhaustive over positions (the hypothesis tests above vary the values)."""
    accepted = rejected = 0
    cases = [patched(offset, "<B", P4GVERT1[offset] ^ flip) for offset in range(len(P4GVERT1))
             for flip in (0x01, 0x80, 0xFF)]
    cases += [patched(offset, "<I", value) for offset in range(0, len(P4GVERT1) - 3, 4)
              for value in (0, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF)]
    for data in cases:
        try:
            program = read_gxp(data, "fuzz.gxp")
        except InputError as error:
            assert str(error).startswith("fuzz.gxp: ") and "\n" not in str(error)
            rejected += 1
        else:
            assert write_gxp(program) == data
            accepted += 1
    # Both outcomes happen: code and value bytes are free, offsets and counts are checked.
    assert accepted > 1000 and rejected > 100
