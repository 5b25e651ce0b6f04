"""Tests for shaderkit.isa.rsx.preview and .uniforms: the framing, the built-in vertex program
against the same transform computed in NumPy, the time value, and constant settings."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import shaderkit.isa as isas
from shaderkit.core.diagnostics import InputError
from shaderkit.isa.rsx.container import ProgramKind
from shaderkit.isa.rsx.instruction import floats_to_words
from shaderkit.isa.rsx.pipeline import vertex_attributes
from shaderkit.isa.rsx.preview import (DEFAULT_EYE, LIGHT_DIRECTION, builtin_vertex_image, builtin_vertex_source,
                                       frame_mesh, time_value)
from shaderkit.isa.rsx.uniforms import (TIME_REGISTER, check_settings, fill_vertex_constants,
                                        fragment_with_values, parse_constant_settings, reads_time,
                                        unset_uniforms)
from shaderkit.isa.rsx.vertex import run_vertex_program
from shaderkit.render.mesh import load_obj

ROOT = Path(__file__).resolve().parents[3]
TORUS = ROOT / "examples" / "rsx" / "models" / "torus.obj"
RSX = isas.get("rsx")
TOLERANCE = 1e-4  # float32 program against float64 NumPy


def fitted(positions: np.ndarray, framing) -> np.ndarray:
    return (positions - np.array(framing.centre)) * framing.scale


def turned(points: np.ndarray, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    x, y, z = points[:, 0], points[:, 1], points[:, 2]
    return np.stack([c * x + s * z, y, c * z - s * x], axis=1)


def run_builtin(vertices, framing, turn_rate=0.0, time=(0.0, 0.0, 1.0, 0.0)) -> np.ndarray:
    image = builtin_vertex_image(RSX.assemble)
    memory = image.constant_memory()
    for index, row in framing.constants(turn_rate).items():
        memory[index] = row
    fill_vertex_constants(memory, image, (), time)
    return np.asarray(run_vertex_program(image.program, vertex_attributes(vertices), memory), dtype=np.float64)


def test_framing_fits_the_model_into_the_unit_sphere():
    positions = load_obj(TORUS).vertices().positions * 7.0 + np.array([3.0, -2.0, 10.0])  # any units, anywhere
    framing = frame_mesh(positions, (256, 256))
    points = fitted(positions, framing)
    assert np.linalg.norm(points, axis=1).max() == pytest.approx(1.0)
    assert np.allclose((points.min(axis=0) + points.max(axis=0)) / 2, 0.0, atol=1e-12)


@pytest.mark.parametrize("size", [(256, 256), (320, 120), (100, 300)])
def test_the_default_eye_sees_the_whole_unit_sphere(size):
    framing = frame_mesh(np.array([[-1.0, -1, -1], [1, 1, 1]]), size)
    directions = np.random.default_rng(9).normal(size=(2000, 3))
    sphere = np.hstack([directions / np.linalg.norm(directions, axis=1)[:, None], np.ones((2000, 1))])
    clip = sphere @ framing.view.T @ framing.projection.T
    device = clip[:, :3] / clip[:, 3:]
    assert np.all(clip[:, 3] > 0) and np.all(np.abs(device) < 1.0)
    assert np.abs(device[:, :2]).max() > 0.8  # and fills the view rather than floating in it


def test_view_puts_the_eye_at_the_origin_looking_at_the_model():
    for eye in (DEFAULT_EYE, (0.0, 0.0, 5.0), (0.0, 4.0, 0.0), (2.0, -1.0, -3.0)):
        view = frame_mesh(np.zeros((1, 3)), (64, 64), eye).view
        assert np.allclose(view @ np.array([*eye, 1.0]), [0, 0, 0, 1], atol=1e-12)
        assert np.allclose(view @ np.array([0.0, 0, 0, 1]), [0, 0, -np.linalg.norm(eye), 1], atol=1e-12)
        assert np.allclose(view[:3, :3] @ view[:3, :3].T, np.eye(3), atol=1e-12)  # a rotation


def test_camera_at_the_centre_is_refused():
    with pytest.raises(InputError, match="--camera"):
        frame_mesh(np.eye(3), (64, 64), (0.0, 0.0, 0.0))


@pytest.mark.parametrize("turn_rate, frame", [(0.0, 0), (1.3, 3)])
def test_builtin_vertex_program_computes_the_documented_outputs(turn_rate, frame):
    vertices = load_obj(TORUS).vertices()
    framing = frame_mesh(vertices.positions, (200, 100), (1.0, 2.0, 3.0))
    time = time_value(frame, 4.0)
    outputs = run_builtin(vertices, framing, turn_rate, time)
    angle = turn_rate * time[0]
    model = fitted(vertices.positions, framing)
    world = np.hstack([turned(model, angle), np.ones((len(model), 1))])
    eye = world @ framing.view.T
    normals = turned(vertices.normals, angle) @ framing.view[:3, :3].T
    normals /= np.linalg.norm(normals, axis=1)[:, None]
    lambert = normals @ np.array(LIGHT_DIRECTION)
    assert np.allclose(outputs[0], eye @ framing.projection.T, atol=TOLERANCE)  # position
    assert np.allclose(outputs[7], np.hstack([vertices.texcoords, np.zeros((len(model), 1)),
                                              np.ones((len(model), 1))]), atol=TOLERANCE)  # TEX0
    assert np.allclose(outputs[8][:, :3], normals, atol=TOLERANCE)  # TEX1
    assert np.allclose(outputs[9], eye, atol=TOLERANCE)  # TEX2
    assert np.allclose(outputs[10][:, :3], model, atol=TOLERANCE)  # TEX3
    assert np.allclose(outputs[1][:, 0], 0.15 + np.maximum(lambert, 0), atol=TOLERANCE)  # COL0 (white mesh)
    assert np.allclose(outputs[3][:, 0], 0.15 + np.maximum(-lambert, 0), atol=TOLERANCE)  # back colour


def test_builtin_source_documents_what_it_uses():
    text = builtin_vertex_source()
    for register in ("c[0..3]", "c[4..6]", "c[7]", "c[8]", "c[9]", "c[10]", f"c[{TIME_REGISTER}]",
                     "TEX0", "TEX1", "TEX2", "TEX3", "COL0"):
        assert register in text


def test_time_value():
    assert time_value(0, 20.0) == (0.0, 0.0, 1.0, 0.0)
    t, sine, cosine, frame = time_value(7, 4.0)
    assert (t, frame) == (1.75, 7.0) and sine == pytest.approx(math.sin(1.75)) and cosine == pytest.approx(math.cos(1.75))


# --------------------------------------------------------------------------- uniforms

FP = "!!ARBfp1.0\nOPTION NV_fragment_program2;\n"
VP = "!!ARBvp1.0\nOPTION NV_vertex_program3;\n"


def fragment(text: str):
    return RSX.assemble(FP + text, "u.fp", ProgramKind.FRAGMENT).image


def vertex(text: str):
    return RSX.assemble(VP + text, "u.vp", ProgramKind.VERTEX).image


def test_const_rewrites_a_fragment_uniforms_literal_slots_only():
    image = fragment("#var float4 tint :  : c[1] : 0 : 1\n#const c[2] = 0.5 0.5 0.5 1\n"
                     "MULR R0, fragment.color, c[1];\nADDR R0, R0, c[2];\nMULR result.color, R0, c[1];\nEND\n")
    before = [instruction.literal for instruction in image.program.instructions]
    program = fragment_with_values(image, parse_constant_settings(("tint=1,0.25,0,1",)))
    after = [instruction.literal for instruction in program.instructions]
    tint = floats_to_words((1.0, 0.25, 0.0, 1.0))
    assert after == [tint, before[1], tint]
    assert before[0] != tint  # it really changed


def test_time_goes_to_the_time_uniform_and_register():
    image = fragment("#var float4 time :  : c[3] : 0 : 1\nMOVR result.color, c[3];\nEND\n")
    program = fragment_with_values(image, (), time_value(3, 2.0))
    assert program.instructions[0].literal == floats_to_words(time_value(3, 2.0))
    memory = np.zeros((468, 4), dtype=np.float32)
    fill_vertex_constants(memory, vertex("MOV result.position, c[467];\nEND\n"), (), time_value(3, 2.0))
    assert np.allclose(memory[TIME_REGISTER], time_value(3, 2.0))


def test_a_program_that_declares_the_time_register_keeps_its_value():
    image = vertex("#const c[467] = 9 8 7 6\nMOV result.position, c[467];\nEND\n")
    memory = image.constant_memory()
    fill_vertex_constants(memory, image, (), time_value(1, 1.0))
    assert memory[TIME_REGISTER].tolist() == [9, 8, 7, 6]


def test_const_wins_over_time():
    memory = np.zeros((468, 4), dtype=np.float32)
    image = vertex("MOV result.position, c[467];\nEND\n")
    fill_vertex_constants(memory, image, parse_constant_settings(("c[467]=1,2,3,4",)), time_value(5, 1.0))
    assert memory[TIME_REGISTER].tolist() == [1, 2, 3, 4]


def test_unset_uniforms_are_those_nothing_fills():
    image = vertex("#var float4x4 mvp :  : c[0], 4 : 0 : 1\n#var float4 tint :  : c[4] : 1 : 1\n"
                   "#var float4 glow :  : c[5] : 2 : 1\n#default glow = 1 1 1 1\n"
                   "#var float4 time :  : c[6] : 3 : 1\n"
                   "DP4 result.position.x, vertex.position, c[0];\nMOV R0, c[4];\nMUL R0, R0, c[5].x;\n"
                   "MUL result.color, R0, c[6].x;\nEND\n")
    assert unset_uniforms(image, (), time_available=True) == ["mvp", "tint"]
    assert unset_uniforms(image, (), time_available=False) == ["mvp", "tint", "time"]
    rows = ",".join(["1"] * 16)
    assert unset_uniforms(image, parse_constant_settings((f"mvp={rows}", "c[4]=1,1,1,1")), True) == []
    shader = fragment("#var float4 tint :  : c[1] : 0 : 1\nMULR result.color, fragment.color, c[1];\nEND\n")
    assert unset_uniforms(shader, (), True) == ["tint"]
    assert unset_uniforms(shader, parse_constant_settings(("tint=1,1,1,1",)), True) == []


@pytest.mark.parametrize("setting, message", [
    ("nothing=1,2,3,4", "unknown constant 'nothing' (named constants: tint)"),
    ("tint=" + ",".join(["1"] * 16), "a fragment program uniform takes 4 numbers"),
    ("c[468]=1,2,3,4", "outside the constant memory"),
    ("c[3]=1,2,3", None),
])
def test_settings_are_checked_against_both_programs(setting, message):
    shader = fragment("#var float4 tint :  : c[1] : 0 : 1\nMULR result.color, fragment.color, c[1];\nEND\n")
    settings = parse_constant_settings((setting,))
    if message is None:
        check_settings(settings, vertex("MOV result.position, c[3];\nEND\n"), shader, 468)
        assert settings[0].rows == ((1.0, 2.0, 3.0, 1.0),)
        return
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_settings(settings, vertex("MOV result.position, c[3];\nEND\n"), shader, 468)


def test_reads_time_finds_every_way_to_the_time_value():
    plain = fragment("MOVR result.color, fragment.color;\nEND\n")
    timed = fragment("#var float4 time :  : c[0] : 0 : 1\nMOVR result.color, c[0];\nEND\n")
    transform = vertex("MOV result.position, vertex.position;\nEND\n")
    assert not reads_time(transform, plain)
    assert reads_time(transform, timed)
    assert reads_time(vertex("MOV result.position, c[467];\nEND\n"), plain)
    assert not reads_time(vertex("#const c[467] = 1 2 3 4\nMOV result.position, c[467];\nEND\n"), plain)
    assert reads_time(builtin_vertex_image(RSX.assemble), plain)
