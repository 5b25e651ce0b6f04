"""What every RSX instruction does: one function per arithmetic mnemonic, on lane arrays.

A *vector* is a float32 array of shape ``(4, n)``: rows x, y, z, w, one column per lane (pixel or
vertex). Arguments may also be ``(k, 1)`` columns (a constant broadcast over all lanes) or
``(1, n)`` rows (one value replicated to the four components); results broadcast to ``(4, n)``.
Every ``i_<MNEMONIC>`` returns such an array and never modifies its arguments. The vertex and the
fragment machines share these functions wherever the meaning is the same (spec/rsx.md sections
2.7, 2.8, 3.7 and 3.8); machine-specific work (sources, register files, flow, textures) lives in
:mod:`~shaderkit.isa.rsx.fragment` and :mod:`~shaderkit.isa.rsx.vertex`. DDX/DDY take the lane
grid (height, width) as an extra argument.

Arithmetic stays in float32 so results match a GL implementation to a few ULP: MAD is *not*
fused (two roundings, as llvmpipe evaluates ``a * b + c``; the fp_arith_const golden matches
exactly, though it would match a fused MAD too), dot products add left to right, MIN/MAX return
NaN if either operand is NaN. Scalar ops (``i_RCP`` ...) take the one row they read and return one
row; the machine replicates it. Special values follow section 3.8: RCP(±0) = ±inf, RSQ ignores the
sign, DIVSQ of a zero numerator is 0, EX2/LG2 are IEEE.

``SEMANTICS`` (a :class:`~shaderkit.core.semantics.Semantics`) registers every mnemonic of the three
opcode groups — the vertex vector unit, the vertex scalar unit and the fragment program
(:data:`VERTEX_VECTOR`, :data:`VERTEX_SCALAR`, :data:`FRAGMENT`): the function that computes it, or,
for what the machines carry out themselves (flow control, texture fetches, KIL, ARL's address
write, no-ops, the opcodes the hardware does not implement), what it does. TXL, CAL and RET mean
different things in the vertex and the fragment groups and are registered per group. The
machines take their functions from it when they prepare a program; the reference manual reads
every meaning from it.

The module also owns what both machines share around the ops: condition-code tests, output
modifiers (saturate, precision) and masked lane stores.

Pack/unpack ops work on bit patterns: a pack result is one uint32 reinterpreted as a float32 and
replicated; an unpack reads the bits of its (1, n) argument. Layouts are the GLSL ones
(packHalf2x16, packSnorm4x8, packUnorm4x8, packUnorm2x16: first component in the low bits);
rounding to integers is to nearest, ties to even. PKG/UPG are packUnorm4x8 with the sRGB transfer
function on x, y, z (alpha stays linear). UP2/UP16 return (a, b, a, b) for the two unpacked values.
"""

from __future__ import annotations

import numpy as np

from ...core.semantics import HandledByMachine, Semantics
from . import transcendentals

F32 = np.float32
ZERO = F32(0.0)
ONE = F32(1.0)
TWO = F32(2.0)
# RCC clamps the reciprocal's magnitude to this range (spec section 2.8, RPCS3's constants).
RCC_SMALLEST = F32(5.42101e-20)
RCC_LARGEST = F32(1.884467e19)
# NV LIT clamps the specular power to (-128, 128).
LIT_POWER_LIMIT = F32(128.0 - 1.0 / 256.0)
HALF_MAX = F32(65504.0)
FIXED12_MIN = F32(-2.0)
FIXED12_MAX = F32(2.0 - 2.0 ** -10)  # s1.10: the largest value below 2


def _row(values: np.ndarray) -> np.ndarray:
    """A (n,) result as a (1, n) row that broadcasts to the four components."""
    return values[np.newaxis]


def vector(x, y, z, w) -> np.ndarray:
    """A (4, n) vector from four rows or scalars that broadcast together."""
    x, y, z, w = np.broadcast_arrays(*(np.asarray(lane, dtype=F32) for lane in (x, y, z, w)))
    return np.stack((x, y, z, w))


