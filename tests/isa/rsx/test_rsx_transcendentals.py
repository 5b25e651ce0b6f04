"""SIN, COS, EX2 and LG2 (shaderkit.isa.rsx.transcendentals): accuracy against float64 libm,
IEEE special values, and the same bits from the interpreter's ufuncs and the kernels' inlined code."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.jit import jit
from shaderkit.isa.rsx import transcendentals as T

F32 = np.float32
REFERENCE = {"SIN": np.sin, "COS": np.cos, "EX2": np.exp2, "LG2": np.log2}
UFUNC = {"SIN": T.sin, "COS": T.cos, "EX2": T.exp2, "LG2": T.log2}
# SIN and COS reduce exactly below this (module doc); the accuracy claims are made there.
EXACT_REDUCTION = 8.4e8


def nearest(name: str, x: np.ndarray) -> np.ndarray:
    """The float32 nearest the true value, taken from float64 libm (good to 1 float64 ulp)."""
    with np.errstate(all="ignore"):
        return REFERENCE[name](x.astype(np.float64)).astype(F32)


def ulps_apart(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How many float32 steps lie between a and b (finite values of one sign, or both zero)."""
    def ordered(values):
        bits = values.view(np.int32).astype(np.int64)
        return np.where(bits < 0, -(bits & 0x7FFFFFFF), bits)
    return np.abs(ordered(a) - ordered(b))


def sample(name: str, rng: np.random.Generator) -> np.ndarray:
    """Inputs where each function is defined and accurate: dense near the interesting range,
    and float32 bit patterns spread over every exponent."""
    dense = {"SIN": (-40.0, 40.0), "COS": (-40.0, 40.0), "EX2": (-150.0, 128.0), "LG2": (0.0, 16.0)}[name]
    values = rng.uniform(*dense, 400_000).astype(F32)
    spread = rng.integers(0, 2 ** 32, 400_000, dtype=np.uint64).astype(np.uint32).view(F32)
    spread = spread[np.isfinite(spread)]
    if name in ("SIN", "COS"):
        spread = spread[np.abs(spread) < EXACT_REDUCTION]
    elif name == "LG2":
        spread = np.abs(spread)
    elif name == "EX2":
        spread = spread[np.abs(spread) < 200]
    return np.concatenate([values, spread])


@pytest.mark.parametrize("name", sorted(UFUNC))
def test_within_one_ulp_of_the_nearest_float32_and_almost_always_equal(name):
    x = sample(name, np.random.default_rng(15))
    with np.errstate(all="ignore"):
        ours = UFUNC[name](x)
    truth = nearest(name, x)
    finite = np.isfinite(truth) & (truth != 0)
    assert np.array_equal(np.isnan(ours), np.isnan(truth))
    assert np.all(ulps_apart(ours[finite], truth[finite]) <= 1)
    # Off by one only where the float64 value sits within ~1e-15 of a float32 midpoint.
    assert np.count_nonzero(ours[finite] != truth[finite]) <= len(x) // 100_000
    zero = truth == 0
    assert np.array_equal(ours[zero].view(np.uint32), truth[zero].view(np.uint32))


@settings(max_examples=400, deadline=None)
@given(st.floats(width=32, allow_nan=False, allow_infinity=False, min_value=-EXACT_REDUCTION,
                 max_value=EXACT_REDUCTION))
def test_sin_and_cos_stay_within_one_ulp_across_the_exact_range(value):
    x = np.array([value], F32)
    for name in ("SIN", "COS"):
        ours, truth = UFUNC[name](x), nearest(name, x)
        if truth[0] == 0:
            assert ours[0] == 0
        else:
            assert ulps_apart(ours, truth)[0] <= 1, (name, value)


def bits(values) -> list[int]:
    return [int(word) for word in np.asarray(values, F32).view(np.uint32)]


