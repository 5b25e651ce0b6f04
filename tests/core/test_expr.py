"""Tests for shaderkit.core.expr: integer expressions in assembly operands.

Table style: (text, value) for what is accepted, (text, message, column) for what is
refused. Every refusal must be a SourceError whose column (counting from 1 within the
text) points at the culprit.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shaderkit.core.diagnostics import SourceError
from shaderkit.core.expr import evaluate

SYMBOLS = {"WIDTH": 64, "A": 3, "B": 5, "zero": 0, "x.y": 7, "_tmp": 11}


def lookup(name: str) -> int | None:
    return SYMBOLS.get(name)


def nothing_defined(name: str) -> int | None:
    return None


@pytest.mark.parametrize("text, value", [
    # literals
    ("0", 0), ("42", 42), ("0x10", 16), ("0X1f", 31), ("0xFF", 255), ("0b101", 5), ("0B11", 3),
    ("0o17", 15), ("1_000", 1000), ("  7  ", 7),
    # signs
    ("-1", -1), ("+5", 5), ("~0", -1), ("--3", 3), ("-0x10", -16),
    # precedence: * / % before + -, + - before shifts, shifts before & before ^ before |
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("10 - 4 - 3", 3), ("2 * 3 + 4 * 5", 26),
    ("1 << 2 + 1", 8), ("(1 << 2) + 1", 5), ("1 | 2 & 3", 3), ("(1 | 2) & 1", 1),
    ("6 ^ 3 & 1", 7), ("1 | 6 ^ 4", 3), ("-2 * 3", -6), ("~1 & 0xF", 14), ("0x80 >> 3", 16),
    # / is integer division (floor), // too; %
    ("7 / 2", 3), ("7 // 2", 3), ("-7 / 2", -4), ("7 % 4", 3), ("60 / 4 / 3", 5),
    # symbols
    ("WIDTH", 64), ("WIDTH - 1", 63), ("(A << 2) | 1", 13), ("A * B + WIDTH / 8", 23),
    ("_tmp", 11), ("zero", 0),
    # the largest allowed shift
    ("1 << 256", 1 << 256),
])
def test_values(text, value):
    result = evaluate(text, lookup)
    assert result == value
    assert type(result) is int


@pytest.mark.parametrize("text, name, column", [
    ("UNDEFINED", "UNDEFINED", 1),
    ("1 + missing", "missing", 5),
    ("   foo", "foo", 4),            # leading blanks count
    ("(A + nope) * 2", "nope", 6),
    ("A + B + C + D", "C", 9),       # the first undefined one, left to right
    ("width", "width", 1),           # names are case-sensitive
])
def test_undefined_symbol_names_it_and_points_at_it(text, name, column):
    with pytest.raises(SourceError) as caught:
        evaluate(text, lookup)
    assert caught.value.message == f"undefined symbol '{name}'"
    assert caught.value.col == column
    assert caught.value.length == len(name)


def test_a_symbol_the_lookup_does_not_know_is_undefined_even_if_defined_elsewhere():
    with pytest.raises(SourceError, match="undefined symbol 'WIDTH'"):
        evaluate("WIDTH", nothing_defined)


@pytest.mark.parametrize("text, column", [
    ("1 / 0", 1), ("5 % 0", 1), ("5 // 0", 1), ("1 + 4 / zero", 5), ("  8 / (A - 3)", 3),
])
def test_division_by_zero(text, column):
    with pytest.raises(SourceError) as caught:
        evaluate(text, lookup)
    assert caught.value.message == "division by zero"
    assert caught.value.col == column


@pytest.mark.parametrize("text", ["1 << 257", "1 >> -1", "4 << WIDTH * 5"])
def test_shift_counts_are_bounded(text):
    with pytest.raises(SourceError, match="shift count .* out of range"):
        evaluate(text, lookup)


ONLY_ARITHMETIC = "only integer arithmetic is allowed in expressions"


@pytest.mark.parametrize("text, column", [
    ("abs(1)", 1),            # call
    ("f(1)", 1),
    ("1 + max(2, 3)", 5),     # call inside: the column of the call
    ("A.real", 1),            # attribute
    ("'text'", 1),            # strings
    ('"x"', 1),
    ("b'x'", 1),
    ("1.5", 1),               # floats
    ("1e3", 1),
    ("2 + 0.5", 5),
    ("1j", 1),                # complex
    ("True", 1),              # bool is not an int literal here
    ("None", 1),
    ("2 ** 3", 1),            # power: not an assembler operator
    ("1 < 2", 1),             # comparisons, boolean operators, conditionals
    ("not 1", 1),
    ("1 and 2", 1),
    ("1 if A else 2", 1),
    ("(1, 2)", 1),            # tuples, lists, subscripts, lambdas
    ("[1]", 1),
    ("A[0]", 1),
    ("lambda: 1", 1),
    ("...", 1),
])
def test_rejects_everything_but_integer_arithmetic(text, column):
    with pytest.raises(SourceError) as caught:
        evaluate(text, lookup)
    assert caught.value.message == ONLY_ARITHMETIC
    assert caught.value.col == column


@pytest.mark.parametrize("text", ["", "   ", "1 +", "(1", "1)", "1 2", "+", "#", "1;2", "\x00", "a\x00",
                                  "x = 1", "$", "0x", "0b2", "08"])
def test_malformed_text_is_a_source_error(text):
    with pytest.raises(SourceError) as caught:
        evaluate(text, lookup)
    # an expression missing at the end is reported just after the text
    assert 1 <= caught.value.col <= len(text) + 1


def test_empty_expression_message_and_column():
    with pytest.raises(SourceError) as caught:
        evaluate("   ", lookup)
    assert caught.value.message == "expected an expression"
    assert caught.value.col == 4


@pytest.mark.parametrize("text, column", [("1 # 2", 3), ("  A#", 4), ("(1 #)", 4)])
def test_hash_is_not_a_comment(text, column):
    # Python's tokenizer would drop everything after '#'; an assembler must not
    with pytest.raises(SourceError) as caught:
        evaluate(text, lookup)
    assert caught.value.message.startswith("malformed expression")
    assert caught.value.col == column


def test_syntax_error_column_is_within_the_text():
    with pytest.raises(SourceError) as caught:
        evaluate("  1 + * 2", lookup)
    assert caught.value.message.startswith("malformed expression")
    assert 3 <= caught.value.col <= len("  1 + * 2")


@pytest.mark.parametrize("text", [
    "-" * 5000 + "1",                    # the parser itself gives up (MemoryError in CPython 3.11)
    "~" * 3000 + "1",
    "1+" * 3000 + "1",                   # a deep left-leaning tree
    "(" * 300 + "1" + ")" * 300,
    "-(" * 300 + "1" + ")" * 300,
])
def test_deep_nesting_is_a_source_error_not_a_crash(text):
    with pytest.raises(SourceError):
        evaluate(text, lookup)


def test_moderate_nesting_still_works():
    assert evaluate("(" * 50 + "1" + ")" * 50, lookup) == 1
    assert evaluate("1+" * 150 + "1", lookup) == 151
    assert evaluate("-" * 100 + "1", lookup) == 1


# --------------------------------------------------------------------------------------
# hypothesis: the evaluator never fails with anything but SourceError

EXPRESSION_ALPHABET = "0123456789abxXoOAB_ +-*/%<>&|^~()., '\"#[]{}:;!=@\\eEjJ\t"


def assert_value_or_located_error(text: str) -> None:
    try:
        result = evaluate(text, lookup)
    except SourceError as error:
        assert error.col >= 1
    else:
        assert type(result) is int


@given(st.text(max_size=60))
def test_random_text_only_ever_raises_source_error(text):
    assert_value_or_located_error(text)


@given(st.text(alphabet=EXPRESSION_ALPHABET, max_size=40))
def test_random_expression_like_text_only_ever_raises_source_error(text):
    assert_value_or_located_error(text)


@st.composite
def arithmetic(draw, depth=0):
    """A well-formed expression over literals and defined symbols, with its value."""
    if depth > 3 or draw(st.booleans()):
        choice = draw(st.sampled_from(["dec", "hex", "bin", "sym"]))
        number = draw(st.integers(0, 1000))
        if choice == "dec":
            return str(number), number
        if choice == "hex":
            return hex(number), number
        if choice == "bin":
            return bin(number), number
        name = draw(st.sampled_from(sorted(k for k in SYMBOLS if "." not in k)))
        return name, SYMBOLS[name]
    left_text, left = draw(arithmetic(depth + 1))
    right_text, right = draw(arithmetic(depth + 1))
    operator = draw(st.sampled_from(["+", "-", "*", "&", "|", "^"]))
    value = {"+": left + right, "-": left - right, "*": left * right,
             "&": left & right, "|": left | right, "^": left ^ right}[operator]
    return f"({left_text} {operator} {right_text})", value


@given(arithmetic())
def test_well_formed_arithmetic_has_the_python_value(case):
    text, value = case
    assert evaluate(text, lookup) == value
