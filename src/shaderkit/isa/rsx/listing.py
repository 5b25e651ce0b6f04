"""Form B listings of RSX programs (spec/rsx.md 5.2): the seed article's / RPCS3's style.

This module owns the listing layout, for humans: ``NNN:`` slot numbers (3 digits; after an FP
instruction with a literal the number jumps by 2), registers as ``v[n]``, ``o[n]``, ``c[n]``,
``f[TEX0]`` (``g[…]`` when the SRC2 perspective flag is set), FP literals inline as
``{0x3f800000(1), …}``, swizzles as one letter when replicated (``.x``) and four letters
otherwise, opcode-table mnemonics with the R/H/X precision
suffix, ``# last instruction`` on the instruction with the end bit, block keywords on their own
unnumbered lines, branch targets as slot numbers. With a container's parameter table, lines that
read a named uniform say so in their comment. It is output only and not exact (hidden fields are
not shown); form A (:mod:`.disassembler`) is the exact text.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import syntax
from .container import CgParameter, ProgramKind
from .instruction import Instruction, Program
from .printer import Naming, listing_text, outline

CONSTANT_REGISTER_RESOURCE = 2178
KEYWORD_INDENT = " " * 5  # keyword lines line up with the text after "NNN: "


def _literal_text(instruction: Instruction) -> str:
    return "{" + ", ".join(syntax.listing_float_text(word) for word in instruction.literal) + "}"


def _uniform_names(program: Program, parameters: Sequence[CgParameter]) -> dict[int, list[str]]:
    """Instruction slot -> names of the uniforms it reads."""
    names: dict[int, list[str]] = {}
    if program.kind is ProgramKind.FRAGMENT:
        at_slot = {offset // 16: parameter.name for parameter in parameters
                   for offset in parameter.embedded_constant_offsets or ()}
        for instruction in program.instructions:
            if instruction.literal is not None and instruction.slot + 1 in at_slot:
                names[instruction.slot] = [at_slot[instruction.slot + 1]]
        return names
    by_register = {}
    for parameter in parameters:  # a matrix row record (listed after its matrix) names its register
        if parameter.resource == CONSTANT_REGISTER_RESOURCE and parameter.resource_index >= 0:
            by_register[parameter.resource_index] = parameter.name
    for instruction in program.instructions:
        read = {source.index for source in instruction.view.sources if source.file == "c" and not source.relative}
        found = [by_register[index] for index in sorted(read) if index in by_register]
        if found:
            names[instruction.slot] = found
    return names


def listing(program: Program, parameters: Sequence[CgParameter] | None = None) -> str:
    """The form B listing of ``program``, one line per instruction."""
    naming = Naming(literal=_literal_text, loop_constant=lambda instruction: "",
                    target=lambda slot: f"{slot:03d}")
    uniforms = _uniform_names(program, tuple(parameters or ()))
    lines = []
    for event, value in outline(program).events:
        if event == "keyword":
            lines.append(KEYWORD_INDENT + value)
            continue
        comments = list(uniforms.get(value.slot, ()))
        if value.end:
            comments.append("last instruction")
        text = f"{value.slot:03d}: {listing_text(value, naming)};"
        lines.append(text + (f" # {', '.join(comments)}" if comments else ""))
    return "\n".join(lines) + "\n"
