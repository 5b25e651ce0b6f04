"""The compiled fragment path: a prepared program run as generated Numba kernels, tile by tile.

:mod:`.fragment_codegen` writes the kernels of a program (fused segments, NumPy between them for
what must stay NumPy); this module compiles them once per program and run layout
(:func:`shaderkit.core.jit.compile_source`: cached on disk when a private cache directory can be
had), cuts the picture into tiles of whole 2x2 quads (:data:`TILE_PIXELS` pixels, a few hundred
KiB of state that stays in L2), and runs the tiles on :func:`numba.get_num_threads` threads, each
with its own tile buffers: a program of one kernel in one parallel call on Numba's pool
(``run_tiles``, where :func:`parallel_loops_are_safe`), the others on Python threads. Results
are written straight into the output arrays: a full-screen image needs no per-pixel input
arrays and no full-size intermediates.

The interpreter (:class:`.fragment.FragmentMachine`) stays the reference: every entry point here
returns None when the compiled path does not cover a run (see :class:`.fragment_codegen.Unsupported`,
DDX/DDY without a grid, a budget the run might exceed), and the caller then interprets.

Budget. A program without flow control charges exactly what the interpreter would (one
lane-instruction per instruction and lane). One with flow control charges an upper bound (every
block entered, every loop run to its count), and runs compiled only when that bound fits in what
is left; otherwise the interpreter runs it and stops it where it would.
"""

from __future__ import annotations

import functools
import importlib
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from shaderkit.core.jit import address_of, call_by_address, compile_source, jit

from . import halfs
from .budget import RunBudget, as_budget
from .fragment import (
    _INPUT_INDEX,
    _NO_OPERATION,
    _TEXTURE_READS,
    DEPTH_REGISTER,
    FP_INPUTS,
    MRT_REGISTERS,
    UNBOUND_TEXEL,
    FragmentMachine,
    FragmentResult,
    _input_table,
    _lane_layout,
    fullscreen_inputs,
)
from .fragment_codegen import OVERRIDE_ROW, PROCEDURAL_ORDER, Layout, Plan, Unsupported, generate
from .semantics import FRAGMENT, SEMANTICS
from .textures import Texture, sample_lanes

F32 = np.float32
TILE_PIXELS = 16384
MINIMUM_PARALLEL_TILE = 1024  # below this a tile's own setup outweighs its share of the work
EXPORTED_REGISTERS = (0, DEPTH_REGISTER, *MRT_REGISTERS)
PROCEDURAL_INPUTS = frozenset(_INPUT_INDEX[name] for name in ("WPOS", "TEX0", "TEX1"))
KERNEL_OPTIONS = {"nogil": True, "error_model": "numpy"}

# What a kernel without breaks is given for its state and result buffers.
_NO_BUFFER = np.zeros((1, 1), dtype=F32)
_NO_INPUTS = np.zeros((1, 4, 1), dtype=F32)  # a full-screen run computes its inputs

_pool: ThreadPoolExecutor | None = None
_pool_size = 0
_pool_lock = threading.Lock()


