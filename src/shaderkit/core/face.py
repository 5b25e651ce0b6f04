"""What every ISA object derives from its description: the generic face the CLI and the tests use.

The face of an instruction set (what ``shaderkit.isa.get(name)`` returns for a name that
decodes bare words) is:

* ``name``, ``word_bits``, ``byte_order``, ``decodes_words`` (True here; a container-level
  object that cannot decode bare words says False), ``max_instruction_words`` (the most words
  one instruction takes) and ``permissions`` (the names ``.allow NAME`` unlocks in a source);
* ``decode(words, address=0)`` → an instruction with ``.form`` (the form's name), ``.fields``
  (field name → raw value), ``.length`` (words consumed) and ``.is_data``; it never raises for
  in-range words: what no form accepts, or a truncated instruction, is a data item;
* ``encode(instruction)`` → its words; ``format(instruction)`` → one statement of text;
  ``parse(text, allow=())`` → the instruction, with the permissions in ``allow`` granted
  (``parse(format(i), allow=permissions) == i`` for every decoded instruction);
* ``assemble(source)`` → an object with ``.words`` (and ``.image``, the program image
  ``machine`` takes); ``disassemble(words)`` → a listing that assembles back to the same words;
  ``machine(image)`` where the processor runs programs.

An ISA package subclasses :class:`DescribedIsa`, sets ``description`` (and usually
``assembler``) and adds what only it has: program images, machines, flashing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .asm import Program
from .model import Description, Instruction, ParseContext


@dataclass
class Assembled:
    """What ``assemble`` returns where the program image is more than the words: the
    assembler's program (statements, warnings) and the image it describes (what ``machine`` and
    the ISA's containers take)."""

    program: Program
    image: object

    @property
    def words(self) -> list[int]:
        return self.program.words

    @property
    def warnings(self):
        return self.program.warnings


class DescribedIsa:
    name: str
    word_bits: int
    byte_order: str = "big"
    description: Description
    decodes_words = True

    @property
    def max_instruction_words(self) -> int:
        return self.description.max_length

    @property
    def permissions(self) -> frozenset[str]:
        """What a source may unlock with ``.allow NAME`` (values an operand refuses otherwise)."""
        # Only plain operands can be refused a value; sub-tables and flag sets have no permission.
        unlocks = (getattr(operand, "unlock", None) for operand in self.description.operands.values())
        return frozenset(unlock for unlock in unlocks if unlock)

    def decode(self, words: Sequence[int], address: int = 0) -> Instruction:
        return self.description.decode(words, address)

    def encode(self, instruction: Instruction) -> tuple[int, ...]:
        return self.description.encode(instruction)

    def format(self, instruction: Instruction) -> str:
        return self.description.format(instruction)

    def parse(self, text: str, *, allow: Iterable[str] = ()) -> Instruction:
        """One statement; ``allow`` grants permissions as ``.allow`` lines do in a source."""
        return self.description.parse(text, ParseContext(unlocked=set(allow)))
