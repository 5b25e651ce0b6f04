"""RSX form A text, instruction by instruction, in the Mesa isaspec style: a table of
``(words, text)`` checked in both directions (disassemble the words -> the text; assemble the
text -> the words).

Words come from the cgcomp and sce-cgc goldens where an instruction there shows the feature, and
otherwise are built field by field from spec/rsx.md sections 2 and 3 with cgcomp's fillers
(unused VP sources 0x1B02, FP 0x1C800, no temp 0x3F, no output 0x1F, condition TR with the
identity CC swizzle); the helpers below implement the spec's bit tables independently of the
assembler. Every case is a one-instruction program, so the end bit is set.
"""

from __future__ import annotations

import re
import struct

import pytest

from shaderkit.isa.rsx import fields as layout
from shaderkit.isa.rsx.assembly import assemble
from shaderkit.isa.rsx.container import ProgramKind
from shaderkit.isa.rsx.disassembler import disassemble
from shaderkit.isa.rsx.instruction import Instruction, Program, fragment_has_literal
from shaderkit.isa.rsx.opcodes import FP, VP_SCALAR, VP_VECTOR
from conftest import golden_dir

GOLDEN = golden_dir("rsx")
VERTEX, FRAGMENT = ProgramKind.VERTEX, ProgramKind.FRAGMENT
LANES = "xyzw"


def golden(folder: str, name: str, slot: int) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """Slot ``slot`` of a golden words.txt dump, with its literal slot when it has one."""
    rows = {}
    for line in (GOLDEN / folder / f"{name}.words.txt").read_text().splitlines():
        number, words = line.split(":")
        rows[int(number)] = tuple(int(word, 16) for word in words.split())
    words = rows[slot]
    literal = rows[slot + 1] if name.endswith("fpo") and fragment_has_literal(words) else None
    return words, literal


def asm(name: str, slot: int):
    return golden("asm", name, slot)


# --- vertex words from the spec (2.2-2.6) ------------------------------------------------------

VP_BASE = dict(cc_swizzle=0x1B, condition=7, vector_temp=0x3F, scalar_temp=0x3F, output=0x1F,
               source0=0x1B02, source1=0x1B02, source2=0x1B02)


def vp_mask(letters: str) -> int:
    return sum(8 >> LANES.index(letter) for letter in letters)  # x is the high bit


def vp_source(file: str, index: int = 0, swizzle: str = "xyzw", negate: bool = False) -> int:
    lanes = [LANES.index(letter) for letter in swizzle]
    raw = {"R": 1, "v": 2, "c": 3}[file] | (index << 2 if file == "R" else 0)
    return raw | lanes[0] << 14 | lanes[1] << 12 | lanes[2] << 10 | lanes[3] << 8 | negate << 16


def vp(**fields) -> tuple[tuple[int, ...], None]:
    return layout.VP.encode({**VP_BASE, **fields}), None


def vector(opcode: int, temp=None, output=None, mask="xyzw", **fields):
    values = dict(vector_opcode=opcode, vector_mask=vp_mask(mask), **fields)
    if temp is not None:
        values["vector_temp"] = temp
    if output is not None:
        values.update(vector_to_output=1, output=output)
    return vp(**values)


def scalar(opcode: int, temp=None, output=None, mask="xyzw", **fields):
    values = dict(scalar_opcode=opcode, scalar_mask=vp_mask(mask), **fields)
    if temp is not None:
        values["scalar_temp"] = temp
    if output is not None:
        values["output"] = output
    return vp(**values)


def branch_target(slot: int, index: int = 0, value: int = 0) -> int:
    """Source 2 of a branch: input type, target bits 0..8 in bits 8..16 (spec 2.5)."""
    return 2 | index << 2 | value << 7 | slot << 8


# --- fragment words from the spec (3.2-3.5) ----------------------------------------------------

FP_BASE = dict(condition=7, cc_swizzle=0xE4, source0=0x1C800, source1=0x1C800, source2=0x1C800)
TEXCOORD_DISPLACEMENT = 0x7FC


def fp_mask(letters: str) -> int:
    return sum(1 << LANES.index(letter) for letter in letters)  # x is the low bit


