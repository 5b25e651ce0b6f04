"""Form A disassembly of whole RSX programs (spec/rsx.md 5.1, "Disassembling to form A").

This module owns the program-level side of the text: the header, the constant declarations,
labels, block keywords, and exactness. Conventions (bare ucode carries no names):

* FP literal slots print as ``c[k]``, one ``#const c[k] = x y z w`` per distinct value (by bits),
  k counted from 0 in order of first use; LOOP and REP print as ``LOOP c[k]`` with
  ``#const c[k] = count start step 0`` and ``REP c[k]`` with ``#const c[k] = count 0 0 0``.
  With a container's parameter table, a literal slot listed in a uniform's embeddedConst table
  prints as that uniform's ``c[k]`` with a ``#var`` line (and ``#default`` for its default value).
* VP constants come from the container's parameter records (``#var`` for uniforms, ``#const``
  for sce-cgc's internal constants); any other constant read gets ``#var float4 cN :  : c[N], 1
  : -1 : 1``, since the contents of constant memory are not part of the program.
* FP texture instructions print their target as ``RECT`` on the units the container's records
  (a samplerRECT record) or the caller (``rectangle_units``, from ``--texture-target``) say are
  sampled as rectangles, else as ``2D``: the microcode holds no target (spec 3.7), only CUBE's
  perspective flag.
* VP branch and call targets (and FP CAL targets) get a label ``L<slot>:`` on the line before
  the target; a target outside the program prints as ``L0`` plus hints.
* A VP slot with both units busy prints as ``vector-op + scalar-op`` on one line (a lone
  scalar-unit MOV as ``NOP + MOV …``), the syntax :mod:`.assembly` reads back into one slot.
* Exactness: each statement is printed by the instruction descriptions in core's model
  (:func:`.printer.statement_line`), which know the bits its text loses; each field that differs
  from what the text reads back as is appended as ``#! field=0x…`` (names from :mod:`.fields`),
  a literal the text cannot reproduce as ``literal=…``, and an FP LRP/LIT/POW/DDX/DDY that
  cgcomp would expand gets ``native``. The end bit and FP block offsets are compared with what
  the program's last slot and block keywords give them. So ``assemble(disassemble(p)).program
  == p`` for any decodable program; the 22 cgcomp goldens need no hints at all. Opcode values
  without a name print as ``NOP`` plus hints, and slots after the end bit as ``#! trailing w w
  w w`` after ``END``.
* Addresses (``addresses=True``, the command line's default): each instruction line ends in a
  plain comment ``# NNN: w w w w`` with its slot number (decimal, as in the hex word files and
  the RPCS3-style listing) and its four words; an FP instruction with a literal adds the
  literal slot the same way (``# 002: w w w w  003: l l l l``). The comment comes after any
  ``#!`` hints, where the assembler ignores it, so the listing still re-assembles exactly.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from . import fields as layout
from . import syntax
from .container import CgParameter, CgType, CgVariability, ProgramKind
from .image import rectangle_units as _rectangle_units
from .image import type_name
from .instruction import Instruction, Program, floats_to_words
from .printer import Spelling, outline, statement_line

HEADERS = {ProgramKind.VERTEX: ("!!ARBvp1.0", "OPTION NV_vertex_program3;"),
           ProgramKind.FRAGMENT: ("!!ARBfp1.0", "OPTION NV_fragment_program2;")}
CONSTANT_REGISTER_RESOURCE = 2178  # a VP parameter bound to c[resIndex] (spec 4.1)
ROWS = {CgType.FLOAT4X4: 4}
ADDRESS_COLUMN_LIMIT = 60  # a longer statement (mostly one with hints) pushes its comment right


_WRITABLE_NAME = re.compile(r"[A-Za-z_$][\w.$\[\]-]*")


def _declarable(parameter: CgParameter) -> bool:
    """Whether the names of a record survive a #var line (they cannot hold ':' or '=')."""
    return _WRITABLE_NAME.fullmatch(parameter.name) is not None and \
        _WRITABLE_NAME.fullmatch(parameter.semantic or "_") is not None


