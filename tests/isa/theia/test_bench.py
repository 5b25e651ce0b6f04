"""Tests for shaderkit.isa.theia.bench: the bench scene is what it says, the direct NumPy
Möller–Trumbore baseline finds exactly the emulator's hits (hit mask, winning triangle and
LAST_t word per pixel, read back through a user pixel shader), also on a scene built to
reach the V1 corner cases (hits at t ≥ 250.0, a triangle behind the camera, an exact tie),
so do the hit test alone, its hoisted variant and the compiled limit kernel, and
run_benchmark returns every figure (best and median). No timing is asserted."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest

from shaderkit.isa.theia import Theia
from shaderkit.isa.theia.bench import (
    DIFFUSE_INDEX_SHIFT,
    LAST_T_RESET,
    bench_scene,
    direct_hit_test,
    direct_hits,
    limit_hit_test,
    make_scene,
    ray_directions,
    run_benchmark,
    triangle_words,
)
from shaderkit.isa.theia.fixedpoint import ONE
from shaderkit.isa.theia.machine import TheiaMachine
from shaderkit.isa.theia.scene import NODE_HEADER_WORDS, TRIANGLE_WORDS, triangles

# The pixel shader writes (LAST_t.x, TRI_DIFFUSE_LAST.y, TRI_DIFFUSE_LAST.z) as the pixel's
# three output words: XCHANGEX gives (B.x, A.y, A.z) with A = S1, B = S2.
READBACK_SHADER = """
ENTRYPOINT_ADRR_PIXELSHADER:
    XCHANGEX OREG_PIXEL_COLOR CREG_TRI_DIFFUSE_LAST CREG_LAST_t
    RETURN RT_TRUE
