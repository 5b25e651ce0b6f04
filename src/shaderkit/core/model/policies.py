"""Per-ISA policies of the description model that are not about one instruction.

* What to do with **unclaimed bits** (bits set that neither the form's fixed bits nor any
  field it reads cover — and, as bits the text loses in the same way, fields that differ from
  the value their form implies and values an operand can only show as a stand-in): :data:`AS_DATA` turns the word into a ``.word`` data item whose note
  says what it would have been, so listings always re-assemble to the same words (TPP,
  THEIA); :class:`Annotate` prints the instruction and reports the bits (limited to ``mask``,
  as envydis only checks bits 0–7 for VP1) in ``Instruction.unknown_bits``.
* How the decoder picks among matching forms: :data:`MOST_SPECIFIC` (the form fixing the most
  bits; the forms must not share an encoding), :data:`FIRST_MATCH` (table order, for ISAs
  whose reference decodes that way, like USSE) or :data:`FEWEST_LOST` (forms may share an
  encoding as alternative spellings — an optional operand an assembler fills in from another,
  operands an opcode ignores but an assembler still encodes —; the decoder takes the matching
  form whose text loses the fewest bits, the first among equals, and a form whose words run
  past those at hand only when no other fits). Under every order, forms declared as
  ``fallback`` are consulted only when no other form matches, the one fixing most bits first.
* How an instruction stream falls into **bundles** when the text has no bundle syntax:
  :func:`rank_runs` (VP1: an increasing-rank run inside an aligned group of words).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .instruction import Instruction

__all__ = ["AS_DATA", "Annotate", "AsData", "MOST_SPECIFIC", "FIRST_MATCH", "FEWEST_LOST", "rank_runs"]

MOST_SPECIFIC = "specific"
FIRST_MATCH = "first"
FEWEST_LOST = "fewest lost"


@dataclass(frozen=True)
class AsData:
    """Unclaimed bits make the word a data item."""


@dataclass(frozen=True)
class Annotate:
    """Unclaimed bits (within ``mask``) are reported, the instruction is kept.

    ``fields`` names the fields a listing reports lost bits by (each bit in one of them, as
    ``#! field=value`` hints do); :data:`FEWEST_LOST` then prefers the alternative with the
    fewest such fields to report (the first among equals) rather than the fewest bits.
    """

    mask: int = -1
    fields: tuple[str, ...] = ()


AS_DATA = AsData()

Bundler = Callable[[Sequence[Instruction]], list[list[Instruction]]]


def rank_runs(group: int, rank: Callable[[Instruction], int]) -> Bundler:
    """Bundles as runs of strictly increasing ``rank`` that never cross an address that is a
    multiple of ``group`` (instructions are taken in order, by their ``address``)."""

    def bundles(instructions: Sequence[Instruction]) -> list[list[Instruction]]:
        result: list[list[Instruction]] = []
        for instruction in instructions:
            current = result[-1] if result else None
            if (current and instruction.address % group != 0
                    and instruction.address == current[-1].address + current[-1].length
                    and rank(instruction) > rank(current[-1])):
                current.append(instruction)
            else:
                result.append([instruction])
        return result

    return bundles