def fp_source(file: str, index: int = 0, swizzle: str = "xyzw", negate: bool = False) -> int:
    lanes = [LANES.index(letter) for letter in swizzle]
    raw = {"R": 0, "H": 0, "f": 1, "c": 2}[file] | (index << 2 if file in "RH" else 0) | (file == "H") << 8
    return raw | lanes[0] << 9 | lanes[1] << 11 | lanes[2] << 13 | lanes[3] << 15 | negate << 17


def fp(opcode: int, dst: int = 0, mask: str = "xyzw", literal=None, **fields):
    values = {**FP_BASE, "opcode_low": opcode & 0x3F, "opcode_high": opcode >> 6, "destination": dst,
              "mask": fp_mask(mask), **fields}
    return layout.FP.encode(values), literal


def bare(opcode: int, **fields):
    """NOP, KIL, FENCT, FENCB: no destination (index 63), full mask."""
    return fp(opcode, dst=0x3F, no_destination=1, **fields)


ONE = 0x3F800000
HALF = 0x3F000000


def flow(opcode: int, condition: int = 7, swizzle: int = 0xE4, word2: int = 0, word3: int = 0,
         precision_h: bool = False):
    """Flow control as cgcomp writes it (spec 3.9)."""
    word0 = (opcode & 0x3F) << 24 | 1 << 30 | precision_h << 22
    return (word0, condition << 18 | swizzle << 21, 1 << 31 | word2, word3), None


