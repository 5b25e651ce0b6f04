"""``shaderkit run -m vp1`` as a user runs a program: the dump of what changed, the trace of each
bundle, starting memory and registers, the data store written out, and one-line errors for what
the emulator does not model, a program that never exits and bad inputs."""

from __future__ import annotations

import json

import pytest

from conftest import assert_one_line_error, invoke_cli

COUNTER = """// $r1 counts the loop's passes: $l0 = 2 runs the body 3 times (the default loop rule)
mov $l0 $c0 0x202
bnop
bnop
bnop
body:
add $r1 $r1 0x1
bra loop $l0 $l0 #body
bnop
exit 0x7
"""


def raw_program(tmp_path, *words: int):
    path = tmp_path / "prog.bin"
    path.write_bytes(b"".join(word.to_bytes(4, "little") for word in words))
    return path


def test_dump_shows_the_changed_registers(tmp_path):
    source = tmp_path / "counter.s"
    source.write_text(COUNTER)
    result = invoke_cli("run", "-m", "vp1", source, "--dump")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "registers changed:"
    assert any(line.split()[:2] == ["$r1", "00000003"] for line in lines), lines
    assert any(line.split()[:2] == ["$l0", "0202"] for line in lines), lines  # reloaded at the end
    assert "$tick" not in result.stdout
    assert "exit 0x7 after" in result.stderr


def test_trace_shows_each_bundle_with_its_text_and_changes(tmp_path):
    source = tmp_path / "counter.s"
    source.write_text(COUNTER)
    result = invoke_cli("run", "-m", "vp1", source, "--trace")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split()[:2] == ["0x0000", "f0000202"]
    assert "mov $l0 $c0 0x202" in lines[0]
    body = [line for line in lines if line.startswith("0x0004")]
    assert len(body) == 3  # the loop body ran three times
    assert "add $r1 $r1 0x1" in body[0]
    assert any("$r1 = 00000003 (was 00000002)" in line for line in lines)
    assert lines[-1].split()[:2] == ["0x0007", "ff000007"]


def test_memory_and_state_start_the_run_and_o_writes_the_data_store(tmp_path):
    """stas $r2 at $a1: the store lands in the output image at the banked offset."""
    memory = tmp_path / "ds.bin"
    memory.write_bytes(bytes(range(256)) * 32)
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"before": {"r": [0, 0, "0xdeadbeef"], "a": [0, "00000010"]}}))
    program = raw_program(tmp_path, 0xD6088004, 0xFF000000)  # stas $r2 $a1 0x0; exit 0x0
    out = tmp_path / "after.bin"
    result = invoke_cli("run", "-m", "vp1", program, "-f", "raw", "--memory", memory, "--state", state,
                        "--dump", "-o", out)
    assert result.exit_code == 0, result.output
    written = out.read_bytes()
    assert written[0x10:0x14] == bytes([0xEF, 0xBE, 0xAD, 0xDE])
    assert written[:0x10] + written[0x14:] == (bytes(range(256)) * 32)[:0x10] + (bytes(range(256)) * 32)[0x14:]
    assert "  0x0010  ef be ad de .. .. .. .. .. .. .. .. .. .. .. ..\n" in result.stdout
    assert "registers changed" not in result.stdout  # only the data store changed
    assert f"data store written to {out}" in result.stderr


def test_chip_nv41_has_no_x_registers(tmp_path):
    program = raw_program(tmp_path, 0x6A2040C4, 0xFF000000)  # mov $x4 $r1; exit 0x0
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"r": [0, 5]}))
    g80 = invoke_cli("run", "-m", "vp1", program, "-f", "raw", "--state", state, "--dump")
    nv41 = invoke_cli("run", "-m", "vp1", program, "-f", "raw", "--state", state, "--dump", "--chip", "nv41")
    assert g80.exit_code == nv41.exit_code == 0, (g80.output, nv41.output)
    assert "$x" in g80.stdout and "$x" not in nv41.stdout
    assert nv41.stdout.strip() == "no register or data-store changes"


@pytest.mark.parametrize("word, what", [(0xC3000000, "xdld"), (0x6B0000BC, "$f"), (0xF2000000, "0xf2")])
def test_an_unmodelled_word_stops_with_one_line_naming_word_and_address(tmp_path, word, what):
    program = raw_program(tmp_path, 0xEFFFFFFF, 0xEFFFFFFF, word, 0xFF000000)
    result = invoke_cli("run", "-m", "vp1", program, "-f", "raw", "--dump")
    assert_one_line_error(result, f"{word:08x}", "word 0x2", what, "not modelled")
    assert result.stdout == ""


def test_a_program_that_never_exits_stops_at_max_bundles(tmp_path):
    program = raw_program(tmp_path, 0xE00001E4, 0xEFFFFFFF)  # bra 0x0; bnop
    result = invoke_cli("run", "-m", "vp1", program, "-f", "raw", "--max-bundles", "1000")
    assert_one_line_error(result, "after 1,000 bundles", "--max-bundles")


def test_running_past_the_last_word(tmp_path):
    result = invoke_cli("run", "-m", "vp1", raw_program(tmp_path, 0x65080001), "-f", "raw")
    assert_one_line_error(result, "past the end of the program")


@pytest.mark.parametrize("option, content, message", [
    ("--memory", b"\x00" * 100, "8,192 bytes, not 100"),
    ("--state", b"{not json", "not a JSON state"),
    ("--state", b'{"r": ["zz"]}', "r[0]: 'zz' is not hexadecimal"),
    ("--state", b'{"q": [1]}', "unknown register file 'q'"),
    ("--state", b'{"c": [65536]}', "does not fit in 16 bits"),
])
def test_bad_starting_files_are_one_line_errors(tmp_path, option, content, message):
    given = tmp_path / "given"
    given.write_bytes(content)
    result = invoke_cli("run", "-m", "vp1", raw_program(tmp_path, 0xFF000000), "-f", "raw", option, given)
    assert_one_line_error(result, message)


def test_o_takes_a_bin_file(tmp_path):
    result = invoke_cli("run", "-m", "vp1", raw_program(tmp_path, 0xFF000000), "-f", "raw", "-o", tmp_path / "x.txt")
    assert_one_line_error(result, "give a .bin file")
