"""A small RSX graphics pipeline: mesh → vertex program → rasteriser → fragment program → depth test.

:func:`draw` renders one mesh into a fresh frame, the way a host would issue one draw call with
a cleared colour and depth buffer:

1. **Vertex stage.** The mesh's distinct corners (:meth:`~shaderkit.render.mesh.Mesh.vertices`)
   feed the vertex program once each: v0 = (x, y, z, 1), v2 = (normal, 0), v3 = (colour, 1)
   (white when the mesh has none), v8 = (u, v, 0, 1); other inputs read the machine's default
   (0, 0, 0, 1). ``constants`` is c[0..467], ``textures`` serve both TXL and the fragment
   texture ops, ``branch_bits`` is TRANSFORM_BRANCH_BITS (spec/rsx.md 2.10).
2. **Primitive stage.** o[0] is the clip-space position, taken with OpenGL conventions
   (:mod:`shaderkit.render.raster`: clip −w ≤ x, y, z ≤ w, depth = (z/w + 1)/2, window y up,
   front = counter-clockwise). A host feeding D3D-style z in [0, w] would remap it in the
   program. ``cull`` drops back or front faces.
3. **Fragment inputs** (spec 3.6, 2.10), all interpolated perspective-correctly:
   WPOS = (x + ½, y + ½, window depth, 1/w_clip); COL0 = o[1] and COL1 = o[2], except that a
   back-facing triangle takes o[3] / o[4] when the vertex program writes them (two-sided
   colour is chosen from the program instead of host state: a program that writes the back
   colours means them to be used); FOGC = (o[5].x, 0, 0, 1); TEX0..TEX7 = o[7]..o[14],
   TEX8 = o[15], TEX9 = o[6]; SSA = +1 in all lanes for a front face, −1 for a back face.
   The fragment machine clamps COL0/COL1 to [0, 1] when it reads them.
4. **Fragment stage, on quads.** The fragment program runs on pixel grids so DDX/DDY work:
   each triangle gets a *tile*, the smallest block of whole 2×2 frame quads around the pixels
   it shades, and every lane of the tile carries that triangle's inputs, extrapolated where
   the triangle does not cover the pixel. Those are the helper pixels of real hardware, so a
   quad's derivatives never mix triangles. Tiles (cut into bands of even height) are packed
   side by side into a few large grids, each run as one batch of lanes; a band keeps its quads
   aligned, so packing changes nothing in the results. The frame is rasterised and shaded in
   bands of rows (:func:`~shaderkit.render.raster.rasterize_in_bands`, even boundaries, so
   quads stay whole): memory follows a band, and the frame is the same as in one piece.
5. **Depth test** LESS against a depth buffer cleared to 1.0, with depth write; killed
   fragments write nothing; with ``depth_replace`` the depth tested and written is the
   program's R1.z (clamped to [0, 1], like gl_FragDepth) instead of the interpolated one.
   Triangles count in mesh order, so of equal depths the earlier wins.

Because a fragment's colour never depends on what is already in the frame (no blending), the
in-order depth test equals "per pixel, the smallest depth, earliest triangle on ties". When
the fragment program cannot kill and does not replace depth, visibility is therefore resolved
*before* shading and only the winning fragments (plus their quads' helpers) are shaded, which
gives the same frame as shading everything first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from shaderkit.core.diagnostics import InputError
from shaderkit.render.mesh import Mesh
from shaderkit.render.raster import Fragments, TriangleSamples, rasterize_in_bands, row_bands, sample_triangles

from .budget import RunBudget, as_budget
from .container import ProgramKind
from .fragment import FP_INPUTS, FragmentMachine
from .image import fragment_header, vertex_header
from .instruction import Program
from .textures import Texture
from .vertex import run_vertex_program

__all__ = ["Frame", "draw", "float_picture", "to_picture"]

CULL_MODES = (None, "back", "front")
CLEAR_DEPTH = 1.0
# VP attribute registers fed from the mesh (spec 2.10).
POSITION_INPUT, NORMAL_INPUT, COLOUR_INPUT, TEXCOORD_INPUT = 0, 2, 3, 8
# VP output registers (spec 2.10).
FRONT_DIFFUSE, FRONT_SPECULAR, BACK_DIFFUSE, BACK_SPECULAR, FOG_OUTPUT = 1, 2, 3, 4, 5
# attributeOutputMask bits of the back colours (spec 2.10), as computed from the ucode.
BACK_COLOUR_MASK_BITS = {BACK_DIFFUSE: 2, BACK_SPECULAR: 3}
# FP input name -> the VP output register that feeds it (colours and fog are handled apart).
TEXCOORD_OUTPUTS = {**{f"TEX{n}": 7 + n for n in range(8)}, "TEX8": 15, "TEX9": 6}
# Lanes per fragment-program batch: bounds the input arrays (15 inputs × 4 × float32 each).
BATCH_LANES = 1 << 19
BAND_ROWS = 64  # tiles are cut into bands at most this tall (even: whole quads)


@dataclass(frozen=True, eq=False)
class Frame:
    """A rendered frame, row 0 at the bottom (GL window coordinates)."""

    color: np.ndarray  # (H, W, 4) float32: the fragment program's colour output, else the clear colour
    depth: np.ndarray  # (H, W) float32 depth buffer (1.0 where nothing was drawn)
    coverage: np.ndarray  # (H, W) bool: a fragment was written


def draw(
    vertex_program: Program,
    fragment_program: Program,
    mesh: Mesh,
    *,
    width: int,
    height: int,
    constants: np.ndarray,
    textures: Mapping[int, Texture] | None = None,
    output_from_h0: bool = False,
    depth_replace: bool = False,
    clear: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0),
    cull: str | None = None,
    branch_bits: int = 0,
    budget: RunBudget | int | None = None,
) -> Frame:
    """Render ``mesh`` with the two programs into a ``width`` × ``height`` frame (see the module doc).
    Both programs spend one ``budget`` (:mod:`.budget`; None: the default limits)."""
    clear_colour = _check_arguments(vertex_program, fragment_program, cull, clear)
    vertices = mesh.vertices()
    textures = textures or {}
    budget = as_budget(budget)
    outputs = run_vertex_program(vertex_program, vertex_attributes(vertices), constants, branch_bits=branch_bits,
                                 textures=textures, budget=budget)
    outputs = np.asarray(outputs, dtype=np.float64)  # (16 registers, V, 4)
    shader = _FragmentStage(fragment_program, outputs, vertices.triangles, _back_colours(vertex_program),
                            (width, height), textures, output_from_h0, budget)
    colour = np.broadcast_to(clear_colour, (height, width, 4)).copy()
    depth = np.full((height, width), CLEAR_DEPTH, dtype=np.float32)
    coverage = np.zeros((height, width), dtype=bool)
    # Band by band (whole quads each), so memory follows a band's fragments, not the frame's.
    for _, fragments in rasterize_in_bands(outputs[0][vertices.triangles], width, height):
        if cull is not None:
            fragments = _select(fragments, ~fragments.front if cull == "front" else fragments.front)
        if len(fragments):
            _draw_fragments(shader, fragments, depth_replace, colour, depth, coverage)
    return Frame(colour, depth, coverage)


def _draw_fragments(shader: _FragmentStage, fragments: Fragments, depth_replace: bool,
                    colour: np.ndarray, depth: np.ndarray, coverage: np.ndarray) -> None:
    """Shade ``fragments`` and depth-test them into the frame's buffers (see the module doc)."""
    width = colour.shape[1]
    if shader.kills or depth_replace:
        shaded = shader.shade(fragments, np.arange(len(fragments)))
        candidate_depth = np.clip(shaded.depth, 0.0, 1.0) if depth_replace else fragments.depth
        alive = ~shaded.killed
        winners = _nearest_per_pixel(fragments, candidate_depth, alive, width)
        winner_colour = shaded.color[winners]
        winner_depth = candidate_depth[winners]
    else:
        winners = _nearest_per_pixel(fragments, fragments.depth, np.ones(len(fragments), dtype=bool), width)
        winner_colour = shader.shade(fragments, winners).color
        winner_depth = fragments.depth[winners]
    rows, columns = fragments.y[winners], fragments.x[winners]
    colour[rows, columns] = winner_colour
    depth[rows, columns] = winner_depth
    coverage[rows, columns] = True


