"""The RSX assembler: cgcomp's expansions, the syntax beyond single instructions (declarations,
co-issue, hints, form-B listings), errors with file:line:col, and a never-crash fuzz.

Instruction encodings are checked word by word in test_rsx_printer.py; here expanded code is
checked through its disassembly, which that table pins down.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shaderkit.core.diagnostics import DiagnosticError
from shaderkit.isa.rsx.assembly import assemble
from shaderkit.isa.rsx.container import ProgramKind
from shaderkit.isa.rsx.disassembler import disassemble
from shaderkit.isa.rsx.limits import VP_CODE_SLOTS

VP = "!!ARBvp1.0\nOPTION NV_vertex_program3;\n"
FP = "!!ARBfp1.0\nOPTION NV_fragment_program2;\n"


def body(source: str) -> list[str]:
    """The disassembly of what ``source`` assembles to, declarations and header dropped."""
    lines = disassemble(assemble(source).program).splitlines()
    return [line for line in lines[2:lines.index("END")] if not line.startswith("#")]


def errors(source: str, **options) -> list[tuple[int, int, str]]:
    with pytest.raises(DiagnosticError) as caught:
        assemble(source, "bad.txt", **options)
    return [(diagnostic.line, diagnostic.col, diagnostic.message) for diagnostic in caught.value.diagnostics]


# --- expansions (spec 5.1, table at the end) ---------------------------------------------------


def test_vertex_sub_and_abs_are_single_instructions():
    assert body(VP + "SUB R1, R0, vertex.position;\nABS R2, R1.x;\nEND\n") == [
        "ADD R1, R0, -vertex.position;", "MOV R2, |R1.x|;"]


def test_abs_drops_the_sign_of_its_source():
    """abs applies before negate (spec 3.8): ABS of -a is |a|, not -|a|."""
    assert body(VP + "ABS R2, -R1.x;\nABS R3, -|R1|;\nEND\n") == ["MOV R2, |R1.x|;", "MOV R3, |R1|;"]
    assert body(FP + "ABSR R0, -R1.xy;\nEND\n") == ["MOVR R0, |R1.xyyy|;"]
    # A declared name's own sign is inside the bars too.
    assert body(VP + "ATTRIB flipped = -vertex.normal;\nABS R0, flipped;\nMOV R1, |flipped|;\n"
                     "MOV R2, -flipped;\nEND\n") == [
        "MOV R0, |vertex.normal|;", "MOV R1, |vertex.normal|;", "MOV R2, vertex.normal;"]


def test_vertex_pow_and_lrp_use_the_next_free_temp():
    source = VP + "TEMP R0, R1, R2, R3;\nPOW R0.x, R1.y, R2.z;\nLRP_SAT R3.xy, R0, R1, R2;\nEND\n"
    assert body(source) == [
        "LG2 R4.x, R1.y;", "MUL R4.x, R4.x, R2.z;", "EX2 R0.x, R4.x;",
        "MAD R4.xy, -R0, R2, R2;", "MAD_SAT R3.xy, R0, R1, R4;"]


def test_fragment_lit_pow_lrp_expand_and_keep_the_precision():
    source = FP + "LITH R1, R0;\nPOWH R2.x(GT.x), R0.x, R0.y;\nLRPR_SAT R3, R0, R1, R2;\nEND\n"
    assert body(source) == [
        "MAXH R4.yw, R0.xxxy, c[0];", "LG2H R4.w, R4.w;", "MULH R4.w, R4.w, R0.w;", "LIFH R1, R4.yyww;",
        "LG2H R4.x, R0.x;", "MULH R4.x, R4.x, R0.y;", "EX2H R2.x(GT.x), R4.x;",
        "MADR R4, -R0, R2, R2;", "MADR_SAT R3, R0, R1, R4;"]
    assembled = assemble(source)
    assert assembled.program.instructions[0].literal == (0, 0, 0, 0)  # the {0} of the MAX


def test_fragment_derivatives_expand_only_for_z_and_w():
    assert body(FP + "DDYR R0.xy, R1;\nEND\n") == ["DDYR R0.xy, R1;"]
    assert body(FP + "DDXR R0.zw, R1.wzyx;\nEND\n") == [
        "DDXR R2.xy, R1.yxyx;", "MOVR R2.zw, R2.xyxy;", "DDXR R2.xy, R1.wzyx;", "MOVR R0.zw, R2;"]


def test_a_tab_after_the_mnemonic_still_expands():
    assert body(FP + "POWR\tR0.x, R1.x, R2.y;\nEND\n")[0] == "LG2R R3.x, R1.x;"


def test_half_registers_count_as_their_r_storage_for_the_scratch_temp():
    assert body(FP + "POWR H9.x, H9.x, H9.y;\nEND\n")[0] == "LG2R R5.x, H9.x;"


def test_native_keeps_the_hardware_opcode():
    assert body(FP + "LRPR R0, R1, R2, R3;  #! native\nEND\n") == ["LRPR R0, R1, R2, R3;  #! native"]


def test_fragment_sub_and_abs():
    assert body(FP + "SUBR R0, R1, R2.x;\nABSH H0, R1;\nEND\n") == ["ADDR R0, R1, -R2.x;", "MOVH H0, |R1|;"]


# --- declarations, names, constants ------------------------------------------------------------


def test_declared_names():
    source = VP + "\n".join([
        "TEMP R0, acc;", "ADDRESS index;", "OUTPUT colour = result.color;", "ATTRIB normal = vertex.normal;",
        "#var float4 table :  : c[10], 4 : 0 : 1",
        "ARL index.x, normal.x;", "MOV acc, c[index.x+10];", "MOV colour, acc;", "END"])
    assert body(source) == ["ARL A0.x, vertex.normal.x;", "MOV R1, c[A0.x+10];", "MOV result.color, R1;"]


def test_fragment_param_literals_and_uniform_defaults():
    source = FP + "\n".join([
        "#var float4 tint :  : c[5] : 0 : 1", "#default tint = 1 0.5 0.25 1", "#var float4 bias :  : c[6] : 1 : 1",
        "PARAM half = {0.5};", "MULR R0, R1, c[5];", "ADDR R0, R0, c[6];", "MADR R0, R0, half, {0.5, 0.5, 0.5, 0.5};",
        "MOVR R1, {0.5, 0.25};", "END"])
    assembled = assemble(source)
    literals = [instruction.literal for instruction in assembled.program.instructions]
    assert literals == [(0x3F800000, 0x3F000000, 0x3E800000, 0x3F800000), (0, 0, 0, 0), (0x3F000000,) * 4,
                        (0x3F000000, 0x3E800000, 0, 0x3F800000)]  # {x, y} = (x, y, 0, 1)
    assert assembled.literal_constants == {1: 5, 3: 6}
    assert [(uniform.name, uniform.default) for uniform in assembled.uniforms] == [
        ("tint", ((1.0, 0.5, 0.25, 1.0),)), ("bias", None)]


def test_mixed_constant_values_in_one_literal_are_rejected_but_equal_ones_share_it():
    assert assemble(FP + "#const c[0] = 1 2 3 4\nADDR R0, c[0], {1, 2, 3, 4}.x;\nEND\n").program.slot_count == 2


def test_literal_spellings():
    """Form B's ``{0x…(value)}`` (bits count, the value is informative), raw bits, bare numbers."""
    literals = [instruction.literal for instruction in assemble(FP + "\n".join([
        "MOVR R0, {0x3f800000(1), 0x00000000(0), 0x3f000000(0.5), 0x40000000(99)}.x;",
        "MOVR R0, {0x7fc00000, -0x3f800000, -0, inf};", "MULR R0, R1, 2;", "END"])).program.instructions]
    assert literals == [(0x3F800000, 0, 0x3F000000, 0x40000000), (0x7FC00000, 0xBF800000, 0x80000000, 0x7F800000),
                        (0x40000000,) * 4]