"""


@pytest.fixture(scope="module")
def scene():
    return bench_scene()


@pytest.fixture(scope="module")
def direct(scene):
    return direct_hits(scene)


def emulator_readback(scene):
    """Per pixel (hit, winning triangle or −1, LAST_t word) as the emulator leaves them."""
    program = Theia().assemble(READBACK_SHADER)
    render = TheiaMachine(program.image).render(scene)
    words = render.memory.reshape(scene.height, scene.width, 3)
    # A pixel without a hit is never shaded: BIU cleared its colour to (0, 0, 0). A hit
    # pixel's LAST_t.x is 250.0 or some t; none of these scenes has a hit at t = 0 exactly.
    hit = words.any(axis=2)
    closest = (words[..., 1].astype(np.int64) >> DIFFUSE_INDEX_SHIFT) - 1
    return render, hit, closest, words[..., 0]


def assert_same_as_emulator(scene, direct):
    render, hit, closest, last_t = emulator_readback(scene)
    assert np.array_equal(direct.hit, hit)
    assert np.array_equal(direct.closest[hit], closest[hit])
    assert np.array_equal(direct.last_t[hit], last_t[hit])
    assert int(hit.sum()) == sum(core.hits for core in render.cores)
    return render


# --------------------------------------------------------------------------- the scene


def test_bench_scene_shape(scene):
    assert (scene.width, scene.height) == (128, 128)
    assert scene.triangle_count == 32
    assert len(scene.vertex_memory) == NODE_HEADER_WORDS + 32 * TRIANGLE_WORDS
    assert scene.texture_enabled and scene.texture.shape == (16, 16, 3)
    assert scene.texture.min() >= ONE // 4  # no dark texel: hit pixels cannot be black
    assert len(scene.cores) == 4


def test_bench_scene_is_deterministic(scene):
    again = bench_scene()
    assert np.array_equal(scene.vertex_memory, again.vertex_memory)
    assert np.array_equal(scene.config, again.config)
    assert np.array_equal(scene.texture, again.texture)


def test_bench_scene_keeps_the_multiplier_exact(scene):
    # Coordinates (and so every edge, T and cross product) stay far below 10922.67,
    # where the radix-4 multiplier stops being exact (spec §4.2).
    corners = triangles(scene)[:, [0, 1, 2, 6, 7, 8, 12, 13, 14]].view(np.int32) / ONE
    assert np.abs(corners).max() < 8
    assert np.all(corners[:, [2, 5, 8]] < 0)  # everything in front of the camera at z = 8


def test_bench_scene_has_hits_misses_and_every_triangle_visible(direct):
    pixels = direct.hit.size
    assert 0.3 * pixels < direct.hit.sum() < 0.9 * pixels
    assert set(np.unique(direct.closest[direct.hit])) == set(range(32))
    assert not direct.hit[64, 64]  # the centre hole
    assert not direct.hit[0, 0]    # an image corner


def test_bench_scene_triangles_overlap(scene, direct):
    # Tested one at a time, the triangles cover more pixels than their union: the
    # closest-hit rule has to decide the overlaps.
    covered = 0
    for index in range(scene.triangle_count):
        alone = dataclasses.replace(scene, vertex_memory=np.concatenate([
            scene.vertex_memory[:NODE_HEADER_WORDS],
            triangles(scene)[index]]))
        alone.vertex_memory[6] = 1
        covered += int(direct_hits(alone).hit.sum())
    assert covered > 1.2 * direct.hit.sum()


# --------------------------------------------------------------------------- same hits


def test_direct_hits_match_the_emulator_on_the_bench_scene(scene, direct):
    render = assert_same_as_emulator(scene, direct)
    assert render.triangle_tests == scene.width * scene.height * scene.triangle_count


def test_default_render_is_non_black_exactly_on_the_direct_hits(scene, direct):
    image = TheiaMachine().render(scene).image
    assert np.array_equal(image.any(axis=2), direct.hit)


def test_hoisted_baseline_is_identical(scene, direct):
    hoisted = direct_hits(scene, hoist=True)
    for ours, theirs in zip(direct, hoisted):
        assert np.array_equal(ours, theirs)


def test_closest_hit_does_not_depend_on_triangle_order(scene, direct):
    # "Closest" is decided by t (t GE LAST_t keeps the earlier one), so reversing the
    # triangles keeps every pixel's LAST_t; a "last one wins" update would not.
    reversed_rows = triangles(scene)[::-1]
    reversed_scene = dataclasses.replace(scene, vertex_memory=np.concatenate(
        [scene.vertex_memory[:NODE_HEADER_WORDS], reversed_rows.reshape(-1)]))
    reversed_hits = direct_hits(reversed_scene)
    assert np.array_equal(reversed_hits.hit, direct.hit)
    assert np.array_equal(reversed_hits.last_t, direct.last_t)
    won = direct.closest >= 0
    assert np.array_equal(31 - reversed_hits.closest[won], direct.closest[won])


def corner_case_scene():
    """Narrow window (−0.5..0.5) with: a far triangle at t ≈ 253 (TRUE, but nothing stored),
    one at t ≈ 243 overlapping it, a near one, one behind the camera (t < 0 wins: V1 has
    no t > 0 test) and two identical ones (a tie: GE keeps the first)."""
    rows = [
        triangle_words((-4, -4, -245), (4, -4, -245), (-4, 4, -245), 0),      # t ≈ 253
        triangle_words((0, 0, -235), (6, 0, -235), (0, 6, -235), 1),          # t ≈ 243
        triangle_words((-0.1, -0.1, -1), (0.05, -0.1, -1), (-0.1, 0.05, -1), 2),
        triangle_words((0.05, 0.05, 12), (0.2, 0.05, 12), (0.05, 0.2, 12), 3),  # behind the camera
        triangle_words((0.3, -0.6, -3), (0.6, -0.6, -3), (0.3, -0.3, -3), 4),
        triangle_words((0.3, -0.6, -3), (0.6, -0.6, -3), (0.3, -0.3, -3), 5),  # same as 4
    ]
    return make_scene(rows, window=((-0.5, -0.5), (0.5, 0.5)))


def test_direct_hits_match_the_emulator_on_the_corner_cases():
    scene = corner_case_scene()
    direct = direct_hits(scene)
    assert_same_as_emulator(scene, direct)
    # Each case is really there.
    beyond = direct.hit & (direct.closest < 0)
    assert beyond.any() and np.all(direct.last_t[beyond] == LAST_T_RESET)
    visible = set(np.unique(direct.closest[direct.hit]))
    assert {1, 2, 3, 4} <= visible and 5 not in visible
    behind = direct.closest == 3
    assert np.all(direct.last_t[behind].view(np.int32) < 0)


# --------------------------------------------------------------------------- the benchmark


FIGURES = ("emulator_tests_per_s", "direct_tests_per_s", "direct_hoisted_tests_per_s", "emulator_hit_tests_per_s",
           "direct_hit_tests_per_s", "limit_tests_per_s")


def test_run_benchmark_figures():
    results = run_benchmark(seconds=0.2)
    figures = json.loads(json.dumps(results.figures))
    for key in FIGURES:
        for name in (key, f"{key}_median"):
            assert math.isfinite(figures[name]) and figures[name] > 0, name
        assert figures[key] >= figures[f"{key}_median"]  # the best round is at least as fast
    for key in ("emulator_vs_direct", "emulator_hit_vs_direct_hit", "limit_vs_emulator_hit", "ratio", "seconds",
                "compile_s", "limit_compile_s"):
        assert math.isfinite(figures[key]) and figures[key] > 0, key
    assert figures["emulator_vs_direct"] == pytest.approx(
        figures["emulator_tests_per_s"] / figures["direct_tests_per_s"])
    assert figures["limit_vs_emulator_hit"] == pytest.approx(
        figures["limit_tests_per_s"] / figures["emulator_hit_tests_per_s"])
    assert figures["ratio"] == pytest.approx(1 / figures["emulator_vs_direct"])
    assert figures["compile_state"] in ("compiled", "cache", "ready")
    assert figures["limit_compile_state"] in ("compiled", "cache", "ready")
    assert figures["cpu_count"] >= 1 and figures["numba_threads"] >= 1
    assert (figures["width"], figures["height"], figures["triangles"]) == (128, 128, 32)
    assert figures["emulator_tests"] == 128 * 128 * 32
    assert figures["rounds"] >= 2
    report = results.report()
    assert "hit test alone" in report and "limit" in report and "median" in report


# --------------------------------------------------------------------------- the hit test alone


def test_every_hit_test_finds_the_same_hits(scene, direct):
    directions = ray_directions(scene)
    for other in (direct_hit_test(scene, directions), direct_hit_test(scene, directions, hoist=True),
                  limit_hit_test(scene, directions)):
        for ours, theirs in zip(direct, other):
            assert np.array_equal(ours, theirs)
    machine = TheiaMachine()
    tiles = machine.ray_tiles(scene)
    for _ in range(2):  # the emulator's hit test may run again on the same tiles
        hit = np.concatenate([machine.hit_test(core, scene, core_of_lane) for core, core_of_lane in tiles])
        assert np.array_equal(hit, direct.hit.reshape(-1))


def test_limit_kernel_on_the_corner_cases():
    scene = corner_case_scene()
    direct = direct_hits(scene)
    for ours, theirs in zip(direct, limit_hit_test(scene, ray_directions(scene))):
        assert np.array_equal(ours, theirs)
