"""Tests for shaderkit.isa.theia.fixedpoint and .semantics: the golden RTL vectors,
the rules of spec/theia.md §4, and literal scalar references of the arithmetic units."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from shaderkit.isa.theia import fixedpoint
from shaderkit.isa.theia.fixedpoint import (
    compare,
    divide,
    from_fixed,
    magnitude_sqrt,
    multiply,
    splice,
    to_fixed,
)
from shaderkit.isa.theia.semantics import (
    JUMP_TESTS,
    SEMANTICS,
    UNIMPLEMENTED_IN_V1,
    jump_taken,
)
from conftest import golden_dir

GOLDEN = golden_dir("theia", "alu")

# Every mnemonic whose function computes a row (V1's and the complete ISA's).
ROW_MNEMONICS = sorted(set(SEMANTICS.functions()) - set(JUMP_TESTS))
# RETURN writes nothing storable, so the vectors leave it out; every other V1 operation
# and every compare-jump has a file.
GOLDEN_MNEMONICS = sorted(set(ROW_MNEMONICS) - UNIMPLEMENTED_IN_V1 - {"RETURN"}) + sorted(JUMP_TESTS)

WORD = 0xFFFF_FFFF
WIDE = 0xFFFF_FFFF_FFFF_FFFF

words = st.integers(0, WORD)
exact_multiplicands = st.integers(-0x5555_5555, 0x5555_5555).map(lambda value: value & WORD)
word_pairs = st.lists(st.tuples(words, words), min_size=1, max_size=64)


def lanes(values) -> np.ndarray:
    return np.array(values, dtype=np.uint32)


def fixed_row(*values: float) -> np.ndarray:
    """A (3, 1) row from three real values."""
    return lanes([[to_fixed(value)] for value in values])


def hex_row(row: np.ndarray) -> str:
    return " ".join(f"{int(word):08x}" for word in row)


# --- scalar references, written as literally as spec/theia.md §4 states them ----------------


def reference_magnitude(word: int) -> int:
    return (-word) & WORD if word >> 31 else word


def reference_splice(wide: int) -> int:
    """T() of a signed 64-bit value."""
    return (0x8000_0000 if wide < 0 else 0) | (wide & 0x7FFF_FFFF)


def sign_extend(word: int) -> int:
    return word - (1 << 32) if word >> 31 else word


def reference_multiply(a: int, b: int, scaled: bool = True) -> int:
    """The radix-4 multiplier digit by digit; the 64-bit result as an unsigned int."""
    magnitude_a, magnitude_b = reference_magnitude(a), reference_magnitude(b)
    multiples = (0, magnitude_a, (2 * magnitude_a) & WORD, (3 * magnitude_a) & WORD)
    product = 0
    for digit_index in range(16):
        digit = (magnitude_b >> (2 * digit_index)) & 3
        product = (product + (multiples[digit] << (2 * digit_index))) & WIDE
    if scaled:
        product >>= 17
    if (a ^ b) >> 31:
        product = (-product) & WIDE
    return product


def reference_divide(a: int, b: int) -> int:
    magnitude_a, magnitude_b = reference_magnitude(a), reference_magnitude(b)
    quotient = 0x0FFF_FFFF if magnitude_b == 0 else ((magnitude_a << 17) // magnitude_b) & WORD
    quotient &= 0x7FFF_FFFF
    return (-quotient) & WORD if (a ^ b) >> 31 else quotient


def reference_magnitude_sqrt(wide: int) -> int:
    """All 33 steps of the square-root loop with 32-bit registers."""
    radicand = (wide << 17) & WIDE
    result = total = difference = 0
    for g in range(32, -1, -1):
        total = (2 * total + 1) & WORD
        difference = (4 * difference + ((radicand >> (2 * g)) & 3)) & WORD
        if total > difference:
            total = (total - 1) & WORD
        else:
            result += 1 << g
            difference = (difference - total) & WORD
            total = (total + 1) & WORD
    return result & WORD


def reference_compare(test: str, a: int, b: int) -> bool:
    greater = sign_extend(a) > sign_extend(b)
    equal = reference_magnitude(a) == reference_magnitude(b)
    return {
        "G": greater,
        "L": not greater,
        "EQ": equal,
        "NE": not equal,
        "GE": greater or equal,
        "LE": not greater or equal,
    }[test]


# --- golden vectors from the RTL ----------------------------------------------------------


def test_golden_directory_holds_exactly_the_43_covered_operations():
    assert GOLDEN.is_dir(), f"golden ALU vectors missing at {GOLDEN}"
    assert len(GOLDEN_MNEMONICS) == 43
    assert sorted(path.stem for path in GOLDEN.glob("*.tsv")) == sorted(GOLDEN_MNEMONICS)


def load_vectors(path: Path):
    """The file's lines and its operands/results as (3, lines) rows, one lane per line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines, f"{path.name} has no vectors"
    columns = []
    for number, line in enumerate(lines, start=1):
        mnemonic, *triples = line.split("\t")
        assert mnemonic == path.stem, f"{path.name}:{number}: mnemonic {mnemonic}"
        columns.append([[int(word, 16) for word in triple.split()] for triple in triples])
    a, b, expected = np.array(columns, dtype=np.uint32).transpose(1, 2, 0)
    return lines, a, b, expected


