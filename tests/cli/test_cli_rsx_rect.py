"""RECT texture targets through the real CLI: a ``.fpo`` keeps them (a samplerRECT record), bare
microcode takes them from ``--texture-target UNIT=RECT`` in disasm, decompile and run, and a
unit sampled both as RECT and as 2D is an assembly error with its place and a caret."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from conftest import assert_one_line_error, invoke_cli

# cgc's shape for texRECT(screen, uv * (8, 6)), in the older TEX0 unit spelling.
SCREEN_RECT = """!!FP2.0
#var samplerRECT screen :  : texunit 0 : 1 : 1
MULR R1.xy, f[TEX0], {8, 6, 0, 0};
TEX R0, R1, TEX0, RECT;
END
"""


@pytest.fixture
def files(tmp_path):
    """The program as text, as a container and as bare microcode, and an 8 x 6 texture."""
    text = tmp_path / "screen.fp"
    text.write_text(SCREEN_RECT)
    for fmt in ("fpo", "raw"):
        result = invoke_cli("asm", "-m", "rsx", text, "-f", fmt, "-o", tmp_path / f"screen.{fmt}")
        assert result.exit_code == 0, result.output
    random = np.random.default_rng(3)
    Image.fromarray(random.integers(0, 256, (6, 8, 3), dtype=np.uint8)).save(tmp_path / "screen.png")
    return tmp_path


def test_a_container_keeps_rect_through_disasm_and_decompile(files):
    listing = invoke_cli("disasm", "-m", "rsx", files / "screen.fpo", "--no-addresses")
    assert listing.exit_code == 0 and "TEXR R0, R1, texture[0], RECT;" in listing.stdout
    glsl = invoke_cli("decompile", "-m", "rsx", files / "screen.fpo")
    assert "uniform sampler2DRect u_screen;" in glsl.stdout


def test_bare_microcode_needs_texture_target_for_rect(files):
    plain = invoke_cli("disasm", "-m", "rsx-fp", files / "screen.raw", "--no-addresses")
    assert "texture[0], 2D;" in plain.stdout
    listing = invoke_cli("disasm", "-m", "rsx-fp", files / "screen.raw", "--texture-target", "0=RECT")
    assert listing.exit_code == 0 and "texture[0], RECT;" in listing.stdout
    (files / "listing.fp").write_text(listing.stdout)
    again = invoke_cli("asm", "-m", "rsx-fp", files / "listing.fp", "-f", "raw", "-o", files / "again.raw")
    assert again.exit_code == 0 and (files / "again.raw").read_bytes() == (files / "screen.raw").read_bytes()
    glsl = invoke_cli("decompile", "-m", "rsx-fp", files / "screen.raw", "--texture-target", "0=RECT")
    assert "layout(binding = 0) uniform sampler2DRect texture0;" in glsl.stdout


def test_run_samples_a_rect_unit_at_texel_coordinates(files):
    pictures = {}
    for name, program, extra in (("container", "screen.fpo", ()),
                                 ("bare", "screen.raw", ("--texture-target", "0=RECT")),
                                 ("flat", "screen.raw", ())):
        output = files / f"{name}.npy"
        result = invoke_cli("run", "-m", "rsx-fp", files / program, "--fullscreen", "64x64", "--filter", "nearest",
                            "--texture", f"0={files / 'screen.png'}", *extra, "-o", output)
        assert result.exit_code == 0, result.output
        pictures[name] = np.load(output)
    np.testing.assert_array_equal(pictures["bare"], pictures["container"])
    texels = np.asarray(Image.open(files / "screen.png").convert("RGB"))[::-1] / np.float32(255)
    # Pixel (x, y) reads texel (floor(8 (x + 0.5) / 64), floor(6 (y + 0.5) / 64)), row 0 at the bottom.
    np.testing.assert_allclose(pictures["container"][3, 60, :3], texels[0, 7], rtol=1e-6)
    assert not np.array_equal(pictures["flat"], pictures["container"])  # a 2D read repeats the texture


@pytest.mark.parametrize("setting", ["0", "0=CUBE", "20=RECT"])
def test_bad_texture_targets_are_one_line_errors(files, setting):
    result = invoke_cli("decompile", "-m", "rsx-fp", files / "screen.raw", "--texture-target", setting)
    assert_one_line_error(result, "--texture-target needs UNIT=RECT or UNIT=2D", setting)


def test_a_texture_target_against_the_container_is_a_one_line_error(files):
    result = invoke_cli("disasm", "-m", "rsx", files / "screen.fpo", "--texture-target", "0=2D")
    assert_one_line_error(result, "--texture-target 0=2D", "records unit 0 as samplerRECT")


def test_texture_target_is_not_an_option_for_vertex_programs(files):
    result = invoke_cli("disasm", "-m", "rsx-vp", files / "screen.raw", "--texture-target", "0=RECT")
    assert result.exit_code == 2 and "--texture-target" in result.stderr and "rsx-vp" in result.stderr


def test_sampling_a_unit_as_rect_and_as_2d_is_an_assembly_error(tmp_path):
    source = tmp_path / "mixed.fp"
    source.write_text(SCREEN_RECT.replace("END", "TEX R2, f[TEX0], texture[0], 2D;\nEND"))
    result = invoke_cli("asm", "-m", "rsx", source, "-f", "fpo", "-o", tmp_path / "mixed.fpo")
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    head, line, caret = result.stderr.splitlines()[:3]
    assert head.startswith(f"{source}:5:30: error: texture unit 0 is sampled as 2D here but as RECT on line 4")
    assert (line, caret) == ("TEX R2, f[TEX0], texture[0], 2D;", " " * 29 + "^~")
    assert not (tmp_path / "mixed.fpo").exists()