class CompiledProgram:
    """One program's kernels for one :class:`~.fragment_codegen.Layout`."""

    def __init__(self, machine: FragmentMachine, layout: Layout):
        self.machine = machine
        self.layout = layout
        self.plan: Plan = generate(machine, layout)
        # compiled once per process and source (another machine of the same program shares them)
        self.kernels = compile_source(self.plan.source, self.plan.names, **KERNEL_OPTIONS)
        # A program of one segment runs all its tiles in one call of run_tiles on Numba's thread
        # pool, which starts a parallel loop in a few microseconds where a Python thread takes
        # 50-100 µs to hand work to: a small picture gains from every thread too.
        self.parallel = not self.plan.breaks and parallel_loops_are_safe()
        self._address: int | None = None

    @property
    def dispatchers(self) -> tuple:
        """The compiled functions a first run may compile or load (for first-call timing)."""
        return self.kernels + ((run_tiles,) if self.parallel else ())

    def kernel_address(self) -> np.int64:
        if self._address is None:
            self._address = address_of(self.kernels[0], KERNEL_ARGUMENTS)
        return np.int64(self._address)

    def run(self, tiles: list[tuple[int, int, int, int]], threads: int, width: int, height: int, inp: np.ndarray,
            cst: np.ndarray, out: np.ndarray, outk: np.ndarray, textures: Mapping[int, Texture]) -> None:
        """Run the tiles on up to ``threads`` threads (the calling one among them)."""
        plan = self.plan
        threads = min(threads, len(tiles))
        largest = max(rows * cols for _, rows, _, cols in tiles)
        if self.parallel:
            # One operand buffer per pool thread (the kernel indexes them by numba.get_thread_id()).
            operands = np.empty((numba.config.NUMBA_NUM_THREADS, plan.operand_rows, largest), dtype=F32)
            run_tiles(self.kernel_address(), np.array(tiles, dtype=np.int64), np.int64(width), np.int64(height), inp,
                      cst, _NO_BUFFER, operands, _NO_BUFFER, out, outk)
            return

        def work(first: int) -> None:
            if plan.breaks:
                state = np.zeros((plan.state_rows, largest), dtype=F32)
                operands = np.zeros((plan.operand_rows, largest), dtype=F32)
                results = np.zeros((plan.result_rows, largest), dtype=F32)
            else:
                # One segment: no state crosses a break, no result comes back from NumPy, and the
                # operand buffer only takes the exports, every row written before it is read.
                state = results = _NO_BUFFER
                operands = np.empty((plan.operand_rows, largest), dtype=F32)
            for tile in tiles[first::threads]:
                self._tile(tile, width, height, inp, cst, state, operands, results, out, outk, textures)

        if threads <= 1:
            work(0)
            return
        # The calling thread takes the first share itself: one hand-over fewer, which is most
        # of what a thread costs on a small picture.
        helpers = [_executor(threads - 1).submit(work, first) for first in range(1, threads)]
        try:
            work(0)
        finally:
            for helper in helpers:
                helper.result()

    def _tile(self, tile, width, height, inp, cst, state, operands, results, out, outk, textures) -> None:
        row0, rows, col0, cols = tile
        lanes = rows * cols
        breaks = self.plan.breaks
        kernel = self.kernels[0]
        for number in range(len(breaks) + 1):
            kernel(number, row0, rows, col0, cols, width, height, inp, cst, state, operands, results, out, outk)
            if number < len(breaks):
                with np.errstate(all="ignore"):
                    for step in breaks[number]:
                        values = [operands[item[1]:item[1] + item[2], :lanes] if item[0] == "buffer" else item[1]
                                  for item in step.operands]
                        row = step.result_row
                        result = _break_result(step, values, (rows, cols), textures)
                        for lane in step.lanes:
                            results[row + lane, :lanes] = result[lane if result.shape[0] > 1 else 0]


# The types of a fragment kernel's arguments (segment, row0, rows, col0, cols, width, height,
# inp, cst, st, opnd, res, out, outk), for which run_tiles calls it by address: the kernel is
# compiled once, not linked into run_tiles and optimised again.
_F32_2D = numba.types.Array(numba.types.float32, 2, "C")
_F32_3D = numba.types.Array(numba.types.float32, 3, "C")
KERNEL_ARGUMENTS = (*(numba.types.int64,) * 7, _F32_3D, _F32_2D, _F32_2D, _F32_2D, _F32_2D, _F32_3D,
                    numba.types.Array(numba.types.boolean, 1, "C"))
_call_kernel = call_by_address("a fragment kernel", KERNEL_ARGUMENTS)


@jit(parallel=True, nogil=True)
def run_tiles(kernel_address, tiles, width, height, inp, cst, st, tile_operands, res, out, outk):
    """Every tile (rows of ``tiles``: row0, rows, col0, cols) of a one-segment program through
    the kernel at ``kernel_address``, in one parallel loop; ``tile_operands`` holds one operand
    buffer per pool thread."""
    for tile in numba.prange(tiles.shape[0]):
        _call_kernel(kernel_address, (np.int64(0), tiles[tile, 0], tiles[tile, 1], tiles[tile, 2], tiles[tile, 3],
                                      width, height, inp, cst, st, tile_operands[numba.get_thread_id()], res, out,
                                      outk))


