"""Tests for shaderkit.isa.theia.scene: the golden upstream scenes load with the right
layout and contents, write_scene/load_scene round-trip exactly in both layouts, every
malformed file gives a one-line InputError naming the file, and scene_from_obj builds the
expected geometry, texture coordinates, texture words, cores and camera from OBJ models."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from shaderkit.core.diagnostics import InputError
from shaderkit.isa.theia import scene as scene_module
from shaderkit.isa.theia.scene import (
    Scene,
    load_scene,
    read_mem_words,
    scene_from_obj,
    triangles,
    write_scene,
)
from conftest import golden_dir

GOLDEN = golden_dir("theia", "scenes")
MODELS = Path(__file__).resolve().parents[3] / "examples" / "theia" / "models"
ONE = 0x20000


def fixed(value: float) -> int:
    return round(value * ONE) & 0xFFFFFFFF


def real(words) -> np.ndarray:
    return np.asarray(words, dtype=np.uint32).view(np.int32) / ONE


def assert_same_scene(expected: Scene, actual: Scene) -> None:
    assert np.array_equal(expected.config, actual.config)
    assert len(expected.cores) == len(actual.cores)
    for (initial_a, final_a), (initial_b, final_b) in zip(expected.cores, actual.cores):
        assert np.array_equal(initial_a, initial_b) and np.array_equal(final_a, final_b)
    assert len(expected.lights) == len(actual.lights)
    for (position_a, diffuse_a), (position_b, diffuse_b) in zip(expected.lights, actual.lights):
        assert np.array_equal(position_a, position_b) and np.array_equal(diffuse_a, diffuse_b)
    assert np.array_equal(expected.vertex_memory, actual.vertex_memory)
    assert (expected.texture is None) == (actual.texture is None)
    if expected.texture is not None:
        assert np.array_equal(expected.texture, actual.texture)
    assert expected.control == actual.control


def test_golden_folder_resolves():
    assert GOLDEN.is_dir(), GOLDEN
    assert {p.name for p in GOLDEN.iterdir() if p.is_dir()} >= {"example1", "example2", "example3", "shaders_example1"}


# --------------------------------------------------------------------------- golden scenes

GOLDEN_FACTS = [
    # name, layout, resolution, triangles, cores, lights
    ("example1", "V1", 200, 2, 2, 1),
    ("example2", "V2", 200, 6, 4, 0),
    ("example3", "V2", 160, 118, 8, 0),
    ("shaders_example1", "V1", 200, 2, 4, 1),
]


@pytest.mark.parametrize("name, layout, side, triangle_count, core_count, light_count", GOLDEN_FACTS)
def test_golden_scene_loads(name, layout, side, triangle_count, core_count, light_count):
    scene = load_scene(GOLDEN / name)
    assert scene.layout == layout
    assert (scene.width, scene.height) == (side, side)
    assert scene.triangle_count == triangle_count
    assert triangles(scene).shape == (triangle_count, 21)
    assert len(scene.cores) == core_count
    assert len(scene.lights) == light_count
    assert scene.control == 7 and scene.texture_enabled
    assert scene.texture is not None and scene.texture.shape == (256, 256, 3)
    # Bands as in spec §6.14: core k renders rows [k·H/n, (k+1)·H/n), every final X = W.
    band = side // core_count
    for index, (initial, final) in enumerate(scene.cores):
        assert list(initial) == [0, fixed(index * band), 0]
        assert list(final) == [fixed(side), fixed((index + 1) * band), 0]
    v2_note = [note for note in scene.notes if "V2-era" in note]
    assert bool(v2_note) == (layout == "V2")


def _texel_lines(path: Path) -> list[str]:
    """The texel lines of a Textures.mem as text (comments, blanks and the V1 header dropped)."""
    lines = [line.split("//")[0].strip() for line in path.read_text().splitlines()]
    lines = [line for line in lines if line]
    return lines[1:] if len(lines) == 256 * 256 + 1 else lines


@pytest.mark.parametrize("name", ["example1", "example2", "example3", "shaders_example1"])
def test_golden_texels_match_file_text(name):
    scene = load_scene(GOLDEN / name)
    lines = _texel_lines(GOLDEN / name / "Textures.mem")
    assert len(lines) == 256 * 256
    for u, v in [(0, 0), (17, 200), (255, 255)]:
        expected = [int(word, 16) for word in lines[u + 256 * v].split()]
        assert list(scene.texture[v, u]) == expected


def test_golden_spot_values():
    example1 = load_scene(GOLDEN / "example1")
    assert list(example1.texture[0, 0]) == [0x6200, 0x5600, 0x3C00]
    assert list(example1.texture[255, 255]) == [0x4000, 0x3000, 0x2600]
    assert list(example1.config[1]) == [0, 0x40000, 0x20000]  # camera (0, 2, 1)
    assert list(example1.lights[0][0]) == [0x40000, 0, 0xA0000]  # light at (2, 0, 5)
    assert list(example1.lights[0][1]) == [ONE, ONE, ONE]
    assert list(triangles(example1)[0]) == [
        0xFFFB0000, 0xFFFA0000, 0, 0, 0, ONE,
        0x50000, 0xFFFA0000, 0, ONE, 0, ONE,
        0x50000, 0x40000, 0, ONE, ONE, ONE,
        ONE, ONE, ONE,
    ]  # fmt: skip
    example2 = load_scene(GOLDEN / "example2")
    assert list(example2.texture[0, 0]) == [0xC600, 0x6600, 0x1600]
    assert list(example2.config[1]) == [0, 0xA0000, 0x140000]  # camera (0, 5, 10)
    assert any("0x42" in note for note in example2.notes)
    example3 = load_scene(GOLDEN / "example3")
    assert list(example3.texture[255, 255]) == [0x11200, 0xC000, 0x7000]
    assert list(example3.vertex_memory[:6]) == [0xFFFA0000, 0xFFFD0000, 0xFFFA0000, 0x60000, 0x30000, 0x70000]


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("layout", ["V1", "V2"])
@pytest.mark.parametrize("name", ["example1", "example3"])
def test_golden_round_trip(tmp_path, name, layout):
    original = load_scene(GOLDEN / name)
    write_scene(original, tmp_path, layout=layout)
    again = load_scene(tmp_path)
    assert_same_scene(original, again)
    assert again.layout == layout
    params = read_mem_words((tmp_path / "Params.mem").read_text(), "Params.mem")
    textures = read_mem_words((tmp_path / "Textures.mem").read_text(), "Textures.mem")
    if layout == "V1":
        assert len(params) % 3 == 0
        assert list(textures[:2]) == [256, 256]
    else:
        assert params[0] == 3 * (6 + 2 * len(original.cores))
        assert len(textures) == 3 * 256 * 256


def _words(count: int):
    return st.lists(st.integers(0, 0xFFFFFFFF), min_size=count, max_size=count).map(
        lambda values: np.array(values, dtype=np.uint32)
    )


@st.composite
def scenes(draw):
    width = draw(st.integers(2, 64))
    height = draw(st.integers(1, 64))
    side = draw(st.sampled_from([None, 1, 2, 4]))
    config = draw(_words(18)).reshape(6, 3)
    config[4, :2] = [fixed(width), fixed(height)]
    if side is not None:
        config[5, :2] = [fixed(side), fixed(side)]
    cores = []
    for _ in range(draw(st.integers(1, 4))):
        final = draw(_words(3))
        final[0] = fixed(width)
        cores.append((draw(_words(3)), final))
    lights = []
    for _ in range(draw(st.integers(0, 2))):
        diffuse = draw(_words(3).filter(lambda row: row[0] != fixed(width)))
        lights.append((draw(_words(3)), diffuse))
    count = draw(st.integers(0, 3))
    memory = draw(_words(10 + 21 * count + draw(st.integers(0, 5))))
    memory[6] = count
    texture = None if side is None else draw(_words(side * side * 3)).reshape(side, side, 3)
    control = draw(st.integers(0, 0xFFFF))
    if texture is None:
        control &= ~2
    return Scene(config, cores, lights, memory, texture, control)


@settings(max_examples=60, deadline=None)
@given(scene=scenes(), layout=st.sampled_from(["V1", "V2"]))
def test_random_scene_round_trip(scene, layout):
    with tempfile.TemporaryDirectory() as directory:
        write_scene(scene, directory, layout=layout)
        again = load_scene(directory)
    assert_same_scene(scene, again)
    assert again.layout == layout


def test_writing_untextured_scene_removes_stale_texture(tmp_path):
    shutil.copy(GOLDEN / "example1" / "Textures.mem", tmp_path / "Textures.mem")
    scene = scene_from_obj(MODELS / "cube.obj")
    write_scene(scene, tmp_path)
    assert not (tmp_path / "Textures.mem").exists()
    again = load_scene(tmp_path)
    assert again.texture is None and again.control == 5
    assert_same_scene(scene, again)


def test_write_refuses_inconsistent_scenes(tmp_path):
    scene = scene_from_obj(MODELS / "cube.obj")
    scene.control = 7  # texturing on, but there is no texture
    with pytest.raises(InputError, match="no texture"):
        write_scene(scene, tmp_path)
    with pytest.raises(InputError, match="layout"):
        write_scene(load_scene(GOLDEN / "example1"), tmp_path, layout="V3")
    example = load_scene(GOLDEN / "example1")
    example.lights[0] = (example.lights[0][0], np.array([example.config[4, 0], 0, 0], dtype=np.uint32))
    with pytest.raises(InputError, match="one more core"):
        write_scene(example, tmp_path)
    assert not (tmp_path / "Params.mem").exists()


# --------------------------------------------------------------------------- $readmemh text


def test_read_mem_words_accepts_comments_blank_lines_and_crlf():
    text = "// header\r\n\r\n1 2 // trailing\r\n  fffFFfff\t0002_0000\r\n//3\r\n4"
    assert list(read_mem_words(text, "t.mem")) == [1, 2, 0xFFFFFFFF, 0x20000, 4]
    assert read_mem_words("", "t.mem").dtype == np.uint32


@pytest.mark.parametrize(
    "text, line, fragment",
    [
        ("1 2\n3 4g\n", 2, "'4g' is not a hexadecimal word"),
        ("1\n\n123456789\n", 3, "wider than 32 bits"),
        ("@10\n1\n", 1, "address directive '@10'"),
        ("0x10\n", 1, "'0x10' is not a hexadecimal word"),
        ("1 2 3\n1x\n", 2, "'1x' is not"),
        ("1 -2\n", 1, "'-2' is not"),
    ],
)
def test_read_mem_words_errors_name_file_and_line(text, line, fragment):
    with pytest.raises(InputError) as caught:
        read_mem_words(text, "scene/Vertex.mem")
    message = str(caught.value)
    assert message.startswith(f"scene/Vertex.mem:{line}: ")
    assert fragment in message
    assert "\n" not in message


# --------------------------------------------------------------------------- malformed scenes


@pytest.fixture
def broken(tmp_path):
    """A copy of example1 to break one thing in."""
    target = tmp_path / "scene"
    shutil.copytree(GOLDEN / "example1", target)
    for path in target.iterdir():
        path.chmod(0o644)
    return target


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def _load_error(directory: Path) -> str:
    with pytest.raises(InputError) as caught:
        load_scene(directory)
    message = str(caught.value)
    assert "\n" not in message
    return message


def _params_lines(rows: list[str], count_word: str | None = None) -> str:
    return "\n".join(([count_word] if count_word else []) + rows) + "\n"


EXAMPLE1_ROWS = [
    "0 20000 9", "0 40000 20000", "fff80000 fff80000 0", "80000 80000 0", "1900000 1900000 0",
    "2000000 2000000 0", "0 0 0", "1900000 C80000 0", "0 C80000 0", "1900000 1900000 0",
]  # fmt: skip


def test_scene_directory_missing(tmp_path):
    assert "no such scene folder" in _load_error(tmp_path / "nowhere")


@pytest.mark.parametrize("name", ["Params.mem", "Vertex.mem", "Creg.mem"])
def test_missing_file(broken, name):
    (broken / name).unlink()
    message = _load_error(broken)
    assert name in message and "no such file" in message


def test_missing_texture_allowed_only_without_texture_bit(broken):
    (broken / "Textures.mem").unlink()
    message = _load_error(broken)
    assert "Textures.mem" in message and "enables texturing" in message
    (broken / "Creg.mem").write_text("5\n")
    scene = load_scene(broken)
    assert scene.texture is None and not scene.texture_enabled


def test_non_hex_token_reports_line(broken):
    lines = (broken / "Vertex.mem").read_text().splitlines()
    lines[2] = "ffee0000 ffzz0000 ffee0000"
    (broken / "Vertex.mem").write_text("\n".join(lines) + "\n")
    message = _load_error(broken)
    assert "Vertex.mem:3:" in message and "'ffzz0000'" in message


def test_word_wider_than_32_bits(broken):
    _replace(broken / "Creg.mem", "\n7", "\n100000007")
    message = _load_error(broken)
    assert "Creg.mem:" in message and "wider than 32 bits" in message


@pytest.mark.parametrize(
    "rows, count_word, fragment",
    [
        (EXAMPLE1_ROWS + ["1 2"], None, "whole rows"),  # 3k + 2 words
        (EXAMPLE1_ROWS[:7], None, "7 rows"),  # no complete core
        (EXAMPLE1_ROWS[:7] + ["1800000 C80000 0"], None, "no core rows"),  # final X != width
        (EXAMPLE1_ROWS[:4] + ["0 1900000 0"] + EXAMPLE1_ROWS[5:], None, "resolution width 0"),
        (EXAMPLE1_ROWS[:4] + ["1900001 1900000 0"] + EXAMPLE1_ROWS[5:], None, "not a positive whole number"),
        (EXAMPLE1_ROWS[:4] + ["1900000 fff00000 0"] + EXAMPLE1_ROWS[5:], None, "resolution height -8"),
        (EXAMPLE1_ROWS[:5] + ["2000000 1000000 0"] + EXAMPLE1_ROWS[6:], None, "not a square power of two"),
        (EXAMPLE1_ROWS[:5] + ["1900000 1900000 0"] + EXAMPLE1_ROWS[6:], None, "200x200"),
    ],
)
def test_malformed_params(broken, rows, count_word, fragment):
    (broken / "Params.mem").write_text(_params_lines(rows, count_word))
    message = _load_error(broken)
    assert "Params.mem" in message and fragment in message


def test_v2_count_word_value_is_not_trusted(broken):
    (broken / "Params.mem").write_text(_params_lines(EXAMPLE1_ROWS, count_word="ffff"))
    scene = load_scene(broken)
    assert scene.layout == "V2" and len(scene.cores) == 2
    assert any("0xffff" in note for note in scene.notes)
    assert any("has the V1 header although Params.mem is V2" in note for note in scene.notes)


def test_truncated_vertex_data(broken):
    lines = (broken / "Vertex.mem").read_text().splitlines()
    last = max(i for i, line in enumerate(lines) if line.strip() and not line.startswith("//"))
    del lines[last]
    (broken / "Vertex.mem").write_text("\n".join(lines) + "\n")
    message = _load_error(broken)
    assert "Vertex.mem" in message and "truncated" in message and "2 triangles" in message


def test_vertex_header_too_short(broken):
    (broken / "Vertex.mem").write_text("0 0 0\n1 1 1\n")
    message = _load_error(broken)
    assert "Vertex.mem" in message and "header" in message


def test_texture_header_must_match_size(broken):
    _replace(broken / "Textures.mem", "100 100", "80 100")
    message = _load_error(broken)
    assert "Textures.mem" in message and "header words 80 100" in message


def test_texture_word_count(broken):
    text = (broken / "Textures.mem").read_text()
    (broken / "Textures.mem").write_text(text + "1 2 3\n")
    message = _load_error(broken)
    assert "Textures.mem" in message and "196613 words" in message


@pytest.mark.parametrize(
    "content, fragment", [("// nothing\n", "no word"), ("7 7\n", "2 words"), ("10000\n", "16 bits")]
)
def test_malformed_control(broken, content, fragment):
    (broken / "Creg.mem").write_text(content)
    message = _load_error(broken)
    assert "Creg.mem" in message and fragment in message


# --------------------------------------------------------------------------- scene_from_obj

QUAD_OBJ = """# a unit quad facing +z
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vn 0 0 1
o quad
s off
f 1/1/1 2/2/1 3/3/1 4/4/1
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _png(tmp_path: Path, width: int, height: int, name: str = "texture.png") -> Path:
    pixels = np.zeros((height, width, 3), dtype=np.uint8)
    pixels[0, 0] = [255, 0, 128]  # top-left pixel of the image
    pixels[-1, -1] = [0, 255, 1]
    path = tmp_path / name
    Image.fromarray(pixels).save(path)
    return path


