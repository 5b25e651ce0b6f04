"""The THEIA V1 machine: the control unit, geometry and texture fetch, output, cores (spec §6).

The microcode (ours, or a user's routines through the entry table) runs on
:mod:`.simt` lanes, one lane per pixel. What the hardware does outside the microcode is
done here with NumPy: loading configuration rows, sequencing the routines per pixel,
walking the node tree and streaming triangles into CREG_V0…CREG_TRI_DIFFUSE, fetching
texels into CREG_TEX_COLOR1…6, writing OREG_PIXEL_COLOR to the output memory at
OREG_ADDR_O and converting that memory to an image the way the reference host does.

Choices where data-parallel execution meets a sequential core (documented in README):

* Every pixel starts from the state after INITIAL, CPPU and USERCONSTANTS of its core,
  with PIXEL_2D_POSITION, PIXEL_PITCH and OREG_ADDR_O as the default NPG leaves them
  for that pixel. State a real core carries from one pixel to the next (scratch rows,
  LAST_t.y/z, the stale *_LAST rows after a hit beyond LAST_t) does not carry over.
  NPG still runs after every pixel, and its answer is checked against that order.
* The light record (position, diffuse) of the scene is loaded into rows 8 and 9, which
  the V1 host does not do; PSU needs it (spec §6.10).
* The swap RAM is a single copy: fetched triangles and texels are visible at once.
* Animations: ``render(..., time=t)`` loads C7 = (t, 0, 0) in seconds, fixed point,
  before USERCONSTANTS, so a user shader can animate (C7 is ours; V1 has no clock).
* Node links: "offset to data", next-brother and parent's-brother words are read as
  fixed-point word offsets/addresses (the shipped offset is 0x140000 = 10.0, spec §7.2, §9.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ...core.diagnostics import InputError
from ...core.jit import ready
from . import registers as reg
from .fixedpoint import ONE, to_fixed
from .image import build_image, default_entries, split_image
from .microcode import rom
from .scene import Scene
from .simt import DEFAULT_BUDGET, Code, Core, Lanes, MachineFault, output_reads
from .spec import description

TILE_LANES = 8192
# A machine left to choose (compiled=None) moves to the compiled core once its NumPy renders
# have run about as many ray–triangle tests as the kernel's first compile costs in time (about
# 2.5 s, at the NumPy path's ~4 million tests/s): at most about twice the better choice in hindsight.
COLD_SWITCH_TESTS = 10_000_000
ROW = reg.ADDRESSES
TRIANGLE_WORDS = 21
NODE_HEADER_WORDS = 10
MAX_NODES_VISITED = 65536
TEXTURE_ROWS = [ROW[f"CREG_TEX_COLOR{k}"] for k in range(1, 7)]
TRIANGLE_ROWS = slice(ROW["CREG_V0"], ROW["CREG_TRI_DIFFUSE"] + 1)


@dataclass
class CoreStatistics:
    """What one core did."""

    first_row: int
    last_row: int
    pixels: int = 0
    hits: int = 0
    instructions: int = 0
    triangle_tests: int = 0
    texel_fetches: int = 0


@dataclass
class Render:
    """The result of a scene run."""

    image: np.ndarray                     # (H, W, 3) uint8
    memory: np.ndarray                    # output memory words, 3 per pixel
    cores: list[CoreStatistics]
    instructions_per_pixel: np.ndarray    # (H, W) instructions each pixel's lane ran
    notes: list[str] = field(default_factory=list)

    @property
    def triangle_tests(self) -> int:
        return sum(core.triangle_tests for core in self.cores)

    def statistics_table(self) -> str:
        lines = [f"{'core':>4} {'rows':>11} {'pixels':>8} {'hits':>8} {'ray-tri tests':>14} "
                 f"{'texels':>9} {'instructions':>13}"]
        for number, core in enumerate(self.cores):
            lines.append(f"{number:>4} {f'{core.first_row}..{core.last_row}':>11} {core.pixels:>8,} {core.hits:>8,} "
                         f"{core.triangle_tests:>14,} {core.texel_fetches:>9,} {core.instructions:>13,}")
        return "\n".join(lines)


def upstream_core_split(height: int, width: int, cores: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Horizontal bands like the shipped scenes: core k renders rows [k·H/n, (k+1)·H/n)."""
    if not 1 <= cores <= height:
        raise InputError(f"--cores must be between 1 and the image height ({height}), not {cores}")
    bands = []
    for k in range(cores):
        first, end = k * height // cores, (k + 1) * height // cores
        bands.append((np.array([0, first * ONE, 0], dtype=np.uint32),
                      np.array([width * ONE, end * ONE, 0], dtype=np.uint32)))
    return bands


