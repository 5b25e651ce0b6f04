"""The fields of the 128-bit RSX instructions as the machines, views and hints name them,
read from the instruction descriptions (spec/rsx.md sections 2.2–2.6 and 3.2–3.5).

A :class:`Layout` is one description's partition of an instruction's four normalised words
(:mod:`shaderkit.isa.rsx.container`) into named fields: the fields of its ``#!`` hints, which
cover every bit exactly once, so a field dictionary holds an instruction completely and decoding
and encoding are exact for any four words. The bit positions are declared once, in
:mod:`.description_vertex` and :mod:`.description_fragment`; fields the text syntax cannot
show (padding, don't-care bits that compilers fill in their own way) are fields there too.

Operand fields are composite: a VP source is 17 bits gathered from three words, an FP source the
low 18 bits of its word. :class:`SourceBits` names the pieces inside such a value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shaderkit.core.bits import BitField, bits
from shaderkit.core.model import Description

from .description_fragment import FRAGMENT
from .description_fragment import HINT_FIELDS as FRAGMENT_FIELDS
from .description_vertex import HINT_FIELDS as VERTEX_FIELDS
from .description_vertex import VERTEX

WORD_BITS = 32
INSTRUCTION_WORDS = 4
_WORD_MASK = (1 << WORD_BITS) - 1


class Layout:
    """The fields ``names`` of ``description`` over one instruction's four words (word 0 the
    least significant); together they must hold every bit once."""

    def __init__(self, description: Description, names: Sequence[str]):
        self.fields = {name: description.fields[name] for name in names}
        claimed = 0
        for name, declared in self.fields.items():
            if claimed & declared.mask:
                raise ValueError(f"{description.name}: {name} overlaps another field")
            claimed |= declared.mask
        if claimed != (1 << (WORD_BITS * INSTRUCTION_WORDS)) - 1:
            raise ValueError(f"{description.name}: a bit belongs to no field")

    @staticmethod
    def _value(words: Sequence[int]) -> int:
        return sum((word & _WORD_MASK) << (WORD_BITS * index) for index, word in enumerate(words[:INSTRUCTION_WORDS]))

    def extract(self, words: tuple[int, ...], name: str) -> int:
        return self.fields[name].read(self._value(words))

    def decode(self, words: tuple[int, ...]) -> dict[str, int]:
        value = self._value(words)
        return {name: declared.read(value) for name, declared in self.fields.items()}

    def encode(self, values: dict[str, int]) -> tuple[int, ...]:
        value = 0
        for name, declared in self.fields.items():
            raw = values.get(name, 0)
            if not 0 <= raw < (1 << declared.width):
                raise ValueError(f"field {name} value {raw} does not fit in {declared.width} bits")
            value = declared.write(value, raw)
        return tuple((value >> (WORD_BITS * index)) & _WORD_MASK for index in range(INSTRUCTION_WORDS))

    def width(self, name: str) -> int:
        return self.fields[name].width

    def word_pieces(self, name: str) -> list[tuple[int, int, int]]:
        """(word, high bit, low bit) of each piece of a field, most significant first."""
        found = []
        for high, low in self.fields[name].pieces:
            word = low // WORD_BITS
            found.append((word, high - WORD_BITS * word, low - WORD_BITS * word))
        return found


VP = Layout(VERTEX, VERTEX_FIELDS)
# The literal slot that may follow is data, not a field of the instruction's four words.
FP = Layout(FRAGMENT, [name for name in FRAGMENT_FIELDS if name != "literal"])

VP_SOURCE_BITS = 17
VP_NO_TEMP = 0x3F
VP_NO_OUTPUT = 0x1F

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
