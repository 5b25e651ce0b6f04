"""The disassembler driver: words → instructions → a listing that re-assembles.

Every word is shown: what no form decodes becomes a ``.word`` line whose comment says
why. Addresses and the raw words go into a trailing comment, so a listing with
addresses is still valid assembler input and round-trips to the same words.
"""

from __future__ import annotations

from collections.abc import Sequence

from .spec import Description, Instruction

COMMENT = "//"
TEXT_COLUMN_WIDTH = 24


def disassemble(description: Description, words: Sequence[int], start_address: int = 0) -> list[Instruction]:
    instructions = []
    position = 0
    while position < len(words):
        instruction = description.decode(words[position:], start_address + position)
        instructions.append(instruction)
        position += max(1, len(instruction.words))
    return instructions


def listing(description: Description, instructions: Sequence[Instruction], *, addresses: bool = True) -> str:
    hex_digits = (description.word_bits + 3) // 4
    address_digits = max(2, len(f"{max((i.address for i in instructions), default=0):x}"))
    lines = []
    for instruction in instructions:
        text = description.format(instruction)
        remarks = []
        if addresses:
            raw = " ".join(f"{w:0{hex_digits}x}" for w in instruction.words)
            remarks.append(f"{instruction.address:0{address_digits}x}: {raw}")
        if instruction.note:
            remarks.append(instruction.note)
        if remarks:
            text = f"{text:<{TEXT_COLUMN_WIDTH}} {COMMENT} " + "  ".join(remarks)
        lines.append(text.rstrip())
    return "\n".join(lines) + ("\n" if lines else "")


def warnings(instructions: Sequence[Instruction]) -> list[str]:
    """One line per word that decoded to data, for the user's attention."""
    return [f"0x{i.address:x}: {i.note}" for i in instructions if i.is_data and i.note]