def _executor(threads: int) -> ThreadPoolExecutor:
    global _pool, _pool_size
    with _pool_lock:
        if _pool is None or _pool_size < threads:
            _pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="rsx-fragment")
            _pool_size = threads
        return _pool


def _break_result(step, values: list[np.ndarray], grid: tuple[int, int], textures: Mapping[int, Texture]):
    view = step.instruction.view
    name = view.opcode.name
    if step.kind == "derivative":
        return SEMANTICS.function(name, FRAGMENT)(values[0], grid)
    if step.kind == "texture":
        texture = textures.get(view.texture_unit)
        if texture is None:
            texel = UNBOUND_TEXEL
        else:
            coordinates = values[0]
            s, t = coordinates[0], coordinates[1]
            if _TEXTURE_READS[name] == "projective":
                s, t = s / coordinates[3], t / coordinates[3]
            texel = sample_lanes(texture, s, t)
        return texel * F32(2.0) - F32(1.0) if view.expand_texture else texel
    return SEMANTICS.function(name, FRAGMENT)(*values)


# --- preparing -----------------------------------------------------------------------------------

def compiled_program(machine: FragmentMachine, layout: Layout) -> CompiledProgram | None:
    """The machine's kernels for ``layout`` (made once, then kept on the machine), or None when
    the compiled path does not cover the program."""
    cache = machine.__dict__.setdefault("_compiled", {})
    if layout not in cache:
        try:
            cache[layout] = CompiledProgram(machine, layout)
        except Unsupported as reason:
            cache[layout] = reason
    found = cache[layout]
    return None if isinstance(found, Unsupported) else found


def unsupported_reason(machine: FragmentMachine, layout: Layout | None = None) -> str | None:
    """Why ``machine``'s program falls back to the interpreter (None: it compiles)."""
    layout = layout or Layout(fullscreen=True, procedural=PROCEDURAL_INPUTS)
    try:
        generate(machine, layout)
    except Unsupported as reason:
        return str(reason)
    return None


def work_bound(machine: FragmentMachine) -> tuple[int, bool]:
    """Lane-instructions per lane the interpreter charges at most, and whether that is exact
    (a program without flow control runs each of its steps once)."""
    known = machine.__dict__.get("_work_bound")
    if known is None:
        known = machine.__dict__["_work_bound"] = _work_bound(machine)
    return known


def _work_bound(machine: FragmentMachine) -> tuple[int, bool]:
    program = machine.program
    if not any(i.view.opcode is not None and i.view.opcode.flow for i in program.instructions):
        return len(machine.steps), True
    instructions = list(program.instructions)
    end = instructions[-1].slot + instructions[-1].slots

    def bound(start: int, stop: int) -> int:
        total = 0
        ordered = [i for i in instructions if start <= i.slot < stop]
        index = 0
        while index < len(ordered):
            instruction = ordered[index]
            view = instruction.view
            name = view.opcode.name
            index += 1
            if name in ("IFE", "LOOP", "REP"):
                if name == "IFE":
                    total += 3 + bound(instruction.slot + 1, view.else_slot) + bound(view.else_slot, view.end_slot)
                else:
                    total += 1 + view.loop_count * (bound(instruction.slot + 1, view.end_slot) + 1)
                while index < len(ordered) and ordered[index].slot < view.end_slot:
                    index += 1
            elif name not in _NO_OPERATION:
                total += 1
        return total
    return bound(0, end), False


def _charge(machine: FragmentMachine, budget: RunBudget, lanes: int) -> bool:
    """Take the run's work from ``budget``; False (nothing taken) when it might not fit."""
    per_lane, _exact = work_bound(machine)
    work = per_lane * lanes
    if work > budget.remaining:
        return False
    budget.remaining -= work
    return True


def _run_timed(compiled: CompiledProgram, budget: RunBudget, tiles, threads: int, *arguments) -> None:
    """``compiled.run``, its seconds counted in the budget's elapsed time as the interpreter's runs are."""
    started, _deadline = budget.start()
    try:
        compiled.run(tiles, threads, *arguments)
    finally:
        budget.finish(started, budget.remaining)


