"""Text syntax shared by the RSX descriptions, assembler, disassembler and listing (spec/rsx.md
section 5).

This module owns the tables both directions agree on: the spelling of registers, inputs and
outputs, swizzles, write masks and condition tests, how float constants are written so that
they read back to the same bits, and the printed mnemonics; statements themselves are read by
the descriptions in core's model.

Float constants: finite values are written with the fewest significant digits (at most 9) that
read back to the same 32-bit pattern (``0.5``, ``-0``, ``1e+30``); infinities and NaNs are
written as their raw bits in hex (``0x7fc00000``), and any ``0x…`` number in a constant
position is read as raw float bits.
"""

from __future__ import annotations

import math
import re
import struct

from shaderkit.core.diagnostics import SourceError

from .limits import CONDITION_NAMES, FP_TEMPORARIES, VP_CONSTANTS, VP_INPUTS, VP_OUTPUTS, VP_TEMPORARIES

LANES = "xyzw"
IDENTITY = (0, 1, 2, 3)
FULL_MASK = (True, True, True, True)

VP_ADDRESS_REGISTERS = 2
FP_HALF_REGISTERS = 64  # the 6-bit index field; H(2n) and H(2n+1) live in R(n)
FP_INPUTS = 16
TEXTURE_UNITS = 16

# --- registers, inputs and outputs -------------------------------------------------------------

VP_INPUT_NAMES = {0: "vertex.position", 1: "vertex.weight", 2: "vertex.normal", 3: "vertex.color",
                  4: "vertex.color.secondary", 5: "vertex.fogcoord"}
VP_INPUT_SPELLINGS = {**{name: index for index, name in VP_INPUT_NAMES.items()},
                      "vertex.color.primary": 3}
# NV_vertex_program names inside v[...].
VP_INPUT_SHORT_NAMES = {"OPOS": 0, "WGHT": 1, "NRML": 2, "COL0": 3, "COL1": 4, "FOGC": 5,
                        **{f"TEX{n}": 8 + n for n in range(8)}}

VP_OUTPUT_NAMES = {0: "result.position", 1: "result.color", 2: "result.color.secondary",
                   3: "result.color.back", 4: "result.color.back.secondary", 5: "result.fogcoord",
                   6: "result.pointsize"}
VP_OUTPUT_SPELLINGS = {**{name: index for index, name in VP_OUTPUT_NAMES.items()},
                       "result.color.primary": 1, "result.color.front": 1,
                       "result.color.front.primary": 1, "result.color.front.secondary": 2,
                       "result.color.back.primary": 3}
VP_OUTPUT_SHORT_NAMES = {"HPOS": 0, "COL0": 1, "COL1": 2, "BFC0": 3, "BFC1": 4, "FOGC": 5,
                         "PSIZ": 6, **{f"TEX{n}": 7 + n for n in range(9)}}
# result.clip[n]: cgcomp routes user clip distances to lanes of the fog and point-size outputs.
VP_CLIP_OUTPUTS = {0: (5, 1), 1: (5, 2), 2: (5, 3), 3: (6, 1), 4: (6, 2), 5: (6, 3)}
VP_TEXCOORD_OUTPUTS = 9  # result.texcoord[0..8] = o[7..15]

FP_INPUT_NAMES = {0: "fragment.position", 1: "fragment.color", 2: "fragment.color.secondary",
                  3: "fragment.fogcoord", 14: "fragment.facing"}
FP_INPUT_SPELLINGS = {**{name: index for index, name in FP_INPUT_NAMES.items()},
                      "fragment.color.primary": 1}
FP_INPUT_SHORT_NAMES = {"WPOS": 0, "COL0": 1, "COL1": 2, "FOGC": 3, "FACE": 14, "SSA": 14,
                        **{f"TEX{n}": 4 + n for n in range(10)}}
FP_TEXCOORDS = 10
# Form B (RPCS3 style) input names, indexed by the OPDEST input field.
FP_LISTING_INPUT_NAMES = ("WPOS", "COL0", "COL1", "FOGC", *(f"TEX{n}" for n in range(10)), "SSA", "15")
# result.color[n] (multiple render targets) and result.depth, as R registers (spec section 3.1).
FP_COLOR_OUTPUTS = {0: 0, 1: 2, 2: 3, 3: 4}
FP_DEPTH_REGISTER = 1

TEXTURE_TARGETS = ("1D", "2D", "3D", "CUBE", "RECT", "SHADOW1D", "SHADOW2D", "SHADOWRECT")
# The targets that sample a rectangle texture at texel coordinates (Cg's samplerRECT); the
# microcode cannot tell them from 2D (spec 3.7), a container records them (image.py).
RECTANGLE_TARGET = "RECT"
RECTANGLE_TARGETS = (RECTANGLE_TARGET, "SHADOWRECT")


def vp_input_name(index: int) -> str:
    if index in VP_INPUT_NAMES:
        return VP_INPUT_NAMES[index]
    if 8 <= index < 16:
        return f"vertex.texcoord[{index - 8}]"
    return f"vertex.attrib[{index}]"


def vp_output_name(index: int) -> str:
    if index in VP_OUTPUT_NAMES:
        return VP_OUTPUT_NAMES[index]
    return f"result.texcoord[{index - 7}]"


def fp_input_name(index: int) -> str:
    if index in FP_INPUT_NAMES:
        return FP_INPUT_NAMES[index]
    if 4 <= index < 14:
        return f"fragment.texcoord[{index - 4}]"
    return f"f[{index}]"