def to_picture(frame: Frame, alpha: bool = False) -> np.ndarray:
    """The frame as uint8 RGB (or RGBA) with the top row first, ready to save as an image
    (:func:`float_picture`)."""
    return float_picture(frame.color, alpha=alpha)


def float_picture(rgba: np.ndarray, killed: np.ndarray | None = None, alpha: bool = False) -> np.ndarray:
    """A float RGBA image ``(H, W, 4)`` with row 0 at the bottom as uint8 RGB (or RGBA), top
    row first; ``killed`` pixels are black.

    Colours are clamped to [0, 1] (NaN counts as 0) and rounded to the nearest of 256 levels,
    a band of rows at a time so the float temporaries stay small next to a large picture.
    """
    height, width = rgba.shape[:2]
    channels = 4 if alpha else 3
    picture = np.empty((height, width, channels), dtype=np.uint8)
    flipped = rgba[::-1, :, :channels]
    for rows in row_bands(width, height):
        band = np.nan_to_num(flipped[rows.start:rows.stop], nan=0.0)
        picture[rows.start:rows.stop] = np.rint(np.clip(band, 0.0, 1.0) * 255.0)
    if killed is not None:
        picture[killed[::-1]] = 0
    return picture


def _check_arguments(vertex_program, fragment_program, cull, clear) -> np.ndarray:
    """Refuse arguments a caller can get wrong; returns the clear colour as float32."""
    if getattr(vertex_program, "kind", None) is not ProgramKind.VERTEX:
        raise InputError("draw needs a vertex program as its first program")
    if getattr(fragment_program, "kind", None) is not ProgramKind.FRAGMENT:
        raise InputError("draw needs a fragment program as its second program")
    if cull not in CULL_MODES:
        raise InputError(f"cull must be 'back', 'front' or None, not {cull!r}")
    try:
        colour = np.asarray(clear, dtype=np.float32)
    except (TypeError, ValueError):
        colour = None
    if colour is None or colour.shape != (4,):
        raise InputError(f"the clear colour must be four numbers, not {clear!r}")
    return colour


