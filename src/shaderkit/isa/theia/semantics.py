"""What every THEIA V1 instruction does: one function per mnemonic (``spec/theia.md`` §4).

A *row* is a ``uint32`` array of shape ``(3, n)``: lanes X, Y, Z of one data row for
``n`` SIMT lanes (pixels). Every ``i_<MNEMONIC>(a, b)`` takes the two ALU operands as
rows — ``a`` = operand A (the row at S1; for type II instructions ``(IMM, 0, 0)``, which
may be a read-only broadcast), ``b`` = operand B (the row at S2; for type II the old
value of DST) — and returns the three result lanes written to DST as a new ``(3, n)``
array that shares no memory with its inputs, so callers may store or mutate it freely.
Each of the 18 compare-jumps has a function too, made by :func:`compare_jump`: it takes
the same two rows and returns, per SIMT lane, whether the jump is taken.

``SEMANTICS`` (a :class:`~shaderkit.core.semantics.Semantics`) is the one table the
emulator dispatches on and the reference manual reads meanings from. It registers every
mnemonic: the function that computes it — RETURN included (its ``(IMM, IMM, IMM)`` is
aimed at DST = 0, which the machine does not store) — or, for NOP, DEBUG_PRINT and JMP,
which the machine carries out itself, what they do. Two name sets classify mnemonics:

* ``UNIMPLEMENTED_IN_V1`` — INTP, XCHANGEY, XCHANGEZ, RESCALE: V1 hangs on them, so they
  run only when the user asks for the complete ISA;
* ``JUMP_TESTS`` — the lane and test (:data:`JUMP_CONDITIONS`) of each compare-jump,
  which writes nothing.

The arithmetic itself (overflow behaviour included) lives in
:mod:`shaderkit.isa.theia.fixedpoint`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...core.semantics import HandledByMachine, Semantics
from . import fixedpoint
from .fixedpoint import COMPARE_TESTS, ONE, SCALE

FRACTION_MASK = ONE - 1
INTEGER_MASK = fixedpoint.WORD_MASK ^ FRACTION_MASK

# CROSS pairs lane i of one operand with lanes i+1 and i+2 of the other.
NEXT_LANES = [1, 2, 0]
LANES_AFTER_NEXT = [2, 0, 1]

# SWIZZLE3D: source lane (0 = X, 1 = Y, 2 = Z, 3 = the constant 0) of each result lane,
# indexed by the swizzle code; V1 implements only XXX, YYY, ZZZ and YXZ, and every other
# code (3..20 and anything >= 22, all folded into the last entry) yields (0, 0, 0).
ZERO_LANE = 3
LAST_SWIZZLE_CODE = 22
SWIZZLE_SOURCE_LANES = np.full((LAST_SWIZZLE_CODE + 1, 3), ZERO_LANE, dtype=np.intp)
SWIZZLE_SOURCE_LANES[0] = (0, 0, 0)  # XXX
SWIZZLE_SOURCE_LANES[1] = (1, 1, 1)  # YYY
SWIZZLE_SOURCE_LANES[2] = (2, 2, 2)  # ZZZ
SWIZZLE_SOURCE_LANES[21] = (1, 0, 2)  # YXZ

Row = np.ndarray


def row(x, y, z) -> Row:
    """A new row from its three lanes."""
    return np.stack((x, y, z))


def low_word(wide: np.ndarray) -> np.ndarray:
    """The low 32 bits of a 64-bit multiplier result (MUL, IMUL, MULP wrap, no splice)."""
    return wide.astype(np.uint32)


def i_ADD(a: Row, b: Row) -> Row:
    """A + B per lane. The 64-bit sum's sign is spliced onto its low 31 bits, so an overflow neither
    wraps nor saturates (0x7FFFFFFF + 1 gives 0).
    """
    return fixedpoint.add(a, b)


def i_SUB(a: Row, b: Row) -> Row:
    """A − B per lane, with the same sign splice as ADD."""
    return fixedpoint.sub(a, b)


def i_DIV(a: Row, b: Row) -> Row:
    """A / B per lane in fixed point, truncated toward zero. Division by zero gives ±0x0FFFFFFF (about
    ±2048.0, the sign of A); quotients of 16384.0 or more wrap.
    """
    return fixedpoint.divide(a, b)


def i_MUL(a: Row, b: Row) -> Row:
    """A · B per lane in fixed point (the product shifted right by 17, truncated toward zero), keeping
    the low 32 bits.

    Exact while |A| ≤ 0x55555555 (about 10922.67); beyond that the hardware's 32-bit partial
    products drop carries, so MUL A B and MUL B A may differ.
    """
    return low_word(fixedpoint.multiply(a, b))


def i_MAG(a: Row, b: Row) -> Row:
    """Length of A in all three lanes; B is ignored."""
    # sum() wraps modulo 2^64 like the hardware's 64-bit adders.
    length = fixedpoint.magnitude_sqrt(fixedpoint.multiply(a, a).sum(axis=0))
    return row(length, length, length)


def i_COPY(a: Row, b: Row) -> Row:
    """A, all three lanes."""
    return np.array(a, dtype=np.uint32)


def i_INC(a: Row, b: Row) -> Row:
    """A + 1.0 in every lane."""
    return fixedpoint.add(a, np.uint32(ONE))


def i_ZERO(a: Row, b: Row) -> Row:
    """(0, 0, 0); reads nothing."""
    return np.zeros(a.shape, dtype=np.uint32)


def i_CROSS(a: Row, b: Row) -> Row:
    """A × B; each lane is T() of the 64-bit difference of two 64-bit products."""
    forward = fixedpoint.multiply(a[NEXT_LANES], b[LANES_AFTER_NEXT])
    backward = fixedpoint.multiply(a[LANES_AFTER_NEXT], b[NEXT_LANES])
    return fixedpoint.splice(forward - backward)


def i_DOT(a: Row, b: Row) -> Row:
    """A · B in all three lanes: T() of the 64-bit sum of the three 64-bit products."""
    dot = fixedpoint.splice(fixedpoint.multiply(a, b).sum(axis=0))
    return row(dot, dot, dot)


def i_MULP(a: Row, b: Row) -> Row:
    """(A.x, A.y, A.x·A.y); the manual says X and Y keep DST, the RTL copies S1's."""
    return row(a[0], a[1], low_word(fixedpoint.multiply(a[0], a[1])))


