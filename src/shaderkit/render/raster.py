"""Triangle rasterisation: clip-space triangles in, covered pixels with interpolation weights out.

This module owns the fixed-function part between a vertex stage and a fragment stage, with
OpenGL's conventions, for a viewport covering the whole ``width`` × ``height`` frame:

* **Clipping** happens in homogeneous clip space against the six frustum planes
  ``-w <= x, y, z <= w`` (Sutherland–Hodgman on each triangle that crosses a plane; a triangle
  entirely inside passes untouched, one entirely outside some plane is dropped). Clipping x and
  y as well as z keeps every window coordinate inside the frame, so the fixed-point edge
  functions below stay small and exact. An intersection is always computed from the edge's
  inside end towards its outside end, so two triangles that share an edge clip it to exactly the
  same points. Clipped polygons are fan-triangulated.
* **Viewport**: window x = (x/w + 1)·width/2, y = (y/w + 1)·height/2 (y up: row 0 is the
  bottom), depth = (z/w + 1)/2 in [0, 1]. Pixel (i, j) is sampled at its centre (i + ½, j + ½).
* **Coverage** uses edge functions on window coordinates snapped to 1/256 pixel (8 sub-pixel
  bits, as fixed-function hardware does), evaluated exactly in 64-bit integers. A pixel centre
  on an edge belongs to the triangle for which that edge is a *left* edge or a *top* edge (the
  top-left rule, read in the y-up frame), so triangles sharing an edge cover each pixel of it
  exactly once. Triangles whose snapped area is zero produce nothing.
* **Facing**: front = counter-clockwise in window space (GL's default front face).
* **Interpolation** is perspective-correct and done by weights: for each fragment the
  barycentric weights of the *original* triangle's three vertices at the pixel centre, so a
  caller interpolates any number of per-vertex values with one weighted sum. The weights come
  from the triangle's clip-space vertices directly (2D homogeneous form: they are proportional
  to an affine function of the pixel position), which also makes them available at pixels the
  triangle does not cover, as derivative helpers need (:func:`sample_triangles`).

Everything is vectorised over triangles and pixels with NumPy; work is split into chunks so a
batch of large triangles does not allocate one huge array. This module knows no instruction set.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shaderkit.core.diagnostics import InputError

__all__ = ["Fragments", "TriangleSamples", "rasterize", "rasterize_in_bands", "row_bands", "sample_triangles"]

SUBPIXEL_BITS = 8
SUBPIXEL_SCALE = 1 << SUBPIXEL_BITS
HALF_PIXEL = SUBPIXEL_SCALE // 2
# Inside when plane · (x, y, z, w) >= 0.
CLIP_PLANES = np.array(
    [
        [1.0, 0.0, 0.0, 1.0],  # x >= -w
        [-1.0, 0.0, 0.0, 1.0],  # x <= w
        [0.0, 1.0, 0.0, 1.0],  # y >= -w
        [0.0, -1.0, 0.0, 1.0],  # y <= w
        [0.0, 0.0, 1.0, 1.0],  # z >= -w (near)
        [0.0, 0.0, -1.0, 1.0],  # z <= w (far)
    ]
)
# A convex polygon gains at most one vertex per clipping plane.
MAX_POLYGON_VERTICES = 3 + len(CLIP_PLANES)
# Candidate pixels tested at once; bounds the temporary arrays of one chunk.
CHUNK_PIXELS = 1 << 21
# Pixels per band of rows in :func:`rasterize_in_bands` and :func:`row_bands`: a frame of 4096x4096 with the RSX
# emulator's inputs and registers per fragment needed about 2 GiB in one piece; 512x512
# pictures stay one band.
BAND_PIXELS = 1 << 18
MAX_FRAME_SIDE = 1 << 15  # keeps the snapped edge-function products far inside 64 bits


@dataclass(frozen=True, eq=False)
class TriangleSamples:
    """Perspective-correct interpolation weights (and what follows from them) at pixel centres."""

    barycentric: np.ndarray  # (N, 3) float64 weights of the triangle's vertices 0, 1, 2
    depth: np.ndarray  # (N,) float64 window z: (z/w + 1)/2 of the interpolated clip position
    inverse_w: np.ndarray  # (N,) float64 1 / w of the interpolated clip position


@dataclass(frozen=True, eq=False)
class Fragments:
    """The covered pixels of a batch of triangles, grouped by triangle in input order."""

    x: np.ndarray  # (F,) int32 column, 0 = left
    y: np.ndarray  # (F,) int32 row, 0 = bottom
    triangle: np.ndarray  # (F,) int64 index of the input triangle
    samples: TriangleSamples
    front: np.ndarray  # (F,) bool, counter-clockwise in window space

    def __len__(self) -> int:
        return len(self.x)

    @property
    def barycentric(self) -> np.ndarray:
        return self.samples.barycentric

    @property
    def depth(self) -> np.ndarray:
        return self.samples.depth

    @property
    def inverse_w(self) -> np.ndarray:
        return self.samples.inverse_w


def rasterize(clip_positions: np.ndarray, width: int, height: int) -> Fragments:
    """Clip, set up and scan-convert ``clip_positions`` (T, 3, 4) = (x, y, z, w) per vertex."""
    _check_frame(width, height)
    return next(rasterize_in_bands(clip_positions, width, height, band_pixels=width * height))[1]


def rasterize_in_bands(clip_positions: np.ndarray, width: int, height: int, *, band_pixels: int | None = None):
    """:func:`rasterize` one band of rows at a time: yields ``(rows, fragments)`` per band, the
    fragments of the pixels in ``rows`` (a ``range``) in the order :func:`rasterize` gives them.

    Memory then grows with a band's fragments, not the frame's: a band has an even number of
    rows, about ``band_pixels`` pixels (default :data:`BAND_PIXELS`), and starts at an even
    row, so 2×2 pixel quads never straddle two bands. Triangles are clipped and set up once.
    """
    clip = _check_triangles(clip_positions)
    _check_frame(width, height)
    setup = _Setup(*_clip(_to_order_one(clip)[0]), width, height)
    for rows in row_bands(width, height, band_pixels):
        xs, ys, owners, front = setup.cover(rows)
        yield rows, Fragments(xs, ys, owners, sample_triangles(clip, owners, xs, ys, width, height), front)


def row_bands(width: int, height: int, band_pixels: int | None = None) -> list[range]:
    """The frame's rows cut into bands of an even number of rows and at most about
    ``band_pixels`` pixels each (default :data:`BAND_PIXELS`; at least two rows a band).

    An odd last row joins the band before it: in a frame of odd height the last row's
    derivatives pair it with the row below (:func:`~shaderkit.isa.rsx.semantics.i_DDY` for
    one), which must then be in the same run.
    """
    if band_pixels is None:
        band_pixels = BAND_PIXELS
    rows = max(2, band_pixels // width // 2 * 2)
    if rows >= height:
        return [range(height)]
    starts = list(range(0, height - 1, rows))
    return [range(start, stop) for start, stop in zip(starts, starts[1:] + [height])]


def sample_triangles(
    clip_positions: np.ndarray, triangle: np.ndarray, x: np.ndarray, y: np.ndarray, width: int, height: int
) -> TriangleSamples:
    """Weights of triangle ``triangle[n]`` at the centre of pixel (``x[n]``, ``y[n]``).

    Valid for any pixel whose view ray meets the triangle's plane in front of the eye, covered
    or not. Along a ray parallel to the plane the results are not finite.
    """
    clip, scale = _to_order_one(np.asarray(clip_positions, dtype=np.float64))
    planes = _interpolation_planes(clip)
    triangle = np.asarray(triangle, dtype=np.int64)
    ndc_x = 2.0 * (np.asarray(x, dtype=np.float64) + 0.5) / width - 1.0
    ndc_y = 2.0 * (np.asarray(y, dtype=np.float64) + 0.5) / height - 1.0
    weights, total, clip_z, clip_w = _evaluate_planes(planes, triangle, ndc_x, ndc_y)
    # Near a ray parallel to the plane these are (rightly) huge or not finite: no warning.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        barycentric = weights / total[:, None]
        depth = 0.5 * clip_z / clip_w + 0.5
        # Scaling a triangle's clip positions by s scales this by 1/s; undo it.
        inverse_w = total / clip_w * scale[triangle]
    return TriangleSamples(barycentric, depth, inverse_w)


# A triangle with a non-finite coordinate has no place on the screen: it is replaced by this
# one, outside every clip plane (w < 0), so it is dropped like any triangle out of view.
_OUT_OF_VIEW = np.array([0.0, 0.0, 0.0, -1.0])


def _to_order_one(clip: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each triangle's clip positions scaled by a power of two so their largest magnitude is
    below 1, and the scales (T,).

    Homogeneous coordinates mean the same point when scaled, and clipping, projection and
    the barycentric weights are unchanged by one positive factor for a whole triangle. A power
    of two is exact, so ordinary triangles give bit-identical results, while coordinates near
    the float maximum no longer overflow in the products below (NumPy would warn on stderr).
    """
    finite = np.isfinite(clip).all(axis=(1, 2))
    clip = np.where(finite[:, None, None], clip, _OUT_OF_VIEW)
    largest = np.abs(clip).max(axis=(1, 2), initial=0.0)
    scale = np.ldexp(1.0, -np.frexp(largest)[1])
    return clip * scale[:, None, None], scale