def vertex_attributes(vertices) -> dict[int, np.ndarray]:
    """Vertex program inputs of a mesh's distinct corners: v0 position, v2 normal, v3 colour, v8 uv."""
    count = len(vertices.positions)
    ones, zeros = np.ones((count, 1)), np.zeros((count, 1))
    return {
        POSITION_INPUT: np.hstack([vertices.positions, ones]).astype(np.float32),
        NORMAL_INPUT: np.hstack([vertices.normals, zeros]).astype(np.float32),
        COLOUR_INPUT: np.hstack([vertices.colours, ones]).astype(np.float32),
        TEXCOORD_INPUT: np.hstack([vertices.texcoords, zeros, ones]).astype(np.float32),
    }


def _back_colours(vertex_program: Program) -> set[int]:
    """The back colour outputs (o[3], o[4]) the vertex program writes."""
    mask = vertex_header(vertex_program).attribute_output_mask
    return {register for register, bit in BACK_COLOUR_MASK_BITS.items() if mask >> bit & 1}


def _select(fragments: Fragments, keep: np.ndarray) -> Fragments:
    samples = TriangleSamples(fragments.barycentric[keep], fragments.depth[keep], fragments.inverse_w[keep])
    return Fragments(fragments.x[keep], fragments.y[keep], fragments.triangle[keep], samples, fragments.front[keep])


def _nearest_per_pixel(fragments: Fragments, depth: np.ndarray, alive: np.ndarray, width: int) -> np.ndarray:
    """Indices (ascending) of the fragments that pass a LESS depth test in draw order and stay visible.

    Fragments are in draw order, so among equal depths the lowest index is the earliest.
    """
    candidates = np.flatnonzero(alive & (depth < CLEAR_DEPTH))
    pixel = fragments.y[candidates].astype(np.int64) * width + fragments.x[candidates]
    order = np.lexsort((candidates, depth[candidates], pixel))
    first = np.ones(len(order), dtype=bool)
    first[1:] = pixel[order][1:] != pixel[order][:-1]
    return np.sort(candidates[order[first]])


@dataclass(frozen=True, eq=False)
class _Shaded:
    color: np.ndarray  # (n, 4) float32
    killed: np.ndarray  # (n,) bool
    depth: np.ndarray  # (n,) float64 R1.z


