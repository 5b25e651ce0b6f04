"""The texture targets fragment assembly text gives its texture units (spec/rsx.md 3.7, 5.1).

The microcode has no bit for a texture instruction's target: ``TEX R0, f[TEX0], texture[0],
RECT;`` and ``…, 2D;`` assemble to the same words (CUBE only sets the perspective flag). Whether
a unit addresses its texture in texels (RECT) or across [0, 1) is the bound texture's state,
which a container records per unit as a ``samplerRECT`` parameter
(:func:`.image.with_rectangle_samplers`). This module reads, after the assembler's last pass,
which units the statements sample as a rectangle (``RECT``, ``SHADOWRECT``) and which otherwise
(any other target, or none written: 2D), and reports a unit sampled both ways, since a program
can record only one target per unit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from shaderkit.core.asm import Statement
from shaderkit.core.diagnostics import Diagnostic
from shaderkit.core.model.templates import split_operands

from . import syntax
from .instruction import Instruction

IMPLIED_TARGET = "2D"  # what a texture instruction without a target reads as (NV text)
_OPERAND_SEPARATOR = re.compile(",")


@dataclass(frozen=True)
class TextureTargets:
    """The texture units a program's texture instructions read, and those read as a rectangle."""

    units: frozenset[int] = frozenset()
    rectangle_units: frozenset[int] = frozenset()


def read_targets(statements: Iterable[tuple[Instruction, Statement]]) -> tuple[TextureTargets, list[Diagnostic]]:
    """The targets of the texture instructions among ``statements`` (each assembled instruction
    with the statement it came from), and an error at each statement that samples a unit the
    other way than the unit's first texture instruction does."""
    first: dict[int, tuple[bool, str, Statement]] = {}  # unit -> (rectangle, target, statement)
    problems = []
    for instruction, statement in statements:
        opcode = instruction.view.opcode
        if opcode is None or not opcode.texture:
            continue
        unit = instruction.view.texture_unit
        target, column, length = _written_target(statement)
        rectangle = target in syntax.RECTANGLE_TARGETS
        known_rectangle, known_target, known = first.setdefault(unit, (rectangle, target, statement))
        if rectangle != known_rectangle:
            line = statement.line
            where = (f"line {known.line.number}" if known.line.file == line.file
                     else f"{known.line.file}:{known.line.number}")
            problems.append(Diagnostic(
                line.file, line.number, column,
                f"texture unit {unit} is sampled as {target} here but as {known_target} on {where}; a unit has "
                "one texture target in a program (the microcode does not hold it, the container records one "
                "per unit)", "error", line.text, length))
    rectangles = frozenset(unit for unit, (rectangle, _, _) in first.items() if rectangle)
    return TextureTargets(frozenset(first), rectangles), problems


def _written_target(statement: Statement) -> tuple[str, int, int]:
    """The target a texture statement names (2D when it names none), with the column and length
    of the text to point at: the target, or the mnemonic when no target is written."""
    text = statement.text
    mnemonic = text.split(None, 1)[0] if text.strip() else ""
    operands = split_operands(text[len(mnemonic):], _OPERAND_SEPARATOR)
    if operands:
        last, column = operands[-1]
        written = last.strip()
        if written.upper() in syntax.TEXTURE_TARGETS:
            blank = len(last) - len(last.lstrip())
            return written.upper(), statement.column + len(mnemonic) + column - 1 + blank, len(written)
    return IMPLIED_TARGET, statement.column, max(1, len(mnemonic))
