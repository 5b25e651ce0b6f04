"""What every TPP instruction does: one function per mnemonic, registered in ``SEMANTICS``.

Each function takes the value of the register in bits 10–8 (``a``), the value of the
register in bits 7–5 (``b``), the immediate in bits 7–2 (``imm``) and the live RX/RY,
and returns the new value of its target. The functions use only NumPy arithmetic and
table look-ups, so they work on whole lane arrays (the simple model) as well as on
grids of every possible input, from which :func:`result_tables` builds the tables the
compiled exact model looks up.

``SEMANTICS`` (a :class:`~shaderkit.core.semantics.Semantics`) registers every mnemonic:
the function that computes it, or, for NOP and OUT, which the machines carry out
themselves, what they do. The reference manual reads each meaning from it.

``TARGET`` says where a mnemonic's result goes: the register in bits 10–8, the
condition flag, the output register ODR, or nowhere; ``READS`` which register fields it
reads.
"""

from __future__ import annotations

from enum import IntEnum
from functools import cache

import numpy as np

from ...core.semantics import HandledByMachine, Semantics
from .roms import rom_colour_table

VALUE_MASK = 63  # registers are 6 bits wide; arithmetic wraps modulo 64

SINE_QUARTER = np.array([0, 6, 12, 18, 24, 30, 35, 40, 45, 49, 53, 56, 59, 61, 62, 63], dtype=np.uint8)
RAMP_QUARTER = (4 * np.arange(16)).astype(np.uint8)


def mirrored_period(quarter: np.ndarray) -> np.ndarray:
    """The 32-entry wave: the 16-entry table, then the same table backwards (bit 4 mirrors)."""
    return np.concatenate([quarter, quarter[::-1]])


SINE_PERIOD = mirrored_period(SINE_QUARTER)
RAMP_PERIOD = mirrored_period(RAMP_QUARTER)


class Flag(IntEnum):
    """The 2-bit condition flag; the values are the COND field codes."""

    EQ = 0
    GT = 1
    LT = 2
    ALWAYS = 3  # reset value: no conditional instruction executes before the first COMP


class Target(IntEnum):
    NOTHING = 0
    REGISTER = 1  # the register named by bits 10–8
    FLAG = 2
    OUTPUT = 3


def i_SET(a, b, imm, rx, ry):
    """rd ← the immediate (0–63)."""
    return imm


def i_MOV(a, b, imm, rx, ry):
    """rd ← rs."""
    return b


def i_ADD(a, b, imm, rx, ry):
    """rd ← (rd + rs) mod 64. No carry is kept anywhere."""
    return (a + b) & VALUE_MASK


def i_SUB(a, b, imm, rx, ry):
    """rd ← (rd − rs) mod 64, so 0 − 1 gives 63."""
    return (a - b) & VALUE_MASK


def i_SL(a, b, imm, rx, ry):
    """rd ← (rd << imm) mod 64: a left shift that drops the bits above bit 5; a shift by 6 or more gives 0."""
    # Shifting by 6 or more clears all six bits; keep the shift in range for NumPy.
    return np.where(imm >= 6, 0, (a << np.minimum(imm, 6)) & VALUE_MASK)


def i_SR(a, b, imm, rx, ry):
    """rd ← rd >> imm, filling with zeros; a shift by 6 or more gives 0."""
    return np.where(imm >= 6, 0, a >> np.minimum(imm, 6))


def i_AND(a, b, imm, rx, ry):
    """rd ← rd AND rs, bit by bit."""
    return a & b


def i_NAND(a, b, imm, rx, ry):
    """rd ← NOT (rd AND rs) on six bits."""
    return ~(a & b) & VALUE_MASK


def i_OR(a, b, imm, rx, ry):
    """rd ← rd OR rs, bit by bit."""
    return a | b


def i_NOR(a, b, imm, rx, ry):
    """rd ← NOT (rd OR rs) on six bits; `NOR R0 R0` inverts R0."""
    return ~(a | b) & VALUE_MASK


def i_XOR(a, b, imm, rx, ry):
    """rd ← rd XOR rs, bit by bit."""
    return a ^ b


def i_SIN(a, b, imm, rx, ry):
    """rd ← a half sine wave looked up with the low five bits of rs.

    Values 0–15 climb 0, 6, 12, 18, 24, 30, 35, 40, 45, 49, 53, 56, 59, 61, 62, 63; values 16–31 come back down in mirror order; bit 5 of rs is ignored, so the wave repeats every 32."""
    return SINE_PERIOD[b & 31]  # bit 5 is ignored: period 32


def i_RAMP(a, b, imm, rx, ry):
    """rd ← a triangle wave of rs: 4·(rs mod 16) going up for rs mod 32 below 16, the same steps coming down for 16–31 (bit 5 of rs is ignored, period 32)."""
    return RAMP_PERIOD[b & 31]


def i_SAW(a, b, imm, rx, ry):
    """rd ← a sawtooth of rs: 4·(rs mod 16), i.e. 0, 4, …, 60 and back to 0 (period 16)."""
    return RAMP_QUARTER[b & 15]


def i_COMP(a, b, imm, rx, ry):
    """Compare ra with rs as unsigned numbers and set the flag: EQ when equal, LT when ra is smaller, GT when ra is larger. Writes no register."""
    # Unsigned compare of the first operand (bits 10–8) with the second (bits 7–5).
    return np.where(a == b, Flag.EQ, np.where(a < b, Flag.LT, Flag.GT))


