"""The compiled scalar fixed-point units (shaderkit.isa.theia.compiled_units) against their
NumPy references in shaderkit.isa.theia.fixedpoint, word for word, on random words and on the
edge values: 0, ±1 LSB, ±1.0, the int32 extremes, the multiplier's exactness limits, the
divider's zero and overflow, the square root's 2^43 limit.

Units are only callable from compiled code (they have no wrappers for calls from Python), so
the tests call each through a compiled function of their own."""

from __future__ import annotations

import itertools
from functools import cache

import numba
import numpy as np
import pytest

from shaderkit.isa.theia import compiled_units
from shaderkit.isa.theia import fixedpoint

EDGES = [0, 1, 2, 0x7FFF, 0x1FFFF, 0x20000, 0x20001, 0x10000, 0x0FFF_FFFF, 0x5555_5555, 0x5555_5556,
         0x7FFF_FFFF, 0x8000_0000, 0x8000_0001, 0xAAAA_AAAA, 0xAAAA_AAAB, 0xFFFE_0000, 0xFFFF_FFFE, 0xFFFF_FFFF,
         0xC000_0000, 0x4000_0000, 0x0002_8000]
RANDOM = np.random.default_rng(15)
# Half the random words small (the microcode's range), half anywhere.
RANDOM_WORDS = np.concatenate([
    RANDOM.integers(-(1 << 22), 1 << 22, 300).astype(np.int64) & fixedpoint.WORD_MASK,
    RANDOM.integers(0, 1 << 32, 300, dtype=np.uint64).astype(np.int64),
])
PAIRS = [*itertools.product(EDGES, EDGES), *zip(RANDOM_WORDS.tolist(), RANDOM.permutation(RANDOM_WORDS).tolist())]


class _CalledFromCompiledCode:
    """``units.<name>`` is the unit called through a compiled function (made once per unit)."""

    def __getattr__(self, name):
        return _through_compiled_code(getattr(compiled_units, name))


@cache
def _through_compiled_code(unit):
    return numba.njit(lambda *args: unit(*args))


units = _CalledFromCompiledCode()


def scalar(function, *words) -> int:
    return int(function(*(np.uint64(word) for word in words)))


def reference(function, *words, **options):
    return function(*(np.array([word], dtype=np.uint32) for word in words), **options)[0]


@pytest.mark.parametrize("name", ["add", "sub", "divide"])
def test_two_operand_units(name):
    compiled, numpy = getattr(units, name), getattr(fixedpoint, name)
    for a, b in PAIRS:
        assert scalar(compiled, a, b) == int(reference(numpy, a, b)), (name, hex(a), hex(b))


@pytest.mark.parametrize("scaled", [True, False])
def test_multiplier(scaled):
    for a, b in PAIRS:
        expected = int(reference(fixedpoint.multiply, a, b, scaled=scaled)) & 0xFFFF_FFFF_FFFF_FFFF
        assert int(units.multiply(np.uint64(a), np.uint64(b), scaled)) == expected, (hex(a), hex(b))


def test_multiplier_asymmetry_beyond_the_exact_range_is_reproduced():
    a, b = 0x6000_0000, 0x0003_0000
    assert units.multiply(np.uint64(a), np.uint64(b), True) != units.multiply(np.uint64(b), np.uint64(a), True)


def test_magnitude_and_splice():
    for word in EDGES + RANDOM_WORDS.tolist():
        assert scalar(units.magnitude, word) == int(reference(fixedpoint.magnitude, word))
    for a, b in PAIRS:
        wide = (a << 32 | b)
        assert scalar(units.splice, wide) == int(fixedpoint.splice(np.array([wide], dtype=np.uint64))[0])


def test_division_by_zero_and_overflow():
    assert scalar(units.divide, 0, 0) == 0x0FFF_FFFF
    assert scalar(units.divide, 0xFFFE_0000, 0) == 0xF000_0001
    assert scalar(units.divide, 0x7FFF_FFFF, 1) == int(reference(fixedpoint.divide, 0x7FFF_FFFF, 1))


def test_square_root_both_sides_of_the_exact_limit():
    sums = [0, 1, 2, 3, 4, (1 << 43) - 1, 1 << 43, (1 << 43) + 1, (1 << 63) - 1, 1 << 63, (1 << 64) - 1,
            0x20000 ** 2 >> 17, 12345678901]
    sums += RANDOM.integers(0, 1 << 43, 200, dtype=np.uint64).tolist()
    sums += RANDOM.integers(0, (1 << 64) - 1, 200, dtype=np.uint64).tolist()
    for wide in sums:
        expected = int(fixedpoint.magnitude_sqrt(np.array([wide], dtype=np.uint64))[0])
        assert scalar(units.magnitude_sqrt, wide) == expected, hex(wide)


@pytest.mark.parametrize("test", fixedpoint.COMPARE_TESTS)
def test_compare(test):
    code = compiled_units.COMPARE_TEST_CODES[test]
    for a, b in PAIRS:
        compiled = bool(units.compare(code, np.uint64(a), np.uint64(b)))
        assert compiled == bool(reference(lambda x, y: fixedpoint.compare(test, x, y), a, b)), (test, a, b)
