"""Single RSX instructions through the generic face of an instruction set (``rsx-vp``, ``rsx-fp``).

This module owns the adapter between the RSX toolchain (whole programs: :mod:`.instruction`,
:mod:`.printer`, :mod:`.disassembler`; statements through the descriptions of
:mod:`.description_vertex` and :mod:`.description_fragment`) and the per-instruction face every
ISA object offers: ``decode``, ``encode``, ``format`` and ``parse``.

**Words.** A word is a *normalised* 32-bit word, the representation every other RSX module
works on and the ``.words.txt`` goldens, hex word files and listing comments show: a vertex
instruction is D0..D3 read big-endian from memory; a fragment instruction is W0..W3, each read
big-endian with its 16-bit halves swapped (:data:`.container.UCODE_BYTE_ORDER`), so its fields
sit where spec/rsx.md section 3 puts them. The stored byte order is only a matter of the files.

**Lengths.** An instruction is 4 words; a fragment instruction that reads a constant is
followed by its 4-word literal slot and takes 8 (``.length``). Fewer words than that decode to
a data item (``.is_data``), so decoding never raises.

**Standalone text.** ``format`` writes the statement a program listing has for the
instruction, made to stand alone: an FP literal is written inline (``{0.5, 1, 0, 2}``, exact
bits), LOOP/REP counts inline (``LOOP {3, 0, 1, 0}``), a branch or call target as ``L<slot>``
(the label a listing gives that slot), and what the text cannot show by itself — the end bit,
IF/LOOP end offsets (which a program gets from its ELSE/ENDIF lines), don't-care bits — as
``#!`` hints, exactly as the disassembler does. ``parse`` reads that text with the same
conventions through the description, the hints written over the built instruction (core's
field overrides); an FP statement the assembler expands to several instructions (POW, LRP …
without ``#! native``, the rule of :mod:`.assembly_macros`) is refused, and VP POW / LRP are no
instruction of the description.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from shaderkit.core.asm import Assembler
from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model import ParseContext

from . import fields as layout
from . import syntax
from .assembly_hints import is_native, read_hints
from .assembly_macros import NATIVE_MISPLACED, instruction_expands_unless_native, native_applies, refusal
from .container import ProgramKind
from .description_fragment import FRAGMENT
from .description_vertex import VERTEX
from .printer import TARGET_SLOTS, EverySlot, Spelling, statement_line
from .instruction import Instruction, fragment_has_literal

DESCRIPTIONS = {ProgramKind.VERTEX: VERTEX, ProgramKind.FRAGMENT: FRAGMENT}

DATA = ".word"
LITERAL_WORDS = 4
LITERAL_FIELDS = ("literal_x", "literal_y", "literal_z", "literal_w")


@dataclass(frozen=True)
class RsxInstruction:
    """One instruction as the face sees it: its words (4, or 8 with an FP literal slot).

    An RSX instruction *is* its words (every bit belongs to a field), so two instructions are
    equal when their kind and words are; ``address`` (the slot) and ``note`` do not count.
    """

    kind: ProgramKind
    words: tuple[int, ...]
    is_data: bool = False
    address: int = field(default=0, compare=False)
    note: str = field(default="", compare=False)

    @property
    def length(self) -> int:
        return len(self.words)

    @property
    def literal(self) -> tuple[int, ...] | None:
        return self.words[layout.INSTRUCTION_WORDS:] or None

    @cached_property
    def program_instruction(self) -> Instruction:
        """The instruction as the rest of the RSX package knows it (views, printer, emulator)."""
        return Instruction(self.kind, self.words[:layout.INSTRUCTION_WORDS], self.literal, self.address)

    @cached_property
    def fields(self) -> Mapping[str, int]:
        """Raw values of the fields of :mod:`.fields`, and the literal slot's words as
        ``literal_x`` … ``literal_w``: together, every bit of the instruction."""
        if self.is_data:
            return {}
        literal = dict(zip(LITERAL_FIELDS, self.literal or ()))
        return {**self.program_instruction.fields, **literal}

    @property
    def form(self) -> str:
        """The hardware opcode name; a VP slot that issues both units is ``vector+scalar``."""
        if self.is_data:
            return DATA
        view = self.program_instruction.view
        if self.kind is ProgramKind.FRAGMENT:
            return view.opcode.name if view.opcode is not None else f"opcode_{view.opcode_value:#04x}"
        vector = view.vector.name if view.vector is not None else f"vector_{view.vector_opcode:#04x}"
        scalar = view.scalar.name if view.scalar is not None else f"scalar_{view.scalar_opcode:#04x}"
        busy = [name for name, value in ((vector, view.vector_opcode), (scalar, view.scalar_opcode)) if value]
        return "+".join(busy) or "NOP"


def max_length(kind: ProgramKind) -> int:
    """The most words one instruction of the kind takes."""
    return layout.INSTRUCTION_WORDS + (LITERAL_WORDS if kind is ProgramKind.FRAGMENT else 0)


def _data(kind: ProgramKind, words: tuple[int, ...], address: int, note: str) -> RsxInstruction:
    return RsxInstruction(kind, words, is_data=True, address=address, note=note)


def decode(kind: ProgramKind, words: Sequence[int], address: int = 0) -> RsxInstruction:
    """The instruction at the start of ``words`` (normalised words); ``address`` is its slot."""
    taken = tuple(int(word) for word in words[:layout.INSTRUCTION_WORDS + LITERAL_WORDS])
    code = taken[:layout.INSTRUCTION_WORDS]
    if len(code) < layout.INSTRUCTION_WORDS:
        return _data(kind, code, address, f"truncated: an instruction is {layout.INSTRUCTION_WORDS} words")
    if kind is ProgramKind.FRAGMENT and fragment_has_literal(code):
        if len(taken) < layout.INSTRUCTION_WORDS + LITERAL_WORDS:
            return _data(kind, taken, address, "truncated: the instruction reads a constant, "
                                                "and its 4-word literal slot is missing")
        return RsxInstruction(kind, taken, address=address)
    return RsxInstruction(kind, code, address=address)


def encode(instruction: RsxInstruction) -> tuple[int, ...]:
    return instruction.words


# --- text ----------------------------------------------------------------------------------------


def _inline_vector(words: Sequence[int]) -> str:
    return "{" + ", ".join(syntax.float_text(word) for word in words) + "}"


def _loop_counts(instruction: Instruction) -> str:
    view = instruction.view
    if view.opcode.name == "LOOP":
        return _inline_vector(syntax.float_bits_of(float(value))
                              for value in (view.loop_count, view.loop_start, view.loop_increment, 0))
    return _inline_vector([syntax.float_bits_of(float(view.loop_count))] + [0] * 3)


# Literals print inline by default; loop counts as the 4-vector a #const line would hold.
STANDALONE_SPELLING = {kind: Spelling(EverySlot(slots), loop_constant=_loop_counts)
                       for kind, slots in TARGET_SLOTS.items()}


def format_instruction(instruction: RsxInstruction) -> str:
    """One statement (with ``;``) that :func:`parse` reads back to the same words."""
    if instruction.is_data:
        return " ".join([DATA] + [f"0x{word:08x}" for word in instruction.words])
    return statement_line(instruction.program_instruction, STANDALONE_SPELLING[instruction.kind], {})


def _split_hints(text: str) -> tuple[str, str | None, int]:
    """(statement, hint text or None, column of the hint text); a plain ``#`` comment, after
    the statement or after the hints, is dropped."""
    position = text.find("#")
    if position < 0:
        return text, None, 0
    if not text.startswith("#!", position):
        return text[:position], None, 0
    hints = text[position + 2:]
    comment = hints.find("#")
    return text[:position], hints if comment < 0 else hints[:comment], position + 3


def _slot_labels(text: str, kind: ProgramKind) -> dict[str, int]:
    """The labels standalone text names: ``L<slot>`` is slot ``<slot>``, for every slot a target
    field can hold (a listing gives each target such a label)."""
    unit = layout.INSTRUCTION_WORDS if kind is ProgramKind.FRAGMENT else 1  # FP targets are word offsets
    slots = (syntax.small_decimal(digits) for digits in re.findall(r"\bL(\d+)\b", text))
    return {f"L{slot}": slot * unit for slot in slots if slot is not None and slot < TARGET_SLOTS[kind]}


def parse(kind: ProgramKind, text: str) -> RsxInstruction:
    """One statement (``;`` optional) of form A text with standalone conventions; SourceError."""
    code, hint_text, hint_column = _split_hints(text)
    body = code.rstrip()
    if body.endswith(";"):
        body = body[:-1]
    if ";" in body:
        raise SourceError("one statement only: a second one follows ';'", body.index(";") + 1)
    description = DESCRIPTIONS[kind]
    instruction = description.parse(body, ParseContext(symbols=_slot_labels(body, kind)))
    native = hint_text is not None and is_native(hint_text)
    if instruction_expands_unless_native(instruction, kind) and not native:
        head = len(body) - len(body.lstrip()) + 1
        raise SourceError(refusal(instruction.mnemonic), head, len(instruction.mnemonic))
    if hint_text is not None:
        if native and not native_applies(kind, instruction.mnemonic):
            raise SourceError(NATIVE_MISPLACED, hint_column, max(1, len(hint_text.rstrip())))
        try:
            values = read_hints(hint_text, kind)
        except SourceError as error:
            raise SourceError(error.message, hint_column + error.col - 1, error.length) from None
        instruction = Assembler(description).with_fields(instruction, values)
    return RsxInstruction(kind, tuple(description.encode(instruction)))