def _uses_derivatives(machine: FragmentMachine) -> bool:
    known = machine.__dict__.get("_uses_derivatives")
    if known is None:
        known = machine.__dict__["_uses_derivatives"] = any(
            i.view.opcode is not None and i.view.opcode.name in ("DDX", "DDY") for i in machine.program.instructions)
    return known


def _tile_pixels(pixels: int, threads: int, parallel: bool) -> int:
    """Pixels per tile: :data:`TILE_PIXELS`, or fewer so that every thread gets a tile.

    On Numba's pool (``parallel``) a tile costs next to nothing to hand out, so a small picture
    is cut in as many tiles as there are threads. Handed to Python threads, a tile of less than
    half of :data:`TILE_PIXELS` would cost more than it saves, and a picture of one tile or less
    runs on the calling thread (measured at 128², 16,384 pixels).
    """
    if parallel:  # a whole number of tiles per thread, each at most TILE_PIXELS
        tiles = threads * -(-pixels // (threads * TILE_PIXELS))
        return max(MINIMUM_PARALLEL_TILE, -(-pixels // tiles))
    if pixels <= TILE_PIXELS:
        return TILE_PIXELS
    return max(TILE_PIXELS // 2, min(TILE_PIXELS, -(-pixels // threads)))


@functools.cache
def parallel_loops_are_safe() -> bool:
    """Whether Numba's parallel loops can run here on a thread-safe pool (OpenMP or TBB).

    The fallback, Numba's "workqueue" pool, aborts the process when two Python threads start
    parallel loops at once; without a safe pool the tiles go to Python threads instead. Where no
    layer was chosen, this asks Numba for a thread-safe one (before any parallel loop has run).
    """
    available = False
    for module in ("numba.np.ufunc.tbbpool", "numba.np.ufunc.omppool"):
        try:
            importlib.import_module(module)
        except (ImportError, OSError):
            continue
        available = True
    if not available:
        return False
    if numba.config.THREADING_LAYER == "default":
        numba.config.THREADING_LAYER = "threadsafe"
    return numba.config.THREADING_LAYER in ("threadsafe", "safe", "tbb", "omp")


def row_tiles(height: int, width: int, pixels: int | None = None) -> list[tuple[int, int, int, int]]:
    """Tiles (row0, rows, col0, cols) of whole rows, an even number each (2x2 quads stay whole),
    about ``pixels`` (default :data:`TILE_PIXELS`) each; a last odd row joins the tile before it."""
    rows = max(2, ((pixels or TILE_PIXELS) // width) & ~1)
    tiles = [(start, min(rows, height - start), 0, width) for start in range(0, height, rows)]
    if len(tiles) > 1 and tiles[-1][1] == 1:
        start, count, _, _ = tiles[-2]
        tiles[-2:] = [(start, count + 1, 0, width)]
    return tiles


# --- running -------------------------------------------------------------------------------------

def run_lanes(machine: FragmentMachine, inputs: Mapping[str, np.ndarray], *, grid=None,
              textures: Mapping[int, Texture] = {}, output_from_h0: bool = False,
              budget: RunBudget | int | None = None) -> FragmentResult | None:
    """:meth:`.FragmentMachine.run` compiled, or None when the interpreter must run it."""
    lanes, grid = _lane_layout(inputs, grid)
    if grid is None and _uses_derivatives(machine):
        return None
    table = _input_table(inputs, lanes, machine.inputs_read)
    # Every input read is passed per lane (constants broadcast), so one compilation serves any
    # mix of constant and varying inputs.
    varying = tuple(sorted(machine.inputs_read))
    exports = tuple(register for register in EXPORTED_REGISTERS if register in machine.register_rows)
    layout = Layout(fullscreen=False, varying=varying, exports=exports)
    compiled = compiled_program(machine, layout)
    if compiled is None:
        return None
    budget = as_budget(budget)
    if not _charge(machine, budget, lanes):
        return None
    if varying:
        inp = np.stack([np.broadcast_to(table[index], (4, lanes)) for index in varying])
    else:
        inp = np.zeros((1, 4, 1), dtype=F32)
    cst = np.zeros((OVERRIDE_ROW + 1, 4), dtype=F32)
    out = np.zeros((max(len(exports), 1), lanes, 4), dtype=F32)
    killed = np.zeros(lanes, dtype=bool)
    threads = numba.get_num_threads()
    if grid is None:
        height, width = 1, lanes
        tiles = [(0, 1, start, min(TILE_PIXELS, lanes - start)) for start in range(0, lanes, TILE_PIXELS)]
    else:
        height, width = grid
        tiles = row_tiles(height, width, _tile_pixels(lanes, threads, compiled.parallel))
    _run_timed(compiled, budget, tiles, threads, width, height, inp, cst, out, killed, textures)

    def export(register: int) -> np.ndarray:
        if register not in exports:
            return np.zeros((lanes, 4), dtype=F32)
        values = out[exports.index(register)]
        return halfs.unpack_register(values.T, 2 * register).T if output_from_h0 else values

    depth = out[exports.index(DEPTH_REGISTER)][:, 2] if DEPTH_REGISTER in exports else np.zeros(lanes, dtype=F32)
    return FragmentResult(color=export(0), killed=killed, depth=depth,
                          mrt=tuple(export(register) for register in MRT_REGISTERS))


_CONSTANT_INPUTS: dict = {}


def _constant_inputs(overrides: Mapping[str, object]) -> np.ndarray:
    """The (15, 4) constant inputs of a full-screen run, checked and clamped as the interpreter's
    are (a one-pixel quad's), kept per set of overrides."""
    try:
        key = tuple(sorted((str(name), np.asarray(values, dtype=F32).tobytes()) for name, values in overrides.items()))
    except (TypeError, ValueError):
        key = None
    if key is not None and key in _CONSTANT_INPUTS:
        return _CONSTANT_INPUTS[key]
    table = _input_table(fullscreen_inputs(1, 1, overrides), 1, set(range(len(FP_INPUTS))))
    constants = np.zeros((OVERRIDE_ROW + 1, 4), dtype=F32)
    constants[:len(FP_INPUTS)] = np.stack([column[:, 0] for column in table])
    for position, index in enumerate(PROCEDURAL_ORDER):
        constants[OVERRIDE_ROW, position] = FP_INPUTS[index] in overrides
    if key is not None and len(_CONSTANT_INPUTS) < 64:
        _CONSTANT_INPUTS[key] = constants
    return constants


_FULLSCREEN_LAYOUTS = {output_from_h0: Layout(fullscreen=True, procedural=PROCEDURAL_INPUTS,
                                               output_from_h0=output_from_h0) for output_from_h0 in (False, True)}


def fullscreen_layout(overrides: Mapping[str, object], output_from_h0: bool) -> Layout:
    return _FULLSCREEN_LAYOUTS[bool(output_from_h0)]


def run_image(machine: FragmentMachine, width: int, height: int,
              overrides: Mapping[str, tuple[float, float, float, float]] = {}, *,
              textures: Mapping[int, Texture] = {}, output_from_h0: bool = False,
              budget: RunBudget | int | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`.fragment.run_fullscreen` compiled: (image, killed), or None when the interpreter
    must run it. Inputs are computed per pixel; the colour is written straight into the image."""
    if width < 1 or height < 1:
        return None
    cst = _constant_inputs(overrides)
    compiled = compiled_program(machine, fullscreen_layout(overrides, output_from_h0))
    if compiled is None:
        return None
    budget = as_budget(budget)
    if not _charge(machine, budget, width * height):
        return None
    image = np.empty((height, width, 4), dtype=F32)
    killed = np.zeros((height, width), dtype=bool)
    threads = numba.get_num_threads()
    _run_timed(compiled, budget, row_tiles(height, width, _tile_pixels(width * height, threads, compiled.parallel)),
               threads,
               width, height, _NO_INPUTS, cst, image.reshape(1, height * width, 4), killed.reshape(height * width),
               textures)
    return image, killed


