"""THEIA assembler and disassembler: upstream syntax, our superset, the image layout, totality."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.diagnostics import DiagnosticError, InputError, ShaderkitError
from shaderkit.isa import get
from shaderkit.isa.theia import image as images
from shaderkit.isa.theia.microcode import ROM_CODE_START, rom
from shaderkit.isa.theia.registers import ADDRESS_NAMES, ROUTINES, UPSTREAM_ENTRY_ADDRESSES

THEIA = get("theia")

# (text as upstream theia_compile writes it, 64-bit word, how we print it)
TABLE = [
    ("RETURN RT_TRUE", 0x0040_0000_0000_0001, "RETURN RT_TRUE"),
    ("RETURN RT_FALSE", 0x0040_0000_0000_0000, "RETURN RT_FALSE"),
    ("NOP RT_FALSE", 0x0000_0000_0000_0000, "NOP RT_FALSE"),
    ("ADD R1 R2 R3", 0x0001_0047_0048_0049, "ADD R1 R2 R3"),
    ("MAG R1 CREG_TEXTURE_COLOR", 0x0005_0047_006E_0000, "MAG R1 CREG_TEXTURE_COLOR"),
    ("SETX R1 32'h20000", 0x0041_0047_0002_0000, "SETX R1 32'h20000"),
    ("SWIZZLE3D R6 SWIZZLE_XXX", 0x0044_004C_0000_0000, "SWIZZLE3D R6 SWIZZLE_XXX"),
    ("SWIZZLE3D R6 SWIZZLE_YXZ", 0x0044_004C_0000_0015, "SWIZZLE3D R6 SWIZZLE_YXZ"),
    ("COPY OREG_PIXEL_COLOR CREG_TEXTURE_COLOR", 0x0007_0080_006E_0000, "COPY OREG_PIXEL_COLOR CREG_TEXTURE_COLOR"),
    ("ZERO OREG_PIXEL_COLOR VOID VOID", 0x000F_0080_0000_0000, "ZERO OREG_PIXEL_COLOR"),
    ("DIV CREG_t CREG_H1 CREG_DELTA", 0x0003_0063_0069_0066, "DIV CREG_t CREG_H1 CREG_DELTA"),
    ("SUB CREG_T CREG_CAMERA_POSITION CREG_V0", 0x0002_0058_0001_002C, "SUB CREG_T CREG_CAMERA_POSITION CREG_V0"),
    ("JMP 0x800c VOID VOID", 0x0058_800C_0000_0000, "JMP 0x800c"),
    ("JGX 0x8010 CREG_t CREG_LAST_t", 0x0008_8010_0063_005F, "JGX 0x8010 CREG_t CREG_LAST_t"),
    ("JLEZ 0x8010 R1 R2", 0x001D_8010_0047_0048, "JLEZ 0x8010 R1 R2"),
    ("MUL C1 CREG_LIGHT_INFO C7", 0x0004_0040_0000_0046, "MUL C1 VOID C7"),
]


@pytest.mark.parametrize("text, word, printed", TABLE, ids=[row[0] for row in TABLE])
def test_encoding_table_both_ways(text, word, printed):
    assert THEIA.encode(THEIA.parse(text)) == (word,)
    assert THEIA.format(THEIA.decode([word])) == printed
    assert THEIA.encode(THEIA.parse(printed)) == (word,)


@pytest.mark.parametrize("text, word", [
    ("SETX R1 1.0", 0x0041_0047_0002_0000),
    ("SETX R1 -1.0", 0x0041_0047_FFFE_0000),
    ("SETY R1 0.5", 0x0042_0047_0001_0000),
    ("SETZ R1 250.0", 0x0043_0047_01F4_0000),
    ("SETX R1 0x20000", 0x0041_0047_0002_0000),
    ("SETX R1 3", 0x0041_0047_0000_0003),
    ("SETX R1 ((1 << 17) | 5)", 0x0041_0047_0002_0005),
    ("setx R1, R1_VALUE", 0x0041_0047_0000_0007),
    ("SWIZZLE3D R6 0x15", 0x0044_004C_0000_0015),
])
def test_friendlier_immediates(text, word):
    program = THEIA.assemble(f"R1_VALUE = 7\n{text}\n")
    assert program.words == [word]


def test_registers_are_case_sensitive():
    assert THEIA.parse("COPY CREG_t CREG_T").values == (("dst", 99), ("s1", 88), ("s2", 0))
    with pytest.raises(ShaderkitError, match="creg_t"):
        THEIA.parse("COPY creg_t R1")


def test_every_named_address_round_trips():
    for address, names in ADDRESS_NAMES.items():
        for name in names:
            (word,) = THEIA.encode(THEIA.parse(f"COPY {name} R1"))
            assert (word >> 32) & 0xFFFF == address
            assert THEIA.format(THEIA.decode([word])).split()[1] == names[0]


def test_missing_sources_encode_as_zero_like_upstream():
    assert THEIA.assemble("ADD R1 R2\n").words == [0x0001_0047_0048_0000]
    assert THEIA.assemble("ADD R1\n").words == [0x0001_0047_0000_0000]


def test_labels_are_0x8000_plus_index_plus_11():
    source = "NOP RT_FALSE\nLOOP:\nADD R1 R1 R2\nJMP LOOP VOID VOID\n"
    program = THEIA.assemble(source)
    assert program.program.symbols["LOOP"] == 0x8000 | (1 + 11)
    assert program.words[-1] == 0x0058_800C_0000_0000


def test_entry_points_fill_the_entry_table():
    source = ("ENTRYPOINT_ADRR_USERCONSTANTS:\nSETX C1 32'h6666\nRETURN RT_TRUE\n"
              "ENTRYPOINT_ADRR_PIXELSHADER:\nCOPY OREG_PIXEL_COLOR CREG_TEXTURE_COLOR\nRETURN RT_TRUE\n")
    program = THEIA.assemble(source)
    table = dict(zip(ROUTINES, program.image[:11]))
    assert table["USERCONSTANTS"] == 0x800B and table["PIXELSHADER"] == 0x800D
    untouched = set(ROUTINES) - {"USERCONSTANTS", "PIXELSHADER"}
    assert all(table[name] == UPSTREAM_ENTRY_ADDRESSES[name] for name in untouched)
    assert program.image[11:] == program.words


def test_entry_point_constant_may_point_anywhere():
    program = THEIA.assemble("ENTRYPOINT_ADRR_PSU = 0x1234\nNOP RT_FALSE\n")
    assert dict(zip(ROUTINES, program.image))["PSU"] == 0x1234


@pytest.mark.parametrize("source, message", [
    ("ENTRYPOINT_ADRR_SHADE:\nNOP RT_FALSE\n", "unknown routine 'SHADE'"),
    ("SWIZZLE3D R1 SWIZZLE_ABC\n", "unknown swizzle 'SWIZZLE_ABC'"),
    ("SETX R1 32'h123456789\n", "wider than 32 bits"),
    ("SETX R1 20000.0\n", "outside the fixed-point range"),
    ("ADD R1 R2 NOWHERE\n", "NOWHERE"),
    ("FOO R1 R2 R3\n", "unknown instruction 'FOO'"),
    ("JMP MISSING\n", "undefined symbol 'MISSING'"),
])
def test_errors_point_at_the_source(source, message):
    with pytest.raises(DiagnosticError) as caught:
        THEIA.assemble(source, "user.s")
    rendered = caught.value.render()
    assert message in rendered
    assert rendered.startswith("user.s:")
    assert "^" in rendered


def test_upstream_quirks_are_diagnosed_as_warnings():
    program = THEIA.assemble("ADD R1 R2 R3 // note: this line\nRETURN RT_TRUE VOID VOID EXTRA\n", "q.s")
    messages = [warning.message for warning in program.program.warnings]
    assert any("containing ':'" in message for message in messages)
    assert "operand 'VOID' is ignored: RETURN takes 1 operand (RETURN result)" in messages
    assert "operand 'EXTRA' is ignored: RETURN takes 1 operand (RETURN result)" in messages
    assert program.words == [0x0001_0047_0048_0049, 0x0040_0000_0000_0001]


def test_program_too_long_for_the_ram():
    with pytest.raises(DiagnosticError, match="program too long"):
        THEIA.assemble("NOP RT_FALSE\n" * 502)
    assert len(THEIA.assemble("NOP RT_FALSE\n" * 501).image) == 512


def test_listing_reassembles_with_labels_and_entries():
    source = ("ENTRYPOINT_ADRR_PIXELSHADER:\nMAG R1 CREG_TEXTURE_COLOR\nJLX BLACK R1 C1\n"
              "SETX OREG_PIXEL_COLOR 1.0\nRETURN RT_TRUE\nBLACK:\nZERO OREG_PIXEL_COLOR\nRETURN RT_TRUE\n"
              "ENTRYPOINT_ADRR_TCC = 0x20\n")
    image = THEIA.assemble(source).image
    text = THEIA.disassemble(image)
    assert "ENTRYPOINT_ADRR_PIXELSHADER:" in text and "ENTRYPOINT_ADRR_TCC = 0x0020" in text
    assert "JLX L_800f R1 C1" in text and "L_800f:" in text
    assert THEIA.assemble(text).image == image
    without = THEIA.disassemble(image, addresses=False)
    assert THEIA.assemble(without).image == image
    assert not THEIA.assemble(text).program.warnings  # no ':' in the address comments


def test_imem_layout_round_trip_and_upstream_shape():
    image = THEIA.assemble("ENTRYPOINT_ADRR_PIXELSHADER:\nCOPY OREG_PIXEL_COLOR CREG_TEXTURE_COLOR\n"
                           "RETURN RT_TRUE\n").image
    data = images.write_imem(image)
    lines = data.decode().splitlines()
    assert int(lines[0], 16) == 2 * len(image)
    assert lines[1:12] == [f"00000000 {UPSTREAM_ENTRY_ADDRESSES[r]:08x}" if r != "PIXELSHADER" else "00000000 0000800b"
                           for r in ROUTINES]
    assert lines[12] == "00070080 006e0000"
    assert images.read_imem(data, "x.mem") == image
    # The upstream assembler writes the count in decimal; we do not trust it.
    assert images.read_imem(b"26\n" + data.split(b"\n", 1)[1], "x.mem") == image


@pytest.mark.parametrize("data, message", [
    (b"", "empty"),
    (b"4\n00000000 00000001\n00000000\n", "whole high/low pairs"),
    (b"2\n0000000g 00000000\n", "not a 32-bit hex word"),
    (b"\xff\xfe", "not a text file"),
])
def test_bad_imem_files(data, message):
    with pytest.raises(InputError, match=message):
        images.read_imem(data, "Instructions.mem")


def test_microcode_assembles_and_trampolines_reach_every_routine():
    code = rom()
    assert len(code.words) > ROM_CODE_START
    for routine, address in UPSTREAM_ENTRY_ADDRESSES.items():
        jump = THEIA.decode([code.words[address]])
        assert jump.mnemonic == "JMP" and jump.value("target") == code.symbols[routine]
    listed = [THEIA.decode([word]) for word in code.words[ROM_CODE_START:]]
    assert not any(instruction.is_data for instruction in listed)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, (1 << 64) - 1))
def test_decoder_is_total_and_round_trips(word):
    instruction = THEIA.decode([word])
    assert THEIA.encode(instruction) == (word,)
    if not instruction.is_data:
        assert THEIA.parse(THEIA.format(instruction)) == instruction
    assert THEIA.assemble(THEIA.disassemble([word])).words == [word]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(128)), st.integers(0, 0xFFFF), st.integers(0, 0xFFFF), st.integers(0, 0xFFFF))
def test_every_opcode_with_any_operands_round_trips(opcode, dst, s1, s2):
    word = (opcode << 48) | (dst << 32) | (s1 << 16) | s2
    instruction = THEIA.decode([word])
    assert THEIA.encode(instruction) == (word,)
    if not instruction.is_data:
        assert THEIA.parse(THEIA.format(instruction)) == instruction


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ADJMPRSTXYZ_ 0123456789.:,/'h\n-+()CREGOVIDLNQ")), max_size=80))
def test_assembler_never_crashes(text):
    try:
        THEIA.assemble(text)
    except ShaderkitError:
        pass
