"""``shaderkit run -m rsx`` as a user previews programs: raw constant registers, uniforms never
given a value, the built-in vertex program, animations and the one-line summary."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from shaderkit.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "rsx"
TORUS = EXAMPLES / "models" / "torus.obj"

# A vertex program that reads c[0..3] without declaring them: the host (here --const) fills them.
UNDECLARED_MATRIX_VP = """!!ARBvp1.0
OPTION NV_vertex_program3;
DP4 result.position.x, vertex.position, c[0];
DP4 result.position.y, vertex.position, c[1];
DP4 result.position.z, vertex.position, c[2];
DP4 result.position.w, vertex.position, c[3];
MOV result.color, vertex.color;
END
"""


def invoke(*arguments):
    return CliRunner().invoke(main, [str(argument) for argument in arguments], catch_exceptions=False)


def picture(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"))


def test_const_sets_an_undeclared_vertex_constant(tmp_path):
    vertex = tmp_path / "raw.vp"
    vertex.write_text(UNDECLARED_MATRIX_VP)
    pictures = []
    for scale in ("0.3", "0.6"):
        output = tmp_path / f"scale{scale}.png"
        result = invoke("run", "-m", "rsx", "--vp", vertex, "--fp", EXAMPLES / "gouraud.fp", "--mesh", TORUS,
                        "--const", f"c[0]={scale},0,0,0", "--const", f"c[1]=0,{scale},0,0",
                        "--const", "c[2]=0,0,0.3,0", "--const", "c[3]=0,0,0,1", "-o", output)
        assert result.exit_code == 0, result.output
        pictures.append(picture(output).any(axis=2).sum())
    assert 0 < pictures[0] < pictures[1]  # the constants reached the program: a bigger scale covers more


# --------------------------------------------------------------------------- the built-in vertex program

BRICKS = ROOT / "examples" / "theia" / "textures" / "bricks.png"
CUBE = ROOT / "examples" / "theia" / "models" / "cube.obj"


def render(tmp_path, *arguments, name="out.png"):
    output = tmp_path / name
    result = invoke("run", "-m", "rsx", *arguments, "-o", output)
    assert result.exit_code == 0, result.output
    return output, result


def coverage(rgb: np.ndarray) -> np.ndarray:
    return rgb.any(axis=2)  # the clear colour is black; every example lights the model above black


@pytest.mark.parametrize("fragment", sorted(EXAMPLES.glob("*.fp")), ids=lambda path: path.stem)
def test_every_example_renders_framed_with_the_builtin_vertex_program(tmp_path, fragment):
    output, _ = render(tmp_path, "--fp", fragment, "--mesh", TORUS, "--texture", f"0={BRICKS}")
    covered = coverage(picture(output))
    height, width = covered.shape
    assert 0.2 < covered.mean() < 0.7
    rows, columns = np.nonzero(covered)
    assert abs(columns.mean() / width - 0.5) < 0.1 and abs(rows.mean() / height - 0.5) < 0.1
    # the whole model is in view: nothing touches the border
    assert 0 < columns.min() and columns.max() < width - 1 and 0 < rows.min() and rows.max() < height - 1


def test_camera_moves_the_eye(tmp_path):
    framed, _ = render(tmp_path, "--fp", EXAMPLES / "phong.fp", "--mesh", TORUS, name="framed.png")
    far, _ = render(tmp_path, "--fp", EXAMPLES / "phong.fp", "--mesh", TORUS, "--camera", "0,0,12", name="far.png")
    above, _ = render(tmp_path, "--fp", EXAMPLES / "phong.fp", "--mesh", TORUS, "--camera", "0,3,0.01",
                      name="above.png")
    framed_cover, far_cover, above_cover = (coverage(picture(path)) for path in (framed, far, above))
    assert far_cover.sum() < framed_cover.sum() / 4  # three to four times as far: far smaller
    # from straight above, the ring is round: its covered extent is as tall as it is wide
    rows, columns = np.nonzero(above_cover)
    assert abs((rows.max() - rows.min()) - (columns.max() - columns.min())) <= 2
    rows, columns = np.nonzero(framed_cover)
    assert (rows.max() - rows.min()) < 0.8 * (columns.max() - columns.min())  # seen from the side: flatter


def test_vp_still_draws_the_given_pair(tmp_path):
    """With --vp the picture is exactly what the pipeline draws with the program's own constants."""
    import shaderkit.isa as isas
    from shaderkit.isa.rsx.container import ProgramKind
    from shaderkit.isa.rsx.pipeline import draw, to_picture
    from shaderkit.render.mesh import load_obj
    output, _ = render(tmp_path, "--vp", EXAMPLES / "holes.vp", "--fp", EXAMPLES / "holes.fp", "--mesh", TORUS)
    processor = isas.get("rsx")
    vertex = processor.load_file(str(EXAMPLES / "holes.vp"), ProgramKind.VERTEX)
    fragment = processor.load_file(str(EXAMPLES / "holes.fp"), ProgramKind.FRAGMENT)
    expected = to_picture(draw(vertex.program, fragment.program, load_obj(TORUS), width=256, height=256,
                               constants=vertex.constant_memory()))
    assert np.array_equal(picture(output), expected)


