"""The RSX -> GLSL decompiler: the shape of the generated text.

Golden ucode from golden/rsx/asm and golden/rsx/real, plus small programs built here from
fields (:func:`fp_program`, :func:`vp_program`, also used by test_rsx_gl_vs_emulator) for what
the corpora do not contain: H/R aliasing, VP dual issue, calls, relative addressing. Each test
looks for the statements a construct must produce (and, where it matters, for what must not
appear); whether the GLSL computes the right values is test_rsx_gl_vs_emulator's job.
"""

from __future__ import annotations

import re
import struct
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.binfmt import read_words
from shaderkit.core.diagnostics import InputError
from shaderkit.isa.rsx import fields as layout
from shaderkit.isa.rsx.container import FragmentProgramHeader, ProgramKind, read_container, UCODE_BYTE_ORDER
from shaderkit.isa.rsx.glsl import decompile
from shaderkit.isa.rsx.glsl_shared import float_literal
from shaderkit.isa.rsx.glsl_vertex import output_varyings
from shaderkit.isa.rsx.instruction import FP_INPUT_NAMES, PRECISION_NAMES, Program, decode_program, floats_to_words
from shaderkit.isa.rsx.limits import CONDITION_NAMES
from shaderkit.isa.rsx.opcodes import FP, VP_SCALAR, VP_VECTOR, by_name
from conftest import golden_dir

GOLDEN = golden_dir("rsx")
LANES = "xyzw"


# --- programs from fields ------------------------------------------------------------------------


def _lanes(swizzle: str) -> tuple[int, ...]:
    swizzle = swizzle or "xyzw"
    return tuple(LANES.index(letter) for letter in swizzle.ljust(4, swizzle[-1]))


def _mask(text: str) -> tuple[bool, ...]:
    return tuple(letter in (text or "xyzw") for letter in LANES)


def _condition(text: str | None) -> tuple[int, int, tuple[int, ...]]:
    """``"GT1.xy"`` -> (test, CC register, swizzle lanes); None = TR."""
    if text is None:
        return 7, 0, (0, 1, 2, 3)
    name, _, swizzle = text.partition(".")
    register = 1 if name.endswith("1") else 0
    return CONDITION_NAMES.index(name.rstrip("1")), register, _lanes(swizzle)


def _fp_operand(text: str) -> tuple[int, bool, int | None]:
    """``-|H4.xy|``, ``f[TEX0].x``, ``c.wzyx``, ``R1`` -> (18-bit source, abs, input index)."""
    negate = text.startswith("-")
    text = text.lstrip("-")
    absolute = text.startswith("|")
    name, _, swizzle = text.strip("|").partition(".")
    if name.startswith("f["):
        kind, index, half, input_index = 1, 0, 0, FP_INPUT_NAMES.index(name[2:-1])
    elif name == "c":
        kind, index, half, input_index = 2, 0, 0, None
    else:
        kind, index, half, input_index = 0, int(name[1:]), int(name[0] == "H"), None
    raw = (kind | index << 2 | half << 8 | layout.FP_SOURCE.swizzle_raw(_lanes(swizzle)) << 9
           | int(negate) << 17)
    return raw, absolute, input_index


def fp(op: str, destination: str = "RC", *sources: str, precision: str = "R", cc: int | None = None,
       condition: str | None = None, saturate: bool = False, scale: int = 0, unit: int = 0,
       bx2: bool = False, literal: tuple[float, ...] | None = None, clamps: tuple[int, ...] = (0, 0, 0),
       indexed: int | None = None, **overlay: int) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """One FP instruction: ``fp("MUL", "H2.xy", "H2", "c", precision="H", literal=(...))``.

    ``cc`` sets set_cond (and which CC); ``indexed=n`` reads f[TEX(loop counter + n)];
    ``overlay`` gives raw words 2/3 for flow (``src1=``, ``src2=``). Returns (words, literal
    words or None).
    """
    opcode = by_name(FP)[op]
    name, _, mask = destination.partition(".")
    test, test_register, cc_swizzle = _condition(condition)
    values = {
        "opcode_low": opcode.value & 0x3F, "opcode_high": opcode.value >> 6,
        "mask": layout.mask_of_lanes(_mask(mask), x_in_high_bit=False),
        "precision": PRECISION_NAMES.index(precision), "saturate": int(saturate), "scale": scale,
        "texture_unit": unit, "expand_texture": int(bx2),
        "condition": test, "test_cc_register": test_register,
        "cc_swizzle": layout.swizzle_8bit(cc_swizzle, x_in_high_bits=False),
        "set_cc": int(cc is not None), "set_cc_register": cc or 0,
        "source0_clamp": clamps[0], "source1_clamp": clamps[1], "source2_clamp": clamps[2],
    }
    if indexed is not None:
        values.update(indexed_input=1, displacement=indexed & 0x7FF)
    if name in ("RC", "HC"):
        values.update(no_destination=1, destination=63)
    else:
        values.update(destination=int(name[1:]), destination_half=int(name[0] == "H"))
    unused = 0x1C800  # R0, identity swizzle: what compilers put in unused source words
    for slot in range(3):
        values[f"source{slot}"] = unused
    for slot, text in zip(opcode.sources, sources):
        raw, absolute, input_index = _fp_operand(text)
        values[f"source{slot}"] = raw
        values[f"source{slot}_abs"] = int(absolute)
        if input_index is not None:
            assert values.setdefault("input", input_index) == input_index, "one input per instruction"
    words = list(layout.FP.encode(values))
    if "src1" in overlay:
        words[2] = overlay["src1"]
    if "src2" in overlay:
        words[3] = overlay["src2"]
    reads_constant = any(_fp_operand(text)[0] & 3 == 2 for text in sources[:len(opcode.sources)])
    return tuple(words), floats_to_words(literal) if literal is not None and reads_constant else None


