"""Tests for shaderkit.core.asm, the ISA-independent assembler driver.

The TPP description is the vehicle (one 16-bit word per instruction, ``NOP`` = 0x0003,
``SET R0 #n`` = 0x0803 | n << 2), driven through the bare :class:`Assembler`, so no
TPP program-length rules interfere. customasm style: tiny sources, expected words or
expected ``line:col: message`` inline.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from shaderkit.core.asm import MAX_INCLUDE_DEPTH, Assembler
from shaderkit.core.diagnostics import Diagnostic, DiagnosticError
from shaderkit.isa.tpp.spec import description

NOP = 0x0003


def set_r0(value: int) -> int:
    return 0x0803 | value << 2


@pytest.fixture(scope="module")
def assembler() -> Assembler:
    return Assembler(description("B"), comment_prefixes=("//", ";"))


def words_of(assembler: Assembler, source: str, filename: str = "t.s") -> list[int]:
    return assembler.assemble(source, filename).words


def errors_of(assembler: Assembler, source: str, filename: str = "t.s", **kwargs) -> list[Diagnostic]:
    with pytest.raises(DiagnosticError) as caught:
        assembler.assemble(source, filename, **kwargs)
    assert caught.value.diagnostics, "a DiagnosticError must carry at least one diagnostic"
    return caught.value.diagnostics


def only_error(assembler: Assembler, source: str, filename: str = "t.s", **kwargs) -> Diagnostic:
    diagnostics = errors_of(assembler, source, filename, **kwargs)
    assert len(diagnostics) == 1, [d.render() for d in diagnostics]
    return diagnostics[0]


# --------------------------------------------------------------------------------------
# labels


def test_label_value_is_the_address_of_what_follows(assembler):
    program = assembler.assemble("start: NOP\nNOP\nmid: NOP\n.word start mid end\nend: NOP", "t.s")
    # .word takes three slots (3, 4, 5), so `end` is 6
    assert program.words == [NOP, NOP, NOP, 0, 2, 6, NOP]
    assert program.symbols == {"start": 0, "mid": 2, "end": 6}


def test_several_labels_on_a_line_and_labels_on_their_own_line(assembler):
    program = assembler.assemble("a: b: NOP\nc:\nd:NOP\ne:", "t.s")
    assert program.words == [NOP, NOP]
    assert program.symbols == {"a": 0, "b": 0, "c": 1, "d": 1, "e": 2}


def test_forward_references(assembler):
    source = "SET R0 #end\nSET R0 #end-here\nhere: NOP\nend: NOP"
    assert words_of(assembler, source) == [set_r0(3), set_r0(1), NOP, NOP]


def test_forward_reference_in_data(assembler):
    assert words_of(assembler, ".word later\nNOP\nlater: .word later") == [2, NOP, 2]


def test_undefined_symbol_is_reported_at_its_column(assembler):
    error = only_error(assembler, "NOP\nSET R0 #nowhere")
    assert (error.line, error.col, error.length) == (2, 9, 7)
    assert error.message == "undefined symbol 'nowhere'"


# --------------------------------------------------------------------------------------
# constants


@pytest.mark.parametrize("source, value", [
    (".equ W 8\nSET R0 #W", 8),
    (".equ W, 8\nSET R0 #W", 8),
    (".EQU W 8\nSET R0 #W", 8),
    (".define W 2*3\nSET R0 #W", 6),
    (".set W 0x10\nSET R0 #W", 16),
    ("W = 8\nSET R0 #W", 8),
    ("W=8\nSET R0 #W", 8),
    ("  W = 5 * 2 ; comment\nSET R0 #W+1", 11),
    (".equ A 3\nB = A << 2\nSET R0 #(B | A)", 15),  # blanks only inside brackets
    ("SET R0 #LATER\n.equ LATER 9", 9),  # constants are known to the second pass, like labels
])
def test_constants(assembler, source, value):
    assert words_of(assembler, source) == [set_r0(value)]


def test_blanks_separate_operands_outside_brackets(assembler):
    # TPP operands are separated by blanks, so an expression with blanks needs brackets
    error = only_error(assembler, "SET R0 #1 + 2")
    assert error.col == 11
    assert error.message == "'SET' takes 2 operands (SET rd imm), got 4"
    assert words_of(assembler, "SET R0 #( 1 + 2 )") == [set_r0(3)]


def test_constants_do_not_take_a_slot(assembler):
    program = assembler.assemble(".equ A 1\nB = 2\nhere: NOP", "t.s")
    assert program.symbols["here"] == 0
    assert program.symbols["A"] == 1 and program.symbols["B"] == 2


@pytest.mark.parametrize("source, line, col, message", [
    ("x: NOP\n  x: NOP", 2, 3, "'x' is already defined at t.s:1"),
    ("A = 1\nNOP\n.equ A 2", 3, 6, "'A' is already defined at t.s:1"),
    ("NOP\nA: NOP\nA = 5", 3, 1, "'A' is already defined at t.s:2"),
])
def test_redefinition_names_the_earlier_line(assembler, source, line, col, message):
    error = only_error(assembler, source)
    assert (error.line, error.col, error.message) == (line, col, message)


@pytest.mark.parametrize("source, col, message", [
    (".equ 9x 1", 6, "'9x' is not a valid name"),
    (".equ X", 7, "expected an expression"),
    (".equ", 1, "'.equ' needs a name and a value"),
    (".equ , 1", 6, "'.equ' needs a name and a value"),
    ("X = 1 +", 5, "malformed expression '1 +'"),
    ("X = 1 / 0", 5, "division by zero"),
    ("X = Y", 5, "undefined symbol 'Y'"),
    (".allow", 1, "'.allow' needs a permission name"),
])
def test_bad_directives(assembler, source, col, message):
    error = only_error(assembler, source)
    assert (error.line, error.col, error.message) == (1, col, message)


def test_allow_unlocks_from_its_line_on(assembler):
    assert words_of(assembler, ".allow special-writes\nMOV RX R0") == [0x1403]
    error = only_error(assembler, "MOV RX R0\n.allow special-writes\nMOV RX R0")
    assert (error.line, error.col) == (1, 5)
    assert assembler.assemble("MOV RT R0", "t.s", unlocked=["special-writes"]).words == [0x1603]


def test_a_read_line_stands_for_its_statements():
    def read_line(text, prescanned):
        if text.strip() == "##devMode##":
            return [".allow special-writes", "NOPEQ"]
        return ["NOP"] if prescanned == "comment-nops" and text.lstrip().startswith("//") else None

    def prescan(statements):
        return "comment-nops" if ".equ COMMENT_NOPS 1" in statements else None

    reader = Assembler(description("B"), read_line=read_line, prescan=prescan)
    assert reader.assemble("  ##devMode##  \nMOV RY R1\n// note", "t.s").words == [0x0000, 0x1523]
    # The prescan's answer reaches the reader in the passes, wherever the line that decides it stands.
    program = reader.assemble("// note\nMOV R0 R1\n.equ COMMENT_NOPS 1", "t.s")
    assert program.words == [0x0003, 0x1023]
    # Statements a line stands for are placed at the line's first column.
    error = only_error(reader, "MOV RX R0\n   ##devMode##\nMOV R0 R1")
    assert (error.line, error.col) == (1, 5)
    error = only_error(Assembler(description("B"), read_line=lambda text, _: ["ADD R0"] if text == "  x" else None),
                       "  x")
    assert (error.line, error.col) == (1, 3)


# --------------------------------------------------------------------------------------
# .word and comments


def test_word_data(assembler):
    assert words_of(assembler, ".word 0x1234\n.word 1 2 0xFFFF\n.word -1\n.word 0b101") == \
        [0x1234, 1, 2, 0xFFFF, 0xFFFF, 5]


@pytest.mark.parametrize("source, col, message", [
    (".word 0x10000", 7, "65536 does not fit in a 16-bit word"),
    (".word -32769", 7, "-32769 does not fit in a 16-bit word"),
    (".word", 1, "'.word' needs at least one value"),
    (".word 1 oops", 9, "undefined symbol 'oops'"),
])
def test_bad_word_data(assembler, source, col, message):
    error = only_error(assembler, source)
    assert (error.col, error.message) == (col, message)


def test_comments(assembler):
    source = "\n".join([
        "// a whole-line comment takes no slot",
        "; so does this one",
        "NOP ; trailing",
        "SET R0 #5 // trailing",
        "   ",
        "",
        ".word 7 ; 8 9",
        "NOP // x ; y",
        "lbl: // a label with a comment",
    ])
    program = assembler.assemble(source, "t.s")
    assert program.words == [NOP, set_r0(5), 7, NOP]
    assert program.symbols == {"lbl": 4}


# --------------------------------------------------------------------------------------
# .include


def test_include_is_relative_to_the_including_file(tmp_path):
    assembler = Assembler(description("B"))
    (tmp_path / "src" / "lib").mkdir(parents=True)
    (tmp_path / "src" / "main.s").write_text('.include "lib/defs.s"\nSET R0 #VALUE\nNOP\n')
    # defs.s includes more.s relative to itself (src/lib/), not to main.s
    (tmp_path / "src" / "lib" / "defs.s").write_text('.include "more.s"\nVALUE = BASE + 1\n')
    (tmp_path / "src" / "lib" / "more.s").write_text("BASE = 40\nSET R0 #1\n")
    # a decoy with the same name beside main.s must not be read
    (tmp_path / "src" / "more.s").write_text("this is not assembly\n")
    main = tmp_path / "src" / "main.s"
    program = assembler.assemble(main.read_text(), str(main))
    assert program.words == [set_r0(1), set_r0(41), NOP]
    # statements remember the file they came from
    assert Path(program.statements[0].line.file) == tmp_path / "src" / "lib" / "more.s"
    assert program.statements[0].line.number == 2
    assert Path(program.statements[1].line.file) == main


def test_error_inside_an_included_file_names_that_file_and_line(tmp_path):
    assembler = Assembler(description("B"))
    (tmp_path / "inc.s").write_text("NOP\nNOP\nBOGUS R1\n")
    main = tmp_path / "main.s"
    main.write_text('NOP\n.include "inc.s"\n')
    error = only_error(assembler, main.read_text(), str(main))
    assert Path(error.file) == tmp_path / "inc.s"
    assert (error.line, error.col) == (3, 1)
    assert error.message == "unknown instruction 'BOGUS'"


def test_missing_include_is_reported_at_the_include_line(tmp_path):
    assembler = Assembler(description("B"))
    main = tmp_path / "main.s"
    source = 'NOP\n   .include "nope.s"  // trailing comment\nNOP\n'
    error = only_error(assembler, source, str(main))
    assert Path(error.file) == main
    assert error.line == 2
    assert error.col == 13  # the opening quote of the file name
    assert error.message.startswith("cannot include 'nope.s'")
    rendered = error.render().splitlines()
    assert rendered[1] == '   .include "nope.s"  // trailing comment'
    assert rendered[2] == " " * 12 + "^" + "~" * len('"nope.s"'[1:])
    assert rendered[2].index("^") == rendered[1].index('"nope.s"')


@pytest.mark.parametrize("source, col", [(".include nope.s", 10), (".include", 9), ('.include "a.s', 10)])
def test_include_needs_a_quoted_name(assembler, source, col):
    error = only_error(assembler, source)
    assert error.col == col
    assert error.message == 'expected a quoted file name: .include "file.s"'


def test_include_with_a_custom_reader():
    files = {"top.s": '.include "part.s"\nNOP', "part.s": "SET R0 #2"}
    reads = []

    def reader(path: Path) -> str:
        reads.append(path.name)
        return files[path.name]

    program = Assembler(description("B")).assemble(files["top.s"], "top.s", reader=reader)
    assert program.words == [set_r0(2), NOP]
    assert reads == ["part.s"]


def test_include_cycle_is_an_error_not_a_hang(tmp_path):
    assembler = Assembler(description("B"))
    (tmp_path / "a.s").write_text('NOP\n.include "b.s"\n')
    (tmp_path / "b.s").write_text('.include "a.s"\n')
    main = tmp_path / "a.s"
    started = time.perf_counter()
    error = only_error(assembler, main.read_text(), str(main))
    assert time.perf_counter() - started < 2
    assert Path(error.file) == tmp_path / "b.s" and (error.line, error.col) == (1, 10)
    assert "include cycle" in error.message and "'a.s'" in error.message


def test_a_file_including_itself_many_times_ends_quickly(tmp_path):
    # without cycle detection this expands 3**16 times
    assembler = Assembler(description("B"))
    main = tmp_path / "self.s"
    main.write_text('.include "self.s"\n' * 3)
    started = time.perf_counter()
    diagnostics = errors_of(assembler, main.read_text(), str(main))
    assert time.perf_counter() - started < 2
    assert [(d.line, d.col) for d in diagnostics] == [(1, 10), (2, 10), (3, 10)]
    assert all("include cycle" in d.message for d in diagnostics)


def test_includes_nested_too_deep_without_a_cycle():
    # level0.s includes level1.s includes level2.s ..., all different files
    def reader(path: Path) -> str:
        level = int(path.stem.removeprefix("level"))
        return f'.include "level{level + 1}.s"\nNOP'

    diagnostics = errors_of(Assembler(description("B")), reader(Path("level-1.s")), "level-1.s", reader=reader)
    assert len(diagnostics) == 1
    assert diagnostics[0].message == f"includes nested deeper than {MAX_INCLUDE_DEPTH} (a cycle?)"
    assert diagnostics[0].file == f"level{MAX_INCLUDE_DEPTH - 1}.s"


# --------------------------------------------------------------------------------------
# several errors in one run, and their rendering


def test_every_error_is_reported_in_one_run(assembler):
    source = "\n".join([
        "FOO R0",            # 1:1 unknown instruction
        "SET R0 #64",        # 2:8 out of range
        "NOP",
        "MOV RX R0",         # 4:5 hardware register
        "  ADD R0",          # 5:3 operand count
        "SET R0 #undefined",  # 6:9 undefined symbol
        "x: NOP",
        "x: NOP",            # 8:1 redefinition
        "ADDLT R0 R1 GT",    # 9:13 condition twice
    ])
    diagnostics = errors_of(assembler, source)
    assert [(d.line, d.col) for d in diagnostics] == [(1, 1), (2, 8), (4, 5), (5, 3), (6, 9), (8, 1), (9, 13)]
    assert all(d.file == "t.s" and d.severity == "error" for d in diagnostics)
    assert diagnostics[0].message == "unknown instruction 'FOO'"
    assert diagnostics[1].message == "64 is out of range (0 to 63)"
    assert diagnostics[3].message == "'ADD' takes 2 operands (ADD rd rs), got 1"
    assert diagnostics[5].message == "'x' is already defined at t.s:7"


def test_rendering_is_file_line_col_message_source_and_caret(assembler):
    with pytest.raises(DiagnosticError) as caught:
        assembler.assemble("NOP\n  SET R0 #99  // too big\nNOP", "prog.s")
    assert caught.value.render() == (
        "prog.s:2:10: error: 99 is out of range (0 to 63)\n"
        "  SET R0 #99  // too big\n"
        "         ^~~"
    )
    # the exception's text is the rendering, so an uncaught error still reads well
    assert str(caught.value) == caught.value.render()


def test_rendering_of_several_errors_joins_them(assembler):
    with pytest.raises(DiagnosticError) as caught:
        assembler.assemble("X1\nNOP\n   X2 R0", "p.s")
    assert caught.value.render().splitlines() == [
        "p.s:1:1: error: unknown instruction 'X1'",
        "X1",
        "^~",
        "p.s:3:4: error: unknown instruction 'X2'",
        "   X2 R0",
        "   ^~",
    ]


def test_caret_column_with_a_tab_in_the_line(assembler):
    error = only_error(assembler, "MOV R0 RX\tBAD")
    assert error.col == 11
    source_line, caret = error.render().splitlines()[1:]
    # tabs are shown as one blank so the caret stays under the column counted in characters
    assert source_line == "MOV R0 RX BAD"
    assert caret == " " * 10 + "^~~"


def test_errors_after_a_label_point_into_the_line(assembler):
    error = only_error(assembler, "here:   SET R0 #-1")
    assert (error.line, error.col) == (1, 16)
    assert error.render().splitlines()[2] == " " * 15 + "^~~"


def test_no_error_means_no_exception_and_empty_source_is_empty(assembler):
    assert assembler.assemble("", "t.s").words == []
    assert assembler.assemble("\n\n// only comments\n", "t.s").words == []
