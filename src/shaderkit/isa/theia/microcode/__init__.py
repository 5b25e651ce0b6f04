"""shaderkit's default THEIA V1 microcode: THEIA assembly in this folder, assembled by our assembler.

The ROM image has two parts. Words 0..244 mirror the upstream ROM's size: at each
upstream default entry address (spec §5) a ``JMP`` leads to our routine, so the entry
tables of upstream ``Instructions.mem`` files work unchanged; the other words hold the
upstream "unused ROM" pattern. Our routines follow from address 245 (``rom.s``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ....core.asm import Assembler
from ..registers import UPSTREAM_ENTRY_ADDRESSES
from ..spec import description

FOLDER = Path(__file__).resolve().parent
UPSTREAM_ROM_WORDS = 245
UNUSED_ROM_WORD = 0x00FF_FFFF_FFFF_FFFF
ROM_CODE_START = UPSTREAM_ROM_WORDS


@dataclass(frozen=True)
class Rom:
    words: tuple[int, ...]
    symbols: dict[str, int]   # routine and label addresses of our microcode


@cache
def rom() -> Rom:
    theia = description()
    path = FOLDER / "rom.s"
    program = Assembler(theia).assemble(path.read_text(encoding="utf-8"), str(path), origin=ROM_CODE_START)
    words = [UNUSED_ROM_WORD] * UPSTREAM_ROM_WORDS
    for routine, address in UPSTREAM_ENTRY_ADDRESSES.items():
        (words[address],) = theia.encode(theia.parse(f"JMP {program.symbols[routine]}"))
    return Rom(tuple(words + program.words), dict(program.symbols))
