"""Generate the THEIA example textures (committed next to this script).

    python examples/theia/textures/make_textures.py

Writes three square power-of-two RGB PNGs (THEIA's texture unit only wraps those
correctly, spec §6.7):

* ``checker.png``  64×64: 8×8 squares, warm cream and deep teal.
* ``bricks.png``  128×128: running-bond bricks (32×16 texels, 2-texel mortar joints)
  whose red varies from brick to brick; the pattern tiles seamlessly.
* ``gradient.png`` 64×64: hue sweeps across u, brightness falls along v.

Deterministic: no random generator, only integer hashing and closed formulas, so
running it again reproduces the same pixels.
"""

from __future__ import annotations

import colorsys
from pathlib import Path

import numpy as np
from PIL import Image

HERE = Path(__file__).resolve().parent


def checker(size: int = 64, squares: int = 8) -> np.ndarray:
    cream, teal = np.array([238, 226, 196]), np.array([22, 96, 110])
    cell = size // squares
    y, x = np.mgrid[0:size, 0:size]
    odd = ((x // cell) + (y // cell)) % 2 == 1
    return np.where(odd[..., None], teal, cream).astype(np.uint8)


def _hash(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A small integer hash in 0..255 (deterministic, no RNG state)."""
    h = (a * 374761393 + b * 668265263) & 0xFFFFFFFF
    h = ((h ^ (h >> 13)) * 1274126177) & 0xFFFFFFFF
    return (h ^ (h >> 16)) & 0xFF


def bricks(size: int = 128, brick_w: int = 32, brick_h: int = 16, mortar: int = 2) -> np.ndarray:
    y, x = np.mgrid[0:size, 0:size]
    row = y // brick_h
    shifted = x + (row % 2) * (brick_w // 2)           # running bond: odd rows shifted half a brick
    column = (shifted // brick_w) % (size // brick_w)  # wrap so the texture tiles
    in_mortar = ((y % brick_h) < mortar) | ((shifted % brick_w) < mortar)
    shade = _hash(row.astype(np.int64), column.astype(np.int64)) / 255.0  # one tone per brick
    grain = _hash(x.astype(np.int64), y.astype(np.int64)) / 255.0           # fine speckle
    red = 150 + 60 * shade + 20 * grain
    green = 62 + 22 * shade + 12 * grain
    blue = 40 + 12 * shade + 10 * grain
    brick = np.stack([red, green, blue], axis=-1)
    mortar_colour = np.array([196, 190, 176]) - 16 * grain[..., None]
    return np.clip(np.where(in_mortar[..., None], mortar_colour, brick), 0, 255).astype(np.uint8)


def gradient(size: int = 64) -> np.ndarray:
    image = np.zeros((size, size, 3), dtype=np.uint8)
    for v in range(size):
        value = 1.0 - 0.55 * v / (size - 1)
        for u in range(size):
            r, g, b = colorsys.hsv_to_rgb(u / size, 0.75, value)
            image[v, u] = (round(r * 255), round(g * 255), round(b * 255))
    return image


TEXTURES = {"checker.png": checker, "bricks.png": bricks, "gradient.png": gradient}


def main() -> None:
    for name, make in TEXTURES.items():
        Image.fromarray(make(), "RGB").save(HERE / name, optimize=True)
        print(HERE / name)


if __name__ == "__main__":
    main()