def fp_flow(op: str, condition: str | None = None, *, else_slot: int = 0, end_slot: int = 0,
            loop: tuple[int, int, int] = (0, 0, 0)):
    """IFE / LOOP / REP / BRK / RET as cgcomp encodes them (spec 3.9)."""
    count, start, increment = loop
    if op == "IFE":
        src1 = 0x80000000 | else_slot * 4
    elif op in ("LOOP", "REP"):
        src1 = 0x80000000 | count << 2 | start << 10 | increment << 19
    else:
        src1 = 0x80000000 if by_name(FP)[op].value >> 6 else 0
    return fp(op, "RC", condition=condition, src1=src1, src2=end_slot * 4)


def fp_program(*instructions) -> Program:
    words: list[int] = []
    for position, (code, literal) in enumerate(instructions):
        code = list(code)
        if position == len(instructions) - 1:
            code[0] |= 1  # end bit
        words += code + list(literal or ())
    return decode_program(words, ProgramKind.FRAGMENT, "built")


def _vp_operand(text: str) -> tuple[int, bool, str | None, int, bool]:
    """``-|R1.w|``, ``v[3]``, ``c[A0.x+2]`` -> (17-bit source, abs, file, index, relative)."""
    negate = text.startswith("-")
    text = text.lstrip("-")
    absolute = text.startswith("|")
    text = text.strip("|")
    match = re.fullmatch(r"(R\d+|[vc]\[(A0\.x\+)?\d+\])(?:\.(\w+))?", text)
    name, relative, swizzle = match.group(1), bool(match.group(2)), match.group(3)
    if name.startswith("R"):
        kind, file, index = 1, None, int(name[1:])
    else:
        kind, file, index = (2 if name[0] == "v" else 3), name[0], int(re.findall(r"\d+", name)[-1])
    raw = (kind | (index if kind == 1 else 0) << 2
           | layout.VP_SOURCE.swizzle_raw(_lanes(swizzle or "")) << 8 | int(negate) << 16)
    return raw, absolute, file, index, relative


def _vp_destinations(text: str) -> tuple[int, int | None, str]:
    """``R0+o[7].xy`` -> (temp or 0x3F, output or None, mask)."""
    names, _, mask = text.partition(".")
    if "]" in text:
        names, mask = text.split("]")[0] + "]", text.split("]")[1].lstrip(".")
    temp, output = layout.VP_NO_TEMP, None
    for part in names.split("+"):
        if part.startswith("R"):
            temp = int(part[1:])
        elif part.startswith("o["):
            output = int(part[2:-1])
        elif part.startswith("A"):
            temp = int(part[1:])
    return temp, output, mask


def vp(vector: tuple[str, ...] = ("NOP",), scalar: tuple[str, ...] = ("NOP",), *,
       condition: str | None = None, cc_update: bool = False, saturate: bool = False,
       target: int = 0) -> tuple[int, ...]:
    """One VP instruction: ``vp(("MUL", "R0", "R0", "c[0]"), ("EX2", "R1.y", "R0.w"))``.

    Destinations: ``R0``, ``o[7].xy``, ``R0+o[7]``, ``A0.x`` (ARL), ``CC.x`` (CC only).
    ``target`` is the immediate branch target of a scalar BRA/CAL/BRI/CLI.
    """
    vector_op, scalar_op = by_name(VP_VECTOR)[vector[0]], by_name(VP_SCALAR)[scalar[0]]
    test, register, cc_swizzle = _condition(condition)
    values = {"vector_opcode": vector_op.value, "scalar_opcode": scalar_op.value,
              "vector_temp": layout.VP_NO_TEMP, "scalar_temp": layout.VP_NO_TEMP,
              "output": layout.VP_NO_OUTPUT, "condition": test, "cc_register": register,
              "condition_test": int(condition is not None),
              "cc_swizzle": layout.swizzle_8bit(cc_swizzle, x_in_high_bits=True),
              "cc_update": int(cc_update), "cc_update_b": int(cc_update), "saturate": int(saturate)}
    unused = 2 | layout.VP_SOURCE.swizzle_raw((0, 1, 2, 3)) << 8  # v, identity (spec 2.6)
    for slot in range(3):
        values[f"source{slot}"] = unused
    operands = []
    if vector_op.name != "NOP":
        temp, output, mask = _vp_destinations(vector[1])
        values["vector_temp"] = temp
        values["vector_mask"] = layout.mask_of_lanes(_mask(mask), x_in_high_bit=True)
        if output is not None:
            values.update(output=output, vector_to_output=1)
        operands += list(zip(vector_op.sources, vector[2:]))
    if scalar_op.sources:
        temp, output, mask = _vp_destinations(scalar[1])
        if output is not None:
            assert "vector_to_output" not in values, "one output register per instruction"
            values["output"] = output
        else:
            values["scalar_temp"] = temp
        values["scalar_mask"] = layout.mask_of_lanes(_mask(mask), x_in_high_bit=True)
        operands.append((2, scalar[2]))
    assert len({slot for slot, _ in operands}) == len(operands), "a source slot used twice"
    for slot, text in operands:
        raw, absolute, file, index, relative = _vp_operand(text)
        values[f"source{slot}"] = raw
        values[f"source{slot}_abs"] = int(absolute)
        if file is not None:  # one input and one constant index per instruction (spec 2.3)
            assert values.setdefault("input" if file == "v" else "constant", index) == index
            values["index_input" if file == "v" else "index_constant"] = int(relative)
    if scalar_op.flow:
        values["source2"] = (target >> 3 & 0x3F) << 11 | (target & 7) << 8
        values["source2_abs"] = target >> 9
    return layout.VP.encode(values)


