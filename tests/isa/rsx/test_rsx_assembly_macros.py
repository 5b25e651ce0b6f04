"""The RSX macro expansions as text (assembly_macros): the statements they write, when they
leave a statement alone, and the same expansions as core macro handlers, whose statements the
descriptions read to the old assembler's words."""

from __future__ import annotations

import pytest

from shaderkit.core.asm import Assembler
from shaderkit.core.diagnostics import DiagnosticError
from shaderkit.isa.rsx import face
from shaderkit.isa.rsx.assembler import assemble
from shaderkit.isa.rsx.assembly_hints import read_hints
from shaderkit.isa.rsx.assembly_macros import expansion, macro_handlers, refusal, written_lanes
from shaderkit.isa.rsx.container import ProgramKind
from shaderkit.isa.rsx.description_fragment import FRAGMENT
from shaderkit.isa.rsx.description_vertex import VERTEX

VP, FP = ProgramKind.VERTEX, ProgramKind.FRAGMENT
HEADERS = {VP: "!!ARBvp1.0\nOPTION NV_vertex_program3;\n", FP: "!!ARBfp1.0\nOPTION NV_fragment_program2;\n"}
DESCRIPTIONS = {VP: VERTEX, FP: FRAGMENT}


def test_the_last_statement_keeps_every_suffix_and_the_pieces_only_the_precision():
    assert expansion(FP, "POWHC_SAT", ["R2.x(GT.x)", "R0.x", "R0.y"], 4) == [
        "LG2H R4.x, R0.x", "MULH R4.x, R4.x, R0.y", "EX2HC_SAT R2.x(GT.x), R4.x"]


def test_swizzles_compose_with_what_is_written_whatever_the_register_is_called():
    assert expansion(FP, "LITR", ["R1", "-colour.zwzw"], 3) == [
        "MAXR R3.yw, -colour.zzzw, {0}", "LG2R R3.w, R3.w", "MULR R3.w, R3.w, -colour.w", "LIFR R1, R3.yyww"]
    # Bars with the swizzle after them, and a bare number, are written the way every reader takes.
    assert expansion(FP, "DDYR", ["R0.w", "|R1|.yx"], 2) == [
        "DDYR R2.xy, |R1.x|", "MOVR R2.zw, R2.xyxy", "DDYR R2.xy, |R1.yxxx|", "MOVR R0.w, R2"]
    assert expansion(FP, "LRPR", ["R0.xz", "0.5", "R1", "R2"], 3)[0] == "MADR R3.xz, -{0.5}, R2, R2"


def test_sub_negates_and_abs_drops_the_sign():
    assert expansion(VP, "SUB", ["R0", "R1", "-|R2|"], 5) == ["ADD R0, R1, |R2|"]
    assert expansion(VP, "ABSC", ["R0", "-R1.x"], 5) == ["MOVC R0, |R1.x|"]
    assert expansion(FP, "ABSR", ["H0", "-|-R1|"], 5) == ["MOVR H0, |R1|"]


@pytest.mark.parametrize("kind, mnemonic, operands, native", [
    (FP, "DDXR", ["R0.xy", "R1"], False),  # x and y: the hardware's own lanes
    (FP, "LRPR", ["R0", "R1", "R2", "R3"], True),
    (FP, "MOVR", ["R0", "R1"], False),
    (FP, "LRPR", ["R0", "R1", "R2"], False),  # the reader reports the count
    (VP, "LIT", ["R0", "R1"], False),  # a VP opcode of its own
])
def test_statements_left_as_written(kind, mnemonic, operands, native):
    assert expansion(kind, mnemonic, operands, 4, native=native) is None


def test_the_write_mask_is_read_off_the_destination_or_given():
    assert written_lanes("R0.zw (GT.x)") == (False, False, True, True)
    assert written_lanes("result.depth") == (True, True, True, True)
    assert expansion(FP, "DDXR", ["result.depth", "R1"], 2, written=(False, False, True, False))[-1] == \
        "MOVR result.depth, R2"


def test_the_face_refuses_an_expanding_statement_in_the_modules_words():
    with pytest.raises(Exception) as caught:
        face.parse(FP, "POWR R0.x, R1.x, R2.y;")
    assert caught.value.message == refusal("POW")


PROGRAMS = [
    (VP, ["SUB R1, R0, vertex.position", "ABS R2, -R1.x", "POW R0.x, R1.y, R2.z", "LRPC_SAT R3.xy, R0, R1, R2"]),
    (FP, ["SUBR R0, R1, -R2.x", "ABSH H0, -|R1|", "LITH R1, R0.zwzw", "POWR R2.x(GT.x), R0.x, R0.y",
          "LRPX_SAT R3.xz, R0, R1, R2", "DDXR R0.zw, R1.wzyx", "DDYR R0.xy, R1", "LRPR R0, R1, R2, R3  #! native"]),
]


@pytest.mark.parametrize("kind, statements", PROGRAMS, ids=["vertex", "fragment"])
def test_as_core_macro_handlers_they_make_the_old_assemblers_words(kind, statements):
    lines = [code + ";" + ("  #!" + hints if hints else "") for code, _, hints in
             (statement.partition("  #!") for statement in statements)]
    old = assemble(HEADERS[kind] + "\n".join(lines) + "\nEND\n").program
    scratch = 4  # the old assembler's: R3 is the highest temp named
    core = Assembler(DESCRIPTIONS[kind], comment_prefixes=("//",), macros=macro_handlers(kind, scratch),
                     override_marker="#!", read_overrides=lambda text: read_hints(text, kind))
    program = core.assemble("\n".join(statements))
    last = program.instructions[-1]
    program.instructions[-1] = core.with_fields(last, {"end": 1})
    assert [instruction.words for instruction in program.instructions] == \
        [instruction.words + (instruction.literal or ()) for instruction in old.instructions]


def test_an_error_inside_an_expansion_points_at_the_statement():
    source = HEADERS[VP] + "LRP R0, v[1], v[2], R2;\nEND\n"
    with pytest.raises(DiagnosticError) as caught:
        assemble(source)
    [diagnostic] = caught.value.diagnostics
    assert (diagnostic.line, diagnostic.col, diagnostic.message) == (
        3, 1, "in the expansion of 'LRP': an instruction reads one input attribute (a single v[] index per slot)")


def test_native_on_a_statement_that_never_expands_is_refused():
    with pytest.raises(DiagnosticError, match="'native' applies only to fragment"):
        assemble(HEADERS[FP] + "SUBR R0, R1, R2;  #! native\nEND\n")