def _corners(scene: Scene) -> np.ndarray:
    """(triangles, 3 corners, 6 words: x y z u v alpha) as real numbers."""
    return real(triangles(scene)[:, :18]).reshape(-1, 3, 6)


def test_quad_with_texture(tmp_path):
    scene = scene_from_obj(_write(tmp_path, "quad.obj", QUAD_OBJ), _png(tmp_path, 4, 4), resolution=(64, 64))
    assert scene.triangle_count == 2 and scene.layout == "V1"
    assert scene.control == 7 and scene.texture_enabled
    assert scene.texture.shape == (4, 4, 3)
    # 255 → 1.0, 128 → round(128/255·1.0), image rows stored top row first.
    assert list(scene.texture[0, 0]) == [ONE, 0, round(128 / 255 * ONE)]
    assert list(scene.texture[3, 3]) == [0, ONE, round(1 / 255 * ONE)]
    assert list(scene.config[5]) == [fixed(4), fixed(4), 0]
    # The quad is centred and scaled to a half-diagonal of 4: corners at ±2√2 in x and y.
    half = 4 / np.sqrt(2)
    header = real(scene.vertex_memory[:6])
    assert np.allclose(header, [-half, -half, 0, half, half, 0], atol=1e-4)
    corners = _corners(scene)
    points = corners[:, :, :3].reshape(-1, 3)
    assert np.allclose(points.min(axis=0), header[:3]) and np.allclose(points.max(axis=0), header[3:])
    # OBJ's +Y becomes THEIA's -Y (up the picture) and OBJ's v becomes 1 - v, so the
    # OBJ corner (0, 0) with vt (0, 0) sits at the bottom-left with THEIA uv (0, 1).
    for x, y, u, v in [(-half, half, 0, 1), (half, half, 1, 1), (half, -half, 1, 0), (-half, -half, 0, 0)]:
        match = np.all(np.isclose(corners[:, :, [0, 1, 3, 4]], [x, y, u, v], atol=1e-4), axis=-1)
        assert match.any(), (x, y, u, v)
    assert np.all(corners[:, :, 5] == 1.0)  # alpha
    assert np.all(real(triangles(scene)[:, 18:]) == 1.0)  # textured: diffuse white as upstream
    # V1/V2 swapped after the Y reflection: CROSS(E1, E2) still faces the +z camera.
    for triangle in corners[:, :, :3]:
        normal = np.cross(triangle[1] - triangle[0], triangle[2] - triangle[0])
        assert normal[2] > 0