def test_outputs_with_fixed_lanes():
    assert body(VP + "MOV result.clip[1], R0;\nMOV result.clip[3], R0;\nEND\n") == [
        "MOV result.fogcoord.z, R0;", "MOV result.pointsize.y, R0;"]
    assert body(FP + "MOVR result.depth, R0;\nMOVH result.color, H2;\nEND\n") == ["MOVR R1.z, R0;", "MOVH R0, H2;"]


def test_spellings():
    vertex = VP + "#var float4 m :  : c[0], 4 : 0 : 1\n" + "\n".join([
        "DP4 o[HPOS].x, v[OPOS], c[0];", "MOV o[TEX3], v[TEX1];", "MOV result.texcoord, vertex.texcoord;",
        "MOV o[COL1].xz (LE1.yxzw), vertex.attrib[4];", "END"])
    assert body(vertex) == ["DP4 result.position.x, vertex.position, c[0];",
                            "MOV result.texcoord[3], vertex.texcoord[1];",
                            "MOV result.texcoord[0], vertex.texcoord[0];",
                            "MOV result.color.secondary.xz(LE1.yxzw), vertex.color.secondary;"]
    fragment = FP + "TEX R0, f[TEX2], texture[1], 2D;\nMOV o[COLH], f[WPOS];\nPK4UBGC R0.x, f[FACE];\nEND\n"
    assert body(fragment) == ["TEXR R0, fragment.texcoord[2], texture[1], 2D;", "MOVR H0, fragment.position;",
                              "PKGC R0.x, fragment.facing;"]


