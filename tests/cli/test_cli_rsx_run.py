"""``shaderkit run -m rsx`` as a user previews programs: raw constant registers, uniforms never
given a value, the built-in vertex program, animations and the one-line summary."""

from __future__ import annotations

from pathlib import Path

import numpy as np
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