class TheiaMachine:
    """The default microcode plus an optional user RAM image, ready to run scenes or bare programs."""

    def __init__(self, ram_image: Sequence[int] | None = None, *, complete_isa: bool = False,
                 budget: int = DEFAULT_BUDGET, compiled: bool | None = None):
        self.ram = list(ram_image) if ram_image is not None else build_image(default_entries(), [])
        entries, _ = split_image(self.ram)
        self.entries = entries
        self.code = Code.load(description(), rom().words, self.ram, complete_isa)
        self.budget = budget
        # True: every render on the compiled core; False: on the NumPy reference path (see
        # .simt.Core); None: compiled where it pays (see uses_compiled_core).
        self.compiled = compiled
        self._interpreted_tests = 0  # ray–triangle tests this machine ran on the NumPy path
        self.notes = output_reads(self.code.steps)

    def uses_compiled_core(self, scene: Scene) -> bool:
        """Whether a render of ``scene`` runs on the compiled core.

        As asked (``compiled`` True or False), or where it pays: when the kernel is ready
        (compiled in this process, or in the disk cache), or when the NumPy path's ray–triangle
        tests, this machine's so far and this render's, come to what the first compile costs.
        A single small picture never waits seconds for a compile it would not repay.
        """
        if self.compiled is not None:
            return self.compiled
        from .compiled_core import run_call
        coming = scene.width * scene.height * scene.triangle_count
        return ready(run_call) or self._interpreted_tests + coming >= COLD_SWITCH_TESTS

    # -- scenes ---------------------------------------------------------------------------

    def render(self, scene: Scene, cores: int | None = None, progress=None, time: float | None = None) -> Render:
        width, height = scene.width, scene.height
        bands = scene.cores if cores is None else upstream_core_split(height, width, cores)
        if not bands:
            bands = upstream_core_split(height, width, 1)
        pixels = _pixel_order(bands, width)
        memory = np.zeros(3 * width * height, dtype=np.uint32)
        statistics = [CoreStatistics(int(initial[1]) >> 17, (int(final[1]) >> 17) - 1) for initial, final in bands]
        executed = np.zeros(len(pixels.core), dtype=np.int64)
        notes = list(self.notes) + list(scene.notes)
        if width != height:
            notes.append(f"the image is {width}x{height}: V1 lays out rows with the height as stride "
                         "(spec §6.2), so only square images come out right")
        texels = scene.texture.reshape(-1) if scene.texture is not None else None
        compiled = self.uses_compiled_core(scene)
        for start in range(0, len(pixels.core), TILE_LANES):
            tile = slice(start, min(start + TILE_LANES, len(pixels.core)))
            lanes = self._run_tile(scene, bands, pixels, tile, texels, memory, statistics, time, compiled)
            executed[tile] = lanes.executed
            if progress is not None:
                progress(tile.stop - tile.start)
        for core_number, core in enumerate(statistics):
            core.instructions = int(executed[pixels.core == core_number].sum())
        counts = np.zeros(width * height, dtype=np.int64)
        inside = (pixels.x < width) & (pixels.y < height)
        counts[pixels.y[inside] * width + pixels.x[inside]] = executed[inside]
        image = np.minimum(255, memory >> 9).astype(np.uint8).reshape(height, width, 3)
        render = Render(image, memory, statistics, counts.reshape(height, width), notes)
        if not compiled:
            self._interpreted_tests += render.triangle_tests
        return render

    def _run_tile(self, scene: Scene, bands, pixels: _PixelOrder, tile: slice, texels: np.ndarray | None,
                  memory: np.ndarray, statistics: list[CoreStatistics], time: float | None, compiled: bool) -> Lanes:
        core = self._start_tile(scene, bands, pixels, tile, time, compiled)
        lanes, rows, core_of_lane = core.lanes, core.lanes.rows, pixels.core[tile]
        hit = self._traverse(core, scene, core_of_lane, statistics, scene.texture_enabled)
        hits = np.flatnonzero(hit)
        if scene.texture_enabled:
            self._fetch_texels(rows, hits, texels, scene, core_of_lane, statistics)
            core.call(self.entries["PSU2"], hits, routine="PSU2")
        else:
            core.call(self.entries["PSU"], hits, routine="PSU")
        core.call(self.entries["PIXELSHADER"], hits, routine="PIXELSHADER")
        self._write_pixels(rows, memory)
        more = core.call(self.entries["NPG"], routine="NPG")
        if not np.array_equal(~more, pixels.last[tile]):
            raise MachineFault("NPG's answers disagree with the default pixel order (a user NPG?): "
                               "the data-parallel machine renders pixels in the default order only")
        for number, core_statistics in enumerate(statistics):
            mine = core_of_lane == number
            core_statistics.pixels += int(mine.sum())
            core_statistics.hits += int(hit[mine].sum())
        return lanes

    def _start_tile(self, scene: Scene, bands, pixels: _PixelOrder, tile: slice, time: float | None,
                    compiled: bool) -> Core:
        """The lanes of ``tile`` loaded and set up to the end of RGU (each pixel's ray ready), on a Core."""
        core_of_lane = pixels.core[tile]
        lanes = Lanes.zeros(len(core_of_lane))
        rows = lanes.rows
        rows[0:6] = scene.config[:, :, None]
        initial = np.stack([band[0] for band in bands])
        final = np.stack([band[1] for band in bands])
        rows[ROW["CREG_PIXEL_2D_INITIAL_POSITION"]] = initial[core_of_lane].T
        rows[ROW["CREG_PIXEL_2D_FINAL_POSITION"]] = final[core_of_lane].T
        if scene.lights:
            position, diffuse = scene.lights[0]
            rows[ROW["CREG_FIRST_LIGTH"]] = position[:, None]
            rows[ROW["CREG_LIGHT_DIFFUSE"]] = diffuse[:, None]
        if time is not None:
            rows[ROW["C7"], 0] = to_fixed(time)
        core = Core(self.code, lanes, self.budget, compiled=compiled)
        for routine in ("INITIAL", "CPPU", "USERCONSTANTS"):
            core.call(self.entries[routine], routine=routine)

        # Where the default NPG has taken each pixel's core by the time it renders that pixel.
        ordinal = pixels.ordinal[tile].astype(np.uint32)
        rows[ROW["CREG_PIXEL_2D_POSITION"]] = np.stack([pixels.x_word[tile], pixels.y_word[tile],
                                                        rows[ROW["CREG_PIXEL_2D_POSITION"]][2]])
        pitch = rows[ROW["CREG_PIXEL_PITCH"]] + 3 * ordinal
        rows[ROW["CREG_PIXEL_PITCH"]] = pitch
        rows[ROW["OREG_ADDR_O"]] = pitch

        core.call(self.entries["RGU"], routine="RGU")
        return core

    def ray_tiles(self, scene: Scene) -> list[tuple[Core, np.ndarray]]:
        """Every tile of ``scene`` set up to the end of RGU (rays ready), with each lane's core number.

        Where :meth:`hit_test` starts; the bench times that part alone.
        """
        bands = scene.cores or upstream_core_split(scene.height, scene.width, 1)
        pixels = _pixel_order(bands, scene.width)
        compiled = self.uses_compiled_core(scene)  # once: it may read the kernel cache's index
        tiles = []
        for start in range(0, len(pixels.core), TILE_LANES):
            tile = slice(start, min(start + TILE_LANES, len(pixels.core)))
            tiles.append((self._start_tile(scene, bands, pixels, tile, None, compiled), pixels.core[tile]))
        return tiles

    def hit_test(self, core: Core, scene: Scene, core_of_lane: np.ndarray) -> np.ndarray:
        """The traversal alone (AABBIU, then BIU per triangle; no TCC) on a tile of :meth:`ray_tiles`.

        True where some BIU call returned TRUE. It may run again on the same tile: AABBIU
        resets the only state BIU carries from one triangle to the next.
        """
        statistics = [CoreStatistics(0, 0) for _ in range(int(core_of_lane.max(initial=0)) + 1)]
        return self._traverse(core, scene, core_of_lane, statistics, run_tcc=False)

    def _traverse(self, core: Core, scene: Scene, core_of_lane: np.ndarray,
                  statistics: list[CoreStatistics], run_tcc: bool) -> np.ndarray:
        """Walk the node tree per lane; True where some BIU call returned TRUE (TCC after each if ``run_tcc``)."""
        vertex = scene.vertex_memory
        lane_count = core.lanes.count
        hit = np.zeros(lane_count, dtype=bool)
        node = np.zeros(lane_count, dtype=np.int64)   # every lane starts at the root (word 0)
        finished = np.iinfo(np.int64).max
        rows = core.lanes.rows
        for _ in range(MAX_NODES_VISITED):
            address = int(node.min())
            if address == finished:
                return hit
            group = np.flatnonzero(node == address)
            header = _node_header(vertex, address)
            rows[ROW["CREG_AABBMIN"]][:, group] = header.aabb_min[:, None]
            rows[ROW["CREG_AABBMAX"]][:, group] = header.aabb_max[:, None]
            inside = core.call(self.entries["AABBIU"], group, routine="AABBIU")
            entered = group[inside]
            following = header.next_brother or header.parents_brother or finished
            node[group] = following
            if header.triangles == 0:
                node[entered] = address + header.data_offset   # descend to the first child
                continue
            for triangle in range(header.triangles):
                start = address + header.data_offset + TRIANGLE_WORDS * triangle
                words = vertex[start:start + TRIANGLE_WORDS]
                if len(words) < TRIANGLE_WORDS:
                    raise InputError(f"Vertex.mem: triangle {triangle} of the node at word {address} "
                                     "runs past the end of the file")
                triangle_rows = words.reshape(7, 3)[:, :, None]
                if len(entered) == lane_count:
                    rows[TRIANGLE_ROWS] = triangle_rows  # every lane: a slice store is far cheaper
                else:
                    rows[TRIANGLE_ROWS][:, :, entered] = triangle_rows
                accepted = core.call(self.entries["BIU"], entered, routine="BIU")
                hit[entered[accepted]] = True
                if run_tcc:
                    core.call(self.entries["TCC"], entered[accepted], routine="TCC")
            _count(statistics, core_of_lane[entered], "triangle_tests", header.triangles)
        raise InputError("Vertex.mem: the node links never end (a cycle?)")

    def _fetch_texels(self, rows: np.ndarray, hits: np.ndarray, texels: np.ndarray | None, scene: Scene,
                      core_of_lane: np.ndarray, statistics: list[CoreStatistics]) -> None:
        """The I/O unit's fetch (spec §6.8): 6 texels, one per lane of OREG_TEX_COORD1 and 2."""
        if texels is None or len(hits) == 0:
            return
        coordinates = np.concatenate([rows[ROW["OREG_TEX_COORD1"]][:, hits], rows[ROW["OREG_TEX_COORD2"]][:, hits]])
        # The coordinate is the texel's first word within the texel data (header removed).
        first = coordinates.astype(np.int64)
        for register, words in zip(TEXTURE_ROWS, first):
            for channel in range(3):
                rows[register][channel, hits] = texels[(words + channel) % len(texels)]
        _count(statistics, core_of_lane[hits], "texel_fetches", 6)

    @staticmethod
    def _write_pixels(rows: np.ndarray, memory: np.ndarray) -> None:
        address = rows[ROW["OREG_ADDR_O"]][0].astype(np.int64)
        colour = rows[ROW["OREG_PIXEL_COLOR"]]
        for channel in range(3):
            target = address + channel
            inside = (0 <= target) & (target < len(memory))
            memory[target[inside]] = colour[channel][inside]

    # -- bare programs ------------------------------------------------------------------------

    def run_bare(self, start: int = reg.USER_CODE_START) -> dict[int, np.ndarray]:
        """Run one lane from ``start`` until it returns; the rows it stored, by address."""
        lanes = Lanes.zeros(1)
        core = Core(self.code, lanes, self.budget, track_writes=True)
        core.call(start, routine="the program")
        return {address: lanes.rows[address][:, 0].copy() for address in sorted(lanes.written)}


