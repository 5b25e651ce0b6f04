"""Tests for shaderkit.isa.rsx.container: the real sce-cgc containers of golden/rsx/real (parse,
byte-exact round trip, ucode words), the bare cgcomp ucode of golden/rsx/asm (word byte order),
the malformed-input errors, and fuzzing (truncation, byte flips)."""

from __future__ import annotations

import struct
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.binfmt import read_words, write_words
from shaderkit.core.diagnostics import InputError
from shaderkit.isa.rsx.container import (
    CgDirection,
    CgProfile,
    CgProgram,
    CgType,
    CgVariability,
    FragmentProgramHeader,
    ProgramKind,
    VertexProgramHeader,
    read_container,
    UCODE_BYTE_ORDER,
    write_container,
)
from conftest import golden_dir

GOLDEN = golden_dir("rsx")
REAL = GOLDEN / "real"
ASM = GOLDEN / "asm"

REAL_CONTAINERS = sorted(REAL.glob("*.vpo")) + sorted(REAL.glob("*.fpo"))
# golden/rsx/asm/README.md: the *.vpo.bin / *.fpo.bin files are bare ucode, not containers.
ASM_UCODE = sorted(ASM.glob("*.vpo.bin")) + sorted(ASM.glob("*.fpo.bin"))

BASIC_TRIANGLE_VP = REAL / "gs_gcm_basic_triangle_0x312e0.vpo"
CUBE_FP = REAL / "gs_gcm_cube_0x2074c.fpo"
CUBE_VP_WITH_LITERALS = REAL / "gs_gcm_cube_0x38c70.vpo"


def read_words_file(path: Path) -> list[int]:
    words = []
    for expected_slot, line in enumerate(path.read_text().splitlines()):
        slot, _, rest = line.partition(":")
        assert int(slot) == expected_slot
        words.extend(int(word, 16) for word in rest.split())
    return words


def load(path: Path) -> CgProgram:
    return read_container(path.read_bytes(), str(path))


def test_golden_folders_resolve():
    assert (GOLDEN / "README.md").is_file()
    assert len(REAL_CONTAINERS) == 6
    assert len(ASM_UCODE) == 22


# --- real containers -------------------------------------------------------------------------


@pytest.mark.parametrize("path", REAL_CONTAINERS, ids=lambda path: path.name)
def test_real_container_parses_and_round_trips_byte_exactly(path):
    data = path.read_bytes()
    program = read_container(data, str(path))
    expected_kind = ProgramKind.VERTEX if path.suffix == ".vpo" else ProgramKind.FRAGMENT
    assert program.kind is expected_kind
    assert program.binary_format_revision == 6
    assert write_container(program) == data


@pytest.mark.parametrize("path", REAL_CONTAINERS, ids=lambda path: path.name)
def test_real_container_ucode_words_match_words_file(path):
    program = load(path)
    expected = read_words_file(path.with_name(path.name + ".words.txt"))
    assert list(program.words) == expected
    assert write_words(expected, "raw", word_bits=32, byte_order=UCODE_BYTE_ORDER[program.kind]) == program.ucode


@pytest.mark.parametrize("path", REAL_CONTAINERS, ids=lambda path: path.name)
def test_fresh_layout_reads_back_as_the_same_program(path):
    program = load(path)
    rewritten = write_container(replace(program, layout=None))
    again = read_container(rewritten, "rewritten")
    assert again == program
    assert len(rewritten) % 16 == 0
    assert write_container(again) == rewritten