def test_camera_with_a_vertex_program_is_refused(tmp_path):
    result = invoke("run", "-m", "rsx", "--vp", EXAMPLES / "gouraud.vp", "--fp", EXAMPLES / "gouraud.fp",
                    "--mesh", TORUS, "--camera", "0,0,5", "-o", tmp_path / "x.png")
    assert result.exit_code == 2 and "--camera" in result.stderr and len(result.stderr.strip().splitlines()) == 1


# --------------------------------------------------------------------------- animations and time

def gif_frames(path: Path) -> list[np.ndarray]:
    from PIL import ImageSequence
    return [np.asarray(frame.convert("RGB")) for frame in ImageSequence.Iterator(Image.open(path))]


def test_animation_writes_distinct_frames(tmp_path):
    # The cube (4-fold about y) turns a third of a turn per frame, so no two frames agree.
    output, result = render(tmp_path, "--fp", EXAMPLES / "gouraud.fp", "--mesh", CUBE, "--frames", "3",
                            name="turn.gif")
    frames = gif_frames(output)
    assert len(frames) == 3
    for first in range(3):
        for second in range(first + 1, 3):
            assert not np.array_equal(frames[first], frames[second])
    assert result.stderr.strip().splitlines()[-1].startswith(f"wrote {output} (3 frames")


def test_animation_needs_a_movie_suffix(tmp_path):
    result = invoke("run", "-m", "rsx", "--fp", EXAMPLES / "gouraud.fp", "--mesh", CUBE, "--frames", "3",
                    "-o", tmp_path / "x.png")
    assert result.exit_code == 2 and ".gif" in result.stderr


TIME_FP = """!!ARBfp1.0
OPTION NV_fragment_program2;
#var float4 time :  : c[0] : -1 : 1
#const c[1] = 0 0 0 1
MOVR R0, c[1];
MOVR R0.x, c[0].x;
MOVR R0.y, c[0].y;
MOVR result.color, R0;
END
"""

# Colour = the time register c[467]: (t, sin t, cos t) on every vertex.
TIME_VP = """!!ARBvp1.0
OPTION NV_vertex_program3;
#const c[0] = 0.3 0 0 0
#const c[1] = 0 0.3 0 0
#const c[2] = 0 0 0.3 0
#const c[3] = 0 0 0 1
DP4 result.position.x, vertex.position, c[0];
DP4 result.position.y, vertex.position, c[1];
DP4 result.position.z, vertex.position, c[2];
DP4 result.position.w, vertex.position, c[3];
MOV result.color, c[467];
END
"""


def covered_colours(rgb: np.ndarray) -> np.ndarray:
    return np.unique(rgb[coverage(rgb)].reshape(-1, 3), axis=0)


