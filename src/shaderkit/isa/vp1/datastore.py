"""The VP1 data store: 8 KiB in 16 banks of 512 bytes, addressed through strides (spec §8.1).

This module owns the banked memory and every way the address unit reaches it: the translation
of a 13-bit byte address under a stride to a (bank, cell byte) pair, and the access shapes
built on it — horizontal and vertical 16-byte vectors, 4-byte scalars, and the raw per-bank
accesses of ``ldr``/``star``.

The bytes are kept in one ``bytearray`` in the layout of the golden vectors' ``ds_init.bin``:
the byte of bank ``b`` at cell-byte index ``k`` (0…511) is at offset ``16·k + b``, so the 16
bytes at ``16k…16k+15`` are "row k", one byte per bank. The banks are emulated, not an 8 KiB
flat array: the same program address names different bytes under different strides, which is
why :func:`offset` takes the stride.
"""

from __future__ import annotations

SIZE = 8192
BANKS = 16
ADDRESS_MASK = 0x1FFF  # program-visible byte addresses are 13 bits


def offset(address: int, stride: int) -> int:
    """Where the byte at program ``address`` lives under ``stride`` (0–3): ``16·k + bank``.

    ``k = address >> 4``; the bank is the low nibble rotated by a stride-dependent part of the
    higher bits, so that vertical accesses (steps of ``0x10 << stride`` bytes) touch 16
    different banks.
    """
    address &= ADDRESS_MASK
    if stride == 0:
        rotation = (address >> 5) & 7
    else:
        rotation = address >> (4 + stride)
    return (address & ~0xF) | ((address + rotation) & 0xF)


# offset and the one-element rules below are plain functions of integers, so the compiled loop
# (compiled_address.py) runs these very rules through Numba.

def horizontal_addresses(address: int) -> list[int]:
    """The 16 byte addresses of a horizontal vector access: the aligned row holding ``address``."""
    return [horizontal_address(address, i) for i in range(16)]


def horizontal_address(address: int, i: int) -> int:
    return (address & ADDRESS_MASK & ~0xF) + i


def vertical_addresses(address: int, stride: int) -> list[int]:
    """The 16 byte addresses of a vertical access: one byte every ``0x10 << stride`` bytes,
    starting from ``address`` with the 4 bits that count the steps cleared."""
    return [vertical_address(address, stride, i) for i in range(16)]


def vertical_address(address: int, stride: int, i: int) -> int:
    return (address & ADDRESS_MASK & ~(0xF << (4 + stride))) + i * (0x10 << stride)


def scalar_addresses(address: int) -> list[int]:
    """The 4 byte addresses of a scalar access: slot ``(address >> 2) & 3`` of the row."""
    return [scalar_address(address, n) for n in range(4)]


def scalar_address(address: int, n: int) -> int:
    address &= ADDRESS_MASK
    return (address & ~0xF) + 4 * ((address >> 2) & 3) + n


def raw_offset(address: int, index: int, bank: int) -> int:
    """Raw access (§8.1): bank ``bank`` at cell byte ``(address >> 4) | index``."""
    return 16 * ((((address & ADDRESS_MASK) >> 4) | index) & 0x1FF) + bank


class DataStore:
    """The 16 banks; :attr:`data` is the live ``bytearray`` in the golden files' layout."""

    __slots__ = ("data",)

    def __init__(self, image: bytes | bytearray | None = None):
        self.data = bytearray(SIZE)
        if image is not None:
            self.load(image)

    def load(self, image: bytes | bytearray) -> None:
        if len(image) != SIZE:
            raise ValueError(f"a VP1 data store image is {SIZE} bytes, not {len(image)}")
        self.data[:] = image

    def read(self, addresses: list[int], stride: int) -> list[int]:
        data = self.data
        return [data[offset(address, stride)] for address in addresses]

    def write_offsets(self, addresses: list[int], stride: int) -> list[int]:
        """The storage offsets a write of ``addresses`` under ``stride`` changes, in order."""
        return [offset(address, stride) for address in addresses]

    def raw_row_offsets(self, address: int, index: list[int] | None = None) -> list[int]:
        """Raw access (§8.1): component i is bank i at cell byte ``(address >> 4) | index[i]``
        (``ldr``; ``star`` has no index vector and uses the row itself)."""
        return [raw_offset(address, 0 if index is None else index[bank], bank) for bank in range(BANKS)]

    def read_offsets(self, offsets: list[int]) -> list[int]:
        data = self.data
        return [data[place] for place in offsets]