def vp_program(*instructions: tuple[int, ...]) -> Program:
    words: list[int] = []
    for position, code in enumerate(instructions):
        code = list(code)
        if position == len(instructions) - 1:
            code[3] |= 1
        words += code
    return decode_program(words, ProgramKind.VERTEX, "built")


# Programs the corpora lack, shared with test_rsx_gl_vs_emulator.
HALF_0_5 = (0.5, 0.25, 0.125, 1.0)
FRAGMENT_PROGRAMS = {
    # An H register written, then its storage read as R (UP2 unpacks the two halves again).
    "h_write_r_read": lambda: fp_program(
        fp("MOV", "H0", "f[TEX0]", precision="H"),
        fp("UP2", "R1.xy", "R0.x"),
        fp("UP2", "R1.zw", "R0.y"),
        fp("MOV", "R0", "R1")),
    # R lanes written with packed halves, then read as an H register.
    "r_write_h_read": lambda: fp_program(
        fp("PK2", "R2.x", "f[TEX0]"),
        fp("PK2", "R2.y", "f[COL0]"),
        fp("MOV", "R0", "H4")),
    # The colour in H0 (exported when the header says output_from_h0).
    "h0_colour": lambda: fp_program(
        fp("MUL", "H0", "f[COL0]", "c", precision="H", literal=(0.3, 0.6, 0.9, 1.1)),
        fp("MOV", "R1", "f[TEX0]")),
    # One fp16 lane written into R0.z's high half; the low half keeps COL0.z's bits.
    "h_lane_in_r": lambda: fp_program(
        fp("MOV", "R0", "f[COL0]"),
        fp("MOV", "H1.y", "f[TEX0].x"),
        fp("MOV", "R0.xy", "H1.zw")),
    # Modifiers and post-processing: abs/negate/input clamp, scale, saturate, X/B precision.
    "modifiers": lambda: fp_program(
        fp("ADD", "R1", "-|f[TEX0]|", "c", literal=(0.25, -3.0, 0.5, 2.0), clamps=(2, 0, 0)),
        fp("MUL", "R0.xy", "R1", "f[TEX1].yxzw", scale=1, saturate=True),
        fp("MAD", "R0.zw", "R1.wzyx", "c", "f[COL0]", precision="X", literal=(4.0, 4.0, 4.0, 4.0)),
        fp("MOV", "R0.w", "R0", precision="B", scale=6)),
    # Set-on ops, CC1 updates and conditional writes whose CC swizzle differs per lane.
    "conditions": lambda: fp_program(
        fp("ADD", "RC", "f[TEX0]", "-c", cc=1, literal=(0.5, 0.25, 0.75, 0.5)),
        fp("SLT", "R0", "f[TEX0]", "f[TEX0].yxwz"),
        fp("SGE", "R2", "f[TEX0]", "f[TEX0].yxwz"),
        fp("MOV", "R0.yw", "f[COL0]", condition="LT1.xxzz"),
        fp("MOV", "R0.xz", "R2.wzyx", condition="GE1.yxwz"),
        fp("SNE", "R1", "f[TEX0].x", "c", literal=(0.0, 0.5, 0.0, 0.0)),
        fp("SEQ", "R1.zw", "R1", "c", literal=(1.0, 1.0, 1.0, 1.0)),
        fp("ADD", "R0", "R0", "R1")),
    # Remaining arithmetic: DP2A, DST, LRP, DIV, DIVSQ, LIF, REFL, NRM, STR/SFL, SIN/COS ...
    "arithmetic": lambda: fp_program(
        fp("MOV", "R6", "f[TEX1]"),
        fp("ADD", "R1", "f[TEX0]", "R6"),
        fp("DP2A", "R0.x", "R1", "R6", "f[COL0]"),
        fp("DST", "R2", "R1", "f[TEX0]"),
        fp("LRP", "R0.y", "R6.x", "R2.y", "f[TEX0]"),
        fp("DIV", "R2.xz", "R1", "R6.x"),
        fp("SFL", "R2.y"),
        fp("DIVSQ", "R3", "R2", "R1.y"),
        fp("ADD", "R0.z", "R3.x", "R3.w"),
        fp("LIF", "R3", "R6.wxzy"),
        fp("REFL", "R4", "f[TEX0]", "R6"),
        fp("NRM", "R4.xyz", "R4"),
        fp("SIN", "R5.x", "R1.x"),
        fp("COS", "R5.y", "R1.y"),
        fp("STR", "R5.z"),
        fp("SFL", "R5.w"),
        fp("DP4", "R0.w", "R4", "R5"),
        fp("MAD", "R0", "R3", "c", "R0", literal=(0.125, 0.125, 0.125, 0.125))),
    # Pack ops with sRGB, unpacks into masked lanes, derivatives.
    "packing": lambda: fp_program(
        fp("PKG", "R1.x", "f[TEX0]"),
        fp("UPG", "R0", "R1.x"),
        fp("PK4", "R1.y", "f[TEX1].wzyx"),
        fp("UP4", "R2", "R1.y"),
        fp("UP16", "R3.zw", "R1.x"),
        fp("DDX", "R2.xy", "f[TEX0].xyxy", scale=3),
        fp("DDY", "R2.zw", "f[TEX1]"),
        fp("ADD", "R0", "R0", "R2"),
        fp("ADD", "R0.zw", "R0", "R3")),
    # LOOP with BRK and a nested IF/ELSE, then RET under a condition (outputs still written).
    "flow": lambda: fp_program(
        fp("MOV", "R0", "c", literal=(0.0, 0.0, 0.0, 1.0)),              # 0 (+1 literal)
        fp_flow("LOOP", loop=(5, 0, 1), end_slot=11),                        # 2
        fp("ADD", "R0.x", "R0", "f[TEX0]", cc=0),                            # 3
        fp("ADD", "RC.x", "R0", "-c", cc=1, literal=(1.0, 1.0, 1.0, 1.0)),   # 4 (+1 literal)
        fp_flow("IFE", "GT1.x", else_slot=8, end_slot=10),                   # 6
        fp("MOV", "R0.y", "f[TEX0].y"),                                      # 7
        fp("MOV", "R0.z", "f[TEX1].x"),                                      # 8
        fp_flow("BRK", "GT1.x"),                                             # 9
        fp("ADD", "R0.w", "R0", "-f[TEX0].y"),                               # 10
        fp("ADD", "RC.y", "R0.x", "-f[TEX1].y", cc=0),                       # 11
        fp_flow("RET", "GT.y"),                                              # 12
        fp("MOV", "R0.y", "f[COL0].x")),                                     # 13
    # Inputs indexed by the loop counter: f[TEX(i)] and f[TEX(i - 1)] for i = 0, 1, 2.
    "indexed": lambda: fp_program(
        fp("MOV", "R0", "c", literal=(0.0, 0.0, 0.0, 0.0)),                 # 0 (+1 literal)
        fp_flow("LOOP", loop=(3, 0, 1), end_slot=5),                         # 2
        fp("ADD", "R0", "R0", "f[TEX0]", indexed=0),                         # 3
        fp("MAD", "R0", "f[TEX0]", "f[TEX0].wzyx", "R0", indexed=-1),        # 4
        fp("MOV", "R0", "R0")),                                              # 5
    # REP, texture fetches (TXP, TXB, TXL and _bx2) and a KIL under a CC swizzle.
    "textures": lambda: fp_program(
        fp("TXP", "R0", "f[TEX1].xyzz"),                                     # 0
        fp_flow("REP", loop=(2, 2, 2), end_slot=4),                          # 1
        fp("ADD", "R0", "R0", "c", literal=(0.125, 0.0, 0.0, 0.0)),          # 2 (+1 literal)
        fp("TXB", "R1", "f[TEX0]", unit=1),                                  # 4
        fp("TXL", "R2", "f[TEX1]", "f[TEX1].w", unit=1, bx2=True),           # 5
        fp("ADD", "RC", "f[TEX0].xyxy", "-R1", cc=0),                        # 6
        fp("KIL", condition="GT.zywx"),                                      # 7
        fp("MAD", "R0", "R1", "R2", "R0")),                                  # 8
}