def test_fragment_program_reads_the_time_uniform(tmp_path):
    fragment = tmp_path / "time.fp"
    fragment.write_text(TIME_FP)
    fps = 4.0
    output, result = render(tmp_path, "--fp", fragment, "--mesh", TORUS, "--frames", "3", "--fps", str(fps),
                            name="time.gif")
    assert "never given a value" not in result.stderr  # the run gives 'time' its value
    for number, frame in enumerate(gif_frames(output)):
        seconds = number / fps
        expected = np.rint(np.array([seconds, np.sin(seconds), 0.0]) * 255)
        if number == 0:  # t = sin t = 0: black on black
            assert not coverage(frame).any()
            continue
        colours = covered_colours(frame)
        assert len(colours) == 1 and np.abs(colours[0] - expected).max() <= 1


def test_vertex_program_reads_the_time_register(tmp_path):
    vertex = tmp_path / "time.vp"
    vertex.write_text(TIME_VP)
    fps = 2.0
    output, _ = render(tmp_path, "--vp", vertex, "--fp", EXAMPLES / "gouraud.fp", "--mesh", TORUS, "--frames", "3",
                       "--fps", str(fps), name="time.gif")
    for number, frame in enumerate(gif_frames(output)):
        seconds = number / fps
        expected = np.rint(np.clip([seconds, np.sin(seconds), np.cos(seconds)], 0, 1) * 255)
        colours = covered_colours(frame)
        assert len(colours) == 1 and np.abs(colours[0] - expected).max() <= 1


def test_a_still_is_frame_zero(tmp_path):
    vertex = tmp_path / "time.vp"
    vertex.write_text(TIME_VP)
    output, _ = render(tmp_path, "--vp", vertex, "--fp", EXAMPLES / "gouraud.fp", "--mesh", TORUS)
    assert covered_colours(picture(output)).tolist() == [[0, 0, 255]]  # (t, sin t, cos t) = (0, 0, 1)


# --------------------------------------------------------------------------- uniforms and the summary

TINT_FP = """!!ARBfp1.0
OPTION NV_fragment_program2;
#var float4 tint :  : c[1] : 0 : 1
MULR result.color, fragment.color, c[1];
END
"""


def test_an_unset_fragment_uniform_is_reported_and_const_sets_it(tmp_path):
    fragment = tmp_path / "tint.fp"
    fragment.write_text(TINT_FP)
    black, result = render(tmp_path, "--fp", fragment, "--mesh", TORUS, name="black.png")
    warning = [line for line in result.stderr.splitlines() if "tint" in line]
    assert len(warning) == 1 and "--const tint=" in warning[0] and str(fragment) in warning[0]
    assert not coverage(picture(black)).any()
    red, result = render(tmp_path, "--fp", fragment, "--mesh", TORUS, "--const", "tint=1,0,0,1", name="red.png")
    assert "tint" not in result.stderr
    rgb = picture(red)
    assert coverage(rgb).mean() > 0.2 and not rgb[..., 1:].any()


def test_an_unset_vertex_uniform_is_reported(tmp_path):
    vertex = tmp_path / "mvp.vp"
    vertex.write_text(UNDECLARED_MATRIX_VP.replace("DP4 result.position.x",
                                                   "#var float4x4 mvp :  : c[0], 4 : 0 : 1\nDP4 result.position.x", 1))
    _, result = render(tmp_path, "--vp", vertex, "--fp", EXAMPLES / "gouraud.fp", "--mesh", TORUS)
    assert "uniform 'mvp'" in result.stderr and "--const mvp=" in result.stderr
    matrix = "0.3,0,0,0, 0,0.3,0,0, 0,0,0.3,0, 0,0,0,1"
    output, result = render(tmp_path, "--vp", vertex, "--fp", EXAMPLES / "gouraud.fp", "--mesh", TORUS,
                            "--const", f"mvp={matrix}", name="set.png")
    assert "mvp" not in result.stderr and coverage(picture(output)).any()