def _count(statistics: list[CoreStatistics], cores: np.ndarray, name: str, weight: int = 1) -> None:
    for number, count in enumerate(np.bincount(cores, minlength=len(statistics))):
        setattr(statistics[number], name, getattr(statistics[number], name) + weight * int(count))


@dataclass
class _NodeHeader:
    aabb_min: np.ndarray
    aabb_max: np.ndarray
    triangles: int
    data_offset: int
    next_brother: int
    parents_brother: int


def _node_header(vertex: np.ndarray, address: int) -> _NodeHeader:
    words = vertex[address:address + NODE_HEADER_WORDS]
    if len(words) < NODE_HEADER_WORDS:
        raise InputError(f"Vertex.mem: the node at word {address} is cut short "
                         f"({len(words)} of {NODE_HEADER_WORDS} header words)")
    return _NodeHeader(words[0:3], words[3:6], int(words[6]), int(words[7]) >> 17,
                       int(words[8]) >> 17, int(words[9]) >> 17)


@dataclass
class _PixelOrder:
    """Every pixel of every core in the order the cores render them (spec §6.12)."""

    core: np.ndarray      # core number
    x: np.ndarray
    y: np.ndarray
    x_word: np.ndarray    # PIXEL_2D_POSITION as NPG computes it
    y_word: np.ndarray
    ordinal: np.ndarray   # pixels this core rendered before this one
    last: np.ndarray      # the core's last pixel (NPG answers FALSE)