def test_cube_model_and_pyramid_model():
    cube = scene_from_obj(MODELS / "cube.obj", resolution=(32, 32))
    assert cube.triangle_count == 12
    edge = 4 / np.sqrt(3)  # half-diagonal 4 ⇒ half-edge 4/√3
    assert np.allclose(real(cube.vertex_memory[:6]), [-edge] * 3 + [edge] * 3, atol=1e-4)
    uvs = _corners(cube)[:, :, 3:5]
    assert set(np.round(uvs.reshape(-1), 6)) == {0.0, 1.0}
    # Outward normals: every triangle's CROSS(E1, E2) points away from the cube's centre.
    for triangle in _corners(cube)[:, :, :3]:
        normal = np.cross(triangle[1] - triangle[0], triangle[2] - triangle[0])
        assert normal @ triangle.mean(axis=0) > 0
    pyramid = scene_from_obj(MODELS / "pyramid.obj", resolution=(32, 32))
    assert pyramid.triangle_count == 6
    uvs = _corners(pyramid)[:, :, 3:5]
    assert uvs.min() >= 0 and uvs.max() <= 1


def test_untextured_scene(tmp_path):
    scene = scene_from_obj(_write(tmp_path, "quad.obj", QUAD_OBJ), resolution=(16, 16), cores=2)
    assert scene.texture is None and scene.control == 5 and not scene.texture_enabled
    assert list(scene.config[5]) == [0, 0, 0]
    assert np.all(triangles(scene)[:, 18:] == fixed(0.8))
    assert len(scene.lights) == 1 and np.array_equal(scene.lights[0][0], scene.config[1])


