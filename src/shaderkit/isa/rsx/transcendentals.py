"""SIN, COS, EX2 and LG2 of the RSX emulators: one definition, the same bits everywhere.

Each function here takes one float32 and returns one float32, computed in float64 with nothing
but IEEE arithmetic, ``floor`` and bit views (no library call), and rounded once at the end.
The same scalar code is what the interpreter runs (:func:`ufunc` compiles it into a NumPy ufunc)
and what the compiled fragment kernels inline (:mod:`.fragment_codegen`), so the two paths agree
bit for bit, on every machine.

Why not NumPy's own ``np.sin`` and friends: their float32 loops are SIMD routines NumPy picks at
run time by CPU (AVX2 and AVX-512 give different last bits), and a Numba kernel calls libm,
which differs again on a few percent of inputs. A kernel could only match the interpreter by
handing these instructions back to NumPy between kernels, which cost a fixed 30–40 µs per tile.

Accuracy (``tests/isa/rsx/test_rsx_transcendentals.py`` measures it against float64 libm):

* the polynomials and reductions are good to a few float64 ulps, so a result is the float32
  nearest the true value except where that value lies within about 1e-15 (relative) of the
  midpoint between two float32s: at most 1 float32 ulp off, and measured equal to the
  correctly rounded result on all but a handful of millions of inputs;
* SIN and COS reduce the argument by pi/2 with a three-part constant (Cody–Waite), exact while
  the quadrant count stays below 2^29, that is for ``|x| < 8.4e8``; larger arguments are first
  wrapped into one turn with float64 ``x / 2pi``, whose rounding grows with ``|x|`` (beyond
  2^53·2pi every float32 is a whole number of turns, and SIN gives 0, COS 1). The hardware's
  behaviour there is unknown (``spec/rsx.md`` gives none); GLSL leaves it undefined too;
* special values are IEEE's: SIN/COS of ±inf and NaN are NaN, SIN keeps the sign of zero;
  EX2 overflows to +inf and underflows through the subnormals to +0, EX2(-inf) = 0;
  LG2(±0) = -inf, LG2 of a negative number is NaN, LG2(+inf) = +inf. A NaN argument gives a
  NaN: EX2 and LG2 return it quietened, SIN and COS with its sign cleared.
"""

from __future__ import annotations

import decimal
import functools
import math

import numpy as np

from shaderkit.core.jit import jit, ufunc

F32 = np.float32
F64 = np.float64

PI_DIGITS = "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899"


def _half_pi_parts() -> tuple[float, float, float]:
    """pi/2 in three parts. The first two hold 24 significant bits each, so q * part is exact
    for a quadrant count q below 2^29 and the first subtraction loses nothing (Sterbenz); the
    third is the rest of the true pi/2, taken from 80 digits (``math.pi / 2`` is itself 6e-17
    off, an error q would multiply)."""
    with decimal.localcontext() as context:
        context.prec = 80
        half_pi = decimal.Decimal(PI_DIGITS) / 2
        first = float(np.float32(float(half_pi)))
        second = float(np.float32(float(half_pi - decimal.Decimal(first))))
        return first, second, float(half_pi - decimal.Decimal(first) - decimal.Decimal(second))


HALF_PI_1, HALF_PI_2, HALF_PI_3 = _half_pi_parts()
TWO_OVER_PI = 2 / math.pi
INVERSE_TURN = 1 / (2 * math.pi)
TURN = 2 * math.pi
# Beyond this, q*HALF_PI_1 is no longer exact: wrap into one turn first.
WRAP_FROM = 2.0 ** 29 * HALF_PI_1
# Taylor coefficients of (sin r - r) / r^3 and (cos r - 1) / r^2 in z = r^2, (-1)^k / n!: on |r| <= pi/4
# the first term left out is below 1e-16 of the result.
SIN_TERMS = tuple((-1) ** k / math.factorial(2 * k + 1) for k in range(1, 8))
COS_TERMS = tuple((-1) ** k / math.factorial(2 * k) for k in range(1, 9))
# e^t = sum t^n / n! on |t| <= ln2/2, to n = 13.
EXP_TERMS = tuple(1 / math.factorial(n) for n in range(14))
LN2 = math.log(2)
INVERSE_LN2 = 1 / math.log(2)
# ln m = 2 atanh(s), s = (m-1)/(m+1), |s| <= 0.1716 for m in [sqrt(1/2), sqrt(2)]: 2 s^(2k+1)/(2k+1) to k = 11,
# as 2 atanh(s) / s in z = s^2.
ATANH_TERMS = tuple(2 / (2 * k + 1) for k in range(12))
SQRT2 = math.sqrt(2)
# EX2 beyond these is +inf / +0 in float32 whatever the fraction: clamping keeps 2^n a float64.
EXP2_LOW, EXP2_HIGH = -160.0, 130.0
MANTISSA_BITS = 0x000F_FFFF_FFFF_FFFF
ONE_EXPONENT = 0x3FF0_0000_0000_0000
EXPONENT_BIAS = 1023
NAN = math.nan
INFINITY = math.inf


