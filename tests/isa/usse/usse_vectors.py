"""Running the hardware vectors of tests/golden/usse/vectors/ (README there, spec §8): every case
of a suite as four lanes of one UsseMachine run, outputs interpolated to the corner pixel
centres of the 960x544 target and compared in 8-bit units."""

from __future__ import annotations

import json
from functools import cache
import numpy as np
from conftest import golden_dir

from shaderkit.isa.usse.machine import UsseMachine

VECTORS = golden_dir("usse", "vectors")
SUITES = ("p4gfrag1", "p4gvert1", "vmad16", "vtstmsk_always", "vtstmsk_dsy_mask0", "vtstmsk_gt_mask0",
          "vtstmsk_gt_mask0_reg", "vtstmsk_gt_mask2_reg", "vtstmsk_log_mask2")
WIDTH, HEIGHT = 960, 544
TOLERANCE = 3


@cache
def load(suite: str) -> dict:
    return json.loads((VECTORS / f"{suite}.json").read_text())


def words(hex_words) -> list[int]:
    return [int(word, 16) for word in hex_words]


def hex_array(values) -> np.ndarray:
    return np.array([int(value, 16) for value in values], np.uint32)


def corner_values(vertex_values: np.ndarray) -> np.ndarray:
    """(4 vertices, ...) float values -> the interpolated values at the pixel centres of the
    corners each vertex is read at (0 bottom-left, 1 bottom-right, 2 top-left, 3 top-right).

    Triangles (v0, v1, v2) and (v1, v2, v3) of the strip; positions (-1,-1), (1,-1), (-1,1),
    (1,1) with w = 1, so attributes interpolate linearly in (u, v) = ((x+1)/2, (y+1)/2)."""
    f0, f1, f2, f3 = (np.asarray(vertex_values[k], np.float64) for k in range(4))
    du, dv = 0.5 / WIDTH, 0.5 / HEIGHT
    corners = ((du, dv), (1 - du, dv), (du, 1 - dv), (1 - du, 1 - dv))
    out = []
    for u, v in corners:  # inf - inf gives NaN (read as 0 below)
        if u + v <= 1:  # triangle (v0, v1, v2)
            out.append(f0 + (f1 - f0) * u + (f2 - f0) * v)
        else:  # triangle (v1, v2, v3)
            out.append(f3 + (f2 - f3) * (1 - u) + (f1 - f3) * (1 - v))
    return np.stack(out)


def _quiet(function):
    def call(*args):
        with np.errstate(invalid="ignore", over="ignore"):
            return function(*args)
    return call


corner_values = _quiet(corner_values)


def to_unorm8(values: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        clamped = np.clip(np.nan_to_num(values, nan=0.0), 0.0, 1.0)
    return np.rint(clamped * 255).astype(np.int64)


@cache
def run_suite(suite: str) -> dict[str, np.ndarray]:
    """case id -> (4 vertices, 12 channels) of |got - expected| for o4..o15 (unchecked ones 0)."""
    data = load(suite)
    program, cases = data["program"], data["cases"]
    lanes = 4 * len(cases)
    machine = UsseMachine(words(program["primary_words"]), words(program["secondary_words"]), lanes=lanes)
    pa = np.zeros((36, lanes), np.uint32)
    sa = np.zeros((32, lanes), np.uint32)
    for i, case in enumerate(cases):
        for vertex in range(4):
            pa[:, 4 * i + vertex] = hex_array(case["pa"][vertex])
            sa[:, 4 * i + vertex] = hex_array(case["sa_uniforms"])
    machine.set_bank("pa", 0, pa)
    machine.set_bank("sa", 0, sa)
    for literal in program["literals"]:
        if literal["sa"] is not None:
            machine.set_bank("sa", literal["sa"], [[int(literal["value"], 16)]])
    machine.run()
    outputs = machine.bank("o")[4:16].view(np.float32)  # (12, lanes)
    checked = np.array([f"o{4 + j}" in program["checked_outputs"] for j in range(12)])
    result = {}
    for i, case in enumerate(cases):
        per_vertex = outputs[:, 4 * i: 4 * i + 4].T  # (4 vertices, 12)
        got = to_unorm8(corner_values(per_vertex))
        expected = np.array(case["expected_o4_o15"], np.int64)
        result[case["id"]] = np.where(checked, np.abs(got - expected), 0)
    return result


def failing_cases(suite: str) -> list[str]:
    return [case for case, error in run_suite(suite).items() if error.max() > TOLERANCE]
