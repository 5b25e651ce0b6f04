"""Programs written for other tools, read as their authors expect (issue 12), through the CLI:
programs of ours with the shape of the real ones."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from conftest import invoke_cli as invoke

# The shape of an upstream TPP program: a .txt file of assembly, // comments, blank lines.
TPP_PROGRAM = """// checks.txt: a chequer board of the pixel counters
// (upstream programs are plain text files like this one)

MOV R1 RX
XOR R1 RY
MOV R0 R1
"""


def test_an_assembly_txt_file_is_source_for_run_and_flash(tmp_path):
    as_txt, as_s = tmp_path / "checks.txt", tmp_path / "checks.s"
    as_txt.write_text(TPP_PROGRAM)
    as_s.write_text(TPP_PROGRAM)
    for command in (("flash", "--dry-run"),):
        from_txt = invoke(command[0], "-m", "tpp", as_txt, *command[1:])
        from_s = invoke(command[0], "-m", "tpp", as_s, *command[1:])
        assert from_txt.exit_code == from_s.exit_code == 0, from_txt.output
        assert from_txt.stdout == from_s.stdout
    pictures = []
    for source in (as_txt, as_s):
        out = tmp_path / f"{source.stem}-{source.suffix[1:]}.png"
        result = invoke("run", "-m", "tpp", source, "-o", out)
        assert result.exit_code == 0, result.output
        pictures.append(np.asarray(Image.open(out)))
    np.testing.assert_array_equal(pictures[0], pictures[1])
    assert len(np.unique(pictures[0].reshape(-1, pictures[0].shape[-1]), axis=0)) > 1  # checks, not one colour


def test_a_txt_hex_dump_is_still_words(tmp_path):
    source = tmp_path / "checks.s"
    source.write_text(TPP_PROGRAM)
    dump = tmp_path / "checks.txt"
    assert invoke("asm", "-m", "tpp", source, "-f", "hex", "-o", dump).exit_code == 0
    assert all(len(line.split()) == 1 for line in dump.read_text().split("\n") if line.strip())
    from_dump = invoke("flash", "-m", "tpp", dump, "--dry-run")
    from_source = invoke("flash", "-m", "tpp", source, "--dry-run")
    assert from_dump.exit_code == 0 and from_dump.stdout == from_source.stdout


@pytest.mark.parametrize("fmt", ["hex", "raw"])
def test_an_explicit_format_is_obeyed(tmp_path, fmt):
    source = tmp_path / "checks.txt"
    source.write_text(TPP_PROGRAM)
    # Read as words on request: this text is no hex dump, so it is refused, or read as bytes.
    result = invoke("flash", "-m", "tpp", source, "-f", fmt, "--dry-run")
    if fmt == "hex":
        assert result.exit_code == 2 and "hex word" in result.stderr
    else:  # the text's bytes as words: not the program (refused in one line, or other words)
        as_source = invoke("flash", "-m", "tpp", source, "--dry-run")
        assert (result.exit_code == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr) or \
            (result.exit_code == 0 and result.stdout != as_source.stdout)