def test_negative_indices_and_polygons(tmp_path):
    positive = """v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 2 0.5 1
vt 0 0
vt 1 0
vt 1 1
f 1/1 2/2 3/3 4
f 2//1 5//1 3//1
f 1 2 5 3 4
"""
    negative = """v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
vt 0 0
vt 1 0
vt 1 1
f -4/-3 -3/-2 -2/-1 -1
v 2 0.5 1
f -4//1 -1//1 -3//1
f -5 -4 -1 -3 -2
"""
    a = scene_from_obj(_write(tmp_path, "a.obj", positive), resolution=(16, 16))
    b = scene_from_obj(_write(tmp_path, "b.obj", negative), resolution=(16, 16))
    assert a.triangle_count == 2 + 1 + 3  # quad, triangle, pentagon fan
    assert np.array_equal(a.vertex_memory, b.vertex_memory)
    corners = _corners(a)
    # Quad fan (1,2,3), (1,3,4) stored as (1,3,2), (1,4,3); THEIA uv = (u, 1 - v), and
    # corner 4 has no vt, so it gets (0, 0).
    assert corners[0, :, 3:5].tolist() == [[0, 1], [1, 0], [1, 1]]
    assert corners[1, :, 3:5].tolist() == [[0, 1], [0, 0], [1, 0]]
    assert np.all(corners[2:, :, 3:5] == 0)  # triangle and pentagon: no texture coordinates


