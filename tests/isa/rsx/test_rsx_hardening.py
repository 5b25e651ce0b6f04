"""RSX at the edges (issue 10): patterns that stay linear on adversarial text, numbers too long for
Python's int(), runaway programs stopped by the work and wall-time budget, and empty images.

The time bounds here are hang guards, not timings: each input took from tens of seconds to
hours before its fix and takes milliseconds after it."""

from __future__ import annotations

import time

import numpy as np
import pytest

from shaderkit.core.diagnostics import DiagnosticError, InputError
from shaderkit.isa import get
from shaderkit.isa.rsx.assembler import assemble
from shaderkit.isa.rsx.container import ProgramKind
from shaderkit.isa.rsx.image import read_hex

HANG_GUARD_SECONDS = 10.0
VP = "!!ARBvp1.0\n"
HUGE = "9" * 5000  # past Python's 4,300-digit limit for int()


def finishes_quickly(action):
    """Run ``action`` and fail if it took longer than the hang guard."""
    start = time.monotonic()
    try:
        return action()
    finally:
        assert time.monotonic() - start < HANG_GUARD_SECONDS


def assembly_errors(source: str) -> list[str]:
    with pytest.raises(DiagnosticError) as caught:
        assemble(source, "bad.vp")
    return [diagnostic.message for diagnostic in caught.value.diagnostics]


# --- the hex reader --------------------------------------------------------------------------------


@pytest.mark.parametrize("line", ["0" * 40 + "g", "0" * 100_000 + "g", "1: " + "0 " * 50_000 + "g",
                                  "1" * 100_000 + ":", " " * 100_000 + "g"])
def test_hex_reader_refuses_adversarial_lines_quickly(line):
    # '0'*28 + 'g' took 53 s: the old line pattern could divide a digit run among words in
    # exponentially many ways before failing.
    with pytest.raises(InputError, match="expected hex words"):
        finishes_quickly(lambda: read_hex(line.encode(), ProgramKind.FRAGMENT, "bad.hex"))


@pytest.mark.parametrize("line", ["123456789 0 0 0", "0x120x34 0 0 0", "0x 0 0 0"])
def test_hex_words_are_separated_and_at_most_32_bits(line):
    # Words written together were accepted and then converted as one: a 36-bit word, or a
    # ValueError traceback for '0x120x34'.
    with pytest.raises(InputError, match="at most 8 digits"):
        read_hex(line.encode(), ProgramKind.FRAGMENT, "bad.hex")


def test_hex_reader_still_reads_slot_lines():
    image = read_hex(b"000: 0x00000000 00000000 0 1\n001:00000000 0 0 0\n", ProgramKind.VERTEX, "ok.hex")
    assert image.words[:4] == (0, 0, 0, 1)
    assert len(image.words) == 8


# --- the constant-register scan of the assembler ---------------------------------------------------


@pytest.mark.parametrize("line", ["MOV R0, c[" + "1" * 100_000 + ";", "MOV R0, " + "c[" * 50_000 + ";",
                                  "MOV R0, " + "c[1 " * 25_000 + ";"])
def test_constant_scan_is_linear_on_unclosed_brackets(line):
    # The scan for the c[] registers a program names took 5.8 s for 20,000 characters and grew
    # with the square of the length.
    messages = finishes_quickly(lambda: assembly_errors(VP + line + "\nEND\n"))
    assert messages


# --- numbers past int()'s limit ------------------------------------------------------------------


@pytest.mark.parametrize("source", [
    VP + f"#const c[{HUGE}] = 1 2 3 4\nMOV result.position, c[0];\nEND\n",
    VP + f"#const c[0] = 1{HUGE} 2 3 4\nMOV result.position, c[0];\nEND\n",
    VP + f"MOV result.position, c[{HUGE}];\nEND\n",
    VP + f"MOV R{HUGE}, c[0];\nEND\n",
    VP + f"ARL A0.x, c[0].x;\nMOV result.position, c[A0.x+{HUGE}];\nEND\n",
    VP + f"#var float4 x :  : c[{HUGE}] : -1 : 1\nMOV result.position, c[0];\nEND\n",
    VP + f"#var float4 x :  : c[0], {HUGE} : -1 : 1\nMOV result.position, c[0];\nEND\n",
    VP + f"MOV result.position, c[0];\nEND\n#! trailing {HUGE} 0 0 0\n",
    VP + f"MOV result.position, c[0]; #! opcode={HUGE}\nEND\n",
    f"{HUGE}: MOV result.position, c[0];\n",
    "!!ARBfp1.0\n" + f"MOV H{HUGE}, fragment.color;\nEND\n",
    "!!ARBfp1.0\n" + f"MOV R0, fragment.color; #! input={HUGE}\nEND\n",
], ids=["const-index", "const-value", "constant-register", "temp-register", "relative-offset", "var-index",
        "var-count", "trailing", "hint", "slot-number", "half-register", "fp-hint"])
def test_huge_numbers_are_source_errors(source):
    # Each of these was a ValueError traceback ("Exceeds the limit (4300 digits)").
    assert assembly_errors(source)


def test_var_paramno_past_int_limit_is_ignored_like_any_unreadable_number():
    assembled = assemble(VP + f"#var float4 x :  : c[0] : {HUGE} : 1\nMOV result.position, c[0];\nEND\n",
                         "ok.vp", ProgramKind.VERTEX)
    assert assembled.uniforms[0].parameter_number is None


def test_token_length_bound_names_the_token():
    messages = assembly_errors(VP + f"MOV R0, c[{HUGE}];\nEND\n")
    assert any("5,000 characters is too long" in message for message in messages)


def test_numbers_at_the_bound_still_read():
    # An exact decimal float of 150 digits and a 1000-character zero-padded index read as before.
    exact = "0." + "0" * 44 + "1401298464324817070923729583289916131280261941876515771757068283889791082685860601486638188362121582031"
    source = VP + f"#const c[{'0' * 997}7] = {exact} 0 0 0\nMOV result.position, c[7];\nEND\n"
    assembled = assemble(source, "ok.vp", ProgramKind.VERTEX)
    assert np.float32(assembled.constants[7][0]).view(np.uint32) == 1  # the smallest denormal's bits


# --- disassembling an empty image ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["rsx", "rsx-vp", "rsx-fp"])
@pytest.mark.parametrize("suffix", [".bin", ".hex", ".vpo", ".fpo"])
def test_an_empty_file_is_an_error(tmp_path, name, suffix):
    processor = get(name)
    empty = tmp_path / f"program{suffix}"
    empty.write_bytes(b"")
    fmt = processor.detect_format(b"", str(empty))
    reader = processor.containers[fmt][1]
    with pytest.raises(InputError, match="empty"):
        reader(b"", str(empty))


@pytest.mark.parametrize("suffix", [".bin", ".hex", ".vpo", ".fp", ".vp"])
def test_an_empty_program_file_is_an_error_when_run(tmp_path, suffix):
    empty = tmp_path / f"program{suffix}"
    empty.write_bytes(b" \n")
    with pytest.raises(InputError, match="empty file"):
        get("rsx").load_file(str(empty), ProgramKind.VERTEX)