# --- co-issue, hints, listings ------------------------------------------------------------------


def test_co_issue_puts_each_operation_on_its_unit():
    one = assemble(VP + "MOV o[7], v[0] + COS R1.xy, c[5].x;\n#var float4 k :  : c[5] : 0 : 1\nEND\n")
    other = assemble(VP + "#var float4 k :  : c[5] : 0 : 1\nCOS R1.xy, c[5].x + MOV o[7], v[0];\nEND\n")
    assert one.program == other.program
    assert body(VP + "NOP + MOV R2.w, vertex.normal.x;\nEND\n") == ["NOP + MOV R2.w, vertex.normal.x;"]


def test_hints_override_fields_and_literals():
    program = assemble(FP + "MOVR R0, R1;  #! source2=0x1c801 input=0x2\nEND\n").program
    assert program.instructions[0].words[3] == 0x0001C801
    assert program.instructions[0].fields["input"] == 2
    literal = assemble(FP + "MOVR R0, R1;  #! source1=0x2 literal=0x1,0x2,0x3,0x4\nEND\n").program
    assert literal.instructions[0].literal == (1, 2, 3, 4)


def test_form_b_vertex_listing_input():
    listing = "\n".join([
        "000: MOV o[8], v[3];", "001: COS R1.xy, c[467].x;MOV o[7], v[0];", "002: SGTC RC.x, c[467].z, R1.x;",
        "003: MOV R0.w(NE.x), R0.x;", "004: DP4 o[5].y, R0, c[467]; # last instruction"])
    assembled = assemble(listing)
    assert assembled.program.kind is ProgramKind.VERTEX
    assert assembled.program.instructions[1].words == (0x401F9C6C, 0x805D300D, 0x8106C080, 0x0079E09C)
    assert assembled.warnings == ()
    assert [diagnostic.message for diagnostic in assemble("007: MOV R0, R1;").warnings] == [
        "listed as slot 7, assembled to slot 0"]


def test_empty_programs_are_cgcomps():
    assert assemble(VP + "END\n").program.words() == (0x001F9C6C, 0x0000000D, 0x8106C083, 0x60401FFD)
    assert assemble(FP + "END\n").program.words() == (1, 0, 0, 0)


def test_vertex_program_memory_limit():
    assert (VP_CODE_SLOTS, "the program needs 513 slots; vertex program memory holds 512") == \
        (512, errors(VP + "NOP;\n" * 513 + "END\n")[0][2])


# --- errors ------------------------------------------------------------------------------------

