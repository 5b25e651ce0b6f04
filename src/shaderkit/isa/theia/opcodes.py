"""THEIA V1 opcodes (spec §2.1) and how each reads in assembly.

Opcode bit 6 selects the type II format (``OP DST IMM``); compare-jumps encode the
lane in bits 4..3 (01 X, 10 Y, 11 Z) and the test in bits 2..0.
"""

from __future__ import annotations

# Type I arithmetic: mnemonic → (opcode, the sources it reads).
ALU_OPCODES: dict[str, tuple[int, str]] = {
    "ADD": (1, "ab"), "SUB": (2, "ab"), "DIV": (3, "ab"), "MUL": (4, "ab"), "MAG": (5, "a"),
    "COPY": (7, "a"), "INC": (14, "a"), "ZERO": (15, ""), "CROSS": (22, "ab"), "DOT": (23, "ab"),
    "MULP": (31, "a"), "MOD": (32, "ab"), "FRAC": (33, "a"), "INTP": (34, "ab"), "NEG": (35, "a"),
    "DEC": (36, "a"), "XCHANGEX": (37, "ab"), "XCHANGEY": (38, "ab"), "XCHANGEZ": (39, "ab"),
    "IMUL": (40, "ab"), "UNSCALE": (41, "a"), "RESCALE": (42, "a"),
    "INCX": (43, "a"), "INCY": (44, "a"), "INCZ": (45, "a"),
}
NOP_OPCODE = 0
DEBUG_PRINT_OPCODE = 30

LANES = {"X": 1, "Y": 2, "Z": 3}
TESTS = {"G": 0, "L": 1, "EQ": 2, "NE": 3, "GE": 4, "LE": 5}
JUMP_OPCODES: dict[str, int] = {f"J{test}{lane}": (code << 3) | number
                                for lane, code in LANES.items() for test, number in TESTS.items()}

# Type II: mnemonic → opcode.
SET_OPCODES = {"SETX": 65, "SETY": 66, "SETZ": 67}
RETURN_OPCODE = 64
SWIZZLE_OPCODE = 68
JMP_OPCODE = 88

# Recognised but not part of V1: a V2 program decodes as data with this note.
V2_ONLY = {47: "OMWRITE", 48: "TMREAD", 49: "LEA", 89: "CALL", 90: "RET"}