VERTEX_CASES = [
    ("NOP;", vp()),
    ("MOV R1, R2;", vector(0x01, temp=1, source0=vp_source("R", 2))),
    ("MUL R1.xy, vertex.normal, c[4].x;",
     vector(0x02, temp=1, mask="xy", input=2, constant=4, source0=vp_source("v"),
            source1=vp_source("c", swizzle="xxxx"))),
    ("ADD R0, R1, -R2;", vector(0x03, temp=0, source0=vp_source("R", 1), source2=vp_source("R", 2, negate=True))),
    ("MAD result.position, vertex.position, c[0], R3;",
     vector(0x04, output=0, source0=vp_source("v"), source1=vp_source("c"), source2=vp_source("R", 3))),
    ("DP3 R0.x, R1, R2;", vector(0x05, temp=0, mask="x", source0=vp_source("R", 1), source1=vp_source("R", 2))),
    ("DPH R0.y, vertex.position.xyzx, R4;",
     vector(0x06, temp=0, mask="y", source0=vp_source("v", swizzle="xyzx"), source1=vp_source("R", 4))),
    ("DP4 result.position.w, vertex.position, c[259];", golden("real", "gs_gcm_basic_triangle_0x312e0.vpo", 1)),
    ("DST R1, vertex.normal, R1;", asm("vp_dots.vpo", 4)),
    ("MIN R0, vertex.position, c[0].y;", asm("vp_minmax_set.vpo", 0)),
    ("MAX R0, R0, c[0].w;", asm("vp_minmax_set.vpo", 1)),
    ("SLT R1.x, vertex.position.x, c[0].y;", asm("vp_minmax_set.vpo", 2)),
    ("SGE R1.y, vertex.position.y, c[0].y;", asm("vp_minmax_set.vpo", 3)),
    ("ARL A1.xy, R2.zwzw;", vector(0x0D, temp=1, mask="xy", source0=vp_source("R", 2, "zwzw"))),
    ("FRC R1.xy, vertex.position.yxyy;", golden("real", "gs_gcm_cube_0x38c70.vpo", 3)),
    ("FLR R0.xy, vertex.position.xyxx;", golden("real", "gs_gcm_cube_0x38c70.vpo", 0)),
    ("SEQ R1.z, vertex.position.z, c[0].x;", asm("vp_minmax_set.vpo", 4)),
    ("SFL R1.z, vertex.normal, c[0];", asm("vp_minmax_set.vpo", 10)),
    ("SFL R1.z;", vector(0x11, temp=1, mask="z")),
    ("SGT R1.w, vertex.position.w, c[0].z;", asm("vp_minmax_set.vpo", 5)),
    ("SLE R1.x, vertex.normal.x, c[0].x;", asm("vp_minmax_set.vpo", 8)),
    ("SNE R1.y, vertex.normal.y, c[0].x;", asm("vp_minmax_set.vpo", 9)),
    ("STR R1.w, vertex.normal, c[0];", asm("vp_minmax_set.vpo", 11)),
    ("SSG R2, -R3.w;", vector(0x16, temp=2, source0=vp_source("R", 3, "wwww", negate=True))),
    ("TXL R0, R1;", vector(0x19, temp=0, source0=vp_source("R", 1))),
    # scalar unit (source slot 2)
    ("NOP + MOV R5.w, vertex.normal.x;",
     scalar(0x01, temp=5, mask="w", input=2, source2=vp_source("v", swizzle="xxxx"))),
    ("RCP R0.x, vertex.position.w;", asm("vp_scalar_rcp_rsq.vpo", 0)),
    ("RCC R0.z, vertex.normal.y;", asm("vp_scalar_rcp_rsq.vpo", 2)),
    ("RSQ R0.y, vertex.normal.x;", asm("vp_scalar_rcp_rsq.vpo", 1)),
    ("EXP R1.y, R2.z;", scalar(0x05, temp=1, mask="y", source2=vp_source("R", 2, "zzzz"))),
    ("LOG R1, R2.x;", scalar(0x06, temp=1, source2=vp_source("R", 2, "xxxx"))),
    ("LIT R3, R2;", scalar(0x07, temp=3, source2=vp_source("R", 2))),
    ("BRA A0.y;", scalar(0x08, address_swizzle=1)),
    ("L0:\nBRA L0(LE.x);", scalar(0x09, condition_test=1, condition=3, cc_swizzle=0, source2=branch_target(0))),
    ("CAL A1.x;", scalar(0x0A, address_register=1)),
    ("CAL L1;\nL1:", scalar(0x0B, source2=branch_target(1))),
    ("RET (GT.x);", scalar(0x0C, condition_test=1, condition=4, cc_swizzle=0)),
    ("LG2 R0.x, vertex.color.x;", asm("vp_scalar_rcp_rsq.vpo", 5)),
    ("EX2 R0.w, vertex.normal.z;", asm("vp_scalar_rcp_rsq.vpo", 3)),
    ("SIN R0.x, c[467].x;", scalar(0x0F, temp=0, mask="x", constant=467, source2=vp_source("c", swizzle="xxxx"))),
    ("COS R1.xy, c[467].x;", scalar(0x10, temp=1, mask="xy", constant=467, source2=vp_source("c", swizzle="xxxx"))),
    ("L0:\nBRB L0, 3, 1;", scalar(0x11, source2=branch_target(0, index=3, value=1))),
    ("CLB L1, 0, 0;\nL1:", scalar(0x12, source2=branch_target(1))),
    ("PSH R0.x;", scalar(0x13, source2=vp_source("R", 0, "xxxx"))),
    ("POP;", scalar(0x14)),
    # destinations, conditions, modifiers, addressing
    ("MOVC CC.x, vertex.normal.x;", asm("vp_branch.vpo", 1)),
    ("MOV R0.zw(NE.zzww), c[0].w;", asm("vp_cond_codes.vpo", 4)),
    ("MOV result.texcoord[1](GT.x), vertex.color;", asm("vp_cond_codes.vpo", 7)),
    ("MOVC1 R3.x(GT1.x), R0;",
     vector(0x01, temp=3, mask="x", condition_test=1, condition=4, cc_swizzle=0, cc_register=1, cc_update=1,
            cc_update_b=1, source0=vp_source("R", 0))),
    ("MUL_SAT R0, R1, R2;", vector(0x02, temp=0, saturate=1, source0=vp_source("R", 1), source1=vp_source("R", 2))),
    ("MOV R0, -|R1.zwzw|;", vector(0x01, temp=0, source0=vp_source("R", 1, "zwzw", negate=True), source0_abs=1)),
    ("MOV R2, c[A0.x+1].zwww;",
     vector(0x01, temp=2, constant=1, index_constant=1, source0=vp_source("c", swizzle="zwww"))),
    ("MOV R0, v[A1.y+3];", vector(0x01, temp=0, input=3, index_input=1, address_register=1, address_swizzle=1,
                                  source0=vp_source("v"))),
    ("MOV result.color.back.secondary.xyz, vertex.attrib[7];",
     vector(0x01, output=4, mask="xyz", input=7, source0=vp_source("v"))),
    ("EX2 result.position.w, c[1].y;",
     scalar(0x0E, output=0, mask="w", constant=1, source2=vp_source("c", swizzle="yyyy"))),
    ("MOV result.texcoord[0], vertex.position + COS R1.xy, c[467].x;",
     ((0x401F9C6C, 0x805D300D, 0x8106C080, 0x0079E09C), None)),  # sce-cgc co-issue (ps3emu test vector)
    ("MAD R0, vertex.weight, c[A0.x+2], R0 + RCP R3.z, R0;",
     vector(0x04, temp=0, input=1, constant=2, index_constant=1, source0=vp_source("v"), source1=vp_source("c"),
            source2=vp_source("R", 0), scalar_opcode=0x02, scalar_temp=3, scalar_mask=vp_mask("z"))),
]