def test_summary_says_what_was_written(tmp_path):
    from shaderkit.render.mesh import load_obj
    output, result = render(tmp_path, "--fp", EXAMPLES / "phong.fp", "--mesh", TORUS, "--size", "96x64")
    triangles = load_obj(TORUS).triangle_count
    assert result.stderr.strip().splitlines()[-1] == f"wrote {output} (96×64, {triangles} triangles)"
    assert picture(output).shape == (64, 96, 3)


def test_vertex_run_summary_counts_the_vertices(tmp_path):
    from shaderkit.render.mesh import load_obj
    output = tmp_path / "outputs.npy"
    result = invoke("run", "-m", "rsx-vp", EXAMPLES / "gouraud.vp", "--mesh", TORUS, "-o", output)
    assert result.exit_code == 0, result.output
    vertices = np.load(output).shape[0]
    assert vertices == len(load_obj(TORUS).vertices().positions)
    assert result.stderr.strip().splitlines()[-1].startswith(f"wrote {output} ({vertices} vertices")


def test_an_animation_nothing_reads_the_time_of_is_noted(tmp_path):
    pair = ("--vp", EXAMPLES / "gouraud.vp", "--fp", EXAMPLES / "gouraud.fp", "--mesh", CUBE, "--frames", "2")
    output, result = render(tmp_path, *pair, name="same.gif")
    assert "neither program reads the time" in result.stderr
    frames = gif_frames(output)
    assert all(np.array_equal(frames[0], frame) for frame in frames)  # the note is true
    _, result = render(tmp_path, "--fp", EXAMPLES / "gouraud.fp", "--mesh", CUBE, "--frames", "2", name="turn.gif")
    assert "reads the time" not in result.stderr  # the built-in program reads it


def test_an_unset_uniform_is_reported_as_a_warning_line(tmp_path):
    # Every line before a result's summary is "file: warning: …" or "…: note: …", so tools
    # (and the fuzz campaign's "clean error" rule) can tell them from an error.
    from conftest import golden_dir, invoke_cli
    vertex = golden_dir("rsx", "asm") / "vp_vec_arith.vp.txt"  # '#var float4 scale' with no default
    result = invoke_cli("run", "-m", "rsx", "--vp", vertex, "--fp", EXAMPLES / "gouraud.fp", "--mesh", CUBE,
                        "--size", "8x8", "-o", tmp_path / "out.png")
    assert result.exit_code == 0, result.output
    warning = [line for line in result.stderr.splitlines() if "'scale'" in line]
    assert warning == [f"{vertex}: warning: uniform 'scale' is never given a value, so it reads 0 "
                       "(set it with --const scale=x,y,z,w, or give it a #default line)"]


@pytest.mark.parametrize("fmt", ["raw", "fpo"])
def test_a_colour_written_to_h0_is_the_picture_in_bare_ucode_and_in_a_container(tmp_path, fmt):
    """MOV o[COLH], f[COL0]: the container says output_from_h0, and bare ucode has the colour
    register read off the program, so both show COL0 (it used to be R0's packed halves)."""
    source = tmp_path / "h0.fp"
    source.write_text("!!ARBfp1.0\nMOVH o[COLH], f[COL0];\nEND\n")
    program = tmp_path / f"h0.{'bin' if fmt == 'raw' else fmt}"
    assert invoke("asm", "-m", "rsx", source, "-f", fmt, "-o", program).exit_code == 0
    out = tmp_path / "out.npy"
    result = invoke("run", "-m", "rsx-fp", program, "--fullscreen", "4x4", "--input", "COL0=0.25,0.5,0.75,1",
                    "-o", out)
    assert result.exit_code == 0, result.output
    np.testing.assert_array_equal(np.load(out)[1, 2], np.float32([0.25, 0.5, 0.75, 1.0]))
    listing = invoke("disasm", "-m", "rsx-fp", program).stdout
    if fmt == "fpo":
        assert "output_from_h0=1" in listing
