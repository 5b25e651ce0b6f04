"""THEIA V1 fixed-point arithmetic units, bit exact (``spec/theia.md`` §1 and §4).

This module owns the number format (32-bit two's-complement words with ``SCALE`` = 17
fraction bits) and the arithmetic units of the V1 ALU: the sign-splice adder, the
radix-4 sign-magnitude multiplier, the divider, the digit-by-digit square root and the
compare unit. Every unit reproduces the hardware's overflow behaviour, including the
deterministic wrong results, because the microcode's images depend on it.

All units are NumPy functions on ``uint32`` arrays of any shape (NumPy broadcasting
applies) and never loop over lanes in Python; the per-mnemonic row semantics built on
them live in :mod:`shaderkit.isa.theia.semantics`.
"""

from __future__ import annotations

import math

import numpy as np

SCALE = 17
ONE = 1 << SCALE

WORD_MASK = 0xFFFF_FFFF
SIGN_BIT = 0x8000_0000
LOW_31_BITS = 0x7FFF_FFFF
DIVIDE_BY_ZERO_MAGNITUDE = 0x0FFF_FFFF

# 3a fits the multiplier's 32-bit multiple register only up to this magnitude.
LARGEST_EXACT_MULTIPLICAND = 0x5555_5555
# Above this magnitude 3a also loses its bit 33 (3a >= 2^33).
LARGEST_3A_BELOW_2_33 = 0xAAAA_AAAA
# MAG's 32-bit square-root registers are exact for sums of squares below this.
EXACT_SQRT_LIMIT = 1 << 43
# Bit 0 of every base-4 digit of a 32-bit word.
DIGIT_LOW_BITS = 0x5555_5555

COMPARE_TESTS = ("G", "L", "EQ", "NE", "GE", "LE")


def to_fixed(value: float) -> int:
    """The 32-bit word (as an unsigned int) nearest to ``value``; ties round up.

    Raises ValueError when ``value`` is not finite or rounds outside the signed
    32-bit range (about −16384.0 … +16383.99999).
    """
    if not math.isfinite(value):
        raise ValueError(f"{value} has no fixed-point representation")
    scaled = value * ONE + 0.5
    # Compare before flooring: a value near the float maximum scales to infinity, and
    # math.floor(inf) would raise OverflowError instead of this function's ValueError.
    if not -(1 << 31) <= scaled < (1 << 31):
        raise ValueError(f"{value} is outside the fixed-point range")
    signed = math.floor(scaled)
    return signed & WORD_MASK


def from_fixed(word):
    """The real value of a fixed-point word: a float for an int, a float64 array for an array."""
    signed = np.asarray(word, dtype=np.uint32).view(np.int32)
    value = signed / ONE
    if np.ndim(word) == 0:
        return float(value)
    return value


def magnitude(word: np.ndarray) -> np.ndarray:
    """``|w|`` as a 32-bit word; ``|0x8000_0000|`` stays ``0x8000_0000`` (the hardware's view)."""
    word = np.asarray(word, dtype=np.uint32)
    negative_mask = (word.view(np.int32) >> 31).view(np.uint32)
    result = word ^ negative_mask
    result -= negative_mask
    return result


