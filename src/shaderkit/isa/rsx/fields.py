"""Bit layouts of the 128-bit RSX instructions (spec/rsx.md sections 2.2–2.6 and 3.2–3.5).

A layout maps field names to bit ranges of one of the four 32-bit words (after the byte-order
normalisation of :mod:`shaderkit.isa.rsx.container`). Every bit of an instruction belongs to
exactly one field, so a field dictionary holds an instruction completely: decoding and encoding
are exact for any four words. Fields that the text syntax cannot show (padding, don't-care bits
that compilers fill in their own way) are still fields; the printer reports them when they differ
from what the assembler would write.

Operand fields are composite: a VP source is 17 bits gathered from three words, an FP source the
low 18 bits of its word. :class:`SourceBits` names the pieces inside such a value.
"""

from __future__ import annotations

from dataclasses import dataclass

from shaderkit.core.bits import BitField, bits

WORD_BITS = 32
INSTRUCTION_WORDS = 4


@dataclass(frozen=True)
class Layout:
    """Named fields; each is (word index, bit field within that word's 32 bits)."""

    fields: dict[str, tuple[tuple[int, BitField], ...]]

    def extract(self, words: tuple[int, ...], name: str) -> int:
        value = 0
        for word, field in self.fields[name]:
            value = (value << field.width) | field.extract(words[word])
        return value

    def decode(self, words: tuple[int, ...]) -> dict[str, int]:
        return {name: self.extract(words, name) for name in self.fields}

    def encode(self, values: dict[str, int]) -> tuple[int, ...]:
        words = [0] * INSTRUCTION_WORDS
        for name, pieces in self.fields.items():
            value = values.get(name, 0)
            total = sum(field.width for _, field in pieces)
            if not 0 <= value < (1 << total):
                raise ValueError(f"field {name} value {value} does not fit in {total} bits")
            shift = total
            for word, field in pieces:
                shift -= field.width
                words[word] = field.insert(words[word], (value >> shift) & ((1 << field.width) - 1))
        return tuple(words)

    def width(self, name: str) -> int:
        return sum(field.width for _, field in self.fields[name])


def _layout(**declarations: str) -> Layout:
    """``name="D1 7:0, D2 31:23"``: pieces most significant first, word D0..D3 (or W0..W3)."""
    fields = {}
    for name, text in declarations.items():
        pieces = []
        for piece in text.split(","):
            word, bit_range = piece.split()
            pieces.append((int(word[1:]), bits(bit_range)))
        fields[name] = tuple(pieces)
    layout = Layout(fields)
    _check_covers_every_bit(layout)
    return layout


def _check_covers_every_bit(layout: Layout) -> None:
    claimed = [0] * INSTRUCTION_WORDS
    for name, pieces in layout.fields.items():
        for word, field in pieces:
            assert not claimed[word] & field.mask, f"{name} overlaps another field"
            claimed[word] |= field.mask
    assert all(mask == 0xFFFFFFFF for mask in claimed), "a bit belongs to no field"


# --- vertex program: D0..D3 --------------------------------------------------------------------

VP = _layout(
    address_swizzle="D0 1:0",
    cc_swizzle="D0 9:2",  # x in 9:8 ... w in 3:2; identity 0x1B
    condition="D0 12:10",
    condition_test="D0 13:13",
    cc_update="D0 14:14",
    vector_temp="D0 20:15",  # 0x3F = none
    source0_abs="D0 21:21",
    source1_abs="D0 22:22",
    source2_abs="D0 23:23",  # also branch target bit 9
    address_register="D0 24:24",
    cc_register="D0 25:25",
    saturate="D0 26:26",
    index_input="D0 27:27",
    d0_bit28="D0 28:28",
    cc_update_b="D0 29:29",
    vector_to_output="D0 30:30",
    d0_bit31="D0 31:31",
    source0="D1 7:0, D2 31:23",
    input="D1 11:8",
    constant="D1 21:12",
    vector_opcode="D1 26:22",
    scalar_opcode="D1 31:27",
    source1="D2 22:6",
    source2="D2 5:0, D3 31:21",  # for branches: D2 5:0 = target bits 8..3, D3 31:29 = bits 2..0
    end="D3 0:0",
    index_constant="D3 1:1",
    output="D3 6:2",  # 0x1F = none
    scalar_temp="D3 12:7",  # 0x3F = none
    vector_mask="D3 16:13",  # x y z w from the most significant bit
    scalar_mask="D3 20:17",
)

