"""What an ISA may add to the assembler driver, and the text tools the driver uses for it.

An :class:`~shaderkit.core.asm.Assembler` reads any described ISA. Assembly languages differ
beyond their instructions, and these hooks carry the differences:

* **several statements on a line**, cut at a ``statement_separator`` (``MOV R0, R1; ADD R2, R0,
  R1;``) outside brackets — :func:`split_statements`; with ``terminated``, every statement must
  end with it except those starting with a word listed there (``END``);
* **directives** of the ISA's own (``TEMP``, ``PARAM``, ``.align``): a handler receives a
  :class:`DirectiveCall` and may define constants, declare **aliases** (a name that stands for
  text, as ``TEMP color;`` names a register) and keep state across the pass;
* **macros**: a mnemonic whose handler returns the statements it stands for (``SUB a, b, c`` →
  ``ADD a, b, -c``), and which may create and place labels, so block keywords (``IF``/``ELSE``/
  ``ENDIF``) resolve to offsets through the assembler's ordinary two passes. A handler that
  returns None leaves the statement as written; either way it may set **carried fields** of
  the first instruction the statement yields (fields no text shows, such as a block's end
  offset) from an expression evaluated once every label is known;
* **comment directives**: a comment whose first word is one of the ISA's keywords (``#const
  c[0] = 1``) is handed to that keyword's handler as a directive, while other assemblers, and
  the rest of the driver, read it as a comment;
* **field overrides**: text after a marker (``#! end=1``) ends the statement; the ISA reads it
  into raw field values, which replace the parsed ones before encoding (the macro handler of
  the statement sees the text too, as ``hints``; an override that adds words moves what
  follows). On a line with no statement, the marker may start an ``override_directive``
  (``#! trailing …``);
* **value names** (``value_names(final)``, once per pass): names of operand values by field
  (``{"literal": {"c[0]": bits}}``), which the parser reads as those values;
* **address units**: ``words_per_address`` words make one address (a 4-word slot);
* **a prescan** that reads the text of every statement (after comments, labels and overrides are
  cut off; macros unexpanded, aliases not substituted) once, before the first pass, and returns
  what the handlers read as ``prescanned``: facts about the whole program that a statement
  needs before the later statements are reached (a declared name takes a register that no
  statement anywhere names);
* **a check** after the last pass, run whether or not it found errors (its :class:`CheckCall`
  says which), that returns diagnostics — errors, or warnings that leave the program assembled —
  placed at an instruction's statement, a label's or constant's definition, or the end of the
  source (a missing end statement, a block never closed, a machine limit);
* **a finish step** that sees the whole program once the last pass is done without errors, and
  may set fields of an instruction (an end-of-program bit on the last one) or append data words.

Errors a handler raises are :class:`~shaderkit.core.diagnostics.SourceError` with columns
counted in the text it was given; the driver places them in the source line. An error inside a
macro's expansion points at the macro statement and says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .diagnostics import Diagnostic, SourceError
from .model import Instruction, data_item
from .model.templates import split_operands

if TYPE_CHECKING:
    from .asm import Program, Statement

__all__ = ["CheckCall", "DirectiveCall", "FinishCall", "MacroCall", "bundle_check", "split_statements",
           "substitute_aliases"]


@dataclass
class PassState:
    """What hooks share during one pass over the source: the aliases declared so far, a
    free-form ``data`` dict for the ISA, a counter for generated label names, and what the
    prescan returned (the same in every pass)."""

    aliases: dict[str, str] = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    generated: int = 0
    prescanned: object = None


@dataclass
class _Call:
    name: str  # the directive or mnemonic, as written
    argument: str  # the text after it
    address: int  # where the next instruction goes
    final: bool  # False in the first pass (labels are not all known)
    state: PassState
    _define: Callable[[str, int], None]

    def define(self, name: str, value: int) -> None:
        """Define a constant (or label) ``name`` = ``value``."""
        self._define(name, value)

    def alias(self, name: str, text: str) -> None:
        """From here on, the word ``name`` in a statement stands for ``text``."""
        self.state.aliases[name] = text

    @property
    def data(self) -> dict:
        return self.state.data

    @property
    def prescanned(self) -> object:
        """What the prescan returned (None without one)."""
        return self.state.prescanned

    @property
    def operands(self) -> list[str]:
        """The argument cut at commas outside brackets."""
        return [text for text, _ in split_operands(self.argument, re.compile(r"\s*,\s*"))]


class DirectiveCall(_Call):
    """A directive statement handed to the ISA's handler (columns in ``argument`` count from 1)."""


