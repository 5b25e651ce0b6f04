"""fp16 helpers the generated fragment kernels call (:mod:`.fragment_codegen`), one float32 lane
at a time, giving bit for bit what NumPy gives.

:func:`f32_to_f16` is NumPy's ``astype(np.float16)`` (round to nearest even, overflow to
infinity, NaN keeps its sign and top payload bits, a payload that would vanish becomes 1), as
branch-free integer operations; :func:`f16_to_f32` the exact widening. Both were checked against
NumPy on every input when written (tests/isa/rsx/test_rsx_fragment_compiled.py keeps a large
sample). An H register is half of an R register's 32 bits: :func:`get_low` / :func:`get_high`
read one half, :func:`set_low` / :func:`set_high` write one (separate functions rather than a
``high`` argument: a literal argument makes Numba compile a variant per call site).

The packs and unpacks (:func:`quantised`, :func:`byte_word`, :func:`byte_of`) give what the
interpreter's ``semantics.i_PK4`` … ``i_UP16`` give, lane by lane.

The other helpers of the kernels (NumPy's minimum, maximum, fmax, clip, sign) are written inline
by the generator as selects (``fragment_codegen._Generator.helper``).
"""

from __future__ import annotations

import numpy as np

from shaderkit.core.jit import jit

F32 = np.float32
HALF = F32(0.5)


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
    """The fp16 bits (0..65535) NumPy's ``astype(np.float16)`` gives for the float32 ``x``.

    Branch-free (every case computed, one selected), so that kernels using it compile fast and
    vectorise. Checked against NumPy on all 2**32 inputs when written.
    """
    f = np.int64(np.float32(x).view(np.uint32))
    sign = (f >> 16) & 0x8000
    a = f & 0x7FFFFFFF
    # Normal halves: drop 13 mantissa bits, round to nearest even (a carry may reach infinity).
    normal = (a - 0x38000000) >> 13
    rest = a & 0x1FFF
    normal += 1 if (rest > 0x1000 or (rest == 0x1000 and (normal & 1) == 1)) else 0
    # Subnormal halves: adding 0.5 rounds |x| to a multiple of 2**-24, nearest even.
    subnormal = np.int64(np.float32(abs(x) + HALF).view(np.uint32)) - 0x3F000000
    payload = (a & 0x7FFFFF) >> 13
    nan = 0x7C00 | (payload if payload != 0 else 1)
    magnitude = nan if a > 0x7F800000 else (0x7C00 if a >= 0x47800000 else
                                            (normal if a >= 0x38800000 else subnormal))
    return sign | magnitude


@jit
def f16_to_f32(h):
    """The float32 value of the fp16 bits ``h`` (exact; NaN payloads kept, as NumPy does)."""
    sign = (h & 0x8000) << 16
    exponent = (h >> 10) & 0x1F
    mantissa = h & 0x3FF
    wide = sign | (0x7F800000 if exponent == 0x1F else (exponent + 112) << 23) | (mantissa << 13)
    small = np.float32(mantissa) * np.float32(2.0 ** -24)
    return (-small if sign else small) if exponent == 0 else from_bits(wide)


@jit
def set_low(word_float, value):
    """The float32 ``word_float`` with its low half replaced by the fp16 bits of ``value``."""
    return from_bits((bits(word_float) & 0xFFFF0000) | f32_to_f16(value))


@jit
def set_high(word_float, value):
    """The float32 ``word_float`` with its high half replaced by the fp16 bits of ``value``."""
    return from_bits((bits(word_float) & 0xFFFF) | (f32_to_f16(value) << 16))


@jit
def get_low(word_float):
    """The low fp16 half of the float32 ``word_float``'s bits, as float32."""
    return f16_to_f32(bits(word_float) & 0xFFFF)


@jit
def get_high(word_float):
    """The high fp16 half of the float32 ``word_float``'s bits, as float32."""
    return f16_to_f32((bits(word_float) >> 16) & 0xFFFF)


@jit
def quantised(x, low, high, scale):
    """``semantics._quantise`` of one float32: NaN as 0, clamped to [low, high], times ``scale``,
    rounded to the nearest integer (ties to even)."""
    value = np.float32(0.0) if x != x else x
    value = low if value < low else (high if value > high else value)
    return np.int64(np.rint(value * scale))


@jit
def byte_word(b0, b1, b2, b3):
    """The float32 whose bits are the low bytes of four integers, the first in the low byte."""
    return from_bits((b0 & 0xFF) | (b1 & 0xFF) << 8 | (b2 & 0xFF) << 16 | (b3 & 0xFF) << 24)


@jit
def byte_of(x, lane):
    """Byte ``lane`` (0 = the low one) of the float32 ``x``'s bits, 0..255."""
    return (bits(x) >> (8 * lane)) & 0xFF