# --- moves and arithmetic ---------------------------------------------------------------------

def i_MOV(a):
    """a, unchanged."""
    return a


def i_MUL(a, b):
    """a * b per component."""
    return a * b


def i_ADD(a, b):
    """a + b per component."""
    return a + b


def i_MAD(a, b, c):
    """a * b + c per component, rounded after the multiply and again after the add (not fused)."""
    return a * b + c


def i_MIN(a, b):
    """The smaller of a and b per component; NaN if either is NaN."""
    return np.minimum(a, b)


def i_MAX(a, b):
    """The larger of a and b per component; NaN if either is NaN."""
    return np.maximum(a, b)


def i_FRC(a):
    """a - floor(a) per component: the fraction, in [0, 1) also for negative a."""
    return a - np.floor(a)


def i_FLR(a):
    """floor(a) per component."""
    return np.floor(a)


def i_SSG(a):
    """NV sign: 1 if a > 0, -1 if a < 0, else +0 (also for -0)."""
    return np.sign(a)


def i_LRP(a, b, c):
    """NV LRP: a * b + (1 - a) * c."""
    return a * b + (ONE - a) * c


# --- dot products and geometry ----------------------------------------------------------------

def i_DP2(a, b):
    """a.x * b.x + a.y * b.y, replicated to every component."""
    return _row(a[0] * b[0] + a[1] * b[1])


def i_DP3(a, b):
    """dot(a.xyz, b.xyz), added left to right, replicated to every component."""
    return _row(a[0] * b[0] + a[1] * b[1] + a[2] * b[2])


def i_DP4(a, b):
    """dot(a, b) over all four components, replicated to every component."""
    return _row(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3])


def i_DPH(a, b):
    """dot(vec4(a.xyz, 1), b)."""
    return _row(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + b[3])


def i_DP2A(a, b, c):
    """dot(a.xy, b.xy) + c.x."""
    return _row(a[0] * b[0] + a[1] * b[1] + c[0])


def i_DST(a, b):
    """(1, a.y * b.y, a.z, b.w)."""
    return vector(ONE, a[1] * b[1], a[2], b[3])


def i_NRM(a):
    """a.xyz / |a.xyz|; a zero-length vector gives 0 instead of NaN. NV leaves w undefined: 1."""
    length_squared = a[0] * a[0] + a[1] * a[1] + a[2] * a[2]
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(length_squared == ZERO, ZERO, ONE / np.sqrt(length_squared))
    return vector(a[0] * scale, a[1] * scale, a[2] * scale, ONE)


def i_REFL(a, b):
    """GLSL reflect(a, b) on four components: a - 2 * dot(b, a) * b."""
    return a - TWO * i_DP4(b, a) * b


def i_DIV(a, b):
    """a / b.x (b is the row of its .x)."""
    return a / b


def i_DIVSQ(a, b):
    """a / sqrt(b.x); a zero numerator gives 0 whatever the denominator."""
    return np.where(a == ZERO, ZERO, a / np.sqrt(b))


# --- derivatives over 2x2 pixel quads ---------------------------------------------------------

def _quad_partners(size: int) -> tuple[np.ndarray, np.ndarray]:
    """Per column (or row): the low and high member of its quad pair. An odd size leaves the last
    one without a partner; it is paired with the one before it (size 1: derivative 0)."""
    low = np.arange(size) & ~1
    high = low + 1
    lone = high >= size
    high[lone] = size - 1
    low[lone] = max(size - 2, 0)
    return low, high


def i_DDX(a, grid: tuple[int, int]):
    """d/dx: the right minus the left pixel of each 2x2 quad, per row of the quad (GL "fine"
    derivatives). The lanes are laid out as ``grid`` = (height, width), row-major."""
    height, width = grid
    lanes = np.broadcast_to(a, (a.shape[0], height * width)).reshape(a.shape[0], height, width)
    low, high = _quad_partners(width)
    return (lanes[:, :, high] - lanes[:, :, low]).reshape(a.shape[0], -1)


