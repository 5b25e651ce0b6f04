"""VP1's description in core's model: the fields of :mod:`.fields`, the operands of
:mod:`.operands` and the forms of the four units (:mod:`.forms_address`, :mod:`.forms_scalar`,
:mod:`.forms_vector`, :mod:`.forms_branch`), in two readings of the same table:

* :func:`envydis` — what envydis prints: every word a form matches is that form's text, and the
  unknown bits are reported as envydis does (only bits 0–7, only bits no field of the form covers;
  ``Instruction.unknown_bits``), ``unk11``/``unk12`` flag selects as unknown operands;
* :func:`listing` — what a listing may print as an instruction: only a word whose text assembles
  back to that word (envyas's canonical encoding, checked by reading the text back); any other
  word is a ``.word`` data item whose note holds its text.

Bundles form by the rule of §2.1 (:func:`~shaderkit.core.model.rank_runs`): an increasing run of
unit ranks (address 0, scalar 1, vector 2, branch 3, by opcode) inside an aligned 4-word group.
"""

from __future__ import annotations

from functools import cache

from ...core.model import AsData, Annotate, Description, Instruction, MOST_SPECIFIC, rank_runs
from . import forms_address, forms_branch, forms_scalar, forms_vector
from .fields import FIELDS
from .operands import OPERANDS

UNKNOWN_TEXT = "???"
# envydis examines only bits 0-7 for unused bits.
ENVYDIS_BITS = 0xff
UNITS = ("address", "scalar", "vector", "branch")


def unit_rank(opcode: int) -> int:
    """A=0 < S=1 < V=2 < B=3 (§1): the unit an opcode byte belongs to."""
    if opcode < 0x80:
        return 1
    if opcode < 0xc0:
        return 2
    if opcode < 0xe0:
        return 0
    return 3


def instruction_rank(instruction: Instruction) -> int:
    return unit_rank(instruction.words[0] >> 24) if instruction.words else 1


def forms():
    """Every form, in the order envyas's table has them (the first that reads a text wins)."""
    return [*forms_scalar.forms(), *forms_vector.forms(), *forms_address.forms(), *forms_branch.forms()]


def describe_unknown(word: int) -> str:
    return f"??? (opcode 0x{word >> 24:02x} has no VP1 instruction envydis decodes)"


def _description(name: str, policy) -> Description:
    return Description(name, word_bits=32, fields=FIELDS, operands=OPERANDS, forms=forms(), order=MOST_SPECIFIC,
                       unknown_bits=policy, bundles=rank_runs(4, instruction_rank),
                       describe_unknown=describe_unknown)


@cache
def envydis() -> Description:
    return _description("vp1", Annotate(mask=ENVYDIS_BITS, unclaimed_only=True))


@cache
def listing() -> Description:
    return _description("vp1", AsData(verify=True))
