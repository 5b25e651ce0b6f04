"""``shaderkit`` on RSX at the edges (issue 10): every bad value is one line and exit 2, runaway
programs are stopped within seconds with a message naming the program and the option to change,
and ``--budget`` sets the work a picture may take.

Time bounds are hang guards with a wide margin (the runs took minutes to hours before)."""

from __future__ import annotations

import struct
import time
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from shaderkit.cli import main
from shaderkit.isa.rsx import budget as budgets
from conftest import golden_dir, load_gallery

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "rsx"
TORUS = EXAMPLES / "models" / "torus.obj"
GOLDEN = golden_dir("rsx")
HANG_GUARD_SECONDS = 60.0
HUGE = "9" * 5000

THREE_DEEP_LOOP_FP = """!!ARBfp1.0
OPTION NV_fragment_program2;
#const c[0] = 255 0 1 0
PARAM c[1] = { { 255, 0, 1, 0 } };
TEMP R0;
MOVR R0, fragment.color;
LOOP c[0];
LOOP c[0];
LOOP c[0];
ADDR R0, R0, fragment.color;
ENDLOOP;
ENDLOOP;
ENDLOOP;
MOVR result.color, R0;
END
"""
ENDLESS_VP = """!!ARBvp1.0
OPTION NV_vertex_program3;
TEMP R0;
MOV R0, vertex.position;
top:
ADD R0, R0, vertex.normal;
BRA top;
MOV result.position, R0;
END
"""


def invoke(*arguments):
    return CliRunner().invoke(main, [str(argument) for argument in arguments], catch_exceptions=False)


def timed_invoke(*arguments):
    start = time.monotonic()
    result = invoke(*arguments)
    assert time.monotonic() - start < HANG_GUARD_SECONDS
    return result


def one_line_error(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


# --- option values -------------------------------------------------------------------------------


@pytest.mark.parametrize("arguments, expected", [
    (("run", "-m", "rsx-fp", EXAMPLES / "gouraud.fp", "--fullscreen", "²x2"), "--fullscreen needs WIDTHxHEIGHT"),
    (("run", "-m", "rsx-fp", EXAMPLES / "gouraud.fp", "--fullscreen", "2x" + HUGE), "--fullscreen needs WIDTHxHEIGHT"),
    (("run", "-m", "rsx", "--fp", EXAMPLES / "gouraud.fp", "--mesh", TORUS, "--size", "²x2"), "--size needs WIDTHxHEIGHT"),
    (("run", "-m", "rsx-fp", EXAMPLES / "gouraud.fp", "--texture", "²=x.png"), "--texture needs UNIT=file.png"),
    (("run", "-m", "rsx-fp", EXAMPLES / "gouraud.fp", "--texture", HUGE + "=x.png"), "--texture needs UNIT=file.png"),
    (("run", "-m", "rsx-vp", EXAMPLES / "gouraud.vp", "--mesh", TORUS, "--const", f"c[{HUGE}]=1,2,3,4"),
     "is outside the constant memory"),
], ids=["fullscreen-superscript", "fullscreen-huge", "size-superscript", "texture-superscript", "texture-huge",
        "const-huge"])
def test_bad_numbers_in_options_are_one_line_errors(tmp_path, arguments, expected):
    # '²'.isdigit() is True but int('²') raises: these were ValueError tracebacks.
    output = tmp_path / ("out.npy" if "rsx-vp" in arguments else "out.png")
    assert expected in one_line_error(invoke(*arguments, "-o", output))


def test_texture_whose_header_claims_20000_by_20000_is_one_line_error(tmp_path):
    png = tmp_path / "bomb.png"
    Image.new("RGB", (1, 1)).save(png)
    data = bytearray(png.read_bytes())
    # IHDR starts at byte 8: length, type, width, height, ...; its CRC covers type and data.
    data[16:24] = struct.pack(">II", 20000, 20000)
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])))
    png.write_bytes(bytes(data))
    message = one_line_error(invoke("run", "-m", "rsx-fp", EXAMPLES / "gouraud.fp", "--texture", f"0={png}",
                                    "-o", tmp_path / "out.png"))
    assert "bomb.png" in message


# --- source and binaries -----------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    f"!!ARBvp1.0\n#const c[{HUGE}] = 1 2 3 4\nMOV result.position, c[0];\nEND\n",
    f"!!ARBvp1.0\nMOV R{HUGE}, c[0];\nEND\n",
    f"{HUGE}: MOV result.position, c[0];\n",
], ids=["const-index", "register", "slot-number"])
def test_numbers_past_the_int_limit_are_source_errors(tmp_path, text):
    source = tmp_path / "big.vp"
    source.write_text(text)
    result = invoke("asm", "-m", "rsx-vp", source, "-o", tmp_path / "out.vpo")
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"{source}:")
    assert ": error: " in result.stderr.splitlines()[0]


def test_adversarial_hex_file_is_refused_quickly(tmp_path):
    # '0'*28 + 'g' took 53 s, growing 15× per four more digits.
    hex_file = tmp_path / "bad.hex"
    hex_file.write_text("0" * 60 + "g\n")
    message = one_line_error(timed_invoke("disasm", "-m", "rsx-fp", hex_file))
    assert "expected hex words" in message