VP_SOURCE_BITS = 17
VP_NO_TEMP = 0x3F
VP_NO_OUTPUT = 0x1F

# --- fragment program: OPDEST, SRC0, SRC1, SRC2 ------------------------------------------------

FP = _layout(
    end="W0 0:0",
    destination="W0 6:1",
    destination_half="W0 7:7",
    set_cc="W0 8:8",
    mask="W0 12:9",  # x in bit 9 (the least significant bit of the field) ... w in bit 12
    input="W0 16:13",
    texture_unit="W0 20:17",
    expand_texture="W0 21:21",
    precision="W0 23:22",
    opcode_low="W0 29:24",
    no_destination="W0 30:30",
    saturate="W0 31:31",
    source0="W1 17:0",
    condition="W1 20:18",
    cc_swizzle="W1 28:21",  # x in bits 22:21 (least significant) ... w in 28:27
    source0_abs="W1 29:29",
    set_cc_register="W1 30:30",
    test_cc_register="W1 31:31",
    source1="W2 17:0",
    source1_abs="W2 18:18",
    source0_clamp="W2 21:19",
    source1_clamp="W2 24:22",
    source2_clamp="W2 27:25",
    scale="W2 30:28",
    opcode_high="W2 31:31",
    source2="W3 17:0",
    source2_abs="W3 18:18",
    displacement="W3 29:19",
    indexed_input="W3 30:30",
    perspective="W3 31:31",
)

FP_SOURCE_BITS = 18


@dataclass(frozen=True)
class SourceBits:
    """Pieces of one source operand value (VP 17 bits, FP 18 bits)."""

    type: BitField
    index: BitField
    half: BitField | None
    swizzle: BitField
    negate: BitField
    # VP swizzles keep x in the most significant pair, FP swizzles in the least significant.
    x_first_in_high_bits: bool

    def swizzle_lanes(self, value: int) -> tuple[int, int, int, int]:
        return swizzle_lanes_8bit(self.swizzle.extract(value), self.x_first_in_high_bits)

    def swizzle_raw(self, lanes: tuple[int, ...]) -> int:
        return swizzle_8bit(lanes, self.x_first_in_high_bits)


VP_SOURCE = SourceBits(type=bits("1:0"), index=bits("7:2"), half=None, swizzle=bits("15:8"),
                       negate=bits("16"), x_first_in_high_bits=True)
FP_SOURCE = SourceBits(type=bits("1:0"), index=bits("7:2"), half=bits("8"), swizzle=bits("16:9"),
                       negate=bits("17"), x_first_in_high_bits=False)

# CC swizzles use the same lane orders as the sources of their program kind.
IDENTITY = (0, 1, 2, 3)


def lanes_of_mask(raw: int, x_in_high_bit: bool) -> tuple[bool, bool, bool, bool]:
    """A 4-bit write mask as (x, y, z, w) flags."""
    flags = tuple(bool(raw >> bit & 1) for bit in range(4))
    return tuple(reversed(flags)) if x_in_high_bit else flags


def mask_of_lanes(flags: tuple[bool, ...], x_in_high_bit: bool) -> int:
    ordered = tuple(reversed(flags)) if x_in_high_bit else tuple(flags)
    return sum(1 << bit for bit, flag in enumerate(ordered) if flag)


def swizzle_lanes_8bit(raw: int, x_in_high_bits: bool) -> tuple[int, int, int, int]:
    lanes = tuple((raw >> (2 * position)) & 3 for position in range(4))
    return tuple(reversed(lanes)) if x_in_high_bits else lanes


def swizzle_8bit(lanes: tuple[int, ...], x_in_high_bits: bool) -> int:
    ordered = tuple(reversed(lanes)) if x_in_high_bits else tuple(lanes)
    return sum(lane << (2 * position) for position, lane in enumerate(ordered))