def i_DDY(a, grid: tuple[int, int]):
    """d/dy: the upper minus the lower pixel of each quad, per column (row 0 is the bottom)."""
    height, width = grid
    lanes = np.broadcast_to(a, (a.shape[0], height * width)).reshape(a.shape[0], height, width)
    low, high = _quad_partners(height)
    return (lanes[:, high, :] - lanes[:, low, :]).reshape(a.shape[0], -1)


# --- set on compare ---------------------------------------------------------------------------

def _flag(condition: np.ndarray) -> np.ndarray:
    return condition.astype(F32)


def i_SLT(a, b):
    """1.0 where a < b, else 0.0, per component."""
    return _flag(a < b)


def i_SGE(a, b):
    """1.0 where a >= b, else 0.0, per component."""
    return _flag(a >= b)


def i_SLE(a, b):
    """1.0 where a <= b, else 0.0, per component."""
    return _flag(a <= b)


def i_SGT(a, b):
    """1.0 where a > b, else 0.0, per component."""
    return _flag(a > b)


def i_SNE(a, b):
    """1.0 where a != b (also where either is NaN), else 0.0, per component."""
    return _flag(a != b)


def i_SEQ(a, b):
    """1.0 where a == b, else 0.0, per component."""
    return _flag(a == b)


def i_SFL():
    """0.0 in every component ("set on false"); reads nothing."""
    return np.zeros((1, 1), dtype=F32)


def i_STR():
    """1.0 in every component ("set on true"); reads nothing."""
    return np.ones((1, 1), dtype=F32)


# --- scalar ops: one row in, one row out -----------------------------------------------------

def i_RCP(x):
    """1 / x of the scalar operand; RCP(±0) = ±inf."""
    return ONE / x


def i_RCC(x):
    """1 / x with its magnitude clamped to [5.42101e-20, 1.884467e19] (RCC_SMALLEST, RCC_LARGEST), sign kept."""
    reciprocal = ONE / x
    return np.copysign(np.clip(np.abs(reciprocal), RCC_SMALLEST, RCC_LARGEST), reciprocal)


def i_RSQ(x):
    """1 / sqrt(|x|): RSQ ignores the sign of its input; RSQ(0) = +inf."""
    return ONE / np.sqrt(np.abs(x))


def i_EX2(x):
    """2^x of the scalar operand (IEEE; :mod:`.transcendentals`)."""
    return transcendentals.exp2(x)


def i_LG2(x):
    """log2(x) of the scalar operand (IEEE: negative gives NaN, 0 gives -inf; :mod:`.transcendentals`)."""
    return transcendentals.log2(x)


def i_SIN(x):
    """sin(x) of the scalar operand, x in radians (:mod:`.transcendentals`)."""
    return transcendentals.sin(x)


def i_COS(x):
    """cos(x) of the scalar operand, x in radians (:mod:`.transcendentals`)."""
    return transcendentals.cos(x)


# --- VP scalar-unit ops with four distinct result components ---------------------------------

def i_EXP(x):
    """NV partial-precision exponential: (2^floor(x), x - floor(x), 2^x, 1)."""
    whole = np.floor(x)
    return np.concatenate((transcendentals.exp2(whole), x - whole, transcendentals.exp2(x), np.ones_like(x)))


def i_LOG(x):
    """NV partial-precision logarithm of |x|: (exponent, mantissa in [1, 2), log2|x|, 1).

    Zero, infinity and NaN have no exponent/mantissa split: they give (log2|x|, 1, log2|x|, 1).
    """
    magnitude = np.abs(x)
    mantissa, exponent = np.frexp(magnitude)
    logarithm = transcendentals.log2(magnitude)
    regular = np.isfinite(magnitude) & (magnitude != ZERO)
    return np.concatenate((
        np.where(regular, (exponent - 1).astype(F32), logarithm),
        np.where(regular, mantissa * TWO, ONE),
        logarithm,
        np.ones_like(x),
    ))