@dataclass
class MacroCall(_Call):
    """A macro statement handed to the ISA's handler, which returns the statements it stands
    for (None: the statement itself). ``hints`` is the text after the line's override marker."""

    hints: str = ""
    carried: dict[str, str] = field(default_factory=dict)

    def carry(self, field_name: str, expression: str) -> None:
        """Set carried field ``field_name`` of the first instruction the statement yields to
        ``expression`` (labels included), evaluated in the final pass."""
        self.carried[field_name] = expression

    def unique_label(self, stem: str) -> str:
        """A fresh label name, the same in both passes (names starting ``__`` are the
        generator's: a source that uses them may collide)."""
        self.state.generated += 1
        return f"__{stem}{self.state.generated}"

    def place(self, name: str) -> None:
        """Define label ``name`` at the address of the next instruction."""
        self._define(name, self.address)


@dataclass
class FinishCall:
    """The assembled program handed to the ISA's finish step, with the final pass's state."""

    program: Program
    state: PassState
    _with_fields: Callable[[Instruction, Mapping[str, int]], Instruction]
    _closing: Statement  # where words appended after the last instruction are reported

    def set_fields(self, index: int, values: Mapping[str, int]) -> None:
        """Set raw fields of instruction ``index`` and encode it again."""
        self.program.instructions[index] = self._with_fields(self.program.instructions[index], values)

    def append_words(self, words: Sequence[int], note: str = "") -> None:
        """Append ``words`` after the last instruction, as a data item of the source's last line."""
        instructions = self.program.instructions
        address = instructions[-1].address + len(instructions[-1].words) if instructions else self._closing.address
        instructions.append(data_item(tuple(words), address, note))
        self.program.statements.append(replace(self._closing, address=address, size=len(words)))


@dataclass
class CheckCall:
    """The program after the last pass, handed to the ISA's check with that pass's state.
    ``clean`` is False if the passes found errors (a check may then stay silent about what
    they explain, such as a missing end after a statement that failed to parse). Build the
    diagnostics to return with ``program.diagnostic`` (at an instruction's statement),
    ``program.definition_diagnostic`` (at a label or constant) or :meth:`at_end`."""

    program: Program
    state: PassState
    clean: bool
    _closing: Statement  # the source's last line

    def at_end(self, message: str, severity: str = "error") -> Diagnostic:
        """A diagnostic at the start of the source's last line."""
        line = self._closing.line
        return Diagnostic(line.file, line.number, 1, message, severity, line.text, 1)


