"""The example meshes are modelled so that computed smooth normals are right: the globe shares
its seam and pole points, so every corner's normal points straight out of the sphere."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from shaderkit.render.mesh import load_obj

MODELS = Path(__file__).resolve().parents[2] / "examples" / "theia" / "models"


def test_globe_normals_point_out_of_the_sphere_everywhere_including_the_seam():
    vertices = load_obj(MODELS / "globe.obj").vertices()
    positions = vertices.positions / np.linalg.norm(vertices.positions, axis=1, keepdims=True)
    cosines = np.einsum("vk,vk->v", positions, vertices.normals)
    # 12 x 8 facets: an averaged normal lies within a few degrees of the true one; a corner
    # that saw only the faces on one side of the seam would be about 15 degrees off.
    assert cosines.min() > np.cos(np.radians(5))


def test_globe_keeps_both_u_values_at_the_seam():
    vertices = load_obj(MODELS / "globe.obj").vertices()
    u = vertices.texcoords[:, 0]
    assert u.min() == 0 and u.max() == 1
