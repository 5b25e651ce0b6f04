"""The ``#!`` hints of RSX assembly text, read as raw field values.

``#! field=value …`` after a statement sets fields of :mod:`.fields` (values decimal or hex)
once the instruction is built, ``literal=w,w,w,w`` the words of the FP literal slot (the
description's 128-bit ``literal`` field, x in the low word), and ``native`` keeps an FP
``LRP``/``LIT``/``POW``/``DDX``/``DDY`` as its single hardware opcode. :func:`read_hints` returns
the field values in the shape core's assembler driver applies as field overrides
(:mod:`shaderkit.core.asm_hooks`); ``native`` is no field, so it is asked separately
(:func:`is_native`), as a macro handler would ask its statement's hint text.
"""

from __future__ import annotations

import re

from shaderkit.core.diagnostics import SourceError

from . import fields as layout
from . import syntax
from .container import ProgramKind
from .description import literal_value

NATIVE = "native"
LITERAL = "literal"  # the description's field of the literal slot's four words
LITERAL_LANES = 4
_WORD = re.compile(r"0[xX][0-9a-fA-F]{1,8}|\d{1,10}")  # a 32-bit word, with room to say it is too big
_VALUE = re.compile(r"0[xX][0-9a-fA-F]{1,10}|\d{1,12}")


def read_hints(text: str, kind: ProgramKind) -> dict[str, int]:
    """The raw field values ``text`` (what follows ``#!``) sets; SourceError columns count in
    ``text`` from 1."""
    fields_layout = layout.VP if kind is ProgramKind.VERTEX else layout.FP
    values: dict[str, int] = {}
    for match in re.finditer(r"\S+", text):
        item = match.group()
        where = match.start() + 1
        if item == NATIVE:
            continue
        name, _, value = item.partition("=")
        if name == LITERAL and value:
            values[LITERAL] = _literal(value.split(","), where, len(item))
            continue
        if name not in fields_layout.fields or not _VALUE.fullmatch(value):
            raise SourceError(f"'{item}' is not a hint (field=value, literal=w,w,w,w or native)",
                              where, len(item))
        number = syntax.parse_int(value)
        if number >= 1 << fields_layout.width(name):
            raise SourceError(f"{number:#x} does not fit in the {fields_layout.width(name)}-bit field {name}",
                              where, len(item))
        values[name] = number
    return values


def _literal(parts: list[str], where: int, length: int) -> int:
    if len(parts) != LITERAL_LANES or not all(_WORD.fullmatch(part) for part in parts):
        raise SourceError("literal= takes four 32-bit words, e.g. literal=0x3f800000,0,0,0", where, length)
    words = [syntax.parse_int(part) for part in parts]
    if any(word > 0xFFFFFFFF for word in words):
        raise SourceError("literal words are 32-bit", where, length)
    return literal_value(words)


def is_native(text: str) -> bool:
    """Whether the hint text asks for the single hardware opcode of an expanded FP macro."""
    return NATIVE in text.split()