VERTEX_PROGRAMS = {
    # Dual issue: the scalar op reads R0 as it was before the vector op writes it.
    "dual_issue": lambda: vp_program(
        vp(("MOV", "R0", "v[0]")),
        vp(("MUL", "R0", "R0", "c[0]"), ("EX2", "R1.yz", "R0.w")),
        vp(("MOV", "R2+o[8]", "R1"), ("RCP", "R3.xw", "R0.y")),
        vp(("MOV", "o[7]", "R3")),
        vp(("MOV", "o[0]", "v[0]"))),
    # ARL then relative constant and input reads (outside c[0..467] and v[0..15] they read 0).
    "relative": lambda: vp_program(
        vp(("MUL", "R0", "v[1]", "c[3]")),
        vp(("ARL", "A0.x", "R0")),
        vp(("MOV", "o[7]", "c[A0.x+2]")),
        vp(("ADD", "o[8]", "c[A0.x+0]", "-v[0]")),
        vp(("MUL", "o[9]", "v[A0.x+3]", "c[1]")),
        vp(("MOV", "o[0]", "v[0]"))),
    # A subroutine called over a jump; the call returns to the slot after it.
    "call": lambda: vp_program(
        vp(scalar=("BRI",), target=3),
        vp(("MUL", "R0", "v[0]", "c[0]")),
        vp(scalar=("RET",)),
        vp(scalar=("CLI",), target=1),
        vp(("MOV", "o[7]", "R0")),
        vp(("MOV", "o[0]", "v[0]"))),
    # A backward conditional branch: a loop that runs until R0.x reaches c[2].x.
    "loop": lambda: vp_program(
        vp(("MOV", "R0", "c[0]")),
        vp(("ADD", "R0", "R0", "c[1]")),
        vp(("ADD", "CC.x", "R0", "-c[2]"), cc_update=True),
        vp(scalar=("BRI",), target=1, condition="LT.x"),
        vp(("MOV", "o[7]", "R0")),
        vp(("MOV", "o[0]", "v[0]"))),
    # The remaining scalar ops and vector ops the corpora do not use, saturated and conditional.
    "scalar_unit": lambda: vp_program(
        vp(("SSG", "R0", "v[1]"), ("LIT", "R1", "v[1]")),
        vp(("FRC", "R2", "v[2]"), ("EXP", "R3", "v[2].y")),
        vp(("MOV", "R6", "v[2]")),
        vp(("SLT", "CC", "v[1]", "R6"), ("LOG", "R4", "v[1].z"), cc_update=True),
        vp(("DPH", "R0.xy", "R6", "c[1]"), ("SIN", "R2.w", "v[1].x"), condition="NE.yyxx"),
        vp(("DST", "o[8]", "R3", "R4"), ("COS", "R5.y", "v[1].w")),
        vp(("MAD", "o[7]", "R0", "R1", "R2"), saturate=True),
        vp(("SGE", "o[10]", "v[1]", "-R6"), ("RCC", "R5.x", "v[1].x")),
        vp(("MOV", "o[11]", "R5")),
        vp(("MOV", "o[12]", "R3")),
        vp(("MOV", "o[13]", "R4")),
        vp(("MOV", "o[0]", "v[0]"))),
}


