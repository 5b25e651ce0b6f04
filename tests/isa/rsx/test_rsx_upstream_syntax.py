"""Syntax that cgc and homebrew tools write, read as their authors mean it (issue 12): programs
of ours with the shape of the real ones."""

from __future__ import annotations

import pytest

from shaderkit.core.diagnostics import DiagnosticError
from shaderkit.isa.rsx.assembly import assemble
from shaderkit.isa.rsx.container import ProgramKind
from shaderkit.isa.rsx.description_fragment import FRAGMENT
from shaderkit.isa.rsx.listing import listing


def words(source: str) -> list[tuple[int, ...]]:
    return [instruction.words + (instruction.literal or ()) for instruction in assemble(source).program.instructions]


@pytest.mark.parametrize("old, new", [("!!FP1.0", "!!ARBfp1.0"), ("!!VP1.0", "!!ARBvp1.0"), ("!!VP1.1", "!!ARBvp1.0")])
def test_nv_1x_headers_read_as_the_arb_ones(old, new):
    body = "MOVR R0, f[COL0];\nEND\n" if "FP" in old else "MOV o[HPOS], v[OPOS];\nEND\n"
    assert words(f"{old}\n{body}") == words(f"{new}\n{body}")
    kind = ProgramKind.FRAGMENT if "FP" in old else ProgramKind.VERTEX
    assert assemble(f"{old}\n{body}").program.kind is kind


def test_an_unknown_header_lists_the_ones_read():
    with pytest.raises(DiagnosticError, match="expected !!ARBvp1.0, .*!!FP1.0"):
        assemble("!!FP3.0\nEND\n")


@pytest.mark.parametrize("unit", [0, 3, 15])
def test_texture_units_written_texn_are_the_texture_operand(unit):
    named = words(f"!!ARBfp1.0\nTEX R0, f[TEX0], TEX{unit}, 2D;\nTXP R1, f[TEX1], TEX{unit}, CUBE;\nEND\n")
    assert named == words(f"!!ARBfp1.0\nTEX R0, f[TEX0], texture[{unit}], 2D;\n"
                          f"TXP R1, f[TEX1], texture[{unit}], CUBE;\nEND\n")
    assert FRAGMENT.decode(named[0]).fields["texture_unit"] == unit
    # The printed spelling stays texture[n].
    assert f"texture[{unit}]" in FRAGMENT.format(FRAGMENT.decode(named[0]))


def test_the_rpcs3_style_listing_of_a_texture_fetch_reads_back():
    program = assemble("!!ARBfp1.0\nTEX R0, f[TEX2], texture[5], 2D;\nEND\n").program
    text = listing(program)
    assert "TEX5" in text
    assert assemble(text, kind=ProgramKind.FRAGMENT).program == program


@pytest.mark.parametrize("kind", ["!!ARBvp1.0", "!!ARBfp1.0"])
def test_a_param_bound_to_program_locals_is_a_declaration(kind):
    body = "MOV o[HPOS], v[0];" if "vp" in kind else "MOVR R0, f[COL0];"
    assert words(f"{kind}\nPARAM c[1] = {{ program.local[0] }};\n{body}\nEND\n") == words(f"{kind}\n{body}\nEND\n")


def test_a_multi_line_param_array_gives_its_rows_to_the_constants_cgc_numbers():
    source = ("!!ARBvp1.0\nPARAM c[10] = { program.local[0..7],\n"
              "\t\t{ 0.5, 2, 0, 1 },\n\t\t{ 3 } };\nMOV o[HPOS], c[8];\nMOV o[COL0], c[9];\nEND\n")
    assembled = assemble(source)
    assert assembled.constants == {8: (0.5, 2.0, 0.0, 1.0), 9: (3.0, 3.0, 3.0, 3.0)}


def test_a_const_line_wins_over_the_value_in_the_array():
    source = ("!!ARBvp1.0\n#const c[8] = 0 1 0 0\nPARAM c[9] = { program.local[0..7],\n\t\t{ 0, 1 } };\n"
              "MOV o[HPOS], c[8];\nEND\n")
    assert assemble(source).constants == {8: (0.0, 1.0, 0.0, 0.0)}


def test_errors_after_a_joined_statement_keep_their_line_numbers():
    source = "!!ARBvp1.0\nPARAM c[2] = { { 1, 2, 3, 4 },\n\t{ 5, 6, 7, 8 } };\nFOO R0;\nEND\n"
    with pytest.raises(DiagnosticError) as caught:
        assemble(source)
    assert [(d.line, d.col) for d in caught.value.diagnostics] == [(4, 1)]


def test_vertex_constants_need_no_declaration():
    # Vertex constants live in their own memory, set by the host (run --const c[N]=…).
    [instruction] = assemble("!!ARBvp1.0\nMUL o[HPOS], v[0], c[12];\nEND\n").program.instructions
    assert (instruction.words[1] >> 12) & 0x3FF == 12
