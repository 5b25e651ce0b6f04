"""THEIA messages a first-time user meets (issue 9 §3).

Upstream ``theia_compile`` encodes a missing operand as 0 (VOID) and ignores extra tokens:
both stay accepted, with a warning that says what happened. Typos get suggestions, and
an image that is no THEIA program gets one disassembly warning naming the likely cause,
while every example disassembles without one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from shaderkit.cli import main
from shaderkit.core.diagnostics import DiagnosticError
from shaderkit.isa import get
from shaderkit.isa.theia.microcode import rom

THEIA = get("theia")
EXAMPLES_ROOT = Path(__file__).resolve().parents[3] / "examples"
EXAMPLES = sorted((EXAMPLES_ROOT / "theia").rglob("*.s"))
PLAUSIBILITY = "does not look like a THEIA program"


def warnings_of(source: str) -> list[str]:
    return [warning.message for warning in THEIA.assemble(source + "\n", "w.s").program.warnings]


def only_error(source: str):
    with pytest.raises(DiagnosticError) as caught:
        THEIA.assemble(source + "\n", "e.s")
    (diagnostic,) = caught.value.diagnostics
    return diagnostic


def test_copy_without_its_source_warns_and_still_assembles_as_upstream_does():
    program = THEIA.assemble("COPY OREG_PIXEL_COLOR\n", "w.s").program
    (warning,) = program.warnings
    assert warning.severity == "warning" and (warning.line, warning.col) == (1, 1)
    assert warning.message == ("COPY has no first source: it assembles as VOID (address 0); "
                               "write 'COPY OREG_PIXEL_COLOR VOID' if that is meant")
    assert program.words == THEIA.assemble("COPY OREG_PIXEL_COLOR VOID\n").program.words


@pytest.mark.parametrize("source, fragment", [
    ("ADD R1 R2", "ADD has no second source: it assembles as VOID (address 0); write 'ADD R1 R2 VOID'"),
    ("ADD R1", "ADD has no first source or second source: they assemble as VOID (address 0)"),
    ("L:\nJGX L", "JGX has no first source or second source: they assemble as VOID (address 0)"),
    ("SETX R1", "SETX has no immediate: it assembles as zero; write 'SETX R1 32'h0'"),
    ("RETURN", "RETURN has no return value: it assembles as zero; write 'RETURN RT_FALSE'"),
    ("SWIZZLE3D R2", "write 'SWIZZLE3D R2 SWIZZLE_XXX' if that is meant"),
    ("ZERO", "ZERO has no destination: it assembles as VOID (address 0)"),
])
def test_every_operand_left_out_is_named(source, fragment):
    (message,) = warnings_of(source)
    assert fragment in message


@pytest.mark.parametrize("source", [
    "COPY OREG_PIXEL_COLOR VOID",
    "MAG R1 CREG_TEXTURE_COLOR",     # MAG reads one source: upstream's own example
    "ZERO R1",
    "NOP",                           # NOP reads nothing
    "NOP RT_FALSE",
    "L:\nJMP L VOID VOID",          # upstream's way of writing a jump
    "L:\nJMP L",
    "DEBUG_PRINT",
])
def test_upstream_forms_that_rely_on_void_stay_quiet(source):
    assert warnings_of(source) == []


def test_extra_operands_are_ignored_with_a_count():
    program = THEIA.assemble("ADD R1 R2 R3 R4\nCOPY R1 R2 R3 R4\n", "x.s").program
    first, second = program.warnings
    assert (first.line, first.col, first.length) == (1, 14, 2)
    assert first.message == "operand 'R4' is ignored: ADD takes 3 operands (ADD dst s1 s2)"
    assert second.message == "operand 'R4' is ignored: COPY takes at most 3 operands (COPY dst s1 [s2])"
    assert program.words[0] == THEIA.assemble("ADD R1 R2 R3\n").program.words[0]


@pytest.mark.parametrize("source, col, message", [
    ("COPPY R1 R2", 1, "unknown instruction 'COPPY' (did you mean COPY?)"),
    ("ADX R1 R2 R3", 1, "unknown instruction 'ADX' (did you mean ADD?)"),
    ("COPY OREG_PIXEL_COLR R1", 6, "undefined symbol 'OREG_PIXEL_COLR' (did you mean OREG_PIXEL_COLOR?)"),
    ("COPY R1 creg_camera_position", 9, "undefined symbol 'creg_camera_position' "
                                        "(did you mean CREG_CAMERA_POSITION?)"),
    ("LOOP:\nJMP LOOOP", 5, "undefined symbol 'LOOOP' (did you mean LOOP?)"),
    ("SCALE = 2\nSETX R1 SCALLE", 9, "undefined symbol 'SCALLE' (did you mean SCALE?)"),
    ("RETURN RT_TRU", 8, "undefined symbol 'RT_TRU' (did you mean RT_TRUE?)"),
    ("COPY R1 ELSEWHERE", 9, "undefined symbol 'ELSEWHERE'"),
])
def test_typos_get_suggestions(source, col, message):
    error = only_error(source)
    assert (error.col, error.message) == (col, message)


# -- disassembly plausibility ---------------------------------------------------------------

@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_examples_disassemble_without_any_warning(path):
    image = THEIA.assemble(path.read_text(), str(path)).image
    assert THEIA.disassembly_warnings(image) == []


def test_the_microcode_rom_is_not_called_foreign():
    # Its filler words are the upstream "unused ROM" pattern; it is code without an entry table.
    (line,) = THEIA.disassembly_warnings(list(rom().words))
    assert "no entry table" in line and "words are not V1 instructions" not in line


def test_a_tpp_image_is_named_implausible_in_one_line():
    tpp = get("tpp")
    image = tpp.assemble((EXAMPLES_ROOT / "tpp" / "plasma.s").read_text()).image
    data = b"".join(word.to_bytes(2, "big") for word in image)
    words = [int.from_bytes(data[i:i + 8], "big") for i in range(0, len(data), 8)]
    (line,) = THEIA.disassembly_warnings(words)
    assert line.startswith(f"{PLAUSIBILITY}: {len(words)} of {len(words)} words are not V1 instructions")
    assert "no entry table" in line and "another processor" in line


def test_an_entry_table_pointing_past_the_program_is_named():
    image = THEIA.assemble("NOP RT_FALSE\nRETURN RT_TRUE\n").image
    assert THEIA.disassembly_warnings(image) == []
    (line,) = THEIA.disassembly_warnings([0x8100] + image[1:])
    assert PLAUSIBILITY in line and "points past the program's end" in line and "INITIAL" in line


def test_the_command_line_warns_when_a_tpp_image_is_disassembled_as_theia(tmp_path):
    binary = tmp_path / "plasma.bin"
    runner = CliRunner()
    made = runner.invoke(main, ["asm", "-m", "tpp", str(EXAMPLES_ROOT / "tpp" / "plasma.s"), "-f", "raw",
                                "-o", str(binary)], catch_exceptions=False)
    assert made.exit_code == 0
    result = runner.invoke(main, ["disasm", "-m", "theia", str(binary)], catch_exceptions=False)
    assert result.exit_code == 0
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"{binary}: warning: {PLAUSIBILITY}: 5 of 5 words are not V1 instructions")
