"""Bundle formation (spec §2.1): which consecutive words of a flat program run together.

A word's unit is fixed by its opcode byte, and the units have a rank A=0 < S=1 < V=2 < B=3.
Starting from a word that begins a bundle, the next word joins the bundle iff its address is
not a multiple of 4 and its rank is strictly greater than the previous word's. A bundle is
therefore an increasing-rank run inside one aligned 4-word group.

This module owns that rule and the (A, S, V, B) slot view of a bundle; it knows nothing of what
the words do.
"""

from __future__ import annotations

ADDRESS, SCALAR, VECTOR, BRANCH = 0, 1, 2, 3
UNIT_LETTERS = "ASVB"
NOPS = (0xDFFFFFFF, 0x4FFFFFFF, 0xBFFFFFFF, 0xEFFFFFFF)  # anop, snop, vnop, bnop (§14.1)


def unit_of(word: int) -> int:
    """The unit rank of a word from its opcode byte (§1): 0x00–0x7f S, 0x80–0xbf V,
    0xc0–0xdf A, 0xe0–0xff B."""
    opcode = (word >> 24) & 0xFF
    if opcode < 0x80:
        return SCALAR
    if opcode < 0xC0:
        return VECTOR
    if opcode < 0xE0:
        return ADDRESS
    return BRANCH


def bundle_length(words, start: int) -> int:
    """How many words, from ``words[start]``, form the bundle that begins there (1–4)."""
    end = len(words)
    length = 1
    previous = unit_of(words[start])
    address = start + 1
    while address < end and address % 4 and unit_of(words[address]) > previous:
        previous = unit_of(words[address])
        length += 1
        address += 1
    return length


def bundle_starts(words, start: int = 0) -> list[int]:
    """The start address of every bundle when the words are read sequentially from ``start``."""
    starts = []
    address = start
    while address < len(words):
        starts.append(address)
        address += bundle_length(words, address)
    return starts


def slots(bundle) -> list[int | None]:
    """The words of a bundle by unit: ``[A, S, V, B]``, None for a unit without a word.
    ``bundle`` must have strictly increasing units (ValueError otherwise)."""
    result: list[int | None] = [None, None, None, None]
    previous = -1
    for word in bundle:
        unit = unit_of(word)
        if unit <= previous:
            raise ValueError("the words of a bundle must be in A, S, V, B order, one per unit: "
                             + " ".join(f"{word:08x}" for word in bundle))
        result[unit] = word
        previous = unit
    return result


def units_text(bundle) -> str:
    """The units of a bundle as letters, e.g. ``"ASV"``."""
    return "".join(UNIT_LETTERS[unit_of(word)] for word in bundle)
