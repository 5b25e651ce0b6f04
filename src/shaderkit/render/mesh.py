"""Triangle meshes and the Wavefront OBJ reader every renderer in the project shares.

:func:`load_obj` reads the geometric subset of OBJ that model exporters write: ``v`` positions
(with the common ``v x y z r g b`` vertex-colour extension), ``vt`` texture coordinates, ``vn``
normals and ``f`` faces (``v``, ``v/vt``, ``v/vt/vn``, ``v//vn``; negative indices count back
from the last element defined so far). Polygons are fan-triangulated, which is exact for the
convex polygons modelling tools export. A face corner that names a normal no ``vn`` line
defines gets a computed normal and a note instead of an error: normals only shade, and
exporters that drop the ``vn`` lines but keep the references exist. Grouping, smoothing-group
and material statements are accepted and ignored; lines and points are counted in a note and
skipped; anything else is an error. Every error is one
:class:`~shaderkit.core.diagnostics.InputError` line starting with ``file:line:``.

A :class:`Mesh` keeps the file's tables as they are and indexes them per triangle corner, the
way OBJ does; :meth:`Mesh.vertices` turns that into one table of unique corners for renderers
that run a vertex stage once per vertex.

This module knows no instruction set.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from shaderkit.core.diagnostics import InputError
from shaderkit.core.fileio import read_file_bytes
from shaderkit.core.options import check_float32

__all__ = ["Mesh", "MeshVertices", "load_obj", "order_one_scale"]

IGNORED_STATEMENTS = frozenset({"o", "g", "s", "usemtl", "mtllib", "vp", "mg", "lod", "maplib", "usemap"})
SKIPPED_PRIMITIVES = {"l": "line", "p": "point"}
NO_TEXCOORD = -1
NO_NORMAL = -1
COLOUR_NUMBERS = 6  # "v x y z r g b"
DEFAULT_COLOUR = (1.0, 1.0, 1.0)


@dataclass(frozen=True, eq=False)
class MeshVertices:
    """One entry per distinct (position, texture coordinate, normal) corner of a mesh."""

    positions: np.ndarray  # (V, 3) float64
    normals: np.ndarray  # (V, 3) float64
    texcoords: np.ndarray  # (V, 2) float64; (0, 0) where the face gave none
    colours: np.ndarray  # (V, 3) float64; white where the file gave none
    triangles: np.ndarray  # (F, 3) int64 indices into the arrays above


@dataclass(frozen=True, eq=False)
class Mesh:
    """A triangle mesh as an OBJ file holds it: tables, and per triangle corner an index into each.

    ``normals`` lists the file's ``vn`` vectors as written (not renormalised), followed by the
    computed ones: a corner whose face gave no normal uses the *smooth* normal of its position,
    the normalised sum of the unit geometric normals (counter-clockwise winding) of every
    triangle that uses the position, each weighted by the triangle's angle at that corner (so
    the result does not depend on how polygons were split into triangles; the zero vector where
    all those triangles are degenerate). ``normal_index`` is therefore complete, while
    ``texcoord_index`` is ``-1`` where a face gave no texture coordinate. ``colours`` is
    ``None`` unless some ``v`` line carries a colour; then ``v`` lines without one are white.
    """

    positions: np.ndarray  # (P, 3) float64
    texcoords: np.ndarray  # (T, 2) float64
    normals: np.ndarray  # (N, 3) float64
    colours: np.ndarray | None  # (P, 3) float64
    position_index: np.ndarray  # (F, 3) int64
    texcoord_index: np.ndarray  # (F, 3) int64, -1 = none
    normal_index: np.ndarray  # (F, 3) int64
    notes: tuple[str, ...] = ()

    @property
    def triangle_count(self) -> int:
        return len(self.position_index)

    def vertices(self) -> MeshVertices:
        """The distinct corners, in order of first use, and the triangles as indices into them."""
        corners = np.stack([self.position_index, self.texcoord_index, self.normal_index], axis=-1).reshape(-1, 3)
        unique, first, inverse = np.unique(corners, axis=0, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        unique = unique[order]
        position, texcoord, normal = unique.T
        texcoord_table = np.vstack([self.texcoords, np.zeros((1, 2))])  # index -1 picks (0, 0)
        colours = (
            np.broadcast_to(np.array(DEFAULT_COLOUR), (len(unique), 3)).copy()
            if self.colours is None
            else self.colours[position]
        )
        return MeshVertices(
            positions=self.positions[position],
            normals=self.normals[normal],
            texcoords=texcoord_table[texcoord],
            colours=colours,
            triangles=rank[inverse.reshape(-1)].reshape(-1, 3),
        )


def load_obj(path: str | Path, *, float32: bool = False) -> Mesh:
    """Read a Wavefront OBJ file (see the module docstring for what is accepted); with
    ``float32``, a number past float32's range is an error at its line."""
    path = Path(path)
    text = read_file_bytes(path).decode("utf-8", errors="replace")
    return _ObjReader(path, float32).read(text)


