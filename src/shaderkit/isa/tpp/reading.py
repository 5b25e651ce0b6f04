"""How TPP source lines become upload slots: the upstream flasher's reading and ours.

The upstream flasher (spec section 9) reads a program in a way of its own, and a program
written for it must upload the same words here. That reading is the default:

* a line whose first token starts with ``//`` is a NOP (0x0003) and takes a slot;
* the line ``##devMode##`` takes a slot (word 0x0000) and allows writes to RX/RY/RT/RR;
* every OUT line is left out of the upload (slot 19 outputs R0), except after ``##devMode##``,
  whose upload also sends a NOP (0x0000) to slot 19.

``.slots written``, anywhere in the program, chooses shaderkit's reading for the whole
program: OUT lines stay where they are written, comment lines and ``##devMode##`` take no slot.
``.slots upstream`` names the default. Where the two readings would upload different words, the
default reading warns at each line that makes the difference.

This module owns the line hook, the prescan and the ``.slots`` directive the assembler driver
calls, and :func:`upload_slots`, which turns an assembled program into the words its upload
sends to slots 0, 1, … (the image builder pads them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ...core.asm import Program
from ...core.asm_hooks import DirectiveCall
from ...core.diagnostics import Diagnostic, InputError, SourceError
from .spec import SPECIAL_WRITES

UPSTREAM = "upstream"
WRITTEN = "written"
READINGS = (UPSTREAM, WRITTEN)
DIRECTIVE = ".slots"
DEVMODE_LINE = "##devMode##"
COMMENT = "//"
COMMENT_LINE_STATEMENT = "NOP"  # 0x0003, what the upstream flasher assembles a comment line to
DEVMODE_STATEMENT = "NOPEQ"  # 0x0000, the word the upstream flasher sends for the ##devMode## line


def check_reading(name: str) -> str:
    if name not in READINGS:
        raise InputError(f"unknown TPP slot reading '{name}' (use {' or '.join(READINGS)})")
    return name


def prescanner(default: str = UPSTREAM):
    """The prescan: the reading a program chooses (its first well-formed ``.slots``), else ``default``."""
    check_reading(default)

    def prescan(statements: Sequence[str]) -> str:
        for text in statements:
            parts = text.split()
            if len(parts) == 2 and parts[0].lower() == DIRECTIVE and parts[1].lower() in READINGS:
                return parts[1].lower()
        return default
    return prescan


def read_line(text: str, reading: object) -> list[str] | None:
    """The statements a whole line stands for in ``reading`` (None: read it as written)."""
    stripped = text.strip()
    upstream = reading != WRITTEN
    if stripped == DEVMODE_LINE:
        return [f".allow {SPECIAL_WRITES}"] + ([DEVMODE_STATEMENT] if upstream else [])
    if upstream and stripped.startswith(COMMENT):
        return [COMMENT_LINE_STATEMENT]
    return None


def slots_directive(call: DirectiveCall) -> None:
    """``.slots upstream|written``: checked here; the prescan already chose the reading."""
    chosen = call.argument.strip().lower()
    if chosen not in READINGS:
        raise SourceError(f"'.slots' takes '{UPSTREAM}' or '{WRITTEN}', not '{call.argument.strip()}'",
                          1, max(1, len(call.argument.strip())))
    if chosen != call.prescanned:
        raise SourceError(f"'.slots {chosen}' contradicts the program's reading '{call.prescanned}' (an earlier "
                          "'.slots' line, or the default): one reading holds for the whole program", 1, len(chosen))


@dataclass
class UploadSlots:
    """Words for slots 0, 1, … (before padding) and the instruction each came from."""

    words: list[int] = field(default_factory=list)
    origins: list[int] = field(default_factory=list)  # instruction index of each word
    devmode: bool = False  # the upstream reading saw ##devMode##: slot 19 gets NOP

    @classmethod
    def of(cls, program: Program, indices: Sequence[int], devmode: bool = False) -> UploadSlots:
        slots = cls(devmode=devmode)
        for index in indices:
            for word in program.instructions[index].words:
                slots.words.append(word)
                slots.origins.append(index)
        return slots


def _line_of(program: Program, index: int) -> str:
    return program.statements[index].line.text.strip()


def from_comment_line(program: Program, index: int) -> bool:
    """Instruction ``index`` is the NOP the upstream reading made of a comment line."""
    return _line_of(program, index).startswith(COMMENT)


def is_out(instruction) -> bool:
    return not instruction.is_data and instruction.mnemonic.upper() == "OUT"


def upload_slots(program: Program) -> UploadSlots:
    """What the upload of ``program`` sends, in the reading it chose."""
    everything = range(len(program.instructions))
    if program.state.prescanned == WRITTEN:
        return UploadSlots.of(program, everything)
    devmode_from = next((index for index in everything if _line_of(program, index) == DEVMODE_LINE), None)
    kept = [index for index in everything
            if not (is_out(program.instructions[index]) and (devmode_from is None or index < devmode_from))]
    return UploadSlots.of(program, kept, devmode_from is not None)


def written_slots(program: Program) -> UploadSlots:
    """What the upload of a program read the upstream way would send with ``.slots written``."""
    return UploadSlots.of(program, [index for index in range(len(program.instructions))
                                    if not from_comment_line(program, index)
                                    and _line_of(program, index) != DEVMODE_LINE])


def reading_warnings(program: Program, upstream: UploadSlots, written: UploadSlots) -> list[Diagnostic]:
    """Warnings at each line that the upstream reading uploads differently from ``.slots
    written`` (call only when the two uploads differ)."""
    def slot_in(slots: UploadSlots, index: int) -> int:
        return slots.origins.index(index)

    warnings = []
    comment_lines = [index for index in dict.fromkeys(upstream.origins)
                     if from_comment_line(program, index)]
    if comment_lines:
        first = comment_lines[0]
        others = f" ({len(comment_lines)} comment lines in all)" if len(comment_lines) > 1 else ""
        warnings.append(program.diagnostic(first, (
            f"this comment line takes slot {slot_in(upstream, first)} as a NOP, as the upstream flasher reads "
            f"a line starting with '//'{others}; '.slots written' gives comment lines no slot"), "warning"))
    for index in dict.fromkeys(upstream.origins):
        if _line_of(program, index) == DEVMODE_LINE:
            warnings.append(program.diagnostic(index, (
                f"'##devMode##' takes slot {slot_in(upstream, index)} (word 0x0000) and keeps the OUT lines "
                "after it, as the upstream flasher reads it; '.slots written' gives it no slot"), "warning"))
    kept = set(upstream.origins)
    for index in range(len(program.instructions)):
        if index not in kept:
            warnings.append(program.diagnostic(index, (
                f"'{program.statements[index].text}' is left out of the upload, as the upstream flasher leaves out every "
                f"OUT line outside ##devMode## (slot 19 outputs R0); '.slots written' keeps it in slot "
                f"{slot_in(written, index)}"), "warning"))
    return warnings
