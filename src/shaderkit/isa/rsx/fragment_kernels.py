"""Scalar helpers the generated fragment kernels call (:mod:`.fragment_codegen`), one float32 lane
at a time, each giving bit for bit what the NumPy expression of :mod:`.semantics` gives on long
arrays.

* fp16: :func:`f32_to_f16` is NumPy's ``astype(np.float16)`` (round to nearest even, overflow to
  infinity, NaN keeps its sign and top payload bits, a payload that would vanish becomes 1), as
  integer operations; :func:`f16_to_f32` the exact widening. Both are checked against NumPy.
* ``minimum``/``maximum``/``fmax`` follow NumPy's SIMD loops, which the interpreter runs on any
  array of more than a few lanes: on a tie (``-0`` against ``+0``) the second operand wins, a NaN
  first operand wins (``minimum``/``maximum``) or loses (``fmax``). NumPy's scalar loop, used for
  arrays of a handful of lanes, answers ties the other way; the compiled path is never used on
  so few lanes.
* ``clip`` is ``np.clip``: NaN passes through unchanged.
"""

from __future__ import annotations

import numpy as np

from shaderkit.core.jit import jit

F32 = np.float32
ZERO = F32(0.0)
ONE = F32(1.0)
HALF_MAX = F32(65504.0)
FIXED12_MIN = F32(-2.0)
FIXED12_MAX = F32(2.0 - 2.0 ** -10)
RCC_SMALLEST = F32(5.42101e-20)
RCC_LARGEST = F32(1.884467e19)


@jit
def bits(x):
    """The uint32 bits of a float32."""
    return np.int64(np.float32(x).view(np.uint32))


@jit
def from_bits(word):
    """The float32 with the given 32 bits."""
    return np.uint32(word & 0xFFFFFFFF).view(np.float32)


@jit
def f32_to_f16(x):
    """The fp16 bits (0..65535) NumPy's ``astype(np.float16)`` gives for the float32 ``x``."""
    f = np.int64(np.float32(x).view(np.uint32))
    sign = (f >> 16) & 0x8000
    exponent = (f >> 23) & 0xFF
    mantissa = f & 0x7FFFFF
    if exponent == 0xFF:
        if mantissa == 0:
            return sign | 0x7C00
        payload = mantissa >> 13
        return sign | 0x7C00 | (payload if payload != 0 else 1)
    unbiased = exponent - 127
    if unbiased > 15:
        return sign | 0x7C00
    if unbiased >= -14:
        # Normal half: keep 10 mantissa bits, round the 13 dropped ones to nearest even.
        half = ((unbiased + 15) << 10) | (mantissa >> 13)
        rest = mantissa & 0x1FFF
        if rest > 0x1000 or (rest == 0x1000 and (half & 1) == 1):
            half += 1  # may carry into the exponent, up to infinity
        return sign | half
    if unbiased < -25:
        return sign
    # Subnormal half: the significand with its hidden bit, shifted right by 14 - 1 - unbiased.
    significand = mantissa | 0x800000
    shift = -unbiased - 1  # 14 .. 24
    half = significand >> shift
    rest = significand & ((1 << shift) - 1)
    halfway = 1 << (shift - 1)
    if rest > halfway or (rest == halfway and (half & 1) == 1):
        half += 1
    return sign | half


@jit
def f16_to_f32(h):
    """The float32 value of the fp16 bits ``h`` (exact; NaN payloads kept, as NumPy does)."""
    sign = (h & 0x8000) << 16
    exponent = (h >> 10) & 0x1F
    mantissa = h & 0x3FF
    if exponent == 0x1F:
        return from_bits(sign | 0x7F800000 | (mantissa << 13))
    if exponent == 0:
        if mantissa == 0:
            return from_bits(sign)
        value = np.float32(mantissa) * np.float32(2.0 ** -24)
        return -value if sign else value
    return from_bits(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13))


@jit
def minimum(a, b):
    """``np.minimum`` of two float32 lanes."""
    return a if (a < b or a != a) else b


@jit
def maximum(a, b):
    """``np.maximum`` of two float32 lanes."""
    return a if (a > b or a != a) else b


@jit
def fmax(a, b):
    """``np.fmax`` of two float32 lanes: a NaN loses."""
    return a if (a > b or b != b) else b


@jit
def clip(x, low, high):
    """``np.clip(x, low, high)`` for constant bounds with low < high."""
    if x != x:
        return x
    x = x if x > low else low
    return x if x < high else high


@jit
def saturate(x):
    """Clamp to [0, 1]; NaN becomes 0 (semantics.saturate)."""
    return minimum(fmax(x, ZERO), ONE)


@jit
def round_to_half(x):
    """semantics.round_to_half: clamp to ±65504, round to fp16, back to float32."""
    return f16_to_f32(f32_to_f16(clip(x, -HALF_MAX, HALF_MAX)))


@jit
def clamp_fixed12(x):
    return clip(x, FIXED12_MIN, FIXED12_MAX)


@jit
def clamp_fixed9(x):
    return clip(x, F32(-1.0), ONE)


@jit
def sign(x):
    """``np.sign``: NaN stays itself, zeros give +0."""
    if x > ZERO:
        return ONE
    if x < ZERO:
        return F32(-1.0)
    if x == ZERO:
        return ZERO
    return x


@jit
def rcc(x):
    """semantics.i_RCC for one lane."""
    reciprocal = ONE / x
    return np.copysign(clip(abs(reciprocal), RCC_SMALLEST, RCC_LARGEST), reciprocal)


@jit
def set_half(word_float, high, value):
    """The float32 ``word_float`` with its low (``high`` = 0) or high half replaced by the fp16
    bits of the float32 ``value``."""
    word = bits(word_float)
    half = f32_to_f16(value)
    if high:
        return from_bits((word & 0xFFFF) | (half << 16))
    return from_bits((word & 0xFFFF0000) | half)


@jit
def get_half(word_float, high):
    """The fp16 half (0 low, 1 high) of the float32 ``word_float``'s bits, as float32."""
    word = bits(word_float)
    return f16_to_f32((word >> 16) & 0xFFFF if high else word & 0xFFFF)