def golden_program(path: Path) -> tuple[Program, tuple | None, object | None]:
    """(program, parameters, FP header) of an asm/*.bin or real/* file."""
    if path.suffix in (".vpo", ".fpo"):
        container = read_container(path.read_bytes(), path.name)
        header = container.program_header if container.kind is ProgramKind.FRAGMENT else None
        return decode_program(container.words, container.kind, path.name), container.parameters, header
    kind = ProgramKind.VERTEX if path.name.startswith("vp_") else ProgramKind.FRAGMENT
    words = read_words(path.read_bytes(), "raw", word_bits=32, byte_order=UCODE_BYTE_ORDER[kind])
    return decode_program(words, kind, path.name), None, None


def golden(name: str, **options) -> str:
    path = next(p for folder in ("asm", "real") for p in (GOLDEN / folder).glob(f"{name}*")
                if p.suffix in (".bin", ".vpo", ".fpo"))
    program, parameters, header = golden_program(path)
    return decompile(program, parameters, header=header, **options)


def body(text: str) -> list[str]:
    """The lines of rsx_program(), stripped."""
    inside = text.split("void rsx_program()\n{\n", 1)[1].split("\n}\n", 1)[0]
    return [line.strip() for line in inside.splitlines()]


def statements(lines: list[str]) -> list[str]:
    """The lines without the instruction comments."""
    return [line for line in lines if not line.startswith("//")]


def at(lines: list[str], slot: int) -> int:
    """Index of the comment line of the instruction in ``slot``."""
    return next(n for n, line in enumerate(lines) if line.startswith(f"// {slot:03d}: "))


# --- fragment programs ---------------------------------------------------------------------------


def test_inputs_outputs_and_literals_are_named():
    text = golden("fp_arith_const")
    assert "layout(location = 0) out vec4 fragColor;" in text
    assert "in vec4 tc0;" in text and "in vec4 col0;" in text
    assert "const vec4 c0 = vec4(0.5, 0.25, 2.0, 1.0);" in text
    assert "const vec4 c1 = vec4(0.125, 0.375, -0.5, 0.0);" in text
    assert "f_col0 = clamp(col0, 0.0, 1.0);" in text  # COL0 is clamped on read (spec 3.6)
    lines = body(text)
    assert statements(lines) == ["r0 = f_tex0 * c0;", "r1 = r0 + c1;", "r0 = r1 * f_col0 + c0.wzyx;", "r0 = r0;"]
    # each statement under its instruction, printed by the disassembler with the literal's name
    assert lines[0].startswith("// 000: MULR R0, ") and lines[0].endswith(", c0")
    assert lines[4].startswith("// 004: MADR R0, R1, ") and lines[4].endswith(", c0.wzyx")
    assert text.rstrip().endswith("rsx_program();\n    fragColor = r0;\n}")


def test_one_comment_per_instruction_on_every_corpus_program():
    for path in sorted((GOLDEN / "asm").glob("*.bin")) + sorted((GOLDEN / "real").glob("*.?po")):
        program, parameters, header = golden_program(path)
        comments = [line for line in body(decompile(program, parameters, header=header))
                    if re.match(r"// \d{3}: ", line)]
        assert [int(line[3:6]) for line in comments] == [i.slot for i in program.instructions], path.name


def test_write_masks_narrow_the_swizzles():
    lines = body(golden("fp_frc_flr"))
    assert "r1.xy = fract(r0.xy);" in lines
    assert "r1.zw = floor(r0.xy);" in lines          # FLRR R1.zw, R0.xxxy
    assert "r1.zw = r1.zw * c0.zz;" in lines