def execute(mnemonic: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if mnemonic in JUMP_TESTS:
        taken = jump_taken(mnemonic, a, b).astype(np.uint32)
        return np.stack((taken, np.zeros_like(taken), np.zeros_like(taken)))
    return SEMANTICS.function(mnemonic)(a, b)


@pytest.mark.parametrize("mnemonic", GOLDEN_MNEMONICS)
def test_golden_vectors(mnemonic):
    path = GOLDEN / f"{mnemonic}.tsv"
    lines, a, b, expected = load_vectors(path)
    result = execute(mnemonic, a, b)
    assert result.shape == expected.shape and result.dtype == np.uint32
    mismatches = np.flatnonzero((result != expected).any(axis=0))
    if mismatches.size:
        first = mismatches[0]
        pytest.fail(
            f"{path.name}:{first + 1}: {len(mismatches)} of {len(lines)} vectors differ; first:\n"
            f"  {lines[first]}\n"
            f"  got r = {hex_row(result[:, first])}"
        )


# --- number format ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "word"),
    [
        (1.0, 0x0002_0000),
        (0.5, 0x0001_0000),
        (-1.0, 0xFFFE_0000),
        (250.0, 0x01F4_0000),
        (256.0, 0x0200_0000),
        (-16384.0, 0x8000_0000),
        (2.0**-18, 0x0000_0001),  # a tie rounds up
        (-(2.0**-18), 0x0000_0000),
    ],
)
def test_to_fixed_examples(value, word):
    assert to_fixed(value) == word


@pytest.mark.parametrize("value", [16384.0, -16384.0 - 2.0**-16, math.nan, math.inf, -math.inf])
def test_to_fixed_rejects_unrepresentable_values(value):
    with pytest.raises(ValueError):
        to_fixed(value)


@given(words)
def test_from_fixed_then_to_fixed_returns_the_word(word):
    value = from_fixed(word)
    assert isinstance(value, float)
    assert to_fixed(value) == word


@given(st.floats(-16384.0, 16383.99999, allow_nan=False))
def test_to_fixed_is_within_half_a_step(value):
    assert abs(from_fixed(to_fixed(value)) - value) <= 2.0**-18


@given(st.lists(words, min_size=1, max_size=64))
def test_from_fixed_on_arrays_matches_scalars(values):
    result = from_fixed(lanes(values))
    assert result.dtype == np.float64
    assert result.tolist() == [from_fixed(value) for value in values]


