"""Fields of an instruction: where bits live, and how their raw value reads as a number.

A :class:`Field` is a :class:`~shaderkit.core.bits.BitField` (pieces anywhere in the
instruction, most significant piece first) plus the transform between its *raw* bits and
the *value* an operand reads and prints:

* ``signed``: the raw bits are two's complement;
* ``scale``: the value is the raw number times ``scale`` (VP1 branch offsets count 4-word
  groups, ``sethi`` prints its half pre-shifted: scale 0x10000);
* ``relative_to``: the value is ``relative_to(address) + raw × scale``, a PC-relative
  target printed as an absolute address;
* ``default``: the raw value written when no operand sets the field (envyas writes 4 in
  VP1's bits 0–2 when no ``$c`` operand is given);
* ``in_place``: the value is the field's bits where they stand in the instruction (scattered
  bits a form keeps without a meaning, shown as one mask-like number).

Raw values are always the unsigned bits; :meth:`Field.value` and :meth:`Field.raw` convert,
and :meth:`Field.raw` says in words why a value does not fit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from ..bits import BitField, bits, sign_extend

__all__ = ["Field", "field", "in_word"]


@dataclass(frozen=True)
class Field:
    bits: BitField
    signed: bool = False
    scale: int = 1
    relative_to: Callable[[int], int] | None = None
    default: int | None = None
    in_place: bool = False

    @cached_property
    def width(self) -> int:
        return self.bits.width

    @cached_property
    def mask(self) -> int:
        return self.bits.mask

    @cached_property
    def _unsigned(self) -> BitField:
        return BitField(self.bits.pieces)

    @property
    def pieces(self) -> tuple[tuple[int, int], ...]:
        return self.bits.pieces

    @property
    def minimum(self) -> int:
        return (-(1 << (self.width - 1)) if self.signed else 0) * self.scale

    @property
    def maximum(self) -> int:
        return ((1 << (self.width - 1)) - 1 if self.signed else (1 << self.width) - 1) * self.scale

    def read(self, instruction_value: int) -> int:
        """The raw (unsigned) bits of this field in an instruction value."""
        if len(self.bits.pieces) == 1:
            msb, lsb = self.bits.pieces[0]
            return (instruction_value >> lsb) & ((1 << (msb - lsb + 1)) - 1)
        return self._unsigned.extract(instruction_value)

    def write(self, instruction_value: int, raw: int) -> int:
        return self._unsigned.insert(instruction_value, raw & ((1 << self.width) - 1))

    def value(self, raw: int, address: int = 0) -> int:
        """What the raw bits mean: signed, scaled, PC-relative as declared."""
        if self.in_place:
            return self._unsigned.insert(0, raw)
        number = sign_extend(raw, self.width) if self.signed else raw
        number *= self.scale
        return number + self.relative_to(address) if self.relative_to else number

    def raw(self, value: int, address: int = 0) -> int:
        """The raw bits for ``value``; ValueError (a user-facing sentence) when it cannot be encoded."""
        if self.in_place:
            if value < 0 or value & ~self.mask:
                raise ValueError(f"{value:#x} sets bits outside 0x{self.mask:x}")
            return self._unsigned.extract(value)
        offset = value - self.relative_to(address) if self.relative_to else value
        if offset % self.scale:
            what = "distance" if self.relative_to else "value"
            raise ValueError(f"{value} is not reachable: the {what} must be a multiple of {self.scale}")
        number = offset // self.scale
        low = -(1 << (self.width - 1)) if self.signed else 0
        high = (1 << (self.width - 1)) - 1 if self.signed else (1 << self.width) - 1
        if not low <= number <= high:
            if self.relative_to:
                raise ValueError(f"{value} is out of reach ({self.minimum} to {self.maximum} from here)")
            raise ValueError(f"{value} is out of range ({self.minimum} to {self.maximum})")
        return number & ((1 << self.width) - 1)


def field(layout: str | BitField, *, signed: bool | None = None, scale: int = 1,
          relative_to: Callable[[int], int] | None = None, default: int | None = None,
          in_place: bool = False) -> Field:
    """``field("23:9", signed=True, scale=4, relative_to=lambda pc: pc & ~3)``; ``layout`` as
    :func:`~shaderkit.core.bits.bits` reads it (pieces most significant first)."""
    layout_bits = layout if isinstance(layout, BitField) else bits(layout)
    signed = layout_bits.signed if signed is None else signed
    return Field(BitField(layout_bits.pieces), signed, scale, relative_to, default, in_place)


def in_word(word: int, msb: int, lsb: int | None = None, *, word_bits: int) -> str:
    """The layout text of bits ``msb:lsb`` of word ``word`` when word 0 is the least
    significant word of the instruction value (``in_word(1, 26, 24, word_bits=32)`` is
    ``"58:56"``, USSE's ``w1[26:24]``)."""
    lsb = msb if lsb is None else lsb
    return f"{word * word_bits + msb}:{word * word_bits + lsb}"


def as_field(declared: Field | BitField) -> Field:
    """Descriptions may list plain bit fields; they read as unscaled, absolute fields."""
    return declared if isinstance(declared, Field) else field(declared)