def i_LIT(a):
    """NV LIT on (diffuse dot, specular dot, -, power): (1, max(x, 0), x > 0 ? max(y, 0)^w : 0, 1)."""
    diffuse = np.maximum(a[0], ZERO)
    specular = np.maximum(a[1], ZERO)
    power = np.clip(a[3], -LIT_POWER_LIMIT, LIT_POWER_LIMIT)
    with np.errstate(divide="ignore", invalid="ignore"):
        lit = np.where(diffuse > ZERO, np.power(specular, power), ZERO)
    return vector(ONE, diffuse, lit, ONE)


def i_LIF(a):
    """LIF/LITEX2 (RPCS3 reading, spec 3.8): (1, a.y, a.y > 0 ? 2^a.w : 0, 1)."""
    return vector(ONE, a[1], np.where(a[1] > ZERO, transcendentals.exp2(a[3]), ZERO), ONE)


# --- pack / unpack ----------------------------------------------------------------------------

def _as_float(bits: np.ndarray) -> np.ndarray:
    return _row(bits.astype(np.uint32).view(F32))


def _bits(a: np.ndarray) -> np.ndarray:
    """The uint32 bits of the (1, n) row an unpack reads."""
    return np.ascontiguousarray(a[0], dtype=F32).view(np.uint32)


# The fixed-point packs: (low, high, scale) of _quantise, and the unpack dividing by the same scale.
SNORM8 = (-1.0, 1.0, 127.0)      # PK4 / UP4
UNORM8 = (0.0, 1.0, 255.0)       # PKB / UPB, PKG / UPG
UNORM16 = (0.0, 1.0, 65535.0)    # PK16 / UP16
QUANTISED_PACKS = {"PK4": SNORM8, "PKB": UNORM8, "PK16": UNORM16}


def _quantise(values: np.ndarray, low: float, high: float, scale: float) -> np.ndarray:
    # NaN quantises to 0 (GLSL leaves it undefined); rint rounds ties to even.
    clamped = np.clip(np.nan_to_num(values, nan=0.0), F32(low), F32(high))
    return np.rint(clamped * F32(scale)).astype(np.int32)


def _pack_bytes(values: np.ndarray) -> np.ndarray:
    """Four (n,) integer rows as bytes of one word, x in the low byte."""
    as_bytes = [(row.astype(np.uint32) & 0xFF) << (8 * lane) for lane, row in enumerate(values)]
    return as_bytes[0] | as_bytes[1] | as_bytes[2] | as_bytes[3]


def _unpack_bytes(bits: np.ndarray) -> list[np.ndarray]:
    return [(bits >> (8 * lane)) & 0xFF for lane in range(4)]


def i_PK2(a):
    """packHalf2x16(a.xy)."""
    halves = np.asarray(a[:2], dtype=F32).astype(np.float16).view(np.uint16).astype(np.uint32)
    return _as_float(halves[0] | (halves[1] << 16))


def i_UP2(a):
    """unpackHalf2x16(bits of a.x), as (x, y, x, y)."""
    bits = _bits(a)
    low = (bits & 0xFFFF).astype(np.uint16).view(np.float16).astype(F32)
    high = (bits >> 16).astype(np.uint16).view(np.float16).astype(F32)
    return vector(low, high, low, high)


def i_PK4(a):
    """packSnorm4x8(a): round(clamp(a, -1, 1) * 127) per byte."""
    return _as_float(_pack_bytes(_quantise(np.broadcast_to(a, (4, a.shape[1])), *SNORM8)))


def i_UP4(a):
    """unpackSnorm4x8(bits of a.x): clamp(byte / 127, -1, 1)."""
    signed = [byte.astype(np.uint8).view(np.int8).astype(F32) for byte in _unpack_bytes(_bits(a))]
    return np.maximum(np.stack(signed) / F32(SNORM8[2]), F32(-1.0))


def i_PKB(a):
    """packUnorm4x8(a): round(clamp(a, 0, 1) * 255) per byte."""
    return _as_float(_pack_bytes(_quantise(np.broadcast_to(a, (4, a.shape[1])), *UNORM8)))


