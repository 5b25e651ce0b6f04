"""The shaderkit command on TPP: golden data reproduced through the CLI, and bad input."""

from __future__ import annotations


import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from shaderkit.cli import main
from conftest import golden_dir

GOLDEN = golden_dir("tpp")
MANIFEST = [line.split("\t") for line in (GOLDEN / "frames.tsv").read_text().splitlines()[1:]]
PROGRAMS = sorted(GOLDEN.glob("*.s"))


def invoke(*arguments: str):
    return CliRunner().invoke(main, list(arguments), catch_exceptions=False)


def test_golden_set_is_present():
    assert len(MANIFEST) >= 20 and len(PROGRAMS) >= 10


# The golden images keep OUT lines where they stand (tests/golden/tpp/README.md): the CLI reads
# the sources with --slots written, as shaderkit's reading, not the upstream flasher's.
WRITTEN = ("--slots", "written")


@pytest.mark.parametrize("source", PROGRAMS, ids=lambda p: p.stem)
def test_asm_hex_prints_the_golden_image(source):
    result = invoke("asm", "-m", "tpp", *WRITTEN, str(source), "-f", "hex")
    assert result.exit_code == 0
    assert result.stdout == source.with_suffix(".words").read_text()


@pytest.mark.parametrize("source", PROGRAMS, ids=lambda p: p.stem)
def test_flash_dry_run_prints_the_golden_uart_stream(source):
    result = invoke("flash", "-m", "tpp", *WRITTEN, str(source), "--dry-run")
    assert result.exit_code == 0
    assert result.stdout.strip() == source.with_suffix(".uart").read_text().strip()


def test_flash_dry_run_sends_what_the_upstream_flasher_sends_by_default():
    # st_mid_out has two mid-program OUT lines: the upstream flasher leaves them out.
    source = GOLDEN / "st_mid_out.s"
    result = invoke("flash", "-m", "tpp", str(source), "--dry-run")
    assert result.exit_code == 0
    golden = [int(word, 16) for word in source.with_suffix(".words").read_text().split()]
    upstream = [word for word in golden[:19] if word >> 11 != 12]
    upstream += [0x0000] * (19 - len(upstream)) + [0x6003]
    assert result.stdout.split() == [f"{byte:02X}" for slot, word in enumerate(upstream)
                                     for byte in (0x80 | slot, word >> 8, word & 0xFF)]
    assert result.stderr.count("is left out of the upload") == 2


@pytest.mark.parametrize("row", MANIFEST, ids=lambda row: row[0])
def test_run_reproduces_golden_frame(row, tmp_path):
    file, program, rev, load, frame, rt = row
    output = tmp_path / "frame.png"
    # "upload" frames: the chip after the standard upload, which --start auto simulates for the
    # programs that read prior state (and which equals a preload for the others); "preload"
    # frames: the program in instruction memory at reset.
    options = ["--rt", rt] if load == "upload" else ["--model", "exact", "--start", "reset", "--frame", frame]
    source = GOLDEN / f"{program}.s"
    if rev == "A" and "OUT" in source.read_text():
        # The rev-A frames run the golden (upstream-encoded) words, whose OUT rev A reads from
        # bits 10-8; our rev-A assembler writes the register where rev A reads it.
        source = source.with_suffix(".words")
    result = invoke("run", "-m", "tpp", "--rev", rev, *WRITTEN, str(source), *options, "-o", str(output))
    assert result.exit_code == 0, result.output
    got = np.asarray(Image.open(output))
    expected = np.asarray(Image.open(GOLDEN / file).convert("RGB"))
    assert got.shape == expected.shape == (480, 640, 3)
    differing = np.argwhere((got != expected).any(axis=2))
    assert len(differing) == 0, f"{len(differing)} pixels differ, first at (y, x) {differing[:5].tolist()}"


def test_auto_model_choice_is_reported_for_stateful_programs(tmp_path):
    result = invoke("run", "-m", "tpp", str(GOLDEN / "st_accum.s"), "--rt", "0", "-o", str(tmp_path / "a.png"))
    assert result.exit_code == 0
    assert "using the exact model" in result.stderr and "reads R1" in result.stderr


def test_scale_one_gives_the_logical_picture(tmp_path):
    small, large = tmp_path / "small.png", tmp_path / "large.png"
    source = str(GOLDEN / "wb_tt_rainbow.s")
    assert invoke("run", "-m", "tpp", source, "--rt", "1", "--scale", "1", "-o", str(small)).exit_code == 0
    assert invoke("run", "-m", "tpp", source, "--rt", "1", "-o", str(large)).exit_code == 0
    logical = np.asarray(Image.open(small))
    assert logical.shape == (48, 64, 3)
    assert np.array_equal(logical, np.asarray(Image.open(large))[5::10, 5::10])


