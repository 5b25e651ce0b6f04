"""THEIA V1 fixed-point units for one lane, compiled with Numba (``spec/theia.md`` §4).

The same units as :mod:`.fixedpoint` (the reference, NumPy on whole arrays), written as
scalar functions the compiled SIMT core (:mod:`.compiled_core`) calls per lane. Every unit
is bit exact with its :mod:`.fixedpoint` twin, overflow behaviour included; the test suite
checks them against each other on random words and on the edge values.

Conventions, chosen so that Numba never mixes signed and unsigned integers (which it would
turn into floats): a 32-bit word travels as a ``uint64`` holding 0 … 2^32 − 1, and the
multiplier's 64-bit signed results travel as the ``uint64`` of their two's-complement bits,
so 64-bit sums wrap exactly as the hardware's adders do. Every constant is a ``uint64``.

How the units are compiled decides the kernels' first-compile time as much as their speed:
see :func:`unit` and :class:`shaderkit.core.jit.Subroutine`. Constants that callers pass as arguments (the
multiplier's ``scaled``, compare tests, lane numbers) are NumPy scalars, not Python literals:
Numba compiles a function once more for every literal argument value it is called with.
"""

from __future__ import annotations

import numba
import numpy as np

from ...core.jit import LeanPipeline
from . import fixedpoint

U64 = np.uint64

ZERO = U64(0)
ONE_BIT = U64(1)
ONE = U64(fixedpoint.ONE)
SCALE = U64(fixedpoint.SCALE)
WORD_MASK = U64(fixedpoint.WORD_MASK)
SIGN_BIT = U64(fixedpoint.SIGN_BIT)
LOW_31_BITS = U64(fixedpoint.LOW_31_BITS)
DIVIDE_BY_ZERO_MAGNITUDE = U64(fixedpoint.DIVIDE_BY_ZERO_MAGNITUDE)
LARGEST_EXACT_MULTIPLICAND = U64(fixedpoint.LARGEST_EXACT_MULTIPLICAND)
LARGEST_3A_BELOW_2_33 = U64(fixedpoint.LARGEST_3A_BELOW_2_33)
EXACT_SQRT_LIMIT = U64(fixedpoint.EXACT_SQRT_LIMIT)
DIGIT_LOW_BITS = U64(fixedpoint.DIGIT_LOW_BITS)
SHIFT_WORD = U64(32)
SHIFT_SIGN = U64(31)
DIGIT_MASK = U64(3)
TWO = U64(2)
SCALED = np.bool_(True)  # multiply's ``scaled`` for m(a, b)
# Numba options of functions only compiled code calls: no wrappers for calls from Python.
COMPILED_CALLERS_ONLY = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}

# The compare tests of §4.6, numbered as fixedpoint.COMPARE_TESTS lists them.
TEST_G, TEST_L, TEST_EQ, TEST_NE, TEST_GE, TEST_LE = (np.int64(code) for code in range(len(fixedpoint.COMPARE_TESTS)))
COMPARE_TEST_CODES = {test: np.int64(code) for code, test in enumerate(fixedpoint.COMPARE_TESTS)}
# The lanes of a row, X, Y and Z.
LANE_X, LANE_Y, LANE_Z = (np.int64(k) for k in range(3))


# The Numba options of every compiled function of the core.
CORE_OPTIONS = {"pipeline_class": LeanPipeline}


def unit(function):
    """``function`` compiled once as a unit: LLVM inlines it wherever compiled code calls it.

    A call costs more than most units and stops loops over lanes from vectorising, so every
    call is inlined — by LLVM (``forceinline``), not by Numba (``inline="always"``), which
    would type and lower the unit's body again at every call site: that made the kernels'
    first compile take seconds. Units are only called from compiled code, so they get no
    wrappers for calls from Python (which cost about as much to compile as a small unit).

    Nor are they cached on disk: a kernel's cache entry holds the code of every unit it calls,
    so a later process that loads the kernels never needs a unit, while saving each unit's own
    entry took about a tenth of the cold first compile.
    """
    return numba.njit(function, cache=False, forceinline=True, **COMPILED_CALLERS_ONLY, **CORE_OPTIONS)


@unit
def negative_mask(word):
    """All ones (64 bits) when bit 31 of ``word`` is set, else 0: selects without a branch."""
    return ZERO - ((word >> SHIFT_SIGN) & ONE_BIT)


@unit
def magnitude(word):
    """``|w|`` of a 32-bit word; ``|0x8000_0000|`` stays ``0x8000_0000``."""
    # Branch free: signs are data, and a mispredicted branch costs more than the arithmetic.
    mask = negative_mask(word)
    return ((word ^ mask) - mask) & WORD_MASK


@unit
def splice(wide):
    """The adder's T(): bit 63 of the 64-bit value becomes bit 31, bits 30..0 are kept."""
    return ((wide >> SHIFT_WORD) & SIGN_BIT) | (wide & LOW_31_BITS)


@unit
def add(a, b):
    """T(sx(a) + sx(b)), in 32 bits: flip bit 31 of the wrapped sum when the signed sum overflowed."""
    total = (a + b) & WORD_MASK
    return total ^ ((total ^ a) & ~(a ^ b) & SIGN_BIT)


@unit
def sub(a, b):
    """T(sx(a) − sx(b)), in 32 bits like :func:`add`."""
    difference = (a - b) & WORD_MASK
    return difference ^ ((difference ^ a) & (a ^ b) & SIGN_BIT)


