"""Tests for shaderkit.isa.rsx.pipeline: whole draws with golden and hand-built programs, exact pixels.

Programs: the golden vp_mvp_color (DP4 o[0] with c[0..3], MOV o[1], v[3]) and FPs from the asm
corpus, plus variants built by changing fields of those instructions (Instruction.from_fields):
extra VP moves to other outputs, FP moves from other inputs, DDX/DDY, a KIL that never fires.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import shaderkit.isa.rsx.pipeline as pipeline
import shaderkit.render.raster as raster
from shaderkit.core.diagnostics import InputError
from shaderkit.isa.rsx.container import ProgramKind
from shaderkit.isa.rsx.fragment import fragment_image, fullscreen_inputs, run_fragment_program, run_fullscreen
from shaderkit.isa.rsx.instruction import Instruction, Program, decode_program, encode_program
from shaderkit.isa.rsx.pipeline import Frame, draw, to_picture
from shaderkit.render.mesh import load_obj
from conftest import golden_dir

GOLDEN = golden_dir("rsx")
WIDTH = HEIGHT = 16
# Float32 vertex and fragment arithmetic against float64 references.
TOLERANCE = 2e-6


def golden(name: str) -> Program:
    kind = ProgramKind.VERTEX if name.startswith("vp_") else ProgramKind.FRAGMENT
    suffix = "vpo" if kind is ProgramKind.VERTEX else "fpo"
    text = (GOLDEN / "asm" / f"{name}.{suffix}.words.txt").read_text()
    words = [int(word, 16) for line in text.splitlines() for word in line.split(":")[1].split()]
    return decode_program(words, kind)


def changed(instruction: Instruction, **fields) -> Instruction:
    return Instruction.from_fields(instruction.kind, {**instruction.fields, **fields}, instruction.literal)


def program(kind: ProgramKind, instructions: list[Instruction]) -> Program:
    """Instructions as one program: end bit only on the last, slots renumbered by decoding."""
    marked = [changed(instruction, end=0) for instruction in instructions[:-1]]
    marked.append(changed(instructions[-1], end=1))
    return decode_program(encode_program(marked), kind)


MVP = golden("vp_mvp_color")
MOVE_COLOUR = MVP.instructions[4]  # MOV o[1], v[3]


def vertex_program(*moves: tuple[int, int]) -> Program:
    """vp_mvp_color plus ``MOV o[output], v[input]`` for each (output, input)."""
    extra = [changed(MOVE_COLOUR, output=output, input=source) for output, source in moves]
    return program(ProgramKind.VERTEX, list(MVP.instructions) + extra)


FRAGMENT_MOVE = golden("fp_mov_color").instructions[0]  # MOVR R0, f[COL0]
FP_INPUT = {"WPOS": 0, "COL0": 1, "FOGC": 3, "TEX0": 4, "TEX7": 11, "TEX8": 12, "TEX9": 13, "SSA": 14}


def fragment_move(source: str) -> Program:
    """``MOVR R0, f[source]``."""
    return program(ProgramKind.FRAGMENT, [changed(FRAGMENT_MOVE, input=FP_INPUT[source])])


def matrix_constants(matrix=np.eye(4)) -> np.ndarray:
    constants = np.zeros((468, 4), dtype=np.float32)
    constants[0:4] = matrix  # vp_mvp_color: o[0].k = dot(v[0], c[k])
    return constants


def obj(tmp_path: Path, text: str, name: str = "mesh.obj"):
    path = tmp_path / name
    path.write_text(text)
    return load_obj(path)


def quad(z: float, colour=(1, 1, 1), x=(-1, 1), y=(-1, 1), first=1, uv=((0, 0), (1, 0), (1, 1), (0, 1))) -> str:
    """A counter-clockwise quad in the plane z, one colour, OBJ text (vertex numbers from ``first``)."""
    r, g, b = colour
    corners = [(x[0], y[0]), (x[1], y[0]), (x[1], y[1]), (x[0], y[1])]
    lines = [f"v {cx} {cy} {z} {r} {g} {b}" for cx, cy in corners]
    lines += [f"vt {u} {v}" for u, v in uv]
    numbers = [f"{first + k}/{first + k}" for k in range(4)]
    lines.append("f " + " ".join(numbers))
    return "\n".join(lines) + "\n"


def pixel_centres(width=WIDTH, height=HEIGHT):
    rows, columns = np.mgrid[0:height, 0:width]
    return (columns + 0.5) / width, (rows + 0.5) / height


# --------------------------------------------------------------------------- colour and coverage


def test_full_viewport_quad_gives_the_interpolated_colour(tmp_path):
    # Colour = (u, v, 0.5) at the corners: affine over the quad, so both triangles agree.
    text = "v -1 -1 0 0 0 0.5\nv 1 -1 0 1 0 0.5\nv 1 1 0 1 1 0.5\nv -1 1 0 0 1 0.5\nf 1 2 3 4\n"
    frame = draw(MVP, golden("fp_mov_color"), obj(tmp_path, text), width=WIDTH, height=HEIGHT,
                 constants=matrix_constants())
    across, up = pixel_centres()
    expected = np.stack([across, up, np.full_like(across, 0.5), np.ones_like(across)], axis=2)
    np.testing.assert_allclose(frame.color, expected, rtol=0, atol=TOLERANCE)
    assert frame.coverage.all()
    np.testing.assert_array_equal(frame.depth, 0.5)  # z = 0 -> window depth 0.5


def test_uncovered_pixels_keep_the_clear_colour_and_depth(tmp_path):
    frame = draw(MVP, golden("fp_mov_color"), obj(tmp_path, quad(0.0, (0, 1, 0), x=(-1, 0))), width=WIDTH,
                 height=HEIGHT, constants=matrix_constants(), clear=(0.25, 0.5, 0.75, 1.0))
    left, right = np.s_[:, : WIDTH // 2], np.s_[:, WIDTH // 2:]
    assert frame.coverage[left].all() and not frame.coverage[right].any()
    np.testing.assert_array_equal(frame.color[left], np.broadcast_to([0, 1, 0, 1], (HEIGHT, WIDTH // 2, 4)))
    np.testing.assert_array_equal(frame.color[right], np.broadcast_to([0.25, 0.5, 0.75, 1], (HEIGHT, WIDTH // 2, 4)))
    np.testing.assert_array_equal(frame.depth[right], 1.0)


def test_to_picture_flips_rows_clamps_and_rounds():
    colour = np.zeros((2, 3, 4), dtype=np.float32)
    colour[0, 0] = (1.5, -1.0, 0.5, 0.2)  # bottom-left
    colour[1, 2] = (np.nan, 0.25, 1.0, 1.0)  # top-right
    frame = Frame(colour, np.ones((2, 3), dtype=np.float32), np.ones((2, 3), dtype=bool))
    picture = to_picture(frame)
    assert picture.dtype == np.uint8 and picture.shape == (2, 3, 3)
    assert picture[1, 0].tolist() == [255, 0, 128]  # the bottom row is stored last
    assert picture[0, 2].tolist() == [0, 64, 255]
    assert to_picture(frame, alpha=True)[1, 0, 3] == 51


# --------------------------------------------------------------------------- depth test


@pytest.mark.parametrize("near_first", [False, True])
def test_nearer_triangle_hides_the_one_behind_in_either_order(tmp_path, near_first):
    far = quad(0.5, (1, 0, 0))
    near = quad(-0.5, (0, 1, 0), x=(-0.5, 0.5), y=(-0.5, 0.5), first=5)
    if near_first:
        near, far = quad(-0.5, (0, 1, 0), x=(-0.5, 0.5), y=(-0.5, 0.5)), quad(0.5, (1, 0, 0), first=5)
    mesh = obj(tmp_path, near + far if near_first else far + near)
    frame = draw(MVP, golden("fp_mov_color"), mesh, width=WIDTH, height=HEIGHT, constants=matrix_constants())
    inner = np.s_[4:12, 4:12]
    np.testing.assert_array_equal(frame.color[inner], np.broadcast_to([0, 1, 0, 1], (8, 8, 4)))
    np.testing.assert_array_equal(frame.depth[inner], 0.25)
    outer = np.ones((HEIGHT, WIDTH), dtype=bool)
    outer[inner] = False
    assert np.all(frame.color[outer] == [1, 0, 0, 1]) and np.all(frame.depth[outer] == 0.75)


def test_equal_depth_keeps_the_earlier_triangle(tmp_path):
    mesh = obj(tmp_path, quad(0.0, (1, 0, 0)) + quad(0.0, (0, 0, 1), first=5))
    frame = draw(MVP, golden("fp_mov_color"), mesh, width=WIDTH, height=HEIGHT, constants=matrix_constants())
    assert np.all(frame.color == [1, 0, 0, 1])  # LESS: the second quad never passes


def test_geometry_at_or_beyond_the_far_plane_is_not_drawn(tmp_path):
    frame = draw(MVP, golden("fp_mov_color"), obj(tmp_path, quad(1.0)), width=WIDTH, height=HEIGHT,
                 constants=matrix_constants())
    assert not frame.coverage.any()  # depth 1.0 does not pass LESS against the cleared 1.0


# --------------------------------------------------------------------------- kill and depth replacement

# vp_mvp_color plus MOV o[7], v[8]: the mesh's texture coordinate reaches f[TEX0].
TEXTURED = vertex_program((7, 8))


def test_killing_program_leaves_the_clear_colour(tmp_path):
    # fp_kil discards fragments whose TEX0.x is below 0.5: the left half of a quad with u = x.
    frame = draw(TEXTURED, golden("fp_kil"), obj(tmp_path, quad(0.0, (0, 1, 0))), width=WIDTH, height=HEIGHT,
                 constants=matrix_constants(), clear=(0.5, 0.5, 0.5, 0.5))
    left, right = np.s_[:, : WIDTH // 2], np.s_[:, WIDTH // 2:]
    assert np.all(frame.color[left] == [0.5, 0.5, 0.5, 0.5]) and not frame.coverage[left].any()
    assert np.all(frame.depth[left] == 1.0)
    assert np.all(frame.color[right] == [0, 1, 0, 1]) and frame.coverage[right].all()


def test_killed_fragments_do_not_hide_what_is_behind(tmp_path):
    behind = quad(0.5, (1, 0, 0), uv=((1, 0), (1, 0), (1, 0), (1, 0)))  # u = 1: never killed
    front = quad(-0.5, (0, 1, 0), first=5)  # u = x: its left half is killed
    frame = draw(TEXTURED, golden("fp_kil"), obj(tmp_path, behind + front), width=WIDTH, height=HEIGHT,
                 constants=matrix_constants())
    assert np.all(frame.color[:, : WIDTH // 2] == [1, 0, 0, 1]) and np.all(frame.depth[:, : WIDTH // 2] == 0.75)
    assert np.all(frame.color[:, WIDTH // 2:] == [0, 1, 0, 1]) and np.all(frame.depth[:, WIDTH // 2:] == 0.25)


def test_depth_replacement_tests_and_writes_the_program_depth(tmp_path):
    # fp_depth_out: R1.z = TEX0.x * 0.5, colour = COL0. The first quad (u = x) gets depth u / 2;
    # the second, nearer by geometry, has u = 0.5 everywhere: depth 0.25 once replaced.
    varying = quad(0.5, (1, 0, 0))
    constant = quad(-0.9, (0, 0, 1), first=5, uv=((0.5, 0),) * 4)
    frame = draw(TEXTURED, golden("fp_depth_out"), obj(tmp_path, varying + constant), width=WIDTH, height=HEIGHT,
                 constants=matrix_constants(), depth_replace=True)
    across, _ = pixel_centres()
    expected_depth = np.minimum(across * 0.5, 0.25)
    np.testing.assert_allclose(frame.depth, expected_depth, rtol=0, atol=TOLERANCE)
    red = across * 0.5 < 0.25
    assert np.all(frame.color[red] == [1, 0, 0, 1]) and np.all(frame.color[~red] == [0, 0, 1, 1])


def test_a_program_that_may_kill_renders_like_one_that_cannot(tmp_path):
    # KIL FL never fires but sends the draw down the shade-everything path; fp_mov_color is
    # resolved before shading. Overlapping, back-facing, clipped triangles: identical frames.
    kil = golden("fp_kil")
    never = program(ProgramKind.FRAGMENT, [kil.instructions[0], changed(kil.instructions[1], condition=0),
                                           kil.instructions[2]])
    globe = load_obj(Path(__file__).resolve().parents[3] / "examples" / "theia" / "models" / "globe.obj")
    constants = matrix_constants(np.diag([1.3, 1.1, 0.7, 1.0]))
    colour_is_texcoord = vertex_program((1, 8))
    fast = draw(colour_is_texcoord, golden("fp_mov_color"), globe, width=48, height=40, constants=constants)
    slow = draw(colour_is_texcoord, never, globe, width=48, height=40, constants=constants)
    assert fast.coverage.sum() > 500 and len(np.unique(fast.color[fast.coverage], axis=0)) > 400
    np.testing.assert_array_equal(fast.color, slow.color)
    np.testing.assert_array_equal(fast.depth, slow.depth)
    np.testing.assert_array_equal(fast.coverage, slow.coverage)


# --------------------------------------------------------------------------- fragment inputs


def perspective(fov_y_degrees, aspect, near, far):
    f = 1.0 / np.tan(np.radians(fov_y_degrees) / 2)
    return np.array([
        [f / aspect, 0, 0, 0],
        [0, f, 0, 0],
        [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)],
        [0, 0, -1, 0],
    ])


def test_texture_coordinates_are_perspective_correct_on_a_tilted_quad(tmp_path):
    width, height = 40, 32
    projection = perspective(60.0, width / height, 0.5, 50.0)
    corners = np.array([[-1.5, -1.0, -2.0], [1.5, -1.0, -2.0], [1.5, 0.8, -7.0], [-1.5, 0.8, -7.0]])
    text = "".join(f"v {x} {y} {z}\n" for x, y, z in corners) + "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nf 1/1 2/2 3/3 4/4\n"
    frame = draw(TEXTURED, fragment_move("TEX0"), obj(tmp_path, text), width=width, height=height,
                 constants=matrix_constants(projection))
    # Analytic (u, v): cast the eye ray through each pixel centre onto the quad's plane.
    rows, columns = np.mgrid[0:height, 0:width]
    ndc = np.stack([2 * (columns + 0.5) / width - 1, 2 * (rows + 0.5) / height - 1,
                    -np.ones((height, width)), np.ones((height, width))], axis=-1)
    points = ndc @ np.linalg.inv(projection).T
    directions = points[..., :3] / points[..., 3:]
    edge_u, edge_v = corners[1] - corners[0], corners[3] - corners[0]
    systems = np.stack([directions, np.broadcast_to(-edge_u, directions.shape),
                        np.broadcast_to(-edge_v, directions.shape)], axis=-1)
    _, u, v = np.moveaxis(np.linalg.solve(systems, np.broadcast_to(corners[0], directions.shape)[..., None])[..., 0],
                          -1, 0)
    inside = (u > 0.01) & (u < 0.99) & (v > 0.01) & (v < 0.99)  # clear of the edges
    assert inside.sum() > 200 and frame.coverage[inside].all()
    np.testing.assert_allclose(frame.color[inside][:, 0], u[inside], rtol=0, atol=1e-5)
    np.testing.assert_allclose(frame.color[inside][:, 1], v[inside], rtol=0, atol=1e-5)
    # Screen-affine interpolation would be far off: v is strongly non-linear down the screen.
    column_v = v[:, width // 2][inside[:, width // 2]]
    assert np.ptp(np.diff(column_v)) > 0.005


@pytest.mark.parametrize(
    "output, source, fog",
    [(5, "FOGC", True), (14, "TEX7", False), (15, "TEX8", False), (6, "TEX9", False)],
)
def test_outputs_reach_their_fragment_inputs(tmp_path, output, source, fog):
    # MOV o[output], v[8]: the texture coordinate (u, v, 0, 1) arrives at the fragment input.
    frame = draw(vertex_program((output, 8)), fragment_move(source), obj(tmp_path, quad(0.0)), width=WIDTH,
                 height=HEIGHT, constants=matrix_constants())
    across, up = pixel_centres()
    expected = np.stack([across, np.zeros_like(up) if fog else up, np.zeros_like(up), np.ones_like(up)], axis=2)
    np.testing.assert_allclose(frame.color, expected, rtol=0, atol=TOLERANCE)


def test_window_position_input(tmp_path):
    frame = draw(MVP, fragment_move("WPOS"), obj(tmp_path, quad(0.0)), width=WIDTH, height=HEIGHT,
                 constants=matrix_constants(np.diag([1.0, 1.0, 1.0, 2.0])))
    # w = 2: the quad covers the middle half; WPOS = (x + 0.5, y + 0.5, depth, 1/w).
    row, column = 5, 9
    assert frame.color[row, column].tolist() == [9.5, 5.5, 0.5, 0.5]


def test_facing_input_and_culling(tmp_path):
    front = quad(0.0, x=(-1, 0))
    back = "v 0 -1 0\nv 1 -1 0\nv 1 1 0\nv 0 1 0\nf 5 8 7 6\n"  # clockwise
    mesh = obj(tmp_path, front + back)
    left, right = np.s_[:, : WIDTH // 2], np.s_[:, WIDTH // 2:]
    both = draw(MVP, fragment_move("SSA"), mesh, width=WIDTH, height=HEIGHT, constants=matrix_constants())
    assert np.all(both.color[left] == 1.0) and np.all(both.color[right] == -1.0)
    culled = draw(MVP, fragment_move("SSA"), mesh, width=WIDTH, height=HEIGHT, constants=matrix_constants(),
                  cull="back")
    assert culled.coverage[left].all() and not culled.coverage[right].any()
    culled = draw(MVP, fragment_move("SSA"), mesh, width=WIDTH, height=HEIGHT, constants=matrix_constants(),
                  cull="front")
    assert not culled.coverage[left].any() and culled.coverage[right].all()


def test_back_faces_take_the_back_colour_when_the_program_writes_it(tmp_path):
    # MOV o[3], v[8]: the back diffuse colour is the texture coordinate (u, v, 0, 1).
    two_sided = vertex_program((3, 8))
    mesh = obj(tmp_path, quad(0.0, (1, 0, 1), x=(-1, 0)) + quad(0.0, (1, 0, 1), x=(1, 0), first=5))
    frame = draw(two_sided, golden("fp_mov_color"), mesh, width=WIDTH, height=HEIGHT, constants=matrix_constants())
    assert np.all(frame.color[:, : WIDTH // 2] == [1, 0, 1, 1])  # front: o[1]
    across, up = pixel_centres()
    # The mirrored quad runs u from 0 at x = 1 to 1 at x = 0 (its corner 1 is at x = 1).
    expected_u, expected_v = 2 - 2 * across, up
    back = np.s_[:, WIDTH // 2:]
    np.testing.assert_allclose(frame.color[back][..., 0], expected_u[back], atol=TOLERANCE)
    np.testing.assert_allclose(frame.color[back][..., 1], expected_v[back], atol=TOLERANCE)
    # Without o[3] written, back faces use the front colour.
    one_sided = draw(MVP, golden("fp_mov_color"), mesh, width=WIDTH, height=HEIGHT, constants=matrix_constants())
    assert np.all(one_sided.color == [1, 0, 1, 1])


def derivative_program(opcode: int) -> Program:
    """``DDX``/``DDY R0.xy, f[TEX0]`` (only x and y: spec 3.7)."""
    instruction = changed(FRAGMENT_MOVE, input=FP_INPUT["TEX0"], opcode_low=opcode, mask=0b0011)
    return program(ProgramKind.FRAGMENT, [instruction])


def test_derivatives_see_the_triangle_beyond_its_edges(tmp_path, monkeypatch):
    # u = x / 2 + ..., v = y / 2 + ...: per pixel du/dx = 1/W and dv/dy = 1/H on every covered
    # pixel, also in quads that straddle the diagonal or the edges of a triangle.
    width, height = 14, 10
    mesh = obj(tmp_path, quad(0.0, x=(-0.8, 0.9), y=(-0.7, 1.0), uv=((0, 0), (0.85, 0), (0.85, 0.85), (0, 0.85))))
    for opcode, lane, step in ((0x15, 0, 0.85 / (1.7 * width / 2)), (0x16, 1, 0.85 / (1.7 * height / 2))):
        frame = draw(TEXTURED, derivative_program(opcode), mesh, width=width, height=height,
                     constants=matrix_constants())
        assert frame.coverage.sum() > 80
        np.testing.assert_allclose(frame.color[frame.coverage][:, lane], step, rtol=1e-4)
        np.testing.assert_allclose(frame.color[frame.coverage][:, 1 - lane], 0.0, atol=1e-6)
        # Packing tiles into tiny batches and bands moves them around the grids, and drawing
        # the frame in bands of two rows cuts every tile: same frame.
        monkeypatch.setattr(pipeline, "BATCH_LANES", 24)
        monkeypatch.setattr(pipeline, "BAND_ROWS", 2)
        monkeypatch.setattr(raster, "BAND_PIXELS", 2 * width)
        repacked = draw(TEXTURED, derivative_program(opcode), mesh, width=width, height=height,
                        constants=matrix_constants())
        monkeypatch.undo()
        np.testing.assert_array_equal(repacked.color, frame.color)


@pytest.mark.parametrize("opcode", [0x15, 0x16])
def test_a_fullscreen_run_in_bands_equals_one_run(monkeypatch, opcode):
    width, height = 10, 9  # an odd height: the last row pairs with the one below for DDY
    program = derivative_program(opcode)
    whole = fragment_image(run_fragment_program(program, fullscreen_inputs(width, height), grid=(height, width)),
                           width, height)
    monkeypatch.setattr(raster, "BAND_PIXELS", 2 * width)
    banded, killed = run_fullscreen(program, width, height)
    assert len(raster.row_bands(width, height)) == 4
    np.testing.assert_array_equal(banded, whole)
    assert not killed.any()
    # DDX of TEX0.x = x/W is 1/W everywhere, DDY of TEX0.y = y/H is 1/H, in every band.
    expected = 1 / width if opcode == 0x15 else 1 / height
    np.testing.assert_allclose(banded[..., 0 if opcode == 0x15 else 1], expected, rtol=1e-5)


# --------------------------------------------------------------------------- arguments and speed


def test_bad_arguments_are_input_errors(tmp_path):
    mesh = obj(tmp_path, quad(0.0))
    fragment = golden("fp_mov_color")
    with pytest.raises(InputError, match="vertex program"):
        draw(fragment, fragment, mesh, width=4, height=4, constants=matrix_constants())
    with pytest.raises(InputError, match="fragment program"):
        draw(MVP, MVP, mesh, width=4, height=4, constants=matrix_constants())
    with pytest.raises(InputError, match="cull"):
        draw(MVP, fragment, mesh, width=4, height=4, constants=matrix_constants(), cull="sideways")
    with pytest.raises(InputError, match="constants"):
        draw(MVP, fragment, mesh, width=4, height=4, constants=np.zeros((468, 3)))
    with pytest.raises(InputError, match="clear colour"):
        draw(MVP, fragment, mesh, width=4, height=4, constants=matrix_constants(), clear=(1, 2))
    with pytest.raises(InputError, match="clear colour"):
        draw(MVP, fragment, mesh, width=4, height=4, constants=matrix_constants(), clear="red")
    with pytest.raises(InputError, match="frame size"):
        draw(MVP, fragment, mesh, width=0, height=4, constants=matrix_constants())


def sphere_obj(slices: int, stacks: int) -> str:
    lines = []
    for stack in range(stacks + 1):
        polar = np.pi * stack / stacks
        for index in range(slices):
            azimuth = 2 * np.pi * index / slices
            lines.append(f"v {np.sin(polar) * np.cos(azimuth)} {np.cos(polar)} {np.sin(polar) * np.sin(azimuth)}")
            lines.append(f"vt {index / slices} {stack / stacks}")
    for stack in range(stacks):
        for index in range(slices):
            a = stack * slices + index + 1
            b = stack * slices + (index + 1) % slices + 1
            c, d = a + slices, b + slices
            lines.append(f"f {a}/{a} {c}/{c} {d}/{d} {b}/{b}")
    return "\n".join(lines) + "\n"


def test_a_500_triangle_sphere_at_256x256_covers_its_disc_band_by_band_as_in_one_piece(tmp_path, monkeypatch):
    # 24 x 11 quads = 528 triangles; fp_scalar_ops then fp_nrm: 11 instructions, 7 literals.
    # (Its speed is measured by `shaderkit bench -m rsx`, not here.)
    mesh = obj(tmp_path, sphere_obj(24, 11))
    assert mesh.triangle_count == 528
    eleven = program(ProgramKind.FRAGMENT,
                     list(golden("fp_scalar_ops").instructions) + list(golden("fp_nrm").instructions))
    assert len(eleven.instructions) == 11
    constants = matrix_constants(np.diag([0.9, 0.9, 0.5, 1.0]))
    frame = draw(TEXTURED, eleven, mesh, width=256, height=256, constants=constants)
    # The silhouette is a disc of radius 0.9 * 128 pixels (a polygon inscribed in it).
    area = frame.coverage.sum()
    assert 0.95 * np.pi * (0.9 * 128) ** 2 < area < np.pi * (0.9 * 128) ** 2
    monkeypatch.setattr(raster, "BAND_PIXELS", 256 * 6)  # 43 bands, cutting most triangles
    banded = draw(TEXTURED, eleven, mesh, width=256, height=256, constants=constants)
    for name in ("color", "depth", "coverage"):
        np.testing.assert_array_equal(getattr(banded, name), getattr(frame, name))