ERROR_CASES = [
    (FP + "MOVR R0, R1\nEND\n", (3, 12, "missing ';' at the end of the statement")),
    (FP + "ADDR R0, fragment.color, fragment.texcoord[0];\nEND\n",
     (3, 26, "'fragment.texcoord[0]' disagrees with an earlier part of the statement: the instruction has one input attribute")),
    (FP + "#const c[0] = 1 0 0 0\nADDR R0, c[0], {1, 2, 3, 4};\nEND\n",
     (4, 16, "'{1, 2, 3, 4}' disagrees with an earlier part of the statement: the instruction has one literal slot")),
    (FP + "MOVR R0, c[7];\nEND\n", (3, 10, "c[7] is not declared (#const or #var)")),
    (FP + "FOO R0;\nEND\n", (3, 1, "unknown fragment program instruction 'FOO'")),
    (FP + "MOVR R48, R1;\nEND\n", (3, 6, "R48: R registers go up to R47")),
    (FP + "IF GT.x;\nEND\n", (3, 1, "IF is never closed (ENDIF)")),
    (FP + "ENDIF;\nEND\n", (3, 1, "ENDIF without a matching IF")),
    (FP + "IF GT.x;\nENDLOOP;\nENDIF;\nEND\n", (4, 1, "ENDLOOP without a matching LOOP (the open block is IF)")),
    (FP + "MOVR R0.xq, R1;\nEND\n", (3, 6, "'R0.xq' is not a valid destination")),
    (FP + "MOVR R0.yx, R1;\nEND\n", (3, 9, "'yx' is not a write mask (x, y, z, w in that order)")),
    (FP + "TEXR R0, f[TEX0], texture[0], 4D;\nEND\n",
     (3, 31, "expected a texture target (1D, 2D, 3D, CUBE, RECT, SHADOW1D, SHADOW2D, SHADOWRECT)")),
    (FP + "MOVR R0, R1;  #! bogus=1\nEND\n",
     (3, 18, "'bogus=1' is not a hint (field=value, literal=w,w,w,w or native)")),
    (FP + "MOVR R0, R1;  #! mask=0x10\nEND\n", (3, 18, "0x10 does not fit in the 4-bit field mask")),
    (FP + "LRPR R0, R1, R2, R3;  #! mask=1\nEND\n",
     (3, 6, "LRP expands to 2 instructions; hints need a single instruction (add 'native' for the hardware opcode)")),
    (FP + "MOVR R0, R1 + RCP R2, R3;\nEND\n", (3, 13, "co-issue ('+') exists only in vertex programs")),
    (FP + "#const c[0] = 300 0 1 0\nLOOP c[0];\nENDLOOP;\nEND\n", (4, 6, "LOOP count, start and step must be 0..255")),
    (FP + "KIL R0;\nEND\n", (3, 5, "'R0' is not a valid condition such as GT.x or (NE1.xy)")),
    (FP + "#const c[0] = 1e40 0 0 0\nEND\n", (3, 15, "1e40 does not fit in a 32-bit float")),
    (VP + "ADD R0, v[1], v[2];\nEND\n",
     (3, 15, "'v[2]' disagrees with an earlier part of the statement: the instruction has one input attribute")),
    (VP + "#const c[1] = 1 2 3 4\n#const c[2] = 1 2 3 4\nADD R0, c[1], c[2];\nEND\n",
     (5, 15, "'c[2]' disagrees with an earlier part of the statement: the instruction has one constant")),
    (VP + "MOVR R0, R1;\nEND\n", (3, 1, "unknown vertex program instruction 'MOVR' (did you mean MOV?)")),
    (VP + "MOV R0, {1, 2, 3, 4};\nEND\n",
     (3, 9, "vertex programs have no inline constants; declare '#const c[N] = …' and read c[N]")),
    (VP + "BRA nowhere;\nEND\n", (3, 5, "undefined symbol 'nowhere'")),
    (VP + "MAD R0, R1, R2, R3 + RCP R4, R5;\nEND\n",
     (3, 22, "'RCP' and the operation before it share one source2 index but give it different values")),
    (VP + "MOV o[1], R0 + RCP o[2].x, R1;\nEND\n", (3, 16, "'RCP' and the operation before it share one output but give it different values")),
    (VP + "MOVC R0(GT1.x), R1;\nEND\n", (3, 6, "'R0(GT1.x)' disagrees with an earlier part of the statement: "
                                          "the instruction has one CC register")),
    (VP + "ARL R0.x, v[0];\nEND\n", (3, 5, "'R0.x' is not a valid address register (A0 or A1): only ARL writes one")),
    (VP + "MOV A0.x, R0;\nEND\n", (3, 5, "'A0.x' is not a valid destination")),
    (VP + "MOV R0, c[A2.x+1];\nEND\n", (3, 9, "'c[A2.x+1]' is not a valid source")),
    (VP + "MOV R0, R1;\n", (3, 1, "missing END")),
    (VP + "END\nMOV R0, R1;\n", (4, 1, "text after END")),
    ("MOV R0, R1;\nEND\n", (1, 1, "missing program header (!!ARBvp1.0 or !!ARBfp1.0)")),
]


