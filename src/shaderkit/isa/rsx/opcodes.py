"""The RSX opcode tables (spec/rsx.md sections 2.7, 2.8 and 3.7): one declaration per opcode.

Each declaration says how the opcode reads in assembly: which source slots it uses, whether it
is scalar (reads ``.x``, replicates the result), a texture fetch or flow control. Semantics live
in :mod:`shaderkit.isa.rsx.semantics`; the tables here are all the encoder, the printer and the
parser need.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Opcode:
    """One opcode. ``sources`` are the operand slots in assembly order (VP ADD reads 0 and 2)."""

    value: int
    name: str
    sources: tuple[int, ...] = ()
    scalar: bool = False
    texture: bool = False
    flow: bool = False
    # NV assembly spelling accepted as well (PK2H for PK2, IF for IFE ...).
    aliases: tuple[str, ...] = ()
    # RPCS3 says RSX hardware does not implement it; it decodes and prints, the emulator refuses.
    unimplemented: bool = False
    # Only the xyz lanes of the sources matter (NRM); used by the decompiler and the emulator.
    note: str = ""


def _table(*opcodes: Opcode) -> dict[int, Opcode]:
    table = {}
    for opcode in opcodes:
        assert opcode.value not in table, opcode
        table[opcode.value] = opcode
    return table


def op(value: int, name: str, sources: str = "", **traits) -> Opcode:
    """``op(0x03, "ADD", "0 2")``: source slots written as digits in assembly order."""
    return Opcode(value, name, tuple(int(slot) for slot in sources.split()), **traits)


# --- vertex programs ---------------------------------------------------------------------------

VP_VECTOR = _table(
    op(0x00, "NOP"),
    op(0x01, "MOV", "0"),
    op(0x02, "MUL", "0 1"),
    op(0x03, "ADD", "0 2"),
    op(0x04, "MAD", "0 1 2"),
    op(0x05, "DP3", "0 1"),
    op(0x06, "DPH", "0 1"),
    op(0x07, "DP4", "0 1"),
    op(0x08, "DST", "0 1"),
    op(0x09, "MIN", "0 1"),
    op(0x0A, "MAX", "0 1"),
    op(0x0B, "SLT", "0 1"),
    op(0x0C, "SGE", "0 1"),
    op(0x0D, "ARL", "0"),
    op(0x0E, "FRC", "0"),
    op(0x0F, "FLR", "0"),
    op(0x10, "SEQ", "0 1"),
    op(0x11, "SFL"),
    op(0x12, "SGT", "0 1"),
    op(0x13, "SLE", "0 1"),
    op(0x14, "SNE", "0 1"),
    op(0x15, "STR"),
    op(0x16, "SSG", "0"),
    op(0x19, "TXL", "0", texture=True),
)

# Scalar ops read source slot 2 (its .x after the swizzle; LIT reads all four lanes).
VP_SCALAR = _table(
    op(0x00, "NOP"),
    op(0x01, "MOV", "2", scalar=True),
    op(0x02, "RCP", "2", scalar=True),
    op(0x03, "RCC", "2", scalar=True),
    op(0x04, "RSQ", "2", scalar=True),
    op(0x05, "EXP", "2", scalar=True),
    op(0x06, "LOG", "2", scalar=True),
    op(0x07, "LIT", "2", scalar=True),
    op(0x08, "BRA", flow=True, note="via address register"),
    op(0x09, "BRI", flow=True, note="to an immediate target; written BRA label"),
    op(0x0A, "CAL", flow=True, note="via address register"),
    op(0x0B, "CLI", flow=True, note="to an immediate target; written CAL label"),
    op(0x0C, "RET", flow=True),
    op(0x0D, "LG2", "2", scalar=True),
    op(0x0E, "EX2", "2", scalar=True),
    op(0x0F, "SIN", "2", scalar=True),
    op(0x10, "COS", "2", scalar=True),
    op(0x11, "BRB", flow=True, note="branch on a TRANSFORM_BRANCH_BITS bit"),
    op(0x12, "CLB", flow=True, note="call on a TRANSFORM_BRANCH_BITS bit"),
    op(0x13, "PSH", "2", aliases=("PUSHA",)),
    op(0x14, "POP", aliases=("POPA",)),
)

# --- fragment programs -------------------------------------------------------------------------

FP = _table(
    op(0x00, "NOP"),
    op(0x01, "MOV", "0"),
    op(0x02, "MUL", "0 1"),
    op(0x03, "ADD", "0 1"),
    op(0x04, "MAD", "0 1 2"),
    op(0x05, "DP3", "0 1"),
    op(0x06, "DP4", "0 1"),
    op(0x07, "DST", "0 1"),
    op(0x08, "MIN", "0 1"),
    op(0x09, "MAX", "0 1"),
    op(0x0A, "SLT", "0 1"),
    op(0x0B, "SGE", "0 1"),
    op(0x0C, "SLE", "0 1"),
    op(0x0D, "SGT", "0 1"),
    op(0x0E, "SNE", "0 1"),
    op(0x0F, "SEQ", "0 1"),
    op(0x10, "FRC", "0"),
    op(0x11, "FLR", "0"),
    op(0x12, "KIL"),
    op(0x13, "PK4", "0", aliases=("PK4B",)),
    op(0x14, "UP4", "0", aliases=("UP4B",)),
    op(0x15, "DDX", "0"),
    op(0x16, "DDY", "0"),
    op(0x17, "TEX", "0", texture=True),
    op(0x18, "TXP", "0", texture=True),
    op(0x19, "TXD", "0 1 2", texture=True),
    op(0x1A, "RCP", "0", scalar=True),
    op(0x1B, "RSQ", "0", scalar=True),
    op(0x1C, "EX2", "0", scalar=True),
    op(0x1D, "LG2", "0", scalar=True),
    op(0x1E, "LIT", "0", unimplemented=True),
    op(0x1F, "LRP", "0 1 2"),
    op(0x20, "STR"),
    op(0x21, "SFL"),
    op(0x22, "COS", "0", scalar=True),
    op(0x23, "SIN", "0", scalar=True),
    op(0x24, "PK2", "0", aliases=("PK2H",)),
    op(0x25, "UP2", "0", aliases=("UP2H",)),
    op(0x26, "POW", "0 1", scalar=True, unimplemented=True),
    op(0x27, "PKB", "0", aliases=("PK4UB",)),
    op(0x28, "UPB", "0", aliases=("UP4UB",)),
    op(0x29, "PK16", "0", aliases=("PK2US",)),
    op(0x2A, "UP16", "0", aliases=("UP2US",)),
    op(0x2B, "BEM", "0 1 2", unimplemented=True),
    op(0x2C, "PKG", "0", aliases=("PK4UBG",)),
    op(0x2D, "UPG", "0", aliases=("UP4UBG",)),
    op(0x2E, "DP2A", "0 1 2"),
    op(0x2F, "TXL", "0 1", texture=True),
    op(0x31, "TXB", "0", texture=True),
    op(0x33, "TEXBEM", "0 1 2", texture=True, unimplemented=True),
    op(0x34, "TXPBEM", "0 1 2", texture=True, unimplemented=True),
    op(0x35, "BEMLUM", "0 1 2", unimplemented=True),
    op(0x36, "REFL", "0 1", aliases=("RFL",)),
    op(0x37, "TIMESWTEX", "0 1 2", unimplemented=True),
    op(0x38, "DP2", "0 1"),
    op(0x39, "NRM", "0", note="xyz"),
    op(0x3A, "DIV", "0 1"),
    op(0x3B, "DIVSQ", "0 1"),
    op(0x3C, "LIF", "0", aliases=("LITEX2",)),
    op(0x3D, "FENCT"),
    op(0x3E, "FENCB"),
    op(0x40, "BRK", flow=True),
    op(0x41, "CAL", flow=True),
    op(0x42, "IFE", flow=True, aliases=("IF",)),
    op(0x43, "LOOP", flow=True),
    op(0x44, "REP", flow=True),
    op(0x45, "RET", flow=True),
)


def by_name(table: dict[int, Opcode]) -> dict[str, Opcode]:
    """Mnemonic (and alias) -> opcode, upper case."""
    names: dict[str, Opcode] = {}
    for opcode in table.values():
        for name in (opcode.name, *opcode.aliases):
            names.setdefault(name, opcode)
    return names