# --- adder family (§4.1) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "total"),
    [
        (0x7FFF_FFFF, 0x0000_0001, 0x0000_0000),
        (0x8000_0000, 0xFFFF_FFFF, 0xFFFF_FFFF),
        (0x0002_0000, 0xFFFE_0000, 0x0000_0000),
    ],
)
def test_add_splices_the_true_sign(a, b, total):
    assert fixedpoint.add(lanes([a]), lanes([b])).tolist() == [total]


@pytest.mark.parametrize(
    ("a", "b", "difference"),
    [
        (0x0000_0000, 0x8000_0000, 0x0000_0000),  # +2^31: sign 0, low bits 0
        (0x8000_0000, 0x0000_0001, 0xFFFF_FFFF),
        (0x0002_0000, 0x0004_0000, 0xFFFE_0000),
    ],
)
def test_sub_splices_the_true_sign(a, b, difference):
    assert fixedpoint.sub(lanes([a]), lanes([b])).tolist() == [difference]


@given(word_pairs)
def test_add_and_sub_equal_the_64_bit_splice(pairs):
    a, b = lanes(pairs).T
    assert fixedpoint.add(a, b).tolist() == [reference_splice(sign_extend(x) + sign_extend(y)) for x, y in pairs]
    assert fixedpoint.sub(a, b).tolist() == [reference_splice(sign_extend(x) - sign_extend(y)) for x, y in pairs]


@given(st.lists(st.integers(-(1 << 63), (1 << 63) - 1), min_size=1, max_size=64))
def test_splice_takes_bit_63_and_the_low_31_bits_of_int64_and_uint64(values):
    expected = [reference_splice(value) for value in values]
    signed = np.array(values, dtype=np.int64)
    assert splice(signed).tolist() == expected
    assert splice(signed.view(np.uint64)).tolist() == expected


# --- multiplier (§4.2) ------------------------------------------------------------------------


@given(st.lists(st.tuples(exact_multiplicands, words), min_size=1, max_size=64), st.booleans())
def test_multiply_is_the_truncated_exact_product_when_3a_fits(pairs, scaled):
    a, b = lanes(pairs).T
    shift = 17 if scaled else 0
    expected = []
    for x, y in pairs:
        product = (reference_magnitude(x) * reference_magnitude(y)) >> shift
        expected.append(-product if (x ^ y) >> 31 else product)
    result = multiply(a, b, scaled=scaled)
    assert result.dtype == np.int64
    assert result.tolist() == expected


@given(word_pairs, st.booleans())
@example([(0x8000_0000, 0xFFFF_FFFF), (0xAAAA_AAAB, 0x7FFF_FFFF), (0x5555_5556, 0x8000_0000)], True)
def test_multiply_matches_the_literal_radix_4_multiplier(pairs, scaled):
    a, b = lanes(pairs).T
    result = multiply(a, b, scaled=scaled).view(np.uint64)
    assert result.tolist() == [reference_multiply(x, y, scaled) for x, y in pairs]


@given(st.lists(st.tuples(words, words, words, words), min_size=1, max_size=16))
def test_units_broadcast_a_lane_array_against_a_row(columns):
    single, x, y, z = lanes(columns).T
    row = np.stack((x, y, z))
    for unit in (fixedpoint.add, fixedpoint.sub, multiply, divide):
        broadcast = unit(single, row)
        assert broadcast.tolist() == [unit(single, lane).tolist() for lane in row], unit.__name__


def test_multiply_truncates_only_the_first_operands_multiples():
    big, small = 0x6000_0000, 0x0000_0003
    assert multiply(lanes([small]), lanes([big]), scaled=False).tolist() == [0x1_2000_0000]
    # 3 is the single digit 3 of b: the multiple 3·a = 0x1_2000_0000 keeps only its low word.
    assert multiply(lanes([big]), lanes([small]), scaled=False).tolist() == [0x2000_0000]


# --- MAG (§4.3) -------------------------------------------------------------------------------


