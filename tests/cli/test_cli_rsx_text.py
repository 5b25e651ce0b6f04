"""The shaderkit command on RSX assembly text (issue 9, section 3): ``disasm --addresses`` and
``--no-addresses``, assembler errors in line order with did-you-mean and operand counts, and a
vertex program with ``PARAM x = {…}``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from shaderkit.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "rsx"
ADDRESS_COMMENT = re.compile(r"  # \d{3}: [0-9a-f]{8}( [0-9a-f]{8}){3}(  \d{3}: [0-9a-f]{8}( [0-9a-f]{8}){3})?$")
STATEMENT = re.compile(r"^(?!OPTION )[A-Z][A-Z0-9_]* [^#]*;")


def invoke(*arguments: str):
    return CliRunner().invoke(main, [str(argument) for argument in arguments], catch_exceptions=False)


@pytest.mark.parametrize("machine, source, fmt", [
    ("rsx", "phong.fp", "fpo"), ("rsx", "phong.vp", "vpo"), ("rsx-fp", "textured.fp", "raw"),
    ("rsx-vp", "gouraud.vp", "hex"),
])
def test_disasm_shows_addresses_by_default_and_the_listing_reassembles(tmp_path, machine, source, fmt):
    binary = tmp_path / f"program.{fmt}"
    assert invoke("asm", "-m", machine, EXAMPLES / source, "-f", fmt, "-o", binary).exit_code == 0
    listing = invoke("disasm", "-m", machine, binary, "-f", fmt, "--addresses")
    assert listing.exit_code == 0, listing.output
    statements = [line for line in listing.stdout.splitlines() if STATEMENT.match(line)]
    assert statements and all(ADDRESS_COMMENT.search(line) for line in statements)
    slots = [int(re.search(r"# (\d{3}):", line).group(1)) for line in statements]
    assert slots == sorted(slots) and slots[0] == 0
    text = tmp_path / "again.txt"
    text.write_text(listing.stdout)
    second = tmp_path / f"second.{fmt}"
    assert invoke("asm", "-m", machine, text, "-f", fmt, "-o", second).exit_code == 0
    assert second.read_bytes() == binary.read_bytes()
    plain = invoke("disasm", "-m", machine, binary, "-f", fmt, "--no-addresses").stdout
    assert "# 000:" not in plain
    assert [re.sub(r"\s+# \d{3}:.*$", "", line) for line in listing.stdout.splitlines()] == plain.splitlines()


def test_fp_literal_words_are_shown_after_their_instruction(tmp_path):
    source = tmp_path / "tint.fp"
    source.write_text("!!ARBfp1.0\nMULR R0, fragment.color, {2, 0.5, 1, 1};\nEND\n")
    binary = tmp_path / "tint.bin"
    assert invoke("asm", "-m", "rsx-fp", source, "-f", "raw", "-o", binary).exit_code == 0
    listing = invoke("disasm", "-m", "rsx-fp", binary).stdout
    line = next(line for line in listing.splitlines() if line.startswith("MULR"))
    assert line.endswith("  001: 40000000 3f000000 3f800000 3f800000")


def test_assembler_errors_come_in_line_order_with_suggestions_and_counts(tmp_path):
    source = tmp_path / "bad.vp"
    source.write_text("!!ARBvp1.0\nMOVV R0, vertex.position;\n#const c[1] = 1e40\n"
                      "MOV R0, R1, R2;\nMOV result.positon, R0;\nEND\n")
    result = invoke("asm", "-m", "rsx", source, "-o", tmp_path / "out.hex")
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr
    heads = [line for line in result.stderr.splitlines() if re.match(r".*bad\.vp:\d+:\d+: error: ", line)]
    assert [int(line.split(":")[-4]) for line in heads] == [2, 3, 4, 5]
    assert "unknown vertex program instruction 'MOVV' (did you mean MOV?)" in heads[0]
    assert heads[2].endswith("error: 'MOV' takes 2 operands (MOV destination source), got 3")
    assert heads[3].endswith("(did you mean result.position?)")


def test_a_vertex_program_with_a_param_vector_assembles_into_a_container(tmp_path):
    source = tmp_path / "param.vp"
    source.write_text("!!ARBvp1.0\nPARAM tint = {0.25, 0.5, 0.75, 1};\n"
                      "MOV result.position, vertex.position;\nMOV result.color, tint;\nEND\n")
    container = tmp_path / "param.vpo"
    result = invoke("asm", "-m", "rsx", source, "-f", "vpo", "-o", container)
    assert result.exit_code == 0, result.output
    listing = invoke("disasm", "-m", "rsx", container, "--no-addresses").stdout
    assert "#const c[0] = 0.25 0.5 0.75 1" in listing.splitlines()
    assert "MOV result.color, c[0];" in listing.splitlines()