def _vector_text(bits: Sequence[int]) -> str:
    return " ".join(syntax.float_text(word) for word in bits)


def _var_line(name: str, type_name: str, semantic: str, index: int, count: int, number: int,
              referenced: int) -> str:
    binding = f"c[{index}]" + (f", {count}" if count != 1 else "")
    return f"#var {type_name} {name} : {semantic} : {binding} : {number} : {referenced}"


class _Declarations:
    """The constant lines of a program and the values the assembler will read from them."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.values: dict[int, tuple[int, int, int, int] | None] = {}
        self.literal_index: dict[int, int] = {}  # FP instruction slot -> k of its literal
        self.loop_index: dict[int, int] = {}  # FP LOOP/REP slot -> k of its counts
        self._keys: dict[object, int] = {}

    def number(self, key: object) -> tuple[int, bool]:
        """The c index for ``key`` and whether it is new."""
        if key in self._keys:
            return self._keys[key], False
        self._keys[key] = len(self._keys)
        return self._keys[key], True

    def constant(self, bits: tuple[int, int, int, int]) -> int:
        index, new = self.number(("value", bits))
        if new:
            self.lines.append(f"#const c[{index}] = {_vector_text(bits)}")
            self.values[index] = bits
        return index


def _fragment_declarations(program: Program, parameters: Sequence[CgParameter]) -> _Declarations:
    declarations = _Declarations()
    uniform_at = {offset // 16: parameter for parameter in parameters if _declarable(parameter)
                  for offset in parameter.embedded_constant_offsets or () if offset % 16 == 0}
    for instruction in program.instructions:
        if instruction.literal is not None:
            parameter = uniform_at.get(instruction.slot + 1)
            if parameter is None:
                index = declarations.constant(instruction.literal)
            else:
                index, new = declarations.number(("uniform", parameter.name))
                if new:
                    declarations.lines.append(_var_line(parameter.name, type_name(parameter.type),
                                                        parameter.semantic or "", index, 1,
                                                        parameter.parameter_number, parameter.is_referenced))
                    default = parameter.default_value_bits
                    if default is not None:
                        declarations.lines.append(f"#default {parameter.name} = {_vector_text(default)}")
                    declarations.values[index] = tuple(default) if default is not None else (0, 0, 0, 0)
            declarations.literal_index[instruction.slot] = index
        opcode = instruction.view.opcode
        if opcode is not None and opcode.name in ("LOOP", "REP"):
            view = instruction.view
            counts = (view.loop_count, view.loop_start, view.loop_increment, 0) if opcode.name == "LOOP" \
                else (view.loop_count, 0, 0, 0)
            declarations.loop_index[instruction.slot] = declarations.constant(floats_to_words(counts))
    return declarations


def _vertex_declarations(program: Program, parameters: Sequence[CgParameter]) -> _Declarations:
    declarations = _Declarations()
    names = {parameter.name for parameter in parameters}
    for parameter in parameters:
        index = parameter.resource_index
        if parameter.resource != CONSTANT_REGISTER_RESOURCE or index < 0 or not _declarable(parameter):
            continue
        if parameter.variability == CgVariability.CONSTANT and parameter.default_value_bits is not None:
            if index < syntax.VP_LIMITS["c"] and index not in declarations.values:
                declarations.lines.append(f"#const c[{index}] = {_vector_text(parameter.default_value_bits)}")
                declarations.values[index] = tuple(parameter.default_value_bits)
            continue
        base = parameter.name.rsplit("[", 1)[0]
        if parameter.name.endswith("]") and base in names:
            continue  # a matrix row: the matrix record declares it
        count = ROWS.get(parameter.type, 1)
        if index + count > syntax.VP_LIMITS["c"]:
            continue
        declarations.lines.append(_var_line(parameter.name, type_name(parameter.type), parameter.semantic or "",
                                            index, count, parameter.parameter_number, parameter.is_referenced))
        declarations.values.update({row: None for row in range(index, index + count)})
    used = set()
    for instruction in program.instructions:
        for source in instruction.view.sources:
            if source.file == "c":
                used.add(source.index if source.index < syntax.VP_LIMITS["c"] else 0)
    for index in sorted(used - set(declarations.values)):
        declarations.lines.append(_var_line(f"c{index}", "float4", "", index, 1, -1, 1))
        declarations.values[index] = None
    return declarations


def _labels(program: Program) -> dict[int, str]:
    """Branch and call targets -> label names (slot 0 stands in for targets outside the code)."""
    boundaries = {instruction.slot for instruction in program.instructions} | {program.slot_count}
    labels: dict[int, str] = {}
    for instruction in program.instructions:
        view = instruction.view
        if program.kind is ProgramKind.VERTEX:
            if view.scalar_opcode not in (0x09, 0x0B, 0x11, 0x12):
                continue
            target = view.branch_target
        else:
            if view.opcode is None or view.opcode.name != "CAL":
                continue
            words = instruction.words[2] & 0x7FFFFFFF
            target = words // 4 if words % 4 == 0 else -1
        target = target if target in boundaries else 0
        labels[target] = f"L{target}"
    return labels


def _address_comment(instruction: Instruction) -> str:
    """``# 002: w w w w`` (and ``  003: l l l l`` for an FP literal slot)."""
    text = f"# {instruction.slot:03d}: " + " ".join(f"{word:08x}" for word in instruction.words)
    if instruction.literal is not None:
        text += f"  {instruction.slot + 1:03d}: " + " ".join(f"{word:08x}" for word in instruction.literal)
    return text


