"""Assembly templates: the one declaration both the printer and the parser are derived from.

A template is the text of an instruction with placeholders::

    "ADD{cond} {rd} {rs}"                  operands, one a mnemonic suffix
    "SET {rd} {imm?}"                      an operand that may be left out (it reads as its
                                           field's default, or 0)
    "add {dst} {c if cdst & 4 == 0} {src1} {src2m}"
                                           an operand printed iff a predicate on the raw
                                           fields holds (and parsed iff it is there)
    "{pred?} vmad{flags} {dst}, {src0}"    a prefix before the mnemonic, a flag set after it

:func:`parse_template` cuts it into :class:`Token` s the way statements are cut: the head
(the words up to and including the mnemonic, separated by blanks) and then the operands,
separated by the description's operand separator (brackets never split). A token is
literal text and :class:`Slot` s; a slot names an operand binding of the description.
Predicates are Python expressions over field names (``& | ^ << >> + - * % ~``, comparisons,
``and or not``, ``a if c else b``), compiled once by :func:`compile_predicate`;
:func:`compile_expression` compiles the same language to a number (the implied field values
of :func:`~.instruction.form`).
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from ..diagnostics import SourceError

__all__ = ["Mismatch", "Slot", "Token", "Template", "moved", "most_specific", "parse_template", "split_operands", "split_statement",
           "compile_predicate", "compile_expression", "PLACEHOLDER"]

# {name}, {name?}, {name if EXPRESSION}
PLACEHOLDER = re.compile(r"\{(\w+)(\?|\s+if\s+([^{}]+))?\}")

Predicate = Callable[[Mapping[str, int]], bool]


@dataclass(frozen=True)
class Slot:
    name: str
    optional: bool = False
    condition_text: str = ""  # the predicate as written; empty: always present

    @property
    def conditional(self) -> bool:
        return bool(self.condition_text)


@dataclass(frozen=True)
class Token:
    """Literal text (``str`` pieces) and slots, as one whitespace- or separator-delimited word.

    ``separator`` is the template text before it, which the printer reproduces.
    """

    pieces: tuple[str | Slot, ...]
    separator: str = ""

    @cached_property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(piece for piece in self.pieces if isinstance(piece, Slot))

    @property
    def single_slot(self) -> Slot | None:
        """The slot when the token is nothing but one placeholder."""
        return self.pieces[0] if len(self.pieces) == 1 and isinstance(self.pieces[0], Slot) else None

    @property
    def may_be_absent(self) -> bool:
        return any(slot.optional or slot.conditional for slot in self.slots)

    @cached_property
    def conditional(self) -> Slot | None:
        return next((slot for slot in self.slots if slot.conditional), None)

    @property
    def literal(self) -> str:
        """The token's literal text (the mnemonic of a head token)."""
        return "".join(piece for piece in self.pieces if isinstance(piece, str))

    def plain(self) -> str:
        """The token with placeholders written as bare names (for messages: ``ADD rd rs``)."""
        return "".join(piece if isinstance(piece, str) else piece.name for piece in self.pieces)


class Mismatch(SourceError):
    """Text without the shape of what it was read as (a template's literal text, no case of a
    sub-table), as opposed to a value in it that is wrong: a parser trying alternatives reports
    any other error before a mismatch, since that alternative is the one the text meant.

    ``hint`` computes what the message adds (a "did you mean"), once, when the message is read:
    most mismatches are alternatives tried and dropped, and never read."""

    def __init__(self, message: str, col: int = 1, length: int = 1, hint: Callable[[], str] | None = None):
        self._hint = None
        super().__init__(message, col, length)
        self._hint = hint

    @property
    def message(self) -> str:
        if self._hint is not None:
            self._message, self._hint = self._message + self._hint(), None
        return self._message

    @message.setter
    def message(self, value: str) -> None:
        self._message = value


def moved(error: SourceError, column: int, length: int | None = None) -> SourceError:
    """``error`` at another column (and length), of the same class (a mismatch's hint still
    unread)."""
    length = error.length if length is None else length
    if isinstance(error, Mismatch):
        return Mismatch(error._message, column, length, error._hint)
    return type(error)(error.message, column, length)