def test_animation_gif_has_the_requested_frames(tmp_path):
    output = tmp_path / "anim.gif"
    result = invoke("run", "-m", "tpp", str(GOLDEN / "wb_sine_plasma.s"), "--frames", "6", "--fps", "20",
                    "--no-progress", "-o", str(output))
    assert result.exit_code == 0, result.output
    with Image.open(output) as gif:
        assert gif.n_frames == 6
        gif.seek(2)
        # Frame 2 of a 20 fps animation is chip frame 6, RT = 2: the golden rt2 picture.
        expected = np.asarray(Image.open(GOLDEN / "wb_sine_plasma.rt2.png").convert("RGB"))
        assert np.array_equal(np.asarray(gif.convert("RGB")), expected)


def test_disasm_of_assembled_image_round_trips(tmp_path):
    binary = tmp_path / "prog.bin"
    assert invoke("asm", "-m", "tpp", str(GOLDEN / "wb_checker_t.s"), "-f", "raw", "-o", str(binary)).exit_code == 0
    listing = invoke("disasm", "-m", "tpp", str(binary))
    assert listing.exit_code == 0
    source = tmp_path / "again.s"
    source.write_text(listing.stdout)
    again = invoke("asm", "-m", "tpp", str(source), "-f", "hex")
    assert again.stdout == (GOLDEN / "wb_checker_t.words").read_text()


def test_flash_divisor_only_and_output_file(tmp_path):
    output = tmp_path / "bytes.bin"
    result = invoke("flash", "-m", "tpp", "--time-divisor", "2", "--dry-run", "-o", str(output))
    assert result.exit_code == 0
    assert result.stdout.strip() == "42" and output.read_bytes() == b"\x42"


BAD_INPUTS = [
    (["asm", "-m", "tpp", "{missing}"], "missing.s: no such file"),
    (["run", "-m", "tpp", "{bad_source}", "--rt", "1", "-o", "{out_png}"], "error: unknown instruction"),
    (["run", "-m", "tpp", "{good_source}", "--rt", "1", "-o", "{out_avi}"], "use .png"),
    (["run", "-m", "tpp", "{good_source}", "--frames", "3", "-o", "{out_png}"], "use .gif or .mp4"),
    (["run", "-m", "tpp", "{good_source}", "--rt", "64", "-o", "{out_png}"], "64"),
    (["run", "-m", "tpp", "{good_source}", "--rt", "1", "--frame", "2", "-o", "{out_png}"], "only one of"),
    (["run", "-m", "tpp", "--rev", "A", "{good_source}", "--divisor", "2", "-o", "{out_png}"], "fixed time divisor"),
    (["disasm", "-m", "tpp", "{odd_binary}", "-f", "raw"], "prog.bin"),
    (["disasm", "-m", "tpp", "{bad_hex}", "-f", "hex"], "bad.hex:2"),
    (["flash", "-m", "tpp"], "nothing to send"),
    (["flash", "-m", "tpp", "--rev", "A", "--time-divisor", "3", "--dry-run"], "rev B"),
    (["asm", "-m", "nosuch", "{good_source}"], "nosuch"),
    (["asm", "-m", "tpp", "{good_source}", "--bogus"], "--bogus"),
]


@pytest.mark.parametrize("arguments, message", BAD_INPUTS, ids=lambda v: " ".join(v) if isinstance(v, list) else v)
def test_bad_input_gives_message_exit_2_and_no_output(arguments, message, tmp_path):
    files = {
        "missing": tmp_path / "missing.s",
        "bad_source": tmp_path / "bad.s", "good_source": tmp_path / "good.s",
        "out_png": tmp_path / "out.png", "out_avi": tmp_path / "out.avi",
        "odd_binary": tmp_path / "prog.bin", "bad_hex": tmp_path / "bad.hex",
    }
    files["bad_source"].write_text("MOV R0 RX\nFOO R1\n")
    files["good_source"].write_text("MOV R0 RX\n")
    files["odd_binary"].write_bytes(b"\x10\x83\x58")
    files["bad_hex"].write_text("1083\nXYZW\n")
    result = invoke(*[a.format(**{k: str(v) for k, v in files.items()}) for a in arguments])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert not files["out_png"].exists() and not files["out_avi"].exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "temporary file left behind"


def test_source_error_has_position_and_caret(tmp_path):
    source = tmp_path / "prog.s"
    source.write_text("MOV R0 RX\nADD R0 R9\n")
    result = invoke("asm", "-m", "tpp", str(source))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"{source}:2:8: error: unknown register 'R9'")
    assert lines[1] == "ADD R0 R9"
    assert lines[2] == "       ^~"


def test_bench_json_has_the_documented_keys():
    import json
    result = invoke("bench", "-m", "tpp", "--json", "--seconds", "0.1")
    assert result.exit_code == 0
    figures = json.loads(result.stdout)
    assert {"simple_fps", "exact_fps", "baseline_fps"} <= figures.keys()
    assert all(figures[key] > 0 for key in ("simple_fps", "exact_fps", "baseline_fps"))