def i_MOD(a: Row, b: Row) -> Row:
    """A modulo B for B a power of two: A masked with B − 1.0, which also clears the fraction."""
    return a & (b - np.uint32(ONE))


def i_FRAC(a: Row, b: Row) -> Row:
    """The raw 17 fraction bits, i.e. A − floor(A) also for negative A."""
    return a & np.uint32(FRACTION_MASK)


def i_NEG(a: Row, b: Row) -> Row:
    """−A per lane (two's complement; the most negative word stays as it is)."""
    return np.negative(a)


def i_DEC(a: Row, b: Row) -> Row:
    """A − 1.0 in every lane."""
    return fixedpoint.sub(a, np.uint32(ONE))


def i_XCHANGEX(a: Row, b: Row) -> Row:
    """(B.x, A.y, A.z): A with its X lane taken from B."""
    return row(b[0], a[1], a[2])


def i_IMUL(a: Row, b: Row) -> Row:
    """Product of raw integers: the multiplier without the >> 17."""
    return low_word(fixedpoint.multiply(a, b, scaled=False))


def i_UNSCALE(a: Row, b: Row) -> Row:
    """Fixed point to integer by a logical shift, so negative A becomes a large positive."""
    return a >> np.uint32(SCALE)


def i_INCX(a: Row, b: Row) -> Row:
    """A with 1.0 added to the X lane only."""
    result = np.array(a, dtype=np.uint32)
    result[0] = fixedpoint.add(a[0], np.uint32(ONE))
    return result