# S << 17 is a perfect square for S = 2·j², just above one for 2·j² + 1, just below for 2·j² − 1.
NEAR_SQUARE_SUMS = [2 * j * j + d for j in (1, 3, 1000, (1 << 21) - 1) for d in (-1, 0, 1)] + [(1 << 43) - 1]


@given(st.lists(st.integers(0, (1 << 43) - 1), min_size=1, max_size=64))
@example(NEAR_SQUARE_SUMS)
def test_magnitude_sqrt_is_the_integer_square_root_below_2_43(sums):
    wide = np.array(sums, dtype=np.uint64)
    expected = [math.isqrt(s << 17) for s in sums]
    assert magnitude_sqrt(wide).tolist() == expected
    assert fixedpoint.digit_by_digit_sqrt(wide << np.uint64(17)).tolist() == expected


@given(st.lists(st.integers(-(1 << 63), (1 << 63) - 1), min_size=1, max_size=64))
@example([(1 << 43), (1 << 63) - 1, -1, -(1 << 63)])
def test_magnitude_sqrt_runs_the_33_step_loop_with_32_bit_registers(sums):
    result = magnitude_sqrt(np.array(sums, dtype=np.int64))
    assert result.tolist() == [reference_magnitude_sqrt(s & WIDE) for s in sums]


small_components = st.integers(-to_fixed(4000.0) + 1, to_fixed(4000.0) - 1).map(lambda value: value & WORD)


@given(st.lists(st.tuples(small_components, small_components, small_components), min_size=1, max_size=64))
def test_mag_is_the_truncated_length_for_short_vectors(vectors):
    a = lanes(vectors).T
    expected = []
    for vector in vectors:
        squares = sum(reference_magnitude(c) ** 2 >> 17 for c in vector)
        expected.append(math.isqrt(squares << 17))
    result = SEMANTICS.function("MAG")(a, a[::-1])
    assert result.tolist() == [expected] * 3


def test_mag_of_3_4_0_is_5():
    assert from_fixed(SEMANTICS.function("MAG")(fixed_row(3.0, -4.0, 0.0), fixed_row(0, 0, 0))).ravel().tolist() == [5.0] * 3


# --- DIV (§4.4) -------------------------------------------------------------------------------


@given(st.lists(st.tuples(words, st.one_of(words, st.just(0), st.just(0x8000_0000))), min_size=1, max_size=64))
def test_divide_matches_the_scalar_reference(pairs):
    a, b = lanes(pairs).T
    assert divide(a, b).tolist() == [reference_divide(x, y) for x, y in pairs]


def test_divide_by_zero_gives_the_fixed_magnitude_with_the_dividends_sign():
    dividends = lanes([0, to_fixed(5.0), to_fixed(-5.0), 0x8000_0000, 0x7FFF_FFFF])
    assert divide(dividends, np.zeros_like(dividends)).tolist() == [
        0x0FFF_FFFF,
        0x0FFF_FFFF,
        0xF000_0001,
        0xF000_0001,
        0x0FFF_FFFF,
    ]


@pytest.mark.parametrize(
    ("a", "b", "quotient"),
    [
        (1.0, 2.0, 0.5),
        (-1.0, 2.0, -0.5),
        (-3.0, -0.5, 6.0),
        (8192.0, 0.5, 0.0),  # 16384.0 needs bit 31, which is dropped before the sign
        (-8192.0, 0.25, 0.0),  # −32768.0: magnitude 2^32 wraps to 0
    ],
)
def test_divide_examples(a, b, quotient):
    assert from_fixed(divide(lanes([to_fixed(a)]), lanes([to_fixed(b)]))).tolist() == [quotient]


# --- other single-cycle operations (§4.5) -------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "result"),
    [
        (-0.5, 256.0, 255.0),
        (5.75, 4.0, 1.0),
        (-3.25, 2.0, 0.0),
        (-3.25, 0.0, -4.0),  # B = 0: the mask keeps floor(A)
        (1000.5, 1.0, 0.0),
    ],
)
def test_mod_examples(a, b, result):
    row_result = SEMANTICS.function("MOD")(fixed_row(a, a, a), fixed_row(b, b, b))
    assert from_fixed(row_result).ravel().tolist() == [result] * 3