class _FragmentStage:
    """The fragment program prepared once, and how to build its inputs for any set of fragments."""

    def __init__(self, program: Program, outputs: np.ndarray, triangles: np.ndarray, back_colours: set[int],
                 size: tuple[int, int], textures: Mapping[int, Texture], output_from_h0: bool, budget: RunBudget):
        self.machine = FragmentMachine(program)
        self.budget = budget
        self.inputs = _inputs_read(program)
        self.kills = bool(fragment_header(program).pixel_kill)
        self.outputs = outputs
        self.triangles = triangles
        self.back_colours = back_colours
        self.width, self.height = size
        self.textures = textures
        self.output_from_h0 = output_from_h0
        self.front = np.zeros(len(triangles), dtype=bool)  # per triangle, once it has fragments

    def shade(self, fragments: Fragments, selected: np.ndarray) -> _Shaded:
        """Run the program for ``fragments[selected]`` (ascending indices)."""
        self.front[fragments.triangle] = fragments.front
        triangle = fragments.triangle[selected]
        x, y = fragments.x[selected].astype(np.int64), fragments.y[selected].astype(np.int64)
        colour = np.zeros((len(selected), 4), dtype=np.float32)
        killed = np.zeros(len(selected), dtype=bool)
        depth = np.zeros(len(selected), dtype=np.float64)
        for batch in _tile_batches(triangle, x, y):
            lanes = batch.grid_height * batch.grid_width
            inputs = self._inputs(batch, lanes)
            result = self.machine.run(inputs, grid=(batch.grid_height, batch.grid_width), textures=self.textures,
                                      output_from_h0=self.output_from_h0, budget=self.budget)
            members = batch.members
            colour[members] = result.color[batch.member_lanes]
            killed[members] = result.killed[batch.member_lanes]
            depth[members] = result.depth[batch.member_lanes]
        return _Shaded(colour, killed, depth)

    def _inputs(self, batch: _TileBatch, lanes: int) -> dict[str, np.ndarray]:
        """Every input the program reads, for every lane of the batch's grid (0 between tiles)."""
        samples = sample_triangles(self.outputs[0][self.triangles], batch.lane_triangle, batch.lane_x,
                                   batch.lane_y, self.width, self.height)
        front = self.front[batch.lane_triangle]
        vertices = self.triangles[batch.lane_triangle]  # (L, 3) vertex of each lane's triangle corners
        inputs = {}
        for name in self.inputs:
            values = np.zeros((lanes, 4), dtype=np.float32)
            values[batch.lane_index] = self._input(name, batch, samples, front, vertices)
            inputs[name] = values
        return inputs

    def _input(self, name: str, batch: _TileBatch, samples: TriangleSamples, front: np.ndarray,
               vertices: np.ndarray) -> np.ndarray:
        if name == "WPOS":
            return np.stack([batch.lane_x + 0.5, batch.lane_y + 0.5, samples.depth, samples.inverse_w], axis=1)
        if name == "SSA":
            return np.repeat(np.where(front, 1.0, -1.0)[:, None], 4, axis=1)
        if name in ("COL0", "COL1"):
            front_output, back_output = (
                (FRONT_DIFFUSE, BACK_DIFFUSE) if name == "COL0" else (FRONT_SPECULAR, BACK_SPECULAR)
            )
            value = self._interpolate(front_output, vertices, samples.barycentric)
            if back_output in self.back_colours and not front.all():
                back = self._interpolate(back_output, vertices, samples.barycentric)
                value = np.where(front[:, None], value, back)
            return value
        if name == "FOGC":
            fog = self._interpolate(FOG_OUTPUT, vertices, samples.barycentric)[:, 0]
            return np.stack([fog, np.zeros_like(fog), np.zeros_like(fog), np.ones_like(fog)], axis=1)
        return self._interpolate(TEXCOORD_OUTPUTS[name], vertices, samples.barycentric)

    def _interpolate(self, output: int, vertices: np.ndarray, barycentric: np.ndarray) -> np.ndarray:
        values = self.outputs[output]
        result = barycentric[:, 0:1] * values[vertices[:, 0]]
        for corner in (1, 2):
            result += barycentric[:, corner:corner + 1] * values[vertices[:, corner]]
        return result


def _inputs_read(program: Program) -> tuple[str, ...]:
    """The fragment inputs the program can read (all texture coordinates if it indexes them)."""
    names: set[str] = set()
    for instruction in program.instructions:
        view = instruction.view
        if view.opcode is None or view.opcode.flow:
            continue
        if any(view.sources[slot].file == "f" for slot in view.opcode.sources) and view.input < len(FP_INPUTS):
            names.add(FP_INPUTS[view.input])
            if view.indexed_input:
                names.update(TEXCOORD_OUTPUTS)
    return tuple(name for name in FP_INPUTS if name in names)


# --------------------------------------------------------------------------- tiles


@dataclass(frozen=True, eq=False)
class _TileBatch:
    """One fragment-program run: tiles packed into a (grid_height, grid_width) lane grid."""

    grid_height: int
    grid_width: int
    lane_index: np.ndarray  # (L,) grid lanes that belong to a tile
    lane_triangle: np.ndarray  # (L,) the tile's triangle
    lane_x: np.ndarray  # (L,) frame pixel of that lane
    lane_y: np.ndarray
    members: np.ndarray  # indices (into the shaded selection) of the fragments in this batch
    member_lanes: np.ndarray  # their grid lanes


