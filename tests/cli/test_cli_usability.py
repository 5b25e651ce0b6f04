"""The command line's rough edges of a first hour of use: which processor offers which command
and option, per-processor help, one-line usage errors, text given where a binary belongs, the
progress bar only on a terminal, one line on success, one wording for a missing file."""

from __future__ import annotations

from pathlib import Path

import pytest

from shaderkit import isa as isas
from conftest import assert_one_line_error, invoke_cli as invoke

ROOT = Path(__file__).resolve().parents[2]
PLASMA = ROOT / "examples" / "tpp" / "plasma.s"


@pytest.mark.parametrize("command", ["flash", "decompile"])
def test_optional_commands_offer_only_the_processors_that_have_them(command):
    offering = isas.names(command)
    assert offering and set(offering) < set(isas.names())
    for name in sorted(set(isas.names()) - set(offering)):
        result = invoke(command, "-m", name, PLASMA)
        assert_one_line_error(result, f"{name} has no {command} command", ", ".join(offering))


def test_flash_for_theia_is_a_clean_error_not_a_traceback():
    assert_one_line_error(invoke("flash", "-m", "theia", PLASMA, "--dry-run"), "theia has no flash command")


def test_a_misspelt_processor_gets_a_suggestion():
    assert_one_line_error(invoke("run", "-m", "tpx", PLASMA), "unknown processor 'tpx'", "did you mean tpp?")


@pytest.mark.parametrize("arguments, flag, machine", [
    (("asm", "-m", "theia", "--rev", "A", PLASMA), "--rev", "theia"),
    (("disasm", "-m", "tpp", "--style", "rpcs3", PLASMA), "--style", "tpp"),
    (("run", "-m", "rsx-fp", "--scene", "x", PLASMA), "--scene", "rsx-fp"),
])
def test_an_option_of_another_processor_is_refused(arguments, flag, machine):
    assert_one_line_error(invoke(*arguments), f"{flag}: not an option for {machine}")


def test_help_for_one_processor_lists_only_its_options():
    theia = invoke("run", "-m", "theia", "--help").stdout.split("Options:")[1]
    tpp = invoke("run", "-m", "tpp", "--help").stdout.split("Options:")[1]
    assert "--scene" in theia and "--cores" in theia and "--frames" in theia
    assert "--rev" not in theia and "--model" not in theia and "--fullscreen" not in theia
    assert "--model" in tpp and "--rev" in tpp and "--frames" in tpp
    assert "--scene" not in tpp and "--vp" not in tpp


def test_help_for_all_processors_names_the_owners_of_each_option():
    text = " ".join(invoke("run", "--help").stdout.split())
    assert "--rev [a|b] [tpp]" in text
    assert "--scene TEXT [theia]" in text
    assert "--frames INTEGER RANGE Render" in text  # every processor takes it: no owner list


@pytest.mark.parametrize("arguments", [
    ("run", "-m", "tpp", "--bogus"),
    ("asm", "-m", "tpp"),
    ("run", "-m", "tpp", "--rt", "99", PLASMA),
    ("nosuchcommand",),
])
def test_usage_errors_are_one_line_with_exit_code_2(arguments):
    result = invoke(*arguments)
    assert_one_line_error(result, "error:", "--help")


def test_disassembling_source_text_is_refused_with_a_hint(tmp_path):
    out = tmp_path / "out.s"
    result = invoke("disasm", "-m", "tpp", PLASMA, "-o", out)
    assert_one_line_error(result, "this is text, not a binary image", "shaderkit asm -m tpp")
    assert not out.exists()


def test_disassembling_text_as_raw_bytes_is_still_possible_when_asked(tmp_path):
    text = tmp_path / "prog.s"
    text.write_text("MOV R0 RX\nXOR R0 RY\n" * 4)  # 80 bytes: 40 big-endian words of ASCII
    result = invoke("disasm", "-m", "tpp", "-f", "raw", text)
    assert result.exit_code == 0
    words = [line.split("// ")[1][4:8] for line in result.stdout.splitlines() if "// " in line]
    assert words[:2] == ["4d4f", "5620"] and len(words) == 40  # "MO", "V ", …


def test_run_prints_one_line_on_success(tmp_path):
    out = tmp_path / "frame.png"
    result = invoke("run", "-m", "tpp", PLASMA, "-o", out)
    assert result.exit_code == 0, result.output
    assert result.stderr == f"wrote {out} (640×480, simple model)\n"
    assert out.stat().st_size > 0