@given(words, st.integers(0, 13))
def test_mod_of_a_power_of_two_is_floor_modulo(word, exponent):
    a = lanes([[word]] * 3)
    b = fixed_row(*[2.0**exponent] * 3)
    expected = math.floor(from_fixed(word)) % 2**exponent
    assert from_fixed(SEMANTICS.function("MOD")(a, b)).ravel().tolist() == [expected] * 3


def test_neg_of_the_most_negative_word_is_itself():
    a = lanes([[0x8000_0000], [0x0002_0000], [0]])
    assert SEMANTICS.function("NEG")(a, a).ravel().tolist() == [0x8000_0000, 0xFFFE_0000, 0]


def test_unscale_is_a_logical_shift():
    assert SEMANTICS.function("UNSCALE")(fixed_row(-1.0, 3.75, 0.0), fixed_row(0, 0, 0)).ravel().tolist() == [0x7FFF, 3, 0]


def test_cross_of_x_and_y_is_z():
    assert from_fixed(SEMANTICS.function("CROSS")(fixed_row(1, 0, 0), fixed_row(0, 1, 0))).ravel().tolist() == [0, 0, 1]


SWIZZLE_CODES = list(range(41)) + [0x100, 0x8000_0015, WORD]


def test_swizzle3d_implements_only_xxx_yyy_zzz_and_yxz():
    codes = lanes(SWIZZLE_CODES)
    a = np.stack((codes, np.zeros_like(codes), np.zeros_like(codes)))
    old = np.tile(lanes([[0x11], [0x22], [0x33]]), len(SWIZZLE_CODES))
    result = SEMANTICS.function("SWIZZLE3D")(a, old)
    expected = {0: [0x11] * 3, 1: [0x22] * 3, 2: [0x33] * 3, 21: [0x22, 0x11, 0x33]}
    for lane, code in enumerate(SWIZZLE_CODES):
        assert result[:, lane].tolist() == expected.get(code, [0, 0, 0]), f"code {code}"


@pytest.mark.parametrize("code", SWIZZLE_CODES)
def test_swizzle3d_with_one_code_in_every_lane_matches_the_per_lane_result(code):
    immediate = np.broadcast_to(lanes([[code], [0], [0]]), (3, 2))
    old = lanes([[0x11, 0x44], [0x22, 0x55], [0x33, 0x66]])
    mixed_codes = lanes([[code, 0], [0, 0], [0, 0]])
    assert SEMANTICS.function("SWIZZLE3D")(immediate, old)[:, 0].tolist() == SEMANTICS.function("SWIZZLE3D")(mixed_codes, old)[:, 0].tolist()


@given(st.lists(st.tuples(words, words, words, words), min_size=1, max_size=64))
def test_swizzle3d_result_is_nonzero_only_for_the_four_implemented_codes(columns):
    code, x, y, z = lanes(columns).T
    a = np.stack((code, np.zeros_like(code), np.zeros_like(code)))
    result = SEMANTICS.function("SWIZZLE3D")(a, np.stack((x, y, z)))
    unimplemented = ~np.isin(code, [0, 1, 2, 21])
    assert not result[:, unimplemented].any()


def test_set_and_return_place_the_immediate():
    immediate = np.broadcast_to(lanes([[0xABCD_1234], [0], [0]]), (3, 2))
    old = lanes([[1, 2], [3, 4], [5, 6]])
    assert SEMANTICS.function("SETX")(immediate, old).tolist() == [[0xABCD_1234] * 2, [3, 4], [5, 6]]
    assert SEMANTICS.function("SETY")(immediate, old).tolist() == [[1, 2], [0xABCD_1234] * 2, [5, 6]]
    assert SEMANTICS.function("SETZ")(immediate, old).tolist() == [[1, 2], [3, 4], [0xABCD_1234] * 2]
    assert SEMANTICS.function("RETURN")(immediate, old).tolist() == [[0xABCD_1234] * 2] * 3