def i_UPB(a):
    """unpackUnorm4x8(bits of a.x)."""
    return np.stack(_unpack_bytes(_bits(a))).astype(F32) / F32(UNORM8[2])


def i_PK16(a):
    """packUnorm2x16(a.xy)."""
    words = _quantise(np.broadcast_to(a, (4, a.shape[1]))[:2], *UNORM16).astype(np.uint32)
    return _as_float(words[0] | (words[1] << 16))


def i_UP16(a):
    """unpackUnorm2x16(bits of a.x), as (x, y, x, y)."""
    bits = _bits(a)
    low = (bits & 0xFFFF).astype(F32) / F32(UNORM16[2])
    high = (bits >> 16).astype(F32) / F32(UNORM16[2])
    return vector(low, high, low, high)


def linear_to_srgb(values: np.ndarray) -> np.ndarray:
    values = np.clip(values, ZERO, ONE)
    with np.errstate(invalid="ignore"):
        curve = F32(1.055) * np.power(values, F32(1.0 / 2.4)) - F32(0.055)
    return np.where(values <= F32(0.0031308), values * F32(12.92), curve).astype(F32)


def srgb_to_linear(values: np.ndarray) -> np.ndarray:
    curve = np.power((values + F32(0.055)) / F32(1.055), F32(2.4))
    return np.where(values <= F32(0.04045), values / F32(12.92), curve).astype(F32)


def i_PKG(a):
    """packUnorm4x8 of (sRGB(a.x), sRGB(a.y), sRGB(a.z), a.w)."""
    a = np.broadcast_to(a, (4, a.shape[1]))
    encoded = np.concatenate((linear_to_srgb(a[:3]), a[3:]))
    return _as_float(_pack_bytes(_quantise(encoded, *UNORM8)))


def i_UPG(a):
    """unpackUnorm4x8 of bits of a.x, x, y, z decoded from sRGB to linear."""
    unpacked = i_UPB(a)
    return np.concatenate((srgb_to_linear(unpacked[:3]), unpacked[3:]))


# --- the registry -----------------------------------------------------------------------------

# The opcode groups, one per table of .opcodes; the reference manual titles entries with them.
VERTEX_VECTOR = "vertex vector unit"
VERTEX_SCALAR = "vertex scalar unit"
FRAGMENT = "fragment"