def bundle_check(description, unit_names: Sequence[str], largest: int | None = None) -> CheckHandler:
    """A check that warns where statements written as one bundle run as several.

    Where the words carry no bundle syntax and bundles form by a rule (the description's
    :func:`~shaderkit.core.model.rank_runs`), a source cannot say which words it means to issue
    together; this check reads intent from the layout. Statements on consecutive source lines,
    with no blank line, comment line or label line between them, form a *block*; a block of two
    to ``largest`` (the group size) statements of distinct units is meant as one bundle. Where the
    rule splits such a block, a warning at the first statement of each later bundle says why:
    the group boundary it crosses, or a unit that cannot follow the one before it
    (``unit_names`` name the ranks, lowest first). A longer block, or one repeating a unit, is
    ordinary sequential code and is never warned about.
    """
    group, rank = description.bundles.group, description.bundles.rank
    largest = largest or group

    def check(call: CheckCall) -> Iterable[Diagnostic]:
        program = call.program
        blocks: list[list[int]] = []
        for index, statement in enumerate(program.statements):
            if blocks:
                previous = program.statements[blocks[-1][-1]]
                same_block = (statement.line.file == previous.line.file
                              and statement.line.number - previous.line.number in (0, 1))
                if same_block:
                    blocks[-1].append(index)
                    continue
            blocks.append([index])
        for block in blocks:
            instructions = [program.instructions[index] for index in block]
            ranks = [rank(instruction) for instruction in instructions]
            if not 2 <= len(block) <= largest or len(set(ranks)) != len(ranks):
                continue
            position = 0
            for bundle in description.group(instructions)[:-1]:
                position += len(bundle)
                before, after = bundle[-1], instructions[position]
                if after.address % group == 0:
                    why = (f"address 0x{after.address:x} begins an aligned group of {group} words, "
                           "which a bundle never crosses")
                else:
                    why = (f"{_article(unit_names[rank(after)])} instruction cannot follow {_article(unit_names[rank(before)])} "
                           f"one in a bundle (units go {', '.join(unit_names)})")
                yield program.diagnostic(block[position], f"this starts a new bundle, although written as one "
                                                          f"with the line above: {why}", "warning")

    return check


def _article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


DirectiveHandler = Callable[[DirectiveCall], None]
MacroHandler = Callable[[MacroCall], "list[str] | None"]
FinishHandler = Callable[[FinishCall], None]
# Reads the text of every statement, in source order, into what handlers see as ``prescanned``.
PrescanHandler = Callable[[Sequence[str]], object]
CheckHandler = Callable[[CheckCall], Iterable[Diagnostic]]
# The names of operand values in one pass (called with ``final``): field → name → value.
ValueNames = Callable[[bool], Mapping[str, Mapping[str, int]]]
# Reads the text after the override marker into raw field values (SourceError columns count in
# that text).
OverrideReader = Callable[[str], Mapping[str, int]]


def split_statements(text: str, separator: str | None) -> list[tuple[str, int]]:
    """The statements of one line's code as (text, column); a trailing separator ends the last."""
    if not separator:
        return [(text.strip(), 1 + len(text) - len(text.lstrip()))] if text.strip() else []
    pieces = split_operands(text, re.compile(re.escape(separator)))
    return [(piece.strip(), column + len(piece) - len(piece.lstrip()))
            for piece, column in pieces if piece.strip()]


_WORD = re.compile(r"[A-Za-z_][\w]*")


def substitute_aliases(text: str, aliases: dict[str, str]) -> tuple[str, Callable[[int], int]]:
    """``text`` with every whole-word alias replaced, and a function from a column of the
    result back to a column of ``text`` (inside a replacement: the alias's own column), so
    errors still point at what the user wrote."""
    if not aliases:
        return text, lambda column: column
    pieces: list[str] = []
    origins: list[int] = []  # result position → original position
    position = 0
    for found in _WORD.finditer(text):
        if found.group() not in aliases or (found.start() and text[found.start() - 1] in ".$#"):
            continue
        pieces.append(text[position:found.start()])
        origins.extend(range(position, found.start()))
        replacement = aliases[found.group()]
        pieces.append(replacement)
        origins.extend([found.start()] * len(replacement))
        position = found.end()
    pieces.append(text[position:])
    origins.extend(range(position, len(text) + 1))
    result = "".join(pieces)

    def original_column(column: int) -> int:
        index = min(max(column - 1, 0), len(origins) - 1)
        return origins[index] + 1

    return result, original_column


def expansion_error(mnemonic: str, error: SourceError) -> str:
    return f"in the expansion of '{mnemonic}': {error.message}"