def _interpolation_planes(clip: np.ndarray) -> np.ndarray:
    """Per triangle, six affine functions of the pixel's NDC position: (T, 6, [1, x, y]).

    The point Σ bᵢVᵢ projects to (ndc_x, ndc_y) when b is orthogonal to both X − ndc_x·W and
    Y − ndc_y·W (X, Y, W = the vertices' clip x, y, w), i.e. b ∝ their cross product, which
    expands to the affine b = X×Y + ndc_x·(Y×W) + ndc_y·(W×X). Rows 0–2 are b, row 3 is Σb
    (normalises b), rows 4 and 5 are Σbᵢzᵢ and Σbᵢwᵢ (the interpolated clip z and w, times Σb).
    """
    xs, ys, zs, ws = (clip[:, :, lane] for lane in range(4))
    weights = np.stack([np.cross(xs, ys), np.cross(ys, ws), np.cross(ws, xs)], axis=2)  # (T, vertex, term)
    planes = np.empty((len(clip), 6, 3))
    planes[:, 0:3] = weights
    planes[:, 3] = weights.sum(axis=1)
    planes[:, 4] = np.einsum("tv,tvk->tk", zs, weights)
    planes[:, 5] = np.einsum("tv,tvk->tk", ws, weights)
    return planes


def _evaluate_planes(planes: np.ndarray, triangle: np.ndarray, ndc_x: np.ndarray, ndc_y: np.ndarray):
    values = np.empty((len(triangle), 6))
    for row in range(6):
        values[:, row] = planes[triangle, row, 0] + ndc_x * planes[triangle, row, 1] + ndc_y * planes[triangle, row, 2]
    return values[:, 0:3], values[:, 3], values[:, 4], values[:, 5]


