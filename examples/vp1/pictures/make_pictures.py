"""Generate the VP1 example pictures (committed next to this script).

    python examples/vp1/pictures/make_pictures.py

Writes two small PNGs of one landscape — a sky that darkens upwards, a sun, two ranges of
hills, a field with furrows and speckle, a house with a lit window — sized for the VP1 data
store layout (``shaderkit.isa.vp1.pictures``):

* ``landscape.png``      64×64 greyscale (one plane, rows 0–63 of the data store);
* ``landscape_rgb.png``  64×32 colour (red, green and blue planes at rows 0, 32 and 64);
* ``landscape_field.png`` 64×32 greyscale: the even lines of ``landscape.png``, one field of
  an interlaced frame;
* ``landscape_hadamard.png`` 64×64 greyscale: the 4×4 Walsh-Hadamard coefficients of
  ``landscape.png`` minus 128, ``floor(H x H / 16 + 1/2)`` per block, plus 128.

Deterministic: no random generator, only integer hashing and closed formulas, so running it
again reproduces the same pixels. Made for this project; the pictures are under its licence.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

HERE = Path(__file__).resolve().parent


def hash_noise(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """A fixed pseudo-random value 0..1 per integer (x, y)."""
    h = (x.astype(np.uint32) * np.uint32(374761393) + y.astype(np.uint32) * np.uint32(668265263)) & 0xFFFFFFFF
    h = (h ^ (h >> 13)) * np.uint32(1274126177) & 0xFFFFFFFF
    return ((h ^ (h >> 16)) & 0xFF).astype(np.float64) / 255.0


def landscape(width: int, height: int) -> np.ndarray:
    """The scene as float RGB 0..1, shape (height, width, 3)."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    u, v = x / width, y / height                       # 0..1 across, 0..1 down
    sky = np.stack([0.25 + 0.55 * v, 0.35 + 0.5 * v, 0.75 + 0.2 * v], axis=-1)
    picture = sky
    sun = (u - 0.72) ** 2 + ((v - 0.22) * height / width) ** 2 < 0.012
    picture[sun] = [1.0, 0.92, 0.55]
    far = 0.50 + 0.06 * np.sin(u * 9.0) + 0.04 * np.sin(u * 23.0 + 1.0)
    near = 0.62 + 0.08 * np.sin(u * 5.0 + 2.0) + 0.03 * np.sin(u * 31.0)
    picture[v > far] = np.stack([0.35 + 0.1 * u, 0.42 + 0.1 * u, 0.55 + 0.0 * u], axis=-1)[v > far]
    field = v > near
    furrow = 0.5 + 0.5 * np.sin((u - 0.5) * 40.0 / (v + 0.1) + v * 60.0)
    speckle = hash_noise(x, y)
    green = np.stack([0.25 + 0.25 * furrow, 0.45 + 0.3 * furrow, 0.12 + 0.1 * speckle], axis=-1)
    picture[field] = (green * (0.8 + 0.3 * speckle[..., None]))[field]
    house = (u > 0.16) & (u < 0.38) & (v > near - 0.16) & (v < near + 0.02)
    roof = (v <= near - 0.16) & (v > near - 0.16 - (0.11 - np.abs(u - 0.27))) & (np.abs(u - 0.27) < 0.13)
    window = (u > 0.21) & (u < 0.28) & (v > near - 0.11) & (v < near - 0.04)
    picture[house] = [0.85, 0.8, 0.7]
    picture[roof] = [0.55, 0.15, 0.1]
    picture[window] = [1.0, 0.85, 0.3]
    return np.clip(picture, 0.0, 1.0)


def to_bytes(picture: np.ndarray) -> np.ndarray:
    return np.round(picture * 255.0).astype(np.uint8)


HADAMARD = np.array([[1, 1, 1, 1], [1, -1, 1, -1], [1, 1, -1, -1], [1, -1, -1, 1]])


def hadamard_coefficients(grey: np.ndarray) -> np.ndarray:
    """Per 4×4 block of ``grey`` − 128: floor(H x H / 16 + 1/2), plus 128, as bytes."""
    x = grey.astype(np.int64) - 128
    blocks = x.reshape(x.shape[0] // 4, 4, x.shape[1] // 4, 4).transpose(0, 2, 1, 3)
    c = np.floor(HADAMARD @ blocks @ HADAMARD / 16 + 0.5).astype(np.int64)
    c = np.clip(c, -128, 127).transpose(0, 2, 1, 3).reshape(x.shape)
    return (c + 128).astype(np.uint8)


def main() -> None:
    grey = to_bytes(landscape(64, 64) @ np.array([0.299, 0.587, 0.114]))
    Image.fromarray(grey, "L").save(HERE / "landscape.png")
    Image.fromarray(np.ascontiguousarray(grey[0::2]), "L").save(HERE / "landscape_field.png")
    Image.fromarray(hadamard_coefficients(grey), "L").save(HERE / "landscape_hadamard.png")
    Image.fromarray(to_bytes(landscape(64, 32)), "RGB").save(HERE / "landscape_rgb.png")


if __name__ == "__main__":
    main()