def test_if_else_structure():
    lines = body(golden("fp_if_else"))
    start = lines.index("if (cc0.x > 0.0)")
    assert statements(lines[start + 1:]) == ["{", "r0 = f_col0;", "}", "else", "{", "r0 = c0.wwwy;", "}",
                                             "r0 = r0;"]
    assert at(lines, 2) == start - 1 and at(lines, 3) == start + 2 and at(lines, 4) == start + 7


def test_loop_structure():
    lines = body(golden("fp_loop"))
    start = lines.index("for (int i0 = 0; i0 < 3; ++i0)")
    assert statements(lines[start + 1:start + 5]) == ["{", "r0 = r0 + c0;", "}"]
    assert at(lines, 2) == start + 2


def test_kil_is_a_discard_under_the_cc_test():
    lines = body(golden("fp_kil"))
    assert "cc0.x = f_tex0.x + -c0.x;" in lines
    assert "if (cc0.x < 0.0) discard;" in lines


def test_constant_only_and_pack_ops_use_the_glsl_pack_functions():
    lines = body(golden("fp_pack_unpack"))
    for expected in ("r1.x = uintBitsToFloat(packHalf2x16(f_tex0.xy));",
                     "r0.xy = unpackHalf2x16(floatBitsToUint(r1.x));",
                     "r1.y = uintBitsToFloat(packUnorm4x8(f_col0));",
                     "r2 = unpackUnorm4x8(floatBitsToUint(r1.y));",
                     "r1.z = uintBitsToFloat(packSnorm4x8(f_tex0));",
                     "r0.zw = unpackSnorm4x8(floatBitsToUint(r1.z)).zw;",
                     "r1.w = uintBitsToFloat(packUnorm2x16(f_col0.xy));",
                     "r2.xy = unpackUnorm2x16(floatBitsToUint(r1.w));"):
        assert expected in lines


def test_h_registers_without_crossing_are_fp16_variables():
    text = golden("fp_half_regs")
    assert "vec4 h2 = vec4(0.0);  // fp16 values" in text
    assert "rsx_load_half" not in text and "rsx_store_half" not in text
    lines = body(text)
    assert "h2.xy = rsx_half(h2.xy * c0.xy);" in lines  # H precision: fp16 rounding
    assert "r0 = h2;" in lines


def test_h_write_read_as_r_packs_into_the_storage():
    text = decompile(FRAGMENT_PROGRAMS["h_write_r_read"]())
    assert "vec4 h0" not in text  # H0 lives in r0.xy
    lines = body(text)
    assert "r0.xy = rsx_store_half(r0.xy, rsx_half(f_tex0), bvec4(true, true, true, true));" in lines
    assert "r1.xy = unpackHalf2x16(floatBitsToUint(r0.x));" in lines
    assert "packHalf2x16(value.xy)" in text  # the storage helper packs the halves


def test_r_write_read_as_h_unpacks_the_storage():
    lines = body(decompile(FRAGMENT_PROGRAMS["r_write_h_read"]()))
    assert "r2.x = uintBitsToFloat(packHalf2x16(f_tex0.xy));" in lines
    assert "r0 = rsx_load_half(r2.xy);" in lines


def test_one_h_lane_keeps_the_other_half_of_its_storage():
    lines = body(decompile(FRAGMENT_PROGRAMS["h_lane_in_r"]()))
    assert "r0.zw = rsx_store_half(r0.zw, f_tex0.xxxx, bvec4(false, true, false, false));" in lines
    assert "r0.xy = rsx_load_half(r0.zw).zw;" in lines


def test_real_fp_with_h0_and_r0_sharing_storage():
    lines = body(golden("gs_gcm_cube_0x38f80"))
    assert "r0.w = texture(u_letterTex, f_tex0.xy).w;" in lines  # sampler named by the container
    assert "r0.xy = rsx_store_half(r0.xy, rsx_half(f_col0), bvec4(true, true, true, true));" in lines
    assert "r0.w = rsx_load_half(r0.xy).w * r0.w;" in lines


def test_conditional_write_tests_the_cc_lane_of_each_destination_lane():
    lines = body(decompile(FRAGMENT_PROGRAMS["conditions"]()))
    assert "cc1 = f_tex0 + -c0;" in lines
    # R0.yw(LT1.xxzz): lane y tests CC1.x, lane w tests CC1.z (spec 3.8)
    assert "r0.yw = mix(r0.yw, f_col0.yw, lessThan(cc1.xz, vec2(0.0)));" in lines
    assert "r0.xz = mix(r0.xz, r2.wy, greaterThanEqual(cc1.yw, vec2(0.0)));" in lines
    assert "r0 = vec4(lessThan(f_tex0, f_tex0.yxwz));" in lines


def test_register_and_cc_written_together_bind_the_result_once():
    lines = body(decompile(FRAGMENT_PROGRAMS["flow"]()))
    start = at(lines, 3)
    assert lines[start + 1:start + 6] == ["{", "vec4 result = r0 + f_tex0;", "r0.x = result.x;",
                                          "cc0.x = result.x;", "}"]