def _check_triangles(clip_positions) -> np.ndarray:
    try:
        clip = np.asarray(clip_positions, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("clip positions must be numbers") from None
    if clip.ndim != 3 or clip.shape[1:] != (3, 4):
        raise InputError(f"clip positions must have shape (triangles, 3, 4), not {clip.shape}")
    return clip


def _check_frame(width, height) -> None:
    for value in (width, height):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= MAX_FRAME_SIDE:
            raise InputError(f"frame size {width}x{height} must be two whole numbers from 1 to {MAX_FRAME_SIDE}")


# --------------------------------------------------------------------------- clipping


def _clip(clip: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sub-triangles inside the frustum: clip positions (S, 3, 4) and parent indices (S,).

    Only coverage needs them: interpolation works on the parent triangle.
    """
    distances = clip @ CLIP_PLANES.T  # (T, 3 vertices, planes)
    with np.errstate(invalid="ignore"):
        inside = distances >= 0
    whole = inside.all(axis=(1, 2))
    rejected = (~inside).all(axis=1).any(axis=1)
    crossing = np.flatnonzero(~whole & ~rejected)
    kept = np.flatnonzero(whole)
    if not len(crossing):
        return clip[kept], kept
    positions, parents = _clip_polygons(clip[crossing], crossing)
    all_parents = np.concatenate([kept, parents])
    order = np.argsort(all_parents, kind="stable")
    return np.concatenate([clip[kept], positions])[order], all_parents[order]


def _clip_polygons(clip: np.ndarray, parents: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    count = len(clip)
    # Polygons as rows of vertices padded to MAX_POLYGON_VERTICES; ``sizes`` says how many count.
    polygon = np.zeros((count, MAX_POLYGON_VERTICES, 4))
    polygon[:, :3] = clip
    sizes = np.full(count, 3)
    slots = np.arange(MAX_POLYGON_VERTICES)
    rows = np.arange(count)[:, None]
    for plane in CLIP_PLANES:
        distance = polygon @ plane
        valid = slots < sizes[:, None]
        following = np.where(slots + 1 < sizes[:, None], slots + 1, 0)
        here_inside = distance >= 0
        next_inside = np.take_along_axis(here_inside, following, axis=1)
        keep_here = valid & here_inside
        crosses = valid & (here_inside != next_inside)
        # From the inside end towards the outside end, whichever way the edge is walked.
        near = np.where(here_inside, slots, following)
        far = np.where(here_inside, following, slots)
        near_distance = distance[rows, near]
        far_distance = distance[rows, far]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(crosses, near_distance / (near_distance - far_distance), 0.0)
        start, end = polygon[rows, near], polygon[rows, far]
        crossing_point = start + t[:, :, None] * (end - start)
        candidates = np.stack([polygon, crossing_point], axis=2).reshape(count, -1, 4)
        chosen = np.stack([keep_here, crosses], axis=2).reshape(count, -1)
        order = np.argsort(~chosen, axis=1, kind="stable")[:, :MAX_POLYGON_VERTICES]
        polygon = np.take_along_axis(candidates, order[:, :, None], axis=1)
        sizes = chosen.sum(axis=1)
    fans = [(polygon[:, [0, k, k + 1]], sizes > k + 1) for k in range(1, MAX_POLYGON_VERTICES - 1)]
    corners = np.concatenate([triangles[present] for triangles, present in fans])
    fan_parents = np.concatenate([parents[present] for _, present in fans])
    return corners, fan_parents


# --------------------------------------------------------------------------- coverage


def _snap_to_window(positions: np.ndarray, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """Window x and y of each vertex in 1/256 pixel units (int64)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ndc = positions[:, :, :2] / positions[:, :, 3:4]
    scale = np.array([width, height], dtype=np.float64) * 0.5 * SUBPIXEL_SCALE
    # Clipped vertices lie in [-1, 1] up to rounding; a clipped corner with a tiny w can round
    # far outside, past int64. Anything beyond ±2 is off the frame either way.
    ndc = np.clip(ndc, -2.0, 2.0)
    window = np.rint((ndc + 1.0) * scale)
    window = np.nan_to_num(window, nan=0.0, posinf=0.0, neginf=0.0)
    return window[:, :, 0].astype(np.int64), window[:, :, 1].astype(np.int64)


class _Setup:
    """Clipped sub-triangles snapped to the window and turned counter-clockwise, ready to be
    scan-converted one band of rows at a time."""

    def __init__(self, positions: np.ndarray, parents: np.ndarray, width: int, height: int):
        # A vertex at the eye (w <= 0 survives clipping only as x = y = z = w = 0) means the
        # triangle's plane contains the eye: it projects to a line and covers nothing.
        usable = (positions[:, :, 3] > 0).all(axis=1)
        positions, parents = positions[usable], parents[usable]
        xs, ys = _snap_to_window(positions, width, height)
        area = (xs[:, 1] - xs[:, 0]) * (ys[:, 2] - ys[:, 0]) - (xs[:, 2] - xs[:, 0]) * (ys[:, 1] - ys[:, 0])
        nondegenerate = area != 0
        xs, ys, area, parents = xs[nondegenerate], ys[nondegenerate], area[nondegenerate], parents[nondegenerate]
        front = area > 0
        # Make every triangle counter-clockwise so "inside" is "all edge functions positive".
        xs[~front] = xs[~front][:, [0, 2, 1]]
        ys[~front] = ys[~front][:, [0, 2, 1]]
        self.xs, self.ys, self.parents, self.front, self.width = xs, ys, parents, front, width
        # Rows whose pixel centres (256·j + 128) lie within the triangle's vertical extent.
        self.first_row = np.maximum(_ceil_div(ys.min(axis=1) - HALF_PIXEL, SUBPIXEL_SCALE), 0)
        self.last_row = np.minimum((ys.max(axis=1) - HALF_PIXEL) // SUBPIXEL_SCALE, height - 1)

    def cover(self, band: range):
        """Covered pixel centres in the rows of ``band``, grouped by sub-triangle (hence by parent)."""
        first_row = np.maximum(self.first_row, band.start)
        rows = np.maximum(np.minimum(self.last_row, band.stop - 1) - first_row + 1, 0)
        pieces = [_cover_rows(self.xs[chunk], self.ys[chunk], first_row[chunk], rows[chunk], chunk, self.width)
                  for chunk in _chunks(rows * self.width)]
        pixel_x = np.concatenate([np.zeros(0, dtype=np.int32)] + [piece[0] for piece in pieces])
        pixel_y = np.concatenate([np.zeros(0, dtype=np.int32)] + [piece[1] for piece in pieces])
        sub = np.concatenate([np.zeros(0, dtype=np.int64)] + [piece[2] for piece in pieces])
        return pixel_x, pixel_y, self.parents[sub], self.front[sub]


def _chunks(sizes: np.ndarray):
    """Consecutive index ranges whose sizes add up to about CHUNK_PIXELS."""
    totals = np.cumsum(sizes)
    start = 0
    while start < len(sizes):
        base = totals[start - 1] if start else 0
        stop = max(int(np.searchsorted(totals, base + CHUNK_PIXELS, side="right")), start + 1)
        yield np.arange(start, stop)
        start = stop


def _cover_rows(xs, ys, first_row, rows, indices, width):
    """Covered pixels, one span per (triangle, row): each edge bounds the row's centres exactly.

    Edge a→b of a counter-clockwise triangle has E(c) = dx·(cy − ay) − dy·(cx − ax), positive
    inside. In a row E is linear in cx, so E > 0 (E ≥ 0 for an edge that owns its ties under
    the top-left rule: a left edge runs downwards, a top edge runs exactly horizontally towards
    −x) is a half-line of cx, solved here in integers.
    """
    row_owner = np.repeat(np.arange(len(indices)), rows)
    row = first_row[row_owner] + np.arange(len(row_owner)) - np.repeat(np.cumsum(rows) - rows, rows)
    centre_y = row * SUBPIXEL_SCALE + HALF_PIXEL
    low = np.zeros(len(row_owner), dtype=np.int64)  # first covered column
    high = np.full(len(row_owner), width - 1, dtype=np.int64)  # last covered column
    for start, end in ((0, 1), (1, 2), (2, 0)):
        ax, ay = xs[row_owner, start], ys[row_owner, start]
        dx = xs[row_owner, end] - ax
        dy = ys[row_owner, end] - ay
        rise = dx * (centre_y - ay)  # E at cx = ax
        left = dy < 0  # E grows with cx: cx >= ax + ceil(-rise / -dy)
        right = dy > 0  # E falls with cx: cx <= ax + ceil(rise / dy) - 1
        flat = dy == 0  # E is constant along the row
        divisor = np.where(flat, 1, np.abs(dy))
        bound_left = ax + _ceil_div(-rise, divisor)
        bound_right = ax + _ceil_div(rise, divisor) - 1
        low = np.where(left, np.maximum(low, _ceil_div(bound_left - HALF_PIXEL, SUBPIXEL_SCALE)), low)
        high = np.where(right, np.minimum(high, (bound_right - HALF_PIXEL) // SUBPIXEL_SCALE), high)
        flat_inside = (rise > 0) | ((rise == 0) & (dx < 0))
        high = np.where(flat & ~flat_inside, -1, high)
    counts = np.maximum(high - low + 1, 0)
    span = np.repeat(np.arange(len(row_owner)), counts)
    column = low[span] + np.arange(len(span)) - np.repeat(np.cumsum(counts) - counts, counts)
    return column.astype(np.int32), row[span].astype(np.int32), indices[row_owner[span]]


def _ceil_div(numerator: np.ndarray, denominator: int) -> np.ndarray:
    return -((-numerator) // denominator)