class _ObjReader:
    """One pass over the lines; tables grow as statements arrive, as OBJ indexing requires."""

    def __init__(self, path: Path, float32: bool):
        self.path = path
        self.float32 = float32
        self.positions: list[list[float]] = []
        self.colours: list[list[float] | None] = []
        self.texcoords: list[tuple[float, float]] = []
        self.normals: list[list[float]] = []
        self.corners: list[tuple[int, int, int]] = []  # per triangle corner: (v, vt or -1, vn or -1)
        self.skipped = dict.fromkeys(SKIPPED_PRIMITIVES, 0)
        self.dangling_normals = 0

    def read(self, text: str) -> Mesh:
        for line_number, line in enumerate(text.splitlines(), start=1):
            fields = line.split("#", 1)[0].split()
            if fields:
                self._statement(fields[0], fields[1:], line_number)
        if not self.corners:
            raise InputError(f"{self.path}: no faces (at least one triangle is needed)")
        notes = tuple(
            f"{self.path.name}: {count} {SKIPPED_PRIMITIVES[name]} element(s) ignored (only faces are loaded)"
            for name, count in self.skipped.items()
            if count
        )
        if self.dangling_normals:
            notes += (
                f"{self.path.name}: {self.dangling_normals} face corner(s) name a normal that is not defined; "
                "computed normals used",
            )
        corners = np.array(self.corners, dtype=np.int64).reshape(-1, 3, 3)
        positions = np.array(self.positions, dtype=np.float64).reshape(-1, 3)
        normals, normal_index = _complete_normals(
            positions, corners[:, :, 0], np.array(self.normals, dtype=np.float64).reshape(-1, 3), corners[:, :, 2]
        )
        colours = None
        if any(colour is not None for colour in self.colours):
            colours = np.array([DEFAULT_COLOUR if c is None else c for c in self.colours], dtype=np.float64)
        return Mesh(
            positions=positions,
            texcoords=np.array(self.texcoords, dtype=np.float64).reshape(-1, 2),
            normals=normals,
            colours=colours,
            position_index=corners[:, :, 0].copy(),
            texcoord_index=corners[:, :, 1].copy(),
            normal_index=normal_index,
            notes=notes,
        )

    def _statement(self, keyword: str, values: list[str], line_number: int) -> None:
        if keyword == "v":
            numbers = self._numbers(values, line_number, keyword, 3)
            self.positions.append(numbers[:3])
            self.colours.append(numbers[3:COLOUR_NUMBERS] if len(numbers) >= COLOUR_NUMBERS else None)
        elif keyword == "vt":
            uv = self._numbers(values, line_number, keyword, 1)
            self.texcoords.append((uv[0], uv[1] if len(uv) > 1 else 0.0))
        elif keyword == "vn":
            self.normals.append(self._numbers(values, line_number, keyword, 3)[:3])
        elif keyword == "f":
            self._face(values, line_number)
        elif keyword in SKIPPED_PRIMITIVES:
            self.skipped[keyword] += 1
        elif keyword not in IGNORED_STATEMENTS:
            raise InputError(f"{self.path}:{line_number}: unsupported OBJ statement '{keyword}'")

    def _face(self, values: list[str], line_number: int) -> None:
        if len(values) < 3:
            raise InputError(f"{self.path}:{line_number}: a face needs at least 3 vertices, got {len(values)}")
        corners = []
        for token in values:
            parts = token.split("/")
            if len(parts) > 3 or not parts[0]:
                raise InputError(
                    f"{self.path}:{line_number}: '{token}' is not a face vertex (v, v/vt, v/vt/vn, v//vn)"
                )
            position = self._resolve(parts[0], len(self.positions), line_number, "vertex")
            texcoord = NO_TEXCOORD
            if len(parts) > 1 and parts[1]:
                texcoord = self._resolve(parts[1], len(self.texcoords), line_number, "texture coordinate")
            normal = NO_NORMAL
            if len(parts) > 2 and parts[2]:
                normal = self._normal(parts[2], line_number)
            corners.append((position, texcoord, normal))
        for k in range(1, len(corners) - 1):
            self.corners.extend((corners[0], corners[k], corners[k + 1]))

    def _normal(self, token: str, line_number: int) -> int:
        """A normal reference; one to a ``vn`` that does not exist means "compute it" (noted)."""
        try:
            index = int(token)
        except ValueError:
            raise InputError(f"{self.path}:{line_number}: '{token}' is not a normal index") from None
        resolved = index - 1 if index > 0 else len(self.normals) + index
        if index == 0 or not 0 <= resolved < len(self.normals):
            self.dangling_normals += 1
            return NO_NORMAL
        return resolved

    def _numbers(self, values: list[str], line_number: int, keyword: str, minimum: int) -> list[float]:
        if len(values) < minimum:
            raise InputError(f"{self.path}:{line_number}: '{keyword}' needs at least {minimum} numbers")
        numbers = []
        for value in values:
            try:
                numbers.append(float(value))
            except ValueError:
                raise InputError(f"{self.path}:{line_number}: '{value}' is not a number") from None
        if not all(math.isfinite(number) for number in numbers):
            raise InputError(f"{self.path}:{line_number}: '{keyword}' has a non-finite number")
        if self.float32:
            check_float32(numbers, f"{self.path}:{line_number}: '{keyword}'")
        return numbers

    def _resolve(self, token: str, count: int, line_number: int, kind: str) -> int:
        try:
            index = int(token)
        except ValueError:
            raise InputError(f"{self.path}:{line_number}: '{token}' is not a {kind} index") from None
        resolved = index - 1 if index > 0 else count + index
        if index == 0 or not 0 <= resolved < count:
            raise InputError(
                f"{self.path}:{line_number}: {kind} index {index} is out of range ({count} defined so far)"
            )
        return resolved