def test_basic_triangle_vertex_program_header_and_parameters():
    program = load(BASIC_TRIANGLE_VP)
    assert program.profile is CgProfile.SCE_VP_RSX
    # spec/rsx.md 4.1: "Verified: basic_triangle VP = 5, 0, 1, 0x9, 0x1, 0."
    assert program.program_header == VertexProgramHeader(5, 0, 1, 0x9, 0x1, 0)
    assert [p.name for p in program.parameters] == [
        "position", "color", "modelViewProj",
        "modelViewProj[0]", "modelViewProj[1]", "modelViewProj[2]", "modelViewProj[3]",
        "oPosition", "oColor",
    ]
    position = program.parameter("position")
    assert (position.semantic, position.resource, position.resource_index) == ("POSITION", 2113, -1)
    assert position.variability == CgVariability.VARYING and position.direction == CgDirection.IN
    matrix = program.parameter("modelViewProj")
    assert matrix.type == CgType.FLOAT4X4 and matrix.semantic is None
    rows = [program.parameter(f"modelViewProj[{row}]") for row in range(4)]
    assert [row.resource_index for row in rows] == [256, 257, 258, 259]
    assert {row.resource for row in rows} == {2178}
    assert {row.parameter_number for row in rows} == {matrix.parameter_number} == {2}
    color_out = program.parameter("oColor")
    assert (color_out.semantic, color_out.resource, color_out.direction_name) == ("COLOR", 2245, "OUT")
    assert all(p.default_value is None and p.embedded_constant_offsets is None for p in program.parameters)
    # golden/rsx/real/README.md: VP slot 0 is MOV o[1], v[3]; the last slot carries the end bit.
    assert program.words[0:4] == (0x401F9C6C, 0x0040030D, 0x8106C083, 0x6041FF84)
    assert program.words[-1] & 1 == 1


def test_cube_fragment_program_header_and_parameters():
    program = load(CUBE_FP)
    assert program.profile is CgProfile.SCE_FP_RSX
    header = program.program_header
    assert isinstance(header, FragmentProgramHeader)
    # 4 instructions + 1 literal slot; f[TEX0] read (bit 14); float4 TEXCOORD0 clears texCoords2D bit 0.
    assert header.instruction_count == 5
    assert header.attribute_input_mask == 0x4000
    assert header.tex_coords_input_mask == 0x1
    assert header.tex_coords_2d == 0xFFFE
    assert (header.register_count, header.output_from_h0, header.depth_replace, header.pixel_kill) == (2, 0, 0, 0)
    assert header.shader_control == 0x02000040
    assert [(p.name, p.semantic) for p in program.parameters] == [
        ("v2f.color", "COLOR0"), ("v2f.tex", "TEX0"), ("texture0", None), ("main.COL0", "COLOR0"),
    ]
    sampler = program.parameter("texture0")
    assert (sampler.type_name, sampler.resource, sampler.variability_name) == ("SAMPLER2D", 2048, "UNIFORM")
    assert program.parameter("v2f.tex").resource == 3220
    # spec/rsx.md 3.10: raw 82001700 c8011c9d ... -> 17008200 1c9dc801; slot 2 literal (0, 1, 0, 0).
    assert program.ucode[:8] == bytes.fromhex("82001700c8011c9d")
    assert program.words[:2] == (0x17008200, 0x1C9DC801)
    assert struct.unpack(">4f", struct.pack(">4I", *program.words[8:12])) == (0.0, 1.0, 0.0, 0.0)
    assert program.words[12] == 0x7E001E7E


def test_compiler_literals_carry_default_values():
    program = load(CUBE_VP_WITH_LITERALS)
    literal = program.parameter("internal-constant-0")
    assert literal.variability == CgVariability.CONSTANT
    assert literal.parameter_number == -2
    assert literal.resource_index == 467
    assert literal.default_value_bits == (0x40000000, 0x3F800000, 0x3B800000, 0x3B808081)
    assert literal.default_value[:3] == (2.0, 1.0, 1 / 256)
    unreferenced = program.parameter("scrSize")
    assert (unreferenced.resource, unreferenced.is_referenced, unreferenced.parameter_number) == (3256, 0, -1)


def test_changed_program_that_outgrows_its_layout_is_laid_out_afresh():
    program = load(BASIC_TRIANGLE_VP)
    renamed = replace(
        program,
        parameters=(replace(program.parameters[0], name="a_much_longer_position_name"),) + program.parameters[1:],
    )
    data = write_container(renamed)
    assert data != BASIC_TRIANGLE_VP.read_bytes()
    assert read_container(data, "renamed") == renamed
    assert read_container(data, "renamed").parameters[0].name == "a_much_longer_position_name"


