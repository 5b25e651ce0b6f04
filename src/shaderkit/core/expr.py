"""Integer expressions in assembly operands: ``0x10``, ``0b101``, ``WIDTH - 1``, ``(A << 2) | 1``.

Python's own parser reads the expression (its literal syntax is the one assemblers
use); only integer arithmetic on literals and symbol names is allowed. ``/`` is
integer division.
"""

from __future__ import annotations

import ast
import operator
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
        return node.value
    if isinstance(node, ast.Name):
        value = lookup(node.id)
        if value is None:
            raise SourceError(f"undefined symbol '{node.id}'", column, len(node.id))
        return value
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_value(node.operand, lookup, leading))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left = _value(node.left, lookup, leading)
        right = _value(node.right, lookup, leading)
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and right == 0:
            raise SourceError("division by zero", column)
        if isinstance(node.op, (ast.LShift, ast.RShift)) and not 0 <= right <= 256:
            raise SourceError(f"shift count {right} out of range", column)
        return _BINARY[type(node.op)](left, right)
    raise SourceError("only integer arithmetic is allowed in expressions", column)