def test_non_power_of_two_texture_is_resampled(tmp_path):
    obj = _write(tmp_path, "quad.obj", QUAD_OBJ)
    scene = scene_from_obj(obj, _png(tmp_path, 300, 200), resolution=(16, 16))
    assert scene.texture.shape == (256, 256, 3)
    assert list(scene.config[5]) == [fixed(256), fixed(256), 0]
    assert any("300x200" in note and "resampled to 256x256" in note for note in scene.notes)
    small = scene_from_obj(obj, _png(tmp_path, 3, 5, "small.png"), resolution=(16, 16))
    assert small.texture.shape == (4, 4, 3)
    chosen = scene_from_obj(obj, _png(tmp_path, 4, 4, "four.png"), resolution=(16, 16), texture_size=8)
    assert chosen.texture.shape == (8, 8, 3) and any("resampled to 8x8" in note for note in chosen.notes)
    exact = scene_from_obj(obj, _png(tmp_path, 4, 4, "exact.png"), resolution=(16, 16))
    assert not any("resampled" in note for note in exact.notes)


def test_obj_scene_round_trips_through_files(tmp_path):
    scene = scene_from_obj(MODELS / "cube.obj", _png(tmp_path, 8, 8), resolution=(40, 40), cores=3)
    write_scene(scene, tmp_path / "v1")
    write_scene(scene, tmp_path / "v2", layout="V2")
    assert_same_scene(scene, load_scene(tmp_path / "v1"))
    assert_same_scene(scene, load_scene(tmp_path / "v2"))