def _pixel_order(bands, width: int) -> _PixelOrder:
    parts = {name: [] for name in ("core", "x", "y", "x_word", "y_word", "ordinal", "last")}
    for number, (initial, final) in enumerate(bands):
        x0_word, y0_word = int(initial[0]), int(initial[1])
        x0, y0, y_end = x0_word >> 17, y0_word >> 17, int(final[1]) >> 17
        row_count = max(0, y_end - y0)
        # The first row from x0 (rendered even if the band is empty: NPG only stops after a
        # row), then whole rows from x = 0.
        xs = [np.arange(x0, width)] + [np.arange(width)] * max(0, row_count - 1)
        x = np.concatenate(xs)
        y = np.concatenate([np.full(len(row), y0 + r) for r, row in enumerate(xs)])
        x_word = np.where(np.arange(len(x)) < width - x0, x0_word + (x - x0) * ONE, x * ONE)
        y_word = y0_word + (y - y0) * ONE
        parts["core"].append(np.full(len(x), number))
        parts["x"].append(x)
        parts["y"].append(y)
        parts["x_word"].append(x_word & 0xFFFF_FFFF)
        parts["y_word"].append(y_word & 0xFFFF_FFFF)
        parts["ordinal"].append(np.arange(len(x)))
        parts["last"].append(np.arange(len(x)) == len(x) - 1)
    joined = {name: np.concatenate(values) for name, values in parts.items()}
    return _PixelOrder(joined["core"].astype(np.intp), joined["x"], joined["y"],
                       joined["x_word"].astype(np.uint32), joined["y_word"].astype(np.uint32),
                       joined["ordinal"], joined["last"])