FRAGMENT_CASES = [
    ("NOP;", bare(0x00)),
    ("MOVR R1.xy, H2.zwzw;", fp(0x01, dst=1, mask="xy", source0=fp_source("H", 2, "zwzw"))),
    ("MULR R0, R0, fragment.color;", asm("fp_tex2d.fpo", 1)),
    ("ADDH H4.zw, H2.xxxy, -R3;", fp(0x03, dst=4, mask="zw", precision=1, destination_half=1,
                                     source0=fp_source("H", 2, "xxxy"), source1=fp_source("R", 3, negate=True))),
    ("MADR R0, R1, fragment.color, c[0].wzyx;", asm("fp_arith_const.fpo", 4)),
    ("DP3R R0.y, fragment.texcoord[0], fragment.texcoord[0].zyxw;", asm("fp_dots.fpo", 2)),
    ("DP4R R0.z, fragment.texcoord[0], c[0];", asm("fp_dots.fpo", 3)),
    ("DSTR R2, R1, R3;", fp(0x07, dst=2, source0=fp_source("R", 1), source1=fp_source("R", 3))),
    ("MINR R0.xyz, R0, c[0].y;", asm("fp_minmax.fpo", 2)),
    ("MAXR R0, fragment.texcoord[0], c[0].x;", asm("fp_minmax.fpo", 0)),
    ("SLTR R0, R1, R2;", fp(0x0A, source0=fp_source("R", 1), source1=fp_source("R", 2))),
    ("SGER R0, R1, R2.x;", fp(0x0B, source0=fp_source("R", 1), source1=fp_source("R", 2, "xxxx"))),
    ("SLER R0.x, R1, R2;", fp(0x0C, mask="x", source0=fp_source("R", 1), source1=fp_source("R", 2))),
    ("SGTH H0, H1, H2;",
     fp(0x0D, precision=1, destination_half=1, source0=fp_source("H", 1), source1=fp_source("H", 2))),
    ("SNER R0, R1, -R2;", fp(0x0E, source0=fp_source("R", 1), source1=fp_source("R", 2, negate=True))),
    ("SEQR R0, R1, R2;", fp(0x0F, source0=fp_source("R", 1), source1=fp_source("R", 2))),
    ("FRCR R1.xy, R0;", asm("fp_frc_flr.fpo", 2)),
    ("FLRR R1.zw, R0.xxxy;", asm("fp_frc_flr.fpo", 3)),
    ("KIL LT.x;", asm("fp_kil.fpo", 2)),
    ("PK4B R1.z, fragment.texcoord[0];", asm("fp_pack_unpack.fpo", 4)),
    ("UP4B R0.zw, R1.z;", asm("fp_pack_unpack.fpo", 5)),
    ("DDXR R0.xy, R1;", fp(0x15, mask="xy", source0=fp_source("R", 1))),
    ("DDYH H0.x, H1;", fp(0x16, mask="x", precision=1, destination_half=1, source0=fp_source("H", 1))),
    ("TEXR R0, fragment.texcoord[0], texture[0], 2D;", asm("fp_tex2d.fpo", 0)),
    ("TXPR_SAT R2, fragment.texcoord[0], texture[3], CUBE;",
     fp(0x18, dst=2, saturate=1, input=4, texture_unit=3, source0=fp_source("f"), displacement=TEXCOORD_DISPLACEMENT,
        perspective=1)),
    ("TXDR R0, fragment.texcoord[1], R1, R2, texture[2], 2D;",
     fp(0x19, input=5, texture_unit=2, source0=fp_source("f"), source1=fp_source("R", 1),
        source2=fp_source("R", 2), displacement=TEXCOORD_DISPLACEMENT)),
    ("RCPR R0.x, R1.x;", asm("fp_scalar_ops.fpo", 2)),
    ("RSQR R0.y, R1.y;", asm("fp_scalar_ops.fpo", 3)),
    ("EX2R R0.z, fragment.texcoord[0].x;", asm("fp_scalar_ops.fpo", 4)),
    ("LG2R R0.w, R1.y;", asm("fp_scalar_ops.fpo", 5)),
    ("LITR R0, R1;  #! native", fp(0x1E, source0=fp_source("R", 1))),
    ("LRPR R0, R1, R2, R3;  #! native",
     fp(0x1F, source0=fp_source("R", 1), source1=fp_source("R", 2), source2=fp_source("R", 3))),
    ("STRR R1;", fp(0x20, dst=1)),
    ("SFLH H2.w;", fp(0x21, dst=2, mask="w", precision=1, destination_half=1)),
    ("COSR R0.x, R1.w;", fp(0x22, mask="x", source0=fp_source("R", 1, "wwww"))),
    ("SINR R0.y, fragment.texcoord[1].x;",
     fp(0x23, mask="y", input=5, source0=fp_source("f", swizzle="xxxx"), displacement=TEXCOORD_DISPLACEMENT)),
    ("PK2H R1.x, fragment.texcoord[0];", asm("fp_pack_unpack.fpo", 0)),
    ("UP2H R0.xy, R1.x;", asm("fp_pack_unpack.fpo", 1)),
    ("POWR R0.x, R1.x, R2.y;  #! native",
     fp(0x26, mask="x", source0=fp_source("R", 1, "xxxx"), source1=fp_source("R", 2, "yyyy"))),
    ("PK4UB R1.y, fragment.color;", asm("fp_pack_unpack.fpo", 2)),
    ("UP4UB R2, R1.y;", asm("fp_pack_unpack.fpo", 3)),
    ("PK2US R1.w, fragment.color;", asm("fp_pack_unpack.fpo", 6)),
    ("UP2US R2.xy, R1.w;", asm("fp_pack_unpack.fpo", 7)),
    ("BEMR R0, R1, R2, R3;", fp(0x2B, source0=fp_source("R", 1), source1=fp_source("R", 2), source2=fp_source("R", 3))),
    ("PKG R0.x, R1;", fp(0x2C, mask="x", source0=fp_source("R", 1))),
    ("UPG R0, R1.x;", fp(0x2D, source0=fp_source("R", 1, "xxxx"))),
    ("DP2AR R0, R1, R2, R3;",
     fp(0x2E, source0=fp_source("R", 1), source1=fp_source("R", 2), source2=fp_source("R", 3))),
    ("TXLR R3, fragment.texcoord[1], texture[1], 2D;",
     fp(0x2F, dst=3, input=5, texture_unit=1, source0=fp_source("f"), source1=fp_source("f", swizzle="wwww"),
        displacement=TEXCOORD_DISPLACEMENT)),
    ("TXBR R0, R1, texture[1], 2D;", fp(0x31, texture_unit=1, source0=fp_source("R", 1))),
    ("TEXBEMR R0, R1, R2, R3, texture[0], 2D;",
     fp(0x33, source0=fp_source("R", 1), source1=fp_source("R", 2), source2=fp_source("R", 3))),
    ("TXPBEMR R0, R1, R2, R3, texture[4], 2D;",
     fp(0x34, texture_unit=4, source0=fp_source("R", 1), source1=fp_source("R", 2), source2=fp_source("R", 3))),
    ("BEMLUMR R0, R1, R2, R3;",
     fp(0x35, source0=fp_source("R", 1), source1=fp_source("R", 2), source2=fp_source("R", 3))),
    ("RFLR R0.xyz, R1, R2;", fp(0x36, mask="xyz", source0=fp_source("R", 1), source1=fp_source("R", 2))),
    ("TIMESWTEXR R0, R1, R2, R3;",
     fp(0x37, source0=fp_source("R", 1), source1=fp_source("R", 2), source2=fp_source("R", 3))),
    ("DP2R R0.x, fragment.texcoord[0], c[0];", asm("fp_dots.fpo", 0)),
    ("NRMR R0.xyz, R1;", asm("fp_nrm.fpo", 2)),
    ("DIVR R0, fragment.fogcoord, R1.x;", fp(0x3A, input=3, source0=fp_source("f"), source1=fp_source("R", 1, "xxxx"))),
    ("DIVSQR R0, R1, R2.y;", fp(0x3B, source0=fp_source("R", 1), source1=fp_source("R", 2, "yyyy"))),
    ("LIFR R6, R7.yyww;", fp(0x3C, dst=6, source0=fp_source("R", 7, "yyww"))),
    ("FENCT;", bare(0x3D)),
    ("FENCB;", golden("real", "gs_gcm_cube_0x2074c.fpo", 3)),
    ("BRK GT.x;", flow(0x40, condition=4, swizzle=0)),
    ("CAL L1(EQ.y);\nL1:", flow(0x41, condition=2, swizzle=0x55, word2=4)),
    ("IF NE.x;\nENDIF;", flow(0x42, condition=5, swizzle=0, word2=4, word3=4, precision_h=True)),
    ("RET;", flow(0x45)),
    # destinations, precision, conditions, modifiers
    ("MOVH H2, fragment.texcoord[0];", asm("fp_half_regs.fpo", 0)),
    ("MOVH R0.yw, c[0].xxyy;", golden("real", "gs_gcm_cube_0x2074c.fpo", 1)),
    ("ADDRC RC.x, fragment.texcoord[0].y, -c[0].x;", asm("fp_if_else.fpo", 0)),
    ("MULXC1 HC.y, H3, H3.y;",
     fp(0x02, dst=0x3F, mask="y", precision=2, no_destination=1, destination_half=1, set_cc=1, set_cc_register=1,
        source0=fp_source("H", 3), source1=fp_source("H", 3, "yyyy"))),
    ("MOVR R1.w(LT.y), -R0;",
     fp(0x01, dst=1, mask="w", condition=1, cc_swizzle=0x55, source0=fp_source("R", 0, negate=True))),
    ("MOVR R0(NE1.x), R1;", fp(0x01, condition=5, cc_swizzle=0, test_cc_register=1, source0=fp_source("R", 1))),
    ("MULR_SAT_X2 R0, R1, R2;", fp(0x02, saturate=1, scale=1, source0=fp_source("R", 1), source1=fp_source("R", 2))),
    ("MULR_D8 R0, R1, R2;", fp(0x02, scale=7, source0=fp_source("R", 1), source1=fp_source("R", 2))),
    ("FLRR R0.zw, |R0.xxxy|;", fp(0x11, mask="zw", source0=fp_source("R", 0, "xxxy"), source0_abs=1)),
    ("MADR R0, -|R1|, R2, |R3.w|;",
     fp(0x04, source0=fp_source("R", 1, negate=True), source0_abs=1, source1=fp_source("R", 2),
        source2=fp_source("R", 3, "wwww"), source2_abs=1)),
    ("MULR R0, fragment.texcoord[0], c[0];", asm("fp_arith_const.fpo", 0)),
    ("ADDX R12, R12, c[0];", fp(0x03, dst=12, precision=2, source0=fp_source("R", 12), source1=fp_source("c"),
                                 literal=(HALF, HALF, HALF, HALF))),
    ("MOVR R0, fragment.facing;", fp(0x01, input=14, source0=fp_source("f"))),
    ("MOVR R0, fragment.color;  #! displacement=0x7fc", golden("real", "gs_gcm_basic_triangle_0x315b0.fpo", 0)),
]

