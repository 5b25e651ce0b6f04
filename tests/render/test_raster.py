"""Tests for shaderkit.render.raster: coverage and fill rule, interpolation, clipping, facing, degenerates."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.diagnostics import InputError
from shaderkit.render.raster import rasterize, rasterize_in_bands, row_bands, sample_triangles


def clip_from_window(points, width, height, z=0.0, w=1.0):
    """Clip positions (T, 3, 4) of triangles given by window x, y per vertex (w = 1 unless given)."""
    points = np.asarray(points, dtype=np.float64)
    clip = np.empty(points.shape[:-1] + (4,))
    clip[..., 0] = (points[..., 0] / width * 2 - 1) * w
    clip[..., 1] = (points[..., 1] / height * 2 - 1) * w
    clip[..., 2] = z * w
    clip[..., 3] = w
    return clip


def coverage_count(fragments, width, height):
    count = np.zeros((height, width), dtype=int)
    np.add.at(count, (fragments.y, fragments.x), 1)
    return count


def full_screen_pair(width, height):
    return clip_from_window([[(0, 0), (width, 0), (width, height)], [(0, 0), (width, height), (0, height)]],
                            width, height)


@pytest.mark.parametrize("width, height", [(1, 1), (8, 6), (13, 7), (64, 64)])
def test_full_screen_pair_covers_every_pixel_exactly_once(width, height):
    fragments = rasterize(full_screen_pair(width, height), width, height)
    assert np.all(coverage_count(fragments, width, height) == 1)
    assert fragments.front.all()


@st.composite
def jittered_grids(draw):
    """A triangulated grid whose vertices sit on half-pixel steps: many pixel centres lie on edges."""
    columns, rows = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    cell = 8
    jitter = st.integers(-3, 3)
    points = np.zeros((rows + 1, columns + 1, 2))
    for j in range(rows + 1):
        for i in range(columns + 1):
            dx = draw(jitter) if 0 < i < columns else 0
            dy = draw(jitter) if 0 < j < rows else 0
            points[j, i] = (i * cell + dx * 0.5, j * cell + dy * 0.5)
    triangles = []
    for j in range(rows):
        for i in range(columns):
            a, b, c, d = points[j, i], points[j, i + 1], points[j + 1, i + 1], points[j + 1, i]
            if draw(st.booleans()):
                triangles += [(a, b, c), (a, c, d)]
            else:
                triangles += [(a, b, d), (b, c, d)]
    order = draw(st.permutations(range(len(triangles))))
    return [triangles[k] for k in order], columns * cell, rows * cell


@settings(max_examples=60, deadline=None)
@given(jittered_grids())
def test_any_tiling_covers_every_pixel_exactly_once(grid):
    triangles, width, height = grid
    fragments = rasterize(clip_from_window(triangles, width, height), width, height)
    assert np.all(coverage_count(fragments, width, height) == 1)


def test_top_left_rule_gives_shared_edges_to_the_right_and_lower_triangle():
    # A vertical edge at x = 2.5 and a horizontal one at y = 2.5 run through pixel centres.
    width = height = 6
    left = [(0, 0), (2.5, 0), (2.5, 6)]
    right = [(2.5, 0), (6, 0), (2.5, 6)]
    fragments = rasterize(clip_from_window([left, right], width, height), width, height)
    on_edge = fragments.x == 2
    assert on_edge.any() and np.all(fragments.triangle[on_edge] == 1)  # a left edge of the right one
    below = [(0, 0), (6, 0), (6, 2.5)]
    above = [(0, 0), (6, 2.5), (0, 2.5)]
    upper = [(0, 2.5), (6, 2.5), (0, 6)]
    fragments = rasterize(clip_from_window([below, above, upper], width, height), width, height)
    on_edge = fragments.y == 2
    # Row 2 is on the top edge of triangle 1 (and the bottom edge of triangle 2).
    assert on_edge.any() and set(fragments.triangle[on_edge].tolist()) == {1}


def reference_coverage(window_points, width, height):
    """Brute force: every pixel centre tested with exact integer edge functions and the same rule."""
    snapped = [[(round(x * 256), round(y * 256)) for x, y in triangle] for triangle in window_points]
    covered = set()
    for index, triangle in enumerate(snapped):
        (x0, y0), (x1, y1), (x2, y2) = triangle
        area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
        if area == 0:
            continue
        if area < 0:
            triangle = [triangle[0], triangle[2], triangle[1]]
        for row in range(height):
            for column in range(width):
                cx, cy = column * 256 + 128, row * 256 + 128
                inside = True
                for k in range(3):
                    (ax, ay), (bx, by) = triangle[k], triangle[(k + 1) % 3]
                    edge = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
                    owns = by - ay < 0 or (by == ay and bx < ax)
                    inside &= edge > 0 or (edge == 0 and owns)
                if inside:
                    covered.add((index, column, row))
    return covered


# Window coordinates inside the 16 x 12 frame (so nothing is clipped), on a grid finer than a
# pixel but coarser than the snapping, with pixel centres among them.
window_point = st.tuples(st.integers(0, 64 * 3).map(lambda n: n / 12), st.integers(0, 48 * 3).map(lambda n: n / 12))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(window_point, window_point, window_point), min_size=1, max_size=4))
def test_row_spans_match_a_per_pixel_edge_test(points):
    width, height = 16, 12
    fragments = rasterize(clip_from_window(points, width, height), width, height)
    got = set(zip(fragments.triangle.tolist(), fragments.x.tolist(), fragments.y.tolist()))
    assert got == reference_coverage(points, width, height)
    assert len(got) == len(fragments)
    assert np.all(np.diff(fragments.triangle) >= 0)  # grouped in input order


def test_affine_interpolation_is_exact_at_pixel_centres():
    width, height = 20, 16
    points = np.array([[(1.0, 2.0), (18.0, 3.0), (6.0, 15.0)]])
    fragments = rasterize(clip_from_window(points, width, height, z=0.25), width, height)
    assert len(fragments) > 50
    # An affine attribute: its vertex values, interpolated, must equal it at every pixel centre.
    def attribute(x, y):
        return 0.5 * x - 2.0 * y + 3.0

    vertex_values = attribute(points[0, :, 0], points[0, :, 1])
    interpolated = fragments.barycentric @ vertex_values
    np.testing.assert_allclose(interpolated, attribute(fragments.x + 0.5, fragments.y + 0.5), rtol=0, atol=1e-12)
    np.testing.assert_allclose(fragments.barycentric.sum(axis=1), 1.0, atol=1e-15)
    np.testing.assert_allclose(fragments.depth, 0.625)  # (0.25 + 1) / 2
    np.testing.assert_allclose(fragments.inverse_w, 1.0)


def perspective(fov_y_degrees, aspect, near, far):
    f = 1.0 / np.tan(np.radians(fov_y_degrees) / 2)
    return np.array([
        [f / aspect, 0, 0, 0],
        [0, f, 0, 0],
        [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)],
        [0, 0, -1, 0],
    ])


def test_perspective_correct_interpolation_matches_ray_casting():
    width, height = 48, 40
    projection = perspective(60.0, width / height, 0.5, 50.0)
    # A quad tilted away from the camera: u runs along x, v along the receding direction.
    corners = np.array([[-1.5, -1.0, -2.0], [1.5, -1.0, -2.0], [1.5, 0.8, -7.0], [-1.5, 0.8, -7.0]])
    uv = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float64)
    triangles = [[0, 1, 2], [0, 2, 3]]
    clip = np.hstack([corners, np.ones((4, 1))]) @ projection.T
    fragments = rasterize(clip[triangles], width, height)
    assert len(fragments) > 200
    interpolated = np.einsum("fi,fik->fk", fragments.barycentric, uv[triangles][fragments.triangle])

    # Reference: the eye ray through each pixel centre meets the quad's plane at a point whose
    # (u, v) follows from the quad's parametrisation P = c0 + u (c1 - c0) + v (c3 - c0).
    inverse = np.linalg.inv(projection)
    ndc = np.stack([2 * (fragments.x + 0.5) / width - 1, 2 * (fragments.y + 0.5) / height - 1,
                    np.full(len(fragments), -1.0), np.ones(len(fragments))], axis=1)
    direction = (ndc @ inverse.T)
    direction = direction[:, :3] / direction[:, 3:4]
    edge_u, edge_v = corners[1] - corners[0], corners[3] - corners[0]
    # Solve t·d = c0 + u·eu + v·ev for (t, u, v) per pixel.
    systems = np.stack([np.broadcast_to(-edge_u, direction.shape), np.broadcast_to(-edge_v, direction.shape),
                        direction], axis=2)
    solution = np.linalg.solve(systems, np.broadcast_to(corners[0], direction.shape)[..., None])[..., 0]
    np.testing.assert_allclose(interpolated, solution[:, :2], rtol=0, atol=1e-9)
    # Window depth is the projected depth of the hit point.
    hit = direction * solution[:, 2:3]
    hit_clip = np.hstack([hit, np.ones((len(hit), 1))]) @ projection.T
    np.testing.assert_allclose(fragments.depth, hit_clip[:, 2] / hit_clip[:, 3] * 0.5 + 0.5, atol=1e-12)
    np.testing.assert_allclose(fragments.inverse_w, 1 / hit_clip[:, 3], rtol=1e-12)
    # The test has teeth: v is far from affine in window coordinates on this quad.
    first = fragments.triangle == 0
    screen = np.stack([np.ones(first.sum()), fragments.x[first], fragments.y[first]], axis=1)
    fit = np.linalg.lstsq(screen, solution[first, 1], rcond=None)[0]
    assert np.abs(screen @ fit - solution[first, 1]).max() > 0.02


def test_near_plane_clipping_keeps_exactly_the_visible_part():
    width, height = 40, 40
    near = 1.0
    projection = perspective(90.0, 1.0, near, 100.0)
    # A floor triangle running from behind the camera to far in front of it.
    corners = np.array([[-3.0, -1.0, 4.0], [3.0, -1.0, 4.0], [0.0, -1.0, -30.0]])
    clip = np.hstack([corners, np.ones((3, 1))]) @ projection.T
    assert clip[0, 3] < 0 and clip[2, 3] > 0  # the triangle crosses the eye plane
    fragments = rasterize(clip[None], width, height)
    assert len(fragments) > 100
    assert np.all((fragments.depth >= 0) & (fragments.depth <= 1))

    # Reference: pixel centres whose eye ray meets the triangle at least `near` in front.
    pixels_y, pixels_x = np.mgrid[0:height, 0:width]
    ndc_x = 2 * (pixels_x + 0.5) / width - 1
    ndc_y = 2 * (pixels_y + 0.5) / height - 1
    # With a 90 degree square frustum the ray through (ndc_x, ndc_y) is (ndc_x, ndc_y, -1).
    with np.errstate(divide="ignore", invalid="ignore"):
        t = -1.0 / ndc_y  # reaches the floor y = -1
    hit_x, hit_z = ndc_x * t, -t
    # Inside the triangle (in the floor plane, x/z coordinates) and in front of the near plane.
    a, b, c = corners[:, [0, 2]]

    def side(p, q, x, z):
        return (q[0] - p[0]) * (z - p[1]) - (q[1] - p[1]) * (x - p[0])

    sides = np.stack([side(a, b, hit_x, hit_z), side(b, c, hit_x, hit_z), side(c, a, hit_x, hit_z)])
    margin = 1e-6
    visible = (t > near) & (np.all(sides > margin, axis=0) | np.all(sides < -margin, axis=0))
    uncertain = (np.abs(t - near) < margin) | np.any(np.abs(sides) <= margin, axis=0)
    covered = coverage_count(fragments, width, height) == 1
    assert np.array_equal(covered[~uncertain], visible[~uncertain])
    assert visible.sum() > 100


def test_triangles_outside_the_frustum_or_behind_the_eye_produce_nothing():
    width = height = 8
    inside = clip_from_window([[(1, 1), (7, 1), (4, 7)]], width, height)[0]
    beyond_right = inside.copy()
    beyond_right[:, 0] += 3.0
    behind = inside * -1.0  # w < 0 everywhere
    beyond_far = inside.copy()
    beyond_far[:, 2] = 2.0
    fragments = rasterize(np.stack([beyond_right, behind, beyond_far]), width, height)
    assert len(fragments) == 0


def test_facing_is_counter_clockwise_in_window_space():
    width = height = 8
    ccw = [(1, 1), (7, 1), (4, 7)]
    cw = [(1, 1), (4, 7), (7, 1)]
    fragments = rasterize(clip_from_window([ccw, cw], width, height), width, height)
    front = fragments.front[fragments.triangle == 0]
    back = fragments.front[fragments.triangle == 1]
    assert len(front) == len(back) > 0
    assert front.all() and not back.any()
    # Same pixels, and each vertex's weight follows that vertex, whatever the winding.
    first = fragments.barycentric[fragments.triangle == 0]
    second = fragments.barycentric[fragments.triangle == 1]
    np.testing.assert_allclose(second, first[:, [0, 2, 1]], atol=1e-12)


def test_clipping_keeps_facing():
    # Mirror a triangle that crosses the left frustum plane: facing flips, coverage mirrors.
    width = height = 16
    triangle = clip_from_window([[(-10, 2), (12, 3), (5, 14)]], width, height)
    mirrored = triangle.copy()
    mirrored[..., 0] *= -1
    a = rasterize(triangle, width, height)
    b = rasterize(mirrored, width, height)
    assert a.front.all() and not b.front.any()
    assert len(a) > 0 and abs(len(a) - len(b)) <= 16  # tie pixels may move to the other side


@pytest.mark.parametrize(
    "points",
    [
        [(1, 1), (1, 1), (1, 1)],  # a point
        [(1, 1), (4, 4), (7, 7)],  # collinear
        [(1, 1), (7, 1), (4, 1.001)],  # flat after snapping to 1/256 pixel
        [(1.2, 1.2), (1.4, 1.2), (1.3, 1.4)],  # covers no pixel centre
    ],
)
def test_degenerate_triangles_produce_nothing(points):
    assert len(rasterize(clip_from_window([points], 8, 8), 8, 8)) == 0


def test_non_finite_positions_produce_nothing():
    clip = clip_from_window([[(1, 1), (7, 1), (4, 7)]], 8, 8)
    clip[0, 1, 0] = np.nan
    assert len(rasterize(clip, 8, 8)) == 0


def test_sample_triangles_extrapolates_beyond_coverage():
    width, height = 10, 10
    points = np.array([[(2.0, 2.0), (6.0, 2.0), (2.0, 6.0)]])
    samples = sample_triangles(clip_from_window(points, width, height), np.zeros(2, dtype=int),
                               np.array([8, 0]), np.array([8, 9]), width, height)
    # Vertex 1's weight is (x - 2) / 4 and vertex 2's is (y - 2) / 4 at the centre (x, y), outside too.
    np.testing.assert_allclose(samples.barycentric, [[-2.25, 1.625, 1.625], [-0.5, -0.375, 1.875]], atol=1e-15)


def test_empty_batch_and_bad_arguments():
    assert len(rasterize(np.zeros((0, 3, 4)), 4, 4)) == 0
    with pytest.raises(InputError, match="shape"):
        rasterize(np.zeros((2, 3)), 4, 4)
    with pytest.raises(InputError, match="numbers"):
        rasterize([[["a"] * 4] * 3], 4, 4)
    with pytest.raises(InputError, match="frame size"):
        rasterize(np.zeros((1, 3, 4)), 0, 4)


def test_large_batches_are_split_without_changing_the_result(monkeypatch):
    import shaderkit.render.raster as raster

    rng = np.random.default_rng(7)
    clip = rng.normal(size=(40, 3, 4))
    clip[..., 3] = np.abs(clip[..., 3]) + 0.3
    whole = rasterize(clip, 32, 32)
    monkeypatch.setattr(raster, "CHUNK_PIXELS", 50)
    split = rasterize(clip, 32, 32)
    for name in ("x", "y", "triangle", "front", "barycentric", "depth"):
        np.testing.assert_array_equal(getattr(whole, name), getattr(split, name))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), width=st.integers(1, 40), height=st.integers(1, 40),
       band_pixels=st.integers(1, 400))
def test_bands_are_the_frame_in_pieces(seed, width, height, band_pixels):
    rng = np.random.default_rng(seed)
    clip = rng.normal(size=(12, 3, 4))
    clip[..., 3] = np.abs(clip[..., 3]) + 0.2
    whole = rasterize(clip, width, height)
    bands = list(rasterize_in_bands(clip, width, height, band_pixels=band_pixels))
    rows = [band for band, _ in bands]
    assert [row for band in rows for row in band] == list(range(height))
    assert all(band.start % 2 == 0 and (len(band) % 2 == 0 or band.stop == height) for band in rows)
    assert len(rows[-1]) > 1 or height == 1
    for band, fragments in bands:
        assert np.isin(fragments.y, list(band)).all()
    # Per band the fragments keep the frame's order (triangle by triangle), so the union
    # ordered by triangle, then row, is the frame's list.
    pieces = [fragments for _, fragments in bands]
    joined = {name: np.concatenate([getattr(piece, name) for piece in pieces])
              for name in ("x", "y", "triangle", "front", "barycentric", "depth")}
    order = np.lexsort((joined["x"], joined["y"], joined["triangle"]))
    reference = np.lexsort((whole.x, whole.y, whole.triangle))
    for name, values in joined.items():
        np.testing.assert_array_equal(values[order], getattr(whole, name)[reference])


def test_row_bands_are_even_and_cover_the_frame():
    assert row_bands(4096, 4096, 1 << 18) == [range(start, start + 64) for start in range(0, 4096, 64)]
    assert row_bands(10, 6, 20) == [range(0, 2), range(2, 4), range(4, 6)]
    assert row_bands(10, 5, 20) == [range(0, 2), range(2, 5)]  # no band of one row
    assert row_bands(10, 5, 50) == [range(0, 5)]
    assert row_bands(1000, 3, 1) == [range(0, 3)]
    assert row_bands(1, 1, 1) == [range(0, 1)]
