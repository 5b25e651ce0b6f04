"""Tests for shaderkit.render.mesh: OBJ tables, corner indices, computed normals, unique vertices, errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.diagnostics import InputError
from shaderkit.render.mesh import load_obj

MODELS = Path(__file__).resolve().parents[2] / "examples" / "theia" / "models"

QUAD = """# unit quad in z = 0, counter-clockwise seen from +z
v 0 0 0 1 0 0
v 1 0 0 0 1 0
v 1 1 0 0 0 1
v 0 1 0
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vn 0 0 2
g quad
s off
f 1/1/1 2/2/1 3/3/1 4/4/1
"""


def write(tmp_path: Path, text: str, name: str = "model.obj") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_quad_tables_and_fan_triangulation(tmp_path):
    mesh = load_obj(write(tmp_path, QUAD))
    assert mesh.triangle_count == 2
    assert mesh.position_index.tolist() == [[0, 1, 2], [0, 2, 3]]
    assert mesh.texcoord_index.tolist() == [[0, 1, 2], [0, 2, 3]]
    assert mesh.normal_index.tolist() == [[0, 0, 0], [0, 0, 0]]
    assert mesh.normals.tolist() == [[0, 0, 2]]  # as written, not renormalised
    assert mesh.texcoords[2].tolist() == [1, 1]
    # The fourth vertex has no colour of its own: white.
    assert mesh.colours.tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]]
    assert mesh.notes == ()


def test_polygon_fans_from_its_first_corner(tmp_path):
    text = "v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 1 0\nf 1 2 3 4 5\n"
    mesh = load_obj(write(tmp_path, text))
    assert mesh.position_index.tolist() == [[0, 1, 2], [0, 2, 3], [0, 3, 4]]
    assert np.all(mesh.texcoord_index == -1)
    assert mesh.colours is None


def test_negative_indices_count_back_from_the_last_defined(tmp_path):
    text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0.5 0.25\nvn 0 0 1\nf -3/-1/-1 -2/1/1 -1//1\nv 5 5 5\nf -4 -3 -1\n"
    mesh = load_obj(write(tmp_path, text))
    assert mesh.position_index.tolist() == [[0, 1, 2], [0, 1, 3]]
    assert mesh.texcoord_index.tolist() == [[0, 0, -1], [-1, -1, -1]]
    assert mesh.texcoords.tolist() == [[0.5, 0.25]]


def test_vt_with_one_number_has_v_zero(tmp_path):
    mesh = load_obj(write(tmp_path, "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0.75\nf 1/1 2/1 3/1\n"))
    assert mesh.texcoords.tolist() == [[0.75, 0.0]]


def test_smooth_normals_when_the_file_has_none():
    # The cube shares its 8 corners between faces: each smooth normal points along a diagonal.
    mesh = load_obj(MODELS / "cube.obj")
    normals = mesh.normals[mesh.normal_index]  # (F, 3, 3)
    corners = mesh.positions[mesh.position_index]
    expected = np.sign(corners) / np.sqrt(3)
    np.testing.assert_allclose(normals, expected, atol=1e-12)


def test_computed_normal_follows_counter_clockwise_winding_and_corner_angles(tmp_path):
    # Vertex 1 is shared by a triangle facing +z (right angle there) and a small one facing +x
    # (45 degrees there); the sizes do not matter.
    text = "v 0 0 0\nv 4 0 0\nv 0 4 0\nv 0 0 -1\nv 0 1 -1\nf 1 2 3\nf 1 4 5\n"
    mesh = load_obj(write(tmp_path, text))
    first_corner = mesh.normals[mesh.normal_index[0, 0]]
    np.testing.assert_allclose(first_corner, np.array([1.0, 0.0, 2.0]) / np.sqrt(5.0))
    np.testing.assert_allclose(mesh.normals[mesh.normal_index[0, 1]], [0, 0, 1])


def test_corners_without_vn_get_computed_normals_next_to_the_file_ones(tmp_path):
    text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 1 0 0\nf 1//1 2 3\n"
    mesh = load_obj(write(tmp_path, text))
    corner_normals = mesh.normals[mesh.normal_index[0]]
    assert corner_normals.tolist() == [[1, 0, 0], [0, 0, 1], [0, 0, 1]]


def test_a_normal_index_without_a_vn_line_falls_back_with_a_note(tmp_path):
    mesh = load_obj(write(tmp_path, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//1 2//1 3//1\n"))
    assert mesh.normals[mesh.normal_index[0]].tolist() == [[0, 0, 1]] * 3
    assert mesh.notes == ("model.obj: 3 face corner(s) name a normal that is not defined; computed normals used",)


def test_lines_and_points_are_skipped_with_a_note(tmp_path):
    mesh = load_obj(write(tmp_path, QUAD + "l 1 2\nl 2 3\np 1\n"))
    assert mesh.notes == (
        "model.obj: 2 line element(s) ignored (only faces are loaded)",
        "model.obj: 1 point element(s) ignored (only faces are loaded)",
    )


def test_unique_vertices_keep_each_corner_combination_once(tmp_path):
    # Position 1 appears with two texture coordinates: two vertices.
    text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvt 0 0\nvt 1 1\nf 1/1 2 3\nf 2 4 3\nf 1/2 3 2\n"
    mesh = load_obj(write(tmp_path, text))
    vertices = mesh.vertices()
    assert len(vertices.positions) == 5  # (1,vt1), 2, 3, 4, (1,vt2)
    assert vertices.triangles.tolist() == [[0, 1, 2], [1, 3, 2], [4, 2, 1]]  # numbered in order of first use
    np.testing.assert_array_equal(vertices.positions[vertices.triangles], mesh.positions[mesh.position_index])
    assert vertices.texcoords.tolist() == [[0, 0], [0, 0], [0, 0], [0, 0], [1, 1]]
    assert vertices.colours.tolist() == [[1, 1, 1]] * 5


def test_unique_vertices_carry_normals_and_colours(tmp_path):
    vertices = load_obj(write(tmp_path, QUAD)).vertices()
    assert len(vertices.positions) == 4
    assert vertices.normals.tolist() == [[0, 0, 2]] * 4
    assert vertices.colours[vertices.triangles[1]].tolist() == [[1, 0, 0], [0, 0, 1], [1, 1, 1]]


@pytest.mark.parametrize(
    "body, line, fragment",
    [
        ("v 0 0 0\nv 1 2\n", 2, "'v' needs at least 3 numbers"),
        ("v 0 0 0\nv a 0 0\n", 2, "'a' is not a number"),
        ("v 0 0 0\nvn 0 0\n", 2, "'vn' needs at least 3 numbers"),
        ("vn 0 inf 0\n", 1, "non-finite"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", 4, "at least 3 vertices"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2 9\n", 5, "vertex index 9 is out of range (3 defined so far)"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", 4, "vertex index 0"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/x 2 3\n", 4, "'x' is not a texture coordinate index"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//y 2 3\n", 4, "'y' is not a normal index"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1 2 3\n", 4, "texture coordinate index 1 is out of range"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf /1 2 3\n", 4, "not a face vertex"),
        ("v 0 0 0\ncurv 0 1 1 2\n", 2, "unsupported OBJ statement 'curv'"),
    ],
)
def test_bad_lines_name_file_and_line(tmp_path, body, line, fragment):
    path = write(tmp_path, body)
    with pytest.raises(InputError) as caught:
        load_obj(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: ") and fragment in message
    assert "\n" not in message


def test_missing_file_and_file_without_faces(tmp_path):
    with pytest.raises(InputError, match="absent.obj: no such file"):
        load_obj(tmp_path / "absent.obj")
    with pytest.raises(InputError, match="no faces"):
        load_obj(write(tmp_path, "v 0 0 0\nl 1 1\n"))


OBJ_WORDS = st.sampled_from(["v", "vt", "vn", "f", "l", "g", "#", "1", "-1", "2", "0.5", "1/1", "1//1", "2/1/1",
                             "x", "nan", "/", "3/", "-2/-1", ""])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(OBJ_WORDS, max_size=6), max_size=8))
def test_any_text_gives_a_mesh_or_an_input_error(tmp_path_factory, lines):
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.obj"
    path.write_text("\n".join(" ".join(words) for words in lines))
    try:
        mesh = load_obj(path)
    except InputError as error:
        assert "\n" not in str(error)
        return
    vertices = mesh.vertices()
    assert vertices.triangles.max() < len(vertices.positions)
    assert mesh.normal_index.min() >= 0


@pytest.mark.parametrize("line", ["v 1e39 0 0", "vt 0 -4e38", "vn 0 0 1e300"])
def test_float32_loading_refuses_numbers_past_its_range_at_their_line(tmp_path, line):
    text = f"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n{line}\nf 1 2 3\n"
    path = write(tmp_path, text)
    assert load_obj(path).triangle_count == 1  # any finite double is fine by default
    with pytest.raises(InputError, match=f"^{path}:6: '{line.split()[0]}': .* is past the float32 range"):
        load_obj(path, float32=True)
