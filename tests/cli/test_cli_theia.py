"""The shaderkit command on THEIA: asm/disasm containers, scene runs, bare runs, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from shaderkit.cli import main
from conftest import assert_one_line_error, golden_dir, invoke_cli

CUBE = Path(__file__).resolve().parents[2] / "examples" / "theia" / "models" / "cube.obj"

SCENES = golden_dir("theia", "scenes")
SHADER = """\
// the upstream Example1 idiom: copy the texture colour
ENTRYPOINT_ADRR_PIXELSHADER
COPY OREG_PIXEL_COLOR CREG_TEXTURE_COLOR
RETURN RT_TRUE
""".replace("PIXELSHADER\n", "PIXELSHADER:\n")


def invoke(*arguments: str):
    return CliRunner().invoke(main, list(arguments), catch_exceptions=False)


@pytest.fixture
def shader(tmp_path) -> Path:
    path = tmp_path / "shader.s"
    path.write_text(SHADER)
    return path


@pytest.mark.parametrize("fmt", ["imem", "raw", "hex", "readmemh", "ihex", "c"])
def test_asm_then_disasm_round_trips_in_every_container(tmp_path, shader, fmt):
    binary = tmp_path / f"program.{fmt}"
    assert invoke("asm", "-m", "theia", str(shader), "-f", fmt, "-o", str(binary)).exit_code == 0
    listing = invoke("disasm", "-m", "theia", str(binary), "-f", fmt)
    assert listing.exit_code == 0
    assert "ENTRYPOINT_ADRR_PIXELSHADER:" in listing.stdout
    again = tmp_path / "again" / "shader.s"  # same stem: the C container names its array after it
    again.parent.mkdir()
    again.write_text(listing.stdout)
    second = tmp_path / f"second.{fmt}"
    assert invoke("asm", "-m", "theia", str(again), "-f", fmt, "-o", str(second)).exit_code == 0
    assert second.read_bytes() == binary.read_bytes()


def test_instructions_mem_is_detected_by_name_and_shape(tmp_path, shader):
    target = tmp_path / "Instructions.mem"
    invoke("asm", "-m", "theia", str(shader), "-f", "imem", "-o", str(target))
    result = invoke("disasm", "-m", "theia", str(target))
    assert result.exit_code == 0 and "COPY OREG_PIXEL_COLOR CREG_TEXTURE_COLOR" in result.stdout


def test_scene_run_with_shader_and_cores_matches_default(tmp_path, shader):
    plain, shaded = tmp_path / "plain.png", tmp_path / "shaded.png"
    scene = str(SCENES / "shaders_example1")
    assert invoke("run", "-m", "theia", "--scene", scene, "-o", str(plain)).exit_code == 0
    result = invoke("run", "-m", "theia", "--scene", scene, "--shader", str(shader), "--cores", "3",
                    "-o", str(shaded))
    assert result.exit_code == 0
    assert "ray-tri tests" in result.stderr and len(result.stderr.strip().splitlines()) >= 4
    assert np.array_equal(np.asarray(Image.open(plain)), np.asarray(Image.open(shaded)))


def test_shader_given_as_instructions_mem(tmp_path, shader):
    imem = tmp_path / "Instructions.mem"
    invoke("asm", "-m", "theia", str(shader), "-f", "imem", "-o", str(imem))
    out = tmp_path / "out.png"
    assert invoke("run", "-m", "theia", "--scene", str(SCENES / "example1"), "--shader", str(imem),
                  "-o", str(out)).exit_code == 0
    assert Image.open(out).size == (200, 200)


def test_bare_program_prints_written_registers(tmp_path):
    program = tmp_path / "unit.s"
    program.write_text("SETX R1 1.0\nSETY R1 32'hdeadbeef\nNEG R2 R1\nSETX OREG_PIXEL_COLOR 0.5\nRETURN RT_TRUE\n")
    result = invoke("run", "-m", "theia", "--program", str(program), "--registers")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "R1 00020000 deadbeef 00000000",
        "R2 fffe0000 21524111 00000000",
        "OREG_PIXEL_COLOR 00010000 00000000 00000000",
    ]


def test_bench_json_keys():
    result = invoke("bench", "-m", "theia", "--json", "--seconds", "0.1")
    assert result.exit_code == 0
    figures = json.loads(result.stdout)
    assert figures["emulator_tests_per_s"] > 0 and figures["direct_tests_per_s"] > 0


def broken_scene(tmp_path: Path, file: str, text: str) -> Path:
    folder = tmp_path / "scene"
    folder.mkdir()
    for part in (SCENES / "example1").iterdir():
        if part.suffix == ".mem":
            (folder / part.name).write_bytes(part.read_bytes())
    (folder / file).write_text(text)
    return folder


@pytest.mark.parametrize("arguments, message", [
    (["run", "-m", "theia", "-o", "x.png"], "give a scene"),
    (["run", "-m", "theia", "--scene", "/nonexistent/scene", "-o", "x.png"], "nonexistent"),
    (["run", "-m", "theia", "--scene", str(SCENES / "example1"), "-o", "x.jpg"], "use .png"),
    (["run", "-m", "theia", "--scene", str(SCENES / "example1"), "--rt", "3", "-o", "x.png"], "--rt: not an option"),
    (["run", "-m", "tpp", "prog.s", "--scene", "d", "-o", "x.png"], "--scene: not an option"),
    (["run", "-m", "theia", "--registers"], "needs both"),
    (["run", "-m", "theia", "--obj", "m.obj", "--resolution", "12xfoo", "-o", "x.png"], "--resolution"),
    (["run", "-m", "theia", "--obj", "m.obj", "--camera", "1,2", "-o", "x.png"], "--camera needs 3 numbers"),
    (["asm", "-m", "tpp", "-f", "imem", "prog.s"], "not available for tpp"),
    (["run", "-m", "theia", "--scene", str(SCENES / "example1"), "--cores", "500", "-o", "x.png"], "--cores"),
])
def test_bad_options_exit_2_with_one_line(tmp_path, arguments, message):
    if arguments[0] == "asm":
        (tmp_path / "prog.s").write_text("NOP\n")
        arguments = [a if a != "prog.s" else str(tmp_path / "prog.s") for a in arguments]
    arguments = [str(tmp_path / a) if a == "x.png" else a for a in arguments]
    result = invoke(*arguments)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("file, text, message", [
    ("Params.mem", "0 1 2\n3 zz 5\n", "Params.mem"),
    ("Vertex.mem", "0 0 0 1 1 1 5 140000 0 0\n", "Vertex.mem"),
    ("Textures.mem", "100 100\n0 0 0\n", "Textures.mem"),
    ("Creg.mem", "", "Creg.mem"),
])
def test_malformed_scene_files_exit_2(tmp_path, file, text, message):
    folder = broken_scene(tmp_path, file, text)
    out = tmp_path / "out.png"
    result = invoke("run", "-m", "theia", "--scene", str(folder), "-o", str(out))
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_source_error_has_caret_and_no_output(tmp_path):
    source = tmp_path / "bad.s"
    source.write_text("ADD R1 R2 R3\nSETX R1 SWIZZLE_NOPE\n")
    out = tmp_path / "out.hex"
    result = invoke("asm", "-m", "theia", str(source), "-o", str(out))
    assert result.exit_code == 2
    assert f"{source}:2:9: error: unknown swizzle 'SWIZZLE_NOPE'" in result.stderr
    assert "^" in result.stderr and not out.exists()


def test_runtime_fault_exits_2(tmp_path):
    program = tmp_path / "hang.s"
    program.write_text("INTP R1 R2 R3\nRETURN RT_TRUE\n")
    result = invoke("run", "-m", "theia", "--program", str(program), "--registers")
    assert result.exit_code == 2
    assert "INTP R1 R2 R3 at 0x800b" in result.stderr and "--complete-isa" in result.stderr
    assert invoke("run", "-m", "theia", "--program", str(program), "--registers", "--complete-isa").exit_code == 0


@pytest.mark.parametrize("cores", [None, "3"])
def test_an_obj_scene_with_fewer_rows_than_four_renders(tmp_path, cores):
    output = tmp_path / "tiny.png"
    extra = ["--cores", cores] if cores else []
    result = invoke_cli("run", "-m", "theia", "--obj", CUBE, "--resolution", "3x3", *extra, "-o", output)
    assert result.exit_code == 0, result.output
    assert np.asarray(Image.open(output)).shape == (3, 3, 3)


def test_more_cores_than_rows_names_the_option():
    assert_one_line_error(invoke_cli("run", "-m", "theia", "--obj", CUBE, "--resolution", "3x3", "--cores", "4",
                                     "-o", "x.png"),
                          "--cores must be between 1 and the image height (3), not 4")