SEMANTICS = Semantics("RSX", {
    "NOP": HandledByMachine("Does nothing."),
    "MOV": i_MOV,
    "MUL": i_MUL,
    "ADD": i_ADD,
    "MAD": i_MAD,
    "MIN": i_MIN,
    "MAX": i_MAX,
    "FRC": i_FRC,
    "FLR": i_FLR,
    "SSG": i_SSG,
    "LRP": i_LRP,
    "DP2": i_DP2,
    "DP3": i_DP3,
    "DP4": i_DP4,
    "DPH": i_DPH,
    "DP2A": i_DP2A,
    "DST": i_DST,
    "NRM": i_NRM,
    "REFL": i_REFL,
    "DIV": i_DIV,
    "DIVSQ": i_DIVSQ,
    "DDX": i_DDX,
    "DDY": i_DDY,
    "SLT": i_SLT,
    "SGE": i_SGE,
    "SLE": i_SLE,
    "SGT": i_SGT,
    "SNE": i_SNE,
    "SEQ": i_SEQ,
    "SFL": i_SFL,
    "STR": i_STR,
    "RCP": i_RCP,
    "RCC": i_RCC,
    "RSQ": i_RSQ,
    "EX2": i_EX2,
    "LG2": i_LG2,
    "SIN": i_SIN,
    "COS": i_COS,
    "EXP": i_EXP,
    "LOG": i_LOG,
    "LIT": i_LIT,
    "LIF": i_LIF,
    "PK2": i_PK2,
    "UP2": i_UP2,
    "PK4": i_PK4,
    "UP4": i_UP4,
    "PKB": i_PKB,
    "UPB": i_UPB,
    "PK16": i_PK16,
    "UP16": i_UP16,
    "PKG": i_PKG,
    "UPG": i_UPG,
    # The vector unit computes ARL's value as a MOV; the machine floors it into A0/A1.
    "ARL": HandledByMachine(
        "Load an address register: A0 or A1 ← floor(a), per component, as integers. Relative "
        "constant reads (`c[A0.x + 4]`) and register branches use it."),
    "BRA": HandledByMachine(
        "Branch through an address register: jump to the slot the register's component holds, in "
        "the lanes whose condition passes."),
    "BRI": HandledByMachine(
        "Branch to a label, in the lanes whose condition passes (written `BRA label`; the machine "
        "keeps a program counter per lane, so lanes may diverge)."),
    "CLI": HandledByMachine(
        "Call the subroutine at a label (written `CAL label`), in the lanes whose condition passes; "
        "`RET` comes back."),
    "BRB": HandledByMachine(
        "Branch to a label when bit `index` of the host's TRANSFORM_BRANCH_BITS equals `value`."),
    "CLB": HandledByMachine(
        "Call the subroutine at a label when bit `index` of TRANSFORM_BRANCH_BITS equals `value`."),
    "PSH": HandledByMachine("Push the address register given as the operand on the call stack."),
    "POP": HandledByMachine("Pop the call stack into the address register."),
    "KIL": HandledByMachine(
        "Discard the fragment when the condition passes in any component (no condition: always). "
        "A discarded fragment writes neither colour nor depth."),
    "TEX": HandledByMachine(
        "Sample `texture[n]` at coordinates a.xy (2D; bilinear or nearest, repeat, clamp or "
        "mirror, as `run` is told). An unbound unit reads (0, 0, 0, 1)."),
    "TXP": HandledByMachine("Sample `texture[n]` at a.xy / a.w (projective)."),
    "TXD": HandledByMachine(
        "Sample `texture[n]` at a with the explicit derivatives b and c (no mipmaps here, so "
        "as TEX)."),
    "TXB": HandledByMachine(
        "Sample `texture[n]` at a.xy with the level-of-detail bias a.w (no mipmaps here, so as TEX)."),
    "BEM": HandledByMachine("Bump-environment-map transform (D3D heritage)."),
    "TEXBEM": HandledByMachine("Bump-mapped texture fetch (D3D heritage)."),
    "TXPBEM": HandledByMachine("Projective bump-mapped texture fetch (D3D heritage)."),
    "BEMLUM": HandledByMachine("Bump-environment-map transform with luminance (D3D heritage)."),
    "TIMESWTEX": HandledByMachine("Undocumented texture operation."),
    "POW": HandledByMachine(
        "a.x raised to b.x. Assembly text `POW` is expanded as cgcomp does, to LG2, MUL and EX2."),
    "FENCT": HandledByMachine(
        "Texture fence: orders texture fetches; no effect on values (the emulator runs it as NOP)."),
    "FENCB": HandledByMachine(
        "Fence: orders writes; no effect on values (compilers emit it; the emulator runs it as NOP)."),
    "BRK": HandledByMachine("Leave the innermost LOOP or REP in the lanes whose condition passes."),
    "IFE": HandledByMachine(
        "Start a conditional block (written `IF cond; … ELSE; … ENDIF;`): lanes whose condition "
        "passes run the block up to ELSE, the others the ELSE part. ELSE and ENDIF take no slot; "
        "the instruction holds their offsets."),
    "LOOP": HandledByMachine(
        "Repeat the body up to ENDLOOP `count` times with the loop counter going `start`, "
        "`start + increment`, …, which `f[TEX(i + n)]` indexing reads; `LOOP c[k]` takes count, "
        "start and increment from the literal c[k].xyz."),
    "REP": HandledByMachine("Repeat the body up to ENDREP `count` times (`REP c[k]`: count = c[k].x)."),
}, per_group={
    VERTEX_VECTOR: {
        "TXL": HandledByMachine(
            "Vertex texture fetch from `texture[n]` at coordinates a, level of detail from a.w."),
    },
    VERTEX_SCALAR: {
        "CAL": HandledByMachine(
            "Call through an address register: push the return slot and jump to the slot the "
            "register's component holds."),
        "RET": HandledByMachine(
            "Return from a subroutine, in the lanes whose condition passes; outside a subroutine the "
            "lane's program ends."),
    },
    FRAGMENT: {
        "TXL": HandledByMachine(
            "Sample `texture[n]` at a.xy at the level of detail a.w (no mipmaps here, so as TEX)."),
        "CAL": HandledByMachine("Call a subroutine (not used by Cg; decodes and prints)."),
        "RET": HandledByMachine("End the program (outside a subroutine) in the lanes whose condition passes."),
    },
})


