"""The address unit's forms (opcodes 0xc0–0xdf, spec/vp1.md §8.3), in envyas's table order.

Loads name their destination first and the address register second; stores name the stored
register first and the address register second. ``S2m`` is the mangled ``$a`` source (§4.3).
Opcode 0xdb has no form (``???``).
"""

from __future__ import annotations

from ...core.model import form
from .forms_scalar import C, bitop_forms


def forms():
    yield form(f"ldavh {{vd}} {C} {{as1}} {{m2a}}", op=0xc0)
    yield form(f"ldavv {{vd}} {C} {{as1}} {{m2a}}", op=0xc1)
    yield form(f"ldas {{rd}} {C} {{as1}} {{m2a}}", op=0xc2)
    # DMA: the immediate is there iff bit 13 is 0.
    yield form("xdld {ad} {as1d} {xdimm}", op=0xc3, bit13=0)
    yield form("xdld {ad} {as1d}", op=0xc3, bit13=1)
    yield form(f"stavh {{vs1}} {C} {{ad}} {{m2a}}", op=0xc4)
    yield form(f"stavv {{vs1}} {C} {{ad}} {{m2a}}", op=0xc5)
    yield form(f"stas {{rs1}} {C} {{ad}} {{m2a}}", op=0xc6)
    yield form("xdst {add} {as1} {xdimm}", op=0xc7, bit13=0)
    yield form("xdst {add} {as1}", op=0xc7, bit13=1)
    yield form(f"ldaxh {{vdq}} {C} {{as1}} {{m2a}}", op=0xc8)
    yield form(f"ldaxv {{vdq}} {C} {{as1}} {{m2a}}", op=0xc9)
    yield form(f"aadd {{ad}} {C} {{m2a}}", op=0xca, ignore=0x7c000)  # SRC1 is ignored
    yield form(f"add {{ad}} {C} {{as1}} {{m2a}}", op=0xcb)
    yield form("setlo {ad} {imm16}", op=0xcc)
    yield form("sethi {ad} {immh}", op=0xcd)
    for opcode, name in ((0xce, "xdbar"), (0xcf, "xdwait")):
        yield form(f"{name} {{stld19}} {{barw}} {{baru}}", op=opcode, bit16=0)
        yield form(f"{name} {{stld0}} {{ad}} {{baru}}", op=opcode, bit16=1)
    yield form(f"ldavh {{vd}} {C} {{as1}} {{imm}}", op=0xd0)
    yield form(f"ldavv {{vd}} {C} {{as1}} {{imm}}", op=0xd1)
    yield form(f"ldas {{rd}} {C} {{as1}} {{imm}}", op=0xd2)
    yield from bitop_forms("", "bitop", "ad", C, "as1", "as2", 0xd3)
    yield form(f"stavh {{vs1}} {C} {{ad}} {{imm}}", op=0xd4)
    yield form(f"stavv {{vs1}} {C} {{ad}} {{imm}}", op=0xd5)
    yield form(f"stas {{rs1}} {C} {{ad}} {{imm}}", op=0xd6)
    yield form("ldr {vd} {as1} {vs2}", op=0xd7, bit0=0)
    yield form("star {vs1} {ad} {m2a}", op=0xd7, bit0=1)
    yield form(f"ldvh {{vd}} {C} {{as1}} {{uimm}}", op=0xd8)
    yield form(f"ldvv {{vd}} {C} {{as1}} {{uimm}}", op=0xd9)
    yield form(f"lds {{rd}} {C} {{as1}} {{uimm}}", op=0xda)
    yield form(f"stvh {{vs1}} {C} {{ad}} {{uimm}}", op=0xdc)
    yield form(f"stvv {{vs1}} {C} {{ad}} {{uimm}}", op=0xdd)
    yield form(f"sts {{rs1}} {C} {{ad}} {{uimm}}", op=0xde)
    yield form("anop", op=0xdf, ignore=0xffffff)
