"""The small tables of the VEC34 operand encoding (spec/usse.md §3, §4), shared by the text
(:mod:`.description`) and the emulator: register banks, swizzle tables, predicates, source
modifiers and the constant bank.

Channel codes are written as one character each: ``x y z w`` select a channel, ``0 1 2 h`` are
the constants 0, 1, 2 and 0.5 (the spec's ``H``; lower case in our syntax, §6.2).
"""

from __future__ import annotations

# -- banks (§3.1): (bank field, extension bit) -> bank name --------------------------------------
# "special" is the constant/global bank (c or g by bit 6 of the number), "idx" an index register,
# "indexed1"/"indexed2" an operand addressed through index register 1 or 2, "imm" an immediate.
DEST_BANKS = {(0, 0): "r", (1, 0): "o", (2, 0): "pa", (3, 0): "indexed1",
              (0, 1): "sa", (1, 1): "special", (2, 1): "idx", (3, 1): "indexed2"}
SRC0_BANKS = {(0, 0): "r", (1, 0): "pa", (0, 1): "o", (1, 1): "sa"}
SRC12_BANKS = {(0, 0): "r", (1, 0): "o", (2, 0): "pa", (3, 0): "sa",
               (0, 1): "indexed1", (1, 1): "special", (2, 1): "imm", (3, 1): "indexed2"}
# Bits 6:5 of an indexed operand's number select the bank it indexes (§3.2).
INDEXED_BANKS = ("r", "o", "pa", "sa")

# -- predicates (§4) --------------------------------------------------------------------------
PREDICATES_EXTENDED = ("", "p0", "p1", "p2", "p3", "!p0", "!p1", "pN")
PREDICATES_VECTOR = ("", "p0", "p1", "p2", "!p0", "!p1", "!p2", "pN")
PREDICATES_SHORT = ("", "p0", "p1", "!p0")
# VMAD2's 2-bit predicate, printed through the extended table as Vita3K does (which table the
# hardware uses for it is unknown, §4).
PREDICATES_VMAD2 = PREDICATES_EXTENDED[:4]

# -- source modifiers (§3.5): 0 none, 1 negate, 2 absolute, 3 negated absolute ---------------------
MODIFIERS = ((False, False), (True, False), (False, True), (True, True))  # (negate, absolute)

# -- swizzles (§3.4) --------------------------------------------------------------------------
# VMAD2: 3-bit selectors per source.
VMAD2_SWIZZLES = {
    "src0": ("xxxx", "yyyy", "zzzz", "wwww", "xyzw", "yzxw", "xyww", "zwxy"),
    "src1": ("xxxx", "yyyy", "zzzz", "wwww", "xyzw", "xyyz", "yyww", "wyzw"),
    "src2": ("xxxx", "yyyy", "zzzz", "wwww", "xyzw", "xzww", "xxyz", "xyzz"),
}
# One 3-bit channel selector (V32NMAD/V16NMAD source 1 per channel, VDP source 1).
CHANNEL_CODES = "xyzw012h"
# The standard 4-bit tables; None where the table has no entry.
VEC4_STD = ("xxxx", "yyyy", "zzzz", "wwww", "xyzw", "yzww", "xyzz", "xxyz",
            "xyxy", "xywz", "zxyw", "zwzw", "yzxz", "xxyy", "xzww", "xyz1")
VEC4_EXT = ("yzxw", "zwxy", "xzwy", "yyww", "wyzw", "wzwz", "xyzx", "zzww",
            "xwzx", "yyyx", "yyyz", "xzyw", "xxxy", "zyxw", "yyzz", "zzzy")
VEC3_STD = ("xxx", "yyy", "zzz", "www", "xyz", "yzw", "xxy", "xyx",
            "yyx", "yyz", "zxy", "xzy", "yzx", "zyx", "zzy", "xy1")
VEC3_EXT = ("xyy", "yxy", "xxz", "yxx", "xy0", "x10", "000", "111",
            "hhh", "222", "x00", None, None, None, None, None)
