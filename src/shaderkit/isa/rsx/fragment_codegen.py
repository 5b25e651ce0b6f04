"""Numba source for one fragment program: the fused, tiled kernels of :mod:`.fragment_compiled`.

A program becomes a few *segments*. Each segment is one kernel that runs every pixel of a tile
(``rows`` x ``cols`` pixels of the image, whole 2x2 quads) through a stretch of the program with
every register component a scalar local: swizzles are resolved here, only the components an
instruction writes are computed, conditional writes are selects, and flow control (IF/ELSE,
LOOP/REP, BRK, RET) is ordinary per-pixel control flow. Straight-line code has no branches, so
LLVM vectorises the pixel loop.

SIN, COS, EX2, LG2 and LIF are computed in the kernels by the scalar functions of
:mod:`.transcendentals`, the ones the interpreter's ufuncs are made of, and the packs and unpacks
bit for bit as the interpreter's do. What the kernels do not do (PKG and UPG, whose sRGB curve
is NumPy's float32 power; textures; DDX/DDY, which need a tile's neighbours) is done between
two segments by the very function the interpreter calls (:data:`.semantics.SEMANTICS`,
:func:`.textures.sample_lanes`) on the tile: the segment before it stores the instruction's operands, already swizzled and
modified, into an operand buffer, and the segment after it reads the result back, applies the
output modifiers and writes it under the instruction's condition. Consecutive such instructions
that do not read each other's results share one break. Register components that live across a
break go through a per-tile state buffer; the others stay locals.

An IF whose branches hold such an instruction is emitted *predicated* (:meth:`_Generator.predicated_if`):
per-pixel flags taken where the IF is guard every write in its branches, as the interpreter's
masks do. :func:`generate` raises :class:`Unsupported` for what it does not cover (an instruction
that needs NumPy inside a LOOP or REP, RET in a program that also has such an instruction); the
driver then runs the interpreter instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import halfs, transcendentals
from .fragment import (
    _FIRST_TEXCOORD,
    _LAST_TEXCOORD,
    _NO_OPERATION,
    _SOURCE_SHAPES,
    _TEXTURE_READS,
    FP_INPUTS,
    FragmentMachine,
)
from .instruction import SCALE_FACTORS, Condition, Instruction, Source
from .semantics import QUANTISED_PACKS, SNORM8, UNORM8, UNORM16

F32 = np.float32
LANE_NAMES = "xyzw"
# Instructions computed inside the kernels; every other arithmetic one is a break (see module doc).
PER_COMPONENT = {"MOV", "MUL", "ADD", "MAD", "MIN", "MAX", "FRC", "FLR", "SSG", "LRP", "SLT", "SGE",
                 "SLE", "SGT", "SNE", "SEQ", "SFL", "STR", "DIV", "DIVSQ"}
# Scalar instructions computed by a function of .transcendentals (its name here).
TRANSCENDENTAL = {name: function.__name__ for name, function in transcendentals.SCALAR.items()}
REPLICATED = {"DP2", "DP3", "DP4", "DPH", "DP2A", "RCP", "RCC", "RSQ", *TRANSCENDENTAL}
# The packs, one float32 of packed bits written to every lane, and the unpacks of such a word.
PACKS = {"PK2", *QUANTISED_PACKS}
UNPACKS = {"UP2", "UP4", "UPB", "UP16"}
VECTOR = {"DST", "NRM", "REFL", "LIF", *PACKS, *UNPACKS}
NATIVE = PER_COMPONENT | REPLICATED | VECTOR
# Flow-control opcodes.
FLOW = {"IFE", "LOOP", "REP", "BRK", "RET"}
CC_TESTS = {1: "<", 2: "==", 3: "<=", 4: ">", 5: "!=", 6: ">="}
PRECISION_HELPERS = {1: "half", 2: "fixed12", 3: "fixed9"}
KILLED = "kil"
# The constant table is (16, 4): inputs 0..14, then one row of override flags, column = the
# position of the input in PROCEDURAL_ORDER.
OVERRIDE_ROW = 15
PROCEDURAL_ORDER = (FP_INPUTS.index("WPOS"), FP_INPUTS.index("TEX0"), FP_INPUTS.index("TEX1"))


class Unsupported(Exception):
    """The program (or this run of it) needs the interpreter; the message says why."""


@dataclass(frozen=True)
class Layout:
    """How a run feeds and drains the kernels (part of what the source is generated for).

    ``fullscreen``: inputs are the :func:`.fragment.fullscreen_inputs` ones, computed from the
    pixel position for the inputs in ``procedural`` (unless the constant table's flag row,
    :data:`OVERRIDE_ROW`, says the run overrides one with a constant) and read from the constant
    table otherwise, and the colour goes straight into the image. Otherwise ``varying`` lists the inputs passed as
    ``(4, n)`` rows (the others are constant), and ``exports`` the R registers whose final values
    are written out.
    """

    fullscreen: bool
    procedural: frozenset[int] = frozenset()
    varying: tuple[int, ...] = ()
    exports: tuple[int, ...] = ()
    output_from_h0: bool = False


@dataclass
class Break:
    """One instruction done with NumPy between two segments."""

    instruction: Instruction
    kind: str  # "semantic", "texture" or "derivative"
    operands: list  # per reader: ("buffer", first row, rows) or ("constant", (k, 1) array)
    result_row: int  # first of four rows of the result buffer
    lanes: tuple[int, ...] = ()  # the lanes written (their rows of the result are filled)


@dataclass
class Plan:
    source: str
    names: tuple[str, ...]
    breaks: list[list[Break]]  # breaks[i] runs after segment i
    state_rows: int
    operand_rows: int
    result_rows: int
    uses_flow: bool


@dataclass
class _Segment:
    lines: list[str] = field(default_factory=list)
    first: dict[str, str] = field(default_factory=dict)  # local -> "read" or "write", first touch
    written: set[str] = field(default_factory=set)
    flow: bool = False


class _Generator:
    def __init__(self, machine: FragmentMachine, layout: Layout):
        self.machine = machine
        self.layout = layout
        self.program = machine.program
        self.constants: dict[int, str] = {}
        self.segments = [_Segment()]
        self.breaks: list[list[Break]] = [[]]
        # Breaks awaiting their writes: (instruction, result row, registers written, predicate).
        self.pending: list[tuple[Instruction, int, set[str], str | None]] = []
        self.predicate: str | None = None  # the flag of the predicated IF branch being emitted
        self.operand_rows = 0
        self.result_rows = 0
        self.temporary = 0
        self.depth = 0  # nesting of blocks
        self.has_ret = any(i.view.opcode is not None and i.view.opcode.name == "RET"
                           for i in self.program.instructions)
        self.uses_flow = any(i.view.opcode is not None and i.view.opcode.name in FLOW
                             for i in self.program.instructions)

    # -- helpers --

    @property
    def segment(self) -> _Segment:
        return self.segments[-1]

    def emit(self, line: str) -> None:
        self.segment.lines.append("    " * self.depth + line)

    def fresh(self, stem: str) -> str:
        self.temporary += 1
        return f"{stem}{self.temporary}"

    def constant(self, value) -> str:
        key = int(np.asarray(value, dtype=F32).view(np.uint32))
        if key not in self.constants:
            self.constants[key] = f"K{len(self.constants)}"
        return self.constants[key]

    def touch_read(self, name: str) -> None:
        self.segment.first.setdefault(name, "read")

    def touch_write(self, name: str, unconditional: bool) -> None:
        self.segment.first.setdefault(name, "write" if unconditional and self.depth == 0 else "read")
        self.segment.written.add(name)

    def helper(self, kind: str, *arguments: str) -> str:
        """Emit a NumPy operation on one lane inline, as selects LLVM can vectorise; returns the
        temporary holding the result.

        ``minimum``/``maximum``/``fmax`` follow NumPy's SIMD loops, which the interpreter runs on
        any array of more than a few lanes: on a tie (-0 against +0) the second operand wins, a
        NaN first operand wins (minimum, maximum) or loses (fmax, in ``saturate``). NumPy's scalar
        loop, used for arrays of a handful of lanes, answers ties the other way; the compiled path
        is not used on so few lanes. ``clip`` is ``np.clip`` with NaN passing through.
        """
        result = self.fresh("h")
        one, zero = self.constant(1.0), self.constant(0.0)
        if kind in ("minimum", "maximum"):
            a, b = arguments
            test = "<" if kind == "minimum" else ">"
            self.emit(f"{result} = {a} if ({a} {test} {b} or {a} != {a}) else {b}")
        elif kind == "sign":
            a, = arguments
            self.emit(f"{result} = {one} if {a} > {zero} else ({self.constant(-1.0)} if {a} < {zero} else "
                      f"({zero} if {a} == {zero} else {a}))")
        elif kind == "saturate":
            a, = arguments
            raised = self.fresh("h")
            self.emit(f"{raised} = {a} if {a} > {zero} else {zero}")
            self.emit(f"{result} = {raised} if {raised} < {one} else {one}")
        elif kind == "clip":
            a, low, high = arguments
            raised = self.fresh("h")
            self.emit(f"{raised} = {low} if {a} <= {low} else {a}")
            self.emit(f"{result} = {high} if {raised} >= {high} else {raised}")
        elif kind == "half":
            clipped = self.helper("clip", arguments[0], self.constant(-65504.0), self.constant(65504.0))
            self.emit(f"{result} = _k.f16_to_f32(_k.f32_to_f16({clipped}))")
        elif kind == "fixed12":
            return self.helper("clip", arguments[0], self.constant(-2.0), self.constant(2.0 - 2.0 ** -10))
        elif kind == "fixed9":
            return self.helper("clip", arguments[0], self.constant(-1.0), one)
        else:  # rcc
            a, = arguments
            reciprocal = self.fresh("h")
            self.emit(f"{reciprocal} = {one} / {a}")
            clipped = self.helper("clip", f"abs({reciprocal})", self.constant(5.42101e-20),
                                  self.constant(1.884467e19))
            self.emit(f"{result} = np.copysign({clipped}, {reciprocal})")
        return result

    # -- sources --

    def input_expression(self, index: int, component: int) -> str:
        layout = self.layout
        if layout.fullscreen and index in layout.procedural:
            name = FP_INPUTS[index]
            expressions = {
                "WPOS": ("xf", "yf", self.constant(0.5), self.constant(1.0)),
                "TEX0": ("(xf / across)", "(yf / up)", self.constant(0.0), self.constant(1.0)),
                "TEX1": (f"({self.constant(1.0)} - xf / across)", "(yf / up2)", self.constant(0.25),
                         self.constant(1.0)),
            }[name]
            # A constant given for the input (an override) is flagged in the table's last row.
            return f"(c{index}_{component} if ov{index} else {expressions[component]})"
        if not layout.fullscreen and index in layout.varying:
            return f"inp[{layout.varying.index(index)}, {component}, g]"
        return f"c{index}_{component}"

    def read_component(self, source: Source, instruction: Instruction, component: int) -> str:
        """The expression of one (swizzled) component of a register or input source, unmodified."""
        view = instruction.view
        if source.file == "R":
            name = f"r{source.index}_{component}"
            self.touch_read(name)
            return name
        if source.file == "H":
            register = halfs.storage_register(source.index)
            (place, half), = halfs.component_places(source.index, (component,))
            name = f"r{register}_{place}"
            self.touch_read(name)
            return f"_k.{('get_high' if half else 'get_low')}({name})"
        # An input ("f"); the machine refused the other files when it was prepared.
        if view.indexed_input:
            value = self.fresh("ix")
            index = self.fresh("ii")
            self.emit(f"{index} = {_FIRST_TEXCOORD + view.displacement} + ctr")
            self.emit(f"{value} = {self.constant(0.0)}")
            for number, candidate in enumerate(range(_FIRST_TEXCOORD, _LAST_TEXCOORD + 1)):
                keyword = "if" if number == 0 else "elif"
                self.emit(f"{keyword} {index} == {candidate}:")
                self.emit(f"    {value} = {self.input_expression(candidate, component)}")
            return value
        return self.input_expression(view.input, component)

    def reader(self, source: Source, shape: str, instruction: Instruction):
        """A function position -> the expression of the source's modified component there (the
        position indexes the swizzle; emitted on first use)."""
        lanes = tuple(source.swizzle) if shape == "v" else (source.swizzle[0],)
        if source.file == "c":
            # The interpreter's own constant reader, modifiers applied by NumPy at preparation.
            column = self.machine._reader(source, shape, instruction)(None)
            values = [self.constant(column[position, 0]) for position in range(len(lanes))]
            return lambda position: values[position]
        done: dict[int, str] = {}

        def read(position: int) -> str:
            if position not in done:
                expression = self.read_component(source, instruction, lanes[position])
                if source.absolute:
                    expression = f"abs({expression})"
                if source.clamp:
                    expression = self.helper(PRECISION_HELPERS[source.clamp], expression)
                if source.negate:
                    expression = f"(-{expression})"
                name = self.fresh("s")
                self.emit(f"{name} = {expression}")
                done[position] = name
            return done[position]
        return read

    def readers(self, instruction: Instruction):
        view = instruction.view
        name = view.opcode.name
        shapes = _SOURCE_SHAPES.get(name, ("x" if view.opcode.scalar else "v") * len(view.opcode.sources))
        return [(view.sources[slot], shape) for slot, shape in zip(view.opcode.sources, shapes)]

    # -- conditions --

    def condition_lane(self, condition: Condition, component: int) -> str:
        name = f"cc{condition.register}_{component}"
        self.touch_read(name)
        return f"({name} {CC_TESTS[condition.test]} {self.constant(0.0)})"

    def condition_any(self, condition: Condition) -> str:
        if condition.always:
            return "True"
        if condition.never:
            return "False"
        return "(" + " or ".join(self.condition_lane(condition, c) for c in sorted(set(condition.swizzle))) + ")"

    # -- computing --

    def compute(self, instruction: Instruction, lanes: tuple[int, ...]) -> dict[int, str]:
        """Emit the native computation of ``lanes`` of the result; returns lane -> expression."""
        view = instruction.view
        name = view.opcode.name
        read = [self.reader(source, shape, instruction) for source, shape in self.readers(instruction)]
        one, zero = self.constant(1.0), self.constant(0.0)
        if name in PER_COMPONENT:
            def per_lane(lane: int) -> str:
                a = read[0](lane) if read else None
                if name == "MOV":
                    return a
                if name == "FRC":
                    return f"({a} - np.floor({a}))"
                if name == "FLR":
                    return f"np.floor({a})"
                if name == "SSG":
                    return self.helper("sign", a)
                if name == "SFL":
                    return zero
                if name == "STR":
                    return one
                if name == "DIV":
                    return f"({a} / {read[1](0)})"
                if name == "DIVSQ":
                    return f"({zero} if {a} == {zero} else {a} / np.sqrt({read[1](0)}))"
                b = read[1](lane)
                if name == "MUL":
                    return f"({a} * {b})"
                if name == "ADD":
                    return f"({a} + {b})"
                if name == "MIN":
                    return self.helper("minimum", a, b)
                if name == "MAX":
                    return self.helper("maximum", a, b)
                if name in ("SLT", "SGE", "SLE", "SGT", "SNE", "SEQ"):
                    test = {"SLT": "<", "SGE": ">=", "SLE": "<=", "SGT": ">", "SNE": "!=", "SEQ": "=="}[name]
                    return f"({one} if {a} {test} {b} else {zero})"
                c = read[2](lane)
                if name == "MAD":
                    return f"({a} * {b} + {c})"
                return f"({a} * {b} + ({one} - {a}) * {c})"  # LRP
            return {lane: per_lane(lane) for lane in lanes}
        if name in REPLICATED:
            if name in TRANSCENDENTAL:
                value = f"_t.{TRANSCENDENTAL[name]}({read[0](0)})"
            elif name in ("RCP", "RCC", "RSQ"):
                x = read[0](0)
                value = f"({one} / {x})" if name == "RCP" else self.helper("rcc", x) if name == "RCC" \
                    else f"({one} / np.sqrt(abs({x})))"
            else:
                a, b = read[0], read[1]
                count = {"DP2": 2, "DP2A": 2, "DP3": 3, "DPH": 3, "DP4": 4}[name]
                value = " + ".join(f"{a(i)} * {b(i)}" for i in range(count))
                if name == "DPH":
                    value = f"{value} + {b(3)}"
                elif name == "DP2A":
                    value = f"{value} + {read[2](0)}"
            temporary = self.fresh("v")
            self.emit(f"{temporary} = {value}")
            return dict.fromkeys(lanes, temporary)
        a = read[0]
        if name == "DST":
            b = read[1]
            every = {0: lambda: one, 1: lambda: f"({a(1)} * {b(1)})", 2: lambda: a(2), 3: lambda: b(3)}
            return {lane: every[lane]() for lane in lanes}
        if name == "LIF":  # semantics.i_LIF
            every = {0: lambda: one, 1: lambda: a(1), 3: lambda: one,
                     2: lambda: f"(_t.exp2_32({a(3)}) if {a(1)} > {zero} else {zero})"}
            return {lane: every[lane]() for lane in lanes}
        if name in PACKS or name in UNPACKS:
            return self.packing(name, a, lanes)
        if name == "NRM":
            length = self.fresh("n")
            scale = self.fresh("n")
            self.emit(f"{length} = {a(0)} * {a(0)} + {a(1)} * {a(1)} + {a(2)} * {a(2)}")
            self.emit(f"{scale} = {zero} if {length} == {zero} else {one} / np.sqrt({length})")
            return {lane: one if lane == 3 else f"({a(lane)} * {scale})" for lane in lanes}
        # REFL: a - 2 * dot(b, a) * b
        b = read[1]
        twice = self.fresh("v")
        dot = " + ".join(f"{b(i)} * {a(i)}" for i in range(4))
        self.emit(f"{twice} = {self.constant(2.0)} * ({dot})")
        return {lane: f"({a(lane)} - {twice} * {b(lane)})" for lane in lanes}

    def packing(self, name: str, a, lanes: tuple[int, ...]) -> dict[int, str]:
        """A pack (semantics.i_PK2 ...) or unpack (i_UP2 ...) of the source ``a``."""
        word = self.fresh("v")
        if name == "PK2":
            self.emit(f"{word} = _k.from_bits(_k.f32_to_f16({a(0)}) | (_k.f32_to_f16({a(1)}) << 16))")
        elif name in PACKS:
            limits = ", ".join(self.constant(limit) for limit in QUANTISED_PACKS[name])
            count = 2 if name == "PK16" else 4
            parts = [f"_k.quantised({a(lane)}, {limits})" for lane in range(count)]
            packed = f"_k.byte_word({', '.join(parts)})" if count == 4 \
                else f"_k.from_bits({parts[0]} | ({parts[1]} << 16))"
            self.emit(f"{word} = {packed}")
        else:
            self.emit(f"{word} = {a(0)}")
        if name in PACKS:
            return dict.fromkeys(lanes, word)
        values = {}
        for lane in lanes:
            if name == "UP2":
                value = f"_k.{'get_high' if lane % 2 else 'get_low'}({word})"
            elif name == "UP16":
                half = f"(_k.bits({word}) >> 16)" if lane % 2 else f"(_k.bits({word}) & 0xFFFF)"
                value = f"np.float32({half}) / {self.constant(UNORM16[2])}"
            elif name == "UPB":
                value = f"np.float32(_k.byte_of({word}, {lane})) / {self.constant(UNORM8[2])}"
            else:  # UP4: the byte as signed, over 127, at least -1
                byte = self.fresh("v")
                self.emit(f"{byte} = _k.byte_of({word}, {lane})")
                value = self.helper("maximum", f"(np.float32({byte} - 256 if {byte} >= 128 else {byte}) / "
                                               f"{self.constant(SNORM8[2])})", self.constant(-1.0))
            values[lane] = value
        return values

    # -- writing --

    def write(self, instruction: Instruction, values: dict[int, str]) -> None:
        """Output modifiers, then the masked, conditional write of ``values`` (lane -> expression)."""
        view = instruction.view
        lanes = tuple(sorted(values))
        modified = {}
        for lane in lanes:
            expression = values[lane]
            if view.scale:
                expression = f"({expression} * {self.constant(SCALE_FACTORS[view.scale])})"
            if view.saturate:
                expression = self.helper("saturate", expression)
            if view.precision:
                expression = self.helper(PRECISION_HELPERS[view.precision], expression)
            name = self.fresh("w")
            self.emit(f"{name} = {expression}")
            modified[lane] = name
        condition = view.condition
        tests = {}
        if not condition.always:
            for lane in lanes:
                component = condition.swizzle[lane]
                if component not in tests:
                    test = self.fresh("p")
                    self.emit(f"{test} = {self.condition_lane(condition, component)}")
                    tests[component] = test
        unconditional = condition.always

        def store(target: str, value: str, lane: int) -> None:
            if unconditional:
                self.touch_write(target, True)
                self.emit(f"{target} = {value}")
            else:
                self.touch_write(target, False)
                self.emit(f"{target} = {value} if {tests[condition.swizzle[lane]]} else {target}")

        if view.set_cc:
            for lane in lanes:
                store(f"cc{view.set_cc_register}_{lane}", modified[lane], lane)
        if view.no_destination:
            return
        if view.destination_half:
            register = halfs.storage_register(view.destination)
            places = halfs.component_places(view.destination, lanes)
            for lane, (component, half) in zip(lanes, places):
                target = f"r{register}_{component}"
                self.touch_read(target)  # the other half stays
                store(target, f"_k.{('set_high' if half else 'set_low')}({target}, {modified[lane]})", lane)
        else:
            for lane in lanes:
                store(f"r{view.destination}_{lane}", modified[lane], lane)

    @staticmethod
    def written_lanes(instruction: Instruction) -> tuple[int, ...] | None:
        """The lanes an arithmetic instruction writes, or None when it writes nothing (the
        interpreter skips such an instruction altogether)."""
        view = instruction.view
        lanes = tuple(component for component in range(4) if view.mask[component])
        if not lanes or view.condition.never:
            return None
        if view.no_destination and not view.set_cc:
            return None
        return lanes

    # -- instructions --

    def arithmetic(self, instruction: Instruction) -> None:
        lanes = self.written_lanes(instruction)
        if lanes is None:
            return
        name = instruction.view.opcode.name
        if name in NATIVE:
            self.flush_breaks_if_needed(instruction)
            self.guard(lambda: self.write(instruction, self.compute(instruction, lanes)))
            return
        if self.depth:
            raise Unsupported(f"slot {instruction.slot}: {name} inside a block needs NumPy per tile")
        if self.has_ret:
            raise Unsupported(f"slot {instruction.slot}: {name} in a program with RET")
        self.add_break(instruction)

    def guard(self, body) -> None:
        """Emit ``body`` for the pixels still running: not ended by RET, and inside the IF
        branch of the current predicate (see :meth:`predicated_if`)."""
        tests = ["not ended"] if self.has_ret else []
        if self.predicate is not None:
            self.touch_read(self.predicate)
            tests.append(self.predicate)
        if tests:
            self.emit(f"if {' and '.join(tests)}:")
            self.depth += 1
            body()
            self.depth -= 1
        else:
            body()

    def registers_read(self, instruction: Instruction) -> set[str]:
        view = instruction.view
        read = set()
        for source, _shape in self.readers(instruction):
            if source.file == "R":
                read.add(f"r{source.index}")
            elif source.file == "H":
                read.add(f"r{halfs.storage_register(source.index)}")
        if not view.condition.always:
            read.add(f"cc{view.condition.register}")
        return read

    def registers_written(self, instruction: Instruction) -> set[str]:
        view = instruction.view
        written = set()
        if view.set_cc:
            written.add(f"cc{view.set_cc_register}")
        if not view.no_destination:
            register = halfs.storage_register(view.destination) if view.destination_half else view.destination
            written.add(f"r{register}")
        return written

    def add_break(self, instruction: Instruction) -> None:
        """Store the operands of ``instruction`` for NumPy; its write waits for the next segment."""
        pending_writes = set().union(*(self.registers_written(i) for i, _, _, _ in self.pending)) \
            if self.pending else set()
        if self.registers_read(instruction) & pending_writes:
            self.flush_breaks()
        view = instruction.view
        name = view.opcode.name
        kind = "texture" if name in _TEXTURE_READS else "derivative" if name in ("DDX", "DDY") else "semantic"
        readers = [(view.sources[0], "v")] if kind == "texture" else self.readers(instruction)
        operands = []
        for source, shape in readers:
            if source.file == "c":
                operands.append(("constant", self.machine._reader(source, shape, instruction)(None)))
                continue
            read = self.reader(source, shape, instruction)
            count = 4 if shape == "v" else 1
            row = self.operand_rows
            self.operand_rows += count
            for position in range(count):
                self.emit(f"opnd[{row + position}, t] = {read(position)}")
            operands.append(("buffer", row, count))
        result_row = self.result_rows
        self.result_rows += 4
        self.breaks[-1].append(Break(instruction, kind, operands, result_row, self.written_lanes(instruction)))
        self.pending.append((instruction, result_row, self.registers_written(instruction), self.predicate))

    def flush_breaks_if_needed(self, instruction: Instruction) -> None:
        if self.pending:
            self.flush_breaks()

    def flush_breaks(self) -> None:
        """Start the next segment with the writes of the pending breaks."""
        if not self.pending:
            return
        self.segments.append(_Segment())
        self.breaks.append([])
        for instruction, row, _, predicate in self.pending:
            lanes = self.written_lanes(instruction)
            if predicate is not None:
                self.touch_read(predicate)
                self.emit(f"if {predicate}:")
                self.depth += 1
            values = {}
            for lane in lanes:
                name = self.fresh("b")
                self.emit(f"{name} = res[{row + lane}, t]")
                values[lane] = name
            self.write(instruction, values)
            if predicate is not None:
                self.depth -= 1
        self.pending = []

    def kill(self, instruction: Instruction) -> None:
        self.flush_breaks_if_needed(instruction)

        def body():
            condition = self.condition_any(instruction.view.condition)
            self.touch_write(KILLED, False)
            self.emit(f"{KILLED} = {KILLED} or {condition}")
        self.guard(body)

    # -- flow --

    def generate(self) -> None:
        instructions = self.program.instructions
        program_end = instructions[-1].slot + instructions[-1].slots
        self.block(list(instructions), 0, program_end)
        self.flush_breaks()

    def block(self, instructions: list[Instruction], start: int, stop: int) -> None:
        """Emit the instructions with slots in [start, stop)."""
        index = 0
        ordered = [i for i in instructions if start <= i.slot < stop]
        while index < len(ordered):
            instruction = ordered[index]
            view = instruction.view
            name = view.opcode.name
            index += 1
            if name in _NO_OPERATION:
                continue
            if name in ("IFE", "LOOP", "REP"):
                self.flush_breaks_if_needed(instruction)
                self.segment.flow = True
                body = [i for i in ordered if instruction.slot < i.slot < view.end_slot]
                if any(self.needs_break(i) for i in body):
                    if name != "IFE" or self.depth:
                        raise Unsupported(f"slot {instruction.slot}: {name} around an instruction that "
                                          "needs NumPy per tile")
                    self.predicated_if(instruction, body)
                elif name == "IFE":
                    self.if_block(instruction, body)
                else:
                    self.loop_block(instruction, body)
                while index < len(ordered) and ordered[index].slot < view.end_slot:
                    index += 1
                continue
            if name == "BRK":
                self.flush_breaks_if_needed(instruction)
                self.guard(lambda: self.exit(instruction, "break"))
                continue
            if name == "RET":
                self.flush_breaks_if_needed(instruction)
                self.guard(lambda: self.exit(instruction, "ret"))
                continue
            if name == "KIL":
                self.kill(instruction)
                continue
            self.arithmetic(instruction)

    def needs_break(self, instruction: Instruction) -> bool:
        """Whether ``instruction`` is done with NumPy between segments."""
        name = instruction.view.opcode.name
        return not (name in NATIVE or name in FLOW or name == "KIL" or name in _NO_OPERATION) \
            and self.written_lanes(instruction) is not None

    def predicated_if(self, instruction: Instruction, body: list[Instruction]) -> None:
        """An IF (at the top level) around instructions done with NumPy: both branches are
        emitted at the top level, everything in them guarded by a per-pixel flag computed where
        the IF is (the interpreter's masks), and the NumPy instructions computed for every pixel
        (as the interpreter does) but written only where the flag is set. IFs nested in it are
        predicated too; a loop around a NumPy instruction falls back (:class:`Unsupported`)."""
        view = instruction.view
        outer = self.predicate
        condition = self.condition_any(view.condition)
        taken = self.fresh("pm")
        within = "" if outer is None else f"{outer} and "
        if outer is not None:
            self.touch_read(outer)
        self.touch_write(taken, True)
        self.emit(f"{taken} = {within}{condition}")
        otherwise = None
        if view.else_slot != view.end_slot:
            otherwise = self.fresh("pm")
            self.touch_write(otherwise, True)
            self.emit(f"{otherwise} = {within}not {condition}")
        self.predicate = taken
        self.block(body, instruction.slot + 1, view.else_slot)
        if otherwise is not None:
            self.flush_breaks()  # the then-branch's NumPy writes come before the else-branch's
            self.predicate = otherwise
            self.block(body, view.else_slot, view.end_slot)
        self.flush_breaks()
        self.predicate = outer

    def exit(self, instruction: Instruction, how: str) -> None:
        condition = self.condition_any(instruction.view.condition)
        self.emit(f"if {condition}:")
        if how == "ret":
            self.emit("    ended = True")
        if self.loops:
            self.emit("    break")
        elif how == "break":
            self.emit("    pass")

    loops = 0

    def if_block(self, instruction: Instruction, body: list[Instruction]) -> None:
        view = instruction.view

        def emit_if():
            self.emit(f"if {self.condition_any(view.condition)}:")
            self.depth += 1
            self.emit("pass")
            self.block(body, instruction.slot + 1, view.else_slot)
            self.depth -= 1
            if view.else_slot != view.end_slot:
                self.emit("else:")
                self.depth += 1
                self.emit("pass")
                self.block(body, view.else_slot, view.end_slot)
                self.depth -= 1
        self.guard(emit_if)

    def loop_block(self, instruction: Instruction, body: list[Instruction]) -> None:
        view = instruction.view
        if view.loop_count == 0:
            return

        def emit_loop():
            saved = self.fresh("saved")
            iteration = self.fresh("it")
            self.emit(f"{saved} = ctr")
            self.emit(f"for {iteration} in range({view.loop_count}):")
            self.depth += 1
            if self.has_ret:
                self.emit("if ended:")
                self.emit("    break")
            if view.opcode.name == "LOOP":
                self.emit(f"ctr = {view.loop_start} + {iteration} * {view.loop_increment}")
            self.loops += 1
            self.emit("pass")
            self.block(body, instruction.slot + 1, view.end_slot)
            self.loops -= 1
            self.depth -= 1
            self.emit(f"ctr = {saved}")
        self.guard(emit_loop)


# --- assembling the module --------------------------------------------------------------------

HEADER = '''\
import numpy as np
from shaderkit.isa.rsx import fragment_kernels as _k
from shaderkit.isa.rsx import transcendentals as _t


def _f(word):
    return np.array([word], dtype=np.uint32).view(np.float32)[0]


SENTINEL = _f({sentinel})
'''


def generate(machine: FragmentMachine, layout: Layout) -> Plan:
    """The kernels' source for ``machine``'s program run as ``layout`` says, and the plan of the
    breaks between them. Raises :class:`Unsupported`."""
    generator = _Generator(machine, layout)
    generator.generate()
    generator.constant(0.0)  # K_ZERO below
    segments = generator.segments
    exports = _export_names(machine, layout)
    # Which locals cross a segment boundary: written in one segment, first read in a later one
    # (the last segment reads what it exports).
    needs = []
    for number, segment in enumerate(segments):
        needed = {name for name, kind in segment.first.items() if kind == "read"}
        if number == len(segments) - 1:
            needed |= {name for name in exports if name not in segment.first}
        needs.append(needed)
    reads_after = [set().union(*needs[number + 1:]) for number in range(len(segments))]
    state: dict[str, int] = {}
    loads, stores, initial = [], [], []
    written_before: set[str] = set()
    for number, segment in enumerate(segments):
        needed = needs[number]
        load = sorted(needed & written_before)
        loads.append(load)
        initial.append(sorted(needed - written_before))
        store = sorted(segment.written & reads_after[number])
        stores.append(store)
        for name in load + store:
            state.setdefault(name, len(state))
        written_before |= segment.written
    names = ("kernel",)
    from .fragment import KILLED_SENTINEL
    parts = [HEADER.format(sentinel=int(np.asarray(KILLED_SENTINEL).view(np.uint32)))]
    for key, constant in sorted(generator.constants.items(), key=lambda item: item[1]):
        parts.append(f"{constant} = _f({key})\n")
    # One function for all segments: one compilation, the segment chosen by the first argument.
    parts.append("def kernel(segment, row0, rows, col0, cols, width, height, inp, cst, st, opnd, res, out, outk):\n")
    for number, segment in enumerate(segments):
        keyword = "if" if number == 0 else "elif"
        parts.append(f"    {keyword} segment == {number}:\n")
        parts.append(_segment_source(segment, layout, loads[number], initial[number], stores[number], state,
                                     generator, exports if number == len(segments) - 1 else None))
    return Plan("".join(parts), names, generator.breaks[:len(segments) - 1], max(len(state), 1),
                max(generator.operand_rows, 4 * max(len(layout.exports), 1)), max(generator.result_rows, 1),
                generator.uses_flow)


def _is_flag(local: str) -> bool:
    """Whether a local is a per-pixel flag (KIL's, a predicate) rather than a float32."""
    return local == KILLED or local.startswith("pm")


def _export_names(machine: FragmentMachine, layout: Layout) -> list[str]:
    used = machine.register_rows
    names = []
    if layout.fullscreen:
        if 0 in used:
            names += ["r0_0", "r0_1"] if layout.output_from_h0 else [f"r0_{c}" for c in range(4)]
    else:
        names += [f"r{register}_{c}" for register in layout.exports for c in range(4)]
    if any(i.view.opcode is not None and i.view.opcode.name == "KIL" for i in machine.program.instructions):
        names.append(KILLED)
    return names


def _segment_source(segment: _Segment, layout: Layout, loads: list[str], initial: list[str],
                    stores: list[str], state: dict[str, int], generator: _Generator,
                    exports: list[str] | None) -> str:
    lines = []
    add = lines.append
    add("    across = np.float32(width)")
    add("    up = np.float32(height)")
    add("    up2 = up * np.float32(2.0)")
    text = "\n".join(segment.lines)
    for index in range(len(FP_INPUTS)):
        for component in range(4):
            if f"c{index}_{component}" in text:
                add(f"    c{index}_{component} = cst[{index}, {component}]")
        if f"ov{index}" in text:
            add(f"    ov{index} = cst[{OVERRIDE_ROW}, {PROCEDURAL_ORDER.index(index)}] != 0")
    add("    for r in range(rows):")
    add("        gy = row0 + r")
    add("        yf = np.float32(gy) + np.float32(0.5)")
    add("        for j in range(cols):")
    add("            cx = col0 + j")
    add("            t = r * cols + j")
    add("            g = np.uint64(gy * width + cx)")  # unsigned: no negative-index wrap to test
    add("            xf = np.float32(cx) + np.float32(0.5)")
    body = "            "
    for local in loads:
        if _is_flag(local):
            add(f"{body}{local} = st[{state[local]}, t] != 0")
        else:
            add(f"{body}{local} = st[{state[local]}, t]")
    for local in initial:
        add(f"{body}{local} = " + ("False" if _is_flag(local) else "K_ZERO"))
    add(f"{body}ctr = 0")
    if generator.has_ret:
        add(f"{body}ended = False")
    for line in segment.lines:
        add(body + line)
    for local in stores:
        if _is_flag(local):
            add(f"{body}st[{state[local]}, t] = np.float32(1.0) if {local} else np.float32(0.0)")
        else:
            add(f"{body}st[{state[local]}, t] = {local}")
    if exports is not None:
        killed = KILLED in exports
        if layout.fullscreen:
            if "r0_0" not in exports:
                colour = ["K_ZERO"] * 4
            elif layout.output_from_h0:
                colour = ["_k.get_low(r0_0)", "_k.get_high(r0_0)", "_k.get_low(r0_1)", "_k.get_high(r0_1)"]
            else:
                colour = [f"r0_{c}" for c in range(4)]
            values = [[f"(SENTINEL if {KILLED} else {colour[c]})" if killed else colour[c] for c in range(4)]]
        else:
            values = [[f"r{register}_{c}" for c in range(4)] for register in layout.exports]
        # Planar into the operand buffer first: interleaved stores in the pixel loop would keep
        # LLVM from vectorising it. A second, plain loop interleaves them into the output.
        for number, row in enumerate(values):
            for component, value in enumerate(row):
                add(f"{body}opnd[{4 * number + component}, t] = {value}")
        if killed:
            add(f"{body}outk[g] = {KILLED}")
        add("    for r in range(rows):")
        add("        for j in range(cols):")
        add("            t = r * cols + j")
        add("            g = np.uint64((row0 + r) * width + col0 + j)")
        for number in range(len(values)):
            for component in range(4):
                add(f"{body}out[{number}, g, {component}] = opnd[{4 * number + component}, t]")
    source = "\n".join("    " + line for line in lines) + "\n"
    return source.replace("K_ZERO", generator.constant(0.0))
