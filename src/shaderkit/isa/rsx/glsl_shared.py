"""What the GLSL decompilers of both RSX program kinds share (spec/rsx.md section 7).

:mod:`.glsl_fragment` and :mod:`.glsl_vertex` write the shaders, :mod:`.glsl_operations` translates
each arithmetic mnemonic; all three build on the pieces here:

* number literals that parse back to the same float32 bits (:func:`float_literal`);
* :class:`Operand`: a source register seen through its swizzle and modifiers, rendered for any
  subset of destination lanes, so that a write mask narrows every swizzle (mask ``.zw`` with
  swizzle ``.wwwz`` reads ``.wz``);
* :class:`Result`: what an instruction computes, likewise rendered for any lanes;
* CC tests: lane i of a conditional write tests ``CC[ccswizzle[i]]`` (section 3.8), flow tests
  pass when any lane passes;
* :class:`Destination` and :func:`emit_writes`: masked, conditional writes of one or two results
  to registers, outputs, CC registers, address registers and fp16 views of fp32 storage;
* :class:`Helpers`: the small GLSL functions a program needs (saturate with NaN -> 0, fp16
  rounding, packed-half storage ...), emitted once and only when used.

Generated code is plain: one statement, or a small ``{ }`` group, per RSX instruction, each
under a comment holding the instruction.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .instruction import Condition, Instruction

LANE_LETTERS = "xyzw"
ALL_LANES = (0, 1, 2, 3)
# GLSL functions for the CC tests (section 2.2 condition codes 1..6); 0 FL and 7 TR are constants.
COMPARISONS = {
    1: ("<", "lessThan"),
    2: ("==", "equal"),
    3: ("<=", "lessThanEqual"),
    4: (">", "greaterThan"),
    5: ("!=", "notEqual"),
    6: (">=", "greaterThanEqual"),
}
NEVER = "false"


# --- text pieces ---------------------------------------------------------------------------------


def float_literal(value: float) -> str:
    """A GLSL float constant with exactly the float32 value (shortest round-tripping digits)."""
    value32 = np.float32(value)
    if not math.isfinite(value32):
        bits = int(np.array(value32, dtype=np.float32).view(np.uint32))
        return f"uintBitsToFloat(0x{bits:08x}u)"
    text = str(value32)
    return text if "." in text or "e" in text else text + ".0"


def is_finite(value: float) -> bool:
    return math.isfinite(np.float32(value))


def vector_type(size: int) -> str:
    return "float" if size == 1 else f"vec{size}"


def bool_type(size: int) -> str:
    return "bool" if size == 1 else f"bvec{size}"


def letters(lanes: Sequence[int]) -> str:
    return "".join(LANE_LETTERS[lane] for lane in lanes)


def swizzled(expression: str, lanes: Sequence[int]) -> str:
    """``expression`` (a vec4) seen through ``lanes``; the identity swizzle is left out."""
    if tuple(lanes) == ALL_LANES:
        return expression
    return f"{_primary(expression)}.{letters(lanes)}"


def _primary(expression: str) -> str:
    """Parenthesise ``expression`` unless a swizzle can follow it as it is."""
    if _SIMPLE.fullmatch(expression) or _is_call(expression):
        return expression
    return f"({expression})"


# A name, optionally indexed, optionally with member selections: r0, vc[256 + a0.x], cc0.x.
_SIMPLE = re.compile(r"[A-Za-z_]\w*(\[[^\[\]]*\])?(\.[A-Za-z_]\w*)*")
_CALLEE = re.compile(r"[A-Za-z_]\w*\(")


def _is_call(expression: str) -> bool:
    """``f(...)`` whose opening parenthesis closes at the very end."""
    callee = _CALLEE.match(expression)
    if callee is None:
        return False
    depth = 0
    for position in range(callee.end() - 1, len(expression)):
        depth += {"(": 1, ")": -1}.get(expression[position], 0)
        if depth == 0:
            return position == len(expression) - 1
    return False


def grouped(text: str) -> str:
    """Parenthesise an expression with a top-level binary operator (before ``*`` or ``/``)."""
    depth = 0
    for position, character in enumerate(text):
        depth += character in "(["
        depth -= character in ")]"
        if depth == 0 and position > 0 and character in "+-*/?<>=" and text[position - 1] != "e":
            return f"({text})"
    return text


def instruction_comment(instruction: Instruction, text: str) -> str:
    """``003: MOVR R0, fragment.color``: the slot, then the instruction as printed."""
    return f"{instruction.slot:03d}: {text}"


def broadcast(scalar: str, size: int) -> str:
    return scalar if size == 1 else f"{vector_type(size)}({scalar})"


def vector_of(parts: Sequence[str]) -> str:
    """A vector built from one scalar expression per lane."""
    return parts[0] if len(parts) == 1 else f"{vector_type(len(parts))}({', '.join(parts)})"


def constant_vector(values: Sequence[float]) -> str:
    return f"vec{len(values)}({', '.join(float_literal(value) for value in values)})"


def identifier(name: str, prefix: str) -> str:
    """A Cg parameter name as a GLSL identifier: ``v2f.tex`` -> ``u_v2f_tex``."""
    cleaned = "".join(character if character.isalnum() else "_" for character in name)
    while "__" in cleaned:  # GLSL reserves names containing two underscores in a row
        cleaned = cleaned.replace("__", "_")
    return f"{prefix}{cleaned.strip('_')}"


# --- sources and results ------------------------------------------------------------------------


@dataclass(frozen=True)
class Operand:
    """A source operand: a vec4 expression, its swizzle and modifiers in application order.

    ``modifiers`` are format strings with ``{}`` for the inner text (``"abs({})"``,
    ``"-{}"``); they act lane by lane, so they commute with the swizzle.
    """

    base: str
    swizzle: tuple[int, int, int, int]
    modifiers: tuple[str, ...] = ()

    def lanes(self, lanes: Sequence[int]) -> str:
        text = swizzled(self.base, [self.swizzle[lane] for lane in lanes])
        for modifier in self.modifiers:
            text = modifier.format(text)
        return text

    def lane(self, lane: int) -> str:
        return self.lanes((lane,))

    def all(self) -> str:
        return self.lanes(ALL_LANES)


@dataclass(frozen=True)
class Result:
    """What an instruction computes: ``render(lanes)`` is its value on those lanes (a float for
    one lane, a vecN for N)."""

    render: Callable[[tuple[int, ...]], str]

    def then(self, wrap: Callable[[str, int], str]) -> Result:
        """The result passed through ``wrap(text, lane count)`` (scale, saturate, precision)."""
        return Result(lambda lanes: wrap(self.render(lanes), len(lanes)))


def lanewise(template: Callable[..., str], *operands: Operand) -> Result:
    """Lane i depends on lane i of each operand only: operands are narrowed to the lanes."""
    return Result(lambda lanes: template(*(operand.lanes(lanes) for operand in operands)))


def scalar(expression: str) -> Result:
    """One value replicated to every written lane."""
    return Result(lambda lanes: broadcast(expression, len(lanes)))


def whole(expression: str) -> Result:
    """A vec4 expression of which the written lanes are picked."""
    return Result(lambda lanes: swizzled(expression, lanes))


def per_lane(parts: Sequence[str]) -> Result:
    """A vector given as one scalar expression per lane (DST: ``(1, a.y * b.y, a.z, b.w)``)."""
    return Result(lambda lanes: vector_of([parts[lane] for lane in lanes]))


def constant(value: float) -> Result:
    return scalar(float_literal(value))


# --- CC tests -----------------------------------------------------------------------------------


def condition_lanes(condition: Condition, cc: str, lanes: Sequence[int]) -> str | None:
    """The per-lane test of a conditional write (a bool or bvecN); None when it always passes.

    Lane i tests ``cc[swizzle[i]]``: the CC swizzle is indexed by destination lane (3.8).
    """
    if condition.always:
        return None
    if condition.never:
        return NEVER if len(lanes) == 1 else f"{bool_type(len(lanes))}(false)"
    operator, function = COMPARISONS[condition.test]
    tested = swizzled(cc, [condition.swizzle[lane] for lane in lanes])
    if len(lanes) == 1:
        return f"{tested} {operator} 0.0"
    return f"{function}({tested}, {vector_type(len(lanes))}(0.0))"


def condition_any(condition: Condition, cc: str) -> str | None:
    """Flow and KIL tests: true when the test passes on any of the four lanes; None = always."""
    if condition.always:
        return None
    if condition.never:
        return NEVER
    distinct = tuple(dict.fromkeys(condition.swizzle))
    lanes_test = condition_lanes(Condition(condition.test, condition.register, distinct * 4), cc,
                                 ALL_LANES[:len(distinct)])
    return lanes_test if len(distinct) == 1 else f"any({lanes_test})"


# --- destinations and writes --------------------------------------------------------------------


@dataclass(frozen=True)
class Destination:
    """Where a result goes. ``kind``: ``float`` (a vec4 variable), ``int`` (an ivec4 address
    register, the value is floored), ``fp16`` (a vec4 holding fp16 values: the value is rounded),
    ``half`` (an fp16 register viewed in two lanes of fp32 storage: ``name`` is e.g. ``r1.zw``)."""

    name: str
    kind: str = "float"


@dataclass
class Write:
    destination: Destination
    lanes: tuple[int, ...]


@dataclass
class Computation:
    """One result of an instruction and where it is written."""

    local_name: str  # name of the local holding the value when writes are grouped
    result: Result
    writes: list[Write] = field(default_factory=list)


def emit_writes(lines: list[str], indent: str, computations: Sequence[Computation],
                condition: Condition, cc: str, helpers: Helpers) -> None:
    """Statements writing each computation to its destinations under the CC test.

    One write is a single statement. Several writes (a register and a CC, a temp and an output,
    a VP vector and scalar op issued together) first bind every value and the test to locals,
    so that all of them see the registers as they were before the instruction.
    """
    writes = [(computation, write) for computation in computations for write in computation.writes]
    writes = [(computation, write) for computation, write in writes if write.lanes]
    if not writes:
        return
    if condition.never:
        lines.append(f"{indent}// condition FL: nothing is written")
        return
    if len(writes) == 1:
        computation, write = writes[0]
        lines.append(indent + _assignment(
            write, computation.result.render,
            lambda lanes: condition_lanes(condition, cc, lanes), helpers))
        return
    lines.append(indent + "{")
    inner = indent + "    "
    for computation in computations:
        if any(write.lanes for write in computation.writes):
            lines.append(f"{inner}vec4 {computation.local_name} = {computation.result.render(ALL_LANES)};")
    test = condition_lanes(condition, cc, ALL_LANES)
    if test is not None:
        lines.append(f"{inner}bvec4 passed = {test};")
    for computation, write in writes:
        local = whole(computation.local_name)
        lines.append(inner + _assignment(
            write, local.render,
            None if test is None else (lambda lanes: swizzled("passed", lanes)), helpers))
    lines.append(indent + "}")


def _assignment(write: Write, value: Callable[[tuple[int, ...]], str],
                test: Callable[[tuple[int, ...]], str | None] | None, helpers: Helpers) -> str:
    destination, lanes = write.destination, write.lanes
    size = len(lanes)
    passes = None if test is None else test(lanes)
    if destination.kind == "half":
        flags = []
        for lane in ALL_LANES:
            lane_test = None if test is None else test((lane,))
            flags.append("false" if lane not in lanes else (lane_test or "true"))
        helpers.use("rsx_store_half")
        return (f"{destination.name} = rsx_store_half({destination.name}, {value(ALL_LANES)}, "
                f"bvec4({', '.join(flags)}));")
    target = swizzled(destination.name, lanes)
    if destination.kind == "fp16":
        helpers.use("rsx_to_half")
        rounded = f"rsx_to_half({value(lanes)})"
        if passes is None:
            return f"{target} = {rounded};"
        return f"{target} = mix({target}, {rounded}, {passes});"
    if destination.kind == "int":
        int_type = "int" if size == 1 else f"ivec{size}"
        if passes is None:
            return f"{target} = {int_type}(floor({value(lanes)}));"
        return (f"{target} = {int_type}(mix({vector_type(size)}({target}), floor({value(lanes)}), "
                f"{passes}));")
    if passes is None:
        return f"{target} = {value(lanes)};"
    return f"{target} = mix({target}, {value(lanes)}, {passes});"


# --- output modifiers shared by both kinds ------------------------------------------------------


def saturated(helpers: Helpers) -> Callable[[str, int], str]:
    def wrap(text: str, size: int) -> str:
        helpers.use("rsx_saturate")
        return f"rsx_saturate({text})"
    return wrap


# --- helper functions ---------------------------------------------------------------------------

GEN_TYPES = ("float", "vec2", "vec3", "vec4")


def _overloads(template: str) -> str:
    """A genType function written once with {T}, expanded for float .. vec4."""
    return "\n".join(template.format(T=t) for t in GEN_TYPES)


HELPERS: dict[str, str] = {
    "rsx_saturate": _overloads(
        "{T} rsx_saturate({T} v) {{ return mix(clamp(v, 0.0, 1.0), {T}(0.0), isnan(v)); }}"),
    "rsx_half": (
        "// fp16 precision: clamp to the fp16 range, then round to the nearest fp16 value\n"
        "vec2 rsx_half2(vec2 v) { return unpackHalf2x16(packHalf2x16(clamp(v, -65504.0, 65504.0))); }\n"
        "float rsx_half(float v) { return rsx_half2(vec2(v, 0.0)).x; }\n"
        "vec2 rsx_half(vec2 v) { return rsx_half2(v); }\n"
        "vec3 rsx_half(vec3 v) { return vec3(rsx_half2(v.xy), rsx_half(v.z)); }\n"
        "vec4 rsx_half(vec4 v) { return vec4(rsx_half2(v.xy), rsx_half2(v.zw)); }"),
    "rsx_to_half": (
        "// the fp16 value nearest to v (an H register holds fp16 values)\n"
        "vec2 rsx_to_half2(vec2 v) { return unpackHalf2x16(packHalf2x16(v)); }\n"
        "float rsx_to_half(float v) { return rsx_to_half2(vec2(v, 0.0)).x; }\n"
        "vec2 rsx_to_half(vec2 v) { return rsx_to_half2(v); }\n"
        "vec3 rsx_to_half(vec3 v) { return vec3(rsx_to_half2(v.xy), rsx_to_half(v.z)); }\n"
        "vec4 rsx_to_half(vec4 v) { return vec4(rsx_to_half2(v.xy), rsx_to_half2(v.zw)); }"),
    "rsx_load_half": (
        "// an H register: four fp16 values packed in two fp32 lanes of an R register\n"
        "vec4 rsx_load_half(vec2 storage)\n"
        "{\n"
        "    uvec2 bits = floatBitsToUint(storage);\n"
        "    return vec4(unpackHalf2x16(bits.x), unpackHalf2x16(bits.y));\n"
        "}"),
    "rsx_store_half": (
        "// write the selected fp16 lanes of an H register into its two fp32 storage lanes\n"
        "vec2 rsx_store_half(vec2 storage, vec4 value, bvec4 lanes)\n"
        "{\n"
        "    uvec2 halves = uvec2(packHalf2x16(value.xy), packHalf2x16(value.zw));\n"
        "    uvec2 replaced = uvec2((lanes.x ? 0x0000ffffu : 0u) | (lanes.y ? 0xffff0000u : 0u),\n"
        "                           (lanes.z ? 0x0000ffffu : 0u) | (lanes.w ? 0xffff0000u : 0u));\n"
        "    return uintBitsToFloat((floatBitsToUint(storage) & ~replaced) | (halves & replaced));\n"
        "}"),
    "rsx_nrm": (
        "// NRM: xyz normalised (a zero vector stays zero); w is undefined on NV, 1 here\n"
        "vec4 rsx_nrm(vec4 v)\n"
        "{\n"
        "    float length_squared = dot(v.xyz, v.xyz);\n"
        "    return vec4(length_squared == 0.0 ? vec3(0.0) : v.xyz / sqrt(length_squared), 1.0);\n"
        "}"),
    "rsx_divsq": (
        "// DIVSQ: a / sqrt(b); a zero numerator gives 0 whatever b is\n"
        "float rsx_divsq(float a, float b) { return a == 0.0 ? 0.0 : a / sqrt(b); }\n"
        + "\n".join(f"{t} rsx_divsq({t} a, float b) "
                    f"{{ return mix(a / sqrt(b), {t}(0.0), equal(a, {t}(0.0))); }}" for t in GEN_TYPES[1:])),
    "rsx_lif": (
        "// LIF (LITEX2): (1, y, y > 0 ? 2^w : 0, 1)\n"
        "vec4 rsx_lif(vec4 v) { return vec4(1.0, v.y, v.y > 0.0 ? exp2(v.w) : 0.0, 1.0); }"),
    "rsx_lit": (
        "// NV LIT: (1, max(x, 0), x > 0 ? max(y, 0)^w : 0, 1), w clamped to (-128, 128)\n"
        "vec4 rsx_lit(vec4 v)\n"
        "{\n"
        "    float diffuse = max(v.x, 0.0);\n"
        "    float specular = max(v.y, 0.0);\n"
        "    float power = clamp(v.w, -127.99609375, 127.99609375);\n"
        "    float highlight = specular > 0.0 ? exp2(power * log2(specular))\n"
        "                    : (power > 0.0 ? 0.0 : (power == 0.0 ? 1.0 : uintBitsToFloat(0x7f800000u)));\n"
        "    return vec4(1.0, diffuse, diffuse > 0.0 ? highlight : 0.0, 1.0);\n"
        "}"),
    "rsx_exp": (
        "// NV EXP: (2^floor(x), x - floor(x), 2^x, 1)\n"
        "vec4 rsx_exp(float x) { return vec4(exp2(floor(x)), x - floor(x), exp2(x), 1.0); }"),
    "rsx_log": (
        "// NV LOG of |x|: (exponent, mantissa in [1, 2), log2|x|, 1); 0, inf and NaN have no split\n"
        "vec4 rsx_log(float x)\n"
        "{\n"
        "    float magnitude = abs(x);\n"
        "    float logarithm = log2(magnitude);\n"
        "    if (magnitude == 0.0 || isinf(magnitude) || isnan(magnitude))\n"
        "        return vec4(logarithm, 1.0, logarithm, 1.0);\n"
        "    int exponent;\n"
        "    float mantissa = frexp(magnitude, exponent);\n"
        "    return vec4(float(exponent - 1), mantissa * 2.0, logarithm, 1.0);\n"
        "}"),
    "rsx_rcc": (
        "// RCC: reciprocal with its magnitude clamped to [5.42101e-20, 1.884467e19], sign kept\n"
        "float rsx_rcc(float x)\n"
        "{\n"
        "    float reciprocal = 1.0 / x;\n"
        "    float magnitude = clamp(abs(reciprocal), 5.42101e-20, 1.884467e19);\n"
        "    return (floatBitsToUint(reciprocal) >> 31) != 0u ? -magnitude : magnitude;\n"
        "}"),
    "rsx_srgb": (
        "// the sRGB transfer function (PKG/UPG); alpha stays linear\n"
        "vec3 rsx_linear_to_srgb(vec3 v)\n"
        "{\n"
        "    v = clamp(v, 0.0, 1.0);\n"
        "    return mix(1.055 * pow(v, vec3(1.0 / 2.4)) - 0.055, v * 12.92, lessThanEqual(v, vec3(0.0031308)));\n"
        "}\n"
        "vec3 rsx_srgb_to_linear(vec3 v)\n"
        "{\n"
        "    return mix(pow((v + 0.055) / 1.055, vec3(2.4)), v / 12.92, lessThanEqual(v, vec3(0.04045)));\n"
        "}\n"
        "vec4 rsx_upg(uint bits)\n"
        "{\n"
        "    vec4 bytes = unpackUnorm4x8(bits);\n"
        "    return vec4(rsx_srgb_to_linear(bytes.xyz), bytes.w);\n"
        "}"),
}

class Helpers:
    """The helper functions a program uses, in first-use order."""

    def __init__(self) -> None:
        self._used: dict[str, None] = {}

    def use(self, name: str) -> str:
        self._used.setdefault(name, None)
        return name

    def text(self) -> str:
        return "\n\n".join(HELPERS[name] for name in self._used)

    def __bool__(self) -> bool:
        return bool(self._used)
