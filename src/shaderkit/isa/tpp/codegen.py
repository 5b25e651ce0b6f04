"""Python source for what one prepared program row (:func:`.exact.decode_slot`) computes.

The compiled fast paths of both models write a program out as straight code, registers
as locals named ``r0``-``r7`` (plus ``flag`` and ``odr``); this module says how one row
reads in that code: :func:`result_expression` is the value the row computes, from its
result table or, where a short arithmetic form reproduces that table exactly, from the
arithmetic.
"""

from __future__ import annotations

import functools

import numpy as np

from .exact import (FIELD_ROM, FIELD_SOURCE1, FIELD_SOURCE2, FIELD_TABLE, TABLE_NAMES, VALUE_CONSTANTS,
                    VALUE_FLAG, VALUE_ODR)
from .semantics import result_tables

__all__ = ["ARITHMETIC_FORMS", "operand", "result_expression", "table_forms", "write_statement"]


def operand(index: int) -> str:
    if index < 8:
        return f"r{index}"
    if index == VALUE_FLAG:
        return "flag"
    if index == VALUE_ODR:
        return "odr"
    return str(index - VALUE_CONSTANTS)


# Arithmetic that may stand in for a result table: a look-up is a load on the critical
# path of every dependency chain, an add or a mask is one cycle. Each form is used only for
# the tables it reproduces on all 64 x 64 inputs (checked in :func:`table_forms`), so the
# semantics stay those of :func:`.semantics.result_tables`.
ARITHMETIC_FORMS = (
    "{b}",
    "({a} + {b}) & 63",
    "({a} - {b}) & 63",
    "{a} & {b}",
    "{a} | {b}",
    "{a} ^ {b}",
    "63 ^ ({a} & {b})",
    "63 ^ ({a} | {b})",
    "({a} << {b}) & 63",
    "{a} >> {b}",
    "({a} > {b}) + 2 * ({a} < {b})",
)


@functools.cache
def table_forms() -> dict[int, str]:
    """Table offset (as in FIELD_TABLE) → the arithmetic form that computes that table."""
    first, second = np.meshgrid(np.arange(64, dtype=np.int64), np.arange(64, dtype=np.int64), indexing="ij")
    forms = {}
    for index, name in enumerate(TABLE_NAMES):
        table = result_tables()[name].astype(np.int64)
        for form in ARITHMETIC_FORMS:
            values = eval(form.format(a="first", b="second"), {"first": first, "second": second})  # noqa: S307
            if np.array_equal(np.broadcast_to(values, table.shape), table):
                forms[index * 4096] = form
                break
    return forms


def result_expression(fields) -> str:
    table = int(fields[FIELD_TABLE])
    first, second = int(fields[FIELD_SOURCE1]), int(fields[FIELD_SOURCE2])
    form = table_forms().get(table) if not fields[FIELD_ROM] else None
    if form is not None:
        return form.format(a=operand(first), b=operand(second))
    if first >= VALUE_CONSTANTS:
        return f"tables[{table + (first - VALUE_CONSTANTS) * 64} + {operand(second)}]"
    if second >= VALUE_CONSTANTS:
        return f"tables[{table + second - VALUE_CONSTANTS} + {operand(first)} * 64]"
    return f"tables[{table} + {operand(first)} * 64 + {operand(second)}]"


def write_statement(name: str, cond: int) -> str:
    """``name ← result``, if COND = 11 or COND = flag: a select, not a branch (Numba compiles
    long straight code much faster, and the flag is unpredictable)."""
    return f"{name} = result" if cond == 3 else f"{name} += (result - {name}) * (flag == {cond})"
