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


# The shape of the upstream programs that uploaded differently before: a comment header, code
# with trailing comments, and OUT R0 after blank lines, which the author expects to vanish.
UPSTREAM_UPLOAD = """// xor.txt: the classic XOR pattern
MOV R0 RX   // x
XOR R0 RY


OUT R0
"""


def test_flash_sends_the_bytes_the_upstream_flasher_sends(tmp_path):
    source = tmp_path / "xor.txt"
    source.write_text(UPSTREAM_UPLOAD)
    result = invoke("flash", "-m", "tpp", source, "--dry-run")
    assert result.exit_code == 0, result.output
    # Spec 9: the comment line is NOP 0x0003 in slot 0, OUT R0 is dropped, 0x0000 pads to
    # slot 18 and slot 19 is OUT R0.
    assert result.stdout.split() == ("80 00 03 81 10 83 82 58 A3 " + " ".join(
        f"{0x80 | slot:02X} 00 00" for slot in range(3, 19)) + " 93 60 03").split()
    assert "1:1: warning: this comment line takes slot 0 as a NOP" in result.stderr
    assert "6:1: warning: 'OUT R0' is left out of the upload" in result.stderr


def test_the_upload_and_its_picture_follow_the_upstream_reading(tmp_path):
    source = tmp_path / "xor.txt"
    source.write_text(UPSTREAM_UPLOAD)
    upstream_words = tmp_path / "upstream.hex"
    upstream_words.write_text("\n".join(["0003", "1083", "58A3"] + ["0000"] * 16 + ["6003"]) + "\n")
    ours = tmp_path / "ours.s"
    ours.write_text(".slots written\n" + UPSTREAM_UPLOAD)
    pictures = {}
    for name, program in (("source", source), ("words", upstream_words), ("written", ours)):
        out = tmp_path / f"{name}.png"
        result = invoke("run", "-m", "tpp", program, "--model", "exact", "-o", out)
        assert result.exit_code == 0, result.output
        pictures[name] = np.asarray(Image.open(out))
    np.testing.assert_array_equal(pictures["source"], pictures["words"])
    # OUT R0 in slot 2 shows R0 before slot 19 does: the picture shifts by a pixel per block.
    assert (pictures["source"] != pictures["written"]).any(axis=-1).sum() > 10_000


# The shape of the upstream ROM demos: ##devMode##, a ROM op writing R0, then code that
# compares and adds to R0. The upstream flasher assembles the ROM op for any chip.
ROM_DEMO = """##devMode##
TT R0
SET R2 #12
COMP R2 R0
ADDGT R0 RY
ADDLT R0 RX
"""


def test_a_rom_demo_runs_on_rev_a_as_the_chip_runs_it(tmp_path):
    source = tmp_path / "ttdemo.txt"
    source.write_text(ROM_DEMO)
    flashed = invoke("flash", "-m", "tpp", "--rev", "A", source, "--dry-run")
    assert flashed.exit_code == 0, flashed.output
    # The flasher's words: devMode word, TT R0 (0xA003, a NOP on rev A), …, NOP in slot 19.
    words = [int("".join(flashed.stdout.split()[3 * slot + 1:3 * slot + 3]), 16) for slot in range(20)]
    assert words[:3] == [0x0000, 0xA003, 0x0A33] and words[19] == 0x0000
    assert "2:1: warning: 'TT' is rev B only: rev A has no ROM ops and runs its word as NOP" in flashed.stderr
    hex_file = tmp_path / "ttdemo.hex"
    hex_file.write_text("".join(f"{word:04X}\n" for word in words))
    pictures = []
    for program in (source, hex_file):
        out = tmp_path / f"{program.suffix[1:]}.png"
        result = invoke("run", "-m", "tpp", "--rev", "A", program, "-o", out)
        assert result.exit_code == 0, result.output
        assert "note: starting after an upload, as on the chip" in result.stderr
        pictures.append(np.asarray(Image.open(out)))
    np.testing.assert_array_equal(pictures[0], pictures[1])