def signs_differ_mask(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """int32 −1 where bit 31 of ``a`` and ``b`` differ, else 0: the sign-magnitude result sign."""
    return (a ^ b).view(np.int32) >> 31


def splice(wide: np.ndarray) -> np.ndarray:
    """The adder's truncation T(): bit 63 of a 64-bit value becomes bit 31, bits 30..0 are kept.

    ``wide`` may be int64 or uint64 (the same bits either way); the result is uint32.
    """
    wide = np.asarray(wide)
    return (((wide >> 32) & SIGN_BIT) | (wide & LOW_31_BITS)).astype(np.uint32)


def add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """T(sx(a) + sx(b)): sum of two words with the true sign spliced onto the low 31 bits."""
    a = np.asarray(a, dtype=np.uint32)
    b = np.asarray(b, dtype=np.uint32)
    total = a + b
    # Computed in 32 bits (about 10x faster than widening): the wrapped sum already has
    # the right low 31 bits, and its bit 31 is wrong exactly when the signed sum
    # overflowed (equal operand signs, different result sign), so flip it then.
    overflowed = total ^ a
    overflowed &= ~(a ^ b)
    overflowed &= SIGN_BIT
    total ^= overflowed
    return total


def sub(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """T(sx(a) − sx(b)), computed in 32 bits like :func:`add`."""
    a = np.asarray(a, dtype=np.uint32)
    b = np.asarray(b, dtype=np.uint32)
    difference = a - b
    # Subtraction overflows when the operand signs differ and the result's differs from a's.
    overflowed = difference ^ a
    overflowed &= a ^ b
    overflowed &= SIGN_BIT
    difference ^= overflowed
    return difference


def multiply(a: np.ndarray, b: np.ndarray, scaled: bool = True) -> np.ndarray:
    """The radix-4 sign-magnitude multiplier m(a, b) (``scaled``) or mi(a, b); int64 result.

    The int64 holds the hardware's 64-bit result in two's complement. The partial-product
    multiples 2|a| and 3|a| are 32-bit registers, so for |a| > 0x5555_5555 the result is
    wrong in the hardware's deterministic way; only the first operand is affected.
    """
    a = np.asarray(a, dtype=np.uint32)
    b = np.asarray(b, dtype=np.uint32)
    magnitude_a = magnitude(a)
    magnitude_b = magnitude(b)
    # In-place steps below: on ~100k lanes fresh temporaries cost more than the arithmetic.
    product = np.multiply(magnitude_a, magnitude_b, dtype=np.uint64)
    oversized = magnitude_a > LARGEST_EXACT_MULTIPLICAND
    # Almost all operands are in range; skip the correction unless a lane needs it.
    if oversized.any():
        product -= truncated_multiples_loss(magnitude_a, magnitude_b, oversized).astype(np.uint64) << 32
    if scaled:
        product >>= SCALE
    negative_mask = signs_differ_mask(a, b).astype(np.int64).view(np.uint64)
    product ^= negative_mask
    product -= negative_mask
    return product.view(np.int64)


def truncated_multiples_loss(magnitude_a: np.ndarray, magnitude_b: np.ndarray, oversized: np.ndarray) -> np.ndarray:
    """What the 32-bit multiples 2a and 3a lose from the exact product, in units of 2^32.

    A base-4 digit i of b selects multiple m[digit] shifted by 2i. The multiple 3a loses
    carry(3a)·2^32, 2a loses carry(2a)·2^32, so the product loses
    2^32·(carry(3a)·D3 + carry(2a)·D2) with D3 (D2) = Σ 4^i over the digits equal to 3 (2).
    The sum is at most 2·0x5555_5555, so it fits the returned uint32.
    """
    carry_3a = oversized.astype(np.uint32) + (magnitude_a > LARGEST_3A_BELOW_2_33)
    carry_2a = magnitude_a >> 31
    digits_high_bits = magnitude_b >> 1
    digits_equal_3 = magnitude_b & digits_high_bits & DIGIT_LOW_BITS
    digits_equal_2 = digits_high_bits & ~magnitude_b & DIGIT_LOW_BITS
    return carry_3a * digits_equal_3 + carry_2a * digits_equal_2


def divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The fixed-point divider: sign-magnitude ``(|a| << 17) / |b|`` truncated (§4.4).

    The magnitude keeps only bits 30..0 before the sign is applied, so quotients of
    16384.0 or more wrap; ``|b| = 0`` gives magnitude 0x0FFF_FFFF.
    """
    a = np.asarray(a, dtype=np.uint32)
    b = np.asarray(b, dtype=np.uint32)
    magnitude_b = magnitude(b)
    numerator = magnitude(a).astype(np.uint64) << SCALE
    quotient = (numerator // np.maximum(magnitude_b, 1)).astype(np.uint32)
    quotient = np.where(magnitude_b == 0, np.uint32(DIVIDE_BY_ZERO_MAGNITUDE), quotient & LOW_31_BITS)
    negative_mask = signs_differ_mask(a, b).view(np.uint32)
    quotient ^= negative_mask
    quotient -= negative_mask
    return quotient


def magnitude_sqrt(wide: np.ndarray) -> np.ndarray:
    """The MAG square-root unit on a 64-bit sum of squares (int64 or uint64 bits), as uint32.

    The unit runs the digit-by-digit algorithm of §4.3 on ``x = (S << 17) mod 2^64``
    with 32-bit working registers. That equals ``isqrt(x)`` for S < 2^43 and is the
    hardware's garbage above, so the loop only runs when some lane needs it.
    """
    sums = np.asarray(wide).astype(np.uint64)
    radicand = sums << SCALE
    if (sums >= EXACT_SQRT_LIMIT).any():
        return digit_by_digit_sqrt(radicand)
    return integer_sqrt(radicand)


def integer_sqrt(radicand: np.ndarray) -> np.ndarray:
    """``isqrt`` of uint64 values below 2^60, as uint32, via float64 and an exact fix-up."""
    # The float root is within one of the truth (the radicand rounds to 53 bits);
    # exact 64-bit squares settle the floor either way.
    root = np.sqrt(radicand.astype(np.float64)).astype(np.uint64)
    root -= root * root > radicand
    next_root = root + 1
    root += next_root * next_root <= radicand
    return root.astype(np.uint32)


def digit_by_digit_sqrt(radicand: np.ndarray) -> np.ndarray:
    """The square-root loop of §4.3 over uint64 radicands with 32-bit registers, as uint32."""
    radicand_halves = ((radicand >> 32).astype(np.uint32), radicand.astype(np.uint32))
    result = np.zeros(radicand.shape, dtype=np.uint32)
    remainder = np.zeros_like(result)
    trial = np.zeros_like(result)
    # 32 steps of ~12 whole-array operations: write into these instead of allocating.
    accepted = np.empty_like(result)
    accepted_mask = np.empty_like(result)
    scratch = np.empty_like(result)
    # The hardware's first step (g = 32) reads radicand bits 65..64, which are zero:
    # trial becomes 1 > remainder 0 and drops back to 0, so every register stays zero.
    for g in range(31, -1, -1):
        half = radicand_halves[0] if g >= 16 else radicand_halves[1]
        np.right_shift(half, 2 * (g % 16), out=scratch)
        scratch &= 3
        remainder <<= 2
        remainder |= scratch
        trial <<= 1
        trial |= 1
        np.less_equal(trial, remainder, out=accepted)
        np.negative(accepted, out=accepted_mask)
        np.bitwise_and(accepted_mask, 1 << g, out=scratch)
        result |= scratch
        np.bitwise_and(trial, accepted_mask, out=scratch)
        remainder -= scratch
        # trial + 1 where accepted, trial − 1 elsewhere
        trial -= 1
        trial += accepted
        trial += accepted
    return result


def signed_greater(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """GT of the compare unit: two's-complement a > b."""
    return np.asarray(a, dtype=np.uint32).view(np.int32) > np.asarray(b, dtype=np.uint32).view(np.int32)


def magnitudes_equal(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """EQ of the compare unit: |a| == |b|, the sign is ignored (5 equals −5)."""
    return magnitude(a) == magnitude(b)


def compare(test: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The compare-jump condition ``test`` (G L EQ NE GE LE) per lane, as a bool array (§4.6).

    The unit converts to sign-magnitude, so L is NOT GT (equality included) and
    EQ compares magnitudes only, which makes −5 ≥ 5 and 5 ≤ −5 both true.
    """
    if test == "G":
        return signed_greater(a, b)
    if test == "L":
        return ~signed_greater(a, b)
    if test == "EQ":
        return magnitudes_equal(a, b)
    if test == "NE":
        return ~magnitudes_equal(a, b)
    if test == "GE":
        return signed_greater(a, b) | magnitudes_equal(a, b)
    if test == "LE":
        return ~signed_greater(a, b) | magnitudes_equal(a, b)
    raise ValueError(f"unknown compare test {test!r} (known: {', '.join(COMPARE_TESTS)})")
