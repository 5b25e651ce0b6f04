"""The RSX macro expansions as text (assembly_macros): the statements they write, when they
leave a statement alone, and the same expansions as core macro handlers, whose statements the
descriptions read to the old assembler's words."""

from __future__ import annotations

import pytest

from shaderkit.core.asm import Assembler
from shaderkit.core.diagnostics import DiagnosticError
from shaderkit.isa.rsx import face
from shaderkit.isa.rsx.assembly import assemble
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


# The words the old hand-written RSX assembler (retired in issue 11) gave these programs, which
# matched PSL1GHT cgcomp on every golden: each expansion reads as it did there.
OLD_ASSEMBLER_WORDS = {
    VP: ["00009c6c 00c0000d 8086c0a3 6041fffc", "00211c6c 00400000 0286c083 6041fffc",
         "001f9c6c 6800000d 8106c08a a0b0027c", "00021c6c 00800000 08aa8243 60411ffc",
         "001f9c6c 7000000d 8106c080 0230007c", "00021c6c 0100008d 8086c243 61219ffc",
         "2401dc6c 0100000d 8086c143 62219ffd"],
    FP: ["03001e00 1c9dc804 00000008 0001c800", "01401e80 3c9dc804 0001c800 0001c800",
         "09401408 1c9dd400 0001c802 0001c800 00000000 00000000 00000000 00000000",
         "1d401008 1c9dfe10 0001c800 0001c800", "02401008 1c9dfe10 0001fe00 0001c800",
         "3c401e02 1c9dea10 0001c800 0001c800", "1d000208 1c9c0000 0001c800 0001c800",
         "02000208 1c9c0010 0000aa00 0001c800", "1c000204 00100010 0001c800 0001c800",
         "04800a08 1c9fc800 0001c808 0001c808", "84800a06 1c9dc800 0001c804 0001c810",
         "15000608 1c9c2204 0001c800 0001c800", "01001808 1c9c8810 0001c800 0001c800",
         "15000608 1c9c3604 0001c800 0001c800", "01001800 1c9dc810 0001c800 0001c800",
         "16000600 1c9dc804 0001c800 0001c800", "1f001e01 1c9dc804 0001c808 0001c80c"],
}


@pytest.mark.parametrize("kind, statements", PROGRAMS, ids=["vertex", "fragment"])
def test_as_core_macro_handlers_they_make_the_old_assemblers_words(kind, statements):
    expected = [tuple(int(word, 16) for word in line.split()) for line in OLD_ASSEMBLER_WORDS[kind]]
    lines = [code + ";" + ("  #!" + hints if hints else "") for code, _, hints in
             (statement.partition("  #!") for statement in statements)]
    program = assemble(HEADERS[kind] + "\n".join(lines) + "\nEND\n").program
    assert [instruction.words + (instruction.literal or ()) for instruction in program.instructions] == expected
    # The handlers on a bare core driver (scratch R4: R3 is the highest temp named) give the same.
    core = Assembler(DESCRIPTIONS[kind], comment_prefixes=("//",), macros=macro_handlers(kind, 4),
                     override_marker="#!", read_overrides=lambda text: read_hints(text, kind))
    bare = core.assemble("\n".join(statements))
    bare.instructions[-1] = core.with_fields(bare.instructions[-1], {"end": 1})
    assert [instruction.words for instruction in bare.instructions] == expected


def test_an_error_inside_an_expansion_points_at_the_statement():
    source = HEADERS[VP] + "LRP R0, v[1], v[2], R2;\nEND\n"
    with pytest.raises(DiagnosticError) as caught:
        assemble(source)
    [diagnostic] = caught.value.diagnostics
    assert (diagnostic.line, diagnostic.col, diagnostic.message) == (
        3, 1, "in the expansion of 'LRP': 'v[2]' disagrees with an earlier part of the statement: the instruction "
              "has one input attribute")


def test_native_on_a_statement_that_never_expands_is_refused():
    with pytest.raises(DiagnosticError, match="'native' applies only to fragment"):
        assemble(HEADERS[FP] + "SUBR R0, R1, R2;  #! native\nEND\n")
