"""RSX instructions as values, their meaning as structured views, and whole programs.

An :class:`Instruction` *is* its four normalised words (plus, for a fragment instruction with a
constant source, the literal slot that follows it), so decoding and encoding are exact for any
input. The views :class:`VertexView` and :class:`FragmentView` read the fields of
:mod:`shaderkit.isa.rsx.fields` into named, typed values; the emulator, the decompiler and the
printer all work from those views and never from raw bits.

A program is the list of instructions from slot 0 up to the one with the end bit, walked as
spec/rsx.md section 3.1 prescribes: a fragment literal slot is data and is stepped over, never
decoded.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from functools import cached_property

from shaderkit.core.diagnostics import InputError

from . import fields as layout
from .container import ProgramKind
from .limits import CONDITION_NAMES
from .opcodes import FP, VP_SCALAR, VP_VECTOR, Opcode

CONDITION_TRUE = 7
LANE_NAMES = "xyzw"
# FP precision codes (OPDEST 22-23 and the per-source clamps): R fp32, H fp16, X fixed12, fixed9.
PRECISION_NAMES = ("R", "H", "X", "B")
# FP dst scale codes (SRC1 28-30) as multipliers; code 4 is unknown (spec section 3.4).
SCALE_FACTORS = {0: 1.0, 1: 2.0, 2: 4.0, 3: 8.0, 5: 0.5, 6: 0.25, 7: 0.125}
FP_INPUT_NAMES = ("WPOS", "COL0", "COL1", "FOGC", "TEX0", "TEX1", "TEX2", "TEX3", "TEX4", "TEX5",
                  "TEX6", "TEX7", "TEX8", "TEX9", "SSA", "INVALID15")


@dataclass(frozen=True)
class Condition:
    """A CC test: ``test`` bits LT=1, EQ=2, GT=4; ``swizzle`` picks the CC lane per lane."""

    test: int
    register: int
    swizzle: tuple[int, int, int, int]

    @property
    def name(self) -> str:
        return CONDITION_NAMES[self.test]

    @property
    def always(self) -> bool:
        return self.test == CONDITION_TRUE

    @property
    def never(self) -> bool:
        return self.test == 0


@dataclass(frozen=True)
class Source:
    """One source operand as read: ``file`` is R (temp), H (fp16 temp, FP), v (VP input),
    f (FP input), c (VP constant or FP literal) or ``?`` (an invalid register type)."""

    file: str
    index: int
    swizzle: tuple[int, int, int, int]
    negate: bool
    absolute: bool
    raw_type: int
    # VP: the index is offset by an address register lane (c[A0.x + n] or v[A0.x + n]).
    relative: bool = False
    # FP: input precision clamp code applied after abs (0 = none).
    clamp: int = 0


def _condition(test: int, register: int, swizzle_raw: int, x_in_high_bits: bool) -> Condition:
    return Condition(test, register, layout.swizzle_lanes_8bit(swizzle_raw, x_in_high_bits))


# --- vertex ------------------------------------------------------------------------------------

VP_SOURCE_FILES = {0: "?", 1: "R", 2: "v", 3: "c"}
FP_SOURCE_FILES = {0: "R", 1: "f", 2: "c", 3: "?"}


@dataclass(frozen=True)
class VertexView:
    vector_opcode: int
    scalar_opcode: int
    vector: Opcode | None
    scalar: Opcode | None
    sources: tuple[Source, Source, Source]
    input: int
    constant: int
    address_register: int
    address_lane: int
    vector_temp: int | None
    scalar_temp: int | None
    output: int | None
    vector_to_output: bool
    vector_mask: tuple[bool, bool, bool, bool]
    scalar_mask: tuple[bool, bool, bool, bool]
    saturate: bool
    condition_test: bool
    condition: Condition
    cc_update: bool
    branch_target: int
    branch_index: int
    branch_value: int
    end: bool


@dataclass(frozen=True)
class FragmentView:
    opcode_value: int
    opcode: Opcode | None
    destination: int
    destination_half: bool
    no_destination: bool
    mask: tuple[bool, bool, bool, bool]
    set_cc: bool
    set_cc_register: int
    input: int
    texture_unit: int
    expand_texture: bool
    precision: int
    saturate: bool
    scale: int
    sources: tuple[Source, Source, Source]
    condition: Condition
    literal: tuple[float, float, float, float] | None
    perspective: bool
    indexed_input: bool
    displacement: int
    end: bool
    # Flow control (IFE / LOOP / REP), in slots from the program start.
    else_slot: int
    end_slot: int
    loop_count: int
    loop_start: int
    loop_increment: int

    @property
    def has_constant_source(self) -> bool:
        return any(source.raw_type == 2 for source in self.sources)


def words_to_floats(words: tuple[int, ...]) -> tuple[float, ...]:
    return struct.unpack(f">{len(words)}f", struct.pack(f">{len(words)}I", *words))


def floats_to_words(values: tuple[float, ...]) -> tuple[int, ...]:
    return struct.unpack(f">{len(values)}I", struct.pack(f">{len(values)}f", *values))


@dataclass(frozen=True)
class Instruction:
    """Four normalised words; ``literal`` is the FP literal slot that follows, if any.

    ``slot`` (the 16-byte slot index in the program) is where it was found and takes no part
    in equality.
    """

    kind: ProgramKind
    words: tuple[int, int, int, int]
    literal: tuple[int, int, int, int] | None = None
    slot: int = field(default=0, compare=False)

    @cached_property
    def fields(self) -> dict[str, int]:
        return self._layout.decode(self.words)

    @property
    def _layout(self) -> layout.Layout:
        return layout.VP if self.kind is ProgramKind.VERTEX else layout.FP

    @property
    def slots(self) -> int:
        return 1 if self.literal is None else 2

    @property
    def end(self) -> bool:
        return bool(self.fields["end"])

    @classmethod
    def from_fields(cls, kind: ProgramKind, values: dict[str, int],
                    literal: tuple[int, int, int, int] | None = None, slot: int = 0) -> Instruction:
        fields_layout = layout.VP if kind is ProgramKind.VERTEX else layout.FP
        return cls(kind, fields_layout.encode(values), literal, slot)

    @cached_property
    def view(self) -> VertexView | FragmentView:
        return _vertex_view(self.fields) if self.kind is ProgramKind.VERTEX else _fragment_view(self)


def _vp_source(raw: int, absolute: int, relative_input: bool, relative_constant: bool,
               input_index: int, constant_index: int) -> Source:
    bits = layout.VP_SOURCE
    raw_type = bits.type.extract(raw)
    file = VP_SOURCE_FILES[raw_type]
    index = {"R": bits.index.extract(raw), "v": input_index, "c": constant_index}.get(file, 0)
    relative = (file == "v" and relative_input) or (file == "c" and relative_constant)
    return Source(file, index, bits.swizzle_lanes(raw), bool(bits.negate.extract(raw)),
                  bool(absolute), raw_type, relative)


def _vertex_view(f: dict[str, int]) -> VertexView:
    sources = tuple(
        _vp_source(f[f"source{n}"], f[f"source{n}_abs"], bool(f["index_input"]),
                   bool(f["index_constant"]), f["input"], f["constant"])
        for n in range(3))
    source2 = f["source2"]
    target = (f["source2_abs"] << 9) | ((source2 >> 11) << 3) | (source2 & 0x7FF) >> 8
    return VertexView(
        vector_opcode=f["vector_opcode"], scalar_opcode=f["scalar_opcode"],
        vector=VP_VECTOR.get(f["vector_opcode"]), scalar=VP_SCALAR.get(f["scalar_opcode"]),
        sources=sources, input=f["input"], constant=f["constant"],
        address_register=f["address_register"], address_lane=f["address_swizzle"],
        vector_temp=None if f["vector_temp"] == layout.VP_NO_TEMP else f["vector_temp"],
        scalar_temp=None if f["scalar_temp"] == layout.VP_NO_TEMP else f["scalar_temp"],
        output=None if f["output"] == layout.VP_NO_OUTPUT else f["output"],
        vector_to_output=bool(f["vector_to_output"]),
        vector_mask=layout.lanes_of_mask(f["vector_mask"], x_in_high_bit=True),
        scalar_mask=layout.lanes_of_mask(f["scalar_mask"], x_in_high_bit=True),
        saturate=bool(f["saturate"]),
        condition_test=bool(f["condition_test"]),
        condition=_condition(f["condition"], f["cc_register"], f["cc_swizzle"], True),
        cc_update=bool(f["cc_update"] or f["cc_update_b"]),
        branch_target=target,
        branch_index=(source2 >> 2) & 0x1F,
        branch_value=(source2 >> 7) & 1,
        end=bool(f["end"]),
    )


def _fp_source(raw: int, absolute: int, clamp: int) -> Source:
    bits = layout.FP_SOURCE
    raw_type = bits.type.extract(raw)
    file = FP_SOURCE_FILES[raw_type]
    if file == "R" and bits.half.extract(raw):
        file = "H"
    index = bits.index.extract(raw) if file in "RH" else 0
    return Source(file, index, bits.swizzle_lanes(raw), bool(bits.negate.extract(raw)),
                  bool(absolute), raw_type, clamp=clamp)


def _fragment_view(instruction: Instruction) -> FragmentView:
    f = instruction.fields
    words = instruction.words
    sources = tuple(_fp_source(f[f"source{n}"], f[f"source{n}_abs"], f[f"source{n}_clamp"])
                    for n in range(3))
    opcode_value = f["opcode_low"] | (f["opcode_high"] << 6)
    literal = None if instruction.literal is None else words_to_floats(instruction.literal)
    return FragmentView(
        opcode_value=opcode_value, opcode=FP.get(opcode_value),
        destination=f["destination"], destination_half=bool(f["destination_half"]),
        no_destination=bool(f["no_destination"]),
        mask=layout.lanes_of_mask(f["mask"], x_in_high_bit=False),
        set_cc=bool(f["set_cc"]), set_cc_register=f["set_cc_register"],
        input=f["input"], texture_unit=f["texture_unit"], expand_texture=bool(f["expand_texture"]),
        precision=f["precision"], saturate=bool(f["saturate"]), scale=f["scale"],
        sources=sources,
        condition=_condition(f["condition"], f["test_cc_register"], f["cc_swizzle"], False),
        literal=literal,
        perspective=bool(f["perspective"]), indexed_input=bool(f["indexed_input"]),
        displacement=_signed11(f["displacement"]),
        end=bool(f["end"]),
        else_slot=(words[2] & 0x7FFFFFFF) // 4,
        end_slot=words[3] // 4,
        loop_count=(words[2] >> 2) & 0xFF,
        loop_start=(words[2] >> 10) & 0xFF,
        loop_increment=(words[2] >> 19) & 0xFF,
    )


def _signed11(value: int) -> int:
    return value - 0x800 if value & 0x400 else value


def check_vertex_opcodes(instruction: Instruction) -> VertexView:
    """The view of a VP instruction whose ops can run: both opcodes known, no PSH/POP (the
    address-register stack is not modelled). Raises InputError naming the slot otherwise."""
    view = instruction.view
    slot = instruction.slot
    if view.vector is None:
        raise InputError(f"slot {slot}: unknown vertex vector opcode 0x{view.vector_opcode:02X}")
    if view.scalar is None:
        raise InputError(f"slot {slot}: unknown vertex scalar opcode 0x{view.scalar_opcode:02X}")
    if view.scalar.name in ("PSH", "POP"):
        raise InputError(f"slot {slot}: {view.scalar.name} (address register stack) is not supported")
    return view


# --- programs ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Program:
    """A decoded program: instructions in slot order; ``trailing`` words follow the end slot."""

    kind: ProgramKind
    instructions: tuple[Instruction, ...]
    trailing: tuple[int, ...] = ()

    @property
    def slot_count(self) -> int:
        return sum(instruction.slots for instruction in self.instructions)

    def words(self) -> tuple[int, ...]:
        return encode_program(self.instructions) + self.trailing

    def at_slot(self) -> dict[int, Instruction]:
        return {instruction.slot: instruction for instruction in self.instructions}


def fragment_has_literal(words: tuple[int, ...]) -> bool:
    """Whether an FP instruction is followed by a literal slot (spec section 3.1)."""
    opcode_value = ((words[0] >> 24) & 0x3F) | ((words[2] >> 31) << 6)
    if FP.get(opcode_value) is not None and FP[opcode_value].flow:
        return False
    return any((words[n] & 3) == 2 for n in (1, 2, 3))


def decode_program(words: tuple[int, ...] | list[int], kind: ProgramKind, source: str = "program",
                   ) -> Program:
    """Walk slots from 0 to the end bit. Raises InputError for a ragged or truncated program.

    A program without an end bit runs to its last slot (its instructions are all decoded and the
    missing end bit is reported by :func:`program_warnings`).
    """
    words = tuple(words)
    if len(words) % layout.INSTRUCTION_WORDS:
        raise InputError(f"{source}: {len(words) * 4} bytes is not a whole number of 16-byte slots")
    if not words:
        raise InputError(f"{source}: the program is empty")
    instructions = []
    slot = 0
    total = len(words) // 4
    while slot < total:
        code = words[slot * 4: slot * 4 + 4]
        literal = None
        if kind is ProgramKind.FRAGMENT and fragment_has_literal(code):
            if slot + 1 >= total:
                raise InputError(f"{source}: the instruction in slot {slot} reads a constant, but its "
                                 "literal slot is missing (truncated program)")
            literal = words[slot * 4 + 4: slot * 4 + 8]
        instruction = Instruction(kind, code, literal, slot)
        instructions.append(instruction)
        slot += instruction.slots
        if instruction.end:
            break
    return Program(kind, tuple(instructions), words[slot * 4:])


def program_warnings(program: Program, source: str = "program") -> list[str]:
    warnings = []
    if not program.instructions[-1].end:
        warnings.append(f"{source}: no instruction has the end bit; the program runs to its last slot")
    if program.trailing:
        warnings.append(f"{source}: {len(program.trailing) // 4} slot(s) after the end bit are ignored")
    return warnings


def encode_program(instructions: tuple[Instruction, ...] | list[Instruction]) -> tuple[int, ...]:
    words: list[int] = []
    for instruction in instructions:
        words.extend(instruction.words)
        if instruction.literal is not None:
            words.extend(instruction.literal)
    return tuple(words)
