"""The RSX reference manual: ``reference.md`` (prose) with one entry per opcode of each table.

Everything per opcode is derived from the declarative description: the mnemonic, its NV
spellings and the source slots it reads from :mod:`.opcodes`, the bits from the layouts of
:mod:`.fields` (which also give the two field tables the prose includes), the meaning from the
semantics registry (:data:`.semantics.SEMANTICS`): the docstring of the opcode's function, or
for what the machines (:mod:`.vertex`, :mod:`.fragment`) carry out themselves — flow control,
texture fetches, KIL, ARL, the address stack — the sentence registered with it. How those
opcodes read in assembly is written here.

``rsx``, ``rsx-vp`` and ``rsx-fp`` share one manual; ``rsx-vp`` looks mnemonics up among the
vertex tables, ``rsx-fp`` among the fragment table.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from ...core.docs import InstructionEntry, Reference, prose
from . import fields, syntax
from .container import ProgramKind
from .opcodes import FP, VP_SCALAR, VP_VECTOR, Opcode
from .semantics import FRAGMENT, SEMANTICS, VERTEX_SCALAR, VERTEX_VECTOR

SCOPES = {None: (), ProgramKind.VERTEX: (VERTEX_VECTOR, VERTEX_SCALAR), ProgramKind.FRAGMENT: (FRAGMENT,)}

# How the operands of the non-arithmetic opcodes read, by (group, name) or name.
SPECIAL_SYNTAX = {
    "NOP": "NOP",
    "ARL": "ARL A0.x, a",
    (VERTEX_VECTOR, "TXL"): "TXL dst, a, texture[n]",
    "BRA": "BRA A0.x (cond)",
    "BRI": "BRA label (cond)",
    (VERTEX_SCALAR, "CAL"): "CAL A0.x (cond)",
    "CLI": "CAL label (cond)",
    (VERTEX_SCALAR, "RET"): "RET (cond)",
    "BRB": "BRB label, index, value",
    "CLB": "CLB label, index, value",
    "PSH": "PSH a",
    "POP": "POP",
    "KIL": "KIL cond",
    "FENCT": "FENCT",
    "FENCB": "FENCB",
    "BRK": "BRK cond",
    (FRAGMENT, "CAL"): "CAL label (cond)",
    "IFE": "IF cond",
    "LOOP": "LOOP c[k]",
    "REP": "REP c[k]",
    (FRAGMENT, "RET"): "RET cond",
}

FLAGS = {
    VERTEX_VECTOR: "suffix `C` or `C1` also writes the result to CC0/CC1; `(cond)` after the mask writes only "
                   "lanes whose condition-code test passes; `_SAT` clamps to [0, 1]",
    VERTEX_SCALAR: "suffix `C` or `C1` also writes the result to CC0/CC1; `(cond)` after the mask writes only "
                   "lanes whose condition-code test passes; `_SAT` clamps to [0, 1]",
    FRAGMENT: "precision suffix `R` (fp32), `H` (fp16) or `X` (fixed, [−2, 2)); `C`/`C1` also writes CC0/CC1; "
              "`_SAT` clamps to [0, 1]; `_X2` … `_D8` scale the result; `(cond)` after the mask writes only "
              "lanes whose condition-code test passes",
}
FLOW_FLAGS = "reads a condition code (`LT`, `EQ`, `GT`, … with a CC number and swizzle); writes no register"
UNIMPLEMENTED = "not implemented by RSX hardware (RPCS3): it decodes and prints, but the emulator refuses it"


def _source_letters(opcode: Opcode) -> list[str]:
    return ["abc"[position] for position in range(len(opcode.sources))]


def _syntax(group: str, opcode: Opcode) -> str:
    special = SPECIAL_SYNTAX.get((group, opcode.name)) or SPECIAL_SYNTAX.get(opcode.name)
    if special:
        return special
    name = syntax.FP_NV_NAMES.get(opcode.value, opcode.name) if group == FRAGMENT else opcode.name
    if group == FRAGMENT:
        suffix = "" if opcode.value in syntax.FP_PACK_OPCODES else "{R|H|X}"
        suffix += "[C][_SAT]"
    else:
        suffix = "[C][_SAT]"
    operands = ["dst[.mask][(cond)]", *_source_letters(opcode)]
    if opcode.texture:
        operands.append("texture[n], 2D")
    return f"{name}{suffix} " + ", ".join(operands)


def _field(layout: fields.Layout, name: str) -> str:
    pieces = ", ".join(f"{'D' if layout is fields.VP else 'W'}{word} {high if high == low else f'{high}–{low}'}"
                       for word, high, low in layout.word_pieces(name))
    return f"{name} ({pieces})"


def _encoding(group: str, opcode: Opcode) -> str:
    if group == FRAGMENT:
        width = fields.FP.width("opcode_low")
        parts = [f"`opcode_high:opcode_low = {opcode.value >> width}:{opcode.value & ((1 << width) - 1):06b}` "
                 f"({_field(fields.FP, 'opcode_high')}, {_field(fields.FP, 'opcode_low')})"]
        sources = [_field(fields.FP, f"source{slot}") for slot in opcode.sources]
        if opcode.flow:
            parts.append("condition in " + _field(fields.FP, "condition") + " and "
                         + _field(fields.FP, "cc_swizzle") + "; offsets and counts in the SRC1 and SRC2 words")
        elif opcode.texture:
            parts.append("unit in " + _field(fields.FP, "texture_unit"))
        if sources and not opcode.flow:
            parts.append("reads " + ", ".join(sources) + "; a constant source is the literal slot that follows")
        return " · ".join(parts)
    layout = fields.VP
    opcode_field = "vector_opcode" if group == VERTEX_VECTOR else "scalar_opcode"
    width = layout.width(opcode_field)
    parts = [f"`{opcode_field} = {opcode.value:0{width}b}` ({_field(layout, opcode_field).split(' (', 1)[1]}"]
    if opcode.name in ("BRA", "CAL"):
        parts.append("target slot from " + _field(layout, "address_register") + " and "
                     + _field(layout, "address_swizzle"))
    elif opcode.flow and opcode.name != "RET":
        parts.append("target slot in the source2 bits D2 5–0 and D3 31–29, bit 9 in " + _field(layout, "source2_abs"))
    if opcode.flow:
        parts.append("condition in " + _field(layout, "condition_test") + ", " + _field(layout, "condition")
                     + " and " + _field(layout, "cc_swizzle"))
    elif opcode.sources:
        parts.append("reads " + ", ".join(_field(layout, f"source{slot}") for slot in opcode.sources))
    if not opcode.flow and opcode.name not in ("NOP", "PSH", "POP"):
        temp, mask = ("vector_temp", "vector_mask") if group == VERTEX_VECTOR else ("scalar_temp", "scalar_mask")
        parts.append(f"writes {_field(layout, temp)} and/or {_field(layout, 'output')} under "
                     f"{_field(layout, mask)}")
    return " · ".join(parts)


def _meaning(group: str, opcode: Opcode) -> str:
    meaning = SEMANTICS.meaning(opcode.name, group)
    if opcode.scalar and group == FRAGMENT:
        meaning += "\n\nScalar: reads the x of its swizzled operand and writes the result to every masked component."
    if group == VERTEX_SCALAR and opcode.scalar:
        meaning += ("\n\nThe scalar unit reads source slot 2 (the x of its swizzle; LIT reads all four) and "
                    "writes the result to every masked component; it issues beside a vector-unit op.")
    if group == FRAGMENT and opcode.name == "LIT":
        meaning += "\n\nAssembly text `LIT` is expanded as cgcomp does, to MAX, LG2, MUL and LIF, which the hardware has."
    if opcode.note and not opcode.flow:
        meaning += f"\n\nOnly the {opcode.note} components of the operand count."
    return meaning


def _flags(group: str, opcode: Opcode) -> str:
    if opcode.unimplemented:
        return UNIMPLEMENTED
    if opcode.flow or opcode.name == "KIL":
        return FLOW_FLAGS
    if opcode.name in ("NOP", "FENCT", "FENCB", "PSH", "POP"):
        return "none"
    return FLAGS[group]


def _entries(group: str, table: dict[int, Opcode]):
    for opcode in table.values():
        yield InstructionEntry(opcode.name, _syntax(group, opcode), _encoding(group, opcode),
                               _meaning(group, opcode), _flags(group, opcode), group, opcode.aliases)


def layout_table(layout: fields.Layout) -> str:
    """Every field of a 128-bit layout: the word and bits it occupies, in declaration order."""
    rows = ["| field | bits |", "|---|---|"]
    for name in layout.fields:
        rows.append(f"| `{name}` | {_field(layout, name).split(' (', 1)[1].rstrip(')')} |")
    return "\n".join(rows)


@cache
def _full_reference() -> Reference:
    text = prose(__package__)
    text = text.replace("<!-- vp layout -->", layout_table(fields.VP))
    text = text.replace("<!-- fp layout -->", layout_table(fields.FP))
    entries = (*_entries(VERTEX_VECTOR, VP_VECTOR), *_entries(VERTEX_SCALAR, VP_SCALAR), *_entries(FRAGMENT, FP))
    return Reference("rsx", "RSX — PS3 vertex and fragment programs", text, entries,
                     source="src/shaderkit/isa/rsx/reference.md")


def documentation(kind: ProgramKind | None = None) -> Reference:
    return replace(_full_reference(), scope=SCOPES[kind])
