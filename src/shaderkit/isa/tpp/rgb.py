"""6-bit colours to 8-bit RGB, fast: the last step of both models' frames.

A frame is 640 × 480 colours; written out as RGB it is 921 600 bytes. Fancy indexing
(``palette[colours]``) takes milliseconds, ``np.take`` about half a millisecond: more than
the exact model needs to compute a frame. This converter is compiled and exploits what TPP
pictures look like: a scan line is usually the line above it again (ten lines per block
row), and so are most groups of four pixels in it. A repeated line is one copy of 1 920
bytes; a changed group of four pixels is three 32-bit stores from a 64-entry table of packed
RGB values.
"""

from __future__ import annotations

import sys

import numpy as np

from shaderkit.core.jit import jit

from ...render.images import palette_rgb6

__all__ = ["PACKED_PALETTE", "colours_to_rgb", "convert_line", "copy_line", "packed_palette"]

PIXELS_PER_GROUP = 4  # four RGB pixels are exactly three 32-bit words


def packed_palette() -> np.ndarray:
    """Byte → R | G << 8 | B << 16 of its low six bits (the byte order of RGB in a
    little-endian word). 256 entries, so that no byte reads outside the table; callers
    pass 6-bit colours (``to_rgb`` checks them)."""
    palette = palette_rgb6().astype(np.int64)[np.arange(256) & 63]
    return palette[:, 0] | palette[:, 1] << 8 | palette[:, 2] << 16


PACKED_PALETTE = packed_palette()


@jit(nogil=True, inline="always")
def convert_group(four, packed, words, group):
    """Four pixels' colours (one uint32) as three uint32 words of RGB at ``words[3 * group]``."""
    p0 = packed[four & 255]
    p1 = packed[(four >> 8) & 255]
    p2 = packed[(four >> 16) & 255]
    p3 = packed[(four >> 24) & 255]
    words[3 * group] = (p0 | (p1 << 24)) & 0xFFFFFFFF
    words[3 * group + 1] = ((p1 >> 8) | (p2 << 16)) & 0xFFFFFFFF
    words[3 * group + 2] = ((p2 >> 16) | (p3 << 8)) & 0xFFFFFFFF


@jit(nogil=True, inline="always")
def convert_line(groups, packed, words):
    """One line: ``groups`` its colours as uint32 (four pixels each), ``words`` its RGB as uint32."""
    for group in range(groups.size):
        convert_group(groups[group], packed, words, group)


@jit(nogil=True, inline="always")
def copy_line(source, target):
    for index in range(target.size):
        target[index] = source[index]


@jit(nogil=True)
def _convert(groups, lines, packed, words, long_words):
    """One frame. The colours come as ``groups`` (uint32, four pixels each) and ``lines``
    (uint64), the RGB frame as ``words`` (uint32, three per group) and ``long_words``
    (uint64): views made in Python (views made here cost most of this function's compile).
    """
    rows, line_longs = lines.shape
    for y in range(rows):
        row, here = groups[y], words[y]
        if y == 0:
            convert_line(row, packed, here)
            continue
        # The comparison ORs the XOR of every word, without an early exit: the loop vectorises.
        difference = 0
        for index in range(line_longs):
            difference |= lines[y, index] ^ lines[y - 1, index]
        if difference == 0:
            copy_line(long_words[y - 1], long_words[y])
            continue
        above_colours, above = groups[y - 1], words[y - 1]
        for group in range(row.size):
            four = row[group]
            if four == above_colours[group]:
                here[3 * group] = above[3 * group]
                here[3 * group + 1] = above[3 * group + 1]
                here[3 * group + 2] = above[3 * group + 2]
            else:
                convert_group(four, packed, here, group)


def _run(colours: np.ndarray, rgb_lines: np.ndarray) -> None:
    _convert(colours.view(np.uint32), colours.view(np.uint64), PACKED_PALETTE, rgb_lines.view(np.uint32),
             rgb_lines.view(np.uint64))


def _fast(colours: np.ndarray, out: np.ndarray) -> bool:
    return (sys.byteorder == "little" and colours.shape[1] % (2 * PIXELS_PER_GROUP) == 0
            and out.flags.c_contiguous and out.shape == (*colours.shape, 3))


def colours_to_rgb(colours: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """(H, W) uint8 colours 0-63 → (H, W, 3) uint8 RGB (each 2-bit channel c as 85·c), into ``out``."""
    colours = np.ascontiguousarray(colours, dtype=np.uint8)
    height, width = colours.shape
    if out is None:
        out = np.empty((height, width, 3), dtype=np.uint8)
    if not _fast(colours, out):
        np.take(palette_rgb6(), colours, axis=0, out=out)
        return out
    _run(colours, out.reshape(height, 3 * width))
    return out
