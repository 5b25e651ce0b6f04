"""Tests for shaderkit.core.bits: bit fields (plain, split into pieces, signed),
sign extension, and combining/splitting multi-word instruction values."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shaderkit.core.bits import BitField, bits, combine_words, sign_extend, split_words

# --------------------------------------------------------------------------------------
# bits("...") layouts


@pytest.mark.parametrize("layout, pieces, width, mask", [
    ("10:8", ((10, 8),), 3, 0x0700),
    ("5", ((5, 5),), 1, 0x0020),
    ("15:11", ((15, 11),), 5, 0xF800),
    ("13:9,0", ((13, 9), (0, 0)), 6, 0x3E01),
    (" 7 : 2 ", ((7, 2),), 6, 0x00FC),
    ("3:2,15:14,0", ((3, 2), (15, 14), (0, 0)), 5, 0xC00D),
])
def test_layout_pieces_width_mask(layout, pieces, width, mask):
    field = bits(layout)
    assert field.pieces == pieces
    assert field.width == width
    assert field.mask == mask


@pytest.mark.parametrize("layout", ["8:10", "", "a:b", "3:", "1,,2", "-1"])
def test_bad_layouts_are_rejected(layout):
    with pytest.raises(ValueError):
        bits(layout)


def test_range_of_unsigned_and_signed_fields():
    assert (bits("7:2").minimum, bits("7:2").maximum) == (0, 63)
    assert (bits("7:2", signed=True).minimum, bits("7:2", signed=True).maximum) == (-32, 31)
    assert bits("7:2").fits(63) and not bits("7:2").fits(64) and not bits("7:2").fits(-1)
    signed = bits("7:2", signed=True)
    assert signed.fits(-32) and signed.fits(31) and not signed.fits(32) and not signed.fits(-33)


# --------------------------------------------------------------------------------------
# extract / insert, table style: (layout, signed, word, field value)

EXTRACT_TABLE = [
    ("15:11", False, 0x18C3, 3),       # TPP opcode of ADD R0 RT
    ("10:8", False, 0x8903, 1),        # COMP R1 R0: a = R1
    ("7:5", False, 0x5823, 1),         # XOR R0 R1: b = R1
    ("7:2", False, 0x09F3, 60),        # SET R1 #60
    ("1:0", False, 0x18C2, 2),         # ADDLT: condition LT
    ("7:0", True, 0x00FF, -1),
    ("7:0", True, 0x0080, -128),
    ("7:0", True, 0x007F, 127),
    ("3:0", True, 0xFFF8, -8),
    # split: high piece bits 13:9 then low piece bit 0
    ("13:9,0", False, (0b10110 << 9) | 1, 0b101101),
    ("13:9,0", False, 1, 1),
    ("13:9,0", False, 1 << 9, 2),
    ("13:9,0", True, (0b11111 << 9) | 1, -1),
    ("13:9,0", True, 0b10000 << 9, -32),
    # pieces given low bits first: the first piece is still the most significant
    ("1:0,15:14", False, 0b01 | (0b10 << 14), 0b0110),
]


@pytest.mark.parametrize("layout, signed, word, expected", EXTRACT_TABLE)
def test_extract(layout, signed, word, expected):
    assert bits(layout, signed).extract(word) == expected


@pytest.mark.parametrize("layout, signed, word, value", EXTRACT_TABLE)
def test_insert_into_clean_word_then_extract(layout, signed, word, value):
    field = bits(layout, signed)
    inserted = field.insert(0, value)
    assert inserted & ~field.mask == 0, "insert touched bits outside the field"
    assert inserted == word & field.mask
    assert field.extract(inserted) == value


def test_insert_replaces_only_the_field():
    field = bits("13:9,0")
    assert field.insert(0xFFFF, 0) == 0xFFFF & ~0x3E01
    assert field.insert(0x0000, 0b111111) == 0x3E01
    assert field.insert(0xC1FE, 0b100001) == 0xC1FE | (0b10000 << 9) | 1


def test_insert_split_field_places_each_piece():
    field = bits("3:2,15:14,0")  # 5 bits: [4:3] -> 3:2, [2:1] -> 15:14, [0] -> 0
    assert field.insert(0, 0b11000) == 0b1100
    assert field.insert(0, 0b00110) == 0xC000
    assert field.insert(0, 0b00001) == 0b1


@pytest.mark.parametrize("layout, signed, value", [
    ("7:2", False, 64), ("7:2", False, -1), ("1:0", False, 4),
    ("7:0", True, 128), ("7:0", True, -129), ("13:9,0", False, 64),
])
def test_insert_refuses_values_that_do_not_fit(layout, signed, value):
    with pytest.raises(ValueError, match="does not fit"):
        bits(layout, signed).insert(0, value)


@pytest.mark.parametrize("value, width, expected", [
    (0x7F, 8, 127), (0x80, 8, -128), (0xFF, 8, -1), (0x1FF, 8, -1), (0x17F, 8, 127),
    (1, 1, -1), (0, 1, 0), (0b100000, 6, -32), (0b011111, 6, 31),
])
def test_sign_extend(value, width, expected):
    assert sign_extend(value, width) == expected


# --------------------------------------------------------------------------------------
# hypothesis: insert -> extract round trip on random layouts


@st.composite
def fields(draw):
    """A BitField of 1-4 non-overlapping pieces within 48 bits, in a random order."""
    count = draw(st.integers(1, 4))
    boundaries = sorted(draw(st.lists(st.integers(0, 48), min_size=2 * count, max_size=2 * count, unique=True)))
    pieces = [(boundaries[2 * i + 1] - 1, boundaries[2 * i]) for i in range(count)]
    pieces = draw(st.permutations(pieces))
    return BitField(tuple(pieces), draw(st.booleans()))


@given(fields(), st.data())
def test_insert_extract_round_trip(field, data):
    background = data.draw(st.integers(0, (1 << 48) - 1))
    value = data.draw(st.integers(field.minimum, field.maximum))
    word = field.insert(background, value)
    assert field.extract(word) == value
    assert word & ~field.mask == background & ~field.mask
    # inserting what was extracted changes nothing
    assert field.insert(word, field.extract(word)) == word


@given(fields(), st.integers(0, (1 << 48) - 1))
def test_extract_insert_round_trip(field, word):
    assert field.insert(word, field.extract(word)) == word
    assert field.minimum <= field.extract(word) <= field.maximum


# --------------------------------------------------------------------------------------
# combine / split words


@pytest.mark.parametrize("words, word_bits, msb_first, value", [
    ((0x1234, 0xABCD), 16, True, 0x1234ABCD),
    ((0x1234, 0xABCD), 16, False, 0xABCD1234),
    ((0x01, 0x02, 0x03), 8, True, 0x010203),
    ((0x01, 0x02, 0x03), 8, False, 0x030201),
    ((0xDEADBEEF,), 32, True, 0xDEADBEEF),
    ((0xDEADBEEF,), 32, False, 0xDEADBEEF),
    ((), 16, True, 0),
])
def test_combine_and_split_words(words, word_bits, msb_first, value):
    assert combine_words(words, word_bits, msb_first) == value
    assert split_words(value, len(words), word_bits, msb_first) == words


def test_split_words_masks_each_word_and_drops_excess():
    assert split_words(0x1_2345_6789, 2, 16) == (0x2345, 0x6789)
    assert split_words(0x1_2345_6789, 2, 16, first_is_most_significant=False) == (0x6789, 0x2345)


@given(st.integers(1, 4).flatmap(lambda n: st.tuples(
    st.sampled_from([8, 16, 32]).flatmap(lambda b: st.tuples(st.just(b), st.lists(
        st.integers(0, (1 << b) - 1), min_size=n, max_size=n))),
    st.booleans())))
def test_combine_split_round_trip(case):
    (word_bits, words), msb_first = case
    value = combine_words(words, word_bits, msb_first)
    assert split_words(value, len(words), word_bits, msb_first) == tuple(words)
    # both orders hold the same words, mirrored
    assert combine_words(list(reversed(words)), word_bits, not msb_first) == value


def test_field_straddling_two_combined_words():
    # a 16-bit field over the low byte of word 0 and the high byte of word 1
    value = combine_words((0x12AB, 0xCD34), 16)
    assert bits("23:8").extract(value) == 0xABCD
    patched = bits("23:8").insert(value, 0x5678)
    assert split_words(patched, 2, 16) == (0x1256, 0x7834)
