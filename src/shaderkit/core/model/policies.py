"""Per-ISA policies of the description model that are not about one instruction.

* What to do with **unclaimed bits** (bits set that neither the form's fixed bits nor any
  field it reads cover): :data:`AS_DATA` turns the word into a ``.word`` data item whose note
  says what it would have been, so listings always re-assemble to the same words (TPP,
  THEIA); :class:`Annotate` prints the instruction and reports the bits (limited to ``mask``,
  as envydis only checks bits 0–7 for VP1) in ``Instruction.unknown_bits``.
* How the decoder picks among matching forms: :data:`MOST_SPECIFIC` (the form fixing the most
  bits; the forms must not share an encoding) or :data:`FIRST_MATCH` (table order, for ISAs
  whose reference decodes that way, like USSE).
* How an instruction stream falls into **bundles** when the text has no bundle syntax:
  :func:`rank_runs` (VP1: an increasing-rank run inside an aligned group of words).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .instruction import Instruction

__all__ = ["AS_DATA", "Annotate", "AsData", "MOST_SPECIFIC", "FIRST_MATCH", "rank_runs"]

MOST_SPECIFIC = "specific"
FIRST_MATCH = "first"


@dataclass(frozen=True)
class AsData:
    """Unclaimed bits make the word a data item."""


@dataclass(frozen=True)
class Annotate:
    """Unclaimed bits (within ``mask``) are reported, the instruction is kept."""

    mask: int = -1


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
