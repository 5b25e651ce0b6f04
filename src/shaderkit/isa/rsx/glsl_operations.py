"""What each RSX arithmetic mnemonic computes, in GLSL: one table for vertex and fragment programs.

:data:`OPERATIONS` has one :class:`Operation` per mnemonic that the emulator computes with a
function of :data:`.semantics.SEMANTICS`, plus ARL, whose value the vertex vector unit computes
like a MOV. A mnemonic both program kinds have (MOV, ADD, DP4, RCP, the set-on-compare ops ...) is
translated by the same entry for both. An entry builds the instruction's
:class:`~.glsl_shared.Result` from its operands in assembly order and names the helper function
(:data:`.glsl_shared.HELPERS`) it calls, if any; :func:`translate` is how both decompilers use it.

The one entry that depends on the unit is MOV: a scalar opcode (the vertex scalar unit's MOV, like
RCP or SIN) reads only the x of its operand and replicates the result, where the vector MOV copies
every lane. Everything else that differs between the kinds stays with :mod:`.glsl_fragment` and
:mod:`.glsl_vertex`: how operands are named and read, texture fetches (samplers and units are
found differently), flow control, KIL, output modifiers and writes.

Choices that keep the GLSL equal to the emulator (:mod:`.semantics`): LRP is spelled out as
``a * b + (1 - a) * c`` (``mix`` rounds differently); DDX/DDY are GLSL's ``dFdx``/``dFdy``; UP2
and UP16 fill four lanes as (x, y, x, y).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shaderkit.core.diagnostics import InputError

from .glsl_shared import (
    COMPARISONS,
    Helpers,
    Operand,
    Result,
    constant,
    grouped,
    lanewise,
    letters,
    per_lane,
    scalar,
    whole,
)
from .opcodes import Opcode

XY, XYZ = (0, 1), (0, 1, 2)


@dataclass(frozen=True)
class Operands:
    """An instruction's operands in assembly order (None past those its opcode reads) and whether
    the opcode is scalar: reads only the x of its operand and replicates the result."""

    a: Operand | None
    b: Operand | None
    c: Operand | None
    scalar_opcode: bool

    @property
    def x(self) -> str:
        """The x of the first operand, after its swizzle and modifiers: what a scalar op reads."""
        return self.a.lane(0)

    @property
    def bits(self) -> str:
        """The bits of the first operand's x, which an unpack op reads."""
        return f"floatBitsToUint({self.x})"


@dataclass(frozen=True)
class Operation:
    """How one mnemonic reads in GLSL: ``build`` makes its result, ``helper`` is the helper
    function that result calls."""

    build: Callable[[Operands], Result]
    helper: str | None = None


def translate(opcode: Opcode, operands: Sequence[Operand], helpers: Helpers, slot: int) -> Result:
    """The result of the arithmetic ``opcode`` at ``slot`` on ``operands`` (in assembly order),
    its helper function marked as used; InputError if the table has no entry for it."""
    operation = OPERATIONS.get(opcode.name)
    if operation is None:
        raise InputError(f"slot {slot}: {opcode.name} cannot be decompiled")
    if operation.helper is not None:
        helpers.use(operation.helper)
    a, b, c = (*operands, None, None, None)[:3]
    return operation.build(Operands(a, b, c, opcode.scalar))


def _same(x: str) -> str:
    return x


# Set-on-compare ops and the CC test code (COMPARISONS) whose comparison they make.
SET_ON = {"SLT": 1, "SEQ": 2, "SLE": 3, "SGT": 4, "SNE": 5, "SGE": 6}


def set_on(name: str, a: Operand, b: Operand) -> Result:
    """SLT, SGE ...: 1.0 where the comparison holds, else 0.0, lane by lane."""
    operator, function = COMPARISONS[SET_ON[name]]

    def render(lanes: tuple[int, ...]) -> str:
        if len(lanes) == 1:
            return f"float({a.lanes(lanes)} {operator} {b.lanes(lanes)})"
        return f"vec{len(lanes)}({function}({a.lanes(lanes)}, {b.lanes(lanes)}))"
    return Result(render)


def pairs(expression: str) -> Result:
    """A vec2 seen as (x, y, x, y): how UP2 and UP16 fill four lanes."""
    def render(lanes: tuple[int, ...]) -> str:
        picked = letters([lane % 2 for lane in lanes])
        return expression if picked == "xy" else f"{expression}.{picked}"
    return Result(render)


