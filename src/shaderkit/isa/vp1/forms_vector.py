"""The vector unit's forms (opcodes 0x80–0xbf, spec/vp1.md §7), in envyas's table order.

The multiply family reads ``vmul s|u RND FI SHIFT HILO DEST SIGN1 V1 SIGN2 OPERAND2``; ``#`` is
the discarded destination. Fields that overlap (``b0``'s byte immediate over the signedness and
shift bits, the ``96``/``a6``/``a7`` third source over the modifiers) are printed by each operand
that reads them, so a text whose operands disagree about a shared bit is refused.
"""

from __future__ import annotations

from ...core.model import form
from .forms_scalar import bitop_forms

VC = "{vc if cdst & 4 == 0}"  # $vc destination, printed iff bit 2 is 0
MAD = "{rnd} {fi} {shift} {hilo}"


def forms():
    for opcode, su in ((0x80, "s"),):
        yield form(f"vmul {su} {MAD} # {{sign1}} {{vs1}} {{sign2}} {{vs2}}", op=opcode)
    for opcode, su in ((0x81, "s"), (0x91, "u")):
        yield form(f"vmul {su} {MAD} {{vd}} {{sign1}} {{vs1}} {{sign2}} {{vs2}}", op=opcode)
    for opcode, su in ((0x82, "s"), (0x92, "u")):
        yield form(f"vmac {su} {MAD} {{vd}} {{sign1}} {{vs1}} {{sign2}} {{vs2}}", op=opcode)
    for opcode, su in ((0x83, "s"), (0x93, "u")):
        yield form(f"vmac {su} {MAD} # {{sign1}} {{vs1}} {{sign2}} {{vs2}}", op=opcode)
    yield form(f"vmad2 s {{s2vmode}} {MAD} # {{sign1}} {{vs1d}} {{sign2}} {{vs2}}", op=0x84)
    for opcode, su in ((0x85, "s"), (0x95, "u")):
        yield form(f"vmad2 {su} {{s2vmode}} {MAD} {{vd}} {{sign1}} {{vs1d}} {{sign2}} {{vs2}}", op=opcode)
    yield form(f"vmac2 s {{s2vmode}} {MAD} # {{sign1}} {{vs1d}}", op=0x86)
    for opcode, su in ((0x87, "s"), (0x97, "u")):
        yield form(f"vmac2 {su} {{s2vmode}} {MAD} {{vd}} {{sign1}} {{vs1d}}", op=opcode)
    yield form(f"vmac2 u {{s2vmode}} {MAD} # {{sign1}} {{vs1}} {{vs3}}", op=0x96)
    yield form(f"vmac2 s {{s2vmode}} {MAD} # {{sign1}} {{vs1}} {{vs3}}", op=0xa6)
    yield form(f"vmac2 s {{s2vmode}} {MAD} {{vd}} {{sign1}} {{vs1}} {{vs3}}", op=0xa7)
    for base, su in ((0x80, "s"), (0x90, "u")):
        yield form(f"vmin {su} {{vd}} {VC} {{vs1}} {{vs2}}", op=base | 0x8)
        yield form(f"vmax {su} {{vd}} {VC} {{vs1}} {{vs2}}", op=base | 0x9)
        yield form(f"vabs {su} {{vd}} {VC} {{vs1}}", op=base | 0xa)
        if su == "s":
            yield form(f"vneg s {{vd}} {VC} {{vs1}}", op=0x8b)
        yield form(f"vadd {su} {{vd}} {VC} {{vs1}} {{vs2}}", op=base | 0xc)
        yield form(f"vsub {su} {{vd}} {VC} {{vs1}} {{vs2}}", op=base | 0xd)
        yield form(f"vshr {su} {{vd}} {VC} {{vs1}} {{vs2}}", op=base | 0xe)
    yield form(f"vcmpad {{cmpop}} {VC} {{vs1d}} {{m2v}}", op=0x8f)
    yield form("vlrp {rnd} {shift} {vd} {vs1d} {vs2}", op=0x90)
    yield from bitop_forms("v", "vbitop", "vd", VC, "vs1", "vs2", 0x94)
    yield form("vswz {vd} {vs1} {vs2} {swz} {vs3}", op=0x9b)
    yield form(f"vadd9 {{vd}} {VC} {{vs1}} {{vs2}} {{vs3}}", op=0x9f)
    yield form(f"vmul s {MAD} # {{sign1}} {{vs1}} {{sign2}} {{bimmmul}}", op=0xa0)
    yield form(f"vmul s {MAD} {{vd}} {{sign1}} {{vs1}} {{sign2}} {{bimmmul}}", op=0xa1)
    yield form(f"vmac s {MAD} {{vd}} {{sign1}} {{vs1}} {{sign2}} {{bimmmul}}", op=0xa2)
    yield form(f"vmac s {MAD} # {{sign1}} {{vs1}} {{sign2}} {{bimmmul}}", op=0xa3)
    yield form(f"vclip {{vd}} {VC} {{vs1}} {{vs2}} {{vs3}}", op=0xa4)
    yield form(f"vminabs {{vd}} {VC} {{vs1}} {{vs2}}", op=0xa5)
    for base, su in ((0xa0, "s"), (0xb0, "u")):
        yield form(f"vmin {su} {{vd}} {VC} {{vs1}} {{bimm}}", op=base | 0x8)
        yield form(f"vmax {su} {{vd}} {VC} {{vs1}} {{bimm}}", op=base | 0x9)
        if su == "s":
            yield form(f"vand {{vd}} {VC} {{vs1}} {{bimm}}", op=0xaa)
            yield form(f"vxor {{vd}} {VC} {{vs1}} {{bimm}}", op=0xab)
        yield form(f"vadd {su} {{vd}} {VC} {{vs1}} {{bimm}}", op=base | 0xc)
        if su == "s":
            yield form(f"vmov {{vd}} {VC} {{bimm}}", op=0xad)
        else:
            yield form(f"vsub u {{vd}} {VC} {{vs1}} {{bimm}}", op=0xbd)
        yield form(f"vshr {su} {{vd}} {VC} {{vs1}} {{bimm}}", op=base | 0xe)
        if su == "s":
            yield form(f"vor {{vd}} {VC} {{vs1}} {{bimm}}", op=0xaf)
    yield form(f"vmul u {MAD} # {{sign1}} {{vs1}} {{sign2}} {{bimmbad}}", op=0xb0)
    yield form(f"vmul u {MAD} {{vd}} {{sign1}} {{vs1}} {{sign2}} {{bimmmul}}", op=0xb1)
    yield form(f"vmac u {MAD} {{vd}} {{sign1}} {{vs1}} {{sign2}} {{bimmmul}}", op=0xb2)
    yield form("vlrp2 {signd} {vawrite?} {rnd} {shift} {vd} {signs} {lrp2x?} {vs1q} {pc} {vcsrc} {vcsel}", op=0xb3)
    yield form("vlrp4a {rnd} {shift} # {vs1q} {pc} {vcsrc} {vcsel}", op=0xb4)
    yield form("vlrpf {rnd} {shift} # {vs1q} {pc} {vs2} {vcsrc} {vcsel}", op=0xb5)
    yield form("vlrp4b u {altrnd} {altshift} {vd} {vs1q} {pc} {pc} {flag} {vcsrc} {vcsel}", op=0xb6)
    yield form("vlrp4b s {altrnd} {altshift} {vd} {vs1q} {pc} {pc} {flag} {vcsrc} {vcsel}", op=0xb7)
    yield form(f"mov {{vd}} {VC} {{vs1}}", op=0xba)
    yield form("mov {vd} $vc", op=0xbb)
    yield form("vnop", op=0xbf, ignore=0xffffff)
