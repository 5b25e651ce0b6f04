"""The scalar unit's forms (opcodes 0x00–0x7f, spec/vp1.md §5), in envyas's table order.

The order matters where texts are shared: the parser takes the first form that reads a text, so
the lowest duplicate opcode comes first (``abs`` is 0x4a, never 0x5a/0x7a; ``babs s`` is 0x0a) and
a register form comes before its immediate form (``add $r1 $r2 0x0`` reads ``0x0`` as ``$r31``).
Opcodes with no form here (0x00, 0x03, 0x06, …) print as ``???``.
"""

from __future__ import annotations

from ...core.model import form

C = "{c if cdst & 4 == 0}"  # $c destination, printed iff bit 2 is 0
S_OR_U = {0: "s", 1: "u"}  # bit 28 of the byte ops

# Names of opcode 0x42's truth tables (§5.2): the operands of each spelling. The vector (0x94)
# and address (0xd3) bitops spell them alike.
BITOP_ALIASES = {
    0x1: ("nor", "{d} {c} {s1} {s2}"),
    0x2: ("and", "{d} {c} not {s1} {s2}"),
    0x4: ("and", "{d} {c} {s1} not {s2}"),
    0x6: ("xor", "{d} {c} {s1} {s2}"),
    0x7: ("nand", "{d} {c} {s1} {s2}"),
    0x8: ("and", "{d} {c} {s1} {s2}"),
    0x9: ("nxor", "{d} {c} {s1} {s2}"),
    0xb: ("or", "{d} {c} not {s1} {s2}"),
    0xd: ("or", "{d} {c} {s1} not {s2}"),
    0xe: ("or", "{d} {c} {s1} {s2}"),
}


def bitop_forms(prefix: str, generic: str, d: str, c: str, s1: str, s2: str, opcode: int):
    """The named truth tables of a bitop opcode, then the generic ``bitop 0xN`` spelling."""
    for value, (name, operands) in BITOP_ALIASES.items():
        text = operands.format(d=f"{{{d}}}", c=c, s1=f"{{{s1}}}", s2=f"{{{s2}}}")
        yield form(f"{prefix}{name} {text}", op=opcode, bitop=value)
    yield form(f"{generic} {{bitop}} {{{d}}} {c} {{{s1}}} {{{s2}}}", op=opcode)


