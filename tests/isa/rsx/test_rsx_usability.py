"""RSX assembly text for a new user (issue 9, section 3): listings with addresses that still
re-assemble, errors in line order, VP ``PARAM x = {…}``, did-you-mean for typos, and operand
counts instead of confusing messages."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given

from shaderkit.core.binfmt import read_words
from shaderkit.core.diagnostics import DiagnosticError
from shaderkit.isa import get
from shaderkit.isa.rsx.assembly import assemble
from shaderkit.isa.rsx.container import ProgramKind, read_container, UCODE_BYTE_ORDER
from shaderkit.isa.rsx.disassembler import disassemble
from shaderkit.isa.rsx.instruction import decode_program
from shaderkit.isa.rsx.vertex import run_vertex_program
from conftest import golden_dir
from test_rsx_roundtrip import RANDOM, fragment_programs, vertex_programs

GOLDEN = golden_dir("rsx")
VP = "!!ARBvp1.0\nOPTION NV_vertex_program3;\n"
FP = "!!ARBfp1.0\nOPTION NV_fragment_program2;\n"
ADDRESS = re.compile(r"# (\d{3}): ((?:[0-9a-f]{8} ?){4})(?:\s+(\d{3}): ((?:[0-9a-f]{8} ?){4}))?$")


def errors(source: str) -> list[tuple[int, int, str]]:
    with pytest.raises(DiagnosticError) as caught:
        assemble(source, "bad.txt")
    return [(diagnostic.line, diagnostic.col, diagnostic.message) for diagnostic in caught.value.diagnostics]


def golden_programs():
    for path in sorted((GOLDEN / "asm").glob("*.bin")):
        kind = ProgramKind.VERTEX if path.name.startswith("vp") else ProgramKind.FRAGMENT
        words = read_words(path.read_bytes(), "raw", word_bits=32, byte_order=UCODE_BYTE_ORDER[kind])
        yield path.name, decode_program(words, kind, path.name), None
    for path in sorted((GOLDEN / "real").glob("*.?po")):
        container = read_container(path.read_bytes(), path.name)
        yield path.name, decode_program(container.words, container.kind, path.name), container.parameters


GOLDEN_PROGRAMS = list(golden_programs())


# --- addresses -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name, program, parameters", GOLDEN_PROGRAMS, ids=[case[0] for case in GOLDEN_PROGRAMS])
def test_every_instruction_line_shows_its_slot_and_words_and_still_reassembles(name, program, parameters):
    text = disassemble(program, parameters, addresses=True)
    shown = {}
    for line in text.splitlines():
        comment = re.search(r"# \d{3}:.*$", line)
        if comment is None:
            continue
        match = ADDRESS.fullmatch(comment.group())
        assert match, line
        shown[int(match.group(1))] = tuple(int(word, 16) for word in match.group(2).split())
        if match.group(3):  # an FP literal slot, right after its instruction
            assert int(match.group(3)) == int(match.group(1)) + 1
            shown[int(match.group(3))] = tuple(int(word, 16) for word in match.group(4).split())
    words = program.words()
    assert shown == {slot: words[slot * 4: slot * 4 + 4] for slot in range(program.slot_count)}
    assert assemble(text, name).program == program


def test_without_addresses_the_text_is_the_plain_listing():
    name, program, parameters = GOLDEN_PROGRAMS[0]
    plain = disassemble(program, parameters)
    assert not re.search(r"# \d{3}:", plain)
    with_addresses = disassemble(program, parameters, addresses=True)
    assert [re.sub(r"\s+# \d{3}:.*$", "", line) for line in with_addresses.splitlines()] == plain.splitlines()


def test_the_address_comment_follows_hints_and_the_hints_still_apply():
    program = assemble(FP + "MOVR R0, R1;  #! source2=0x1c801  # 000: anything\nEND\n").program
    assert program.instructions[0].words[3] == 0x0001C801
    text = disassemble(program, addresses=True)
    line = next(line for line in text.splitlines() if line.startswith("MOVR"))
    assert line.index("#!") < line.index("# 000:")
    assert assemble(text).program == program


@RANDOM
@given(vertex_programs())
def test_random_vertex_programs_round_trip_with_addresses(program):
    assert assemble(disassemble(program, addresses=True)).program.words() == program.words()


@RANDOM
@given(fragment_programs())
def test_random_fragment_programs_round_trip_with_addresses(program):
    assert assemble(disassemble(program, addresses=True)).program == program


def test_the_isa_object_honours_addresses_except_for_the_rpcs3_listing():
    rsx = get("rsx")
    image = rsx.assemble(FP + "MULR R0, fragment.color, {2, 2, 2, 1};\nEND\n").image
    assert re.search(r"# 000: [0-9a-f]{8}( [0-9a-f]{8}){3}  001: 40000000 40000000 40000000 3f800000$",
                     rsx.disassemble(image, addresses=True), re.MULTILINE)
    assert "# 000:" not in rsx.disassemble(image, addresses=False)
    assert rsx.disassemble(image, addresses=False, style="rpcs3") == rsx.disassemble(image, style="rpcs3")


# --- errors in line order --------------------------------------------------------------------------


def test_errors_from_every_pass_come_out_in_line_order():
    # Line 3 fails only when laid out, line 4 when read, line 5 (a #const) before anything else.
    source = FP + "MOVR R0, c[7];\nFOO R0;\n#const c[1] = 1e40\nMOVR R0, R1, R2;\nEND\n"
    found = errors(source)
    assert [line for line, _, _ in found] == [3, 4, 5, 6]
    assert found == sorted(found)


def test_errors_on_one_line_are_ordered_by_column():
    # The #const comment is read in the first pass, the statement before it in a later one.
    found = errors(VP + "MOV R0, nowhere;  #const c[0] = 1e40 0 0 0\nEND\n")
    assert [(line, column) for line, column, _ in found] == [(3, 9), (3, 33)]


# --- PARAM in vertex programs ----------------------------------------------------------------------


def test_a_vertex_param_becomes_a_constant_and_the_emulator_reads_it():
    rsx = get("rsx")
    source = VP + "PARAM k = {1, 2, 3, 4};\nMOV result.position, vertex.position;\nMOV result.color, k;\n" \
        "MUL result.texcoord[0], -k.wzyx, vertex.position;\nEND\n"
    image = rsx.assemble(source, "param.vp").image
    index, = image.constants
    assert image.constants[index] == (1.0, 2.0, 3.0, 4.0)
    position = np.array([[1, 1, 1, 1], [0.5, 2, -1, 3]], np.float32)
    outputs = run_vertex_program(image.program, {0: position}, image.constant_memory())
    assert np.array_equal(outputs[1], np.tile(np.float32([1, 2, 3, 4]), (2, 1)))
    assert np.array_equal(outputs[7], -np.float32([4, 3, 2, 1]) * position)


def test_a_vertex_param_takes_the_lowest_register_nothing_else_uses():
    source = VP + "\n".join([
        "#const c[0] = 9 9 9 9", "#var float4 m :  : c[1], 2 : 0 : 1", "PARAM k = {1, 2, 3, 4};",
        "PARAM nine = {9};", "PARAM half = 0.5;", "ARL A0.x, vertex.position.x;",
        "MOV R0, c[3];", "MOV R1, c[A0.x+4];", "MOV R2, k;", "MOV R2, nine;", "MOV R3, half;",
        "#const c[6] = 0 0 0 0", "END"])
    assembled = assemble(source)
    constants = assembled.constants
    # c[0] and c[6] by #const, c[1..2] by #var, c[3] and c[4] named by statements.
    assert constants[5] == (1.0, 2.0, 3.0, 4.0) and constants[7] == (0.5,) * 4
    assert constants[0] == (9.0,) * 4  # an equal #const is shared, not copied
    again = assemble(disassemble(assembled.program)).program  # the constants show as #const lines
    assert again == assembled.program


def test_fragment_params_are_still_inline_literals():
    program = assemble(FP + "PARAM k = {1, 2, 3, 4};\nMOVR R0, k;\nEND\n").program
    assert program.instructions[0].literal == (0x3F800000, 0x40000000, 0x40400000, 0x40800000)


# --- did you mean ----------------------------------------------------------------------------------

TYPOS = [
    (VP + "MOVV R0, vertex.position;\nEND\n", (3, 1, "unknown vertex program instruction 'MOVV' (did you mean MOV?)")),
    (FP + "MULLR R0, R1, R2;\nEND\n", (3, 1, "unknown fragment program instruction 'MULLR' (did you mean MULR?)")),
    (FP + "MOVR R0, R1;\nEDN;\n", (4, 1, "unknown fragment program instruction 'EDN' (did you mean END?)")),
    (VP + "MOV result.positon, vertex.position;\nEND\n",
     (3, 5, "'result.positon' is not a valid destination (did you mean result.position?)")),
    (VP + "MOV R0, vertex.texcord[1];\nEND\n",
     (3, 9, "'vertex.texcord[1]' is not a valid source (did you mean vertex.texcoord[1]?)")),
    (FP + "MOVR result.colr, fragment.color;\nEND\n",
     (3, 6, "'result.colr' is not a valid destination (did you mean result.color?)")),
    (FP + "TEMP normal;\nMOVR R0, normla;\nEND\n", (4, 10, "'normla' is not a valid source (did you mean normal?)")),
    (VP + "MOV R0, zzzz;\nEND\n",
     (3, 9, "'zzzz' is not a valid source")),
]


@pytest.mark.parametrize("source, expected", TYPOS, ids=[case[1][2][:50] for case in TYPOS])
def test_typos_get_the_nearest_name(source, expected):
    assert errors(source)[0] == expected


# --- operand counts --------------------------------------------------------------------------------

COUNTS = [
    (VP + "MOV R0, R1, R2;\nEND\n", (3, 13, "'MOV' takes 2 operands (MOV destination source), got 3")),
    (FP + "MOVR R0, R1, R2;\nEND\n", (3, 14, "'MOV' takes 2 operands (MOV destination source), got 3")),
    (VP + "ADD R0, R1;\nEND\n", (3, 1, "'ADD' takes 3 operands (ADD destination source source), got 2")),
    (VP + "ADD R0 R1 R2;\nEND\n", (3, 8, "expected ',' between operands, found 'R1' ('ADD' takes 3 operands (ADD destination source source))")),
    (FP + "LRPR R0, R1, R2;\nEND\n", (3, 1, "'LRP' takes 4 operands (LRP destination source source source), got 3")),
    (FP + "TEXR R0, f[TEX0], texture[0], 2D, R1;\nEND\n",
     (3, 35, "'TEX' takes 4 operands (TEX destination source texture unit target), got 5")),
    (FP + "KIL GT.x, LT.y;\nEND\n", (3, 11, "'KIL' takes 0 to 1 operands (KIL condition such as GT.x or (NE1.xy)), got 2")),
    (FP + "NOP R0;\nEND\n", (3, 5, "'NOP' takes no operands, got 1")),
    (FP + "IF;\nENDIF;\nEND\n", (3, 1, "'IF' takes 1 operand (IF condition such as GT.x or (NE1.xy)), got 0")),
    (VP + "BRA a, b;\na:\nEND\n", (3, 8, "'BRA' takes 1 operand (BRA A<address register>.<address register lane><condition>), got 2")),
]


@pytest.mark.parametrize("source, expected", COUNTS, ids=[case[1][2][:50] for case in COUNTS])
def test_a_wrong_operand_count_says_how_many_the_instruction_takes(source, expected):
    assert errors(source)[0] == expected