HEADERS = {VERTEX: "!!ARBvp1.0\nOPTION NV_vertex_program3;\n", FRAGMENT: "!!ARBfp1.0\nOPTION NV_fragment_program2;\n"}


def with_end_bit(kind: ProgramKind, words: tuple[int, ...]) -> tuple[int, ...]:
    return (words[0], words[1], words[2], words[3] | 1) if kind is VERTEX else (words[0] | 1, *words[1:])


def declarations(kind: ProgramKind, text: str, literal) -> str:
    """What the case text reads from constant memory, declared the cgc way."""
    if kind is FRAGMENT:
        if literal is None:
            return ""
        values = struct.unpack(">4f", struct.pack(">4I", *literal))
        return "#const c[0] = " + " ".join(f"{value:.9g}" for value in values) + "\n"
    indices = sorted({int(index) for index in re.findall(r"c\[(?:A[01]\.[xyzw]\+)?(\d+)\]", text)})
    return "".join(f"#var float4 c{index} :  : c[{index}] : -1 : 1\n" for index in indices)


def body(text: str) -> list[str]:
    """Disassembly lines between the declarations and END."""
    lines = text.splitlines()
    return [line for line in lines[2:lines.index("END")] if not line.startswith("#")]


CASES = [(VERTEX, *case) for case in VERTEX_CASES] + [(FRAGMENT, *case) for case in FRAGMENT_CASES]