SCALAR_STD = ("xxxx", "yyyy", "zzzz", "wwww", "0000", "1111", "2222", "hhhh",
              None, None, None, None, None, None, None, None)
# VDUAL's own tables.
VDUAL_VEC4_STD = VEC4_STD[:12] + ("0000", "hhhh", "1111", "2222")
VDUAL_VEC4_EXT = VEC4_EXT[:11] + ("zwzw", "yzxz", "xxyy", "xzww", "xyz1")
VDUAL_VEC3_STD = VEC3_STD[:12] + ("000", "hhh", "111", "222")
VDUAL_VEC3_EXT = ("xyy", "yxy", "xxz", "yxx", "xy0", "x10", "xzy", "yzx",
                  "zyx", "zzy", "xy1", None, None, None, None, None)


def vector_swizzle_12(code: int) -> str:
    """V32NMAD/V16NMAD source 1: four 3-bit channel selectors, channel k in bits 3k+2:3k."""
    return "".join(CHANNEL_CODES[code >> (3 * channel) & 7] for channel in range(4))


# -- constant bank (§3.3): cN = (bank0[N], bank1[N]); channel y reads bank1, x z w bank0 -----------
_CONSTANTS_LOW = (
    (0x00000000, 0x00000000), (0x00000000, 0x3F800000), (0x3F800000, 0x00000000), (0x3F800000, 0x3F800000),
    (0x40000000, 0x40800000), (0x41000000, 0x41800000), (0x42000000, 0x42800000), (0x43000000, 0x43800000),
    (0x44000000, 0x44800000), (0x45000000, 0x45800000), (0x46000000, 0x46800000), (0x47000000, 0x47800000),
    (0x3F000000, 0x3E800000), (0x3E000000, 0x3D800000), (0x3D000000, 0x3C800000), (0x3C000000, 0x3B800000),
    (0x3B000000, 0x3A800000), (0x3A000000, 0x39800000), (0x39000000, 0x38800000), (0x38000000, 0x37800000),
    (0x402DF854, 0x3EBC5AB2), (0x3FB504F3, 0x3F3504F3), (0x40490FDB, 0x3FC90FDB), (0x3F490FDB, 0x3EC90FDB),
    (0x40C90FDB, 0x41490FDB), (0x41C90FDB, 0x00000000), (0x37800000, 0x38000000), (0x37800080, 0x38000100),
    (0x35D00D01, 0x37B60B61), (0x39888889, 0x3B2AAAAB), (0x3CAAAAAB, 0x3E000000), (0x3F000000, 0x3F800000),
)
_CONSTANTS_HIGH = (
    (0x00000000, 0x3C000000), (0x00000000, 0x00000000), (0x3C003C00, 0x3C003C00), (0x44004000, 0x4C004800),
    (0x54005000, 0x5C005800), (0x64006000, 0x6C006800), (0x74007000, 0x00007800), (0x34003800, 0x2C003000),
    (0x24002800, 0x1C002000), (0x14001800, 0x0C001000), (0x04000800, 0x00000000), (0x35E2416F, 0x00000000),
    (0x39A83DA8, 0x00000000), (0x3E484248, 0x36483A48), (0x4A484648, 0x00004E48), (0x00000000, 0x00000000),
    (0x00000000, 0x19550C44), (0x30002555, 0x3C003800),
)
CONSTANTS = _CONSTANTS_LOW + _CONSTANTS_HIGH + ((0, 0),) * 6 + ((0xFFFFFFFF, 0),) * 4 + ((0x7FFF7FFF, 0),) * 4
assert len(CONSTANTS) == 64


def constant_bits(number: int, channel: str) -> int:
    """The 32-bit pattern constant ``c<number>`` gives for swizzle channel ``channel`` (x y z w)."""
    bank0, bank1 = CONSTANTS[number]
    return bank1 if channel == "y" else bank0