@jit(inline="always")
def series(terms, z):
    """sum terms[k] * z^k by Horner's rule (a fixed order of operations, on both paths)."""
    total = terms[-1]
    for k in range(len(terms) - 2, -1, -1):
        total = terms[k] + z * total
    return total


@jit(inline="always")
def reduced(d):
    """(sin r, cos r, n) for |d| = n*pi/2 + r, |r| <= pi/4, n in 0..3 (a float): what SIN and
    COS pick from by quadrant."""
    a = abs(d)
    turns = a * INVERSE_TURN
    wrapped = (turns - np.floor(turns)) * TURN
    a = wrapped if a >= WRAP_FROM else a
    q = np.floor(a * TWO_OVER_PI + 0.5)
    r = ((a - q * HALF_PI_1) - q * HALF_PI_2) - q * HALF_PI_3
    z = r * r
    return r + r * z * series(SIN_TERMS, z), 1.0 + z * series(COS_TERMS, z), q - 4.0 * np.floor(q * 0.25)


@jit
def sin32(x):
    """SIN: sin(x) of a float32 (module doc for accuracy and special values)."""
    d = F64(x)
    sine, cosine, n = reduced(d)
    value = cosine if (n == 1.0) | (n == 3.0) else sine  # | not "or": no branch, so loops vectorise
    value = -value if n >= 2.0 else value
    value = -value if d < 0.0 else value
    return F32(d if d == 0.0 else value)


@jit
def cos32(x):
    """COS: cos(x) of a float32 (module doc for accuracy and special values)."""
    sine, cosine, n = reduced(F64(x))
    value = sine if (n == 1.0) | (n == 3.0) else cosine
    return F32(-value if (n == 1.0) | (n == 2.0) else value)


@jit
def exp2_32(x):
    """EX2: 2^x of a float32 (module doc for accuracy and special values)."""
    d = F64(x)
    clamped = EXP2_LOW if d < EXP2_LOW else (EXP2_HIGH if d > EXP2_HIGH else d)
    clamped = clamped if d == d else 0.0  # no NaN reaches the integer conversion
    n = np.floor(clamped + 0.5)
    power = (np.int64(n) + EXPONENT_BIAS) << 52
    value = series(EXP_TERMS, (clamped - n) * LN2) * np.int64(power).view(np.float64)
    return F32(value if d == d else d)


@jit
def log2_32(x):
    """LG2: log2(x) of a float32 (module doc for accuracy and special values)."""
    d = F64(x)
    word = np.float64(d).view(np.int64)
    exponent = F64(((word >> 52) & 0x7FF) - EXPONENT_BIAS)
    m = np.int64((word & MANTISSA_BITS) | ONE_EXPONENT).view(np.float64)  # in [1, 2)
    high = m > SQRT2
    m = m * 0.5 if high else m
    exponent = exponent + 1.0 if high else exponent
    s = (m - 1.0) / (m + 1.0)
    value = exponent + s * series(ATANH_TERMS, s * s) * INVERSE_LN2
    value = d if (d != d) | (d == INFINITY) else value
    value = NAN if d < 0.0 else value
    return F32(-INFINITY if d == 0.0 else value)


SCALAR = {"SIN": sin32, "COS": cos32, "EX2": exp2_32, "LG2": log2_32}


@functools.cache
def _ufunc(name: str):
    return ufunc(SCALAR[name].py_func, ["float32(float32)"])


def sin(x: np.ndarray) -> np.ndarray:
    """:func:`sin32` over a float32 array (the interpreter's SIN)."""
    return _ufunc("SIN")(x)


def cos(x: np.ndarray) -> np.ndarray:
    """:func:`cos32` over a float32 array (the interpreter's COS)."""
    return _ufunc("COS")(x)


def exp2(x: np.ndarray) -> np.ndarray:
    """:func:`exp2_32` over a float32 array (the interpreter's EX2)."""
    return _ufunc("EX2")(x)


def log2(x: np.ndarray) -> np.ndarray:
    """:func:`log2_32` over a float32 array (the interpreter's LG2)."""
    return _ufunc("LG2")(x)