def test_changed_program_that_still_fits_keeps_its_layout():
    original = BASIC_TRIANGLE_VP.read_bytes()
    program = read_container(original, "x")
    shorter = replace(program, parameters=(replace(program.parameters[0], name="pos"),) + program.parameters[1:])
    data = write_container(shorter)
    assert len(data) == len(original)
    assert read_container(data, "shorter") == shorter


def test_embedded_constants_round_trip_through_a_fresh_layout():
    program = load(CUBE_FP)
    uniform = replace(
        program.parameters[2],
        name="tint",
        type=CgType.FLOAT4,
        embedded_constant_offsets=(32, 64),
        default_value_bits=(0x3F800000, 0, 0, 0x3F000000),
    )
    changed = replace(program, parameters=program.parameters[:2] + (uniform,) + program.parameters[3:])
    reread = read_container(write_container(changed), "changed")
    assert reread == changed
    assert reread.parameter("tint").embedded_constant_offsets == (32, 64)
    assert reread.parameter("tint").default_value == (1.0, 0.0, 0.0, 0.5)


def test_writer_rejects_instruction_count_that_disagrees_with_ucode():
    program = load(BASIC_TRIANGLE_VP)
    broken = replace(program, program_header=replace(program.program_header, instruction_count=4))
    with pytest.raises(ValueError, match="instruction_count 4"):
        write_container(broken)


# --- bare cgcomp ucode: word byte order ------------------------------------------------------


@pytest.mark.parametrize("path", ASM_UCODE, ids=lambda path: path.name)
def test_bare_ucode_words_match_words_file(path):
    kind = ProgramKind.VERTEX if path.name.endswith(".vpo.bin") else ProgramKind.FRAGMENT
    ucode = path.read_bytes()
    expected = read_words_file(path.with_name(path.name.removesuffix(".bin") + ".words.txt"))
    assert read_words(ucode, "raw", word_bits=32, byte_order=UCODE_BYTE_ORDER[kind]) == expected
    assert write_words(expected, "raw", word_bits=32, byte_order=UCODE_BYTE_ORDER[kind]) == ucode


@pytest.mark.parametrize("path", ASM_UCODE, ids=lambda path: path.name)
def test_bare_ucode_is_not_taken_for_a_container(path):
    with pytest.raises(InputError, match="truncated header|unknown profile"):
        read_container(path.read_bytes(), str(path))


def test_fragment_word_order_example_from_spec():
    # spec/rsx.md 1: the float 0.5 in an FP literal slot is stored as bytes 00 00 3F 00.
    fragment, vertex = UCODE_BYTE_ORDER[ProgramKind.FRAGMENT], UCODE_BYTE_ORDER[ProgramKind.VERTEX]
    assert read_words(bytes.fromhex("00003f00"), "raw", word_bits=32, byte_order=fragment) == [0x3F000000]
    assert read_words(bytes.fromhex("00003f00"), "raw", word_bits=32, byte_order=vertex) == [0x00003F00]
    assert write_words([0x3F000000], "raw", word_bits=32, byte_order=fragment) == bytes.fromhex("00003f00")


# --- malformed input -------------------------------------------------------------------------


def patched(data: bytes, offset: int, value: int) -> bytes:
    return data[:offset] + struct.pack(">I", value) + data[offset + 4 :]


def assert_input_error(data: bytes, pattern: str) -> None:
    with pytest.raises(InputError, match=pattern) as caught:
        read_container(data, "bad.vpo")
    message = str(caught.value)
    assert message.startswith("bad.vpo: ") and "\n" not in message


VP_BYTES = BASIC_TRIANGLE_VP.read_bytes()
FP_BYTES = CUBE_FP.read_bytes()


def test_truncated_header():
    assert_input_error(VP_BYTES[:31], "truncated header: 31 bytes")
    assert_input_error(b"", "truncated header: 0 bytes")


def test_unknown_profile():
    assert_input_error(patched(VP_BYTES, 0, 7002), "unknown profile 7002")


def test_unsupported_revision():
    assert_input_error(patched(VP_BYTES, 4, 7), "binaryFormatRevision 7")


