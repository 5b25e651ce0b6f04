"""Writes the meshes of the RSX examples (run: python make_models.py).

* ``torus.obj``: a torus around the y axis (ring radius 1, tube radius 0.4), 48 x 24 quads, with
  normals and texture coordinates (u around the ring, v around the tube), 2,304 triangles.
"""

from __future__ import annotations

import math
from pathlib import Path

RING_RADIUS, TUBE_RADIUS = 1.0, 0.4
RING_STEPS, TUBE_STEPS = 48, 24


def torus_obj() -> str:
    lines = ["# torus: ring radius 1, tube radius 0.4, 48 x 24 quads (written by make_models.py)"]
    for i in range(RING_STEPS + 1):
        u = i / RING_STEPS
        ring = 2 * math.pi * u
        for j in range(TUBE_STEPS + 1):
            v = j / TUBE_STEPS
            tube = 2 * math.pi * v
            normal = (math.cos(tube) * math.cos(ring), math.sin(tube), math.cos(tube) * math.sin(ring))
            centre = (RING_RADIUS * math.cos(ring), 0.0, RING_RADIUS * math.sin(ring))
            position = tuple(c + TUBE_RADIUS * n for c, n in zip(centre, normal))
            lines.append("v {:.6f} {:.6f} {:.6f}".format(*position))
            lines.append(f"vt {u:.6f} {v:.6f}")
            lines.append("vn {:.6f} {:.6f} {:.6f}".format(*normal))
    columns = TUBE_STEPS + 1
    for i in range(RING_STEPS):
        for j in range(TUBE_STEPS):
            a = i * columns + j + 1
            b = (i + 1) * columns + j + 1
            # Counter-clockwise seen from outside the tube.
            corners = (a, a + 1, b + 1, b)
            lines.append("f " + " ".join(f"{k}/{k}/{k}" for k in corners))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    Path(__file__).with_name("torus.obj").write_text(torus_obj())
