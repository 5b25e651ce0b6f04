"""The rev-B ROM bitmaps (FH, HSD, TT, Credits, FlagP, ESE) and the colours ROM ops produce.

The bitmaps are package data (``roms.txt``, converted from the upstream RTL, Apache-2.0):
six blocks ``ROM <mnemonic> <opcode>`` of 48 rows, each a 64-bit hex row value whose bit
RX is the dekapixel (RX, RY); 0 is ink, 1 is background.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import numpy as np

ROM_ROWS = 48
ROM_COLUMNS = 64


@cache
def rom_bitmaps() -> dict[str, np.ndarray]:
    """Mnemonic → (48, 64) uint8 array of bits indexed [RY, RX] (0 = ink)."""
    text = resources.files(__package__).joinpath("roms.txt").read_text(encoding="ascii")
    bitmaps: dict[str, np.ndarray] = {}
    for block in text.strip().split("\n\n"):
        header, *rows = block.strip().splitlines()
        _, mnemonic, _opcode = header.split()
        assert len(rows) == ROM_ROWS, f"ROM {mnemonic}: {len(rows)} rows"
        values = np.array([int(row, 16) for row in rows], dtype=np.uint64)
        columns = np.arange(ROM_COLUMNS, dtype=np.uint64)
        bitmaps[mnemonic] = ((values[:, None] >> columns[None, :]) & np.uint64(1)).astype(np.uint8)
    return bitmaps


def rom_opcodes() -> dict[str, int]:
    """Mnemonic → opcode, as the data file's headers state them."""
    text = resources.files(__package__).joinpath("roms.txt").read_text(encoding="ascii")
    return {line.split()[1]: int(line.split()[2]) for line in text.splitlines() if line.startswith("ROM ")}


def ink_colour(mnemonic: str, ry):
    """Colour written for an ink pixel: FH's logo is red above row 27, black below."""
    if mnemonic == "FH":
        return np.where(ry < 27, 48, 0)
    return 0


def background_colour(mnemonic: str, rx, ry):
    """Colour written for a background pixel: FlagP paints a grey flag cloth."""
    if mnemonic == "FlagP":
        inside_cloth = (ry > 9) & (ry < 30) & (rx > 16) & (rx < 53)
        return np.where(inside_cloth, 42, 63)
    return 63


@cache
def rom_colour_table(mnemonic: str) -> np.ndarray:
    """(64, 64) uint8 colour indexed [RY, RX] for every 6-bit RY.

    Rows 48–63 lie outside the 48-row ROM (undefined in the RTL); we read them as
    background so a stray RY gives a visible, deterministic result, and the exact
    model reports such reads.
    """
    ry, rx = np.meshgrid(np.arange(64), np.arange(64), indexing="ij")
    bits = np.ones((64, 64), dtype=np.uint8)
    bits[:ROM_ROWS] = rom_bitmaps()[mnemonic]
    colour = np.where(bits == 0, ink_colour(mnemonic, ry), background_colour(mnemonic, rx, ry))
    return colour.astype(np.uint8)