def test_output_modifiers_in_spec_order():
    lines = body(decompile(FRAGMENT_PROGRAMS["modifiers"]()))
    # abs, then the input precision clamp, then negate
    assert "r1 = -clamp(abs(f_tex0), -2.0, 1.9990234375) + c0;" in lines
    # scale, then saturate
    assert "r0.xy = rsx_saturate((r1.xy * f_tex1.yx) * 2.0);" in lines
    assert "r0.zw = clamp(r1.yx * c1.zw + f_col0.zw, -2.0, 1.9990234375);" in lines
    assert "r0.w = clamp(r0.w * 0.25, -1.0, 1.0);" in lines


def test_flow_becomes_for_if_break_and_return():
    lines = body(decompile(FRAGMENT_PROGRAMS["flow"]()))
    loop = lines.index("for (int i0 = 0; i0 < 5; ++i0)")
    branch = lines.index("if (cc1.x > 0.0)")
    assert loop < branch < lines.index("if (cc1.x > 0.0) break;") < lines.index("if (cc0.y > 0.0) return;")
    assert lines.index("else") < lines.index("if (cc1.x > 0.0) break;")


def test_texture_ops():
    text = decompile(FRAGMENT_PROGRAMS["textures"](), fullscreen=True)
    lines = body(text)
    assert "layout(binding = 0) uniform sampler2D texture0;" in text
    assert "layout(binding = 1) uniform sampler2D texture1;" in text
    assert "r0 = textureProj(texture0, f_tex1.xyzz);" in lines
    assert "r1 = texture(texture1, f_tex0.xy, f_tex0.w);" in lines
    assert "r2 = (textureLod(texture1, f_tex1.xy, f_tex1.w) * 2.0 - 1.0);" in lines
    assert "for (int i0 = 0; i0 < 2; ++i0)" in lines
    assert "if (any(greaterThan(cc0.zywx, vec4(0.0)))) discard;" in lines


def test_indexed_inputs_read_through_the_loop_counter():
    text = decompile(FRAGMENT_PROGRAMS["indexed"]())
    lines = body(text)
    loop = lines.index("for (int i0 = 0; i0 < 3; ++i0)")
    assert lines[loop + 2] == "int loop0 = 0 + i0 * 1;"
    assert "r0 = r0 + rsx_texcoord(loop0 + 0);" in lines
    assert "r0 = rsx_texcoord(loop0 + -1) * rsx_texcoord(loop0 + -1).wzyx + r0;" in lines
    assert all(f"in vec4 tc{n};" in text for n in range(10))


def test_colour_from_h0_when_the_header_says_so_or_bare_ucode_writes_it_there():
    header = FragmentProgramHeader(4, 0, 0, 0, 0xFFFF, 0, 2, output_from_h0=1, depth_replace=0, pixel_kill=0)
    text = decompile(FRAGMENT_PROGRAMS["h0_colour"](), header=header)
    assert "fragColor = h0;" in text
    # A header saying R0 is obeyed; bare ucode that writes H0 and never R0 takes H0.
    assert "fragColor = r0;" in decompile(FRAGMENT_PROGRAMS["h0_colour"](), header=replace(header, output_from_h0=0))
    assert "fragColor = h0;" in decompile(FRAGMENT_PROGRAMS["h0_colour"]())
    assert "fragColor = r0;" in golden("fp_arith_const")


def test_depth_output_for_bare_ucode():
    assert "gl_FragDepth = r1.z;" in golden("fp_depth_out")
    assert "gl_FragDepth" not in golden("fp_arith_const")  # R1 is a temporary there (read back)


def test_fullscreen_inputs_follow_the_emu_readme():
    text = golden("fp_arith_const", fullscreen=True)
    assert "uniform vec2 rsx_viewport_size;" in text
    assert "uniform vec4 rsx_override_tex0;" in text and "in vec4 tc0;" not in text
    assert ("f_tex0 = (rsx_override_mask & 16) != 0 ? rsx_override_tex0 : "
            "vec4(position.x, position.y, 0.0, 1.0);") in text
    assert "f_col0 = (rsx_override_mask & 2) != 0 ? rsx_override_col0 : vec4(0.8, 0.4, 0.2, 1.0);" in text


def test_unimplemented_and_unknown_opcodes_are_refused_with_their_slot():
    lit = fp_program(fp("MOV", "R0", "f[COL0]"), fp("LIT", "R0", "R0"))
    with pytest.raises(InputError, match=r"slot 1: LIT \(0x1E\)"):
        decompile(lit)
    unknown = fp_program(fp("MOV", "R0", "f[COL0]"))
    words = list(unknown.words())
    words[0] = (words[0] & ~(0x3F << 24)) | 0x30 << 24  # opcode 0x30: no such FP opcode
    with pytest.raises(InputError, match="slot 0: unknown fragment opcode 0x30"):
        decompile(decode_program(words, ProgramKind.FRAGMENT))


def test_bad_flow_offsets_are_refused():
    program = fp_program(fp_flow("IFE", "GT.x", else_slot=9, end_slot=9), fp("MOV", "R0", "f[COL0]"))
    with pytest.raises(InputError, match="slot 0: IFE offsets"):
        decompile(program)


def test_fullscreen_is_for_fragment_programs():
    with pytest.raises(InputError, match="fragment programs"):
        golden("vp_mvp_color", fullscreen=True)


# --- vertex programs -----------------------------------------------------------------------------


