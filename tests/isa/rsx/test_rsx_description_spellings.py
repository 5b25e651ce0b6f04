"""Every operand spelling of the old RSX grammar, read by the descriptions, gives the old words.

The new assembler driver hands each statement's text to ``VERTEX.parse`` / ``FRAGMENT.parse``
after substituting declared names as text and expanding macros as text; so the descriptions read
every spelling the old grammar (the retired ``isa/rsx/assembler.py``) read, and the texts that
substitution makes (``--x``, ``|-x|``, ``R0.zw.x``), giving the words the old assembler gives,
while they print as they always did (one spelling, the first).

Each case names its words as literals: the words the old hand-written assembler gave (end bit
clear, FP literal slot included), checked against it while it existed (it was retired in issue
11). :func:`_program_words` assembles each case's program as a user writes it, with declared
names, through the assembler driver.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from shaderkit.isa.rsx.assembly import assemble
from shaderkit.core.diagnostics import DiagnosticError, SourceError
from shaderkit.core.model import ParseContext
from shaderkit.isa.rsx.description import FloatVector, LoopCounts
from shaderkit.isa.rsx.description_fragment import FRAGMENT
from shaderkit.isa.rsx.description_vertex import VERTEX

C3 = 0x40400000_40000000_3F800000_40800000  # #const c[3] = 4 1 2 3, as a 128-bit literal (x lowest)


@dataclass(frozen=True)
class Spelling:
    """A statement the description parses, and the words it must give.

    ``old`` is the statement as a user writes it, where the text is what substituting a
    declared name gives (the name then being declared in ``declarations``, which
    also hold ``#const`` lines); ``program`` is the old program's statements around it (``{}``
    for it), whose instruction ``slot`` is compared; ``symbols`` are labels (a VP slot, an FP word
    offset), ``carried`` the fields the driver sets from the program (block offsets) and
    ``literals`` what ``c[N]`` names (the context's ``value_names["literal"]``)."""

    kind: str  # "vp" or "fp"
    text: str
    words: tuple[int, ...]
    old: str | None = None
    declarations: str = ""
    program: str = "{};\nNOP;"
    slot: int = 0
    symbols: tuple[tuple[str, int], ...] = ()
    carried: tuple[tuple[str, int], ...] = ()
    literals: tuple[tuple[str, int], ...] = ()

    @property
    def description(self):
        return VERTEX if self.kind == "vp" else FRAGMENT

    def context(self) -> ParseContext:
        return ParseContext(symbols=dict(self.symbols), value_names={"literal": dict(self.literals)})


def vp(text: str, *words: int, **details) -> Spelling:
    return Spelling("vp", text, words, **details)


def fp(text: str, *words: int, **details) -> Spelling:
    return Spelling("fp", text, words, **details)


SPELLINGS = [
    # VP sources
    vp("MOV R0, v[3]", 0x00001c6c, 0x0040030d, 0x8106c083, 0x6041fffc),
    vp("MOV R0, v[OPOS]", 0x00001c6c, 0x0040000d, 0x8106c083, 0x6041fffc),
    vp("MOV R0, v[TEX3].xy", 0x00001c6c, 0x00400b0a, 0x8106c083, 0x6041fffc),
    vp("MOV R0, vertex.position", 0x00001c6c, 0x0040000d, 0x8106c083, 0x6041fffc),
    vp("MOV R0, vertex.color.primary", 0x00001c6c, 0x0040030d, 0x8106c083, 0x6041fffc),
    vp("MOV R0, vertex.texcoord", 0x00001c6c, 0x0040080d, 0x8106c083, 0x6041fffc),
    vp("MOV R0, vertex.texcoord[2]", 0x00001c6c, 0x00400a0d, 0x8106c083, 0x6041fffc),
    vp("MOV R0, vertex.attrib[1]", 0x00001c6c, 0x0040010d, 0x8106c083, 0x6041fffc),
    vp("MOV R0, vertex.attrib[12].w", 0x00001c6c, 0x00400c7f, 0x8106c083, 0x6041fffc),
    vp("MOV R0, c[5]", 0x00001c6c, 0x0040500d, 0x8186c083, 0x6041fffc),
    vp("MOV R0, c[A0.x+5]", 0x00001c6c, 0x0040500d, 0x8186c083, 0x6041fffe),
    vp("MOV R0, c[A1.w]", 0x01001c6f, 0x0040000d, 0x8186c083, 0x6041fffe),
    vp("MOV R0, v[A1.y+3]", 0x09001c6d, 0x0040030d, 0x8106c083, 0x6041fffc),
    vp("MOV R0, v[A0.z]", 0x08001c6e, 0x0040000d, 0x8106c083, 0x6041fffc),
    vp("MOV R0, R3", 0x00001c6c, 0x0040000d, 0x8686c083, 0x6041fffc),
    vp("MOV R0, +R3", 0x00001c6c, 0x0040000d, 0x8686c083, 0x6041fffc),
    vp("MOV R0, |-R3|", 0x00201c6c, 0x0040000d, 0x8686c083, 0x6041fffc),
    vp("MOV R0, -|-R3.zw|", 0x00201c6c, 0x004000df, 0x8686c083, 0x6041fffc),
    vp("MOV R0, - | R3 |", 0x00201c6c, 0x0040008d, 0x8686c083, 0x6041fffc),
    vp("MOV R0, |R3|.xy", 0x00201c6c, 0x0040000a, 0x8686c083, 0x6041fffc),
    vp("MOV R0, -|+R3|.w", 0x00201c6c, 0x004000ff, 0x8686c083, 0x6041fffc),
    vp("ADD R0, v[1], -v[1].x", 0x00001c6c, 0x00c0010d, 0x8106c0a0, 0x0041fffc),
    vp("ADD R0, c[A0.x+2], -|c[A0.x+2]|", 0x00801c6c, 0x00c0200d, 0x8186c0a3, 0x6061fffe),
    # VP sources as substituting a declared name gives them
    vp("MOV R0, --R3.zw", 0x00001c6c, 0x0040005f, 0x8686c083, 0x6041fffc, old="MOV R0, -n",
       declarations="ALIAS n = -R3.zw;"),
    vp("MOV R0, -R3.zw.x", 0x00001c6c, 0x004000d5, 0x0686c083, 0x6041fffc, old="MOV R0, n.x",
       declarations="ALIAS n = -R3.zw;"),
    vp("MOV R0, --R3.zw.yx", 0x00001c6c, 0x00400075, 0x0686c083, 0x6041fffc, old="MOV R0, -n.yx",
       declarations="ALIAS n = -R3.zw;"),
    vp("MOV R0, +-R3.zw", 0x00001c6c, 0x004000df, 0x8686c083, 0x6041fffc, old="MOV R0, +n",
       declarations="ALIAS n = -R3.zw;"),
    vp("MOV R0, |-R3.zw|", 0x00201c6c, 0x0040005f, 0x8686c083, 0x6041fffc, old="MOV R0, |n|",
       declarations="ALIAS n = -R3.zw;"),
    vp("MOV R0, |-R3.zw|.x", 0x00201c6c, 0x00400055, 0x0686c083, 0x6041fffc, old="MOV R0, |n|.x",
       declarations="ALIAS n = -R3.zw;"),
    vp("MOV R0, -|-R3.zw|.yx", 0x00201c6c, 0x004000f5, 0x0686c083, 0x6041fffc, old="MOV R0, -|n|.yx",
       declarations="ALIAS n = -R3.zw;"),
    vp("MOV R0, ||R3||", 0x00201c6c, 0x0040000d, 0x8686c083, 0x6041fffc, old="MOV R0, |n|",
       declarations="ALIAS n = |R3|;"),
    vp("MOV R0, -||R3||", 0x00201c6c, 0x0040008d, 0x8686c083, 0x6041fffc, old="MOV R0, -|n|",
       declarations="ALIAS n = |R3|;"),
    vp("MOV R0, -|R3.yx|.y", 0x00201c6c, 0x00400080, 0x0686c083, 0x6041fffc, old="MOV R0, n.y",
       declarations="ALIAS n = -|R3.yx|;"),
    vp("MOV R0, |-|R3.yx||", 0x00201c6c, 0x00400020, 0x0686c083, 0x6041fffc, old="MOV R0, |n|",
       declarations="ALIAS n = -|R3.yx|;"),
    vp("MOV R0, vertex.texcoord[1].zw.x", 0x00001c6c, 0x00400955, 0x0106c083, 0x6041fffc, old="MOV R0, n.x",
       declarations="ALIAS n = vertex.texcoord[1].zw;"),
    vp("MOV R0, -c[A0.x+2].wzyx.yx", 0x00001c6c, 0x004020df, 0x8186c083, 0x6041fffe, old="MOV R0, n.yx",
       declarations="ALIAS n = -c[A0.x+2].wzyx;"),
    vp("SUB R0, R1, --R2", 0x00001c6c, 0x00c0000d, 0x8286c0a3, 0x6121fffc, old="SUB R0, R1, -n",
       declarations="ALIAS n = -R2;"),
    # VP destinations
    vp("MOV o[HPOS], R0", 0x401f9c6c, 0x0040000d, 0x8086c083, 0x6041ff80),
    vp("MOV o[7].xy, R0", 0x401f9c6c, 0x0040000d, 0x8086c083, 0x60419f9c),
    vp("MOV o[TEX0], R0", 0x401f9c6c, 0x0040000d, 0x8086c083, 0x6041ff9c),
    vp("MOV result.color.front, R0", 0x401f9c6c, 0x0040000d, 0x8086c083, 0x6041ff84),
    vp("MOV result.color.front.secondary.x, R0", 0x401f9c6c, 0x0040000d, 0x8086c083, 0x60411f88),
    vp("MOV result.texcoord, R0", 0x401f9c6c, 0x0040000d, 0x8086c083, 0x6041ff9c),
    vp("MOV result.texcoord[8], R0", 0x401f9c6c, 0x0040000d, 0x8086c083, 0x6041ffbc),
    vp("MOV result.clip[0], R0", 0x401f9c6c, 0x0040000d, 0x8086c083, 0x60409f94),
    vp("MOV result.clip[5](GT.x), R0", 0x401fb000, 0x0040000d, 0x8086c083, 0x60403f98),
    vp("MOV CC.x, R0", 0x001f9c6c, 0x0040000d, 0x8086c083, 0x60411ffc),
    vp("MOV RC, R0", 0x001f9c6c, 0x0040000d, 0x8086c083, 0x6041fffc),
    vp("MOV RC.xy(GT.x), R0", 0x001fb000, 0x0040000d, 0x8086c083, 0x60419ffc),
    vp("MOV R0 (NE.x), R1", 0x00003400, 0x0040000d, 0x8286c083, 0x6041fffc),
    vp("MOV R0.xy(GT1.xy), R1", 0x02003054, 0x0040000d, 0x8286c083, 0x60419ffc),
    vp("ARL A1.y, R0", 0x00009c6c, 0x0340000d, 0x8086c083, 0x60409ffc),
    vp("MOV R0, R1 + RCP result.clip[3], R2", 0x00001c6c, 0x1040000d, 0x8286c083, 0x6129ff98),
    vp("MOV R0, R1 + RCP RC.x, R2", 0x00001c6c, 0x1040000d, 0x8286c083, 0x6131fffc),
    # VP suffixes, case
    vp("MOVC0 R0, R1", 0x20005c6c, 0x0040000d, 0x8286c083, 0x6041fffc),
    vp("MOVC1 R0, R1", 0x22005c6c, 0x0040000d, 0x8286c083, 0x6041fffc),
    vp("movc_sat R0, R1", 0x24005c6c, 0x0040000d, 0x8286c083, 0x6041fffc),
    vp("Mov_Sat R0, R1", 0x04001c6c, 0x0040000d, 0x8286c083, 0x6041fffc),
    vp("MOVC1 R0(GT1.x), R1", 0x22007000, 0x0040000d, 0x8286c083, 0x6041fffc),
    # VP conditions
    vp("RET GT.x", 0x001fb000, 0x6000000d, 0x8106c083, 0x605e1ffc),
    vp("RET (NE1.xy)", 0x021fb454, 0x6000000d, 0x8106c083, 0x605e1ffc),
    vp("RET ( EQ.z )", 0x001faaa8, 0x6000000d, 0x8106c083, 0x605e1ffc),
    # VP co-issue
    vp("RCP R1.x, R2.w + MUL R0, v[0], c[4]", 0x00001c6c, 0x1080400d, 0x8106c0df, 0xe131e0fc),
    vp("MUL R0, v[0], c[4] + RCPC R1.x, R2.w", 0x20005c6c, 0x1080400d, 0x8106c0df, 0xe131e0fc),
    vp("MUL R0, v[0], c[4] + RCP R1.x(GT.x), R2.w", 0x00003000, 0x1080400d, 0x8106c0df, 0xe131e0fc),
    vp("RCPC_SAT R1.x(GT.x), R2.w + MUL R0, v[0], c[4]", 0x24007000, 0x1080400d, 0x8106c0df, 0xe131e0fc),
    vp("MULC R0(GT.x), R1, R2 + RCP R3.x(GT.xxxx), R2", 0x20007000, 0x1080000d, 0x8286c243, 0x6131e1fc),
    vp("MOV_SAT R0, R1 + RCP_SAT R2.x, R1", 0x04001c6c, 0x1040000d, 0x8286c083, 0x60b1e17c),
    vp("NOP + RCP R0.x, R1", 0x001f9c6c, 0x1000000d, 0x8106c083, 0x60b0007c),
    vp("RCP R0.x, R1 + NOP", 0x001f9c6c, 0x1000000d, 0x8106c083, 0x60b0007c),
    vp("MUL R0, R1, R2 + NOP", 0x00001c6c, 0x0080000d, 0x8286c243, 0x605ffffc),
    vp("NOP + NOP", 0x001f9c6c, 0x0000000d, 0x8106c083, 0x605e1ffc),
    vp("NOP + MOV R0.x, v[0]", 0x001f9c6c, 0x0800000d, 0x8106c083, 0x6050007c),
    vp("MOV R0.x, v[0] + NOP", 0x00001c6c, 0x0040000d, 0x8106c083, 0x605f1ffc),
    vp("RCP R0.x, R1.w", 0x001f9c6c, 0x1000000d, 0x8106c09f, 0xe0b0007c),
    vp("MOV R0, R1 + MOV R2.x, R1", 0x00001c6c, 0x0840000d, 0x8286c083, 0x60b1e17c),
    vp("RET + MOV R0, R1", 0x00001c6c, 0x6040000d, 0x8286c083, 0x605ffffc),
    vp("MOV R0, R1 + RET (GT.x)", 0x00003000, 0x6040000d, 0x8286c083, 0x605ffffc),
    vp("MOV R0, R1 + RET GT.x", 0x00003000, 0x6040000d, 0x8286c083, 0x605ffffc),
    vp("PSH R2 + MOV R0, R1", 0x00001c6c, 0x9840000d, 0x8286c083, 0x613ffffc),
    vp("MOV R0, +R1 + RCP R2.x, +R1", 0x00001c6c, 0x1040000d, 0x8286c083, 0x60b1e17c),
    vp("MOV R0, |R1| + RCP R2.x, R3", 0x00201c6c, 0x1040000d, 0x8286c083, 0x61b1e17c),
    # VP branches
    vp("BRA A0.x", 0x001f9c6c, 0x4000000d, 0x8106c083, 0x605e1ffc),
    vp("CAL A1.y", 0x011f9c6d, 0x5000000d, 0x8106c083, 0x605e1ffc),
    vp("BRA A0.x + MUL R0, R1, R2", 0x00001c6c, 0x4080000d, 0x8286c243, 0x605ffffc),
    vp("BRA L1", 0x001f9c6c, 0x4800000d, 0x8106c080, 0x405e1ffc, program="{};\nNOP;\nL1:\nNOP;", symbols=(("L1", 2),)),
    vp("BRA L1 (GT.x)", 0x001fb000, 0x4800000d, 0x8106c080, 0x405e1ffc, program="{};\nNOP;\nL1:\nNOP;", symbols=(("L1",
       2),)),
    vp("CAL L1(NE.y)", 0x001fb554, 0x5800000d, 0x8106c080, 0x405e1ffc, program="{};\nNOP;\nL1:\nNOP;", symbols=(("L1",
       2),)),
    vp("BRB L1, 3, 1", 0x001f9c6c, 0x8800000d, 0x8106c080, 0x51de1ffc, program="{};\nNOP;\nL1:\nNOP;", symbols=(("L1",
       2),)),
    vp("CLB L1, 31, 0", 0x001f9c6c, 0x9000000d, 0x8106c080, 0x4fde1ffc, program="{};\nNOP;\nL1:\nNOP;", symbols=(("L1",
       2),)),
    vp("BRA L1 + MUL R0, R1, R2", 0x00001c6c, 0x4880000d, 0x8286c240, 0x405ffffc, program="{};\nNOP;\nL1:\nNOP;",
       symbols=(("L1", 2),)),
    vp("MUL R0, R1, R2 + BRA L1(GT.x)", 0x00003000, 0x4880000d, 0x8286c240, 0x405ffffc, program="{};\nNOP;\nL1:\nNOP;",
       symbols=(("L1", 2),)),
    # FP sources
    fp("MOVR R0, f[0]", 0x01001e00, 0x1c9dc801, 0x0001c800, 0x0001c800),
    fp("MOVR R0, f[TEX0]", 0x01009e00, 0x1c9dc801, 0x0001c800, 0x3fe1c800),
    fp("MOVR R0, f[FACE]", 0x0101de00, 0x1c9dc801, 0x0001c800, 0x0001c800),
    fp("MOVR R0, fragment.color.primary", 0x01003e00, 0x1c9dc801, 0x0001c800, 0x0001c800),
    fp("MOVR R0, fragment.texcoord", 0x01009e00, 0x1c9dc801, 0x0001c800, 0x3fe1c800),
    fp("MOVR R0, fragment.texcoord[9].w", 0x0101be00, 0x1c9dfe01, 0x0001c800, 0x3fe1c800),
    fp("MOVR R0, H3", 0x01001e00, 0x1c9dc90c, 0x0001c800, 0x0001c800),
    fp("MOVR R0, R3", 0x01001e00, 0x1c9dc80c, 0x0001c800, 0x0001c800),
    fp("MOVR R0, {1, 2, 3, 4}", 0x01001e00, 0x1c9dc802, 0x0001c800, 0x0001c800, 0x3f800000, 0x40000000, 0x40400000,
       0x40800000),
    fp("MOVR R0, {0.5}", 0x01001e00, 0x1c9dc802, 0x0001c800, 0x0001c800, 0x3f000000, 0x3f000000, 0x3f000000,
       0x3f000000),
    fp("MOVR R0, {1, 2}", 0x01001e00, 0x1c9dc802, 0x0001c800, 0x0001c800, 0x3f800000, 0x40000000, 0x00000000,
       0x3f800000),
    fp("MOVR R0, {1, 2, 3}", 0x01001e00, 0x1c9dc802, 0x0001c800, 0x0001c800, 0x3f800000, 0x40000000, 0x40400000,
       0x3f800000),
    fp("MOVR R0, {0x3f800000(1), 0x40000000(2), 0, 0}", 0x01001e00, 0x1c9dc802, 0x0001c800, 0x0001c800, 0x3f800000,
       0x40000000, 0x00000000, 0x00000000),
    fp("MOVR R0, 0.5", 0x01001e00, 0x1c9dc802, 0x0001c800, 0x0001c800, 0x3f000000, 0x3f000000, 0x3f000000, 0x3f000000),
    fp("MOVR R0, -0.5", 0x01001e00, 0x1c9fc802, 0x0001c800, 0x0001c800, 0x3f000000, 0x3f000000, 0x3f000000, 0x3f000000),
    fp("MOVR R0, +2", 0x01001e00, 0x1c9dc802, 0x0001c800, 0x0001c800, 0x40000000, 0x40000000, 0x40000000, 0x40000000),
    fp("MOVR R0, 0x3f800000", 0x01001e00, 0x1c9dc802, 0x0001c800, 0x0001c800, 0x3f800000, 0x3f800000, 0x3f800000,
       0x3f800000),
    fp("MOVR R0, -0x3f800000", 0x01001e00, 0x1c9fc802, 0x0001c800, 0x0001c800, 0x3f800000, 0x3f800000, 0x3f800000,
       0x3f800000),
    fp("MOVR R0, 1e3", 0x01001e00, 0x1c9dc802, 0x0001c800, 0x0001c800, 0x447a0000, 0x447a0000, 0x447a0000, 0x447a0000),
    fp("MOVR R0, .25", 0x01001e00, 0x1c9dc802, 0x0001c800, 0x0001c800, 0x3e800000, 0x3e800000, 0x3e800000, 0x3e800000),
    fp("MOVR R0, {1,2,3,4}.yx", 0x01001e00, 0x1c9c0202, 0x0001c800, 0x0001c800, 0x3f800000, 0x40000000, 0x40400000,
       0x40800000),
    fp("MULR R0, -|{1, -2, 3, 4}|.y, R1", 0x02001e00, 0x3c9eaa02, 0x0001c804, 0x0001c800, 0x3f800000, 0xc0000000,
       0x40400000, 0x40800000),
    fp("MULR R0, 0.5, -0.5", 0x02001e00, 0x1c9dc802, 0x0003c802, 0x0001c800, 0x3f000000, 0x3f000000, 0x3f000000,
       0x3f000000),
    fp("MOVR R0, -|-H3|", 0x01001e00, 0x3c9fc90c, 0x0001c800, 0x0001c800),
    # FP sources as substituting a declared name gives them
    fp("MOVR R0, --0.5", 0x01001e00, 0x1c9dc802, 0x0001c800, 0x0001c800, 0x3f000000, 0x3f000000, 0x3f000000,
       0x3f000000, old="MOVR R0, -n", declarations="ALIAS n = -0.5;"),
    fp("MOVR R0, -0.5.x", 0x01001e00, 0x1c9e0002, 0x0001c800, 0x0001c800, 0x3f000000, 0x3f000000, 0x3f000000,
       0x3f000000, old="MOVR R0, n.x", declarations="ALIAS n = -0.5;"),
    fp("MOVR R0, |-0.5|", 0x01001e00, 0x3c9dc802, 0x0001c800, 0x0001c800, 0x3f000000, 0x3f000000, 0x3f000000,
       0x3f000000, old="MOVR R0, |n|", declarations="ALIAS n = -0.5;"),
    fp("MOVR R0, -{1,2,3,4}.yx.y", 0x01001e00, 0x1c9e0002, 0x0001c800, 0x0001c800, 0x3f800000, 0x40000000, 0x40400000,
       0x40800000, old="MOVR R0, n.y", declarations="ALIAS n = -{1,2,3,4}.yx;"),
    fp("MOVR R0, |f[TEX0].zw|.x", 0x01009e00, 0x3c9d5401, 0x0001c800, 0x3fe1c800, old="MOVR R0, |n|.x",
       declarations="ALIAS n = f[TEX0].zw;"),
    # FP c[N] through the context's literal names
    fp("MULR R0, c[3], R1", 0x02001e00, 0x1c9dc802, 0x0001c804, 0x0001c800, 0x40800000, 0x3f800000, 0x40000000,
       0x40400000, declarations="#const c[3] = 4 1 2 3", literals=(("c[3]", C3),)),
    fp("MULR R0, c[3].x, -|c[3]|", 0x02001e00, 0x1c9c0002, 0x0007c802, 0x0001c800, 0x40800000, 0x3f800000, 0x40000000,
       0x40400000, declarations="#const c[3] = 4 1 2 3", literals=(("c[3]", C3),)),
    # FP destinations
    fp("MOVR result.color, R1", 0x01001e00, 0x1c9dc804, 0x0001c800, 0x0001c800),
    fp("MOVR result.color.xy, R1", 0x01000600, 0x1c9dc804, 0x0001c800, 0x0001c800),
    fp("MOVR result.color[1], R1", 0x01001e04, 0x1c9dc804, 0x0001c800, 0x0001c800),
    fp("MOVR result.color[3](GT.x), R1", 0x01001e08, 0x0011c804, 0x0001c800, 0x0001c800),
    fp("MOVR result.depth, R1", 0x01000802, 0x1c9dc804, 0x0001c800, 0x0001c800),
    fp("MOVR result.depth.x, R1", 0x01000202, 0x1c9dc804, 0x0001c800, 0x0001c800),
    fp("MOVR o[COLR], R1", 0x01001e00, 0x1c9dc804, 0x0001c800, 0x0001c800),
    fp("MOVH o[COLH], R1", 0x01401e80, 0x1c9dc804, 0x0001c800, 0x0001c800),
    fp("MOVR o[DEPR], R1", 0x01000802, 0x1c9dc804, 0x0001c800, 0x0001c800),
    fp("MOVR o[DEPR].w, R1", 0x01001002, 0x1c9dc804, 0x0001c800, 0x0001c800),
    fp("MOVR RC, R1", 0x41001e7e, 0x1c9dc804, 0x0001c800, 0x0001c800),
    fp("MOVR HC.x, R1", 0x410002fe, 0x1c9dc804, 0x0001c800, 0x0001c800),
    fp("MOVR H3, R1", 0x01001e86, 0x1c9dc804, 0x0001c800, 0x0001c800),
    fp("MOVR R0 (GT.x), R1", 0x01001e00, 0x0011c804, 0x0001c800, 0x0001c800),
    fp("MOVR R0.xy(NE1.xy), R1", 0x01000600, 0x8a95c804, 0x0001c800, 0x0001c800),
    # FP suffixes, case
    fp("MOVRC0 R0, R1", 0x01001f00, 0x1c9dc804, 0x0001c800, 0x0001c800),
    fp("MOVC0 R0, R1", 0x01001f00, 0x1c9dc804, 0x0001c800, 0x0001c800),
    fp("MOVC1 R0, R1", 0x01001f00, 0x5c9dc804, 0x0001c800, 0x0001c800),
    fp("MOVH_SAT_X2 R0, R1", 0x81401e00, 0x1c9dc804, 0x1001c800, 0x0001c800),
    fp("movxc1_sat_d8 R0, R1", 0x81801f00, 0x5c9dc804, 0x7001c800, 0x0001c800),
    fp("MOV R0, R1", 0x01001e00, 0x1c9dc804, 0x0001c800, 0x0001c800),
    # FP conditions
    fp("KIL (GT.x)", 0x52001e7e, 0x0011c800, 0x0001c800, 0x0001c800),
    fp("KIL NE1.xy", 0x52001e7e, 0x8a95c800, 0x0001c800, 0x0001c800),
    fp("KIL ( GT.x )", 0x52001e7e, 0x0011c800, 0x0001c800, 0x0001c800),
    fp("RET (NE.y)", 0x45000000, 0x0ab40000, 0x80000000, 0x00000000),
    fp("IF (GT.x)", 0x42400000, 0x00100000, 0x80000008, 0x00000008, program="{};\nNOP;\nENDIF;",
       carried=(("else_offset", 8), ("end_offset", 8))),
    fp("BRK (GT.x)", 0x40000000, 0x00100000, 0x80000000, 0x00000000, program="REP 3;\n{};\nNOP;\nENDREP;", slot=1),
    # FP texture operands
    fp("TEX R0, f[TEX0], texture[1]", 0x17029e00, 0x1c9dc801, 0x0001c800, 0x3fe1c800),
    fp("TEXH_SAT R0(GT.x), f[TEX0].xy, texture[1]", 0x97429e00, 0x0010a801, 0x0001c800, 0x3fe1c800),
    fp("TXP R0, f[TEX0], texture[2], CUBE", 0x18049e00, 0x1c9dc801, 0x0001c800, 0xbfe1c800),
    fp("TEX R0, f[TEX0], texture[3], 3D", 0x17069e00, 0x1c9dc801, 0x0001c800, 0x3fe1c800),
    fp("TXD R0, f[TEX0], R1, R2, texture[1]", 0x19029e00, 0x1c9dc801, 0x0001c804, 0x3fe1c808),
    fp("TXL R0, f[TEX0], texture[0]", 0x2f009e00, 0x1c9dc801, 0x0001fe01, 0x3fe1c800),
    fp("TXL R0, f[TEX0], R1, texture[0]", 0x2f009e00, 0x1c9dc801, 0x0001c804, 0x3fe1c800),
    fp("TXLR R0, f[TEX0], R1, texture[0], CUBE", 0x2f009e00, 0x1c9dc801, 0x0001c804, 0xbfe1c800),
    fp("SFLR R0", 0x21001e00, 0x1c9dc800, 0x0001c800, 0x0001c800),
    fp("SFLR R0, R1, R2", 0x21001e00, 0x1c9dc804, 0x0001c808, 0x0001c800),
    fp("STRH R0", 0x20401e00, 0x1c9dc800, 0x0001c800, 0x0001c800),
    # FP loops and calls
    fp("REP 3", 0x44400000, 0x1c9c0000, 0x80180c0c, 0x00000008, program="{};\nNOP;\nENDREP;", carried=(("end_offset",
       8),)),
    fp("REP {3}", 0x44400000, 0x1c9c0000, 0x80180c0c, 0x00000008, program="{};\nNOP;\nENDREP;", carried=(("end_offset",
       8),)),
    fp("LOOP {3, 0, 1}.zyx", 0x43400000, 0x1c9c0000, 0x80180004, 0x00000008, program="{};\nNOP;\nENDLOOP;",
       carried=(("end_offset", 8),)),
    fp("REP c[3]", 0x44400000, 0x1c9c0000, 0x80201010, 0x00000008, program="{};\nNOP;\nENDREP;",
       carried=(("end_offset", 8),), declarations="#const c[3] = 4 1 2 3", literals=(("c[3]", C3),)),
    fp("LOOP c[3]", 0x43400000, 0x1c9c0000, 0x80100410, 0x00000008, program="{};\nNOP;\nENDLOOP;",
       carried=(("end_offset", 8),), declarations="#const c[3] = 4 1 2 3", literals=(("c[3]", C3),)),
    fp("LOOP c[3].yzx", 0x43400000, 0x1c9c0000, 0x80200804, 0x00000008, program="{};\nNOP;\nENDLOOP;",
       carried=(("end_offset", 8),), declarations="#const c[3] = 4 1 2 3", literals=(("c[3]", C3),)),
    fp("LOOP c[3](GT.x)", 0x43400000, 0x00100000, 0x80100410, 0x00000008, program="{};\nNOP;\nENDLOOP;",
       carried=(("end_offset", 8),), declarations="#const c[3] = 4 1 2 3", literals=(("c[3]", C3),)),
    fp("CAL L1 (GT.x)", 0x41000000, 0x00100000, 0x80000008, 0x00000000, program="{};\nNOP;\nL1:\nNOP;", symbols=(("L1",
       8),)),
]


def _parsed_words(case: Spelling) -> tuple[int, ...]:
    description = case.description
    instruction = description.parse(case.text, case.context())
    carried = {name: value for name, value in case.carried if name in instruction.declaration.carries}
    if carried:
        instruction = description.instance(instruction.declaration, {**instruction.fields, **carried})
    return tuple(description.encode(instruction))


def _program_words(case: Spelling) -> tuple[int, ...]:
    """The assembler's words for the case's statement in its program (declarations, block
    keywords and the carried fields the driver sets around it), written as a user writes it
    (``old``: with the declared name the text substitutes)."""
    header = "!!VP2.0" if case.kind == "vp" else "!!ARBfp1.0"
    source = f"{header}\n{case.declarations}\n{case.program.format(case.old or case.text)}\nEND\n"
    instruction = assemble(source, f"spelling.{case.kind}").program.instructions[case.slot]
    return tuple(instruction.words) + tuple(instruction.literal or ())


@pytest.mark.parametrize("case", SPELLINGS, ids=[f"{case.kind}: {case.text}" for case in SPELLINGS])
def test_a_spelling_of_the_old_grammar_reads_to_its_words(case):
    assert _parsed_words(case) == case.words
    assert _program_words(case) == case.words


def test_the_cases_are_all_different():
    assert len({(case.kind, case.text) for case in SPELLINGS}) == len(SPELLINGS) > 150


# --- statements both refuse ------------------------------------------------------------------------------------

CONSTANT = {"declarations": "#const c[3] = 4 1 2 3", "literals": (("c[3]", C3),)}

REFUSED = [  # (statement, what the description's message says, or None)
    # One input, one constant, one address register lane, one CC register per instruction.
    (vp("ADD R0, v[0], v[1]"), "one input attribute"),
    (vp("ADD R0, c[0], c[1]"), "one constant"),
    (vp("ADD R0, v[A0.x+1], c[A1.x+2]"), "one address register"),
    (vp("ADD R0, v[A0.x+1], v[1]"), None),
    (vp("MOVC1 R0(GT.x), R1"), "one CC register"),
    (vp("MOVC R0(GT1.x), R1"), "one CC register"),
    (vp("MOV R0, v[0] + RCP R1.x, v[1]"), "input"),
    (vp("RCP R1.x, v[2] + MOV R0, v[1]"), "input"),
    (vp("RCPC R1.x, R2 + MOVC1 R0, R1"), "one CC register"),
    (vp("RCP R1.x(GT.y), R2 + MOV R0(GT.x), R1"), "different conditions"),
    (vp("MAD R0, R1, R2, R3 + RCP R1.x, R4"), None),
    (vp("RCP R0.x, R1 + RCP R1.x, R2"), None),
    (vp("MOV result.clip[0].x, R0"), "fixed lane"),
    (vp("MOV R0, 0.5"), None),
    (fp("ADDR R0, {1}, {2}"), "one literal slot"),
    (fp("ADDR R0, f[TEX0], f[TEX1]"), "one input attribute"),
    (fp("MULR R0, c[3], {1}", **CONSTANT), "one literal slot"),
    (fp("REP -c[3]", program="{};\nNOP;\nENDREP;", **CONSTANT), None),
    (fp("MOVR R0, 1e39"), None),
    (fp("KILR"), None),
]


def _program_refuses(case: Spelling) -> None:
    """The assembler refuses the case's program too."""
    with pytest.raises(DiagnosticError):
        _program_words(case)


@pytest.mark.parametrize("case, message", REFUSED, ids=[f"{case.kind}: {case.text}" for case, _ in REFUSED])
def test_what_the_old_grammar_refuses_is_refused(case, message):
    with pytest.raises(SourceError) as raised:
        case.description.parse(case.text, case.context())
    if message is not None:
        assert message in raised.value.message
    _program_refuses(case)


@pytest.mark.parametrize("kind, text, message", [
    (FloatVector(), "{1e40}", "1e40 does not fit in a 32-bit float"),
    (FloatVector(), "1e400", "1e400 does not fit in a 32-bit float"),
    (FloatVector(), "{0x123456789}", "raw float bits need at most 8 hex digits"),
    (FloatVector(), "{1, 2x}", "'2x' is not a number"),
    (FloatVector(), "c[5]", "c[5] is not declared (#const or #var)"),
    (LoopCounts(), "{300, 0, 1}", "LOOP count, start and step must be 0..255"),
    (LoopCounts(count_only=True), "{-1}", "REP count, start and step must be 0..255"),
])
def test_a_constant_that_does_not_read_says_why_as_the_old_grammar_does(kind, text, message):
    with pytest.raises(SourceError) as raised:
        kind.parse(text, ParseContext())
    assert raised.value.message == message


# --- printing stays as it was ----------------------------------------------------------------------------------

PRINTED = [  # (kind, spelling, how the instruction it reads prints)
    ("vp", "MOV R0, v[OPOS]", "MOV R0, vertex.position"),
    ("vp", "MOV R0, vertex.attrib[12].w", "MOV R0, vertex.texcoord[4].w"),
    ("vp", "MOV R0, --R3.zw.x", "MOV R0, R3.z"),
    ("vp", "MOV R0, |-R3.zw|.x", "MOV R0, |R3.z|"),
    ("vp", "MOV R0, c[A1.w]", "MOV R0, c[A1.w+0]"),
    ("vp", "MOV o[HPOS], R0", "MOV result.position, R0"),
    ("vp", "MOV result.clip[1], R0", "MOV result.fogcoord.z, R0"),
    ("vp", "MOV RC.x, R0", "MOV CC.x, R0"),
    ("vp", "MOVC0 R0 (GT.x), R1", "MOVC R0(GT.x), R1"),
    ("vp", "RET GT.x", "RET (GT.x)"),
    ("vp", "RCPC R1.x(GT.x), R2.w + MUL R0, v[0], c[4]", "MULC R0(GT.x), vertex.position, c[4] + RCP R1.x, R2.w"),
    ("vp", "NOP + RCP R0.x, R1", "RCP R0.x, R1"),
    ("fp", "MOVR R0, f[1]", "MOVR R0, fragment.color"),
    ("fp", "MOVR R0, -0.5", "MOVR R0, -{0.5, 0.5, 0.5, 0.5}"),
    ("fp", "MOVR R0, |-{1, 2, 3, 4}|.zw.x", "MOVR R0, |{1, 2, 3, 4}.z|"),
    ("fp", "MOVR result.depth, R1", "MOVR R1.z, R1"),
    ("fp", "MOVR result.color[2], R1", "MOVR R3, R1"),
    ("fp", "MOVH o[COLH], R1", "MOVH H0, R1"),
    ("fp", "MOVRC0 R0, R1", "MOVRC R0, R1"),
    ("fp", "KIL (GT.x)", "KIL GT.x"),
    ("fp", "TEX R0, f[TEX0], texture[1]", "TEXR R0, fragment.texcoord[0], texture[1], 2D"),
]


@pytest.mark.parametrize("kind, text, printed", PRINTED, ids=[text for _, text, _ in PRINTED])
def test_a_spelling_prints_as_the_one_spelling_printed(kind, text, printed):
    """The spellings are read, never printed: the words an instruction read from another
    spelling has print as they always did."""
    description = VERTEX if kind == "vp" else FRAGMENT
    words = description.encode(description.parse(text))
    assert description.format(description.decode(words)) == printed
