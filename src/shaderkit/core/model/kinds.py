"""Operand kinds: how one number reads and prints in assembly text.

A kind knows nothing of bits: :class:`Registers` maps numbers to names, :class:`Immediate`
reads expressions, :class:`CodeAddress` marks jump targets (listings print labels for them),
:class:`Choice` is a small enumeration such as a condition suffix. ISA packages add their
own kinds by subclassing :class:`OperandKind`. Parse errors are
:class:`~shaderkit.core.diagnostics.SourceError` with columns counted within the operand
text; names that are not known get a "did you mean" from :func:`suggest_for_undefined`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from ..diagnostics import SourceError
from ..expr import evaluate
from ..suggest import did_you_mean

__all__ = ["ParseContext", "OperandKind", "Registers", "Immediate", "CodeAddress", "Choice",
           "suggest_for_undefined"]


class ParseContext:
    """What a parser may consult: symbols, unlocked permissions, the pass, and the address."""

    def __init__(self, symbols: Mapping[str, int] | None = None, unlocked: set[str] | None = None,
                 final: bool = True, address: int = 0,
                 value_names: Mapping[str, Mapping[str, int]] | None = None):
        self.symbols = dict(symbols or {})
        # Names of operand values other than labels, by field: {"literal": {"c[0]": bits}}.
        self.value_names = {name: dict(values) for name, values in (value_names or {}).items()}
        self.unlocked = set(unlocked or ())
        # In the first pass of a two-pass assembly, symbols defined later read as 0.
        self.final = final
        # Where the statement being parsed will be placed (PC-relative fields need it).
        self.address = address
        # Words that may start a statement besides instructions (an assembler's directives):
        # candidates for "did you mean" after an unknown instruction.
        self.keywords: tuple[str, ...] = ()

    def lookup(self, name: str) -> int | None:
        if name in self.symbols:
            return self.symbols[name]
        return None if self.final else 0


class OperandKind:
    """Reads and prints one field value. ``parse`` raises SourceError (column within text).

    ``unknown`` holds values the kind prints but marks as unknown (envydis's ``unk11`` flag
    select): a decoded instruction showing one says so (``Instruction.unknown_operand``).
    """

    unknown: frozenset[int] = frozenset()

    def parse(self, text: str, context: ParseContext) -> int:
        raise NotImplementedError

    def format(self, value: int) -> str:
        raise NotImplementedError

    def can_format(self, value: int) -> bool:
        """Whether :meth:`format` can write ``value`` (else an operand shows its stand-in)."""
        return True

    def pattern(self) -> str:
        """Regular expression for this operand inside a token (used for mnemonic suffixes)."""
        return r".+?"

    def spellings(self) -> tuple[str, ...]:
        """The names this kind reads (register names, modifiers): candidates for "did you mean"."""
        return ()


_NAME = re.compile(r"[A-Za-z_.$][\w.$]*\Z")


def suggest_for_undefined(error: SourceError, text: str, context: ParseContext,
                          names: Sequence[str] = ()) -> SourceError:
    """``error`` with a "did you mean" added when it points at an undefined name in ``text``.

    The candidates are ``names`` and the symbols defined so far; the error is returned
    unchanged when the name it points at is defined (the problem is elsewhere) or
    nothing is close.
    """
    word = text[error.col - 1:error.col - 1 + error.length]
    if not _NAME.match(word) or context.lookup(word) is not None:
        return error
    hint = did_you_mean(word, [*names, *context.symbols])
    return SourceError(error.message + hint, error.col, error.length) if hint else error


@dataclass(frozen=True)
class Registers(OperandKind):
    """A register file: number → names, the canonical (printed) name first."""

    names: Mapping[int, tuple[str, ...]]
    case_sensitive: bool = False
    # How numbers without a name read and print (e.g. THEIA's 65,536 data addresses,
    # of which only some are named); None means only the names are valid.
    unnamed: OperandKind | None = None
    unknown: frozenset[int] = frozenset()

    @cached_property
    def _lookup(self) -> dict[str, int]:
        return {self._key(name): number for number, names in self.names.items() for name in names}

    def _key(self, name: str) -> str:
        return name if self.case_sensitive else name.upper()

    def parse(self, text: str, context: ParseContext) -> int:
        number = self._lookup.get(self._key(text.strip()))
        if number is not None:
            return number
        if self.unnamed is not None:
            try:
                return self.unnamed.parse(text, context)
            except SourceError as error:
                raise suggest_for_undefined(error, text, context, self.spellings()) from None
        hint = did_you_mean(text.strip(), self.spellings())
        # A near miss is worth more than the whole list; without one, the list helps.
        if not hint:
            hint = f" (expected one of {', '.join(names[0] for names in self.names.values())})"
        raise SourceError(f"unknown register '{text.strip()}'{hint}", 1, len(text))

    def spellings(self) -> tuple[str, ...]:
        return tuple(name for names in self.names.values() for name in names)

    def format(self, value: int) -> str:
        if value not in self.names and self.unnamed is not None:
            return self.unnamed.format(value)
        return self.names[value][0]

    def can_format(self, value: int) -> bool:
        return value in self.names or (self.unnamed is not None and self.unnamed.can_format(value))

    def pattern(self) -> str:
        return "|".join(re.escape(name) for names in self.names.values() for name in names)


@dataclass(frozen=True)
class Immediate(OperandKind):
    """A number written as an expression, with an optional prefix such as ``#``.

    With ``twos_complement`` (a width such as 64), a number of that width with its top bit set
    reads as the negative number it is in two's complement (``0xffffffffffffffff`` is -1, as
    envyas writes negative values), and with ``prints_twos_complement`` a negative value also
    prints that way (envydis's negative branch targets, ``0xffffffffffff57d4``).
    """

    prefix: str = ""
    radix: int = 10
    twos_complement: int = 0
    prints_twos_complement: bool = False

    def parse(self, text: str, context: ParseContext) -> int:
        body = text
        if self.prefix:
            if not text.startswith(self.prefix):
                raise SourceError(f"expected an immediate starting with '{self.prefix}', got '{text}'", 1, len(text))
            body = text[len(self.prefix):]
        try:
            value = evaluate(body, context.lookup)
        except SourceError as error:
            error = suggest_for_undefined(error, body, context)
            raise SourceError(error.message, error.col + len(self.prefix), error.length) from None
        width = self.twos_complement
        if width and 1 << (width - 1) <= value < 1 << width:
            value -= 1 << width
        return value

    def format(self, value: int) -> str:
        if value < 0 and self.prints_twos_complement and self.twos_complement:
            value += 1 << self.twos_complement
        if self.radix == 16:
            return f"{self.prefix}{'-' if value < 0 else ''}0x{abs(value):x}"
        return f"{self.prefix}{value}"


@dataclass(frozen=True)
class CodeAddress(Immediate):
    """A jump target: an expression (usually a label) that listings print as a label.

    With ``labels_only``, a target that the printer's label table lacks (one outside the
    program) is not printed as a number: its operand shows its stand-in instead.
    ``label_prefix`` is written before a label name (envyas's ``#name``); the parser reads a
    name with or without it.
    """

    labels_only: bool = False
    label_prefix: str = ""

    def parse(self, text: str, context: ParseContext) -> int:
        prefix = self.label_prefix
        if prefix and text.startswith(prefix) and _NAME.match(text[len(prefix):]):
            try:
                return super().parse(text[len(prefix):], context)
            except SourceError as error:
                raise SourceError(error.message, error.col + len(prefix), error.length) from None
        return super().parse(text, context)


@dataclass(frozen=True)
class Choice(OperandKind):
    """A small enumeration, e.g. a condition written as a mnemonic suffix ('' = default)."""

    names: Mapping[int, str]
    case_sensitive: bool = False
    unknown: frozenset[int] = frozenset()

    def parse(self, text: str, context: ParseContext) -> int:
        for value, name in self.names.items():
            if name == text or (not self.case_sensitive and name.upper() == text.upper()):
                return value
        hint = did_you_mean(text, self.spellings())
        if not hint:
            hint = f" (expected one of {', '.join(self.spellings())})"
        raise SourceError(f"unknown modifier '{text}'{hint}", 1, len(text))

    def spellings(self) -> tuple[str, ...]:
        return tuple(name for name in self.names.values() if name)

    def format(self, value: int) -> str:
        return self.names[value]

    def can_format(self, value: int) -> bool:
        return value in self.names

    def pattern(self) -> str:
        # Longest first so that a suffix never stops at a shorter prefix of another.
        return "|".join(re.escape(name) for name in sorted(self.names.values(), key=len, reverse=True))

    @property
    def default(self) -> int | None:
        return next((value for value, name in self.names.items() if name == ""), None)