@pytest.mark.parametrize("machine", ["rsx", "rsx-vp", "rsx-fp"])
@pytest.mark.parametrize("name", ["empty.bin", "empty.hex", "empty.fpo", "empty.vpo"])
def test_disassembling_an_empty_file_is_an_error(tmp_path, machine, name):
    empty = tmp_path / name
    empty.write_bytes(b"")
    assert "empty" in one_line_error(invoke("disasm", "-m", machine, empty))


def test_running_an_empty_program_file_is_an_error(tmp_path):
    empty = tmp_path / "empty.fpo"
    empty.write_bytes(b"")
    message = one_line_error(invoke("run", "-m", "rsx", "--fp", empty, "--mesh", TORUS, "-o", tmp_path / "out.png"))
    assert "empty file" in message


# --- the run budget ----------------------------------------------------------------------------


def test_three_deep_loop_at_512_by_512_stops_with_a_clear_message(tmp_path):
    # Counted in instructions, the old budget had not stopped this after 150 s.
    program = tmp_path / "loops.fp"
    program.write_text(THREE_DEEP_LOOP_FP)
    message = one_line_error(timed_invoke("run", "-m", "rsx-fp", program, "--fullscreen", "512x512",
                                          "-o", tmp_path / "out.png"))
    assert message.startswith(f"{program} (fragment program): the budget of")
    assert "lane-instructions ran out at slot" in message and "--budget N" in message
    assert not (tmp_path / "out.png").exists()


def test_runaway_fragment_program_in_the_pipeline_stops(tmp_path):
    program = tmp_path / "loops.fp"
    program.write_text(THREE_DEEP_LOOP_FP)
    message = one_line_error(timed_invoke("run", "-m", "rsx", "--fp", program, "--mesh", TORUS,
                                          "--size", "512x512", "-o", tmp_path / "out.png"))
    assert message.startswith(f"{program} (fragment program)") and "--budget N" in message


def test_runaway_animation_names_the_frame(tmp_path):
    program = tmp_path / "loops.fp"
    program.write_text(THREE_DEEP_LOOP_FP)
    message = one_line_error(timed_invoke("run", "-m", "rsx", "--fp", program, "--mesh", TORUS, "--size", "64x64",
                                          "--frames", "3", "--fps", "10", "-o", tmp_path / "out.gif"))
    assert message.startswith(f"{program} (fragment program, frame 0)")


def test_endless_vertex_program_stops_on_the_wall_time(tmp_path):
    # A thousand vertices take the default work only after minutes: the wall time ends the run.
    program = tmp_path / "spin.vp"
    program.write_text(ENDLESS_VP)
    message = one_line_error(timed_invoke("run", "-m", "rsx-vp", program, "--mesh", TORUS,
                                          "-o", tmp_path / "out.npy"))
    assert message.startswith(f"{program} (vertex program): stopped at slot")
    assert f"after {budgets.DEFAULT_SECONDS:g} s" in message and "--budget N" in message


def test_endless_vertex_program_in_the_pipeline_stops_on_an_explicit_budget(tmp_path):
    program = tmp_path / "spin.vp"
    program.write_text(ENDLESS_VP)
    message = one_line_error(timed_invoke("run", "-m", "rsx", "--vp", program, "--fp", EXAMPLES / "gouraud.fp",
                                          "--mesh", TORUS, "--budget", "5000000", "-o", tmp_path / "out.png"))
    assert message.startswith(f"{program} (vertex program): the budget of 5,000,000 lane-instructions ran out")


@pytest.mark.parametrize("arguments", [
    ("-m", "rsx-fp", EXAMPLES / "gouraud.fp", "--fullscreen", "64x64"),
    ("-m", "rsx-vp", EXAMPLES / "gouraud.vp", "--mesh", TORUS),
    ("-m", "rsx", "--vp", EXAMPLES / "gouraud.vp", "--fp", EXAMPLES / "gouraud.fp", "--mesh", TORUS),
], ids=["rsx-fp", "rsx-vp", "rsx"])
def test_a_small_budget_stops_a_normal_program_and_a_large_one_does_not(tmp_path, arguments):
    output = tmp_path / ("out.npy" if "rsx-vp" in arguments else "out.png")
    message = one_line_error(invoke("run", *arguments, "--budget", "100", "-o", output))
    assert "the budget of 100 lane-instructions ran out" in message
    assert not output.exists()
    assert invoke("run", *arguments, "--budget", "100000000", "-o", output).exit_code == 0
    assert output.exists()


def test_every_example_renders_well_within_the_default_budget(tmp_path, monkeypatch):
    spent = []
    make_budget = budgets.RunBudget.for_command

    def recording(*arguments, **keywords):
        budget = make_budget(*arguments, **keywords)
        spent.append(budget)
        return budget

    monkeypatch.setattr(budgets.RunBudget, "for_command", recording)
    monkeypatch.chdir(ROOT)
    examples = [example for example in load_gallery().plan(tmp_path) if example.machine == "rsx"]
    assert examples
    (tmp_path / "rsx").mkdir()
    for example in examples:
        spent.clear()
        result = invoke(*example.renders[0].arguments)
        assert result.exit_code == 0, result.output
        assert spent and all(0 < budget.work - budget.remaining < budgets.DEFAULT_WORK // 10 for budget in spent)
