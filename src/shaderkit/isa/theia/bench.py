"""What ``shaderkit bench -m theia`` measures: ray–triangle tests per second of the emulator,
of a direct vectorised NumPy baseline that computes the same hits, and of the same hit test
as one compiled kernel (the limit), all in the same run.

* **Emulator, whole render**: a whole ``TheiaMachine().render(...)`` of :func:`bench_scene`
  (128×128 pixels, 32 triangles, textured, 4 cores), i.e. the default microcode run on SIMT
  lanes by the compiled core: INITIAL/CPPU, RGU, AABBIU, BIU per triangle, TCC after every
  accepted BIU, the texel fetch, PSU2, PIXELSHADER, the pixel write and NPG. Its work count
  is ``render.triangle_tests`` (pixels × triangles whose box test passed; the V1 box test
  accepts every box, so pixels × 32).
* **Direct**: :func:`direct_hits`, the same fixed-point ray generation (spec §6.3, §6.4)
  and Möller–Trumbore test (§6.6) written straight in NumPy with the bit-exact units of
  :mod:`.semantics`, one triangle at a time over all pixels, with the closest-hit
  update. It does the same per-pixel row work as the microcode — every row (E1, E2, T,
  Q, H1 included) is computed for every pixel, as each SIMT lane does — so the ratio
  measures interpretation overhead (plus the shading the emulator also does), not a
  cleverer algorithm. ``direct_hits(scene, hoist=True)`` is the variant a NumPy
  programmer would also write, with the per-triangle rows computed once; it is timed
  too and reported as ``direct_hoisted_tests_per_s``.
* **The hit test alone**, rays ready: the emulator's traversal (AABBIU, then BIU per
  triangle, no TCC) on tiles set up to the end of RGU outside the timing
  (:meth:`.machine.TheiaMachine.hit_test`); :func:`direct_hit_test`, the direct baseline
  without the ray generation; and the **limit**, :func:`limit_hit_test`: the hoisted hit
  test as one compiled loop over pixels and triangles with the compiled units, dividing
  only the X lane of the DOT rows.

All are called alternately, round after round, in the same process
(:func:`shaderkit.core.timing.measure_rounds`); each figure is from the best round, with the
median round beside it. Before timing, the run checks that every side finds the same hits.
The machine is built and the kernels compiled outside the timing (like a compiled program);
their first-call seconds are reported, with whether they were compiled or loaded from the
cache. Targets (issue 15): the emulator at least 1.5× the direct baseline on the whole
render, and its hit test within 5× of the limit.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...core.diagnostics import ShaderkitError
from ...core.jit import first_call, jit, thread_counts
from ...core.timing import measure_rounds
from .compiled_core import run_call
from .compiled_units import TEST_GE, TEST_LE, add, compare, cross, divide, dot, sub
from .fixedpoint import ONE, to_fixed
from .scene import DATA_OFFSET_UPSTREAM, NO_HIT_DISTANCE, Scene, triangles
from .semantics import i_ADD, i_CROSS, i_DIV, i_DOT, i_MAG, i_MUL, i_SUB, jump_taken

WIDTH = HEIGHT = 128
TRIANGLE_COUNT = 32
CORES = 4
TEXTURE_SIDE = 16
CAMERA = (0.0, 0.0, 8.0)
WINDOW = ((-4.0, -4.0), (4.0, 4.0))
CONTROL = 7  # texturing on, as in every shipped scene
CONFIGURATION_PACKET_COUNT = 7
# The ring of petals: inner and outer radius, petal half-angle (1.5 × the spacing/2,
# so each petal overlaps half of each neighbour), depths and tilt.
RING_INNER, RING_OUTER = 0.75, 4.5
PETAL_HALF_ANGLE = 1.5 * math.pi / TRIANGLE_COUNT
NEAREST_Z, DEPTH_SPAN = -1.0, 2.0
TIP_RAISE, EDGE_TILT = 0.5, 0.25

# Triangle word layout (spec §7.2): V0, UV0, V1, UV1, V2, UV2, diffuse, 3 words each.
V0, V1, V2 = slice(0, 3), slice(6, 9), slice(12, 15)
# Diffuse green is (k + 1) / 32 for triangle k: a user pixel shader can read back which
# triangle's *_LAST rows a pixel ended with (tests/isa/theia/test_bench.py does).
DIFFUSE_INDEX_SHIFT = 12

LAST_T_RESET = to_fixed(NO_HIT_DISTANCE)
DEFAULT_SECONDS = 2.0
MINIMUM_ROUNDS = 2
TARGET_SPEEDUP = 1.5    # issue 15: the emulator at least 1.5x the direct NumPy baseline (whole render)
TARGET_LIMIT_GAP = 5.0  # issue 15: the emulator's hit test within 5x of the compiled limit
U64 = np.uint64


def _fixed_row(*values: float) -> np.ndarray:
    return np.array([to_fixed(value) for value in values], dtype=np.uint32)


def _texture() -> np.ndarray:
    """A 16×16 texture, (H, W, 3) words: a red checkerboard over green/blue ramps, no channel below 0.25."""
    v, u = np.mgrid[0:TEXTURE_SIDE, 0:TEXTURE_SIDE]
    red = 0.25 + 0.75 * ((u ^ v) & 1)
    green = 0.25 + 0.5 * u / (TEXTURE_SIDE - 1)
    blue = 0.25 + 0.5 * v / (TEXTURE_SIDE - 1)
    return np.round(np.stack([red, green, blue], axis=-1) * ONE).astype(np.uint32)


def triangle_words(v0, v1, v2, index: int) -> np.ndarray:
    """One triangle's 21 words (spec §7.2) from three corners (x, y, z) in world units.

    Texture coordinates (1, 0), (0, 2), (2, 2) (the texture repeats twice across the
    triangle, so TCC's MOD wraps), alpha 1.0, diffuse (1.0, (index + 1) / 32, 1.0): the
    green channel tells which triangle a pixel's *_LAST rows came from.
    """
    words = [
        *_fixed_row(*v0), *_fixed_row(1.0, 0.0, 1.0),
        *_fixed_row(*v1), *_fixed_row(0.0, 2.0, 1.0),
        *_fixed_row(*v2), *_fixed_row(2.0, 2.0, 1.0),
        ONE, (index + 1) << DIFFUSE_INDEX_SHIFT, ONE,
    ]
    return np.array(words, dtype=np.uint32)


def _petal(k: int) -> np.ndarray:
    """Petal k of the ring: tip at the inner radius, base at the outer radius."""
    angle = 2 * math.pi * k / TRIANGLE_COUNT
    # Depths in a scrambled order (7 is coprime with 32), so neighbours overlap at different depths.
    z = NEAREST_Z - DEPTH_SPAN * ((7 * k) % TRIANGLE_COUNT) / (TRIANGLE_COUNT - 1)
    tip = (RING_INNER * math.cos(angle), RING_INNER * math.sin(angle), z + TIP_RAISE)
    left = (RING_OUTER * math.cos(angle - PETAL_HALF_ANGLE), RING_OUTER * math.sin(angle - PETAL_HALF_ANGLE),
            z + EDGE_TILT)
    right = (RING_OUTER * math.cos(angle + PETAL_HALF_ANGLE), RING_OUTER * math.sin(angle + PETAL_HALF_ANGLE),
             z - EDGE_TILT)
    return triangle_words(tip, left, right, k)


def make_scene(triangle_rows, window=WINDOW, camera=CAMERA) -> Scene:
    """A 128×128 textured 4-core scene of one leaf node holding ``triangle_rows`` (each 21 words).

    The node header is AABB min/max of the corners, the triangle count, the upstream
    offset-to-data 10.0 and no links; one light record at the camera, diffuse (1, 1, 1).
    """
    triangle_rows = np.stack([np.asarray(words, dtype=np.uint32) for words in triangle_rows])
    corners = np.concatenate([triangle_rows[:, V0], triangle_rows[:, V1], triangle_rows[:, V2]])
    signed = corners.view(np.int32)
    header = np.array([*signed.min(axis=0).view(np.uint32), *signed.max(axis=0).view(np.uint32),
                       len(triangle_rows), DATA_OFFSET_UPSTREAM, 0, 0], dtype=np.uint32)
    vertex_memory = np.concatenate([header, triangle_rows.reshape(-1)])
    camera_row = _fixed_row(*camera)
    (xmin, ymin), (xmax, ymax) = window
    config = np.array([
        [0, ONE, CONFIGURATION_PACKET_COUNT],          # one light record
        camera_row,
        _fixed_row(xmin, ymin, 0.0),
        _fixed_row(xmax, ymax, 0.0),
        [WIDTH * ONE, HEIGHT * ONE, 0],
        [TEXTURE_SIDE * ONE, TEXTURE_SIDE * ONE, 0],
    ], dtype=np.uint32)
    band = HEIGHT // CORES
    cores = [(np.array([0, k * band * ONE, 0], dtype=np.uint32),
              np.array([WIDTH * ONE, (k + 1) * band * ONE, 0], dtype=np.uint32)) for k in range(CORES)]
    lights = [(camera_row.copy(), np.array([ONE, ONE, ONE], dtype=np.uint32))]
    return Scene(config, cores, lights, vertex_memory, _texture(), CONTROL, "V1", [])


def bench_scene() -> Scene:
    """The benchmark scene, built in code (deterministic, no files).

    128×128 pixels, 4 cores in horizontal bands like the shipped scenes, the camera at
    (0, 0, 8) looking through the window −4..4 in the plane z = 0 (the scale of the
    upstream examples: every product stays in the multiplier's exact range). The
    geometry is a ring of 32 triangular petals around the view axis, z between −0.5 and
    −3.25, each overlapping half of each neighbour at a different depth and tilted, so
    the closest-hit rule decides many pixels; the centre hole and the image corners
    miss (about 60 % of the pixels hit). Texturing is on (control 7) with a 16×16
    generated texture whose channels are all at least 0.25, so TCC, the texel fetch and
    PSU2 run and every hit pixel is non-black, every miss black.
    """
    return make_scene([_petal(k) for k in range(TRIANGLE_COUNT)])


# --------------------------------------------------------------------------- the direct baseline


class DirectHits(NamedTuple):
    """Per pixel, image layout (H, W): what the BIU calls of that pixel leave behind."""

    hit: np.ndarray       # bool: some BIU call returned TRUE
    closest: np.ndarray   # int: index of the triangle that last stored LAST_t, −1 if none did
    last_t: np.ndarray    # uint32: LAST_t.x after the last triangle (250.0 if no triangle stored)


def _column(words: np.ndarray) -> np.ndarray:
    return np.asarray(words, dtype=np.uint32).reshape(3, 1)


def ray_directions(scene: Scene) -> np.ndarray:
    """CPPU and RGU (spec §6.3, §6.4) for every pixel, row-major: RAY_DIRECTION rows, (3, W·H)."""
    width, height = scene.width, scene.height
    config = scene.config
    camera, window_min, window_max, resolution = (_column(config[row]) for row in (1, 2, 3, 4))
    scale = i_DIV(i_SUB(window_max, window_min), resolution)
    y, x = np.divmod(np.arange(width * height, dtype=np.uint32), np.uint32(width))
    position = np.stack([x << np.uint32(17), y << np.uint32(17), np.zeros_like(x)])
    on_window = i_ADD(i_MUL(position, scale), window_min)
    unnormalised = i_SUB(on_window, camera)
    return i_DIV(unnormalised, i_MAG(unnormalised, unnormalised))


def direct_hits(scene: Scene, hoist: bool = False) -> DirectHits:
    """The baseline: fixed-point ray generation and BIU (spec §6.6) vectorised over all pixels.

    Bit exact with the default microcode: the same operations on the same rows in the
    same order (the units of :mod:`.semantics`), the compare-jump rules of §4.6 for
    ``u ≥ 0``, ``v ≥ 0``, ``u + v ≤ 1`` and ``t GE LAST_t``, and LAST_t starting at 250.0
    for every pixel (AABBIU resets it). No t > 0 and no DELTA = 0 test, as in V1.
    With ``hoist`` the rows that depend only on the triangle (E1, E2, T, Q, H1) are
    computed once per triangle instead of once per pixel; the result is the same.
    """
    return direct_hit_test(scene, ray_directions(scene), hoist)


def direct_hit_test(scene: Scene, direction: np.ndarray, hoist: bool = False) -> DirectHits:
    """:func:`direct_hits` from given ray directions (3, W·H): the hit test alone."""
    width, height = scene.width, scene.height
    pixels = width * height
    camera = _column(scene.config[1])
    zero = np.zeros((3, 1), dtype=np.uint32)
    one = np.array([[ONE], [0], [0]], dtype=np.uint32)
    hit = np.zeros(pixels, dtype=bool)
    closest = np.full(pixels, -1, dtype=np.int64)
    last_t = np.full(pixels, LAST_T_RESET, dtype=np.uint32)
    shape = (3, 1) if hoist else (3, pixels)
    for index, words in enumerate(triangles(scene)):
        v0, v1, v2 = (np.broadcast_to(_column(words[part]), shape) for part in (V0, V1, V2))
        origin = np.broadcast_to(camera, shape)
        e1 = i_SUB(v1, v0)
        e2 = i_SUB(v2, v0)
        to_origin = i_SUB(origin, v0)
        p = i_CROSS(direction, e2)
        q = i_CROSS(to_origin, e1)
        h1 = i_DOT(q, e2)
        h2 = i_DOT(p, to_origin)
        h3 = i_DOT(q, direction)
        delta = i_DOT(p, e1)
        t = i_DIV(h1, delta)
        u = i_DIV(h2, delta)
        v = i_DIV(h3, delta)
        accepted = jump_taken("JGEX", u, zero)
        accepted &= jump_taken("JGEX", v, zero)
        accepted &= jump_taken("JLEX", i_ADD(u, v), one)
        hit |= accepted
        t_x = np.broadcast_to(t[0], (pixels,))
        closer = accepted & ~jump_taken("JGEX", t_x[None, :], last_t[None, :])
        last_t[closer] = t_x[closer]
        closest[closer] = index
    return DirectHits(hit.reshape(height, width), closest.reshape(height, width), last_t.reshape(height, width))


# --------------------------------------------------------------------------- the compiled limit


@jit
def _limit_kernel(direction, triangle_words, camera, hit, closest, last_t):
    """The hoisted hit test as one compiled kernel: per triangle E1, E2, T, Q and H1 once, then
    for every pixel P, DELTA, H2, H3, the three divisions (X lane only: a DOT row holds one
    value thrice) and BIU's compare rules; bit exact with :func:`direct_hits`. The pixel loop
    has no branches (every pixel computes everything, then selects), so it vectorises."""
    pixels = direction.shape[1]
    ray_x, ray_y, ray_z = direction[0], direction[1], direction[2]
    zero = U64(0)
    one = U64(ONE)
    for index in range(triangle_words.shape[0]):
        words = triangle_words[index]
        v0 = (U64(words[0]), U64(words[1]), U64(words[2]))
        e1 = (sub(U64(words[6]), v0[0]), sub(U64(words[7]), v0[1]), sub(U64(words[8]), v0[2]))
        e2 = (sub(U64(words[12]), v0[0]), sub(U64(words[13]), v0[1]), sub(U64(words[14]), v0[2]))
        to_origin = (sub(U64(camera[0]), v0[0]), sub(U64(camera[1]), v0[1]), sub(U64(camera[2]), v0[2]))
        q = cross(to_origin, e1)
        h1 = dot(q, e2)
        for pixel in range(pixels):
            ray = (U64(ray_x[pixel]), U64(ray_y[pixel]), U64(ray_z[pixel]))
            p = cross(ray, e2)
            delta = dot(p, e1)
            u = divide(dot(p, to_origin), delta)
            v = divide(dot(q, ray), delta)
            t = divide(h1, delta)
            accepted = compare(TEST_GE, u, zero) & compare(TEST_GE, v, zero) & compare(TEST_LE, add(u, v), one)
            closer = accepted & (not compare(TEST_GE, t, U64(last_t[pixel])))
            hit[pixel] |= accepted
            last_t[pixel] = np.uint32(t) if closer else last_t[pixel]
            closest[pixel] = index if closer else closest[pixel]


def limit_hit_test(scene: Scene, direction: np.ndarray) -> DirectHits:
    """:func:`direct_hit_test`, hoisted, as one compiled kernel: the limit the emulator's hit test is held to."""
    pixels = scene.width * scene.height
    hit = np.zeros(pixels, dtype=np.bool_)
    closest = np.full(pixels, -1, dtype=np.int64)
    last_t = np.full(pixels, LAST_T_RESET, dtype=np.uint32)
    _limit_kernel(direction, triangles(scene), _column(scene.config[1])[:, 0].copy(), hit, closest, last_t)
    shape = (scene.height, scene.width)
    return DirectHits(hit.reshape(shape), closest.reshape(shape), last_t.reshape(shape))


# --------------------------------------------------------------------------- timing


RATES = {  # figure: (timed work, what counts as its tests)
    "emulator_tests_per_s": "emulator",
    "direct_tests_per_s": "direct",
    "direct_hoisted_tests_per_s": "direct_hoisted",
    "emulator_hit_tests_per_s": "emulator_hit",
    "direct_hit_tests_per_s": "direct_hit",
    "limit_tests_per_s": "limit",
}


@dataclass
class BenchResults:
    figures: dict[str, float | int | str]

    def report(self) -> str:
        f = self.figures
        scene = (f"{int(f['width'])}x{int(f['height'])} render, {int(f['triangles'])} triangles, "
                 f"{int(f['hits']):,} hit pixels")
        lines = [scene, f"{'ray-triangle tests/s':>50} {'best':>14} {'median':>14}"]
        for key, label in (
                ("emulator_tests_per_s", "emulator, whole render"),
                ("direct_tests_per_s", "direct NumPy, rays + hit test"),
                ("direct_hoisted_tests_per_s", "direct NumPy, per-triangle rows once"),
                ("emulator_hit_tests_per_s", "emulator, hit test alone"),
                ("direct_hit_tests_per_s", "direct NumPy, hit test alone"),
                ("limit_tests_per_s", "limit: hoisted hit test compiled")):
            lines.append(f"{label:<36} {f[key]:28,.0f} {f[key + '_median']:14,.0f}")
        speedup, hit_speedup, gap = f["emulator_vs_direct"], f["emulator_hit_vs_direct_hit"], f["limit_vs_emulator_hit"]
        lines.append(f"emulator / direct NumPy, whole render: {speedup:.2f}x "
                     f"(target at least {TARGET_SPEEDUP:g}x: {'met' if speedup >= TARGET_SPEEDUP else 'not met'})")
        lines.append(f"emulator / direct NumPy, hit test:     {hit_speedup:.2f}x")
        lines.append(f"limit / emulator, hit test:            {gap:.2f}x "
                     f"(target at most {TARGET_LIMIT_GAP:g}x: {'met' if gap <= TARGET_LIMIT_GAP else 'not met'})")
        lines.append(f"first call of the compiled core: {f['compile_s']:.2f} s ({f['compile_state']}); "
                     f"of the limit kernel: {f['limit_compile_s']:.2f} s ({f['limit_compile_state']})")
        lines.append(f"best and median of {int(f['rounds'])} alternating rounds in {f['seconds']:.2f} s; "
                     f"{int(f['cpu_count'])} CPUs, {int(f['numba_threads'])} Numba threads, "
                     f"load average {f['load_average']:.2f}")
        return "\n".join(lines)


def _check_same_hits(render, direct: DirectHits, hoisted: DirectHits, emulator_hit: np.ndarray,
                     direct_hit: DirectHits, limit: DirectHits) -> None:
    """Every side must find the emulator's hits: with the bench texture (no channel below 0.25)
    a pixel is non-black exactly when some BIU call returned TRUE for it. The hit test's lanes
    are the pixels in row-major order (the bench scene's core bands run top to bottom)."""
    emulator_hit_pixels = render.image.any(axis=2)
    same = (np.array_equal(emulator_hit_pixels, direct.hit)
            and int(direct.hit.sum()) == sum(core.hits for core in render.cores)
            and np.array_equal(emulator_hit, direct.hit.reshape(-1))
            and all(np.array_equal(a, b) for other in (hoisted, direct_hit, limit) for a, b in zip(direct, other)))
    if not same:
        raise ShaderkitError("benchmark: the direct baselines, the limit and the emulator disagree on the hit pixels")


def _emulator_hit_test(machine, scene: Scene):
    """The emulator's hit test alone: the traversal (AABBIU, then BIU per triangle) on the
    tiles of the whole image, set up to the end of RGU outside the timing."""
    tiles = machine.ray_tiles(scene)

    def run() -> np.ndarray:
        return np.concatenate([machine.hit_test(core, scene, core_of_lane) for core, core_of_lane in tiles])
    return run


def _first_call_of_the_core() -> tuple[float, str]:
    """Seconds to compile (or load from the cache) the compiled core, on a one-lane call."""
    from .machine import TheiaMachine
    from .simt import Core, Lanes
    machine = TheiaMachine(compiled=True)
    core = Core(machine.code, Lanes.zeros(1), machine.budget)
    return first_call((run_call,), lambda: core.call(machine.entries["USERCONSTANTS"]))


def run_benchmark(seconds: float = DEFAULT_SECONDS) -> BenchResults:
    """Time the emulator, the direct baselines and the compiled limit, alternating, for about ``seconds``.

    Whole render: ``emulator_tests_per_s`` (``render.triangle_tests`` per render second) against
    ``direct_tests_per_s`` (:func:`direct_hits`: ray generation and the hit test) and
    ``direct_hoisted_tests_per_s``. Hit test alone, rays ready: ``emulator_hit_tests_per_s``
    (the machine's traversal, :meth:`TheiaMachine.hit_test`, on tiles set up to the end of
    RGU), ``direct_hit_tests_per_s`` (:func:`direct_hit_test`) and ``limit_tests_per_s``
    (:func:`limit_hit_test`). Each rate is from the best round, ``<key>_median`` from the
    median one. Ratios: ``emulator_vs_direct`` (target at least 1.5), ``emulator_hit_vs_direct_hit``,
    ``limit_vs_emulator_hit`` (target at most 5), and as before ``ratio`` = direct / emulator and
    ``hoisted_ratio``. Also the first-call seconds and state (compiled, cache, ready) of the
    compiled core (``compile_s``, ``compile_state``) and of the limit kernel, thread counts,
    the load average, the scene, ``rounds`` and ``seconds``.
    """
    from .machine import TheiaMachine

    compile_seconds, compile_state = _first_call_of_the_core()
    scene = bench_scene()
    machine = TheiaMachine(compiled=True)
    render = machine.render(scene)
    direct = direct_hits(scene)
    directions = ray_directions(scene)
    limit_seconds, limit_state = first_call((_limit_kernel,), lambda: limit_hit_test(scene, directions))
    emulator_hit_test = _emulator_hit_test(machine, scene)
    _check_same_hits(render, direct, direct_hits(scene, hoist=True), emulator_hit_test(),
                     direct_hit_test(scene, directions), limit_hit_test(scene, directions))
    measured = measure_rounds({
        "emulator": lambda: machine.render(scene),
        "direct": lambda: direct_hits(scene),
        "direct_hoisted": lambda: direct_hits(scene, hoist=True),
        "emulator_hit": emulator_hit_test,
        "direct_hit": lambda: direct_hit_test(scene, directions),
        "limit": lambda: limit_hit_test(scene, directions),
    }, seconds, MINIMUM_ROUNDS)
    tests = scene.width * scene.height * scene.triangle_count
    if render.triangle_tests != tests:
        raise ShaderkitError("benchmark: the emulator did not test every triangle on every pixel")
    figures: dict[str, float | int | str] = {}
    for key, work in RATES.items():
        figures[key] = tests / measured.best[work]
        figures[f"{key}_median"] = tests / measured.median[work]
    figures.update({
        "emulator_vs_direct": figures["emulator_tests_per_s"] / figures["direct_tests_per_s"],
        "emulator_hit_vs_direct_hit": figures["emulator_hit_tests_per_s"] / figures["direct_hit_tests_per_s"],
        "limit_vs_emulator_hit": figures["limit_tests_per_s"] / figures["emulator_hit_tests_per_s"],
        "ratio": figures["direct_tests_per_s"] / figures["emulator_tests_per_s"],
        "hoisted_ratio": figures["direct_hoisted_tests_per_s"] / figures["emulator_tests_per_s"],
        "emulator_render_s": measured.best["emulator"],
        "direct_s": measured.best["direct"],
        "direct_hoisted_s": measured.best["direct_hoisted"],
        "compile_s": compile_seconds,
        "compile_state": compile_state,
        "limit_compile_s": limit_seconds,
        "limit_compile_state": limit_state,
        **thread_counts(),
        "load_average": os.getloadavg()[0],
        "width": scene.width,
        "height": scene.height,
        "triangles": scene.triangle_count,
        "hits": int(direct.hit.sum()),
        "emulator_tests": render.triangle_tests,
        "rounds": measured.rounds,
        "seconds": measured.elapsed,
    })
    return BenchResults(figures)
