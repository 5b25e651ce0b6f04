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
    """Unclaimed bits make the word a data item.

    With ``verify``, a word whose text reads back as other words is data too: the decoder
    parses the text it prints and compares the encodings. That catches every way a text can
    stand for several words — bits an ignored field holds, a form spelled like an earlier one
    (a duplicate opcode), an operand the parser reads as another form's (``0x0`` read as a
    register where an immediate form prints it) — at the cost of one parse per word.
    """

    verify: bool = False


@dataclass(frozen=True)
class Annotate:
    """Unclaimed bits (within ``mask``) are reported, the instruction is kept.

    By default the report holds every bit the text loses: bits no field claims and fields
    that differ from the value their form implies. With ``unclaimed_only`` it holds only the
    bits no field of the form covers (a conditional operand's predicate, an ignored field and
    an implied one count as covering theirs), as envydis reports unknown bits.

    ``fields`` names the fields a listing reports lost bits by (each bit in one of them, as
    ``#! field=value`` hints do); :data:`FEWEST_LOST` then prefers the alternative with the
    fewest such fields to report (the first among equals) rather than the fewest bits.
    """

    mask: int = -1
    fields: tuple[str, ...] = ()
    unclaimed_only: bool = False


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

    # What formed the bundles, for tools that explain a split (core.asm_hooks.bundle_check).
    bundles.group = group
    bundles.rank = rank
    return bundles
