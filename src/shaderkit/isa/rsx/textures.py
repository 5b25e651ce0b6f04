"""2D and rectangle textures for the RSX emulator: loading PNG files and sampling them for many
lanes at once.

Conventions are OpenGL's:

* ``texels[row, column]`` with row 0 the **bottom** of the image (t = 0), so a PNG is flipped
  on loading (its first stored row is the top, t = 1);
* texel ``i`` of a width-``W`` row covers ``s`` in ``[i/W, (i+1)/W)``, its centre at
  ``(i + 0.5) / W``; nearest filtering picks ``floor(s * W)``, linear filtering blends the four
  texels around ``s * W - 0.5`` (bilinear, weights in float32);
* wrap modes ``repeat``, ``clamp`` (GL CLAMP_TO_EDGE) and ``mirror`` (GL MIRRORED_REPEAT) apply to
  texel indices, as in the GL specification;
* a **rectangle** texture (``rectangle=True``: GL's TEXTURE_RECTANGLE, the texture a Cg
  ``samplerRECT`` / an assembly ``RECT`` target reads, the RSX's unnormalised addressing) takes
  coordinates in texels, s in [0, W) and t in [0, H), instead of [0, 1); it clamps to its edge,
  the only wrap GL has for rectangle textures.

There are no mipmaps: every lookup reads level 0, so an explicit LOD, a bias and gradients are
accepted and ignored. NaN coordinates sample as 0.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from shaderkit.core.diagnostics import InputError

FILTERS = ("nearest", "linear")
WRAPS = ("repeat", "clamp", "mirror")
RECTANGLE_WRAP = "clamp"
# NV40-class GPUs, the RSX among them, sample 2D textures of at most 4096 texels a side; the
# emulator refuses larger pictures rather than unpacking gigabytes.
MAX_TEXTURE_SIZE = 4096
# Coordinates are clamped to this many texels before conversion to integers (no overflow).
_COORDINATE_LIMIT = np.float32(2.0 ** 24)


@dataclass(frozen=True, eq=False)
class Texture:
    """An RGBA float32 image ``(height, width, 4)``, row 0 at the bottom (t = 0); ``rectangle``
    makes it a rectangle texture, sampled at texel coordinates (see the module doc).

    Treat ``texels`` as read-only once the texture has been sampled: sampling caches a
    channels-first copy.
    """

    texels: np.ndarray
    filter: str = "linear"
    wrap: str = "repeat"
    rectangle: bool = False

    def __post_init__(self) -> None:
        texels = np.asarray(self.texels)
        if texels.ndim != 3 or texels.shape[2] != 4 or texels.shape[0] < 1 or texels.shape[1] < 1:
            raise InputError(f"a texture needs texels of shape (height, width, 4), not {texels.shape}")
        if self.filter not in FILTERS:
            raise InputError(f"unknown texture filter {self.filter!r} (expected one of {', '.join(FILTERS)})")
        if self.wrap not in WRAPS:
            raise InputError(f"unknown texture wrap mode {self.wrap!r} (expected one of {', '.join(WRAPS)})")
        if self.rectangle and self.wrap != RECTANGLE_WRAP:
            raise InputError(f"a rectangle texture clamps to its edge (wrap {RECTANGLE_WRAP!r}), not {self.wrap!r}: "
                             "GL has no other wrap mode for rectangle textures")
        object.__setattr__(self, "texels", texels.astype(np.float32, copy=False))

    @property
    def height(self) -> int:
        return self.texels.shape[0]

    @property
    def width(self) -> int:
        return self.texels.shape[1]

    @cached_property
    def planar(self) -> np.ndarray:
        """Channels first, ``(4, height * width)``: gathering texels then yields (4, n) lanes."""
        return np.ascontiguousarray(self.texels.reshape(-1, 4).T)


def load_texture(path: str | os.PathLike, filter: str = "linear", wrap: str = "repeat") -> Texture:
    """Read an image file (PNG, or anything Pillow reads) as an RGBA texture, 8 bits -> [0, 1];
    at most :data:`MAX_TEXTURE_SIZE` texels a side, as on the hardware."""
    from shaderkit.render.images import read_picture

    rgba = read_picture(path, "RGBA", MAX_TEXTURE_SIZE, each_side=True).astype(np.float32) / np.float32(255.0)
    return Texture(np.ascontiguousarray(rgba[::-1]), filter, wrap)


def _wrap(index: np.ndarray, size: int, mode: str) -> np.ndarray:
    if mode == "repeat":
        return np.mod(index, size)
    if mode == "clamp":
        return np.clip(index, 0, size - 1)
    period = np.mod(index, 2 * size)
    return np.where(period >= size, 2 * size - 1 - period, period)


def _texel_coordinate(coordinate: np.ndarray, scale: int) -> np.ndarray:
    scaled = np.asarray(coordinate, dtype=np.float32) * np.float32(scale)
    return np.clip(np.nan_to_num(scaled, nan=0.0), -_COORDINATE_LIMIT, _COORDINATE_LIMIT)


def sample_lanes(texture: Texture, s: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Sample at (s, t) per lane (texel coordinates for a rectangle texture, else [0, 1) across
    the texture); returns channels first, ``(4, n)`` float32."""
    # A rectangle texture's coordinates are texels already; scaling by 1 is exact.
    across, up = (1, 1) if texture.rectangle else (texture.width, texture.height)
    u = _texel_coordinate(s, across)
    v = _texel_coordinate(t, up)
    planar = texture.planar
    width, height, wrap = texture.width, texture.height, texture.wrap
    if texture.filter == "nearest":
        column = _wrap(np.floor(u).astype(np.int64), width, wrap)
        row = _wrap(np.floor(v).astype(np.int64), height, wrap)
        return planar[:, row * width + column]
    u = u - np.float32(0.5)
    v = v - np.float32(0.5)
    left, bottom = np.floor(u), np.floor(v)
    across, up = u - left, v - bottom  # weights of the right column and the top row
    left, bottom = left.astype(np.int64), bottom.astype(np.int64)
    columns = (_wrap(left, width, wrap), _wrap(left + 1, width, wrap))
    rows = (_wrap(bottom, height, wrap) * width, _wrap(bottom + 1, height, wrap) * width)
    one = np.float32(1.0)
    lower = planar[:, rows[0] + columns[0]] * (one - across) + planar[:, rows[0] + columns[1]] * across
    upper = planar[:, rows[1] + columns[0]] * (one - across) + planar[:, rows[1] + columns[1]] * across
    return lower * (one - up) + upper * up


def as_rectangles(textures: Mapping[int, Texture], units: Collection[int]) -> dict[int, Texture]:
    """``textures`` with those bound to ``units`` made rectangle textures: what a host binds to
    a unit its program samples as RECT (a container's samplerRECT record, ``--texture-target``).
    Their wrap mode becomes clamp, the only one rectangle textures have."""
    return {unit: replace(texture, rectangle=True, wrap=RECTANGLE_WRAP) if unit in units else texture
            for unit, texture in textures.items()}


def sample_2d(texture: Texture, s: np.ndarray, t: np.ndarray, lod: np.ndarray | None = None,
              ) -> np.ndarray:
    """Sample at (s, t) per lane; returns ``(n, 4)`` float32. ``lod`` is ignored (no mipmaps)."""
    s, t = np.broadcast_arrays(np.atleast_1d(np.asarray(s, dtype=np.float32)),
                               np.atleast_1d(np.asarray(t, dtype=np.float32)))
    return np.ascontiguousarray(sample_lanes(texture, s, t).T)