def rom_op(mnemonic: str):
    def i_ROM(a, b, imm, rx, ry):
        """rd ← the colour of this instruction's ROM picture at dekapixel (RX, RY).

        Rev B only: rev A executes the opcode as NOP. The picture is read at the live RX
        and RY, so slot 18 already sees the next column.

        Ink is black, background white (63), with two exceptions: FH draws its ink red (48)
        in rows RY < 27, and FlagP paints its background grey (42) for 9 < RY < 30 and
        16 < RX < 53. The pictures: FH the "fh" logo with "OBERÖSTERREICH / HAGENBERG", HSD
        an "hsd" logo in an ellipse, TT the Tiny Tapeout logo, Credits the team's names,
        FlagP a flag on a pole, ESE a chip outline reading "HSD ESD".
        """
        return rom_colour_table(mnemonic)[ry & VALUE_MASK, rx & VALUE_MASK]

    i_ROM.__name__ = f"i_{mnemonic}"
    return i_ROM


ROM_MNEMONICS = ("FH", "HSD", "TT", "Credits", "FlagP", "ESE")

i_FH, i_HSD, i_TT, i_Credits, i_FlagP, i_ESE = (rom_op(name) for name in ROM_MNEMONICS)

SEMANTICS = Semantics("TPP", {
    "NOP": HandledByMachine(
        "Does nothing. The upstream flasher pads unused slots with the word 0x0000, a NOP "
        "with condition EQ, which is just as harmless."),
    # OUT's source register depends on the revision, so the machines route it themselves.
    "OUT": HandledByMachine(
        "ODR ← rs: the colour the pins show from now until the next OUT (6 bits, RRGGBB).\n\n"
        "Every program ends with the fixed `OUT R0` in slot 19; an OUT elsewhere changes the colour "
        "in the middle of a 10-pixel span (and needs the exact model). Rev B outputs the register in "
        "bits 7–5; rev A reads bits 10–8 instead. The assembler writes the register into bits 7–5 as "
        "the upstream flasher does; `.word` with the register number in both fields works on both "
        "revisions."),
    "COMP": i_COMP,
    "SET": i_SET,
    "MOV": i_MOV,
    "ADD": i_ADD,
    "SUB": i_SUB,
    "SL": i_SL,
    "SR": i_SR,
    "AND": i_AND,
    "NAND": i_NAND,
    "OR": i_OR,
    "NOR": i_NOR,
    "XOR": i_XOR,
    "SIN": i_SIN,
    "RAMP": i_RAMP,
    "SAW": i_SAW,
    "FH": i_FH,
    "HSD": i_HSD,
    "TT": i_TT,
    "Credits": i_Credits,
    "FlagP": i_FlagP,
    "ESE": i_ESE,
})

TARGET: dict[str, Target] = {
    "NOP": Target.NOTHING,
    "OUT": Target.OUTPUT,
    "COMP": Target.FLAG,
    **{name: Target.REGISTER for name in (
        "SET", "MOV", "ADD", "SUB", "SL", "SR", "AND", "NAND", "OR", "NOR", "XOR",
        "SIN", "RAMP", "SAW", *ROM_MNEMONICS)},
}

# Mnemonic → function for every mnemonic that computes a value (all but NOP and OUT), as the
# benchmark's naive interpreter (bench.py) looks them up per pixel.
FUNCTIONS = SEMANTICS.functions()


@cache
def result_tables() -> dict[str, np.ndarray]:
    """Every function evaluated over all inputs it depends on: mnemonic → uint8 table.

    ALU ops are indexed ``[a, b]`` (or ``[a, imm]`` for SET/SL/SR, whose second input
    is the immediate); ROM ops ``[RY, RX]``; COMP gives the flag.
    """
    first, second = np.meshgrid(np.arange(64), np.arange(64), indexing="ij")
    tables = {}
    for name, function in SEMANTICS.functions().items():
        if name in ROM_MNEMONICS:
            table = function(0, 0, 0, rx=second, ry=first)
        elif name in ("SET", "SL", "SR"):
            table = function(first, 0, second, 0, 0)
        else:
            table = function(first, second, 0, 0, 0)
        tables[name] = np.broadcast_to(np.asarray(table, dtype=np.uint8), (64, 64)).copy()
    return tables


def lfsr_step(value):
    """One step of the 6-bit RR generator: shift right, bit 0 into bit 5 and XORed into bit 4."""
    bit0 = value & 1
    bit5 = (value >> 5) & 1
    return (bit0 << 5) | ((bit5 ^ bit0) << 4) | ((value >> 1) & 0b1111)

# Which of the two register fields each mnemonic reads ("a" = bits 10–8, "b" = bits 7–5).
# OUT is listed per revision in hardware.py, since its source field moved.
READS: dict[str, tuple[str, ...]] = {
    "NOP": (), "SET": (), "MOV": ("b",), "SL": ("a",), "SR": ("a",),
    "SIN": ("b",), "RAMP": ("b",), "SAW": ("b",),
    **{name: ("a", "b") for name in ("ADD", "SUB", "AND", "NAND", "OR", "NOR", "XOR", "COMP")},
    **{name: () for name in ROM_MNEMONICS},
}
