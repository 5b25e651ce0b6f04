"""Every instruction set's ``(hex, text)`` table, checked both ways by one test (the style of
Mesa's disassembler tests): the words decode and print as the text, and the text parses and
encodes to the words."""

from __future__ import annotations

import pytest
from conformance_support import INSTRUCTION_SETS, all_table_rows, isa, table_comments, table_rows

ROWS = all_table_rows()


@pytest.mark.parametrize("row", ROWS, ids=[row.id for row in ROWS])
def test_row_both_ways(row):
    face = isa(row.name)
    decoded = face.decode(list(row.words))
    assert decoded.length == len(row.words)
    assert face.format(decoded) == row.text
    assert face.encode(face.parse(row.text, allow=face.permissions)) == row.words


@pytest.mark.parametrize("name", INSTRUCTION_SETS)
def test_every_instruction_set_has_a_table_that_says_where_its_pairs_come_from(name):
    rows = table_rows(name)
    assert 20 <= len(rows) <= 60, len(rows)
    assert any("source" in comment.lower() for comment in table_comments(name))
    assert len({row.words for row in rows}) == len(rows), "a row is listed twice"