def _with_addresses(lines: list[str | tuple[str, Instruction]]) -> list[str]:
    """Instruction lines with their address comments, lined up in one column where they fit."""
    statements = [line[0] for line in lines if isinstance(line, tuple)]
    width = min(ADDRESS_COLUMN_LIMIT, max((len(text) for text in statements), default=0))
    return [line if isinstance(line, str) else f"{line[0]:<{width}}  {_address_comment(line[1])}"
            for line in lines]


def disassemble(program: Program, parameters: Sequence[CgParameter] | None = None, *,
                addresses: bool = False, rectangle_units: Collection[int] = ()) -> str:
    """Complete form A text of ``program``; ``parameters`` are its container's records, if any;
    ``addresses`` ends each instruction line with its slot number and words; texture
    instructions on ``rectangle_units`` (besides the units the records make samplerRECT) print
    the target RECT."""
    parameters = tuple(parameters or ())
    kind = program.kind
    if kind is ProgramKind.VERTEX:
        declarations = _vertex_declarations(program, parameters)
    else:
        declarations = _fragment_declarations(program, parameters)
    labels = _labels(program)
    spelling = Spelling(labels, literal=lambda instruction: f"c[{declarations.literal_index[instruction.slot]}]",
                        loop_constant=lambda instruction: f"c[{declarations.loop_index[instruction.slot]}]",
                        rectangle_units=_rectangle_units(parameters) | frozenset(rectangle_units))
    structure = outline(program)
    last = program.instructions[-1]
    lines: list[str | tuple[str, Instruction]] = [*HEADERS[kind], *declarations.lines]
    for event, value in structure.events:
        if event == "keyword":
            lines.append(f"{value};")
            continue
        if value.slot in labels:
            lines.append(f"{labels[value.slot]}:")
        carried = {"end": int(value is last)}
        if value.slot in structure.targets:
            else_slot, end_slot = structure.targets[value.slot]
            carried.update(else_offset=else_slot * layout.INSTRUCTION_WORDS,
                           end_offset=end_slot * layout.INSTRUCTION_WORDS)
        lines.append((statement_line(value, spelling, carried), value))
    if program.slot_count in labels:
        lines.append(f"{labels[program.slot_count]}:")
    lines.append("END")
    for start in range(0, len(program.trailing), 4):
        lines.append("#! trailing " + " ".join(f"{word:#010x}" for word in program.trailing[start:start + 4]))
    if addresses:
        lines = _with_addresses(lines)
    return "\n".join(line if isinstance(line, str) else line[0] for line in lines) + "\n"