@unit
def multiply(a, b, scaled):
    """The radix-4 sign-magnitude multiplier m(a, b) (``scaled``) or mi(a, b): 64-bit two's-complement bits.

    For |a| > 0x5555_5555 the 32-bit multiples 2|a| and 3|a| lose their carries; what that
    takes from the exact product is :func:`.fixedpoint.truncated_multiples_loss`.
    """
    magnitude_a = magnitude(a)
    magnitude_b = magnitude(b)
    # Branch free, so loops over lanes vectorise: both carries are 0 in the exact range.
    carry_3a = U64(magnitude_a > LARGEST_EXACT_MULTIPLICAND) + U64(magnitude_a > LARGEST_3A_BELOW_2_33)
    carry_2a = magnitude_a >> SHIFT_SIGN
    digits_high_bits = magnitude_b >> ONE_BIT
    digits_equal_3 = magnitude_b & digits_high_bits & DIGIT_LOW_BITS
    digits_equal_2 = digits_high_bits & ~magnitude_b & DIGIT_LOW_BITS
    product = magnitude_a * magnitude_b - ((carry_3a * digits_equal_3 + carry_2a * digits_equal_2) << SHIFT_WORD)
    if scaled:
        product >>= SCALE
    sign = negative_mask(a ^ b)
    return (product ^ sign) - sign


@unit
def divide(a, b):
    """Sign-magnitude ``(|a| << 17) / |b|`` truncated, bits 30..0 kept; ``|b| = 0`` gives 0x0FFF_FFFF (§4.4).

    The quotient is taken through float64 and settled exactly: the numerator (< 2^49) and
    divisor are exact doubles, so the float quotient is within one of the truth, and one
    integer multiply decides. Unlike an integer division this vectorises over lanes.
    """
    magnitude_b = magnitude(b)
    numerator = magnitude(a) << SCALE
    divisor = magnitude_b | U64(magnitude_b == ZERO)   # 1 in place of 0; that result is replaced below
    quotient = U64(np.float64(numerator) / np.float64(divisor))
    product = quotient * divisor
    quotient -= U64(product > numerator)
    quotient += U64(numerator - (quotient * divisor) >= divisor)
    quotient &= LOW_31_BITS
    if magnitude_b == ZERO:
        quotient = DIVIDE_BY_ZERO_MAGNITUDE
    sign = negative_mask(a ^ b)
    return ((quotient ^ sign) - sign) & WORD_MASK


@unit
def magnitude_sqrt(wide):
    """The MAG square-root unit on a 64-bit sum of squares (§4.3), as a 32-bit word.

    Below 2^43 the digit-by-digit loop equals ``isqrt(S << 17)``, taken from the float root
    and settled exactly; above, the loop runs with its 32-bit registers.
    """
    radicand = wide << SCALE
    if wide < EXACT_SQRT_LIMIT:
        root = U64(np.sqrt(np.float64(radicand)))
        if root * root > radicand:
            root -= ONE_BIT
        if (root + ONE_BIT) * (root + ONE_BIT) <= radicand:
            root += ONE_BIT
        return root
    result = ZERO
    remainder = ZERO
    trial = ZERO
    # The step for g = 32 reads radicand bits 65..64, which are zero, and leaves every
    # register zero (see fixedpoint.digit_by_digit_sqrt).
    for g in range(31, -1, -1):
        shift = U64(2 * g)
        remainder = ((remainder << TWO) | ((radicand >> shift) & DIGIT_MASK)) & WORD_MASK
        trial = ((trial << ONE_BIT) | ONE_BIT) & WORD_MASK
        if trial > remainder:
            trial = (trial - ONE_BIT) & WORD_MASK
        else:
            result |= ONE_BIT << U64(g)
            remainder = (remainder - trial) & WORD_MASK
            trial = (trial + ONE_BIT) & WORD_MASK
    return result


@unit
def signed_greater(a, b):
    """Two's-complement a > b of 32-bit words: flipping bit 31 maps signed order onto unsigned."""
    return (a ^ SIGN_BIT) > (b ^ SIGN_BIT)


@unit
def compare(test, a, b):
    """The compare-jump condition ``test`` (a ``TEST_*`` code) on two 32-bit words (§4.6).

    Without a branch on ``test``: in a loop over lanes a branch would be unswitched into one
    copy of the loop per test, which only makes the compile longer.
    """
    greater = signed_greater(a, b)
    equal = magnitude(a) == magnitude(b)
    return ((greater & ((test == TEST_G) | (test == TEST_GE)))
            | ((not greater) & ((test == TEST_L) | (test == TEST_LE)))
            | (equal & ((test == TEST_EQ) | (test == TEST_GE) | (test == TEST_LE)))
            | ((not equal) & (test == TEST_NE)))


@unit
def dot(a, b):
    """DOT's word from two rows (tuples of three words): T() of the 64-bit sum of the three
    64-bit products (§4.2)."""
    total = ZERO
    for k in range(3):
        total += multiply(a[k], b[k], SCALED)
    return splice(total)


@unit
def cross_difference(a_next, b_after, a_after, b_next):
    """One lane of CROSS: T() of the 64-bit difference of two 64-bit products (§4.2)."""
    return splice(multiply(a_next, b_after, SCALED) - multiply(a_after, b_next, SCALED))


@unit
def cross_lane(a, b, k):
    """Lane ``k`` of CROSS from two rows (tuples of three words): from the next two lanes."""
    following = (k + 1) % 3
    after = (k + 2) % 3
    return cross_difference(a[following], b[after], a[after], b[following])


@unit
def cross(a, b):
    """CROSS of two rows (tuples of three words): its three words."""
    return cross_lane(a, b, LANE_X), cross_lane(a, b, LANE_Y), cross_lane(a, b, LANE_Z)
