"""Pictures in the VP1 data store: how ``run --image-in`` loads one and ``--image-out`` shows it.

The layout: **the data store, read with stride 0, is a greyscale picture 64 pixels wide and 128
rows tall** — the byte at program address ``a`` is pixel ``(x, y) = (a % 64, a // 64)``. A row
of the picture is 64 bytes, four horizontal vectors (``ldavh``/``stavh`` with ``$a`` stride 0),
so a program walks a picture 16 pixels at a time with a post-increment of 0x10, and the pixel
one row down is always 0x40 further on. Rows 0–63 (addresses 0x0000–0x0fff) and rows 64–127
(0x1000–0x1fff) are two 64×64 pictures: the examples read the upper one and write the lower one,
so the data store written back shows the picture before and after.

``--image-in FILE`` (any picture Pillow reads, at most 64 pixels wide) fills the data store
from address 0, left-aligned in rows of 64; the rest is zero:

* a greyscale picture (one whose red, green and blue are equal everywhere, or a grey PNG),
  at most 128 rows: its 8-bit levels, one byte per pixel;
* a colour picture of H rows (at most 42): its red, green and blue planes one below the
  other — red at rows 0…H−1, green at rows H…2H−1, blue at rows 2H…3H−1 (for a 64×32
  picture: red at 0x0000, green at 0x0800, blue at 0x1000, leaving 0x1800–0x1fff free).

``--image-out FILE`` (and ``-o FILE.png``) writes the whole data store after the run as the
64×128 greyscale PNG of that layout (as RGB with equal channels), so an image written out
loads back unchanged with ``--image-in``.

Stride 0 matters: the data store has 16 banks and the same address names another byte under
another stride (:mod:`.datastore`), so these functions place each pixel through
:func:`~.datastore.offset` with stride 0 rather than at file offset ``a``.
"""

from __future__ import annotations

import numpy as np

from ...core.diagnostics import InputError
from .datastore import SIZE, offset

WIDTH = 64
HEIGHT = SIZE // WIDTH  # 128 rows
MAX_COLOUR_ROWS = HEIGHT // 3  # 42

# file offset of program address a (stride 0), for every a
_PLACES = np.array([offset(address, 0) for address in range(SIZE)], dtype=np.intp)


def store_from_addresses(flat: np.ndarray | bytes) -> bytes:
    """The 8,192-byte data store image (bank layout) holding ``flat[a]`` at program address a, stride 0."""
    flat = np.frombuffer(bytes(flat), dtype=np.uint8) if not isinstance(flat, np.ndarray) else flat
    if flat.size != SIZE:
        raise ValueError(f"a data store holds {SIZE} bytes, not {flat.size}")
    store = np.zeros(SIZE, dtype=np.uint8)
    store[_PLACES] = flat.reshape(-1)
    return store.tobytes()


def addresses_from_store(store: bytes) -> np.ndarray:
    """The bytes at program addresses 0…8191 under stride 0, from a data store image."""
    return np.frombuffer(bytes(store), dtype=np.uint8)[_PLACES]


def picture_rows(rgb: np.ndarray) -> np.ndarray:
    """The 128×64 ``uint8`` rows a picture (H×W×3 RGB) occupies in the layout (zero-padded)."""
    height, width = rgb.shape[:2]
    if width > WIDTH:
        raise InputError(f"a VP1 picture is at most {WIDTH} pixels wide, not {width}")
    grey = bool(np.all(rgb[..., 0] == rgb[..., 1]) and np.all(rgb[..., 1] == rgb[..., 2]))
    rows = np.zeros((HEIGHT, WIDTH), dtype=np.uint8)
    if grey:
        if height > HEIGHT:
            raise InputError(f"a greyscale VP1 picture is at most {HEIGHT} rows, not {height}")
        rows[:height, :width] = rgb[..., 0]
    else:
        if height > MAX_COLOUR_ROWS:
            raise InputError(f"a colour VP1 picture is at most {MAX_COLOUR_ROWS} rows (three planes), not {height}")
        for channel in range(3):
            rows[channel * height:(channel + 1) * height, :width] = rgb[..., channel]
    return rows


def store_from_picture(rgb: np.ndarray) -> bytes:
    """The data store image holding picture ``rgb`` (H×W×3 ``uint8``) in the layout."""
    return store_from_addresses(picture_rows(rgb).reshape(-1))


def picture_from_store(store: bytes) -> np.ndarray:
    """The data store as the 128×64×3 greyscale RGB picture of the layout."""
    grey = addresses_from_store(store).reshape(HEIGHT, WIDTH)
    return np.repeat(grey[:, :, None], 3, axis=2)


def load_picture(path: str) -> bytes:
    """``--image-in``: the data store image holding the picture in file ``path``."""
    from ...render.images import read_picture
    return store_from_picture(read_picture(path, "RGB", HEIGHT, each_side=True, what="VP1 picture"))


def save_picture(path: str, store: bytes) -> None:
    """``--image-out``: write the data store as the 64×128 picture of the layout."""
    from ...render.images import save_image
    save_image(path, picture_from_store(store))
