"""The RSX declarations (assembly_declarations) as core directive handlers with their prescan:
declared names become aliases the descriptions read to the words of the same program written
with the registers and operands by hand, and errors point where they were written."""

from __future__ import annotations

import pytest

from shaderkit.core.diagnostics import DiagnosticError
from shaderkit.isa.rsx.assembly import assemble
from shaderkit.isa.rsx.container import ProgramKind
from shaderkit.isa.rsx.description_vertex import VERTEX

VP, FP = ProgramKind.VERTEX, ProgramKind.FRAGMENT
HEADERS = {VP: "!!VP2.0\n", FP: "!!ARBfp1.0\n"}


def words(kind: ProgramKind, source: str) -> list[tuple[int, ...]]:
    program = assemble(HEADERS[kind] + source + "\nEND\n").program
    return [instruction.words + (instruction.literal or ()) for instruction in program.instructions]


@pytest.mark.parametrize("kind, source, by_hand", [
    # x and y skip R1 and R2, although only later statements name them.
    (VP, "TEMP x, y;\nMOV x, vertex.position;\nADD y, x, c[2];\nMOV R1, y;\nMOV R2, R1;\nMOV result.position, R2;",
     "MOV R0, vertex.position;\nADD R3, R0, c[2];\nMOV R1, R3;\nMOV R2, R1;\nMOV result.position, R2;"),
    (VP, "OUTPUT position = result.position; ATTRIB colour = vertex.color; PARAM scale = c[7];\n"
         "MUL position, colour, scale;", "MUL result.position, vertex.color, c[7];"),
    (FP, "SHORT TEMP h; TEMP t; PARAM half = {0.5, 0.5, 0.5, 0.5};\nMOVH h, f[COL0];\nMUL t, h, half;\n"
         "MOV R0, t;", "MOVH H2, f[COL0];\nMUL R2, H2, {0.5, 0.5, 0.5, 0.5};\nMOV R0, R2;"),
    # A declared address register inside brackets, and a declared name with a swizzle and a sign.
    (VP, "ADDRESS index; ALIAS n = -R1.zw;\nARL index.x, v[0].x;\nMOV R0, c[index.x+10];\nADD R0, n.x, -n;",
     "ARL A0.x, v[0].x;\nMOV R0, c[A0.x+10];\nADD R0, -R1.z, R1.zwww;"),
], ids=["temps", "aliases", "fragment", "address"])
def test_declared_names_read_as_the_program_written_by_hand(kind, source, by_hand):
    assert words(kind, source) == words(kind, by_hand)


def test_a_vertex_param_value_takes_the_lowest_constant_nothing_holds_or_names():
    source = "PARAM p = {1, 2, 3, 4};\nMOV R1, c[0]; ADD result.position, R1, p; MOV R0, c[2];"
    assembled = assemble(HEADERS[VP] + source + "\nEND")
    assert assembled.constants == {1: (1.0, 2.0, 3.0, 4.0)}
    reading_p = assembled.program.instructions[1].words
    assert VERTEX.decode(reading_p).fields["constant"] == 1


def test_declaration_errors_point_into_what_was_written():
    with pytest.raises(DiagnosticError) as caught:
        assemble(HEADERS[VP] + "TEMP x, ;\nSHORT FOO y;\nTEMP R99;\nOUTPUT o = o[HPOS] junk;\nEND")
    found = [(d.line, d.col, d.message) for d in caught.value.diagnostics]
    assert found == [(2, 9, "expected a register name, found the end of the statement"),
                     (3, 7, "expected TEMP, found 'FOO'"), (4, 6, "R99: R registers go up to R31"),
                     (5, 12, "'o[HPOS] junk' is not a valid destination (did you mean o[HPOS]?)")]


def test_a_name_declared_twice_is_an_error_whatever_declares_it():
    for source in ("TEMP a; TEMP a;", "TEMP a; ADDRESS a;", "ADDRESS a; LONG TEMP a;"):
        with pytest.raises(DiagnosticError) as caught:
            assemble(HEADERS[VP] + source + "\nEND")
        assert [d.message for d in caught.value.diagnostics] == ["'a' is declared twice"]