def test_cores_split_rows_into_bands(tmp_path):
    scene = scene_from_obj(MODELS / "cube.obj", resolution=(128, 128), cores=3)
    bands = [(int(i[1]) >> 17, int(f[1]) >> 17) for i, f in scene.cores]
    assert bands == [(0, 42), (42, 84), (84, 128)]
    assert all(int(final[0]) == fixed(128) for _, final in scene.cores)


@pytest.mark.parametrize("height, cores", [(1, 1), (3, 3), (4, 4), (128, 4)])
def test_the_default_core_count_is_four_or_one_per_row(height, cores):
    scene = scene_from_obj(MODELS / "cube.obj", resolution=(5, height))
    assert len(scene.cores) == cores
    assert sorted({int(f[1]) >> 17 for _, f in scene.cores})[-1] == height


def test_default_camera_frames_the_model():
    scene = scene_from_obj(MODELS / "pyramid.obj", resolution=(96, 64))
    camera = real(scene.config[1])
    (xmin, ymin), (xmax, ymax) = real(scene.config[2][:2]), real(scene.config[3][:2])
    points = _corners(scene)[:, :, :3].reshape(-1, 3)
    assert camera[2] > points[:, 2].max()  # the whole model is in front of the camera
    assert np.linalg.norm(points - camera, axis=1).max() < 250  # and within LAST_t's reach
    assert np.abs(points).max() < 1000
    along = camera[2] / (camera[2] - points[:, 2])
    projected = camera[:2] + (points[:, :2] - camera[:2]) * along[:, None]
    assert projected[:, 0].min() > xmin and projected[:, 0].max() < xmax
    assert projected[:, 1].min() > ymin and projected[:, 1].max() < ymax
    assert np.isclose((xmax - xmin) / 96, (ymax - ymin) / 64, rtol=1e-4)  # square pixels
    assert any("not square" in note for note in scene.notes)


