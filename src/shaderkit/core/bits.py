"""Bit fields: named ranges of an instruction value, possibly split into pieces.

An instruction of several words is handled as one integer (the words combined by
:func:`combine_words`), so a field may live in any word or straddle words, and a
field split over non-adjacent bits (VP1 ``BIMMMUL``, RSX source operands) is one
field with several pieces.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property


def sign_extend(value: int, width: int) -> int:
    sign_bit = 1 << (width - 1)
    return (value & (sign_bit - 1)) - (value & sign_bit)


@dataclass(frozen=True)
class BitField:
    """Pieces ``(msb, lsb)``, most significant piece of the field first."""

    pieces: tuple[tuple[int, int], ...]
    signed: bool = False

    @cached_property
    def width(self) -> int:
        return sum(msb - lsb + 1 for msb, lsb in self.pieces)

    @cached_property
    def mask(self) -> int:
        mask = 0
        for msb, lsb in self.pieces:
            mask |= ((1 << (msb - lsb + 1)) - 1) << lsb
        return mask

    @property
    def minimum(self) -> int:
        return -(1 << (self.width - 1)) if self.signed else 0

    @property
    def maximum(self) -> int:
        return (1 << (self.width - 1)) - 1 if self.signed else (1 << self.width) - 1

    def fits(self, field_value: int) -> bool:
        return self.minimum <= field_value <= self.maximum

    def extract(self, value: int) -> int:
        result = 0
        for msb, lsb in self.pieces:
            piece_width = msb - lsb + 1
            result = (result << piece_width) | ((value >> lsb) & ((1 << piece_width) - 1))
        return sign_extend(result, self.width) if self.signed else result

    def insert(self, value: int, field_value: int) -> int:
        if not self.fits(field_value):
            raise ValueError(f"{field_value} does not fit in {self.width} bits")
        raw = field_value & ((1 << self.width) - 1)
        shift = self.width
        for msb, lsb in self.pieces:
            piece_width = msb - lsb + 1
            shift -= piece_width
            piece = (raw >> shift) & ((1 << piece_width) - 1)
            value = (value & ~(((1 << piece_width) - 1) << lsb)) | (piece << lsb)
        return value


_RANGE = re.compile(r"^\s*(\d+)\s*(?::\s*(\d+))?\s*$")


def bits(layout: str, signed: bool = False) -> BitField:
    """``bits("10:8")``, ``bits("5")``, ``bits("13:9,0")`` (pieces most significant first)."""
    pieces = []
    for part in layout.split(","):
        match = _RANGE.match(part)
        if not match:
            raise ValueError(f"bad bit range {part!r}")
        msb = int(match.group(1))
        lsb = int(match.group(2)) if match.group(2) is not None else msb
        if lsb > msb:
            raise ValueError(f"bit range {part!r} must be written msb:lsb")
        pieces.append((msb, lsb))
    return BitField(tuple(pieces), signed)


def combine_words(words: Sequence[int], word_bits: int, first_is_most_significant: bool = True) -> int:
    """Several words as one instruction value."""
    ordered = words if first_is_most_significant else reversed(words)
    value = 0
    for word in ordered:
        value = (value << word_bits) | word
    return value


def split_words(value: int, count: int, word_bits: int, first_is_most_significant: bool = True) -> tuple[int, ...]:
    word_mask = (1 << word_bits) - 1
    words = [(value >> (word_bits * index)) & word_mask for index in range(count)]
    return tuple(reversed(words)) if first_is_most_significant else tuple(words)