@pytest.mark.parametrize("source, expected", ERROR_CASES, ids=[case[1][2][:40] for case in ERROR_CASES])
def test_errors_point_at_the_offending_token(source, expected):
    assert errors(source)[0] == expected


def test_kind_mismatch_is_an_error():
    assert errors(VP + "END\n", kind=ProgramKind.FRAGMENT) == [
        (1, 1, "this is a vertex program, but a fragment program was expected")]


def test_every_error_is_collected_and_rendered_with_a_caret():
    with pytest.raises(DiagnosticError) as caught:
        assemble(FP + "MOVR R0, R99;\nFOO;\nMOVR R0, c[3];\nEND\n", "many.fp")
    assert [diagnostic.line for diagnostic in caught.value.diagnostics] == [3, 4, 5]
    assert caught.value.render().splitlines()[:3] == [
        "many.fp:3:10: error: R99: R registers go up to R47", "MOVR R0, R99;", "         ^~~"]


# --- fuzz --------------------------------------------------------------------------------------

WORDS = ["MOV", "MOVR", "MADR_SAT", "ADDRC", "MOVC1", "DP4", "TEXR", "KIL", "IF", "ELSE", "ENDIF", "LOOP", "ENDLOOP",
         "REP", "BRK", "BRA", "CAL", "RET", "NOP", "SUB", "LRP", "LIT", "DDX", "POW", "ARL", "RCP", "PK2H", "SFL",
         "BRB", "TXL", "END", "TEMP", "PARAM", "ADDRESS", "OUTPUT", "OPTION", "R0", "H3", "R63", "A0.x", "v[3]",
         "o[HPOS]", "c[0]", "c[467]", "c[A0.x+4]", "f[TEX0]", "vertex.position", "result.color", "result.clip[9]",
         "fragment.texcoord[1]", "texture[0]", "2D", "CUBE", "L0", "{1, 2}", "{0x7fc00000(1)}", "1e40", "-0",
         "0x123456789", "007", ",", ";", ".x", ".xyzwx", "(GT.x)", "(NE1)", "|", "-", "+", "[", "]", "{", "}",
         "=", ":", "#!", "#! source0=0x1", "#! native", "#! trailing 1 2 3 4", "#const c[0] = 1 2",
         "#var float4 a : : c[0], 4 : 1 : 1", "#default a = 1 2 3 4", "000:", "L0:", "!!ARBvp1.0", "!!ARBfp1.0"]
LINES = st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)
HEADS = st.sampled_from([VP, FP, "", "!!VP2.0\n", "!!FP2.0\n", "!!XX\n"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(HEADS, st.lists(LINES, max_size=12), st.sampled_from([None, ProgramKind.VERTEX, ProgramKind.FRAGMENT]))
def test_the_assembler_never_crashes(head, lines, kind):
    source = head + "\n".join(lines)
    try:
        assemble(source, "fuzz.txt", kind)
    except DiagnosticError as error:
        line_count = max(1, len(source.splitlines()))
        for diagnostic in error.diagnostics:
            assert diagnostic.file == "fuzz.txt"
            assert 1 <= diagnostic.line <= line_count and diagnostic.col >= 1
            assert diagnostic.render().startswith(f"fuzz.txt:{diagnostic.line}:{diagnostic.col}: error: ")