def _complete_normals(
    positions: np.ndarray, position_index: np.ndarray, file_normals: np.ndarray, normal_index: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The file's normals plus smooth per-position ones for the corners that have none."""
    missing = normal_index < 0
    if not missing.any():
        return file_normals, normal_index
    # Normals do not depend on the scale, and coordinates near the float maximum would
    # overflow in the edge vectors and cross products: work at order 1.
    corners = positions[position_index] * order_one_scale(positions)
    face_normals = _unit(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]))
    sums = np.zeros_like(positions)
    for corner in range(3):
        to_next = _unit(corners[:, (corner + 1) % 3] - corners[:, corner])
        to_previous = _unit(corners[:, (corner + 2) % 3] - corners[:, corner])
        cosine = np.clip(np.einsum("fk,fk->f", to_next, to_previous), -1.0, 1.0)
        np.add.at(sums, position_index[:, corner], np.arccos(cosine)[:, None] * face_normals)
    smooth = _unit(sums)
    completed = np.where(missing, position_index + len(file_normals), normal_index)
    return np.vstack([file_normals, smooth]), completed


def order_one_scale(values: np.ndarray) -> float:
    """The power of two that brings the largest magnitude in ``values`` to between 0.5 and 1.

    Multiplying by a power of two is exact, so arithmetic on the scaled values rounds as it
    would on the originals, and differences and squares of them can no longer overflow.
    """
    largest = float(np.max(np.abs(values), initial=0.0))
    if largest == 0.0 or not math.isfinite(largest):
        return 1.0
    return math.ldexp(1.0, -math.frexp(largest)[1])


def _unit(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1; zero rows stay zero."""
    lengths = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return np.divide(vectors, lengths, out=np.zeros_like(vectors), where=lengths > 0)