def test_special_values_are_ieee():
    nan, inf = float("nan"), float("inf")
    with np.errstate(all="ignore"):
        sin = T.sin(np.array([0.0, -0.0, inf, -inf, nan], F32))
        cos = T.cos(np.array([0.0, -0.0, inf, -inf, nan], F32))
        exp2 = T.exp2(np.array([0.0, -0.0, inf, -inf, nan, 128.0, -149.0, -150.0, -160.0, 3.0, -1.0], F32))
        log2 = T.log2(np.array([0.0, -0.0, inf, -inf, nan, -1.0, 1.0, 1.4e-45, 2.0 ** 100], F32))
    assert bits(sin[:2]) == bits([0.0, -0.0]) and np.isnan(sin[2:]).all()
    assert list(cos[:2]) == [1.0, 1.0] and np.isnan(cos[2:]).all()
    assert list(exp2[[0, 1, 2, 3]]) == [1.0, 1.0, inf, 0.0] and np.isnan(exp2[4])
    assert list(exp2[5:]) == [inf, 2.0 ** -149, 0.0, 0.0, 8.0, 0.5]
    assert list(log2[[0, 1, 2]]) == [-inf, -inf, inf] and np.isnan(log2[[3, 4, 5]]).all()
    assert list(log2[6:]) == [0.0, -149.0, 100.0]


def test_arguments_beyond_the_exact_range_stay_bounded():
    """Beyond 8.4e8 SIN/COS wrap in whole turns first (module doc): results stay in [-1, 1],
    and a float32 that is a whole number of float64 turns gives SIN 0, COS 1."""
    rng = np.random.default_rng(3)
    x = (rng.uniform(30.0, 127.0, 20_000) * rng.choice([-1.0, 1.0], 20_000))
    x = np.exp2(x).astype(F32)
    with np.errstate(all="ignore"):
        assert np.all(np.abs(T.sin(x)) <= 1) and np.all(np.abs(T.cos(x)) <= 1)
    huge = np.array([1e30, -3e38], F32)
    assert list(T.sin(huge)) == [0.0, 0.0] and list(T.cos(huge)) == [1.0, 1.0]


@jit
def _inlined(x, out_sin, out_cos, out_exp2, out_log2):
    """What a compiled fragment kernel does: the scalar functions inlined into a loop over lanes."""
    for i in range(x.shape[0]):
        out_sin[i] = T.sin32(x[i])
        out_cos[i] = T.cos32(x[i])
        out_exp2[i] = T.exp2_32(x[i])
        out_log2[i] = T.log2_32(x[i])


def test_kernels_and_the_interpreter_give_the_same_bits():
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.integers(0, 2 ** 32, 200_000, dtype=np.uint64).astype(np.uint32).view(F32),
                        rng.uniform(-50, 50, 100_001).astype(F32),
                        np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 128.0, -150.0], F32)])
    outputs = [np.empty_like(x) for _ in range(4)]
    _inlined(x, *outputs)
    with np.errstate(all="ignore"):
        for name, inlined in zip(("SIN", "COS", "EX2", "LG2"), outputs, strict=True):
            assert np.array_equal(UFUNC[name](x).view(np.uint32), inlined.view(np.uint32)), name


def test_the_polynomials_are_the_series_they_claim():
    assert T.SIN_TERMS[0] == -1 / 6 and T.COS_TERMS[0] == -1 / 2 and T.EXP_TERMS[:3] == (1.0, 1.0, 0.5)
    assert T.ATANH_TERMS[:2] == (2.0, 2 / 3)
    assert T.HALF_PI_1 + T.HALF_PI_2 + T.HALF_PI_3 == pytest.approx(math.pi / 2, rel=1e-16)
    # The first two parts hold 24 significant bits, so q * part is exact for q < 2^29.
    for part in (T.HALF_PI_1, T.HALF_PI_2):
        mantissa, _ = math.frexp(part)
        assert (mantissa * 2 ** 24).is_integer()


def test_a_nan_argument_keeps_its_payload():
    """EX2 and LG2 return the argument's NaN quietened; SIN and COS clear its sign (module doc)."""
    negative_nan = np.array([0xFFC12345], np.uint32).view(F32)
    with np.errstate(all="ignore"):
        assert bits(T.exp2(negative_nan)) == bits(T.log2(negative_nan)) == [0xFFC12345]
        assert bits(T.sin(negative_nan)) == bits(T.cos(negative_nan)) == [0x7FC12345]
