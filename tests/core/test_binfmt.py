"""Tests for shaderkit.core.binfmt: round trips, exact bytes, and bad input."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.binfmt import FORMATS, WORD_BITS, detect_format, read_words, write_words
from shaderkit.core.diagnostics import InputError

SAMPLE = [0x1083, 0x58A3]


def _orders(word_bits: int) -> list[str]:
    return ["big", "little"] + (["big-halfswap"] if word_bits % 32 == 0 else [])


@st.composite
def programs(draw):
    word_bits = draw(st.sampled_from(WORD_BITS))
    order = draw(st.sampled_from(_orders(word_bits)))
    words = draw(st.lists(st.integers(0, (1 << word_bits) - 1), max_size=40))
    return word_bits, order, words


# --- round trips -------------------------------------------------------------

@pytest.mark.parametrize("fmt", FORMATS)
@given(program=programs())
def test_round_trip(fmt, program):
    word_bits, order, words = program
    data = write_words(words, fmt, word_bits=word_bits, byte_order=order)
    assert read_words(data, fmt, word_bits=word_bits, byte_order=order) == words


@pytest.mark.parametrize("fmt", FORMATS)
@given(program=programs())
def test_detected_format_reads_back_the_same_words(fmt, program):
    word_bits, order, words = program
    data = write_words(words, fmt, word_bits=word_bits, byte_order=order)
    detected = detect_format(data)
    if words and fmt != "raw":  # raw bytes can spell text by accident, so only text is sniffed reliably
        assert read_words(data, detected, word_bits=word_bits, byte_order=order) == words


def test_ihex_round_trip_across_64k_uses_extended_linear_address():
    words = [i & 0xFF for i in range(0x10010)]
    data = write_words(words, "ihex", word_bits=8)
    lines = data.decode().splitlines()
    # 4096 full records cover the first 64 KiB; then upper = 0x0001:
    # 02+00+00+04+00+01 = 0x07, checksum 0x100 - 0x07 = 0xF9.
    assert lines[4096] == ":020000040001F9"
    assert lines[4097].startswith(":10000000")
    assert lines[-1] == ":00000001FF"
    assert len(lines) == 4096 + 1 + 1 + 1
    assert read_words(data, "ihex", word_bits=8) == words


# --- exact bytes -------------------------------------------------------------

def test_raw_exact_bytes():
    assert write_words(SAMPLE, "raw", word_bits=16) == b"\x10\x83\x58\xa3"
    assert write_words(SAMPLE, "raw", word_bits=16, byte_order="little") == b"\x83\x10\xa3\x58"


def test_raw_big_halfswap_matches_rsx_decoding():
    stored = b"\x58\xa3\x10\x83"
    assert write_words([0x108358A3], "raw", word_bits=32, byte_order="big-halfswap") == stored
    be = int.from_bytes(stored, "big")
    assert (be >> 16) | ((be << 16) & 0xFFFFFFFF) == 0x108358A3
    assert read_words(stored, "raw", word_bits=32, byte_order="big-halfswap") == [0x108358A3]
    # Wider words swap halves within every 32-bit group.
    assert write_words([0x108358A3_00010002], "raw", word_bits=64, byte_order="big-halfswap") == (
        b"\x58\xa3\x10\x83\x00\x02\x00\x01")


def test_hex_exact_bytes():
    assert write_words(SAMPLE, "hex", word_bits=16) == b"1083\n58A3\n"
    assert write_words([0xAB], "hex", word_bits=32) == b"000000AB\n"


def test_readmemh_exact_bytes():
    assert write_words(SAMPLE, "readmemh", word_bits=16) == (
        b"// shaderkit readmemh: 2 words of 16 bits\n1083\n58A3\n")


def test_ihex_exact_bytes():
    # Data record: 04+00+00+00+10+83+58+A3 = 0x192; low byte 0x92; 0x100 - 0x92 = 0x6E.
    # EOF record: 00+00+00+01 = 0x01; 0x100 - 0x01 = 0xFF.
    assert write_words(SAMPLE, "ihex", word_bits=16) == b":04000000108358A36E\n:00000001FF\n"
    # Little-endian bytes 83 10 A3 58 sum to the same 0x192, so the checksum is again 0x6E.
    assert write_words(SAMPLE, "ihex", word_bits=16, byte_order="little") == b":040000008310A3586E\n:00000001FF\n"


def test_c_exact_bytes():
    assert write_words(SAMPLE, "c", word_bits=16, name="shader") == (
        b"#include <stdint.h>\n\nconst uint16_t shader[2] = {\n    0x1083, 0x58A3,\n};\n")


def test_c_eight_values_per_line():
    text = write_words(list(range(9)), "c", word_bits=8).decode()
    assert "    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,\n    0x08,\n};" in text


def test_c_128_bit_words_are_four_uint32_most_significant_first():
    text = write_words([0x00112233_44556677_8899AABB_CCDDEEFF], "c", word_bits=128).decode()
    assert "const uint32_t program[4] = {\n    0x00112233, 0x44556677, 0x8899AABB, 0xCCDDEEFF,\n};" in text


# --- lenient reading ---------------------------------------------------------

def test_hex_reads_either_case_prefixes_and_comments():
    text = b"// header\n0x1083\n\n# note\n58a3 // trailing\n"
    assert read_words(text, "hex", word_bits=16) == SAMPLE


def test_readmemh_addresses_gaps_comments_underscores():
    text = b"@2 12_34 // line comment\n/* block\n comment */ abcd\n@0 0001\n"
    assert read_words(text, "readmemh", word_bits=16, fill_word=0xFFFF) == [0x0001, 0xFFFF, 0x1234, 0xABCD]
    assert read_words(b"@1 5", "readmemh", word_bits=16) == [0, 5]


def test_ihex_extended_segment_address_and_start_records():
    # Type 02 base 0x1000 -> byte address 0x10000: 02+00+00+02+10+00 = 0x14 -> 0xEC.
    # Data 0x7F at offset 1: 01+00+01+00+7F = 0x81 -> 0x7F.
    # Type 05 start address 0: 04+00+00+05 = 0x09 -> 0xF7.
    text = b":020000021000EC\n:01000100" b"7F7F\n:0400000500000000F7\n:00000001FF\n"
    words = read_words(text, "ihex", word_bits=8, fill_word=0xEE)
    assert len(words) == 0x10002 and words[0x10001] == 0x7F and words[0] == words[0x10000] == 0xEE


def test_c_reads_suffixes_decimals_and_comments():
    text = b"static const unsigned short p[] = { 0x1083u, /* 7, */ 22691UL, // 9\n 0, };"
    assert read_words(text, "c", word_bits=16) == [0x1083, 0x58A3, 0]


# --- bad input ---------------------------------------------------------------

BAD_INPUTS = [
    ("raw", b"\x01\x02\x03", 16, "prog.bin: 3 bytes is not a whole number of 2-byte words"),
    ("hex", b"1083\n58A3\nXYZ\n", 16, "prog.hex:3: not a hex word: 'XYZ'"),
    ("hex", b"12345\n", 16, "prog.hex:1: hex word '12345' is wider than 16 bits"),
    ("hex", b"12 34\n", 16, "prog.hex:1: expected one hex word per line, found 2"),
    ("hex", b"0x\n", 16, "prog.hex:1: not a hex word: '0x'"),
    ("hex", b"12\n\xff\n", 16, "prog.hex:2: not UTF-8 text (bad byte at offset 3)"),
    ("readmemh", b"00\n@zz\n", 8, "prog.hex:2: not a hex address: '@zz'"),
    ("readmemh", b"1 /* open\n2\n", 8, "prog.hex:1: unterminated /* comment"),
    ("readmemh", b"100\n", 8, "prog.hex:1: hex word '100' is wider than 8 bits"),
    ("readmemh", b"x1\n", 8, "prog.hex:1: not a hex word: 'x1'"),
    ("readmemh", b"@FFFFFFFF 1\n", 8, "prog.hex:1: word address 0xFFFFFFFF is beyond the 16777216-word limit"),
    ("ihex", b":04000000108358A36F\n:00000001FF\n", 16, "prog.hex:1: bad checksum 0x6F (expected 0x6E)"),
    ("ihex", b":04000000108358A36E\n", 16, "prog.hex: missing end-of-file record"),
    ("ihex", b"04000000108358A36E\n", 16, "prog.hex:1: not an Intel HEX record: '04000000108358A36E'"),
    ("ihex", b":0500000010835\n", 16, "prog.hex:1: not an Intel HEX record: ':0500000010835'"),
    ("ihex", b":05000000108358A369\n", 16, "prog.hex:1: record length does not match its byte count: "
                                            "':05000000108358A369'"),
    ("ihex", b":00000001FF\n:00000001FF\n", 16, "prog.hex:2: record after the end-of-file record on line 1"),
    ("ihex", b":00000006FA\n:00000001FF\n", 16, "prog.hex:1: unsupported record type 06"),
    ("ihex", b":0100010012EC\n:00000001FF\n", 16, "prog.hex: word at byte address 0x0 is only partly defined"),
    ("ihex", b":0100000004FB\n:00000001FF\n", 16, "prog.hex: word at byte address 0x0 is only partly defined"),
    ("c", b"int x;\n", 16, "prog.hex: no C array initialiser '{ ... }' found"),
    ("c", b"x[] = {\n 1,\n 017 };", 16, "prog.hex:3: not a hex or decimal integer literal: '017'"),
    ("c", b"x[] = { 0x10000 };", 16, "prog.hex:1: value '0x10000' is wider than 16 bits"),
    ("c", b"x[] = { 1, 2, 3 };", 128, "prog.hex: 3 values is not a whole number of 4-element words"),
    ("c", b"x[] = { " + b"9" * 5000 + b" };", 64, "prog.hex:1: value '" + "9" * 40 + "...' is wider than 64 bits"),
]


@pytest.mark.parametrize("fmt,data,word_bits,message", BAD_INPUTS)
def test_bad_input_message(fmt, data, word_bits, message):
    source = "prog.bin" if fmt == "raw" else "prog.hex"
    with pytest.raises(InputError) as caught:
        read_words(data, fmt, word_bits=word_bits, source=source)
    assert str(caught.value) == message


@pytest.mark.parametrize("call,message", [
    (lambda: read_words(b"", "elf", word_bits=16, source="a"), "a: unknown format 'elf'"),
    (lambda: read_words(b"", "raw", word_bits=12, source="a"), "a: unsupported word size 12 bits"),
    (lambda: read_words(b"", "raw", word_bits=16, byte_order="middle", source="a"), "a: unknown byte order 'middle'"),
    (lambda: read_words(b"", "raw", word_bits=16, byte_order="big-halfswap", source="a"),
     "a: byte order 'big-halfswap' needs a multiple of 32 bits per word, not 16"),
    (lambda: read_words(b"", "raw", word_bits=8, fill_word=256, source="a"), "a: fill word 0x100 does not fit"),
    (lambda: write_words([0x10000], "hex", word_bits=16), "<output>: word 0 (0x10000) does not fit in 16"),
    (lambda: write_words([1, -1], "raw", word_bits=16), "<output>: word 1 (-0x1) does not fit in 16"),
    (lambda: write_words(["1"], "raw", word_bits=16), "<output>: word 0 is not an integer"),
    (lambda: write_words([1], "c", word_bits=16, name="2bad"), "<output>: not a C identifier: '2bad'"),
    (lambda: write_words([1], "c", word_bits=16.0), "<output>: unsupported word size 16.0 bits"),
])
def test_bad_options(call, message):
    with pytest.raises(InputError, match="^" + re.escape(message)):
        call()


TEXT_ALPHABET = ":@/*#_{},;xXuUlL0123456789abcdefABCDEF \t\r\n"


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=300)
@given(data=st.binary(max_size=200) | st.text(TEXT_ALPHABET, max_size=200).map(str.encode),
       word_bits=st.sampled_from(WORD_BITS))
def test_arbitrary_input_only_raises_input_error(fmt, data, word_bits):
    try:
        words = read_words(data, fmt, word_bits=word_bits, source="fuzz")
    except InputError as error:
        assert str(error).startswith("fuzz") and "\n" not in str(error)
    else:
        assert all(0 <= word < 1 << word_bits for word in words)


@given(data=st.binary(max_size=200), name=st.none() | st.text(max_size=12))
def test_detect_format_always_names_a_format(data, name):
    assert detect_format(data, name) in FORMATS


# --- detection ---------------------------------------------------------------

@pytest.mark.parametrize("filename,fmt", [
    ("a.bin", "raw"), ("a.RAW", "raw"), ("a.hex", "hex"), ("a.words", "hex"), ("a.txt", "hex"),
    ("a.mem", "readmemh"), ("a.vmem", "readmemh"), ("a.ihex", "ihex"), ("a.ihx", "ihex"),
    ("a.c", "c"), ("dir.d/a.h", "c"),
])
def test_detect_by_extension(filename, fmt):
    assert detect_format(b"1083\n", filename) == fmt


def test_detect_hex_extension_holding_intel_hex():
    assert detect_format(b"\n:00000001FF\n", "a.hex") == "ihex"


@pytest.mark.parametrize("data,fmt", [
    (b":04000000108358A36E\n:00000001FF\n", "ihex"),
    (b"const uint16_t p[2] = { 0x1083, 0x58A3 };\n", "c"),
    (b"1083\n58A3\n", "hex"),
    (b"@10 1083 58A3\n", "readmemh"),
    (b"\x10\x83\x58\xa3", "raw"),
    (b"", "raw"),
])
def test_detect_by_content(data, fmt):
    assert detect_format(data) == fmt
    assert detect_format(data, "program.unknown") == fmt
