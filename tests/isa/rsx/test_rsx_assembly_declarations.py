"""The RSX declarations (assembly_declarations) as core directive handlers with their prescan:
declared names become aliases the descriptions read to the old assembler's words, and the old
assembler, which runs the same handlers, reports their errors where they were written."""

from __future__ import annotations

import pytest

from shaderkit.core.asm import Assembler
from shaderkit.core.diagnostics import DiagnosticError
from shaderkit.isa.rsx import assembly_declarations
from shaderkit.isa.rsx.assembler import OPERAND_GRAMMAR, assemble
from shaderkit.isa.rsx.container import ProgramKind
from shaderkit.isa.rsx.description_fragment import FRAGMENT
from shaderkit.isa.rsx.description_vertex import VERTEX

VP, FP = ProgramKind.VERTEX, ProgramKind.FRAGMENT
DESCRIPTIONS = {VP: VERTEX, FP: FRAGMENT}
HEADERS = {VP: "!!VP2.0\n", FP: "!!ARBfp1.0\n"}


def core_assembler(kind: ProgramKind) -> Assembler:
    return Assembler(DESCRIPTIONS[kind], comment_prefixes=("#",), statement_separator=";",
                     prescan=assembly_declarations.prescan(kind),
                     directives=assembly_declarations.directives(kind, OPERAND_GRAMMAR))


def old_words(kind: ProgramKind, source: str) -> list[tuple[int, ...]]:
    program = assemble(HEADERS[kind] + source + "\nEND\n").program
    return [instruction.words + (instruction.literal or ()) for instruction in program.instructions]


@pytest.mark.parametrize("kind, source", [
    # x and y skip R1 and R2, although only later statements name them.
    (VP, "TEMP x, y;\nMOV x, vertex.position;\nADD y, x, c[2];\nMOV R1, y;\nMOV R2, R1;\n"
         "MOV result.position, R2;"),
    (VP, "OUTPUT position = result.position; ATTRIB colour = vertex.color; PARAM scale = c[7];\n"
         "MUL position, colour, scale;"),
    (FP, "SHORT TEMP h; TEMP t; PARAM half = {0.5, 0.5, 0.5, 0.5};\nMOVH h, f[COL0];\nMUL t, h, half;\n"
         "MOV R0, t;"),
])
def test_declared_names_read_through_the_core_driver_as_in_the_old_assembler(kind, source):
    program = core_assembler(kind).assemble(source)
    last = program.instructions[-1]
    program.instructions[-1] = core_assembler(kind).with_fields(last, {"end": 1})
    assert [instruction.words for instruction in program.instructions] == old_words(kind, source)


def test_a_vertex_param_value_takes_the_lowest_constant_nothing_holds_or_names():
    source = "PARAM p = {1, 2, 3, 4};\nMOV R1, c[0]; ADD result.position, R1, p; MOV R0, c[2];"
    program = core_assembler(VP).assemble(source)
    declared = program.state.data["declarations"]
    assert program.state.aliases["p"] == "c[1]" and set(declared.constants) == {1}
    assert assemble(HEADERS[VP] + source + "\nEND").constants == {1: (1.0, 2.0, 3.0, 4.0)}


def test_declaration_errors_point_into_what_was_written():
    with pytest.raises(DiagnosticError) as caught:
        assemble(HEADERS[VP] + "TEMP x, ;\nSHORT FOO y;\nTEMP R99;\nOUTPUT o = o[HPOS] junk;\nEND")
    found = [(d.line, d.col, d.message) for d in caught.value.diagnostics]
    assert found == [(2, 9, "expected a register name, found the end of the statement"),
                     (3, 7, "expected TEMP, found 'FOO'"), (4, 6, "R99: R registers go up to R31"),
                     (5, 20, "expected ';', found 'junk'")]


def test_a_name_declared_twice_is_an_error_whatever_declares_it():
    for source in ("TEMP a; TEMP a;", "TEMP a; ADDRESS a;", "ADDRESS a; LONG TEMP a;"):
        with pytest.raises(DiagnosticError) as caught:
            assemble(HEADERS[VP] + source + "\nEND")
        assert [d.message for d in caught.value.diagnostics] == ["'a' is declared twice"]