def test_explicit_camera_and_window():
    scene = scene_from_obj(MODELS / "cube.obj", camera=(0, 5, 10), window=((-4, -4), (4, 4)))
    assert list(scene.config[1]) == [0, fixed(5), fixed(10)]
    assert list(scene.config[2]) == [fixed(-4), fixed(-4), 0]
    assert list(scene.config[3]) == [fixed(4), fixed(4), 0]


@pytest.mark.parametrize(
    "options, fragment",
    [
        ({"camera": (0, 0, 1)}, "behind the camera"),
        ({"camera": (0, 0, 0)}, "camera z must not be 0"),
        ({"camera": (0, 0, 300)}, "250"),
        ({"window": ((1, 0), (0, 1))}, "xmin < xmax"),
        ({"resolution": (0, 16)}, "resolution"),
        ({"resolution": (16.5, 16)}, "whole numbers"),
        ({"cores": 0}, "cores"),
        ({"control": 7}, "no texture image"),
        ({"texture_size": 8}, "without a texture"),
    ],
)
def test_scene_from_obj_rejects_bad_options(options, fragment):
    with pytest.raises(InputError, match=fragment) as caught:
        scene_from_obj(MODELS / "cube.obj", **options)
    assert "\n" not in str(caught.value)


def test_bad_texture_size_and_unreadable_image(tmp_path):
    obj = _write(tmp_path, "quad.obj", QUAD_OBJ)
    with pytest.raises(InputError, match="power of two"):
        scene_from_obj(obj, _png(tmp_path, 4, 4), texture_size=6)
    not_an_image = _write(tmp_path, "texture.png", "hello")
    with pytest.raises(InputError, match="texture.png: cannot read the image"):
        scene_from_obj(obj, not_an_image)


@pytest.mark.parametrize(
    "body, line, fragment",
    [
        ("v 0 0 0\nv 1 2\n", 2, "'v' needs at least 3 numbers"),
        ("v 0 0 0\nv a 0 0\n", 2, "'a' is not a number"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", 4, "at least 3 vertices"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2 9\n", 5, "vertex index 9 is out of range"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", 4, "vertex index 0"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -4 1 2\n", 4, "vertex index -4"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/x 2 3\n", 4, "'x' is not a texture coordinate index"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1 2 3\n", 4, "texture coordinate index 1 is out of range"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1/1/1 2 3\n", 4, "not a face vertex"),
        ("v 0 0 0\ncurv 0 1 1 2\n", 2, "unsupported OBJ statement 'curv'"),
        ("v 0 0 0\nvt nan 0\n", 2, "non-finite"),
    ],
)
def test_bad_obj_lines_name_file_and_line(tmp_path, body, line, fragment):
    path = _write(tmp_path, "bad.obj", body)
    with pytest.raises(InputError) as caught:
        scene_from_obj(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: ") and fragment in message
    assert "\n" not in message


def test_obj_without_faces_or_with_only_degenerate_triangles(tmp_path):
    with pytest.raises(InputError, match="no faces"):
        scene_from_obj(_write(tmp_path, "empty.obj", "v 0 0 0\nl 1 1\n"))
    with pytest.raises(InputError, match="coincide"):
        scene_from_obj(_write(tmp_path, "point.obj", "v 1 1 1\nf 1 1 1\n"))
    with pytest.raises(InputError, match="every triangle is degenerate"):
        scene_from_obj(_write(tmp_path, "line.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n"))
    mixed = scene_from_obj(_write(tmp_path, "mixed.obj", QUAD_OBJ + "f 1 2 2\nl 1 2\n"))
    assert mixed.triangle_count == 2
    assert any("1 degenerate" in note for note in mixed.notes)
    assert any("1 line element" in note for note in mixed.notes)


def test_triangle_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(scene_module, "MAX_TRIANGLES", 1)
    with pytest.raises(InputError, match="2 triangles; the scene builder's limit is 1"):
        scene_from_obj(_write(tmp_path, "quad.obj", QUAD_OBJ))
