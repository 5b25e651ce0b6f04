"""Tests for shaderkit.isa.rsx.semantics: the per-mnemonic lane functions, checked against values
worked out by hand (pack bit layouts, special values, NV definitions) and round-trip properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.isa.rsx import semantics as sem

F32 = np.float32


def vec(*columns) -> np.ndarray:
    """(4, n) from n (x, y, z, w) tuples."""
    return np.array(columns, dtype=F32).T


def bits_of(row: np.ndarray) -> list[int]:
    return [int(b) for b in np.ascontiguousarray(row[0], dtype=F32).view(np.uint32)]


def from_bits(*words: int) -> np.ndarray:
    return np.array(words, dtype=np.uint32).view(F32)[np.newaxis]


def full(value) -> np.ndarray:
    return np.broadcast_to(value, (4, np.shape(value)[-1]))


# --- arithmetic ---------------------------------------------------------------------------------

def test_dot_products_replicate_one_row():
    a = vec((1, 2, 3, 4), (-1, 0.5, 2, 0))
    b = vec((5, 6, 7, 8), (2, 2, 2, 2))
    np.testing.assert_array_equal(sem.i_DP2(a, b), [[17, -1]])
    np.testing.assert_array_equal(sem.i_DP3(a, b), [[38, 3]])
    np.testing.assert_array_equal(sem.i_DP4(a, b), [[70, 3]])
    np.testing.assert_array_equal(sem.i_DPH(a, b), [[46, 5]])
    np.testing.assert_array_equal(sem.i_DP2A(a, b, vec((10, 0, 0, 0), (1, 0, 0, 0))), [[27, 0]])


def test_mad_is_not_fused():
    # (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 rounds to 1 + 2^-22 before the add; a fused
    # multiply-add would keep the 2^-46.
    a = vec((1 + 2 ** -23, 0, 0, 0))
    assert sem.i_MAD(a, a, vec((-(1 + 2 ** -22), 0, 0, 0)))[0, 0] == 0.0


def test_dst_lrp_frc_flr_ssg():
    a, b = vec((9, 2, 3, 4)), vec((8, 5, 6, 7))
    np.testing.assert_array_equal(full(sem.i_DST(a, b)), vec((1, 10, 3, 7)))
    np.testing.assert_array_equal(sem.i_LRP(vec((0.25, 0, 1, 0.5)), vec((4, 4, 4, 4)), vec((8, 8, 8, 8))),
                                  vec((7, 8, 4, 6)))
    np.testing.assert_array_equal(sem.i_FRC(vec((1.25, -1.25, 3, -0.5))), vec((0.25, 0.75, 0, 0.5)))
    np.testing.assert_array_equal(sem.i_FLR(vec((1.25, -1.25, 3, -0.5))), vec((1, -2, 3, -1)))
    np.testing.assert_array_equal(sem.i_SSG(vec((2, -3, 0, 1))), vec((1, -1, 0, 1)))
    assert not np.signbit(sem.i_SSG(vec((-0.0, 0, 0, 0)))[0, 0])


def test_set_on_compare_ops_give_one_or_zero_and_nan_is_unequal():
    a = vec((1, 2, 3, np.nan))
    b = vec((2, 2, 2, 2))
    np.testing.assert_array_equal(sem.i_SLT(a, b), vec((1, 0, 0, 0)))
    np.testing.assert_array_equal(sem.i_SGE(a, b), vec((0, 1, 1, 0)))
    np.testing.assert_array_equal(sem.i_SLE(a, b), vec((1, 1, 0, 0)))
    np.testing.assert_array_equal(sem.i_SGT(a, b), vec((0, 0, 1, 0)))
    np.testing.assert_array_equal(sem.i_SNE(a, b), vec((1, 0, 1, 1)))
    np.testing.assert_array_equal(sem.i_SEQ(a, b), vec((0, 1, 0, 0)))
    assert sem.i_SFL().tolist() == [[0.0]] and sem.i_STR().tolist() == [[1.0]]


def test_nrm_normalises_xyz_and_guards_zero_length():
    result = full(sem.i_NRM(vec((3, 0, 4, 9), (0, 0, 0, 5))))
    np.testing.assert_allclose(result[:, 0], [0.6, 0, 0.8, 1], rtol=1e-7)
    np.testing.assert_array_equal(result[:, 1], [0, 0, 0, 1])


def test_refl_is_glsl_reflect():
    incident, normal = vec((1, -1, 0, 0)), vec((0, 1, 0, 0))
    np.testing.assert_array_equal(sem.i_REFL(incident, normal), vec((1, 1, 0, 0)))


def test_div_and_divsq_special_values():
    a = vec((6, 0, -3, 0))
    np.testing.assert_array_equal(sem.i_DIV(a, np.array([[2]], F32)), vec((3, 0, -1.5, 0)))
    np.testing.assert_array_equal(sem.i_DIVSQ(a, np.array([[4]], F32)), vec((3, 0, -1.5, 0)))
    # A zero numerator gives 0 even over 0 (IEEE would give NaN).
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(sem.i_DIVSQ(a, np.array([[0]], F32)), vec((np.inf, 0, -np.inf, 0)))


# --- scalar ops ---------------------------------------------------------------------------------

def test_scalar_special_values():
    with np.errstate(all="ignore"):
        x = np.array([[0.0, -0.0, 4.0, -4.0]], F32)
        assert sem.i_RCP(x).tolist() == [[np.inf, -np.inf, 0.25, -0.25]]
        assert sem.i_RSQ(x).tolist() == [[np.inf, np.inf, 0.5, 0.5]]  # RSQ ignores the sign
        assert sem.i_EX2(np.array([[3.0, -1.0]], F32)).tolist() == [[8.0, 0.5]]
        assert sem.i_LG2(np.array([[8.0, 0.0]], F32)).tolist() == [[3.0, -np.inf]]
        assert np.isnan(sem.i_LG2(np.array([[-1.0]], F32))).all()
        np.testing.assert_allclose(sem.i_SIN(np.array([[np.pi / 2]], F32)), [[1.0]], atol=1e-7)
        np.testing.assert_allclose(sem.i_COS(np.array([[np.pi]], F32)), [[-1.0]], atol=1e-7)


def test_rcc_clamps_the_reciprocal_magnitude_and_keeps_the_sign():
    with np.errstate(all="ignore"):
        result = sem.i_RCC(np.array([[0.0, -1e30, 4.0, -0.0]], F32))
    assert result[0, 0] == sem.RCC_LARGEST
    assert result[0, 1] == -sem.RCC_SMALLEST
    assert result[0, 2] == 0.25
    assert result[0, 3] == -sem.RCC_LARGEST


def test_exp_and_log_partial_precision_components():
    # 2^x and log2 are the float32 nearest the true value (transcendentals), here float64's rounded
    np.testing.assert_array_equal(sem.i_EXP(np.array([[2.5]], F32)), [[4], [0.5], [F32(2.0 ** 2.5)], [1]])
    np.testing.assert_array_equal(sem.i_LOG(np.array([[-12.0]], F32)), [[3], [1.5], [F32(np.log2(12.0))], [1]])
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(sem.i_LOG(np.array([[0.0]], F32)), [[-np.inf], [1], [-np.inf], [1]])


def test_lit_and_lif():
    # NV LIT: (1, max(x, 0), x > 0 ? max(y, 0)^w : 0, 1).
    np.testing.assert_allclose(full(sem.i_LIT(vec((0.5, 0.25, 0, 2), (-1, 0.5, 0, 2)))),
                               vec((1, 0.5, 0.0625, 1), (1, 0, 0, 1)))
    # The power is clamped to (-128, 128).
    assert full(sem.i_LIT(vec((1, 2, 0, 1000))))[2, 0] == np.float32(2.0) ** sem.LIT_POWER_LIMIT
    # LIF: (1, y, y > 0 ? 2^w : 0, 1).
    np.testing.assert_array_equal(full(sem.i_LIF(vec((7, 0.5, 7, 3), (7, -0.5, 7, 3)))),
                                  vec((1, 0.5, 8, 1), (1, -0.5, 0, 1)))


# --- pack / unpack ------------------------------------------------------------------------------

def test_pack_bit_layouts_follow_glsl():
    assert bits_of(sem.i_PK2(vec((1.0, -2.0, 7, 7)))) == [0xC0003C00]
    # 0.5 * 255 = 127.5 and 0.2 * 255 = 51; ties round to even (128).
    assert bits_of(sem.i_PKB(vec((1.0, 0.0, 0.5, 0.2)))) == [0x338000FF]
    # Clamped to [0, 1] first.
    assert bits_of(sem.i_PKB(vec((2.0, -1.0, np.nan, 1.0)))) == [0xFF0000FF]
    assert bits_of(sem.i_PK4(vec((-1.0, 1.0, 0.5, 0.0)))) == [0x00407F81]
    assert bits_of(sem.i_PK16(vec((1.0, 0.5, 7, 7)))) == [0x8000FFFF]
    # sRGB: linear 0.5 encodes to 0.7354 (188/255); alpha stays linear.
    assert bits_of(sem.i_PKG(vec((1.0, 0.0, 0.5, 0.5)))) == [0x80BC00FF]


def test_unpack_reads_the_bits_of_x():
    np.testing.assert_array_equal(sem.i_UP2(from_bits(0xC0003C00)), [[1], [-2], [1], [-2]])
    np.testing.assert_array_equal(sem.i_UPB(from_bits(0x338000FF)) * 255, [[255], [0], [128], [51]])
    np.testing.assert_array_equal(sem.i_UP4(from_bits(0x80407F81)) * 127, [[-127], [127], [64], [-127]])
    np.testing.assert_array_equal(sem.i_UP16(from_bits(0x8000FFFF)) * 65535, [[65535], [32768]] * 2)
    np.testing.assert_allclose(sem.i_UPG(from_bits(0x80BC00FF)), [[1], [0], [0.5029], [128 / 255]],
                               atol=1e-4)


unit_floats = st.floats(min_value=0.0, max_value=1.0, width=32)
signed_floats = st.floats(min_value=-1.0, max_value=1.0, width=32)


@settings(max_examples=60, deadline=None)
@given(st.lists(unit_floats, min_size=4, max_size=4), st.lists(signed_floats, min_size=4, max_size=4))
def test_pack_unpack_round_trips_within_one_step(unit, signed):
    unit_vector, signed_vector = vec(unit), vec(signed)
    np.testing.assert_allclose(sem.i_UPB(sem.i_PKB(unit_vector)), unit_vector, atol=0.5 / 255 + 1e-7)
    np.testing.assert_allclose(sem.i_UP4(sem.i_PK4(signed_vector)), signed_vector, atol=0.5 / 127 + 1e-7)
    np.testing.assert_allclose(sem.i_UP16(sem.i_PK16(unit_vector))[:2], unit_vector[:2],
                               atol=0.5 / 65535 + 1e-7)
    np.testing.assert_allclose(sem.i_UPG(sem.i_PKG(unit_vector)), unit_vector, atol=0.02)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(width=32, allow_nan=False), min_size=2, max_size=2))
def test_pack_half_round_trip_is_fp16_rounding(pair):
    value = vec((pair[0], pair[1], 0, 0))
    with np.errstate(over="ignore"):
        expected = value[:2].astype(np.float16).astype(F32)
        np.testing.assert_array_equal(sem.i_UP2(sem.i_PK2(value))[:2], expected)


# --- derivatives --------------------------------------------------------------------------------

def ramp(height: int, width: int, function) -> np.ndarray:
    y, x = np.mgrid[0:height, 0:width].astype(F32)
    return np.stack([function(x, y).ravel()] * 4)


def test_derivatives_of_a_linear_ramp_are_its_slopes():
    lanes = ramp(4, 6, lambda x, y: 3 * x + 5 * y + 1)
    np.testing.assert_array_equal(sem.i_DDX(lanes, (4, 6)), np.full((4, 24), 3, F32))
    np.testing.assert_array_equal(sem.i_DDY(lanes, (4, 6)), np.full((4, 24), 5, F32))


def test_derivatives_are_per_quad_fine_differences():
    lanes = ramp(2, 4, lambda x, y: x * x + 10 * y * x)
    # Quad columns (0, 1) and (2, 3): each row uses its own difference.
    expected_x = np.array([[1, 1, 5, 5], [11, 11, 15, 15]], F32).ravel()
    np.testing.assert_array_equal(sem.i_DDX(lanes, (2, 4))[0], expected_x)
    expected_y = np.array([[0, 10, 20, 30], [0, 10, 20, 30]], F32).ravel()
    np.testing.assert_array_equal(sem.i_DDY(lanes, (2, 4))[0], expected_y)


def test_derivative_of_an_odd_width_pairs_the_last_column_with_the_one_before():
    lanes = ramp(1, 3, lambda x, y: x * x)
    np.testing.assert_array_equal(sem.i_DDX(lanes, (1, 3))[0], [1, 1, 3])


# --- output modifiers and condition codes ------------------------------------------------------

def test_saturate_flushes_nan_to_zero():
    np.testing.assert_array_equal(sem.saturate(vec((np.nan, -1, 2, 0.5))), vec((0, 0, 1, 0.5)))


def test_precision_functions():
    values = vec((1e5, 1 / 3, -1e6, 3.0))
    np.testing.assert_array_equal(sem.round_to_half(values),
                                  vec((65504, np.float16(1 / 3), -65504, 3)))
    np.testing.assert_array_equal(sem.clamp_fixed12(vec((3, -3, 1.5, 2))),
                                  vec((2 - 2 ** -10, -2, 1.5, 2 - 2 ** -10)))
    np.testing.assert_array_equal(sem.clamp_fixed9(vec((3, -3, 0.5, 1))), vec((1, -1, 0.5, 1)))


def test_condition_tests_compare_with_zero():
    cc = np.array([-1, 0, 1, np.nan], F32)
    expected = {1: [1, 0, 0, 0], 2: [0, 1, 0, 0], 3: [1, 1, 0, 0], 4: [0, 0, 1, 0],
                5: [1, 0, 1, 1], 6: [0, 1, 1, 0]}
    for test, flags in expected.items():
        assert sem.condition_passes(cc, test).tolist() == [bool(flag) for flag in flags], test


@pytest.mark.parametrize("mask", [None, np.array([True, False, True])])
def test_store_writes_only_masked_lanes(mask):
    target = np.zeros(3, F32)
    sem.store(target, np.array([1, 2, 3], F32), mask)
    assert target.tolist() == ([1, 2, 3] if mask is None else [1, 0, 3])