def i_INCY(a: Row, b: Row) -> Row:
    """A with 1.0 added to the Y lane only."""
    result = np.array(a, dtype=np.uint32)
    result[1] = fixedpoint.add(a[1], np.uint32(ONE))
    return result


def i_INCZ(a: Row, b: Row) -> Row:
    """A with 1.0 added to the Z lane only."""
    result = np.array(a, dtype=np.uint32)
    result[2] = fixedpoint.add(a[2], np.uint32(ONE))
    return result


def i_RETURN(a: Row, b: Row) -> Row:
    """(IMM, IMM, IMM), aimed at DST = 0, which is not writable; the routine's result is IMM bit 0."""
    return row(a[0], a[0], a[0])


def i_SETX(a: Row, b: Row) -> Row:
    """(IMM, old.y, old.z): the X lane of DST becomes the immediate, Y and Z keep their values."""
    return row(a[0], b[1], b[2])


def i_SETY(a: Row, b: Row) -> Row:
    """(old.x, IMM, old.z): the Y lane of DST becomes the immediate."""
    return row(b[0], a[0], b[2])


def i_SETZ(a: Row, b: Row) -> Row:
    """(old.x, old.y, IMM): the Z lane of DST becomes the immediate."""
    return row(b[0], b[1], a[0])


def i_SWIZZLE3D(a: Row, b: Row) -> Row:
    """The old DST (B) with its lanes permuted by the swizzle code in IMM (A.x).

    V1 implements only SWIZZLE_XXX, SWIZZLE_YYY, SWIZZLE_ZZZ and SWIZZLE_YXZ; every other code gives
    (0, 0, 0). See ``SWIZZLE_SOURCE_LANES``.
    """
    codes = np.minimum(a[0], np.uint32(LAST_SWIZZLE_CODE))
    code = codes.max(initial=0)
    # One instruction's IMM is the same in every lane: then a single row gather will do.
    if (codes == code).all():
        source_lanes = SWIZZLE_SOURCE_LANES[code]
        if source_lanes[0] == ZERO_LANE:
            return np.zeros(b.shape, dtype=np.uint32)
        return b[source_lanes]
    source_lanes = SWIZZLE_SOURCE_LANES[codes].T
    lanes_and_zero = np.concatenate((b, np.zeros((1, *b.shape[1:]), dtype=np.uint32)))
    return np.take_along_axis(lanes_and_zero, source_lanes, axis=0)


def i_INTP(a: Row, b: Row) -> Row:
    """Integer part: A with its 17 fraction bits cleared, i.e. floor(A). Complete ISA only.

    No THEIA revision implements INTP. Its only definition upstream is the opcode-table
    comment ``INTP ... //34  R =IntergerPart( S1 )`` in ``rtl/Collaterals/aDefinitions.v``
    of ``freecores/theia_gpu``; the Programming Manual's own wording could not be
    consulted. "Integer part" is taken as floor rather than truncation so that it is the
    exact complement of FRAC (raw low bits = A − floor(A)): INTP(A) + FRAC(A) = A.
    """
    return a & np.uint32(INTEGER_MASK)


def i_XCHANGEY(a: Row, b: Row) -> Row:
    """(A.x, B.y, A.z), as the later Icarus port defines it. Complete ISA only."""
    return row(a[0], b[1], a[2])


def i_XCHANGEZ(a: Row, b: Row) -> Row:
    """(A.x, A.y, B.z), as the later Icarus port defines it. Complete ISA only."""
    return row(a[0], a[1], b[2])


def i_RESCALE(a: Row, b: Row) -> Row:
    """Integer to fixed point, A << 17 (wrapping), as the later Icarus port defines it. Complete ISA only."""
    return a << np.uint32(SCALE)