def test_total_size_disagrees_with_file_length():
    assert_input_error(VP_BYTES[:-16], "totalSize 720 does not match the file length 704")
    assert_input_error(VP_BYTES + b"\0", "totalSize 720 does not match the file length 721")


def test_parameter_count_too_large():
    assert_input_error(patched(VP_BYTES, 12, 0xFFFFFFFF), "parameterCount 4294967295 does not fit")
    assert_input_error(patched(VP_BYTES, 16, 700), "parameter 0 record at offset 0x2bc .* outside")


def test_offsets_outside_the_file():
    assert_input_error(patched(VP_BYTES, 20, 720), "vertex program sub-header at offset 0x2d0 .* outside")
    assert_input_error(patched(VP_BYTES, 28, 0x290), "ucode at offset 0x290 .* outside")
    assert_input_error(patched(VP_BYTES, 0x20 + 16, 5000), "parameter 0 name offset 0x1388 lies outside")
    assert_input_error(patched(VP_BYTES, 0x20 + 20, 718), r"parameter 0 \(position\) default value at offset 0x2ce")
    assert_input_error(patched(VP_BYTES, 0x20 + 24, 0x2CC), r"embedded-constant (count|list)")


def test_parameter_without_name():
    assert_input_error(patched(VP_BYTES, 0x20 + 16, 0), "parameter 0 has no name")


def test_string_not_nul_terminated():
    # Point the last record's semantic at the ucode's final bytes, which hold no NUL.
    assert_input_error(
        patched(VP_BYTES, 0x1A0 + 28, len(VP_BYTES) - 2), r"parameter 8 \(oColor\) semantic .* not NUL-terminated"
    )


def test_string_not_utf8():
    data = bytearray(VP_BYTES)
    data[0x1D9] = 0xFF  # first byte of "position"
    assert_input_error(bytes(data), "parameter 0 name .* not valid UTF-8")


def test_instruction_count_disagrees_with_ucode_size():
    assert_input_error(patched(VP_BYTES, 0x260, 4), "instructionCount 4 disagrees with ucodeSize 80")
    assert_input_error(patched(FP_BYTES, 0x120, 6), "instructionCount 6 disagrees with ucodeSize 80")


def test_ucode_size_not_a_whole_number_of_slots():
    assert_input_error(patched(VP_BYTES, 24, 72), "ucodeSize 72 is not a multiple")


# --- fuzzing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", REAL_CONTAINERS, ids=lambda path: path.name)
def test_every_truncation_is_an_input_error(path):
    data = path.read_bytes()
    for length in range(len(data)):
        with pytest.raises(InputError):
            read_container(data[:length], "cut")


def parse_or_input_error(data: bytes) -> CgProgram | None:
    try:
        return read_container(data, "fuzz")
    except InputError as error:
        assert str(error).startswith("fuzz: ")
        return None


@settings(max_examples=400, deadline=None)
@given(
    container=st.sampled_from([path.read_bytes() for path in REAL_CONTAINERS]),
    flips=st.lists(st.tuples(st.integers(0, 10_000), st.integers(1, 255)), min_size=1, max_size=6),
)
def test_flipped_bytes_give_a_program_or_an_input_error(container, flips):
    data = bytearray(container)
    for position, mask in flips:
        data[position % len(data)] ^= mask
    mutated = bytes(data)
    program = parse_or_input_error(mutated)
    if program is not None:
        # Whatever parses is re-serialised to exactly the bytes it came from.
        assert write_container(program) == mutated


@settings(max_examples=200, deadline=None)
@given(
    container=st.sampled_from([path.read_bytes() for path in REAL_CONTAINERS]),
    header_field=st.integers(0, 7),
    value=st.one_of(st.integers(0, 0x400), st.integers(0, 0xFFFFFFFF)),
)
def test_random_header_fields_give_a_program_or_an_input_error(container, header_field, value):
    mutated = patched(container, header_field * 4, value)
    program = parse_or_input_error(mutated)
    if program is not None:
        assert write_container(program) == mutated


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_give_a_program_or_an_input_error(data):
    program = parse_or_input_error(data)
    if program is not None:
        assert write_container(program) == data
