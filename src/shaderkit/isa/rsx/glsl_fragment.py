"""RSX fragment programs as GLSL 4.30 fragment shaders (spec/rsx.md sections 3 and 7).

The shader has the shape::

    layout(location = 0) out vec4 fragColor;    in vec4 tc0; ...      (or fullscreen uniforms)
    const vec4 c0 = vec4(...);                    one per distinct literal (uniforms: named)
    vec4 f_tex0;  vec4 r0 = vec4(0.0); ...        inputs as read, registers, CC registers
    void rsx_program() { ... }                    one statement or group per instruction
    void main() { inputs; rsx_program(); outputs }

so that RET is a ``return`` and the outputs are still written. IFE, LOOP/REP and BRK become
``if``/``else``, ``for`` and ``break`` from the word offsets (section 3.9); LOOP/REP run ``count``
times with the loop counter ``start + i * increment`` (the [conflict] of 3.9 read as the
emulator reads it). An arithmetic instruction's value comes from the table of
:mod:`.glsl_operations`, which vertex programs share; texture fetches, flow control and KIL are
written here.

Registers. An H register is the fp16 view of half an R register (H2n = R(n).xy, H2n+1 =
R(n).zw). Where a program touches both views of the same storage, the H register is read and
written through ``rsx_load_half``/``rsx_store_half`` on the R variable (packHalf2x16 /
unpackHalf2x16 on its bits), so every crossing between the views is exact. Where only the H view
is used, ``hN`` is a plain vec4 holding fp16-rounded values, which behaves the same.

Inputs are read through globals named after the RSX inputs (``f_col0``, ``f_tex0`` ...), filled
by ``main`` from varyings named like the decompiled vertex program's outputs (``col0``,
``tc0``; COL0/COL1 clamped to [0, 1]) or, with ``fullscreen``, from ``gl_FragCoord`` as the
emulation goldens define them (golden/rsx/emu/README.md; inputs the README leaves out are 0, as
in the emulator) with a per-input ``uniform vec4`` override enabled by ``rsx_override_mask``.

Samplers are bound with ``layout(binding = unit)``. The texture target is runtime state the
microcode does not hold (spec 3.7), so a unit is a ``sampler2D`` unless the container records it
as samplerRECT or the caller names it in ``rectangle_units`` (``--texture-target``): then it is a
``sampler2DRect`` read at texel coordinates, ``texture(s, coord.xy)`` and ``textureProj`` for TXP
(a rectangle texture has no mipmaps, so TXB and TXL read it as TEX does, and TXD keeps its
gradients, ``textureGrad``). The host binds a rectangle texture (GL_TEXTURE_RECTANGLE) there, as
:mod:`.gl` does for a ``Texture`` with ``rectangle=True``.

Decisions where the spec leaves room (the emulator, :mod:`.fragment`, makes the same ones, and
test_rsx_gl_vs_emulator holds the two together): the perspective flag is ignored
(w = 1 on a screen-aligned quad); DDX/DDY act on all four lanes; NRM writes w = 1; the input
precision clamp of code 1 rounds to fp16 like the H operation precision; an indexed input reads
f[TEX(loop counter + displacement)], 0 outside TEX0..TEX9; CAL is refused (unused by Cg, encoding
unknown). Depth is exported (``gl_FragDepth = r1.z``) when the container header says so or, for
bare ucode, when the program writes R1.z and never reads R1 (a compiler writes a value it never
reads only because it is an output); the colour comes from H0 when the header says so or, for bare
ucode, when the program writes H0 and never R0 (:func:`.image.colour_in_h0`). The
MRT colours (R2..R4) are not exported: how many render targets exist is host state.

GLSL compilers do not promise the sign of a zero (Mesa folds ``0.0 + x`` to ``x``), nor keep
denormal floats (llvmpipe flushes them), so those can differ from the IEEE emulator.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from shaderkit.core.diagnostics import InputError

from .container import CgParameter, FragmentProgramHeader
from .glsl_operations import translate
from .image import colour_in_h0, sampler_records
from .image import rectangle_units as recorded_rectangle_units
from .glsl_shared import (
    ALL_LANES,
    Computation,
    Destination,
    Helpers,
    Operand,
    Result,
    Write,
    condition_any,
    constant_vector,
    emit_writes,
    float_literal,
    grouped,
    identifier,
    instruction_comment,
    is_finite,
    saturated,
    whole,
)
from .instruction import (FP_INPUT_NAMES, SCALE_FACTORS, Condition, FragmentView, Instruction, Program, Source,
                          words_to_floats)
from .limits import FP_TEMPORARIES
from .printer import FORM_A, Naming, render

DEPTH_REGISTER = 1
TEXCOORD_FIRST, TEXCOORD_COUNT = 4, 10
NO_WRITE_OPS = ("NOP", "FENCT", "FENCB", "KIL")
# RSX input index -> GLSL global the instructions read.
INPUT_GLOBALS = {0: "f_wpos", 1: "f_col0", 2: "f_col1", 3: "f_fogc", 14: "f_face",
                 **{TEXCOORD_FIRST + n: f"f_tex{n}" for n in range(TEXCOORD_COUNT)}}
# Varyings a vertex program writes, by RSX input index (names shared with glsl_vertex).
INPUT_VARYINGS = {1: "col0", 2: "col1", 3: "fogc",
                  **{TEXCOORD_FIRST + n: f"tc{n}" for n in range(TEXCOORD_COUNT)}}
# Input precision clamps and operation precisions (3.4, 3.8): code -> GLSL wrapper.
PRECISION_CLAMPS = {2: "clamp({}, -2.0, 1.9990234375)", 3: "clamp({}, -1.0, 1.0)"}


def override_uniform(name: str) -> tuple[int, str]:
    """Fullscreen input ``name`` (``TEX0``, ``COL0`` ... as in :data:`FP_INPUT_NAMES`) ->
    (bit in ``rsx_override_mask``, name of its override uniform)."""
    key = name.strip().upper()
    key = "SSA" if key == "FACE" else key
    if key not in FP_INPUT_NAMES[:15]:
        raise InputError(f"unknown fragment input {name!r} (expected one of {', '.join(FP_INPUT_NAMES[:15])})")
    index = FP_INPUT_NAMES.index(key)
    return index, f"rsx_override_{key.lower()}"


def fullscreen_default(index: int) -> str:
    """The input the emulation goldens define for a full-screen quad (0 where they say nothing)."""
    return {
        0: "gl_FragCoord",
        1: "vec4(0.8, 0.4, 0.2, 1.0)",
        2: "vec4(0.1, 0.2, 0.3, 0.4)",
        4: "vec4(position.x, position.y, 0.0, 1.0)",
        5: "vec4(1.0 - position.x, position.y * 0.5, 0.25, 1.0)",
    }.get(index, "vec4(0.0)")


def decompile_fragment(program: Program, parameters: Sequence[CgParameter] | None = None, *,
                       fullscreen: bool = False, header: FragmentProgramHeader | None = None,
                       rectangle_units: Collection[int] = ()) -> str:
    return _FragmentDecompiler(program, tuple(parameters or ()), fullscreen, header, rectangle_units).text()


# --- structure ----------------------------------------------------------------------------------


@dataclass
class _If:
    instruction: Instruction
    then: list = field(default_factory=list)
    otherwise: list = field(default_factory=list)


@dataclass
class _Loop:
    instruction: Instruction
    body: list = field(default_factory=list)


def _structure(program: Program) -> list:
    """The instructions as a tree of IFE / LOOP / REP blocks (section 3.9 offsets)."""
    instructions = list(program.instructions)
    program_end = program.slot_count
    boundaries = {instruction.slot for instruction in instructions} | {program_end}
    position = 0

    def block(limit: int) -> list:
        nonlocal position
        items: list = []
        while position < len(instructions) and instructions[position].slot < limit:
            instruction = instructions[position]
            position += 1
            view = instruction.view
            name = view.opcode.name if view.opcode else None
            if name in ("IFE", "LOOP", "REP"):
                else_slot = view.else_slot if name == "IFE" else view.end_slot
                if not (instruction.slot < else_slot <= view.end_slot <= limit
                        and else_slot in boundaries and view.end_slot in boundaries):
                    raise InputError(
                        f"slot {instruction.slot}: {name} offsets (else slot {else_slot}, end slot "
                        f"{view.end_slot}) do not fit the program's block structure")
                if name == "IFE":
                    items.append(_If(instruction, block(else_slot), block(view.end_slot)))
                else:
                    items.append(_Loop(instruction, block(view.end_slot)))
            else:
                items.append(instruction)
        return items

    return block(program_end)


# --- the decompiler -----------------------------------------------------------------------------


class _FragmentDecompiler:
    def __init__(self, program: Program, parameters: tuple[CgParameter, ...], fullscreen: bool,
                 header: FragmentProgramHeader | None, rectangle_units: Collection[int]):
        self.program = program
        self.fullscreen = fullscreen
        self.helpers = Helpers()
        self._check_opcodes()
        # Bare ucode has no header: the colour register is read off the program.
        self.output_from_h0 = bool(header.output_from_h0) if header is not None else colour_in_h0(program)
        self.samplers = {unit: identifier(parameter.name, "u_")
                         for unit, parameter in sampler_records(parameters).items()}
        self.rectangle_units = recorded_rectangle_units(parameters) | frozenset(rectangle_units)
        self.uniform_slots = {offset // 16: parameter for parameter in parameters
                              for offset in parameter.embedded_constant_offsets or ()}
        self._scan_registers()
        self.depth = bool(header.depth_replace) if header is not None else self._writes_depth_only()
        if self.depth:
            self.r_used.add(DEPTH_REGISTER)
        if self.output_from_h0:
            self.h_used.add(0)
        else:
            self.r_used.add(0)
        self.aliased = {storage for storage in self.r_used
                        if 2 * storage in self.h_used or 2 * storage + 1 in self.h_used}
        self.literals: dict[int, str] = {}  # instruction slot -> GLSL name of its literal
        self.constant_names: dict[tuple[int, ...], str] = {}
        self.uniform_names: set[str] = set()
        self.literal_declarations: list[str] = []
        self.late_literals: list[str] = []
        self.inputs: set[int] = set()
        self.textures: set[int] = set()
        self.cc_used: set[int] = set()
        self.loop_counters: list[str] = []  # of the loops around the current instruction
        self.counters_read: set[str] = set()

    # -- analysis --

    def _check_opcodes(self) -> None:
        for instruction in self.program.instructions:
            view = instruction.view
            if view.opcode is None:
                raise InputError(f"slot {instruction.slot}: unknown fragment opcode 0x{view.opcode_value:02X}")
            if view.opcode.unimplemented:
                raise InputError(f"slot {instruction.slot}: {view.opcode.name} (0x{view.opcode_value:02X}) "
                                 "is not implemented by the RSX; it cannot be decompiled")
            if view.opcode.name == "CAL":
                raise InputError(f"slot {instruction.slot}: CAL (fragment subroutine call) is not supported")

    def _scan_registers(self) -> None:
        self.r_used: set[int] = set()
        self.h_used: set[int] = set()
        self.r_read: set[int] = set()
        for instruction in self.program.instructions:
            view = instruction.view
            registers = [(source.file, source.index) for source in _used_sources(view) if source.file in "RH"]
            for file, index in registers:
                (self.r_used if file == "R" else self.h_used).add(index)
                self.r_read.add(index if file == "R" else index // 2)
            if _writes_register(view):
                registers.append(("H" if view.destination_half else "R", view.destination))
                (self.h_used if view.destination_half else self.r_used).add(view.destination)
            for file, index in registers:
                if (index if file == "R" else index // 2) >= FP_TEMPORARIES:
                    raise InputError(f"slot {instruction.slot}: {file}{index} is beyond the "
                                     f"{FP_TEMPORARIES} temporaries")

    def _writes_depth_only(self) -> bool:
        """Bare ucode: R1.z is written (as R1.z or through H3.xy) and R1 is never read."""
        for instruction in self.program.instructions:
            view = instruction.view
            if not _writes_register(view):
                continue
            if not view.destination_half and view.destination == DEPTH_REGISTER and view.mask[2]:
                return DEPTH_REGISTER not in self.r_read
            if view.destination_half and view.destination == 2 * DEPTH_REGISTER + 1 and any(view.mask[:2]):
                return DEPTH_REGISTER not in self.r_read
        return False

    # -- operands --

    def _register(self, file: str, index: int) -> str:
        if file == "R":
            return f"r{index}"
        if index // 2 in self.aliased:
            self.helpers.use("rsx_load_half")
            return f"rsx_load_half(r{index // 2}.{'zw' if index & 1 else 'xy'})"
        return f"h{index}"

    def _operand(self, instruction: Instruction, source: Source) -> Operand:
        if source.file in "RH":
            base = self._register(source.file, source.index)
        elif source.file == "f":
            base = self._input(instruction)
        elif source.file == "c":
            base = self._literal(instruction)
        else:
            raise InputError(f"slot {instruction.slot}: a source operand has the invalid register type 3")
        modifiers = []
        if source.absolute:
            modifiers.append("abs({})")
        if source.clamp == 1:
            self.helpers.use("rsx_half")
            modifiers.append("rsx_half({})")
        elif source.clamp in PRECISION_CLAMPS:
            modifiers.append(PRECISION_CLAMPS[source.clamp])
        elif source.clamp:
            raise InputError(f"slot {instruction.slot}: input precision clamp code {source.clamp} "
                             "has no known meaning")
        if source.negate:
            modifiers.append("-{}")
        return Operand(base, source.swizzle, tuple(modifiers))

    def _input(self, instruction: Instruction) -> str:
        view = instruction.view
        if view.indexed_input:
            self.inputs.update(range(TEXCOORD_FIRST, TEXCOORD_FIRST + TEXCOORD_COUNT))
            counter = self.loop_counters[-1] if self.loop_counters else "0"
            self.counters_read.add(counter)
            return f"rsx_texcoord({counter} + {view.displacement})"
        if view.input not in INPUT_GLOBALS:
            raise InputError(f"slot {instruction.slot}: input attribute index {view.input} is invalid")
        self.inputs.add(view.input)
        return INPUT_GLOBALS[view.input]

    def _literal(self, instruction: Instruction) -> str:
        """The GLSL name of an instruction's literal slot: a named uniform when the container
        patches that slot, else ``cK`` with K counted over distinct values in order of use."""
        slot = instruction.slot
        if slot in self.literals:
            return self.literals[slot]
        if instruction.literal is None:
            raise InputError(f"slot {slot}: a constant source without its literal slot")
        values = words_to_floats(instruction.literal)
        finite = all(map(is_finite, values))
        parameter = self.uniform_slots.get(slot + 1)
        if parameter is not None:
            name = identifier(parameter.name, "u_")
            if name not in self.uniform_names:
                self.uniform_names.add(name)
                # A uniform initialiser must be a constant expression: bit casts are not.
                initialiser = f" = {constant_vector(values)}" if finite else ""
                self.literal_declarations.append(f"uniform vec4 {name}{initialiser};  // {parameter.name}")
        else:
            name = self.constant_names.get(instruction.literal)
            if name is None:
                name = f"c{len(self.constant_names)}"
                self.constant_names[instruction.literal] = name
                if finite:
                    self.literal_declarations.append(f"const vec4 {name} = {constant_vector(values)};")
                else:
                    self.literal_declarations.append(f"vec4 {name};  // set in main: not a finite constant")
                    self.late_literals.append(
                        f"{name} = vec4({', '.join(float_literal(value) for value in values)});")
        self.literals[slot] = name
        return name

    # -- instructions --

    def _statements(self, items: list, lines: list[str], indent: str) -> None:
        for item in items:
            if isinstance(item, _If):
                view = item.instruction.view
                lines.append(f"{indent}// {self._comment(item.instruction)}")
                test = condition_any(view.condition, self._cc(view.condition))
                lines.append(f"{indent}if ({test or 'true'})")
                lines.append(indent + "{")
                self._statements(item.then, lines, indent + "    ")
                lines.append(indent + "}")
                if item.otherwise:
                    lines.append(indent + "else")
                    lines.append(indent + "{")
                    self._statements(item.otherwise, lines, indent + "    ")
                    lines.append(indent + "}")
            elif isinstance(item, _Loop):
                view = item.instruction.view
                lines.append(f"{indent}// {self._comment(item.instruction)}")
                depth = len(self.loop_counters)
                index = f"i{depth}"
                lines.append(f"{indent}for (int {index} = 0; {index} < {view.loop_count}; ++{index})")
                lines.append(indent + "{")
                counter = f"loop{depth}"
                self.loop_counters.append(counter)
                body: list[str] = []
                self._statements(item.body, body, indent + "    ")
                self.loop_counters.pop()
                if counter in self.counters_read:
                    lines.append(f"{indent}    int {counter} = {view.loop_start} + {index} * {view.loop_increment};")
                lines.extend(body)
                lines.append(indent + "}")
            else:
                lines.append(f"{indent}// {self._comment(item)}")
                self._instruction(item, lines, indent)

    def _comment(self, instruction: Instruction) -> str:
        """The instruction as the disassembler prints it, literals by their GLSL names."""
        def loop_constant(loop: Instruction) -> str:
            view = loop.view
            return f"{{{view.loop_count}, {view.loop_start}, {view.loop_increment}}}"
        naming = Naming(literal=lambda owner: self.literals.get(owner.slot, "c"),
                        loop_constant=loop_constant, target=lambda slot: f"slot {slot}",
                        rectangle_units=self.rectangle_units)
        return instruction_comment(instruction, render(instruction, naming, FORM_A)[0])

    def _cc(self, condition: Condition) -> str:
        self.cc_used.add(condition.register)
        return f"cc{condition.register}"

    def _instruction(self, instruction: Instruction, lines: list[str], indent: str) -> None:
        view = instruction.view
        name = view.opcode.name
        if name in ("BRK", "RET"):
            test = None if view.condition.always else condition_any(view.condition, self._cc(view.condition))
            statement = "break;" if name == "BRK" else "return;"
            if name == "BRK" and not self.loop_counters:
                raise InputError(f"slot {instruction.slot}: BRK outside a LOOP or REP")
            lines.append(f"{indent}{statement}" if test is None else f"{indent}if ({test}) {statement}")
            return
        if name == "KIL":
            test = None if view.condition.always else condition_any(view.condition, self._cc(view.condition))
            lines.append(f"{indent}discard;" if test is None else f"{indent}if ({test}) discard;")
            return
        if name in NO_WRITE_OPS:
            return
        lanes = tuple(lane for lane in ALL_LANES if view.mask[lane])
        writes = []
        if not view.no_destination:
            writes.append(Write(self._destination(view), lanes))
        if view.set_cc:
            self.cc_used.add(view.set_cc_register)
            writes.append(Write(Destination(f"cc{view.set_cc_register}"), lanes))
        if not lanes or not writes:
            return
        result = self._modified(instruction, self._result(instruction))
        cc = f"cc{view.condition.register}"
        if not view.condition.always:
            self.cc_used.add(view.condition.register)
        emit_writes(lines, indent, [Computation("result", result, writes)], view.condition, cc, self.helpers)

    def _destination(self, view: FragmentView) -> Destination:
        if not view.destination_half:
            return Destination(f"r{view.destination}")
        storage = view.destination // 2
        if storage in self.aliased:
            return Destination(f"r{storage}.{'zw' if view.destination & 1 else 'xy'}", "half")
        # An fp16 register holds fp16 values; an H-precision result is one already.
        return Destination(f"h{view.destination}", "float" if view.precision == 1 else "fp16")

    def _modified(self, instruction: Instruction, result: Result) -> Result:
        """The output modifiers in spec order (3.8): dst scale, saturate, operation precision."""
        view = instruction.view
        if view.scale not in SCALE_FACTORS:
            raise InputError(f"slot {instruction.slot}: dst scale code {view.scale} has no known meaning")
        if view.scale:
            factor = float_literal(SCALE_FACTORS[view.scale])
            result = result.then(lambda text, size: f"{grouped(text)} * {factor}")
        if view.saturate:
            result = result.then(saturated(self.helpers))
        if view.precision == 1:
            self.helpers.use("rsx_half")
            result = result.then(lambda text, size: f"rsx_half({text})")
        elif view.precision:
            clamp = PRECISION_CLAMPS[view.precision]
            result = result.then(lambda text, size: clamp.format(text))
        return result

    def _result(self, instruction: Instruction) -> Result:
        view = instruction.view
        operands = [self._operand(instruction, view.sources[slot]) for slot in view.opcode.sources]
        if view.opcode.texture:
            return self._texture(instruction, *(*operands, None, None)[:3])
        return translate(view.opcode, operands, self.helpers, instruction.slot)

    def _texture(self, instruction: Instruction, a: Operand, b: Operand | None, c: Operand | None) -> Result:
        view = instruction.view
        unit = view.texture_unit
        self.textures.add(unit)
        sampler = self._sampler(unit)
        xy = (0, 1)
        if unit in self.rectangle_units:  # texel coordinates; a rectangle texture has no mipmaps
            call = {
                "TXP": lambda: f"textureProj({sampler}, {a.all()})",
                "TXD": lambda: f"textureGrad({sampler}, {a.lanes(xy)}, {b.lanes(xy)}, {c.lanes(xy)})",
            }.get(view.opcode.name, lambda: f"texture({sampler}, {a.lanes(xy)})")()
            return self._expanded(view, call)
        call = {
            "TEX": lambda: f"texture({sampler}, {a.lanes(xy)})",
            "TXP": lambda: f"textureProj({sampler}, {a.all()})",
            "TXB": lambda: f"texture({sampler}, {a.lanes(xy)}, {a.lane(3)})",
            "TXL": lambda: f"textureLod({sampler}, {a.lanes(xy)}, {b.lane(0)})",
            "TXD": lambda: f"textureGrad({sampler}, {a.lanes(xy)}, {b.lanes(xy)}, {c.lanes(xy)})",
        }[view.opcode.name]()
        return self._expanded(view, call)

    @staticmethod
    def _expanded(view: FragmentView, call: str) -> Result:
        """The fetched texel, expanded to 2x - 1 when the instruction says _bx2."""
        return whole(f"({call} * 2.0 - 1.0)" if view.expand_texture else call)

    def _sampler(self, unit: int) -> str:
        return self.samplers.get(unit, f"texture{unit}")

    # -- the shader --

    def text(self) -> str:
        tree = _structure(self.program)
        for instruction in self.program.instructions:  # literal names in order of first use
            if any(source.file == "c" for source in _used_sources(instruction.view)):
                self._literal(instruction)
        body: list[str] = []
        self._statements(tree, body, "    ")
        main = self._main()  # before the declarations: it may need a helper
        return "\n".join(self._declarations() + ["void rsx_program()", "{"] + body + ["}", ""]
                         + main) + "\n"

    def _declarations(self) -> list[str]:
        instructions = self.program.instructions
        literal_slots = sum(1 for instruction in instructions if instruction.literal is not None)
        lines = ["#version 430",
                 f"// RSX fragment program: {len(instructions)} instructions, {literal_slots} literal "
                 f"slot(s) (decompiled by shaderkit)", ""]
        lines.append("layout(location = 0) out vec4 fragColor;")
        if self.fullscreen:
            lines.append("uniform vec2 rsx_viewport_size;")
            lines.append("uniform int rsx_override_mask;  // bit n: input n takes its override")
            for index in sorted(self.inputs):
                lines.append(f"uniform vec4 {override_uniform(FP_INPUT_NAMES[index])[1]};")
        else:
            for index in sorted(self.inputs):
                if index in INPUT_VARYINGS:
                    lines.append(f"in vec4 {INPUT_VARYINGS[index]};")
        for unit in sorted(self.textures):
            kind = "sampler2DRect" if unit in self.rectangle_units else "sampler2D"
            lines.append(f"layout(binding = {unit}) uniform {kind} {self._sampler(unit)};")
        lines.append("")
        if self.literal_declarations:
            lines.extend(self.literal_declarations + [""])
        for index in sorted(self.inputs):
            lines.append(f"vec4 {INPUT_GLOBALS[index]};  // f[{FP_INPUT_NAMES[index]}]")
        for index in sorted(self.r_used):
            lines.append(f"vec4 r{index} = vec4(0.0);")
        for index in sorted(self.h_used):
            if index // 2 not in self.aliased:
                lines.append(f"vec4 h{index} = vec4(0.0);  // fp16 values")
        for index in sorted(self.cc_used):
            lines.append(f"vec4 cc{index} = vec4(0.0);")
        lines.append("")
        if self.counters_read:  # inputs indexed by a loop counter
            lines.extend(_texcoord_function() + [""])
        if self.helpers:
            lines.extend([self.helpers.text(), ""])
        return lines

    def _main(self) -> list[str]:
        lines = ["void main()", "{"]
        if self.fullscreen and self.inputs:
            lines.append("    vec2 position = gl_FragCoord.xy / rsx_viewport_size;")
        for index in sorted(self.inputs):
            lines.append(f"    {INPUT_GLOBALS[index]} = {self._input_value(index)};")
        lines.extend(f"    {line}" for line in self.late_literals)
        lines.append("    rsx_program();")
        if self.output_from_h0:
            lines.append(f"    fragColor = {self._register('H', 0)};")
        else:
            lines.append("    fragColor = r0;")
        if self.depth:
            lines.append(f"    gl_FragDepth = r{DEPTH_REGISTER}.z;")
        lines.append("}")
        return lines

    def _input_value(self, index: int) -> str:
        if self.fullscreen:
            bit, uniform = override_uniform(FP_INPUT_NAMES[index])
            return f"(rsx_override_mask & {1 << bit}) != 0 ? {uniform} : {fullscreen_default(index)}"
        if index == 0:
            return "gl_FragCoord"
        if index == 14:
            return "vec4(gl_FrontFacing ? 1.0 : -1.0)"
        if index in (1, 2):
            return f"clamp({INPUT_VARYINGS[index]}, 0.0, 1.0)"
        return INPUT_VARYINGS[index]


def _texcoord_function() -> list[str]:
    lines = ["// f[TEX(loop counter + n)]: 0 outside TEX0..TEX9",
             "vec4 rsx_texcoord(int index)", "{", "    switch (index)", "    {"]
    lines += [f"    case {n}: return f_tex{n};" for n in range(TEXCOORD_COUNT)]
    lines += ["    }", "    return vec4(0.0);", "}"]
    return lines


def _used_sources(view: FragmentView) -> list[Source]:
    if view.opcode is None or view.opcode.flow:
        return []
    return [view.sources[slot] for slot in view.opcode.sources]


def _writes_register(view: FragmentView) -> bool:
    return (view.opcode is not None and not view.opcode.flow and view.opcode.name not in NO_WRITE_OPS
            and not view.no_destination and any(view.mask))