def _tile_batches(triangle: np.ndarray, x: np.ndarray, y: np.ndarray):
    """Quad-aligned tiles around each triangle's fragments, cut into bands and packed into grids."""
    if not len(triangle):
        return
    # Fragments arrive grouped by triangle (draw order); one tile per group.
    starts = np.flatnonzero(np.r_[True, triangle[1:] != triangle[:-1]])
    tile_of_fragment = np.cumsum(np.r_[True, triangle[1:] != triangle[:-1]]) - 1
    left = np.minimum.reduceat(x, starts) & ~1
    right = np.maximum.reduceat(x, starts) | 1
    bottom = np.minimum.reduceat(y, starts) & ~1
    top = np.maximum.reduceat(y, starts) | 1
    tile_triangle = triangle[starts]

    # Bands: each tile split into runs of at most BAND_ROWS rows (both even, so quads stay whole).
    heights = top - bottom + 1
    band_counts = -(-heights // BAND_ROWS)
    band_tile = np.repeat(np.arange(len(starts)), band_counts)
    band_number = np.arange(len(band_tile)) - np.repeat(np.cumsum(band_counts) - band_counts, band_counts)
    band_bottom = bottom[band_tile] + band_number * BAND_ROWS
    band_height = np.minimum(BAND_ROWS, top[band_tile] + 1 - band_bottom)
    band_width = right[band_tile] - left[band_tile] + 1

    first_band = np.cumsum(band_counts) - band_counts
    fragment_band = first_band[tile_of_fragment] + (y - bottom[tile_of_fragment]) // BAND_ROWS

    for bands, place_x, place_y, grid_width, grid_height in _pack(band_width, band_height):
        lane_count = band_width[bands] * band_height[bands]
        owner = np.repeat(np.arange(len(bands)), lane_count)
        offset = np.arange(len(owner)) - np.repeat(np.cumsum(lane_count) - lane_count, lane_count)
        column = offset % band_width[bands][owner]
        row = offset // band_width[bands][owner]
        band = bands[owner]
        lane_index = (place_y[owner] + row) * grid_width + place_x[owner] + column
        in_batch = np.zeros(len(band_tile), dtype=bool)
        in_batch[bands] = True
        position = np.zeros(len(band_tile), dtype=np.int64)
        position[bands] = np.arange(len(bands))
        members = np.flatnonzero(in_batch[fragment_band])
        member_band = position[fragment_band[members]]
        member_lanes = (
            (place_y[member_band] + y[members] - band_bottom[fragment_band[members]]) * grid_width
            + place_x[member_band] + x[members] - left[band_tile[fragment_band[members]]]
        )
        yield _TileBatch(
            grid_height=grid_height,
            grid_width=grid_width,
            lane_index=lane_index,
            lane_triangle=tile_triangle[band_tile[band]],
            lane_x=left[band_tile[band]] + column,
            lane_y=band_bottom[band] + row,
            members=members,
            member_lanes=member_lanes,
        )


def _pack(widths: np.ndarray, heights: np.ndarray):
    """Shelf packing of even-sized rectangles into grids of at most about BATCH_LANES lanes.

    Yields (rectangle indices, their x and y in the grid, grid width, grid height). Positions
    are even because every size is, so the rectangles' quads stay the grid's quads.
    """
    widest = int(widths.max())
    square_side = 2 * int(np.ceil(np.sqrt(float((widths * heights).sum())) / 2))
    grid_width = max(widest, min(square_side, 2 * (BATCH_LANES // BAND_ROWS // 2)))
    members: list[int] = []
    xs: list[int] = []
    ys: list[int] = []
    shelf_x = shelf_y = shelf_height = 0
    for index in np.argsort(-heights, kind="stable").tolist():
        width, height = int(widths[index]), int(heights[index])
        if shelf_x + width > grid_width:
            shelf_y, shelf_x, shelf_height = shelf_y + shelf_height, 0, 0
        if members and (shelf_y + max(shelf_height, height)) * grid_width > BATCH_LANES:
            yield np.array(members), np.array(xs), np.array(ys), grid_width, shelf_y + shelf_height
            members, xs, ys = [], [], []
            shelf_x = shelf_y = shelf_height = 0
        members.append(index)
        xs.append(shelf_x)
        ys.append(shelf_y)
        shelf_x += width
        shelf_height = max(shelf_height, height)
    yield np.array(members), np.array(xs), np.array(ys), grid_width, shelf_y + shelf_height