# --- output modifiers -------------------------------------------------------------------------

def saturate(a):
    """Clamp to [0, 1]; NaN becomes 0 (fmax ignores a NaN operand)."""
    return np.minimum(np.fmax(a, ZERO), ONE)


def round_to_half(a):
    """fp16 precision: clamp to ±65504 (no infinities), then round to nearest even fp16."""
    return np.clip(a, -HALF_MAX, HALF_MAX).astype(np.float16).astype(F32)


def clamp_fixed12(a):
    """X precision: clamp to the fixed12 range [-2, 2) (values are not quantised)."""
    return np.clip(a, FIXED12_MIN, FIXED12_MAX)


def clamp_fixed9(a):
    """The fp9 precision code: clamp to [-1, 1]."""
    return np.clip(a, F32(-1.0), ONE)


# Precision codes (OPDEST 22-23 and the per-source clamps) -> the function that applies them.
PRECISION_FUNCTIONS = {1: round_to_half, 2: clamp_fixed12, 3: clamp_fixed9}


# --- condition codes and masked writes ---------------------------------------------------------

# CC test codes (bit 0 LT, bit 1 EQ, bit 2 GT) as comparisons with 0, the way GLSL would write
# them: NaN passes NE and nothing else. FL (0) and TR (7) never reach these.
CONDITION_TESTS = {1: np.less, 2: np.equal, 3: np.less_equal, 4: np.greater, 5: np.not_equal,
                   6: np.greater_equal}


def condition_passes(cc_component: np.ndarray, test: int) -> np.ndarray:
    """Per lane: does one CC component pass the test code (1..6)?"""
    return CONDITION_TESTS[test](cc_component, ZERO)


def mask_and(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    """Intersection of two lane masks, ``None`` meaning every lane."""
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def store(target: np.ndarray, new: np.ndarray, mask: np.ndarray | None) -> None:
    """Write ``new`` into the lanes of ``target`` selected by ``mask`` (``None``: all lanes)."""
    if mask is None:
        target[...] = new
    else:
        target[...] = np.where(mask, new, target)


def bind(function, readers):
    """``function`` applied to what ``readers`` read from a machine state: one closure per
    instruction, built once, with no argument unpacking in the run loop."""
    if not readers:
        return lambda state: function()
    if len(readers) == 1:
        first = readers[0]
        return lambda state: function(first(state))
    if len(readers) == 2:
        first, second = readers
        return lambda state: function(first(state), second(state))
    first, second, third = readers
    return lambda state: function(first(state), second(state), third(state))


def condition_lane_masks(cc_registers, condition, lanes, active):
    """Per written lane, the mask it is written under: ``active`` (None = every lane), and-ed
    with the CC test of ``condition`` (None = no test). The CC swizzle is indexed by the
    destination lane (spec 3.8); each CC component is tested once."""
    if condition is None:
        return dict.fromkeys(lanes, active)
    cc = cc_registers[condition.register]
    passed = {}
    masks = {}
    for lane in lanes:
        component = condition.swizzle[lane]
        if component not in passed:
            passed[component] = condition_passes(cc[component], condition.test)
        masks[lane] = mask_and(passed[component], active)
    return masks