@pytest.mark.parametrize("kind, text, encoding", CASES, ids=[f"{kind.value}:{text}" for kind, text, _ in CASES])
def test_words_disassemble_to_text(kind, text, encoding):
    words, literal = encoding
    program = Program(kind, (Instruction(kind, with_end_bit(kind, words), literal, 0),))
    assert body(disassemble(program)) == text.splitlines()


@pytest.mark.parametrize("kind, text, encoding", CASES, ids=[f"{kind.value}:{text}" for kind, text, _ in CASES])
def test_text_assembles_to_words(kind, text, encoding):
    words, literal = encoding
    source = HEADERS[kind] + declarations(kind, text, literal) + text + "\nEND\n"
    program = assemble(source, "case.txt").program
    assert [(instruction.words, instruction.literal) for instruction in program.instructions] == \
        [(with_end_bit(kind, words), literal)]


def test_every_opcode_is_in_the_table():
    def opcode_of(kind, words):
        fields = (layout.VP if kind is VERTEX else layout.FP).decode(words)
        if kind is VERTEX:
            return fields["vector_opcode"], fields["scalar_opcode"]
        return fields["opcode_low"] | fields["opcode_high"] << 6

    covered_vector = {opcode_of(VERTEX, words)[0] for _, (words, _) in VERTEX_CASES}
    covered_scalar = {opcode_of(VERTEX, words)[1] for _, (words, _) in VERTEX_CASES}
    covered_fragment = {opcode_of(FRAGMENT, words) for _, (words, _) in FRAGMENT_CASES}
    assert set(VP_VECTOR) <= covered_vector
    assert set(VP_SCALAR) <= covered_scalar
    missing = set(FP) - covered_fragment
    assert missing == {0x43, 0x44}  # LOOP and REP need a constant: see the block tests below