def test_vertex_inputs_constants_and_outputs():
    text = golden("vp_mvp_color")
    assert "layout(location = 0) in vec4 in_pos;" in text
    assert "layout(location = 3) in vec4 in_diff_color;" in text
    assert "uniform vec4 vc[468];" in text
    assert "out vec4 col0;" in text
    assert body(text)[1] == "o0.x = dot(in_pos, vc[0]);"
    assert "gl_Position = o0;" in text and "col0 = o1;" in text
    assert output_varyings(text) == {0: "gl_Position", 1: "col0"}


def test_vertex_outputs_link_with_fragment_inputs():
    vertex = golden("gs_gcm_cube_0x208dc")
    fragment = golden("gs_gcm_cube_0x38f80")
    assert "out vec4 tc0;" in vertex and "in vec4 tc0;" in fragment
    assert "out vec4 col0;" in vertex and "in vec4 col0;" in fragment
    assert "//   c[256]: modelViewProj[0]" in vertex  # uniforms named from the container


def test_vp_branch_uses_the_pc_dispatcher():
    lines = body(golden("vp_branch"))
    assert lines[:3] == ["int pc = 0;", "for (int steps = 0; steps < 65536; ++steps)  // a runaway program stops",
                         "{"]
    assert "if (cc0.x <= 0.0) { pc = 4; continue; }" in lines
    blocks = [line for line in lines if line.startswith("if (pc <= ")]
    assert blocks == ["if (pc <= 0)", "if (pc <= 3)", "if (pc <= 4)"]
    assert at(lines, 3) == lines.index("if (pc <= 3)") + 2


def test_straight_line_vertex_program_has_no_dispatcher():
    assert "int pc" not in golden("vp_cond_codes")


def test_vp_cc_swizzle_is_indexed_by_destination_lane():
    lines = body(golden("vp_cond_codes"))
    assert "r0.x = mix(r0.x, vc[0].x, cc0.x != 0.0);" in lines
    assert "r0.zw = mix(r0.zw, vc[0].ww, notEqual(cc0.ww, vec2(0.0)));" in lines  # NE.zzww on .zw
    assert "o8 = mix(o8, in_diff_color, greaterThan(cc0.xxxx, vec4(0.0)));" in lines


def test_dual_issue_binds_both_results_before_writing():
    lines = body(decompile(VERTEX_PROGRAMS["dual_issue"]()))
    start = at(lines, 1)
    assert lines[start + 1:start + 7] == ["{", "vec4 vector_result = r0 * vc[0];",
                                          "vec4 scalar_result = vec4(exp2(r0.w));",
                                          "r0 = vector_result;", "r1.yz = scalar_result.yz;", "}"]
    # a temp and an output written by the vector op, R3 by the scalar op
    start = at(lines, 2)
    assert lines[start + 1:start + 7] == ["{", "vec4 vector_result = r1;", "vec4 scalar_result = vec4(1.0 / r0.y);",
                                          "r2 = vector_result;", "o8 = vector_result;",
                                          "r3.xw = scalar_result.xw;"]


def test_relative_addressing_and_arl():
    text = decompile(VERTEX_PROGRAMS["relative"]())
    lines = body(text)
    assert "a0.x = int(floor(r0.x));" in lines
    assert "o7 = rsx_constant(2 + a0.x);" in lines
    assert "return index >= 0 && index < 468 ? vc[index] : vec4(0.0);" in text
    assert "o9 = rsx_input(3 + a0.x) * vc[1];" in lines
    assert all(f"layout(location = {n}) in vec4" in text for n in range(16))


def test_calls_use_a_stack_and_return():
    lines = body(decompile(VERTEX_PROGRAMS["call"]()))
    assert "int call_stack[4];" in lines
    assert "if (depth == 4) return; call_stack[depth++] = 4; pc = 1; continue;" in lines
    assert "if (depth == 0) return; pc = call_stack[--depth]; continue;" in lines


def test_scalar_ops_write_replicated_results():
    lines = body(golden("vp_scalar_rcp_rsq"))
    assert "r0.x = 1.0 / in_pos.w;" in lines
    assert "r0.y = 1.0 / sqrt(abs(in_normal.x));" in lines
    assert "r0.z = rsx_rcc(in_normal.y);" in lines


def test_branch_outside_the_program_is_refused():
    program = vp_program(vp(scalar=("BRI",), target=9), vp(("MOV", "o[0]", "v[0]")))
    with pytest.raises(InputError, match="slot 0: BRI target 9 is beyond the program"):
        decompile(program)


# --- properties ----------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 0xFFFFFFFF))
def test_float_literals_keep_the_float32_bits(bits):
    value = struct.unpack(">f", struct.pack(">I", bits))[0]
    text = float_literal(value)
    if text.startswith("uintBitsToFloat"):
        assert not np.isfinite(value) and int(text[18:26], 16) == bits
    else:
        assert re.fullmatch(r"-?\d+(\.\d*)?(e[+-]\d+)?", text) and ("." in text or "e" in text)
        assert np.float32(float(text)).view(np.uint32) == np.uint32(bits)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([ProgramKind.FRAGMENT, ProgramKind.VERTEX]),
       st.lists(st.integers(0, 0xFFFFFFFF), min_size=4, max_size=16).filter(lambda w: len(w) % 4 == 0))
def test_any_words_give_glsl_or_an_input_error(kind, words):
    try:
        text = decompile(decode_program(words, kind, "fuzz"))
    except InputError:
        return
    assert text.startswith("#version 430\n") and "void main()" in text