def is_texcoord_input(index: int) -> bool:
    """FP inputs TEX0..TEX9 (the ones cgcomp gives the 0x7FC displacement, spec 3.5)."""
    return 4 <= index < 14


# --- swizzles, masks, conditions ---------------------------------------------------------------


def swizzle_suffix(lanes: tuple[int, ...]) -> str:
    """``""`` for the identity, ``.x`` when all four lanes agree, else all four letters (both
    forms: the seed listing writes ``{…}.x`` and ``R0.z``, spec 5.2)."""
    lanes = tuple(lanes)
    if lanes == IDENTITY:
        return ""
    if len(set(lanes)) == 1:
        return "." + LANES[lanes[0]]
    return "." + "".join(LANES[lane] for lane in lanes)


def mask_suffix(flags: tuple[bool, ...]) -> str:
    """``""`` for xyzw (and for an empty mask, which text cannot show)."""
    if all(flags) or not any(flags):
        return ""
    return "." + "".join(letter for letter, flag in zip(LANES, flags) if flag)


def parse_swizzle(letters: str, column: int) -> tuple[int, int, int, int]:
    """1-4 letters; the last one repeats (``.xy`` = ``.xyyy``)."""
    if not re.fullmatch(r"[xyzw]{1,4}", letters):
        raise SourceError(f"'{letters}' is not a swizzle (1 to 4 of x, y, z, w)", column, len(letters))
    lanes = [LANES.index(letter) for letter in letters]
    lanes += [lanes[-1]] * (4 - len(lanes))
    return tuple(lanes)


def condition_text(test: int, register: int, swizzle: tuple[int, ...]) -> str:
    """``GT.x``, ``NE1.xyzz``: the test, the CC number when not 0, the swizzle when not xyzw."""
    return CONDITION_NAMES[test] + (str(register) if register else "") + swizzle_suffix(swizzle)


CONDITION_PATTERN = re.compile(r"(FL|LT|EQ|LE|GT|NE|GE|TR)([01])?")


# --- numbers -----------------------------------------------------------------------------------

def bits_to_float(bits: int) -> float:
    return struct.unpack(">f", struct.pack(">I", bits))[0]


def float_text(bits: int) -> str:
    """The shortest decimal that reads back to ``bits``; hex bits for infinities and NaNs."""
    value = bits_to_float(bits)
    if not math.isfinite(value):
        return f"0x{bits:08x}"
    if value.is_integer() and abs(value) < 1e9:  # 65280 rather than 6.528e+04
        return "-0" if bits == 0x80000000 else str(int(value))
    for digits in range(1, 10):
        text = f"{value:.{digits}g}"
        try:
            if float_bits_of(float(text)) == bits:
                return text
        except ValueError:  # rounded up past FLT_MAX: needs more digits
            continue
    return f"{value:.9g}"


def float_bits_of(value: float) -> int:
    """Round a Python float to the nearest 32-bit float; ValueError if it is out of range."""
    try:
        return struct.unpack(">I", struct.pack(">f", value))[0]
    except OverflowError:
        raise ValueError("too large for a 32-bit float") from None


def listing_float_text(bits: int) -> str:
    """Form B lane: ``0x3f800000(1)``."""
    return f"0x{bits:08x}({bits_to_float(bits):g})"


# --- printed mnemonics -------------------------------------------------------------------------

# NV assembly spellings used in form A where they differ from the opcode table (spec 3.7).
FP_NV_NAMES = {0x13: "PK4B", 0x14: "UP4B", 0x24: "PK2H", 0x25: "UP2H", 0x27: "PK4UB",
               0x28: "UP4UB", 0x29: "PK2US", 0x2A: "UP2US", 0x36: "RFL", 0x42: "IF"}
# Pack/unpack ops carry no precision suffix in NV text (their names may end in H or B).
FP_PACK_OPCODES = frozenset({0x13, 0x14, 0x24, 0x25, 0x27, 0x28, 0x29, 0x2A, 0x2C, 0x2D})
# Ops without a destination and without operands: no suffix either.
FP_BARE_OPCODES = frozenset({0x00, 0x12, 0x3D, 0x3E})
PRECISION_SUFFIXES = ("R", "H", "X")
SCALE_SUFFIXES = {1: "_X2", 2: "_X4", 3: "_X8", 5: "_D2", 6: "_D4", 7: "_D8"}
SUFFIX_PATTERN = re.compile(r"(?P<precision>[RHX])?(?P<cc>C[01]?)?(?P<saturate>_SAT)?"
                            r"(?P<scale>_[XD][248])?")

# --- numbers -------------------------------------------------------------------------------------

# For decimal strings read straight from text (slot numbers, #var fields, indices found by a
# scan): more digits than any index or 32-bit field can use.
MAX_INDEX_DIGITS = 10


def small_decimal(digits: str) -> int | None:
    """The value of a string of decimal digits, or None when it has more digits than any index or
    32-bit field can use (the caller reports it as out of range)."""
    return int(digits) if len(digits) <= MAX_INDEX_DIGITS else None


def parse_int(text: str) -> int:
    """Decimal (leading zeros allowed, as in ``007``) or ``0x`` hex."""
    return int(text, 16) if text[:2] in ("0x", "0X") else int(text, 10)


# --- register limits (documented ranges; the fields may hold more) ----------------------------

VP_LIMITS = {"R": VP_TEMPORARIES, "v": VP_INPUTS, "c": VP_CONSTANTS, "o": VP_OUTPUTS,
             "A": VP_ADDRESS_REGISTERS}
FP_LIMITS = {"R": FP_TEMPORARIES, "H": FP_HALF_REGISTERS, "f": FP_INPUTS}
