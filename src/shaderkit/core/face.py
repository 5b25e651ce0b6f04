"""What every ISA object derives from its description: the generic face the CLI uses.

An ISA package subclasses :class:`DescribedIsa`, sets ``description`` (and usually
``assembler``) and adds what only it has: program images, machines, flashing.
"""

from __future__ import annotations

from collections.abc import Sequence

from .spec import Description, Instruction


class DescribedIsa:
    name: str
    word_bits: int
    byte_order: str = "big"
    description: Description

    def decode(self, words: Sequence[int], address: int = 0) -> Instruction:
        return self.description.decode(words, address)

    def encode(self, instruction: Instruction) -> tuple[int, ...]:
        return self.description.encode(instruction)

    def format(self, instruction: Instruction) -> str:
        return self.description.format(instruction)