def most_specific(errors: Sequence[SourceError]) -> SourceError:
    """The error to report of alternatives that all failed: of those that are not mismatches,
    the one found furthest into the text (that alternative read the most of it as meant; the
    first of equals), else the first mismatch."""
    meant = [error for error in errors if not isinstance(error, Mismatch)]
    return max(meant, key=lambda error: error.col) if meant else errors[0]


@dataclass(frozen=True)
class Template:
    text: str
    prefixes: tuple[Token, ...]  # optional tokens before the mnemonic
    head: Token  # the mnemonic token
    operands: tuple[Token, ...]

    @cached_property
    def tokens(self) -> tuple[Token, ...]:
        return (*self.prefixes, self.head, *self.operands)

    @property
    def mnemonic(self) -> str:
        return self.head.literal

    @cached_property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(slot for token in self.tokens for slot in token.slots)

    @property
    def head_text(self) -> str:
        return _token_text(self.head)


def _token_text(token: Token) -> str:
    return "".join(piece if isinstance(piece, str) else _slot_text(piece) for piece in token.pieces)


def _slot_text(slot: Slot) -> str:
    if slot.conditional:
        return f"{{{slot.name} if {slot.condition_text}}}"
    return f"{{{slot.name}{'?' if slot.optional else ''}}}"


def parse_token(text: str, separator: str = "") -> Token:
    """Literal text and placeholders of one token."""
    pieces: list[str | Slot] = []
    position = 0
    for found in PLACEHOLDER.finditer(text):
        if found.start() > position:
            pieces.append(text[position:found.start()])
        name, marker, condition = found.group(1), found.group(2) or "", found.group(3)
        pieces.append(Slot(name, optional=marker == "?", condition_text=(condition or "").strip()))
        position = found.end()
    if position < len(text):
        pieces.append(text[position:])
    return Token(tuple(pieces), separator)


def parse_template(text: str, separator: re.Pattern[str]) -> Template:
    """Cut a template into its prefixes, mnemonic token and operand tokens."""
    words = list(_words(text))
    prefixes: list[Token] = []
    for index, (word, start, gap) in enumerate(words):
        token = parse_token(word, gap)
        if token.literal or index == len(words) - 1:
            operands = tuple(parse_token(operand, gap_before)
                             for operand, gap_before in _operand_tokens(text[start + len(word):], separator))
            return Template(text, tuple(prefixes), token, operands)
        prefixes.append(token)
    raise ValueError(f"empty template {text!r}")


def _words(text: str):
    """(word, start, text before it) for the blank-separated words, placeholders kept whole."""
    position = 0
    for found in re.finditer(r"(?:\{[^{}]*\}|\S)+", text):
        yield found.group(), found.start(), text[position:found.start()]
        position = found.end()


def _operand_tokens(text: str, separator: re.Pattern[str]):
    """(token, the text before it) for the operand part of a template (after the mnemonic,
    from which blanks separate it whatever the operand separator is)."""
    blank = len(text) - len(text.lstrip())
    previous_end = 0
    for token, column in split_operands(text[blank:], separator, protect_placeholders=True):
        start = column - 1 + blank
        yield token, text[previous_end:start]
        previous_end = start + len(token)


def split_statement(text: str, separator: re.Pattern[str], head_words: int = 1) -> list[tuple[str, int]]:
    """(token, column) pairs: the first ``head_words`` blank-separated words (prefixes and the
    mnemonic), then the operands cut at ``separator``."""
    tokens: list[tuple[str, int]] = []
    position = 0
    for _ in range(head_words):
        word = re.compile(r"\s*(\S+)").match(text, position)
        if word is None:
            return tokens
        tokens.append((word.group(1), word.start(1) + 1))
        position = word.end()
    blank = re.compile(r"\s*").match(text, position).end()
    return tokens + [(token, column + blank) for token, column in split_operands(text[blank:], separator)]


