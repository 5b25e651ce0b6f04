"""RSX vertex programs as GLSL 4.30 vertex shaders (spec/rsx.md sections 2 and 7).

The shader has the shape::

    layout(location = 3) in vec4 in_diff_color;   one input per v[n] read, location n
    uniform vec4 vc[468];                         the constant memory c[0..467]
    out vec4 col0; ...                            one varying per output register written
    vec4 r0 = vec4(0.0); ivec4 a0; vec4 cc0; vec4 o0 = vec4(0.0, 0.0, 0.0, 1.0); ...
    void rsx_program() { ... }                    one statement or group per instruction
    void main() { rsx_program(); gl_Position = o0; col0 = o1; ... }

Each instruction writes its vector result, then its scalar result (section 2.9); when both ops
issue together, or one result has several destinations, both values and the CC test are bound
to locals first, so both ops read the registers as they were (dual issue). The value of each op
comes from the table of :mod:`.glsl_operations`, which fragment programs share; the texture fetch
(TXL) and flow control are written here.

Outputs (section 7 step 5) are named like the fragment decompiler's inputs so that the two
shaders link: o0 -> gl_Position, o1 col0, o2 col1, o3 bfc0, o4 bfc1, o5 fogc, o6 tc9, o7..o14
tc0..tc7, o15 tc8, each the whole register (so transform feedback recovers every output); o5.yzw
and o6.yzw also feed gl_ClipDistance[0..5] and o6.x gl_PointSize when those lanes are written.

Flow: a program without jumps or calls is straight-line code (RET is ``return``). With BRA/BRI,
CAL/CLI, BRB/CLB the body becomes the dispatcher of section 7::

    int pc = 0;
    for (int steps = 0; steps < 65536; ++steps)  // a runaway program stops
    {
        if (pc <= 0) { ... }         a block per branch target, entered at or after pc
        if (pc <= 4) { ... if (test) { pc = 9; continue; } ... }
    }

with a call stack four deep (NV_vertex_program2) for CAL/CLI/CLB and RET. Branches through an
address register (0x08/0x0A: target + A.c) make every instruction a block.

Where the spec is uncertain this follows the emulator (:mod:`.vertex`) so that both agree: the C
bit updates the CC with the vector result (the scalar one when the vector op is NOP), also next
to a register write, and an op with no destination and no C bit writes nothing; saturate applies
to both results; TXL reads unit D2 bits 8-9 as a ``sampler2D`` bound with
``layout(binding = unit)``; relative reads outside c[0..467] / v[0..15] give 0; ARL floors into
A[vector temp & 1] (temp 0x3F meaning A0, as the emulator reads it); PSH/POP are refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from shaderkit.core.diagnostics import InputError

from .container import CgParameter, CgType
from .glsl_operations import translate
from .glsl_shared import (
    ALL_LANES,
    Computation,
    Destination,
    Helpers,
    Operand,
    Result,
    Write,
    condition_any,
    emit_writes,
    float_literal,
    instruction_comment,
    saturated,
    whole,
)
from .instruction import check_vertex_opcodes, Condition, Instruction, Program, Source, VertexView
from .limits import VP_CONSTANTS, VP_INPUTS, VP_OUTPUTS, VP_TEMPORARIES
from .printer import FORM_A, Naming, render

CONSTANT_RESOURCE = 2178  # spec 4.1: a VP constant register c[resIndex]
CALL_DEPTH = 4
STEP_LIMIT = 65536
INPUT_NAMES = ("in_pos", "in_weight", "in_normal", "in_diff_color", "in_spec_color", "in_fog",
               "in_point_size", "in_7", *(f"in_tc{n}" for n in range(8)))
# Output register -> varying (o0 is gl_Position); the fragment decompiler reads these names.
OUTPUT_VARYINGS = {1: "col0", 2: "col1", 3: "bfc0", 4: "bfc1", 5: "fogc", 6: "tc9",
                   **{7 + n: f"tc{n}" for n in range(8)}, 15: "tc8"}
JUMPS = ("BRA", "BRI", "BRB")
CALLS = ("CAL", "CLI", "CLB")
VIA_ADDRESS_REGISTER = ("BRA", "CAL")
ON_BRANCH_BIT = ("BRB", "CLB")
ALWAYS = 7
# How the instruction comments name branch targets (a VP has no literals or loop constants).
NAMING = Naming(literal=lambda instruction: "", loop_constant=lambda instruction: "",
                target=lambda slot: f"L{slot}")


def decompile_vertex(program: Program, parameters: Sequence[CgParameter] | None = None) -> str:
    return _VertexDecompiler(program, tuple(parameters or ())).text()


def output_varyings(glsl: str) -> dict[int, str]:
    """Output register -> varying name, for the outputs a decompiled vertex shader declares."""
    declared = {line[len("out vec4 "):-1] for line in glsl.splitlines()
                if line.startswith("out vec4 ") and line.endswith(";")}
    return {0: "gl_Position", **{index: name for index, name in OUTPUT_VARYINGS.items() if name in declared}}


class _VertexDecompiler:
    def __init__(self, program: Program, parameters: tuple[CgParameter, ...]):
        self.program = program
        self.parameters = parameters
        self.helpers = Helpers()
        self.slots = len(program.instructions)
        self.temps: set[int] = set()
        self.inputs: set[int] = set()
        self.outputs: dict[int, set[int]] = {}
        self.address_registers: set[int] = set()
        self.cc_used: set[int] = set()
        self.samplers: set[int] = set()
        self.uses_constants = False
        self.relative_inputs = False
        self.relative_constants = False
        self.branch_bits = False
        for instruction in program.instructions:
            self._check(instruction)
        flow = {instruction.view.scalar.name for instruction in program.instructions}
        self.calls = bool(flow & set(CALLS))
        self.jumps = bool(flow & set(JUMPS + CALLS))

    # -- checks --

    def _check(self, instruction: Instruction) -> None:
        view = check_vertex_opcodes(instruction)
        slot = instruction.slot
        for temp in (view.vector_temp, view.scalar_temp):
            if temp is not None and temp >= VP_TEMPORARIES:
                raise InputError(f"slot {slot}: R{temp} is beyond R{VP_TEMPORARIES - 1}")
        if view.output is not None and view.output >= VP_OUTPUTS:
            raise InputError(f"slot {slot}: o[{view.output}] is beyond o[{VP_OUTPUTS - 1}]")
        name = view.scalar.name
        if name in JUMPS + CALLS and name not in VIA_ADDRESS_REGISTER and view.branch_target >= self.slots:
            raise InputError(f"slot {slot}: {name} target {view.branch_target} is beyond the program "
                             f"({self.slots} instructions)")

    # -- operands --

    def _operand(self, instruction: Instruction, source: Source) -> Operand:
        view = instruction.view
        slot = instruction.slot
        address = f"a{view.address_register}.{'xyzw'[view.address_lane]}"
        if source.file == "R":
            if source.index >= VP_TEMPORARIES:
                raise InputError(f"slot {slot}: R{source.index} is beyond R{VP_TEMPORARIES - 1}")
            self.temps.add(source.index)
            base = f"r{source.index}"
        elif source.file == "v":
            if source.relative:
                self.relative_inputs = True
                self.address_registers.add(view.address_register)
                base = f"rsx_input({source.index} + {address})"
            else:
                self.inputs.add(source.index)
                base = INPUT_NAMES[source.index]
        elif source.file == "c":
            self.uses_constants = True
            if source.relative:
                self.relative_constants = True
                self.address_registers.add(view.address_register)
                base = f"rsx_constant({source.index} + {address})"
            elif source.index >= VP_CONSTANTS:
                raise InputError(f"slot {slot}: c[{source.index}] is beyond c[{VP_CONSTANTS - 1}]")
            else:
                base = f"vc[{source.index}]"
        else:
            raise InputError(f"slot {slot}: a source operand has the invalid register type 0")
        modifiers = (("abs({})",) if source.absolute else ()) + (("-{}",) if source.negate else ())
        return Operand(base, source.swizzle, modifiers)

    # -- instructions --

    def _instruction(self, instruction: Instruction, lines: list[str], indent: str) -> None:
        view = instruction.view
        vector_active = view.vector.name != "NOP"
        scalar_active = view.scalar.name != "NOP" and not view.scalar.flow
        condition = view.condition if view.condition_test else Condition(ALWAYS, view.condition.register,
                                                                         ALL_LANES)
        cc = f"cc{view.condition.register}"
        if not condition.always:
            self.cc_used.add(view.condition.register)
        computations = []
        if vector_active:
            computations.append(Computation("vector_result", self._saturated(view, self._vector(instruction)),
                                            self._vector_writes(instruction)))
        if scalar_active:
            computations.append(Computation("scalar_result", self._saturated(view, self._scalar(instruction)),
                                            self._scalar_writes(view, vector_active)))
        emit_writes(lines, indent, computations, condition, cc, self.helpers)

    def _saturated(self, view: VertexView, result: Result) -> Result:
        return result.then(saturated(self.helpers)) if view.saturate else result

    def _vector_writes(self, instruction: Instruction) -> list[Write]:
        view = instruction.view
        lanes = tuple(lane for lane in ALL_LANES if view.vector_mask[lane])
        if view.vector.name == "ARL":
            register = (view.vector_temp or 0) & 1
            self.address_registers.add(register)
            return [Write(Destination(f"a{register}", "int"), lanes)]
        writes = []
        if view.vector_temp is not None:
            writes.append(Write(self._temp(view.vector_temp), lanes))
        if view.vector_to_output and view.output is not None:
            writes.append(Write(self._output(view.output, lanes), lanes))
        if view.cc_update:
            writes.append(Write(self._cc(view), lanes))
        return writes

    def _scalar_writes(self, view: VertexView, vector_active: bool) -> list[Write]:
        lanes = tuple(lane for lane in ALL_LANES if view.scalar_mask[lane])
        writes = []
        if view.scalar_temp is not None:
            writes.append(Write(self._temp(view.scalar_temp), lanes))
        elif not view.vector_to_output and view.output is not None:
            writes.append(Write(self._output(view.output, lanes), lanes))
        if view.cc_update and not vector_active:
            writes.append(Write(self._cc(view), lanes))
        return writes

    def _temp(self, index: int) -> Destination:
        self.temps.add(index)
        return Destination(f"r{index}")

    def _output(self, index: int, lanes: tuple[int, ...]) -> Destination:
        self.outputs.setdefault(index, set()).update(lanes)
        return Destination(f"o{index}")

    def _cc(self, view: VertexView) -> Destination:
        self.cc_used.add(view.condition.register)
        return Destination(f"cc{view.condition.register}")

    def _vector(self, instruction: Instruction) -> Result:
        view = instruction.view
        operands = [self._operand(instruction, view.sources[slot]) for slot in view.vector.sources]
        if view.vector.name == "TXL":
            unit = (instruction.words[2] >> 8) & 3  # D2 bits 8-9
            self.samplers.add(unit)
            a = operands[0]
            return whole(f"textureLod(vtexture{unit}, {a.lanes((0, 1))}, {a.lane(3)})")
        return translate(view.vector, operands, self.helpers, instruction.slot)

    def _scalar(self, instruction: Instruction) -> Result:
        view = instruction.view
        operands = [self._operand(instruction, view.sources[slot]) for slot in view.scalar.sources]
        return translate(view.scalar, operands, self.helpers, instruction.slot)

    # -- flow --

    def _flow(self, instruction: Instruction, lines: list[str], indent: str) -> None:
        """The scalar slot's branch, call or return (after both writes of the instruction)."""
        view = instruction.view
        name = view.scalar.name
        if name in ON_BRANCH_BIT:
            self.branch_bits = True
            test = f"((rsx_branch_bits >> {view.branch_index}u) & 1u) == {view.branch_value}u"
        elif view.condition_test and not view.condition.always:
            self.cc_used.add(view.condition.register)
            test = condition_any(view.condition, f"cc{view.condition.register}")
        else:
            test = None
        if name == "RET":
            action = "return;"
            if self.calls:
                action = "if (depth == 0) return; pc = call_stack[--depth]; continue;"
        else:
            target = str(view.branch_target)
            if name in VIA_ADDRESS_REGISTER:
                self.address_registers.add(view.address_register)
                target = f"{view.branch_target} + a{view.address_register}.{'xyzw'[view.address_lane]}"
            action = f"pc = {target}; continue;"
            if name in CALLS:
                action = (f"if (depth == {CALL_DEPTH}) return; call_stack[depth++] = {instruction.slot + 1}; "
                          + action)
        lines.append(f"{indent}{action}" if test is None else f"{indent}if ({test}) {{ {action} }}")

    # -- the shader --

    def _body(self) -> list[str]:
        instructions = self.program.instructions
        if not self.jumps:
            lines: list[str] = []
            for instruction in instructions:
                self._emit(instruction, lines, "    ")
            return lines
        dynamic = any(instruction.view.scalar.name in VIA_ADDRESS_REGISTER for instruction in instructions)
        starts = {0}
        for instruction in instructions:
            name = instruction.view.scalar.name
            if dynamic:
                starts.add(instruction.slot)
            elif name in JUMPS + CALLS:
                starts.add(instruction.view.branch_target)
                starts.add(instruction.slot + 1)  # the return point of a call
        lines = ["    int pc = 0;"]
        if self.calls:
            lines += [f"    int call_stack[{CALL_DEPTH}];", "    int depth = 0;"]
        lines += [f"    for (int steps = 0; steps < {STEP_LIMIT}; ++steps)  // a runaway program stops",
                  "    {"]
        for instruction in instructions:
            if instruction.slot in starts:
                if instruction.slot:
                    lines.append("        }")
                lines += [f"        if (pc <= {instruction.slot})", "        {"]
            self._emit(instruction, lines, "            ")
        lines += ["        }", "        return;", "    }"]
        return lines

    def _emit(self, instruction: Instruction, lines: list[str], indent: str) -> None:
        lines.append(f"{indent}// {instruction_comment(instruction, render(instruction, NAMING, FORM_A)[0])}")
        self._instruction(instruction, lines, indent)
        if instruction.view.scalar.flow:
            self._flow(instruction, lines, indent)
        if instruction.view.end and instruction is not self.program.instructions[-1]:
            lines.append(f"{indent}return;  // end of the program")

    def text(self) -> str:
        body = self._body()
        return "\n".join(self._declarations() + ["void rsx_program()", "{"] + body + ["}", ""]
                         + self._main()) + "\n"

    def _declarations(self) -> list[str]:
        lines = ["#version 430",
                 f"// RSX vertex program: {self.slots} instructions (decompiled by shaderkit)", ""]
        attributes = range(VP_INPUTS) if self.relative_inputs else sorted(self.inputs)
        for index in attributes:
            lines.append(f"layout(location = {index}) in vec4 {INPUT_NAMES[index]};")
        if self.uses_constants:
            lines.append(f"uniform vec4 vc[{VP_CONSTANTS}];  // c[0..{VP_CONSTANTS - 1}]")
            lines.extend(self._constant_names())
        if self.branch_bits:
            lines.append("uniform uint rsx_branch_bits;  // TRANSFORM_BRANCH_BITS")
        for unit in sorted(self.samplers):
            lines.append(f"layout(binding = {unit}) uniform sampler2D vtexture{unit};")
        for index in sorted(self.outputs):
            if index in OUTPUT_VARYINGS:
                lines.append(f"out vec4 {OUTPUT_VARYINGS[index]};")
        lines.append("")
        lines += [f"vec4 r{index} = vec4(0.0);" for index in sorted(self.temps)]
        lines += [f"ivec4 a{index} = ivec4(0);" for index in sorted(self.address_registers)]
        lines += [f"vec4 cc{index} = vec4(0.0);" for index in sorted(self.cc_used)]
        lines += [f"vec4 o{index} = vec4(0.0, 0.0, 0.0, 1.0);" for index in sorted(self.outputs | {0: set()})]
        lines.append("")
        if self.relative_inputs:
            lines += ["// v[index] for relative addressing: 0 outside v[0..15]",
                      "vec4 rsx_input(int index)", "{", "    switch (index)", "    {"]
            lines += [f"    case {index}: return {INPUT_NAMES[index]};" for index in range(VP_INPUTS)]
            lines += ["    }", "    return vec4(0.0);", "}", ""]
        if self.relative_constants:
            lines += ["// c[index] for relative addressing: 0 outside c[0..467]",
                      "vec4 rsx_constant(int index)",
                      "{",
                      f"    return index >= 0 && index < {VP_CONSTANTS} ? vc[index] : vec4(0.0);",
                      "}", ""]
        if self.helpers:
            lines += [self.helpers.text(), ""]
        return lines

    def _constant_names(self) -> list[str]:
        lines = []
        for parameter in self.parameters:
            if parameter.resource != CONSTANT_RESOURCE or parameter.resource_index < 0 \
                    or parameter.type == CgType.FLOAT4X4:  # its rows follow as float4 records
                continue
            value = parameter.default_value
            text = "" if value is None else " = (" + ", ".join(float_literal(v) for v in value) + ")"
            lines.append(f"//   c[{parameter.resource_index}]: {parameter.name}{text}")
        return lines

    def _main(self) -> list[str]:
        lines = ["void main()", "{", "    rsx_program();", "    gl_Position = o0;"]
        for index in sorted(self.outputs):
            if index in OUTPUT_VARYINGS:
                lines.append(f"    {OUTPUT_VARYINGS[index]} = o{index};")
        written = {(index, lane) for index, lanes in self.outputs.items() for lane in lanes}
        if (6, 0) in written:
            lines.append("    gl_PointSize = o6.x;")
        for distance, (index, lane) in enumerate((5, lane) for lane in (1, 2, 3)):
            if (index, lane) in written:
                lines.append(f"    gl_ClipDistance[{distance}] = o5.{'xyzw'[lane]};")
        for distance, lane in enumerate((1, 2, 3), start=3):
            if (6, lane) in written:
                lines.append(f"    gl_ClipDistance[{distance}] = o6.{'xyzw'[lane]};")
        lines.append("}")
        return lines
