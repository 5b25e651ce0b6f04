"""TPP opcode numbers and which opcodes each hardware revision decodes.

The single table both the ISA description and the emulators read. An opcode the
revision does not decode (14, 24–31, and 18–23 on rev A) executes as NOP.
"""

from __future__ import annotations

OPCODES: dict[str, int] = {
    "NOP": 0, "SET": 1, "MOV": 2, "ADD": 3, "SUB": 4, "SL": 5, "SR": 6, "AND": 7,
    "NAND": 8, "OR": 9, "NOR": 10, "XOR": 11, "OUT": 12, "SIN": 13, "RAMP": 15,
    "SAW": 16, "COMP": 17, "FH": 18, "HSD": 19, "TT": 20, "Credits": 21, "FlagP": 22,
    "ESE": 23,
}

ROM_OPCODES = frozenset(range(18, 24))
REVISIONS = ("A", "B")
DEFAULT_REVISION = "B"


def decoded_mnemonics(rev: str) -> dict[int, str]:
    """Opcode → mnemonic for every opcode that revision ``rev`` decodes."""
    return {op: name for name, op in OPCODES.items() if rev == "B" or op not in ROM_OPCODES}


def hardware_mnemonic(opcode: int, rev: str) -> str:
    """What the hardware executes for ``opcode``: undecoded opcodes behave as NOP."""
    return decoded_mnemonics(rev).get(opcode, "NOP")