UNIMPLEMENTED_IN_V1 = frozenset({"INTP", "XCHANGEY", "XCHANGEZ", "RESCALE"})

# Mnemonics are J<test><lane>; the opcode's bits 4..3 select the lane, bits 2..0 the test.
JUMP_TESTS: dict[str, tuple[int, str]] = {
    f"J{test}{lane_name}": (lane, test) for lane, lane_name in enumerate("XYZ") for test in COMPARE_TESTS
}

# How each compare test decides, in the terms of spec §4.6 (signed order, magnitude equality).
JUMP_CONDITIONS = {
    "G": "A > B (signed)",
    "L": "A ≤ B (signed; equality included, unlike the upstream manual's \"<\")",
    "EQ": "|A| = |B| (magnitudes only: 5 equals −5)",
    "NE": "|A| ≠ |B| (magnitudes only)",
    "GE": "A > B or |A| = |B| (so −5 ≥ 5 holds)",
    "LE": "A ≤ B or |A| = |B| (so 5 ≤ −5 holds)",
}
assert set(JUMP_CONDITIONS) == set(COMPARE_TESTS)


def compare_jump(mnemonic: str) -> Callable[[Row, Row], np.ndarray]:
    """The function of compare-jump ``mnemonic``: (A, B) → per SIMT lane, whether it jumps."""
    lane, test = JUMP_TESTS[mnemonic]

    def taken(a: Row, b: Row) -> np.ndarray:
        return fixedpoint.compare(test, a[lane], b[lane])

    taken.__name__ = f"jump_{mnemonic}"
    taken.__doc__ = (f"Jump to `target` when, in lane {'XYZ'[lane]}, {JUMP_CONDITIONS[test]}, where A is "
                     f"the row at s1 and B the row at s2. The other lanes are not compared.")
    return taken


SEMANTICS = Semantics("THEIA", {
    "NOP": HandledByMachine("Does nothing. Upstream writes `NOP RT_FALSE` or `NOP RT_TRUE`; the value is ignored."),
    "DEBUG_PRINT": HandledByMachine(
        "Does nothing on the hardware (the upstream simulator printed its operands there)."),
    "JMP": HandledByMachine(
        "Jump to `target` unconditionally. Upstream writes `JMP LABEL VOID VOID`: the two extra "
        "operands land in the S1 and S2 fields and are ignored."),
    "ADD": i_ADD,
    "SUB": i_SUB,
    "DIV": i_DIV,
    "MUL": i_MUL,
    "MAG": i_MAG,
    "COPY": i_COPY,
    "INC": i_INC,
    "ZERO": i_ZERO,
    "CROSS": i_CROSS,
    "DOT": i_DOT,
    "MULP": i_MULP,
    "MOD": i_MOD,
    "FRAC": i_FRAC,
    "NEG": i_NEG,
    "DEC": i_DEC,
    "XCHANGEX": i_XCHANGEX,
    "IMUL": i_IMUL,
    "UNSCALE": i_UNSCALE,
    "INCX": i_INCX,
    "INCY": i_INCY,
    "INCZ": i_INCZ,
    "RETURN": i_RETURN,
    "SETX": i_SETX,
    "SETY": i_SETY,
    "SETZ": i_SETZ,
    "SWIZZLE3D": i_SWIZZLE3D,
    # UNIMPLEMENTED_IN_V1: run only with --complete-isa.
    "INTP": i_INTP,
    "XCHANGEY": i_XCHANGEY,
    "XCHANGEZ": i_XCHANGEZ,
    "RESCALE": i_RESCALE,
    **{mnemonic: compare_jump(mnemonic) for mnemonic in JUMP_TESTS},
})


def jump_taken(mnemonic: str, a: Row, b: Row) -> np.ndarray:
    """Per SIMT lane, whether the compare-jump ``mnemonic`` jumps: bool array of shape (n,)."""
    return SEMANTICS.function(mnemonic)(a, b)