OPERATIONS: dict[str, Operation] = {
    # Moves and arithmetic, lane by lane.
    "MOV": Operation(lambda o: scalar(o.x) if o.scalar_opcode else lanewise(_same, o.a)),
    # ARL's value is its operand; the write to the ivec4 address register floors it.
    "ARL": Operation(lambda o: lanewise(_same, o.a)),
    "MUL": Operation(lambda o: lanewise(lambda x, y: f"{x} * {y}", o.a, o.b)),
    "ADD": Operation(lambda o: lanewise(lambda x, y: f"{x} + {y}", o.a, o.b)),
    "MAD": Operation(lambda o: lanewise(lambda x, y, z: f"{x} * {y} + {z}", o.a, o.b, o.c)),
    "MIN": Operation(lambda o: lanewise(lambda x, y: f"min({x}, {y})", o.a, o.b)),
    "MAX": Operation(lambda o: lanewise(lambda x, y: f"max({x}, {y})", o.a, o.b)),
    "FRC": Operation(lambda o: lanewise(lambda x: f"fract({x})", o.a)),
    "FLR": Operation(lambda o: lanewise(lambda x: f"floor({x})", o.a)),
    "SSG": Operation(lambda o: lanewise(lambda x: f"sign({x})", o.a)),
    "DDX": Operation(lambda o: lanewise(lambda x: f"dFdx({x})", o.a)),
    "DDY": Operation(lambda o: lanewise(lambda x: f"dFdy({x})", o.a)),
    # NV LRP = a * b + (1 - a) * c, spelled out: mix() rounds differently.
    "LRP": Operation(lambda o: lanewise(lambda x, y, z: f"{x} * {y} + (1.0 - {x}) * {z}", o.a, o.b, o.c)),
    # Dot products and geometry.
    "DP2": Operation(lambda o: scalar(f"dot({o.a.lanes(XY)}, {o.b.lanes(XY)})")),
    "DP3": Operation(lambda o: scalar(f"dot({o.a.lanes(XYZ)}, {o.b.lanes(XYZ)})")),
    "DP4": Operation(lambda o: scalar(f"dot({o.a.all()}, {o.b.all()})")),
    "DPH": Operation(lambda o: scalar(f"dot({o.a.lanes(XYZ)}, {o.b.lanes(XYZ)}) + {o.b.lane(3)}")),
    "DP2A": Operation(lambda o: scalar(f"dot({o.a.lanes(XY)}, {o.b.lanes(XY)}) + {o.c.lane(0)}")),
    "DST": Operation(lambda o: per_lane(["1.0", f"{o.a.lane(1)} * {o.b.lane(1)}", o.a.lane(2), o.b.lane(3)])),
    "NRM": Operation(lambda o: whole(f"rsx_nrm({o.a.all()})"), "rsx_nrm"),
    "REFL": Operation(lambda o: whole(f"reflect({o.a.all()}, {o.b.all()})")),
    "DIV": Operation(lambda o: Result(lambda lanes: f"{o.a.lanes(lanes)} / {grouped(o.b.lane(0))}")),
    "DIVSQ": Operation(lambda o: Result(lambda lanes: f"rsx_divsq({o.a.lanes(lanes)}, {o.b.lane(0)})"),
                       "rsx_divsq"),
    # Set on compare, and the constant sets.
    "SLT": Operation(lambda o: set_on("SLT", o.a, o.b)),
    "SGE": Operation(lambda o: set_on("SGE", o.a, o.b)),
    "SLE": Operation(lambda o: set_on("SLE", o.a, o.b)),
    "SGT": Operation(lambda o: set_on("SGT", o.a, o.b)),
    "SNE": Operation(lambda o: set_on("SNE", o.a, o.b)),
    "SEQ": Operation(lambda o: set_on("SEQ", o.a, o.b)),
    "SFL": Operation(lambda o: constant(0.0)),
    "STR": Operation(lambda o: constant(1.0)),
    # Scalar ops: the x of the operand in, one value replicated out.
    "RCP": Operation(lambda o: scalar(f"1.0 / {grouped(o.x)}")),
    "RCC": Operation(lambda o: scalar(f"rsx_rcc({o.x})"), "rsx_rcc"),
    "RSQ": Operation(lambda o: scalar(f"1.0 / sqrt(abs({o.x}))")),
    "EX2": Operation(lambda o: scalar(f"exp2({o.x})")),
    "LG2": Operation(lambda o: scalar(f"log2({o.x})")),
    "SIN": Operation(lambda o: scalar(f"sin({o.x})")),
    "COS": Operation(lambda o: scalar(f"cos({o.x})")),
    # Vertex scalar-unit ops with four distinct result lanes.
    "EXP": Operation(lambda o: whole(f"rsx_exp({o.x})"), "rsx_exp"),
    "LOG": Operation(lambda o: whole(f"rsx_log({o.x})"), "rsx_log"),
    "LIT": Operation(lambda o: whole(f"rsx_lit({o.a.all()})"), "rsx_lit"),
    "LIF": Operation(lambda o: whole(f"rsx_lif({o.a.all()})"), "rsx_lif"),
    # Pack and unpack.
    "PK2": Operation(lambda o: scalar(f"uintBitsToFloat(packHalf2x16({o.a.lanes(XY)}))")),
    "PK4": Operation(lambda o: scalar(f"uintBitsToFloat(packSnorm4x8({o.a.all()}))")),
    "PKB": Operation(lambda o: scalar(f"uintBitsToFloat(packUnorm4x8({o.a.all()}))")),
    "PK16": Operation(lambda o: scalar(f"uintBitsToFloat(packUnorm2x16({o.a.lanes(XY)}))")),
    "PKG": Operation(lambda o: scalar(f"uintBitsToFloat(packUnorm4x8(vec4(rsx_linear_to_srgb({o.a.lanes(XYZ)}), "
                                      f"{o.a.lane(3)})))"), "rsx_srgb"),
    "UP2": Operation(lambda o: pairs(f"unpackHalf2x16({o.bits})")),
    "UP16": Operation(lambda o: pairs(f"unpackUnorm2x16({o.bits})")),
    "UP4": Operation(lambda o: whole(f"unpackSnorm4x8({o.bits})")),
    "UPB": Operation(lambda o: whole(f"unpackUnorm4x8({o.bits})")),
    "UPG": Operation(lambda o: whole(f"rsx_upg({o.bits})"), "rsx_srgb"),
}
