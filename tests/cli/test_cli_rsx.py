"""The shaderkit command on RSX: asm/disasm in every format, runs, decompile, bad input."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from shaderkit.cli import main
from conftest import golden_dir

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = golden_dir("rsx")
EXAMPLES = ROOT / "examples" / "rsx"
CUBE = ROOT / "examples" / "theia" / "models" / "cube.obj"


def invoke(*arguments: str):
    return CliRunner().invoke(main, [str(argument) for argument in arguments], catch_exceptions=False)


def one_line_error(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


@pytest.mark.parametrize("machine, source, fmt", [
    ("rsx-vp", "vp_cond_codes.vp.txt", "raw"), ("rsx-vp", "vp_branch.vp.txt", "hex"),
    ("rsx-vp", "vp_mvp_color.vp.txt", "vpo"), ("rsx-fp", "fp_loop.fp.txt", "raw"),
    ("rsx-fp", "fp_if_else.fp.txt", "hex"), ("rsx-fp", "fp_half_regs.fp.txt", "fpo"),
    ("rsx", "fp_kil.fp.txt", "fpo"), ("rsx", "vp_dots.vp.txt", "vpo"),
])
def test_asm_then_disasm_round_trips(tmp_path, machine, source, fmt):
    binary = tmp_path / f"program.{fmt}"
    assert invoke("asm", "-m", machine, GOLDEN / "asm" / source, "-f", fmt, "-o", binary).exit_code == 0
    listing = invoke("disasm", "-m", machine, binary, "-f", fmt)
    assert listing.exit_code == 0, listing.output
    text = tmp_path / "again.txt"
    text.write_text(listing.stdout)
    second = tmp_path / f"second.{fmt}"
    assert invoke("asm", "-m", machine, text, "-f", fmt, "-o", second).exit_code == 0
    assert second.read_bytes() == binary.read_bytes()


def test_raw_output_is_the_golden_ucode(tmp_path):
    target = tmp_path / "kil.bin"
    assert invoke("asm", "-m", "rsx-fp", GOLDEN / "asm" / "fp_kil.fp.txt", "-f", "raw", "-o", target).exit_code == 0
    assert target.read_bytes() == (GOLDEN / "asm" / "fp_kil.fpo.bin").read_bytes()


@pytest.mark.parametrize("name", ["gs_gcm_cube_0x38c70.vpo", "gs_gcm_cube_0x2074c.fpo"])
def test_real_container_disassembles_and_reassembles_to_the_same_program(tmp_path, name):
    listing = invoke("disasm", "-m", "rsx", GOLDEN / "real" / name)
    assert listing.exit_code == 0
    assert "#param" in listing.stdout and "#header" in listing.stdout
    text = tmp_path / "again.txt"
    text.write_text(listing.stdout)
    suffix = name.rsplit(".", 1)[1]
    rebuilt = tmp_path / f"again.{suffix}"
    assert invoke("asm", "-m", "rsx", text, "-f", suffix, "-o", rebuilt).exit_code == 0
    from shaderkit.isa.rsx.container import read_container
    assert read_container(rebuilt.read_bytes(), "a") == read_container((GOLDEN / "real" / name).read_bytes(), "b")


def test_rpcs3_style_listing(tmp_path):
    result = invoke("disasm", "-m", "rsx", GOLDEN / "real" / "gs_gcm_basic_triangle_0x312e0.vpo", "--style", "rpcs3")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].startswith("000: MOV o[1], v[3]")


def test_fullscreen_fragment_run_matches_the_emulation_golden(tmp_path):
    target = tmp_path / "out.npy"
    result = invoke("run", "-m", "rsx-fp", GOLDEN / "asm" / "fp_kil.fpo.bin", "--fullscreen", "64x64", "-o", target)
    assert result.exit_code == 0, result.output
    np.testing.assert_array_equal(np.load(target), np.load(GOLDEN / "emu" / "fp_kil.npy"))


def test_fullscreen_input_override_and_png(tmp_path):
    target = tmp_path / "out.npy"
    assert invoke("run", "-m", "rsx-fp", GOLDEN / "asm" / "fp_mov_color.fpo.bin", "--fullscreen", "4x2",
                  "--input", "COL0=0.25,0.5,0.75,1", "-o", target).exit_code == 0
    colour = np.load(target)
    assert colour.shape == (2, 4, 4) and np.all(colour == np.float32([0.25, 0.5, 0.75, 1]))
    picture = tmp_path / "out.png"
    assert invoke("run", "-m", "rsx-fp", GOLDEN / "asm" / "fp_mov_color.fpo.bin", "-o", picture).exit_code == 0
    assert np.asarray(Image.open(picture).convert("RGB"))[0, 0].tolist() == [204, 102, 51]  # COL0 = 0.8 0.4 0.2


def test_pipeline_run_draws_the_mesh(tmp_path):
    target = tmp_path / "out.png"
    result = invoke("run", "-m", "rsx", "--vp", EXAMPLES / "textured.vp", "--fp", EXAMPLES / "textured.fp",
                    "--mesh", CUBE, "--texture", "0=" + str(ROOT / "examples/theia/textures/bricks.png"),
                    "--size", "64x48", "-o", target)
    assert result.exit_code == 0, result.output
    picture = np.asarray(Image.open(target).convert("RGB"))
    assert picture.shape == (48, 64, 3)
    assert picture[0, 0].tolist() == [0, 0, 0] and picture[24, 32].sum() > 60  # background, lit cube


def test_vertex_run_writes_outputs_per_vertex(tmp_path):
    target = tmp_path / "v.npy"
    result = invoke("run", "-m", "rsx-vp", EXAMPLES / "gouraud.vp", "--mesh", CUBE,
                    "--const", "c[8]=1,0,0,1", "-o", target)
    assert result.exit_code == 0, result.output
    outputs = np.load(target)
    assert outputs.shape[1:] == (16, 4)
    assert np.all(outputs[:, 1, 1:3] == 0) and np.all(outputs[:, 1, 3] == 1)  # base colour red


def test_decompile_writes_glsl_that_glslang_accepts(tmp_path):
    target = tmp_path / "prog.frag"
    assert invoke("decompile", "-m", "rsx", GOLDEN / "real" / "gs_gcm_cube_0x38f80.fpo", "-o", target).exit_code == 0
    text = target.read_text()
    assert text.startswith("#version 430")
    check = subprocess.run(["glslangValidator", str(target)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout


@pytest.mark.parametrize("arguments, message", [
    (("disasm", "-m", "rsx", GOLDEN / "asm" / "fp_kil.fpo.bin"), "use -m rsx-vp or -m rsx-fp"),
    (("disasm", "-m", "rsx-vp", GOLDEN / "real" / "gs_gcm_cube_0x38f80.fpo"), "not a vertex program"),
    (("disasm", "-m", "rsx-fp", GOLDEN / "asm" / "fp_kil.fpo.bin", "-f", "imem"), "not available for rsx-fp"),
    (("run", "-m", "rsx-fp", GOLDEN / "asm" / "fp_kil.fpo.bin", "--fullscreen", "0x4", "-o", "x.npy"),
     "--fullscreen needs WIDTHxHEIGHT"),
    (("run", "-m", "rsx-fp", GOLDEN / "asm" / "fp_kil.fpo.bin", "--input", "TEX7=1,2", "-o", "x.npy"),
     "--input TEX7 needs 4 numbers"),
    (("run", "-m", "rsx-fp", GOLDEN / "asm" / "fp_kil.fpo.bin", "--mesh", "m.obj", "-o", "x.npy"),
     "--mesh: not an option for rsx-fp"),
    (("run", "-m", "rsx", "--vp", EXAMPLES / "gouraud.vp", "--fp", EXAMPLES / "gouraud.fp", "-o", "x.png"),
     "needs --fp PROGRAM and --mesh model.obj"),
    (("run", "-m", "rsx-vp", EXAMPLES / "gouraud.vp", "--mesh", CUBE, "--const", "c[999]=1,2,3,4", "-o", "x.npy"),
     "outside the constant memory"),
    (("run", "-m", "rsx-fp", GOLDEN / "asm" / "fp_tex2d.fpo.bin", "--texture", "0=missing.png", "-o", "x.npy"),
     "missing.png"),
    (("decompile", "-m", "tpp", GOLDEN / "asm" / "fp_kil.fpo.bin"), "tpp has no decompile command"),
])
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, arguments, message):
    assert message in one_line_error(invoke(*arguments))


def test_a_program_of_the_wrong_kind_is_a_located_error(tmp_path):
    result = invoke("run", "-m", "rsx", "--vp", EXAMPLES / "gouraud.fp", "--fp", EXAMPLES / "gouraud.fp",
                    "--mesh", CUBE, "-o", tmp_path / "x.png")
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert f"{EXAMPLES / 'gouraud.fp'}:1:1: error:" in result.stderr and "vertex program" in result.stderr


def test_truncated_ucode_leaves_no_output(tmp_path):
    broken = tmp_path / "broken.bin"
    # Slots 5 and 6 are cut: the MAD in slot 4 loses its literal slot.
    broken.write_bytes((GOLDEN / "asm" / "fp_arith_const.fpo.bin").read_bytes()[:-32])
    target = tmp_path / "out.npy"
    error = one_line_error(invoke("run", "-m", "rsx-fp", broken, "-o", target))
    assert "literal slot is missing" in error and not target.exists()


def test_assembly_error_points_at_the_line(tmp_path):
    source = tmp_path / "bad.fp"
    source.write_text("!!ARBfp1.0\nOPTION NV_fragment_program2;\nMOVR R0, fragment.bogus;\nEND\n")
    result = invoke("asm", "-m", "rsx-fp", source, "-f", "raw", "-o", tmp_path / "x.bin")
    assert result.exit_code == 2
    assert f"{source}:3:" in result.stderr and "^" in result.stderr
    assert not (tmp_path / "x.bin").exists()