def test_loop_and_rep_blocks():
    source = HEADERS[FRAGMENT] + "\n".join([
        "#const c[0] = 3 0 1 0", "#const c[1] = 4 0 0 0",
        "LOOP c[0];", "REP c[1];", "BRK GT.x;", "ENDREP;", "ENDLOOP;", "MOVR R0, R1;", "END"]) + "\n"
    program = assemble(source, "loop.txt").program
    loop, rep, brk, mov = (instruction.words for instruction in program.instructions)
    # cgcomp: LOOP {3, 0, 1} as count 3, start 0, step 1; REP 4 as 4/4/4 (spec 3.9); ends at slot 3.
    assert loop == flow(0x43, word2=3 << 2 | 0 << 10 | 1 << 19, word3=3 * 4, precision_h=True)[0]
    assert rep == flow(0x44, word2=4 << 2 | 4 << 10 | 4 << 19, word3=3 * 4, precision_h=True)[0]
    assert brk == flow(0x40, condition=4, swizzle=0)[0]
    assert body(disassemble(program)) == ["LOOP c[0];", "REP c[1];", "BRK GT.x;", "ENDREP;", "ENDLOOP;",
                                          "MOVR R0, R1;"]


def test_if_else_offsets_are_word_offsets():
    """Spec 3.5: IFE at slot 2 with else = 0x10 (slot 4) and end = 0x18 (slot 6), cgcomp verified."""
    words, _ = asm("fp_if_else.fpo", 2)
    assert (words[2] & 0x7FFFFFFF, words[3]) == (0x10, 0x18)
    text = disassemble(Program(FRAGMENT, tuple(
        Instruction(FRAGMENT, *golden("asm", "fp_if_else.fpo", slot), slot) for slot in (0, 2, 3, 4, 6))))
    assert body(text) == ["ADDRC RC.x, fragment.texcoord[0].y, -c[0].x;", "IF GT.x;", "MOVR R0, fragment.color;",
                          "ELSE;", "MOVR R0, c[0].wwwy;", "ENDIF;", "MOVR R0, R0;"]


def test_real_basic_triangle_vertex_slot_0():
    """Spec 2.11: MOV o[1], v[3] reads as the colour pass-through."""
    words, _ = golden("real", "gs_gcm_basic_triangle_0x312e0.vpo", 0)
    program = Program(VERTEX, (Instruction(VERTEX, with_end_bit(VERTEX, words)),))
    assert body(disassemble(program)) == ["MOV result.color, vertex.color;"]