def split_operands(text: str, separator: re.Pattern[str], *,
                   protect_placeholders: bool = False) -> list[tuple[str, int]]:
    """Split at ``separator`` into (token, column) pairs; separators inside brackets don't
    split (nor inside template placeholders, with ``protect_placeholders``)."""
    tokens: list[tuple[str, int]] = []
    depth = 0
    start: int | None = None
    position = 0
    opening, closing = ("([", ")]") if protect_placeholders else ("([{", ")]}")
    while position < len(text):
        character = text[position]
        if protect_placeholders and character == "{":
            end = text.find("}", position)
            if end > 0:
                start = position if start is None else start
                position = end + 1
                continue
        if depth == 0 and (match := separator.match(text, position)) and match.end() > position:
            if start is not None:
                tokens.append((text[start:position], start + 1))
                start = None
            position = match.end()
            continue
        if start is None:
            start = position
        if character in opening:
            depth += 1
        elif character in closing:
            depth = max(0, depth - 1)
        position += 1
    if start is not None:
        tokens.append((text[start:].rstrip(), start + 1))
    return tokens


# --- predicates ------------------------------------------------------------------------

_BINARY = {ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
           ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.Add: operator.add,
           ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Mod: operator.mod}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: lambda a, b: a in b,
            ast.NotIn: lambda a, b: a not in b}
_UNARY = {ast.Invert: operator.invert, ast.USub: operator.neg, ast.Not: operator.not_}


def compile_predicate(text: str, known_fields: set[str]) -> Predicate:
    """``"cdst & 4 == 0"`` → a function of the raw field values (its ``fields`` attribute
    names those it reads); ValueError for anything but integer arithmetic, comparisons,
    conditional expressions and boolean logic over ``known_fields``."""
    evaluate, names = _compile(text, known_fields)

    def predicate(fields: Mapping[str, int]) -> bool:
        return bool(evaluate(fields))

    predicate.fields = names
    return predicate


def compile_expression(text: str | int, known_fields: set[str]) -> Callable[[Mapping[str, int]], int]:
    """``"0x7fc if 4 <= input <= 13 else 0"`` (or a plain number) → a function of the raw field
    values giving a number; its ``fields`` attribute names the fields it reads."""
    if isinstance(text, int):
        def constant(fields: Mapping[str, int], value=text) -> int:
            return value
        constant.fields = frozenset()
        return constant
    evaluate, names = _compile(text, known_fields)

    def expression(fields: Mapping[str, int]) -> int:
        return int(evaluate(fields))

    expression.fields = names
    return expression


def _compile(text: str, known_fields: set[str]):
    tree = ast.parse(text, mode="eval").body

    def build(node) -> Callable[[Mapping[str, int]], object]:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return lambda fields, value=node.value: value
        if isinstance(node, ast.Name):
            if node.id not in known_fields:
                raise ValueError(f"predicate {text!r}: no field named {node.id!r}")
            return lambda fields, name=node.id: fields[name]
        if isinstance(node, (ast.Tuple, ast.List)):
            items = [build(item) for item in node.elts]
            return lambda fields: tuple(item(fields) for item in items)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left, right, apply = build(node.left), build(node.right), _BINARY[type(node.op)]
            return lambda fields: apply(left(fields), right(fields))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            operand, apply = build(node.operand), _UNARY[type(node.op)]
            return lambda fields: apply(operand(fields))
        if isinstance(node, ast.BoolOp):
            parts = [build(value) for value in node.values]
            if isinstance(node.op, ast.And):
                return lambda fields: all(part(fields) for part in parts)
            return lambda fields: any(part(fields) for part in parts)
        if isinstance(node, ast.Compare) and all(type(op) in _COMPARE for op in node.ops):
            terms = [build(node.left), *(build(value) for value in node.comparators)]
            tests = [_COMPARE[type(op)] for op in node.ops]
            return lambda fields: all(test(terms[i](fields), terms[i + 1](fields)) for i, test in enumerate(tests))
        if isinstance(node, ast.IfExp):
            test, chosen, other = build(node.test), build(node.body), build(node.orelse)
            return lambda fields: chosen(fields) if test(fields) else other(fields)
        raise ValueError(f"predicate {text!r}: {ast.dump(node)[:40]} is not allowed")

    return build(tree), frozenset(node.id for node in ast.walk(tree) if isinstance(node, ast.Name))