def forms():
    for base in (0x00, 0x10):
        su = S_OR_U[base >> 4]
        yield form(f"bmul {{rnd}} {su} {{rd}} {{sign1}} {{rs1}} {{sign2}} {{rs2}}", op=base | 0x01)
        yield form(f"bmula {{rnd}} {su} {{rd}} {{sign1}} {{rs1}} {{sign2}} {{rs2}}", op=base | 0x02)
    yield form("bvecmad {rs1} {rs2q} {pc} {flag} {vci} {vcflag} {vcxfrm}", op=0x04)
    yield form("bvecmadsel {rs1} {rs2q} {pc} {flag} {vci} {vcflag} {vcxfrm}", op=0x05)
    for base in (0x00, 0x10):
        su = S_OR_U[base >> 4]
        for low, name in ((0x8, "bmin"), (0x9, "bmax")):
            yield form(f"{name} {su} {{rd}} {C} {{rs1}} {{m2r}}", op=base | low)
        for low, name in ((0xa, "babs"), (0xb, "bneg")):
            yield form(f"{name} {su} {{rd}} {C} {{rs1}}", op=base | low)
        for low, name in ((0xc, "badd"), (0xd, "bsub"), (0xe, "bshr")):
            yield form(f"{name} {su} {{rd}} {C} {{rs1}} {{m2r}}", op=base | low)
    yield form("bvec {rs1} {vci} {vcflag} {vcxfrm}", op=0x0f)
    for base in (0x20, 0x30):
        su = S_OR_U[(base >> 4) & 1]
        yield form(f"bmul {{rnd}} {su} {{rd}} {{sign1}} {{rs1}} {{sign2}} {{bimmmul}}", op=base | 0x01)
        yield form(f"bmula {{rnd}} {su} {{rd}} {{sign1}} {{rs1}} {{sign2}} {{bimmbad}}", op=base | 0x02)
    yield form("vec {factor1} {factor2} {vci} {vcflag} {vcxfrm}", op=0x24)
    yield form("band {rd} {rs1} {bimm}", op=0x25)
    yield form("bor {rd} {rs1} {bimm}", op=0x26)
    yield form("bxor {rd} {rs1} {bimm}", op=0x27)
    for base in (0x20, 0x30):
        su = S_OR_U[(base >> 4) & 1]
        for low, name in ((0x8, "bmin"), (0x9, "bmax")):
            yield form(f"{name} {su} {{rd}} {C} {{rs1}} {{bimm}}", op=base | low)
        # babs/bneg have no immediate: 2a/2b/3a/3b are the register forms again.
        for low, name in ((0xa, "babs"), (0xb, "bneg")):
            yield form(f"{name} {su} {{rd}} {C} {{rs1}}", op=base | low)
        for low, name in ((0xc, "badd"), (0xd, "bsub"), (0xe, "bshr")):
            yield form(f"{name} {su} {{rd}} {C} {{rs1}} {{bimm}}", op=base | low)
    # 32-bit operations: the register forms (0x4x, duplicates 0x5x), then the immediates.
    for opcode in (0x41, 0x51):
        yield form(f"mul {{rd}} {C} {{rs1}} {{m2r}}", op=opcode)
    yield from bitop_forms("", "bitop", "rd", C, "rs1", "rs2", 0x42)
    yield form("vecms {rs1} {vci} {vcflag} {vcxfrm}", op=0x45)
    for opcode in (0x48, 0x58):
        yield form(f"min {{rd}} {C} {{rs1}} {{m2r}}", op=opcode)
    for opcode in (0x49, 0x59):
        yield form(f"max {{rd}} {C} {{rs1}} {{m2r}}", op=opcode)
    for opcode in (0x4a, 0x5a, 0x7a):
        yield form(f"abs {{rd}} {C} {{rs1}}", op=opcode)
    for opcode in (0x4b, 0x5b, 0x7b):
        yield form(f"neg {{rd}} {C} {{rs1}}", op=opcode)
    for opcode in (0x4c, 0x5c):
        yield form(f"add {{rd}} {C} {{rs1}} {{m2r}}", op=opcode)
    for opcode in (0x4d, 0x5d):
        yield form(f"sub {{rd}} {C} {{rs1}} {{m2r}}", op=opcode)
    yield form(f"sar {{rd}} {C} {{rs1}} {{m2r}}", op=0x4e)
    yield form(f"shr {{rd}} {C} {{rs1}} {{m2r}}", op=0x5e)
    yield form("snop", op=0x4f, ignore=0xffffff)
    for opcode in (0x61, 0x71):
        yield form(f"mul {{rd}} {C} {{rs1}} {{imm}}", op=opcode)
    yield form(f"and {{rd}} {C} {{rs1}} {{imm}}", op=0x62)
    yield form(f"xor {{rd}} {C} {{rs1}} {{imm}}", op=0x63)
    yield form(f"or {{rd}} {C} {{rs1}} {{imm}}", op=0x64)
    yield form("mov {rd} {imm19}", op=0x65)
    for opcode in (0x68, 0x78):
        yield form(f"min {{rd}} {C} {{rs1}} {{imm}}", op=opcode)
    for opcode in (0x69, 0x79):
        yield form(f"max {{rd}} {C} {{rs1}} {{imm}}", op=opcode)
    yield from moves()
    for opcode in (0x6c, 0x7c):
        yield form(f"add {{rd}} {C} {{rs1}} {{imm}}", op=opcode)
    for opcode in (0x6d, 0x7d):
        yield form(f"sub {{rd}} {C} {{rs1}} {{imm}}", op=opcode)
    yield form(f"sar {{rd}} {C} {{rs1}} {{imm}}", op=0x6e)
    yield form(f"shr {{rd}} {C} {{rs1}} {{imm}}", op=0x7e)
    yield form("sethi {rd} {immh}", op=0x75)


def moves():
    """0x6a writes another register file from ``$r[SRC1]``, 0x6b reads one into ``$r[DST]``
    (§5.4); RFILE (bits 3–7) names the file, bits 0–2 are ignored."""
    unprinted = 0x7
    yield form("mov {vd} {comp} {rs1}", op=0x6a, rfile_top=0, ignore=unprinted)
    yield form("mov {rd} {vs1} {comp}", op=0x6b, rfile_top=0, ignore=unprinted)
    files = ((8, "srd", "srs1"), (9, "mid", "mis1"), (10, "ucd", "ucs1"), (11, "l32d", "l32s1"),
             (12, "ad", "as1"), (13, None, "cs1"), (22, "dd", "ds1"), (23, "fd", "fs1"), (24, "xd", "xs1"))
    for rfile, write, read in files:
        if write is not None:
            yield form(f"mov {{{write}}} {{rs1}}", op=0x6a, rfile=rfile, ignore=unprinted)
        yield form(f"mov {{rd}} {{{read}}}", op=0x6b, rfile=rfile, ignore=unprinted)
    yield form("mov {md} {rs1}", op=0x6a, rfile_hi=0xa, ignore=unprinted)
    yield form("mov {rd} {ms1}", op=0x6b, rfile_hi=0xa, ignore=unprinted)