def test_run_summary_names_the_exact_model_for_frame_zero(tmp_path):
    out = tmp_path / "frame.png"
    result = invoke("run", "-m", "tpp", PLASMA, "--frame", "0", "--scale", "1", "-o", out)
    assert result.stderr.splitlines()[-1] == f"wrote {out} (64×48, exact model)"


def test_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path):
    out = tmp_path / "anim.gif"
    quiet = invoke("run", "-m", "tpp", PLASMA, "--frames", "3", "--scale", "1", "-o", out)
    assert quiet.exit_code == 0, quiet.output
    assert quiet.stderr.splitlines() == [f"wrote {out} (3 frames at 20 fps, 64×48, exact model and simple model)"]
    forced = invoke("run", "-m", "tpp", PLASMA, "--frames", "3", "--scale", "1", "--progress", "-o", out)
    assert "3/3" in forced.stderr


def test_a_missing_file_has_one_wording_everywhere(tmp_path):
    missing = tmp_path / "missing"
    for arguments in (("asm", "-m", "tpp", f"{missing}.s"),
                      ("disasm", "-m", "theia", f"{missing}.bin"),
                      ("run", "-m", "tpp", f"{missing}.s", "-o", tmp_path / "x.png"),
                      ("run", "-m", "theia", "--obj", f"{missing}.obj", "-o", tmp_path / "x.png"),
                      ("run", "-m", "rsx", "--fp", f"{missing}.fp", "--vp", f"{missing}.vp",
                       "--mesh", f"{missing}.obj", "-o", tmp_path / "x.png")):
        result = invoke(*arguments)
        assert_one_line_error(result, ": no such file")


def test_missing_textures_scenes_and_includes_use_the_same_words(tmp_path):
    include = tmp_path / "include.s"
    include.write_text('.include "absent.s"\n')
    assert "cannot include 'absent.s': no such file" in invoke("asm", "-m", "tpp", include).stderr
    cube = ROOT / "examples" / "theia" / "models" / "cube.obj"
    textured = ROOT / "examples" / "rsx" / "textured.fp"
    for arguments in (("run", "-m", "theia", "--obj", cube, "--texture", tmp_path / "absent.png", "-o", tmp_path / "x.png"),
                      ("run", "-m", "rsx", "--fp", textured, "--mesh", cube, "--texture", f"0={tmp_path / 'absent.png'}",
                       "-o", tmp_path / "x.png")):
        assert_one_line_error(invoke(*arguments), "absent.png: no such file")
    assert_one_line_error(invoke("run", "-m", "theia", "--scene", tmp_path / "absent", "-o", tmp_path / "x.png"),
                          "absent: no such scene folder")


@pytest.mark.parametrize("arguments", [
    ("run", "-m", "rsx-fp", ROOT / "examples" / "rsx" / "gouraud.fp", "--fullscreen", "3\nx4", "-o", "x.npy"),
    ("run", "-m", "tpp", "--rt", "a\nb", PLASMA),
    ("asm", "-m", "tpp", "no\nsuch.s"),
])
def test_a_value_with_a_line_break_is_echoed_on_one_line(arguments):
    assert_one_line_error(invoke(*arguments), "\\n")


@pytest.mark.parametrize("arguments", [
    ("run", "-m", "theia", "--obj", ROOT / "examples" / "theia" / "models" / "cube.obj", "--resolution",
     "4\x1b[31mx4", "-o", "x.png"),
    ("asm", "-m", "tpp", "no\x1b[2Jsuch\x07.s"),
    ("run", "-m", "tpp", "--rt", "\x9b1m", PLASMA),
])
def test_control_characters_in_a_value_are_escaped_not_sent_to_the_terminal(arguments):
    result = invoke(*arguments)
    assert_one_line_error(result, "\\x")
    assert not any(0 <= ord(character) < 0x20 or 0x7F <= ord(character) < 0xA0
                   for character in result.output.rstrip("\n"))


@pytest.mark.parametrize("machine", isas.names())
@pytest.mark.parametrize("content", [b"", b"\n  \n"])
def test_an_empty_image_is_an_error_for_every_processor(machine, content, tmp_path):
    empty = tmp_path / "empty.bin"
    empty.write_bytes(content)
    assert_one_line_error(invoke("disasm", "-m", machine, empty), "empty file")
