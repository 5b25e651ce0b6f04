"""Instructions as values, and the forms they are instances of.

A :class:`Form` is one declared instruction: its template, the fields it fixes, its name,
its length in words and the bits it ignores. An :class:`Instruction` is a decoded or parsed
instance: its form's name, the raw value of every field it sets (``fields``), the numbers
of its plain operands (``values``) and, when it came from words, where and which.
A *data item* (``.word``) stands for words no form accepts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from .templates import PLACEHOLDER, Template, parse_template

__all__ = ["DATA", "Form", "form", "bit_pattern", "Instruction", "data_item", "named_forms"]

DATA = ".word"
_BLANKS = re.compile(r"\s+")


@dataclass(frozen=True)
class Form:
    """One instruction: its assembly template and the fields it fixes.

    ``name`` (default: the mnemonic, or the template where several forms share a mnemonic)
    is what instructions report as their ``form``; ``length`` is its size in words (default:
    the description's); ``ignore`` marks bits it does not read but that are no error when set.

    Fields its text does not show may still have a definite value:

    * ``implied`` — (field, expression) pairs: the value the assembler writes when the text
      sets no such field, computed from the other raw fields in order (``"0x7fc if 4 <= input
      <= 13 else 0"``, or a number). A decoded instruction whose field differs reports the
      differing bits as bits its text loses (the description's unknown-bit policy).
    * ``overrides`` — implied fields the form writes even where an operand's text set them
      (an operand partly overlaid by another's bits: a text showing both loses the first).
    * ``carries`` — fields the instruction holds that no text shows and no rule derives: a
      driver sets them from the program around it (an end-of-program bit, block offsets).
    * ``extra_words`` — an expression of the raw fields: words the instruction takes beyond
      ``length`` (a literal slot that follows whenever some source reads a constant).

    A ``spelling_only`` form is another way to write an instruction (an opcode's alternative
    name, a pseudo-instruction such as ``SUB a, b, c`` for ``ADD a, b, -c``): the parser reads
    it, the decoder never chooses it.

    ``pattern`` is a (mask, value) pair of bits the form fixes without naming them, beside
    ``fixed`` (a published bit-pattern table's ``0``/``1`` positions: see :func:`bit_pattern`).

    ``fields`` are the form's own fields (name → layout or :class:`~.fields.Field`), over the
    description's: forms whose bit layouts differ may name their fields alike (Mesa isaspec's
    per-bitset fields; the names of a reverse-engineered table, kept as its authors wrote them).

    A ``fallback`` form is a reading of last resort (an unknown opcode read as ``NOP``, an
    opcode the form only implies so that unnamed values read as an idle unit): the decoder
    consults it only when no other form matches, and then prefers the fallback that fixes the
    most bits, so a reading keeps whatever the bits do name.
    """

    template: str
    fixed: tuple[tuple[str, int], ...]
    name: str = ""
    length: int | None = None
    ignore: int = 0
    implied: tuple[tuple[str, str | int], ...] = ()
    carries: tuple[str, ...] = ()
    extra_words: str | int = 0
    fallback: bool = False
    overrides: tuple[str, ...] = ()
    spelling_only: bool = False
    fields: tuple[tuple[str, object], ...] = ()
    pattern: tuple[int, int] = (0, 0)

    @cached_property
    def parsed(self) -> Template:
        # Where the mnemonic ends does not depend on the operand separator.
        return parse_template(self.template, _BLANKS)

    @property
    def mnemonic(self) -> str:
        return self.parsed.mnemonic

    @property
    def placeholders(self) -> tuple[str, ...]:
        return tuple(found.group(1) for found in PLACEHOLDER.finditer(self.template))

    @property
    def optional(self) -> frozenset[str]:
        return frozenset(slot.name for slot in self.parsed.slots if slot.optional)

    @property
    def operand_text(self) -> str:
        """The template after the mnemonic token."""
        skip = len(self.parsed.prefixes) + 1
        words = self.template.split(None, skip)
        return words[skip] if len(words) > skip else ""


def form(template: str, *, name: str = "", length: int | None = None, ignore: int = 0,
         implied: Mapping[str, str | int] | None = None, carries: Sequence[str] = (),
         extra_words: str | int = 0, fallback: bool = False, overrides: Sequence[str] = (),
         spelling_only: bool = False, fields: Mapping[str, object] | None = None,
         pattern: tuple[int, int] = (0, 0), **fixed: int) -> Form:
    return Form(template, tuple(fixed.items()), name, length, ignore, tuple((implied or {}).items()),
                tuple(carries), extra_words, fallback, tuple(overrides), spelling_only, tuple((fields or {}).items()),
                pattern)


def bit_pattern(text: str) -> tuple[int, int]:
    """(mask, value) of a bit-pattern string written most significant bit first: ``0`` and ``1``
    are fixed bits, any other character (a field letter, ``-``) a free one."""
    mask = value = 0
    for character in text:
        mask, value = mask << 1 | (character in "01"), value << 1 | (character == "1")
    return mask, value


def named_forms(forms: Sequence[Form]) -> list[Form]:
    """``forms`` each with a name: its own, else its mnemonic, else (where forms share a
    mnemonic) its template."""
    mnemonics = [f.mnemonic for f in forms]
    return [f if f.name else replace(f, name=f.mnemonic if mnemonics.count(f.mnemonic) == 1 else f.template)
            for f in forms]


@dataclass(frozen=True)
class Instruction:
    """An immutable decoded or parsed instruction.

    Two instructions are equal when they mean the same thing: same form and same raw field
    values. ``values`` (plain operands by placeholder name), ``address``, ``words``,
    ``note``, ``unknown_bits`` (bits set that no field claims, where the description
    prints such words anyway) and ``unknown_operand`` (an operand shows a value its kind
    marks as unknown) describe it and where it came from, and do not count.
    """

    mnemonic: str
    raw: tuple[tuple[str, int], ...]
    declaration: Form | None = field(default=None, compare=False, repr=False)
    form: str = ""
    address: int = field(default=0, compare=False)
    words: tuple[int, ...] = field(default=(), compare=False)
    note: str = field(default="", compare=False)
    values: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    length: int = field(default=1, compare=False)
    unknown_bits: int = field(default=0, compare=False)
    # An operand shows a value its kind marks as unknown (envydis's "unk11" flag names).
    unknown_operand: bool = field(default=False, compare=False)

    @property
    def is_data(self) -> bool:
        return self.declaration is None

    @property
    def fields(self) -> Mapping[str, int]:
        """The raw value of every field the instruction sets, fixed fields included; a field
        whose name starts with ``_`` is the description's own (bits a form keeps without a
        meaning, so that its text reads back as its words) and not listed."""
        return {name: raw for name, raw in self.raw if not name.startswith("_")}

    def value(self, name: str) -> int:
        """The number of the plain operand ``name`` (signed, scaled and PC-relative fields as
        their operand reads them)."""
        return dict(self.values)[name]

    @property
    def operands(self) -> tuple[int, ...]:
        return tuple(value for _, value in self.values)


def data_item(words: Sequence[int], address: int = 0, note: str = "") -> Instruction:
    raw = tuple((f"word{index}", word) for index, word in enumerate(words))
    return Instruction(DATA, raw, None, DATA, address, tuple(words), note,
                       tuple(("value", word) for word in words), len(words))
