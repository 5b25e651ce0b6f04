"""Integer expressions in assembly operands: ``0x10``, ``0b101``, ``WIDTH - 1``, ``(A << 2) | 1``.

Python's own parser reads the expression (its literal syntax is the one assemblers
use); only integer arithmetic on literals and symbol names is allowed. ``/`` is
integer division.

Values are bounded: every literal, intermediate and final value must fit in
:data:`MAX_VALUE_BITS` bits (sign aside), and shift counts lie between 0 and 256. That is far
wider than any field of any instruction set here (the widest instruction is 128 bits, so
``(1 << 128) - 1`` still works), and it keeps a chain of constants such as ``A1 = A0*A0``,
``A2 = A1*A1``, … from computing numbers that fill memory or that Python cannot print.
The assembler checks defined constants more tightly against the instruction set's width.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable

from .diagnostics import SourceError

_BINARY = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.floordiv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.LShift: operator.lshift, ast.RShift: operator.rshift,
    ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}

SymbolLookup = Callable[[str], int | None]

MAX_VALUE_BITS = 512
MAX_SHIFT = 256
# A decimal literal Python's parser refuses (sys.get_int_max_str_digits(), 4,300 by default).
_LONG_DECIMAL = re.compile(r"(?<![\w.])[0-9_]{4000,}")


def evaluate(text: str, lookup: SymbolLookup) -> int:
    """Value of ``text``; ``lookup(name)`` gives a symbol's value or None if undefined.

    Raises SourceError with a column relative to ``text`` (counting from 1).
    """
    stripped = text.strip()
    leading = len(text) - len(text.lstrip())
    if not stripped:
        raise SourceError("expected an expression", leading + 1)
    if "#" in stripped:  # Python would read the rest as a comment and silently drop it
        raise SourceError(f"malformed expression {stripped!r}", leading + stripped.index("#") + 1)
    try:
        tree = ast.parse(stripped, mode="eval")
    except SyntaxError as error:
        column = (error.offset or 1) + leading
        if (literal := _LONG_DECIMAL.search(stripped)) is not None:
            # Python refuses decimal literals past 4,300 digits; far beyond MAX_VALUE_BITS anyway.
            raise SourceError(f"value too large: a number of {len(literal.group())} digits, where expressions "
                              f"allow {MAX_VALUE_BITS} bits", leading + literal.start() + 1, len(literal.group())) from None
        raise SourceError(f"malformed expression {stripped!r}", min(column, len(text)) or 1) from None
    except ValueError:
        raise SourceError(f"malformed expression {stripped!r}", leading + 1) from None
    except (RecursionError, MemoryError):  # CPython's parser gives up on deep nesting this way
        raise SourceError("expression nested too deeply", leading + 1) from None
    try:
        return _value(tree.body, lookup, leading)
    except RecursionError:
        raise SourceError("expression nested too deeply", leading + 1) from None


def _value(node: ast.AST, lookup: SymbolLookup, leading: int) -> int:
    column = getattr(node, "col_offset", 0) + leading + 1
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return _bounded(node.value, column, _source_length(node))
    if isinstance(node, ast.Name):
        value = lookup(node.id)
        if value is None:
            raise SourceError(f"undefined symbol '{node.id}'", column, len(node.id))
        return _bounded(value, column, len(node.id))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _bounded(_UNARY[type(node.op)](_value(node.operand, lookup, leading)), column, _source_length(node))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left = _value(node.left, lookup, leading)
        right = _value(node.right, lookup, leading)
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and right == 0:
            raise SourceError("division by zero", column)
        if isinstance(node.op, (ast.LShift, ast.RShift)) and not 0 <= right <= MAX_SHIFT:
            raise SourceError(f"shift count {right} out of range (0 to {MAX_SHIFT})", column)
        return _bounded(_BINARY[type(node.op)](left, right), column, _source_length(node))
    raise SourceError("only integer arithmetic is allowed in expressions", column)


def _bounded(value: int, column: int, length: int) -> int:
    """``value``, unless it is wider than :data:`MAX_VALUE_BITS` (both operands were in range,
    so it is at most about twice as wide: computing it was cheap)."""
    if value.bit_length() > MAX_VALUE_BITS:
        raise SourceError(f"value too large: {value.bit_length()} bits, where expressions allow "
                          f"{MAX_VALUE_BITS}", column, length)
    return value


def _source_length(node: ast.AST) -> int:
    """How many characters of the (one-line) expression ``node`` spans, for the caret."""
    end = getattr(node, "end_col_offset", None)
    return max(1, end - node.col_offset) if end is not None and node.end_lineno == node.lineno else 1