# --- compare-jumps (§4.6) -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("test", "a", "b", "taken"),
    [
        ("GE", -5.0, 5.0, True),
        ("LE", 5.0, -5.0, True),
        ("L", 2.0, 2.0, True),
        ("G", 2.0, 2.0, False),
        ("EQ", -5.0, 5.0, True),
        ("NE", -5.0, 5.0, False),
        ("G", 0.0, -16384.0, True),
        ("EQ", -16384.0, 0.0, False),
    ],
)
def test_compare_examples(test, a, b, taken):
    assert compare(test, lanes([to_fixed(a)]), lanes([to_fixed(b)])).tolist() == [taken]


@given(st.sampled_from(fixedpoint.COMPARE_TESTS), word_pairs)
def test_compare_matches_the_scalar_reference(test, pairs):
    a, b = lanes(pairs).T
    assert compare(test, a, b).tolist() == [reference_compare(test, x, y) for x, y in pairs]


def test_compare_rejects_unknown_tests():
    with pytest.raises(ValueError):
        compare("LT", lanes([0]), lanes([0]))


def test_jump_tests_cover_the_18_compare_jumps_by_lane():
    assert len(JUMP_TESTS) == 18
    assert JUMP_TESTS["JGX"] == (0, "G")
    assert JUMP_TESTS["JNEY"] == (1, "NE")
    assert JUMP_TESTS["JLEZ"] == (2, "LE")


def test_jump_taken_uses_only_its_lane():
    a = fixed_row(1.0, 2.0, 3.0)
    b = fixed_row(9.0, 2.0, 0.0)
    assert [jump_taken(name, a, b).tolist() for name in ("JGX", "JEQY", "JGZ")] == [[False], [True], [True]]


# --- complete-ISA operations and the operation tables ---------------------------------------


def test_complete_isa_adds_exactly_the_v1_unimplemented_operations():
    assert UNIMPLEMENTED_IN_V1 == {"INTP", "XCHANGEY", "XCHANGEZ", "RESCALE"}
    assert UNIMPLEMENTED_IN_V1 <= set(ROW_MNEMONICS)


def test_complete_isa_exchanges_and_rescale():
    a = lanes([[1], [2], [3]])
    b = lanes([[4], [5], [6]])
    assert SEMANTICS.function("XCHANGEY")(a, b).ravel().tolist() == [1, 5, 3]
    assert SEMANTICS.function("XCHANGEZ")(a, b).ravel().tolist() == [1, 2, 6]
    assert from_fixed(SEMANTICS.function("RESCALE")(a, b)).ravel().tolist() == [1.0, 2.0, 3.0]


@given(st.lists(words, min_size=3, max_size=3))
def test_intp_and_frac_split_a_value_into_floor_and_fraction(values):
    a = lanes([[value] for value in values])
    integer_part = SEMANTICS.function("INTP")(a, a)
    assert from_fixed(integer_part).ravel().tolist() == [math.floor(from_fixed(value)) for value in values]
    assert (integer_part + SEMANTICS.function("FRAC")(a, a)).ravel().tolist() == values


@pytest.mark.parametrize("mnemonic", ROW_MNEMONICS)
def test_operations_return_a_new_row_for_broadcast_immediates(mnemonic):
    immediate = np.broadcast_to(lanes([[0x0003_0000], [0], [0]]), (3, 4))
    old = lanes([[0x0002_0000] * 4, [0xFFFE_0000] * 4, [0x0001_0000] * 4])
    result = SEMANTICS.function(mnemonic)(immediate, old)
    assert result.shape == (3, 4) and result.dtype == np.uint32
    assert result.flags.writeable
    assert not np.shares_memory(result, immediate) and not np.shares_memory(result, old)
