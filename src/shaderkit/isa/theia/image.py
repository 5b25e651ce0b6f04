"""THEIA program images: the instruction RAM (entry table + user code) and its files.

The instruction RAM holds 512 64-bit words. Words 0..10 are the entry table, one per
routine (spec §5): the control unit jumps to the low 16 bits of an entry. User code
follows from word 11, so upstream labels are ``0x8000 | (index + 11)``.

An *image* here is that RAM content as a list of 64-bit words (table + code). It is
written in the generic containers (raw, hex, readmemh, …) or as the upstream
``Instructions.mem`` (format ``imem``, spec §7.5): a count word, then one
``HHHHHHHH LLLLLLLL`` line per 64-bit word. The count is written in hex, which is how
the RTL loader reads it (the upstream assembler prints it in decimal, which only makes
the loader over-send); when reading, its value is not trusted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ...core.diagnostics import InputError
from .registers import ENTRY_TABLE_SIZE, RAM_WORDS, ROUTINES, UPSTREAM_ENTRY_ADDRESSES

IMEM = "imem"
_ADDRESS_MASK = 0xFFFF


def default_entries() -> dict[str, int]:
    """Entry addresses of a program that overrides nothing: the upstream ROM defaults."""
    return dict(UPSTREAM_ENTRY_ADDRESSES)


def build_image(entries: Mapping[str, int], code: Sequence[int]) -> list[int]:
    """Entry table + code; raises InputError if the code does not fit the RAM."""
    if ENTRY_TABLE_SIZE + len(code) > RAM_WORDS:
        raise InputError(f"program too long: {len(code)} instructions, the instruction RAM holds "
                         f"{RAM_WORDS - ENTRY_TABLE_SIZE} after the entry table")
    return [entries[routine] & _ADDRESS_MASK for routine in ROUTINES] + list(code)


def looks_like_image(words: Sequence[int]) -> bool:
    """Whether ``words`` start with an entry table (11 words that are bare 16-bit addresses)."""
    return len(words) >= ENTRY_TABLE_SIZE and all(0 <= w <= _ADDRESS_MASK for w in words[:ENTRY_TABLE_SIZE])


def split_image(words: Sequence[int]) -> tuple[dict[str, int], list[int]]:
    """(entries, code) of an image."""
    return dict(zip(ROUTINES, words[:ENTRY_TABLE_SIZE])), list(words[ENTRY_TABLE_SIZE:])


def write_imem(words: Sequence[int]) -> bytes:
    lines = [f"{2 * len(words):x}"]
    lines += [f"{word >> 32:08x} {word & 0xFFFF_FFFF:08x}" for word in words]
    return ("\n".join(lines) + "\n").encode()


def read_imem(data: bytes, source: str) -> list[int]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{source}: not a text file (Instructions.mem is hex text)") from None
    tokens: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        tokens += [(number, token) for token in line.split("//", 1)[0].split()]
    if not tokens:
        raise InputError(f"{source}: empty Instructions.mem (expected a word count, then word pairs)")
    words = []
    for number, token in tokens:
        if not re.fullmatch(r"[0-9a-fA-F]{1,8}", token):
            raise InputError(f"{source}:{number}: '{token[:20]}' is not a 32-bit hex word")
        words.append(int(token, 16))
    body = words[1:]
    if len(body) % 2:
        raise InputError(f"{source}: {len(body)} words after the count: instructions need whole "
                         "high/low pairs")
    if len(body) // 2 > RAM_WORDS:
        raise InputError(f"{source}: {len(body) // 2} instructions, the instruction RAM holds {RAM_WORDS}")
    return [(body[i] << 32) | body[i + 1] for i in range(0, len(body), 2)]
